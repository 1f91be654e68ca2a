"""Whole programs under both simulator implementations (doc/simulator.rst, "Validation").

Every experiment program runs on ``LeanSimulatorImpl`` (``ProgramOptions::SetSimulatorDefaults``),
whose contract is to run the same events in the same order as ns-3's ``DefaultSimulatorImpl``;
the model's per-frame code reaches the loop through the seam of ``model/simulator`` (the running
clock, scheduling with or without an ``EventId``, pooled events, arrival sources), which goes
straight into the running lean loop and through ``ns3::Simulator`` under any other
implementation. The contract, not a captured output, is the expectation: for the first quick
point of every registered experiment (so every program of the five studies, and the distinct
modes and roles that head an experiment's point list), the record under
``DefaultSimulatorImpl`` equals the record under ``LeanSimulatorImpl`` field by field, the event
count ``events`` included where the program reports it. Only host wall-clock fields are left out.

``mega-scale`` selects the lane order of same-time events (a different, equally deterministic
order that only ``LeanSimulatorImpl`` has); it is compared in ns-3's order
(``SameTimeOrder=Uid``), the order ``DefaultSimulatorImpl`` runs, with its router-port digest.
"""

import json
import os
import subprocess

import pytest

from testbed import EXAMPLES_DIR
from testbed.runner import command_line
from testbed.experiment import experiments

DEFAULT = "ns3::DefaultSimulatorImpl"
LEAN = "ns3::LeanSimulatorImpl"
# Fields that measure the host running the simulation, not the simulation.
WALL_FIELDS = {"wall_seconds"}
# Options added to a program's point under both implementations: mega-scale chooses
# LeanSimulatorImpl's lane order, so it runs in ns-3's order here; and it records
# router_port_digest (a hash of every frame the querier's router port took or dropped, in order,
# with its time: a check of the order of same-time events) where the point has the querier.
EXTRA_ARGS = {"mega-scale": ["--ns3::LeanSimulatorImpl::SameTimeOrder=Uid", "--digest=true"]}


def _first_quick_points():
    """(experiment id, program, point): every experiment's first quick point, each distinct
    (program, point) once."""
    seen, cases = set(), []
    for exp in experiments().values():
        point = exp.points("quick")[0]
        key = (exp.program, json.dumps(point, sort_keys=True))
        if key not in seen:
            seen.add(key)
            cases.append((exp.id, exp.program, point))
    return cases


def _loaded_quick_points():
    """(case id, program, point): quick points that load the per-frame data plane, where an
    experiment's first point is an idle one (mega-flooding's first points are one node at no
    load; mega-multiplex's, one virtual node): the flooding sweep's highest load with snooping
    (1.5 million events) and the multiplexing count with 5 000 virtual nodes."""
    exps = experiments()
    flood = max((p for p in exps["mega-flooding"].points("quick")
                 if p["role"] == "sweep" and p["snooping"]), key=lambda p: p["loadPps"])
    multiplex = next(p for p in exps["mega-multiplex"].points("quick")
                     if p["role"] == "count" and p["nodes"] == 5000)
    return [("mega-flooding-loaded", "mega-flooding", flood),
            ("mega-multiplex-5000", "mega-multiplex", multiplex)]


CASES = _first_quick_points() + _loaded_quick_points()


def run_record(program, point, impl, tmp_path, extra=()):
    """Run ``program`` at ``point`` under simulator implementation ``impl``; its record.

    The implementation is chosen both ways ns-3 offers (NS_GLOBAL_VALUE, read when the global
    value is made, before anything in ``main`` can create the simulator; and the command line),
    so a program that touched the simulator before parsing its options still runs on ``impl``."""
    out = tmp_path / f"{program}-{impl.split('::')[-1]}.json"
    args = command_line(EXAMPLES_DIR / program, point, out)
    args[1:1] = [f"--SimulatorImplementationType={impl}", *extra]
    env = dict(os.environ, NS_GLOBAL_VALUE=f"SimulatorImplementationType={impl}")
    r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, (f"{program} under {impl} exited {r.returncode}: "
                               f"{r.stderr[-2000:]}")
    return json.loads(out.read_text())


def differing_fields(a, b):
    """The fields (wall-clock ones left out) whose values differ between records a and b,
    fields present in only one of them included."""
    keys = (set(a) | set(b)) - WALL_FIELDS
    return sorted(k for k in keys if a.get(k, KeyError) != b.get(k, KeyError))


@pytest.mark.parametrize("exp_id,program,point", CASES, ids=[c[0] for c in CASES])
def test_record_is_the_same_under_both_implementations(exp_id, program, point, tmp_path):
    extra = EXTRA_ARGS.get(program, [])
    default = run_record(program, point, DEFAULT, tmp_path, extra)
    lean = run_record(program, point, LEAN, tmp_path, extra)
    assert default, f"{program} wrote an empty record"
    moved = differing_fields(default, lean)
    assert not moved, (f"{exp_id} ({program} {point}): fields differ between {DEFAULT} and "
                       f"{LEAN}: " + "; ".join(f"{k}: {default.get(k)!r} != {lean.get(k)!r}"
                                               for k in moved[:10]))
    if "events" in default:
        assert default["events"] > 0


def test_every_study_program_is_covered():
    """Each program of the five studies heads at least one experiment's point list, so the
    comparison above runs every one of them."""
    programs = {c[1] for c in CASES}
    assert programs >= {"jaxa-benchmark", "jaxa-table1", "jaxa-table2", "mega-flooding",
                        "mega-querier", "mega-multiplex", "mega-scale", "gine-timer",
                        "gine-burst", "tno-pipeline", "tno-jitter", "tno-schedulers",
                        "ntt-stream"}


def test_comparison_tells_records_apart(tmp_path):
    """Not vacuous: the comparison finds the fields that move with another run number (other
    random draws of the same model) in a program that reports its event count."""
    point = {"config": "1a", "frequency": 50, "duration": 1.0}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = run_record("tno-pipeline", dict(point, RngRun=1), LEAN, tmp_path / "a")
    b = run_record("tno-pipeline", dict(point, RngRun=2), DEFAULT, tmp_path / "b")
    assert differing_fields(a, b)
