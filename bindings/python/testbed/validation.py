"""Measured data from the papers (validation/*.csv): calibration data only."""

import csv

from . import ROOT

VALIDATION_DIR = ROOT / "validation"


def _number(text):
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def load(name):
    """Rows of validation/<name> as dicts; numeric cells become numbers; '#' lines are comments."""
    return read(VALIDATION_DIR / name)


# --------------------------------------------------------------------------------------------
# Fact tables: numbers the study gives about a whole experiment (a fitted constant, a knee
# frequency, a sentence read as a number), one row per number, named after the metric of
# metrics.json it is compared with.

#: The columns every fact table has (others: tolerance_pct, unit, reading, ...).
FACT_COLUMNS = ("experiment", "metric", "value")


class FactTableError(ValueError):
    """A fact table that cannot be compared (a usage error: exit 2, one line)."""


def read(path):
    """Rows of a CSV file (validation/'s or a user's) as load() gives them."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        lines = [line for line in f if line.strip() and not line.lstrip().startswith("#")]
    return [{k: _number(v.strip()) for k, v in row.items()} for row in csv.DictReader(lines)]


#: Largest fact table read (bytes): a few hundred rows of numbers are a study's facts.
MAX_FACT_BYTES = 1 << 20
#: Largest cell of a fact table (characters).
MAX_FACT_CELL = 4096


def _read_checked(path):
    """The rows of a user's fact table, as read() gives them, or a FactTableError naming the
    problem: not a regular file, too large, not UTF-8 text, not CSV, a row with more or fewer
    cells than the header, a cell over MAX_FACT_CELL characters. A byte-order mark is no part
    of the first column's name."""
    import os
    import stat

    try:
        with open(path, "rb", opener=lambda p, fl: os.open(p, fl | os.O_NONBLOCK)) as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise FactTableError(f"{path}: not a regular file")
            data = f.read(MAX_FACT_BYTES + 1)
    except OSError as e:
        raise FactTableError(f"{path}: {e.strerror or e}") from None
    if len(data) > MAX_FACT_BYTES:
        raise FactTableError(f"{path}: larger than {MAX_FACT_BYTES} bytes: not a fact table")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FactTableError(f"{path}: not UTF-8 text (byte {e.start})") from None
    if "\x00" in text:
        raise FactTableError(f"{path}: not a CSV text (a NUL byte)")
    lines = [ln for ln in text.splitlines(keepends=True)
             if ln.strip() and not ln.lstrip().startswith("#")]
    old = csv.field_size_limit()
    try:
        csv.field_size_limit(MAX_FACT_CELL)
        table = list(csv.reader(lines))
    except csv.Error as e:
        raise FactTableError(f"{path}: not a CSV fact table ({e})") from None
    finally:
        csv.field_size_limit(old)
    if not table:
        return []
    header = [c.strip() for c in table[0]]
    dup = sorted({c for c in header if header.count(c) > 1})
    if dup:
        raise FactTableError(f"{path}: column {dup[0]!r} appears twice")
    rows = []
    for i, cells in enumerate(table[1:], 1):
        if len(cells) != len(header):
            raise FactTableError(f"{path}: row {i} has {len(cells)} cells, the header "
                                 f"{len(header)}")
        rows.append({k: _number(v.strip()) for k, v in zip(header, cells)})
    return rows


def read_facts(path):
    """The rows of a fact table, checked: the columns experiment, metric, value; a finite number
    in value (and in tolerance_pct when there is one, >= 0); one row per (experiment, metric).
    Anything else is a FactTableError naming the problem (see _read_checked)."""
    import math

    rows = _read_checked(path)
    if not rows:
        raise FactTableError(f"{path}: no rows")
    missing = [c for c in FACT_COLUMNS if c not in rows[0]]
    if missing:
        raise FactTableError(f"{path}: no column {', '.join(missing)} (a fact table has the "
                             f"columns {', '.join(FACT_COLUMNS)}[, tolerance_pct, ...])")
    seen = set()
    for i, r in enumerate(rows, 1):
        for c in ("value", "tolerance_pct"):
            if c in r and not isinstance(r[c], (int, float)):
                raise FactTableError(f"{path}: row {i}: {c} {r[c]!r} is not a number")
            if c in r and not math.isfinite(r[c]):
                raise FactTableError(f"{path}: row {i}: {c} {r[c]!r} is not finite")
        if r.get("tolerance_pct", 0) < 0:
            raise FactTableError(f"{path}: row {i}: tolerance_pct {r['tolerance_pct']} < 0")
        if (r["experiment"], r["metric"]) in seen:
            raise FactTableError(f"{path}: row {i}: {r['experiment']} {r['metric']} twice")
        seen.add((r["experiment"], r["metric"]))
    return rows


def known_metrics(path, experiment):
    """The metric names of an experiment's metrics.json from an earlier run (None when there is
    none, or it is not that experiment's): what a fact table's rows can be checked against
    before the campaign runs."""
    import json

    try:
        data = json.loads(open(path, encoding="utf-8").read(1 << 24))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("experiment") != experiment \
            or not isinstance(data.get("metrics"), dict):
        return None
    return list(data["metrics"])


def facts(name):
    """validation/<name> (a fact table) by metric name: what a study module compares its metrics
    with (the one reader of these files; ``validate --experiment`` reads them too)."""
    return {r["metric"]: r for r in read_facts(VALIDATION_DIR / name)}


def compare_facts(rows, experiment, metrics, tolerance=10.0):
    """The rows of ``experiment`` (all rows, when none names another) against the experiment's
    metrics (metrics.json's "metrics"): per row the measured number, the simulated metric, the
    error in percent of the measured number and whether it is within the row's tolerance_pct
    (else ``tolerance``). A measured 0 is met only by a simulated 0. A row naming a metric the
    experiment does not have is a FactTableError (with the names it has). ``metrics`` None: the
    experiment's rows only (a FactTableError when there are none)."""
    import difflib

    from .experiment import Validation

    mine = [r for r in rows if r["experiment"] == experiment]
    if not mine:
        others = sorted({str(r["experiment"]) for r in rows})
        raise FactTableError(f"no row for experiment {experiment} (the rows are for: "
                             f"{', '.join(others)})")
    if metrics is None:  # (the rows only)
        return mine
    table = []
    for r in mine:
        name = str(r["metric"])
        if name not in metrics:
            near = difflib.get_close_matches(name, list(metrics), n=3)
            raise FactTableError(f"{name}: not a metric of {experiment}"
                                 + (f" (did you mean {', '.join(near)}?)" if near else
                                    f" ({len(metrics)} metrics in its metrics.json)"))
        sim = metrics[name]
        tol = float(r.get("tolerance_pct", tolerance))
        row = {"experiment": experiment, "metric": name, "measured": r["value"],
               "simulated": sim, "tolerance_pct": tol, "error_pct": None, "pass": False,
               "reading": r.get("reading", "")}
        if isinstance(sim, (int, float)) and not isinstance(sim, bool):
            # an extreme's seed interval (<metric>_low/_high over seeds), when the metrics have it
            lo, hi = metrics.get(f"{name}_low"), metrics.get(f"{name}_high")
            seeded = f"{name}_seeds" in metrics and lo is not None and hi is not None
            v = Validation(name, float(r["value"]), float(sim), tol, reason="the fact table",
                           low=float(lo) if seeded else None, high=float(hi) if seeded else None)
            row["error_pct"], row["pass"] = v.error_pct, v.passed
        table.append(row)
    return table
