"""NS_LOG and the Release build: a program of the Release build warns when
NS_LOG names a component of this module, whose NS_LOG statements that build compiled out (it
would otherwise print nothing, silently); a component of ns-3 itself (the wheel keeps its
logging) gets no warning; the logging build (`./testbed build --logs`) has no reason to warn."""

import os
import shutil
import subprocess

import pytest

from mcast_common import BUILD

PROGRAM = BUILD / "examples" / "gine-timer"


def _release_without_logs(build):
    cache = build / "CMakeCache.txt"
    if not cache.exists():
        return False
    text = cache.read_text()
    return "CMAKE_BUILD_TYPE:STRING=Release" in text and "TESTBED_LOGS:BOOL=OFF" in text


def _stderr(nslog):
    r = subprocess.run([str(PROGRAM), "--check"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, NS_LOG=nslog))
    assert r.returncode == 0, r.stderr
    return r.stderr


@pytest.mark.skipif(not PROGRAM.exists() or not _release_without_logs(BUILD),
                    reason="needs the Release build without logs (./testbed build)")
def test_release_build_warns_of_compiled_out_components():
    err = _stderr("ProgramOptions=level_all|prefix_func:UdpSocketImpl")
    assert "warning: NS_LOG names ProgramOptions" in err
    assert "UdpSocketImpl" not in err  # ns-3's own component logs as usual
    assert "./testbed build --logs" in err and "build-logs/examples/gine-timer" in err
    assert "warning: NS_LOG" not in _stderr("UdpSocketImpl=level_info")
    assert "* (the module's part)" in _stderr("*=level_info")


def test_logging_build_does_not_warn():
    logs = BUILD.parent / "build-logs" / "examples" / "gine-timer"
    if not logs.exists():
        pytest.skip("no logging build (./testbed build --logs)")
    r = subprocess.run([str(logs), "--check"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, NS_LOG="ProgramOptions=level_info"))
    assert "warning: NS_LOG" not in r.stderr


@pytest.mark.skipif(not PROGRAM.exists() or not _release_without_logs(BUILD),
                    reason="needs the Release build without logs (./testbed build)")
def test_scratch_program_is_pointed_to_its_own_logging_build(tmp_path):
    # The same program where a user's own is built (build/scratch/NAME): its logging variant is
    # build-logs/scratch/NAME, not build-logs/examples/NAME.
    mine = tmp_path / "build" / "scratch" / "gine-timer"
    mine.parent.mkdir(parents=True)
    shutil.copy2(PROGRAM, mine)
    r = subprocess.run([str(mine), "--check"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, NS_LOG="ProgramOptions=level_info"))
    assert r.returncode == 0, r.stderr
    assert "build-logs/scratch/gine-timer" in r.stderr
    assert "build-logs/examples/" not in r.stderr
