"""Results a researcher can trust: every point record tied to the build that made it
and never reused by another build; only the --out folder searched; validation points told apart
by role (independent check, calibration, known gap) in metrics.json, report.md and the console;
a failing check is exit status 1 (--no-strict: reported only)."""

import hashlib
import json
import subprocess

import pytest
from conftest import write_square_program

import testbed.build
from testbed import EXAMPLES_DIR, ROOT, campaign, cli, sweeps
from testbed.experiment import Analysis, Experiment, Validation
from testbed.experiment import headline

built = pytest.mark.skipif(not (EXAMPLES_DIR / "jaxa-table2").exists(),
                           reason="programs not built")


def _exp(validation=None, **extra):
    def points(scale):
        return [{"x": i, **extra} for i in range(3)]

    def analyse(records):
        rows = [{"x": r.params["x"], "y": r.result["y"]} for r in records]
        return Analysis(rows=rows, metrics={"sum_y": sum(r["y"] for r in rows)},
                        validation=validation(rows) if validation else [])

    return Experiment(id="sq", study="TEST", title="squares", program="square",
                      points=points, analyse=analyse)


def _calls(log):
    return len(log.read_text().split()) if log.exists() else 0


def _run(out, exp=None, **kw):
    lines = []
    res = campaign.run_campaign([exp or _exp()], "quick", 1, out, log=lines.append,
                                progress=False, **kw)
    return res["sq"], lines


# --------------------------------------------------------------------------------------------
# Provenance


def test_records_carry_build_identity_and_resolved_parameters(tmp_path, fake_program):
    recs, _ = _run(tmp_path / "r")
    prog = testbed.build.EXAMPLES_DIR / "square"
    for r in recs:
        assert r.build["program_sha256"] == hashlib.sha256(prog.read_bytes()).hexdigest()
        assert r.build["module_libraries"] == {}  # a script loads no module library
        # every parameter of the program: the point's own over its --describe defaults
        assert r.resolved == {"x": r.params["x"], "failx": 99, "input": "", "RngRun": 1,
                              "RngSeed": 1}
    git = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                         capture_output=True, text=True).stdout.strip()
    stored = json.loads(next((tmp_path / "r" / "sq" / "points").glob("*.json")).read_text())
    assert stored["build"]["git"] == (git or None)
    assert stored["build"]["id"] == recs[0].build["id"]


def test_a_rebuilt_program_recomputes_its_points(tmp_path, fake_program):
    """The model changed and the program was rebuilt: every point is computed again, with the
    new model's values, and the console says why; the next run reuses the new records."""
    out = tmp_path / "r"
    recs, _ = _run(out)
    assert [r.result["y"] for r in recs] == [0.0, 1.0, 4.0]
    assert _calls(fake_program) == 3
    write_square_program(testbed.build.EXAMPLES_DIR / "square", fake_program, offset=0.5)
    recs, lines = _run(out)
    assert "3 points recomputed: the build changed" in lines, lines
    assert [r.result["y"] for r in recs] == [0.5, 1.5, 4.5]
    assert _calls(fake_program) == 6
    recs, lines = _run(out)
    assert _calls(fake_program) == 6 and not any("recomputed" in x for x in lines)
    assert [r.result["y"] for r in recs] == [0.5, 1.5, 4.5]


def test_a_record_of_another_build_is_never_returned(tmp_path, fake_program):
    """Stored records whose identity names another build (here patched: an edited result under
    another build's id) or no build at all (a record from before build identities) are computed
    again, also when another experiment's folder holds them."""
    out = tmp_path / "r"
    _run(out)
    for i, f in enumerate(sorted((out / "sq" / "points").glob("*.json"))):
        data = json.loads(f.read_text())
        data["result"]["y"] = -1.0
        if i == 0:
            del data["build"]
        else:
            data["build"]["id"] = "0" * 20
        f.write_text(json.dumps(data))
    (out / "sq-copy").mkdir()
    (out / "sq" / "points").rename(out / "sq-copy" / "points")  # also not reused from here
    (out / "sq" / "points").mkdir()
    for f in (out / "sq-copy" / "points").glob("*.json"):
        (out / "sq" / "points" / f.name).write_text(f.read_text())
    recs, lines = _run(out)
    assert [r.result["y"] for r in recs] == [0.0, 1.0, 4.0]
    assert "2 points recomputed: the build changed" in lines, lines
    assert "1 point recomputed: their records name no build" in lines, lines
    assert _calls(fake_program) == 6


def test_rerun_recomputes_records_of_this_build(tmp_path, fake_program):
    out = tmp_path / "r"
    _run(out)
    recs, lines = _run(out, rerun=True)
    assert "3 points recomputed: --rerun" in lines, lines
    assert _calls(fake_program) == 6
    assert [r.result["y"] for r in recs] == [0.0, 1.0, 4.0]


def test_an_edited_input_file_makes_its_points_stale(tmp_path, fake_program):
    """A point whose parameter names a file it reads (--profileFile, --sheet) is stale when the
    file changes, though the binaries did not."""
    data = tmp_path / "profiles.txt"
    data.write_text("one\n")
    exp = _exp(input=str(data))
    _run(tmp_path / "r", exp)
    _run(tmp_path / "r", exp)
    assert _calls(fake_program) == 3
    data.write_text("two\n")
    _, lines = _run(tmp_path / "r", exp)
    assert "3 points recomputed: the build changed" in lines, lines
    assert _calls(fake_program) == 6


def test_a_sweep_never_reads_a_sibling_folder(tmp_path, fake_program):
    """A sweep into results/sweep-b does not take the points of results/sweep-a (even of this
    build): only its own --out folder is searched."""
    results = tmp_path / "results"
    rows = sweeps.sweep("square", {"x": "1,2"}, jobs=1, out=results / "sweep-a", frame=False)
    assert [r["y"] for r in rows] == [1.0, 4.0]
    for f in (results / "sweep-a" / "points").glob("*.json"):
        d = json.loads(f.read_text())
        d["result"]["y"] = -1.0  # an edited record of the current build
        f.write_text(json.dumps(d))
    rows = sweeps.sweep("square", {"x": "1,2"}, jobs=1, out=results / "sweep-b", frame=False)
    assert [r["y"] for r in rows] == [1.0, 4.0]
    assert _calls(fake_program) == 4
    # Its own folder is resumed.
    sweeps.sweep("square", {"x": "1,2"}, jobs=1, out=results / "sweep-b", frame=False)
    assert _calls(fake_program) == 4


@built
def test_a_module_program_names_its_library_and_ns3(tmp_path):
    """jaxa-table2: the identity hashes the program and libtestbed it loads and names the ns-3
    version; a patched identity makes the point run again, with the same (deterministic)
    result."""
    exp = Experiment(id="t2", study="T", title="t", program="jaxa-table2",
                     points=lambda s: [{"delay": "10ms", "count": 3}],
                     analyse=lambda r: Analysis([], {}))
    out = tmp_path / "r"
    rec = campaign.run_campaign([exp], "quick", 1, out, log=lambda m: None,
                                progress=False)["t2"][0]
    lib = EXAMPLES_DIR.parent / "lib" / "libtestbed.so"
    assert rec.build["module_libraries"] == {
        "libtestbed.so": hashlib.sha256(lib.read_bytes()).hexdigest()}
    assert rec.build["ns3"].startswith("3.")
    assert rec.build["program_sha256"] == hashlib.sha256(
        (EXAMPLES_DIR / "jaxa-table2").read_bytes()).hexdigest()
    assert rec.resolved["size"] == 56 and rec.resolved["delay"] == "10ms"
    f = next((out / "t2" / "points").glob("*.json"))
    data = json.loads(f.read_text())
    first = data["result"]
    data["build"]["module_libraries"]["libtestbed.so"] = "0" * 64
    data["build"]["id"] = "1" * 20
    data["result"] = {**first, "rtt_mean_ms": -1.0}
    f.write_text(json.dumps(data))
    lines = []
    rec = campaign.run_campaign([exp], "quick", 1, out, log=lines.append,
                                progress=False)["t2"][0]
    assert "1 point recomputed: the build changed" in lines
    assert rec.result == first


# --------------------------------------------------------------------------------------------
# Roles


def _roles(rows):
    s = sum(r["y"] for r in rows)  # 5.0
    return [Validation("sum (check)", 5.0, s, 1.0, role="check", reason="exact"),
            Validation("sum x 2 (check)", 10.0, 2 * s, 1.0, role="check", reason="exact"),
            Validation("first (calibration)", 0.0, rows[0]["y"], 0.0, role="calibration",
                       parameter="Offset", reason="exact"),
            Validation("gap", 1.0, s, 5.0, role="known_gap", doc="doc/x.rst, 'Gap'",
                       reason="exact")]


def test_a_validation_point_declares_its_role_and_reason():
    with pytest.raises(ValueError, match="reason"):
        Validation("p", 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="role"):
        Validation("p", 1.0, 1.0, 1.0, role="validation", reason="r")
    with pytest.raises(ValueError, match="parameter"):
        Validation("p", 1.0, 1.0, 1.0, role="calibration", reason="r")
    with pytest.raises(ValueError, match="doc"):
        Validation("p", 1.0, 1.0, 1.0, role="known_gap", reason="r")


def test_metrics_and_report_show_roles_and_count_checks_only(tmp_path, fake_program,
                                                             monkeypatch, capsys):
    exp = _exp(_roles)
    monkeypatch.setattr(cli, "experiments", lambda: {"sq": exp})
    out = tmp_path / "r"
    rc = cli.main(["run", "sq", "--out", str(out), "--jobs", "1", "--no-progress"])
    assert rc == 0, capsys.readouterr().out
    m = json.loads((out / "sq" / "metrics.json").read_text())
    assert [v["role"] for v in m["validation"]] == ["check", "check", "calibration",
                                                    "known_gap"]
    assert all(v["reason"] == "exact" for v in m["validation"])
    assert m["validation"][2]["parameter"] == "Offset"
    assert m["validation"][3]["doc"] == "doc/x.rst, 'Gap'"
    assert m["validation"][3]["pass"] is False
    assert m["validation_summary"]["headline"] == \
        "checks 2/2; 1 calibration point reproduced; 1 known gap"
    report = (out / "report.md").read_text()
    assert "| sq | TEST | quick | checks 2/2; 1 calibration point reproduced; 1 known gap |" \
        in report.replace("[sq](#sq)", "sq")
    assert "Calibration points (each set the model parameter named" in report
    assert "| first (calibration) | Offset |" in report
    assert "Known gaps (documented" in report and "doc/x.rst, 'Gap'" in report
    out_text = capsys.readouterr().out
    assert "known gap, doc/x.rst, 'Gap': gap" in out_text


def test_a_failed_check_is_exit_status_1_unless_no_strict(tmp_path, fake_program, monkeypatch,
                                                          capsys):
    def failing(rows):
        v = _roles(rows)
        v[1] = Validation("sum x 2 (check)", 11.0, v[1].simulated, 1.0, reason="exact")
        return v

    exp = _exp(failing)
    monkeypatch.setattr(cli, "experiments", lambda: {"sq": exp})
    args = ["--out", str(tmp_path / "r"), "--jobs", "1", "--no-progress"]
    assert cli.main(["run", "sq", *args]) == 1
    out = capsys.readouterr().out
    assert "1 independent check FAILED" in out and "sq: sum x 2 (check)" in out, out
    assert cli.main(["run", "sq", "--no-strict", *args]) == 0
    assert "sq: sum x 2 (check)" in capsys.readouterr().out
    assert cli.main(["reproduce", *args]) == 1
    # A calibration point that is no longer reproduced is reported, not a check failure.
    def recalibrate(rows):
        v = _roles(rows)
        v[2] = Validation("first (calibration)", 1.0, 0.0, 0.0, role="calibration",
                          parameter="Offset", reason="exact")
        return v

    exp2 = _exp(recalibrate)
    monkeypatch.setattr(cli, "experiments", lambda: {"sq": exp2})
    assert cli.main(["reproduce", *args]) == 0
    out = capsys.readouterr().out
    assert "calibration NOT reproduced: sq: first (calibration) (sets Offset)" in out, out
    m = json.loads((tmp_path / "r" / "sq" / "metrics.json").read_text())
    assert headline(m["validation"]) == \
        "checks 2/2; 0 calibration points reproduced (1 NOT); 1 known gap"


@built
def test_reproduce_exits_1_when_a_perturbed_tolerance_fails_a_check(tmp_path, monkeypatch,
                                                                    capsys):
    """jaxa-table2 with its real tolerance: its four checks pass and its two documented gaps
    (0 and 5 ms) are listed without failing; with the tolerance perturbed to 1 % the rows of
    -2 to -4 % fail and reproduce says which, by name, with exit status 1."""
    from testbed.experiment import get
    from testbed.experiments import jaxa06

    exp = get("jaxa-table2")
    monkeypatch.setattr(cli, "experiments", lambda: {exp.id: exp})
    args = ["reproduce", "--out", str(tmp_path / "r"), "--jobs", "2", "--no-progress"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "jaxa-table2: checks 4/4; 2 known gaps" in out, out
    assert "2 known gaps (documented, not failures):" in out
    assert "jaxa-table2: 0 ms ping RTT (ms)" in out and "doc/host.rst" in out
    monkeypatch.setattr(jaxa06, "TABLE2_TOLERANCE", 1.0)
    assert cli.main(args) == 1
    out = capsys.readouterr().out
    assert "12 points (12 already done)" in out  # the analysis only: nothing recomputed
    assert "4 independent checks FAILED:" in out, out
    for d in (10, 15, 50, 100):
        assert f"jaxa-table2: {d} ms ping RTT (ms)" in out
    assert cli.main(args + ["--no-strict"]) == 0
    report = (tmp_path / "r" / "report.md").read_text()
    assert "**Independent checks: 0/4 within tolerance.**" in report


@built
def test_validate_counts_checks_only_and_reports_calibration_rows(tmp_path, capsys):
    """./testbed validate: a measured row marked calibration that is far off is reported as not
    reproduced and does not fail; a check that is off fails (exit 1), unless --no-strict."""
    f = tmp_path / "own.json"
    subprocess.run([str(EXAMPLES_DIR / "jaxa-table2"), "--delay=25ms", "--count=3", "--RngRun=1",
                    f"--output={f}"], check=True, capture_output=True)
    own = json.loads(f.read_text())["rtt_mean_ms"]
    sheet = tmp_path / "m.csv"
    sheet.write_text("delay_ms,count,rtt_mean_ms,validation_role,calibrated_parameter\n"
                     f"25,3,{own!r},check,\n"
                     f"25,3,{own * 2!r},calibration,HostNic.InterruptDelay\n")
    args = ["validate", "jaxa-table2", "--measured", str(sheet), "--tolerance", "1", "--jobs",
            "1", "--no-progress", "--out", str(tmp_path / "v")]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "checks 1/1 within 1 %; 0/1 calibration points reproduced" in out, out
    md = (tmp_path / "v" / "validation.md").read_text()
    assert "calibration (sets HostNic.InterruptDelay)" in md
    sheet.write_text("delay_ms,count,rtt_mean_ms\n" f"25,3,{own * 2!r}\n")
    assert cli.main(args) == 1
    assert "check FAILED: delay=25ms count=3 rtt_mean_ms" in capsys.readouterr().out
    assert cli.main(args + ["--no-strict"]) == 0
