#!/usr/bin/env python3
"""Writes N points uniform on the sphere as CSV part files with the columns id,lat,lon.

    gen_points.py N OUTDIR [--parts P] [--seed S] [--whole FILE]

OUTDIR/part-00000.csv ... part-{P-1}.csv each have the header `id,lat,lon`; ids run 0 .. N-1 in
order across the parts. Latitude is asin(2u - 1), longitude 360v - 180 (u, v uniform), written
with 6 decimals. The same N and seed give the same points for any P. --whole also writes all rows to one
file with one header (the single-process baseline's input).
"""
import argparse
import os

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("outdir")
    ap.add_argument("--parts", type=int, default=20)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--whole", help="also write every row to this one file")
    args = ap.parse_args()

    os.makedirs(args.outdir, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    whole = open(args.whole, "w", newline="") if args.whole else None
    if whole:
        whole.write("id,lat,lon\n")
    # Points are drawn in chunks of a million whatever the parts are: the same N and seed give the
    # same points with any number of parts.
    bounds = np.linspace(0, args.n, args.parts + 1).astype(np.int64).tolist()
    chunk = 1_000_000
    part, f = -1, None
    for s in range(0, args.n, chunk):
        e = min(s + chunk, args.n)
        u = rng.random(e - s)
        v = rng.random(e - s)
        lat = np.degrees(np.arcsin(2.0 * u - 1.0)).tolist()
        lon = (360.0 * v - 180.0).tolist()
        i = s
        while i < e:
            while i >= bounds[part + 1]:
                if f:
                    f.close()
                part += 1
                f = open(os.path.join(args.outdir, f"part-{part:05d}.csv"), "w", newline="")
                f.write("id,lat,lon\n")
            stop = min(e, bounds[part + 1])
            text = "".join(f"{k},{lat[k - s]:.6f},{lon[k - s]:.6f}\n" for k in range(i, stop))
            f.write(text)
            if whole:
                whole.write(text)
            i = stop
    if f:
        f.close()
    for empty in range(part + 1, args.parts):
        with open(os.path.join(args.outdir, f"part-{empty:05d}.csv"), "w", newline="") as f:
            f.write("id,lat,lon\n")
    if whole:
        whole.close()


if __name__ == "__main__":
    main()
