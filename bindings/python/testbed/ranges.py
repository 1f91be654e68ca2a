"""Ranges of assumed parameters, as data next to the parameters (doc/sensitivity.rst).

Two places declare a range:

* **Profiles** (host, RTI, ...: the text in ``model/*/*-profiles.cc``): a comment line
  ``#@range KEYS LOW HIGH : reason`` inside a profile's section, before or after the setting it
  ranges. KEYS is one profile key (``HostPlatform.Cpu.Cores``, ``HostCpu.InterferenceDuration.Max``:
  the keys of ``base =`` overrides and ``--hostSet``) or several joined by commas, optionally
  named ``label=KEY,KEY``. LOW and HIGH are numbers (with the setting's unit if it has one,
  ``0us``), or factors ``x0.5 x1.5`` that multiply each key's own value: one factor that moves
  several settings together (a protocol stack's costs from one estimate). Integers (no ``.``,
  no exponent) give integer samples. A range applies to its profile and to the profiles derived
  from it (``base = ...``) that do not set the key themselves. The C++ parser reads the line as
  a comment: ranges do not change a run.
* **Experiments** (set-up choices: a program option or an ns-3 attribute default):
  ``Range("slowCost", 9000, 36000, "reason")`` or ``Range("ns3::FddiChannel::FibreLength", ...)``
  in the experiment's ``Sensitivity`` declaration (testbed.sensitivity).

A sample of a profile range reaches the programs through ``--profileFile``: a file that
re-declares the profile (``[host P]``, ``base = P``, the sampled settings), which replaces the
built-in one for that run.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import ROOT

_NUM = re.compile(r"^([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)([A-Za-z]*)$")


class RangeError(ValueError):
    """A range declaration that cannot be read or does not fit its parameter."""


def parse_number(text: str) -> tuple[float, str, bool]:
    """'135ns' -> (135.0, 'ns', True): value, unit, whether written as an integer."""
    m = _NUM.match(text.strip())
    if not m:
        raise RangeError(f"not a number: {text!r}")
    num = m.group(1)
    return float(num), m.group(2), not re.search(r"[.eE]", num)


def format_number(value: float, unit: str = "", integer: bool = False) -> str:
    if integer:
        return f"{int(round(value))}{unit}"
    return f"{float(value):.6g}{unit}"


@dataclass
class Range:
    """One ranged parameter: a factor of a sensitivity analysis.

    ``name`` is a program option (``slowCost``), an ns-3 attribute default
    (``ns3::FddiChannel::FibreLength``) or, for profile ranges, the profile key(s). ``relative``:
    low and high are factors of each key's own value."""

    name: str
    low: float
    high: float
    source: str
    unit: str = ""
    integer: bool = False
    relative: bool = False
    # the option's or attribute's text around the number ("ns3::ExponentialRandomVariable[Mean={}
    # |Bound=2e-5]" for a parameter inside a random variable), "{}" = the number
    template: str = "{}"
    # profile ranges only
    kind: str = ""  # "host", "rti", ...
    profile: str = ""  # the profile that declares it
    keys: tuple[str, ...] = ()
    label: str = ""
    applies_to: tuple[str, ...] = ()  # the profile and its derived profiles without own values
    origin: str = ""  # file:line of the declaration
    nominal: dict = field(default_factory=dict)  # (profile, key) -> (value, unit, integer)

    def __post_init__(self):
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise RangeError(f"range {self.name}: low {self.low} must be below high {self.high}")
        if not self.source.strip():
            raise RangeError(f"range {self.name}: no source or reasoning given")

    @property
    def id(self) -> str:
        """A stable name: 'slowCost', 'host/onyx-irix65-250/stack'."""
        if not self.kind:
            return self.name
        return f"{self.kind}/{self.profile}/{self.label or ','.join(self.keys)}"

    def value(self, x: float) -> str:
        """The text of sample x of an option or attribute range."""
        return self.template.format(format_number(x, self.unit, self.integer))

    def settings(self, x: float) -> dict[tuple[str, str], dict[str, str]]:
        """Sample x of a profile range: {(kind, profile): {key: value text}}."""
        out: dict[tuple[str, str], dict[str, str]] = {}
        for prof in self.applies_to:
            for key in self.keys:
                if self.relative:
                    v, unit, integer = self.nominal[(prof, key)]
                    text = format_number(v * x, unit, integer)
                else:
                    text = format_number(x, self.unit, self.integer)
                out.setdefault((self.kind, prof), {})[key] = text
        return out


# ---------------------------------------------------------------------------------------------
# Profiles' text


@dataclass
class ProfileText:
    kind: str
    name: str
    base: str | None
    settings: dict[str, str]  # its own settings, in order
    origin: str


_HEADER = re.compile(r"^\[(\w+)\s+([^\]\s]+)\]\s*$")
_RANGE = re.compile(r"^#@range\s+(\S+)\s+(\S+)\s+(\S+)\s*:\s*(.*)$")


def profile_sources(root: Path = ROOT) -> list[Path]:
    return sorted((root / "model").glob("*/*-profiles.cc"))


def _raw_text(path: Path) -> tuple[str, int]:
    """The profile text of a *-profiles.cc (its R"( ... )" literal) and its first line number."""
    src = path.read_text()
    start = src.find('R"(')
    end = src.find(')"', start)
    if start < 0 or end < 0:
        raise RangeError(f"{path}: no R\"( ... )\" profile text")
    return src[start + 3:end], src[:start].count("\n") + 1


def _inner(value: str, inner: str) -> str | None:
    """'ns3::HostCpu[Frequency=3e9|Cores=1]', 'Cores' -> '1'."""
    m = re.match(r"^[\w:]+\[(.*)\]$", value.strip())
    if not m:
        return None
    for item in m.group(1).split("|"):
        k, _, v = item.partition("=")
        if k.strip() == inner:
            return v.strip()
    return None


class Profiles:
    """The built-in profiles of every kind and their declared ranges."""

    def __init__(self, root: Path = ROOT):
        self.profiles: dict[tuple[str, str], ProfileText] = {}
        self.ranges: list[Range] = []
        pending = []  # (profile key, keys, low, high, reason, origin, label)
        for path in profile_sources(root):
            text, line0 = _raw_text(path)
            current = None
            for i, raw in enumerate(text.splitlines()):
                line = raw.strip()
                origin = f"{path.relative_to(root)}:{line0 + i}"
                m = _HEADER.match(line)
                if m:
                    kind = "host" if m.group(1) == "profile" else m.group(1)
                    current = ProfileText(kind, m.group(2), None, {}, origin)
                    self.profiles[(kind, current.name)] = current
                    continue
                if line.startswith("#@range"):
                    r = _RANGE.match(line)
                    if not r or current is None:
                        raise RangeError(f"{origin}: expected '#@range KEYS LOW HIGH : reason' "
                                         f"inside a profile, got {line!r}")
                    keys, low, high, reason = r.groups()
                    label, eq, rest = keys.partition("=")
                    if eq:
                        keys = rest
                    else:
                        label = ""
                    pending.append(((current.kind, current.name), tuple(keys.split(",")), low,
                                    high, reason, origin, label))
                    continue
                if not line or line.startswith("#") or current is None:
                    continue
                key, eq, value = line.partition("=")
                if not eq:
                    continue
                key, value = key.strip(), value.strip()
                if key == "base":
                    current.base = value
                elif key != "description":
                    current.settings[key] = value
        for pk, keys, low, high, reason, origin, label in pending:
            self.ranges.append(self._make_range(pk, keys, low, high, reason, origin, label))

    # -- values ---------------------------------------------------------------------------

    def chain(self, kind: str, name: str) -> list[ProfileText]:
        out, seen = [], set()
        while name is not None:
            if (kind, name) in seen or (kind, name) not in self.profiles:
                break
            seen.add((kind, name))
            p = self.profiles[(kind, name)]
            out.append(p)
            name = p.base
        return out

    def own(self, p: ProfileText, key: str) -> bool:
        """Whether p sets key itself (the key, or the whole object value it is inside)."""
        if key in p.settings:
            return True
        parent = key.rsplit(".", 1)[0]
        return key.count(".") >= 2 and parent in p.settings

    def value(self, kind: str, name: str, key: str) -> str | None:
        """The text of a key in a profile, following its bases ('Section.Attr' or
        'Section.Attr.Inner')."""
        for p in self.chain(kind, name):
            if key in p.settings:
                return p.settings[key]
            if key.count(".") >= 2:
                parent, inner = key.rsplit(".", 1)
                if parent in p.settings:
                    return _inner(p.settings[parent], inner)
        return None

    def derived(self, kind: str, name: str) -> list[str]:
        """name and every profile whose base chain reaches it."""
        return [n for (k, n) in self.profiles if k == kind
                and any(p.name == name for p in self.chain(kind, n))]

    def _make_range(self, pk, keys, low, high, reason, origin, label) -> Range:
        kind, name = pk
        relative = low.startswith("x") and high.startswith("x")
        if relative != high.startswith("x") or relative != low.startswith("x"):
            raise RangeError(f"{origin}: both bounds are factors (x0.5 x2) or neither")
        lo, lunit, lint = parse_number(low[1:] if relative else low)
        hi, hunit, hint = parse_number(high[1:] if relative else high)
        if lunit != hunit:
            raise RangeError(f"{origin}: {low} and {high} have different units")
        applies = []
        for n in self.derived(kind, name):
            p = self.profiles[(kind, n)]
            if n == name or not any(self.own(p, k) for k in keys):
                applies.append(n)
        nominal = {}
        for n in applies:
            for k in keys:
                text = self.value(kind, n, k)
                if text is None:
                    raise RangeError(f"{origin}: profile {kind} {n} has no setting {k}")
                try:
                    nominal[(n, k)] = parse_number(text)
                except RangeError:
                    raise RangeError(f"{origin}: {kind} {n} {k} = {text!r} is not a number")
        r = Range(name=",".join(keys), low=lo, high=hi, source=reason, unit=lunit,
                  integer=lint and hint and not relative, relative=relative, kind=kind,
                  profile=name, keys=keys, label=label, applies_to=tuple(applies),
                  origin=origin, nominal=nominal)
        for (n, k), (v, unit, _) in nominal.items():
            if n != name:
                continue
            if not relative and unit != lunit:
                raise RangeError(f"{origin}: {k} is in {unit!r}, the range in {lunit!r}")
            if not relative and not (lo <= v <= hi):
                raise RangeError(f"{origin}: {kind} {n} {k} = {v:g} lies outside its range "
                                 f"[{lo:g}, {hi:g}]")
            if relative and not (lo <= 1 <= hi):
                raise RangeError(f"{origin}: factors [{lo:g}, {hi:g}] do not contain 1")
        return r

    def ranges_of(self, names) -> list[Range]:
        """The ranges that apply to any of these profiles (by name)."""
        names = set(names)
        return [r for r in self.ranges if names & set(r.applies_to)]

    def covers(self, kind: str, name: str, key: str) -> bool:
        """Whether a declared range varies key of profile (kind, name)."""
        return any(r.kind == kind and name in r.applies_to and key in r.keys
                   for r in self.ranges)


def profile_file_text(changes: dict[tuple[str, str], dict[str, str]]) -> str:
    """The --profileFile text that re-declares each changed profile with its changes."""
    lines = ["# written by ./testbed sensitivity: built-in profiles with sampled values"]
    for (kind, name), settings in sorted(changes.items()):
        lines += [f"[{kind} {name}]", f"base = {name}"]
        lines += [f"{k} = {v}" for k, v in settings.items()]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# The doc/ convention: a paragraph that calls a value an assumption or an estimate is followed
# by a marker block (reST comments, invisible in the built docs):
#     .. ranged: host/onyx-irix65-250 HostPlatform.Cpu.Cores
#     .. ranged: experiment ntt-router slowCost
#     .. not-ranged: <why: not a parameter value, calibrated, a structural choice, ...>

WORDS = re.compile(r"\b(assumptions?|assumed|estimates?|estimated)\b", re.IGNORECASE)
MARKER = re.compile(r"^\s*\.\. (ranged|not-ranged):\s*(.*)$")


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
    profiles = profiles or Profiles(root)
    if experiment_ranges is None:
        from .sensitivity import declared_ranges

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
