#!/usr/bin/env bash
# Builds the libFuzzer targets and fuzzes each for a while. See Fuzz/README.md.
#
#   Fuzz/run.sh [--seconds N] [--runs N] [--parallel] [--jobs N] [TARGET...]
#
# TARGET is reader, builder, coordinate or pbf (default: all four, one after another, on one core).
# --seconds N  stops each target after N seconds (default 30, so CI can call it);
# --runs N     stops each target after N executions (whichever comes first when both are given);
# --parallel   fuzzes the targets at the same time, one process (one core) each;
# --jobs N     runs N processes of each target on its one corpus (N cores a target; default 1);
#              --runs then counts each process's executions.
# Corpora grow in Fuzz/corpus-<target>/, crashes go to Fuzz/artifacts/<target>/, logs to
# Fuzz/bin/logs/. Exits non-zero when any target crashed, leaked, timed out or ran out of memory.
#
# Everything is compiled with swiftc straight from a snapshot of Sources/ (copied to Fuzz/bin/src
# first, so edits made meanwhile cannot break or skew a build); `swift build` is not used.
set -euo pipefail

SCRIPT="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"  # before the cd: --help reads it from any directory
cd "$(dirname "$0")"
FUZZ=$(pwd)
ROOT=$(cd .. && pwd)
if [ -x /opt/swift/usr/bin/swiftc ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
export SWIFT_BACKTRACE=enable=no

seconds=30
runs=""
parallel=0
jobs=1
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --parallel) parallel=1; shift ;;
        --jobs) jobs=$2; shift 2 ;;
        -h|--help) sed -n '2,16p' "$SCRIPT"; exit 0 ;;
        reader|builder|coordinate|pbf) targets+=("$1"); shift ;;
        *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(reader builder coordinate pbf)

wants() { local t; for t in "${targets[@]}"; do [ "$t" = "$1" ] && return 0; done; return 1; }

BIN=$FUZZ/bin
mkdir -p "$BIN/logs" "$BIN/fuzz-gmap" "$BIN/plain-gmap"

# -- Sources: one consistent snapshot.
rm -rf "$BIN/src"
mkdir -p "$BIN/src"
cp -R "$ROOT/Sources/GMapChecksum" "$ROOT/Sources/GMap" "$ROOT/Sources/GMapCodecs" "$ROOT/Sources/GMapBuilder" "$BIN/src/"
cp "$ROOT/Sources/gmap/IO/CoordinateParser.swift" "$BIN/src/"
CHECKSUM_SOURCES=$(find "$BIN/src/GMapChecksum" -name '*.swift' | sort)
GMAP_SOURCES=$(find "$BIN/src/GMap" -name '*.swift' | sort)
CODECS_SOURCES=$(find "$BIN/src/GMapCodecs" -name '*.swift' | sort)
BUILDER_SOURCES=$(find "$BIN/src/GMapBuilder" -name '*.swift' | sort)

# -- Compiling. lld avoids a page of harmless ld.gold warnings about ASan's local symbols.
LINKER=()
if command -v ld.lld > /dev/null 2>&1; then LINKER=(-use-ld=lld); fi
# -package-name: GMapChecksum, GMap, GMapCodecs and GMapBuilder share `package` declarations (as one SwiftPM package).
PACKAGE=(-package-name gmap)
FUZZ_FLAGS=(-parse-as-library -sanitize=fuzzer,address -O "${PACKAGE[@]}")
compile() {
    echo "+ swiftc $*" | sed "s|$FUZZ/||g; s|$ROOT/||g" | cut -c1-400
    swiftc "$@" 2>&1 | { grep -v "Cannot export local symbol" || true; }
    return "${PIPESTATUS[0]}"
}

echo "== building"
if wants reader || wants builder || wants pbf; then
    # GMapChecksum (CRC-32), which GMap and GMapCodecs import, as an instrumented static library.
    # shellcheck disable=SC2086
    compile "${FUZZ_FLAGS[@]}" -module-name GMapChecksum -emit-module -emit-module-path "$BIN/fuzz-gmap/GMapChecksum.swiftmodule" \
        -emit-library -static $CHECKSUM_SOURCES -o "$BIN/fuzz-gmap/libGMapChecksum.a"
fi
if wants reader; then
    # The reader target is one module: the harness and every file of GMap (against GMapChecksum).
    # shellcheck disable=SC2086
    compile "${FUZZ_FLAGS[@]}" -module-name ReaderFuzzer -I "$BIN/fuzz-gmap" $GMAP_SOURCES ReaderFuzzer/main.swift \
        "$BIN/fuzz-gmap/libGMapChecksum.a" -o "$BIN/reader-fuzzer" "${LINKER[@]}"
    # The seed maker (no sanitizers) builds small maps from the fixtures for the reader's corpus:
    # formats 3 (both top-level forms, split factors 2, 3 and 5), 2.1, 2.0 and 1.0, and layered maps.
    # shellcheck disable=SC2086
    compile -parse-as-library -Onone "${PACKAGE[@]}" -module-name GMapChecksum -emit-module \
        -emit-module-path "$BIN/plain-gmap/GMapChecksum.swiftmodule" -emit-library -static $CHECKSUM_SOURCES -o "$BIN/plain-gmap/libGMapChecksum.a"
    # shellcheck disable=SC2086
    compile -parse-as-library -Onone "${PACKAGE[@]}" -module-name GMap -I "$BIN/plain-gmap" -emit-module -emit-module-path "$BIN/plain-gmap/GMap.swiftmodule" \
        -emit-library -static $GMAP_SOURCES -o "$BIN/plain-gmap/libGMap.a"
    # shellcheck disable=SC2086
    compile -parse-as-library -Onone "${PACKAGE[@]}" -module-name GMapCodecs -I "$BIN/plain-gmap" -emit-module \
        -emit-module-path "$BIN/plain-gmap/GMapCodecs.swiftmodule" -emit-library -static $CODECS_SOURCES -o "$BIN/plain-gmap/libGMapCodecs.a"
    # shellcheck disable=SC2086
    compile -Onone "${PACKAGE[@]}" -module-name SeedMaker -I "$BIN/plain-gmap" $BUILDER_SOURCES SeedMaker/main.swift \
        "$BIN/plain-gmap/libGMapCodecs.a" "$BIN/plain-gmap/libGMap.a" "$BIN/plain-gmap/libGMapChecksum.a" -o "$BIN/seed-maker"
fi
if wants builder || wants pbf; then
    # GMap as an instrumented static library, then the harness with every file of GMapBuilder.
    # shellcheck disable=SC2086
    compile "${FUZZ_FLAGS[@]}" -module-name GMap -I "$BIN/fuzz-gmap" -emit-module -emit-module-path "$BIN/fuzz-gmap/GMap.swiftmodule" \
        -emit-library -static $GMAP_SOURCES -o "$BIN/fuzz-gmap/libGMap.a"
    # GMapCodecs (DEFLATE, gzip, ZIP) likewise: the builder imports it.
    # shellcheck disable=SC2086
    compile "${FUZZ_FLAGS[@]}" -module-name GMapCodecs -I "$BIN/fuzz-gmap" -emit-module -emit-module-path "$BIN/fuzz-gmap/GMapCodecs.swiftmodule" \
        -emit-library -static $CODECS_SOURCES -o "$BIN/fuzz-gmap/libGMapCodecs.a"
fi
if wants pbf; then
    # The OSM PBF reader, street network, places and location context: GMapBuilder and the harness.
    # shellcheck disable=SC2086
    compile "${FUZZ_FLAGS[@]}" -module-name PBFFuzzer -I "$BIN/fuzz-gmap" $BUILDER_SOURCES PBFFuzzer/main.swift \
        "$BIN/fuzz-gmap/libGMapCodecs.a" "$BIN/fuzz-gmap/libGMap.a" "$BIN/fuzz-gmap/libGMapChecksum.a" -o "$BIN/pbf-fuzzer" "${LINKER[@]}"
fi
if wants builder; then
    # shellcheck disable=SC2086
    compile "${FUZZ_FLAGS[@]}" -module-name BuilderFuzzer -I "$BIN/fuzz-gmap" $BUILDER_SOURCES BuilderFuzzer/main.swift \
        "$BIN/fuzz-gmap/libGMapCodecs.a" "$BIN/fuzz-gmap/libGMap.a" "$BIN/fuzz-gmap/libGMapChecksum.a" -o "$BIN/builder-fuzzer" "${LINKER[@]}"
fi
if wants coordinate; then
    compile "${FUZZ_FLAGS[@]}" -module-name CoordinateFuzzer "$BIN/src/CoordinateParser.swift" CoordinateFuzzer/main.swift \
        -o "$BIN/coordinate-fuzzer" "${LINKER[@]}"
fi

# -- Seeds (read-only corpora beside the growing ones).
echo "== seeding"
if wants reader; then
    rm -rf "$BIN/seeds-reader"; mkdir -p "$BIN/seeds-reader"
    for map in "$ROOT"/Fixtures/*.gmap; do
        if [ -e "$map" ]; then cp "$map" "$BIN/seeds-reader/fixture-$(basename "$map")"; fi
    done
    "$BIN/seed-maker" "$BIN/seeds-reader" "$ROOT"/Fixtures/*.geojson
    echo "reader: $(ls "$BIN/seeds-reader" | wc -l) maps"
fi
if wants pbf; then
    # Small PBF files made by a script (raw and zlib blobs; no OSM data is copied).
    rm -rf "$BIN/seeds-pbf"; mkdir -p "$BIN/seeds-pbf"
    python3 PBFFuzzer/make_seeds.py "$BIN/seeds-pbf"
    echo "pbf: $(ls "$BIN/seeds-pbf" | wc -l) files"
fi
if wants builder; then
    rm -rf "$BIN/seeds-builder"; mkdir -p "$BIN/seeds-builder"
    # Three control bytes (chunk size; tile size, precision, split factor, kept properties; top-level
    # form, format 3 (banded or not) or 2.1 or 2.0, edges per tile), then the GeoJSON. See BuilderFuzzer/main.swift.
    for file in "$ROOT"/Fixtures/*.geojson; do
        name=$(basename "$file" .geojson)
        index=0
        for control in '\x07\x00\x00' '\xff\x01\x01' '\x1f\x8a\x02' '\xc0\x33\x0c' '\x00\x5c\x1c' \
                       '\x10\x23\x42' '\x21\x61\xc1' '\x05\x2d\xa2' '\x31\x17\x50'; do
            { printf "$control"; cat "$file"; } > "$BIN/seeds-builder/$name-$index.bin"
            index=$((index + 1))
        done
    done
    echo "builder: $(ls "$BIN/seeds-builder" | wc -l) inputs"
fi
if wants coordinate; then
    rm -rf "$BIN/seeds-coordinate"; mkdir -p "$BIN/seeds-coordinate"
    index=0
    for line in "36.14 -5.35" "36.14,-5.35" "36.14, -5.35" $'\t-90\t180' "90,-180.0" "1e1 -1.5E+2" "+0.5 -.5" \
                "nan inf" "0x10 5" "91 0" "0 180.0000001" "12,34,56" "-0 -0" "4.9e-324 1.7976931348623157e308" \
                " 51.5072 , -0.1276 " $'48.8566 2.3522\r'; do
        printf '%s' "$line" > "$BIN/seeds-coordinate/line-$index.txt"
        index=$((index + 1))
    done
    # First byte: where to cut the rest into the latitude and longitude arguments.
    printf '\x05-33.8688151.2093' > "$BIN/seeds-coordinate/split-0.bin"
    printf '\x0336.-5' > "$BIN/seeds-coordinate/split-1.bin"
    echo "coordinate: $(ls "$BIN/seeds-coordinate" | wc -l) inputs"
fi

# -- Fuzzing, one target at a time on one core, or (--parallel) all at once, one process each, or
#    (--jobs N) N processes a target. libFuzzer's own -jobs/-workers are not used: they fork children
#    that write fuzz-<n>.log into the working directory, and the final statistics are per child.
#    Each target's maximum input length: the reader's is above the largest seed (the 66,447-byte
#    Fixtures/format-1.0-fixtures.gmap), so that no seed map is cut short.
max_len() { case $1 in reader) echo 73728 ;; builder) echo 65536 ;; coordinate) echo 256 ;; pbf) echo 16384 ;; esac; }
# The reader weighs inputs by their speed: a mutant of the 66 KB 1.0 fixture takes ~20 ms, a small map ~0.3 ms.
extra_flags() { case $1 in reader) echo "-entropic_scale_per_exec_time=1" ;; builder) echo "-dict=geojson.dict" ;; esac; }

# Runs one process of a target (job K of --jobs); its exit code goes to bin/logs/<target>[-K].code.
# Processes of one target share the corpus directory (libFuzzer reloads it, -reload=1).
fuzz() {
    local target=$1 job=${2:-}
    local name=$target${job:+-$job}
    local log="$BIN/logs/$name.log"
    mkdir -p "corpus-$target" "artifacts/$target"
    local limits=(-max_total_time="$seconds")
    [ -n "$runs" ] && limits+=(-runs="$runs")
    echo "== fuzzing $target${job:+ (job $job)} (${runs:+$runs runs, }at most $seconds s; log: bin/logs/$name.log)"
    local code=0
    rm -f "$BIN/logs/$name.code"
    # shellcheck disable=SC2046
    "$BIN/$target-fuzzer" "corpus-$target" "$BIN/seeds-$target" "${limits[@]}" -max_len="$(max_len "$target")" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="artifacts/$target/" $(extra_flags "$target") \
        > "$log" 2>&1 || code=$?
    echo "$code" > "$BIN/logs/$name.code"
}

# All processes of a target (one, or --jobs N at once).
fuzz_target() {
    local target=$1
    if [ "$jobs" -le 1 ]; then fuzz "$target"; return; fi
    local job
    for job in $(seq 1 "$jobs"); do fuzz "$target" "$job" & done
    wait
}

# Prints a target's results from its logs (executions and exec/s summed over its processes, cov
# and ft the largest), and remembers them for the summary.
status=0
summary=()
report() {
    local target=$1
    local names=("$target")
    [ "$jobs" -gt 1 ] && names=($(for job in $(seq 1 "$jobs"); do echo "$target-$job"; done))
    local executed=0 rate=0 cov=0 ft=0 corp="?" result=ok name
    for name in "${names[@]}"; do
        local log="$BIN/logs/$name.log" code final e r c f
        # No exit code: the shell running the process was killed before it finished; a failure too.
        code=$(cat "$BIN/logs/$name.code" 2> /dev/null || echo "?")
        final=$(grep -E "^#[0-9]+.*cov: " "$log" | tail -1 || true)
        e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
        c=$(echo "$final" | sed -nE 's/.*cov: ([0-9]+).*/\1/p')
        f=$(echo "$final" | sed -nE 's/.*ft: ([0-9]+).*/\1/p')
        corp=$(echo "$final" | sed -nE 's/.*corp: ([0-9]+\/[0-9A-Za-z]+).*/\1/p')
        executed=$((executed + ${e:-0})); rate=$((rate + ${r:-0}))
        [ "${c:-0}" -gt "$cov" ] && cov=$c
        [ "${f:-0}" -gt "$ft" ] && ft=$f
        if [ "$code" != 0 ]; then
            result="FAILED (exit $code)"
            status=1
            grep -E "^==[0-9]+==ERROR|Fatal error|invariant violated|ERROR: libFuzzer|SUMMARY:" "$log" | head -5 || true
            grep -E "Test unit written to" "$log" || true
        fi
    done
    echo "$target: executions $executed ($rate/s), cov $cov, ft $ft, corpus ${corp:-?}: $result"
    summary+=("$(printf '%-10s %12s %8s %6s %7s  %s' "$target" "$executed" "$rate" "$cov" "$ft" "$result")")
}

if [ "$parallel" -eq 1 ]; then
    for target in "${targets[@]}"; do fuzz_target "$target" & done
    wait
    for target in "${targets[@]}"; do report "$target"; done
else
    for target in reader builder coordinate pbf; do
        if wants "$target"; then fuzz_target "$target"; report "$target"; fi
    done
fi

echo "== summary"
printf '%-10s %12s %8s %6s %7s  %s\n' target executions exec/s cov ft result
for line in "${summary[@]}"; do echo "$line"; done
exit $status
