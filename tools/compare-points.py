#!/usr/bin/env python3
"""Compare the point records of two result folders, field by field, exactly.

A refactoring proves that it changes no behaviour by running ``./testbed reproduce`` before and
after and comparing every point record::

    tools/compare-points.py BEFORE_DIR AFTER_DIR [--ignore events] [--ignore wall_s]
        [--rename PROGRAM:OLD=NEW] [--only EXPERIMENT]

Points are matched by (program, parameters); a parameter that is a path inside the result folder
(a sensitivity sample's recalibrated profiles) is matched by its path relative to the folder.
``--rename`` maps a parameter (or a program, with ``--rename OLD=NEW`` without a program prefix
and ``--program``) that was renamed between the two runs; ``--value PROGRAM:PARAM:OLD=NEW`` maps a parameter value written differently (``5`` ->
``5ms``). The exit status is 0 when every common point is identical and both sides have the same
points, 1 otherwise; the differences are printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _in_folder(params: dict, root: Path) -> dict:
    """The parameters with a path inside the result folder written relative to it ("OUT/...",
    e.g. a sensitivity sample's recalibrated profiles), so that runs into two folders match."""
    prefix = str(root.resolve()) + "/"
    return {k: "OUT/" + v[len(prefix):] if isinstance(v, str) and v.startswith(prefix) else v
            for k, v in params.items()}


def _load(root: Path, only: set[str]) -> dict:
    points = {}
    for f in sorted(root.glob("*/points/*.json")):
        if only and f.parent.parent.name not in only:
            continue
        try:
            rec = json.loads(f.read_text())
        except (OSError, ValueError) as err:
            print(f"unreadable record {f}: {err}", file=sys.stderr)
            continue
        if not isinstance(rec, dict) or "result" not in rec:
            print(f"not a point record: {f}", file=sys.stderr)
            continue
        params = _in_folder(rec.get("params", {}), root)
        key = (rec.get("program", ""), json.dumps(params, sort_keys=True))
        points.setdefault(key, (f, rec))
    return points


def _diff(a, b, path: str, ignore: set[str], out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in ignore:
                continue
            if k not in a:
                out.append(f"{path}{k}: only after ({json.dumps(b[k])[:80]})")
            elif k not in b:
                out.append(f"{path}{k}: only before ({json.dumps(a[k])[:80]})")
            else:
                _diff(a[k], b[k], f"{path}{k}.", ignore, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{path}[{i}].", ignore, out)
            if len(out) > 20:
                return
    elif a != b or type(a) is not type(b):
        out.append(f"{path.rstrip('.')}: {json.dumps(a)[:80]} -> {json.dumps(b)[:80]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--ignore", action="append", default=[],
                    help="a result field to leave out (repeatable); wall_s and cpu_s are always "
                         "left out")
    ap.add_argument("--rename", action="append", default=[],
                    help="PROGRAM:OLD=NEW: a parameter renamed in the after run")
    ap.add_argument("--value", action="append", default=[],
                    help="PROGRAM:PARAM:OLD=NEW: a parameter value written differently after")
    ap.add_argument("--only", action="append", default=[], help="an experiment to compare")
    args = ap.parse_args()
    only = set(args.only)
    before = _load(args.before, only)
    after = _load(args.after, only)

    renames: dict[tuple[str, str], str] = {}
    for r in args.rename:
        prog, _, rest = r.partition(":")
        old, _, new = rest.partition("=")
        renames[(prog, old)] = new
    values: dict[tuple[str, str, str], str] = {}
    for v in args.value:
        prog, param, rest = v.split(":", 2)
        old, _, new = rest.partition("=")
        values[(prog, param, old)] = new

    def mapped(key):
        prog, params = key
        p = json.loads(params)
        q = {}
        for k, v in p.items():
            nk = renames.get((prog, k), k)
            nv = values.get((prog, k, str(v)), v)
            q[nk] = nv
        return (prog, json.dumps(q, sort_keys=True))

    before = {mapped(k): v for k, v in before.items()}
    ignore = {"wall_s", "cpu_s", *args.ignore}
    common = sorted(set(before) & set(after))
    differ = 0
    for key in common:
        out: list[str] = []
        _diff(before[key][1].get("result"), after[key][1].get("result"), "", ignore, out)
        if out:
            differ += 1
            print(f"{key[0]} {key[1]}\n  before {before[key][0]}\n  after  {after[key][0]}")
            for line in out[:20]:
                print(f"    {line}")
    only_before = sorted(set(before) - set(after))
    only_after = sorted(set(after) - set(before))
    for key in only_before:
        print(f"only before: {key[0]} {key[1]}")
    for key in only_after:
        print(f"only after: {key[0]} {key[1]}")
    print(f"{len(common)} common points, {differ} differ, {len(only_before)} only before, "
          f"{len(only_after)} only after")
    return 0 if differ == 0 and not only_before and not only_after else 1


if __name__ == "__main__":
    sys.exit(main())
