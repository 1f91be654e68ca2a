#!/usr/bin/env python3
"""The numbers of doc/sweeps.rst's worked example, computed by the sweep the chapter shows.

    ./testbed python tools/doc-examples.py            # print the generated block
    ./testbed python tools/doc-examples.py --write    # put it into doc/sweeps.rst
    ./testbed python tools/doc-examples.py --check    # exit 1 when doc/sweeps.rst differs

The block lies in doc/sweeps.rst between the comment lines ``.. generated: begin`` and
``.. generated: end``; test_doc_examples.py runs --check's comparison, so the chapter cannot drift
from what the model gives. The sweep's points go to --out (default: a temporary folder).
"""

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "doc" / "sweeps.rst"
BEGIN, END = ".. generated: begin", ".. generated: end"

PROGRAM = "jaxa-benchmark"
BANDWIDTHS = ["2Mbps", "4Mbps", "8Mbps"]
DELAYS = ["0ms", "50ms", "150ms"]
REPS = 10
#: The grid of the command the chapter shows (`--param netem=true --param reps=1 --reps 10`).
GRID = {"bandwidth": ",".join(BANDWIDTHS), "delay": ",".join(DELAYS), "netem": "true",
        "reps": "1"}


def block(out: Path, jobs: int = 2) -> str:
    """The generated text: the run counts and the table of the summary's means (ms)."""
    sys.path.insert(0, str(ROOT / "bindings" / "python"))
    from testbed import sweeps

    rows = sweeps.sweep(PROGRAM, GRID, reps=REPS, jobs=jobs, out=out, frame=False)
    summary = sweeps.summarise(rows, list(GRID), PROGRAM)
    cell = {(s["bandwidth"], s["delay"]): s for s in summary}
    worst_ci = max(s["time_per_exchange_ms_ci95"] for s in summary)
    lines = [f"{len(rows)} runs; ``results/sweep-{PROGRAM}/`` then holds ``data.csv`` "
             f"({len(rows)} rows),",
             f"``summary.csv`` ({len(summary)} rows) and "
             f"``time_per_exchange_ms-vs-delay-by-bandwidth.png``.",
             "",
             f"The model's answer (``summary.csv``: mean of the {REPS} runs; the largest 95 % "
             f"confidence",
             f"interval half-width is {worst_ci:.4f} ms: the runs differ by their random "
             f"phases,",
             "the RTI's cost factors per operation and per run, and its collections)::",
             "",
             "   time per exchange (ms)   " + "   ".join(f"delay {d[:-2]} ms" for d in DELAYS)]
    for b in BANDWIDTHS:
        means = [cell[(b, d)]["time_per_exchange_ms_mean"] for d in DELAYS]
        label = f"{b[:-4]} Mbit/s"
        lines.append(f"   {label:<22s}" + "".join(
            f"{m:>{len(f'   delay {d[:-2]} ms')}.3f}" for m, d in zip(means, DELAYS)))
    return "\n".join(lines) + "\n"


def doc_block(text: str) -> str:
    """The block of doc/sweeps.rst between the markers (without them)."""
    head, sep, rest = text.partition(BEGIN + "\n")
    body, sep2, _ = rest.partition(END + "\n")
    if not sep or not sep2:
        raise SystemExit(f"{DOC}: no '{BEGIN}' ... '{END}' block")
    return body.strip("\n") + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="put the block into doc/sweeps.rst")
    ap.add_argument("--check", action="store_true", help="exit 1 when the doc differs")
    ap.add_argument("--out", type=Path, help="the sweep's folder (default: a temporary one)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        got = block((args.out or Path(tmp) / f"sweep-{PROGRAM}").resolve(), args.jobs)
    text = DOC.read_text()
    if args.write:
        doc_block(text)  # the markers are there
        head, _, rest = text.partition(BEGIN + "\n")
        _, _, tail = rest.partition(END + "\n")
        DOC.write_text(head + BEGIN + "\n\n" + got + "\n" + END + "\n" + tail)
        print(f"{DOC}: written")
        return 0
    if args.check:
        have = doc_block(text)
        if have != got:
            print(f"{DOC} differs from the computed block:\n--- doc\n{have}--- computed\n{got}")
            return 1
        print(f"{DOC}: the worked example's numbers are the model's")
        return 0
    print(got, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
