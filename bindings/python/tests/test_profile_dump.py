"""The profile text format has one parser, Profile's (C++): the Python side (testbed.ranges.
Profiles) reads the profiles through the program profile-dump. Checked against the C++ registry
itself, read through the Python binding in a process of its own (a --profileFile replaces
built-in profiles for the rest of the process): every built-in profile, and a file that
re-declares a built-in profile with changes, are seen the same by both."""

import json
import os
import subprocess
import sys

import pytest

from testbed import EXAMPLES_DIR, ROOT
from testbed.ranges import Profiles, RangeError

built = pytest.mark.skipif(not (EXAMPLES_DIR / "profile-dump").exists(),
                           reason="profile-dump not built")

# Every profile of the C++ registry, after loading argv[1] if given: (kind, name) -> settings.
_REGISTRY = """
import json, sys
import testbed
ns = testbed.ns
if len(sys.argv) > 1:
    ns.Profile.LoadFile(sys.argv[1])
out = []
for kind in ns.Profile.ListKinds():
    for name in ns.Profile.List(kind):
        p = ns.Profile.Get(kind, name)
        out.append([str(kind), str(name), str(p.GetBase()),
                    [[str(s.first), str(s.second)] for s in p.GetSettings()]])
print(json.dumps(out))
"""


def _registry(profile_file=None):
    args = [sys.executable, "-c", _REGISTRY] + ([str(profile_file)] if profile_file else [])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT / "bindings" / "python"), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    return {(k, n): (base, dict(settings))
            for k, n, base, settings in json.loads(out.stdout.splitlines()[-1])}


def _python_side(profiles):
    return {key: (p.base or "", p.resolved) for key, p in profiles.profiles.items()}


@built
def test_every_builtin_profile_is_the_cpp_registrys():
    cpp = _registry()
    py = _python_side(Profiles())
    assert {k for k, _ in cpp} >= {"host", "rti"}
    assert py == cpp
    # The Python accessor follows the C++ resolution of a base's changes: ihawk-redhawk-2400
    # derives from ihawk-redhawk-700 and sets its own core count inside the CPU's object value.
    prof = Profiles()
    assert prof.profiles[("host", "ihawk-redhawk-2400")].base == "ihawk-redhawk-700"
    cpu = cpp[("host", "ihawk-redhawk-2400")][1]["HostPlatform.Cpu"]
    assert f"Cores={prof.value('host', 'ihawk-redhawk-2400', 'HostPlatform.Cpu.Cores')}" in cpu


@built
def test_a_profile_file_with_changes_is_seen_the_same_by_both(tmp_path):
    # The sensitivity analysis's form: a built-in profile re-declared from itself with changed
    # values (a whole setting, and one attribute inside an object value), and a new profile.
    base = Profiles()
    freq = base.value("host", "pc2006-linux26", "HostPlatform.Cpu.Frequency")
    assert freq is not None and float(freq) != 1.5e9
    pf = tmp_path / "sample.profiles"
    pf.write_text("[host pc2006-linux26]\nbase = pc2006-linux26\n"
                  "HostPlatform.Cpu.Frequency = 1.5e9\n"
                  "HostPlatform.SyscallCost = 777\n"
                  "[rti my-rti]\nbase = prti1516\nRtiSettings.CallCost = 12345\n"
                  "#@range RtiSettings.CallCost 10000 20000 : a test range\n")
    cpp = _registry(pf)
    prof = Profiles(profile_file=pf)
    assert _python_side(prof) == cpp
    assert prof.value("host", "pc2006-linux26", "HostPlatform.Cpu.Frequency") == "1.5e9"
    assert prof.value("host", "pc2006-linux26", "HostPlatform.SyscallCost") == "777"
    assert prof.value("rti", "my-rti", "RtiSettings.CallCost") == "12345"
    # the settings the file does not change are the built-in ones
    for key in ("HostPlatform.Cpu.Cores", "HostNic.RxRingSize"):
        assert prof.value("host", "pc2006-linux26", key) == base.value(
            "host", "pc2006-linux26", key)
    # the file's own #@range note is read as a range of its profile
    (r,) = [r for r in prof.ranges if r.profile == "my-rti"]
    assert (r.low, r.high, r.keys) == (10000, 20000, ("RtiSettings.CallCost",))
    assert r.origin == f"{pf}:8"


@built
def test_a_malformed_profile_file_is_refused_with_the_cpp_parsers_message(tmp_path):
    pf = tmp_path / "bad.profiles"
    pf.write_text("[host x]\nNoSuchSection.Attr = 1\n")
    with pytest.raises(RangeError, match=r"bad.profiles:2: unknown key 'NoSuchSection.Attr'"):
        Profiles(profile_file=pf)


@built
def test_a_range_outside_any_profile_section_is_refused(tmp_path):
    # A '#@range' note ranges a setting of the profile whose section it stands in; before the
    # first section it would range nothing, so it is an error, not a comment.
    pf = tmp_path / "stray.profiles"
    pf.write_text("#@range HostPlatform.SyscallCost 1 2 : no profile\n[host x]\n")
    with pytest.raises(RangeError, match=r"stray.profiles:1: a '#@range' line belongs inside"):
        Profiles(profile_file=pf)
