#!/usr/bin/env bash
# Compiles every ```swift block of the `///` doc comments under Sources/, so that no example in the
# API documentation goes stale.
#
# Usage: Scripts/docs/check-doc-comments.sh [--scratch-path DIR]
#   --scratch-path DIR  SwiftPM's build folder for the snippets' package (default: .build-examples,
#                       which Examples/swift's build also uses, so that gmap's modules are reused)
#
# Each block becomes the body of its own function (its `import` lines dropped) in one generated program (a package in a
# temporary folder that depends on this repository by path and imports GMap, GMapWorld and
# GMapBuilder, which re-exports the codecs), built in release. A block must compile as it stands: no names from outside
# it. Prints each block's file and line; exit 0 when the program builds, 1 otherwise (the
# compiler's messages name the generated file; the list maps its functions back), 2 for bad usage.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
scratch="$repo/.build-examples"
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) [ $# -ge 2 ] || { echo "check-doc-comments: --scratch-path needs a folder" >&2; exit 2; }
                        scratch="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "check-doc-comments: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
export PATH="/opt/swift/usr/bin:$PATH"
work="$(mktemp -d "${TMPDIR:-/tmp}/gmap-doc-comments.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/DocComments"
cat > "$work/Package.swift" <<PACKAGE
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "doc-comments",
    dependencies: [.package(name: "gmap", path: "$repo")],
    targets: [.executableTarget(name: "DocComments", dependencies: [
        .product(name: "GMap", package: "gmap"), .product(name: "GMapBuilder", package: "gmap"),
        .product(name: "GMapWorld", package: "gmap"),
    ])]
)
PACKAGE
python3 - "$repo" "$work/Sources/DocComments/main.swift" <<'PYTHON'
import os, re, sys
repo, output = sys.argv[1], sys.argv[2]
blocks = []
for root, _, files in os.walk(os.path.join(repo, "Sources")):
    for name in sorted(files):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(root, name)
        lines = open(path, encoding="utf-8").read().split("\n")
        index = 0
        while index < len(lines):
            if re.match(r"^\s*///\s?```swift\s*$", lines[index]):
                start, body = index + 1, []
                index += 1
                while index < len(lines) and not re.match(r"^\s*///\s?```\s*$", lines[index]):
                    text = re.sub(r"^\s*/// ?", "", lines[index])
                    if not re.match(r"^import \w+\s*$", text):   # the program imports every library
                        body.append(text)
                    index += 1
                blocks.append((os.path.relpath(path, repo), start, body))
            index += 1
with open(output, "w", encoding="utf-8") as file:
    file.write("import GMap\nimport GMapBuilder\nimport GMapWorld\n\n")
    for number, (path, line, body) in enumerate(blocks):
        file.write(f"// {path}:{line}\nfunc example{number}() throws {{\n")
        file.write("".join("    " + text + "\n" for text in body))
        file.write("}\n\n")
    file.write("// Referenced so that nothing is unused; never called.\n")
    file.write("let examples: [() throws -> Void] = [" + ", ".join(f"example{n}" for n in range(len(blocks))) + "]\n")
    file.write("print(examples.count, \"doc-comment examples compiled\")\n")
for number, (path, line, body) in enumerate(blocks):
    print(f"example{number}: {path}:{line} ({len(body)} lines)")
print(f"{len(blocks)} ```swift blocks in doc comments")
PYTHON
if swift build -c release --package-path "$work" --scratch-path "$scratch" 2>&1 | tee "$work/log" | grep -E "error|warning: var" ; then
    grep -q "error:" "$work/log" && { echo "check-doc-comments: a doc-comment example does not compile (see above; the generated file is listed by function)"; exit 1; }
fi
"$scratch/release/DocComments"
