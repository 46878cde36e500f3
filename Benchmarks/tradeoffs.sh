#!/usr/bin/env bash
# The builder's size/speed trade-off: builds countries-10m (and timezones with --timezones) at
# several settings and prints file size and instructions per lookup (callgrind: the machine's
# noise does not change instruction counts) on the same near-border and uniform points.
#
#   Benchmarks/tradeoffs.sh [SHARED_DATA_DIR] [--timezones]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-$root/../shared/data}"
work="$root/.build/tradeoffs"
mkdir -p "$work"
(cd "$root" && swift build -c release --product gmap >/dev/null)
gmap="$root/.build/release/gmap"
command -v valgrind >/dev/null || { echo "tradeoffs.sh needs valgrind (apt-get install valgrind)" >&2; exit 2; }

# Instructions per lookup: two callgrind runs that differ only in the number of timed passes.
# Each bench run makes 3 passes per run (timed, 1 thread, all threads), hence the division.
per_lookup() {
    local map=$1 points=$2 n ir1 ir6
    n=$(grep -vc '^#' "$points")
    ir1=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$gmap" bench "$map" --points-file "$points" --runs 1 2>&1 >/dev/null | awk '/Collected/ {print $4}')
    ir6=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$gmap" bench "$map" --points-file "$points" --runs 6 2>&1 >/dev/null | awk '/Collected/ {print $4}')
    echo $(( (ir6 - ir1) / (15 * n) ))
}

table() {
    local name=$1 input=$2 id=$3; shift 3
    "$gmap" build "$input" -o "$work/$name-reference.gmap" --id "$id" -q
    "$gmap" bench "$work/$name-reference.gmap" --points 20000 --runs 1 --save-points "$work/$name-sets.txt" >/dev/null
    awk '/^# near/{f=1;next} /^#/{f=0} f' "$work/$name-sets.txt" > "$work/$name-near.txt"
    awk '/^# uniform/{f=1;next} /^#/{f=0} f' "$work/$name-sets.txt" > "$work/$name-uniform.txt"
    echo "| $name settings | .gmap bytes | instructions/lookup, near border | instructions/lookup, uniform |"
    echo "|---|---:|---:|---:|"
    for settings in "$@"; do
        # shellcheck disable=SC2086
        "$gmap" build "$input" -o "$work/$name.gmap" --id "$id" -q $settings
        echo "| \`$settings\` | $(stat -c %s "$work/$name.gmap") | $(per_lookup "$work/$name.gmap" "$work/$name-near.txt") | $(per_lookup "$work/$name.gmap" "$work/$name-uniform.txt") |"
    done
}

table countries-10m "$data/countries-10m.geojson" iso_a2 \
    "--max-edges 32" "--max-edges 48" "--max-edges 64" "--max-edges 96" \
    "--split 2 --max-depth 12 --max-edges 48" "--tile-size 2 --max-edges 64" "--precision 1e-6" "--precision 1e-5"
if [ "${2:-}" = "--timezones" ]; then
    [ -f "$work/timezones.geojson" ] || gzip -dc "$data/timezones.geojson.gz" > "$work/timezones.geojson"
    table timezones "$work/timezones.geojson" tzid "--max-edges 48" "--max-edges 64" "--max-edges 96" "--split 2 --max-depth 12 --max-edges 64"
fi
