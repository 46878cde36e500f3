#!/usr/bin/env bash
# Draws the pictures of Docs/ with gmap render: the commands that Docs/CLI.md's render section
# shows (and README.md's caption, for Docs/world.png), with -o Docs/NAME.png, run from the
# repository's root with the shipped map ($GMAP_MAP unset).
#
# Usage: Scripts/docs/render-pictures.sh [GMAP]
#   GMAP  the release binary (default: $GMAP_BIN, else .build/release/gmap)
#
# Scripts/check-docs.sh checks the committed pictures: the documents' examples draw each again
# and compare it byte for byte with Docs/NAME.png (cmp), so run this after a change to how gmap
# draws, and commit the pictures with the documents' new byte counts.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
gmap="${1:-${GMAP_BIN:-$repo/.build/release/gmap}}"
[ -x "$gmap" ] || { echo "render-pictures: no gmap binary at '$gmap' (pass the release binary or set GMAP_BIN)" >&2; exit 2; }
gmap="$(cd "$(dirname "$gmap")" && pwd)/$(basename "$gmap")"
cd "$repo"
unset GMAP_MAP

"$gmap" render -o Docs/world.png --width 1200
"$gmap" render -o Docs/benelux-tiles.png --bbox 2,49,8,54 --width 900 --tiles
"$gmap" render -o Docs/europe-points.png --bbox -10,35,25,56 --width 1000 --points Fixtures/known-countries.csv
"$gmap" render -o Docs/alps-labels.png --bbox 5,45,12,48.5 --width 1000 --labels
