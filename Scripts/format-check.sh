#!/usr/bin/env bash
# The format check: lints the Swift files with the toolchain's swift-format (`swift format lint`,
# no package, no network) and the repository's .swift-format, and fails on any finding.
#
# Usage: Scripts/format-check.sh [PATH …]
#   PATH  files or folders to lint (default: Package.swift and the Swift files git tracks in
#         Sources, Tests, Examples/swift, Fuzz, Scripts and Benchmarks; outside a git work tree,
#         those folders searched recursively, hidden folders such as .build skipped)
#
# Only the rules that .swift-format turns on are checked. swift-format's lint also compares each
# file with what its pretty printer would write ([Indentation], [LineLength], [Spacing],
# [AddLines], [RemoveLine], [TrailingComma], …); the code aligns continuation lines and
# end-of-line comments by hand, which the pretty printer would rewrite on about 4,000 lines, so
# that comparison is left out with swift-format's --debug-disable-pretty-print (a hidden option of
# the lint command: the rules run, the pretty printer does not). Should a toolchain drop the
# option, swift format refuses the command line and the check fails. Docs/Testing.md#code-style
# says which rules are off and why.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

if [ $# -eq 0 ]; then
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        # The tracked Swift files only: build products and the copies the fuzz scripts make in
        # Fuzz/bin (ignored by git) are not the project's code.
        mapfile -t files < <(git ls-files -- Package.swift 'Sources/*.swift' 'Tests/*.swift' 'Examples/swift/*.swift' \
            'Fuzz/*.swift' 'Scripts/*.swift' 'Benchmarks/*.swift')
        set -- "${files[@]}"
    else
        set -- Package.swift Sources Tests Examples/swift Fuzz Scripts Benchmarks
    fi
fi
# --strict: every finding is an error, and swift format exits 1.
if swift format lint --strict --recursive --debug-disable-pretty-print --configuration .swift-format "$@"; then
    echo "swift format lint: no findings"
else
    echo "swift format lint: the findings above break the rules of .swift-format (Docs/Testing.md#code-style)"
    exit 1
fi
