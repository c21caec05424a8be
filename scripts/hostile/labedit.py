#!/usr/bin/env python3
"""Edits a `skinny lab` JSON report the way a careless or hostile user would.

  labedit.py IN OUT EDIT...
EDIT is `PATH=JSON` (PATH: dot-separated keys and list indexes, e.g.
`right.0.query`; JSON: the new value, parsed as JSON, or kept as a string
when it does not parse), `PATH@raw=TEXT` (TEXT written verbatim in place of
the value: NaN, 1e999), `PATH@nest=N` (N nested lists: `[[[...]]]`), or
`-PATH` (delete).
"""
import json
import sys


def walk(doc, path):
    keys = path.split(".")
    for k in keys[:-1]:
        doc = doc[int(k)] if isinstance(doc, list) else doc[k]
    last = keys[-1]
    return doc, int(last) if isinstance(doc, list) else last


def main():
    src, dst, edits = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(src) as f:
        doc = json.load(f)
    raws = {}
    for i, e in enumerate(edits):
        if e.startswith("-"):
            parent, key = walk(doc, e[1:])
            del parent[key]
            continue
        path, value = e.split("=", 1)
        if path.endswith("@nest"):
            path, value = path[:-5] + "@raw", "[" * int(value) + "]" * int(value)
        if path.endswith("@raw"):
            marker = f"__RAW_{i}__"
            parent, key = walk(doc, path[:-4])
            parent[key] = marker
            raws[json.dumps(marker)] = value
            continue
        try:
            v = json.loads(value)
        except ValueError:
            v = value
        parent, key = walk(doc, path)
        parent[key] = v
    text = json.dumps(doc)
    for marker, value in raws.items():
        text = text.replace(marker, value)
    with open(dst, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
