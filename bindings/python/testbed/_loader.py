"""Load ns-3 (the pip wheel's cppyy bindings) and this module's library into one namespace."""

import contextlib
import os
import re
import sys
import tempfile
from pathlib import Path

from . import BUILD_DIR

# Lines that cling prints on stderr while ns-3's static initialisers run; they are harmless
# (documented by ns-3 for the wheel). Everything else on stderr is passed through.
_HARMLESS = re.compile(r"^\[runStaticInitializersOnce\]: Failed to materialize symbols")

_ns = None


@contextlib.contextmanager
def _filtered_stderr():
    """Capture fd 2 (C++ writes there directly), then re-emit all but the harmless lines."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            for raw in tmp.read().decode(errors="replace").splitlines():
                if raw and not _HARMLESS.match(raw):
                    print(raw, file=sys.stderr)


def _wheel_dir() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("ns3")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the ns3 wheel is not installed in this Python (run ./testbed setup)")
    return Path(list(spec.submodule_search_locations)[0])


def load():
    """Import ns-3 and the testbed library; return the ``ns`` namespace (cached)."""
    global _ns
    if _ns is not None:
        return _ns
    lib = BUILD_DIR / "lib" / "libtestbed.so"
    include = BUILD_DIR / "include"
    if not lib.exists():
        raise ImportError(f"{lib} does not exist: build the module first (./testbed build)")
    wheel = _wheel_dir()
    libdir = wheel / "lib64" if (wheel / "lib64").is_dir() else wheel / "lib"
    # The wheel's loader globs the current directory recursively for ns-3 libraries (and fails
    # on a second copy, e.g. another venv below the cwd): import from the wheel's own lib dir.
    cwd = os.getcwd()
    with _filtered_stderr():
        os.chdir(libdir)
        try:
            from ns import ns  # noqa: F401  (the wheel's loader)
            import cppyy
        finally:
            os.chdir(cwd)
        cppyy.add_include_path(str(include))
        cppyy.load_library(str(lib))
        cppyy.include("ns3/testbed-module.h")
    _ns = ns
    return ns
