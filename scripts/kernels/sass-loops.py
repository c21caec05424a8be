#!/usr/bin/env python3
"""Instruction mix of the round loop (the one backward branch) of each kernel's
SASS, from the .sass files scripts/kernels/sass.sh writes."""
import collections, glob, re, sys

d = sys.argv[1] if len(sys.argv) > 1 else "/tmp/skinny-sass"
for path in sorted(glob.glob(f"{d}/bs*.sass")):
    ins = []
    for line in open(path):
        m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2)))
    for a, t in ins:
        m = re.search(r"BRA (0x[0-9a-f]+)", t)
        if m and int(m.group(1), 16) < a:
            lo = int(m.group(1), 16)
            body = [t for a2, t in ins if lo <= a2 <= a]
            c = collections.Counter(re.sub(r"^@!?U?P\w+\s+", "", t).split()[0] for t in body)
            name = path.split("/")[-1][:-5]
            print(f"{name:16} loop {len(body):4} instr: " + ", ".join(f"{k} {v}" for k, v in c.most_common(6)))
