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
    with open(path, newline="") as f:
        lines = [line for line in f if line.strip() and not line.lstrip().startswith("#")]
    return [{k: _number(v.strip()) for k, v in row.items()} for row in csv.DictReader(lines)]


def read_facts(path):
    """The rows of a fact table, checked: the columns experiment, metric, value; a number in
    value (and in tolerance_pct when there is one); one row per (experiment, metric)."""
    rows = read(path)
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
        if (r["experiment"], r["metric"]) in seen:
            raise FactTableError(f"{path}: row {i}: {r['experiment']} {r['metric']} twice")
        seen.add((r["experiment"], r["metric"]))
    return rows


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
