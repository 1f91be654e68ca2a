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
        sens = m.get("sensitivity")
        if sens:
            # Bands and drivers of ./testbed sensitivity on the same build (doc/sensitivity.rst)
            sm = sens["metrics"]
            sec.append(f"Sensitivity ({sens['method']}, N = {sens['samples']}): 5-95 % band of "
                       f"the predictions over the documented ranges of the assumptions, and the "
                       f"three that move each metric most "
                       f"([details](sensitivity-{exp.id}/sensitivity.md)).")
            sec += ["", "| metric | value | 5-95 % band | drivers |", "|---|---|---|---|"]
            for k, v in m["metrics"].items():
                b = sm.get(k)
                band = (f"{_fmt(b['band_low'])} .. {_fmt(b['band_high'])}"
                        if b and b.get("band_low") is not None else "")
                drivers = ", ".join(f"`{d}`" for d in b["drivers"]) if b else ""
                sec.append(f"| `{k}` | {_fmt(v)} | {band} | {drivers} |")
        else:
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
        if sens:
            sdir = out / f"sensitivity-{exp.id}"
            for png in sorted(sdir.glob("tornado-*.png")):
                sec.append(f"![{exp.id} {png.name}](sensitivity-{exp.id}/{png.name})")
                sec.append("")
        sections.append("\n".join(sec))
    text = "\n".join(lines + overview + [""] + sections) + "\n"
    path = out / "report.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
