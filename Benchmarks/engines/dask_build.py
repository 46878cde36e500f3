#!/usr/bin/env python3
"""`gmap build --osm` of many extracts as Dask tasks: one task a PBF.

    dask_build.py OUTDIR PBF... [--gmap PATH] [--workers 2] [--retries 2] [--address HOST:PORT]
                  [--sequential] [--bounds grid|features]

A dask.bag of the PBF paths, one partition a path, each task running
`gmap build --osm PBF -o OUTDIR/<stem>.gmap -q` in a subprocess (<stem>: the PBF's name without
.osm.pbf), then hashing the map and reading its bounds (see below). The bag's partitions go
to a dask.distributed local cluster of --workers processes of one thread each, or to the
scheduler at --address (gmap, the PBFs and OUTDIR at the same paths on every worker). A failed
build raises in its task, and the scheduler runs it again up to --retries times
(`client.compute(..., retries=N)`); a build that still fails is reported with its PBF path and the
last lines of gmap's standard error, the other maps are built all the same, and the script exits
1. --sequential runs the same builds one after another in this process, without Dask (the
baseline), with its own loop of --retries retries. Builds are submitted largest PBF first.

Writes OUTDIR/manifest.json: gmap's --version and, for each map built, sorted by file name: the
file name, the PBF's name, bytes, SHA-256, bounds (south, west, north, east) and the build's
seconds (of the attempt that succeeded). Failed builds are listed under "failed".

`gmap info` prints no box of the features. --bounds grid (the default) takes the `grid` line of
`gmap info MAP`: columns × rows tiles of width × height from the south-west corner. That is the
tile grid of the map's FIRST layer only (for --osm maps: areas); the other layers' grids are
printed without their origin, so roads, places and addresses may reach beyond it. --bounds
features reads every layer back with `gmap export MAP --layer NAME -o -` and takes the box of all
the coordinates: exact, at the cost of an export of the whole map.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time

TAIL_LINES = 10
GRID = re.compile(r"^grid\s+(\d+) × (\d+) tiles of ([-0-9.e]+)° × ([-0-9.e]+)°, from \(([-0-9.e]+), ([-0-9.e]+)\)",
                  re.MULTILINE)


def stem_of(pbf):
    name = os.path.basename(pbf)
    for suffix in (".osm.pbf", ".pbf"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def bounds_of(gmap, map_path, how):
    """South, west, north, east: of the first layer's tile grid (`gmap info`), or of all features."""
    info = subprocess.run([gmap, "info", map_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, check=True).stdout
    if how == "features":
        return feature_box(gmap, map_path, info)
    found = GRID.search(info)
    if not found:
        raise RuntimeError(f"no grid line in `gmap info {map_path}`")
    columns, rows = int(found[1]), int(found[2])
    width, height, south, west = (float(found[i]) for i in (3, 4, 5, 6))
    return {"south": south, "west": west,
            "north": round(south + rows * height, 9), "east": round(west + columns * width, 9)}


def feature_box(gmap, map_path, info):
    """The box of every coordinate of every layer, from `gmap export MAP --layer NAME -o -`."""
    layers = re.findall(r"^  ([^ :][^:]*): ", info.split("\nsections\n")[0], re.MULTILINE)
    box = [90.0, 180.0, -90.0, -180.0]

    def walk(c):
        if c and isinstance(c[0], (int, float)):
            box[0], box[1] = min(box[0], c[1]), min(box[1], c[0])
            box[2], box[3] = max(box[2], c[1]), max(box[3], c[0])
        else:
            for part in c:
                walk(part)

    for layer in layers or [None]:
        command = [gmap, "export", map_path, "-o", "-", "-q"] + (["--layer", layer] if layer else [])
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        for line in proc.stdout:  # one feature a line
            line = line.strip().rstrip(",")
            if line.startswith('{"type":"Feature"'):
                geometry = json.loads(line).get("geometry")
                if geometry:
                    walk(geometry["coordinates"])
        if proc.wait() != 0:
            raise RuntimeError(f"gmap export {map_path} --layer {layer} exited with {proc.returncode}")
    return {"south": box[0], "west": box[1], "north": box[2], "east": box[3]}


def build(pbf, gmap, outdir, how="grid"):
    """One map: raises RuntimeError with the PBF and the tail of gmap's stderr when the build fails."""
    target = os.path.join(outdir, stem_of(pbf) + ".gmap")
    if os.path.exists(target):
        os.remove(target)
    started = time.perf_counter()
    done = subprocess.run([gmap, "build", "--osm", pbf, "-o", target, "-q"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        if os.path.exists(target):
            os.remove(target)
        tail = "\n".join(done.stderr.rstrip("\n").splitlines()[-TAIL_LINES:])
        raise RuntimeError(f"gmap build --osm {pbf} exited with {done.returncode}:\n{tail}")
    digest = hashlib.sha256()
    with open(target, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return {"file": os.path.basename(target), "source": os.path.basename(pbf),
            "bytes": os.path.getsize(target), "sha256": digest.hexdigest(),
            "bounds": bounds_of(gmap, target, how), "build_seconds": round(seconds, 4)}


def run_sequential(pbfs, gmap, outdir, retries, how):
    results, failures = [], []
    for pbf in pbfs:
        for attempt in range(retries + 1):
            try:
                results.append(build(pbf, gmap, outdir, how))
                break
            except Exception as error:  # noqa: BLE001 - reported below with the PBF
                if attempt == retries:
                    failures.append((pbf, str(error)))
    return results, failures


def run_dask(pbfs, gmap, outdir, retries, workers, address, how):
    import dask.bag as db
    from dask.distributed import Client, LocalCluster

    bag = db.from_sequence(pbfs, npartitions=len(pbfs)).map(build, gmap, outdir, how)
    parts = bag.to_delayed()  # one delayed a partition: one a PBF

    def collect(client):
        futures = client.compute(parts, retries=retries)
        results, failures = [], []
        for pbf, future in zip(pbfs, futures):
            try:
                results.extend(future.result())
            except Exception as error:  # noqa: BLE001 - the task's own exception, after the retries
                failures.append((pbf, str(error)))
        return results, failures

    if address:
        with Client(address) as client:
            return collect(client)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        return collect(client)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("pbfs", nargs="+", metavar="PBF")
    ap.add_argument("--gmap", default="gmap")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--retries", type=int, default=2)
    ap.add_argument("--address", help="a running dask scheduler to use instead of a local cluster")
    ap.add_argument("--sequential", action="store_true", help="one build after another, without Dask")
    ap.add_argument("--bounds", choices=["grid", "features"], default="grid",
                    help="the first layer's tile grid from gmap info (default), or the box of all features")
    args = ap.parse_args()

    started = time.perf_counter()
    gmap = args.gmap
    if os.sep in gmap:
        gmap = os.path.abspath(gmap)
    outdir = os.path.abspath(args.outdir)
    # the largest first: a long build that starts last would set the wall time
    pbfs = sorted((os.path.abspath(p) for p in args.pbfs), key=lambda p: (-os.path.getsize(p), p))
    stems = [stem_of(p) for p in pbfs]
    if len(set(stems)) != len(stems):
        sys.exit("dask_build.py: two PBFs would make maps of the same name")
    os.makedirs(outdir, exist_ok=True)
    version = subprocess.run([gmap, "--version"], stdout=subprocess.PIPE, text=True,
                             check=True).stdout.strip()

    if args.sequential:
        results, failures = run_sequential(pbfs, gmap, outdir, args.retries, args.bounds)
        how = "sequential"
    else:
        results, failures = run_dask(pbfs, gmap, outdir, args.retries, args.workers, args.address, args.bounds)
        how = f"dask, scheduler {args.address}" if args.address else f"dask, {args.workers} workers"

    results.sort(key=lambda r: r["file"])
    failures.sort()
    manifest = {"gmap_version": version,
                "bounds": ("the tile grid of the first layer, from gmap info" if args.bounds == "grid"
                           else "the box of all features of all layers, from gmap export"),
                "maps": results,
                "failed": [{"source": os.path.basename(p), "path": p} for p, _ in failures]}
    with open(os.path.join(outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    for pbf, message in failures:
        print(f"dask_build: FAILED {pbf} after {args.retries} retries: {message}", file=sys.stderr)
    print(f"dask_build: {len(results)} maps built, {len(failures)} failed ({how}, {args.retries} retries): "
          f"{time.perf_counter() - started:.2f} s, builds {sum(r['build_seconds'] for r in results):.2f} s",
          file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
