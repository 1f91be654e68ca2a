"""results/report.md: every experiment's metrics, validation table and figures."""

import json
from pathlib import Path


def _fmt(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.6g}"
    return "" if v is None else str(v)


def write_report(out: Path, experiments) -> Path:
    """Write <out>/report.md from the experiments' metrics.json files that exist."""
    lines = ["# testbed — results", ""]
    lines.append("Every number below comes out of the simulation; *measured* values are the "
                 "studies' calibration data. Experiments marked *prediction* have no measured "
                 "outcome to compare with.")
    lines.append("")
    overview = ["| experiment | study | scale | validation |", "|---|---|---|---|"]
    sections = []
    for exp in experiments:
        mpath = out / exp.id / "metrics.json"
        if not mpath.exists():
            continue
        m = json.loads(mpath.read_text())
        spath = out / exp.id / "summary.json"
        summary = json.loads(spath.read_text()) if spath.exists() else {}
        val = m.get("validation", [])
        npass = sum(1 for v in val if v.get("pass"))
        vtext = f"{npass}/{len(val)} within tolerance" if val else "prediction"
        overview.append(f"| [{exp.id}](#{exp.id}) | {m['study']} | {m['scale']} | {vtext} |")
        sec = [f"## {exp.id}", "", f"**{m['study']}** — {exp.title}", ""]
        for note in summary.get("notes", []):
            sec.append(note)
            sec.append("")
        sec += ["| metric | value |", "|---|---|"]
        for k, v in m["metrics"].items():
            sec.append(f"| `{k}` | {_fmt(v)} |")
        sec.append("")
        if val:
            sec += ["| point | measured | simulated | error % | tolerance % | pass |",
                    "|---|---|---|---|---|---|"]
            for v in val:
                sec.append(f"| {v['point']} | {_fmt(v['measured'])} | {_fmt(v['simulated'])} | "
                           f"{_fmt(v['error_pct'])} | {_fmt(v['tolerance_pct'])} | "
                           f"{'yes' if v['pass'] else '**NO**'} |")
            sec.append("")
        for fig in summary.get("figures", []):
            if (out / exp.id / fig).exists():
                sec.append(f"![{exp.id} {fig}]({exp.id}/{fig})")
                sec.append("")
        sections.append("\n".join(sec))
    text = "\n".join(lines + overview + [""] + sections) + "\n"
    path = out / "report.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    from .campaign import atomic_write_text

    atomic_write_text(path, text)
    return path
