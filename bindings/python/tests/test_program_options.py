"""Every program's options are range-checked: for each option of each program in
examples/ (read from the program's own --describe, not from a hand list), a value outside its
range (or not one of its choices, or not of its type) ends the program within seconds with exit
status 2 and the option's name on stderr."""

import json
import math
import os
import subprocess

import pytest

from testbed import EXAMPLES_DIR

PROGRAMS = sorted(p.name for p in EXAMPLES_DIR.glob("*")
                  if p.is_file() and os.access(p, os.X_OK)) if EXAMPLES_DIR.is_dir() else []


def _describe(program):
    out = subprocess.run([str(EXAMPLES_DIR / program), "--describe"], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _unit_scale(text):
    """Split '10s' / '100000000bps' into (number, unit)."""
    i = 0
    while i < len(text) and (text[i].isdigit() or text[i] in ".eE+-"):
        i += 1
    return float(text[:i]), text[i:]


def bad_values(opt):
    """Values outside the option's declared range, choices or type."""
    t = opt["type"]
    vals = []
    if t in ("uint", "int", "real"):
        lo, hi = opt["min"], opt["max"]
        vals.append("12x")
        if t == "uint":
            vals.append("-1")
        elif lo > -1e300:
            vals.append(repr(lo - max(1, abs(lo))) if t == "real" else str(lo - 1))
        vals.append(repr(hi * 2 + 1) if t == "real" else str(hi + 1))
        if t == "real":
            vals.append("nan")
    elif t in ("time", "rate"):
        hi, unit = _unit_scale(opt["max"])
        vals += [f"{hi * 2 + 1}{unit}", "1e30" + unit, "fast"]
        lo, unit = _unit_scale(opt["min"])
        if lo > 0:
            vals.append(f"{lo / 2}{unit}")
    elif t in ("choice", "bool"):
        vals.append("no-such-choice")
    return vals


CASES = []
for prog in PROGRAMS:
    try:
        desc = _describe(prog)
    except Exception:  # reported by test_every_program_describes_itself
        continue
    for opt in desc["options"]:
        for v in bad_values(opt):
            CASES.append((prog, opt["name"], v))


@pytest.mark.skipif(not PROGRAMS, reason="programs not built")
@pytest.mark.parametrize("program", PROGRAMS)
def test_every_program_describes_itself(program):
    d = _describe(program)
    assert d["program"] == program
    for opt in d["options"]:
        assert opt["type"] in ("uint", "int", "real", "bool", "time", "rate", "string", "choice")
        if opt["type"] in ("uint", "int", "real"):
            assert opt["min"] <= opt["default"] <= opt["max"], opt
            assert math.isfinite(opt["max"]), f"{program} --{opt['name']}: no upper bound"
    r = subprocess.run([str(EXAMPLES_DIR / program), "--no-such-option=1"], capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 2 and "no-such-option" in r.stderr


@pytest.mark.skipif(not CASES, reason="programs not built")
@pytest.mark.parametrize("program,option,value", CASES)
def test_out_of_range_option_exits_2(program, option, value):
    r = subprocess.run([str(EXAMPLES_DIR / program), f"--{option}={value}", "--output=/dev/null"],
                       capture_output=True, text=True, timeout=10)
    assert r.returncode == 2, (r.returncode, r.stderr[-300:])
    assert f"--{option}" in r.stderr, r.stderr[-300:]


def bound_values(opt):
    """The declared bounds themselves, as --describe prints them (a bound is a valid value:
    a time option's tolerance widens its range, it never refuses the exact lower bound)."""
    if opt["type"] in ("uint", "int", "real", "time", "rate"):
        return [str(opt["min"]) if opt["type"] != "real" else repr(opt["min"]),
                str(opt["max"]) if opt["type"] != "real" else repr(opt["max"])]
    return []


BOUND_CASES = []
for prog in PROGRAMS:
    try:
        desc = _describe(prog)
    except Exception:
        continue
    for opt in desc["options"]:
        for v in bound_values(opt):
            BOUND_CASES.append((prog, opt["name"], v))


@pytest.mark.skipif(not BOUND_CASES, reason="programs not built")
@pytest.mark.parametrize("program,option,value", BOUND_CASES)
def test_declared_bounds_are_accepted(program, option, value):
    """Each option's own min and max pass its range check (--check; a rule that involves other
    options may still refuse the combination, but never as the option's range)."""
    r = subprocess.run([str(EXAMPLES_DIR / program), f"--{option}={value}", "--check"],
                       capture_output=True, text=True, timeout=30)
    assert f"--{option}={value}: " not in r.stderr, r.stderr[-300:]
    assert r.returncode in (0, 2), (r.returncode, r.stderr[-300:])
