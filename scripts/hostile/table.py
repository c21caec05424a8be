#!/usr/bin/env python3
"""Markdown table of run.sh's verdicts at two binaries, case by case.

  table.py OLD_OUTPUT NEW_OUTPUT [MORE_OUTPUTS...]
Each output is what run.sh printed (PASS/FAIL/SKIP lines); a case missing
from one shows as "-". The finding is the number after the case's `f`.
"""
import re
import sys

LINE = re.compile(r"^(PASS|FAIL|SKIP) (\S+): ?(.*)$")


def verdicts(path):
    out = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if m:
                out[m.group(2)] = (m.group(1), m.group(3))
    return out


def main():
    runs = [verdicts(p) for p in sys.argv[1:]]
    order = []
    for r in runs:
        for name in r:
            if name not in order:
                order.append(name)
    print("| finding | case | old (d678e35) | new |")
    print("|---|---|---|---|")
    for name in order:
        finding = re.match(r"[a-z](\d+)", name)
        cells = []
        for r in runs[:2]:
            v = r.get(name)
            cells.append(v[0] if v else "-")
        print(f"| {finding.group(1) if finding else '?'} | `{name}` | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
