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
times=""
i=0
while [ "$i" -lt "$runs" ]; do
    start=$(date +%s%N)
    "$gmap" query "$map" - "$@" < "$input" > /dev/null || [ $? -eq 2 ]
    end=$(date +%s%N)
    times="$times $(( (end - start) / points ))"
    i=$((i + 1))
done
sorted=$(echo $times | tr ' ' '\n' | sort -n)
median=$(echo "$sorted" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "ns/line: $(echo $sorted | tr '\n' ' ')  median: $median"
