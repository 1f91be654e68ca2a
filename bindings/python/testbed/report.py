"""results/report.md: every experiment's metrics, validation tables and figures.

The headline of an experiment counts its independent checks only ("checks 3/4"); the points that
set a model parameter (calibration) and the documented gaps are listed apart (see
testbed.experiment.Validation).
"""

import json
from pathlib import Path

from .experiment import failing_checks, headline, levels_text, role_counts
from .outputs import atomic_write_text
from .sensitivity import COMPANIONS, combine_band, leverage_of


def _fmt(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.6g}"
    return "" if v is None else str(v)


def _cell(text):
    """Text for a table cell (a | would end it)."""
    return _fmt(text).replace("|", "\\|")


def _sim(v):
    """A validation entry's simulated value; an extreme's as its seed interval."""
    if v.get("simulated_low") is not None:
        return (f"{_fmt(v['simulated'])} [{_fmt(v['simulated_low'])}, "
                f"{_fmt(v['simulated_high'])}] ({v.get('seeds')} seeds)")
    return _fmt(v["simulated"])




def _cover(lo, hi, v):
    """A band widened to the central value v: the nominal model is one of the design's
    readings, and where the design's 5-95 % lies to one side of it (a nominal at a corner of
    the ranges) the band shown still covers it (doc/sensitivity.rst)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return lo, hi
    return min(lo, v), max(hi, v)


def _covered(lo, hi, v, text):
    """(lo, hi) widened to the central value v (_cover), and ``text`` with the words the
    widening adds, if it widened the band."""
    clo, chi = _cover(lo, hi, v)
    return clo, chi, text + (", widened to the nominal" if (clo, chi) != (lo, hi) else "")


def _metric_table(metrics: dict, sens: dict | None) -> list[str]:
    """One row per metric: its central value (or its bound), its band (the sensitivity's or
    its own _low/_high), the top drivers and its levels or regime."""
    names = [k for k in metrics
             if not any(k.endswith(c) and k[:-len(c)] in metrics for c in COMPANIONS)]
    sm = (sens or {}).get("metrics", {})
    rows = ["| metric | value | 5-95 % band | drivers | levels / regime |", "|---|---|---|---|---|"]
    for k in names:
        v = metrics[k]
        if v is None and metrics.get(f"{k}_lower_bound") is not None:
            val = f">= {_fmt(metrics[f'{k}_lower_bound'])} (cut off)"
        else:
            val = _fmt(v)
        b = sm.get(k)
        seeded = metrics.get(f"{k}_seeds") and metrics.get(f"{k}_low") is not None
        if b and b.get("band_low") is not None and seeded and isinstance(v, (int, float)):
            # the seed interval of the central runs alone (not widened by --band ends)
            lo, hi = combine_band(b["band_low"], b["band_high"], v,
                                  metrics.get(f"{k}_seed_low", metrics[f"{k}_low"]),
                                  metrics.get(f"{k}_seed_high", metrics[f"{k}_high"]))
            # and its own band where it is wider than its seed interval (a named regime's
            # values, the --band ends' seed intervals)
            lo, hi = min(lo, metrics[f"{k}_low"]), max(hi, metrics[f"{k}_high"])
            band = f"{_fmt(lo)} .. {_fmt(hi)} (ranges and {metrics[f'{k}_seeds']} seeds)"
        elif b and b.get("band_low") is not None and metrics.get(f"{k}_low") is not None:
            # a band of its own (a named regime's values, the --band ends): the band covers
            # both it and the ranges'
            lo = min(b["band_low"], metrics[f"{k}_low"])
            hi = max(b["band_high"], metrics[f"{k}_high"])
            lo, hi, note = _covered(lo, hi, v, "ranges and its own band")
            band = f"{_fmt(lo)} .. {_fmt(hi)} ({note})"
        elif b and b.get("band_low") is not None:
            lo, hi, note = _covered(b["band_low"], b["band_high"], v, "ranges")
            band = f"{_fmt(lo)} .. {_fmt(hi)}" + (f" ({note})" if note != "ranges" else "")
        elif metrics.get(f"{k}_low") is not None:
            band = f"{_fmt(metrics[f'{k}_low'])} .. {_fmt(metrics[f'{k}_high'])}"
            if metrics.get(f"{k}_seeds"):
                band += (f" ({metrics[f'{k}_seeds']} seeds"
                         + (" and the ranges' ends)" if f"{k}_seed_low" in metrics else ")"))
        else:
            band = ""
        drivers = ", ".join(f"`{d}`" for d in b["drivers"]) if b else ""
        extra = []
        if metrics.get(f"{k}_levels"):
            extra.append(f"levels: {metrics[f'{k}_levels']}")
        if b and b.get("levels"):
            extra.append(f"levels over the ranges: {levels_text(b['levels'])}")
        if metrics.get(f"{k}_ends"):
            extra.append(f"at the band's ends: {metrics[f'{k}_ends']}")
        if metrics.get(f"{k}_regime"):
            extra.append(_fmt(metrics[f"{k}_regime"]))
        rows.append(f"| `{k}` | {_cell(val)} | {band} | {drivers} | {_cell('; '.join(extra))} |")
    return rows


def _leverage_cell(row: dict | None) -> str:
    """A calibration point's leverage (sensitivity.run_leverage): its value at the two ends of
    its parameter's band and the change between them."""
    if not row:
        return "not computed"
    text = f"{_fmt(row['simulated_low'])} .. {_fmt(row['simulated_high'])}"
    if row.get("leverage_pct") is not None:
        return f"{text} ({row['leverage_pct']:+.3g} %)"
    return f"{text} ({_fmt(row['leverage_abs'])})"


def _validation_tables(val: list[dict], leverage: dict | None = None) -> list[str]:
    sec = []
    checks = [v for v in val if v.get("role", "check") == "check"]
    calib = [v for v in val if v.get("role") == "calibration"]
    gaps = [v for v in val if v.get("role") == "known_gap"]
    if checks:
        sec += ["Independent checks (no model parameter was set from these numbers):", "",
                "| point | measured | simulated | error % | tolerance % | pass | tolerance "
                "from |", "|---|---|---|---|---|---|---|"]
        for v in checks:
            sec.append(f"| {_cell(v['point'])} | {_fmt(v['measured'])} | "
                       f"{_sim(v)} | {_fmt(v['error_pct'])} | "
                       f"{_fmt(v['tolerance_pct'])} | {'yes' if v['pass'] else '**NO**'} | "
                       f"{_cell(v.get('reason'))} |")
        sec.append("")
    if calib:
        sec += ["Calibration points (each set the model parameter named; reproducing them shows "
                "the calibration holds, it validates nothing). *Leverage*: the point at the "
                "ends of its parameter's band (the fitted value +-10 %, doc/sensitivity.rst), "
                "and the change in % of the study's value; a change below the tolerance says "
                "the point does not pin its parameter:", "",
                "| point | parameter it set | measured | simulated | error % | tolerance % | "
                "reproduced | leverage | tolerance from |", "|---|---|---|---|---|---|---|---|---|"]
        for v in calib:
            sec.append(f"| {_cell(v['point'])} | {_cell(v.get('parameter'))} | "
                       f"{_fmt(v['measured'])} | {_sim(v)} | "
                       f"{_fmt(v['error_pct'])} | {_fmt(v['tolerance_pct'])} | "
                       f"{'yes' if v['pass'] else '**NO**'} | "
                       f"{_leverage_cell((leverage or {}).get(v['point']))} | "
                       f"{_cell(v.get('reason'))} |")
        sec.append("")
    if gaps:
        sec += ["Known gaps (documented disagreements the model does not close; never a "
                "failure):", "",
                "| point | measured | simulated | error % | tolerance % | within | documented in |",
                "|---|---|---|---|---|---|---|"]
        for v in gaps:
            sec.append(f"| {_cell(v['point'])} | {_fmt(v['measured'])} | "
                       f"{_sim(v)} | {_fmt(v['error_pct'])} | "
                       f"{_fmt(v['tolerance_pct'])} | {'yes' if v['pass'] else 'no'} | "
                       f"{_cell(v.get('doc'))} |")
        sec.append("")
    return sec


def write_report(out: Path, experiments) -> Path:
    """Write <out>/report.md from the experiments' metrics.json files that exist."""
    lines = ["# testbed — results", ""]
    lines.append("Every number below comes out of the simulation; *measured* values are the "
                 "studies'. A validation point is an independent *check* (no model parameter was "
                 "set from it), a *calibration* point (it set the parameter named: reproducing "
                 "it validates nothing) or a *known gap* (a documented disagreement). Headlines "
                 "count checks only. Experiments marked *prediction* have no measured outcome "
                 "to compare with.")
    lines.append("")
    overview = ["| experiment | study | scale | validation |", "|---|---|---|---|"]
    sections = []
    total = {"check": [0, 0], "calibration": [0, 0], "known_gap": [0, 0]}
    failing, gaps, lost = [], [], []
    for exp in experiments:
        mpath = out / exp.id / "metrics.json"
        if not mpath.exists():
            continue
        m = json.loads(mpath.read_text())
        spath = out / exp.id / "summary.json"
        summary = json.loads(spath.read_text()) if spath.exists() else {}
        val = m.get("validation", [])
        for role, (ok, n) in role_counts(val).items():
            total.setdefault(role, [0, 0])
            total[role][0] += ok
            total[role][1] += n
        failing += [(exp.id, v) for v in failing_checks(val)]
        gaps += [(exp.id, v) for v in val if v.get("role") == "known_gap"]
        lost += [(exp.id, v) for v in val if v.get("role") == "calibration" and not v["pass"]]
        overview.append(f"| [{exp.id}](#{exp.id}) | {m['study']} | {m['scale']} | "
                        f"{headline(val)} |")
        sec = [f"## {exp.id}", "", f"**{m['study']}** — {exp.title}", ""]
        if val:
            sec += [f"*{headline(val)}*", ""]
        for note in summary.get("notes", []):
            sec.append(note)
            sec.append("")
        sens = m.get("sensitivity")
        if sens:
            # Bands and drivers of ./testbed sensitivity on the same build (doc/sensitivity.rst)
            sec.append(f"Sensitivity ({sens['method']}, N = {sens['samples']}): 5-95 % band of "
                       f"the predictions over the documented ranges of the assumptions, and the "
                       f"three that move each metric most "
                       f"([details](sensitivity-{exp.id}/sensitivity.md)).")
            sec.append("")
        sec += _metric_table(m["metrics"], sens)
        sec.append("")
        sec += _validation_tables(val, leverage_of(exp.id, exp.program, out))
        for fig in summary.get("figures", []):
            if (out / exp.id / fig).exists():
                sec.append(f"![{exp.id} {fig}]({exp.id}/{fig})")
                sec.append("")
        if sens:
            sdir = out / f"sensitivity-{exp.id}"
            for png in sorted(sdir.glob("tornado-*.png")):
                sec.append(f"![{exp.id} {png.name}](sensitivity-{exp.id}/{png.name})")
                sec.append("")
        sections.append("\n".join(sec))
    (cok, cn), (kok, kn) = total["check"], total["calibration"]
    head = [f"**Independent checks: {cok}/{cn} within tolerance.** Calibration points "
            f"reproduced: {kok}/{kn}. Known gaps: {total['known_gap'][1]}.", ""]
    if failing:
        head += ["Failing checks:", ""]
        head += [f"- {e}: {v['point']} (measured {_fmt(v['measured'])}, simulated "
                 f"{_fmt(v['simulated'])}, {_fmt(v['error_pct'])} % against "
                 f"{_fmt(v['tolerance_pct'])} %)" for e, v in failing]
        head.append("")
    if lost:
        head += ["Calibration points NOT reproduced (the parameter they set needs calibrating "
                 "again):", ""]
        head += [f"- {e}: {v['point']} (sets {v.get('parameter')})" for e, v in lost]
        head.append("")
    if gaps:
        head += ["Known gaps (documented, not failures):", ""]
        head += [f"- {e}: {v['point']} ({_fmt(v['error_pct'])} %; {v.get('doc')})"
                 for e, v in gaps]
        head.append("")
    text = "\n".join(lines + head + overview + [""] + sections) + "\n"
    path = out / "report.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)
    return path
