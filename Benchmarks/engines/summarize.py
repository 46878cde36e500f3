#!/usr/bin/env python3
"""Prints the medians of measure.py's records as a Markdown table.

    summarize.py RESULTS.jsonl POINTS
"""
import json
import statistics
import sys


def main():
    path, points = sys.argv[1], int(sys.argv[2])
    runs = {}
    for line in open(path):
        record = json.loads(line)
        runs.setdefault(record["label"], []).append(record)
    print(f"{points:,} points, medians of the runs (min-max wall in brackets)\n")
    print("| variant | runs | wall s | points/s | CPU s | largest process peak RSS | process tree peak PSS | load (1 min) before each run |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for label, records in runs.items():
        walls = [r["wall_s"] for r in records]
        wall = statistics.median(walls)
        cpu = statistics.median(r["cpu_s"] for r in records)
        rss = statistics.median(r["max_rss_kb"] for r in records) / 1024
        pss = statistics.median(r["tree_pss_peak_kb"] for r in records) / 1024
        loads = ", ".join(r["load_before"].split()[0] for r in records)
        failed = sum(1 for r in records if r["exit"] != 0)
        note = f" ({failed} failed)" if failed else ""
        print(f"| {label}{note} | {len(records)} | {wall:.2f} ({min(walls):.2f}-{max(walls):.2f}) | "
              f"{points / wall:,.0f} | {cpu:.1f} | {rss:.0f} MB | {pss:.0f} MB | {loads} |")


if __name__ == "__main__":
    main()
