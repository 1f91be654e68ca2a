"""Figures (issue 31, item 4): `sweep --logx/--logy` set logarithmic axes (checked in the gnuplot
script written beside the PNG); a log axis with a value <= 0 is refused before anything is
drawn."""

import pytest

from testbed import cli


def _sweep(monkeypatch, tmp_path, *extra, values="1,2,3"):
    monkeypatch.chdir(tmp_path)
    return cli.main(["sweep", "square", "--param", f"x={values}", "--jobs", "1", "--no-progress",
                     "--plot", "y", "--x", "x", *extra])


@pytest.mark.parametrize("flags,logx,logy", [([], False, False), (["--logx"], True, False),
                                             (["--logy"], False, True),
                                             (["--logx", "--logy"], True, True)])
def test_sweep_log_axes(tmp_path, monkeypatch, fake_program, flags, logx, logy):
    assert _sweep(monkeypatch, tmp_path, *flags) == 0
    plt = (tmp_path / "results" / "sweep-square" / "y-vs-x.plt").read_text()
    assert ("set logscale x" in plt) == logx
    assert ("set logscale y" in plt) == logy
    assert (tmp_path / "results" / "sweep-square" / "y-vs-x.png").stat().st_size > 1000


def test_log_axis_with_a_value_not_positive_is_refused(tmp_path, monkeypatch, capsys,
                                                       fake_program):
    assert _sweep(monkeypatch, tmp_path, "--logx", values="0,1,2") == 2
    assert "--logx: x has a value <= 0 (0)" in capsys.readouterr().out
    # y = x*x is 0 at x = 0
    assert _sweep(monkeypatch, tmp_path, "--logy", values="0,1,2") == 2
    assert "--logy: the mean of y is not positive at x=0" in capsys.readouterr().out


def test_log_flags_need_plot(tmp_path, monkeypatch, capsys, fake_program):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["sweep", "square", "--param", "x=1,2", "--logy", "--no-progress"]) == 2
    assert "--plot FIELD needs --x PARAM" in capsys.readouterr().out
