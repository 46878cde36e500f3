#!/usr/bin/env bash
# Builds a map from every dataset in ../shared/data and prints a markdown table of file size,
# build time, peak memory, open time, lookup time on three point sets, edges per tile, memory and
# two-thread scaling (medians of repeated runs, from `gmap bench --json`).
#
#   Benchmarks/datasets.sh [SHARED_DATA_DIR] [POINTS] [RUNS] [-- extra gmap build options]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-$root/../shared/data}"
points="${2:-1000000}"
runs="${3:-11}"
shift $(( $# < 3 ? $# : 3 )); [ "${1:-}" = "--" ] && shift
work="$root/.build/benchmarks"
mkdir -p "$work"
(cd "$root" && swift build -c release --product gmap >/dev/null)
gmap="$root/.build/release/gmap"
[ -f "$work/timezones.geojson" ] || gzip -dc "$data/timezones.geojson.gz" > "$work/timezones.geojson"

echo "| dataset | id | GeoJSON | .gmap | build | peak memory | open | uniform | on land | near border (100 m) | edges/tile near border (mean, p99) | map resident after open → after N lookups | 2 threads |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for entry in countries-110m:iso_a2 countries-50m:iso_a2 countries-10m:iso_a2 countries-osm:iso_a2 regions-josm:id admin1-50m:iso_3166_2 timezones:tzid; do
    name="${entry%%:*}"; id="${entry##*:}"
    input="$data/$name.geojson"; [ "$name" = timezones ] && input="$work/timezones.geojson"
    /usr/bin/time -f "%e %M" -o "$work/$name.time" "$gmap" build "$input" -o "$work/$name.gmap" --id "$id" -q "$@"
    read -r seconds kilobytes < "$work/$name.time"
    "$gmap" bench "$work/$name.gmap" --points "$points" --runs "$runs" --json > "$work/$name.json"
    python3 - "$work/$name.json" "$name" "$id" "$(stat -c %s "$input")" "$seconds" "$kilobytes" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
name, ident, source, seconds, kib = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
sets = {s["name"]: s for s in report["sets"]}
def size(n):
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} KB"
def ns(s):
    return f"{sets[s]['ns_median']:.0f} ns" if s in sets else "n/a"
near = sets.get("near border", {})
threads = report["threads"]
scaling = f"{threads[-1]['lookups_per_second'] / threads[0]['lookups_per_second']:.2f}×" if len(threads) > 1 else "n/a"
print(f"| {name} | {ident} | {size(source)} | {size(report['bytes'])} | {seconds} s | {kib // 1024} MB | "
      f"{report['open_us']['median']:.1f} µs | {ns('uniform')} | {ns('on land')} | {ns('near border')} | "
      f"{near.get('edges_mean', 0):.1f}, {near.get('edges_p99', 0):.0f} | "
      f"{report['rss_open_kb']} KiB → {report['rss_after_kb']} KiB | {scaling} |")
PY
done
