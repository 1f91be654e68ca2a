"""Property-based tests of the campaign's contract (hypothesis): whatever a user types or a file
holds, the command line and the Python API end with exit status 0, 1 or 2 (2: one line naming
the problem), never a traceback; write nothing outside --out; and never change or trust a
finished record that differs from what its program wrote.

Stand-in programs (Python scripts answering --describe and --check as the module's programs
do) take the place of simulations. Each property has a budget (max_examples, no per-example
deadline: a campaign's first example starts Dask); the whole file runs in well under a minute
on two cores. HYPOTHESIS_PROFILE=explore runs many more examples, with new random ones each
time; the default profile ("ci") is derandomized, so a CI run is repeatable."""

import contextlib
import io
import json
import os
import stat
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import testbed.build
import testbed.outputs
import testbed.records

ROOT = Path(__file__).resolve().parents[3]

_COMMON = dict(deadline=None, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.function_scoped_fixture,
                                      HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("ci", derandomize=True, **_COMMON)
settings.register_profile("explore", max_examples=2000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def budget(n):
    """n examples in CI; the explore profile's own count otherwise."""
    return settings(max_examples=n if settings().max_examples != 2000 else 2000)


# ---------------------------------------------------------------------------------------------
# Stand-in programs

_OPTIONS = [
    {"name": "x", "type": "uint", "default": 0, "help": "x", "min": 0, "max": 1000},
    {"name": "delay", "type": "time", "default": "0s", "help": "a delay"},
    {"name": "rate", "type": "rate", "default": "1Mbps", "help": "a rate"},
    {"name": "label", "type": "string", "default": "", "help": "a label"},
    {"name": "pcap", "type": "string", "default": "", "help": "capture prefix",
     "output_prefix": True},
]
_FIELDS = [{"name": "y", "type": "real", "help": "x squared", "always": True},
           {"name": "n", "type": "int", "help": "x", "always": True},
           {"name": "rate_bps", "type": "real", "help": "the rate echoed", "always": False}]


def _write_program(bindir: Path, name: str = "square") -> Path:
    """A stand-in: y = x*x, n = x; --check refuses x > 1000 (exit 2, one line) as a module
    program does; a pcap prefix gets a file <prefix>.pcap, written where the prefix says."""
    prog = bindir / name
    desc = {"program": name, "description": "x squared", "options": _OPTIONS,
            "fields": _FIELDS, "check_batch": True}
    prog.write_text(f"""#!/usr/bin/env python3
import json, sys
if sys.argv[1:] == ["--describe"]:
    print(json.dumps({desc!r}))
    sys.exit(0)

def problem(argv):
    args = {{}}
    for a in argv:
        if a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            args[k] = v
    x = args.get("x", "0")
    if not x.isdigit() or int(x) > 1000:
        return args, f"error: --x={{x!r}}: not a whole number 0..1000"
    return args, None

if sys.argv[1:] == ["--checkBatch"]:  # one set of options a line: 0, or 2 and the message
    for line in sys.stdin:
        why = problem(line.rstrip("\\n").split("\\t"))[1]
        print("0" if why is None else "2 " + why)
    sys.exit(0)
args, why = problem(sys.argv[1:])
if why is not None:
    print(why, file=sys.stderr)
    sys.exit(2)
if "--check" in sys.argv:
    sys.exit(0)
x = args.get("x", "0")
if args.get("pcap"):
    open(args["pcap"] + ".pcap", "w").close()
json.dump({{"y": float(x) ** 2, "n": int(x)}}, open(args["output"], "w"))
""")
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    return prog


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A working folder with build/examples/square; the campaign looks there."""
    from testbed import sweeps

    bindir = tmp_path / "build" / "examples"
    bindir.mkdir(parents=True)
    _write_program(bindir)
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", bindir)
    monkeypatch.delenv("TESTBED_PROGRAMS_DIR", raising=False)
    sweeps._describe_exe.cache_clear()
    testbed.build._FIELDS.clear()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    yield work
    sweeps._describe_exe.cache_clear()
    testbed.build._FIELDS.clear()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and not p.name.startswith(".lock")}


# ---------------------------------------------------------------------------------------------
# The command line: sweep arguments

_VALUE = st.one_of(
    st.integers(-5, 1200).map(str),
    st.sampled_from(["", " ", ",", ":", "1:3:1", "0:2000:1", "log:1:100:3", "1e400", "nan",
                     "inf", "-1", "1.5", "0x10", "1ms", "0.001s", "1Mbps", "1000kbps", "5 bps",
                     "1parsec", "..", "../..", "/dev/null/x", "a\tb", "a\nb", "\x00", "é", "ü,ü"]),
    st.text(string.printable, max_size=12),
)
_NAME = st.sampled_from(["x", "delay", "rate", "label", "pcap", "output", "RngRun", "RngSeed",
                         "nope", "", "ns3::Foo::Bar", "x "])
_PARAM = st.builds(lambda n, vs, eq: n + ("=" if eq else "") + ",".join(vs),
                   _NAME, st.lists(_VALUE, min_size=1, max_size=3), st.booleans())
_OTHER = st.sampled_from([[], ["--reps", "2"], ["--reps", "0"], ["--reps", "x"],
                          ["--jobs", "1"], ["--jobs", "-2"], ["--max-points", "3"],
                          ["--plot", "y", "--x", "x"], ["--plot", "n"], ["--logy"],
                          ["--scheduler", "inproc://nowhere"], ["--scheduler", "tcp://"],
                          ["--describe"]])
_PROGRAM = st.sampled_from(["square", "square", "square", "", ".", "..", "/bin/true",
                            "../examples/square", "nosuch", "CMakeFiles"])


def _cli(argv) -> tuple[int, str]:
    """python -m testbed.cli ARGV in this process: (exit status, its output); an exception
    propagates (a traceback is a failure of the contract)."""
    from testbed import cli

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            rc = cli.main(argv)
        except SystemExit as e:  # argparse
            rc = e.code
    return rc, buf.getvalue()


def _contract(rc, text):
    assert rc in (0, 1, 2), (rc, text[-2000:])
    assert "Traceback" not in text, text[-2000:]
    if rc == 2:
        errors = [ln for ln in text.splitlines() if "error:" in ln]
        assert len(errors) == 1 and len(errors[0]) > len("error: "), text[-2000:]


@budget(30)
@given(program=_PROGRAM, params=st.lists(_PARAM, max_size=3), other=_OTHER)
def test_sweep_command_line_contract(sandbox, program, params, other):
    (sandbox.parent / "build" / "examples" / "CMakeFiles").mkdir(exist_ok=True)
    out = sandbox / "out"
    before_out = {k: v for k, v in _files(out).items() if "/points/" in "/" + k} \
        if out.exists() else {}
    outside = _files(sandbox.parent / "build")
    argv = ["sweep", program, "--out", str(out), "--no-progress", "--jobs", "1"]
    for p in params:
        argv += ["--param", p]
    rc, text = _cli(argv + other)
    _contract(rc, text)
    # nothing outside --out (the working folder holds only out/), no program changed
    assert {p.name for p in sandbox.iterdir()} <= {"out"}, list(sandbox.iterdir())
    assert _files(sandbox.parent / "build") == outside
    # a finished record is never changed
    after = _files(out) if out.exists() else {}
    for k, v in before_out.items():
        if k.endswith(".json") and not k.rsplit("/", 1)[-1].startswith("."):
            assert after.get(k) == v, k


# ---------------------------------------------------------------------------------------------
# The Python API: arguments of any type

_ANY = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True),
                 st.text(max_size=5), st.binary(max_size=3), st.lists(st.integers(0, 3),
                                                                      max_size=2),
                 st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))


@budget(40)
@given(program=st.one_of(st.just("square"), _ANY), grid=st.one_of(
    st.just({"x": [1]}), _ANY,
    st.dictionaries(st.one_of(_NAME, _ANY), st.one_of(_VALUE, _ANY, st.lists(_ANY, max_size=2)),
                    max_size=2)),
    reps=st.one_of(st.just(1), _ANY), jobs=st.one_of(st.just(1), _ANY),
    out=st.one_of(st.just("OUT"), _ANY))
def test_sweep_api_contract(sandbox, monkeypatch, program, grid, reps, jobs, out):
    """testbed.sweep() returns rows or raises TypeError / ValueError (SweepError) / a
    CampaignError (failed points): never an AttributeError, KeyError, ... from inside. The
    grid's checks are the real ones; the points are computed by a stand-in of run_points (the
    campaign's own properties are below), so that the property runs at many examples a
    second."""
    import tempfile

    import testbed
    from testbed import sweeps
    from testbed.campaign import CampaignError

    def fake_run_points(program, points, reps, out, *a, **k):
        testbed.outputs.check_out(Path(out))
        (Path(out) / "points").mkdir(parents=True, exist_ok=True)
        return [{**p, "RngRun": 1 + r, "y": 1.0, "n": 1} for p in points for r in range(reps)]

    monkeypatch.setattr(sweeps, "run_points", fake_run_points)
    sandbox = Path(tempfile.mkdtemp(dir=sandbox))  # this example's own working folder
    monkeypatch.chdir(sandbox)
    if out == "OUT":
        out = sandbox / "out"
    try:
        testbed.sweep(program, grid, reps=reps, jobs=jobs, out=out, frame=False)
    except (TypeError, ValueError, CampaignError) as e:
        # the message names the argument (or the grid's parameter) at fault
        words = ("program", "grid", "reps", "jobs", "out", "scheduler", "--param", "max_points")
        assert any(w in str(e) for w in words), (type(e), str(e))
    # every file written is inside out (or the default results/sweep-PROGRAM)
    homes = [sandbox / "results"]
    if isinstance(out, (str, os.PathLike)):
        try:
            homes.append(Path(out).resolve())
        except (ValueError, OSError):
            pass
    for f in sandbox.rglob("*"):
        if f.is_file():
            assert any(f.resolve().is_relative_to(h) for h in homes), (f, out)


# ---------------------------------------------------------------------------------------------
# Files: measured CSVs and fact tables

_CELL = st.one_of(st.integers(-2, 1200).map(str),
                  st.sampled_from(["", "1e400", "inf", "nan", "1ms", "2Mbps", "x", '"', "#"]),
                  st.text(string.printable, max_size=6))
_HEADER = st.lists(st.sampled_from(["x", "y", "n", "delay", "delay_ms", "rate_bps", "label",
                                    "validation_role", "calibrated_parameter", "zz", ""]),
                   min_size=0, max_size=4)


@st.composite
def _csv_bytes(draw):
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return draw(st.binary(max_size=200))
    if kind == 1:  # near a valid table: x, y and numbers, with now and then a cell too many
        # or too few, or a number beyond a double
        num = st.one_of(st.integers(0, 20).map(str), st.sampled_from(["1e400", "-1e400", "",
                                                                      "2.5"]))
        rows = draw(st.lists(st.lists(num, min_size=1, max_size=3), min_size=1, max_size=4))
        return ("x,y\n" + "".join(",".join(r) + "\n" for r in rows)).encode()
    head = draw(_HEADER)
    rows = draw(st.lists(st.lists(_CELL, min_size=0, max_size=len(head) + 1), max_size=4))
    text = ",".join(head) + "\n" + "".join(",".join(r) + "\n" for r in rows)
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text.encode("utf-8", "surrogatepass")


@budget(200)
@given(data=_csv_bytes())
def test_measured_file_contract(sandbox, monkeypatch, data):
    """validate(PROGRAM, FILE): a table or a SweepError (exit 2), whatever the file holds. The
    points themselves are computed by a stand-in of run_points (y = x * x), so that the
    property is about reading and comparing, at hundreds of files a second."""
    from testbed import sweeps

    def fake_run_points(program, points, reps, out, *a, **k):
        sweeps.describe(program)
        return [{**p, "RngRun": 1 + r, "y": float(p.get("x", 0)) ** 2,
                 "n": int(p.get("x", 0))} for p in points for r in range(reps)]

    monkeypatch.setattr(sweeps, "run_points", fake_run_points)
    f = sandbox / "m.csv"
    f.write_bytes(data)
    try:
        table = sweeps.validate("square", f, out=sandbox / "out", frame=False)
    except sweeps.SweepError as e:
        assert str(e).strip() and "\n" not in str(e).strip(), str(e)
        return
    # nothing dropped: a compared value for every non-empty measured cell of every row
    import csv

    text = data.decode("utf-8-sig")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    body = list(csv.reader(lines))
    head = [c.strip() for c in body[0]]
    cells = sum(1 for row in body[1:] for c, v in zip(head, row) if c in ("y", "n")
                and v.strip())
    assert len(table) == cells, (len(table), cells)
    assert all(len(row) == len(head) for row in body[1:]), "a row's extra or missing cells"
    for r in table:
        assert r["field"] in ("y", "n")
        assert isinstance(r["measured"], float)
        assert r["measured"] == r["measured"] and abs(r["measured"]) != float("inf")


@budget(100)
@given(data=_csv_bytes())
def test_fact_table_contract(tmp_path_factory, data):
    """read_facts: rows with the fact table's columns and finite numbers, or a FactTableError in
    one line."""
    import math

    from testbed.validation import FACT_COLUMNS, FactTableError, read_facts

    f = tmp_path_factory.mktemp("facts") / "f.csv"
    head = b"experiment,metric,value\n"
    for content in (data, head + data.split(b"\n", 1)[-1]):
        f.write_bytes(content)
        try:
            rows = read_facts(f)
        except FactTableError as e:
            assert str(e).strip() and "\n" not in str(e).strip(), str(e)
            continue
        for r in rows:
            assert all(c in r for c in FACT_COLUMNS)
            assert isinstance(r["value"], (int, float)) and math.isfinite(r["value"])


# ---------------------------------------------------------------------------------------------
# Stored records: an edit is never trusted

_JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                               st.text(max_size=4)),
                     lambda kids: st.one_of(st.lists(kids, max_size=3),
                                            st.dictionaries(st.text(max_size=4), kids,
                                                            max_size=3)),
                     max_leaves=8)


@st.composite
def _edit(draw, record):
    """A change somewhere in a record: a value replaced, a key removed or added, at any depth."""
    rec = json.loads(json.dumps(record))
    node = rec
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        k = draw(st.sampled_from(keys))
        child = node[k]
        if isinstance(child, (dict, list)) and child and draw(st.booleans()):
            node = child
            continue
        what = draw(st.sampled_from(["replace", "remove", "add"]))
        if what == "replace":
            node[k] = draw(_JSON)
        elif what == "remove":
            del node[k]
        elif isinstance(node, dict):
            node[draw(st.text(min_size=1, max_size=4))] = draw(_JSON)
        else:
            node.append(draw(_JSON))
        break
    return rec


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished campaign of the stand-in (points x = 0, 1, 2): its folder, the build identity
    and the record of x = 1 as the campaign wrote it."""
    from testbed import campaign
    from testbed.experiment import Analysis, Experiment

    base = tmp_path_factory.mktemp("finished")
    bindir = base / "build" / "examples"
    bindir.mkdir(parents=True)
    _write_program(bindir)
    old = testbed.build.EXAMPLES_DIR
    testbed.build.EXAMPLES_DIR = bindir
    testbed.build._FIELDS.clear()
    try:
        exp = Experiment(id="sq", study="T", title="t", program="square",
                         points=lambda scale: [{"x": i} for i in range(3)],
                         analyse=lambda records: Analysis([], {}))
        res = campaign.run_campaign([exp], "quick", 1, base / "out", log=lambda m: None,
                                    progress=False)
        assert not isinstance(res["sq"], Exception), res["sq"]
        build = testbed.build.build_identity("square")
        options = testbed.build.describe_options("square")
        fields = testbed.build.declared_fields("square")
    finally:
        testbed.build.EXAMPLES_DIR = old
        testbed.build._FIELDS.clear()
    path = base / "out" / "sq" / "points" / f"{testbed.records.point_key({'x': 1})}.json"
    return path, build, options, fields, json.loads(path.read_text())


@budget(100)
@given(data=st.data())
def test_an_edited_record_is_never_reused(finished, tmp_path_factory, monkeypatch, data):
    """A stored record that differs from what its program wrote (any value, key or nesting
    changed; the "experiment" it is filed under aside) is never returned as the point's
    record; an unchanged one is."""
    path, build, options, fields, record = finished
    monkeypatch.setitem(testbed.build._FIELDS, "square", fields)
    inputs = testbed.build.point_inputs(options, {"x": 1})
    edited = data.draw(_edit(record))
    f = tmp_path_factory.mktemp("rec") / path.name
    f.write_text(json.dumps(edited))
    rec = testbed.records.load_point(f, {"x": 1}, "square", {**build, "inputs": inputs}, inputs)
    def canon(r):  # 1 and 1.0, True and 1 are different records
        return json.dumps({k: v for k, v in r.items() if k != "experiment"}, sort_keys=True)

    same = canon(edited) == canon(record)
    if same:
        assert rec is not None and rec.result == record["result"]
    else:
        assert rec is None, (edited, record)


_RAW = st.one_of(st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
                 st.sampled_from(["[" * 100000, '{"a":' * 50000 + "1" + "}" * 50000, "NaN",
                                  '{"params": {"x": 1}, "program": "square", "result": '
                                  '{"y": Infinity, "n": 1}}',
                                  '{"params": {"x": 1}, "program": "square", "result": '
                                  '{"y": 1e400, "n": 1}}']))


@budget(2)
@given(text=_RAW)
@example(text="[" * 100000 + "]" * 100000)  # beyond the parser's recursion limit
@example(text='{"params": {"x": 1}, "program": "square", "result": {"y": 1e400, "n": 1}}')
def test_a_damaged_record_is_computed_again(sandbox, text):
    """Whatever the record file of a point holds, the campaign computes the point again (the
    program's value, no exception) and leaves the other points' records as they were."""
    from testbed import campaign
    from testbed.experiment import Analysis, Experiment

    exp = Experiment(id="sq", study="T", title="t", program="square",
                     points=lambda scale: [{"x": i} for i in range(3)],
                     analyse=lambda records: Analysis([], {}))
    out = sandbox / "out"
    path = out / "sq" / "points" / f"{testbed.records.point_key({'x': 1})}.json"
    if not out.exists():  # the first example: a finished campaign (later ones resume it)
        campaign.run_campaign([exp], "quick", 1, out, log=lambda m: None, progress=False)
    others = {p: p.read_bytes() for p in path.parent.glob("*.json") if p != path}
    path.write_text(text, encoding="latin-1")
    res = campaign.run_campaign([exp], "quick", 1, out, log=lambda m: None, progress=False)
    assert not isinstance(res["sq"], Exception), res["sq"]
    assert [r.result["y"] for r in res["sq"]] == [0.0, 1.0, 4.0]
    assert {p: p.read_bytes() for p in others} == others
