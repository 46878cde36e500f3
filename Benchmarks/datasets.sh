#!/usr/bin/env bash
# Builds a map from every dataset in ../shared/data and prints a markdown table of file size,
# build time, peak memory, open time and lookup time (medians of repeated runs, from gmap bench).
#
#   Benchmarks/datasets.sh [SHARED_DATA_DIR] [POINTS] [RUNS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-$root/../shared/data}"
points="${2:-1000000}"
runs="${3:-11}"
work="$root/.build/benchmarks"
mkdir -p "$work"
(cd "$root" && swift build -c release --product gmap >/dev/null)
gmap="$root/.build/release/gmap"
[ -f "$work/timezones.geojson" ] || gzip -dc "$data/timezones.geojson.gz" > "$work/timezones.geojson"

echo "| dataset | id | GeoJSON | .gmap | build | peak memory | open (median) | lookup, uniform (median) | lookup, on land (median) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for entry in countries-110m:iso_a2 countries-50m:iso_a2 countries-10m:iso_a2 countries-osm:iso_a2 regions-josm:id admin1-50m:iso_3166_2 timezones:tzid; do
    name="${entry%%:*}"; id="${entry##*:}"
    input="$data/$name.geojson"; [ "$name" = timezones ] && input="$work/timezones.geojson"
    /usr/bin/time -f "%e %M" -o "$work/$name.time" "$gmap" build "$input" -o "$work/$name.gmap" --id "$id" -q
    read -r seconds kilobytes < "$work/$name.time"
    "$gmap" bench "$work/$name.gmap" --points "$points" --runs "$runs" > "$work/$name.bench"
    open=$(grep '^open' "$work/$name.bench" | sed -E 's/.*median ([0-9.]+) µs.*/\1 µs/')
    uniform=$(grep '^uniform' "$work/$name.bench" | sed -E 's/.*median ([0-9.]+) ns.*/\1 ns/')
    land=$(grep '^on land' "$work/$name.bench" | sed -E 's/.*median ([0-9.]+) ns.*/\1 ns/')
    printf "| %s | %s | %s | %s | %s s | %s MB | %s | %s | %s |\n" "$name" "$id" \
        "$(numfmt --to=si --suffix=B "$(stat -c %s "$input")")" "$(numfmt --to=si --suffix=B "$(stat -c %s "$work/$name.gmap")")" \
        "$seconds" "$((kilobytes / 1024))" "$open" "$uniform" "$land"
done
