"""[MEGA06]: flooding onto the senders, the overloaded IGMP querier, multiplexing, receiver
capacity, scaling method A and the Catalyst 6009.

mega-flooding: send_udp PCs under the multicast load that a switch without IGMP snooping floods
onto them, against the same PCs with snooping (the load stays off their ports).
mega-querier: the querier PC (mrouted) on the multicast-router port under all multicast, with and
without NIC interrupt moderation; the queries, the switch's memberships, the receivers' data.
mega-multiplex: 1 to 10 000 send_udp processes on one PC (Figs. 5-7).
mega-receiver: one Group B receiver against 5 000 to 60 000 nodes.
mega-scale: scaling method A, 20 000 to 10^6 nodes (Figs. 9-10).
mega-cat6009: 640 000 nodes, 32 receivers, 0..32 of them on the Catalyst 6009 (Fig. 11).
"""

import math
from statistics import mean

import numpy as np

from .. import mega_split, validation
from ..experiment import (EXTREME_SEEDS, Analysis, Experiment, Figure, Series, Validation,
                          register, set_seed_interval)
from ..regimes import set_regime

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
    """validation/mega06-facts.csv by metric name."""
    return validation.facts("mega06-facts.csv")


# doc/mega.rst, "Calibration and validation": the two facts that set a parameter; the others are
# checks. The tolerances are the ranges the study's sentences allow (the "reading" column of
# validation/mega06-facts.csv).
CALIBRATION = {
    "flooding_one_process_send_interval_std_us":
        "HostPlatform::SchedulingLatency of starbed-p3-linux2613 (exponential, mean 212 us)",
    "flooding_receiver_20000_nodes_drop_rate": "Sara::BufferPackets (113 frames)",
}
REASONS = {
    "flooding_one_process_send_interval_std_us":
        "the study's stated accuracy: 'a few hundred microseconds', read as 300 us, 150-450 us",
    "flooding_receiver_20000_nodes_drop_rate":
        "the study's statement 'no loss' is exact: one lost packet fails it",
    "flooding_load_where_sending_disturbed_log10_pps":
        "the study's stated accuracy: 'tens of thousands of packets/s' is 10^4-10^5, log10 4-5 "
        "around 4.5",
    "flooding_send_rate_ratio_at_1e6pps":
        "the study's statement 'could not even send' is exact: any packet sent fails it",
    "querier_queries_on_time_fraction_unmoderated":
        "the study's statement 'failed to send IGMP queries' is exact: any query on time fails "
        "it",
    "querier_queries_on_time_fraction_moderated":
        "the study's statement 'fixed it' is exact: every query on time",
}


def _fact_check(label, fact, simulated):
    """A validation point of a [MEGA06] fact: its number, tolerance, role and reason; a list of
    per-seed values is compared as its seed interval (a standard deviation of few intervals)."""
    f = _facts()[fact]
    kw = dict(role="calibration" if fact in CALIBRATION else "check", reason=REASONS[fact],
              parameter=CALIBRATION.get(fact))
    if isinstance(simulated, list):
        return Validation.over_seeds(label, f["value"], simulated, f["tolerance_pct"], "std",
                                     **kw)
    return Validation(label, f["value"], simulated, f["tolerance_pct"], **kw)


def flooding_points(scale):
    quick = scale == "quick"
    pcs = 1 if quick else 4
    pts = []
    # Calibration check: one send_udp process on one PC, no load, a long observation. The
    # standard deviation of about a hundred intervals (quick) moves by tens of percent with the
    # seed (222-380 us over RngRun 1-10): over EXTREME_SEEDS seeds, a seed interval.
    for run in range(1, EXTREME_SEEDS[scale] + 1):
        pts.append({"role": "one-process", "senderPcs": 1, "nodesPerPc": 1, "snooping": True,
                    "loadPps": 0.0, "warmup": 2.0, "duration": 120.0 if quick else 600.0,
                    "loadLead": 0.0, **({"RngRun": run} if run > 1 else {})})
    # Receiver capacity: one MEGA06 set, 4 PCs x 5 000 nodes = 20 000 nodes to one receiver.
    pts.append({"role": "receiver-20000", "senderPcs": 4, "nodesPerPc": 5000, "snooping": True,
                "loadPps": 0.0, "warmup": 2.0, "duration": 3.0 if quick else 20.0,
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
                        "snooping": snooping, "loadPps": load, "warmup": 2.0,
                        "duration": duration, "loadLead": lead})
    return pts


def flooding_analyse(records):
    rows = []
    sweep = {True: {}, False: {}}
    rx20k = None
    ones = {}  # RngRun -> the one-process record
    for rec in records:
        p, r = rec.params, rec.result
        rows.append({"role": p["role"], "snooping": p["snooping"], "load_pps": p["loadPps"],
                     "sender_pcs": p["senderPcs"], "nodes_per_pc": p["nodesPerPc"],
                     "duration_s": p["duration"],
                     **{k: r[k] for k in FLOODING_COLUMNS}, "events": r.get("events")})
        if p["role"] == "one-process":
            ones[p.get("RngRun", 1)] = r
        elif p["role"] == "receiver-20000":
            rx20k = r
        else:
            sweep[p["snooping"]][p["loadPps"]] = r

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
    metrics["flooding_load_where_sending_disturbed_log10_pps"] = (
        math.log10(disturbed) if disturbed else None)
    metrics["flooding_load_where_sending_stopped_pps"] = stopped
    one_std = [ones[k]["send_interval_std_us"] for k in sorted(ones)]
    set_seed_interval(metrics, "flooding_one_process_send_interval_std_us", one_std)
    metrics["flooding_5000_processes_send_interval_std_us"] = ref_std
    metrics["flooding_receiver_20000_nodes_drop_rate"] = rx20k["sara_drop_rate"]
    metrics["flooding_receiver_20000_nodes_lost_packets"] = (
        rx20k["sara_drops"] + rx20k["sara_buffer_drops"])
    metrics["flooding_receiver_20000_nodes_recv_interval_std_us"] = (
        rx20k["sara_recv_interval_std_us"])
    top = max(sweep[False])

    checks = [
        _fact_check("one send_udp process per PC: send-interval std (us) [calibration]",
                    "flooding_one_process_send_interval_std_us", one_std),
        _fact_check("a Group B PC with 20 000 nodes: drop rate",
                    "flooding_receiver_20000_nodes_drop_rate",
                    (rx20k["sara_drops"] + rx20k["sara_buffer_drops"])
                    / max(1, rx20k["sara_packets"] + rx20k["sara_drops"])),
        _fact_check("log10 of the flooded load that disturbs sending (packets/s)",
                    "flooding_load_where_sending_disturbed_log10_pps",
                    math.log10(disturbed) if disturbed else float("nan")),
        _fact_check(f"send rate at {_label(top)} packets/s flooded / unflooded",
                    "flooding_send_rate_ratio_at_1e6pps",
                    metrics[f"flooding_send_rate_ratio_at_{_label(top)}pps"]),
    ]

    figs = []
    for key, ylabel, name, title, logy in (
            ("ratio", "send rate / unflooded send rate (ratio)", "flooding-send-rate",
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
        facts = _facts()
        if key == "std":
            series.append(Series(f"one process per PC (median of {len(one_std)} seeds)",
                                 [min(sweep[False]), max(sweep[False])],
                                 [metrics["flooding_one_process_send_interval_std_us"]] * 2,
                                 style="lines"))
            # The study's "a few hundred microseconds" (read as 300 us) with one process per PC.
            series.append(Series("measured [MEGA06]: one process per PC, a few hundred us",
                                 [min(sweep[False]), max(sweep[False])],
                                 [facts["flooding_one_process_send_interval_std_us"]["value"]] * 2,
                                 style="points"))
        else:
            # The study's "at 10^6 packets/s flooded a PC could not even send".
            series.append(Series("measured [MEGA06]: could not even send at 10^6 packets/s",
                                 [1e6], [facts["flooding_send_rate_ratio_at_1e6pps"]["value"]],
                                 style="points"))
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
        return [{"loadPps": 1e5, "querierItr": itr, "igmpTimeScale": 0.02, "durationGmi": 1.25,
                 "nodesPerPc": 1000, "receivers": 2} for itr in QUICK_ITRS]
    return [{"loadPps": 1e6, "querierItr": itr, "igmpTimeScale": 0.1, "durationGmi": 2.0,
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
    rows = []
    by_itr = {}
    for rec in records:
        p, r = rec.params, rec.result
        by_itr[p["querierItr"]] = r
        rows.append({"load_pps": p["loadPps"], "itr": p["querierItr"],
                     "igmp_time_scale": p["igmpTimeScale"],
                     **{k: r[k] for k in QUERIER_COLUMNS}, "events": r.get("events")})
    itrs = sorted(by_itr)
    mod = min(i for i in itrs if i > 0)  # the strongest limitation swept
    un = by_itr[0]
    m = by_itr[mod]
    metrics = {
        "querier_load_pps": records[0].params["loadPps"],
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
        _fact_check("unmoderated querier NIC: fraction of queries on time",
                    "querier_queries_on_time_fraction_unmoderated", un["queries_on_time_fraction"]),
        _fact_check(f"NIC limited to {int(mod)} interrupts/s: fraction of queries on time",
                    "querier_queries_on_time_fraction_moderated", m["queries_on_time_fraction"]),
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
                  xlabel="time (s)", ylabel="data per receiver (packets/s)", series=series,
                  yrange=(0, None), extra=extra + ["set key bottom left"])
    # Figure 2: queries on time, data delivered vs interrupt limit.
    big = max(i for i in itrs) * 4
    xs = [i if i > 0 else big for i in itrs]
    fig2 = Figure(name="querier-moderation",
                  title="MEGA06: IGMP querier vs NIC interrupt limit",
                  xlabel="querier NIC MaxInterruptRate (interrupts/s; 'off' = unmoderated)",
                  ylabel="fraction (0 to 1)", logx=True, yrange=(-0.05, 1.05),
                  series=[Series("general queries on time (under load)", xs,
                                 [by_itr[i]["queries_on_time_fraction"] for i in itrs],
                                 style="points"),
                          Series("data delivered to the receivers (end of run)", xs,
                                 [by_itr[i]["data_delivered_fraction_tail"] for i in itrs],
                                 style="points"),
                          Series("querier CPU left to processes", xs,
                                 [1 - by_itr[i]["querier_cpu_hardirq"]
                                  - by_itr[i]["querier_cpu_softirq"] for i in itrs],
                                 style="points"),
                          # The study: the unmoderated querier failed to send its queries; the
                          # limited interrupt rate (the strongest limitation swept) fixed it.
                          Series("measured [MEGA06]: queries on time, unmoderated / limited",
                                 [big, mod],
                                 [_facts()["querier_queries_on_time_fraction_unmoderated"]["value"],
                                  _facts()["querier_queries_on_time_fraction_moderated"]["value"]],
                                 style="points")],
                  xrange=(min(itrs[1:]) / 2, big * 2),
                  extra=[f"set xtics add ('off' {big})", "set key center left",
                         "set pointsize 2"])
    p0 = records[0].params
    notes = [
        f"The querier PC (mrouted, a user process; StarBED profile, legacy e1000 driver) is on a "
        f"static multicast-router port and receives all multicast: {p0['loadPps']:g} packets/s "
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


# --------------------------------------------------------------------------------------------
# mega-multiplex

QUICK_COUNTS = [1, 100, 1000, 5000, 10000]
PAPER_COUNTS = [1, 10, 100, 500, 1000, 2000, 3000, 5000, 7000, 10000]
PAPER_MEMORY_MB = [128, 256, 384, 512, 768, 1024]
NORMAL_STD_FRACTION = 1e-3  # [MEGA06]: std of the send interval <= 1/1000 of the interval
INTERVAL_US = 1e6
# The memory cap's cliff (doc/mega.rst, "Memory"): fork fails beyond
# floor((Memory - BaseMemory) / ProcessMemory) processes, 7 671 on the 512 MB PC with the
# profile's 40 MB and 63 KB. Inside those two estimates' ranges (30-60 MB, 48-96 KB) the cap
# runs from 4 821 to 10 282, across the sweep's largest count (10 000): at the ranges' low ends
# every process asked for runs. The largest count runs there too, the other side of the cliff.
CAP_OTHER_SIDE = {"HostPlatform.BaseMemory": 31457280, "HostPlatform.ProcessMemory": 49152}


def memory_cap(memory, base, process):
    """The processes a PC of `memory` bytes holds (doc/mega.rst, "Memory"): fork fails once the
    kernel and daemons (`base`) and the processes (`process` each) would exceed it."""
    return (memory - base) // process


def cap_regime(record):
    """The regime of a mega-multiplex count point: 'memory-capped' when fork failed before every
    process asked for ran, else 'all asked for run'."""
    return "memory-capped" if record["launch_failed"] else "all asked for run"


def multiplex_points(scale):
    quick = scale == "quick"
    pts = []
    for n in QUICK_COUNTS if quick else PAPER_COUNTS:
        if n == 1:
            dur = 60.0 if quick else 600.0
        else:
            dur = 3.0 if quick else 30.0
        pts.append({"role": "count", "nodes": n, "duration": dur, "memoryMb": 0,
                    "seriesLength": 10.0 if quick else 20.0, "bin": 1.0})
    # The other side of the memory cap's cliff: the largest count with the memory estimates at
    # their ranges' low ends.
    other = dict(pts[-1], role="cap-other-side",
                 hostSet=";".join(f"{k}={v}" for k, v in CAP_OTHER_SIDE.items()))
    pts.append(other)
    # The memory cap: ask for more processes than fit and see where fork fails.
    for mb in [512] if quick else PAPER_MEMORY_MB:
        pts.append({"role": "memory", "nodes": 30000, "duration": 0.0, "memoryMb": mb,
                    "seriesLength": 1.0, "bin": 1.0})
    return pts


def max_processes_normal(counts, limit):
    """The largest number of processes that ran (a request beyond the memory cap runs the cap)
    with a send-interval deviation within the study's criterion; None if none."""
    normal = [r["launched"] for r in counts if r["send_interval_std_us"] <= limit]
    return max(normal) if normal else None


def _cap_regimes(metrics, counts, other, limit):
    """The memory cap's cliff at the largest count (CAP_OTHER_SIDE): its metrics and
    multiplex_max_processes_normal name the regime of the central run and the other side's."""
    n = other["nodes"]
    r = counts.get(n)
    if r is None:
        return
    driver = (f"{n} processes asked for against the memory cap floor((Memory - BaseMemory) / "
              f"ProcessMemory): {r['launched']} ran with the profile's estimates, "
              f"{other['launched']} with BaseMemory and ProcessMemory at their ranges' low ends")
    regimes = (cap_regime(r), cap_regime(other))
    for key in ("launched", "send_interval_std_us", "launch_duration_s"):
        set_regime(metrics, f"multiplex_{key}_{n}", driver,
                   list(zip(regimes, (r[key], other[key]))))
    swapped = [other if q is r else q for q in counts.values()]
    set_regime(metrics, "multiplex_max_processes_normal", driver,
               list(zip(regimes, (metrics["multiplex_max_processes_normal"],
                                  max_processes_normal(swapped, limit)))))


def multiplex_analyse(records):
    rows = []
    counts = {}
    memory = {}
    other = None
    for rec in records:
        p, r = rec.params, rec.result
        rows.append({"role": p["role"], "nodes": p["nodes"], "memory_mb": r["memory_bytes"] / 2**20,
                     "launched": r["launched"], "launch_failed": r["launch_failed"],
                     "launch_duration_s": r["launch_duration_s"],
                     "send_interval_mean_us": r["send_interval_mean_us"],
                     "send_interval_std_us": r["send_interval_std_us"],
                     "send_interval_node_std_mean_us": r["send_interval_node_std_mean_us"],
                     "refill_us_per_wakeup": r["refill_us_per_wakeup"],
                     "sender_cpu_process": r["sender_cpu_process"],
                     "send_rate_per_node": r["send_rate_per_node"], "events": r["events"]})
        if p["role"] == "count":
            counts[p["nodes"]] = r
        elif p["role"] == "cap-other-side":
            other = r
        else:
            memory[r["memory_bytes"] / 2**20] = r
    ns = sorted(counts)
    limit = NORMAL_STD_FRACTION * INTERVAL_US
    metrics = {
        "multiplex_normal_std_limit_us": limit,
        "multiplex_max_processes_normal": max_processes_normal(counts.values(), limit),
        "multiplex_process_memory_bytes": counts[ns[0]]["process_memory_bytes"],
    }
    for n in ns:
        r = counts[n]
        metrics[f"multiplex_send_interval_mean_us_{n}"] = r["send_interval_mean_us"]
        metrics[f"multiplex_send_interval_std_us_{n}"] = r["send_interval_std_us"]
        metrics[f"multiplex_refill_us_per_wakeup_{n}"] = r["refill_us_per_wakeup"]
        metrics[f"multiplex_launch_duration_s_{n}"] = r["launch_duration_s"]
        metrics[f"multiplex_launched_{n}"] = r["launched"]
    if other is not None:
        _cap_regimes(metrics, counts, other, limit)
    for mb in sorted(memory):
        metrics[f"multiplex_max_processes_{int(mb)}mb"] = memory[mb]["launched"]
    if 512 in memory:
        metrics["multiplex_max_processes_512mb"] = memory[512]["launched"]

    # Fig. 5: packets sent per second after the launch, one curve per count.
    series = []
    for n in ns:
        r = counts[n]
        xs = [(k + 0.5) * r["bin_s"] for k in range(len(r["sent_pps"]))]
        series.append(Series(f"{n} processes", xs, r["sent_pps"], style="lines"))
    fig5 = Figure(name="multiplex-startup", title="MEGA06 Fig. 5: packets sent per second "
                  "after the launch", xlabel="time after launch (s)",
                  ylabel="packets sent (packets/s)",
                  logy=True, yrange=(0.5, None), series=series,
                  extra=["set key bottom right"])
    fig7 = Figure(name="multiplex-send-interval",
                  title="MEGA06 Fig. 7: send interval against processes per PC",
                  xlabel="send_udp processes per PC (count)", ylabel="send interval: std (us)",
                  logx=True, series=[
                      Series("standard deviation (pooled)", ns,
                             [counts[n]["send_interval_std_us"] for n in ns]),
                      Series("1/1000 of the interval", [ns[0], ns[-1]], [limit, limit],
                             style="lines")])
    fig7m = Figure(name="multiplex-send-interval-mean",
                   title="MEGA06 Fig. 7: mean send interval against processes per PC",
                   xlabel="send_udp processes per PC (count)", ylabel="mean send interval (us)",
                   logx=True, series=[Series("mean", ns,
                                             [counts[n]["send_interval_mean_us"] for n in ns])])
    mbs = sorted(memory)
    fig6 = Figure(name="multiplex-memory", title="MEGA06 Fig. 6: installed memory against the "
                  "largest number of runnable processes",
                  xlabel="runnable send_udp processes (count)",
                  ylabel="installed memory (MB)",
                  series=[Series("model", [memory[m]["launched"] for m in mbs], mbs)])
    notes = [
        "One Group A PC (Pentium III 1 GHz, Linux 2.6.13, HZ=250); its launcher forks and execs "
        "the send_udp processes one after another. Every wake-up of a process refills the part "
        "of its working set (4 KB) that the other processes' runs evicted from the 256 KB L2 "
        "(Poisson occupancy of the 8-way sets).",
        f"Largest count with a send-interval deviation <= {limit:g} us: "
        f"{metrics['multiplex_max_processes_normal']}; the 512 MB PC holds "
        f"{metrics.get('multiplex_max_processes_512mb')} processes.",
    ]
    return Analysis(rows=rows, metrics=metrics, figures=[fig5, fig7, fig7m, fig6], notes=notes)


# --------------------------------------------------------------------------------------------
# mega-receiver, mega-scale, mega-cat6009 (program mega-scale)

def _scale_point(role, sets, senders_per_set, nodes_per_pc, receivers, on6009, duration,
                 querier=True):
    return {"role": role, "senderPcs": sets * senders_per_set,
            "sendersPerGroup": senders_per_set,
            "nodesPerPc": nodes_per_pc, "receivers": receivers, "receiversOn6009": on6009,
            "querier": querier, "querierItr": 100.0, "warmup": 1.6, "duration": duration}


def scale_cost(p: dict) -> float:
    """Datagrams a point of the mega-scale program sends (one per virtual node per second, over
    the start-up and the window): its work is per datagram (doc/mega.rst, "Paper scale: where
    the cost is"). Only for ordering: the runner starts the costliest points first."""
    return p["senderPcs"] * p["nodesPerPc"] * (p["warmup"] + p["duration"])


def receiver_points(scale):
    quick = scale == "quick"
    nodes = [10000, 20000, 30000, 40000] if quick else list(range(5000, 60001, 5000))
    return [{"role": "receiver", "senderPcs": n // 5000, "sendersPerGroup": 0,
             "nodesPerPc": 5000, "receivers": 1, "receiversOn6009": 0, "querier": False,
             "querierItr": 100.0, "warmup": 1.6, "duration": 1.0 if quick else 20.0}
            for n in nodes]


def _linear(xs, ys):
    """Least-squares slope, intercept and R^2 (None if the ys do not vary)."""
    slope, icpt = np.polyfit(np.asarray(xs, float), np.asarray(ys, float), 1)
    pred = slope * np.asarray(xs, float) + icpt
    ss_tot = float(np.sum((np.asarray(ys, float) - np.mean(ys)) ** 2))
    ss_res = float(np.sum((np.asarray(ys, float) - pred) ** 2))
    return float(slope), float(icpt), (1 - ss_res / ss_tot) if ss_tot > 0 else None


def receiver_analyse(records):
    rows = []
    by_n = {}
    for rec in records:
        r = rec.result
        n = int(r["nodes"])
        by_n[n] = r
        rows.append({"nodes": n, "sara_packets": r["sara_packets"],
                     "receiver_lost": r["receiver_lost"],
                     "receiver_loss_rate": r["receiver_loss_rate"],
                     "sara_buffer_drops": r["sara_buffer_drops"], "sara_drops": r["sara_drops"],
                     "switch_drops_output-queue-full": r["switch_drops_output-queue-full"],
                     "events": r["events"]})
    ns = sorted(by_n)
    # Losses on the receiver PC (capture buffer, NIC ring and backlog): the switch drops
    # nothing here (checked in data.csv), so these are all the drops sara would see.
    lossless = [n for n in ns if by_n[n]["receiver_lost"] == 0]
    first_loss = next((n for n in ns if by_n[n]["receiver_lost"] > 0), None)
    below = [n for n in ns if first_loss is None or n < first_loss]
    metrics = {"receiver_max_nodes_without_loss": max(below) if below else None,
               "receiver_first_nodes_with_loss": first_loss,
               "receiver_lossless_counts": lossless}
    for n in ns:
        metrics[f"receiver_drop_rate_{n}_nodes"] = by_n[n]["receiver_loss_rate"]
    checks = []
    if 20000 in by_n:
        checks.append(_fact_check("a Group B PC with 20 000 nodes: drop rate [calibration]",
                                  "flooding_receiver_20000_nodes_drop_rate",
                                  by_n[20000]["receiver_loss_rate"]))
    fig = Figure(name="receiver-drops", title="MEGA06: one Group B receiver against the nodes",
                 xlabel="virtual nodes, 1 packet/s each (count)",
                 ylabel="drop rate (fraction of packets)",
                 series=[Series("lost on the receiver PC (capture buffer, NIC)", ns,
                                [by_n[n]["receiver_loss_rate"] for n in ns]),
                         Series("measured [MEGA06]: no loss with 20 000 nodes", [20000],
                                [_facts()["flooding_receiver_20000_nodes_drop_rate"]["value"]],
                                style="points")])
    notes = [f"One Group B PC (100BASE-T, sara on a 113-frame capture buffer) receives k sender "
             f"PCs x 5 000 nodes of one group; the last count without loss is "
             f"{metrics['receiver_max_nodes_without_loss']} nodes."]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig], notes=notes)


#: mega-scale's what-if beyond the hardware: ten times the study's 10^6 senders, at its
#: multiplexing and set shape (500 sets of 4 PCs x 5 000 nodes, one receiver each: 2 000 Group A
#: and 500 Group B PCs on one 6509 with as many ports), for the study's 180 s.
TENFOLD = "tenfold"
TENFOLD_SETS = 500


def scale_points(scale):
    quick = scale == "quick"
    if scale == TENFOLD:
        # 30 events a datagram over 1.8 * 10^9 datagrams: five times the programs' default
        # event budget, raised for this point only.
        return [{**_scale_point("scale", TENFOLD_SETS, 4, 5000, TENFOLD_SETS, 0, 180.0),
                 "maxEvents": 1e11}]
    if quick:
        # 1/4 of the multiplexing (1 250 nodes per PC): every frame through the same network.
        return [_scale_point("scale", s, 4, 1250, s, 0, 2.1) for s in (1, 2, 4)]
    return [_scale_point("scale", s, 4, 5000, s, 0, 180.0) for s in (1, 2, 5, 10, 25, 50)]


def scale_analyse(records):
    rows = []
    by_n = {}
    for rec in records:
        r = rec.result
        n = int(r["nodes"])
        by_n[n] = r
        rows.append({"nodes": n, "receivers": r["receivers"], "sara_drop_rate": r["sara_drop_rate"],
                     "sara_recv_interval_mean_us": r["sara_recv_interval_mean_us"],
                     "sara_recv_interval_std_us": r["sara_recv_interval_std_us"],
                     "sara_send_interval_mean_us": r["sara_send_interval_mean_us"],
                     "sara_send_interval_std_us": r["sara_send_interval_std_us"],
                     "queries_due": r["queries_due"], "queries_on_time": r["queries_on_time"],
                     "querier_nic_drops_pps": r["querier_nic_drops_pps"],
                     "switch_drops_output-queue-full": r.get("switch_drops_output-queue-full"),
                     "events": r["events"]})
    ns = sorted(by_n)
    lossless = [n for n in ns if by_n[n]["sara_drops"] == 0]
    d_std = [by_n[n]["sara_recv_interval_std_us"] - by_n[n]["sara_send_interval_std_us"]
             for n in ns]
    d_mean = [by_n[n]["sara_recv_interval_mean_us"] - by_n[n]["sara_send_interval_mean_us"]
              for n in ns]
    metrics = {
        "max_nodes_without_loss": max(lossless) if lossless else None,
        "scale_max_abs_recv_minus_send_std_us": max(abs(x) for x in d_std),
        "scale_max_abs_recv_minus_send_mean_us": max(abs(x) for x in d_mean),
        # None where no point has a send interval (a window shorter than the 1 s period).
        "scale_max_recv_over_send_std": max((by_n[n]["sara_recv_interval_std_us"]
                                             / by_n[n]["sara_send_interval_std_us"] for n in ns
                                             if by_n[n]["sara_send_interval_std_us"] > 0),
                                            default=None),
    }
    for n in ns:
        metrics[f"scale_drop_rate_{n}_nodes"] = by_n[n]["sara_drop_rate"]
        metrics[f"scale_recv_interval_std_us_{n}_nodes"] = by_n[n]["sara_recv_interval_std_us"]
        metrics[f"scale_send_interval_std_us_{n}_nodes"] = by_n[n]["sara_send_interval_std_us"]
    figs = []
    for kind, num in (("recv", 9), ("send", 10)):
        means = [by_n[n][f"sara_{kind}_interval_mean_us"] - 1e6 for n in ns]
        stds = [by_n[n][f"sara_{kind}_interval_std_us"] for n in ns]
        # Head-room above the largest value, so no curve lies on the frame's top edge.
        top = 1.15 * max(means + stds + [1.0])
        figs.append(Figure(
            name=f"scale-{kind}-interval", title=f"MEGA06 Fig. {num}: {kind}-interval statistics "
            "against nodes (method A)", xlabel="nodes (count)", ylabel="interval (us)", logx=True,
            yrange=(0, top),
            series=[Series("mean - 1 s", ns, means), Series("standard deviation", ns, stds)]))
    figs.append(Figure(name="scale-drops", title="MEGA06: drop rate against nodes (method A)",
                       xlabel="nodes (count)", ylabel="drop rate (fraction of packets)", logx=True,
                       series=[Series("receivers (sara)", ns,
                                      [by_n[n]["sara_drop_rate"] for n in ns])]))
    notes = [
        "Scaling method A: s sets of 4 sender PCs x 5 000 nodes and one receiver, one group per "
        "set (distinct multicast MACs), all PCs on the Catalyst 6509, the querier PC on a static "
        "router port with its NIC limited to 100 interrupts/s.",
        f"Largest node count without loss: {metrics['max_nodes_without_loss']}; receive- minus "
        f"send-interval deviation at most {metrics['scale_max_abs_recv_minus_send_std_us']:.1f} "
        "us over the sweep.",
    ]
    return Analysis(rows=rows, metrics=metrics, figures=figs, notes=notes)


def cat6009_points(scale):
    if scale == "quick":
        return [_scale_point("cat6009", 4, 4, 500, 4, r, 2.1) for r in range(0, 5)]
    return [_scale_point("cat6009", 32, 4, 5000, 32, r, 180.0) for r in range(0, 33, 4)]


def cat6009_analyse(records):
    rows = []
    by_r = {}
    for rec in records:
        r = rec.result
        by_r[r["receivers_on_6009"]] = r
        rows.append({"receivers_on_6009": r["receivers_on_6009"], "nodes": r["nodes"],
                     "sara_drop_rate": r["sara_drop_rate"],
                     "sara_drop_rate_6009": r["sara_drop_rate_6009"],
                     "sara_drop_rate_6509": r["sara_drop_rate_6509"],
                     "switch_drops_random-drop": r.get("switch_drops_random-drop"),
                     "switch_drops_output-queue-full": r.get("switch_drops_output-queue-full"),
                     "events": r["events"]})
    rs = sorted(by_r)
    slope, icpt, r2 = _linear(rs, [by_r[x]["sara_drop_rate"] for x in rs])
    metrics = {"cat6009_slope_per_receiver": slope, "cat6009_intercept": icpt,
               "cat6009_r2": r2, "cat6009_receivers": by_r[rs[0]]["receivers"]}
    for x in rs:
        metrics[f"cat6009_drop_rate_{x}_on_6009"] = by_r[x]["sara_drop_rate"]
    fig = Figure(name="cat6009-drops", title="MEGA06 Fig. 11: drop rate against receivers on "
                 "the Catalyst 6009", xlabel="receivers on the 6009 (count)",
                 ylabel="drop rate, all receivers (fraction of packets)",
                 series=[Series("model", rs, [by_r[x]["sara_drop_rate"] for x in rs],
                                style="points"),
                         Series(f"fit: slope {slope:.3g}", rs, [slope * x + icpt for x in rs],
                                style="lines")])
    notes = ["The 6009 is modelled as the 6509 (no per-frame drop probability: no documented "
             "value exists), so the model predicts the drops that queueing alone produces."]
    return Analysis(rows=rows, metrics=metrics, figures=[fig], notes=notes)


def _multiplex_sensitivity():
    from ..sensitivity import Sensitivity

    # The StarBED PC's estimates: memory (the cap on processes), process start-up (the launch),
    # the working set of one wake-up (the refill, hence the send interval's spread). The
    # normal-std limit is the study's criterion, not a prediction.
    return Sensitivity(profiles=("starbed-p3-linux2613",),
                       metrics=("multiplex_send_interval_*", "multiplex_refill_*",
                                "multiplex_launch_duration_*", "multiplex_max_processes_*",
                                "multiplex_launched_*"))


register(Experiment(
    id="mega-multiplex", study="MEGA06",
    title="Multiplexing: 1 to 10 000 send_udp processes on one PC (Figs. 5-7)",
    program="mega-multiplex", points=multiplex_points, analyse=multiplex_analyse,
    progress=True, sensitivity=_multiplex_sensitivity()))

register(Experiment(
    id="mega-receiver", study="MEGA06",
    title="Receiver capacity: one Group B PC against 5 000 to 60 000 nodes",
    program="mega-scale", points=receiver_points, analyse=receiver_analyse, progress=True,
    cost=scale_cost))

def _scale_sensitivity():
    from ..sensitivity import Sensitivity

    # The StarBED PC's estimates (memory, process start-up, the working set of one wake-up).
    return Sensitivity(profiles=("starbed-p3-linux2613",), metrics=("*",))


def _cat6009_sensitivity():
    from ..sensitivity import Sensitivity

    # mega-scale's ranges (the same PCs); the drop rates, their fit (not the receiver count,
    # an input echo)
    return Sensitivity(profiles=("starbed-p3-linux2613",),
                       metrics=("cat6009_slope_per_receiver", "cat6009_intercept",
                                "cat6009_drop_rate_*"))


register(Experiment(
    id="mega-scale", study="MEGA06",
    title="Scaling method A: 20 000 to 10^6 nodes (Figs. 9-10)",
    program="mega-scale", points=scale_points, analyse=scale_analyse, progress=True,
    cost=scale_cost, split=mega_split.split_for(scale_cost), sensitivity=_scale_sensitivity(),
    what_if_scales={TENFOLD: f"10^7 senders ({TENFOLD_SETS} sets of 4 PCs x 5 000 nodes and "
                             f"{TENFOLD_SETS} receivers) for 180 s, split over the workers"}))

register(Experiment(
    id="mega-cat6009", study="MEGA06",
    title="640 000 nodes, 32 receivers, 0..32 on the Catalyst 6009 (Fig. 11)",
    program="mega-scale", points=cat6009_points, analyse=cat6009_analyse, progress=True,
    cost=scale_cost, split=mega_split.split_for(scale_cost), sensitivity=_cat6009_sensitivity()))
