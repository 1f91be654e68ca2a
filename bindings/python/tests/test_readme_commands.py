"""README.md's commands, verbatim, are tests: every command of its indented command blocks runs
as written, in README order (then the Python example as the README says to run it, then the
worked examples of the doc sections in DOC_SECTIONS), in a fresh `git clone` of this checkout
into a folder named `testbed` below a folder whose name holds "test" (x-test/testbed: the clone
a new user makes, with the word in every path below it, .venv included), from the clone's folder
(the README types `./testbed ...`, and results/ then lands there), with no option added. Each
must exit 0; every failing one is reported.

Not run, and why:
- `./testbed test`: it runs this very test (and every other); a test cannot run it.
- the C++ and CMake snippets (test_readme.py compares them with the files they name).
- synopsis lines (`[--scale quick|paper]`, NAME, DIR, ADDR, N, ARGS, script.py): templates, not
  commands; the lines of the same block without a placeholder do run (`./testbed list`).

What the clone reuses, to keep the cost to what it must be: its .venv is a hard-linked copy of
the running venv (the same pinned requirements.txt, installed; pip would fetch 800 MB again), and
its build compiles through ccache (objects of this checkout's build are hits; the programs are
linked again). Its first command, `./testbed reproduce`, therefore configures and builds the
clone and reproduces every experiment at quick scale. The test prints each command's console
output and time, and the time from the clone to the first results/report.md.

Run it alone (27 min on a shared, heavily loaded 2-core machine, 15 min of it the build):
    TESTBED_README_RUN=1 .venv/bin/python -m pytest -q -s \
        bindings/python/tests/test_readme_commands.py
It runs where TESTBED_README_RUN=1 or CI is set (.ci/run); else it is skipped.
"""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from testbed import ROOT

README = ROOT / "README.md"
#: A placeholder of a synopsis line: an optional part, an upper-case word, a made-up file name.
PLACEHOLDER = re.compile(r"\[|\b(N|DIR|ADDR|NAME|ARGS|EXP|PROGRAM|FILE)\b|script\.py")
#: Commands a test cannot run, with why (the module's docstring says more).
NOT_RUN = {"./testbed test": "runs this test itself"}


def readme_commands(text: str) -> list[str]:
    """The commands of README's indented (4-space) blocks outside ``` fences, continuation lines
    joined, comment-only lines dropped, synopsis lines (PLACEHOLDER) left out."""
    cmds, fenced, prev_blank, in_block = [], False, True, False
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("    ") and (prev_blank or in_block):
            in_block = True
            cmd = line.strip()
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1].rstrip() + " " + lines[i].strip()
            code = cmd.split("  #")[0].split(" # ")[0].strip()
            if code and not code.startswith("#") and not PLACEHOLDER.search(code):
                cmds.append(code)
        else:
            in_block = in_block and line.strip() == ""
        prev_blank = line.strip() == ""
        i += 1
    return cmds


#: Worked examples of the doc pages run the same way: (page, section title).
DOC_SECTIONS = [("doc/sweeps.rst", "Your own program")]


def doc_commands(text: str, title: str) -> list[str]:
    """The commands of the literal blocks (after "::", indented) of one section of an .rst
    page: the lines that start with ./testbed or printf."""
    lines = text.splitlines()
    start = lines.index(title)
    end = next((i for i in range(start + 2, len(lines) - 1)
                if lines[i + 1] and set(lines[i + 1]) <= set("*=-") and
                len(lines[i + 1]) == len(lines[i])), len(lines))
    cmds = []
    for line in lines[start:end]:
        code = line.strip()
        if line.startswith("   ") and code.startswith(("./testbed ", "printf ")):
            cmds.append(code)
    return cmds


def test_doc_commands_are_extracted():
    for page, title in DOC_SECTIONS:
        cmds = doc_commands((ROOT / page).read_text(), title)
        assert any(c.startswith("./testbed sweep") and "--param ns3::" in c for c in cmds), cmds
        assert any(c.startswith("./testbed validate") for c in cmds), cmds


def test_readme_commands_are_extracted():
    cmds = readme_commands(README.read_text())
    # The README's own examples, as a reader sees them (an independent list: if the README
    # changes, this says which command the run below would no longer cover).
    for want in ("./testbed reproduce", "./testbed list",
                 "./testbed validate jaxa-table2 --measured ours.csv --tolerance 5 --reps 3",
                 "cat results/validate-jaxa-table2/validation.md"):
        assert want in cmds, cmds
    assert any(c.startswith("./testbed sweep jaxa-benchmark --param bandwidth=") and
               c.endswith("--series bandwidth") for c in cmds), cmds
    assert not any(PLACEHOLDER.search(c) for c in cmds)


def _venv_copy(dst: Path):
    src = Path(sys.prefix)
    try:
        shutil.copytree(src, dst, symlinks=True, copy_function=os.link)
    except OSError:
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst, symlinks=True)


@pytest.mark.skipif(not (os.environ.get("TESTBED_README_RUN") or os.environ.get("CI")),
                    reason="the README run (a fresh clone, its build and a quick reproduction) "
                           "runs in CI or with TESTBED_README_RUN=1")
@pytest.mark.xdist_group("readme")
def test_readme_commands_run_as_written(tmp_path):
    top = tmp_path / "x-test"
    clone = top / "testbed"
    t0 = time.monotonic()
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    _venv_copy(clone / ".venv")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TESTBED_", "PYTEST", "PYTHON", "NS_", "CMAKE_", "VIRTUAL_ENV"))}
    env["HOME"] = str(home)  # ~/testbed-install of `cmake --install` lands in the test's folder
    if shutil.which("ccache"):  # the same ccache as this checkout's build, whatever HOME says
        r = subprocess.run(["ccache", "-k", "cache_dir"], capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip():
            env["CCACHE_DIR"] = r.stdout.strip()
    text = README.read_text()
    cmds = readme_commands(text)
    # The Python section: its example, saved as the README says, run the way it says.
    (clone / "example.py").write_text(re.findall(r"```python\n(.*?)```", text, re.S)[0])
    run_with = re.search(r"Run it with `(\./testbed python example\.py)`", text)
    assert run_with, "README no longer says how to run its Python example"
    cmds.append(run_with.group(1))
    for page, title in DOC_SECTIONS:
        cmds += doc_commands((ROOT / page).read_text(), title)
    first_report = None
    log, failed = [], []
    for cmd in cmds:
        if cmd in NOT_RUN:
            log.append(f"$ {cmd}\n(not run: {NOT_RUN[cmd]})")
            continue
        t = time.monotonic()
        r = subprocess.run(["bash", "-c", cmd], cwd=clone, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=7200)
        took = time.monotonic() - t
        out = r.stdout  # stdout and stderr in the order the console shows them
        log.append(f"$ {cmd}\n{out}(exit {r.returncode}, {took:.0f} s)")
        with open(tmp_path / "readme-run.log", "a") as f:  # to follow a long run
            f.write(log[-1] + "\n")
        if first_report is None and (clone / "results" / "report.md").exists():
            first_report = time.monotonic() - t0
        if r.returncode != 0:  # the rest still runs: every failing command is reported
            failed.append(f"{cmd} (exit {r.returncode}):\n{out[-4000:]}")
    text = "\n".join(log)
    assert "5 replies" in text  # the Python example's own output
    (ROOT / "build").mkdir(exist_ok=True)
    took = "none written" if first_report is None else f"{first_report:.0f} s"
    with open(tmp_path / "readme-run.log", "a") as f:
        f.write(f"\nclone to the first results/report.md: {took}\n")
    print(text)
    print(f"clone to the first results/report.md: {took}")
    assert not failed, "README commands that failed:\n" + "\n".join(failed)
    assert first_report is not None
