#!/usr/bin/env bash
# Builds a map from every dataset in ../shared/data twice, in format 3 (the defaults) and with
# --format 2.1 (format 2's defaults), and prints two markdown tables: sizes, build time and peak
# memory; and open time, lookup time on three point sets, edges per tile and resident memory.
# Format 2.1 and format 3 are built and benchmarked alternately, ROUNDS times each, so that the
# machine's noise hits both alike; every figure is the median over the rounds (each round's
# lookup time is itself `gmap bench`'s median of RUNS runs).
#
#   Benchmarks/datasets.sh [SHARED_DATA_DIR] [POINTS] [RUNS] [ROUNDS] [-- extra gmap build options]
#
# GMAP_BIN=path uses that gmap binary instead of building one; GMAP_SCRATCH=dir builds into dir
# (default .build); GMAP_DATASETS_WORK=dir holds the maps and reports (default .build/benchmarks).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-$root/../shared/data}"
points="${2:-1000000}"
runs="${3:-7}"
rounds="${4:-2}"
shift $(( $# < 4 ? $# : 4 )); [ "${1:-}" = "--" ] && shift
work="${GMAP_DATASETS_WORK:-$root/.build/benchmarks}"
mkdir -p "$work"
if [ -n "${GMAP_BIN:-}" ]; then
    gmap="$GMAP_BIN"
else
    scratch="${GMAP_SCRATCH:-$root/.build}"
    (cd "$root" && swift build -c release --product gmap --scratch-path "$scratch" >/dev/null)
    gmap="$scratch/release/gmap"
fi
[ -f "$work/timezones.geojson" ] || gzip -dc "$data/timezones.geojson.gz" > "$work/timezones.geojson"

# name:input:id[:extra build options]; regions-josm-65535 is regions-josm at 1/65,535°.
entries=(
    "countries-110m:countries-110m:iso_a2"
    "countries-50m:countries-50m:iso_a2"
    "countries-10m:countries-10m:iso_a2"
    "countries-osm:countries-osm:iso_a2"
    "admin1-50m:admin1-50m:iso_3166_2"
    "regions-josm:regions-josm:id"
    "regions-josm-65535:regions-josm:id:--precision 0.0000152590218967"
    "timezones:timezones:tzid"
)
rm -f "$work"/*.round-*.json "$work"/*.round-*.time
for round in $(seq "$rounds"); do
    for entry in "${entries[@]}"; do
        IFS=: read -r name source id extra <<< "$entry"
        input="$data/$source.geojson"; [ "$source" = timezones ] && input="$work/timezones.geojson"
        for format in 2.1 3; do
            map="$work/$name-f$format.gmap"
            # shellcheck disable=SC2086
            /usr/bin/time -f "%e %M" -o "$map.round-$round.time" \
                "$gmap" build "$input" -o "$map" --id "$id" --format "$format" -q $extra "$@"
            "$gmap" bench "$map" --points "$points" --runs "$runs" --json > "$map.round-$round.json"
        done
    done
done

python3 - "$work" "$data" "$rounds" "${entries[@]}" <<'PY'
import json, os, statistics, sys
work, data, rounds, entries = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
def size(n):
    return f"{n / 1e6:.2f} MB" if n >= 1e6 else f"{n / 1e3:.0f} KB"
def median(values):
    return statistics.median(values) if values else float("nan")
rows = []
for entry in entries:
    name, source, ident, *extra = entry.split(":")
    source_path = os.path.join(data, source + ".geojson")
    source_bytes = os.path.getsize(source_path) if os.path.exists(source_path) else os.path.getsize(os.path.join(work, "timezones.geojson"))
    result = {"name": name, "id": ident, "extra": extra[0] if extra else "", "source": source_bytes}
    for fmt in ("2.1", "3"):
        map_path = os.path.join(work, f"{name}-f{fmt}.gmap")
        reports = [json.load(open(f"{map_path}.round-{r}.json")) for r in range(1, rounds + 1)]
        times = [open(f"{map_path}.round-{r}.time").read().split() for r in range(1, rounds + 1)]
        sets = {}
        for report in reports:
            for s in report["sets"]:
                sets.setdefault(s["name"], []).append(s)
        result[fmt] = {
            "bytes": reports[-1]["bytes"],
            "build": median([float(t[0]) for t in times]),
            "peak": median([int(t[1]) for t in times]) / 1024,
            "open": median([r["open_us"]["median"] for r in reports]),
            "ns": {k: median([s["ns_median"] for s in v]) for k, v in sets.items()},
            "rounds": {k: [s["ns_median"] for s in v] for k, v in sets.items()},
            "edges": {k: (v[-1]["edges_mean"], v[-1]["edges_p99"]) for k, v in sets.items()},
            "resident": (reports[-1]["rss_open_kb"], reports[-1]["rss_after_kb"]),
        }
    rows.append(result)

print("| dataset | id | GeoJSON | format 2.1 | format 3 | format 3 vs 2.1 | build 2.1 → 3 | peak memory 2.1 → 3 |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for r in rows:
    a, b = r["2.1"], r["3"]
    label = r["name"] + (f" (`{r['extra']}`)" if r["extra"] else "")
    print(f"| {label} | {r['id']} | {size(r['source'])} | {size(a['bytes'])} | {size(b['bytes'])} | "
          f"{(b['bytes'] / a['bytes'] - 1) * 100:+.1f} % | {a['build']:.2f} → {b['build']:.2f} s | {a['peak']:.0f} → {b['peak']:.0f} MB |")
print()
print("| dataset | open 2.1 / 3 | uniform 2.1 / 3 | on land 2.1 / 3 | near border (100 m) 2.1 / 3 | edges in the point's tile near border, mean and p99, 2.1 / 3 | map resident after open → after N lookups, format 3 |")
print("|---|---:|---:|---:|---:|---:|---:|")
def ns(result, key):
    value = result["ns"].get(key)
    return "n/a" if value is None else f"{value:.0f}"
for r in rows:
    a, b = r["2.1"], r["3"]
    label = r["name"] + (f" (`{r['extra']}`)" if r["extra"] else "")
    ea, eb = a["edges"].get("near border", (0, 0)), b["edges"].get("near border", (0, 0))
    print(f"| {label} | {a['open']:.1f} / {b['open']:.1f} µs | {ns(a, 'uniform')} / {ns(b, 'uniform')} ns | "
          f"{ns(a, 'on land')} / {ns(b, 'on land')} ns | {ns(a, 'near border')} / {ns(b, 'near border')} ns | "
          f"{ea[0]:.1f}, {ea[1]:.0f} / {eb[0]:.1f}, {eb[1]:.0f} | {b['resident'][0]} KiB → {b['resident'][1]} KiB |")
print()
print(f"Each round's lookup times (ns, format 2.1 then 3; {rounds} rounds):")
for r in rows:
    parts = []
    for key in ("uniform", "on land", "near border"):
        parts.append(f"{key} " + " ".join(f"{x:.0f}" for x in r["2.1"]["rounds"].get(key, [])) + " | "
                     + " ".join(f"{x:.0f}" for x in r["3"]["rounds"].get(key, [])))
    print(f"- {r['name']}: " + "; ".join(parts))
PY
