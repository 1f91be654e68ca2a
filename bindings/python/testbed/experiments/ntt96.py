"""[NTT96] Jitter of a 6 Mbit/s continuous-media stream: FDDI ring load and TCP (exp. 1), a
route-cache router under load with its caches on or off (exp. 2), and route-cache overflow by
random destinations (exp. 3). Every outcome is a prediction (the study's numbers are withheld);
set-up assumptions and sources are in doc/ntt.rst.
"""

from ..experiment import Analysis, Experiment, Figure, Series, register

# Offered load of the analyser's load port (Mbit/s of UDP payload).
RING_LOADS = {"quick": [5, 30, 60, 85, 95, 110, 130], "paper": [5, 15, 30, 45, 60, 70, 80, 85, 90,
                                                           95, 100, 110, 130, 150]}
ROUTER_LOADS = {"quick": [5, 20, 40, 60, 80], "paper": [5, 10, 20, 30, 40, 50, 60, 70, 80, 90]}
# Exp. 3: the random traffic's rate (datagrams/s) against the flush interval (s).
RANDOM_RATES = {"quick": [300, 1000, 3000], "paper": [100, 300, 1000, 2000, 3000, 5000]}
FLUSH_INTERVALS = {"quick": [2, 10, 60], "paper": [1, 2, 5, 10, 30, 60]}
DEFAULT_RATE = 1000  # datagrams/s (doc/ntt.rst: the study could not control it)
DEFAULT_FLUSH = 60  # s (doc/router.rst: once a minute, the era's route-cache ageing period)
CACHES = [(True, True, "Ethernet on, FDDI on"), (False, True, "Ethernet off, FDDI on"),
          (True, False, "Ethernet on, FDDI off"), (False, False, "Ethernet off, FDDI off")]


def _mbps(x):
    return f"{x}Mbps"


def _jitter(r):
    """The jitter of a record (None: fewer than two packets of the window arrived)."""
    return r.get("jitter_s")


# --- exp. 1 ------------------------------------------------------------------------------------

def load_points(scale):
    return [{"setup": "ring", "tcp": tcp, "load": _mbps(l)}
            for tcp in (False, True) for l in RING_LOADS[scale]]


def _curve(records, key):
    """{curve: [(offered, record)]} sorted by offered load."""
    out = {}
    for rec in records:
        out.setdefault(key(rec), []).append((rec.result["load_offered_mbps"], rec.result))
    return {k: sorted(v, key=lambda t: t[0]) for k, v in out.items()}


def _row(rec, **extra):
    r = rec.result
    row = {"load_offered_mbps": r["load_offered_mbps"],
           "load_carried_mbps": round(r["load_carried_mbps"], 3),
           "jitter_s": _jitter(r), "window_arrived": r["window_arrived"],
           "window_missing": r["window_missing"]}
    row.update(extra)
    return row


def _series(curves, titles):
    series = []
    for key, title in titles:
        pts = [(o, _jitter(r)) for o, r in curves.get(key, []) if _jitter(r) is not None]
        series.append(Series(title, [p[0] for p in pts], [p[1] * 1e3 for p in pts]))
    return series


def load_analyse(records):
    rows = [_row(rec, protocol=rec.result["protocol"]) for rec in records]
    curves = _curve(records, lambda rec: rec.result["protocol"])
    metrics = {}
    for proto in ("udp", "tcp"):
        c = curves.get(proto, [])
        if not c:
            continue
        lo, hi = c[0][1], c[-1][1]
        metrics[f"exp1_{proto}_jitter_lightest_s"] = _jitter(lo)
        metrics[f"exp1_{proto}_jitter_highest_s"] = _jitter(hi)
        metrics[f"exp1_{proto}_highest_load_carried_mbps"] = hi["load_carried_mbps"]
        metrics[f"exp1_{proto}_highest_load_missing"] = hi["window_missing"]
    u_lo, u_hi = metrics.get("exp1_udp_jitter_lightest_s"), metrics.get("exp1_udp_jitter_highest_s")
    if u_lo is not None and u_hi is not None:
        metrics["exp1_udp_flat"] = bool(u_hi <= 2 * u_lo)
    t_lo, t_hi = metrics.get("exp1_tcp_jitter_lightest_s"), metrics.get("exp1_tcp_jitter_highest_s")
    if t_lo and t_hi is not None:
        metrics["exp1_tcp_saturated_over_unloaded"] = t_hi / t_lo
    fig = Figure(name="exp1-jitter-load",
                 title="NTT96 exp. 1 (cf. Fig. 2): jitter against the load on the FDDI ring",
                 xlabel="offered load (Mbit/s)", ylabel="jitter (ms)", logy=True,
                 series=_series(curves, [("udp", "UDP"), ("tcp", "TCP")]))
    carried = Figure(name="exp1-carried-load",
                     title="NTT96 exp. 1: load carried by the ring against the offered load",
                     xlabel="offered load (Mbit/s)", ylabel="carried load (Mbit/s)",
                     series=[Series(p.upper(), [o for o, _ in curves.get(p, [])],
                                    [r["load_carried_mbps"] for _, r in curves.get(p, [])])
                             for p in ("udp", "tcp")])
    notes = ["Analyser -> sending computer (UDP) -> receiving computer over TCP or UDP on one "
             "FDDI ring; load from the analyser's load port to a sink on the same ring. Jitter "
             "over 1000 packets (max - min of actual - standard arrival); packets lost before "
             "the receiver are counted in window_missing (the jitter is over those that "
             "arrived). Predictions."]
    return Analysis(rows=rows, metrics=metrics, figures=[fig, carried], notes=notes)


# --- exp. 2 ------------------------------------------------------------------------------------

def router_points(scale):
    return [{"setup": "router", "tcp": True, "load": _mbps(l), "cacheEthernet": e,
             "cacheFddi": f} for e, f, _ in CACHES for l in ROUTER_LOADS[scale]]


def router_analyse(records):
    key = lambda rec: (bool(rec.result["cache_ethernet"]), bool(rec.result["cache_fddi"]))  # noqa: E731
    rows = [_row(rec, cache_ethernet=bool(rec.result["cache_ethernet"]),
                 cache_fddi=bool(rec.result["cache_fddi"]), router_fast=rec.result["router_fast"],
                 router_slow=rec.result["router_slow"],
                 router_queue_drops=rec.result["router_queue_drops"]) for rec in records]
    curves = _curve(records, key)
    metrics = {}
    both_off = curves.get((False, False), [])
    if both_off:
        metrics["exp2_both_off_jitter_s"] = _jitter(both_off[-1][1])
        metrics["exp2_both_off_highest_load_arrived"] = both_off[-1][1]["window_arrived"]

    def worst(curve):
        # A stream that does not get through is worse than any jitter.
        vals = [_jitter(r) if _jitter(r) is not None and r["window_missing"] == 0 else float("inf")
                for _, r in curve]
        return max(vals) if vals else None

    for (e, f, _) in CACHES:
        w = worst(curves.get((e, f), []))
        if w is not None:
            metrics[f"exp2_eth_{'on' if e else 'off'}_fddi_{'on' if f else 'off'}_worst_jitter_s"] = (
                w if w != float("inf") else "stream broke down")
    on = curves.get((True, True), [])
    off = curves.get((True, False), [])
    if on and off:
        # Compared load by load (the Ethernet cache on in both): worse at some load and never
        # better.
        pairs = list(zip(on, off))
        def j(r):
            v = _jitter(r)
            return float("inf") if v is None or r["window_missing"] > 0 else v
        metrics["exp2_fddi_off_worse_than_on"] = bool(
            all(j(b) >= j(a) for (_, a), (_, b) in pairs) and any(j(b) > j(a) for (_, a), (_, b) in pairs))
    fig = Figure(name="exp2-jitter-router",
                 title="NTT96 exp. 2 (cf. Fig. 4): TCP jitter through the router against the load",
                 xlabel="offered load through the Ethernet interface (Mbit/s)", ylabel="jitter (ms)",
                 logy=True, series=_series(curves, [((e, f), t) for e, f, t in CACHES]))
    notes = ["Stream from the FDDI side (analyser and sending computer on the ring) to the "
             "receiving computer behind the router's 100 Mbit/s Ethernet (a repeater hub); load "
             "from the analyser's load port on the hub to a sink on the ring. Route caches on "
             "the output side (doc/router.rst). Points where fewer than two packets of the "
             "window arrived have no jitter and are left out of the figure. Predictions."]
    return Analysis(rows=rows, metrics=metrics, figures=[fig], notes=notes)


# --- exp. 3 ------------------------------------------------------------------------------------

def overflow_points(scale):
    pts = [{"setup": "router", "tcp": True, "randomRate": float(r), "flushInterval": f"{f}s"}
           for r in RANDOM_RATES[scale] for f in FLUSH_INTERVALS[scale]]
    default = {"setup": "router", "tcp": True, "randomRate": float(DEFAULT_RATE),
               "flushInterval": f"{DEFAULT_FLUSH}s"}
    if default not in pts:
        pts.append(default)
    # The other reading of the set-up: the stream enters from the Ethernet side, so that it
    # leaves through the FDDI interface whose cache the random traffic fills.
    pts.append(dict(default, streamFrom="ethernet"))
    return pts


def overflow_analyse(records):
    rows, metrics, by_flush = [], {}, {}
    for rec in records:
        r, p = rec.result, rec.params
        rows.append({"random_rate_pps": r["random_rate_pps"], "flush_interval_s": r["flush_interval_s"],
                     "stream_from": r["stream_from"], "jitter_s": _jitter(r),
                     "window_arrived": r["window_arrived"], "window_missing": r["window_missing"],
                     "cache_filled": bool(r["cache_filled"]), "fill_time_s": r["fill_time_s"],
                     "router_slow": r["router_slow"], "router_queue_drops": r["router_queue_drops"],
                     "cache_fddi_flushes": r["cache_fddi_flushes"]})
        if r["stream_from"] == "fddi":
            by_flush.setdefault(r["flush_interval_s"], []).append((r["random_rate_pps"], r))
        default = (r["random_rate_pps"] == DEFAULT_RATE and r["flush_interval_s"] == DEFAULT_FLUSH)
        if default and r["stream_from"] == "fddi":
            metrics["exp3_overflow_jitter_s"] = _jitter(r)
            metrics["exp3_random_rate_pps"] = r["random_rate_pps"]
            metrics["exp3_flush_interval_s"] = r["flush_interval_s"]
            metrics["exp3_cache_filled"] = bool(r["cache_filled"])
            metrics["exp3_window_missing"] = r["window_missing"]
        if default and r["stream_from"] == "ethernet":
            metrics["exp3_stream_from_ethernet_jitter_s"] = _jitter(r)
            metrics["exp3_stream_from_ethernet_window_missing"] = r["window_missing"]
    series = []
    for f in sorted(by_flush):
        pts = sorted((x, _jitter(r)) for x, r in by_flush[f] if _jitter(r) is not None)
        series.append(Series(f"flush every {f:g} s", [x for x, _ in pts], [y * 1e3 for _, y in pts]))
    fig = Figure(name="exp3-jitter-overflow",
                 title="NTT96 exp. 3: TCP jitter after the route cache filled, against the random rate",
                 xlabel="random-destination datagrams per second", ylabel="jitter (ms)", logx=True,
                 logy=True, series=series)
    notes = ["The random-destination computer sends into the router's Ethernet interface until the "
             "cache it fills holds 8548 entries (or 30 s), then the stream starts; the random "
             "traffic goes on. The result depends on the random rate against the flush interval "
             "(both in data.csv). Predictions."]
    return Analysis(rows=rows, metrics=metrics, figures=[fig], notes=notes)


def _cost(p):
    return 1 + (p.get("randomRate", 0) / 1000) + float(str(p.get("load", "0Mbps"))[:-4]) / 40


def _sensitivity():
    from ..ranges import Range
    from ..sensitivity import Sensitivity

    return Sensitivity(
        profiles=("ws1995-bsd44",),
        ranges=[
            Range("slowCost", 9000, 36000,
                  "process switching 'about an order of magnitude' below fast switching "
                  "(doc/router.rst): 5 to 20 times FastPathCost's 1 800 cycles"),
            Range("ns3::FddiChannel::FibreLength", 10, 1000,
                  "a laboratory ring through a concentrator (doc/fddi.rst): 10 m patch cords "
                  "to 1 km of building fibre between neighbours"),
        ],
        metrics=("*",))


register(Experiment(id="ntt-load", study="NTT96",
                    title="Exp. 1: stream jitter against FDDI ring load, TCP and UDP (Fig. 2)",
                    program="ntt-stream", points=load_points, analyse=load_analyse, cost=_cost))
register(Experiment(id="ntt-router", study="NTT96",
                    title="Exp. 2: TCP stream jitter through a route-cache router, caches on/off (Fig. 4)",
                    program="ntt-stream", points=router_points, analyse=router_analyse, cost=_cost,
                    sensitivity=_sensitivity()))
register(Experiment(id="ntt-overflow", study="NTT96",
                    title="Exp. 3: TCP stream jitter after route-cache overflow by random destinations",
                    program="ntt-stream", points=overflow_points, analyse=overflow_analyse, cost=_cost,
                    sensitivity=_sensitivity()))
