#!/usr/bin/env bash
# Measures what the reader's bounds checks cost per lookup: the same benchmark with the normal
# build and with a build whose ByteSpan checks are compiled out (-D GMAP_UNCHECKED_READS), run
# alternately several times so that machine noise hits both alike. Prints both medians.
#
#   Benchmarks/check-cost.sh [MAP] [ROUNDS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
map="${1:-$root/Sources/gmap/Resources/world.gmap}"
rounds="${2:-5}"
cd "$root"
swift build -c release --product gmap >/dev/null
swift build -c release --product gmap --scratch-path .build-unchecked -Xswiftc -DGMAP_UNCHECKED_READS >/dev/null
for round in $(seq "$rounds"); do
    for variant in checked unchecked; do
        binary=.build/release/gmap; [ $variant = unchecked ] && binary=.build-unchecked/release/gmap
        "$binary" bench "$map" --points 1000000 --runs 5 | sed "s/^/$variant /"
    done
done | awk '
    /(uniform|on land)/ { kind = ($2 == "uniform") ? "uniform" : "on-land"; for (i = 1; i <= NF; i++) if ($i == "median") v = $(i + 1); values[$1 " " kind] = values[$1 " " kind] " " v }
    END { for (k in values) { n = split(values[k], a, " "); asort(a); print k ": median of " n " rounds " a[int((n + 1) / 2)] " ns/lookup (" values[k] " )" } }' | sort
