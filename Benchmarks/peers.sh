#!/usr/bin/env bash
# Times gmap against tzfpy, timezonefinder and shapely 2 on the same points and writes
# Benchmarks/results/peers.md (see Benchmarks/peers.py for what is measured and how).
#
#   Benchmarks/peers.sh [--points N] [--runs R] [--datasets countries,timezones] [--tools a,b] ...
#
# Makes Benchmarks/.venv (with $PYTHON, default python3) and installs the pinned peers from
# Benchmarks/requirements-peers.txt, builds gmap in release mode, then runs peers.py with the
# given options. Datasets come from ../shared/data, or $GMAP_SHARED_DATA.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/Benchmarks/.venv"
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/Benchmarks/requirements-peers.txt"
(cd "$root" && swift build -c release --product gmap >/dev/null)
bin="$(cd "$root" && swift build -c release --show-bin-path)"
exec "$venv/bin/python" "$root/Benchmarks/peers.py" --gmap "$bin/gmap" "$@"
