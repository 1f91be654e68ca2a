"""System checks of the MEGA06 programs (mega-flooding, mega-querier, mega-multiplex,
mega-scale) against expectations
derived by hand: tick arithmetic, the snooping forwarding rule, Poisson counts, the IGMP
membership interval."""

import math
import subprocess

import pytest

import testbed.experiment
import testbed.points
import testbed.records
from testbed import EXAMPLES_DIR
from programs import run_program as _run

TICK_US = 4000.0  # Linux 2.6.13 HZ=250
SLEEP_TICKS = 252  # sleep(1) from after the send: first tick at or after the expiry, plus one


def test_send_interval_mean_is_252_jiffies(tmp_path):
    """Without load the mean send interval is 252 ticks = 1.008 s (the scheduling-latency
    differences average out): within 5 standard errors of the pooled mean."""
    r = _run("mega-flooding", tmp_path, nodesPerPc=300, loadPps=0, warmup=1.6, duration=4)
    n = r["send_intervals"]
    assert n >= 300 * 2  # 3 or 4 sends per node in 4 s
    se = r["send_interval_std_us"] / math.sqrt(n)
    assert abs(r["send_interval_mean_us"] - SLEEP_TICKS * TICK_US) <= 5 * se + 1e-6
    assert r["sender_rx_pps"] == 0 and r["sender_cpu_hardirq"] == 0


def test_snooping_keeps_the_load_off_the_senders(tmp_path):
    """With snooping the other group's load never reaches a sender port; without, every frame
    is flooded to it: a Poisson count of mean load * T (within 5 sigma)."""
    load, T = 20000.0, 1.0
    on = _run("mega-flooding", tmp_path, nodesPerPc=50, loadPps=load, snooping="true",
              warmup=1.6, duration=T)
    assert on["sender_rx_pps"] == 0
    off = _run("mega-flooding", tmp_path, nodesPerPc=50, loadPps=load, snooping="false",
               warmup=1.6, duration=T)
    assert abs(off["sender_rx_pps"] * T - load * T) <= 5 * math.sqrt(load * T)
    # The receiver's capture filter keeps only its group's packets.
    assert off["sara_filtered"] > 0 and off["sara_foreign"] == 0


def test_livelock_stops_the_senders(tmp_path):
    """A flood beyond the PC's receive capacity (legacy driver, no moderation) leaves no CPU
    to the send_udp processes: they send nothing and the CPU is all interrupt and softirq."""
    r = _run("mega-flooding", tmp_path, nodesPerPc=100, loadPps=300000, snooping="false",
             warmup=1.6, duration=0.3, loadLead=0.2)
    assert r["sent"] == 0
    assert r["sender_cpu_process"] == 0
    assert r["sender_cpu_hardirq"] + r["sender_cpu_softirq"] == pytest.approx(1.0, abs=1e-6)


def test_querier_livelock_and_moderation(tmp_path):
    """Unmoderated under 10^5 frames/s the querier sends no query under load; the receiver's
    membership expires exactly one Group Membership Interval after a report that came before
    the load; limited to 100 interrupts/s every query is on time and nothing expires."""
    common = dict(loadPps=100000, igmpTimeScale=0.01, durationGmi=1.3, nodesPerPc=50,
                  receivers=1)
    un = _run("mega-querier", tmp_path, querierItr=0, **common)
    assert un["queries_due_under_load"] >= 1
    assert un["queries_on_time_fraction"] == 0
    assert un["data_memberships_timed_out"] == 1
    gmi = un["gmi_s"]
    assert gmi == pytest.approx(2 * 1.25 + 0.1)  # Robustness 2 * QI + QRI, scaled by 0.01
    last_report = un["first_data_timeout_s"] - gmi
    assert 0 < last_report < un["load_start_s"]
    assert un["data_delivered_fraction_tail"] == 0
    mod = _run("mega-querier", tmp_path, querierItr=100, **common)
    assert mod["queries_on_time_fraction"] == 1
    assert mod["memberships_timed_out"] == 0
    assert mod["data_delivered_fraction_tail"] > 0.9


def test_bad_arguments_are_refused():
    for prog, arg, word in (("mega-flooding", "--loadPps=-1", "--loadPps"),
                            ("mega-flooding", "--warmup=1", "--warmup"),
                            ("mega-querier", "--igmpTimeScale=0.001", "--igmpTimeScale"),
                            ("mega-querier", "--querierItr=-5", "--querierItr"),
                            ("mega-scale", "--receiversOn6009=3", "--receiversOn6009"),
                            ("mega-scale", "--senderPcs=4 --receivers=2", "--receivers"),
                            ("mega-multiplex", "--nodes=0", "--nodes")):
        proc = subprocess.run([str(EXAMPLES_DIR / prog)] + arg.split(), capture_output=True,
                              text=True)
        assert proc.returncode == 2 and word in proc.stderr


def test_experiments_are_declared():
    exps = testbed.experiment.experiments()
    for exp_id in ("mega-flooding", "mega-querier", "mega-multiplex", "mega-receiver",
                   "mega-scale", "mega-cat6009"):
        exp = exps[exp_id]
        assert exp.study == "MEGA06"
        for scale in testbed.experiment.SCALES:
            pts = exp.points(scale)
            assert pts and len({testbed.records.point_key(p) for p in pts}) == len(pts)
    roles = {p["role"] for p in exps["mega-flooding"].points("quick")}
    assert roles == {"one-process", "receiver-20000", "sweep"}
    itrs = {p["querierItr"] for p in exps["mega-querier"].points("quick")}
    assert 0 in itrs and min(i for i in itrs if i > 0) == 100


def test_memory_caps_the_launch(tmp_path):
    """fork fails when the 512 MB hold no more process: (512 MB - 40 MB base) / 63 KB per
    process = 7 671.9, so 7 671 processes run (profile starbed-p3-linux2613)."""
    r = _run("mega-multiplex", tmp_path, nodes=9000, duration=0, seriesLength=1)
    assert r["launch_failed"] and r["launched"] == (512 * 2**20 - 40 * 2**20) // 64512
    assert r["memory_used_bytes"] <= 512 * 2**20
    # Each launch is at least 0.5 ms of the launcher's CPU.
    assert r["launch_duration_s"] >= 7671 * 0.5e-3


def test_refill_grows_with_the_process_count(tmp_path):
    """One process keeps its working set in the L2 (no refill); hundreds evict each other: every
    wake-up refills all 128 lines of 135 ns (17.28 us)."""
    one = _run("mega-multiplex", tmp_path, nodes=1, duration=3, seriesLength=1)
    many = _run("mega-multiplex", tmp_path, nodes=1000, duration=2, seriesLength=1)
    assert one["refill_us_per_wakeup"] == 0
    assert many["refill_us_per_wakeup"] == pytest.approx(128 * 0.135, rel=1e-9)


def test_sets_keep_their_groups(tmp_path):
    """Method A with two sets on two switches: each receiver gets its own set's nodes only (its
    group has its own MAC), through the trunk for the one on the 6009, without loss."""
    r = _run("mega-scale", tmp_path, senderPcs=8, sendersPerGroup=4, nodesPerPc=100,
             receivers=2, receiversOn6009=1, warmup=1.6, duration=2.1)
    # 400 nodes per set, one packet per node per second: about 2.1 s x 400 per receiver.
    assert r["sara_drops"] == 0 and r["receiver_lost"] == 0
    assert abs(r["sara_packets"] - 2 * 400 * 2.1) <= 2 * 400  # window edges: +-1 per node
    assert r["sara_packets"] <= r["sent"] + 2 * 400


def test_paper_scale_points_start_with_the_most_datagrams():
    """The mega-scale program's paper points carry a cost (the datagrams they send: one per
    virtual node per second over start-up and window), so the runner starts the 10^6-sender
    point first instead of last (longest processing time first: with --jobs 2 the other points
    share the second core while it runs)."""
    from testbed.experiments import mega06
    from testbed.experiment import get
    for exp_id in ("mega-scale", "mega-cat6009", "mega-receiver"):
        assert get(exp_id).cost is mega06.scale_cost
    exp = get("mega-scale")
    todo = [(exp, p) for p in exp.points("paper")]
    first = testbed.points._costliest_first(todo)[0][1]
    # 50 sets x 4 PCs x 5 000 nodes, 1.6 + 180 s: 1.816e8 datagrams.
    assert first["senderPcs"] == 200 and mega06.scale_cost(first) == pytest.approx(1.816e8)
    order = [p["senderPcs"] // 4 for _, p in testbed.points._costliest_first(todo)]
    assert order == [50, 25, 10, 5, 2, 1]
