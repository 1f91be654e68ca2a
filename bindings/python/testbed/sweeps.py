"""Sweeps and validations of the user's own: any program, any parameter grid, any measured data.

``./testbed sweep`` and ``./testbed validate`` (and ``testbed.sweep()``, ``testbed.validate()``)
run their points on the campaign engine (campaign.run_campaign: Dask, every point stored
atomically, resumed): a sweep is an ad-hoc experiment whose points are a grid's runs, stored in
``<out>/points/``. Before anything runs, the grid is checked against the program itself: the
parameter names against its ``--describe`` (options and result fields, declared in its code), every
value with its ``--check`` (the program's own parser and range checks). A bad name, value or unit
is a ``SweepError`` (exit status 2) naming it.
"""

from __future__ import annotations

import csv
import functools
import itertools
import json
import math
import os
import subprocess
from pathlib import Path

from . import build
from .build import program_path
from .errors import CampaignError
from .experiment import Analysis, Experiment, Figure, Series, Validation, mean_std_ci
from .outputs import atomic_write_text, check_out, write_csv
from .plot import band, measured_with_tolerance, render
from .points import run_campaign
from .units import RATE_UNITS, TIME_UNITS, split_number

_UNITS = {"time": TIME_UNITS, "rate": RATE_UNITS}
#: Options that a sweep sets itself or that are not parameters.
RESERVED = {"output", "describe", "check", "progress", "RngRun"}


class SweepError(ValueError):
    """A bad sweep or validation request (exit status 2): the message names what is wrong."""


# --------------------------------------------------------------------------------------------
# The program's own description


def _plain_name(program) -> bool:
    """A program's name is a file name in the programs' folder: no folder part, not . or ..,
    no control character."""
    return (isinstance(program, str) and program not in ("", ".", "..") and "/" not in program
            and not any(ord(c) < 0x20 for c in program))


def _record_programs() -> list[str]:
    """The built programs that write a result record (their --describe declares result fields):
    what a sweep can run."""
    out = set()
    for d in (build.SCRATCH_DIR, build.EXAMPLES_DIR):
        if not d.is_dir():
            continue
        for p in sorted(d.iterdir()):
            if p.is_file() and os.access(p, os.X_OK) and p.name not in out:
                try:
                    if _describe_exe(str(p)).get("fields"):
                        out.add(p.name)
                except SweepError:
                    pass
    return sorted(out)


def _exe(program: str) -> Path:
    if not isinstance(program, str):
        raise TypeError(f"program={program!r}: a program's name (str), not "
                        f"{type(program).__name__}")
    exe = program_path(program) if _plain_name(program) else None
    if exe is None or not exe.is_file() or not os.access(exe, os.X_OK):
        where = f" (not built at {exe})" if exe is not None else \
            " (a program's name, not a path)"
        raise SweepError(f"unknown program {program!r}{where}; programs: "
                         + (", ".join(_record_programs()) or "none built: ./testbed build"))
    return exe


@functools.lru_cache(maxsize=None)
def _describe_exe(exe: str) -> dict:
    """The program's --describe, or SweepError: a program that does not answer it with a JSON
    description (not a program of the module) is no sweep's program."""
    try:
        r = subprocess.run([exe, "--describe"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SweepError(f"{exe}: cannot run its --describe ({e})") from None
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or [""])[-1]
        raise SweepError(f"{exe} --describe failed (exit {r.returncode}): {last}")
    try:
        d = json.loads(r.stdout)
    except (ValueError, RecursionError):
        d = None
    if not isinstance(d, dict) or not isinstance(d.get("options"), list) \
            or not isinstance(d.get("fields"), list):
        raise SweepError(f"{exe}: its --describe is not a program description (not a program "
                         f"of the module)")
    return d


def describe(program: str) -> dict:
    """The program's ``--describe``: {"program", "description", "options": [...], "fields":
    [...]} (options with name, type, default, range or choices, help; result fields with name,
    type, help). A program without result fields writes no record: SweepError."""
    try:
        d = _describe_exe(str(_exe(program)))
    except SweepError as e:
        if "programs:" in str(e):
            raise
        raise SweepError(f"{e}; programs: {', '.join(_record_programs())}") from None
    if not d["fields"]:
        raise SweepError(f"{program}: writes no result record (its --describe declares no result "
                         f"field); programs: {', '.join(_record_programs())}")
    return d


def _options(desc: dict) -> dict[str, dict]:
    return {o["name"]: o for o in desc["options"]}


def _g(x: float) -> str:
    """A number as short text (12 significant digits: no 0.30000000000000004)."""
    s = f"{x:.12g}"
    return s if "e" not in s else repr(float(s))


# --------------------------------------------------------------------------------------------
# Grids


def _base(text: str, opt: dict, name: str) -> tuple[float, str]:
    """A bound of a range in the option's base unit (s, bit/s, or plain), with its unit."""
    sp = split_number(text)
    t = opt["type"]
    if sp is None:
        raise SweepError(f"--param {name}: {text!r} is not a number"
                         + (" with a unit" if t in _UNITS else ""))
    number, unit = sp
    if not math.isfinite(number) or abs(number) > 1e300:
        raise SweepError(f"--param {name}: {text!r} is not a finite number")
    if t in _UNITS:
        table = _UNITS[t]
        if unit == "" and t == "time":
            unit = "s"
        if unit not in table:
            raise SweepError(f"--param {name}: unit {unit!r} of {text!r} is not a {t} unit "
                             f"--{name} can take ({', '.join(table)})")
        return number * table[unit], unit
    if unit:
        raise SweepError(f"--param {name}: --{name} is a {t} and takes no unit ({text!r})")
    return number, ""


def _expand_range(name: str, spec: str, opt: dict) -> list[str]:
    """``a:b:step`` (inclusive) or ``log:a:b:n`` (n values, geometric) in the option's syntax."""
    t = opt["type"]
    parts = spec.split(":")
    log = parts[0] == "log"
    if log:
        parts = parts[1:]
    if len(parts) != 3:
        raise SweepError(f"--param {name}={spec}: a range is START:STOP:STEP or "
                         f"log:START:STOP:COUNT")
    if t not in ("uint", "int", "real", "time", "rate"):
        raise SweepError(f"--param {name}={spec}: --{name} is a {t}: give a list, not a range")
    (a, ua), (b, ub) = _base(parts[0], opt, name), _base(parts[1], opt, name)
    if log:
        try:
            n = int(parts[2])
        except ValueError:
            n = 0
        if n < 2 or n > 10000:
            raise SweepError(f"--param {name}={spec}: COUNT must be an integer 2..10000")
        if not (a > 0 and b > 0):
            raise SweepError(f"--param {name}={spec}: a log range needs START and STOP > 0")
        vals = [a * (b / a) ** (i / (n - 1)) for i in range(n)]
        unit = ua
    else:
        step, us = _base(parts[2], opt, name)
        if step <= 0 or (b - a) / step > 10000:
            raise SweepError(f"--param {name}={spec}: STEP must be > 0 (at most 10000 values)")
        n = int(math.floor((b - a) / step * (1 + 1e-12) + 1e-9)) + 1
        if n < 1:
            raise SweepError(f"--param {name}={spec}: STOP is below START")
        vals = [a + i * step for i in range(n)]
        unit = us or ua or ub
    if t in ("uint", "int"):
        out = []
        for v in vals:
            s = str(int(round(v)))
            if s not in out:
                out.append(s)
        return out
    if t == "rate":
        if log or unit not in RATE_UNITS:
            return [f"{int(round(v))}bps" for v in vals]
        return [_g(v / RATE_UNITS[unit]) + unit for v in vals]
    if t == "time":
        return [_g(v / TIME_UNITS[unit]) + unit for v in vals]
    return [_g(v) for v in vals]


def _value_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _g(value)
    return str(value)


def expand_values(name: str, spec, opt: dict) -> list[str]:
    """The values of one parameter: a list, ``V1,V2,...``, or a range (see _expand_range)."""
    if isinstance(spec, (list, tuple)):
        for v in spec:
            if not isinstance(v, (str, int, float)) or v is None:
                raise TypeError(f"grid[{name!r}]: value {v!r} is a {type(v).__name__}, not a "
                                f"text or a number")
        vals = [_value_text(v) for v in spec]
    elif isinstance(spec, (str, int, float)):
        spec = _value_text(spec)
        if ":" in spec and opt["type"] in ("uint", "int", "real", "time", "rate"):
            vals = _expand_range(name, spec, opt)
        else:  # (a text with a comma inside one value: pass a list from Python)
            vals = [v.strip() for v in spec.split(",")]
    else:
        raise TypeError(f"grid[{name!r}]: {spec!r} is a {type(spec).__name__}, not a list of "
                        f"values or a text")
    if not vals:
        raise SweepError(f"--param {name}: no values")
    if "" in vals and not (isinstance(spec, (list, tuple)) and opt["type"] == "string"):
        raise SweepError(f"--param {name}={spec if isinstance(spec, str) else vals}: an empty "
                         f"value")
    for v in vals:
        if "\n" in v or "\r" in v or "\x00" in v:
            raise SweepError(f"--param {name}: value {v!r} has a line break or a NUL: one "
                             f"value is one line")
    return vals


def is_attribute(name: str) -> bool:
    """Whether a parameter name is an ns-3 attribute default, ``ns3::Type::Attribute``: every
    program accepts ``--ns3::Type::Attribute=value`` (ns-3's CommandLine); its --check refuses a
    type, attribute or value it does not have (ProgramOptions, UserAttributes::Check)."""
    return name.startswith("ns3::") and name.count("::") >= 2


def check_names(program: str, names, what: str = "--param") -> dict[str, dict]:
    """Every name is an option of the program or an ns-3 attribute ``ns3::Type::Attr`` (else
    SweepError naming it)."""
    opts = _options(describe(program))
    for n in names:
        if n in RESERVED:
            raise SweepError(f"{what} {n}: set by the sweep itself, not a parameter"
                             + (" (use --reps)" if n == "RngRun" else ""))
        if is_attribute(n):
            continue  # an ns-3 attribute default: checked by the program's --check
        if n not in opts and n != "RngSeed":
            raise SweepError(f"{what} {n}: {program} has no parameter {n!r} (parameters: "
                             f"{', '.join(opts)}; ./testbed sweep {program} --describe lists "
                             f"them; an ns-3 attribute is ns3::Type::Attribute)")
    return opts


def check_values(program: str, grid: dict[str, list[str]], what: str = "--param") -> None:
    """Every value of the grid passes the program's own checks (its ``--check``): one set of
    options per value index, each with the k-th value of every parameter. A program whose
    ``--describe`` says ``check_batch`` checks all the sets in one call (``--checkBatch``: one
    set a line on its standard input, a forked check each); otherwise one ``--check`` call per
    set (also for a set with a tab or a newline in a value, which a line cannot carry)."""
    exe = str(_exe(program))
    width = max((len(v) for v in grid.values()), default=0)
    sets = [[f"--{n}={vals[k]}" for n, vals in grid.items() if k < len(vals)]
            for k in range(width)]
    if not sets:
        return

    def refused(msg, args=None):
        multi = args is not None and any("\n" in a or "\r" in a for a in args)
        raise SweepError(f"{what}: {program} refuses "
                         + (f"{', '.join(repr(a) for a in args)}: " if multi else "")
                         + msg.removeprefix('error: '))

    one_line = [not any("\t" in x or "\n" in x or "\r" in x for x in a) for a in sets]
    batch = [a for a, ok in zip(sets, one_line) if ok]
    if describe(program).get("check_batch") and len(batch) > 1:
        text = "".join("\t".join(a) + "\n" for a in batch)
        r = subprocess.run([exe, "--checkBatch"], input=text, capture_output=True, text=True,
                           timeout=60 + 0.1 * len(batch))
        answers = r.stdout.splitlines()
        if r.returncode not in (0, 2) or len(answers) != len(batch):
            refused((r.stderr.strip().splitlines() or [f"--checkBatch: exit {r.returncode}"])[-1])
        for answer in answers:
            if answer != "0":
                refused(answer.partition(" ")[2] or f"exit {answer}")
        sets = [a for a, ok in zip(sets, one_line) if not ok]
    for args in sets:
        r = subprocess.run([exe, "--check", *args], capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            refused((r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1], args)


#: Largest grid (points x reps) a sweep runs unless raised (--max-points): four 100-value lists
#: were 10^8 points and a MemoryError; the limit is checked before anything is expanded further.
MAX_POINTS = 10000


def expand_grid(program: str, grid: dict, max_points: int = MAX_POINTS,
                reps: int = 1) -> dict[str, list[str]]:
    """A grid {name: values or spec} checked and expanded to {name: [value text, ...]}; more
    than ``max_points`` runs (points x reps) is refused before any value is checked."""
    opts = check_names(program, grid)
    out = {}
    for name, spec in grid.items():
        # An attribute's values are given as ns-3 reads them (a list; its type is the
        # attribute's own, which --check applies).
        opt = opts.get(name, {"type": "string" if is_attribute(name) else "uint", "name": name})
        out[name] = expand_values(name, spec, opt)
        seen = {}
        for v in out[name]:
            key = _same_value_key(v, opt)
            if key in seen:
                raise SweepError(f"--param {name}: value {v} given twice"
                                 + (f" (as {seen[key]})" if seen[key] != v else ""))
            seen[key] = v
    runs = math.prod(len(v) for v in out.values()) * max(1, reps)
    if runs > max_points:
        raise SweepError(f"--param: {' x '.join(str(len(v)) for v in out.values())} values"
                         + (f" x {reps} reps" if reps > 1 else "")
                         + f" = {runs} runs, more than {max_points} (--max-points raises it)")
    check_values(program, out)
    return out


def _same_value_key(text: str, opt: dict):
    """What makes two values of an option the same point: the number in the base unit for a
    time, a rate or a number ("1ms" and "0.001s"), else the text."""
    t = opt.get("type")
    if t in _UNITS:
        v = _base_value(text, _UNITS[t])
        return ("number", v) if v is not None else text
    if t in ("uint", "int", "real"):
        sp = split_number(text)
        return ("number", sp[0]) if sp is not None and not sp[1] else text
    return text


def grid_points(grid: dict[str, list[str]]) -> list[dict]:
    """The cartesian product, the first parameter varying slowest."""
    names = list(grid)
    return [dict(zip(names, combo)) for combo in itertools.product(*grid.values())]


# --------------------------------------------------------------------------------------------
# Running points


def _stride(point: dict, opts: dict[str, dict]) -> int:
    """Run numbers one run of the program uses itself (its "repetitions" option, if any)."""
    for o in opts.values():
        if o.get("repetitions"):
            return int(point.get(o["name"], o["default"]))
    return 1


def _runs(points: list[dict], reps: int, opts: dict[str, dict]) -> list[dict]:
    """Each point ``reps`` times with RngRun 1, 1 + s, 1 + 2 s, ... (s: the runs a program's run
    uses itself), so that no two runs of a point share a run number."""
    return [{**p, "RngRun": 1 + r * _stride(p, opts)} for p in points for r in range(reps)]


def _numeric(value):
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(float(value)) else None
    return None


def run_points(program: str, points: list[dict], reps: int, out: Path, jobs: int | None = None,
               scheduler: str | None = None, log=None, progress: bool = False,
               rerun: bool = False) -> list[dict]:
    """Run every point ``reps`` times on the campaign engine (stored in ``<out>/points/``,
    resumed when made by this build; only ``<out>`` is searched, never the folders next to it);
    returns one row per run: the point's parameters (as given), RngRun, every result field
    (series as JSON text; a field named like a parameter as ``result_<name>``)."""
    if reps < 1:
        raise SweepError(f"--reps {reps}: must be >= 1")
    opts = _options(describe(program))
    runs = _runs(points, reps, opts)
    out = Path(out).resolve()
    try:
        check_out(out)
    except CampaignError as e:
        raise SweepError(str(e)) from None
    exp = Experiment(id=out.name, study="sweep", title=f"sweep of {program}", program=program,
                     points=lambda scale: runs, analyse=lambda records: Analysis([], {}))
    # (out.parent is the campaign's folder only in form: shared=False keeps the search in
    # <out>/points, never in its siblings' points/ folders.)
    res = run_campaign([exp], "quick", jobs or os.cpu_count() or 1, out.parent,
                       log=log or (lambda m: None), scheduler=scheduler,
                       progress=progress, rerun=rerun, shared=False)[exp.id]
    if isinstance(res, CampaignError):
        raise res
    if isinstance(res, Exception):
        raise CampaignError(str(res))
    fields = [f["name"] for f in describe(program)["fields"]]
    rows = []
    for rec, run in zip(res, runs):
        row = {k: rec.params[k] for k in run}  # the grid's order (records are stored sorted)
        extra = [k for k in rec.result if k not in fields]
        for k in fields + extra:
            if k in rec.result:
                v = rec.result[k]
                # a field named like a parameter (jaxa-table2's count) keeps the parameter's
                # column as given; the field is result_<name>
                row[f"result_{k}" if k in rec.params else k] = \
                    json.dumps(v) if isinstance(v, list) else v
        rows.append(row)
    return rows


def summarise(rows: list[dict], params: list[str], program: str) -> list[dict]:
    """Per grid point (the parameters, RngRun aside): runs, and mean, std and ci95 (half-width
    of the 95 % confidence interval) of every numeric result field."""
    numeric = [f["name"] for f in describe(program)["fields"] if f["type"] in ("real", "int")]
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(r.get(p) for p in params), []).append(r)
    out = []
    for key, members in groups.items():
        s = dict(zip(params, key))
        s["runs"] = len(members)
        for f in numeric:
            vals = [v for v in (_numeric(m.get(f)) for m in members) if v is not None]
            if not vals:
                continue
            m, sd, ci = mean_std_ci(vals)
            s[f"{f}_mean"], s[f"{f}_std"], s[f"{f}_ci95"] = m, sd, ci
        out.append(s)
    return out


#: Suffix of the base-unit column of a time and of a data-rate parameter.
_BASE_SUFFIX = {"time": "_s", "rate": "_bps"}


def _base_value(text, table: dict) -> float | None:
    sp = split_number(text)
    if sp is None:
        return None
    number, unit = sp
    unit = unit or ("s" if table is TIME_UNITS else "bps")
    return number * table[unit] if unit in table else None


def _as_frame(rows: list[dict], program: str | None = None, params=()):
    """The rows as a pandas DataFrame with typed columns (pandas is a dependency): a time
    parameter keeps its text as given ("50ms") and gets ``<name>_s`` (float, seconds) next to
    it, a data rate ``<name>_bps`` (float, bit/s); numeric parameters (uint, int, real) become
    numbers (sorted as numbers, not as text); result fields keep their JSON types (a series is
    a list). ``to_xarray``
    (testbed.sweeps.to_xarray) turns a grid's frame into an array indexed by the parameters."""
    import pandas

    frame = pandas.DataFrame(rows)
    if program is None or frame.empty:
        return frame
    desc = describe(program)
    opts = _options(desc)
    for f in desc.get("fields", []):  # series: lists again (data.csv holds them as JSON text)
        name = f["name"] if f["name"] not in params else "result_" + f["name"]
        if f["type"] == "series" and name in frame.columns:
            frame[name] = [json.loads(v) if isinstance(v, str) else v for v in frame[name]]
    for name in params:
        if name not in frame.columns:
            continue
        t = opts.get(name, {}).get("type")
        if t in _BASE_SUFFIX:
            derived = name + _BASE_SUFFIX[t]
            if derived in frame.columns:  # a result field of that name (jaxa-benchmark's
                # bandwidth_bps): result_<name>, as for a field named like a parameter
                frame = frame.rename(columns={derived: "result_" + derived})
            col = frame.columns.get_loc(name) + 1
            frame.insert(col, derived,
                         [_base_value(v, _UNITS[t]) for v in frame[name]])
        elif t in ("uint", "int"):
            frame[name] = pandas.to_numeric(frame[name]).astype("int64")
        elif t == "real":
            frame[name] = pandas.to_numeric(frame[name]).astype("float64")
    return frame


def to_xarray(frame, field: str, params):
    """A sweep's DataFrame as an xarray DataArray of one result field, indexed by the grid's
    parameters ``params`` (by their base-unit column where there is one: ``delay_s`` for
    ``delay``) and by ``RngRun`` when the grid ran several repetitions."""
    dims = []
    for p in params:
        for suffix in ("_s", "_bps"):
            if p + suffix in frame.columns:
                p = p + suffix
                break
        dims.append(p)
    if "RngRun" in frame.columns and frame["RngRun"].nunique() > 1:
        dims.append("RngRun")
    return frame.set_index(dims)[field].to_xarray()


def results_dir() -> Path:
    """Where results go unless --out (or out=) says otherwise: results/ of the working
    directory."""
    return Path.cwd() / "results"


def default_out(kind: str, program: str) -> Path:
    return results_dir() / f"{kind}-{program}"


# --------------------------------------------------------------------------------------------
# Figures


def _axis(values: list[str], opt: dict) -> tuple[list[float], str]:
    """Numbers for an axis: as written when every value has the same unit, else in the base unit
    (s, bit/s); with the unit for the label."""
    sp = [split_number(v) for v in values]
    if any(s is None for s in sp):
        raise SweepError(f"--x/--series {opt['name']}: values {values} are not numbers")
    units = {u for _, u in sp}
    if len(units) == 1:
        return [n for n, _ in sp], units.pop()
    table = _UNITS.get(opt["type"], {})
    base = {"time": "s", "rate": "bit/s"}.get(opt["type"], "")
    return [n * table.get(u or "s", 1.0) for n, u in sp], base


#: A result field's unit from its name's suffix (``rtt_ms``), where its help gives none.
FIELD_UNITS = {"ms": "ms", "us": "us", "ns": "ns", "s": "s", "bps": "bit/s", "kbps": "kbit/s",
               "mbps": "Mbit/s", "hz": "Hz", "pct": "%", "bytes": "bytes", "pps": "packets/s",
               "mb": "MB", "kb": "kB"}


def field_unit(f: dict) -> str:
    """The unit of a result field (one of --describe's "fields"): the parenthesised end of its
    help text (``round-trip time (ms)``), else its name's suffix, else "" (none known)."""
    import re

    m = re.search(r"\(([^()]+)\)\s*$", f.get("help") or "")
    if m:
        return m.group(1)
    return FIELD_UNITS.get(f["name"].rpartition("_")[2].lower(), "")


def field_label(f: dict) -> str:
    """An axis label for a result field, with its unit: its help text, or its name; "(as
    recorded)" where no unit is known (a count, a ratio)."""
    text = f.get("help") or f["name"]
    unit = field_unit(f)
    if unit and text.rstrip().endswith(f"({unit})"):
        return text
    return f"{text} ({unit})" if unit else f"{text} (as recorded)"


def fixed_parameters(grid: dict, shown: tuple, runs: list | None = None) -> str:
    """A figure's subtitle: the parameters its axes and series do not show (each with its one
    value) and the runs behind each point."""
    fixed = [f"{p}={v[0]}" for p, v in grid.items() if p not in shown and len(v) == 1]
    text = "fixed: " + ", ".join(fixed) if fixed else "no other parameter"
    if runs:
        text += f"; {'/'.join(str(r) for r in runs)} run{'s' if runs != [1] else ''} per point"
    return text


def plot_summary(program: str, summary: list[dict], grid: dict[str, list[str]], field: str,
                 x: str, series: str | None, outdir: Path, logx: bool | None = None,
                 logy: bool = False) -> Path:
    """The field's mean against parameter x (one line per value of `series`), with 95 %
    confidence bars (plot.render writes the gnuplot script). ``logx``: a logarithmic x axis
    (None: when every x is positive and they span two decades or more); ``logy``: a logarithmic
    y axis. A log axis with a value <= 0 is refused (SweepError)."""
    desc = describe(program)
    fields = {f["name"]: f for f in desc["fields"]}
    opts = _options(desc)
    if field not in fields or fields[field]["type"] not in ("real", "int"):
        numeric = [f for f, d in fields.items() if d["type"] in ("real", "int")]
        raise SweepError(f"--plot {field}: not a numeric result field of {program} "
                         f"(fields: {', '.join(numeric)})")
    for what, p in (("--x", x), ("--series", series)):
        if p is not None and p not in grid:
            raise SweepError(f"{what} {p}: not a parameter of this sweep ({', '.join(grid)})")
    others = [p for p, v in grid.items() if p not in (x, series) and len(v) > 1]
    if others:
        raise SweepError(f"--plot: {', '.join(others)} vary too: give them one value, or use "
                         f"them as --x or --series")
    xs, unit = _axis(grid[x], opts[x])
    unit = unit or opts[x].get("unit", "")  # a plain number's unit from --describe (bytes, Hz)
    xnum = dict(zip(grid[x], xs))
    lines = grid[series] if series else [None]
    runs = sorted({r.get("runs") for r in summary if r.get("runs")})
    fig = Figure(name=f"{field}-vs-{x}" + (f"-by-{series}" if series else ""),
                 title=f"{program}: {field} (mean, 95 % confidence interval)",
                 xlabel=f"{x} ({unit})" if unit else f"{x} (value of --{x})",
                 ylabel=field_label(fields[field]),
                 subtitle=fixed_parameters(grid, (x, series), runs))
    pos = [v for v in xs if v > 0]
    if logx and len(pos) < len(xs):
        raise SweepError(f"--logx: {x} has a value <= 0 "
                         f"({next(g for g, v in zip(grid[x], xs) if v <= 0)})")
    fig.logx = (len(pos) == len(xs) and max(xs) / min(xs) >= 100) if logx is None else logx
    if logy:
        bad = [r for r in summary if not r.get(f"{field}_mean", math.nan) > 0]
        if bad:
            raise SweepError(f"--logy: the mean of {field} is not positive at "
                             f"{', '.join(f'{k}={bad[0][k]}' for k in grid)}")
        fig.logy = True
    for s in lines:
        pts = [r for r in summary if series is None or r[series] == s]
        pts.sort(key=lambda r: xnum[r[x]])
        fig.series.append(Series(title=f"{series}={s}" if series else field,
                                 style="errorlines",
                                 x=[xnum[r[x]] for r in pts],
                                 y=[r.get(f"{field}_mean", math.nan) for r in pts],
                                 yerr=[r.get(f"{field}_ci95", 0.0) if math.isfinite(
                                     r.get(f"{field}_ci95", math.nan)) else 0.0 for r in pts]))
    return render(fig, Path(outdir))


# --------------------------------------------------------------------------------------------
# Sweeps


def _check_api(**args) -> None:
    """The Python API's arguments, checked where they enter (TypeError or ValueError naming the
    argument) instead of failing deep inside: program a name, reps and max_points whole numbers
    >= 1, jobs None or one, out None, a str or a path, scheduler None or a str."""
    for name, v in args.items():
        if name == "program":
            if not isinstance(v, str):
                raise TypeError(f"program={v!r}: a program's name (str), not {type(v).__name__}")
        elif name in ("reps", "jobs", "max_points"):
            if v is None and name == "jobs":
                continue
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{name}={v!r}: a whole number >= 1, not {type(v).__name__}")
            if v < 1:
                raise SweepError(f"{name}={v}: must be >= 1")
        elif name == "out":
            if v is not None and not isinstance(v, (str, os.PathLike)):
                raise TypeError(f"out={v!r}: a folder (str or Path), not {type(v).__name__}")
            if isinstance(v, str) and not v.strip():
                raise SweepError("out='': name a folder")
        elif name == "scheduler":
            if v is not None and not isinstance(v, str):
                raise TypeError(f"scheduler={v!r}: an address (str), not {type(v).__name__}")
        elif name == "tolerance":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"tolerance={v!r}: a percentage (a number), not "
                                f"{type(v).__name__}")


def sweep(program: str, grid: dict, reps: int = 1, jobs: int | None = None,
          out: Path | str | None = None, scheduler: str | None = None, log=None,
          progress: bool = False, frame: bool = True, rerun: bool = False,
          max_points: int = MAX_POINTS):
    """Run the cartesian grid of a program's parameters, ``reps`` times each (distinct RngRun).

    ``grid`` maps parameter names to a list of values or a text: ``"2Mbps,4Mbps"``,
    ``"0ms:150ms:50ms"``, ``"log:128kbps:20Mbps:8"``. Points are stored in ``<out>/points/``
    (default results/sweep-<program>/) and resumed; ``<out>/data.csv`` gets one row per run and
    ``<out>/summary.csv`` the mean, std and 95 % CI per grid point and field. Returns the rows:
    a pandas DataFrame when pandas is importable, else a list of dicts.
    """
    _check_api(program=program, reps=reps, jobs=jobs, out=out, scheduler=scheduler,
               max_points=max_points)
    if not isinstance(grid, dict):
        raise TypeError(f"grid={grid!r}: a dict {{parameter: values}}, not "
                        f"{type(grid).__name__}")
    for name in grid:
        if not isinstance(name, str) or not name:
            raise TypeError(f"grid key {name!r}: a parameter's name (a non-empty str)")
    if not grid:
        raise SweepError("no --param given")
    out = Path(out) if out is not None else default_out("sweep", program)
    # A relative output prefix (--pcap) is put inside --out: the points run in the workers'
    # folder, and it wrote outside --out. A relative prefix stays inside --out (no "..").
    opts = _options(describe(program))
    grid = dict(grid)
    for name, spec in grid.items():
        if opts.get(name, {}).get("output_prefix"):
            vals = expand_values(name, spec, opts[name])
            base = Path(out).resolve()
            grid[name] = [v if not v or Path(v).is_absolute()
                          else os.path.normpath(base / v) for v in vals]
            for v, given in zip(grid[name], vals):
                if given and not Path(given).is_absolute() \
                        and not Path(v).is_relative_to(base):
                    raise SweepError(f"--param {name}={given}: a relative prefix is put inside "
                                     f"--out and cannot leave it (give an absolute path)")
            for v in grid[name]:
                try:
                    Path(v).parent.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    raise SweepError(f"--param {name}: cannot create {Path(v).parent}: "
                                     f"{e.strerror}") from None
    if log is not None:  # said before the checks (a large grid's take a while)
        log(f"{program}: checking the grid with {program} --check")
    expanded = expand_grid(program, grid, max_points, reps)
    rows = run_points(program, grid_points(expanded), reps, out, jobs, scheduler, log, progress,
                      rerun)
    write_csv(out / "data.csv", rows)
    write_csv(out / "summary.csv", summarise(rows, list(expanded), program))
    atomic_write_text(out / "grid.json", json.dumps({"program": program, "grid": expanded,
                                                     "reps": reps}, indent=1) + "\n")
    return _as_frame(rows, program, list(expanded)) if frame else rows


# --------------------------------------------------------------------------------------------
# Validation against measured data


#: Largest measured file (bytes) validate reads.
MAX_MEASURED_BYTES = 64 << 20


def _read_measured(measured) -> tuple[list[str], list[dict], str]:
    if isinstance(measured, (str, os.PathLike)):
        path = Path(measured)
        try:
            # Only a regular file, opened without blocking (a FIFO blocked for ever, /dev/zero
            # filled the memory), of at most MAX_MEASURED_BYTES.
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            try:
                import stat

                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode):
                    raise SweepError(f"--measured {path}: not a regular file")
                if st.st_size > MAX_MEASURED_BYTES:
                    raise SweepError(f"--measured {path}: {st.st_size} bytes, more than "
                                     f"{MAX_MEASURED_BYTES}: not a measured table")
            except BaseException:
                os.close(fd)
                raise
            # utf-8-sig: a byte-order mark is no part of the first column's name
            with open(fd, newline="", encoding="utf-8-sig") as f:
                lines = [ln for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
            bad = next((i for i, ln in enumerate(lines) if "\x00" in ln), None)
            if bad is not None:
                raise SweepError(f"--measured {path}: not a CSV text (a NUL byte)")
            reader = csv.reader(lines)
            header = [c.strip() for c in next(reader, [])]
            body = list(reader)
        except OSError as e:
            raise SweepError(f"--measured {path}: {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise SweepError(f"--measured {path}: not UTF-8 text (byte {e.start})") from None
        except csv.Error as e:
            raise SweepError(f"--measured {path}: not a CSV file ({e})") from None
        dup = sorted({c for c in header if header.count(c) > 1})
        if dup:
            raise SweepError(f"--measured {path}: column {dup[0]!r} appears twice")
        if "" in header:
            raise SweepError(f"--measured {path}: a column has no name")
        for i, r in enumerate(body, start=2):
            if len(r) != len(header):
                raise SweepError(f"{path}:{i}: {len(r)} cells, the header has {len(header)} "
                                 f"(a cell would be lost or missing)")
        return header, [{k: v.strip() for k, v in zip(header, r)} for r in body], str(path)
    if not isinstance(measured, (list, tuple)) or not all(isinstance(r, dict) for r in measured):
        raise TypeError(f"measured={measured!r}: a CSV file (str or Path) or a list of dicts "
                        f"(one per row)")
    rows = [dict(r) for r in measured]
    cols = list(rows[0]) if rows else []
    for i, r in enumerate(rows, start=1):
        if not all(isinstance(k, str) for k in r):
            raise TypeError(f"measured row {i}: its keys are column names (str): {list(r)}")
        if list(r) != cols:
            raise SweepError(f"measured row {i}: columns {list(r)}, the first row's {cols}")
    return cols, [{k: _value_text(v) for k, v in r.items()} for r in rows], "measured"


def classify_columns(program: str, columns: list[str], where: str = "measured"):
    """Columns of a measured CSV: {column: (parameter, unit suffix)} and [measured field]: a
    parameter's name (values in its own syntax), a parameter with a unit (``delay_ms``,
    ``rate_bps``), an ns-3 attribute (``ns3::Type::Attribute``, values in ns-3's syntax), or a
    numeric result field."""
    desc = describe(program)
    opts = _options(desc)
    fields = {f["name"]: f for f in desc["fields"]}
    params, measured = {}, []
    for col in columns:
        name, _, unit = col.rpartition("_")
        if col in opts or is_attribute(col):
            # a parameter, or an ns-3 attribute (ns3::Type::Attribute, values in ns-3's syntax:
            # the program's --check says whether it takes them)
            params[col] = (col, "")
        elif name in opts and unit in _UNITS.get(opts[name]["type"], {}):
            # a parameter with a unit (delay_ms), also where a field echoes it under that name
            params[col] = (name, unit)
        elif col in fields:
            if fields[col]["type"] not in ("real", "int"):
                raise SweepError(f"{where}: column {col!r}: result field {col} is a "
                                 f"{fields[col]['type']}, not a number")
            measured.append(col)
        elif name in opts:
            t = opts[name]["type"]
            if t not in _UNITS:
                raise SweepError(f"{where}: column {col!r}: --{name} is a {t} and takes no "
                                 f"unit ({unit!r})")
            raise SweepError(f"{where}: column {col!r}: {unit!r} is not a {t} unit --{name} "
                             f"can take ({', '.join(_UNITS[t])})")
        else:
            raise SweepError(f"{where}: column {col!r} is neither a parameter of {program} nor "
                             f"a numeric field of its result record (parameters: "
                             f"{', '.join(opts)}; fields: {', '.join(fields)})")
    names = [p for p, _ in params.values()]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SweepError(f"{where}: parameter {sorted(dup)[0]} is given by two columns")
    if not measured:
        raise SweepError(f"{where}: no measured column (a column named after a result field of "
                         f"{program}: {', '.join(fields)})")
    return params, measured


#: Optional columns of a measured file: a row's role ("check", the default, or "calibration":
#: the row's numbers set a model parameter) and, for a calibration row, the parameter it set.
ROLE_COLUMN = "validation_role"
PARAMETER_COLUMN = "calibrated_parameter"


def validate(program: str, measured, tolerance: float = 10.0, reps: int = 1,
             jobs: int | None = None, out: Path | str | None = None,
             scheduler: str | None = None, log=None, progress: bool = False,
             frame: bool = True, rerun: bool = False, max_points: int = MAX_POINTS):
    """Simulate each row of the measured data (its parameter columns, ``reps`` runs) and compare
    each measured column with the simulated mean: rows of (point, field, measured, simulated
    mean, CI, error %, pass, role), written to ``<out>/validation.csv`` and ``validation.md``
    with a measured-against-simulated figure. ``measured`` is a CSV file or a list of dicts. A
    row is an independent check unless its ``validation_role`` column says ``calibration`` (its
    ``calibrated_parameter`` column then names the parameter it set): only checks decide the
    exit status of ``./testbed validate``. At most ``max_points`` rows and distinct points x
    ``reps`` runs (SweepError before anything is checked or run)."""
    _check_api(program=program, reps=reps, jobs=jobs, out=out, scheduler=scheduler,
               max_points=max_points, tolerance=tolerance)
    say = log or (lambda m: None)
    columns, data, where = _read_measured(measured)
    if not data:
        raise SweepError(f"{where}: no rows")
    if len(data) > max_points:
        raise SweepError(f"{where}: {len(data)} rows, more than {max_points} (--max-points "
                         f"raises it)")
    if len(data) * reps > max_points:
        raise SweepError(f"{where}: {len(data)} rows x {reps} reps = {len(data) * reps} runs "
                         f"at most, more than {max_points} (--max-points raises it)")
    say(f"{where}: {len(data)} rows; checking them with {program} --check")
    if not (tolerance >= 0 and math.isfinite(tolerance)):
        raise SweepError(f"--tolerance {tolerance}: must be a finite percentage >= 0")
    roles = []
    for i, row in enumerate(data, start=2):
        role = row.get(ROLE_COLUMN, "") or "check"
        if role not in ("check", "calibration"):
            raise SweepError(f"{where}:{i}: column {ROLE_COLUMN!r}: {role!r} is neither check "
                             f"nor calibration")
        param = row.get(PARAMETER_COLUMN, "")
        if role == "calibration" and not param:
            raise SweepError(f"{where}:{i}: a calibration row names the parameter it set "
                             f"(column {PARAMETER_COLUMN!r})")
        roles.append((role, param or None))
    columns = [c for c in columns if c not in (ROLE_COLUMN, PARAMETER_COLUMN)]
    params, fields = classify_columns(program, columns, where)
    check_names(program, {p for p, _ in params.values()}, f"{where}: column")
    points, values = [], {}
    for i, row in enumerate(data, start=2):
        p = {}
        for col, (name, unit) in params.items():
            cell = row.get(col, "")
            if cell == "":
                raise SweepError(f"{where}:{i}: column {col!r} is empty")
            if unit:
                if split_number(cell) is None or split_number(cell)[1] \
                        or not math.isfinite(split_number(cell)[0]):
                    raise SweepError(f"{where}:{i}: column {col!r}: {cell!r} is not a plain "
                                     f"finite number (the unit {unit} is in the header)")
                cell = cell + unit
            p[name] = cell
            values.setdefault(name, {})[cell] = None  # distinct values in order, O(1) each
        for f in fields:
            cell = row.get(f, "")
            if cell != "" and (split_number(cell) is None or split_number(cell)[1]
                               or not math.isfinite(split_number(cell)[0])):
                raise SweepError(f"{where}:{i}: column {f!r}: {cell!r} is not a finite number")
        points.append(p)
    if not any(row.get(f, "") != "" for row in data for f in fields):
        raise SweepError(f"{where}: no measured value (every {', '.join(fields)} cell is empty)")
    try:
        check_values(program, {n: list(v) for n, v in values.items()}, f"{where}: column")
    except SweepError as e:
        raise SweepError(str(e)) from None
    # distinct points in order, in linear time (a list membership test was O(N^2))
    unique = list({tuple(sorted(p.items())): p for p in points}.values())
    out = Path(out) if out is not None else default_out("validate", program)
    rows = run_points(program, unique, reps, out, jobs, scheduler, log, progress, rerun)
    names = list(dict.fromkeys(name for name, _ in params.values()))
    by_point = {}
    for r in rows:
        by_point.setdefault(tuple(r.get(n) for n in names), []).append(r)
    table = []
    reason = f"the tolerance given (--tolerance {tolerance:g} %)"
    for p, row, (role, param) in zip(points, data, roles):
        runs = by_point.get(tuple(p[n] for n in names), [])
        label = " ".join(f"{n}={p[n]}" for n in names)
        for f in fields:
            if row.get(f, "") == "":
                continue
            vals = [v for v in (_numeric(r.get(f)) for r in runs) if v is not None]
            m, sd, ci = mean_std_ci(vals)
            v = Validation(label, float(row[f]), m, tolerance, role=role, reason=reason,
                           parameter=param)
            err = v.error_pct
            table.append({**p, "field": f, "measured": float(row[f]), "simulated_mean": m,
                          "simulated_ci95": ci, "runs": len(vals),
                          "error_pct": round(err, 4) if math.isfinite(err) else None,
                          "tolerance_pct": tolerance, "pass": v.passed, "point": label,
                          "role": role, "parameter": param or "", "reason": reason})
    write_csv(out / "validation.csv", table)
    _write_markdown(out / "validation.md", program, table, names, tolerance, reps)
    _plot_validation(program, table, out, log)
    return _as_frame(table, program, names) if frame else table


def _write_markdown(path: Path, program: str, table: list[dict], names: list[str],
                    tolerance: float, reps: int) -> None:
    def num(x):
        return "" if x is None or (isinstance(x, float) and not math.isfinite(x)) else f"{x:.6g}"

    checks = [r for r in table if r["role"] == "check"]
    calib = [r for r in table if r["role"] == "calibration"]
    bad = sum(1 for r in checks if not r["pass"])
    head = (f"Checks: {len(checks) - bad} of {len(checks)} within {tolerance:g} % "
            f"({reps} run{'s' if reps != 1 else ''} per point).")
    if calib:
        head += (f" Calibration rows (they set a model parameter; not checks): "
                 f"{sum(1 for r in calib if r['pass'])} of {len(calib)} reproduced.")
    lines = [f"# {program}: measured against simulated", "", head, "",
             "| " + " | ".join(names) + " | field | measured | simulated (mean) | 95 % CI | "
             "error % | pass | role |",
             "|" + "---|" * (len(names) + 7)]
    for r in table:
        ci = "" if r["simulated_ci95"] is None or not math.isfinite(r["simulated_ci95"]) \
            else f"± {r['simulated_ci95']:.3g}"
        role = r["role"] + (f" (sets {r['parameter']})" if r["parameter"] else "")
        lines.append("| " + " | ".join(str(r[n]) for n in names)
                     + f" | {r['field']} | {num(r['measured'])} | {num(r['simulated_mean'])} | "
                       f"{ci} | {num(r['error_pct'])} | {'yes' if r['pass'] else '**no**'} | "
                       f"{role} |")
    atomic_write_text(path, "\n".join(lines) + "\n")


def _plot_validation(program: str, table: list[dict], out: Path, log=None) -> Path | None:
    """measured-vs-simulated.png: each row's simulated mean (95 % confidence bars) against its
    measured value, the diagonal and the tolerance's band around it; and, per measured field,
    ``<field>-vs-<param>-measured.png`` (plot_measured_overlay) where a numeric parameter
    varies."""
    pts = [r for r in table if math.isfinite(r["simulated_mean"])]
    if not pts:
        return None
    fields = {f["name"]: f for f in describe(program)["fields"]}
    names = list(dict.fromkeys(r["field"] for r in pts))
    units = {field_unit(fields.get(f, {"name": f})) for f in names}
    unit = units.pop() if len(units) == 1 else ""
    unit = f"({unit})" if unit else "(each field in its own unit)" if len(names) > 1 else \
        "(as recorded)"
    tols = sorted({r["tolerance_pct"] for r in pts})
    fig = Figure(name="measured-vs-simulated",
                 title=f"{program}: measured against simulated",
                 xlabel=f"measured {unit}",
                 ylabel=f"simulated, mean and 95 % confidence interval {unit}",
                 subtitle=f"{len(pts)} rows; tolerance {'/'.join(f'{t:g}' for t in tols)} % of "
                          "the measured value (the band)")
    lo = min(min(r["measured"], r["simulated_mean"]) for r in pts)
    hi = max(max(r["measured"], r["simulated_mean"]) for r in pts)
    tol = max(tols)
    fig.series.append(band(f"tolerance \u00b1{tol:g} %", [lo, hi], [lo, hi],
                           [abs(lo) * tol / 100, abs(hi) * tol / 100], group="diagonal"))
    fig.series.append(Series("simulated = measured", [lo, hi], [lo, hi], style="lines",
                             group="diagonal"))
    for f in names:
        sel = [r for r in pts if r["field"] == f]
        fig.series.append(Series(f, [r["measured"] for r in sel],
                                 [r["simulated_mean"] for r in sel], style="points",
                                 yerr=[r["simulated_ci95"] if math.isfinite(r["simulated_ci95"])
                                       else 0.0 for r in sel]))
    png = render(fig, out)
    for extra in plot_measured_overlay(program, table, out):
        if log:
            log(f"figure: {extra}")
    return png


def plot_measured_overlay(program: str, table: list[dict], out: Path) -> list[Path]:
    """Per measured field: the simulated curve (mean, 95 % confidence bars) against the first
    parameter of the measured file with two or more numeric values, one curve per combination
    of the other varying parameters, and the measured points over it with their tolerance as
    a shaded band (plot.measured_with_tolerance); the parameters with one value in the
    subtitle. Returns the PNGs (none when no numeric parameter varies)."""
    if not table:
        return []
    desc = describe(program)
    opts = _options(desc)
    fields = {f["name"]: f for f in desc["fields"]}
    params = [k for k in table[0] if k in opts]
    values = {p: list(dict.fromkeys(r[p] for r in table)) for p in params}
    xparam, xs, unit = None, {}, ""
    for p in params:
        if len(values[p]) < 2 or opts[p]["type"] not in ("uint", "int", "real", "time", "rate"):
            continue
        try:
            nums, unit = _axis(values[p], opts[p])
        except (TypeError, ValueError):
            continue
        xparam, xs = p, dict(zip(values[p], nums))
        unit = unit or opts[p].get("unit", "")
        break
    if xparam is None:
        return []
    others = [p for p in params if p != xparam and len(values[p]) > 1]
    pngs = []
    for f in dict.fromkeys(r["field"] for r in table):
        rows = [r for r in table if r["field"] == f]
        tol = max(r["tolerance_pct"] for r in rows)
        fig = Figure(name=f"{f}-vs-{xparam}-measured",
                     title=f"{program}: {f}, simulated and measured",
                     xlabel=f"{xparam} ({unit})" if unit else f"{xparam} (value of --{xparam})",
                     ylabel=field_label(fields.get(f, {"name": f})),
                     subtitle=fixed_parameters(values, (xparam, *others)),
                     logx=all(v > 0 for v in xs.values())
                     and max(xs.values()) / min(xs.values()) >= 100)
        combos = list(dict.fromkeys(tuple(r[p] for p in others) for r in rows))
        for combo in combos:
            sel = sorted((r for r in rows if tuple(r[p] for p in others) == combo),
                         key=lambda r: xs[r[xparam]])
            label = ", ".join(f"{p}={v}" for p, v in zip(others, combo))
            group = label or f
            sim = [r for r in sel if math.isfinite(r["simulated_mean"])]
            fig.series.append(Series(f"simulated{', ' + label if label else ''}",
                                     [xs[r[xparam]] for r in sim],
                                     [r["simulated_mean"] for r in sim], style="errorlines",
                                     yerr=[r["simulated_ci95"] if math.isfinite(
                                         r["simulated_ci95"]) else 0.0 for r in sim],
                                     group=group))
            fig.series.extend(measured_with_tolerance(
                f"measured{', ' + label if label else ''}", [xs[r[xparam]] for r in sel],
                [r["measured"] for r in sel], tol, group=group))
        pngs.append(render(fig, out))
    return pngs
