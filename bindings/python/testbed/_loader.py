"""Load ns-3 (the pip wheel's cppyy bindings) and this module's library into one namespace."""

import contextlib
import os
import re
import sys
import tempfile
from pathlib import Path

from .build import BUILD_DIR

# Lines that cling prints on stderr while ns-3's static initialisers run; they are harmless
# (documented by ns-3 for the wheel). Everything else on stderr is passed through.
_HARMLESS = re.compile(r"^\[runStaticInitializersOnce\]: Failed to materialize symbols")

_ns = None


#: Seconds between the lines that say ns-3 is still loading (TESTBED_PROGRESS_EVERY, 30 s).
_EVERY = float(os.environ.get("TESTBED_PROGRESS_EVERY", "30"))


@contextlib.contextmanager
def _filtered_stderr():
    """Capture fd 2 (C++ writes there directly), then re-emit all but the harmless lines.
    Loading ns-3 through cppyy takes seconds, and a minute or more where cling first parses the
    headers: every _EVERY seconds a line on the real stderr says it goes on."""
    import threading
    import time

    sys.stderr.flush()
    saved = os.dup(2)
    start, done = time.monotonic(), threading.Event()

    def heartbeat():
        while not done.wait(_EVERY):
            os.write(saved, f"testbed: loading ns-3 (cppyy): {time.monotonic() - start:.0f} s "
                            f"so far\n".encode())

    beat = threading.Thread(target=heartbeat, daemon=True)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        beat.start()
        try:
            yield
        finally:
            done.set()
            beat.join()
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


# The wheel's loader (ns3/ns/__init__.py) drops ns-3's test libraries with a test on the whole
# path, `"test" not in x`: in a checkout whose path holds the word (a clone named `testbed`, whose
# .venv is inside it) it drops every ns-3 library and ns-3 does not load. The same test on the
# file's name keeps the intent (libns3.*-test.so are dropped) and does not depend on where the
# venv lives. Anything else about the wheel's loading is unchanged.
_WHOLE_PATH_TEST = 'filter(lambda x: "test" not in x, libraries)'
_NAME_TEST = 'filter(lambda x: "test" not in os.path.basename(x), libraries)'


def _import_wheel_loader():
    """Import the wheel's ns3.ns (which loads ns-3) with the test-library filter applied to the
    library's file name; a wheel without that line is imported as it is."""
    import importlib.util

    if "ns3.ns" in sys.modules:
        return
    spec = importlib.util.find_spec("ns3.ns")
    if spec is None or spec.origin is None:
        return  # the plain import says what is missing
    source = Path(spec.origin).read_text()
    if _WHOLE_PATH_TEST not in source:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["ns3.ns"] = module
    try:
        exec(compile(source.replace(_WHOLE_PATH_TEST, _NAME_TEST), spec.origin, "exec"),
             module.__dict__)
    except BaseException:
        del sys.modules["ns3.ns"]
        raise
    sys.modules["ns"] = module


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
            _import_wheel_loader()
            from ns import ns  # noqa: F401  (the wheel's loader)
            import cppyy
        finally:
            os.chdir(cwd)
        cppyy.add_include_path(str(include))
        cppyy.load_library(str(lib))
        cppyy.include("ns3/testbed-module.h")
    _ns = ns
    return ns
