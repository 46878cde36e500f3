#!/usr/bin/env bash
# The shipped map is now the four-layer world map (countries first, then marine, timezones and
# towns): Scripts/world-map/build-world-map.sh builds it, with this directory's
# fetch-natural-earth.sh for the countries layer. This script is kept so that old instructions
# still work; it runs that one with the same arguments.
#
#   Scripts/default-map/build-default-map.sh            # writes Sources/GMapWorld/Resources/world.gmap
#   Scripts/default-map/build-default-map.sh OUT.gmap   # writes elsewhere
set -euo pipefail
exec "$(cd "$(dirname "$0")/.." && pwd)/world-map/build-world-map.sh" "$@"
