#!/usr/bin/env bash
# Heap allocations per point, checked against Benchmarks/allocation-thresholds.txt (as swift-nio's
# benchmark thresholds are): each case runs the gmap binary under valgrind twice, on 1 point and on
# N points of standard input, and (allocations for N − allocations for 1) / (N − 1) is the cost of
# one more point, whatever the start-up costs. A case above its threshold fails the script; one
# well below it is reported so the threshold can be lowered.
#
#   Benchmarks/allocations.sh [GMAP] [--points N] [--update]
#
# GMAP     the release binary (default: .build/release/gmap); the shipped map is read from
#          Sources/GMapWorld/Resources/world.gmap.
# --points N   points of the larger run (default 2000; uniform on the sphere, seeded).
# --update     write the measured values (rounded up to a tenth) as the new thresholds.
# Needs valgrind (Debian package valgrind).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
gmap="$repo/.build/release/gmap"
points=2000
update=0
while [ $# -gt 0 ]; do
    case "$1" in
        --points) points=$2; shift 2 ;;
        --update) update=1; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        -*) echo "allocations: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) gmap=$1; shift ;;
    esac
done
command -v valgrind >/dev/null || { echo "allocations: valgrind is not installed (Debian: apt-get install valgrind)" >&2; exit 3; }
[ -x "$gmap" ] || { echo "allocations: no gmap binary at '$gmap'" >&2; exit 2; }
map="$repo/Sources/GMapWorld/Resources/world.gmap"
thresholds="$repo/Benchmarks/allocation-thresholds.txt"
work="$(mktemp -d "${TMPDIR:-/tmp}/gmap-allocations.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Uniform points on the sphere, the same every run (a linear congruential generator in awk).
awk -v n="$points" 'BEGIN { s = 20261126; pi = atan2(0, -1)
    for (i = 0; i < n; i++) {
        s = (s * 1103515245 + 12345) % 2147483648; u = s / 2147483648
        s = (s * 1103515245 + 12345) % 2147483648; v = s / 2147483648
        printf "%.6f %.6f\n", atan2(2 * u - 1, sqrt(1 - (2 * u - 1)^2)) * 180 / pi, v * 360 - 180 } }' > "$work/many.txt"
head -1 "$work/many.txt" > "$work/one.txt"
{ echo "id,lat,lon"; awk '{ printf "%d,%s,%s\n", NR, $1, $2 }' "$work/many.txt"; } > "$work/many.csv"
head -2 "$work/many.csv" > "$work/one.csv"

# The allocations valgrind counts for one run of gmap with ARGS on standard input FILE.
allocations() {  # FILE ARGS...
    local input=$1; shift
    # gmap's exit status (1 where a point has no answer) does not matter here: only the count.
    { valgrind --tool=memcheck --leak-check=no "$gmap" "$@" < "$input" 2>&1 >/dev/null || true; } \
        | sed -nE 's/.*total heap usage: ([0-9,]+) allocs.*/\1/p' | tr -d ,
}

# case name, input kind, gmap arguments
cases=(
    "lookup|txt|query $map --layer countries -"
    "lookup-all-layers|txt|query $map -"
    "csv-lookup|csv|query $map --layer countries --csv -"
    "placemark|txt|place $map -"
)
failed=0
declare -A measured
for entry in "${cases[@]}"; do
    IFS='|' read -r name kind arguments <<< "$entry"
    # shellcheck disable=SC2086 # the arguments are words
    one=$(allocations "$work/one.$kind" $arguments)
    # shellcheck disable=SC2086
    many=$(allocations "$work/many.$kind" $arguments)
    per=$(awk -v a="$one" -v b="$many" -v n="$points" 'BEGIN { printf "%.3f", (b - a) / (n - 1) }')
    measured[$name]=$per
    limit=$(awk -v name="$name" '$1 == name { print $2 }' "$thresholds" 2>/dev/null || true)
    if [ -z "$limit" ]; then
        printf '%-18s %8s allocations a point (1 point: %s, %s points: %s); no threshold\n' "$name" "$per" "$one" "$points" "$many"
        [ "$update" = 1 ] || failed=1
        continue
    fi
    verdict=$(awk -v p="$per" -v l="$limit" 'BEGIN { print (p > l ? "ABOVE" : (p < l / 2 && l - p >= 1 ? "well below" : "within")) }')
    printf '%-18s %8s allocations a point (1 point: %s, %s points: %s); threshold %s: %s\n' "$name" "$per" "$one" "$points" "$many" "$limit" "$verdict"
    [ "$verdict" = ABOVE ] && failed=1
done
if [ "$update" = 1 ]; then
    {
        echo "# Heap allocations per point (Benchmarks/allocations.sh): case, the most allowed."
        for entry in "${cases[@]}"; do
            name=${entry%%|*}
            awk -v name="$name" -v p="${measured[$name]}" 'BEGIN { t = int(p * 10 + 0.999) / 10; if (t < 0.1) t = 0.1; printf "%s %.1f\n", name, t }'
        done
    } > "$thresholds"
    echo "allocations: wrote $thresholds"
    exit 0
fi
[ "$failed" = 0 ] || { echo "allocations: a case is above its threshold (or has none); see Benchmarks/allocation-thresholds.txt" >&2; exit 1; }
echo "allocations: every case within its threshold"
