"""`--check` refuses an ns-3 attribute that the program sets itself (UserAttributes::SetFixed:
jaxa-benchmark sets each federate's DataSize from its option --dataSize), as the run would: exit
status 2 with one line naming it; a sweep over such an attribute is therefore refused before
anything runs (doc/sweeps.rst: "nothing runs before the whole grid is checked"), with exit
status 2 and one error line. An attribute the program leaves to the user passes --check, which
simulates nothing."""

import subprocess

import pytest

from testbed import EXAMPLES_DIR, cli, sweeps

PROGRAM = EXAMPLES_DIR / "jaxa-benchmark"
FIXED = "ns3::JaxaBenchmarkFederate::DataSize"
FREE = "ns3::LinkEmulatorQueueDisc::Jitter"

pytestmark = pytest.mark.skipif(not PROGRAM.exists(), reason="programs not built")


def _check(*args):
    return subprocess.run([str(PROGRAM), "--check", *args], capture_output=True, text=True,
                          timeout=120)


def test_check_refuses_an_attribute_the_program_sets_itself():
    r = _check(f"--{FIXED}=128")
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and FIXED in lines[0] and "itself" in lines[0], r.stderr
    assert "--dataSize" in lines[0]


def test_check_passes_an_attribute_left_to_the_user_and_simulates_nothing(tmp_path):
    out = tmp_path / "record.json"
    r = _check(f"--{FREE}=1ms", f"--output={out}")
    assert r.returncode == 0, r.stderr
    assert not out.exists()
    assert r.stdout.strip() == ""


def test_check_batch_refuses_it_too():
    text = f"--{FIXED}=64\n--{FIXED}=128\n"
    r = subprocess.run([str(PROGRAM), "--checkBatch"], input=text, capture_output=True,
                       text=True, timeout=120)
    answers = r.stdout.splitlines()
    assert r.returncode == 2 and len(answers) == 2
    assert all(a.startswith("2 ") and FIXED in a for a in answers), answers


def test_sweep_over_a_fixed_attribute_is_refused_before_anything_runs(tmp_path, monkeypatch,
                                                                        capsys):
    ran = []
    monkeypatch.setattr(sweeps, "run_points", lambda *a, **k: ran.append(a) or [])
    rc = cli.main(["sweep", "jaxa-benchmark", "--param", f"{FIXED}=64,128", "--param",
                   "exchanges=10", "--out", str(tmp_path), "--no-progress"])
    out = capsys.readouterr()
    assert rc == 2, out
    errors = [ln for ln in (out.out + out.err).splitlines() if "error" in ln]
    assert len(errors) == 1 and FIXED in errors[0], out
    assert not ran and not (tmp_path / "data.csv").exists()
