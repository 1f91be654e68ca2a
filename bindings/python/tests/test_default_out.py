"""Every subcommand as the README types it, without --out: the results folder is results/ of
the working directory (results/sweep-PROGRAM and results/validate-PROGRAM for those two), and
the command gets as far as its own work (here: a stand-in for it) instead of failing while
choosing the folder."""

import pytest

from testbed import cli


@pytest.mark.parametrize("argv, sub", [
    (["reproduce"], ""),
    (["reproduce", "--scale", "quick"], ""),
    (["run", "jaxa-table1"], ""),
    (["sensitivity", "tno-pipeline"], ""),
    (["sweep", "jaxa-benchmark", "--param", "delay=0ms"], "sweep-jaxa-benchmark"),
    (["validate", "jaxa-table2", "--measured", "ours.csv"], "validate-jaxa-table2"),
    (["validate", "--experiment", "tno-pipeline", "facts.csv"], "validate-tno-pipeline"),
])
def test_default_results_folder(argv, sub, tmp_path, monkeypatch, capsys):
    seen = {}

    def stand_in(args):
        seen["out"] = args.out
        return 0

    for name in ("cmd_reproduce", "cmd_run", "cmd_sensitivity", "cmd_sweep", "cmd_validate"):
        monkeypatch.setattr(cli, name, stand_in)
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 0
    want = (tmp_path / "results" / sub) if sub else tmp_path / "results"
    assert seen["out"] == want.resolve()
    assert capsys.readouterr().out.splitlines()[0] == f"output: {want.resolve()}"
