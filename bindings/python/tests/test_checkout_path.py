"""`import testbed` in a checkout whose path holds the word "test" (the default clone directory
`testbed`, with its .venv inside): the ns3 wheel's loader must still find ns-3's libraries there.
The clone is made here, below a folder named x-test, with the wheel's files under it (hard links,
or a copy across file systems) so that their real path holds the word as a clone's .venv does."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from testbed import BUILD_DIR, ROOT


def _wheel_site():
    import importlib.util

    spec = importlib.util.find_spec("ns3")
    return os.path.dirname(list(spec.submodule_search_locations)[0])


def _link_tree(src, dst):
    try:
        shutil.copytree(src, dst, symlinks=True, copy_function=os.link)
    except OSError:
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst, symlinks=True)


@pytest.mark.skipif(not (BUILD_DIR / "lib" / "libtestbed.so").exists(), reason="not built")
def test_import_in_a_checkout_named_testbed(tmp_path):
    top = tmp_path / "x-test"
    clone = top / "testbed"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    site = clone / ".venv" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / \
        "site-packages"
    wheel_site = _wheel_site()
    for name in ("ns3", "ns"):
        _link_tree(os.path.join(wheel_site, name), site / name)
    assert "test" in os.path.realpath(site / "ns3" / "lib64")
    script = textwrap.dedent("""\
        import ns3, testbed
        print("wheel:", list(ns3.__path__)[0])
        ns = testbed.ns
        t = ns.CreateObject[ns.TickTimer]()
        print("TickTimer", t.GetInstanceTypeId().GetName())
        """)
    env = {**os.environ, "PYTHONPATH": f"{site}:{clone / 'bindings' / 'python'}",
           "TESTBED_ROOT": str(clone), "TESTBED_BUILD_DIR": str(BUILD_DIR)}
    r = subprocess.run([sys.executable, "-c", script], cwd=clone, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert f"wheel: {site / 'ns3'}" in r.stdout
    assert "TickTimer ns3::TickTimer" in r.stdout


@pytest.mark.skipif(not (BUILD_DIR / "lib" / "libtestbed.so").exists(), reason="not built")
def test_loading_says_it_goes_on(tmp_path):
    # Loading ns-3 takes seconds (a minute where cling first parses the headers): with lines
    # every TESTBED_PROGRESS_EVERY seconds (30 by default), here 1, on the real stderr.
    env = {**os.environ, "TESTBED_PROGRESS_EVERY": "1", "TESTBED_BUILD_DIR": str(BUILD_DIR),
           "PYTHONPATH": str(ROOT / "bindings" / "python")}
    r = subprocess.run([sys.executable, "-c", "import testbed; testbed.ns.Simulator.Now()"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "testbed: loading ns-3 (cppyy): 1 s so far" in r.stderr, r.stderr[-2000:]
