"""testbed: network-testbed experiments in simulated time (an ns-3 module).

``testbed.ns`` is the cppyy ``ns`` namespace of ns-3 with this module's classes loaded::

    import testbed
    ns = testbed.ns
    timer = ns.CreateObject[ns.TickTimer]()

It is loaded on first use (importing ns-3 through cppyy takes several seconds), so the campaign
API (``testbed.campaign``) and the command line (``python -m testbed.cli``) start fast.
"""

from .build import BUILD_DIR, EXAMPLES_DIR, ROOT, SCRATCH_DIR

__all__ = ["ROOT", "BUILD_DIR", "EXAMPLES_DIR", "SCRATCH_DIR", "ns", "sweep", "validate"]


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
