#!/usr/bin/env bash
# Builds the libFuzzer targets and fuzzes each for a while. See Fuzz/README.md.
#
#   Fuzz/run.sh [--seconds N] [--runs N] [TARGET...]
#
# TARGET is reader, builder or coordinate (default: all three, one after another, on one core).
# --seconds N  stops each target after N seconds (default 30, so CI can call it);
# --runs N     stops each target after N executions (whichever comes first when both are given).
# Corpora grow in Fuzz/corpus-<target>/, crashes go to Fuzz/artifacts/<target>/, logs to
# Fuzz/bin/logs/. Exits non-zero when any target crashed, leaked, timed out or ran out of memory.
#
# Everything is compiled with swiftc straight from a snapshot of Sources/ (copied to Fuzz/bin/src
# first, so edits made meanwhile cannot break or skew a build); `swift build` is not used.
set -euo pipefail

cd "$(dirname "$0")"
FUZZ=$(pwd)
ROOT=$(cd .. && pwd)
if [ -x /opt/swift/usr/bin/swiftc ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
export SWIFT_BACKTRACE=enable=no

seconds=30
runs=""
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        reader|builder|coordinate) targets+=("$1"); shift ;;
        *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(reader builder coordinate)

wants() { local t; for t in "${targets[@]}"; do [ "$t" = "$1" ] && return 0; done; return 1; }

BIN=$FUZZ/bin
mkdir -p "$BIN/logs" "$BIN/fuzz-gmap" "$BIN/plain-gmap"

# -- Sources: one consistent snapshot.
rm -rf "$BIN/src"
mkdir -p "$BIN/src"
cp -R "$ROOT/Sources/GMap" "$ROOT/Sources/GMapBuilder" "$BIN/src/"
cp "$ROOT/Sources/gmap/CoordinateParser.swift" "$BIN/src/"
GMAP_SOURCES=$(find "$BIN/src/GMap" -name '*.swift' | sort)
BUILDER_SOURCES=$(find "$BIN/src/GMapBuilder" -name '*.swift' | sort)

# -- Compiling. lld avoids a page of harmless ld.gold warnings about ASan's local symbols.
LINKER=()
if command -v ld.lld > /dev/null 2>&1; then LINKER=(-use-ld=lld); fi
FUZZ_FLAGS=(-parse-as-library -sanitize=fuzzer,address -O)
compile() {
    echo "+ swiftc $*" | sed "s|$FUZZ/||g; s|$ROOT/||g" | cut -c1-400
    swiftc "$@" 2>&1 | { grep -v "Cannot export local symbol" || true; }
    return "${PIPESTATUS[0]}"
}

echo "== building"
if wants reader; then
    # The reader target is one module: the harness and every file of GMap.
    # shellcheck disable=SC2086
    compile "${FUZZ_FLAGS[@]}" -module-name ReaderFuzzer $GMAP_SOURCES ReaderFuzzer/main.swift \
        -o "$BIN/reader-fuzzer" "${LINKER[@]}"
    # The seed maker (no sanitizers) builds small maps from the fixtures for the reader's corpus.
    # shellcheck disable=SC2086
    compile -parse-as-library -Onone -module-name GMap -emit-module -emit-module-path "$BIN/plain-gmap/GMap.swiftmodule" \
        -emit-library -static $GMAP_SOURCES -o "$BIN/plain-gmap/libGMap.a"
    # shellcheck disable=SC2086
    compile -Onone -module-name SeedMaker -I "$BIN/plain-gmap" $BUILDER_SOURCES SeedMaker/main.swift \
        "$BIN/plain-gmap/libGMap.a" -o "$BIN/seed-maker"
fi
if wants builder; then
    # GMap as an instrumented static library, then the harness with every file of GMapBuilder.
    # shellcheck disable=SC2086
    compile "${FUZZ_FLAGS[@]}" -module-name GMap -emit-module -emit-module-path "$BIN/fuzz-gmap/GMap.swiftmodule" \
        -emit-library -static $GMAP_SOURCES -o "$BIN/fuzz-gmap/libGMap.a"
    # shellcheck disable=SC2086
    compile "${FUZZ_FLAGS[@]}" -module-name BuilderFuzzer -I "$BIN/fuzz-gmap" $BUILDER_SOURCES BuilderFuzzer/main.swift \
        "$BIN/fuzz-gmap/libGMap.a" -o "$BIN/builder-fuzzer" "${LINKER[@]}"
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
if wants builder; then
    rm -rf "$BIN/seeds-builder"; mkdir -p "$BIN/seeds-builder"
    # Two control bytes (chunk size; tile size, precision, split factor, kept properties), then the GeoJSON.
    for file in "$ROOT"/Fixtures/*.geojson; do
        name=$(basename "$file" .geojson)
        index=0
        for control in '\x07\x00' '\xff\x01' '\x1f\x8a' '\xc0\x33' '\x00\x5c'; do
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

# -- Fuzzing, one target at a time on one core (no -jobs/-workers: -jobs=1 would fork a child
#    that writes fuzz-0.log into the working directory).
status=0
summary=()
fuzz() {
    local target=$1 max_len=$2; shift 2
    local log="$BIN/logs/$target.log"
    mkdir -p "corpus-$target" "artifacts/$target"
    local limits=(-max_total_time="$seconds")
    [ -n "$runs" ] && limits+=(-runs="$runs")
    echo "== fuzzing $target (${runs:+$runs runs, }at most $seconds s; log: bin/logs/$target.log)"
    local code=0
    "$BIN/$target-fuzzer" "corpus-$target" "$BIN/seeds-$target" "${limits[@]}" -max_len="$max_len" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="artifacts/$target/" "$@" \
        > "$log" 2>&1 || code=$?
    local final executed rate
    final=$(grep -E "^#[0-9]+.*cov: " "$log" | tail -1 || true)
    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    local cov ft corp
    cov=$(echo "$final" | sed -nE 's/.*cov: ([0-9]+).*/\1/p')
    ft=$(echo "$final" | sed -nE 's/.*ft: ([0-9]+).*/\1/p')
    corp=$(echo "$final" | sed -nE 's/.*corp: ([0-9]+\/[0-9A-Za-z]+).*/\1/p')
    local result=ok
    if [ "$code" -ne 0 ]; then
        result="FAILED (exit $code)"
        status=1
        grep -E "^==[0-9]+==ERROR|Fatal error|invariant violated|ERROR: libFuzzer|SUMMARY:" "$log" | head -5 || true
        grep -E "Test unit written to" "$log" || true
    fi
    echo "$target: executions ${executed:-?} (${rate:-?}/s), cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}: $result"
    summary+=("$(printf '%-10s %12s %8s %6s %7s  %s' "$target" "${executed:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$result")")
}
wants reader && fuzz reader 8192
wants builder && fuzz builder 65536 -dict=geojson.dict
wants coordinate && fuzz coordinate 256

echo "== summary"
printf '%-10s %12s %8s %6s %7s  %s\n' target executions exec/s cov ft result
for line in "${summary[@]}"; do echo "$line"; done
exit $status
