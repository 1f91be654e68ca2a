"""Paths shared by the multicast pytest files: the repository and the build directory."""

import os
import pathlib

import pytest

REPO = pathlib.Path(os.environ.get("TESTBED_ROOT", pathlib.Path(__file__).resolve().parents[3]))
BUILD = pathlib.Path(os.environ.get("TESTBED_BUILD_DIR", REPO / "build"))


def example(name: str) -> pathlib.Path:
    """Path of a built example program; skips the test if it was not built."""
    exe = BUILD / "examples" / name
    if not exe.exists():
        pytest.skip(f"{exe} not built (run ./testbed build)")
    return exe
