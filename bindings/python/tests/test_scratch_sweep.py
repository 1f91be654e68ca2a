"""A user's own program (scratch/NAME.cc, built into build/scratch/NAME) is found by name by
sweep and validate, as ./testbed run-program finds it; TESTBED_PROGRAMS_DIR stays an override."""

from conftest import write_square_program

import testbed.build
from testbed import cli


def test_sweep_and_validate_find_a_scratch_program(tmp_path, monkeypatch, capsys):
    scratch = tmp_path / "build" / "scratch"
    scratch.mkdir(parents=True)
    write_square_program(scratch / "square", tmp_path / "calls.log")
    monkeypatch.setattr(testbed.build, "SCRATCH_DIR", scratch)
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", tmp_path / "build" / "examples")
    monkeypatch.delenv("TESTBED_PROGRAMS_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert testbed.build.program_path("square") == scratch / "square"
    rc = cli.main(["sweep", "square", "--param", "x=1,2,3", "--jobs", "1", "--no-progress"])
    assert rc == 0, capsys.readouterr()
    assert sorted((tmp_path / "calls.log").read_text().split()) == ["1", "2", "3"]
    (tmp_path / "ours.csv").write_text("x,y\n2,4\n3,9.2\n")
    rc = cli.main(["validate", "square", "--measured", "ours.csv", "--tolerance", "5",
                   "--jobs", "1", "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "checks 2/2 within 5 %" in out


def test_programs_dir_overrides(tmp_path, monkeypatch):
    monkeypatch.setattr(testbed.build, "SCRATCH_DIR", tmp_path / "scratch")
    monkeypatch.setenv("TESTBED_PROGRAMS_DIR", str(tmp_path / "mine"))
    assert testbed.build.program_path("square") == tmp_path / "mine" / "square"


def test_describe_lists_ns3_attributes_as_parameters(fake_program, capsys):
    assert cli.main(["sweep", "square", "--describe"]) == 0
    out = capsys.readouterr().out
    params = out.split("parameters (--param NAME=...):")[1].split("result fields")[0]
    assert "ns3::TYPE::ATTR" in params and "--param ns3::" in params


def test_validate_takes_an_ns3_attribute_column(fake_program, tmp_path, monkeypatch, capsys):
    # A measured file whose rows differ in an ns-3 attribute: the column is a parameter, given
    # to the program as --ns3::Type::Attribute=VALUE.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.csv").write_text("x,ns3::Square::Offset,y\n2,0ms,4\n3,0ms,9\n")
    rc = cli.main(["validate", "square", "--measured", "mine.csv", "--tolerance", "1",
                   "--jobs", "1", "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "checks 2/2 within 1 %" in out
    assert "| x | ns3::Square::Offset | field |" in out and "| 2 | 0ms | y | 4 |" in out


def test_scratch_ping_jitter_swept_over_an_ns3_attribute(tmp_path, monkeypatch, capsys):
    """doc/sweeps.rst's own program, by name, over the emulator's jitter: NIST Net's Jitter is
    the half-width of a uniform spread around Delay in each direction (the attribute's
    definition), so with Jitter J every RTT lies within 2 (delay +- J) plus the 1 Mbit/s
    transmission of an echo (under 1 ms), and without it within [2 delay, 2 delay + 1 ms]."""
    import csv

    import pytest

    if not (testbed.build.SCRATCH_DIR / "ping-jitter").exists():
        pytest.skip("scratch/ping-jitter not built")
    monkeypatch.chdir(tmp_path)
    rc = cli.main(["sweep", "ping-jitter", "--param", "delay=50ms", "--param", "count=10",
                   "--param", "ns3::LinkEmulatorQueueDisc::Jitter=0ms,20ms", "--jobs", "1",
                   "--no-progress"])
    assert rc == 0, capsys.readouterr()
    rows = {r["ns3::LinkEmulatorQueueDisc::Jitter"]: r for r in
            csv.DictReader(open(tmp_path / "results" / "sweep-ping-jitter" / "data.csv"))}
    still, spread = rows["0ms"], rows["20ms"]
    assert 100 <= float(still["rtt_mean_ms"]) <= float(still["rtt_max_ms"]) <= 101
    assert 60 <= float(spread["rtt_mean_ms"]) and float(spread["rtt_max_ms"]) <= 141
    assert float(spread["rtt_max_ms"]) > 101  # ten pings: some draw above the still link's
