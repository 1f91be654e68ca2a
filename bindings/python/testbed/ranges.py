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
  from it (``base = ...``) that do not set the key themselves. To the C++ parser the line is a
  comment that it keeps with its profile (a note): ranges do not change a run. The profiles and
  their notes are read here through the program profile-dump (Profiles), so the text format has
  one parser, Profile's.
* **Experiments** (set-up choices: a program option or an ns-3 attribute default):
  ``Range("slowCost", 9000, 36000, "reason")`` or ``Range("ns3::FddiChannel::FibreLength", ...)``
  in the experiment's ``Sensitivity`` declaration (testbed.sensitivity).

A sample of a profile range reaches the programs through ``--profileFile``: a file that
re-declares the profile (``[host P]``, ``base = P``, the sampled settings), which replaces the
built-in one for that run.
"""

from __future__ import annotations

import functools
import json
import math
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .build import EXAMPLES_DIR, program_path

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
    # a choice factor (Choice): its readings, the option's text of each; the design's [0, 1]
    levels: tuple[str, ...] = ()
    default: str = ""  # a choice's nominal reading (the program's default)
    # a choice applied by the experiment's analysis (Sensitivity.analyse), not a program
    # option: every sample runs every reading's points, the level picks the reading whose
    # points the main metrics come from
    in_analysis: bool = False
    split: "Split | None" = None  # one of a fixed-sum split's two free shares (Split)

    def __post_init__(self):
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise RangeError(f"range {self.name}: low {self.low} must be below high {self.high}")
        if not self.source.strip():
            raise RangeError(f"range {self.name}: no source or reasoning given")
        if self.levels:
            if len(set(self.levels)) != len(self.levels) or len(self.levels) < 2:
                raise RangeError(f"choice {self.name}: needs two or more distinct levels, got "
                                 f"{self.levels}")
            if self.default not in self.levels:
                raise RangeError(f"choice {self.name}: the nominal reading {self.default!r} "
                                 f"is not one of its levels {self.levels}")
        elif self.in_analysis:
            raise RangeError(f"range {self.name}: only a choice (levels) can be applied in the "
                             f"analysis")

    def level(self, x: float) -> str:
        """A choice's reading at design value x in [0, 1]: the n levels split [0, 1) into n
        equal parts, x = 1 (Morris's top grid level) takes the last."""
        n = len(self.levels)
        return self.levels[min(int(float(x) * n), n - 1)]

    @property
    def id(self) -> str:
        """A stable name: 'slowCost', 'host/onyx-irix65-250/stack'."""
        if not self.kind:
            return self.name
        return f"{self.kind}/{self.profile}/{self.label or ','.join(self.keys)}"

    def value(self, x: float) -> str:
        """The text of sample x of an option or attribute range (a choice: its reading)."""
        if self.levels:
            return self.template.format(self.level(x))
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


def Choice(name: str, levels, source: str, default: str | None = None,
           template: str = "{}", in_analysis: bool = False) -> Range:
    """A discrete assumption of an experiment's declaration as a factor: a program option or
    an ns-3 attribute default with two or more readings (``levels``, the option's texts;
    ``default`` the nominal one, the first level unless given). The design samples it on
    [0, 1], cut into len(levels) equal parts (Range.level). On Morris's 4-level grid (0, 1/3,
    2/3, 1) two levels take two grid values each, and every Morris step (2/3) switches the
    reading: an elementary effect is the change of switching, times 1.5 (SALib divides by the
    step): mu* = 1.5 x the mean |change| between the readings (doc/sensitivity.rst). Four
    levels take one grid value each; three take 1, 1 and 2 (the last twice as often).

    ``in_analysis``: a reading that the experiment runs anyway, each as its own points (a
    named configuration of every sample): the choice is no program option; the sample's level
    goes to the declaration's ``analyse`` (Sensitivity.analyse), which takes the main metrics
    from that reading's points. Such a choice adds no program point."""
    levels = tuple(str(v) for v in levels)
    return Range(name=name, low=0.0, high=1.0, source=source, levels=levels,
                 default=levels[0] if default is None else str(default), template=template,
                 in_analysis=in_analysis)


@dataclass
class Split:
    """A fixed-sum assumption: a measured total of profile costs split into three parts by
    assumed shares (lmbench's UDP protocol work: 40 % send, 45 % the receive path on the
    interrupt CPU, 15 % the reader's receive; doc/tno.rst). The shares are not three
    independent factors: they are sampled on the simplex by two factors, the first and the
    third share, each on its documented range, the second the remainder 1 - s1 - s3 (its range
    follows: 1 - high1 - high3 to 1 - low1 - low3, kept positive by the check below). A sample
    multiplies each part's keys by share / nominal share, the nominal shares being the
    profile's own values, so the parts' sum stays the profile's total (the measured one), to
    rounding; a relative range over the same keys (a cost factor) multiplies on top.

    ``parts``: three tuples of profile keys; ``ranges``: (low, high) of the first and third
    shares; ``profiles``: the profiles (kind ``kind``) whose values it splits."""

    label: str
    kind: str
    profiles: tuple[str, ...]
    parts: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    ranges: tuple[tuple[float, float], tuple[float, float]]
    source: str
    names: tuple[str, str] = ("first", "third")

    def __post_init__(self):
        (l1, h1), (l3, h3) = self.ranges
        if not (0 < l1 < h1 < 1 and 0 < l3 < h3 < 1 and h1 + h3 < 1):
            raise RangeError(f"split {self.label}: shares {self.ranges} must lie in (0, 1) "
                             f"and leave the remainder positive")

    def factors(self) -> list[Range]:
        """The two free shares as factors (absolute shares, 0-1)."""
        return [Range(name=f"{self.label}.{n}", low=lo, high=hi, source=self.source,
                      split=self) for n, (lo, hi) in zip(self.names, self.ranges)]

    def shares(self, s1: float, s3: float) -> tuple[float, float, float]:
        return s1, 1.0 - s1 - s3, s3

    def nominal_shares(self, profiles: "Profiles", name: str) -> tuple[float, float, float]:
        sums = [sum(parse_number(profiles.value(self.kind, name, k))[0] for k in part)
                for part in self.parts]
        total = sum(sums)
        return tuple(x / total for x in sums)

    def multipliers(self, s1: float, s3: float, profiles: "Profiles"
                    ) -> dict[tuple[str, str], dict[str, float]]:
        """{(kind, profile): {key: factor on the key's nominal value}}."""
        out: dict[tuple[str, str], dict[str, float]] = {}
        new = self.shares(s1, s3)
        for name in self.profiles:
            nom = self.nominal_shares(profiles, name)
            for part, share, n in zip(self.parts, new, nom):
                for key in part:
                    out.setdefault((self.kind, name), {})[key] = share / n
        return out


# ---------------------------------------------------------------------------------------------
# Profiles' text


@dataclass
class ProfileText:
    kind: str
    name: str
    base: str | None
    settings: dict[str, str]  # the settings it states itself, in order
    origin: str  # where its text starts (FILE:LINE)
    resolved: dict[str, str] = field(default_factory=dict)  # every setting, base's included


_RANGE = re.compile(r"^#@range\s+(\S+)\s+(\S+)\s+(\S+)\s*:\s*(.*)$")


def dump_profiles(profile_file: str | Path | None = None) -> list[dict]:
    """Every profile as the C++ parser reads it: profile-dump's JSON (its "profiles" list)."""
    exe = program_path("profile-dump")
    if not exe.exists() and (EXAMPLES_DIR / "profile-dump").exists():
        exe = EXAMPLES_DIR / "profile-dump"  # a programs directory of one's own without it
    if not profile_file:
        return _builtin_profiles(str(exe))
    return _dump(str(exe), str(profile_file))


@functools.lru_cache(maxsize=4)
def _builtin_profiles(exe: str) -> list[dict]:
    """The built-in profiles of a program build (they are compiled in: read once)."""
    return _dump(exe, None)


def _dump(exe: str, profile_file: str | None) -> list[dict]:
    args = [exe]
    if profile_file:
        args.append(f"--profileFile={profile_file}")
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        raise RangeError(f"{exe} is missing: the profiles are read through the program "
                         f"profile-dump (./testbed build)") from None
    if out.returncode != 0:
        msg = (out.stderr.strip().splitlines() or [f"exit status {out.returncode}"])[-1]
        raise RangeError(f"profile-dump: {msg}")
    return json.loads(out.stdout)["profiles"]


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
    """Every profile of every kind and their declared ranges, as the C++ parser reads them.

    The profiles come from the program profile-dump (Profile's parser, the built-in profiles
    and, with ``profile_file``, those of that --profileFile, which replace a built-in one of the
    same name); the ranges from the ``#@range`` notes it reports with each profile."""

    def __init__(self, profile_file: str | Path | None = None):
        self.profiles: dict[tuple[str, str], ProfileText] = {}
        self.ranges: list[Range] = []
        pending = []  # (profile key, keys, low, high, reason, origin, label)
        for d in dump_profiles(profile_file):
            current = ProfileText(d["kind"], d["name"], d["base"] or None,
                                  dict(d["own"]), d["origin"], dict(d["settings"]))
            self.profiles[(current.kind, current.name)] = current
            for origin, line in d["notes"]:
                if not line.startswith("#@range"):
                    continue
                r = _RANGE.match(line)
                if not r:
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
        """The text of a key in a profile, its base's changes applied ('Section.Attr' or
        'Section.Attr.Inner')."""
        p = self.profiles.get((kind, name))
        if p is None:
            return None
        if key in p.resolved:
            return p.resolved[key]
        if key.count(".") >= 2:
            parent, inner = key.rsplit(".", 1)
            if parent in p.resolved:
                return _inner(p.resolved[parent], inner)
        return None

    def derived(self, kind: str, name: str) -> list[str]:
        """name and every profile whose base chain reaches it: bases before the profiles
        derived from them (by the length of their chains), then by name."""
        found = [n for (k, n) in self.profiles if k == kind
                 and any(p.name == name for p in self.chain(kind, n))]
        return sorted(found, key=lambda n: (len(self.chain(kind, n)), n))

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
