"""testbed: network-testbed experiments in simulated time (an ns-3 module).

``testbed.ns`` is the cppyy ``ns`` namespace of ns-3 with this module's classes loaded::

    import testbed
    ns = testbed.ns
    timer = ns.CreateObject[ns.TickTimer]()

It is loaded on first use (importing ns-3 through cppyy takes several seconds), so the campaign
API (``testbed.campaign``) and the command line (``python -m testbed.cli``) start fast.
"""

import os
from pathlib import Path

__all__ = ["ROOT", "BUILD_DIR", "EXAMPLES_DIR", "SCRATCH_DIR", "ns", "sweep", "validate"]

#: Repository root (TESTBED_ROOT, or three levels above this file).
ROOT = Path(os.environ.get("TESTBED_ROOT", Path(__file__).resolve().parents[3]))
#: Build directory (TESTBED_BUILD_DIR, or ROOT/build).
BUILD_DIR = Path(os.environ.get("TESTBED_BUILD_DIR", ROOT / "build"))
#: Where the experiment programs are built.
EXAMPLES_DIR = BUILD_DIR / "examples"
#: Where a user's programs (scratch/NAME.cc, scratch/NAME/) are built.
SCRATCH_DIR = BUILD_DIR / "scratch"


def sweep(program, grid, reps=1, jobs=None, **kwargs):
    """A program over a parameter grid of your own (testbed.sweeps.sweep): rows of every run,
    a pandas DataFrame when pandas is importable, else a list of dicts."""
    from .sweeps import sweep as _sweep

    return _sweep(program, grid, reps=reps, jobs=jobs, **kwargs)


def validate(program, measured, tolerance=10.0, reps=1, jobs=None, **kwargs):
    """A program against measured data of your own (testbed.sweeps.validate): the comparison
    table, a pandas DataFrame when pandas is importable, else a list of dicts."""
    from .sweeps import validate as _validate

    return _validate(program, measured, tolerance=tolerance, reps=reps, jobs=jobs, **kwargs)


def __getattr__(name):
    if name == "ns":
        from ._loader import load

        return load()
    raise AttributeError(f"module 'testbed' has no attribute {name!r}")
