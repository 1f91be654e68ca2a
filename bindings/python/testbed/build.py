"""The build a campaign runs: where its programs are, and the identity of the build that made a
record.

The folders come from the environment: ROOT (TESTBED_ROOT, or the checkout three levels above
this package), BUILD_DIR (TESTBED_BUILD_DIR, or ROOT/build), its examples/ and scratch/. A program
is found by name (program_path). A build's identity (build_identity) hashes the program binary,
the module library it loads and the ns-3 version: what decides a program's output, and what a
stored record must carry to be reused. A program's ``--describe`` gives its options
(describe_options, resolve_params) and its result fields (declared_fields).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from pathlib import Path

#: Repository root (TESTBED_ROOT, or three levels above this file).
ROOT = Path(os.environ.get("TESTBED_ROOT", Path(__file__).resolve().parents[3]))
#: Build directory (TESTBED_BUILD_DIR, or ROOT/build).
BUILD_DIR = Path(os.environ.get("TESTBED_BUILD_DIR", ROOT / "build"))
#: Where the experiment programs are built.
EXAMPLES_DIR = BUILD_DIR / "examples"
#: Where a user's programs (scratch/NAME.cc, scratch/NAME/) are built.
SCRATCH_DIR = BUILD_DIR / "scratch"

# --------------------------------------------------------------------------------------------
# Programs


def _ns3_tree_programs(name: str) -> list[Path]:
    """Programs named ns3.<version>-<name>-<profile> of an in-tree build (contrib/testbed)."""
    trees = []
    if os.environ.get("TESTBED_NS3_TREE"):
        trees.append(Path(os.environ["TESTBED_NS3_TREE"]))
    # This checkout itself as contrib/testbed of an ns-3 tree.
    if ROOT.parent.name == "contrib":
        trees.append(ROOT.parent.parent)
    found = []
    for tree in trees:
        build = tree / "build"
        if build.is_dir():
            found.extend(p for p in build.rglob(f"ns3*-{name}-*")
                         if p.is_file() and os.access(p, os.X_OK)
                         and p.name.split("-", 1)[1].rsplit("-", 1)[0] == name)
    return sorted(found)


def program_path(program: str) -> Path:
    """Where a program is, by name: the standalone build's build/scratch/<program> (a user's
    scratch/<program>.cc or scratch/<program>/, as ./testbed run-program finds it), else its
    build/examples/<program>, else an in-tree build's ns3.<version>-<program>-<profile> (the tree
    in $TESTBED_NS3_TREE, or the one this checkout is contrib/testbed of). $TESTBED_PROGRAMS_DIR,
    when set, overrides all of these: the programs of that folder under their plain names."""
    if os.environ.get("TESTBED_PROGRAMS_DIR"):
        return Path(os.environ["TESTBED_PROGRAMS_DIR"]) / program
    for folder in (SCRATCH_DIR, EXAMPLES_DIR):
        if (folder / program).is_file():
            return folder / program
    standalone = EXAMPLES_DIR / program
    tree = _ns3_tree_programs(program)
    return tree[0] if tree else standalone


# --------------------------------------------------------------------------------------------
# Build identity and resolved parameters

_HASHES: dict[tuple, str] = {}


def _sha256(path: Path) -> str:
    """The file's SHA-256 (cached by path, size and modification time: a binary is read once per
    campaign however many points it runs)."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _HASHES:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _HASHES[key] = h.hexdigest()
    return _HASHES[key]


_LINKED: dict[tuple, list[Path]] = {}


def _linked_libraries(exe: Path) -> list[Path]:
    """The shared libraries the dynamic loader resolves for a program (``ldd``; none for a
    script or a static program; cached by path, size and modification time)."""
    st = exe.stat()
    key = (str(exe), st.st_size, st.st_mtime_ns)
    if key not in _LINKED:
        _LINKED[key] = _run_ldd(exe)
    return _LINKED[key]


def _run_ldd(exe: Path) -> list[Path]:
    try:
        r = subprocess.run(["ldd", str(exe)], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    libs = []
    for line in r.stdout.splitlines():
        name, arrow, rest = line.strip().partition(" => ")
        if arrow and rest.startswith("/"):
            libs.append(Path(rest.split(" (")[0]))
    return libs


def _ns3_version(libs: list[Path]) -> str | None:
    """ns-3's version from the core library a program loads (libns3.44-core.so -> 3.44; the
    wheel's own version, 3.44.post0, when the library is the ns3 wheel's)."""
    for lib in libs:
        m = re.match(r"libns(3[.\d]*(?:-dev)?)-core\b", lib.name)
        if not m:
            continue
        version = m.group(1)
        if "site-packages" in lib.parts or "dist-packages" in lib.parts:
            try:
                from importlib.metadata import version as dist_version

                wheel = dist_version("ns3")
                if wheel.startswith(version):
                    version = wheel
            except Exception:  # no wheel metadata: the library's own version
                pass
        return version
    return None


def git_describe() -> str | None:
    """``git describe --always --dirty`` of the checkout, or None outside one."""
    try:
        r = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() or None if r.returncode == 0 else None


def build_identity(program: str, git: str | None = None) -> dict:
    """The identity of the build that runs ``program``: SHA-256 of the program binary and of the
    module library it loads (the library whose name has "testbed"), the ns-3 version, and (for
    information) ``git describe --dirty``. ``id`` is a hash of the first three: what decides
    a program's output. A commit that changes no binary (documentation, Python analysis) keeps
    the id, so its stored points stay valid; any change to the model's code changes a binary."""
    exe = program_path(program)
    libs = _linked_libraries(exe)
    module = [lib for lib in libs if "testbed" in lib.name]
    ident = {
        "program_sha256": _sha256(exe),
        "module_libraries": {lib.name: _sha256(lib) for lib in module},
        "ns3": _ns3_version(libs),
    }
    canon = json.dumps(ident, sort_keys=True, separators=(",", ":"))
    return {"id": hashlib.sha256(canon.encode()).hexdigest()[:20], **ident,
            "program_path": str(exe),
            "module_library_paths": [str(lib) for lib in module], "git": git}


#: The fields of a build identity that decide a program's output (build_identity hashes them
#: into its id).
IDENTITY = ("id", "program_sha256", "module_libraries", "ns3")


def build_guard(build: dict) -> list[tuple[str, int, int]]:
    """(path, size, mtime) of the binaries a build identity hashed: a worker checks them before
    and after a run, so that a rebuild during the campaign cannot give a record the old
    identity (a stat, not a hash, per point)."""
    out = []
    for path in [build["program_path"], *build["module_library_paths"]]:
        st = os.stat(path)
        out.append((path, st.st_size, st.st_mtime_ns))
    return out


def guard_holds(guard) -> bool:
    for path, size, mtime in guard or []:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (size, mtime):
            return False
    return True


def describe_options(program: str) -> list[dict] | None:
    """The program's options from its ``--describe`` (None when it has none)."""
    exe = program_path(program)
    try:
        r = subprocess.run([str(exe), "--describe"], capture_output=True, text=True, timeout=60)
        if r.returncode == 0:
            return json.loads(r.stdout).get("options")
    except (OSError, ValueError, subprocess.TimeoutExpired):
        pass
    return None


def resolve_params(options: list[dict] | None, params: dict) -> dict:
    """Every parameter of a run: the program's defaults (its ``--describe``), ns-3's RngSeed and
    RngRun (1), and the point's own values over them."""
    out = {o["name"]: o.get("default") for o in options or []}
    out.update({"RngSeed": 1, "RngRun": 1})
    out.update(params)
    return dict(sorted(out.items()))


def point_inputs(options: list[dict] | None, params: dict) -> dict:
    """SHA-256 of the files a point reads (a text option naming an existing file: --profileFile,
    --sheet, ...), part of the point's identity: an edited input file makes the point stale."""
    kinds = {o["name"]: o.get("type") for o in options or []}
    out = {}
    for name, value in params.items():
        if isinstance(value, str) and kinds.get(name, "string") == "string" \
                and value and os.path.isfile(value):
            out[name] = _sha256(Path(value).resolve())
    return out


_FIELDS: dict[str, dict[str, dict] | None] = {}


def declared_fields(program: str) -> dict[str, dict] | None:
    """{field: its --describe entry ("type", "always", ...)} of a program's result record (None
    if unavailable)."""
    if program not in _FIELDS:
        try:
            r = subprocess.run([str(program_path(program)), "--describe"], capture_output=True,
                               text=True, timeout=60)
            _FIELDS[program] = {f["name"]: f for f in json.loads(r.stdout)["fields"]}
        except (OSError, ValueError, KeyError, TypeError, subprocess.SubprocessError):
            _FIELDS[program] = None
    return _FIELDS[program]
