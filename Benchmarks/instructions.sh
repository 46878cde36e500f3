#!/usr/bin/env bash
# Instructions per call of the hot paths, counted with callgrind and checked against
# Benchmarks/instruction-thresholds.txt (as allocations.sh checks allocations): a case more than 3 %
# above its threshold fails the script. Instruction counts do not swing with the machine's load as
# times do, so this is the number to quote for the hot path; times stay in `gmap bench`.
#
# Each case runs `gmap bench MAP --only OPERATION --calls N` under callgrind twice, with N = CALLS
# and N = 2 × CALLS on the same inputs (the same points, walks or names), and
# (instructions of the second − instructions of the first) / CALLS is the cost of one call,
# whatever opening the map and making the inputs cost.
#
#   Benchmarks/instructions.sh [GMAP] [--calls N] [--update] [--only NAME]
#
# GMAP        the release binary (default: .build/release/gmap).
# --calls N   calls of the first run (default 4000; placemarks, updates and geocoding a tenth).
# --update    write the measured values (rounded up) as the new thresholds.
# --only NAME run the cases whose name starts with NAME (lookup.countries-10m, placemark, where, ...).
#
# Cases: `lookup` on three maps built from ../shared/data (countries-10m, regions-josm at
# 1/65,535° and timezones) at three point sets each (uniform on the sphere, on land, within 100 m
# of a border: `gmap bench --save-points`, 4,000 points each, seed 42), and on the shipped map;
# `placemark` (a fresh GMap.placemark), `stack-placemark` (a MapStack's, as gmap place - fills
# them) and `geocode` (town names) on the shipped map; `place-line` (a line of `gmap place -` on
# one thread, reading and writing included); `where` (a LocationContext update) on the
# Helsinki location map. Cases whose data is missing are skipped with a message. The C reference
# reader (Benchmarks/c-reader, built with cc -O2) is counted on the same lookups and printed
# beside them as a peer, not checked. Needs valgrind (Debian package valgrind).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
gmap="$repo/.build/release/gmap"
calls=4000
update=0
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --calls) calls=$2; shift 2 ;;
        --update) update=1; shift ;;
        --only) only=$2; shift 2 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        -*) echo "instructions: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) gmap=$1; shift ;;
    esac
done
command -v valgrind >/dev/null || { echo "instructions: valgrind is not installed (Debian: apt-get install valgrind)" >&2; exit 3; }
[ -x "$gmap" ] || { echo "instructions: no gmap binary at '$gmap'" >&2; exit 2; }
data="$repo/../shared/data"
world="$repo/Sources/GMapWorld/Resources/world.gmap"
thresholds="$repo/Benchmarks/instruction-thresholds.txt"
work="$(mktemp -d "${TMPDIR:-/tmp}/gmap-instructions.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# Dictionary and Set orders are seeded per process unless asked not to be: the same work each run.
export SWIFT_DETERMINISTIC_HASHING=1

# The instructions callgrind counts in one run of COMMAND...
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
        | sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
}

# Instructions per call: (run of 2N calls − run of N calls) / N.
per_call() {  # N COMMAND... (the command takes --calls appended)
    local n=$1; shift
    local one two
    one=$(count "$@" --calls "$n")
    two=$(count "$@" --calls $((2 * n)))
    [ -n "$one" ] && [ -n "$two" ] || { echo "instructions: callgrind gave no count for: $*" >&2; return 1; }
    awk -v a="$one" -v b="$two" -v n="$n" 'BEGIN { printf "%.0f", (b - a) / n }'
}

# The C reader's instructions per lookup: gmap_ref --bench makes runs + 1 passes over the set.
c_per_call() {  # MAP SET_FILE POINTS
    local one three
    one=$(count "$work/gmap_ref" "$1" --bench "$2" --runs 1)
    three=$(count "$work/gmap_ref" "$1" --bench "$2" --runs 3)
    awk -v a="$one" -v b="$three" -v n="$3" 'BEGIN { printf "%.0f", (b - a) / (2 * n) }'
}

c_reader=0
if command -v cc >/dev/null && cc -O2 -std=c99 -o "$work/gmap_ref" "$repo/Benchmarks/c-reader/gmap_ref.c" "$repo/Benchmarks/c-reader/main.c" -lm 2>/dev/null; then
    c_reader=1
else
    echo "instructions: no C compiler: the C reader is not counted"
fi

failed=0
declare -A measured
# Prints one case and checks it against its threshold.
report() {  # NAME VALUE [PEER]
    local name=$1 value=$2 peer=${3:-}
    measured[$name]=$value
    local limit verdict note=""
    [ -n "$peer" ] && note=$(awk -v v="$value" -v c="$peer" 'BEGIN { printf "  C reader %d (%.2f×)", c, v / c }')
    limit=$(awk -v name="$name" '$1 == name { print $2 }' "$thresholds" 2>/dev/null || true)
    if [ -z "$limit" ]; then
        printf '%-38s %7s instructions a call; no threshold%s\n' "$name" "$value" "$note"
        [ "$update" = 1 ] || failed=1
        return
    fi
    verdict=$(awk -v v="$value" -v l="$limit" 'BEGIN { print (v > l * 1.03 ? "ABOVE" : (v < l * 0.9 ? "well below" : "within")) }')
    printf '%-38s %7s instructions a call; threshold %s: %s%s\n' "$name" "$value" "$limit" "$verdict" "$note"
    [ "$verdict" = ABOVE ] && failed=1
    return 0
}

wanted() { [ -z "$only" ] || [ "${1#"$only"}" != "$1" ]; }

# Lookups on MAP at its three point sets (saved by gmap bench itself), against the C reader.
lookups() {  # LABEL MAP
    local label=$1 map=$2
    wanted "lookup.$label" || return 0
    "$gmap" bench "$map" --points "$calls" --save-points "$work/$label.points" --only lookup --calls 0 >/dev/null
    awk -v dir="$work" -v label="$label" '/^# /{ n++; file = sprintf("%s/%s.set%d", dir, label, n) } { print > file }' "$work/$label.points"
    local index=0 set
    for set in uniform "on land" "near border"; do
        index=$((index + 1))
        local file="$work/$label.set$index" value peer=""
        value=$(per_call "$calls" "$gmap" bench "$map" --points-file "$file" --only lookup)
        # The C reader does not open every map (it refuses layers of compact points): no peer then.
        [ "$c_reader" = 1 ] && peer=$(c_per_call "$map" "$file" "$calls" 2>/dev/null || true)
        [ "${peer:-0}" -gt 0 ] 2>/dev/null || peer=""
        report "lookup.$label.${set// /-}" "$value" "$peer"
    done
}

if [ -d "$data" ]; then
    if wanted "lookup.countries-10m"; then
        "$gmap" build "$data/countries-10m.geojson" --id iso_a2 -q -o "$work/countries-10m.gmap"
        lookups countries-10m "$work/countries-10m.gmap"
    fi
    if wanted "lookup.regions-josm-65535"; then
        "$gmap" build "$data/regions-josm.geojson" --id id --precision 0.0000152590218967 -q -o "$work/regions-josm-65535.gmap"
        lookups regions-josm-65535 "$work/regions-josm-65535.gmap"
    fi
    if wanted "lookup.timezones"; then
        gzip -dc "$data/timezones.geojson.gz" > "$work/timezones.geojson"
        "$gmap" build "$work/timezones.geojson" --id tzid -q -o "$work/timezones.gmap"
        rm -f "$work/timezones.geojson"
        lookups timezones "$work/timezones.gmap"
    fi
else
    echo "instructions: ../shared/data is absent: the lookups on countries-10m, regions-josm and timezones are skipped"
fi
lookups world "$world"

small=$(( calls / 10 > 0 ? calls / 10 : 1 ))
for operation in placemark stack-placemark geocode; do
    wanted "$operation" || continue
    report "$operation.world" "$(per_call "$small" "$gmap" bench "$world" --points "$small" --only "$operation")"
done
# gmap place - on one thread, a line of uniform points (the same every run: a linear congruential
# generator in awk): reading, the placemark through a MapStack and writing, per line.
if wanted place-line; then
    awk -v n=$((2 * small)) 'BEGIN { s = 20261129; pi = atan2(0, -1)
        for (i = 0; i < n; i++) {
            s = (s * 1103515245 + 12345) % 2147483648; u = s / 2147483648
            s = (s * 1103515245 + 12345) % 2147483648; v = s / 2147483648
            printf "%.6f %.6f\n", atan2(2 * u - 1, sqrt(1 - (2 * u - 1)^2)) * 180 / pi, v * 360 - 180 } }' > "$work/lines.txt"
    head -n "$small" "$work/lines.txt" > "$work/half.txt"
    one=$(count "$gmap" place - --threads 1 < "$work/half.txt")
    two=$(count "$gmap" place - --threads 1 < "$work/lines.txt")
    report "place-line.world" "$(awk -v a="$one" -v b="$two" -v n="$small" 'BEGIN { printf "%.0f", (b - a) / n }')"
fi
if wanted where; then
    if [ -f "$data/osm/Helsinki.osm.pbf" ]; then
        "$gmap" build --osm "$data/osm/Helsinki.osm.pbf" -q -o "$work/helsinki.gmap"
        report "where.helsinki" "$(per_call "$small" "$gmap" bench "$work/helsinki.gmap" --only where)"
    else
        echo "instructions: ../shared/data/osm/Helsinki.osm.pbf is absent: the where update is skipped"
    fi
fi

if [ "$update" = 1 ]; then
    # The cases run now, and the thresholds of those not run (skipped data, --only) as they were.
    {
        for name in "${!measured[@]}"; do printf '%s %s\n' "$name" "${measured[$name]}"; done
        if [ -f "$thresholds" ]; then
            grep -v '^#' "$thresholds" | while read -r name value; do
                if [ -z "${measured[$name]:-}" ]; then printf '%s %s\n' "$name" "$value"; fi
            done
        fi
    } | sort > "$work/thresholds"
    {
        echo "# Instructions per call (Benchmarks/instructions.sh): a case fails above its value × 1.03."
        echo "# Written by Benchmarks/instructions.sh --update; lower a value when a change makes a path cheaper."
        cat "$work/thresholds"
    } > "$thresholds"
    echo "instructions: wrote $thresholds"
    exit 0
fi
[ "$failed" = 0 ] || { echo "instructions: a case is more than 3 % above its threshold (or has none)" >&2; exit 1; }
echo "instructions: every case within its threshold"
