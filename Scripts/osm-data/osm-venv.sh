#!/usr/bin/env bash
# Makes a Python virtual environment with pyosmium (PyPI's osmium, pinned) for the scripts of
# Scripts/osm-data (cut-extract.py) and the seam tests (LocationWalkDatasetTests+Seams.swift),
# which look for it at .build/osm-venv. Does nothing when it is already there.
#
# Usage: Scripts/osm-data/osm-venv.sh [VENV]   (default: .build/osm-venv)
set -euo pipefail
venv=${1:-.build/osm-venv}
if "$venv/bin/python" -c "import osmium" 2>/dev/null; then
  echo "$venv has pyosmium $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("osmium"))')"
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check osmium==4.3.2
echo "$venv has pyosmium $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("osmium"))')"
