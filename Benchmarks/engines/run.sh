#!/usr/bin/env bash
# `gmap query --csv` alone against the same stage in Dask: N uniform points (default
# 10,000,000), RUNS rounds (default 3), medians printed as a Markdown table. Not run by CI.
#
#   Benchmarks/engines/run.sh [N] [RUNS]          e.g. run.sh 100000 1 for a quick check
#
# Environment: GMAP (default .build/release/gmap), MAP (default the shipped world map),
# LIB (libCGMap.so, default beside GMAP: the ctypes variants run when it exists and MAP has one
# layer), WORK (default /tmp/gmap-engines: points, outputs, results), VENV (default $WORK/venv),
# PARTS (part files, default 20), WORKERS (default 2), NICE (default 10), VARIANTS (a
# space-separated subset of the variants below; gmap-1 first when the checks should run).
#
# Each round runs, in a rotating order:
#   gmap-1      gmap query MAP --csv ALL.csv --threads 1 > out.csv       (one process, one thread)
#   gmap-2      the same with --threads 2
#   dask-2      dask_gmap.py: read_csv of the part files, map_partitions through
#               `gmap query MAP --csv - --threads 1`, to_csv; a dask.distributed local cluster of
#               WORKERS worker processes of one thread
#   files-2     dask_gmap.py --via files: dask.delayed tasks on the same cluster, each running
#               `gmap query MAP --csv PART --threads 1 > OUT` (no pandas)
#   ctypes-1    dask_gmap.py --via ctypes --scheduler synchronous (one process; one-layer maps)
#   ctypes-2    dask_gmap.py --via ctypes on the local cluster (one-layer maps)
# The first round checks that every variant's output equals gmap-1's after sorting by id.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
n=${1:-10000000}
runs=${2:-3}
gmap=${GMAP:-$root/.build/release/gmap}
map=${MAP:-$root/Sources/GMapWorld/Resources/world.gmap}
lib=${LIB:-$(dirname "$gmap")/libCGMap.so}
work=${WORK:-/tmp/gmap-engines}
venv=${VENV:-$work/venv}
parts=${PARTS:-20}
workers=${WORKERS:-2}
nice=(nice -n "${NICE:-10}")

mkdir -p "$work"
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
py="$venv/bin/python"

points="$work/points-$n-$parts"
whole="$work/points-$n.csv"
if [ ! -f "$points/done" ] || [ ! -f "$whole" ]; then
    echo "generating $n points in $parts parts: $points, $whole"
    rm -rf "$points"
    "${nice[@]}" "$py" "$here/gen_points.py" "$n" "$points" --parts "$parts" --whole "$whole"
    touch "$points/done"
fi

variants=(gmap-1 gmap-2 dask-2 files-2)
layers=$("$gmap" info "$map" | awk '$1 == "layers" { print $2 }')
if [ -f "$lib" ] && [ "$layers" = 1 ]; then
    variants+=(ctypes-1 ctypes-2)
fi
if [ -n "${VARIANTS:-}" ]; then
    read -r -a variants <<< "$VARIANTS"
fi
# The input has an `id` column; on a map of one layer gmap's answer column is `id` too.
answer=(--prefix g_)
results="$work/results-$n-$(date +%Y%m%d-%H%M%S).jsonl"
echo "gmap: $gmap  map: $map ($layers layers)  points: $n  parts: $parts  workers: $workers  runs: $runs"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
echo "results: $results"

run_variant() {
    local v=$1 out="$work/out-$1"
    rm -rf "$out" "$out.csv"
    case $v in
    gmap-1 | gmap-2)
        "${nice[@]}" "$py" "$here/measure.py" "$v" "$results" --stdout "$out.csv" -- \
            "$gmap" query "$map" --csv "$whole" --threads "${v#gmap-}" "${answer[@]}" ;;
    dask-2)
        "${nice[@]}" "$py" "$here/measure.py" "$v" "$results" -- \
            "$py" "$here/dask_gmap.py" "$map" "$points" "$out" --gmap "$gmap" \
            --workers "$workers" "${answer[@]}" ;;
    files-2)
        "${nice[@]}" "$py" "$here/measure.py" "$v" "$results" -- \
            "$py" "$here/dask_gmap.py" "$map" "$points" "$out" --gmap "$gmap" --via files \
            --workers "$workers" "${answer[@]}" ;;
    ctypes-1)
        "${nice[@]}" "$py" "$here/measure.py" "$v" "$results" -- \
            "$py" "$here/dask_gmap.py" "$map" "$points" "$out" --gmap "$gmap" --via ctypes \
            --lib "$lib" --scheduler synchronous --workers 1 "${answer[@]}" ;;
    ctypes-2)
        "${nice[@]}" "$py" "$here/measure.py" "$v" "$results" -- \
            "$py" "$here/dask_gmap.py" "$map" "$points" "$out" --gmap "$gmap" --via ctypes \
            --lib "$lib" --workers "$workers" "${answer[@]}" ;;
    esac
}

status=0
pending=()
for ((round = 0; round < runs; round++)); do
    # Rotate the order so that no variant always runs first (or after the same one).
    count=${#variants[@]}
    for ((k = 0; k < count; k++)); do
        v=${variants[$(((k + round) % count))]}
        run_variant "$v"
        if [ "$round" = 0 ] && [ "$v" != gmap-1 ]; then
            pending+=("$v")
        fi
        if [ "$round" = 0 ] && [ -f "$work/out-gmap-1.csv" ] && [ "${#pending[@]}" -gt 0 ]; then
            for p in "${pending[@]}"; do
                other="$work/out-$p"; [ -d "$other" ] || other="$other.csv"
                echo "check $p against gmap-1:"
                "${nice[@]}" "$py" "$here/compare.py" "$work/out-gmap-1.csv" "$other" || status=1
            done
            pending=()
        fi
    done
done

echo
"$py" "$here/summarize.py" "$results" "$n"
echo
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
