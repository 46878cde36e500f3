#!/usr/bin/env bash
# Region maps built as Dask tasks against one after another: cuts the Helsinki extract into a
# 4 × 4 grid of regions (Scripts/osm-data/cut-extract.py, complete ways), and splits the 16 tiled
# copies of tile-extract.py 16 into 16 one-copy extracts (cut-extract.py 4 of the tiled file: the
# copies lie 5 % apart, so each cell holds exactly one; checked), then runs dask_build.py on each
# set with WORKERS workers and with --sequential, RUNS rounds each in alternating order, prints
# the median wall times (the whole script: Python, imports and the local cluster included) and
# checks that every map Dask built is byte-identical (cmp) to the sequential build of the same
# PBF. Exits 1 when a build fails or a map differs. Not run by CI.
#
#   Benchmarks/engines/build-regions.sh [RUNS]          (default 3)
#
# Environment: GMAP (default .build/release/gmap), WORK (default /tmp/gmap-build-regions: the
# extracts, maps and logs; never inside the repository), OSM_VENV (default /tmp/osmvenv:
# pyosmium 4.3.2), DASK_VENV (default /tmp/daskvenv: requirements.txt), both made when missing,
# GMAP_SHARED_DATA (default ../shared/data beside the repository: osm/Helsinki.osm.pbf and
# osm/scripts/tile-extract.py), WORKERS (2), NICE (10), SETS (default "hel4 x16"; x16 is skipped
# when tile-extract.py is missing).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs=${1:-3}
gmap=${GMAP:-$root/.build/release/gmap}
work=${WORK:-/tmp/gmap-build-regions}
osm_venv=${OSM_VENV:-/tmp/osmvenv}
dask_venv=${DASK_VENV:-/tmp/daskvenv}
shared=${GMAP_SHARED_DATA:-$root/../shared/data}
workers=${WORKERS:-2}
nice=(nice -n "${NICE:-10}")
sets=${SETS:-hel4 x16}
gmap="$(cd "$(dirname "$gmap")" && pwd)/$(basename "$gmap")"

case "$work/" in "$root"/*) echo "WORK must be outside the repository" >&2; exit 2 ;; esac
mkdir -p "$work"
if [ ! -x "$osm_venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$osm_venv"
    "$osm_venv/bin/pip" install --quiet --disable-pip-version-check osmium==4.3.2
fi
if [ ! -x "$dask_venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$dask_venv"
fi
"$dask_venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
osm_py="$osm_venv/bin/python"
dask_py="$dask_venv/bin/python"
helsinki="$shared/osm/Helsinki.osm.pbf"
tile="$shared/osm/scripts/tile-extract.py"

# The extracts: a set is a folder of PBFs.
for set in $sets; do
    case $set in
    hel4)
        "$osm_py" "$root/Scripts/osm-data/cut-extract.py" 4 "$helsinki" "$work/hel4" --check > "$work/cut-hel4.txt" \
            || { cat "$work/cut-hel4.txt"; exit 1; }
        ;;
    x16)
        if [ ! -f "$tile" ]; then echo "x16: $tile is missing, skipped"; continue; fi
        [ -f "$work/Helsinki-x16.osm.pbf" ] || "$osm_py" "$tile" 16 "$helsinki" "$work/Helsinki-x16.osm.pbf" > /dev/null
        "$osm_py" "$root/Scripts/osm-data/cut-extract.py" 4 "$work/Helsinki-x16.osm.pbf" "$work/x16" --check > "$work/cut-x16.txt" \
            || { cat "$work/cut-x16.txt"; exit 1; }
        # one copy a region: 16 regions of the same node count, 1/16 of the tiled file's
        awk '/ nodes \(/ { total = $0; sub(/ nodes \(.*/, "", total); sub(/.*; /, "", total) }
             / bytes, / { n[NR] = $4; count++ }
             END { for (i in n) if (n[i] * 16 != total) bad++
                   if (count != 16 || bad) { print "x16: the regions are not one copy each"; exit 1 }
                   print "x16: 16 regions of " total / 16 " nodes each, one copy a region" }' "$work/cut-x16.txt"
        ;;
    *) echo "unknown set $set" >&2; exit 2 ;;
    esac
    grep "^check" "$work/cut-$set.txt" | sed "s/^/$set: /"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
status=0
printf '\n| set | PBFs | PBF bytes | variant | wall, median of %s | rounds | load (1 min) |\n|---|---:|---:|---|---:|---|---|\n' "$runs" > "$work/table.md"
for set in $sets; do
    [ -d "$work/$set" ] || continue
    pbfs=("$work/$set"/*.osm.pbf)
    bytes=$(cat "${pbfs[@]}" | wc -c)
    : > "$work/times-$set.txt"
    mkdir -p "$work/out/$set"
    for round in $(seq 1 "$runs"); do
        if [ $((round % 2)) = 1 ]; then order="dask-$workers sequential"; else order="sequential dask-$workers"; fi
        for variant in $order; do
            out="$work/out/$set/$variant-$round"
            rm -rf "$out"
            if [ "$variant" = sequential ]; then mode=(--sequential); else mode=(--workers "$workers"); fi
            load=$(cut -d' ' -f1 /proc/loadavg)
            start=$(date +%s.%N)
            if ! "${nice[@]}" "$dask_py" "$here/dask_build.py" "$out" "${pbfs[@]}" --gmap "$gmap" "${mode[@]}" 2> "$out.log"; then
                echo "$set $variant round $round: a build failed"; tail -n 20 "$out.log"; status=1
            fi
            end=$(date +%s.%N)
            wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
            echo "$variant $round $wall $load" >> "$work/times-$set.txt"
            echo "$set round $round $variant: $wall s (load $load); $(tail -n 1 "$out.log")"
        done
    done
    # every map of every round against the first sequential round's, byte for byte
    ref="$work/out/$set/sequential-1"
    checked=0 differ=0
    for dir in "$work/out/$set"/*/; do
        dir=${dir%/}
        [ "$dir" = "$ref" ] && continue
        if [ "$(cd "$dir" && ls ./*.gmap)" != "$(cd "$ref" && ls ./*.gmap)" ]; then
            echo "$set: $(basename "$dir") has other maps than sequential-1"; differ=$((differ + 1)); continue
        fi
        for map in "$ref"/*.gmap; do
            checked=$((checked + 1))
            cmp -s "$map" "$dir/$(basename "$map")" || { echo "$set: $(basename "$dir")/$(basename "$map") differs"; differ=$((differ + 1)); }
        done
    done
    echo "$set: $checked maps compared with sequential-1 (cmp): $differ differ"
    [ "$differ" = 0 ] || status=1
    for variant in "dask-$workers" sequential; do
        walls=$(awk -v v="$variant" '$1 == v { printf "%s%.2f", sep, $3; sep = ", " }' "$work/times-$set.txt")
        loads=$(awk -v v="$variant" '$1 == v { printf "%s%s", sep, $4; sep = ", " }' "$work/times-$set.txt")
        med=$(awk -v v="$variant" '$1 == v { print $3 }' "$work/times-$set.txt" | median)
        printf '| %s | %d | %s | %s | %.2f s | %s | %s |\n' "$set" "${#pbfs[@]}" "$bytes" "$variant" "$med" "$walls" "$loads" >> "$work/table.md"
    done
done
cat "$work/table.md"
exit $status
