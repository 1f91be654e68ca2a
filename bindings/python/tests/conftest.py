import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
os.environ.setdefault("TESTBED_ROOT", str(ROOT))
os.environ.setdefault("TESTBED_BUILD_DIR", str(ROOT / "build"))
