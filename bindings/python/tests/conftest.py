"""Shared fixtures of the testbed pytest suite: where the build and the repository are."""

import os
import pathlib

import pytest

REPO = pathlib.Path(os.environ.get("TESTBED_ROOT", pathlib.Path(__file__).resolve().parents[3]))
BUILD = pathlib.Path(os.environ.get("TESTBED_BUILD_DIR", REPO / "build"))


@pytest.fixture(scope="session")
def repo_dir() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def build_dir() -> pathlib.Path:
    return BUILD


def example(name: str) -> pathlib.Path:
    """Path of a built example program; skips the test if it was not built."""
    exe = BUILD / "examples" / name
    if not exe.exists():
        pytest.skip(f"{exe} not built (run ./testbed build)")
    return exe
