#!/usr/bin/env python3
"""The table of docs/COLD-START.md from cold-start-set.sh's lines: per image, mode and path, the
medians (lowest-highest) of the wall times before and now, without / with the archive, the ratio
now / before with the archive per round (wall, and CPU: the figure a busy machine disturbs least),
the median CPU with the archive, the main thread's CPU with the archive (the start's critical path;
from runs that report it) and the load averages.
usage: cold-start-summary.py SET.log"""
import re
import statistics as st
import sys
from collections import defaultdict

LINE = re.compile(
    r"(\S+) (\S+) (\S+) (before|now) round (\d+): run 1: without (\d+) ms \(CPU (\d+) ms\), "
    r"with (\d+) ms \(CPU (\d+) ms\)"
    r"(?:.*main thread's CPU without \d+ ms, with (\d+) ms)?.*load average: ([\d.]+)")
runs = defaultdict(dict)
for line in open(sys.argv[1]):
    m = LINE.match(line)
    if m:
        image, mode, path, side, rnd, w, cw, a, ca, main, load = m.groups()
        runs[(image, mode, path)].setdefault(side, {})[int(rnd)] = (
            int(w), int(cw), int(a), int(ca), float(load), int(main) if main else None)


def ms(v):
    return f"{st.median(v):,.0f} ({min(v):,}–{max(v):,})"


print("| Image, mode, first 200 of | Before: wall without / with the archive (ms) "
      "| Now: wall without / with (ms) | Now / before with the archive, per round "
      "| CPU with the archive, before → now (ms), ratio per round "
      "| Main thread's CPU with the archive, before → now (ms), ratio per round | Load |")
print("|---|---|---|---|---|---|---|")
for key in sorted(runs):
    before, now = runs[key].get("before", {}), runs[key].get("now", {})
    rounds = sorted(set(before) & set(now))
    if not rounds:
        continue
    b = [before[i] for i in rounds]
    n = [now[i] for i in rounds]
    ratios = [y[2] / x[2] for x, y in zip(b, n)]
    cpu = [y[3] / x[3] for x, y in zip(b, n)]
    loads = [x[4] for x in b + n]
    mains = [(x[5], y[5]) for x, y in zip(b, n) if x[5] and y[5]]
    main = "–"
    if mains:
        mr = [y / x for x, y in mains]
        main = (f"{st.median([x for x, _ in mains]):,.0f} → {st.median([y for _, y in mains]):,.0f}, "
                f"{st.median(mr):.2f} ({min(mr):.2f}–{max(mr):.2f})")
    print(f"| {key[0]} {key[1]} `{key[2]}` | {ms([x[0] for x in b])} / {ms([x[2] for x in b])} "
          f"| {ms([x[0] for x in n])} / {ms([x[2] for x in n])} "
          f"| **{st.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})** (n={len(rounds)}) "
          f"| {st.median([x[3] for x in b]):,.0f} → {st.median([x[3] for x in n]):,.0f}, "
          f"{st.median(cpu):.2f} ({min(cpu):.2f}–{max(cpu):.2f}) | {main} "
          f"| {min(loads):.1f}–{max(loads):.1f} |")
