#!/usr/bin/env bash
# damaged.sh GMAP MAP [ITERATIONS]
#
# Shows that the C reader fails cleanly on damaged maps:
#  1. truncated copies of MAP (at 0, 1, 63, 64 bytes, at every section's start and middle, and
#     one byte short): gmap_ref must refuse each ("truncated" or "malformed", exit 2), as gmap
#     does;
#  2. damage.c (built with AddressSanitizer and UndefinedBehaviorSanitizer when the compiler has
#     them): ITERATIONS (default 1000) damaged copies per section, each section moved to the end
#     of the copy so that a read past it is a read past the buffer; every copy must either be
#     refused or answer its lookups, with no crash and no read outside the map.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 GMAP MAP [ITERATIONS]" >&2
    exit 2
fi
GMAP=$1
MAP=$2
ITER=${3:-1000}
CC=${CC:-cc}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gmap-damaged.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

$CC -O2 -std=c99 -Wall -Wextra -o "$WORK/gmap_ref" "$HERE/gmap_ref.c" "$HERE/main.c" -lm
size=$(wc -c < "$MAP")
cuts="0 1 63 64 $((size - 1))"
for o in $(python3 - "$MAP" <<'EOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
hl, n = struct.unpack_from('<II', b, 12)
for i in range(n):
    off, ln = struct.unpack_from('<QQ', b, hl + 32 * i + 8)
    print(off, off + ln // 2)
EOF
); do cuts="$cuts $o"; done
bad=0
for c in $cuts; do
    head -c "$c" "$MAP" > "$WORK/cut.gmap"
    set +e
    msg=$("$WORK/gmap_ref" "$WORK/cut.gmap" --check 2>&1); rc=$?
    gmsg=$(echo "0 0" | "$GMAP" query "$WORK/cut.gmap" - 2>&1 >/dev/null); grc=$?
    set -e
    printf '  cut at %9s bytes: gmap_ref exit %d (%s); gmap exit %d\n' "$c" "$rc" "${msg#*: *: }" "$grc"
    if [ "$rc" != 2 ]; then bad=1; fi
done
if [ $bad != 0 ]; then echo "FAIL: a truncated map was not refused"; exit 1; fi

SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
if ! echo 'int main(void){return 0;}' | $CC $SAN -x c - -o "$WORK/san" 2>/dev/null; then SAN=""; fi
$CC -std=c99 -g -O1 -Wall -Wextra $SAN -o "$WORK/damage" "$HERE/damage.c" "$HERE/gmap_ref.c" -lm
echo "damage.c ${SAN:+(with $SAN)}:"
"$WORK/damage" "$MAP" "$ITER" | sed 's/^/  /'
echo "OK: every damaged map failed cleanly"
