"""A mega-scale run split by sets over processes gives the whole run's record.

Without the querier the [MEGA06] sets of scaling method A share nothing (no general query, no
router port; doc/mega.rst, "An exact split over processes"), so each part simulates its own
sets' applications on the whole network (every PC, port and random stream as in the whole run)
and the merge of the parts' files must reproduce the whole run's record bit for bit, ``events``
included (each part leaves out the exchange's events, and the merge the idle network's events
that every part ran).

With the querier the two parts exchange the frames that cross the querier's router port (part 1's
admissions to part 0, the querier's queries to part 1) with conservative synchronisation
(doc/mega.rst, the same section): the same comparison holds, over a run with several
general queries. The campaign runs the parts as Dask tasks (testbed.mega_split.run_point): the
quick points of mega-scale and mega-cat6009 (the 6009's trunk included) give their unsplit
records."""

import json
import math
import os
import struct
import subprocess

import pytest

from testbed import EXAMPLES_DIR, mega_split

PROGRAM = str(EXAMPLES_DIR / "mega-scale")
# 10 sets of 4 PCs x 50 nodes, 10 receivers, 20 s simulated (1.6 s start-up, 18.4 s window).
COMMON = ["--senderPcs=40", "--sendersPerGroup=4", "--nodesPerPc=50", "--receivers=10",
          "--querier=false", "--warmup=1.6", "--duration=18.4"]


def _run(*args):
    return subprocess.run([PROGRAM, *COMMON, *args], capture_output=True, text=True,
                          timeout=900)


def _whole(tmp_path):
    out = tmp_path / "whole.json"
    r = _run(f"--output={out}")
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text())


def _parts(tmp_path, n):
    files = []
    for k in range(n):
        f = tmp_path / f"part{k}of{n}"
        r = _run(f"--parts={n}", f"--part={k}", f"--partOut={f}")
        assert r.returncode == 0, r.stderr
        files.append(f)
    return files


def _merge(tmp_path, files, name="merged.json"):
    out = tmp_path / name
    r = _run("--merge=" + ",".join(str(f) for f in files), f"--output={out}")
    return r, (json.loads(out.read_text()) if r.returncode == 0 else None)


def _result(rec):
    return rec.get("result", rec)


def _same(whole, merged):
    a, b = dict(_result(whole)), dict(_result(merged))
    # Exact: the JSON numbers are the doubles' shortest round-trip text.
    assert a == b
    return a


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("split")
    return tmp, _whole(tmp), _parts(tmp, 2)


def test_two_parts_give_the_whole_record(runs):
    tmp, whole, files = runs
    _, merged = _merge(tmp, files)
    rec = _same(whole, merged)
    # Not a vacuous comparison: every set sent and every receiver measured intervals.
    assert rec["sent"] > 40 * 50 * 17 and rec["send_intervals"] > 0
    assert rec["sara_intervals"] > 0 and len(rec["receiver_drop_rate"]) == 10


# A part file's per-node moments (SaraTable::NodeMoments as bytes): nodeId, packets, drops,
# reordered, intervals, sendMean, sendStd, recvMean, recvStd, count, sendMean, recvMean,
# sendVar, recvVar.
MOMENT = struct.Struct("<I4xQQQQddddddddd")


def _moments(path):
    data = path.read_bytes()
    i = data.index(b"\nmoments ") + 1
    j = data.index(b"\n", i)
    n = int(data[i + len(b"moments "):j])
    body = data[j + 1:]
    assert len(body) == n * MOMENT.size
    return [MOMENT.unpack_from(body, k * MOMENT.size) for k in range(n)]


def _pooled_send(nodes):
    """The senders' pooled mean and deviation (us), by hand: the law of total variance over
    the nodes, two passes in the given order (as SaraTable::Summarize)."""
    n = sum(m[4] for m in nodes)
    total = 0.0
    for m in nodes:
        if m[9] > 0:
            total += m[9] * m[10]
    mean = total / n
    var = 0.0
    for m in nodes:
        if m[9] > 0:
            d = m[10] - mean
            var += m[9] * (m[12] + d * d)
    return n, mean * 1e6, math.sqrt(max(0.0, var / n)) * 1e6


def test_the_pooled_statistics_need_the_order_of_the_ids(runs):
    """Recomputed independently from the parts' per-node moments in the order of the node ids,
    the senders' pooled statistics are the whole run's bit for bit; in the parts' reverse
    order the floating-point sums give other bits, so a merge that broke the order would fail
    the comparisons above."""
    _, whole, files = runs
    w = _result(whole)
    a, b = _moments(files[0]), _moments(files[1])
    assert b[-1][0] < a[0][0]  # part 1 holds the lower node ids (part 0 the last sets)
    expected = (w["send_intervals"], w["send_interval_mean_us"], w["send_interval_std_us"])
    assert _pooled_send(b + a) == expected
    assert _pooled_send(a + b) != expected


def test_the_merge_orders_the_parts_itself(runs):
    tmp, whole, files = runs
    _, merged = _merge(tmp, list(reversed(files)), "reversed.json")
    _same(whole, merged)


def test_three_unequal_parts_at_once_give_the_whole_record(runs, tmp_path):
    """The driver runs the parts as processes at the same time (3 + 3 + 4 sets)."""
    _, whole, _ = runs
    merged = mega_split.run(COMMON, parts=3, workdir=tmp_path, output=tmp_path / "m3.json")
    _same(whole, merged)


def test_incomplete_or_doubled_parts_are_refused(runs):
    tmp, _, files = runs
    for bad in ([files[0]], [files[0], files[0]], [files[1], files[1]]):
        r, _ = _merge(tmp, bad, "bad.json")
        assert r.returncode == 2 and "--merge" in r.stderr


def test_a_split_needs_independent_sets():
    for args, word in ((["--parts=2", "--part=0", "--partOut=x", "--querier=true"], "--peer"),
                       (["--parts=3", "--part=0", "--partOut=x", "--querier=true"], "2 parts"),
                       (["--parts=2", "--part=0", "--partOut=x", "--peer=0,1"], "--peer"),
                       (["--parts=2", "--part=2", "--partOut=x"], "--part"),
                       (["--parts=11", "--part=0", "--partOut=x"], "--parts"),
                       (["--parts=2", "--part=0"], "--partOut")):
        r = _run(*args)
        assert r.returncode == 2 and word in r.stderr


def test_a_flooded_set_fails_its_part(tmp_path):
    """A set without a receiver has no member port for its group, so the snooping switch floods
    its data onto every PC, the other sets' too: the part that runs it (part 0, the last set)
    must not write a file."""
    args = ["--senderPcs=8", "--sendersPerGroup=4", "--nodesPerPc=20", "--receivers=1",
            "--querier=false", "--warmup=1.6", "--duration=1", "--parts=2", "--part=0",
            f"--partOut={tmp_path / 'p1'}"]
    r = subprocess.run([PROGRAM, *args], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "cannot be split exactly" in r.stderr
    assert not (tmp_path / "p1").exists()
    with pytest.raises(mega_split.SplitError, match="part 0: exit 1"):
        mega_split.run(args[:-3], parts=2, workdir=tmp_path, output=tmp_path / "r.json")
    assert not (tmp_path / "r.json").exists()


# The test: 10 sets of 4 PCs x 50 nodes, 10 receivers, the querier (NIC at 100
# interrupts/s), 20 s simulated, IGMP timers x 0.04 (Query Interval 5 s: general queries due at
# 6.25, 11.25 and 16.25 s in the window, RFC 2236's startup and periodic intervals scaled).
# --digest records a hash of every frame the router port took, in order, with its time: the
# order of same-time admissions (the receivers' reports to one join time tie at the same
# nanosecond) is part of the comparison.
COMMON_Q = ["--senderPcs=40", "--sendersPerGroup=4", "--nodesPerPc=50", "--receivers=10",
            "--querier=true", "--igmpTimeScale=0.04", "--warmup=1.6", "--duration=18.4",
            "--digest=true"]


def _whole_q(tmp, *extra):
    out = tmp / ("whole%s.json" % "".join(extra).replace(":", "_"))
    r = subprocess.run([PROGRAM, *COMMON_Q, *extra, f"--output={out}"], capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def querier_runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("split-querier")
    return tmp, _whole_q(tmp)


def test_two_parts_with_the_querier_give_the_whole_record(querier_runs):
    """Several general queries reach every PC, the receivers answer them and their reports and
    the sets' data cross the querier's router port: the merged record is the whole run's,
    ``events`` included."""
    tmp, whole = querier_runs
    merged = mega_split.run(COMMON_Q, parts=2, workdir=tmp / "q", output=tmp / "q.json",
                            timeout=900)
    rec = _same(whole, merged)
    # Not vacuous: the queries fell due and went out (Query Interval 5 s over an 18.4 s window),
    # the querier received the sets' data (its router port), every receiver measured.
    assert rec["queries_due"] >= 3 and rec["queries_on_time"] >= 3
    assert rec["querier_rx_pps"] > 40 * 50 * 0.5
    assert rec["sara_intervals"] > 0 and len(rec["receiver_drop_rate"]) == 10
    assert len(rec["router_port_digest"]) == 16


@pytest.mark.parametrize("sets0", [3, 7])
def test_unequal_parts_with_the_querier_give_the_whole_record(querier_runs, sets0):
    """Part 0 (the querier's) with fewer or more sets than its even share of the 10: the merged
    record is still the whole run's, ``events`` and the router port's digest included."""
    tmp, whole = querier_runs
    merged = mega_split.run(COMMON_Q, parts=2, workdir=tmp / f"q{sets0}",
                            output=tmp / f"q{sets0}.json", timeout=900, sets0=sets0)
    _same(whole, merged)


def test_the_querier_split_balances_the_parts_by_the_cost_model():
    """By hand: 1.1 f0 + 0.08 = 1.1 (1 - f0) gives f0 = 0.4636, 23.2 of 50 sets: 23; part 0
    keeps every set whose receiver is on the 6009 (32 sets, 16 receivers there: 16); one set
    at least on either side."""
    p = {"senderPcs": 200, "sendersPerGroup": 4, "receivers": 50, "querier": True}
    assert mega_split.part0_sets(p) == 23
    q = {"senderPcs": 128, "sendersPerGroup": 4, "receivers": 32, "querier": True}
    assert mega_split.part0_sets(q) == 15
    assert mega_split.part0_sets({**q, "receiversOn6009": 16}) == 16
    assert mega_split.part0_sets({**q, "receiversOn6009": 31}) == 31
    assert mega_split.part0_sets({**q, "senderPcs": 8, "receivers": 2}) == 1


def test_bad_part0_sets_are_refused():
    for extra, word in ((["--part0Sets=10"], "every other part"),
                        (["--receiversOn6009=4", "--part0Sets=3"], "6009"),
                        (["--part0Sets=3"], "--parts > 1")):
        parts = [] if "--parts > 1" == word else ["--parts=2", "--part=1", "--partOut=x",
                                                 "--querier=false"]
        r = subprocess.run([PROGRAM, *COMMON[:4], *parts, *extra, "--check"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode != 0 and word in r.stderr, (extra, r.stderr)


def _peer_pipes():
    a_to_b, b_to_a = os.pipe(), os.pipe()
    return a_to_b, b_to_a


@pytest.mark.parametrize("part", [0, 1])
def test_a_part_whose_peer_ended_fails(tmp_path, part):
    """The other part ended (its pipe ends are closed): this part stops with an error, exit 1,
    and writes no file; it does not wait for ever."""
    a_to_b, b_to_a = _peer_pipes()
    mine = (b_to_a[0], a_to_b[1]) if part == 0 else (a_to_b[0], b_to_a[1])
    out = tmp_path / "p"
    p = subprocess.Popen([PROGRAM, *COMMON_Q, "--parts=2", f"--part={part}", f"--partOut={out}",
                          f"--peer={mine[0]},{mine[1]}"], pass_fds=mine,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for fd in (*a_to_b, *b_to_a):
        os.close(fd)
    _, err = p.communicate(timeout=300)
    assert p.returncode == 1 and "other part" in err
    assert not out.exists()
