#!/usr/bin/env bash
# The builder's size/speed trade-off: builds countries-10m (and timezones with --timezones) at
# several settings and prints file size and instructions per lookup (callgrind: the machine's
# noise does not change instruction counts) on the same near-border, uniform and on-land points
# for every row.
#
# For countries-10m: format 2.1 (its own tiling defaults: 48 edges, 4 × 4 splits, depth 6)
# against format 3 (64 distinct edges, 2 × 2 splits, depth 12) at the defaults; format 3 over
# --max-edges 48/64/96/128 × --split 2/4 × --top entries/packed (--max-depth 12 throughout); and
# other settings that bring countries-10m under 3.1 MB. For regions-josm at 1/65,535°: format 2.1
# against format 3, the top-level forms and 2° tiles. With --timezones: timezones in format 2.1
# and 3, and format 3 at --max-edges 48/64/96/128, --top packed and --split 4.
#
#   Benchmarks/tradeoffs.sh [SHARED_DATA_DIR] [--timezones] [--quick]
#
# --quick measures only the rows with --top entries and the default --split 2 plus --split 4 at
# 64 edges in the countries-10m grid. GMAP_BIN=path uses that gmap binary instead of building one;
# GMAP_SCRATCH=dir builds into dir (default .build); GMAP_TRADEOFFS_WORK=dir holds the maps;
# GMAP_TRADEOFFS_POINTS=N changes the points per set (default 20,000; fewer for a smoke test).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="$root/../shared/data"; timezones=0; quick=0
for argument in "$@"; do
    case "$argument" in
        --timezones) timezones=1 ;;
        --quick) quick=1 ;;
        *) data="$argument" ;;
    esac
done
work="${GMAP_TRADEOFFS_WORK:-$root/.build/tradeoffs}"
count="${GMAP_TRADEOFFS_POINTS:-20000}"
mkdir -p "$work"
if [ -n "${GMAP_BIN:-}" ]; then
    gmap="$GMAP_BIN"
else
    scratch="${GMAP_SCRATCH:-$root/.build}"
    (cd "$root" && swift build -c release --product gmap --scratch-path "$scratch" >/dev/null)
    gmap="$scratch/release/gmap"
fi
command -v valgrind >/dev/null || { echo "tradeoffs.sh needs valgrind (apt-get install valgrind)" >&2; exit 2; }

# Instructions per lookup: two callgrind runs that differ only in the number of timed passes.
# Each bench run makes 3 passes over the points (timed, 1 thread, all threads; valgrind runs the
# threads one after the other), so 5 more runs are 15 more passes.
per_lookup() {
    local map=$1 points=$2 n ir1 ir6
    n=$(grep -vc '^#' "$points")
    ir1=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$gmap" bench "$map" --points-file "$points" --runs 1 2>&1 >/dev/null | awk '/Collected/ {print $4}')
    ir6=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$gmap" bench "$map" --points-file "$points" --runs 6 2>&1 >/dev/null | awk '/Collected/ {print $4}')
    echo $(( (ir6 - ir1) / (15 * n) ))
}

# The point sets, from the default format 3 map, shared by every row of a dataset.
points() {
    local name=$1 input=$2 id=$3; shift 3
    "$gmap" build "$input" -o "$work/$name-reference.gmap" --id "$id" -q "$@"
    "$gmap" bench "$work/$name-reference.gmap" --points "$count" --runs 1 --save-points "$work/$name-sets.txt" >/dev/null
    awk '/^# near/{f=1;next} /^#/{f=0} f' "$work/$name-sets.txt" > "$work/$name-near.txt"
    awk '/^# uniform/{f=1;next} /^#/{f=0} f' "$work/$name-sets.txt" > "$work/$name-uniform.txt"
    awk '/^# on land/{f=1;next} /^#/{f=0} f' "$work/$name-sets.txt" > "$work/$name-land.txt"
}

row() {
    local name=$1 input=$2 id=$3 label=$4; shift 4
    "$gmap" build "$input" -o "$work/$name.gmap" --id "$id" -q "$@"
    echo "| $label | $(stat -c %s "$work/$name.gmap") | $(per_lookup "$work/$name.gmap" "$work/$name-uniform.txt") | $(per_lookup "$work/$name.gmap" "$work/$name-land.txt") | $(per_lookup "$work/$name.gmap" "$work/$name-near.txt") |"
}

formats() {
    local name=$1 input=$2 id=$3; shift 3
    echo "| $name | .gmap bytes | instructions/lookup, uniform | on land | near border |"
    echo "|---|---:|---:|---:|---:|"
    row "$name" "$input" "$id" "format 2.1 (\`--format 2.1\`: 48 edges, split 4, depth 6)" --format 2.1 "$@"
    row "$name" "$input" "$id" "format 3 (defaults: 64 distinct edges, split 2, depth 12, top auto)" "$@"
    echo
}

settings() {
    local name=$1 input=$2 id=$3; shift 3
    echo "| $name, format 3 | .gmap bytes | instructions/lookup, uniform | on land | near border |"
    echo "|---|---:|---:|---:|---:|"
    for setting in "$@"; do
        # shellcheck disable=SC2086
        row "$name" "$input" "$id" "\`$setting\`" $setting
    done
    echo
}

countries=("$data/countries-10m.geojson" iso_a2)
points countries-10m "${countries[@]}"
formats countries-10m "${countries[@]}"
rows=()
for edges in 48 64 96 128; do
    for split in 2 4; do
        for top in entries packed; do
            if [ $quick = 1 ] && { [ $top = packed ] || { [ $split = 4 ] && [ $edges != 64 ]; }; }; then continue; fi
            rows+=("--max-edges $edges --split $split --top $top")
        done
    done
done
settings countries-10m "${countries[@]}" "${rows[@]}"
settings countries-10m "${countries[@]}" "--max-edges 96 --tile-size 2" "--max-edges 128 --tile-size 2" \
    "--max-edges 256 --top packed" "--precision 1e-6"

# regions-josm at 1/65,535° (its automatic tiles are 1°).
regions=("$data/regions-josm.geojson" id)
josm="--precision 0.0000152590218967"
# shellcheck disable=SC2086
points regions-josm-65535 "${regions[@]}" $josm
# shellcheck disable=SC2086
formats regions-josm-65535 "${regions[@]}" $josm
settings regions-josm-65535 "${regions[@]}" "$josm --top packed" "$josm --top entries" "$josm --tile-size 2"

if [ $timezones = 1 ]; then
    [ -f "$work/timezones.geojson" ] || gzip -dc "$data/timezones.geojson.gz" > "$work/timezones.geojson"
    zones=("$work/timezones.geojson" tzid)
    points timezones "${zones[@]}"
    formats timezones "${zones[@]}"
    settings timezones "${zones[@]}" "--max-edges 48" "--max-edges 64" "--max-edges 96" "--max-edges 128" \
        "--max-edges 64 --top packed" "--max-edges 64 --split 4"
fi
