"""[NTT96] Jitter of a 6 Mbit/s continuous-media stream: FDDI ring load and TCP (exp. 1), a
route-cache router under load with fast switching on or off per interface (exp. 2), and
route-cache overflow by random destinations (exp. 3). Every outcome is a prediction (the study's
numbers are withheld); the instrument, set-up choices and their sources are in doc/ntt.rst.

The jitter is the study's: the k-th LOGGED packet in arrival order, over the first 1000 logged
packets however long they take; a run cut off at the program's --maxTime reports a lower bound
(jitter_is_lower_bound), drawn as its own series of points in the figures.
"""

from ..experiment import (Analysis, Experiment, Figure, Series, analyse_over_seeds, more_seeds,
                          register)
from ..regimes import set_regime

STREAM_MBPS = 6.0
# The load is described by frame rate and frame size (the study gives neither). The main sweeps
# use the largest frames of the load's medium (FDDI 4 377 bytes in exp. 1, Ethernet 1 518 bytes
# in exps. 2-3) at rates chosen for the offered load in Mbit/s below; smaller frames are swept at
# a few rates.
FDDI_MAX_FRAME = 4377
ETHERNET_MAX_FRAME = 1518
RING_MBPS = {"quick": [5, 30, 60, 85, 95, 110, 130],
             "paper": [5, 15, 30, 45, 60, 70, 80, 85, 90, 95, 100, 110, 130, 150]}
ROUTER_PPS = {"quick": [500, 2000, 4000, 6500],
              "paper": [250, 500, 1000, 2000, 3000, 4000, 5000, 6500, 8000]}
ROUTER_SMALL_FRAMES = [64, 512]
ROUTER_SMALL_PPS = {"quick": [2000, 6500], "paper": [1000, 2000, 4000, 6500, 10000]}
# Exp. 3: the random traffic's rate (datagrams/s) against the flush interval (s).
RANDOM_RATES = {"quick": [300, 1000, 3000], "paper": [100, 300, 1000, 2000, 3000, 5000]}
FLUSH_INTERVALS = {"quick": [2, 10, 60], "paper": [1, 2, 5, 10, 30, 60]}
# Exp. 1 over TCP: the stream's record (4 160 bytes) against the path's MSS, 4.4BSD's tcp_mss()
# on FDDI: MTU 4 352 - 40 rounded down to a multiple of MCLBYTES (2 048) = 4 096 bytes (the
# record reports it: mss). A record not a whole number of segments ends in a partial segment
# that Nagle's rule holds until the previous segment is acknowledged; a record of exactly one
# segment has none. The same lightest and highest loads run with a record of one MSS, the
# other regime of that cliff (doc/ntt.rst).
STREAM_RECORD = 4160
FDDI_MSS = 4096
# The receiving application's clock (ticks/s): 4.4BSD microtime(), Digital UNIX without
# MICRO_TIME, the 100 Hz clock interrupt alone (SunOS 5, IRIX).
CLOCKS_HZ = ["1000000", "1024", "100"]
DEFAULT_RATE = 1000  # datagrams/s (doc/ntt.rst: the study could not control it)
# Exp. 3's random computer as a host of the hosts' kind, sending as fast as its send path
# allows, on the study's Ethernet at either speed the era offered (doc/ntt.rst, "The random
# computer").
HUB_RATES = {"quick": ["100Mbps"], "paper": ["100Mbps", "10Mbps"]}
DEFAULT_FLUSH = 60  # s (doc/router.rst: once a minute, the era's route-cache ageing period)
# The process-switching cost's documented range, cycles per packet (doc/router.rst): 5 to 20
# times the fast path's 1 800.
SLOW_COST_ENDS = (9000, 36000)
# The longest a stream runs before its 1000 packets are logged (simulated s; then a lower bound).
MAX_TIME = {"quick": "30s", "paper": "600s"}
CACHES = [(True, True, "Ethernet on, FDDI on"), (False, True, "Ethernet off, FDDI on"),
          (True, False, "Ethernet on, FDDI off"), (False, False, "Ethernet off, FDDI off")]
SIDES = ["fddi", "ethernet"]
# Who governs a packet (doc/ntt.rst, "Which switch governs which packets"): the switch of the
# interface it leaves by (Output) or arrives on (Input), with the load entering the router by its
# Ethernet interface (the study's words) or leaving by it. The first is the study's reading; the
# others run on a shorter load grid.
READINGS = [("Output", "in"), ("Input", "in"), ("Output", "out"), ("Input", "out")]
READING_PPS = {"quick": [6500], "paper": [2000, 6500]}
READING_SIDES = {"quick": ["fddi"], "paper": SIDES}


def _rate(mbps, frame):
    """Frames per second for an offered load in Mbit/s of frames."""
    return round(mbps * 1e6 / (8 * frame), 3)


def _jitter(r):
    return r["jitter_s"]


def _bound(r):
    return bool(r["jitter_is_lower_bound"])


def _curve(records, key):
    """{curve: [(x, record)]} sorted by x = offered load (Mbit/s of frames)."""
    out = {}
    for rec in records:
        out.setdefault(key(rec), []).append((rec.result["load_offered_mbps"], rec.result))
    return {k: sorted(v, key=lambda t: t[0]) for k, v in out.items()}


def _row(rec, **extra):
    r = rec.result
    row = {"load_rate_pps": r["load_rate_pps"], "load_frame_bytes": r["load_frame_bytes"],
           "load_offered_mbps": round(r["load_offered_mbps"], 4),
           "load_carried_mbps": round(r["load_carried_mbps"], 4),
           "jitter_s": _jitter(r), "jitter_is_lower_bound": _bound(r),
           "window_logged": r["window_logged"], "window_s": r["window_s"],
           "stream_rate_mbps": round(r["stream_rate_mbps"], 4), "seq_jitter_s": r["seq_jitter_s"],
           "seq_missing": r["seq_missing"], "analyser_on_ring": r["analyser_on_ring"],
           "ttrt_ms": r["ttrt_ms"], "mss": r["mss"]}
    for k in ("tcp_retransmissions", "udp_buffer_drops", "kernel_sections_in_window",
              "flushes_in_window", "router_queue_drops", "router_ring_drops",
              "router_pool_drops", "nagle_regime"):
        if k in r:
            row[k] = r[k]
    row.update(extra)
    return row


def _series(curves, titles, x=lambda o, r: o):
    """Per curve: a line through every point, the cut-off points again as lower-bound marks, and
    the points whose window logged no packet by the cut-off (a bound of 0, which a log scale
    cannot show) as marks along the top of the plot."""
    series, empty = [], []
    for key, title in titles:
        pts = [(x(o, r), _jitter(r) * 1e3, _bound(r), r["window_logged"])
               for o, r in curves.get(key, [])]
        shown = [p for p in pts if p[3] > 0 or not p[2]]
        series.append(Series(title, [p[0] for p in shown], [p[1] for p in shown]))
        cut = [p for p in shown if p[2]]
        if cut:
            series.append(Series(f"{title}: lower bound (cut off)", [p[0] for p in cut],
                                 [p[1] for p in cut], style="points"))
        none = [p for p in pts if p[3] == 0 and p[2]]
        if none:
            empty.append((title, none))
    top = 3 * max([y for s in series for y in s.y if y > 0] or [100.0])
    for title, none in empty:
        series.append(Series(f"{title}: no packet logged by the cut-off (top edge)",
                             [p[0] for p in none], [top for _ in none], style="points"))
    return series


def _metric(metrics, name, r):
    """The jitter of a record as metric NAME (..._s). A record cut off by the horizon
    (--maxTime) has no value: its jitter is "the horizon minus what was logged", a function of
    --maxTime, so NAME is None (left out of central values, bands and comparisons) and
    NAME_lower_bound carries the bound (report.md shows ">= bound")."""
    assert name.endswith("_s"), name
    bound = _bound(r)
    metrics[name] = None if bound else _jitter(r)
    if bound:
        metrics[f"{name}_lower_bound"] = _jitter(r)


def _ratio(metrics, name, num, den):
    """metrics[name] = num / den of two records' jitters; with num cut off by the horizon, a
    lower bound (name_lower_bound) instead; with den cut off, nothing (not even a bound)."""
    if _bound(den) or not _jitter(den):
        metrics[name] = None
        return
    q = _jitter(num) / _jitter(den)
    metrics[name] = None if _bound(num) else q
    if _bound(num):
        metrics[f"{name}_lower_bound"] = q


# --- exp. 1 ------------------------------------------------------------------------------------

def load_points(scale):
    mt = MAX_TIME[scale]
    pts = [{"setup": "ring", "tcp": tcp, "loadPps": _rate(m, FDDI_MAX_FRAME),
            "loadFrame": FDDI_MAX_FRAME, "maxTime": mt}
           for tcp in (False, True) for m in RING_MBPS[scale]]
    # Set-up uncertainties at a load with spare capacity and beyond the ring's: the analyser's
    # stream port off the loaded ring; Ethernet-sized (1 518-byte) load frames.
    for m in (60, 110):
        for tcp in (False, True):
            pts.append({"setup": "ring", "tcp": tcp, "loadPps": _rate(m, FDDI_MAX_FRAME),
                        "loadFrame": FDDI_MAX_FRAME, "analyserOnRing": False, "maxTime": mt})
        pts.append({"setup": "ring", "tcp": True, "loadPps": _rate(m, ETHERNET_MAX_FRAME),
                    "loadFrame": ETHERNET_MAX_FRAME, "maxTime": mt})
    # The instrument's floor without load, for each clock the receiving application may have
    # read (doc/ntt.rst, "The instrument"): 1 us, 1/1 024 s, the 10 ms clock tick alone.
    for tcp in (False, True):
        for hz in CLOCKS_HZ:
            pts.append({"setup": "ring", "tcp": tcp, "loadPps": 0.0, "loadFrame": FDDI_MAX_FRAME,
                        "timestampHz": hz, "maxTime": mt})
    # The other side of the record-size cliff: a record of one whole segment.
    for m in (RING_MBPS[scale][0], RING_MBPS[scale][-1]):
        pts.append({"setup": "ring", "tcp": True, "loadPps": _rate(m, FDDI_MAX_FRAME),
                    "loadFrame": FDDI_MAX_FRAME, "packetSize": FDDI_MSS, "maxTime": mt})
    return pts


def nagle_regime(record, mss):
    """The regime of a TCP record stream under Nagle's rule: 'partial segment held' when a
    record is not a whole number of segments (its last segment is short and waits for the
    acknowledgement of the previous one), else 'whole segments'."""
    return "whole segments" if record % mss == 0 else "partial segment held"


def load_analyse(records):
    # The no-load points (the only ones without load) give the instrument's floor per clock.
    floors = [r for r in records if r.params.get("loadPps") == 0]
    records = [r for r in records if r.params.get("loadPps") != 0]
    main = [r for r in records if r.result["analyser_on_ring"]
            and r.result["load_frame_bytes"] == FDDI_MAX_FRAME and "packetSize" not in r.params]
    whole = sorted((r.result["load_offered_mbps"], r) for r in records
                   if "packetSize" in r.params and r.result["protocol"] == "tcp")
    rows = [_row(rec, protocol=rec.result["protocol"]) for rec in records]
    curves = _curve(main, lambda rec: rec.result["protocol"])
    metrics = {}
    for proto in ("udp", "tcp"):
        c = curves.get(proto, [])
        if not c:
            continue
        lo, hi = c[0][1], c[-1][1]
        _metric(metrics, f"exp1_{proto}_jitter_lightest_s", lo)
        _metric(metrics, f"exp1_{proto}_jitter_highest_s", hi)
        metrics[f"exp1_{proto}_highest_load_carried_mbps"] = hi["load_carried_mbps"]
        metrics[f"exp1_{proto}_highest_load_missing"] = hi["seq_missing"]
        metrics[f"exp1_{proto}_highest_load_stream_mbps"] = hi["stream_rate_mbps"]
        # "About 20 times" is relative to the value with spare ring capacity: the mean jitter
        # over the loads the ring carried in full (carried >= 99 % of offered).
        spare = [r for o, r in c if r["load_carried_mbps"] >= 0.99 * o and not _bound(r)]
        if spare:
            ref = sum(_jitter(r) for r in spare) / len(spare)
            metrics[f"exp1_{proto}_jitter_spare_capacity_s"] = ref
            _ratio(metrics, f"exp1_{proto}_saturated_over_spare", hi,
                   {"jitter_s": ref, "jitter_is_lower_bound": False})
    # The instrument's no-load floor per clock (the jitter without load on the ring).
    def hz(rec):
        return rec.result.get("timestamp_hz", rec.params.get("timestampHz"))

    for rec in floors:
        _metric(metrics, f"exp1_{rec.result['protocol']}_noload_floor_{hz(rec)}hz_s", rec.result)
    rows += [_row(rec, protocol=rec.result["protocol"], timestamp_hz=hz(rec)) for rec in floors]
    udp, tcp = curves.get("udp", []), curves.get("tcp", [])
    if udp and not _bound(udp[0][1]):
        u_lo, u_hi = _jitter(udp[0][1]), udp[-1][1]
        # Flat: the highest load's jitter at most twice the lightest's. A cut-off highest load
        # decides it only when its bound already exceeds twice the lightest.
        if not _bound(u_hi):
            metrics["exp1_udp_flat"] = bool(_jitter(u_hi) <= 2 * u_lo)
        elif _jitter(u_hi) > 2 * u_lo:
            metrics["exp1_udp_flat"] = False
        else:
            metrics["exp1_udp_flat"] = None
    if tcp:
        _ratio(metrics, "exp1_tcp_saturated_over_unloaded", tcp[-1][1], tcp[0][1])
    if tcp and len(whole) == 2:
        (_, w_lo), (_, w_hi) = whole
        record, other = w_hi.params["packetSize"], {}
        _metric(other, "hi_s", w_hi.result)
        _ratio(other, "ratio", w_hi.result, w_lo.result)
        driver = (f"the record size against the MSS under Nagle: {STREAM_RECORD} B record, "
                  f"{tcp[-1][1]['mss']} B MSS; {record} B the other side")
        regimes = [nagle_regime(STREAM_RECORD, tcp[-1][1]["mss"]),
                   nagle_regime(record, w_hi.result["mss"])]
        if regimes[0] != regimes[1]:
            for name, alt in (("exp1_tcp_jitter_highest_s", other["hi_s"]),
                              ("exp1_tcp_saturated_over_unloaded", other["ratio"])):
                if name in metrics:
                    set_regime(metrics, name, driver, [(regimes[0], metrics[name]),
                                                       (regimes[1], alt)])
    for rec in records:
        r = rec.result
        if "packetSize" in rec.params:
            continue
        off = round(r["load_offered_mbps"])
        if not r["analyser_on_ring"]:
            _metric(metrics, f"exp1_{r['protocol']}_{off}mbps_analyser_off_ring_jitter_s", r)
        elif r["load_frame_bytes"] == ETHERNET_MAX_FRAME:
            _metric(metrics, f"exp1_{r['protocol']}_{off}mbps_1518B_frames_jitter_s", r)
    fig = Figure(name="exp1-jitter-load",
                 title="NTT96 exp. 1 (cf. Fig. 2): jitter against the load on the FDDI ring",
                 xlabel="offered load (Mbit/s of 4 377-byte frames)", ylabel="jitter (ms)",
                 logy=True, series=_series(curves, [("udp", "UDP"), ("tcp", "TCP")])
                 + [Series(f"TCP, {r.params['packetSize']}-byte records (one segment each)",
                           [o for o, _ in whole], [_jitter(q.result) * 1e3 for _, q in whole],
                           style="points") for r in [w for _, w in whole][:1]])
    carried = Figure(name="exp1-carried-load",
                     title="NTT96 exp. 1: load carried by the ring against the offered load",
                     xlabel="offered load (Mbit/s)", ylabel="carried load (Mbit/s)",
                     series=[Series(p.upper(), [o for o, _ in curves.get(p, [])],
                                    [r["load_carried_mbps"] for _, r in curves.get(p, [])])
                             for p in ("udp", "tcp")])
    notes = ["Analyser -> sending computer (UDP) -> receiving computer over TCP or UDP on one "
             "FDDI ring (TTRT 8 ms); load from the analyser's load port to a sink on the same "
             "ring. The study's jitter over the first 1000 logged packets in arrival order (a "
             "packet lost before the receiver shifts the schedule); points cut off at the "
             "maximum time are lower bounds, marked separately. Predictions."]
    return Analysis(rows=rows, metrics=metrics, figures=[fig, carried], notes=notes)


# --- exp. 2 ------------------------------------------------------------------------------------

def router_points(scale):
    mt = MAX_TIME[scale]
    pts = [{"setup": "router", "tcp": True, "receiverSide": side, "loadPps": float(pps),
            "loadFrame": ETHERNET_MAX_FRAME, "cacheEthernet": e, "cacheFddi": f, "maxTime": mt}
           for side in SIDES for e, f, _ in CACHES for pps in ROUTER_PPS[scale]]
    # Smaller frames at the same packet rates: the router's work is per packet.
    for frame in ROUTER_SMALL_FRAMES:
        for e, f in ((True, True), (True, False)):
            for pps in ROUTER_SMALL_PPS[scale]:
                pts.append({"setup": "router", "tcp": True, "receiverSide": "fddi",
                            "loadPps": float(pps), "loadFrame": frame, "cacheEthernet": e,
                            "cacheFddi": f, "maxTime": mt})
    # The other readings of which packets each switch governs (doc/ntt.rst, "Which switch
    # governs which packets"): the input interface's switch, and the load leaving the router by
    # its Ethernet interface, on a shorter load grid; at the quick scale with the receiving
    # computer on the FDDI side only (where the study's reading leaves the Ethernet switch idle).
    for side_rule, direction in READINGS[1:]:
        for side in READING_SIDES[scale]:
            for e, f, _ in CACHES:
                for pps in READING_PPS[scale]:
                    pts.append({"setup": "router", "tcp": True, "receiverSide": side,
                                "loadPps": float(pps), "loadFrame": ETHERNET_MAX_FRAME,
                                "cacheEthernet": e, "cacheFddi": f, "cacheSide": side_rule,
                                "loadDirection": direction, "maxTime": mt})
    return pts


def _reading(p):
    """A point's reading of who governs (cacheSide, loadDirection), from its parameters."""
    return (p.get("cacheSide", READINGS[0][0]), p.get("loadDirection", READINGS[0][1]))


def _reading_prefix(reading):
    """The metric prefix of a reading: 'exp2_' for the study's own, else
    'exp2_<governing interface>_load_<direction>_'."""
    if reading == READINGS[0]:
        return "exp2_"
    return f"exp2_{reading[0].lower()}_load_{reading[1]}_"


def _rank(r):
    """A record's jitter for comparisons: a stream whose window logged no packet by the cut-off
    (a bound of 0) did not get through, worse than any jitter; other lower bounds count by value
    (a bound can only grow)."""
    return float("inf") if _bound(r) and r["window_logged"] == 0 else _jitter(r)


def _resolution(r):
    """The smallest jitter difference the study's instrument resolves: one tick of the
    receiving application's clock, which timestamps every logged packet (1 / timestamp_hz:
    1 us with microtime(); doc/ntt.rst, "The instrument")."""
    return 1.0 / float(r.get("timestamp_hz") or 1e6)


def _worse(a, b):
    """Whether record b is worse than record a: its jitter larger by more than the instrument
    resolves (_resolution); True, False, or None when a cut-off record (whose jitter is only a
    lower bound) leaves it open. A bound decides only where it already exceeds the other's
    value; a stream that logged nothing by the horizon is worse than any that logged."""
    ra, rb = _rank(a), _rank(b)
    res = max(_resolution(a), _resolution(b))
    if ra == rb == float("inf"):
        return None
    if _bound(b) and not _bound(a):
        return True if rb > ra + res else None
    if _bound(a) and not _bound(b):
        return False if ra > rb + res else None
    if _bound(a) and _bound(b):
        return None
    return rb > ra + res


def _switches_that_matter(curves, reading, side):
    """{'ethernet': bool, 'fddi': bool}: whether flipping the interface's switch changes a
    record of the reading and side at some load (the jitter, what was logged, or the router's
    fast and slow counts); None where no pair ran."""
    def sig(r):
        return (r["jitter_s"], r["window_logged"], r["router_fast"], r["router_slow"])

    out = {}
    for name, flip in (("ethernet", lambda e, f: (not e, f)), ("fddi", lambda e, f: (e, not f))):
        seen = None
        for e, f, _ in CACHES:
            here = dict(curves.get((reading, side, e, f, ETHERNET_MAX_FRAME), []))
            there = dict(curves.get((reading, side, *flip(e, f), ETHERNET_MAX_FRAME), []))
            for load in here.keys() & there.keys():
                seen = bool(seen) or sig(here[load]) != sig(there[load])
        out[name] = seen
    return out


def router_analyse(records):
    def key(rec):
        r = rec.result
        return (_reading(rec.params), r["receiver_side"], bool(r["cache_ethernet"]),
                bool(r["cache_fddi"]), r["load_frame_bytes"])

    rows = [_row(rec, receiver_side=rec.result["receiver_side"],
                 cache_side=_reading(rec.params)[0], load_direction=_reading(rec.params)[1],
                 cache_ethernet=bool(rec.result["cache_ethernet"]),
                 cache_fddi=bool(rec.result["cache_fddi"]), router_fast=rec.result["router_fast"],
                 router_slow=rec.result["router_slow"],
                 router_queue_drops=rec.result["router_queue_drops"],
                 router_fddi_drops=rec.result["router_fddi_drops"],
                 router_ethernet_drops=rec.result["router_ethernet_drops"]) for rec in records]
    curves = _curve(records, key)
    metrics = {}
    readings = [g for g in READINGS if any(k[0] == g for k in curves)]
    for reading in readings:
        prefix = _reading_prefix(reading)
        for side in SIDES:
            suffix = "" if side == "fddi" else "_rx_ethernet"
            both_off = curves.get((reading, side, False, False, ETHERNET_MAX_FRAME), [])
            if both_off and reading == READINGS[0]:
                hi = both_off[-1][1]
                _metric(metrics, f"{prefix}both_off{suffix}_jitter_s", hi)
                metrics[f"{prefix}both_off{suffix}_highest_load_logged"] = hi["window_logged"]
            for e, f, _ in CACHES:
                c = curves.get((reading, side, e, f, ETHERNET_MAX_FRAME), [])
                if not c:
                    continue
                worst = max((r for _, r in c), key=_rank)
                name = (f"{prefix}eth_{'on' if e else 'off'}_fddi_{'on' if f else 'off'}"
                        f"{suffix}_worst_jitter_s")
                # with any point of the curve cut off, its worst is only a lower bound
                _metric(metrics, name, dict(worst, jitter_is_lower_bound=any(
                    _bound(r) for _, r in c)))
                # 1 000 (the study's window) for a curve that completes, the horizon's count
                # for one cut off: how far a bound's run got
                metrics[name[:-len("_jitter_s")] + "_logged"] = worst["window_logged"]
            on = curves.get((reading, side, True, True, ETHERNET_MAX_FRAME), [])
            off = curves.get((reading, side, True, False, ETHERNET_MAX_FRAME), [])
            if on and off:
                pairs = list(zip(on, off))
                better = [_worse(b, a) for (_, a), (_, b) in pairs]  # off better than on
                worse = [_worse(a, b) for (_, a), (_, b) in pairs]  # off worse than on
                # True: never better and once worse; False: better somewhere, or equal
                # everywhere; None (undetermined): a cut-off pair leaves it open
                if any(x is True for x in better):
                    verdict = False
                elif None in better or (None in worse and not any(x is True for x in worse)):
                    verdict = None
                else:
                    verdict = any(worse)
                metrics[f"{prefix}fddi_off_worse_than_on{suffix}"] = verdict
            # Which interface's switch reaches some of the reading's packets: one that reaches
            # none leaves every record as it is (the 2 x 2 design then has two distinct rows).
            for name, matters in _switches_that_matter(curves, reading, side).items():
                if matters is not None:
                    metrics[f"{prefix}{name}_switch_matters{suffix}"] = matters
    primary = READINGS[0]
    for frame in ROUTER_SMALL_FRAMES:
        for e, f in ((True, True), (True, False)):
            c = curves.get((primary, "fddi", e, f, frame), [])
            if c:
                _metric(metrics, f"exp2_{frame}B_frames_fddi_{'on' if f else 'off'}_highest_rate_jitter_s",
                        c[-1][1])
    figs = []
    for reading in readings:
        for side in SIDES:
            sub = {(e, f): curves.get((reading, side, e, f, ETHERNET_MAX_FRAME), [])
                   for e, f, _ in CACHES}
            if not any(sub.values()):
                continue
            tag = "" if reading == primary else f"-{reading[0].lower()}-load-{reading[1]}"
            who = ("" if reading == primary else
                   f"; {reading[0].lower()} interface's switch governs, load "
                   f"{'entering' if reading[1] == 'in' else 'leaving'} by Ethernet")
            figs.append(Figure(
                name="exp2-jitter-router" + tag + ("" if side == "fddi" else "-rx-ethernet"),
                title=("NTT96 exp. 2 (cf. Fig. 4): TCP jitter through the router, receiving "
                       f"computer on the {'FDDI' if side == 'fddi' else 'Ethernet'} side{who}"),
                xlabel="offered load through the Ethernet interface (Mbit/s of 1 518-byte frames)",
                ylabel="jitter (ms)", logy=True, extra=["set key below"],
                series=_series(sub, [((e, f), t) for e, f, t in CACHES])))
    small = {}
    for frame in [ETHERNET_MAX_FRAME] + ROUTER_SMALL_FRAMES:
        for e, f in ((True, True), (True, False)):
            small[(frame, f)] = [(r["load_rate_pps"], r)
                                 for _, r in curves.get((primary, "fddi", e, f, frame), [])]
    figs.append(Figure(
        name="exp2-jitter-frame-size",
        title="NTT96 exp. 2: TCP jitter against the load's frame rate, by frame size (Ethernet on)",
        xlabel="load (frames/s)", ylabel="jitter (ms)", logy=True, extra=["set key below"],
        series=_series(small, [((fr, f), f"{fr}-byte frames, FDDI {'on' if f else 'off'}")
                               for fr in [ETHERNET_MAX_FRAME] + ROUTER_SMALL_FRAMES
                               for f in (True, False)])))
    notes = ["Stream sent on the FDDI side (analyser and sending computer on the ring) through "
             "the router's FDDI interface to the receiving computer on the FDDI side (another IP "
             "subnet of the ring) or behind the router's 100 Mbit/s Ethernet (a repeater hub); "
             "load from the analyser's load port on the hub to a sink on the ring. One route cache "
             "of 8548 entries, fast switching on/off per interface (the output interface's switch "
             "governs a packet), input hold queues of 75 per interface. Points cut off at the "
             "maximum time are lower bounds, marked separately. Predictions.",
             "The other readings of who governs (exp2_input_load_in_*, exp2_output_load_out_*, "
             "exp2_input_load_out_*): the input interface's switch, and the load leaving by "
             "Ethernet (port on the ring, sink on the hub). *_switch_matters says whether an "
             "interface's switch changes any record of a reading: where one does not, two of the "
             "four combinations are the other two."]
    return Analysis(rows=rows, metrics=metrics, figures=figs, notes=notes)


# --- exp. 3 ------------------------------------------------------------------------------------

def overflow_points(scale):
    mt = MAX_TIME[scale]
    pts = [{"setup": "router", "tcp": True, "receiverSide": "fddi", "randomRate": float(r),
            "flushInterval": f"{f}s", "maxTime": mt}
           for r in RANDOM_RATES[scale] for f in FLUSH_INTERVALS[scale]]
    default = {"setup": "router", "tcp": True, "receiverSide": "fddi",
               "randomRate": float(DEFAULT_RATE), "flushInterval": f"{DEFAULT_FLUSH}s",
               "maxTime": mt}
    if default not in pts:
        pts.append(default)
    pts.append(dict(default, receiverSide="ethernet"))
    # The cliff's probes at the default: the ends of the process-switching cost's range (the
    # random datagrams' size and the other factors are the sensitivity design's).
    pts += [dict(default, slowCost=float(c)) for c in SLOW_COST_ENDS]
    # The random computer as a host: its rate is what its send path and the Ethernet allow.
    host = {k: v for k, v in default.items() if k != "randomRate"}
    pts += [dict(host, randomSender="host", ethernetRate=hub) for hub in HUB_RATES[scale]]
    return pts


#: A stream keeps pace when its window carries at least this share of the sending rate: a
#: stream that keeps up differs from it only by the window's edges (one packet of the 1 000,
#: 0.1 %); one that falls behind a saturated slow path loses tens of per cent.
KEEP_PACE = 0.99


def _slow_path_regime(r):
    """The process-switching path's regime at a point, from the stream it carries: it keeps
    pace (the window carries the sending rate), or the slow path is saturated and the stream
    falls behind it (a backlog grows over the window), with or without hold-queue drops."""
    if r["stream_rate_mbps"] >= KEEP_PACE * r["stream_offered_mbps"]:
        return "stream keeps pace"
    return ("stream falls behind the saturated slow path"
            + (" (hold-queue drops)" if r["router_queue_drops"] > 0 else ""))


def overflow_analyse(records):
    from collections import Counter

    rows, metrics, by_flush, probes, centre = [], {}, {}, [], None
    # The reference set-up is the one most points share: the grid's 64-byte random datagrams
    # and 18 000-cycle slow path (a few points vary one of them), or, in a sensitivity sample,
    # which sets both on every point, the sample's own values.
    ref = Counter((rec.result["random_size_bytes"], rec.result["slow_cost_cycles"])
                  for rec in records).most_common(1)[0][0] if records else (64, 18000)
    hosts = []
    for rec in records:
        r = rec.result
        if r.get("random_sender") == "host":
            hosts.append(r)
        rows.append({"random_sender": r.get("random_sender", "generator"),
                     "ethernet_mbps": r.get("ethernet_mbps", 100.0),
                     "random_rate_pps": r["random_rate_pps"], "flush_interval_s": r["flush_interval_s"],
                     "receiver_side": r["receiver_side"], "random_size_bytes": r["random_size_bytes"],
                     "slow_cost_cycles": r["slow_cost_cycles"], "jitter_s": _jitter(r),
                     "jitter_is_lower_bound": _bound(r), "window_logged": r["window_logged"],
                     "window_s": r["window_s"], "stream_rate_mbps": round(r["stream_rate_mbps"], 4),
                     "seq_jitter_s": r["seq_jitter_s"], "seq_missing": r["seq_missing"],
                     "cache_filled": bool(r["cache_filled"]), "fill_time_s": r["fill_time_s"],
                     "router_slow": r["router_slow"], "router_queue_drops": r["router_queue_drops"],
                     "cache_flushes": r["cache_flushes"], "cache_refused": r["cache_refused"],
                     "tcp_retransmissions": r["tcp_retransmissions"]})
        plain = ((r["random_size_bytes"], r["slow_cost_cycles"]) == ref
                 and r.get("random_sender", "generator") == "generator")
        default = plain and (r["random_rate_pps"] == DEFAULT_RATE
                             and r["flush_interval_s"] == DEFAULT_FLUSH)
        if plain and r["receiver_side"] == "fddi":
            by_flush.setdefault(r["flush_interval_s"], []).append((r["random_rate_pps"], r))
        if default and r["receiver_side"] == "fddi":
            centre = centre or r
            _metric(metrics, "exp3_overflow_jitter_s", r)
            metrics["exp3_random_rate_pps"] = r["random_rate_pps"]
            metrics["exp3_flush_interval_s"] = r["flush_interval_s"]
            metrics["exp3_cache_filled"] = bool(r["cache_filled"])
            metrics["exp3_window_missing"] = r["seq_missing"]
            metrics["exp3_window_logged"] = r["window_logged"]
        if default and r["receiver_side"] == "ethernet":
            _metric(metrics, "exp3_rx_ethernet_jitter_s", r)
            metrics["exp3_rx_ethernet_window_missing"] = r["seq_missing"]
        base = r["random_rate_pps"] == DEFAULT_RATE and r["flush_interval_s"] == DEFAULT_FLUSH
        if (base and r["receiver_side"] == "fddi"
                and r["random_size_bytes"] == ref[0] and r["slow_cost_cycles"] != ref[1]
                and r.get("random_sender", "generator") == "generator"):
            probes.append(r)
    # The random computer as a host (the rate it reaches, the jitter it leaves the stream).
    hosts.sort(key=lambda r: -r.get("ethernet_mbps", 100.0))
    for r in hosts:
        tag = "" if r.get("ethernet_mbps", 100.0) == 100.0 else f"_{int(r['ethernet_mbps'])}mbps"
        _metric(metrics, f"exp3_host_sender{tag}_jitter_s", r)
        metrics[f"exp3_host_sender{tag}_rate_pps"] = r["random_rate_pps"]
        metrics[f"exp3_host_sender{tag}_window_logged"] = r["window_logged"]
        # A host fast enough to hold the router in receive livelock leaves the input process
        # too little CPU to fill the cache before --fillTimeout: the fill's length is then a
        # lower bound (the timeout), and the stream starts on a cache that is not full.
        filled = bool(r["cache_filled"])
        metrics[f"exp3_host_sender{tag}_cache_filled"] = filled
        metrics[f"exp3_host_sender{tag}_fill_time_s"] = r["fill_time_s"] if filled else None
        if not filled:
            metrics[f"exp3_host_sender{tag}_fill_time_s_lower_bound"] = r["fill_time_s"]
    probes.sort(key=lambda r: r["slow_cost_cycles"])
    others = probes + hosts
    regimes = {"keeps" in _slow_path_regime(r) for r in [centre] + others} if centre else ()
    if len(regimes) > 1:
        # A cliff within the slow-path cost's documented range, or between the random rate's
        # readings: the stream's packets, missing the full cache, share the process-switching
        # path with the random traffic.
        def label(r):
            if r.get("random_sender") == "host":
                return (f"{_slow_path_regime(r)} with a host sending "
                        f"{r['random_rate_pps']:.0f}/s on {r['ethernet_mbps']:g} Mbit/s")
            return f"{_slow_path_regime(r)} at {int(r['slow_cost_cycles'])} cycles"

        set_regime(metrics, "exp3_overflow_jitter_s",
                   "the process-switching cost within its range against the random rate (a "
                   f"generator at {DEFAULT_RATE}/s, or a host as fast as it can)",
                   [(label(r), None if _bound(r) else _jitter(r)) for r in [centre] + others])
    flush_curves = {f: sorted(v, key=lambda t: t[0]) for f, v in by_flush.items()}
    fig = Figure(name="exp3-jitter-overflow",
                 title="NTT96 exp. 3: TCP jitter after the route cache filled, against the random rate",
                 xlabel="random-destination datagrams (datagrams/s)", ylabel="jitter (ms)",
                 logx=True,
                 logy=True, series=_series(flush_curves,
                                           [(f, f"flush every {f:g} s") for f in sorted(flush_curves)]))
    notes = ["The random-destination computer sends into the router's Ethernet interface until the "
             "router's one cache holds 8548 entries (or 30 s), then the sending computer connects "
             "and the stream starts; the random traffic goes on. The result depends on the random "
             "rate against the flush interval (both in data.csv). Points cut off at the maximum "
             "time are lower bounds, marked separately. Predictions."]
    return Analysis(rows=rows, metrics=metrics, figures=[fig], notes=notes)


#: About what a host of the hosts' profile sends as fast as it can (datagrams/s; the records
#: say what it reached): the cost model's estimate only.
HOST_SENDER_RATE = 10000


def _cost(p):
    """Relative cost: the load's and the random traffic's packets, and a cut-off's length."""
    rate = HOST_SENDER_RATE if p.get("randomSender") == "host" else p.get("randomRate", 0)
    return 1 + rate / 500 + p.get("loadPps", 0) / 1000


def _at_default(p):
    """An exp. 3 point at the default random rate and flush interval with the grid's random size
    and slow path: the points its metrics come from (fddi and ethernet receivers)."""
    return (p.get("randomRate") == float(DEFAULT_RATE) and p.get("flushInterval") ==
            f"{DEFAULT_FLUSH}s" and "randomSize" not in p and "slowCost" not in p)


def _overflow_sampled_point(p):
    """A point a sensitivity sample of exp. 3 runs: the default points (_at_default) and the
    random computer as a host, whose rate and fill time are predictions of their own (its send
    cost, the slow path's cost and the ring are the design's factors)."""
    return _at_default(p) or p.get("randomSender") == "host"


def _router_metric_point(p):
    """An exp. 2 point a metric comes from: every 1 518-byte point (the worst over a load
    curve needs the whole curve) and the smaller frames' highest rate only (their metric is
    the curve's last point; the lower rate draws the frame-size figure)."""
    return (p.get("loadFrame") == ETHERNET_MAX_FRAME
            or p.get("loadPps") == float(max(ROUTER_SMALL_PPS["quick"])))


def _stand_in(p):
    """With the receiving computer on the FDDI side (doc/sensitivity.rst; test_sensitivity.py
    runs each pair):

    * no packet leaves the router through its Ethernet interface (stream and acknowledgements
      ring to ring, load and random traffic hub to ring), and with the output interface's
      switch governing (cacheSide Output, not sampled) the Ethernet interface's fast switching
      reaches none of the point's packets: the point with it off is the point with it on, but
      for the program's echo cache_ethernet;
    * the TCP path's MTU is FDDI's, whose MSS 4 096 (4 352 - 40 rounded down to a multiple of
      MCLBYTES) is the same for --mclBytes 2 048 and 1 024 (4.4BSD's tcp_mss(); the option's
      only use): the point with 1 024 is the point without the option."""
    if p.get("receiverSide") != "fddi" or _reading(p) != READINGS[0]:
        return None
    run, echo = dict(p), {}
    if p.get("cacheEthernet") is False and p.get("cacheSide", "Output") == "Output":
        run["cacheEthernet"], echo["cache_ethernet"] = True, 0
    if "mclBytes" in p:
        del run["mclBytes"]
    return (run, echo) if run != p else None


def _router_gate(p):
    """An Ethernet-side point below the top load of a curve with FDDI fast switching off: its
    gate is the curve's top point (doc/sensitivity.rst). When the top point's window logged
    nothing by the cut-off (_settled), the curve's worst is a point that logged nothing, and
    every such point has jitter 0, a lower bound, 0 logged (NttJitter::Compute of no arrival):
    the curve's metrics are the top point's whatever the lower points give. (Measured: the top
    point logged nothing in all 82 such curves of the N = 4 run.)"""
    top = float(max(ROUTER_PPS["quick"]))
    if (p.get("receiverSide") == "ethernet" and p.get("cacheFddi") is False
            and _reading(p) == READINGS[0]
            and p.get("loadFrame") == ETHERNET_MAX_FRAME and p.get("loadPps", top) < top):
        return dict(p, loadPps=top)
    return None


def _settled(result):
    """A gate's result that fixes its curve's metrics: nothing logged by the cut-off."""
    return bool(result["jitter_is_lower_bound"]) and result["window_logged"] == 0


def _sensitivity(random_traffic=False):
    from ..ranges import Choice, Range
    from ..sensitivity import Sensitivity

    # The random datagrams' size and the flush timer's phase against the fill matter only where
    # random traffic fills the cache (exp. 3).
    extra = [Range("randomSize", 0, 1472, "not given by the study: 0 to 1 472 bytes of UDP "
                   "payload, the largest unfragmented on Ethernet (doc/ntt.rst)", integer=True),
             Range("flushPhase", 0, 1, "the route-cache ageing timer's phase against the fill, "
                   "a share of the flush interval: unknown, any (doc/ntt.rst)"),
             Choice("randomAfterFill", ["continue", "stop"], "the random computer 'sends "
                    "... until all 8548 route cache entries are filled, then the stream "
                    "starts': whether it goes on is not said (doc/ntt.rst)"),
             ] if random_traffic else []

    return Sensitivity(
        profiles=("ws1995-bsd44",),
        ranges=[
            Range("slowCost", *SLOW_COST_ENDS,
                  "process switching 'about an order of magnitude' below fast switching "
                  "(doc/router.rst): 5 to 20 times FastPathCost's 1 800 cycles"),
            Range("ns3::FddiChannel::FibreLength", 10, 1000,
                  "a laboratory ring through a concentrator (doc/fddi.rst): 10 m patch cords "
                  "to 1 km of building fibre between neighbours"),
            # doc/ntt.rst, "Free parameters and their documented ranges"
            Range("ttrt", 4, 165, "the TTRT bid: 4 to 165 ms (ANSI X3.139; Cisco and DEC "
                  "defaults), the lowest bid on the ring wins (doc/ntt.rst)", unit="ms"),
            Range("sndBuf", 8192, 65535, "4.4BSD's default 8 192 bytes, up to 65 535 without "
                  "window scaling (SO_SNDBUF; doc/ntt.rst)", integer=True),
            Range("rcvBuf", 8192, 65535, "4.4BSD's default 8 192 bytes, up to 65 535 without "
                  "window scaling (SO_RCVBUF; doc/ntt.rst)", integer=True),
            # the discrete readings of doc/ntt.rst's free parameters (choice factors)
            Choice("mclBytes", ["2048", "1024"], "4.4BSD-Lite's MCLBYTES: 2 048 (sparc, "
                   "hp300) or 1 024 (i386, pmax); it sets the Ethernet MSS, 1 460 or 1 024 "
                   "(doc/ntt.rst)"),
            Choice("tcpTimestamps", ["false", "true"], "RFC 1323 timestamps: none on most "
                   "1995-96 vendor stacks, on in 4.4BSD-Lite (doc/ntt.rst)"),
            # doc/router.rst, "Where packets are lost"
            Range("rxRing", 16, 128, "the router's receive ring per interface: 16 to 128 "
                  "descriptors, the range of the era's LAN controllers' rings (doc/router.rst)",
                  integer=True),
            Range("ns3::CacheRouter::BufferCreateCost", 500, 10000, "the pool manager's cycles "
                  "to create one public buffer (doc/router.rst)"),
            Choice("inputService", ["Fifo", "RoundRobin"], "the order in which IOS's IP input "
                   "process takes the interfaces' queued packets, not documented "
                   "(doc/router.rst)"),
        ] + extra,
        metrics=("*",),
        # exp. 3: the metrics come from the default points and the host (the rate x flush
        # grid draws the figure); the size and slow-cost points are the sample's own factors.
        # Exp. 2: the points its metrics come from, every reading of who governs (one load
        # each at the quick scale); the study's reading's FDDI-side points with Ethernet fast
        # switching off are their twins with it on
        point_filter=_overflow_sampled_point if random_traffic else _router_metric_point,
        stand_in=_stand_in,
        gate=None if random_traffic else _router_gate, settles=_settled)


def _load_sensitivity():
    """Exp. 1's ranges: exps. 2-3's that reach the ring (no router, so neither the slow path
    nor MCLBYTES, which sets only the Ethernet MSS: FDDI's is 4 096 with either). The
    timestamps choice shortens the MSS to 4 084, which keeps the record-size cliff's regime
    (the one-MSS points then leave a partial segment too, and no regime is named)."""
    from ..ranges import Choice, Range
    from ..sensitivity import Sensitivity

    ring = [f for f in _sensitivity().ranges
            if getattr(f, "name", None) in ("ns3::FddiChannel::FibreLength", "tcpTimestamps")]
    assert len(ring) == 2, ring
    assert all(isinstance(f, (Range, Choice)) for f in ring)
    ring += [
        Range("ttrt", 4, 8, "every station's T_Req counts and the lowest wins: 4 ms (the "
              "lowest the era's stations accepted) to 8 ms (the workstations' default); the "
              "analyser's bid is unknown (doc/ntt.rst)", unit="ms"),
        Range("sndBuf", 8192, 32768, "the era's OS defaults: 8 KB (BSD/OS, HP-UX 9, Solaris 2.x) "
              "to 32 KB (Digital UNIX 3.2, HP-UX 10), PSC's table (doc/ntt.rst)", integer=True),
        Range("rcvBuf", 8192, 32768, "as sndBuf (doc/ntt.rst)", integer=True),
        Range("udpRcvBuf", 9216, 41600, "S's UDP receive buffer: 9 216 bytes (SunOS, "
              "System V) to 4.4BSD's udp_recvspace 41 600 (doc/ntt.rst)", integer=True),
        Choice("mssRule", ["bsd44", "mtu"], "the stack family's MSS: 4.4BSD rounds MTU - 40 "
               "down to a multiple of MCLBYTES (4 096), SysV/Mentat stacks take MTU - 40 "
               "(4 312) (doc/ntt.rst)"),
        Choice("rateLayer", ["application", "ip", "frame"], "the layer at which the study's "
               "6 Mbit/s is counted: a 4 160, 4 134 or 4 109-byte payload (doc/ntt.rst)"),
        Choice("timestampHz", CLOCKS_HZ, "the receiving application's clock: 1 us "
               "(microtime), 1/1 024 s (Digital UNIX without MICRO_TIME), the 10 ms tick alone "
               "(SunOS 5, IRIX) (doc/ntt.rst)"),
        Range("syncDuration", 0.1, 10, "CPU time of the update daemon's 30 s sync in the "
              "non-preemptible kernel: an estimate from a buffer-cache scan of the era "
              "(doc/ntt.rst)", unit="ms"),
        Range("otherRate", 0, 20, "other processes' system calls on S and R (an X server, "
              "daemons): none to 20 a second of 0.5 ms each (doc/ntt.rst)"),
    ]
    # The no-load floor points run one clock each (exp1_*_noload_floor_<hz>_s): they keep it in
    # every sample, so each clock's floor has its band over the other factors.
    return Sensitivity(profiles=("ws1995-bsd44",), ranges=ring,
                       metrics=("exp1_*_s", "exp1_*_over_spare", "exp1_*_over_unloaded",
                                "exp1_*_mbps", "exp1_*_missing", "exp1_udp_flat"),
                       point_readings=("timestampHz",))


# Extremes over seeds (doc/sensitivity.rst, "Extremes over seeds"): every metric but an echo is
# a jitter (a max - min) or derived from jitters, so a point a metric reads runs over
# EXTREME_SEEDS seeds, unless a horizon cut it off (a cut-off point is a bound whatever the other
# seeds give). The analyses run per seed and merge (analyse_over_seeds).

def _cut(rec):
    return bool(rec.result["jitter_is_lower_bound"])


def _load_needs_seeds(rec, records):
    """Exp. 1: every point is some metric's (a curve's lightest, highest, spare-capacity mean,
    a set-up variant, a clock's floor, the other side of the record-size cliff)."""
    return not _cut(rec)


def _router_needs_seeds(rec, records):
    """Exp. 2: a point a metric reads (_router_metric_point) on a load curve that no horizon
    cut off: a curve's worst over its loads is a bound once any of its points is."""
    def curve(p):
        return tuple(sorted((k, v) for k, v in p.items() if k not in ("loadPps", "RngRun")))

    c = curve(rec.params)
    return (_router_metric_point(rec.params)
            and not any(_cut(r) for r in records if curve(r.params) == c))


def _overflow_needs_seeds(rec, records):
    """Exp. 3: the default point of each receiver side, the slow-path cost's probes and the
    random computer as a host (the rate x flush grid draws the figure only)."""
    p = rec.params
    probe = {k: v for k, v in p.items() if k != "slowCost"}
    return not _cut(rec) and (_overflow_sampled_point(p)
                              or ("slowCost" in p and _at_default(probe)))


register(Experiment(id="ntt-load", study="NTT96",
                    title="Exp. 1: stream jitter against FDDI ring load, TCP and UDP (Fig. 2)",
                    program="ntt-stream", points=load_points,
                    analyse=analyse_over_seeds(load_analyse), cost=_cost,
                    more_points=more_seeds(_load_needs_seeds), sensitivity=_load_sensitivity()))
register(Experiment(id="ntt-router", study="NTT96",
                    title="Exp. 2: TCP stream jitter through a route-cache router, fast switching on/off (Fig. 4)",
                    program="ntt-stream", points=router_points,
                    analyse=analyse_over_seeds(router_analyse), cost=_cost,
                    more_points=more_seeds(_router_needs_seeds), sensitivity=_sensitivity()))
register(Experiment(id="ntt-overflow", study="NTT96",
                    title="Exp. 3: TCP stream jitter after route-cache overflow by random destinations",
                    program="ntt-stream", points=overflow_points,
                    analyse=analyse_over_seeds(overflow_analyse), cost=_cost,
                    more_points=more_seeds(_overflow_needs_seeds),
                    sensitivity=_sensitivity(random_traffic=True)))
