#!/usr/bin/env bash
# Builds the GMap reader core (with GMapChecksum, its CRC-32) and its C interface (CGMap) in Embedded Swift for 32-bit devices
# (armv7em, wasm32, i686) and for the host, then checks that the Embedded builds answer exactly as
# the normal build does:
#   - an Embedded Swift host program (Scripts/embedded/host) that reads the map into memory and
#     opens it from the buffer, as a device would;
#   - the C example (Examples/c/query.c) linked against the Embedded objects (no Swift runtime),
#     and against the package's libCGMap.so (path and buffer opens);
# each compared line by line with `gmap query MAP - --all` on the fixture and known-location lists
# and on 20,000 pseudo-random points, and with the expected ids of the lists.
# It also prints code sizes and the stack a lookup uses. Output goes to .build/embedded.
#
#   Scripts/embedded/build.sh            (needs Swift 6.3 with the Embedded stdlib; about a minute)
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
out=${GMAP_EMBEDDED_OUT:-.build/embedded}
mkdir -p "$out"

embedded_flags=(-enable-experimental-feature Embedded -wmo -parse-as-library -Osize -Xfrontend -function-sections -package-name gmap)
checksum_sources=$(find Sources/GMapChecksum -name '*.swift' | sort)
core_sources=$(find Sources/GMap -name '*.swift' | sort)
cgmap_sources=$(find Sources/CGMap -name '*.swift' | sort)
host_triple=$(swiftc -print-target-info | sed -nE 's/.*"unversionedTriple": "([^"]+)".*/\1/p' | head -1)

# compile TRIPLE: GMapChecksum's module and object, then GMap's (which imports GMapChecksum), then
# CGMap's object, into $out/TRIPLE, as SwiftPM builds the targets: one Embedded module each.
# (Each object is compiled apart from its module, and not named after it: swiftc then keeps
# -function-sections, which the size measurement's --gc-sections needs.)
compile() {
    local triple=$1 dir="$out/$1"
    mkdir -p "$dir/modules"
    # shellcheck disable=SC2086
    swiftc "${embedded_flags[@]}" -target "$triple" -module-name GMapChecksum -emit-module -emit-module-path "$dir/modules/GMapChecksum.swiftmodule" $checksum_sources
    # shellcheck disable=SC2086
    swiftc "${embedded_flags[@]}" -target "$triple" -module-name GMapChecksum -c $checksum_sources -o "$dir/gmap-checksum.o"
    # shellcheck disable=SC2086
    swiftc "${embedded_flags[@]}" -target "$triple" -module-name GMap -I "$dir/modules" -emit-module -emit-module-path "$dir/modules/GMap.swiftmodule" $core_sources
    # shellcheck disable=SC2086
    swiftc "${embedded_flags[@]}" -target "$triple" -module-name GMap -I "$dir/modules" -c $core_sources -o "$dir/gmap-core.o"
    # shellcheck disable=SC2086
    swiftc "${embedded_flags[@]}" -target "$triple" -module-name CGMap -I "$dir/modules" -c $cgmap_sources -o "$dir/cgmap.o"
}

echo "== Embedded Swift: the core and the C interface for 32-bit targets and the host ($host_triple)"
for triple in armv7em-none-none-eabi wasm32-unknown-none-wasm i686-unknown-none-elf "$host_triple"; do
    compile "$triple"
    pointer_bits=$(swiftc -print-target-info -target "$triple" | sed -nE 's/.*"pointerWidthInBits": ([0-9]+).*/\1/p')
    sizes=$(llvm-size "$out/$triple/gmap-checksum.o" "$out/$triple/gmap-core.o" "$out/$triple/cgmap.o" | awk 'NR > 1 { printf "%s %s text %d, data %d, bss %d; ", $6, "", $1, $2, $3 }')
    echo "$triple ($pointer_bits-bit): ${sizes//$out\/$triple\//}"
done

# A firmware-like link for armv7em: only what the named C functions reach (--gc-sections); the C
# library and compiler runtime symbols stay undefined, and are listed.
firmware() {
    local name=$1; shift
    local roots=()
    for symbol in "$@"; do roots+=(-u "$symbol"); done
    ld.lld --gc-sections -e 0 "${roots[@]}" --unresolved-symbols=ignore-all --emit-relocs \
        "$out/armv7em-none-none-eabi/gmap-core.o" "$out/armv7em-none-none-eabi/cgmap.o" "$out/armv7em-none-none-eabi/gmap-checksum.o" \
        -o "$out/armv7em-$name.elf"
    local text rodata
    text=$(llvm-size -A "$out/armv7em-$name.elf" | awk '$1 == ".text" { print $2 }')
    rodata=$(llvm-size -A "$out/armv7em-$name.elf" | awk '$1 == ".rodata" { print $2 }')
    echo "armv7em, $name: .text $text bytes, .rodata ${rodata:-0} bytes; needs: $(llvm-nm -u "$out/armv7em-$name.elf" | awk '{print $2}' | grep -v '^__aeabi_' | tr '\n' ' ')(and __aeabi_* soft-float/64-bit helpers)"
    if llvm-nm -u "$out/armv7em-$name.elf" | grep -qE '_swift_stdlib_|arc4random'; then
        echo "the $name path needs Unicode data tables or a random seed"; exit 1
    fi
}
echo "== armv7em code size (ld.lld --gc-sections, Osize)"
firmware lookup gmap_lookup gmap_feature_id
firmware open gmap_open_buffer gmap_close
firmware c-api gmap_open_buffer gmap_close gmap_feature_count gmap_lookup gmap_lookup_all gmap_feature_id \
    gmap_feature_id_copy gmap_feature_property_count gmap_feature_property_at gmap_feature_property \
    gmap_feature_property_copy gmap_status_message

echo "== host programs"
host="$out/$host_triple"
swiftc "${embedded_flags[@]}" -target "$host_triple" -module-name GMapEmbeddedHost -I "$host/modules" \
    -import-bridging-header Scripts/embedded/host/platform.h -c Scripts/embedded/host/main.swift -o "$host/host-main.o"
clang -fuse-ld=lld -O2 -Wall -Werror Scripts/embedded/host/platform-libc.c "$host/host-main.o" "$host/gmap-core.o" "$host/gmap-checksum.o" \
    -Wl,--gc-sections -Wl,-z,now -lm -o "$out/gmap-embedded-host" # -z now: no lazy binding inside the measured stack
clang -fuse-ld=lld -std=c11 -O2 -Wall -Wextra -Werror -I Sources/CGMap/include Examples/c/query.c "$host/gmap-core.o" "$host/gmap-checksum.o" "$host/cgmap.o" \
    -Wl,--gc-sections -lm -o "$out/query-embedded"
for program in gmap-embedded-host query-embedded; do
    if nm -u "$out/$program" | grep -qE '_swift_stdlib_|arc4random|swift_'; then
        echo "$program needs the Swift runtime, Unicode data tables or a random seed:"; nm -u "$out/$program"; exit 1
    fi
done
echo "gmap-embedded-host and query-embedded link the Embedded core with the C library only (no Swift runtime, no Unicode tables)"
swift build -c release --product gmap >/dev/null
swift build -c release --product CGMap >/dev/null
clang -std=c11 -O2 -Wall -Wextra -Werror -I Sources/CGMap/include Examples/c/query.c -L .build/release -lCGMap \
    -Wl,-rpath,"$PWD/.build/release" -o "$out/query-dynamic"

echo "== answers: Embedded builds and the C interface against gmap query --all"
gmap=.build/release/gmap
world=Sources/GMapWorld/Resources/world.gmap
"$gmap" build Fixtures/all-fixtures.geojson -o "$out/fixtures.gmap" --id id -q
grep -v '^#' Fixtures/known-fixtures.csv | cut -d, -f1,2 > "$out/fixture-points.txt"
grep -v '^#' Fixtures/known-countries.csv | cut -d, -f1,2 > "$out/country-points.txt"
awk 'BEGIN { srand(7); for (i = 0; i < 20000; i++) printf "%.6f,%.6f\n", -90 + 180 * rand(), -180 + 360 * rand() }' > "$out/random-points.txt"

comparisons=0
compare() { # MAP POINTS NAME [EXPECTED.csv]
    local map=$1 points=$2 name=$3 expected=$4
    # The readers here answer from a map's first layer (the shipped map's countries): so does --layer.
    local first; first=$("$gmap" info "$map" | sed -nE 's/^  ([^:]+): .*features.*/\1/p' | head -1)
    "$gmap" query "$map" - --all ${first:+--layer "$first"} < "$points" > "$out/$name.expected" || [ $? -eq 1 ]
    "$out/gmap-embedded-host" "$map" < "$points" > "$out/$name.embedded-host"
    "$out/query-embedded" --buffer "$map" < "$points" > "$out/$name.c-embedded"
    "$out/query-dynamic" "$map" < "$points" > "$out/$name.c-dynamic-path"
    "$out/query-dynamic" --buffer "$map" < "$points" > "$out/$name.c-dynamic-buffer"
    for variant in embedded-host c-embedded c-dynamic-path c-dynamic-buffer; do
        cmp -s "$out/$name.expected" "$out/$name.$variant" || {
            echo "$name: $variant differs from gmap query --all:"; diff "$out/$name.expected" "$out/$name.$variant" | head; exit 1
        }
        comparisons=$((comparisons + 1))
    done
    if [ -n "$expected" ]; then # the first id of each answer is the list's expected id ("-" for none)
        grep -v '^#' "$expected" | cut -d, -f3 | sed 's/^-$//' > "$out/$name.ids"
        cut -d' ' -f1 "$out/$name.embedded-host" | cut -f1 | paste -d'|' "$out/$name.ids" - | awk -F'|' '$1 != $2 { bad++; print "  expected " $1 ", got " $2 } END { exit bad > 0 }' || {
            echo "$name: the Embedded build does not answer the expected ids"; exit 1
        }
    fi
    echo "$name: $(wc -l < "$points") points, the Embedded host program, the C example (Embedded; dynamic, path and buffer) all answer as gmap query --all"
}
compare "$out/fixtures.gmap" "$out/fixture-points.txt" known-fixtures Fixtures/known-fixtures.csv
compare "$world" "$out/country-points.txt" known-countries Fixtures/known-countries.csv
compare "$world" "$out/random-points.txt" random ""
"$out/query-embedded" --buffer --property name "$world" <<< "36.14,-5.35" | grep -qx "GI	Gibraltar" || { echo "property access failed"; exit 1; }
"$out/gmap-embedded-host" --property name "$world" <<< "36.14,-5.35" | grep -qx "GI	Gibraltar" || { echo "property access failed"; exit 1; }

echo "== stack: the deepest a lookup goes (Embedded host, $host_triple, Osize; a stack painted with a pattern)"
"$out/gmap-embedded-host" --stack "$world" < "$out/random-points.txt"

echo "== stack: the deepest a lookup goes on armv7em (frames read from the disassembly of the firmware-like link)"
python3 Scripts/embedded/stack-depth.py "$out/armv7em-lookup.elf" gmap_lookup | swift demangle --simplified

echo "== heap: lookups allocate nothing (valgrind: the same allocations for 1 point and for 20,000)"
if command -v valgrind >/dev/null; then
    head -1 "$out/random-points.txt" > "$out/one-point.txt"
    for program in query-embedded query-dynamic; do
        counts=()
        for points in one-point random-points; do
            counts+=("$(valgrind "$out/$program" --buffer "$world" < "$out/$points.txt" 2>&1 >/dev/null | sed -nE 's/.*total heap usage: ([0-9,]+) allocs.*/\1/p')")
        done
        [ -n "${counts[0]}" ] && [ "${counts[0]}" = "${counts[1]}" ] || { echo "$program: ${counts[0]} allocations for 1 point, ${counts[1]} for 20,000"; exit 1; }
        echo "$program: ${counts[0]} allocations in all, for 1 point as for 20,000 (opening, the program's own buffers)"
    done
else
    echo "valgrind is not installed: not checked"
fi

echo "== resident memory: the world map, opened by path (Examples/c/resident.c)"
clang -std=c11 -O2 -Wall -Wextra -Werror -I Sources/CGMap/include Examples/c/resident.c -L .build/release -lCGMap \
    -Wl,-rpath,"$PWD/.build/release" -o "$out/resident"
"$out/resident" "$world" 36.14 -5.35 52.52 13.405 0 -30

echo "embedded: $comparisons comparisons identical"
