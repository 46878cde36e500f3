#!/usr/bin/env bash
# compare.sh GMAP MAP [N]
#
# Checks the C reference reader (gmap_ref, built here from gmap_ref.c and main.c) against gmap on
# MAP, and times both.
#
#  1. Points: `gmap bench --save-points` writes gmap's own point sets from N points (default
#     1,000,000): "uniform" (uniform on the sphere), "on land" and "near border" (within 100 m of
#     a boundary of the map's first layer; gmap leaves these two out when no uniform point is in
#     a feature, as on a city's map). This script adds three sets for the answers: "in grid", N
#     points uniform in longitude and latitude over the first layer's grid (so that a map of a
#     small region is exercised too); "grid lattice", up to about a million points on a lattice
#     of the first layer's grid whose step divides its tiles (points on tile edges and corners,
#     at whole units); and "world lattice", every 0.25° from -90 to 90 and -180 to 180 (the
#     poles and both antimeridians).
#  2. Answers: `gmap query MAP - --all` and `gmap_ref MAP --all` on every point, then the same
#     without --all (the smallest feature, which lets a version 3 lookup stop early); every
#     line must be the same (0 differences), else the script fails and shows the first ones.
#  3. Timing, per point set (gmap's sets and "in grid"; the lattices are left out): ns per lookup (the smallest containing feature
#     of the map's first layer, as gmap bench times) of `gmap bench MAP --points-file SET
#     --runs R --json` (ns_median) and of `gmap_ref MAP --bench SET --runs R` (median of R runs),
#     each repeated REPEATS times; the medians of those are reported with the ratio Swift ÷ C.
#
# Environment: RUNS (default 11), REPEATS (default 3), CC (default cc), KEEP=1 keeps the work
# directory.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 GMAP MAP [N]" >&2
    exit 2
fi
GMAP=$1
MAP=$2
N=${3:-1000000}
RUNS=${RUNS:-11}
REPEATS=${REPEATS:-3}
CC=${CC:-cc}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gmap-compare.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then trap 'rm -rf "$WORK"' EXIT; else echo "work directory: $WORK"; fi

REF="$WORK/gmap_ref"
$CC -O2 -std=c99 -Wall -Wextra -o "$REF" "$HERE/gmap_ref.c" "$HERE/main.c" -lm

echo "map: $MAP ($(wc -c < "$MAP") bytes; $("$GMAP" info "$MAP" | sed -n 's/^format *//p'))"

# 1. points
"$GMAP" bench "$MAP" --points "$N" --runs 1 --save-points "$WORK/saved.txt" > /dev/null
awk -v dir="$WORK" '
    /^# / { name = substr($0, 3); sub(/:.*/, "", name); gsub(/ /, "-", name); file = dir "/set-" name ".txt"; next }
    /^$/ { next }
    { if (!(file in seen)) { seen[file] = 1; names = names substr(file, length(dir) + 6, length(file) - length(dir) - 9) "\n" } print > file }
    END { printf "%s", names > (dir "/sets") }' "$WORK/saved.txt"
# the first layer's grid: units per degree, origin, tile size, columns, rows
read -r _ U OX OY TW TH COLS ROWS < <("$REF" "$MAP" --info | head -1 | cut -f2-)   # after the name
awk -v U="$U" -v ox="$OX" -v oy="$OY" -v tw="$TW" -v th="$TH" -v c="$COLS" -v r="$ROWS" -v n="$N" -v dir="$WORK" '
    function clampx(v) { return v > 180 ? 180 : v }
    function clampy(v) { return v > 90 ? 90 : v }
    BEGIN {
        srand(7)
        for (i = 0; i < n; i++)
            printf "%.9f,%.9f\n", clampy((oy + rand() * r * th) / U), clampx((ox + rand() * c * tw) / U) > (dir "/set-in-grid.txt")
        k = 0                                  # lattice step tile/2^k, at most about 10^6 points
        while (k < 20 && int(tw / 2^(k + 1)) >= 1 && int(th / 2^(k + 1)) >= 1 && (c * 2^(k + 1) + 1) * (r * 2^(k + 1) + 1) <= 1100000) k++
        sx = int(tw / 2^k); sy = int(th / 2^k); nx = int(c * tw / sx); ny = int(r * th / sy)
        while ((nx + 1) * (ny + 1) > 1100000) { sx *= 2; sy *= 2; nx = int(c * tw / sx); ny = int(r * th / sy) }
        for (j = 0; j <= ny; j++) for (i = 0; i <= nx; i++)
            printf "%.7f,%.7f\n", clampy((oy + j * sy) / U), clampx((ox + i * sx) / U) > (dir "/set-grid-lattice.txt")
        for (i = -360; i <= 360; i++) for (j = -720; j <= 720; j++)
            printf "%.2f,%.2f\n", i / 4, j / 4 > (dir "/set-world-lattice.txt")
    }'
: > "$WORK/all.txt"
summary=""
for s in $(cat "$WORK/sets") in-grid grid-lattice world-lattice; do
    cat "$WORK/set-$s.txt" >> "$WORK/all.txt"
    summary="$summary${summary:+, }$s $(wc -l < "$WORK/set-$s.txt")"
done
TOTAL=$(wc -l < "$WORK/all.txt")
echo "points: $TOTAL ($summary)"

# 2. answers
status=0
for mode in --all ""; do
    "$GMAP" query "$MAP" - $mode < "$WORK/all.txt" > "$WORK/swift.txt"
    "$REF" "$MAP" $mode < "$WORK/all.txt" > "$WORK/c.txt"
    diffs=$(paste -d '\t' "$WORK/swift.txt" "$WORK/c.txt" | awk -F '\t' '$1 != $2' | wc -l)
    lines_s=$(wc -l < "$WORK/swift.txt")
    lines_c=$(wc -l < "$WORK/c.txt")
    echo "answers ${mode:-(smallest)}: $lines_s lines from gmap, $lines_c from gmap_ref, $diffs differences"
    if [ "$diffs" != 0 ] || [ "$lines_s" != "$TOTAL" ] || [ "$lines_c" != "$TOTAL" ]; then
        status=1
        paste -d '\t' "$WORK/all.txt" "$WORK/swift.txt" "$WORK/c.txt" | awk -F '\t' '$2 != $3' | head -10 | \
            sed 's/^/  point, gmap, gmap_ref: /'
    fi
done
if [ $status != 0 ]; then
    echo "FAIL: the readers differ"
    exit 1
fi

# 3. timing
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-12s %9s %12s %12s %12s\n' "set" "points" "Swift ns" "C ns" "Swift ÷ C"
while read -r s; do
    : > "$WORK/t-swift"
    : > "$WORK/t-c"
    for ((k = 0; k < REPEATS; k++)); do
        "$GMAP" bench "$MAP" --points-file "$WORK/set-$s.txt" --runs "$RUNS" --json |
            sed -n 's/.*"sets":\[{[^]]*"ns_median":\([0-9.]*\).*/\1/p' >> "$WORK/t-swift"
        "$REF" "$MAP" --bench "$WORK/set-$s.txt" --runs "$RUNS" | cut -f5 >> "$WORK/t-c"
    done
    ts=$(median < "$WORK/t-swift")
    tc=$(median < "$WORK/t-c")
    printf '%-12s %9s %12.1f %12.1f %12.2f\n' "$s" "$(wc -l < "$WORK/set-$s.txt")" "$ts" "$tc" \
        "$(awk -v a="$ts" -v b="$tc" 'BEGIN { print a / b }')"
done < <(cat "$WORK/sets"; echo in-grid)
echo "OK: 0 differences"
