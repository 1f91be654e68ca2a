"""Command line behind ./testbed list | run | reproduce."""

import argparse
import os
import sys
import time
from pathlib import Path

from . import ROOT
from .experiment import SCALES, experiments


def _log(msg):
    print(msg, flush=True)


def _jobs(value):
    n = int(value)
    if n < 1:
        raise argparse.ArgumentTypeError("--jobs must be >= 1")
    return n


def _common(p):
    p.add_argument("--scale", choices=SCALES, default="quick",
                   help="quick: a reduced sweep (minutes); paper: the studies' full procedure")
    p.add_argument("--jobs", type=_jobs, default=os.cpu_count() or 1,
                   help="points run in parallel (default: number of CPUs)")
    p.add_argument("--out", type=Path, default=ROOT / "results",
                   help="results directory (default: results/)")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="run the points on an existing Dask cluster (tcp://host:8786) whose "
                        "workers see this checkout and its build (default: an embedded "
                        "LocalCluster of --jobs workers)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar (plain lines are printed when stdout is not a terminal)")


def cmd_list(args):
    for exp in experiments().values():
        print(f"{exp.id:18s} {exp.study:7s} {exp.title}")
    return 0


def _run(exps, args):
    from .campaign import CampaignError, finish_experiment, run_campaign
    from .report import write_report

    t0 = time.monotonic()
    out = args.out.resolve()
    try:
        results = run_campaign(exps, args.scale, args.jobs, out, log=_log,
                               scheduler=args.scheduler, progress=args.progress)
    except KeyboardInterrupt:
        return 130
    except CampaignError as e:
        _log(f"error: {e}")
        return 2
    rc = 0
    for exp in exps:
        res = results.get(exp.id)
        if isinstance(res, Exception):
            _log(f"{exp.id}: FAILED: {res}")
            rc = 1
            continue
        try:
            m = finish_experiment(exp, res, args.scale, out)
        except Exception as e:  # an analysis bug must not hide the other experiments
            _log(f"{exp.id}: analysis FAILED: {type(e).__name__}: {e}")
            rc = 1
            continue
        val = m["validation"]
        bad = [v for v in val if not v["pass"]]
        status = (f"{len(val) - len(bad)}/{len(val)} validation points within tolerance"
                  if val else "prediction (no measured outcome)")
        _log(f"{exp.id}: {status}; results in {out / exp.id}")
        for v in bad:
            _log(f"  outside tolerance: {v['point']}: measured {v['measured']}, simulated "
                 f"{v['simulated']} ({v['error_pct']}% vs {v['tolerance_pct']}%)")
    report = write_report(out, experiments().values())
    _log(f"report: {report} ({time.monotonic() - t0:.0f} s)")
    return rc


def cmd_run(args):
    exps = experiments()
    if args.experiment not in exps:
        _log(f"error: unknown experiment {args.experiment!r}; "
             f"./testbed list shows the {len(exps)} experiments")
        return 2
    return _run([exps[args.experiment]], args)


def cmd_reproduce(args):
    return _run(list(experiments().values()), args)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="testbed")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="the experiments").set_defaults(func=cmd_list)
    p = sub.add_parser("run", help="run one experiment's sweep")
    p.add_argument("experiment")
    _common(p)
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("reproduce", help="every experiment, then the report")
    _common(p)
    p.set_defaults(func=cmd_reproduce)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
