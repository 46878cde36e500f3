#!/usr/bin/env python3
"""Times gmap against the libraries people would otherwise use, on the very same points.

Run through Benchmarks/peers.sh, which makes the virtual environment and builds gmap. For each
dataset this script builds a map with `gmap build`, makes seeded point sets (written once as
`lat,lon` text for gmap and as .npy for Python), times every tool on exactly those points, one
process per tool (so that its memory is its own), compares every answer with gmap's and writes a
markdown table to Benchmarks/results/peers.md (and the raw numbers to peers.json beside it).

  countries (countries-10m.geojson, id iso_a2): gmap, shapely 2
  timezones (timezones.geojson.gz, id tzid):     gmap, tzfpy, timezonefinder, shapely 2

Point sets (seeded; the same points for every tool of a dataset):
  uniform      N points uniform on the sphere (latitude = asin(u), u uniform in [-1, 1])
  on land      N points uniform on the sphere that gmap finds in some feature (countries only)
  near border  N points within 100 m of a feature's boundary (coasts included): a random edge
               of the GeoJSON (chosen in proportion to its length), a random point on it, then
               moved a random distance (uniform over the 100 m disc) in a random direction.

Timing: each tool's batch call over a whole set, after one untimed warm-up pass, R runs; median
and p99 over runs of ns per lookup. "Load" is everything before the first answer (import, reading
the data, building indexes, JIT compilation, a first query of 1,000 points), for gmap its open time.
Memory: the rise in the process's resident set (VmRSS) from before loading to after loading and
to after the timed runs; for gmap, the map's resident pages (from gmap bench).
"""

import argparse
import gc
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EARTH_METRES_PER_DEGREE = math.pi / 180 * 6_371_008.8

DATASETS = {
    "countries": {"file": "countries-10m.geojson", "id": "iso_a2",
                  "sets": ["uniform", "on land", "near border"],
                  "tools": ["shapely-bbox", "shapely-strtree"]},
    "timezones": {"file": "timezones.geojson.gz", "id": "tzid",
                  "sets": ["uniform", "near border"],
                  "tools": ["tzfpy", "timezonefinder-numba", "timezonefinder-c",
                            "timezonefinderL", "shapely-bbox", "shapely-strtree"]},
}
SET_SLUG = {"uniform": "uniform", "on land": "land", "near border": "border"}


# ----------------------------------------------------------------------------------------------
# Worker: one tool, one dataset, in its own process.

def proc_status_kb(key):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return None


def release_free_heap():
    """Hands freed heap pages back to the kernel (glibc's malloc_trim), so that the resident set
    measured after the runs counts what the tool still holds, not what the allocator kept."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def directory_bytes(path):
    path = Path(path)
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def package_version(name):
    from importlib.metadata import version
    return version(name)


class Tzfpy:
    answers_are_sets = False

    def __init__(self, cfg):
        import tzfpy
        self.get_tz = tzfpy.get_tz
        tzfpy.get_tz(0.0, 0.0)  # the finder is built on the first call
        self.info = {
            "tool": "tzfpy", "version": package_version("tzfpy"),
            "mode": "`get_tz` over Python float lists (`list(map(get_tz, lons, lats))`); no batch API",
            "data": "timezone-boundary-builder %s, simplified (Douglas-Peucker 0.001°), in the wheel" % tzfpy.data_version(),
            "data_version": tzfpy.data_version(),
            "disk_bytes": directory_bytes(Path(tzfpy.__file__).parent),
            "disk_what": "package (data embedded)",
        }

    def prepare(self, lat, lon):
        return lon.tolist(), lat.tolist()  # its native input: Python floats, converted untimed

    def run(self, args):
        return list(map(self.get_tz, args[0], args[1]))

    def answers(self, raw):
        return raw


class TimezoneFinderTool:
    answers_are_sets = False

    def __init__(self, cfg):
        tool = cfg["tool"]
        import timezonefinder
        from timezonefinder import TimezoneFinder, TimezoneFinderL
        if tool == "timezonefinderL":
            self.tf = TimezoneFinderL()
            mode = "`TimezoneFinderL().timezone_ids_at` (shortcut table only: approximate by design)"
        else:
            self.tf = TimezoneFinder(in_memory=True)
            mode = "`TimezoneFinder(in_memory=True).timezone_ids_at` (vectorised batch)"
        numba = timezonefinder.TimezoneFinder.using_numba()
        if tool == "timezonefinder-numba" and not numba:
            raise SystemExit("numba is not importable: cannot time timezonefinder with numba")
        if tool == "timezonefinder-c" and (numba or not timezonefinder.TimezoneFinder.using_clang_pip()):
            raise SystemExit("timezonefinder is not using its C extension")
        if tool != "timezonefinderL":
            mode += ", numba %s JIT" % package_version("numba") if numba else ", its C extension (numba hidden)"
        import timezonefinder_data
        data_dir = Path(timezonefinder_data.__file__).parent / "data"
        self.names = list(self.tf.timezone_names)
        self.info = {
            "tool": "timezonefinder", "version": package_version("timezonefinder"), "mode": mode,
            "data": "timezone-boundary-builder %s, full detail, from timezonefinder-data %s"
                    % (self.tf.data_version, package_version("timezonefinder-data")),
            "data_version": self.tf.data_version,
            "disk_bytes": directory_bytes(data_dir),
            "disk_what": "timezonefinder-data files",
        }

    def prepare(self, lat, lon):
        return lon, lat

    def run(self, args):
        return self.tf.timezone_ids_at(lngs=args[0], lats=args[1])

    def answers(self, raw):
        names = self.names
        return [names[i] if i >= 0 else "" for i in raw.tolist()]


def read_geojson(path):
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rb") as stream:
        return json.load(stream)


def feature_ids(features, prop):
    return [str(f["properties"][prop]) for f in features]


class ShapelyTool:
    """Shapely 2 over the same GeoJSON gmap builds from. Features are sorted by area (planar, in
    square degrees) so that the first containing one is the smallest, as gmap answers."""
    answers_are_sets = True

    def __init__(self, cfg):
        import numpy as np
        import shapely
        from shapely.geometry import shape
        self.np, self.shapely = np, shapely
        data = read_geojson(cfg["geojson"])
        features = data["features"]
        ids = feature_ids(features, cfg["id"])
        geoms = np.array([shape(f["geometry"]) for f in features], dtype=object)
        del data, features
        order = np.argsort(shapely.area(geoms), kind="stable")
        self.geoms = geoms[order]
        self.ids = [ids[i] for i in order]
        self.count = len(self.geoms)
        shapely.prepare(self.geoms)
        # Build every prepared geometry's point-in-area index now (GEOS builds it on first use),
        # so that it counts as loading rather than as the first timed run.
        self.bounds = shapely.bounds(self.geoms)
        for k, (x0, y0, x1, y1) in enumerate(self.bounds):
            shapely.intersects_xy(self.geoms[k], (x0 + x1) / 2, (y0 + y1) / 2)
        self.strtree = cfg["tool"] == "shapely-strtree"
        if self.strtree:
            # Parts of MultiPolygons as separate tree entries: far fewer bounding-box candidates.
            self.parts, self.owner = shapely.get_parts(self.geoms, return_index=True)
            shapely.prepare(self.parts)
            self.tree = shapely.STRtree(self.parts)
            mode = ("`STRtree` of the polygons (MultiPolygons split into parts) queried with "
                    "`shapely.points`, then `intersects_xy` on the prepared candidates")
        else:
            mode = ("per feature (smallest area first): bounding-box mask in numpy, then "
                    "`intersects_xy` on the prepared feature")
        self.info = {
            "tool": "shapely", "version": "%s (GEOS %s)" % (package_version("shapely"), shapely.geos_version_string),
            "mode": mode, "data": Path(cfg["geojson"]).name,
            "disk_bytes": Path(cfg["geojson"]).stat().st_size, "disk_what": "the GeoJSON it reads",
        }

    def prepare(self, lat, lon):
        return lon, lat

    def run(self, args):
        np, shapely = self.np, self.shapely
        lon, lat = args
        n = lon.shape[0]
        if self.strtree:
            point_index, part_index = self.tree.query(shapely.points(lon, lat))
            inside = shapely.intersects_xy(self.parts[part_index], lon[point_index], lat[point_index])
            point_index = point_index[inside]
            feature_index = self.owner[part_index[inside]]
            best = np.full(n, self.count, dtype=np.int64)
            np.minimum.at(best, point_index, feature_index)
            return best, point_index, feature_index
        best = np.full(n, self.count, dtype=np.int64)
        points, features = [], []
        for k in range(self.count - 1, -1, -1):  # largest first, so the smallest writes last
            x0, y0, x1, y1 = self.bounds[k]
            candidates = np.flatnonzero((lon >= x0) & (lon <= x1) & (lat >= y0) & (lat <= y1))
            if candidates.size:
                hits = candidates[shapely.intersects_xy(self.geoms[k], lon[candidates], lat[candidates])]
                if hits.size:
                    best[hits] = k
                    points.append(hits)
                    features.append(np.full(hits.size, k, dtype=np.int64))
        empty = np.empty(0, dtype=np.int64)
        return best, np.concatenate(points) if points else empty, np.concatenate(features) if features else empty

    def answers(self, raw):
        """Every containing feature's id, smallest area first, tab-separated."""
        np = self.np
        best, point_index, feature_index = raw
        order = np.lexsort((feature_index, point_index))
        lines = [[] for _ in range(best.shape[0])]
        ids = self.ids
        for p, k in zip(point_index[order].tolist(), feature_index[order].tolist()):
            lines[p].append(ids[k])
        return ["\t".join(dict.fromkeys(ids_here)) for ids_here in lines]

    def explain(self, lat, lon, mine, gmap):
        """Distance (metres) from each point where gmap's answer is not among ours to the nearest
        boundary of the features involved."""
        np, shapely = self.np, self.shapely
        by_id = {}
        for k, feature_id in enumerate(self.ids):
            by_id.setdefault(feature_id, []).append(k)
        out = []
        for i in range(len(mine)):
            here = mine[i].split("\t") if mine[i] else []
            if (gmap[i] == "" and not here) or gmap[i] in here:
                continue
            involved = set(by_id.get(gmap[i], []))
            for feature_id in here:
                involved.update(by_id[feature_id])
            point = shapely.points(lon[i], lat[i])
            degrees = min(shapely.distance(point, shapely.boundary(self.geoms[k])) for k in involved) if involved else float("nan")
            out.append({"lat": float(lat[i]), "lon": float(lon[i]), "gmap": gmap[i], "shapely": here,
                        "boundary_m": float(degrees) * EARTH_METRES_PER_DEGREE})
        return out


TOOLS = {"tzfpy": Tzfpy, "timezonefinder-numba": TimezoneFinderTool, "timezonefinder-c": TimezoneFinderTool,
         "timezonefinderL": TimezoneFinderTool, "shapely-bbox": ShapelyTool, "shapely-strtree": ShapelyTool}


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int((len(ordered) - 1) * q + 0.5))]


def worker(cfg):
    if cfg["tool"] == "timezonefinder-c":
        sys.modules["numba"] = None  # makes `import numba` fail: timezonefinder falls back to C
    import numpy as np
    sets = []
    for name, path in cfg["sets"]:
        points = np.load(path)
        sets.append((name, np.ascontiguousarray(points[:, 0]), np.ascontiguousarray(points[:, 1])))
    gc.collect()
    release_free_heap()
    rss_before = proc_status_kb("VmRSS")
    start = time.perf_counter()
    tool = TOOLS[cfg["tool"]](cfg)
    tool.answers(tool.run(tool.prepare(sets[0][1][:1000], sets[0][2][:1000])))
    load_s = time.perf_counter() - start
    gc.collect()
    release_free_heap()
    rss_load = proc_status_kb("VmRSS")
    results = []
    for name, lat, lon in sets:
        args = tool.prepare(lat, lon)
        tool.run(args)  # warm-up pass, untimed
        times, cpu_times, clean = [], [], []
        raw = None
        # A run whose wall time exceeds the thread's CPU time by more than 10 % waited for a core
        # (another process had it): such runs are repeated, up to max_runs in all.
        while len(clean) < cfg["runs"] and len(times) < cfg["max_runs"]:
            raw = None
            gc.collect()
            gc.disable()
            c0 = time.thread_time_ns()
            t0 = time.perf_counter_ns()
            raw = tool.run(args)
            elapsed = time.perf_counter_ns() - t0
            cpu = time.thread_time_ns() - c0
            gc.enable()
            times.append(elapsed / lat.shape[0])
            cpu_times.append(cpu / lat.shape[0])
            if elapsed <= 1.10 * cpu:
                clean.append(elapsed / lat.shape[0])
        answers = tool.answers(raw)
        del args, raw
        counted = clean if len(clean) >= cfg["runs"] else times
        out = Path(cfg["answers_dir"]) / ("%s-%s.txt" % (SET_SLUG[name], cfg["tool"]))
        out.write_text("\n".join(answers) + "\n")
        entry = {"name": name, "points": int(lat.shape[0]), "found": sum(1 for a in answers if a),
                 "ns_runs": times, "ns_median": percentile(counted, 0.5), "ns_p99": percentile(counted, 0.99),
                 "cpu_ns_runs": cpu_times, "cpu_ns_median": percentile(cpu_times, 0.5),
                 "runs_clean": len(clean), "runs_total": len(times), "contended": len(clean) < cfg["runs"],
                 "answers": str(out)}
        gmap_answers = cfg.get("gmap_answers", {}).get(name)
        if gmap_answers and hasattr(tool, "explain"):
            gmap = Path(gmap_answers).read_text().split("\n")[: lat.shape[0]]
            entry["explain"] = tool.explain(lat, lon, answers, gmap)
        del answers
        gc.collect()
        results.append(entry)
    gc.collect()
    release_free_heap()
    info = dict(tool.info)
    info.update({"key": cfg["tool"], "load_s": load_s, "rss_before_kb": rss_before, "rss_load_kb": rss_load,
                 "rss_after_kb": proc_status_kb("VmRSS"), "hwm_kb": proc_status_kb("VmHWM"), "sets": results})
    print(json.dumps(info))


# ----------------------------------------------------------------------------------------------
# Orchestration.

def log(message):
    print("[peers %s] %s" % (time.strftime("%H:%M:%S"), message), file=sys.stderr, flush=True)


def uniform_points(rng, n):
    import numpy as np
    lat = np.degrees(np.arcsin(rng.uniform(-1.0, 1.0, n)))
    lon = rng.uniform(-180.0, 180.0, n)
    return np.column_stack([lat, lon])


def write_points(np_points, stem):
    """Writes stem.npy and stem.csv ('lat,lon', shortest round-trip decimals: the same doubles)."""
    import numpy as np
    with open(str(stem) + ".csv.tmp", "w") as out:
        out.write("\n".join("%r,%r" % (lat, lon) for lat, lon in np_points.tolist()))
        out.write("\n")
    os.replace(str(stem) + ".csv.tmp", str(stem) + ".csv")
    np.save(str(stem) + ".tmp.npy", np_points)
    os.replace(str(stem) + ".tmp.npy", str(stem) + ".npy")


def gmap_answers_for(gmap, map_path, csv_path):
    with open(csv_path, "rb") as stdin:
        result = subprocess.run([gmap, "query", str(map_path), "-"], stdin=stdin, capture_output=True, check=False)
    if result.returncode not in (0, 1):
        raise SystemExit("gmap query failed: " + result.stderr.decode()[:500])
    return result.stdout.decode().split("\n")


def edges_of(geojson_path):
    """Every ring edge as (lon0, lat0, lon1, lat1), without the ±180 cuts and the edges along the
    south pole, which are artefacts of the projection, not boundaries."""
    import numpy as np
    data = read_geojson(geojson_path)
    chunks = []
    for feature in data["features"]:
        geometry = feature["geometry"]
        polygons = [geometry["coordinates"]] if geometry["type"] == "Polygon" else geometry["coordinates"]
        for polygon in polygons:
            for ring in polygon:
                ring = np.asarray(ring, dtype=np.float64)[:, :2]
                chunks.append(np.hstack([ring[:-1], ring[1:]]))
    del data
    edges = np.vstack(chunks)
    cut = (np.abs(edges[:, 0]) == 180) & (edges[:, 0] == edges[:, 2])
    pole = (edges[:, 1] == -90) & (edges[:, 3] == -90)
    return edges[~cut & ~pole]


def near_border_points(rng, edges, n, metres):
    import numpy as np
    mid_lat = np.radians((edges[:, 1] + edges[:, 3]) / 2)
    length = np.hypot((edges[:, 2] - edges[:, 0]) * np.cos(mid_lat), edges[:, 3] - edges[:, 1])
    cumulative = np.cumsum(length)
    chosen = np.minimum(np.searchsorted(cumulative, rng.uniform(0, cumulative[-1], n), side="right"), len(edges) - 1)
    e = edges[chosen]
    t = rng.uniform(0.0, 1.0, n)
    lon = e[:, 0] + t * (e[:, 2] - e[:, 0])
    lat = e[:, 1] + t * (e[:, 3] - e[:, 1])
    distance = metres * np.sqrt(rng.uniform(0.0, 1.0, n))
    angle = rng.uniform(0.0, 2 * math.pi, n)
    lat2 = lat + distance * np.sin(angle) / EARTH_METRES_PER_DEGREE
    lon2 = lon + distance * np.cos(angle) / (EARTH_METRES_PER_DEGREE * np.maximum(np.cos(np.radians(lat)), 1e-9))
    lat2 = np.clip(lat2, -90.0, 90.0)
    lon2 = (lon2 + 180.0) % 360.0 - 180.0
    return np.column_stack([lat2, lon2])


def make_point_sets(name, spec, args, geojson_for_edges, map_path, work):
    """Returns [(set name, stem)], making files only when missing."""
    import numpy as np
    sets = []
    edges = None
    for index, set_name in enumerate(spec["sets"]):
        stem = work / ("points-%s-%s-%d-s%d" % (name, SET_SLUG[set_name], args.points, args.seed))
        sets.append((set_name, stem))
        if Path(str(stem) + ".npy").exists() and Path(str(stem) + ".csv").exists():
            continue
        log("%s: making %s points (%d)" % (name, set_name, args.points))
        rng = np.random.default_rng([args.seed, index, 1 if name == "countries" else 2])
        if set_name == "uniform":
            points = uniform_points(rng, args.points)
        elif set_name == "on land":
            kept = []
            total = 0
            while total < args.points:
                candidates = uniform_points(rng, max(args.points * 4, 1000))
                candidate_stem = work / ("candidates-%s" % name)
                write_points(candidates, candidate_stem)
                answers = gmap_answers_for(args.gmap, map_path, str(candidate_stem) + ".csv")
                found = np.array([bool(a) for a in answers[: len(candidates)]])
                kept.append(candidates[found])
                total += int(found.sum())
            points = np.vstack(kept)[: args.points]
        else:
            if edges is None:
                edges = edges_of(geojson_for_edges)
            points = near_border_points(rng, edges, args.points, args.near)
        write_points(points, stem)
    return sets


class RunnableSampler:
    """Samples the kernel's count of runnable tasks (/proc/stat procs_running) every 50 ms while a
    tool runs, less the tool's own process and this sampler: how many other tasks wanted a core."""

    def __init__(self):
        import threading
        self.samples = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def loop(self):
        while not self.stop.wait(0.05):
            try:
                with open("/proc/stat") as stat:
                    for line in stat:
                        if line.startswith("procs_running"):
                            self.samples.append(max(0, int(line.split()[1]) - 2))
            except OSError:
                return

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    def mean(self):
        return sum(self.samples) / len(self.samples) if self.samples else float("nan")


def run_gmap(args, map_path, sets, answers_dir):
    out = {"key": "gmap", "tool": "gmap", "version": git_version(), "sets": []}
    for set_name, stem in sets:
        answers = answers_dir / ("%s-gmap.txt" % SET_SLUG[set_name])
        command = [args.gmap, "bench", str(map_path), "--points-file", str(stem) + ".csv",
                   "--answers", str(answers), "--runs", str(args.runs), "--json"]
        with RunnableSampler() as sampler:
            result = subprocess.run(command, capture_output=True, text=True, check=True)
        bench = json.loads(result.stdout)
        s = bench["sets"][0]
        out["sets"].append({"name": set_name, "points": s["points"], "found": s["found"], "ns_median": s["ns_median"],
                            "ns_p99": s["ns_p99"], "others_runnable": sampler.mean(),
                            "answers": str(answers), "bench": bench})
        if "load_s" not in out:
            out.update({"load_s": bench["open_us"]["median"] * 1e-6, "rss_load_kb": bench["rss_open_kb"],
                        "rss_after_kb": bench["rss_after_kb"], "process_rss_after_kb": bench["process_rss_after_kb"],
                        "disk_bytes": bench["bytes"], "disk_what": ".gmap file",
                        "mode": "`gmap bench --points-file` (in-process `GMap.lookup` over the points)"})
    return out


def git_version():
    """The last commit that changed gmap's code (not this benchmark)."""
    try:
        return subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h", "--", "Sources", "Package.swift"],
                              capture_output=True, text=True, check=True).stdout.strip() or "?"
    except (OSError, subprocess.CalledProcessError):
        return "?"


def run_worker(args, cfg):
    command = [sys.executable, str(Path(__file__).resolve()), "worker", json.dumps(cfg)]
    with RunnableSampler() as sampler:
        result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit("worker %s failed:\n%s" % (cfg["tool"], result.stderr[-3000:]))
    out = json.loads(result.stdout.strip().split("\n")[-1])
    for s in out["sets"]:
        s["others_runnable"] = sampler.mean()  # over the whole worker, loading included
    return out


def read_lines(path, n):
    lines = Path(path).read_text().split("\n")
    return lines[:n]


def agreement(peer_lines, reference_lines, peer_sets=False, reference_sets=False):
    """Counts points where the two answers agree. A set answer (tab-separated ids) agrees with a
    single answer when it contains it, or when both are empty."""
    agree = 0
    kinds = {"different": 0, "only peer": 0, "only reference": 0}
    examples = []
    for i, (p, r) in enumerate(zip(peer_lines, reference_lines)):
        p_set = p.split("\t") if (peer_sets and p) else ([p] if p else [])
        r_set = r.split("\t") if (reference_sets and r) else ([r] if r else [])
        if (not p_set and not r_set) or (set(p_set) & set(r_set)) or (p_set and r_set and p_set[0] == r_set[0]):
            agree += 1
            continue
        if p_set and r_set:
            kinds["different"] += 1
        elif p_set:
            kinds["only peer"] += 1
        else:
            kinds["only reference"] += 1
        if len(examples) < 5:
            examples.append((i, p, r))
    return agree, kinds, examples


def classify(peer_lines, gmap_lines, exact_lines):
    """Splits the points where a single-answer peer and gmap differ by the exact answers (shapely
    on the shared GeoJSON, a tab-separated set): both answers in the set (overlapping features,
    where each tool picks differently), only gmap's, only the peer's, neither."""
    counts = {"both": 0, "gmap": 0, "peer": 0, "neither": 0}
    for p, g, e in zip(peer_lines, gmap_lines, exact_lines):
        if p == g:
            continue
        exact = set(e.split("\t")) if e else {""}
        counts[("both" if g in exact else "peer") if p in exact else ("gmap" if g in exact else "neither")] += 1
    return counts


def shared_tz_version(data_dir):
    readme = Path(data_dir) / "README.md"
    if readme.exists():
        match = re.search(r"timezone-boundary-builder (\S+) via PyPI `timezonefinder-data` (\S+)", readme.read_text())
        if match:
            return "%s (timezonefinder-data %s)" % (match.group(1), match.group(2))
    return "unknown"


def contended(s):
    if "contended" in s:
        return s["contended"]
    return s["others_runnable"] > (os.cpu_count() or 1) - 0.5


def fmt_ns(value):
    return "%.0f" % value if value >= 100 else "%.1f" % value


def fmt_bytes(n):
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            return "%.1f %s" % (n / size, unit)
    return "%d B" % n


def fmt_load(seconds):
    if seconds < 1e-3:
        return "%.0f µs" % (seconds * 1e6)
    if seconds < 1:
        return "%.0f ms" % (seconds * 1e3)
    return "%.1f s" % seconds


def fmt_mb(kb):
    return "%.0f MB" % (kb / 1024) if kb >= 10 * 1024 else "%.1f MB" % (kb / 1024)


SUMMARY_TOOLS = ("tzfpy", "timezonefinder-c", "shapely-bbox")
SUMMARY_LABEL = {"timezonefinder-c": "timezonefinder", "shapely-bbox": "shapely, prepared"}
LABEL = {"gmap": "gmap", "tzfpy": "tzfpy", "timezonefinder-numba": "timezonefinder (numba)",
         "timezonefinder-c": "timezonefinder (C ext.)", "timezonefinderL": "TimezoneFinderL",
         "shapely-bbox": "shapely (bbox + prepared)", "shapely-strtree": "shapely (STRtree + prepared)"}


def report(args, results, started, data_dir):
    lines = []
    lines.append("# gmap and its peers, on the same points")
    lines.append("")
    lines.append("Written by `Benchmarks/peers.py` on %s (%s; `nproc` %d; gmap %s). Points per set: %d, seed %d, "
                 "%d timed runs per tool and set (after one untimed warm-up pass; a Python tool's run that "
                 "waited for a core, wall time > 1.1 × CPU time, is repeated, up to %d runs); ns/lookup is the "
                 "median over runs (p99 of runs in parentheses) of one batch call over the whole set. "
                 "Total time %.0f s."
                 % (time.strftime("%Y-%m-%d %H:%M"), os.uname().machine, os.cpu_count() or 0,
                    next(iter(results.values()))["gmap"]["version"] if results else git_version(),
                    args.points, args.seed, args.runs, args.max_runs, time.time() - started))
    lines.append("")
    summary = ["| dataset | points | tool | ns/lookup | × gmap | load | memory after load / after runs | on disk | agrees with gmap |",
               "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    lines.append("| dataset | points | tool (version) | ns/lookup (p99 of runs) | × gmap | load | memory: after load / after runs | on disk | agrees with gmap | differences: both right / gmap right / peer right / neither |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for dataset, tools in results.items():
        gmap = tools["gmap"]
        gmap_sets = {s["name"]: s for s in gmap["sets"]}
        exact_key = next((k for k in ("shapely-bbox", "shapely-strtree") if k in tools), None)
        for set_name in DATASETS[dataset]["sets"]:
            reference = read_lines(gmap_sets[set_name]["answers"], gmap_sets[set_name]["points"])
            exact = None
            if exact_key:
                exact_set = next(x for x in tools[exact_key]["sets"] if x["name"] == set_name)
                exact = read_lines(exact_set["answers"], exact_set["points"])
            for key, tool in tools.items():
                s = next(x for x in tool["sets"] if x["name"] == set_name)
                ratio = s["ns_median"] / gmap_sets[set_name]["ns_median"]
                if key == "gmap":
                    memory = "%s / %s (map pages)" % (fmt_mb(tool["rss_load_kb"]), fmt_mb(tool["rss_after_kb"]))
                    agree_text = "—"
                    split = "—"
                else:
                    memory = "+%s / +%s" % (fmt_mb(tool["rss_load_kb"] - tool["rss_before_kb"]),
                                            fmt_mb(tool["rss_after_kb"] - tool["rss_before_kb"]))
                    peer = read_lines(s["answers"], s["points"])
                    agree, kinds, examples = agreement(peer, reference, peer_sets=key.startswith("shapely"))
                    s["agreement"] = {"agree": agree, "kinds": kinds, "examples": examples}
                    differ = s["points"] - agree
                    agree_text = "%.4f %% (%d differ)" % (100.0 * agree / s["points"], differ)
                    split = "—"
                    if exact is not None and not key.startswith("shapely"):
                        c = classify(peer, reference, exact)
                        s["differences"] = c
                        split = "%d / %d / %d / %d" % (c["both"], c["gmap"], c["peer"], c["neither"])
                version = tool["version"]
                mark = " †" if contended(s) else ""
                lines.append("| %s | %s | %s %s | %s (%s)%s | %s | %s | %s | %s | %s | %s |" % (
                    dataset, set_name, LABEL[key], version, fmt_ns(s["ns_median"]), fmt_ns(s["ns_p99"]), mark,
                    "1" if key == "gmap" else "%.1f" % ratio, fmt_load(tool["load_s"]), memory,
                    fmt_bytes(tool["disk_bytes"]), agree_text, split))
                if key == "gmap" or key in SUMMARY_TOOLS:
                    first = set_name == DATASETS[dataset]["sets"][0]
                    if key != "gmap" and s.get("differences", {}).get("both"):
                        agree_text += ", %d in overlapping features" % s["differences"]["both"]
                    summary.append("| %s | %s | %s%s %s%s | %s%s | %s | %s | %s | %s | %s |" % (
                        dataset if key == "gmap" else "", set_name if key == "gmap" else "",
                        "**" if key == "gmap" else "", SUMMARY_LABEL.get(key, LABEL[key]), version,
                        "**" if key == "gmap" else "", fmt_ns(s["ns_median"]), mark,
                        "1" if key == "gmap" else "%.1f" % ratio, fmt_load(tool["load_s"]) if first else "",
                        memory.replace(" (map pages)", "") if first else "",
                        (fmt_bytes(tool["disk_bytes"]) + (" (GeoJSON)" if key.startswith("shapely") else "")) if first else "",
                        agree_text.replace(".0000 %", " %").replace(" (0 differ)", "")))
    lines.append("")
    lines.append("† contended: other processes competed for the cores while this was timed (for a Python "
                 "tool, fewer than %d of its %d runs had a wall time within 10 %% of its CPU time, so all runs "
                 "count; for gmap, other runnable tasks averaged more than %.1f). See the load table below; "
                 "rerun on a quiet machine." % (args.runs, args.max_runs, (os.cpu_count() or 1) - 0.5))
    lines.append("")
    lines.append("## Summary (for the README)")
    lines.append("")
    lines.append("The fastest exact mode of each peer (timezonefinder with its C extension, shapely per "
                 "feature with prepared polygons); load, memory and size on each tool's first row.")
    lines.append("")
    lines.extend(summary)
    lines.append("")
    lines.append("## Machine load while timing")
    lines.append("")
    lines.append("Other runnable tasks: the mean of `procs_running` (/proc/stat, sampled every 50 ms) less the "
                 "tool and the sampler, over the tool's whole process (gmap bench: one set; Python: all sets, "
                 "loading included). CPU time is the timing thread's own (`time.thread_time_ns`).")
    lines.append("")
    lines.append("| dataset | points | tool | other runnable tasks (mean) | wall ns/lookup | CPU ns/lookup (thread, median of all runs) | wall / CPU | runs counted / made |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|")
    for dataset, tools in results.items():
        for set_name in DATASETS[dataset]["sets"]:
            for key, tool in tools.items():
                s = next(x for x in tool["sets"] if x["name"] == set_name)
                cpu = s.get("cpu_ns_median")
                runs = ("%d / %d" % (s["runs_clean"] if not s["contended"] else s["runs_total"], s["runs_total"])
                        if "runs_total" in s else "%d (not filtered)" % args.runs)
                others = s["others_runnable"]
                lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    dataset, set_name, LABEL[key], "n/a" if others != others else "%.2f" % others, fmt_ns(s["ns_median"]),
                    fmt_ns(cpu) if cpu else "n/a", "%.2f" % (s["ns_median"] / cpu) if cpu else "n/a", runs))
    lines.append("")
    lines.append("## What each tool ran")
    lines.append("")
    for dataset, tools in results.items():
        for key, tool in tools.items():
            data = tool.get("data", "")
            lines.append("- %s, %s: %s%s; on disk: %s." % (dataset, LABEL[key], tool.get("mode", ""),
                                                        ("; data: " + data) if data else "", tool.get("disk_what", "")))
    lines.append("")
    if "timezones" in results:
        tools = results["timezones"]
        lines.append("## Timezones: which differences are the data's")
        lines.append("")
        lines.append("The shared data is timezone-boundary-builder %s. Each tool's answers compared with shapely's "
                     "exact answers on that same GeoJSON (agreeing when shapely's set of containing zones holds "
                     "the tool's answer):" % shared_tz_version(data_dir))
        lines.append("")
        exact_key = "shapely-bbox" if "shapely-bbox" in tools else ("shapely-strtree" if "shapely-strtree" in tools else None)
        if exact_key:
            lines.append("| points | tool | data | agrees with shapely (exact, shared data) | agrees with gmap |")
            lines.append("|---|---|---|---:|---:|")
            for set_name in DATASETS["timezones"]["sets"]:
                exact_set = next(x for x in tools[exact_key]["sets"] if x["name"] == set_name)
                exact = read_lines(exact_set["answers"], exact_set["points"])
                for key, tool in tools.items():
                    if key.startswith("shapely"):
                        continue
                    s = next(x for x in tool["sets"] if x["name"] == set_name)
                    peer = read_lines(s["answers"], s["points"])
                    agree, kinds, _ = agreement(peer, exact, reference_sets=True)
                    with_gmap = s.get("agreement", {}).get("agree")
                    lines.append("| %s | %s | %s | %.4f %% (%d differ) | %s |" % (
                        set_name, LABEL[key], tool.get("data_version", "shared %s" % shared_tz_version(data_dir).split()[0]),
                        100.0 * agree / s["points"], s["points"] - agree,
                        "—" if with_gmap is None else "%.4f %%" % (100.0 * with_gmap / s["points"])))
            lines.append("")
    lines.append("## gmap against shapely on the same GeoJSON")
    lines.append("")
    for dataset, tools in results.items():
        shapely_keys = [k for k in ("shapely-bbox", "shapely-strtree") if k in tools]
        if len(shapely_keys) == 2:
            for set_name in DATASETS[dataset]["sets"]:
                a, b = (next(x for x in tools[k]["sets"] if x["name"] == set_name) for k in shapely_keys)
                same = read_lines(a["answers"], a["points"]) == read_lines(b["answers"], b["points"])
                lines.append("- %s, %s: the two shapely modes give %s answers." % (
                    dataset, set_name, "the same" if same else "DIFFERENT"))
        for key, tool in tools.items():
            if key not in shapely_keys[:1]:
                continue
            for s in tool["sets"]:
                explain = s.get("explain")
                if explain is None:
                    continue
                if not explain:
                    lines.append("- %s, %s, %s: no point where gmap's answer is not among shapely's." % (dataset, s["name"], LABEL[key]))
                    continue
                distances = sorted(e["boundary_m"] for e in explain)
                lines.append("- %s, %s, %s: %d points where gmap's answer is not among shapely's; distance to the "
                             "nearest boundary of the features involved: median %.2g m, max %.2g m (%d within 1.1 cm = 1e-7°)."
                             % (dataset, s["name"], LABEL[key], len(explain), distances[len(distances) // 2], distances[-1],
                                sum(1 for d in distances if d <= 0.0112)))
                for e in sorted(explain, key=lambda e: -e["boundary_m"])[:3]:
                    lines.append("  - %.9f,%.9f: gmap %r, shapely %r, %.3g m from a boundary"
                                 % (e["lat"], e["lon"], e["gmap"], e["shapely"], e["boundary_m"]))
    lines.append("")
    text = "\n".join(lines)
    return text


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "worker":
        worker(json.loads(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=1_000_000, help="points per set (default 1,000,000)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per tool and set (default 5)")
    parser.add_argument("--max-runs", type=int, default=0,
                        help="runs a Python tool may make to get --runs undisturbed ones (default --runs + 3)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--near", type=float, default=100.0, help="metres from a boundary for near-border points")
    parser.add_argument("--datasets", default="countries,timezones")
    parser.add_argument("--tools", default="", help="comma-separated subset of the peers (default: all)")
    parser.add_argument("--gmap", default=str(ROOT / ".build" / "release" / "gmap"))
    parser.add_argument("--data", default=os.environ.get("GMAP_SHARED_DATA", str(ROOT.parent / "shared" / "data")))
    parser.add_argument("--work", default=str(ROOT / ".build" / "peers"), help="maps, points and answers")
    parser.add_argument("--out", default=str(ROOT / "Benchmarks" / "results" / "peers.md"))
    parser.add_argument("--render", metavar="PEERS_JSON",
                        help="only write the report again from a run's peers.json (its answers must still be in --work)")
    args = parser.parse_args()
    args.max_runs = max(args.max_runs, args.runs) if args.max_runs else args.runs + 3
    if args.render:
        with open(args.render) as saved_file:
            saved = json.load(saved_file)
        run_args = argparse.Namespace(**saved["args"])
        text = report(run_args, saved["results"], time.time() - saved["total_s"], Path(run_args.data))
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text)
        print(text)
        return
    started = time.time()
    data_dir = Path(args.data)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    only = set(filter(None, args.tools.split(",")))
    results = {}
    for dataset in filter(None, args.datasets.split(",")):
        spec = DATASETS[dataset]
        source = data_dir / spec["file"]
        if not source.exists():
            raise SystemExit("missing %s (set GMAP_SHARED_DATA or --data)" % source)
        geojson = source
        if source.suffix == ".gz":
            geojson = work / source.stem
            if not geojson.exists() or geojson.stat().st_mtime < source.stat().st_mtime:
                log("gunzip %s" % source.name)
                with gzip.open(source, "rb") as src, open(str(geojson) + ".tmp", "wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
                os.replace(str(geojson) + ".tmp", geojson)
        map_path = work / ("%s.gmap" % dataset)
        log("%s: gmap build %s --id %s" % (dataset, geojson.name, spec["id"]))
        subprocess.run([args.gmap, "build", str(geojson), "-o", str(map_path), "--id", spec["id"], "-q"], check=True)
        sets = make_point_sets(dataset, spec, args, geojson, map_path, work)
        answers_dir = work / ("answers-%s" % dataset)
        answers_dir.mkdir(exist_ok=True)
        log("%s: gmap bench" % dataset)
        tools = {"gmap": run_gmap(args, map_path, sets, answers_dir)}
        gmap_answers = {s["name"]: s["answers"] for s in tools["gmap"]["sets"]}
        for tool in spec["tools"]:
            if only and tool not in only:
                continue
            log("%s: %s" % (dataset, tool))
            cfg = {"tool": tool, "geojson": str(geojson), "id": spec["id"], "runs": args.runs, "max_runs": args.max_runs,
                   "sets": [(name, str(stem) + ".npy") for name, stem in sets], "answers_dir": str(answers_dir),
                   "gmap_answers": gmap_answers}
            try:
                tools[tool] = run_worker(args, cfg)
            except SystemExit as failure:  # e.g. numba not installable for this Python: go on without it
                log("%s: %s left out: %s" % (dataset, tool, str(failure)[-500:]))
                continue
            for s in tools[tool]["sets"]:
                log("  %s: %.0f ns/lookup (gmap %.0f), load %.2f s"
                    % (s["name"], s["ns_median"], next(g["ns_median"] for g in tools["gmap"]["sets"] if g["name"] == s["name"]),
                       tools[tool]["load_s"]))
        results[dataset] = tools
    text = report(args, results, started, data_dir)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    with open(out.with_suffix(".json"), "w") as raw:
        json.dump({"args": vars(args), "total_s": time.time() - started, "results": results}, raw, indent=1, default=str)
    print(text)
    log("wrote %s (%.0f s)" % (out, time.time() - started))


if __name__ == "__main__":
    main()
