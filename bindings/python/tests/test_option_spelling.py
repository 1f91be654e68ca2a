"""One spelling per setting: an option name means one physical setting in every
program, with one type and one unit. Read from every built program's own --describe (not from a
hand list): for each option name, the (type, unit) pairs across programs must be one pair; the
shared settings (ProgramOptions' --hostProfile, --rtiProfile, --hostSet, --rtiSet, --delay,
...) have their declared type; every number states its unit; a deprecated alias is not also an
option of the same program and names an option that exists."""

import json
import os
import subprocess
from collections import defaultdict

import pytest

from testbed import EXAMPLES_DIR

PROGRAMS = sorted(p.name for p in EXAMPLES_DIR.glob("*")
                  if p.is_file() and os.access(p, os.X_OK)) if EXAMPLES_DIR.is_dir() else []
built = pytest.mark.skipif(not PROGRAMS, reason="programs not built")

# The settings every program spells the same way (ProgramOptions defines them): name -> type.
SHARED = {
    "hostProfile": "string",
    "rtiProfile": "string",
    "hostSet": "string",
    "rtiSet": "string",
    "profileFile": "string",
    "delay": "time",
    "bandwidth": "rate",
    "duration": "real",
    "warmup": "real",
}


def _describe(program):
    out = subprocess.run([str(EXAMPLES_DIR / program), "--describe"], capture_output=True,
                         text=True, timeout=30, check=True)
    return json.loads(out.stdout)


def _spelling(opt):
    """(type, unit): a time is in seconds and a rate in bit/s by their syntax; a number has the
    unit it declares."""
    t = opt["type"]
    if t == "time":
        return t, "s"
    if t == "rate":
        return t, "bit/s"
    return t, opt.get("unit", "")


def spellings(descriptions):
    """{option name: {(type, unit): [programs]}} over the programs' --describe output."""
    out = defaultdict(lambda: defaultdict(list))
    for d in descriptions:
        for opt in d["options"]:
            out[opt["name"]][_spelling(opt)].append(d["program"])
    return out


def conflicts(descriptions):
    """Option names spelled with more than one (type, unit), and how."""
    return {name: dict(by) for name, by in spellings(descriptions).items() if len(by) > 1}


def test_the_check_finds_a_name_with_two_units():
    # The check itself can fail: two programs that call one setting by one name in two units.
    a = {"program": "a", "options": [{"name": "delay", "type": "time"},
                                     {"name": "duration", "type": "real", "unit": "s"}]}
    b = {"program": "b", "options": [{"name": "delay", "type": "real", "unit": "ms"},
                                     {"name": "duration", "type": "real", "unit": "s"}]}
    found = conflicts([a, b])
    assert set(found) == {"delay"}
    assert found["delay"] == {("time", "s"): ["a"], ("real", "ms"): ["b"]}


@built
def test_one_type_and_unit_per_option_name_across_programs():
    descriptions = [_describe(p) for p in PROGRAMS]
    found = conflicts(descriptions)
    assert not found, "option names with two spellings:\n" + "\n".join(
        f"  --{name}: " + "; ".join(f"{t}[{u}] in {', '.join(progs)}"
                                    for (t, u), progs in by.items())
        for name, by in sorted(found.items()))


@built
@pytest.mark.parametrize("program", PROGRAMS)
def test_shared_settings_and_units(program):
    d = _describe(program)
    names = {o["name"] for o in d["options"]}
    for opt in d["options"]:
        if opt["name"] in SHARED:
            assert opt["type"] == SHARED[opt["name"]], (program, opt)
        if opt["type"] == "real":
            assert opt.get("unit"), f"{program} --{opt['name']}: a real number states its unit"
    for alias in d.get("deprecated", []):
        assert alias["name"] not in names or alias["name"] == alias["use"], (program, alias)
        assert alias["use"] in names, (program, alias)
        assert alias["name"] != alias["use"] or alias.get("bare_number_unit"), (program, alias)


# The usage examples and tools (examples/*.cc, examples/ethernet/): not study programs.
USAGE_EXAMPLES = {"igmp-pcap", "ethernet-saturation", "testbed-ping-example", "mcast-bridge-diff",
                  "profile-dump"}
STUDY_PROGRAMS = [p for p in PROGRAMS if p not in USAGE_EXAMPLES]


@built
@pytest.mark.parametrize("program", STUDY_PROGRAMS)
def test_study_programs_take_the_host_options(program):
    # Every study program runs on host platforms: its PCs' profile, a change to it (a
    # sensitivity study) and a file of more profiles are given the same way everywhere; a
    # program with an RTI takes both RTI options.
    names = {o["name"] for o in _describe(program)["options"]}
    assert {"hostProfile", "hostSet", "profileFile"} <= names, program
    if {"rtiProfile", "rtiSet"} & names:
        assert {"rtiProfile", "rtiSet"} <= names, program


def _text(opt):
    d = opt["default"]
    return ("true" if d else "false") if isinstance(d, bool) else str(d)


ALIASES = [(p, a) for p in PROGRAMS for a in _describe(p).get("deprecated", [])] \
    if PROGRAMS else []


@built
@pytest.mark.parametrize("program,alias", ALIASES,
                         ids=[f"{p}--{a['name']}" for p, a in ALIASES])
def test_a_deprecated_spelling_works_for_one_release_with_a_warning(program, alias):
    opts = {o["name"]: o for o in _describe(program)["options"]}
    new = opts[alias["use"]]
    value = "40" if alias.get("bare_number_unit") else _text(new)
    exe = str(EXAMPLES_DIR / program)
    r = subprocess.run([exe, f"--{alias['name']}={value}", "--check"], capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert "deprecated" in r.stderr and f"--{alias['use']}=" in r.stderr, r.stderr
    if alias["name"] != alias["use"]:
        both = subprocess.run([exe, f"--{alias['name']}={value}", f"--{alias['use']}={value}",
                               "--check"], capture_output=True, text=True, timeout=30)
        assert both.returncode == 2 and f"--{alias['use']}" in both.stderr


@pytest.mark.skipif("tno-schedulers" not in PROGRAMS, reason="programs not built")
def test_old_units_of_tno_schedulers_give_the_same_run(tmp_path):
    # --delay, --jitter were milliseconds and --rate Mbit/s: the old spelling must mean exactly
    # the new one (the same record, events included), and differ from the defaults.
    exe = str(EXAMPLES_DIR / "tno-schedulers")
    common = ["--network=degraded", "--duration=0.5", "--scheduler=utc"]

    def run(name, *args):
        out = tmp_path / f"{name}.json"
        subprocess.run([exe, *common, *args, f"--output={out}"], check=True,
                       capture_output=True, text=True, timeout=300)
        return json.loads(out.read_text())

    old = run("old", "--delay=20", "--jitter=5", "--rate=2")
    new = run("new", "--delay=20ms", "--jitter=5ms", "--bandwidth=2Mbps")
    default = run("default")
    assert old == new
    assert new != default
