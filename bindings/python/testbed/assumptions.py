"""The doc/ convention of doc/sensitivity.rst: a paragraph that calls a value an assumption or an
estimate is followed by a marker block that names its range (check_docs).
"""

from __future__ import annotations

import re
from pathlib import Path

from .build import ROOT
from .ranges import Profiles, Range
from .sensitivity import declared_ranges

# The doc/ convention: a paragraph that calls a value an assumption or an estimate is followed
# by a marker block (reST comments, invisible in the built docs):
#     .. ranged: host/onyx-irix65-250 HostPlatform.Cpu.Cores
#     .. ranged: experiment ntt-router slowCost
#     .. not-ranged: <why: not a parameter value, calibrated, a structural choice, ...>

WORDS = re.compile(r"\b(assumptions?|assumed|estimates?|estimated)\b", re.IGNORECASE)
MARKER = re.compile(r"^\s*\.\. (ranged|not-ranged):\s*(.*)$")
#: A not-ranged reason that calls a value a discrete reading (a choice) ...
DISCRETE = re.compile(r"\b(discrete|choice factor|readings?)\b", re.IGNORECASE)
#: ... stands only when the readings are not an assumption of a prediction: each is reported as
#: its own point, or no prediction runs on it.
NOT_A_PREDICTION = re.compile(r"\b(its own points?|no prediction)\b", re.IGNORECASE)
#: A missing choice factor is no reason (Choice exists).
EXCUSE = re.compile(r"no choice factor|left at (its|their) defaults?|not implemented",
                    re.IGNORECASE)


def doc_blocks(text: str) -> list[tuple[int, list[str]]]:
    """Runs of non-blank lines: (first line number, lines)."""
    blocks, cur, start = [], [], 0
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            if not cur:
                start = i
            cur.append(line)
        elif cur:
            blocks.append((start, cur))
            cur = []
    if cur:
        blocks.append((start, cur))
    return blocks


def doc_markers(root: Path = ROOT):
    """Every flagged paragraph and its markers: [(file, line, paragraph text, [(marker kind,
    argument)])], markers empty when none follows."""
    out = []
    for path in sorted((root / "doc").glob("*.rst")):
        if path.name == "sensitivity.rst":  # the chapter that describes the convention
            continue
        blocks = doc_blocks(path.read_text())
        for n, (line, lines) in enumerate(blocks):
            if all(MARKER.match(x) for x in lines):
                continue
            body = " ".join(x.strip() for x in lines)
            if not WORDS.search(body):
                continue
            markers = []
            if n + 1 < len(blocks) and all(MARKER.match(x) for x in blocks[n + 1][1]):
                markers = [MARKER.match(x).groups() for x in blocks[n + 1][1]]
            out.append((path.relative_to(root), line, body, markers))
    return out


def check_docs(root: Path = ROOT, experiment_ranges: dict[str, list[Range]] | None = None,
               profiles: Profiles | None = None) -> list[str]:
    """The doc/ convention's violations (empty when every assumption has its range)."""
    profiles = profiles or Profiles()
    if experiment_ranges is None:
        experiment_ranges = declared_ranges()
    problems = []
    for path, line, body, markers in doc_markers(root):
        where = f"{path}:{line}"
        if not markers:
            word = WORDS.search(body).group(0)
            problems.append(f"{where}: the paragraph says {word!r} but no '.. ranged:' or "
                            f"'.. not-ranged:' marker block follows it: {body[:100]}...")
            continue
        for what, arg in markers:
            arg = arg.strip()
            if what == "not-ranged":
                if not arg:
                    problems.append(f"{where}: '.. not-ranged:' needs a reason")
                elif DISCRETE.search(arg) and (not NOT_A_PREDICTION.search(arg)
                                               or EXCUSE.search(arg)):
                    problems.append(f"{where}: '.. not-ranged: {arg[:60]}...': a discrete reading "
                                    f"that is an assumption is a choice factor with levels "
                                    f"(Choice in an experiment's declaration, '.. ranged: "
                                    f"experiment EXPERIMENT OPTION'), unless each reading is "
                                    f"its own point or no prediction runs on it")
                continue
            parts = arg.split()
            if len(parts) == 3 and parts[0] == "experiment":
                names = {r.name for r in experiment_ranges.get(parts[1], [])}
                if parts[2] not in names:
                    problems.append(f"{where}: no range {parts[2]!r} in experiment "
                                    f"{parts[1]!r}'s sensitivity declaration")
            elif len(parts) == 2 and "/" in parts[0]:
                kind, name = parts[0].split("/", 1)
                if (kind, name) not in profiles.profiles:
                    problems.append(f"{where}: no {kind} profile {name!r}")
                elif not profiles.covers(kind, name, parts[1]):
                    problems.append(f"{where}: no '#@range' for {parts[1]} of {kind} profile "
                                    f"{name!r} (model/*/*-profiles.cc)")
            else:
                problems.append(f"{where}: '.. ranged: {arg}': expected 'KIND/PROFILE KEY' or "
                                f"'experiment EXPERIMENT NAME'")
    return problems
