#!/usr/bin/env python3
"""Compares two answer sets after sorting both by the id column.

    compare.py A B [--id id]

A and B are CSV files or directories of part-*.csv files. Every field is read as text. Prints the
row counts and the number of rows that differ in any column (or are in one set only), and exits
with 1 unless that number is 0 and both have the same columns.
"""
import argparse
import glob
import os
import sys

import pandas as pd


def load(path):
    files = sorted(glob.glob(os.path.join(path, "part-*.csv"))) if os.path.isdir(path) else [path]
    frames = [pd.read_csv(f, dtype=str, keep_default_na=False, na_filter=False) for f in files]
    return pd.concat(frames, ignore_index=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--id", default="id")
    args = ap.parse_args()
    a, b = load(args.a), load(args.b)
    rows_a, rows_b = len(a), len(b)
    if list(a.columns) != list(b.columns):
        print(f"columns differ: {list(a.columns)} vs {list(b.columns)}")
        sys.exit(1)
    a, b = (frame.assign(_key=frame[args.id].astype("int64"))
            .sort_values("_key", kind="stable").reset_index(drop=True) for frame in (a, b))
    only = 0
    if len(a) != len(b) or not a["_key"].equals(b["_key"]):
        keys_a, keys_b = set(a["_key"]), set(b["_key"])
        only = len(keys_a ^ keys_b)
        common = keys_a & keys_b
        a = a[a["_key"].isin(common)].reset_index(drop=True)
        b = b[b["_key"].isin(common)].reset_index(drop=True)
    differing = pd.Series(False, index=a.index)
    per_column = {}
    for column in a.columns:
        if column == "_key":
            continue
        unequal = a[column].to_numpy() != b[column].to_numpy()
        per_column[column] = int(unequal.sum())
        differing |= unequal
    total = int(differing.sum()) + only
    print(f"{args.a}: {rows_a} rows; {args.b}: {rows_b} rows; columns {list(a.columns[:-1])}")
    print(f"sorted by {args.id}: {total} differences ({only} ids in one set only; by column {per_column})")
    sys.exit(0 if total == 0 else 1)


if __name__ == "__main__":
    main()
