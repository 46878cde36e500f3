#!/usr/bin/env bash
# Measures what the reader's bounds checks cost per lookup: the same benchmark with the normal
# build and with a build whose ByteSpan checks are compiled out (-D GMAP_UNCHECKED_READS), run
# alternately several times so that machine noise hits both alike. Prints both medians.
#
#   Benchmarks/check-cost.sh [MAP] [ROUNDS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
map="${1:-$root/Sources/GMapWorld/Resources/world.gmap}"
rounds="${2:-5}"
cd "$root"
swift build -c release --product gmap >/dev/null
swift build -c release --product gmap --scratch-path .build-unchecked -Xswiftc -DGMAP_UNCHECKED_READS >/dev/null
for round in $(seq "$rounds"); do
    for variant in checked unchecked; do
        binary=.build/release/gmap; [ $variant = unchecked ] && binary=.build-unchecked/release/gmap
        "$binary" bench "$map" --points 1000000 --runs 5 | sed "s/^/$variant /"
    done
done | python3 -c '
import re, sys, statistics
values = {}
for line in sys.stdin:
    m = re.match(r"(checked|unchecked) (uniform|on land)\s+median ([0-9.]+) ns", line)
    if m: values.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)))
for kind in ("uniform", "on land"):
    c, u = values.get(("checked", kind), []), values.get(("unchecked", kind), [])
    if c and u:
        mc, mu = statistics.median(c), statistics.median(u)
        print(f"{kind:8}: checked {mc:.1f} ns, unchecked {mu:.1f} ns per lookup (medians of {len(c)} rounds): the checks cost {mc - mu:+.1f} ns ({(mc / mu - 1) * 100:+.1f} %)")
        print(f"          rounds checked {c}, unchecked {u}")
'
