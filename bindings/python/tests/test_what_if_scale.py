"""A what-if scale beyond the study's (Experiment.what_if_scales): mega-scale's "tenfold", ten
times the study's 10^6 senders at its multiplexing, run by ``./testbed run mega-scale --scale
tenfold`` only (doc/mega.rst, "Ten times the study's senders")."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from testbed import mega_split, runner
from testbed.build import EXAMPLES_DIR
from testbed.cli import _typed
from testbed.experiment import SCALES, experiments
from testbed.experiments import mega06

ROOT = Path(__file__).resolve().parents[3]


def _tenfold():
    return experiments()["mega-scale"].points("tenfold")


def test_tenfold_is_ten_times_the_studys_senders_at_its_multiplexing():
    (p,) = _tenfold()
    paper = experiments()["mega-scale"].points("paper")
    largest = max(q["senderPcs"] * q["nodesPerPc"] for q in paper)
    # [MEGA06]: 10^6 senders, 5 000 virtual nodes per PC, sets of 4 PCs and one receiver.
    assert largest == 10**6
    assert p["senderPcs"] * p["nodesPerPc"] == 10**7
    assert p["nodesPerPc"] == 5000 and p["sendersPerGroup"] == 4
    assert p["receivers"] == p["senderPcs"] // 4
    assert p["duration"] == 180.0


def test_the_program_accepts_the_tenfold_point_and_refuses_it_within_the_default_budget(tmp_path):
    (p,) = _tenfold()
    exe = str(EXAMPLES_DIR / "mega-scale")
    out = tmp_path / "r.json"
    ok = subprocess.run(runner.command_line(exe, p, out) + ["--check"], capture_output=True,
                        text=True)
    assert ok.returncode == 0, ok.stderr
    # Without the point's own budget: 30 events a datagram x 10^7 x 181.6 s > 10^10.
    q = {k: v for k, v in p.items() if k != "maxEvents"}
    refused = subprocess.run(runner.command_line(exe, q, out) + ["--check"],
                             capture_output=True, text=True)
    assert refused.returncode == 2
    assert "--maxEvents" in refused.stderr
    assert not out.exists()


def test_a_lone_tenfold_point_splits_over_two_workers():
    (p,) = _tenfold()
    cost = mega06.scale_cost(p)
    # Alone, unsplit it is the whole critical path; split with the querier, by the cost model,
    # its larger part takes about 0.6 of it.
    assert mega_split.parts_for(cost, cost, 2, p) == 2
    assert mega_split.parts_for(cost, cost, 1, p) == 1


def test_what_if_scales_are_not_reproduction_scales():
    assert "tenfold" not in SCALES
    exps = experiments()
    assert list(exps["mega-scale"].what_if_scales) == ["tenfold"]
    assert [e.id for e in exps.values() if e.what_if_scales] == ["mega-scale"]


def _testbed(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    return subprocess.run([sys.executable, "-m", "testbed.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_reproduce_refuses_a_what_if_scale(tmp_path):
    r = _testbed("reproduce", "--scale", "tenfold", "--out", str(tmp_path), cwd=tmp_path)
    assert r.returncode == 2
    assert "invalid choice: 'tenfold'" in r.stderr
    assert not list(tmp_path.iterdir())


def test_run_refuses_another_experiments_what_if_scale(tmp_path):
    r = _testbed("run", "jaxa-table1", "--scale", "tenfold", "--out", str(tmp_path),
                 cwd=tmp_path)
    assert r.returncode == 2
    assert "unknown scale 'tenfold' for jaxa-table1" in r.stdout, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_run_at_the_what_if_scale_end_to_end(tmp_path):
    """The tenfold point made tiny by --param (8 PCs of 10 nodes, 2 sets, 0.1 s): the what-if
    path from the command line to metrics.json, with numeric overrides typed as the
    experiment's own points hold them (its cost function adds the duration)."""
    r = _testbed("run", "mega-scale", "--scale", "tenfold", "--param", "senderPcs=8",
                 "--param", "receivers=2", "--param", "nodesPerPc=10", "--param",
                 "duration=0.1", "--jobs", "2", "--out", str(tmp_path), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    m = json.loads((tmp_path / "mega-scale" / "metrics.json").read_text())
    assert m["scale"] == "tenfold"
    # 8 PCs x 10 nodes; no loss at 80 datagrams a second.
    assert m["metrics"]["scale_drop_rate_80_nodes"] == 0


@pytest.mark.parametrize("text, value", [("0.5", 0.5), ("3", 3), ("1e11", 1e11),
                                         ("10ms", "10ms"), ("true", "true"), ("inf", "inf"),
                                         ("nan", "nan"), ("ns3::X", "ns3::X")])
def test_param_values_are_typed_as_the_points_hold_them(text, value):
    got = _typed(text)
    assert got == value and type(got) is type(value)
