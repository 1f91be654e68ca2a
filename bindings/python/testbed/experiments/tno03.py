"""[TNO03] Latency of a three-federate HLA pipeline (Sender -> ReceiverSender -> Receiver) with
the DMSO RTI 1.3NG, TNO's RTI-DM and RTI-SM, on SGI Onyx (calibration) and iHawk (predictions).
"""

from .. import validation
from ..experiment import Analysis, Experiment, Figure, Series, Validation, register

# config -> (metric prefix, title)
CONFIGS = {
    "1a": ("1a_dmso", "1a: DMSO RTI 1.3NG, Onyx, switch"),
    "1b": ("1b_dm", "1b: RTI-DM, Onyx, switch"),
    "2": ("2_sm", "2: RTI-SM, one Onyx"),
    "3a": ("3a_hub", "3a: RTI-DM, iHawk, hub"),
    "3b": ("3b_switch", "3b: RTI-DM, iHawk, switch"),
    "4": ("4_sm", "4: RTI-SM, one iHawk"),
}
# The frequencies raised run by run (Hz). The predictions' grids run past the medium's own
# limits, so that the Sender, the medium or loss ends a sweep, never the grid: a 622-byte IP
# packet is a 660-byte frame on the wire with preamble and gap (52.8 us at 100 Mbit/s); through
# the hub both hops share one medium (one over two frame times: 9 470 Hz), through the switch
# each direction of each port carries one frame per message (18 940 Hz).
GRID = {
    "1a": [50, 100, 200, 250, 275, 300, 325, 350, 375, 400, 450],
    "1b": [100, 200, 400, 600, 800, 850, 900, 925, 950, 1000, 1100],
    "2": [250, 500, 1000, 1500, 2000, 2500, 3000, 3500, 3800, 3900, 4000, 4500],
    "3a": [500, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 11000, 12000],
    "3b": [500, 1000, 2000, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 14000, 16000, 18000,
           20000],
    "4": [500, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 10000, 12000, 15000, 20000,
          25000],
}
# The predictions are also run at the two ends of the documented ranges of the iHawk's
# parameters that are not calibrated (tno-pipeline --band; doc/tno.rst): their spread is the
# prediction's band.
PREDICTIONS = ("3a", "3b", "4")
BANDS = ("fast", "slow")
# Criteria (doc/tno.rst): the Receiver keeps up when its mean read frequency over the window is
# within 1 % of the Sender's and the latency does not grow over the window (mean of the last
# quarter at most 1.5 x the first quarter's); loss at most 0.1 %; the Sender reaches 99 % of the
# requested frequency. Knee: the highest frequency up to which the mean latency stays within
# 10 % of the lowest frequency's.
READ_TOLERANCE = 0.01
GROWTH_LIMIT = 1.5
LOSS_LIMIT = 0.001
SENDER_TOLERANCE = 0.01
KNEE_RISE = 0.10


# Which calibration number set which parameter (doc/tno.rst, "Calibration"); every other
# number of the table is an independent check, or a known gap when doc/tno.rst explains why the
# model does not reach it.
PIPELINE_CALIBRATION = {
    ("1a", "latency_us"): "dmso-rti13ng per-operation cost K (39 300 R10000 cycles)",
    ("1a", "max_hz"): "dmso-rti13ng read-side cost ReflectTailCost (120 000 R10000 cycles)",
    ("1b", "max_hz"): "onyx-irix65 SendOffPathCost + RecvOffPathCost (IRIX off-path UDP work, "
                      "68 000 cycles each)",
    ("2", "latency_us"): "tno-rti upper-layer per-operation cost K, shared by RTI-DM and RTI-SM "
                         "(7 300 R10000 cycles)",
    ("2", "knee_hz"): "the RCI's ActionCost per Update action (19 600 R10000 cycles)",
    ("2", "max_hz"): "the RCI's ReflectCost per reflection (8 000 R10000 cycles)",
}
PIPELINE_REASONS = {
    "latency_us": "the accuracy of the host stack costs every latency rests on (lmbench figures "
                  "of an IP25 R10000 under IRIX 6.2, carried to IRIX 6.5 on the Onyx: +-25 %)",
    "knee_hz": "the study's resolution: a knee between two of its frequencies (1a: 300-375 Hz, "
               "25 % of 300 Hz)",
    "max_hz": "the measurement's resolution: 'above X Hz unacceptable loss' is a run-by-run "
              "search of unstated step; 15 % is wider than the sweep's steps near each maximum",
}
# Independent numbers the model does not reach, with the doc/tno.rst section that says why
# (issue 25's known_gap: listed, never a failure; the tolerance is not changed).
PIPELINE_GAPS = {
    ("1b", "latency_us"): (
        "no parameter was set on it; the model is about 215 us (+28 %) above it while 2's "
        "latency, with the same upper layers and RCI costs, is exact: the excess is in what 1b "
        "has and 2 has not, the IRIX UDP path twice (lmbench IRIX 6.2 on a POWER Challenge, "
        "loopback) and two store-and-forward hops; the IRIX stack figures of another OS release "
        "and machine class are the likely source (the same figures need 2.9x more off-path work "
        "to give 1b's maximum); nothing is tuned to close it",
        "doc/tno.rst, 'Calibration': 'Known gap: configuration 1b's latency'"),
}


def _validation(label, measured, simulated, tolerance, parameter, reason, gap=None):
    """A validation point with its role: "calibration" if the number set a parameter,
    "known_gap" if doc/tno.rst documents why the model misses it, else "check"."""
    if gap:
        return Validation(label, measured, simulated, tolerance, role="known_gap",
                          reason=f"{gap[0]}; tolerance: {reason}", doc=gap[1])
    return Validation(label, measured, simulated, tolerance,
                      role="calibration" if parameter else "check", reason=reason,
                      parameter=parameter)


def pipeline_points(scale):
    duration, runs = (1.0, 1) if scale == "quick" else (10.0, 3)
    pts = [{"config": c, "frequency": f, "duration": duration, "RngRun": run}
           for c, grid in GRID.items() for f in grid for run in range(1, runs + 1)]
    pts += [{"config": c, "frequency": f, "duration": duration, "band": b, "RngRun": run}
            for c in PREDICTIONS for b in BANDS for f in GRID[c] for run in range(1, runs + 1)]
    return pts


# Where a lost update was dropped (the record's counters), for the sweep's end.
LOSS_PLACES = (("socket_drops", "socket receive buffer"), ("queue_drops", "shared-memory queue"),
               ("qdisc_drops", "transmit queue"), ("nic_drops", "NIC ring"),
               ("mac_drops", "hub collisions"))


def _verdict(r, frequency):
    """Why a point ends the sweep (None if it does not): the criterion and what caused it."""
    if r["send_rate_hz"] < (1 - SENDER_TOLERANCE) * frequency:
        return "sender cannot reach the rate"
    if r["loss"] > LOSS_LIMIT:
        counts = [(r.get(k, 0) or 0, place) for k, place in LOSS_PLACES]
        n, place = max(counts)
        return "loss above 0.1 %" + (f" ({place})" if n > 0 else "")
    if (r["read_rate_hz"] < (1 - READ_TOLERANCE) * r["send_rate_hz"]
            or r["latency_growth"] > GROWTH_LIMIT):
        # The bottleneck: a federate whose CPU was busy all the window, else the network.
        shares = [(r.get(f"{k}_cpu_share") or 0, name) for k, name in
                  (("relay", "ReceiverSender"), ("receiver", "Receiver"))]
        share, name = max(shares)
        return "receiver falls behind" + (f" ({name} CPU)" if share >= 0.95 else
                                          " (network queue)" if r.get("network", "none") != "none"
                                          else "")
    return None


def sweep_summary(points):
    """points: [(frequency, mean latency us, verdict or None)] of one configuration, any order.
    Returns (latency at the lowest frequency, knee, max, the criterion that ended the sweep)."""
    points = sorted(points)
    lat0 = points[0][1]
    knee = None
    for f, lat, verdict in points:
        if verdict is not None or lat > (1 + KNEE_RISE) * lat0:
            break
        knee = f
    best, ended = None, "end of the frequency grid"
    for f, _, verdict in points:
        if verdict is not None:
            ended = verdict
            break
        best = f
    return lat0, knee, best, ended


def pipeline_analyse(records):
    by = {}
    rows = []
    for rec in records:
        c, f, r = rec.params["config"], rec.params["frequency"], rec.result
        band = rec.params.get("band", "central")
        verdict = _verdict(r, f)
        by.setdefault((c, band), {}).setdefault(f, []).append((r, verdict))
        rows.append({"config": c, "band": band, "frequency_hz": f, "run": rec.params["RngRun"],
                     "latency_mean_us": r["latency_mean_us"], "latency_max_us": r["latency_max_us"],
                     "loss": r["loss"], "read_rate_hz": r["read_rate_hz"],
                     "send_rate_hz": r["send_rate_hz"], "latency_growth": r["latency_growth"],
                     "relay_max_burst": r["relay_max_burst"],
                     "relay_cpu_share": r.get("relay_cpu_share"),
                     "receiver_cpu_share": r.get("receiver_cpu_share"),
                     "sender_cpu_share": r.get("sender_cpu_share"),
                     "verdict": verdict or "ok"})
    metrics, series = {}, []
    summaries = {}
    for (c, band), fs in by.items():
        pts = []
        for f, rs in fs.items():
            lat = sum(r["latency_mean_us"] for r, _ in rs) / len(rs)
            verdict = next((v for _, v in rs if v), None)
            pts.append((f, lat, verdict))
        summaries[(c, band)] = (sweep_summary(pts), pts)
    for c, (prefix, title) in CONFIGS.items():
        if (c, "central") not in summaries:
            continue
        (lat0, knee, best, ended), pts = summaries[(c, "central")]
        metrics[f"{prefix}_latency_us"] = lat0
        metrics[f"{prefix}_knee_hz"] = knee
        metrics[f"{prefix}_max_hz"] = best
        metrics[f"{prefix}_sweep_ended_by"] = ended
        # The prediction's band: the central value and the two ends of the ranges.
        ends = [summaries[(c, b)][0] for b in BANDS if (c, b) in summaries]
        if ends:
            for k, q in enumerate(("latency_us", "knee_hz", "max_hz")):
                values = [v[k] for v in ends + [(lat0, knee, best)] if v[k] is not None]
                if values:
                    metrics[f"{prefix}_{q}_low"] = min(values)
                    metrics[f"{prefix}_{q}_high"] = max(values)
            for b in BANDS:
                if (c, b) in summaries:
                    metrics[f"{prefix}_{b}_sweep_ended_by"] = summaries[(c, b)][0][3]
        ok = sorted((f, lat) for f, lat, v in pts if v is None)
        series.append(Series(title, [f for f, _ in ok], [lat for _, lat in ok]))
    facts = {(str(r["config"]), r["quantity"]): float(r["value"])
             for r in validation.load("tno03-pipeline.csv")}
    checks = []
    tolerance = {"latency_us": 25.0, "max_hz": 15.0, "knee_hz": 25.0}
    for (c, q), value in facts.items():
        sim = metrics.get(f"{CONFIGS[c][0]}_{q}")
        if sim is not None:
            param = PIPELINE_CALIBRATION.get((c, q))
            checks.append(_validation(f"{c} {q}", value, sim, tolerance[q], param,
                                      PIPELINE_REASONS.get((c, q), PIPELINE_REASONS[q]),
                                      PIPELINE_GAPS.get((c, q))))
    fig = Figure(name="pipeline-latency",
                 title="TNO03 Figs. 8-14: mean latency against the Sender's frequency",
                 xlabel="frequency (Hz)", ylabel="mean latency (us)", logx=True, logy=True,
                 series=series)
    notes = [
        "Sender -> ReceiverSender -> Receiver, 512-byte updates; latency = Receiver's time of "
        "the reflect minus the Sender's tag (one clock). Points that end a sweep (loss, fall-"
        "behind, sender rate) are left out of the figure. 1a, 1b, 2: calibration on SGI Onyx "
        "(doc/tno.rst says which cost was set from which number; 1a's knee is a check, 2's "
        "knee set RTI-SM's ReadCycleCost); 3a, "
        "3b, 4: predictions on iHawk PCs.",
    ]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig], notes=notes)


register(Experiment(
    id="tno-pipeline", study="TNO03",
    title="Pipeline latency against frequency, configurations 1a-4 (Figs. 8-14)",
    program="tno-pipeline", points=pipeline_points, analyse=pipeline_analyse))


# ----------------------------------------------------------------------------------------------
# tno-jitter: local scheduling jitter and network latency, no load.

JITTER_PROFILES = {"irix": "SGI Onyx, IRIX 6.5", "ihawk": "iHawk, RedHawk Linux"}
JITTER_MEASURES = {
    "sched": ("wake-up error of a periodic task on a shielded CPU (us)", "sched_jitter_us"),
    "net": ("latency (half the echo's round trip), 16-byte data in 44-byte UDP packets (us)",
            "net"),
}


def jitter_points(scale):
    # 10 000 activations / datagrams per run, as in the study; more runs at paper scale. The
    # iHawk network latency (a prediction) also at the ends of the iHawk's ranges (--band).
    runs = 1 if scale == "quick" else 5
    # The network latency by the study's method: two processes exchanging datagrams (an echo),
    # the latency half the round trip (tno-jitter --method=echo; doc/tno.rst).
    pts = [{"measure": m, "platform": p, "samples": 10000,
            "period": 1e-3 if m == "sched" else 1e-2, **({"method": "echo"} if m == "net" else {}),
            "RngRun": run}
           for m in JITTER_MEASURES for p in JITTER_PROFILES for run in range(1, runs + 1)]
    pts += [{"measure": "net", "platform": "ihawk", "samples": 10000, "period": 1e-2,
             "method": "echo", "band": b, "RngRun": run}
            for b in BANDS for run in range(1, runs + 1)]
    return pts


# doc/tno.rst: the shielded CPUs' sporadic events were set from the two scheduling jitters,
# IRIX CPU 0's event duration from the network latency maximum, the receive path's cold lines
# from the body of the IRIX distribution (mean - min); the minimum and the jitter are checks.
JITTER_CALIBRATION = {
    "irix_sched_jitter_us": "onyx-irix65 HostCpu ShieldedInterferenceRate and "
                            "ShieldedInterferenceDuration (30/s of 35 us)",
    "ihawk_sched_jitter_us": "ihawk-redhawk HostCpu ShieldedInterferenceDuration (2.5 us)",
    "irix_net_max_us": "onyx-irix65 HostCpu InterferenceDuration of CPU 0 (uniform 0-285 us)",
    "irix_net_mean_us": "onyx-irix65 HostNic ColdLines, with the minimum: the body mean - min "
                        "(uniform 0 to 2 m lines, m = 11)",
}
JITTER_REASON = ("the measurement's resolution: an extreme over 10 000 samples of sporadic events "
                 "is one draw; the host costs the minimum rests on are lmbench figures of an "
                 "IRIX 6.2 R10000 (+-25 %)")


def jitter_analyse(records):
    by = {}
    rows = []
    for rec in records:
        m, p, r = rec.params["measure"], rec.params["platform"], rec.result
        band = rec.params.get("band", "central")
        by.setdefault((m, p) if band == "central" else (m, p, band), []).append(rec)
        rows.append({"measure": m, "profile": p, "band": band, "run": rec.params["RngRun"],
                     "samples": r["samples"], "mean_us": r["mean_us"], "min_us": r["min_us"],
                     "max_us": r["max_us"], "jitter_us": r["jitter_us"]})
    metrics = {}
    for key, recs in sorted(by.items()):
        def avg(q):
            return sum(x.result[q] for x in recs) / len(recs)
        m, p = key[0], key[1]
        if m == "sched":
            metrics[f"{p}_sched_jitter_us"] = avg("jitter_us")
        elif len(key) == 2:
            for q in ("mean", "min", "max", "jitter"):
                metrics[f"{p}_net_{q}_us"] = avg(f"{q}_us")
        else:
            for q in ("mean", "min", "max", "jitter"):
                metrics[f"{p}_net_{q}_us_{key[2]}"] = avg(f"{q}_us")
    # The predictions' bands: the central value and the ends of the iHawk's ranges.
    for q in ("mean", "min", "max", "jitter"):
        values = [metrics[k] for k in (f"ihawk_net_{q}_us", *(f"ihawk_net_{q}_us_{b}"
                                                              for b in BANDS)) if k in metrics]
        if values:
            metrics[f"ihawk_net_{q}_us_low"] = min(values)
            metrics[f"ihawk_net_{q}_us_high"] = max(values)
        for b in BANDS:
            metrics.pop(f"ihawk_net_{q}_us_{b}", None)
    if "irix_net_mean_us" in metrics:
        # The body of the distribution: the number the cold-line count was set on.
        metrics["irix_net_body_us"] = metrics["irix_net_mean_us"] - metrics["irix_net_min_us"]
    checks = [_validation(str(row["metric"]), float(row["value"]), metrics[row["metric"]],
                          float(row["tolerance_pct"]), JITTER_CALIBRATION.get(row["metric"]),
                          JITTER_REASON)
              for row in validation.load("tno03-jitter.csv") if row["metric"] in metrics]
    figures = []
    for m, (xlabel, _) in JITTER_MEASURES.items():
        series = []
        for p, title in JITTER_PROFILES.items():
            recs = sorted(by.get((m, p), []), key=lambda x: x.params["RngRun"])
            if not recs:
                continue
            r = recs[0].result  # the first run's histogram (the study shows one run)
            w, x0, counts = r["hist_bin_us"], r["hist_start_us"], r["hist_counts"]
            series.append(Series(f"{title} (jitter {r['jitter_us']:.1f} us)",
                                 [x0 + (k + 0.5) * w for k in range(len(counts))], counts,
                                 style="histeps"))
        fig_no = "15" if m == "sched" else "16"
        figures.append(Figure(name=f"jitter-{m}",
                              title=f"TNO03 Fig. {fig_no}-like: histogram of the {xlabel}",
                              xlabel=xlabel, ylabel="samples per bin", logy=True,
                              series=series))
    notes = [
        "sched: a task on a shielded CPU (Onyx 250 MHz, iHawk 700 MHz) wakes every 1 ms, 10 000 "
        "times; wake-up error = time it runs - time it asked for; jitter = max - min. IRIX "
        "sleeps; RedHawk sleeps until 20 us before and busy-waits reading the clock. The "
        "sporadic events of the shielded CPUs were set from the 39 us and 3 us: these two "
        "checks are consistency checks (doc/tno.rst).",
        "net: an echo every 10 ms, 10 000 datagrams, between a process on a shielded CPU of "
        "the Onyx 250 MHz (iHawk 700 MHz) and one on the Onyx 195 MHz (iHawk 2400 MHz), through "
        "a 100 Mbit/s switch; the latency is half the round trip, from the sender's call to "
        "its return from reading the reply. iHawk values are predictions.",
    ]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=figures, notes=notes)


register(Experiment(
    id="tno-jitter", study="TNO03",
    title="Scheduling jitter and network latency, IRIX and RedHawk (Figs. 15-16)",
    program="tno-jitter", points=jitter_points, analyse=jitter_analyse))


# ----------------------------------------------------------------------------------------------
# tno-schedulers (an extension): the Fighter Federate's requirements with each RCI scheduler.

SCHEDULERS = {"default": "Default", "utc": "UTC-TM", "hla": "HLA-TM"}
NETWORKS = {"lan": "LAN", "degraded": "degraded link"}
CLOCKS = {"ntp": "NTP", "card": "clock card"}
SCHED_QUANTITIES = ("deadline_misses", "actions_not_run", "sched_jitter_us",
                    "component_latency_max_ms",
                    "federate_latency_mean_ms", "federate_latency_max_ms", "tso_violations")
# The Fighter Federate's requirements ([TNO03]): 1 ms scheduling accuracy, 30 ms between
# components, 100 ms between federates.
LIMITS = {"sched_jitter_us": 1000.0, "component_latency_max_ms": 30.0,
          "federate_latency_max_ms": 100.0}


def schedulers_points(scale):
    duration, runs = (3.0, 1) if scale == "quick" else (60.0, 3)
    return [{"scheduler": s, "network": n, "clock": c, "duration": duration, "RngRun": run}
            for s in SCHEDULERS for n in NETWORKS for c in CLOCKS for run in range(1, runs + 1)]


def schedulers_analyse(records):
    by = {}
    rows = []
    for rec in records:
        p, r = rec.params, rec.result
        key = (p["scheduler"], p["network"], p["clock"])
        by.setdefault(key, []).append(r)
        rows.append({"scheduler": p["scheduler"], "network": p["network"], "clock": p["clock"],
                     "run": p["RngRun"], **{q: r[q] for q in SCHED_QUANTITIES}})
    metrics = {}
    for (s, n, c), rs in sorted(by.items()):
        for q in SCHED_QUANTITIES:
            metrics[f"{s}_{n}_{c}_{q}"] = sum(r[q] for r in rs) / len(rs)
        for q, limit in LIMITS.items():
            metrics[f"{s}_{n}_{c}_{q}_within_limit"] = all(r[q] <= limit for r in rs)
    series = []
    for s, stitle in SCHEDULERS.items():
        for c, ctitle in CLOCKS.items():
            xs = [i for i, n in enumerate(NETWORKS) if (s, n, c) in by]
            ys = [metrics[f"{s}_{n}_{c}_federate_latency_max_ms"] for n in NETWORKS
                  if (s, n, c) in by]
            series.append(Series(f"{stitle}, {ctitle}", xs, ys, style="linespoints"))
    fig = Figure(name="schedulers-latency",
                 title="Fighter Federate: largest latency between federates (limit 100 ms)",
                 xlabel="network (0 = LAN, 1 = degraded link)", ylabel="latency (ms)",
                 xrange=(-0.5, 1.5), series=series)
    notes = [
        "An extension (the study gives the requirements, not this experiment): two cockpit "
        "federates and a CGF federate (150 entities) over RTI-DM on iHawk 700 MHz machines; the "
        "schedule sheet and the component costs are in doc/tno.rst. Degraded link: the link "
        "emulator on both machines' egress, 40 ms +- 10 ms, 1 % loss, 4 Mbit/s. HLA-TM: every "
        "federate time-regulating and time-constrained with a 1 ms lookahead, the Fedex "
        "computing the GALT, RTI-DM's messages over TCP (doc/tno.rst); its TSO violations are 0 "
        "by construction (checked). deadline_misses counts the cockpits' actions that started "
        "more than 1 ms late and those due before the end that never started "
        "(actions_not_run: a federate held back waiting for its grant).",
    ]
    return Analysis(rows=rows, metrics=metrics, validation=[], figures=[fig], notes=notes)


register(Experiment(
    id="tno-schedulers", study="TNO03",
    title="Fighter Federate requirements with the RCI schedulers (extension)",
    program="tno-schedulers", points=schedulers_points, analyse=schedulers_analyse))
