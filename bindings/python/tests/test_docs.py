"""The Sphinx model documentation builds without warnings, stays inside the repository and
describes the design, not its work history."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def test_sphinx_builds_without_warnings(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(ROOT / "doc"), str(tmp_path / "html")],
        capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_nothing_points_outside_the_repository():
    """The documentation is self-contained: no link to the spec or notes outside the checkout
    (../shared/, shared/spec); the studies are described in doc/studies.rst."""
    import re

    assert (ROOT / "doc" / "studies.rst").exists()
    outside = re.compile(r"\.\./shared|shared/spec|/work/")
    for path in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "doc").glob("*.rst"))]:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            assert not outside.search(line), f"{path.name}:{n} points outside: {line.strip()}"
    assert ":doc:`studies`" in (ROOT / "doc" / "multicast.rst").read_text()
    assert "doc/studies.rst" in (ROOT / "README.md").read_text()


# Where the model, its programs, its tests, its docs and its benchmarks live: none of them
# tells work history (that is git's); a comment or a chapter says what the code does and why,
# a test's docstring the behaviour or contract it checks. The patterns are spelled so that
# they do not match their own text ("[ ]" for a space), so this file needs no exception.
HISTORY_PATHS = ["model", "helper", "examples", "doc", "bindings/python/testbed", "bench",
                 "bindings/python/tests", "test", "README.md", "CONTRIBUTING.md"]
HISTORY_WORDS = [
    r"\b(session|stop) [0-9]+|issue [0-9]+",  # a numbered period of work, an issue by number
    r"\bsession-[0-9]+|\bthis[ ]wave\b|\bwork[ ]periods?\b|\bearlier[ ]stops\b"
    r"|\bitem [0-9]+ of issue",
]


def _git_grep(pattern, paths, cwd=ROOT):
    return subprocess.run(["git", "grep", "-niE", pattern, "--", *paths], cwd=cwd,
                          capture_output=True, text=True)


def test_the_history_check_finds_a_work_history_word(tmp_path):
    # The check itself can fail: a comment that cites its work history is found.
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "x.h").write_text("// faster since session " "41 (issue " "29 step 6)\n"
                                            "// the clock in time steps\n")
    subprocess.run(["git", "add", "model/x.h"], cwd=tmp_path, check=True)
    hits = [_git_grep(p, ["model"], cwd=tmp_path) for p in HISTORY_WORDS]
    assert hits[0].returncode == 0 and hits[0].stdout.count("\n") == 1
    assert "model/x.h:1:" in hits[0].stdout


def test_no_work_history_words_in_code_docs_or_output():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    found = []
    for pattern in HISTORY_WORDS:
        r = _git_grep(pattern, HISTORY_PATHS)
        assert r.returncode in (0, 1), r.stderr
        found += r.stdout.splitlines()
    assert not found, "work history in code, docs or output (say what the code does and why):\n" \
        + "\n".join(found)
