#!/bin/sh
# Times `gmap query MAP -` over 1,000,000 uniform random points (fixed seed) and prints the median
# nanoseconds a line of several runs, with the load average before the runs.
#
#   Benchmarks/batch.sh [GMAP] [MAP] [RUNS] [-- EXTRA QUERY OPTIONS]
#
# GMAP defaults to .build/release/gmap, MAP to /tmp/c10m.gmap (gmap build
# countries-10m.geojson -o /tmp/c10m.gmap --id iso_a2), RUNS to 5. POINTS=N changes the count.
set -eu
gmap=${1:-.build/release/gmap}
map=${2:-/tmp/c10m.gmap}
runs=${3:-5}
[ $# -ge 3 ] && shift 3 || shift $#
[ "${1:-}" = "--" ] && shift
points=${POINTS:-1000000}
input=/tmp/gmap-batch-points-$points.txt
if [ ! -f "$input" ]; then
    # Uniform on the sphere's bounding rectangle, 5 decimals, with a fixed seed.
    awk -v n="$points" 'BEGIN { srand(26); for (i = 0; i < n; i++) printf "%.5f %.5f\n", rand() * 180 - 90, rand() * 360 - 180 }' > "$input"
fi
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)  gmap: $gmap  map: $map  options: $*  lines: $points"
# Wall-clock and CPU (user + system) nanoseconds a line: on a loaded machine the wall clock
# measures the load; the CPU time still measures the work (and, above the wall time, the threads).
times=""
cpus=""
cpu=/tmp/gmap-batch-cpu.$$
i=0
while [ "$i" -lt "$runs" ]; do
    start=$(date +%s%N)
    /usr/bin/time -o "$cpu" -f "%U %S" "$gmap" query "$map" - "$@" < "$input" > /dev/null || [ $? -eq 2 ]
    end=$(date +%s%N)
    times="$times $(( (end - start) / points ))"
    cpus="$cpus $(awk -v n="$points" '{ printf "%d", ($1 + $2) * 1e9 / n }' "$cpu")"
    i=$((i + 1))
done
rm -f "$cpu"
median() { echo $1 | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "wall ns/line: $(echo $times | tr ' ' '\n' | sort -n | tr '\n' ' ') median: $(median "$times")"
echo "cpu ns/line: $(echo $cpus | tr ' ' '\n' | sort -n | tr '\n' ' ') median: $(median "$cpus")"
