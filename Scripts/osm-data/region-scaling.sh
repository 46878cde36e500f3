#!/usr/bin/env bash
# Measures how `gmap build --osm` scales with the extract (issue 22, part 8): tiles N copies of the
# Helsinki extract side by side (../shared/data/osm/scripts/tile-extract.py, which needs pyosmium:
# python3 -m venv /tmp/osmvenv && /tmp/osmvenv/bin/pip install osmium==4.3.2) and prints, for each
# size, the PBF's bytes, the build's wall time and peak RSS (/usr/bin/time -v) and the map's bytes.
# The tiled files go to $TMPDIR (default /tmp); never commit them.
#
# Usage: Scripts/osm-data/region-scaling.sh [GMAP] [N ...]   (default: .build/release/gmap, 4 16 64 128)
set -euo pipefail
gmap=${1:-.build/release/gmap}
shift || true
sizes=("${@:-4 16 64 128}")
shared=${GMAP_SHARED_DATA:-../shared/data}
python=${OSM_PYTHON:-/tmp/osmvenv/bin/python}
tmp=${TMPDIR:-/tmp}
for n in ${sizes[*]}; do
  pbf="$tmp/Helsinki-x$n.osm.pbf"
  [ -f "$pbf" ] || "$python" "$shared/osm/scripts/tile-extract.py" "$n" "$shared/osm/Helsinki.osm.pbf" "$pbf" >/dev/null
  /usr/bin/time -v "$gmap" build --osm "$pbf" -o "$tmp/Helsinki-x$n.gmap" -q 2> "$tmp/region-scaling-time.txt"
  wall=$(grep "Elapsed (wall" "$tmp/region-scaling-time.txt" | awk '{print $NF}')
  rss=$(grep "Maximum resident" "$tmp/region-scaling-time.txt" | awk '{print $NF}')
  echo "x$n pbf_bytes=$(stat -c %s "$pbf") wall=$wall peak_rss_kib=$rss map_bytes=$(stat -c %s "$tmp/Helsinki-x$n.gmap")"
done
