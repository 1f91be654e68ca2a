#!/usr/bin/env python3
"""Every figure of the experiments in one folder, with contact sheets, to look at them.

    ./testbed python tools/render-figures.py OUT                     # a quick reproduction
    ./testbed python tools/render-figures.py OUT --from results      # an existing results dir
    ./testbed python tools/render-figures.py OUT --experiments tno-jitter,jaxa-fig4 --check

The experiments run through ``./testbed run`` into RESULTS (``--from``, default OUT/results):
a point whose record is there is not computed again, and the analysis, which draws the figures
with the current plot code, runs on every call. Then OUT holds each figure as
``<experiment>--<figure>.png``, ``sheet-N.png`` (nine figures a page, each under its file name)
and ``index.html``. Each figure's gnuplot script (``.plt``, beside its PNG) is read back with
testbed.plot.layout_problems; ``--check`` exits 1 when any figure breaks a layout rule.
"""

import argparse
import math
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings" / "python"))

from testbed import cli  # noqa: E402
from testbed.experiment import experiments  # noqa: E402
from testbed.plot import layout_problems, script_text  # noqa: E402

#: Figures per contact sheet (3 x 3) and the size of a sheet (pixels).
PER_SHEET, COLS = 9, 3
SHEET_W, SHEET_H = 1500, 1000


def run(ids: list[str], results: Path, jobs: int, scale: str) -> dict[str, int]:
    """`./testbed run` of each experiment into results; the exit code of each."""
    codes = {}
    for e in ids:
        codes[e] = cli.main(["run", e, "--out", str(results), "--jobs", str(jobs), "--scale",
                             scale, "--no-strict", "--no-progress"])
    return codes


def collect(ids: list[str], results: Path, out: Path) -> list[tuple[Path, list[str]]]:
    """Copy each experiment's figures into out; (PNG, layout problems) of each."""
    figures = []
    for e in ids:
        for png in sorted((results / e).glob("*.png")):
            plt = png.with_suffix(".plt")
            dest = out / f"{e}--{png.name}"
            shutil.copyfile(png, dest)
            problems = layout_problems(plt.read_text()) if plt.exists() else ["no .plt"]
            figures.append((dest, problems))
    return figures


def sheets(figures: list[Path], out: Path) -> list[Path]:
    """Contact sheets of the figures, drawn by gnuplot (it reads PNGs as images)."""
    made = []
    for n in range(math.ceil(len(figures) / PER_SHEET)):
        page = figures[n * PER_SHEET:(n + 1) * PER_SHEET]
        rows = math.ceil(len(page) / COLS)
        sheet = out / f"sheet-{n + 1}.png"
        lines = [f"set terminal pngcairo size {SHEET_W},{SHEET_H * rows // 3} font 'Sans,9'",
                 f'set output "{script_text(sheet.name)}"',
                 f"set multiplot layout {rows},{COLS}",
                 "unset border", "unset tics", "unset key", "set size ratio -1",
                 "set lmargin 0", "set rmargin 0", "set bmargin 0", "set tmargin 1.2"]
        for png in page:
            lines.append(f'set title "{script_text(png.name)}" noenhanced')
            lines.append(f'plot "{script_text(png.name)}" binary filetype=png with rgbimage')
        lines.append("unset multiplot")
        plt = out / f"sheet-{n + 1}.plt"
        plt.write_text("\n".join(lines) + "\n")
        r = subprocess.run(["gnuplot", plt.name], cwd=out, capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"gnuplot failed on {plt}: {r.stderr.strip()}")
        made.append(sheet)
    return made


def index(figures: list[tuple[Path, list[str]]], out: Path) -> Path:
    from html import escape

    body = []
    for png, problems in figures:
        note = "".join(f"<li>{escape(p)}</li>" for p in problems)
        body.append(f'<figure><img src="{escape(png.name)}" width="1000"><figcaption>'
                    f"{escape(png.name)}<ul>{note}</ul></figcaption></figure>")
    page = out / "index.html"
    page.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'><title>figures</title>"
                    "</head><body>" + "\n".join(body) + "</body></html>\n")
    return page


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="the folder for the figures and sheets")
    ap.add_argument("--from", dest="results", type=Path,
                    help="a results folder (default OUT/results)")
    ap.add_argument("--experiments", help="comma-separated ids (default: every experiment "
                                          "with records in --from, or all)")
    ap.add_argument("--scale", choices=("quick", "paper"), default="quick")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a figure breaks a layout rule")
    args = ap.parse_args(argv)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    results = (args.results or out / "results").resolve()
    known = experiments()
    if args.experiments:
        ids = [e.strip() for e in args.experiments.split(",") if e.strip()]
        bad = [e for e in ids if e not in known]
        if bad:
            print(f"error: --experiments: unknown experiment {bad[0]} "
                  f"(./testbed list names them)")
            return 2
    elif args.results and results.is_dir():
        ids = [e for e in known if (results / e / "points").is_dir()]
    else:
        ids = list(known)
    codes = run(ids, results, args.jobs, args.scale)
    figures = collect(ids, results, out)
    made = sheets([p for p, _ in figures], out)
    page = index(figures, out)
    bad = [(p, pr) for p, pr in figures if pr]
    for p, pr in bad:
        for line in pr:
            print(f"{p.name}: {line}")
    failed = [e for e, c in codes.items() if c not in (0, 1)]
    print(f"{len(figures)} figures of {len(ids)} experiments in {out} ({len(made)} sheets, "
          f"{page.name}); {len(bad)} with layout problems"
          + (f"; runs failed: {', '.join(failed)}" if failed else ""))
    return 1 if (args.check and bad) or failed else 0


if __name__ == "__main__":
    sys.exit(main())
