"""Command line behind ./testbed list | run | reproduce | sensitivity | sweep | validate."""

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

from .experiment import SCALES, experiments

#: Largest --samples of sensitivity (Morris trajectories or Sobol base samples; the runs are
#: samples x (parameters + 1 or 2) x points, which run_sensitivity also bounds).
MAX_SAMPLES = 4096


def _log(msg):
    print(msg, flush=True)


def _error(msg):
    """A usage error: one line on stderr (the caller exits with status 2)."""
    print(f"testbed: error: {msg}", file=sys.stderr, flush=True)


def _at_least_one(option, most=None):
    """An argparse type: a whole number >= 1 (and <= ``most``), the message naming
    ``option``."""
    def parse(value):
        try:
            n = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} {value!r}: not a whole number") from None
        if n < 1:
            raise argparse.ArgumentTypeError(f"{option} must be >= 1")
        if most is not None and n > most:
            raise argparse.ArgumentTypeError(f"{option} {n}: at most {most}")
        return n

    return parse


_jobs = _at_least_one("--jobs")


def _common(p, what_if=False):
    scales = SCALES
    what = "quick: a reduced sweep (minutes); paper: the studies' full procedure"
    if what_if:
        # An experiment's own what-if scales (Experiment.what_if_scales), for run only.
        named = {n: (e.id, d) for e in experiments().values() for n, d in e.what_if_scales.items()}
        scales = SCALES + tuple(named)
        what += "".join(f"; {n}: {e}'s what-if, {d}" for n, (e, d) in named.items())
    p.add_argument("--scale", choices=scales, default="quick", help=what.replace("%", "%%"))
    p.add_argument("--jobs", type=_jobs, default=os.cpu_count() or 1,
                   help="points run in parallel (default: number of CPUs)")
    p.add_argument("--out", type=Path, default=None,
                   help="results directory (default: results/ of the working directory)")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="run the points on an existing Dask cluster (tcp://host:8786) whose "
                        "workers see this checkout and its build (default: an embedded "
                        "LocalCluster of --jobs workers)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar (plain lines are printed when stdout is not a terminal)")
    _trust(p)


def _rerun(p):
    p.add_argument("--rerun", action="store_true",
                   help="compute every point again, also those with a record of this build "
                        "(a record of another build is never reused)")


def _strict(p):
    p.add_argument("--no-strict", dest="strict", action="store_false",
                   help="report failing independent checks without exit status 1")


def _trust(p):
    _rerun(p)
    _strict(p)


def cmd_list(args):
    for exp in experiments().values():
        print(f"{exp.id:18s} {exp.study:7s} {exp.program:16s} {exp.title}")
    return 0


def _run(exps, args):
    from .campaign import CampaignError, SchedulerError, finish_experiment, run_campaign
    from .experiment import failing_checks, headline
    from .report import write_report

    t0 = time.monotonic()
    out = args.out.resolve()
    try:
        results = run_campaign(exps, args.scale, args.jobs, out, log=_log,
                               scheduler=args.scheduler, progress=args.progress,
                               rerun=args.rerun)
    except KeyboardInterrupt:
        return 130
    except SchedulerError as e:
        _error(e)
        return 2
    except CampaignError as e:
        _log(f"error: {e}")
        return 2
    rc = 0
    failing, gaps, lost, broken = [], [], [], []
    for exp in exps:
        res = results.get(exp.id)
        if isinstance(res, Exception):
            _log(f"{exp.id}: FAILED: {_failure(res)}")
            broken.append(exp.id)
            rc = 1
            continue
        try:
            m = finish_experiment(exp, res, args.scale, out)
        except Exception as e:  # an analysis bug must not hide the other experiments
            _log(f"{exp.id}: analysis FAILED: {type(e).__name__}: {e}")
            broken.append(exp.id)
            rc = 1
            continue
        val = m["validation"]
        status = headline(val) if val else "prediction (no measured outcome)"
        _log(f"{exp.id}: {status}; results in {out / exp.id}")
        for v in val:
            role = v.get("role", "check")
            if v["pass"] and role != "known_gap":
                continue
            what = {"check": f"check outside tolerance (discussed in {exp.doc_chapter})",
                    "calibration": f"calibration NOT reproduced (sets {v.get('parameter')})",
                    "known_gap": f"known gap{' (now within tolerance)' if v['pass'] else ''}, "
                                 f"{v.get('doc')}"}[role]
            _log(f"  {what}: {v['point']}: measured {v['measured']}, simulated "
                 f"{v['simulated']} ({v['error_pct']}% vs {v['tolerance_pct']}%)")
        failing += [(exp.id, {**v, "doc": exp.doc_chapter}) for v in failing_checks(val)]
        gaps += [(exp.id, v) for v in val if v.get("role") == "known_gap"]
        lost += [(exp.id, v) for v in val if v.get("role") == "calibration" and not v["pass"]]
    try:
        report = write_report(out, experiments().values())
    except OSError as e:  # a full disk: the previous report.md is kept (written atomically)
        report = f"NOT written ({e.strerror or e})"
        rc = 1
    if len(exps) > 1 or failing or gaps:
        _summary(failing, gaps, lost, broken)
    if failing and args.strict:
        rc = 1
    _log(f"report: {report} ({time.monotonic() - t0:.0f} s)"
         + ("" if rc == 0 else "; exit status 1"))
    return rc


def _failure(e):
    """An experiment's failure in one line: failed points were each logged as they failed
    (PointsFailed), so only their count and names here."""
    from .campaign import PointsFailed

    if isinstance(e, PointsFailed):
        n = len(e.points)
        return (f"{n} point{'s' if n != 1 else ''} failed ("
                + ", ".join(str(p) for p in e.points[:5]) + (", ..." if n > 5 else "")
                + "; the error of each is above)")
    return str(e)


def _summary(failing, gaps, lost, broken):
    """The end of a run or reproduction: what failed, by name."""
    _log("summary:")
    if broken:
        _log(f"  experiments that did not finish: {', '.join(broken)}")
    if failing:
        _log(f"  {len(failing)} independent check{'s' if len(failing) != 1 else ''} FAILED:")
        for e, v in failing:
            _log(f"    {e}: {v['point']} ({v['error_pct']}% vs {v['tolerance_pct']}%; "
                 f"{v['doc']})")
    else:
        _log("  every independent check within its tolerance")
    for e, v in lost:
        _log(f"  calibration NOT reproduced: {e}: {v['point']} (sets {v.get('parameter')})")
    if gaps:
        _log(f"  {len(gaps)} known gap{'s' if len(gaps) != 1 else ''} (documented, not failures):")
        for e, v in gaps:
            _log(f"    {e}: {v['point']} ({v['error_pct']}%; {v.get('doc')})")


def _with_overrides(exp, items):
    """The experiment with every point's NAME set to VALUE (--param NAME=VALUE, repeatable; a
    program option or an ns-3 attribute ns3::Type::Attr), checked by the program first."""
    import dataclasses

    from .sweeps import SweepError, check_names, check_values

    over = _parse_params(items)
    for name, value in over.items():
        if "," in value:
            raise SweepError(f"--param {name}={value}: run takes one value per parameter "
                             f"(a grid of values: ./testbed sweep {exp.program})")
    check_names(exp.program, over)
    check_values(exp.program, {n: [v] for n, v in over.items()})
    base = exp.points
    _log(f"{exp.id}: every point with " + ", ".join(f"{n}={v}" for n, v in over.items()))
    # As the experiment's own points hold them: a number where the text reads as a finite one
    # (its cost function and analysis do arithmetic on them); the program sees the same text.
    over = {n: _typed(v) for n, v in over.items()}
    return dataclasses.replace(exp, points=lambda scale: [{**p, **over} for p in base(scale)])


def _typed(text: str):
    """A --param value: an int or a finite float where the text reads as one, else the text."""
    for kind in (int, float):
        try:
            value = kind(text)
        except ValueError:
            continue
        if kind is int or math.isfinite(value):
            return value
    return text


def _named_experiment(exps, name):
    """The experiment called name, or None after the one-line error (the caller exits 2)."""
    if name not in exps:
        _log(f"error: unknown experiment {name!r}; ./testbed list shows the {len(exps)} "
             "experiments")
        return None
    return exps[name]


def cmd_run(args):
    from .sweeps import SweepError

    exps = experiments()
    exp = _named_experiment(exps, args.experiment)
    if exp is None:
        return 2
    if args.param:
        try:
            exp = _with_overrides(exp, args.param)
        except SweepError as e:
            _log(f"error: {e}")
            return 2
    return _run([exp], args)


def cmd_reproduce(args):
    exps = list(experiments().values())
    if args.sensitivity:
        rc, go_on = _bands(exps, args)
        return max(rc, _run(exps, args)) if go_on else rc
    return _run(exps, args)


def _bands(exps, args):
    """The bands of every declared experiment (the design of the scale:
    sensitivity.reproduce_samples) and every calibration point's leverage, before the analyses,
    so that metrics.json and report.md carry them. They run as stages of shared campaigns
    (testbed.stages) together with the reproduction's own points, which the analyses then
    read: the nominal model's points are the reproduction's (a campaign reuses a point another
    experiment of --out has run). (exit code so far, whether the reproduction goes on)."""
    from .campaign import CampaignError, SchedulerError
    from .leverage import calibration_leverage
    from .sensitivity import (SensitivityError, leverage_stage, reproduce_samples,
                              sensitivity_stage)
    from .stages import points_stage, run_stages

    out = args.out.resolve()
    stages, what = {}, {}
    for exp in exps:
        if exp.sensitivity is not None:
            name = f"sensitivity-{exp.id}"
            stages[name] = sensitivity_stage(exp, args.sensitivity_method,
                                             reproduce_samples(exp, args.scale), out, _log,
                                             screening=True)
            what[name] = (exp.id, "sensitivity")
    decls = calibration_leverage({e.id for e in exps})
    for exp in exps:
        if exp.id in decls:
            name = f"leverage-{exp.id}"
            stages[name] = leverage_stage(exp, decls[exp.id], out, _log)
            what[name] = (exp.id, "calibration leverage")
    if not args.rerun:  # --rerun: the reproduction's campaign computes its points again
        for exp in exps:
            stages[exp.id] = points_stage(exp)
    try:
        results = run_stages(stages, args.scale, args.jobs, out, log=_log,
                             scheduler=args.scheduler, progress=args.progress)
    except KeyboardInterrupt:
        return 130, False
    except SchedulerError as e:  # no cluster: the reproduction could not run either
        _error(e)
        return 2, False
    except CampaignError as e:
        _log(f"error: {e}")
        return 2, False
    rc = 0
    for name, (exp_id, kind) in what.items():
        res = results.get(name)
        if isinstance(res, SensitivityError):
            _log(f"error: {res}")
            rc = 2
        elif isinstance(res, CampaignError):
            _log(f"{exp_id}: {kind} FAILED: {_failure(res)}")
            rc = max(rc, 1)
        elif isinstance(res, Exception):  # an analysis bug must not stop the reproduction
            _log(f"{exp_id}: {kind} FAILED: {type(res).__name__}: {res}")
            rc = max(rc, 1)
    # The reproduction's own points that failed are reported by its campaign (_run).
    return rc, True


def _sensitivity(exp, method, samples, args, screening=False):
    from .campaign import CampaignError, SchedulerError
    from .sensitivity import SensitivityError, run_sensitivity

    try:
        run_sensitivity(exp, method, samples, args.jobs, args.out, args.scheduler, log=_log,
                        progress=args.progress, screening=screening)
    except KeyboardInterrupt:
        return 130
    except SensitivityError as e:
        _log(f"error: {e}")
        return 2
    except SchedulerError as e:
        _error(e)
        return 2
    except CampaignError as e:
        _log(f"{exp.id}: sensitivity FAILED: {_failure(e)}")
        return 1
    return 0


def cmd_sensitivity(args):
    exps = experiments()
    exp = _named_experiment(exps, args.experiment)
    if exp is None:
        return 2
    if exp.sensitivity is None:
        have = ", ".join(e.id for e in exps.values() if e.sensitivity is not None)
        _log(f"error: {exp.id} has no sensitivity declaration (experiments with one: {have})")
        return 2
    if args.scale != "quick":
        # the samples run the experiment's quick points (doc/sensitivity.rst)
        _log(f"error: --scale {args.scale}: sensitivity runs the quick-scale points only")
        return 2
    rc = _sensitivity(exp, args.method, args.samples, args)
    if rc == 0 and (args.out / exp.id / "metrics.json").exists():
        # Refresh the experiment's metrics.json and the report with the new bands.
        args.scale = json.loads((args.out / exp.id / "metrics.json").read_text())["scale"]
        rc = _run([exp], args)
    return rc


def _parse_params(items):
    """--param NAME=VALUES (repeatable) -> {name: text}; a name given twice is an error."""
    from .sweeps import RESERVED, SweepError

    grid = {}
    for item in items or []:
        name, eq, values = item.partition("=")
        name = name.strip()
        if name in RESERVED:
            raise SweepError(f"--param {name}: set by the sweep itself, not a parameter"
                             + (" (use --reps)" if name == "RngRun" else ""))
        if not eq or not name or not values.strip():
            raise SweepError(f"--param {item!r}: expected NAME=V1,V2,... or NAME=START:STOP:STEP")
        if name in grid:
            raise SweepError(f"--param {name}: given twice")
        grid[name] = values.strip()
    return grid


def _print_description(program):
    import json

    from .sweeps import describe

    d = describe(program)
    print(f"{d['program']}: {d['description']}\n\nparameters (--param NAME=...):")
    for o in d["options"]:
        choices = ", ".join(c or '""' for c in o.get("choices", []))
        rng = (f" [{o['min']} .. {o['max']}]" if "min" in o
               else f" [{choices}]" if "choices" in o else "")
        default = json.dumps(o["default"]) if isinstance(o["default"], bool) else o["default"]
        rep = " (repetitions in one run: sweeps space RngRun by it)" if o.get("repetitions") else ""
        print(f"  {o['name']:18s} {o['type']:6s} default {default!s:10s}{rng}  {o['help']}{rep}")
    print("  ns3::TYPE::ATTR    any ns-3 attribute of a type the program uses, in ns-3's syntax "
          "(--param ns3::LinkEmulatorQueueDisc::Jitter=0ms,5ms): the value every object of the "
          "type starts with; one the program sets itself from its options is refused by the "
          "check (doc/sweeps.rst)")
    print("\nresult fields (--plot FIELD; measured columns of validate):")
    for f in d["fields"]:
        print(f"  {f['name']:28s} {f['type']:6s} {f['help']}")
    return 0


def _reporting_errors(run):
    """run() -> exit status; a bad grid, sheet or column is 2, a failed point 1, ^C 130."""
    from .campaign import CampaignError, SchedulerError
    from .sweeps import SweepError

    try:
        return run()
    except SweepError as e:
        _log(f"error: {e}")
        return 2
    except SchedulerError as e:
        _error(e)
        return 2
    except CampaignError as e:
        _log(f"error: {_failure(e)}")
        return 1
    except OSError as e:  # a full disk, a file-size limit: what was written before is kept
        _log(f"error: {e.filename + ': ' if e.filename else ''}{e.strerror or e}")
        return 1
    except RuntimeError as e:  # a figure gnuplot could not draw (plot.draw)
        _log(f"error: {e}")
        return 1
    except KeyboardInterrupt:
        return 130


def cmd_sweep(args):
    return _reporting_errors(lambda: _sweep(args))


def _sweep(args):
    from .sweeps import SweepError, describe, plot_summary, sweep

    t0 = time.monotonic()
    if args.describe:
        return _print_description(args.program)
    grid = _parse_params(args.param)
    out = args.out
    if args.plot or args.x or args.series or args.logx or args.logy:
        if not (args.plot and args.x):
            raise SweepError("--plot FIELD needs --x PARAM (and --series PARAM, --logx, --logy "
                             "optionally)")
        d = describe(args.program)
        fields = {f["name"]: f["type"] for f in d["fields"]}
        numeric = sorted(f for f, t in fields.items() if t in ("real", "int"))
        if fields.get(args.plot) not in ("real", "int"):
            # checked before the sweep: a series or text field was refused only after it
            what = ("is a " + fields[args.plot] + ", not a number") if args.plot in fields \
                else "is no result field"
            raise SweepError(f"--plot {args.plot}: {what} of {args.program} (numeric fields: "
                             f"{', '.join(numeric)})")
        for what, p in (("--x", args.x), ("--series", args.series)):
            if p is not None and p not in grid:
                raise SweepError(f"{what} {p}: not a --param of this sweep")
        xtype = {o["name"]: o["type"] for o in d["options"]}.get(args.x)
        if xtype not in ("uint", "int", "real", "time", "rate"):
            raise SweepError(f"--x {args.x}: a {xtype}, not a number (use it as --series)")
    rows = sweep(args.program, grid, reps=args.reps, jobs=args.jobs, out=out,
                 scheduler=args.scheduler, log=_log, progress=args.progress, frame=False,
                 rerun=args.rerun, max_points=args.max_points)
    _log(f"{args.program}: {len(rows)} runs; {out / 'data.csv'}, {out / 'summary.csv'}")
    if args.plot:
        import json

        from .sweeps import summarise

        grid_used = json.loads((out / "grid.json").read_text())["grid"]
        png = plot_summary(args.program, summarise(rows, list(grid_used), args.program),
                           grid_used, args.plot, args.x, args.series, out,
                           logx=True if args.logx else None, logy=args.logy)
        _log(f"figure: {png}")
    _log(f"done in {time.monotonic() - t0:.0f} s")
    return 0


def cmd_validate(args):
    if args.experiment is not None:
        return _reporting_errors(lambda: _validate_experiment(args))
    if args.program is None or args.measured is None:
        _log("error: validate PROGRAM --measured FILE.csv, or validate --experiment EXPERIMENT "
             "FILE.csv")
        return 2
    return _reporting_errors(lambda: _validate(args))


def _validate_experiment(args):
    """validate --experiment EXP FILE: the rows of a fact table (experiment, metric, value[,
    tolerance_pct]) that name EXP, against the metrics of a run of EXP (stored points reused)."""
    from .campaign import finish_experiment, run_campaign
    from .sweeps import SweepError
    from .validation import FactTableError, compare_facts, read_facts

    t0 = time.monotonic()
    exp = _named_experiment(experiments(), args.experiment)
    if exp is None:
        return 2
    if args.program is not None and args.measured is not None:
        raise SweepError("validate --experiment: give the fact table once (FILE or --measured)")
    path = args.measured if args.measured is not None else (
        Path(args.program) if args.program is not None else None)
    if path is None:
        raise SweepError("validate --experiment EXPERIMENT FILE.csv: name the fact table")
    if not path.is_file():
        raise SweepError(f"{path}: no such file")
    try:
        rows = read_facts(path)
        mine = compare_facts(rows, exp.id, None)  # rows for this experiment, before anything runs
    except FactTableError as e:
        raise SweepError(str(e)) from None
    out = args.out
    from .campaign import CampaignError
    from .outputs import check_out
    from .validation import known_metrics

    try:
        check_out(out / exp.id)
    except CampaignError as e:
        raise SweepError(str(e)) from None
    known = known_metrics(out / exp.id / "metrics.json", exp.id)
    if known is not None:  # the metrics of an earlier run: a name none has, before the run
        try:
            compare_facts(mine, exp.id, dict.fromkeys(known, 0.0))
        except FactTableError as e:
            raise SweepError(str(e)) from None
    res = run_campaign([exp], args.scale, args.jobs, out, log=_log, scheduler=args.scheduler,
                       progress=args.progress, rerun=args.rerun)[exp.id]
    if isinstance(res, Exception):
        _log(f"{exp.id}: FAILED: {_failure(res)}")
        return 1
    metrics = finish_experiment(exp, res, args.scale, out)["metrics"]
    try:
        table = compare_facts(rows, exp.id, metrics, args.tolerance)
    except FactTableError as e:
        raise SweepError(str(e)) from None
    from .outputs import atomic_write_text, write_csv

    write_csv(out / "validation.csv", table)
    md = [f"# {exp.id} against {path.name}", "",
          "| metric | measured | simulated | error % | tolerance % | pass |",
          "|---|---|---|---|---|---|"]
    for r in table:
        err = "-" if r["error_pct"] is None else f"{r['error_pct']:.4g}"
        md.append(f"| {r['metric']} | {r['measured']:g} | {r['simulated']} | {err} | "
                  f"{r['tolerance_pct']:g} | {'yes' if r['pass'] else 'NO'} |")
    atomic_write_text(out / "validation.md", "\n".join(md) + "\n")
    print("\n".join(md), flush=True)
    bad = [r for r in table if not r["pass"]]
    _log(f"{len(table) - len(bad)}/{len(table)} rows of {path.name} within their tolerance; "
         f"{out / 'validation.csv'}, {out / exp.id / 'metrics.json'} "
         f"({time.monotonic() - t0:.0f} s)")
    for r in bad:
        _log(f"  FAILED: {r['metric']}: measured {r['measured']}, simulated {r['simulated']}")
    return 1 if bad and args.strict else 0


def _validate(args):
    from .sweeps import validate

    t0 = time.monotonic()
    out = args.out
    table = validate(args.program, args.measured, tolerance=args.tolerance, reps=args.reps,
                     jobs=args.jobs, out=out, scheduler=args.scheduler, log=_log,
                     progress=args.progress, frame=False, rerun=args.rerun,
                     max_points=args.max_points)
    print((out / "validation.md").read_text(), flush=True)
    checks = [r for r in table if r["role"] == "check"]
    bad = [r for r in checks if not r["pass"]]
    calib = [r for r in table if r["role"] == "calibration"]
    _log(f"checks {len(checks) - len(bad)}/{len(checks)} within {args.tolerance:g} %"
         + (f"; {sum(1 for r in calib if r['pass'])}/{len(calib)} calibration points reproduced"
            if calib else "")
         + f"; {out / 'validation.csv'}, {out / 'validation.md'}, "
           f"{out / 'measured-vs-simulated.png'} ({time.monotonic() - t0:.0f} s)")
    for r in bad:
        _log(f"  check FAILED: {r['point']} {r['field']}: measured {r['measured']}, simulated "
             f"{r['simulated_mean']} ({r['error_pct']}% vs {r['tolerance_pct']}%)")
    return 1 if bad and args.strict else 0


def _tolerance(value):
    try:
        t = float(value)
    except ValueError:
        t = -1
    if not (t >= 0 and t < float("inf")):
        raise argparse.ArgumentTypeError(f"--tolerance {value}: a percentage >= 0")
    return t


def _point_common(p, program_optional=False):
    p.add_argument("program", nargs="?" if program_optional else None,
                   help="a program by name: your scratch/NAME.cc (build/scratch) or an example "
                        "(build/examples) (./testbed sweep PROGRAM "
                        "--describe lists its parameters and result fields)"
                   + ("; with --experiment: the fact table FILE.csv" if program_optional
                      else ""))
    p.add_argument("--reps", type=_at_least_one("--reps"), default=1,
                   help="runs per point, with distinct RngRun values (default 1)")
    p.add_argument("--jobs", type=_jobs, default=os.cpu_count() or 1,
                   help="runs in parallel (default: number of CPUs)")
    p.add_argument("--out", type=Path, default=None,
                   help="the sweep's directory (default: results/sweep-PROGRAM or "
                        "results/validate-PROGRAM of the working directory); its points are "
                        "resumed")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="run on an existing Dask cluster (tcp://host:8786)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar")
    _rerun(p)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # exit status 2 with the message, as argparse does, one line
        self.print_usage(sys.stderr)
        self.exit(2, f"error: {message}\n")


def main(argv=None):
    parser = _Parser(prog="testbed")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="the experiments").set_defaults(func=cmd_list)
    p = sub.add_parser("run", help="run one experiment's sweep")
    p.add_argument("experiment")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="set NAME (an option of the experiment's program, or an ns-3 attribute "
                        "ns3::Type::Attr) to VALUE in every point; repeatable")
    _common(p, what_if=True)
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("reproduce", help="every experiment, then the report")
    _common(p)
    p.add_argument("--no-sensitivity", dest="sensitivity", action="store_false",
                   help="no bands: skip the sensitivity analyses that reproduce runs first for "
                        "every experiment that declares one (doc/sensitivity.rst)")
    # the bands are the default; the former opt-in stays accepted and changes nothing
    p.add_argument("--with-sensitivity", dest="sensitivity", action="store_true",
                   help=argparse.SUPPRESS)
    p.set_defaults(sensitivity=True)
    p.add_argument("--sensitivity-method", choices=("morris", "sobol"), default="morris",
                   help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_reproduce)
    p = sub.add_parser("sensitivity", help="which assumptions drive an experiment's predictions,"
                                           " and their 5-95 %% bands")
    p.add_argument("experiment")
    p.add_argument("--method", choices=("morris", "sobol"), default="morris",
                   help="morris: elementary effects (screening, default); sobol: S1 and ST "
                        "indices (for a few parameters: N x (k + 2) samples)")
    p.add_argument("--samples", type=_at_least_one("--samples", MAX_SAMPLES), default=None,
                   metavar="N",
                   help="Morris trajectories (default 4: 4 x (k + 1) samples) or Sobol base "
                        "samples (a power of 2, default 8)")
    _common(p)
    p.set_defaults(func=cmd_sensitivity)
    p = sub.add_parser("sweep", help="any program over a parameter grid of your own")
    _point_common(p)
    p.add_argument("--param", action="append", metavar="NAME=VALUES",
                   help="V1,V2,... or START:STOP:STEP or log:START:STOP:COUNT (repeatable: the "
                        "cartesian grid)")
    p.add_argument("--max-points", type=_at_least_one("--max-points"), default=10000,
                   metavar="N", help="largest grid (points x reps) the sweep runs "
                                     "(default 10000)")
    p.add_argument("--plot", metavar="FIELD", help="figure of this result field's mean with "
                                                   "95 %% confidence bars")
    p.add_argument("--x", metavar="PARAM", help="the figure's x axis")
    p.add_argument("--series", metavar="PARAM", help="one line per value of this parameter")
    p.add_argument("--logx", action="store_true",
                   help="logarithmic x axis (default: when the x values span two decades)")
    p.add_argument("--logy", action="store_true", help="logarithmic y axis")
    p.add_argument("--describe", action="store_true",
                   help="list the program's parameters and result fields, run nothing")
    p.set_defaults(func=cmd_sweep)
    p = sub.add_parser("validate", help="a program against measured data of your own, or an "
                                        "experiment's metrics against a fact table "
                                        "(--experiment EXPERIMENT FILE.csv)")
    _point_common(p, program_optional=True)
    p.add_argument("--measured", type=Path, metavar="FILE.csv",
                   help="parameter columns (delay_ms, rate_bps or the program's syntax) and "
                        "measured columns (result fields)")
    p.add_argument("--experiment", metavar="EXPERIMENT",
                   help="compare this experiment's metrics (metrics.json) with the rows of a "
                        "fact table (columns experiment, metric, value[, tolerance_pct]: "
                        "validation/gine14-timers.csv, ...), given as FILE.csv or --measured")
    p.add_argument("--scale", choices=SCALES, default="quick",
                   help="the experiment's scale (--experiment only; default quick)")
    p.add_argument("--max-points", type=_at_least_one("--max-points"), default=10000,
                   metavar="N", help="most rows of the measured file and most runs (points x "
                                     "reps) the validation runs (default 10000)")
    p.add_argument("--tolerance", type=_tolerance, default=10.0, metavar="PCT",
                   help="largest |error| in percent of the measured value (default 10)")
    _strict(p)
    p.set_defaults(func=cmd_validate)
    args = parser.parse_args(argv)
    if hasattr(args, "out") and not getattr(args, "describe", False):
        # Results go below the working directory unless --out says otherwise (not into the
        # checkout: a user runs ./testbed from a folder of their own); said before anything runs.
        if args.out is None:
            from .sweeps import results_dir

            args.out = results_dir()
            if args.cmd in ("sweep", "validate"):
                # results/sweep-PROGRAM, results/validate-PROGRAM (or -EXPERIMENT); run,
                # reproduce and sensitivity write results/<experiment>/ themselves.
                name = getattr(args, "experiment", None) or args.program
                args.out = args.out / f"{args.cmd}-{name}"
        args.out = args.out.resolve()
        _log(f"output: {args.out}")
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
