"""[MEGA06] section 4.4: flooding onto the senders, and the overloaded IGMP querier.

mega-flooding: send_udp PCs under the multicast load that a switch without IGMP snooping floods
onto them, against the same PCs with snooping (the load stays off their ports).
mega-querier: the querier PC (mrouted) on the multicast-router port under all multicast, with and
without NIC interrupt moderation; the queries, the switch's memberships, the receivers' data.
"""

import math
from statistics import mean

from .. import validation
from ..experiment import Analysis, Experiment, Figure, Series, Validation, register

# --------------------------------------------------------------------------------------------
# mega-flooding

PAPER_LOADS = [1e3, 3e3, 1e4, 2e4, 3e4, 5e4, 7e4, 1e5, 2e5, 3e5, 1e6]
QUICK_LOADS = [1e3, 3e3, 1e4, 3e4, 5e4, 1e5, 3e5, 1e6]
QUICK_SNOOPING_LOADS = [1e3, 3e4, 1e5, 1e6]  # snooping on: the load never reaches the PCs
# "Disturbed": a send-interval deviation 1.25x the unflooded one (the pooled estimate's
# statistical error is about 1 % with the thousands of intervals of a point), or a send rate
# under 99 % of the unflooded one.
DISTURBED_STD_FACTOR = 1.25
DISTURBED_RATE = 0.99
STOPPED_RATE = 0.01  # "could not send": under 1 % of it

# Result fields of a mega-flooding point copied into data.csv, in column order.
FLOODING_COLUMNS = (
    "sender_rx_pps", "send_rate_per_node", "send_interval_mean_us",
    "send_interval_std_us", "send_interval_node_std_mean_us", "sender_cpu_hardirq",
    "sender_cpu_softirq", "sender_cpu_process", "sender_ring_drops_pps",
    "sender_backlog_drops_pps", "receiver_rx_pps", "sara_packets",
    "sara_drops", "sara_drop_rate", "sara_buffer_drops",
    "sara_recv_interval_std_us",
)


def _label(load):
    """1e4 -> '1e4', 3e4 -> '3e4', 1e6 -> '1e6'."""
    e = int(math.floor(math.log10(load) + 1e-9))
    m = load / 10 ** e
    return f"{m:g}e{e}"


def _facts():
    return {r["fact"]: r for r in validation.load("mega06-facts.csv")}


def flooding_points(scale):
    quick = scale == "quick"
    pcs = 1 if quick else 4
    pts = []
    # Calibration check: one send_udp process on one PC, no load, a long observation.
    pts.append({"role": "one-process", "senderPcs": 1, "nodesPerPc": 1, "snooping": True,
                "load": 0.0, "warmup": 2.0, "duration": 120.0 if quick else 600.0,
                "loadLead": 0.0})
    # Receiver capacity: one MEGA06 set, 4 PCs x 5 000 nodes = 20 000 nodes to one receiver.
    pts.append({"role": "receiver-20000", "senderPcs": 4, "nodesPerPc": 5000, "snooping": True,
                "load": 0.0, "warmup": 2.0, "duration": 3.0 if quick else 20.0,
                "loadLead": 0.0})
    for snooping in (False, True):
        loads = QUICK_LOADS if quick else PAPER_LOADS
        if quick and snooping:
            loads = QUICK_SNOOPING_LOADS
        for load in loads:
            # The window: every node sends once a second, so a window of T s gives about
            # T intervals per node (pooled over 5 000 nodes per PC). Loads that stop the
            # senders need little of it; the load starts `lead` s before it (the CPU reaches
            # its regime within a tick).
            if quick:
                duration, lead = (2.0, 0.5) if load <= 1e5 else (0.5, 0.25)
            else:
                duration, lead = (10.0, 1.0) if load <= 1e5 else (3.0, 1.0)
            pts.append({"role": "sweep", "senderPcs": pcs, "nodesPerPc": 5000,
                        "snooping": snooping, "load": load, "warmup": 2.0,
                        "duration": duration, "loadLead": lead})
    return pts


def flooding_analyse(records):
    facts = _facts()
    rows = []
    sweep = {True: {}, False: {}}
    one = rx20k = None
    for rec in records:
        p, r = rec.params, rec.result
        rows.append({"role": p["role"], "snooping": p["snooping"], "load_pps": p["load"],
                     "sender_pcs": p["senderPcs"], "nodes_per_pc": p["nodesPerPc"],
                     "duration_s": p["duration"],
                     **{k: r[k] for k in FLOODING_COLUMNS}, "events": r.get("events")})
        if p["role"] == "one-process":
            one = r
        elif p["role"] == "receiver-20000":
            rx20k = r
        else:
            sweep[p["snooping"]][p["load"]] = r

    # The unflooded reference: the snooping-on points (the load never reaches the PCs), those
    # with windows of at least 2 s (a window shorter than the 1.008 s interval holds no
    # interval, and its send count is a coarse rate estimate).
    ref = [r for r in sweep[True].values() if r["duration_s"] >= 2.0 and r["send_intervals"] > 0]
    ref_rate = sum(r["sent"] for r in ref) / sum(
        r["duration_s"] * r["sender_pcs"] * r["nodes_per_pc"] for r in ref)
    ref_std = mean(r["send_interval_std_us"] for r in ref)
    metrics = {
        "flooding_send_rate_per_node_unflooded": ref_rate,
        "flooding_send_interval_std_us_unflooded": ref_std,
    }
    disturbed = stopped = None
    prev = None  # (load, std ratio) of the last undisturbed point
    for load in sorted(sweep[False]):
        r = sweep[False][load]
        ratio = r["send_rate_per_node"] / ref_rate
        lab = _label(load)
        metrics[f"flooding_send_rate_ratio_at_{lab}pps"] = ratio
        metrics[f"flooding_send_interval_std_us_at_{lab}pps"] = (
            r["send_interval_std_us"] if r["send_intervals"] > 0 else None)
        sr = r["send_interval_std_us"] / ref_std if r["send_intervals"] > 0 else None
        if disturbed is None:
            if sr is not None and sr >= DISTURBED_STD_FACTOR and ratio >= DISTURBED_RATE \
                    and prev is not None:
                # Where the deviation crosses the threshold: linear in the deviation ratio,
                # logarithmic in the load, between this point and the last undisturbed one.
                f = (DISTURBED_STD_FACTOR - prev[1]) / (sr - prev[1])
                disturbed = 10 ** (math.log10(prev[0])
                                   + f * (math.log10(load) - math.log10(prev[0])))
            elif ratio < DISTURBED_RATE or sr is None or sr >= DISTURBED_STD_FACTOR:
                disturbed = load  # sending already impaired: the grid point
            else:
                prev = (load, sr)
        if stopped is None and ratio < STOPPED_RATE:
            stopped = load
    metrics["flooding_load_where_sending_disturbed_pps"] = disturbed
    metrics["flooding_load_where_sending_stopped_pps"] = stopped
    metrics["flooding_one_process_send_interval_std_us"] = one["send_interval_std_us"]
    metrics["flooding_5000_processes_send_interval_std_us"] = ref_std
    metrics["flooding_receiver_20000_nodes_drop_rate"] = rx20k["sara_drop_rate"]
    metrics["flooding_receiver_20000_nodes_lost_packets"] = (
        rx20k["sara_drops"] + rx20k["sara_buffer_drops"])
    metrics["flooding_receiver_20000_nodes_recv_interval_std_us"] = (
        rx20k["sara_recv_interval_std_us"])
    top = max(sweep[False])

    checks = [
        Validation("one send_udp process per PC: send-interval std (us) [calibration]",
                   facts["one_process_send_interval_std_us"]["value"],
                   one["send_interval_std_us"],
                   facts["one_process_send_interval_std_us"]["tolerance_pct"]),
        Validation("a Group B PC with 20 000 nodes: drop rate",
                   facts["receiver_20000_nodes_drop_rate"]["value"],
                   (rx20k["sara_drops"] + rx20k["sara_buffer_drops"])
                   / max(1, rx20k["sara_packets"] + rx20k["sara_drops"]),
                   facts["receiver_20000_nodes_drop_rate"]["tolerance_pct"]),
        Validation("log10 of the flooded load that disturbs sending (packets/s)",
                   facts["disturbing_flooded_load_log10_pps"]["value"],
                   math.log10(disturbed) if disturbed else float("nan"),
                   facts["disturbing_flooded_load_log10_pps"]["tolerance_pct"]),
        Validation(f"send rate at {_label(top)} packets/s flooded / unflooded",
                   facts["send_rate_ratio_at_1e6_flooded"]["value"],
                   metrics[f"flooding_send_rate_ratio_at_{_label(top)}pps"],
                   facts["send_rate_ratio_at_1e6_flooded"]["tolerance_pct"]),
    ]

    figs = []
    for key, ylabel, name, title, logy in (
            ("ratio", "send rate / unflooded send rate", "flooding-send-rate",
             "MEGA06: the senders' send rate under flooded multicast", False),
            ("std", "send-interval standard deviation (us)", "flooding-send-interval",
             "MEGA06: send-interval deviation under flooded multicast", True)):
        series = []
        for snooping, title_s in ((False, "snooping off (load flooded onto the PCs)"),
                                  (True, "snooping on")):
            xs = sorted(sweep[snooping])
            if key == "ratio":
                ys = [sweep[snooping][x]["send_rate_per_node"] / ref_rate for x in xs]
            else:
                ys = [sweep[snooping][x]["send_interval_std_us"]
                      if sweep[snooping][x]["send_intervals"] > 0 else None for x in xs]
            series.append(Series(title_s, xs, ys))
        extra = []
        if key == "std":
            series.append(Series("one process per PC", [min(sweep[False]), max(sweep[False])],
                                 [one["send_interval_std_us"]] * 2, style="lines"))
        figs.append(Figure(name=name, title=title, xlabel="multicast load of the other senders "
                           "(packets/s)", ylabel=ylabel, logx=True, logy=logy,
                           xrange=(500, 2e6),
                           yrange=(-0.05, 1.1) if key == "ratio" else None, series=series,
                           extra=extra + ["set key bottom left"]))
    pcs = records[-1].params["senderPcs"]
    notes = [
        f"{pcs} sender PC(s) with 5 000 send_udp virtual nodes each (StarBED profile "
        "starbed-p3-linux2613: Pentium III 1 GHz, Linux 2.6.13, HZ=250, legacy e1000 driver, no "
        "interrupt moderation) and one receiver; the other senders' multicast (x axis) enters "
        "from the rest of the network. With snooping it stays off the PCs' ports; without, the "
        "switch floods it onto them and every frame costs an interrupt and the kernel's packet "
        "processing, which preempt the send_udp processes.",
        f"Sending is disturbed (send-interval std {DISTURBED_STD_FACTOR}x the unflooded "
        f"{ref_std:.0f} us) from about {disturbed:.3g} packets/s and stops (receive livelock) "
        f"from {stopped:g} packets/s."
        if disturbed and stopped else "See the metrics for the thresholds.",
    ]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=figs, notes=notes)


# --------------------------------------------------------------------------------------------
# mega-querier

QUICK_ITRS = [0, 8000, 100]
PAPER_ITRS = [0, 8000, 2000, 1000, 500, 250, 100]


def querier_points(scale):
    if scale == "quick":
        return [{"load": 1e5, "itr": itr, "igmpTimeScale": 0.02, "duration": 1.25,
                 "nodesPerPc": 1000, "receivers": 2} for itr in QUICK_ITRS]
    return [{"load": 1e6, "itr": itr, "igmpTimeScale": 0.1, "duration": 2.0,
             "nodesPerPc": 5000, "receivers": 4} for itr in PAPER_ITRS]

# Result fields of a mega-querier point copied into data.csv, in column order.
QUERIER_COLUMNS = (
    "query_interval_s", "gmi_s", "queries_due_under_load",
    "queries_on_time_under_load", "queries_on_time_fraction", "query_delay_max_s",
    "memberships_timed_out", "data_memberships_timed_out", "first_data_timeout_s",
    "data_delivered_fraction_tail", "querier_rx_pps", "querier_interrupts_per_s",
    "querier_ring_drops_pps", "querier_backlog_drops_pps", "querier_cpu_hardirq",
    "querier_cpu_softirq", "querier_cpu_process",
)


def _itr_label(itr):
    return "unmoderated" if itr == 0 else f"{int(itr)}/s"


def querier_analyse(records):
    facts = _facts()
    rows = []
    by_itr = {}
    for rec in records:
        p, r = rec.params, rec.result
        by_itr[p["itr"]] = r
        rows.append({"load_pps": p["load"], "itr": p["itr"],
                     "igmp_time_scale": p["igmpTimeScale"],
                     **{k: r[k] for k in QUERIER_COLUMNS}, "events": r.get("events")})
    itrs = sorted(by_itr)
    mod = min(i for i in itrs if i > 0)  # the strongest limitation swept
    un = by_itr[0]
    m = by_itr[mod]
    metrics = {
        "querier_load_pps": records[0].params["load"],
        "querier_igmp_query_interval_s": un["query_interval_s"],
        "querier_group_membership_interval_s": un["gmi_s"],
        "querier_moderated_interrupt_rate": mod,
        "querier_queries_on_time_fraction_moderated": m["queries_on_time_fraction"],
        "querier_memberships_timed_out_moderated": m["memberships_timed_out"],
        "querier_receiver_memberships_timed_out_unmoderated": un["data_memberships_timed_out"],
        "querier_receiver_memberships_timed_out_moderated": m["data_memberships_timed_out"],
        "querier_data_delivered_fraction_unmoderated": un["data_delivered_fraction_tail"],
        "querier_data_delivered_fraction_moderated": m["data_delivered_fraction_tail"],
        "querier_cpu_process_share_unmoderated": un["querier_cpu_process"],
        "querier_cpu_kernel_share_unmoderated":
            un["querier_cpu_hardirq"] + un["querier_cpu_softirq"],
        "querier_cpu_kernel_share_moderated":
            m["querier_cpu_hardirq"] + m["querier_cpu_softirq"],
        "querier_first_membership_timeout_after_load_start_s":
            (un["first_data_timeout_s"] - un["load_start_s"])
            if un["first_data_timeout_s"] >= 0 else None,
    }
    ok = [i for i in itrs if i > 0 and by_itr[i]["queries_on_time_fraction"] == 1.0
          and by_itr[i]["memberships_timed_out"] == 0]
    metrics["querier_max_interrupt_rate_keeping_queries_on_time"] = max(ok) if ok else None
    for i in itrs:  # (the unmoderated ones too)
        lab = "unmoderated" if i == 0 else f"itr_{int(i)}"
        metrics[f"querier_queries_on_time_fraction_{lab}"] = by_itr[i]["queries_on_time_fraction"]
        metrics[f"querier_memberships_timed_out_{lab}"] = by_itr[i]["memberships_timed_out"]
    checks = [
        Validation("unmoderated querier NIC: fraction of queries on time",
                   facts["querier_queries_on_time_unmoderated"]["value"],
                   un["queries_on_time_fraction"],
                   facts["querier_queries_on_time_unmoderated"]["tolerance_pct"]),
        Validation(f"NIC limited to {int(mod)} interrupts/s: fraction of queries on time",
                   facts["querier_queries_on_time_moderated"]["value"],
                   m["queries_on_time_fraction"],
                   facts["querier_queries_on_time_moderated"]["tolerance_pct"]),
    ]
    # Figure 1: the receivers' data over time.
    series = []
    for i in itrs:
        r = by_itr[i]
        b = r["bin_s"]
        xs = [(k + 0.5) * b for k in range(len(r["receiver_pps"]))]
        series.append(Series(f"querier NIC {_itr_label(i)}", xs[:-1], r["receiver_pps"][:-1],
                             style="lines"))
    r0 = by_itr[0]
    extra = [f"set arrow from {r0['load_start_s']},graph 0 to {r0['load_start_s']},graph 1 "
             "nohead dt 2", f"set label 'load starts' at {r0['load_start_s']},graph 0.3 offset 1"]
    first = r0["first_data_timeout_s"]
    if first >= 0:
        extra += [f"set arrow from {first},graph 0 to {first},graph 1 nohead dt 3",
                  f"set label 'first membership timeout' at {first},graph 0.5 right offset -1"]
    fig1 = Figure(name="querier-timeline",
                  title="MEGA06: data per receiver while the querier PC is under all multicast",
                  xlabel="time (s)", ylabel="packets/s per receiver", series=series,
                  yrange=(0, None), extra=extra + ["set key bottom left"])
    # Figure 2: queries on time, data delivered vs interrupt limit.
    big = max(i for i in itrs) * 4
    xs = [i if i > 0 else big for i in itrs]
    fig2 = Figure(name="querier-moderation",
                  title="MEGA06: IGMP querier vs NIC interrupt limit",
                  xlabel="querier NIC MaxInterruptRate (interrupts/s; 'off' = unmoderated)",
                  ylabel="fraction", logx=True, yrange=(-0.05, 1.05),
                  series=[Series("general queries on time (under load)", xs,
                                 [by_itr[i]["queries_on_time_fraction"] for i in itrs],
                                 style="points"),
                          Series("data delivered to the receivers (end of run)", xs,
                                 [by_itr[i]["data_delivered_fraction_tail"] for i in itrs],
                                 style="points"),
                          Series("querier CPU left to processes", xs,
                                 [1 - by_itr[i]["querier_cpu_hardirq"]
                                  - by_itr[i]["querier_cpu_softirq"] for i in itrs],
                                 style="points")],
                  xrange=(min(itrs[1:]) / 2, big * 2),
                  extra=[f"set xtics add ('off' {big})", "set key center left",
                         "set pointsize 2"])
    p0 = records[0].params
    notes = [
        f"The querier PC (mrouted, a user process; StarBED profile, legacy e1000 driver) is on a "
        f"static multicast-router port and receives all multicast: {p0['load']:g} packets/s "
        f"from the other senders plus one sender PC's {p0['nodesPerPc']} nodes. IGMP timers are "
        f"the RFC 2236 defaults times {p0['igmpTimeScale']} (Query Interval "
        f"{un['query_interval_s']:g} s, Group Membership Interval {un['gmi_s']:g} s), so a "
        "membership that no query refreshes expires within the run; the load starts after the "
        "startup queries were answered.",
        f"Unmoderated, the NIC's interrupts and the kernel's packet processing take "
        f"{metrics['querier_cpu_kernel_share_unmoderated']:.0%} of the CPU: "
        f"{un['queries_on_time_under_load']} of {un['queries_due_under_load']} queries due under "
        f"load went out on time, {un['memberships_timed_out']} memberships timed out and the "
        f"receivers got {un['data_delivered_fraction_tail']:.0%} of the data at the end. Limited "
        f"to {int(mod)} interrupts/s, {m['queries_on_time_under_load']} of "
        f"{m['queries_due_under_load']} were on time.",
    ]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig1, fig2],
                    notes=notes)


register(Experiment(
    id="mega-flooding", study="MEGA06",
    title="Multicast flooded onto the sender PCs without IGMP snooping (section 4.4)",
    program="mega-flooding", points=flooding_points, analyse=flooding_analyse, progress=True))

register(Experiment(
    id="mega-querier", study="MEGA06",
    title="The IGMP querier PC under all multicast, with and without interrupt moderation "
          "(section 4.4)",
    program="mega-querier", points=querier_points, analyse=querier_analyse, progress=True))
