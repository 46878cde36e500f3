#!/usr/bin/env python3
"""Convert a zipped ESRI polygon shapefile (.shp + .dbf) to a GeoJSON FeatureCollection.

Standard library only (zipfile, struct, json): the .shp and .dbf readers are below.

    python3 shp2geojson.py INPUT.zip OUTPUT.geojson [--member NAME] [--names]

INPUT.zip holds NAME.shp and NAME.dbf (and optionally NAME.cpg). --member picks NAME
when the zip holds more than one shapefile.

Geometry
  * Shape types 5 (Polygon), 15 (PolygonZ) and 25 (PolygonM); Z and M values are
    ignored. Null shapes (type 0) become features with "geometry": null.
  * Shapefile rings: outer rings are clockwise, holes counter-clockwise. Each hole is
    given to the smallest outer ring that contains it (even-odd point-in-polygon test of
    hole vertices against the outer rings, smallest area first). A hole that no outer
    ring contains is kept as an outer ring of its own (reported on stderr).
  * One outer ring -> Polygon, several -> MultiPolygon; each polygon is written as
    [outer, hole, hole, ...]. Ring orientation is left as in the shapefile (outer CW,
    holes CCW), which GeoJSON (RFC 7946 section 3.1.6) allows readers to accept.
  * Coordinates are the shapefile's doubles, written with repr() so they round-trip.
    Nothing is clamped; coordinates outside [-180,180] x [-90,90] are reported on stderr.

Properties (field names lower-cased)
  iso_a2    DBF ISO_A2 if it is two letters A-Z, else ISO_A2_EH if two letters, else "-99"
  iso_a3    DBF ISO_A3 if it is three letters A-Z, else ISO_A3_EH if three letters, else "-99"
  name, name_long, name_en, adm0_a3
            as in the DBF (trimmed; name_en is the English name, which gmap find
            searches: "Ivory Coast" for Côte d'Ivoire)

With --names (the shipped world map's countries) also every name a user may type:
  name_xx   Natural Earth's NAME_XX in 26 languages (name_de "Deutschland", name_ja "ドイツ", ...)
  formal_en, name_alt   as in the DBF, when not empty
  short_name  iso_a3 when it is three letters, so that the code is searched as a name ("DEU")
  alt_name  ABBREV without its full stops when that is 2 to 4 capitals ("U.K." -> "UK")
  pop_est   POP_EST, the estimated population (a number), which ranks countries among towns
Empty values are left out. gmap indexes every property whose key is a name key (Spec 5.10).

Features are sorted by adm0_a3 (ties keep the shapefile's record order).

DBF text is decoded with the code page named in the .cpg file if there is one, else
UTF-8, falling back to latin-1 for a value that is not valid UTF-8.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import re
import struct
import sys
import zipfile

POLYGON_TYPES = {5: "Polygon", 15: "PolygonZ", 25: "PolygonM"}
KEEP_FIELDS = ("iso_a2", "iso_a3", "name", "name_long", "name_en", "adm0_a3")
ISO2_RE = re.compile(r"^[A-Z]{2}$")
ISO3_RE = re.compile(r"^[A-Z]{3}$")


class ShapefileError(Exception):
    pass


def warn(msg: str) -> None:
    print(f"shp2geojson: warning: {msg}", file=sys.stderr)


# --------------------------------------------------------------------------- .shp


def read_shp(data: bytes) -> list[list[list[tuple[float, float]]] | None]:
    """Return one entry per record: a list of rings (each a list of (x, y)), or None."""
    if len(data) < 100:
        raise ShapefileError(".shp is shorter than its 100-byte header")
    file_code, = struct.unpack_from(">i", data, 0)
    if file_code != 9994:
        raise ShapefileError(f".shp file code is {file_code}, expected 9994")
    file_len_words, = struct.unpack_from(">i", data, 24)
    version, shape_type = struct.unpack_from("<ii", data, 28)
    if version != 1000:
        warn(f".shp version is {version}, expected 1000")
    if shape_type not in POLYGON_TYPES:
        raise ShapefileError(
            f".shp shape type is {shape_type}; only polygons (5, 15, 25) are supported")
    end = min(len(data), file_len_words * 2)
    if file_len_words * 2 != len(data):
        warn(f".shp header says {file_len_words * 2} bytes, file has {len(data)}")

    records: list = []
    pos = 100
    while pos + 8 <= end:
        rec_no, content_words = struct.unpack_from(">ii", data, pos)
        content = pos + 8
        content_end = content + content_words * 2
        if content_end > len(data):
            raise ShapefileError(f".shp record {rec_no} runs past the end of the file")
        if rec_no != len(records) + 1:
            warn(f".shp record number {rec_no} at position {len(records) + 1}")
        rtype, = struct.unpack_from("<i", data, content)
        if rtype == 0:
            records.append(None)
        elif rtype in POLYGON_TYPES:
            # bbox (4 doubles) at +4, numParts at +36, numPoints at +40, parts at +44.
            # Z/M ranges and arrays come after the XY points and are ignored.
            num_parts, num_points = struct.unpack_from("<ii", data, content + 36)
            parts_at = content + 44
            points_at = parts_at + 4 * num_parts
            if points_at + 16 * num_points > content_end:
                raise ShapefileError(f".shp record {rec_no}: points run past the record")
            parts = list(struct.unpack_from(f"<{num_parts}i", data, parts_at))
            xy = struct.unpack_from(f"<{2 * num_points}d", data, points_at)
            parts.append(num_points)
            rings = []
            for i in range(num_parts):
                a, b = parts[i], parts[i + 1]
                if not 0 <= a <= b <= num_points:
                    raise ShapefileError(f".shp record {rec_no}: bad part index {a}..{b}")
                rings.append([(xy[2 * k], xy[2 * k + 1]) for k in range(a, b)])
            records.append(rings)
        else:
            raise ShapefileError(f".shp record {rec_no} has shape type {rtype}")
        pos = content_end
    return records


# --------------------------------------------------------------------------- .dbf


def make_decoder(cpg: str | None):
    if cpg:
        name = cpg.strip()
        aliases = {"ansi 1252": "cp1252", "1252": "cp1252", "utf8": "utf-8",
                   "88591": "latin-1", "8859-1": "latin-1"}
        name = aliases.get(name.lower(), name)
        try:
            codecs.lookup(name)
        except LookupError:
            warn(f"unknown code page {cpg.strip()!r} in .cpg; using UTF-8 / latin-1")
        else:
            return lambda raw: raw.decode(name, errors="replace")

    def utf8_or_latin1(raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")

    return utf8_or_latin1


def read_dbf(data: bytes, decode) -> tuple[list[str], list[dict | None]]:
    """Return (field names as in the file, records). A deleted record is None."""
    if len(data) < 32:
        raise ShapefileError(".dbf is shorter than its 32-byte header")
    num_records, header_len, record_len = struct.unpack_from("<IHH", data, 4)
    fields = []  # (name, type, offset in record, length, decimals)
    pos, offset = 32, 1  # byte 0 of each record is the deletion flag
    while pos < header_len - 1 and data[pos] != 0x0D:
        d = data[pos:pos + 32]
        name = d[:11].split(b"\0", 1)[0].decode("ascii", errors="replace").strip()
        ftype = chr(d[11])
        flen, fdec = d[16], d[17]
        fields.append((name, ftype, offset, flen, fdec))
        offset += flen
        pos += 32
    if offset != record_len:
        warn(f".dbf field lengths add up to {offset}, record length is {record_len}")

    records: list = []
    for i in range(num_records):
        start = header_len + i * record_len
        rec = data[start:start + record_len]
        if len(rec) < record_len:
            raise ShapefileError(f".dbf record {i + 1} is truncated")
        if rec[0:1] == b"*":
            records.append(None)
            continue
        values = {}
        for name, ftype, off, flen, fdec in fields:
            raw = rec[off:off + flen]
            values[name] = parse_dbf_value(raw, ftype, fdec, decode)
        records.append(values)
    return [f[0] for f in fields], records


def parse_dbf_value(raw: bytes, ftype: str, fdec: int, decode):
    if ftype in "NF":
        s = raw.strip(b" \0").decode("ascii", errors="replace")
        if not s or set(s) <= {"*"}:
            return None
        try:
            if ftype == "N" and fdec == 0 and "." not in s and "e" not in s.lower():
                return int(s)
            return float(s)
        except ValueError:
            return None
    if ftype == "L":
        c = raw.strip()[:1].upper()
        return True if c in b"TY" else False if c in b"FN" else None
    if ftype == "D":
        s = raw.strip(b" \0").decode("ascii", errors="replace")
        return s or None
    # C and anything else: text
    return decode(raw.rstrip(b" \0")).strip()


# --------------------------------------------------------------------------- rings


def signed_area(ring) -> float:
    """Shoelace area: > 0 counter-clockwise, < 0 clockwise."""
    n = len(ring)
    if n < 3:
        return 0.0
    s = 0.0
    x0, y0 = ring[-1]
    for x1, y1 in ring:
        s += x0 * y1 - x1 * y0
        x0, y0 = x1, y1
    return s / 2.0


def bbox(ring):
    xs = [p[0] for p in ring]
    ys = [p[1] for p in ring]
    return min(xs), min(ys), max(xs), max(ys)


def point_in_ring(x: float, y: float, ring) -> bool:
    """Even-odd ray casting."""
    inside = False
    n = len(ring)
    j = n - 1
    for i in range(n):
        xi, yi = ring[i]
        xj, yj = ring[j]
        if (yi > y) != (yj > y):
            if x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
        j = i
    return inside


def build_geometry(rings, rec_label: str):
    """Group shapefile rings into a GeoJSON Polygon / MultiPolygon dict (or None)."""
    outers = []  # [ring, abs area, bbox, holes]
    holes = []
    for ring in rings:
        if len(ring) < 4:
            warn(f"{rec_label}: ring with {len(ring)} points kept as is")
        a = signed_area(ring)
        if a > 0:
            holes.append(ring)
        else:  # clockwise, or degenerate (zero area): treat as outer
            outers.append([ring, abs(a), bbox(ring), []])
    by_size = sorted(range(len(outers)), key=lambda i: outers[i][1])

    for hole in holes:
        hx0, hy0, hx1, hy1 = bbox(hole)
        cands = [i for i in by_size
                 if outers[i][2][0] <= hx0 and outers[i][2][1] <= hy0
                 and outers[i][2][2] >= hx1 and outers[i][2][3] >= hy1]
        owner = None
        # A hole vertex may lie exactly on its outer ring; try a few vertices.
        for (px, py) in hole[:-1][:8] or hole:
            for i in cands:
                if point_in_ring(px, py, outers[i][0]):
                    owner = i
                    break
            if owner is not None:
                break
        if owner is None and cands:
            owner = cands[0]
            warn(f"{rec_label}: hole not inside any outer ring by point test; "
                 f"given to the smallest outer ring whose bbox contains it")
        if owner is None:
            warn(f"{rec_label}: hole outside every outer ring; kept as an outer ring")
            outers.append([hole, abs(signed_area(hole)), bbox(hole), []])
        else:
            outers[owner][3].append(hole)

    polys = [[[[x, y] for x, y in o[0]]] + [[[x, y] for x, y in h] for h in o[3]]
             for o in outers]
    if not polys:
        return None
    if len(polys) == 1:
        return {"type": "Polygon", "coordinates": polys[0]}
    return {"type": "MultiPolygon", "coordinates": polys}


# --------------------------------------------------------------------------- main


def pick_code(rec: dict, main: str, alt: str, pattern) -> str:
    for key in (main, alt):
        v = rec.get(key)
        if isinstance(v, str) and pattern.match(v):
            return v
    return "-99"


NAME_LANGUAGE_RE = re.compile(r"^NAME_[A-Z]{2,3}$")
ABBREVIATION_RE = re.compile(r"^[A-Z]{2,4}$")


def other_names(rec: dict, props: dict) -> dict:
    """The names of --names: name_xx, formal_en, name_alt, short_name, alt_name (see the docstring)."""
    upper = {k.upper(): v for k, v in rec.items()}
    names = {}
    for key in sorted(upper):
        value = upper[key]
        if (NAME_LANGUAGE_RE.match(key) and key not in ("NAME_LONG", "NAME_SORT", "NAME_LEN", "NAME_EN", "NAME_ALT")) or key in ("FORMAL_EN", "NAME_ALT"):
            if isinstance(value, str) and value.strip():
                names[key.lower()] = value.strip()
    if ISO3_RE.match(props.get("iso_a3") or ""):
        names["short_name"] = props["iso_a3"]
    abbreviation = (upper.get("ABBREV") or "").replace(".", "")
    if ABBREVIATION_RE.match(abbreviation):
        names["alt_name"] = abbreviation
    population = upper.get("POP_EST")
    if isinstance(population, (int, float)) and population >= 0:
        names["pop_est"] = int(population)
    return names


def properties(rec: dict, all_names: bool = False) -> dict:
    upper = {k.upper(): v for k, v in rec.items()}
    props = {
        "iso_a2": pick_code(upper, "ISO_A2", "ISO_A2_EH", ISO2_RE),
        "iso_a3": pick_code(upper, "ISO_A3", "ISO_A3_EH", ISO3_RE),
    }
    for key in ("name", "name_long", "name_en", "adm0_a3"):
        v = upper.get(key.upper())
        props[key] = v if v not in ("",) else None
    kept = {k: props[k] for k in KEEP_FIELDS}
    if all_names:
        kept.update(other_names(rec, kept))
    return kept


def find_members(zf: zipfile.ZipFile, member: str | None):
    names = {n.lower(): n for n in zf.namelist()}
    shps = sorted(n for n in zf.namelist() if n.lower().endswith(".shp"))
    if member:
        shps = [n for n in shps
                if os.path.splitext(os.path.basename(n))[0] == member or n == member]
    if not shps:
        raise ShapefileError("no matching .shp in the zip" + (f" for {member!r}" if member else ""))
    if len(shps) > 1:
        raise ShapefileError(f"several .shp files in the zip ({', '.join(shps)}); use --member")
    shp = shps[0]
    base = shp[:-4]
    dbf = names.get((base + ".dbf").lower())
    if dbf is None:
        raise ShapefileError(f"{base}.dbf not found in the zip")
    cpg = names.get((base + ".cpg").lower())
    return shp, dbf, cpg


def dump_feature(feature: dict) -> str:
    # json writes floats with float.__repr__, the shortest string that round-trips.
    return json.dumps(feature, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def convert(zip_path: str, out_path: str, member: str | None = None, all_names: bool = False) -> dict:
    with zipfile.ZipFile(zip_path) as zf:
        shp_name, dbf_name, cpg_name = find_members(zf, member)
        shp_data = zf.read(shp_name)
        dbf_data = zf.read(dbf_name)
        cpg = zf.read(cpg_name).decode("ascii", errors="replace") if cpg_name else None

    shapes = read_shp(shp_data)
    _, records = read_dbf(dbf_data, make_decoder(cpg))
    if len(shapes) != len(records):
        raise ShapefileError(f".shp has {len(shapes)} records, .dbf has {len(records)}")

    features = []
    n_vertices = 0
    n_out_of_range = 0
    for idx, (rings, rec) in enumerate(zip(shapes, records)):
        if rec is None:
            warn(f"record {idx + 1} is marked deleted in the .dbf; skipped")
            continue
        props = properties(rec, all_names)
        label = f"record {idx + 1} ({props.get('adm0_a3')})"
        geom = build_geometry(rings, label) if rings else None
        if geom is None:
            warn(f"{label}: null geometry")
        bad = []
        for ring in rings or ():
            n_vertices += len(ring)
            for x, y in ring:
                if not (-180.0 <= x <= 180.0 and -90.0 <= y <= 90.0):
                    bad.append((x, y))
        if bad:
            n_out_of_range += len(bad)
            warn(f"{label}: {len(bad)} coordinate(s) outside [-180,180]x[-90,90], "
                 f"e.g. {bad[0][0]!r},{bad[0][1]!r} (not clamped)")
        features.append((props.get("adm0_a3") or "", idx,
                         {"type": "Feature", "properties": props, "geometry": geom}))

    features.sort(key=lambda t: (t[0], t[1]))

    out_dir = os.path.dirname(os.path.abspath(out_path))
    os.makedirs(out_dir, exist_ok=True)
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        f.write(",\n".join(dump_feature(feat) for _, _, feat in features))
        f.write("\n]}\n")
    os.replace(tmp, out_path)
    return {"source": f"{zip_path}:{shp_name}", "features": len(features),
            "vertices": n_vertices, "out_of_range": n_out_of_range,
            "encoding": (cpg or "").strip() or "utf-8 (latin-1 fallback)",
            "bytes": os.path.getsize(out_path)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", help="zip file holding NAME.shp and NAME.dbf (NAME.cpg optional)")
    ap.add_argument("output", help="GeoJSON file to write")
    ap.add_argument("--member", help="NAME of the shapefile inside the zip, if it holds several")
    ap.add_argument("--names", action="store_true", help="also every name in other languages, and the codes as names")
    args = ap.parse_args(argv)
    try:
        stats = convert(args.input, args.output, args.member, args.names)
    except (ShapefileError, zipfile.BadZipFile, OSError, struct.error) as e:
        print(f"shp2geojson: error: {e}", file=sys.stderr)
        return 1
    print(f"shp2geojson: {stats['source']} -> {args.output}: {stats['features']} features, "
          f"{stats['vertices']} vertices, {stats['bytes']} bytes, "
          f"text encoding {stats['encoding']}, "
          f"{stats['out_of_range']} coordinate(s) out of range", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
