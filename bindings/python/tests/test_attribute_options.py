"""`--ns3::Type::Attr=value` in the experiment programs: `--check` refuses an
attribute that does not exist, a TypeId the program does not have, and a value the attribute's
checker refuses, each with one line and exit status 2 (UserAttributes::Check, which
`./testbed sweep --param ns3::Type::Attr=...` relies on); a valid one is accepted and changes
the run."""

import json
import subprocess

import pytest

from testbed import EXAMPLES_DIR

PROGRAM = EXAMPLES_DIR / "gine-timer"
pytestmark = pytest.mark.skipif(not PROGRAM.exists(), reason="programs not built")


def _check(*args):
    return subprocess.run([str(PROGRAM), "--check", *args], capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("arg, why", [
    ("--ns3::NanosleepTimer::NoSuchAttr=3", "ns3::NanosleepTimer has no attribute NoSuchAttr"),
    ("--ns3::NoSuchType::Attr=3", "no type ns3::NoSuchType"),
    ("--ns3::NanosleepTimer::TimerSlack=fast", "not a time"),
    ("--ns3::NanosleepTimer::TimerSlack=1s", "does not take"),  # checker: at most 100 ms
    ("--ns3::TcpSocket::SegmentSize=abc", "not a number"),
])
def test_check_refuses_bad_attribute_arguments(arg, why):
    r = _check(arg)
    assert r.returncode == 2, (r.returncode, r.stderr[-500:])
    assert why in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr  # one line, no usage screen


def test_check_accepts_valid_attribute_arguments():
    for arg in ("--ns3::NanosleepTimer::TimerSlack=10us", "--ns3::TcpSocket::SegmentSize=1000"):
        r = _check(arg)
        assert r.returncode == 0, r.stderr


def test_attribute_changes_the_run(tmp_path):
    """nanosleep wakes up TimerSlack after the requested expiry (the model's definition, and
    Linux's hrtimer slack): 1 ms more slack makes every measured interval of the nanosleep
    shaper about 1 ms longer on average."""
    def run(slack):
        out = tmp_path / f"{slack}.json"
        subprocess.run([str(PROGRAM), "--timer=nanosleep", "--minUs=100", "--maxUs=100",
                        "--firings=50", f"--ns3::NanosleepTimer::TimerSlack={slack}",
                        f"--output={out}"], check=True, capture_output=True, text=True,
                       timeout=120)
        return json.loads(out.read_text())["measured_us"]

    base, more = run("50us"), run("1050us")
    assert len(base) == len(more) > 0
    mean = lambda v: sum(v) / len(v)  # noqa: E731
    assert mean(more) - mean(base) == pytest.approx(1000, abs=50)
