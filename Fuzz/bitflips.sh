#!/usr/bin/env bash
# Flips every bit of three small maps, one at a time, reseals every CRC-32, and counts the flips
# that change an answer yet pass `gmap verify` ("missed"), by section. See Docs/Testing.md.
#
#   Fuzz/bitflips.sh [--every N] [--show N] [MAP...]
#
# Without MAP: a map of banded polygons (Fixtures/all-fixtures.geojson, 16° tiles), a map of
# compact points (200 generated towns) and a location map with addresses (built from
# ../shared/data/osm/test.osm.pbf when it is there). --every N flips every Nth bit only (a quick
# look; the counts in Docs/Testing.md are exhaustive). Exits 1 when a flip is missed.
set -euo pipefail
HERE=$(pwd)
cd "$(dirname "$0")"
FUZZ=$(pwd)
ROOT=$(cd .. && pwd)
if [ -x /opt/swift/usr/bin/swiftc ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
export SWIFT_BACKTRACE=enable=no

options=()
maps=()
while [ $# -gt 0 ]; do
    case "$1" in
        --every|--show) options+=("$1" "$2"); shift 2 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        -*) echo "bitflips.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        /*) maps+=("$1"); shift ;;
        *) maps+=("$HERE/$1"); shift ;;
    esac
done

BIN=$FUZZ/bin/bitflips
mkdir -p "$BIN"
CHECKSUM_SOURCES=$(find "$ROOT/Sources/GMapChecksum" -name '*.swift' | sort)
GMAP_SOURCES=$(find "$ROOT/Sources/GMap" -name '*.swift' | sort)
echo "== building the search (swiftc -O)"
# shellcheck disable=SC2086
swiftc -parse-as-library -O -package-name gmap -module-name GMapChecksum -emit-module -emit-module-path "$BIN/GMapChecksum.swiftmodule" \
    -emit-library -static $CHECKSUM_SOURCES -o "$BIN/libGMapChecksum.a"
# shellcheck disable=SC2086
swiftc -parse-as-library -O -package-name gmap -module-name BitFlips -I "$BIN" $GMAP_SOURCES BitFlips/main.swift \
    "$BIN/libGMapChecksum.a" -o "$BIN/bitflips"

if [ ${#maps[@]} -eq 0 ]; then
    GMAP=${GMAP:-$ROOT/.build/release/gmap}
    [ -x "$GMAP" ] || { echo "bitflips.sh: $GMAP is missing: run swift build -c release first (or set GMAP)" >&2; exit 2; }
    quiet() { "$@" > "$BIN/build.log" 2>&1 || { cat "$BIN/build.log" >&2; exit 2; }; }
    quiet "$GMAP" build "$ROOT/Fixtures/all-fixtures.geojson" --tile-size 16 -o "$BIN/banded.gmap"
    python3 - "$BIN/towns.geojson" <<'PY'
import json, random, sys
random.seed(37)
features = [{"type": "Feature", "properties": {"name": f"Town {n}", "population": str(random.randint(100, 90000))},
             "geometry": {"type": "Point", "coordinates": [round(24 + random.random() * 2, 6), round(60 + random.random(), 6)]}}
            for n in range(200)]
json.dump({"type": "FeatureCollection", "features": features}, open(sys.argv[1], "w"))
PY
    quiet "$GMAP" build --layer "towns=$BIN/towns.geojson:name" --keep population --compact-points all -o "$BIN/compact.gmap"
    maps=("$BIN/banded.gmap" "$BIN/compact.gmap")
    pbf=$ROOT/../shared/data/osm/test.osm.pbf
    if [ -f "$pbf" ]; then
        quiet "$GMAP" build --osm "$pbf" -o "$BIN/location.gmap"
        maps+=("$BIN/location.gmap")
    else
        echo "bitflips.sh: $pbf is absent: no location map" >&2
    fi
fi

status=0
for map in "${maps[@]}"; do
    echo "== $map"
    "$BIN/bitflips" "$map" "${options[@]}" || status=1
done
exit $status
