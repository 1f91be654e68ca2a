"""A failing independent check names, on the console, the doc chapter that discusses its
experiment's comparison with the study, as a known gap names its section; each experiment's
chapter exists and is about the experiment's study."""

import re

from testbed import ROOT, campaign, cli
from testbed.experiment import STUDY_DOCS, Validation, experiments


def test_every_experiment_points_to_a_chapter_about_its_study():
    for exp in experiments().values():
        path = ROOT / exp.doc_chapter
        assert path.is_file(), f"{exp.id}: {exp.doc_chapter} does not exist"
        assert f"[{exp.study}]" in path.read_text(), f"{exp.id}: {exp.doc_chapter} never " \
            f"names [{exp.study}]"
    assert set(STUDY_DOCS) == {e.study for e in experiments().values()}


def test_failing_check_prints_its_chapter(tmp_path, monkeypatch, capsys):
    exp = experiments()["tno-jitter"]
    failing = Validation("net jitter IRIX", 10.0, 20.0, 5.0, reason="the study's spread")
    gap = Validation("a gap", 10.0, 30.0, 5.0, role="known_gap", reason="resolution",
                     doc="doc/host.rst, 'Some section'")
    monkeypatch.setattr(campaign, "run_campaign", lambda exps, *a, **k: {exp.id: []})
    monkeypatch.setattr(campaign, "finish_experiment", lambda e, res, scale, out: {
        "validation": [failing.as_dict(), gap.as_dict()]})
    rc = cli.main(["run", exp.id, "--out", str(tmp_path), "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 1
    lines = [ln for ln in out.splitlines() if "net jitter IRIX" in ln]
    assert len(lines) == 2, out  # the experiment's line and the summary's
    assert all("doc/tno.rst" in ln for ln in lines), out
    assert re.search(r"a gap .*doc/host.rst, 'Some section'", out), out
