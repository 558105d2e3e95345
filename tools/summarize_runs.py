#!/usr/bin/env python3
"""Median of the SUM lines of several text runs, next to upstream's reference figures.

usage: summarize_runs.py REFERENCE_DIR RUN.txt [RUN.txt ...]
"""
import re
import statistics
import sys


def sums(path):
    out = {}
    for line in open(path):
        m = re.match(r"SUM (\S+) ([0-9.]+)", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def main():
    ref = sums(sys.argv[1] + "/default.txt")
    runs = [sums(p) for p in sys.argv[2:]]
    print(f"| testcase | upstream | ours ({len(runs)} runs) | median | diff |")
    print("|---|---|---|---|---|")
    for key in runs[0]:
        values = [r[key] for r in runs if key in r]
        med = statistics.median(values)
        r = ref.get(key)
        diff = f"{(med / r - 1) * 100:+.1f}%" if r else ""
        print(f"| {key} | {r if r else ''} | {' / '.join(f'{v:.2f}' for v in values)} | "
              f"{med:.2f} | {diff} |")


if __name__ == "__main__":
    main()
