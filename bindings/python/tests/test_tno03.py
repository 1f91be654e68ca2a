"""System checks of the TNO03 jitter program against hand-derived expectations."""

import pytest

from programs import run_program as _run

# The profiles' own numbers (model/host/host-profiles.cc): wake-up latency of a process on a
# shielded CPU, IRIX uniform 3-11 us; the busy-wait's clock read, 700 cycles at 700 MHz.
IRIX_WAKE_US = (3.0, 11.0)
CLOCK_READ_US = 700 / 700e6 * 1e6

QUIET = """
[host quiet-onyx]
base = onyx-irix65-250
HostCpu.ShieldedInterferenceRate = 0
[host quiet-ihawk]
base = ihawk-redhawk-700
HostCpu.ShieldedInterferenceRate = 0
"""


def _sched(tmp_path, profile, host, samples=2000):
    f = tmp_path / "quiet.txt"
    f.write_text(QUIET)
    return _run("tno-jitter", tmp_path, measure="sched", platform=profile, hostProfile=host,
                profileFile=f, samples=samples, RngRun=3)


def test_sleeping_task_error_is_the_wakeup_latency_without_sporadic_events(tmp_path):
    """A shielded CPU without sporadic events: the error of a sleep on a high-resolution timer is
    the wake-up path alone, uniform 3-11 us: within it, and spread over most of it."""
    r = _sched(tmp_path, "irix", "quiet-onyx")
    assert r["min_us"] >= IRIX_WAKE_US[0] - 1e-3
    assert r["max_us"] <= IRIX_WAKE_US[1] + 1e-3
    assert r["jitter_us"] > 0.95 * (IRIX_WAKE_US[1] - IRIX_WAKE_US[0])
    assert r["mean_us"] == pytest.approx(sum(IRIX_WAKE_US) / 2, abs=0.3)
    assert sum(r["hist_counts"]) == r["samples"] == 2000


def test_busy_wait_absorbs_the_wakeup_latency(tmp_path):
    """Sleep until 20 us before, then read the clock until the time has come: the task leaves the
    loop at the first read that ends at or after its time, so the error is below one read."""
    r = _sched(tmp_path, "ihawk", "quiet-ihawk")
    assert r["min_us"] >= 0
    assert r["max_us"] <= CLOCK_READ_US + 1e-3
    assert r["clock_read_us"] == pytest.approx(CLOCK_READ_US)


def test_sporadic_events_widen_the_jitter(tmp_path):
    """With its sporadic events (35 us each) a shielded IRIX CPU delays some wake-ups by up to one
    event more than the wake-up path's spread."""
    r = _run("tno-jitter", tmp_path, measure="sched", platform="irix", samples=10000, RngRun=1)
    assert r["max_us"] > IRIX_WAKE_US[1] + 5
    assert r["max_us"] <= IRIX_WAKE_US[1] + 2 * 35 + 1e-3


def test_network_latency_one_way_and_warmup_excluded(tmp_path):
    """10 datagrams: all arrive, the ARP warm-up datagram is not a sample, and the latency is at
    least the two stacks' CPU time (the IRIX profile's 20 000 + 30 000 cycles at 250/195 MHz)."""
    r = _run("tno-jitter", tmp_path, measure="net", platform="irix", samples=10, period=0.01)
    assert r["samples"] == 10 and r["sent"] == 11 and r["malformed"] == 0
    assert r["min_us"] > (20000 / 250e6 + 30000 / 195e6) * 1e6
    assert r["max_us"] < 1000


# The Fighter sheet (tno-schedulers): a control input at 30 ms reaches the screen through the
# dynamics at 32 ms and the visual update at 40.333 ms at the refresh at 41.333 ms; no input
# waits longer for its first refresh (hand-traced over the sheet's frame).
FIRST_SHOWN_MS = 41.333 - 30.0


def test_fighter_component_latency_follows_the_sheet(tmp_path):
    r = _run("tno-schedulers", tmp_path, scheduler="default", network="lan", duration=1)
    assert FIRST_SHOWN_MS <= r["component_latency_max_ms"] < FIRST_SHOWN_MS + 1.0
    assert r["tso_violations"] == 0  # the Default scheduler has no timestamp order
    assert r["deadline_misses"] == 0


def test_utc_tm_on_a_slow_link_violates_timestamp_order(tmp_path):
    """40 ms +- 10 ms of one-way delay against a 6 ms slack (state at 4 ms, next UPDATE at
    10 ms): every cockpit update arrives after its time was delivered."""
    r = _run("tno-schedulers", tmp_path, scheduler="utc", network="degraded", duration=1)
    assert r["tso_violations"] >= r["federate_updates"] > 0
    assert r["federate_latency_mean_ms"] > 30.0


# HLA-TM on the Fighter sheet: a cockpit's state at 10k + 4 ms is stamped 10k + 5 ms (lookahead
# 1 ms) and handed to the other cockpit at its first action at or after the stamp (its grant):
# 7 ms for k = 0 (3 ms later), 58 ms for k = 5 (the refresh, 4 ms), else the next input at
# 10k + 10 ms (6 ms): a mean of 5.5 ms over the frame, none earlier than 3 ms, the largest 6 ms
# (hand-traced over the sheet); actions that start late add to it.
HLA_FEDERATE_MEAN_MS = 5.5
HLA_FEDERATE_MAX_MS = 6.0


def test_hla_tm_hands_updates_over_at_the_first_grant_after_their_stamp(tmp_path):
    r = _run("tno-schedulers", tmp_path, scheduler="hla", network="lan", duration=1)
    assert r["tso_violations"] == 0
    assert r["federate_updates"] > 0 and r["grants"] > 0
    assert HLA_FEDERATE_MEAN_MS <= r["federate_latency_mean_ms"] < HLA_FEDERATE_MEAN_MS + 1.0
    assert r["federate_latency_max_ms"] >= HLA_FEDERATE_MAX_MS


def test_hla_tm_on_a_slow_link_waits_instead_of_violating(tmp_path):
    """40 ms +- 10 ms of one-way delay: a cockpit is granted a time only after the other's
    update stamped before it has arrived, so the federation falls behind its frames (deadline
    misses) but never delivers out of timestamp order."""
    r = _run("tno-schedulers", tmp_path, scheduler="hla", network="degraded", duration=1)
    assert r["tso_violations"] == 0
    assert r["deadline_misses"] > 0
    assert r["max_lateness_us"] > 40e3


def test_bad_schedule_sheet_names_file_and_line(tmp_path):
    import subprocess
    from testbed import EXAMPLES_DIR
    sheet = tmp_path / "bad.rci"
    sheet.write_text("frame 100ms\nupdate input0 0ms\nwobble x 1ms\n")
    p = subprocess.run([str(EXAMPLES_DIR / "tno-schedulers"), f"--sheet={sheet}"],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert f"{sheet}:3" in p.stderr


def _sched_record(scheduler, clock, band, value, **extra):
    """A tno-schedulers record whose every quantity is VALUE (the analysis's input)."""
    from testbed.experiment import Record
    from testbed.experiments import tno03

    params = {"scheduler": scheduler, "network": "lan", "clock": clock, "duration": 3.0,
              "RngRun": 1, **({"band": band} if band != "central" else {})}
    return Record(params=params, result={**{q: value for q in tno03.SCHED_QUANTITIES}, **extra})


def test_schedulers_points_run_every_case_at_both_ends_of_the_ranges():
    """Each of the 12 cases at the central values and at --band=fast, slow, each over
    EXTREME_SEEDS seeds (a run's largest latency and its jitter are extremes)."""
    from testbed.experiment import EXTREME_SEEDS
    from testbed.experiments import tno03

    pts = tno03.schedulers_points("quick")
    n = EXTREME_SEEDS["quick"]
    assert len(pts) == 3 * 12 * n
    assert sorted(p.get("band", "central") for p in pts).count("slow") == 12 * n
    assert {p["RngRun"] for p in pts} == set(range(1, n + 1))
    assert {p.get("band") for p in pts} == {None, "fast", "slow"}


def test_schedulers_band_is_the_spread_of_central_and_ends():
    """Every predicted quantity gets low = the least and high = the
    largest of its central, fast and slow values (hand values 5, 3, 9 -> 3 and 9), and the time
    management's and NTP's diagnostics are metrics where the run has them (hla / ntp)."""
    from testbed.experiments import tno03

    hla = {"time_messages": 100, "grant_wait_mean_us": 400.0, "enabled_s": 3.0}
    ntp = {"ntp_updates": 2, "ntp_max_correction_ppm": 21.0}
    recs = [_sched_record("hla", "ntp", "central", 5, **hla, **ntp),
            _sched_record("hla", "ntp", "fast", 3, **hla, **ntp),
            _sched_record("hla", "ntp", "slow", 9, time_messages=90, grant_wait_mean_us=800.0,
                          **ntp),
            _sched_record("default", "card", "central", 1),
            _sched_record("default", "card", "slow", 2)]
    m = tno03.schedulers_analyse(recs).metrics
    for q in tno03.SCHED_QUANTITIES:
        assert m[f"hla_lan_ntp_{q}"] == 5
        assert (m[f"hla_lan_ntp_{q}_low"], m[f"hla_lan_ntp_{q}_high"]) == (3, 9)
        assert (m[f"default_lan_card_{q}_low"], m[f"default_lan_card_{q}_high"]) == (1, 2)
    assert m["hla_lan_ntp_time_messages"] == 100 and m["hla_lan_ntp_enabled_s"] == 3.0
    assert (m["hla_lan_ntp_time_messages_low"], m["hla_lan_ntp_time_messages_high"]) == (90, 100)
    assert m["hla_lan_ntp_grant_wait_mean_us_high"] == 800.0
    assert m["hla_lan_ntp_ntp_updates"] == 2 and m["hla_lan_ntp_ntp_max_correction_ppm"] == 21.0
    assert not any(k.startswith("default_lan_card_") and ("ntp_" in k or "time_messages" in k
                                                          or "grant_wait" in k
                                                          or "enabled" in k) for k in m)
    # Only the central values feed the requirement flags.
    assert m["hla_lan_ntp_sched_jitter_us_within_limit"]


def test_schedulers_slow_end_lengthens_the_grant_wait(tmp_path):
    """--band=slow doubles the iHawks' OS costs and takes their per-clock factor to 1.9 (from
    1.1): every step of a request -> grant round trip costs more CPU time, so the mean wait
    grows; --band=fast (0.93) shortens it."""
    waits = {b: _run("tno-schedulers", tmp_path, scheduler="hla", network="lan", clock="card",
                     duration=1, band=b)["grant_wait_mean_us"] for b in ("fast", "central", "slow")}
    assert waits["fast"] < waits["central"] < waits["slow"]


def test_hla_federation_starts_when_enabled_after_the_syn_lost_behind_arp(tmp_path):
    """The real start sequence: every federate enables its time management at
    0 as a message on a new TCP connection to the Fedex. Machine B then has four SYNs for
    machine A (Fighter 2's and the CGF's connections to Fighter 1 and to the Fedex) while A's
    ARP entry is unresolved: 3 are queued (Linux's unres_qlen, ns-3's PendingQueueSize), one
    is dropped and sent again after TCP's initial retransmission timeout, 3 s (RFC 1122, RFC
    2988). So the last enable is read just after 3 s and the frames start at the first whole
    100 ms frame at least a frame later: 3.2 s. With room for the fourth packet, within
    milliseconds of 0 and at 0.2 s."""
    from programs import run_args

    r = _run("tno-schedulers", tmp_path, scheduler="hla", network="lan", clock="card", duration=1)
    assert 3.0 < r["enabled_s"] < 3.01 and r["start_s"] == pytest.approx(3.2)
    assert r["tso_violations"] == 0 and r["actions_not_run"] == 0 and r["grants"] > 0
    p, r4 = run_args("tno-schedulers", tmp_path, "--scheduler=hla", "--network=lan",
                     "--clock=card", "--duration=1", "--ns3::ArpCache::PendingQueueSize=4")
    assert p.returncode == 0, p.stderr
    assert 0 < r4["enabled_s"] < 0.01 and r4["start_s"] == pytest.approx(0.2)


def test_first_ntp_sample_of_a_perfect_clock_is_unbiased(tmp_path):
    """Perfect clocks (no start offset, no crystal error): the first NTP sample's offset is the
    path's asymmetry / 2 (RFC 5905 section 8), here the first exchange's wait for the server's
    ARP reply, tens of us on an idle 100 Mbit/s LAN; its slew offset / (16 x 64 s) (ntpd's
    clock_adjust) is then below 0.05 ppm (an offset below 51 us). The era's kernels send the
    ARP request at once; ns-3's RequestJitter (uniform 0-10 ms) delayed the outbound leg by up
    to 10 ms: a bias of ms and a slew of ppm (3.9 ppm in this draw)."""
    from programs import run_args

    p, r = run_args("tno-schedulers", tmp_path, "--scheduler=default", "--network=lan",
                    "--clock=ntp", "--duration=1", "--ntpResidual=0", "--crystalPpm=0",
                    "--ns3::NtpClient::PollPhase=ns3::ConstantRandomVariable[Constant=0.03]")
    assert p.returncode == 0, p.stderr
    assert r["ntp_updates"] == 2  # each client polls once, at 1.92 s
    assert r["ntp_max_correction_ppm"] < 0.05


# A 512-byte update in its UDP/IP packet (622 octets) is a 640-octet Ethernet frame: 660 octets
# on the medium with the preamble (8) and the interframe gap (12), 52.8 us at 100 Mbit/s.
HUB_WIRE_BITS = (622 + 14 + 4 + 8 + 12) * 8


def test_hub_record_counts_the_medium_two_frames_per_update(tmp_path):
    """3a at 1 kHz: every update crosses the hub twice (Sender to ReceiverSender, back to the
    Receiver), so the medium carries 2 x 1000 frames in the 1 s window, busy 2000 x 5280 bits
    / 10^8 bit/s; the reply is back long before the next update (1 ms), so nothing defers or
    collides."""
    r = _run("tno-pipeline", tmp_path, config="3a", frequency=1000, duration=1)
    assert r["hub_frames"] == 2 * r["sent"] == 2000
    assert r["hub_utilization"] == pytest.approx(2000 * HUB_WIRE_BITS / 1e8, rel=1e-9)
    assert r["hub_collisions_per_frame"] == 0
    assert r["hub_deferrals_per_frame"] == 0
    assert r["hub_backoff_slots_per_frame"] == 0


def test_hub_past_its_turn_collides_and_backs_off(tmp_path):
    """3a at 9 kHz: two frames of 52.8 us per 111 us period leave the medium 5 % idle, so the
    replies meet the Sender's frames at deferrals' ends and collide (802.3 4.2.3.2.1); each
    collision draws one backoff of at most 2^10 - 1 slots (4.2.3.2.5), and the medium cannot
    carry more than its capacity."""
    r = _run("tno-pipeline", tmp_path, config="3a", frequency=9000, duration=0.2)
    assert r["hub_collisions_per_frame"] > 0.01
    assert r["hub_backoff_slots_per_frame"] <= 1023 * r["hub_collisions_per_frame"]
    assert r["hub_utilization"] <= 1.0
    assert r["hub_utilization"] == pytest.approx(r["hub_frames"] * HUB_WIRE_BITS / 1e8 / 0.2,
                                                 rel=1e-9)


def test_switch_record_has_no_hub_fields(tmp_path):
    """Through the switch (3b) there is no shared medium to report."""
    r = _run("tno-pipeline", tmp_path, config="3b", frequency=1000, duration=0.1)
    assert "hub_utilization" not in r and "hub_frames" not in r


def test_onyx_switch_cut_through_saves_a_frame_per_crossing(tmp_path):
    """1b's message crosses the switch twice (Sender -> ReceiverSender -> Receiver), each time a
    622-byte datagram: a 640-octet frame, 648 octets with its preamble (80 ns each at 100 Mbit/s)
    that crosses the 2.56 Gbit/s bus as 640 octets once granted (2.0 us). Cut-through starts the
    output 14 octets after the frame's first bit, and only the header (14 octets) crosses the bus
    before it: (648 - 14) x 80 ns + (640 - 14) x 3.125 ns = 52.68 us less per crossing;
    fragment-free waits for 8 + 64 octets: 48.04 us. The bus grant's wait is uniform over the
    cycle in each mode (a mean of 8 us a crossing, drawn per frame): 4 us of tolerance."""
    lat = {m: _run("tno-pipeline", tmp_path, config="1b", frequency=100, duration=1,
                   onyxSwitchMode=m)["latency_mean_us"]
           for m in ("StoreAndForward", "CutThrough", "FragmentFree")}
    assert lat["StoreAndForward"] - lat["CutThrough"] == pytest.approx(2 * 52.68, abs=4.0)
    assert lat["StoreAndForward"] - lat["FragmentFree"] == pytest.approx(2 * 48.04, abs=4.0)


def test_onyx_switch_mode_leaves_the_ihawk_switch_store_and_forward(tmp_path):
    """The study gives 3b's switch as store-and-forward: the Onyx switch's reading does not
    reach it (the same record, bit for bit, under each reading)."""
    recs = [_run("tno-pipeline", tmp_path, config="3b", frequency=1000, duration=0.2,
                 onyxSwitchMode=m) for m in ("StoreAndForward", "CutThrough")]
    assert recs[0]["latency_mean_us"] == recs[1]["latency_mean_us"]
    assert recs[0]["events"] == recs[1]["events"]


def test_shared_memory_queue_size_matters_only_where_the_queue_fills(tmp_path):
    """RTI-SM's queue size (ranged 40-1 024, no source) cannot act below the ReceiverSender's
    capacity: the queue then never holds more than a read burst (2 at 8 kHz on configuration 4),
    so the records are the same bit for bit; above it (12 kHz, reads about 11 500 a second) the
    larger queue holds more before it loses, so the latency is longer."""
    def run(q, f):
        return _run("tno-pipeline", tmp_path, config="4", frequency=f, duration=0.5,
                    rtiSet=f"ShmQueueSize={q}")

    low = [run(q, 8000) for q in (40, 1024)]
    assert low[0]["relay_max_burst"] < 40
    assert low[0]["latency_mean_us"] == low[1]["latency_mean_us"]
    assert low[0]["events"] == low[1]["events"]
    high = [run(q, 12000) for q in (40, 1024)]
    assert high[0]["relay_max_burst"] == 40 and high[0]["loss"] > 0
    assert high[1]["latency_mean_us"] > high[0]["latency_mean_us"]


def _synthetic_pipeline_records(points, latency):
    from testbed.experiment import Record

    return [Record(params=p, result={
        "latency_mean_us": latency(p), "latency_max_us": latency(p), "loss": 0.0,
        "read_rate_hz": p["frequency"], "send_rate_hz": p["frequency"], "latency_growth": 1.0,
        "relay_max_burst": 1}) for p in points]


def test_onyx_switch_readings_are_their_own_metrics_and_a_sample_keeps_its_sweeps():
    """The experiment's 1b readings under the other switch modes give their own metrics and
    leave the store-and-forward sweep alone; a sensitivity sample, whose every point carries the
    sampled reading, still has its prediction sweeps (no 1b points in it)."""
    from testbed.experiments import tno03

    pts = tno03.pipeline_points("quick")
    lat = {"CutThrough": 900.0, "FragmentFree": 910.0}
    m = tno03.pipeline_analyse(_synthetic_pipeline_records(
        pts, lambda p: lat.get(p.get("onyxSwitchMode"), 1000.0))).metrics
    assert m["1b_dm_latency_us"] == 1000.0
    assert m["1b_dm_latency_us_cut_through"] == 900.0
    assert m["1b_dm_latency_us_fragment_free"] == 910.0
    sample = [dict(p, onyxSwitchMode="CutThrough") for p in pts
              if p["config"] in tno03.PREDICTIONS and "band" not in p]
    m = tno03.pipeline_analyse(_synthetic_pipeline_records(sample, lambda p: 100.0)).metrics
    for c in tno03.PREDICTIONS:
        assert m[f"{tno03.CONFIGS[c][0]}_latency_us"] == 100.0


def test_nic_bundling_readings_are_their_own_metrics_and_a_sample_keeps_its_sweeps():
    """3a's and 3b's points under the e100 readings (each dead-man timer) give their own
    metrics and leave the sweeps (each frame interrupting) alone. A run whose every point
    carries a reading (--param, or a design with the choice as a factor), the reading points
    keeping their own, has its sweeps under that reading, and that reading's metric is the
    sweep's lowest frequency."""
    from testbed.experiments import tno03

    opt = tno03.BUNDLE_OPTION
    lat = {"500us": 1200.0, "1ms": 2200.0, "2ms": 5600.0}
    pts = tno03.pipeline_points("quick")
    m = tno03.pipeline_analyse(_synthetic_pipeline_records(
        pts, lambda p: lat.get(p.get(opt), 300.0))).metrics
    for c in tno03.BUNDLE_CONFIGS:
        prefix = tno03.CONFIGS[c][0]
        assert m[f"{prefix}_latency_us"] == 300.0
        for timer, suffix in tno03.BUNDLE_READINGS.items():
            assert m[f"{prefix}_latency_us_{suffix}"] == lat[timer]
    sample = [dict(p) if opt in p else dict(p, **{opt: "1ms"}) for p in pts
              if p["config"] in tno03.PREDICTIONS and "band" not in p]
    m = tno03.pipeline_analyse(_synthetic_pipeline_records(
        sample, lambda p: lat.get(p.get(opt), 300.0))).metrics
    for c in tno03.BUNDLE_CONFIGS:
        prefix = tno03.CONFIGS[c][0]
        assert m[f"{prefix}_latency_us"] == 2200.0  # the sweep under the sample's 1 ms
        assert m[f"{prefix}_knee_hz"] is not None
        assert m[f"{prefix}_latency_us_cpusaver_1ms"] == 2200.0
        assert m[f"{prefix}_latency_us_cpusaver_500us"] == 1200.0
