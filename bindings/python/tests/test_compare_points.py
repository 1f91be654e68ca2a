"""tools/compare-points.py: two result folders compare equal when their records are, even when a
parameter names a file inside each folder (a sensitivity sample's recalibrated profiles), and
differ, with exit status 1, when a result field or the set of points differs."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TOOL = ROOT / "tools" / "compare-points.py"


def _folder(root: Path, y: float, extra_point: bool = False) -> Path:
    """A result folder with one experiment whose points name a profile file inside the folder."""
    points = root / "exp" / "points"
    points.mkdir(parents=True)
    profile = root / "exp" / "profiles" / "a.profiles"
    profile.parent.mkdir()
    profile.write_text("same\n")
    xs = [1, 2, 3] if extra_point else [1, 2]
    for x in xs:
        rec = {"program": "square", "params": {"x": x, "profileFile": str(profile)},
               "result": {"y": y * x, "events": 10 * x}, "cpu_s": x * 0.1 + y, "wall_s": y}
        (points / f"{x}.json").write_text(json.dumps(rec))
    return root


def _compare(a: Path, b: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), str(a), str(b)],
                          capture_output=True, text=True)


def test_paths_inside_each_folder_match(tmp_path):
    a = _folder(tmp_path / "before", 1.0)
    b = _folder(tmp_path / "after", 1.0)
    r = _compare(a, b)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 common points, 0 differ, 0 only before, 0 only after" in r.stdout


def test_a_result_that_differs_fails(tmp_path):
    a = _folder(tmp_path / "before", 1.0)
    b = _folder(tmp_path / "after", 1.5)
    r = _compare(a, b)
    assert r.returncode == 1
    assert "2 common points, 2 differ" in r.stdout


def test_a_point_on_one_side_only_fails(tmp_path):
    a = _folder(tmp_path / "before", 1.0)
    b = _folder(tmp_path / "after", 1.0, extra_point=True)
    r = _compare(a, b)
    assert r.returncode == 1
    assert "1 only after" in r.stdout


def test_a_path_outside_the_folder_still_tells_points_apart(tmp_path):
    a = _folder(tmp_path / "before", 1.0)
    b = _folder(tmp_path / "after", 1.0)
    # The same records, but the after side's points name a file outside its folder.
    for f in (b / "exp" / "points").glob("*.json"):
        rec = json.loads(f.read_text())
        rec["params"]["profileFile"] = str(tmp_path / "elsewhere.profiles")
        f.write_text(json.dumps(rec))
    r = _compare(a, b)
    assert r.returncode == 1
    assert "0 common points" in r.stdout
