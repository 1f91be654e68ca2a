"""`sensitivity --samples 1` with Morris is refused (exit 2, one line, nothing run): one
trajectory gives each parameter a single elementary effect, whose spread is undefined, so the
analysis could rank nothing."""

from testbed import cli, stages


def test_morris_with_one_trajectory_is_refused(tmp_path, monkeypatch, capsys):
    ran = []
    monkeypatch.setattr(stages, "run_campaign", lambda *a, **k: ran.append(a) or {})
    rc = cli.main(["sensitivity", "tno-pipeline", "--samples", "1", "--out", str(tmp_path),
                   "--no-progress"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 2
    errors = [ln for ln in out if ln.startswith("error:")]
    assert len(errors) == 1 and "--samples 1" in errors[0] and "Morris" in errors[0], out
    assert not ran
    assert not (tmp_path / "sensitivity-tno-pipeline").exists()
