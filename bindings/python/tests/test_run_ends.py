"""A run with the PCs' kernel ticks ends by itself, without Simulator::Stop.

The JAXA06 profiles tick forever (pc2006-linux26 at HZ 1000, nistnet-linux24 at HZ 100). HostCpu
defers the interference of an idle CPU (IdleInterferenceEvents false, the default), so once the
programs' work is done the event list empties and Run() returns. The README's examples, the ping
example and jaxa-table1/2 therefore carry no Stop. With IdleInterferenceEvents true (every tick
an event, the behaviour before) the same runs never end: the checks below then time out, which
is what the last two tests assert.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR
from programs import run_args

ROOT = Path(__file__).resolve().parents[3]
#: Wall-clock bound of a run that ends: each takes a few seconds alone, more on a shared machine.
ENDS_WITHIN_S = 300
#: Wall-clock time after which a run with every tick an event is taken as endless. Its
#: simulated work (5 pings a second apart) is done in under a second of wall-clock time.
ENDLESS_AFTER_S = 20
EAGER = "--ns3::HostCpu::IdleInterferenceEvents=true"


def _readme_python(prefix=""):
    import re

    text = (ROOT / "README.md").read_text()
    block = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    assert "Simulator.Stop" not in block
    return prefix + block


def _run_python(code, timeout):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "bindings" / "python")] + [p for p in [env.get("PYTHONPATH")] if p])
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def test_readme_python_example_ends_without_a_stop():
    r = _run_python(_readme_python(), ENDS_WITHIN_S)
    assert r.returncode == 0, r.stderr
    assert "5 replies" in r.stdout


def test_ping_example_ends_without_a_stop():
    r = subprocess.run([str(EXAMPLES_DIR / "testbed-ping-example"), "--count=3"],
                       capture_output=True, text=True, timeout=ENDS_WITHIN_S)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("rtt") == 3


def test_jaxa_programs_end_without_a_stop(tmp_path):
    r, rec = run_args("jaxa-table2", tmp_path, "--delay=5ms", "--count=3",
                      timeout=ENDS_WITHIN_S)
    assert r.returncode == 0, r.stderr
    assert rec["received"] == 3 and rec["lost"] == 0
    r, rec = run_args("jaxa-table1", tmp_path, "--bandwidth=1Mbps", "--fileBytes=100000",
                      timeout=ENDS_WITHIN_S)
    assert r.returncode == 0, r.stderr
    assert rec["complete"] and rec["received"] == 100000


def test_with_every_idle_tick_an_event_the_ping_example_never_ends():
    with pytest.raises(subprocess.TimeoutExpired):
        subprocess.run([str(EXAMPLES_DIR / "testbed-ping-example"), "--count=3", EAGER],
                       capture_output=True, text=True, timeout=ENDLESS_AFTER_S)


def test_with_every_idle_tick_an_event_the_readme_example_never_ends():
    eager = ("import testbed\n"
             "testbed.ns.Config.SetDefault('ns3::HostCpu::IdleInterferenceEvents',"
             " testbed.ns.BooleanValue(True))\n")
    with pytest.raises(subprocess.TimeoutExpired):
        _run_python(_readme_python(eager), ENDLESS_AFTER_S)
