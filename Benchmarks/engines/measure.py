#!/usr/bin/env python3
"""Runs one command and appends what it cost to a JSON-lines file.

    measure.py LABEL RESULTS.jsonl [--stdout FILE] -- COMMAND ...

Records the wall-clock seconds, the CPU seconds (user + system of the command and every
descendant it waited for), the largest single process's peak resident set (ru_maxrss, as
/usr/bin/time -v reports it), the peak of the whole process tree's proportional set size (PSS
summed over the command and its descendants, sampled every 0.2 s from /proc; shared pages such as
the map's are divided among the processes that map them), and the load averages before and after.
"""
import json
import os
import subprocess
import sys
import threading
import time


def descendants(root):
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    # the command name may hold spaces: the fields after it start after ')'
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in tree:
                tree.add(pid)
                frontier.append(pid)
    return tree


def pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit(__doc__)
    split = argv.index("--")
    options, command = argv[:split], argv[split + 1:]
    label, results = options[0], options[1]
    stdout_path = options[options.index("--stdout") + 1] if "--stdout" in options else None

    load_before = loadavg()
    out = open(stdout_path, "wb") if stdout_path else None
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=out)
    peak = [0]
    done = threading.Event()

    def sample():
        while True:
            peak[0] = max(peak[0], sum(pss_kb(p) for p in descendants(proc.pid)))
            if done.wait(0.2):
                break

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    if out:
        out.close()
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code
    record = {
        "label": label,
        "wall_s": round(wall, 3),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "max_rss_kb": usage.ru_maxrss,
        "tree_pss_peak_kb": peak[0],
        "load_before": load_before,
        "load_after": loadavg(),
        "exit": code,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    with open(results, "a") as f:
        f.write(json.dumps(record) + "\n")
    print(f"{label}: {wall:.2f} s wall, {record['cpu_s']:.2f} s CPU, largest process "
          f"{usage.ru_maxrss / 1024:.0f} MB, tree PSS peak {peak[0] / 1024:.0f} MB, "
          f"load {load_before} -> {record['load_after']}, exit {code}", file=sys.stderr)
    sys.exit(code)


if __name__ == "__main__":
    main()
