#!/usr/bin/env python3
"""`gmap query --csv` as a stage of a Dask dataframe pipeline.

    dask_gmap.py MAP INDIR OUTDIR [--gmap PATH] [--workers 2] [--scheduler distributed]
                 [--address HOST:PORT] [--keep a,b] [--prefix g_] [--via gmap|files|ctypes]
                 [--lib libCGMap.so]

Reads INDIR/part-*.csv (one partition per file, every column as text), sends each partition
through `gmap query MAP --csv - --threads 1` (its CSV streamed to the tool's standard input by a
thread while pandas parses the tool's standard output), and writes OUTDIR/part-NNNNN.csv: the
input columns as read, then gmap's answer columns. The answer columns (the Dask meta) are those
gmap prints for a header with no rows, so any map and any --keep work. The default scheduler is
dask.distributed: a local cluster of --workers processes of one thread each, or the scheduler at
--address.

--via files skips pandas: dask.delayed tasks, one a part file, each running
`gmap query MAP --csv PART --threads 1 > OUTDIR/PART` (gmap reads and writes the files itself).

--via ctypes answers through the C interface (libCGMap.so, `swift build -c release --product
CGMap`) instead of a subprocess: one gmap_lookup and gmap_feature_id call a row from Python, for
a map of one layer only (the C interface answers from the first layer).
"""
import argparse
import ctypes
import glob
import io
import os
import subprocess
import sys
import threading
import time

import dask
import dask.dataframe as dd
import pandas as pd


def read_csv_text(source):
    # Every field as text: the coordinates go to gmap exactly as they were read.
    return pd.read_csv(source, dtype=str, keep_default_na=False, na_filter=False)


def gmap_columns(gmap, map_path, header, extra):
    """The columns gmap writes for this header: the input's, then its answer columns."""
    out = subprocess.run(
        [gmap, "query", map_path, "--csv", "-", *extra],
        input=(",".join(header) + "\n").encode(), stdout=subprocess.PIPE, check=True,
    ).stdout.decode()
    return out.rstrip("\r\n").split(",")


def via_gmap(df, gmap, map_path, extra):
    """One partition through `gmap query MAP --csv -`: CSV in on stdin, CSV out on stdout."""
    proc = subprocess.Popen(
        [gmap, "query", map_path, "--csv", "-", "--threads", "1", *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )
    failure = []

    def feed():
        try:
            with io.TextIOWrapper(proc.stdin, encoding="utf-8", newline="") as sink:
                df.to_csv(sink, index=False, lineterminator="\n")
        except BaseException as error:  # a broken pipe if gmap stopped early
            failure.append(error)

    writer = threading.Thread(target=feed)
    writer.start()
    result = read_csv_text(proc.stdout)
    writer.join()
    proc.stdout.close()
    status = proc.wait()
    # 2: some rows could not be read (gmap named them on standard error and left them out).
    if status not in (0, 2) or failure:
        raise RuntimeError(f"gmap exited with {status}: {failure}")
    return result


def via_file(gmap, map_path, source, target, extra):
    """One part file through `gmap query MAP --csv PART > OUT`: no pandas; returns gmap's status."""
    with open(target, "wb") as out:
        status = subprocess.run([gmap, "query", map_path, "--csv", source, "--threads", "1", *extra],
                                stdout=out).returncode
    if status not in (0, 2):
        raise RuntimeError(f"gmap exited with {status} on {source}")
    return status


_C = {}


def _c_map(lib_path, map_path):
    """The library and the open map, once per worker process."""
    key = (lib_path, map_path)
    if key not in _C:
        lib = ctypes.CDLL(lib_path)
        lib.gmap_open_path.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.gmap_open_path.restype = ctypes.c_int32
        lib.gmap_lookup.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double,
                                    ctypes.POINTER(ctypes.c_uint32)]
        lib.gmap_lookup.restype = ctypes.c_int32
        lib.gmap_feature_count.argtypes = [ctypes.c_void_p]
        lib.gmap_feature_count.restype = ctypes.c_uint32
        lib.gmap_feature_id.argtypes = [ctypes.c_void_p, ctypes.c_uint32,
                                        ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_size_t)]
        lib.gmap_feature_id.restype = ctypes.c_int32
        handle = ctypes.c_void_p()
        status = lib.gmap_open_path(map_path.encode(), ctypes.byref(handle))
        if status != 0:
            raise RuntimeError(f"gmap_open_path({map_path}) returned {status}")
        # The ids of all features, decoded once: a lookup then costs one C call.
        ids = []
        text, length = ctypes.c_char_p(), ctypes.c_size_t()
        for feature in range(lib.gmap_feature_count(handle)):
            lib.gmap_feature_id(handle, feature, ctypes.byref(text), ctypes.byref(length))
            ids.append(ctypes.string_at(text, length.value).decode())
        _C[key] = (lib, handle, ids)
    return _C[key]


def via_ctypes(df, lib_path, map_path, lat, lon, column):
    lib, handle, ids = _c_map(lib_path, map_path)
    lookup = lib.gmap_lookup
    feature = ctypes.c_uint32()
    ref = ctypes.byref(feature)
    answers = []
    for a, o in zip(df[lat].astype(float).tolist(), df[lon].astype(float).tolist()):
        answers.append(ids[feature.value] if lookup(handle, a, o, ref) == 0 else "")
    out = df.copy()
    out[column] = pd.Series(answers, index=df.index, dtype=df[lat].dtype)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("map")
    ap.add_argument("indir")
    ap.add_argument("outdir")
    ap.add_argument("--gmap", default="gmap")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", choices=["distributed", "processes", "threads", "synchronous"],
                    default="distributed")
    ap.add_argument("--address", help="a running dask scheduler to use instead of a local cluster")
    ap.add_argument("--keep", help="passed to gmap query --keep")
    ap.add_argument("--prefix", help="passed to gmap query --prefix")
    ap.add_argument("--via", choices=["gmap", "files", "ctypes"], default="gmap")
    ap.add_argument("--lib", help="libCGMap.so for --via ctypes")
    ap.add_argument("--lat", default="lat")
    ap.add_argument("--lon", default="lon")
    args = ap.parse_args()

    extra = ["--lat", args.lat, "--lon", args.lon]
    if args.keep:
        extra += ["--keep", args.keep]
    if args.prefix:
        extra += ["--prefix", args.prefix]

    started = time.perf_counter()
    frame = dd.read_csv(os.path.join(args.indir, "part-*.csv"), dtype=str,
                        keep_default_na=False, na_filter=False, blocksize=None)
    header = list(frame.columns)
    columns = gmap_columns(args.gmap, args.map, header, extra)
    meta = pd.DataFrame({c: pd.Series(dtype=frame.dtypes[header[0]]) for c in columns})
    if args.via == "gmap":
        answered = frame.map_partitions(via_gmap, args.gmap, args.map, extra, meta=meta)
    elif args.via == "files":
        parts = sorted(glob.glob(os.path.join(args.indir, "part-*.csv")))
        answered = [dask.delayed(via_file)(args.gmap, os.path.abspath(args.map), os.path.abspath(part),
                                           os.path.abspath(os.path.join(args.outdir, os.path.basename(part))),
                                           extra) for part in parts]
    else:
        answer_columns = columns[len(header):]
        if len(answer_columns) != 1 or args.keep:
            sys.exit("--via ctypes: a map of one layer and no --keep (the C interface answers one id)")
        answered = frame.map_partitions(via_ctypes, os.path.abspath(args.lib), os.path.abspath(args.map),
                                        args.lat, args.lon, answer_columns[0], meta=meta)
    os.makedirs(args.outdir, exist_ok=True)

    def write():
        if args.via == "files":
            dask.compute(*answered)
        else:
            answered.to_csv(os.path.join(args.outdir, "part-*.csv"), index=False,
                            name_function=lambda i: f"{i:05d}", lineterminator="\n")

    if args.scheduler == "distributed":
        # Each worker reads its part, runs gmap and writes the answers: no partition passes through
        # this process. With --address the same code runs on a cluster (gmap, the map and the
        # folders at the same paths on every worker).
        from dask.distributed import Client, LocalCluster
        if args.address:
            with Client(args.address):
                write()
        else:
            with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster):
                write()
    else:
        # The local schedulers; "processes" sends every partition through this process.
        with dask.config.set(scheduler=args.scheduler, num_workers=args.workers):
            write()
    print(f"dask_gmap: {frame.npartitions} partitions, {args.workers} workers ({args.scheduler}), "
          f"via {args.via}: {time.perf_counter() - started:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
