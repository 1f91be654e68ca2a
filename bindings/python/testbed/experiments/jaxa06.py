"""[JAXA06] HLA/RTI performance over a NIST Net emulated link: every experiment of the study.

- Tables 1 and 2 calibrate the testbed (programs ``jaxa-table1``: ftp through NIST Net, and
  ``jaxa-table2``: ping through NIST Net);
- Figs. 4-8 and the order-type, bidirectional and half-duplex predictions are sets of points of
  ONE program, ``jaxa-benchmark`` (examples/jaxa06/jaxa-benchmark.cc: one configuration per point,
  its repetitions in one process). Experiments that need the same configuration (Fig. 5 is
  Fig. 4's data against bandwidth; the one-way points of the bidirectional and half-duplex
  studies are Fig. 4 points) declare the same points; the campaign computes each (program,
  parameters) point once.

The calibration numbers (alpha, beta, rate fraction, the tables' measurements) are read from
validation/jaxa06-*.csv; the C++ model never sees them.
"""

import math
import os
from itertools import combinations
from statistics import mean

from .. import validation
from ..experiment import (EXTREME_SEEDS, Analysis, Experiment, Figure, Series, Validation,
                          levels_text, mean_std_ci, register)
from ..plot import measured_with_tolerance
from ..regimes import set_regime

# Table 1 settings: label used in metric names -> ns-3 DataRate string.
SETTINGS = {"100M": "100Mbps", "50M": "50Mbps", "10M": "10Mbps", "1M": "1Mbps",
            "512k": "512kbps", "128k": "128kbps"}
BPS = {"100M": 100e6, "50M": 50e6, "10M": 10e6, "1M": 1e6, "512k": 512e3, "128k": 128e3}


def _file_bytes(label, seconds):
    """A file that takes about `seconds` at the setting (at least 1 MB, at most 120 MB)."""
    return int(min(max(BPS[label] / 8 * seconds, 1_000_000), 120_000_000))


# Roles of the validation points (doc/link.rst, doc/host.rst, doc/rti.rst) and where each
# tolerance comes from.
TABLE1_TOLERANCE = 3.0  # %
TABLE1_REASON = ("the study's own spread: its six rates are 94-98.4 % of the settings around the "
                 "96 % it gives as their average (+-2.2 points); nothing of the link model is "
                 "calibrated (doc/link.rst)")
TABLE2_TOLERANCE = 5.0  # %
TABLE2_REASON = ("the study's stated accuracy: 'on average the RTT is 105 % of the expected "
                 "value', i.e. its RTTs exceed twice the delay by about 5 %")
#: Table 2's rows that the model does not reach (doc/host.rst): the fixed excess of 0.5-0.9 ms
#: of every row, which fails the 0 and 5 ms rows.
TABLE2_GAPS = {0, 5}
TABLE2_DOC = ("doc/host.rst, 'The zero-delay ping RTT of [JAXA06] Table 2 (a documented gap)'")
CROSSING_REASON = {
    "sync": "the crossing method's resolution: one of the 12 times off by 1 % moves beta by up to "
            "12 % and alpha by 1.6 % (the study's times spread up to 2.6 %)",
    "async": "the crossing method's resolution: one of the 12 times off by 2.6 % (the study's "
             "largest spread) moves alpha by up to 10 % and beta by 16 %",
}
ALPHA_PARAMETER = ("RtiSettings::EncodingHeaderSize (83 bytes, on Fig. 4's and Fig. 7's alpha "
                   "together; doc/rti.rst 'Calibration')")
BETA_PARAMETER = ("the RTI's per-operation cost K: CallCost, CallbackCost, EncodeCost, "
                  "DecodeCost, RouteCost, TimeManagementCost (21 100 cycles; doc/rti.rst "
                  "'Calibration')")
RATE_REASON = ("the study's own spread: Table 1's rates through the same NIST Net lie +-2.2 "
               "points around the 96 % it states; the fraction is not calibrated (TCP/IP headers, "
               "doc/rti.rst)")
FIG5_REASON = ("the study's stated accuracy: equation 1 'matches the measurements within "
               "3.5 %' (the tolerance, 5 %, is wider by 1.5 points; the verdicts are the same "
               "at 3.5 %)")
#: Fig. 5's points that the model does not reach: (bandwidth, size) -> the doc/ section.
FIG5_GAPS = {
    ("10M", 1024): "doc/rti.rst, 'Results': the evoked callbacks moved this step across one of "
                   "NIST Net's 8192 Hz release ticks (1.634 -> 1.709 ms)",
    ("20M", 1024): "doc/rti.rst, 'Results': equation 1 does not hold at 20 Mbit/s (the "
                   "100BASE-TX hops' store-and-forward of full segments)",
    ("20M", 4096): "doc/rti.rst, 'Results': equation 1 does not hold at 20 Mbit/s (the "
                   "100BASE-TX hops' store-and-forward of full segments)",
}
FIG6_REASON = ("the measurement's resolution for the question asked: the study states no "
               "accuracy for Fig. 6; 10 % is below the difference between equations 1 and 2 at "
               "128 kbit/s (14-57 %), where the study says NIST Net's max() shows, so those points "
               "tell the two semantics apart; at 1 Mbit/s the equations differ by 2-7 % and "
               "both pass")
FIG7_BETA_DOC = ("doc/rti.rst, 'Results': 'The asynchronous beta does not emerge' (a pipelined "
                 "stream of receive-order updates crosses near beta 0)")


def table1_points(scale):
    seconds, runs = (8, 1) if scale == "quick" else (30, 3)
    return [{"bandwidth": SETTINGS[label], "fileBytes": _file_bytes(label, seconds),
             "RngRun": run}
            for label in SETTINGS for run in range(1, runs + 1)]


def _error_panel(name, title, xlabel, xs, checks, tolerance, logx=False):
    """The error panel of a table: per measured point the simulated minus the measured value in
    percent of the measured one (the checks' error_pct), with the tolerance's band (+-tolerance)
    and zero; known gaps apart from checks."""
    def pts(role):
        return [(x, v.error_pct) for x, v in zip(xs, checks) if (v.role == "known_gap") == role]

    series = [Series("simulated - measured, checks", *zip(*pts(False)), style="points")
              if pts(False) else None,
              Series("simulated - measured, documented gaps", *zip(*pts(True)), style="points")
              if pts(True) else None,
              Series(f"+{tolerance:g} % (the tolerance)", [min(xs), max(xs)], [tolerance] * 2,
                     style="lines"),
              Series(f"-{tolerance:g} %", [min(xs), max(xs)], [-tolerance] * 2, style="lines"),
              Series("0", [min(xs), max(xs)], [0, 0], style="lines")]
    span = 1.25 * max([tolerance] + [abs(v.error_pct) for v in checks
                                     if math.isfinite(v.error_pct)])
    lo, hi = min(xs), max(xs)
    pad = (hi / lo) ** 0.05 if logx else 0.05 * (hi - lo)
    xrange = (lo / pad, hi * pad) if logx else (lo - pad, hi + pad)
    return Figure(name=name, title=title, xlabel=xlabel,
                  ylabel="(simulated - measured) / measured (%)", logx=logx,
                  xrange=xrange, yrange=(-span, span),
                  series=[s for s in series if s is not None])


def table1_analyse(records):
    measured = {label: r for r in validation.load("jaxa06-table1.csv")
                for label in SETTINGS if BPS[label] == r["bandwidth_bps"]}
    by_label = {label: [] for label in SETTINGS}
    rows = []
    for rec in records:
        label = next(k for k, v in SETTINGS.items() if v == rec.params["bandwidth"])
        by_label[label].append(rec.result["ftp_rate_bps"])
        rows.append({"setting": label, "setting_bps": BPS[label], "run": rec.params["RngRun"],
                     "file_bytes": rec.result["file_bytes"],
                     "transfer_s": rec.result["transfer_s"],
                     "ftp_rate_bps": rec.result["ftp_rate_bps"],
                     "emulator_drops": rec.result["emulator_drops_a_to_b"]})
    metrics, checks = {}, []
    for label, rates in by_label.items():
        sim = mean(rates)
        metrics[f"ftp_rate_bps_{label}"] = sim
        checks.append(Validation(f"{label} ftp rate (bit/s)", measured[label]["ftp_rate_bps"],
                                 sim, TABLE1_TOLERANCE, role="check", reason=TABLE1_REASON))
    fractions = [metrics[f"ftp_rate_bps_{k}"] / BPS[k] for k in SETTINGS]
    metrics["ftp_rate_fraction_mean"] = mean(fractions)
    xs = [BPS[k] for k in SETTINGS]
    fig = Figure(
        name="table1", title="JAXA06 Table 1: ftp rate as a fraction of the NIST Net setting",
        xlabel="NIST Net bandwidth setting (bit/s)", ylabel="ftp rate / setting (%)",
        logx=True, yrange=(90, 100),
        series=measured_with_tolerance(
            "measured [JAXA06]", xs,
            [100 * measured[k]["ftp_rate_bps"] / BPS[k] for k in SETTINGS], TABLE1_TOLERANCE)
        + [Series("simulated", xs,
                  [100 * metrics[f"ftp_rate_bps_{k}"] / BPS[k] for k in SETTINGS])])
    efig = _error_panel("table1-error", "JAXA06 Table 1: simulated minus measured ftp rate",
                        "NIST Net bandwidth setting (bit/s)", xs, checks, TABLE1_TOLERANCE,
                        logx=True)
    notes = ["An ftp-like bulk TCP transfer (Linux 2.6 TCP: BIC, MSS 1448 with timestamps) "
             "from host A to host B through the NIST Net PC, delay 0. The rate is below the "
             "setting because NIST Net limits IP bytes while ftp counts file bytes "
             "(1448 of every 1500), and at 100 Mbit/s the Ethernet framing (38 bytes a frame) "
             "limits first."]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig, efig],
                    notes=notes)


DELAYS_MS = [0, 5, 10, 15, 50, 100]


def table2_points(scale):
    count, runs = (10, 2) if scale == "quick" else (100, 5)
    extra = {"hostSet": HOST_SET} if HOST_SET else {}
    return [{"delay": f"{d}ms", "count": count, "RngRun": run, **extra}
            for d in DELAYS_MS for run in range(1, runs + 1)]


def table2_analyse(records):
    measured = {r["delay_ms"]: r["rtt_mean_ms"] for r in validation.load("jaxa06-table2.csv")}
    by_delay = {d: [] for d in DELAYS_MS}
    rows = []
    for rec in records:
        d = int(rec.params["delay"].removesuffix("ms"))
        by_delay[d].extend(rec.result["rtt_ms"])
        rows.append({"delay_ms": d, "run": rec.params["RngRun"], "count": rec.result["count"],
                     "rtt_mean_ms": rec.result["rtt_mean_ms"],
                     "rtt_min_ms": rec.result["rtt_min_ms"],
                     "rtt_max_ms": rec.result["rtt_max_ms"]})
    metrics, checks = {}, []
    for d, rtts in by_delay.items():
        sim = mean(rtts)
        metrics[f"ping_rtt_ms_{d}ms"] = sim
        if d in TABLE2_GAPS:
            checks.append(Validation(f"{d} ms ping RTT (ms)", measured[d], sim, TABLE2_TOLERANCE,
                                     role="known_gap", reason=TABLE2_REASON, doc=TABLE2_DOC))
        else:
            checks.append(Validation(f"{d} ms ping RTT (ms)", measured[d], sim, TABLE2_TOLERANCE,
                                     role="check", reason=TABLE2_REASON))
    xs = DELAYS_MS
    fig = Figure(
        name="table2", title="JAXA06 Table 2: NIST Net delay setting vs ping RTT",
        xlabel="NIST Net delay setting, each direction (ms)", ylabel="ping RTT (ms)",
        series=measured_with_tolerance("measured [JAXA06]", xs, [measured[d] for d in xs],
                                       TABLE2_TOLERANCE)
        + [Series("simulated", xs, [metrics[f"ping_rtt_ms_{d}ms"] for d in xs]),
           Series("2 x delay", xs, [2 * d for d in xs], style="lines")])
    efig = _error_panel("table2-error", "JAXA06 Table 2: simulated minus measured ping RTT",
                        "NIST Net delay setting, each direction (ms)", xs, checks,
                        TABLE2_TOLERANCE)
    notes = ["ping (56 data bytes, one a second) from host A to host B through the NIST Net PC. "
             "The RTT at delay 0 comes from the hosts' receive paths and the four 100BASE-TX "
             "hops (nothing calibrated); with a delay NIST Net releases packets on its 8192 Hz "
             "real-time clock, adding about half a tick per direction. The measured RTTs have a "
             "fixed excess of 0.5-0.9 ms that no documented mechanism of these PCs gives the ping "
             "without giving it to the RTI benchmark too (a documented gap, doc/host.rst)."]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig, efig],
                    notes=notes)


register(Experiment(
    id="jaxa-table1", study="JAXA06",
    title="NIST Net bandwidth setting vs measured ftp rate (Table 1)",
    program="jaxa-table1", points=table1_points, analyse=table1_analyse,
    doc="doc/link.rst"))

register(Experiment(
    id="jaxa-table2", study="JAXA06",
    title="NIST Net delay setting vs ping round-trip time (Table 2)",
    program="jaxa-table2", points=table2_points, analyse=table2_analyse,
    doc="doc/host.rst"))


# ============================================================================================
# The RTI benchmark (Figs. 4-8, predictions)

PROGRAM = "jaxa-benchmark"

#: Host parameter changes applied to every point (the programs' --hostSet), for trying a
#: proposed host calibration campaign-wide; empty in normal use (main's host profiles).
HOST_SET = os.environ.get("TESTBED_JAXA_HOSTSET", "")

# NIST Net bandwidth settings: metric label -> (ns-3 DataRate string, bit/s).
BW = {"128k": ("128kbps", 128e3), "512k": ("512kbps", 512e3), "1M": ("1Mbps", 1e6),
      "10M": ("10Mbps", 10e6), "20M": ("20Mbps", 20e6)}
FIG4_BW = ["128k", "512k", "1M", "10M", "20M"]
CROSSING_BW = ["128k", "512k", "1M", "10M"]  # 20 Mbps excluded, as in [JAXA06]
SIZES = [64, 1024, 4096]
FIG6_BW = ["128k", "1M"]
FIG6_DELAYS_MS = [0, 50, 100, 200]  # round trip: half in each direction
FIG8_BW = ["128k", "20M"]
BIDIR_BW = ["128k", "1M", "20M"]


def _scale(scale):
    """(repetitions, exchanges) per point."""
    return (2, 200) if scale == "quick" else (10, 1000)


def _fig8_grid(scale):
    # The response is linear in the number of federates (checked at 3 + 3), so the corners
    # of the grid give the marginal slopes; intermediate counts are left out for time.
    return [0, 6]


def _pt(scale, mode, bw, size, **extra):
    """A point; parameters at their defaults are left out so equal points compare equal."""
    reps, n = _scale(scale)
    p = {"mode": mode, "bandwidth": BW[bw][0], "dataSize": size, "reps": reps,
         "exchanges": n, "RngRun": 1}
    p.update({k: v for k, v in extra.items() if v is not None})
    if HOST_SET:
        p["hostSet"] = HOST_SET
    return p


def _bw_label(params):
    return next(k for k, v in BW.items() if v[0] == params["bandwidth"])


def _t(rec):
    return rec.result["time_per_exchange_ms"]


def _calibration():
    """validation/jaxa06-rti.csv: the study's numbers by metric name."""
    return {m: r["value"] for m, r in validation.facts("jaxa06-rti.csv").items()}


def _tolerance(metric):
    """The tolerance (%) of a number of validation/jaxa06-rti.csv."""
    return validation.facts("jaxa06-rti.csv")[metric]["tolerance_pct"]


# --- analysis helpers ------------------------------------------------------------------------


def fit_line(xs, ys):
    """Least-squares line y = slope * x + intercept."""
    mx, my = mean(xs), mean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


def crossing_method(lines, labels):
    """[JAXA06]'s crossing-point method: the lines t = s * d + b of the bandwidths cross near
    (-alpha, beta); alpha and beta are the means over every pair of lines."""
    cross = []
    for a, b in combinations(labels, 2):
        (s1, b1), (s2, b2) = lines[a], lines[b]
        x = (b2 - b1) / (s1 - s2)
        cross.append((a, b, -x, s1 * x + b1))
    return mean(c[2] for c in cross), mean(c[3] for c in cross), cross


def rate_fraction(slope_ms_per_byte, bps):
    """Effective rate / setting from a line's slope (ms per data byte)."""
    return (8e3 / bps) / slope_ms_per_byte


def eq1(size, bps, alpha, beta, fraction, delay_ms=0.0):
    """[JAXA06] equation 1: (data + alpha) / bandwidth + delay + beta (ms)."""
    return (size + alpha) * 8e3 / (fraction * bps) + delay_ms + beta


def eq2(size, bps, alpha, beta, fraction, delay_ms):
    """[JAXA06] equation 2 (NIST Net): max(data sending time, delay) + beta (ms)."""
    return max((size + alpha) * 8e3 / (fraction * bps), delay_ms) + beta


def _lines(records, labels, mode):
    """Per bandwidth: sizes, times and the fitted line."""
    data = {k: {} for k in labels}
    for r in records:
        if r.params["mode"] != mode:
            continue
        k = _bw_label(r.params)
        if k in data:
            data[k][r.params["dataSize"]] = _t(r)
    fits = {}
    for k, pts in data.items():
        xs = sorted(pts)
        fits[k] = fit_line(xs, [pts[x] for x in xs])
    return data, fits


def _rows(records, **extra):
    rows = []
    for r in records:
        res = r.result
        row = {"mode": res["mode"], "bandwidth_bps": res["bandwidth_bps"],
               "data_size": res["data_size"]}
        row.update(extra)
        for k in ("delay_ms", "delay_direction", "semantics", "half_duplex", "tso_data",
                  "extra_crc", "extra_other"):
            row[k] = res[k]
        row.update({"time_per_exchange_ms": res["time_per_exchange_ms"],
                    "time_per_exchange_sd_ms": res["time_per_exchange_sd_ms"],
                    "reps": res["reps"], "exchanges": res["exchanges"],
                    "cpu_busy_crc_pc": res["cpu_busy_crc_pc"],
                    "cpu_busy_other_pc": res["cpu_busy_other_pc"],
                    "late_tso_messages": res["late_tso_messages"]})
        rows.append(row)
    return rows


def _size_figure(name, title, data, fits, measured=()):
    """Per bandwidth: the simulated points and their least-squares line (dotted), one colour
    and one key entry per bandwidth (the line's meaning in one entry of its own)."""
    series = []
    for n, (k, pts) in enumerate(data.items()):
        xs = sorted(pts)
        series.append(Series(f"{k}bps, simulated", xs, [pts[x] for x in xs], style="points",
                             group=k))
        s, b = fits[k]
        xs_fit = [max(SIZES) * i / 64 for i in range(65)]  # dense: straight lines on a log axis
        series.append(Series("least-squares line of each (dotted)" if n == 0 else "", xs_fit,
                             [b + s * x for x in xs_fit], style="dotted", group=k))
    return Figure(name=name, title=title, xlabel="data size (bytes)",
                  ylabel="time per exchange (ms)", series=series + list(measured), logy=True)


def _measured_crossing(alpha_key, beta_key):
    """The study's crossing point (-alpha, beta) of its lines, as a measured point."""
    cal = _calibration()
    return Series("measured [JAXA06]: crossing point (-alpha, beta)", [-cal[alpha_key]],
                  [cal[beta_key]], style="points")


# --- Fig. 4 / Fig. 7: lines against data size, crossing method --------------------------------


def fig4_points(scale):
    return [_pt(scale, "sync", bw, s) for bw in FIG4_BW for s in SIZES]


def _crossing_analysis(records, mode, prefix, cal_alpha, cal_beta, rate_check):
    cal = _calibration()
    data, fits = _lines(records, FIG4_BW, mode)
    alpha, beta, cross = crossing_method(fits, CROSSING_BW)
    metrics = {f"{prefix}_alpha_bytes": alpha, f"{prefix}_beta_ms": beta}
    fractions = {k: rate_fraction(fits[k][0], BW[k][1]) for k in FIG4_BW}
    metrics[f"{prefix}_rate_fraction"] = mean(fractions[k] for k in CROSSING_BW)
    for k in FIG4_BW:
        metrics[f"{prefix}_rate_fraction_{k}"] = fractions[k]
        metrics[f"{prefix}_slope_ms_per_byte_{k}"] = fits[k][0]
        metrics[f"{prefix}_intercept_ms_{k}"] = fits[k][1]
    for a, b, x, y in cross:
        metrics[f"{prefix}_crossing_{a}_{b}_alpha_bytes"] = x
        metrics[f"{prefix}_crossing_{a}_{b}_beta_ms"] = y
    checks = [Validation(f"{prefix} alpha (bytes)", cal[cal_alpha], alpha, _tolerance(cal_alpha),
                         role="calibration", reason=CROSSING_REASON[mode],
                         parameter=ALPHA_PARAMETER)]
    if mode == "sync":
        checks.append(Validation(f"{prefix} beta (ms)", cal[cal_beta], beta, _tolerance(cal_beta),
                                 role="calibration", reason=CROSSING_REASON[mode],
                                 parameter=BETA_PARAMETER))
    else:
        checks.append(Validation(f"{prefix} beta (ms)", cal[cal_beta], beta, _tolerance(cal_beta),
                                 role="known_gap", reason=CROSSING_REASON[mode],
                                 doc=FIG7_BETA_DOC))
    if rate_check:
        # "96% (2 points)": within 2 percentage points.
        checks.append(Validation(f"{prefix} effective rate / setting",
                                 cal["sync_rate_fraction"], metrics[f"{prefix}_rate_fraction"],
                                 _tolerance("sync_rate_fraction"), role="check",
                                 reason=RATE_REASON))
    return data, fits, metrics, checks


def fig4_analyse(records):
    data, fits, metrics, checks = _crossing_analysis(
        records, "sync", "sync", "sync_alpha_bytes", "sync_beta_ms", True)
    # The study's lines on the same axes: equation 1 with its alpha, beta and rate fraction
    # (validation/jaxa06-rti.csv), one per bandwidth, and their crossing point.
    cal = _calibration()
    xs = [max(SIZES) * i / 64 for i in range(65)]
    # In the colour of its bandwidth, dashed; one key entry for the study's lines.
    measured = [Series("measured [JAXA06]: equation 1, each bandwidth (dashed)" if n == 0
                       else "", xs,
                       [eq1(x, BW[k][1], cal["sync_alpha_bytes"], cal["sync_beta_ms"],
                            cal["sync_rate_fraction"]) for x in xs], style="dashed", group=k)
                for n, k in enumerate(CROSSING_BW)]
    measured.append(_measured_crossing("sync_alpha_bytes", "sync_beta_ms"))
    fig = _size_figure("fig4", "JAXA06 Fig. 4: synchronised benchmark, delay 0", data, fits,
                       measured)
    notes = ["Synchronised benchmark (TSO update and TAR per step, lookahead one step) between "
             "a sender on host A and a receiver on host B, the CRC on host B, through the NIST "
             "Net PC at delay 0. alpha and beta come from the crossing points of the lines of "
             "128 kbit/s, 512 kbit/s, 1 and 10 Mbit/s (20 Mbit/s excluded, as in the paper)."]
    return Analysis(rows=_rows(records), metrics=metrics, validation=checks, figures=[fig],
                    notes=notes)


def fig7_points(scale):
    return [_pt(scale, "async", bw, s) for bw in FIG4_BW for s in SIZES]


def fig7_analyse(records):
    data, fits, metrics, checks = _crossing_analysis(
        records, "async", "async", "async_alpha_bytes", "async_beta_ms", False)
    fig = _size_figure("fig7", "JAXA06 Fig. 7: asynchronous benchmark, delay 0", data, fits,
                       [_measured_crossing("async_alpha_bytes", "async_beta_ms")])
    notes = ["Asynchronous benchmark: the sender calls updateAttributeValues (receive order) "
             "1000 times in a row, the receiver counts the reflects; no time management. The "
             "time runs from the start to the last reflect."]
    return Analysis(rows=_rows(records), metrics=metrics, validation=checks, figures=[fig],
                    notes=notes)


# --- The benchmark program's wait construct and clock (doc/rti.rst) ------------------------------

#: How the programs wait for their callbacks besides evokeCallback(1 s): sleep-polling on the
#: PCs' 1000 Hz or 250 Hz jiffies (jaxa-benchmark --wait).
WAITS = ["poll1000", "poll250"]
CLOCK_REGIONS = ["program_start", "join", "discovery"]


def wait_points(scale):
    """Fig. 4's design with each wait construct (evokeCallback's points are jaxa-fig4's)."""
    return fig4_points(scale) + [_pt(scale, "sync", bw, s, wait=w)
                                 for w in WAITS for bw in FIG4_BW for s in SIZES]


def wait_analyse(records):
    """Beta by Fig. 4's crossing method under each wait construct, against the study's beta,
    and what a clock started before "ready" would add per exchange."""
    cal = _calibration()
    measured, tol = cal["sync_beta_ms"], _tolerance("sync_beta_ms")
    metrics, series = {}, []
    for w in ["evoke"] + WAITS:
        sub = [r for r in records if r.params.get("wait", "evoke") == w]
        if not sub:
            continue
        data, fits = _lines(sub, FIG4_BW, "sync")
        alpha, beta, _ = crossing_method(fits, CROSSING_BW)
        metrics[f"wait_{w}_alpha_bytes"] = alpha
        metrics[f"wait_{w}_beta_ms"] = beta
        metrics[f"wait_{w}_beta_minus_measured_ms"] = beta - measured
        # whether the reading's beta stays within the calibration's tolerance of the study's
        # (evokeCallback's is the calibration point itself: K was fitted on it)
        metrics[f"wait_{w}_beta_within_tolerance"] = bool(abs(beta - measured) <= tol / 100 * measured)
        sizes = sorted(data["1M"])
        series.append(Series(f"{w}, 1 Mbit/s", sizes, [data["1M"][x] for x in sizes]))
    evoke = [r.result for r in records if r.params.get("wait", "evoke") == "evoke"]
    for region in CLOCK_REGIONS:
        vals = [r[f"clock_from_{region}_ms_per_exchange"] for r in evoke
                if f"clock_from_{region}_ms_per_exchange" in r]
        if vals:
            metrics[f"clock_from_{region}_ms_per_exchange"] = mean(vals)
    fig = Figure(name="wait", title="JAXA06 benchmark: waiting for callbacks, 1 Mbit/s",
                 xlabel="data size (bytes)", ylabel="time per exchange (ms)", series=series)
    notes = [f"Fig. 4's design with the programs waiting in evokeCallback(1 s) (evoke: the "
             f"calibrated configuration, K fitted on its beta) or sleep-polling, evokeCallback(0) "
             f"and a 1 ms sleep on the PCs' 1000 Hz or 250 Hz jiffies when nothing came; beta "
             f"by the study's crossing method against its {measured} ms (tolerance {tol} %). "
             f"clock_from_*: what a clock started at the receiving program's start, join or "
             f"discovery would add per exchange (set by the operator's 1 s before 'ready')."]
    return Analysis(rows=_rows(records), metrics=metrics, figures=[fig], notes=notes)


# --- Fig. 4's run-to-run spread (an independent check) ----------------------------------------

#: The study's repetitions per point and exchanges per run, which its spread statement is about
#: (experiments.md: "Each case is measured 10 times", 1000 exchanges); at every scale.
SPREAD_REPS, SPREAD_EXCHANGES = 10, 1000
SPREAD_REASON = {
    "sync_spread_max_pct": "a spread of 10 runs is itself random: the study's number against "
                           "the model's 5-95 % interval over independent sets of 10 runs (a seed "
                           "interval), which holds that sampling; no further tolerance "
                           "(validation/jaxa06-spread.csv)",
    "sync_spread_largest_at_20M": "the study's statement: 20 Mbit/s 'had the largest spread'; "
                                  "1 or 0 per set of 10 runs, against their 5-95 % interval",
}


#: The magnitude of the spread: the study's 2.6 % is inside the model's 5-95 % interval over
#: the paper scale's 20 sets and a few per cent above it over the quick scale's 10 (doc/rti.rst).
SPREAD_GAP_DOC = ("doc/rti.rst, 'Per-step variation': the magnitude of the run-to-run spread "
                  "(a documented gap)")


def _spread_sets(scale):
    """Independent sets of the study's 10 runs per point (run numbers 1-10, 11-20, ...): the
    spread of 10 runs is itself a random quantity, compared as a seed interval."""
    return EXTREME_SEEDS[scale]


def spread_points(scale):
    p = []
    for j in range(_spread_sets(scale)):
        for bw in FIG4_BW:
            for s in SIZES:
                q = _pt(scale, "sync", bw, s)
                q.update(reps=SPREAD_REPS, exchanges=SPREAD_EXCHANGES,
                         RngRun=1 + SPREAD_REPS * j)
                p.append(q)
    return p


def run_spread_pct(times):
    """The spread of a point's runs: the largest deviation of a run from their mean, in percent
    of the mean ("at most 2.6 % of the mean")."""
    m = mean(times)
    return 100.0 * max(abs(t - m) for t in times) / m


def spread_analyse(records):
    from ..experiment import seed_interval

    metrics, rows, checks = {}, [], []
    sets = {}  # first run number -> {(bw, size): spread}
    for r in records:
        k, s = _bw_label(r.params), r.params["dataSize"]
        runs = r.result["time_per_exchange_ms_runs"]
        m = mean(runs)
        sd = math.sqrt(sum((x - m) ** 2 for x in runs) / (len(runs) - 1)) if len(runs) > 1 else 0
        spread = run_spread_pct(runs)
        sets.setdefault(r.params["RngRun"], {})[(k, s)] = spread
        rows.append({"first_run": r.params["RngRun"], "bandwidth_bps": BW[k][1], "data_size": s,
                     "runs": len(runs), "time_per_exchange_ms": m, "sd_pct": 100 * sd / m,
                     "spread_pct": spread,
                     "minor_gcs_per_run": r.result.get("rti_minor_gcs", 0) / max(1, len(runs))})
    largest, at20 = [], []
    # (a sensitivity sample runs only the bandwidths where the largest spread sits)
    bws = [k for k in FIG4_BW if any(b == k for pts in sets.values() for (b, _) in pts)]
    per_bw = {k: [] for k in bws}
    per_point = {}
    for first, pts in sorted(sets.items()):
        by_bw = {k: max(v for (b, _), v in pts.items() if b == k) for k in bws}
        top = max(by_bw, key=by_bw.get)
        largest.append(by_bw[top])
        at20.append(1.0 if top == "20M" else 0.0)
        for k in bws:
            per_bw[k].append(by_bw[k])
        for key, v in pts.items():
            per_point.setdefault(key, []).append(v)
    central, lo, hi = seed_interval(largest)
    metrics["sync_spread_max_pct"] = central
    metrics["sync_spread_max_pct_low"] = lo
    metrics["sync_spread_max_pct_high"] = hi
    metrics["sync_spread_sets"] = len(largest)
    f_central, f_lo, f_hi = seed_interval(at20)
    metrics["sync_spread_largest_at_20M"] = f_central
    metrics["sync_spread_largest_at_20M_fraction"] = mean(at20)
    for k in bws:
        metrics[f"sync_spread_max_pct_{k}"] = float(sorted(per_bw[k])[len(per_bw[k]) // 2])
    for (k, s), v in sorted(per_point.items()):
        metrics[f"sync_spread_pct_{k}_{s}B"] = float(sorted(v)[len(v) // 2])
    facts = validation.facts("jaxa06-spread.csv")
    checks.append(Validation("largest run-to-run spread (% of the mean)",
                             facts["sync_spread_max_pct"]["value"], central,
                             facts["sync_spread_max_pct"]["tolerance_pct"], role="known_gap",
                             doc=SPREAD_GAP_DOC,
                             reason=SPREAD_REASON["sync_spread_max_pct"], statistic="max",
                             low=lo, high=hi, seeds=len(largest)))
    checks.append(Validation("largest spread at 20 Mbit/s (1 = yes)",
                             facts["sync_spread_largest_at_20M"]["value"], f_central,
                             facts["sync_spread_largest_at_20M"]["tolerance_pct"], role="check",
                             reason=SPREAD_REASON["sync_spread_largest_at_20M"],
                             low=f_lo, high=f_hi, seeds=len(at20)))
    xs = [BW[k][1] for k in bws]
    fig = Figure(name="spread", title="JAXA06 Fig. 4: run-to-run spread of 10 runs x 1000 "
                 "exchanges (median over the sets of 10)", xlabel="NIST Net bandwidth (bit/s)",
                 ylabel="largest deviation from the mean (% of the mean)", logx=True,
                 series=[Series(f"{s} B", xs, [metrics[f"sync_spread_pct_{k}_{s}B"]
                                               for k in bws]) for s in SIZES]
                 + [Series("measured [JAXA06]: at most 2.6 %, largest at 20 Mbit/s",
                           [BW["20M"][1]], [facts["sync_spread_max_pct"]["value"]],
                           style="points")])
    notes = ["Fig. 4's synchronised points, each run 10 times with 1000 exchanges as the study "
             "did (at every scale), in several independent sets of 10 runs. The spread of a "
             "point: the largest deviation of a run's time per exchange from the 10 runs' mean, "
             "in percent of the mean; the largest over the points is compared with the study's "
             "'at most 2.6 % of the mean, largest at 20 Mbit/s' (validation/jaxa06-spread.csv) "
             "as a seed interval (median and 5-95 % over the sets); nothing of the model is "
             "fitted on it. Where the runs differ: each run's VM invocations (a cost factor "
             "per component and run), the per-operation cost variation, the VMs' minor "
             "collections (their number per run depends on each VM's eden occupancy at the "
             "start) and the hosts' ticks and wake-ups (doc/rti.rst, 'Per-step variation')."]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig], notes=notes)


# --- Fig. 5: time per exchange against bandwidth, equation 1 ----------------------------------


def fig5_analyse(records):
    cal = _calibration()
    a, b, f = cal["sync_alpha_bytes"], cal["sync_beta_ms"], cal["sync_rate_fraction"]
    rows, checks, metrics = [], [], {}
    for r in records:
        k = _bw_label(r.params)
        s = r.params["dataSize"]
        pred = eq1(s, BW[k][1], a, b, f)
        rows.append({"bandwidth_bps": BW[k][1], "data_size": s, "simulated_ms": _t(r),
                     "equation1_ms": pred, "error_pct": 100 * (_t(r) - pred) / pred})
        if (k, s) in FIG5_GAPS:
            checks.append(Validation(f"{k}bps {s} B (ms)", pred, _t(r), 5.0, role="known_gap",
                                     reason=FIG5_REASON, doc=FIG5_GAPS[(k, s)]))
        else:
            checks.append(Validation(f"{k}bps {s} B (ms)", pred, _t(r), 5.0, role="check",
                                     reason=FIG5_REASON))
    metrics["fig5_max_abs_error_pct"] = max(abs(r["error_pct"]) for r in rows)
    metrics["fig5_mean_abs_error_pct"] = mean(abs(r["error_pct"]) for r in rows)
    series = []
    xs = [BW[k][1] for k in FIG4_BW]
    for n, s in enumerate(SIZES):  # one colour per size: its points and its equation's line
        sim = {r["bandwidth_bps"]: r["simulated_ms"] for r in rows if r["data_size"] == s}
        series.append(Series(f"{s} B simulated", xs, [sim[x] for x in xs], style="points",
                             group=s))
        fine = [xs[0] * (xs[-1] / xs[0]) ** (i / 40) for i in range(41)]
        series.append(Series("equation 1, each size (line)" if n == 0 else "", fine,
                             [eq1(s, x, a, b, f) for x in fine], style="lines", group=s))
    fig = Figure(name="fig5", title="JAXA06 Fig. 5: time per exchange against bandwidth",
                 xlabel="NIST Net bandwidth (bit/s)", ylabel="time per exchange (ms)",
                 series=series, logx=True, logy=True)
    notes = [f"Equation 1 with alpha = {a:g} bytes, beta = {b:g} ms and {100 * f:g} % of the "
             "setting (the paper's values, from validation/jaxa06-rti.csv) against the "
             "simulated Fig. 4 points."]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig], notes=notes)


# --- Fig. 6: delay, NIST Net vs netem ---------------------------------------------------------


def fig6_points(scale):
    pts = []
    for bw in FIG6_BW:
        for d in FIG6_DELAYS_MS:
            if d == 0:
                pts.append(_pt(scale, "sync", bw, 64))
                continue
            for netem in (False, True):
                # d is the round-trip delay the emulator adds: d/2 in each direction.
                pts.append(_pt(scale, "sync", bw, 64, delay=f"{d // 2}ms",
                               netem=netem if netem else None))
    return pts


def _delay(params):
    """Round-trip delay (ms) of a point: twice the per-direction setting."""
    return 2 * int(params.get("delay", "0ms").removesuffix("ms"))


def fig6_analyse(records):
    cal = _calibration()
    a, b, f = cal["sync_alpha_bytes"], cal["sync_beta_ms"], cal["sync_rate_fraction"]
    metrics, checks, rows = {}, [], []
    sim = {}
    for r in records:
        k = _bw_label(r.params)
        d = _delay(r.params)
        sems = ["nistnet", "netem"] if d == 0 else (["netem"] if r.params.get("netem")
                                                    else ["nistnet"])
        for sem in sems:
            sim[(sem, k, d)] = _t(r)
            pred = (eq2 if sem == "nistnet" else eq1)(64, BW[k][1], a, b, f, d)
            metrics[f"fig6_{sem}_{k}_{d}ms_ms"] = _t(r)
            rows.append({"semantics": sem, "bandwidth_bps": BW[k][1], "delay_ms": d,
                         "data_size": 64, "simulated_ms": _t(r),
                         "equation": "2" if sem == "nistnet" else "1", "equation_ms": pred,
                         "error_pct": 100 * (_t(r) - pred) / pred,
                         "time_per_exchange_sd_ms": r.result["time_per_exchange_sd_ms"]})
            checks.append(Validation(f"{sem} {k}bps delay {d} ms vs equation "
                                     f"{'2' if sem == 'nistnet' else '1'} (ms)", pred, _t(r),
                                     10.0, role="check", reason=FIG6_REASON))
    series = []
    for n, k in enumerate(FIG6_BW):  # one colour per bandwidth
        for sem in ("nistnet", "netem"):
            series.append(Series(f"{k}bps {sem}", FIG6_DELAYS_MS,
                                 [sim[(sem, k, d)] for d in FIG6_DELAYS_MS], style="points",
                                 group=k))
        fine = list(range(0, max(FIG6_DELAYS_MS) + 1, 2))
        series.append(Series("equation 2, each bandwidth (dashed)" if n == 0 else "", fine,
                             [eq2(64, BW[k][1], a, b, f, d) for d in fine], style="dashed",
                             group=k))
        series.append(Series("equation 1, each bandwidth (dotted)" if n == 0 else "", fine,
                             [eq1(64, BW[k][1], a, b, f, d) for d in fine], style="dotted",
                             group=k))
    fig = Figure(name="fig6", title="JAXA06 Fig. 6: 64-byte data with delay and bandwidth",
                 xlabel="emulator round-trip delay (ms), half in each direction",
                 ylabel="time per exchange (ms)", series=series)
    notes = ["64-byte synchronised benchmark with an emulator delay: the delay of the figure "
             "is the round trip the emulator adds (the paper's target link: about 200 ms round "
             "trip), half of it in each direction as NIST Net's delay applies in Table 2. The "
             "grant cycle crosses the link once each way per step. NIST Net mode releases a "
             "packet at max(transmission end, arrival + delay) and is compared with equation 2, "
             "netem mode adds them and is compared with equation 1."]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig], notes=notes)


# --- Fig. 8: time-only federates on either PC (prediction) ------------------------------------


def fig8_points(scale):
    g = _fig8_grid(scale)
    return [_pt(scale, "sync", bw, 64, extraCrc=c or None, extraOther=o or None)
            for bw in FIG8_BW for c in g for o in g]


def mean_ci(xs):
    """Mean and 95 % confidence half-width (Student t) of repetitions (half-width None if one)."""
    m, _, half = mean_std_ci(xs)
    return m, (half if len(xs) > 1 else None)


def two_factor_slopes(grid):
    """Least-squares marginal slopes of T = t0 + s_crc * n_crc + s_other * n_other over a grid
    {(n_crc, n_other): T}."""
    keys = sorted(grid)
    xs1 = [c for c, o in keys]
    xs2 = [o for c, o in keys]
    ys = [grid[k] for k in keys]
    m1, m2, my = mean(xs1), mean(xs2), mean(ys)
    s11 = sum((x - m1) ** 2 for x in xs1)
    s22 = sum((x - m2) ** 2 for x in xs2)
    s12 = sum((x - m1) * (z - m2) for x, z in zip(xs1, xs2))
    s1y = sum((x - m1) * (y - my) for x, y in zip(xs1, ys))
    s2y = sum((x - m2) * (y - my) for x, y in zip(xs2, ys))
    det = s11 * s22 - s12 * s12
    return (s1y * s22 - s2y * s12) / det, (s2y * s11 - s1y * s12) / det


#: The resolution of Fig. 8's verdict (percent of the total time per exchange): the larger of
#: the study's own run-to-run spread of a time (at most 2.6 %, Fig. 4) and the agreement of its
#: model with its measurements (3.5 %, Fig. 5). Two placements of the extra federates whose
#: total times differ by less than that are "equal": the study could not have told them apart,
#: and the model is not known to be closer to the testbed than that.
FIG8_RESOLUTION_PCT = 3.5


def dominance_effect_pct(slope_crc, slope_other, base_ms, n):
    """Effect size of Fig. 8's question: the difference of the total time per exchange between
    n extra federates all on the CRC's PC and all on the other PC (from the fitted slopes), in
    percent of their mean."""
    t_crc, t_other = base_ms + slope_crc * n, base_ms + slope_other * n
    return 100.0 * (t_crc - t_other) / (0.5 * (t_crc + t_other))


def dominance(slopes_crc, slopes_other, base_ms, n, resolution_pct=FIG8_RESOLUTION_PCT):
    """Verdict by effect size: "equal" when the difference of the total times with n extra
    federates on one PC or on the other (dominance_effect_pct of the repetitions' mean slopes)
    is within the resolution, else the PC whose federates add more ("crc" / "non-crc").

    Returns (verdict, effect %, (mean, 95 % half-width) of each slope, levels): the levels are
    the fraction of repetitions whose own slopes give each verdict."""
    ci1, ci2 = mean_ci(slopes_crc), mean_ci(slopes_other)

    def verdict(b1, b2):
        e = dominance_effect_pct(b1, b2, base_ms, n)
        return ("equal" if abs(e) <= resolution_pct else "crc" if e > 0 else "non-crc"), e

    dom, effect = verdict(ci1[0], ci2[0])
    per_rep = [verdict(a, b)[0] for a, b in zip(slopes_crc, slopes_other)]
    levels = {v: per_rep.count(v) / len(per_rep) for v in sorted(set(per_rep))}
    return dom, effect, ci1, ci2, levels


def fig8_analyse(records):
    rows, metrics, series = [], {}, []
    for k in FIG8_BW:
        pts = [r for r in records if _bw_label(r.params) == k]
        key = {id(r): (r.params.get("extraCrc", 0), r.params.get("extraOther", 0)) for r in pts}
        grid = {key[id(r)]: _t(r) for r in pts}
        b1, b2 = two_factor_slopes(grid)
        # The same slopes per repetition (repetition i of every point has run RngRun + i).
        runs = {key[id(r)]: r.result.get("time_per_exchange_ms_runs", [_t(r)]) for r in pts}
        nrep = min(len(v) for v in runs.values())
        per_rep = [two_factor_slopes({g: runs[g][i] for g in runs}) for i in range(nrep)]
        n = max(c for c, o in grid)
        dom, effect, (m1, h1), (m2, h2), levels = dominance(
            [s[0] for s in per_rep], [s[1] for s in per_rep], grid[(0, 0)], n)
        metrics[f"federates_{k}_slope_crc_ms"] = b1
        metrics[f"federates_{k}_slope_other_ms"] = b2
        metrics[f"federates_{k}_slope_crc_ci95_ms"] = h1
        metrics[f"federates_{k}_slope_other_ci95_ms"] = h2
        metrics[f"federates_{k}_repetitions"] = nrep
        metrics[f"federates_{k}_base_ms"] = grid[(0, 0)]
        metrics[f"federates_{k}_dominant"] = dom
        metrics[f"federates_{k}_dominant_effect_pct"] = effect
        metrics[f"federates_{k}_dominant_resolution_pct"] = FIG8_RESOLUTION_PCT
        metrics[f"federates_{k}_dominant_levels"] = levels_text(levels)
        for (c, o), t in sorted(grid.items()):
            rows.append({"bandwidth_bps": BW[k][1], "extra_crc_pc": c, "extra_other_pc": o,
                         "time_per_exchange_ms": t})
            metrics[f"federates_{k}_crc{c}_other{o}_ms"] = t
        axis = sorted({c for c, o in grid})
        # each point's 95 % confidence interval over its repetitions as error bars
        half = {g: mean_ci(v)[1] if len(v) > 1 else 0.0 for g, v in runs.items()}
        series.append(Series(f"{k}bps, on the CRC's PC", axis, [grid[(c, 0)] for c in axis],
                             yerr=[half[(c, 0)] for c in axis], style="errorlines"))
        series.append(Series(f"{k}bps, on the other PC", axis, [grid[(0, o)] for o in axis],
                             yerr=[half[(0, o)] for o in axis], style="errorlines"))
    fig = Figure(name="fig8", title="JAXA06 Fig. 8: extra time-only federates",
                 xlabel="extra time-only federates (count)", ylabel="time per exchange (ms)",
                 series=series, logy=True)
    notes = ["Prediction. 64-byte synchronised benchmark plus time-only federates (regulating "
             "and constrained, one TAR per step) on the CRC's PC (host B) and on the other PC "
             "(host A). 'dominant' compares the marginal slopes of a two-factor linear fit by "
             "effect size: the difference of the total time per exchange between all extra "
             "federates on the CRC's PC and all on the other PC, in percent of their mean "
             "(dominant_effect_pct), is 'equal' within the study's resolution "
             f"({FIG8_RESOLUTION_PCT:g} %: its times' run-to-run spread, at most 2.6 %, and "
             "Fig. 5's 3.5 % agreement), else the PC whose federates add more dominates. "
             "dominant_levels: the fraction of repetitions whose own slopes give each verdict."]
    return Analysis(rows=rows, metrics=metrics, figures=[fig], notes=notes)


# --- Order type (prediction) ------------------------------------------------------------------


def order_points(scale):
    return [_pt(scale, "sync", "128k", 1024),
            _pt(scale, "sync", "128k", 1024, tsoData=False)]


def order_analyse(records):
    tso = next(_t(r) for r in records if r.params.get("tsoData", True))
    ro = next(_t(r) for r in records if r.params.get("tsoData", True) is False)
    metrics = {"order_ro_vs_tso_ratio_128k_1024B": ro / tso, "order_tso_ms_128k_1024B": tso,
               "order_ro_ms_128k_1024B": ro}
    fig = Figure(name="order", title="JAXA06 order type: 128 kbit/s, 1024 bytes",
                 xlabel="order type (1 = TSO, 2 = RO)", ylabel="time per exchange (ms)",
                 series=[Series("time per exchange", [1, 2], [tso, ro], style="impulses")],
                 xrange=(0, 3), yrange=(0, None))
    notes = ["Prediction. Synchronised benchmark at 128 kbit/s with 1024-byte data sent in "
             "timestamp order or in receive order (changeAttributeOrderType); both federates "
             "still advance with TAR."]
    return Analysis(rows=_rows(records), metrics=metrics, figures=[fig], notes=notes)


# --- Bidirectional (prediction) ---------------------------------------------------------------


def bidir_points(scale):
    return [_pt(scale, mode, bw, s) for mode in ("sync", "bidir") for bw in BIDIR_BW
            for s in SIZES]


def bidir_analyse(records):
    metrics, series = {}, []
    one = {(_bw_label(r.params), r.params["dataSize"]): _t(r) for r in records
           if r.params["mode"] == "sync"}
    two = {(_bw_label(r.params), r.params["dataSize"]): _t(r) for r in records
           if r.params["mode"] == "bidir"}
    for k in BIDIR_BW:
        ratios = [two[(k, s)] / one[(k, s)] for s in SIZES]
        metrics[f"bidir_ratio_{k}"] = max(ratios)
        for s, q in zip(SIZES, ratios):
            metrics[f"bidir_ratio_{k}_{s}B"] = q
        series.append(Series(f"{k}bps one-way", SIZES, [one[(k, s)] for s in SIZES]))
        series.append(Series(f"{k}bps bidirectional", SIZES, [two[(k, s)] for s in SIZES]))
    for r in records:
        if r.params["mode"] == "bidir":
            k, s = _bw_label(r.params), r.params["dataSize"]
            for suffix in ("frame_overlaps", "retransmissions", "rtos"):
                metrics[f"bidir_{suffix}_per_exchange_{k}_{s}B"] = per_exchange(
                    r, EVENTS[suffix])
    fits = {k: fit_line(SIZES, [two[(k, s)] for s in SIZES]) for k in ("128k", "1M")}
    alpha, beta, _ = crossing_method(fits, ["128k", "1M"])
    metrics["bidir_beta_ms"] = beta
    metrics["bidir_alpha_bytes"] = alpha
    fig = Figure(name="bidir", title="JAXA06 bidirectional vs one-way exchange",
                 xlabel="data size (bytes)", ylabel="time per exchange (ms)", series=series,
                 logy=True)
    notes = ["Prediction. Both federates run the same program as pRTI 1516 would (each step "
             "updateAttributeValues and timeAdvanceRequest, then evokeCallback until the grant, "
             "the other's reflect before it; the CRC on host B with peer-b), full duplex. Ratio = "
             "bidirectional / one-way time, largest over the data sizes; beta from the crossing "
             "of the 128 kbit/s and 1 Mbit/s bidirectional lines. Per exchange: frame pairs of "
             "opposite directions overlapping on a federate link, TCP retransmissions and "
             "timeouts. The timeline shows one 1 Mbit/s 1024 B step on both links."]
    figures = [fig]
    tl = next((r for r in records if r.params["mode"] == "bidir" and _bw_label(r.params) == "1M"
               and r.params["dataSize"] == 1024), None)
    if tl is not None and "timeline_lane" in tl.result:
        figures.append(timeline_figure("bidir-timeline", "two-way 1Mbps 1024 B, full duplex",
                                       tl))
    return Analysis(rows=_rows(records), metrics=metrics, figures=figures, notes=notes)


# --- Half duplex (prediction) -----------------------------------------------------------------


# The NIST Net PC's NICs when the federate PCs' NICs are changed to half duplex. [JAXA06] says the
# NICs "were used with the setting 100BASE-TX, full duplex" (a forced setting, on every PC) and
# that for this test "the NIC setting was changed" to half duplex, without saying on which PCs;
# its subject is the federate PCs. The reading the text supports: only the federate PCs' NICs
# changed, the NIST Net PC's stayed forced full: a duplex mismatch (main configuration,
# doc/ethernet.rst). The other readings stay as named configurations: every NIC changed to half
# ("half"), and the NIST Net PC autonegotiating ("auto": IEEE 802.3 clause 28 parallel detection
# gives half duplex against a forced NIC).
DUPLEX_CONFIGS = ["full", "half", "auto"]
DUPLEX_MAIN = "full"
DUPLEX_NAMES = {"full": "federate NICs forced half, NIST Net NICs forced full (duplex mismatch)",
                "half": "every NIC forced half",
                "auto": "federate NICs forced half, NIST Net NICs autonegotiating (half)"}
# Where half duplex matters: the links carry traffic both ways at once (20 Mbit/s, 4096 bytes).
#: The readings' short names (figure titles, the choice factor's documentation).
DUPLEX_LABELS = {"full": "mismatch", "half": "every NIC half", "auto": "NIST Net autonegotiating"}
DUPLEX_SETTINGS = {"paper": ("1M", 1024), "stress": ("20M", 4096)}
#: Event counts reported per exchange: metric suffix -> result field.
EVENTS = {"collisions": "eth_collisions", "late_collisions": "eth_late_collisions",
          "fcs_errors": "eth_fcs_errors", "frame_overlaps": "frame_overlaps",
          "retransmissions": "tcp_retransmissions", "rtos": "tcp_rtos",
          "fast_retransmits": "tcp_fast_recoveries"}
#: Lanes of the frame timeline (JaxaBenchmark's timeline_lane).
LANES = ["host A -> NIST Net", "NIST Net -> host A", "NIST Net -> host B", "host B -> NIST Net"]


def duplex_points(scale):
    pts = []
    for setting, (bw, size) in DUPLEX_SETTINGS.items():
        for mode in ("sync", "bidir"):
            pts.append(_pt(scale, mode, bw, size))
            for nic in DUPLEX_CONFIGS:
                pts.append(_pt(scale, mode, bw, size, halfDuplex=True,
                               emulatorNic=None if nic == "half" else nic))
    return pts


def per_exchange(rec, field):
    """An event count of a point (all its repetitions) per exchange."""
    res = rec.result
    return res.get(field, 0) / (res["reps"] * res["exchanges"])


def timeline_figure(name, title, rec):
    """One step of a point as the wire carries it: a segment per frame on its lane (both links,
    both directions), frames whose sender saw a collision drawn again above their lane."""
    res = rec.result
    series = []
    spans = list(zip(res["timeline_start_us"], res["timeline_end_us"], res["timeline_lane"],
                     res["timeline_collided"]))
    for lane, label in enumerate(LANES):
        xs, ys = [], []
        for t0, t1, ln, _ in spans:
            if int(ln) == lane:
                xs += [t0, t1]
                ys += [lane + 1, lane + 1]
        series.append(Series(label, xs or [0, 0], ys or [lane + 1, lane + 1], style="segments"))
    xs, ys = [], []
    for t0, t1, ln, hit in spans:
        if hit:
            xs += [t0, t1]
            ys += [int(ln) + 1.2, int(ln) + 1.2]
    if xs:
        series.append(Series("collided (sender's view)", xs, ys, style="segments"))
    return Figure(name=name, title=f"{title}, step {res['timeline_step']} "
                  f"({res['timeline_step_us'] / 1e3:.2f} ms); {res['frame_overlaps']} "
                  "overlapping pairs, all steps",
                  xlabel="time from the step's start (us)", ylabel="lane (federate, NIC, link)",
                  series=series, yrange=(0.5, 4.7),
                  extra=["set ytics (" + ", ".join(f'"{l}" {i + 1}' for i, l in
                                                   enumerate(LANES)) + ")",
                         "set for [i=1:8] linetype i lw 7", "set key bottom right"])


def collision_regime(result):
    """The regime of a half-duplex point's NICs (IEEE 802.3 4.2.3.2.4): 'late collisions' when
    a collision came after the first 512 bits of a frame (the slot time), where the MAC discards
    the frame and TCP must recover it; 'early collisions only' when every collision came within
    the slot time, and the MAC retried it within microseconds; else 'no collision'."""
    if result.get("eth_late_collisions", 0) > 0:
        return "late collisions"
    return "early collisions only" if result.get("eth_collisions", 0) > 0 else "no collision"


def _duplex_regimes(metrics, recs, reading):
    """The duplex reading's cliff: where the readings of the half-duplex test put a point's NICs
    in different collision regimes (collision_regime), its *_hd_ms metric names the main
    reading's regime first and each other reading's, with their values (the band covers all)."""
    for setting, (bw, size) in DUPLEX_SETTINGS.items():
        prefix = "" if setting == "paper" else "stress_"
        for way in ("oneway", "twoway"):
            main = recs.get((setting, way, reading))
            others = [(nic, recs.get((setting, way, nic))) for nic in DUPLEX_CONFIGS
                      if nic != reading]
            if main is None or any(r is None for _, r in others):
                continue
            regimes = [(collision_regime(main.result), _t(main), reading)] + \
                [(collision_regime(r.result), _t(r), nic) for nic, r in others]
            if len({g for g, _, _ in regimes}) < 2:
                continue
            driver = (f"which NICs the half-duplex test changed (duplexReading), {bw}bit/s, "
                      f"{size} B, {way}: a collision after the slot time (512 bits) is late")
            set_regime(metrics, f"{prefix}halfduplex_{way}_hd_ms", driver,
                       [(f"{g} ({DUPLEX_LABELS[nic]})", t) for g, t, nic in regimes])


def duplex_analyse(records, reading=DUPLEX_MAIN):
    """The duplex points' metrics; ``reading``: the NIST Net PC's NICs in the half-duplex test
    (a DUPLEX_CONFIGS key) whose points the main metrics (``*_hd_ms``, the timeline figures)
    come from: DUPLEX_MAIN, the reading the text supports, or in a sensitivity sample the
    level of the choice factor duplexReading (_duplex_sensitivity)."""
    if reading not in DUPLEX_CONFIGS:
        raise ValueError(f"duplex reading {reading!r}: one of {', '.join(DUPLEX_CONFIGS)}")
    metrics, rows = {}, []
    recs = {}
    for r in records:
        setting = next(s for s, (bw, size) in DUPLEX_SETTINGS.items()
                       if _bw_label(r.params) == bw and r.params["dataSize"] == size)
        way = "oneway" if r.params["mode"] == "sync" else "twoway"
        hd = bool(r.params.get("halfDuplex"))
        nic = r.params.get("emulatorNic", "half") if hd else "fd"
        recs[(setting, way, nic)] = r
        res = r.result
        row = {"setting": setting, "bandwidth_bps": res["bandwidth_bps"],
               "data_size": res["data_size"], "way": way,
               "federate_nics": "half" if hd else "full",
               "emulator_nics": nic if hd else "full",
               "time_per_exchange_ms": _t(r)}
        for k in ("eth_collisions", "eth_late_collisions", "eth_excessive_collisions",
                  "eth_fcs_errors", "eth_runts", "eth_deferrals", "frame_overlaps",
                  "tcp_retransmissions", "tcp_rtos", "tcp_fast_recoveries"):
            row[k] = res.get(k, 0)
        rows.append(row)
        prefix = "" if setting == "paper" else "stress_"
        name = f"{prefix}halfduplex_{way}_{'fd' if not hd else 'hd_' + nic}"
        metrics[f"{name}_ms"] = _t(r)
        if hd and nic == reading:
            metrics[f"{prefix}halfduplex_{way}_hd_ms"] = _t(r)
        if hd:
            metrics[f"{name}_collisions"] = res["eth_collisions"]
            metrics[f"{name}_late_collisions"] = res["eth_late_collisions"]
            metrics[f"{name}_fcs_errors"] = res["eth_fcs_errors"]
        for suffix, field in EVENTS.items():
            if hd or suffix not in ("collisions", "late_collisions", "fcs_errors"):
                metrics[f"{name}_{suffix}_per_exchange"] = per_exchange(r, field)
    metrics["halfduplex_main_configuration"] = DUPLEX_NAMES[reading]
    _duplex_regimes(metrics, recs, reading)
    labels = ["full", "half/full (mismatch)", "half/half", "half/auto"]
    keys = ["fd", "hd_full", "hd_half", "hd_auto"]
    xs = list(range(1, 5))
    series = []
    for prefix, setting in (("", "1 Mbit/s, 1024 B"), ("stress_", "20 Mbit/s, 4096 B")):
        for way in ("oneway", "twoway"):
            series.append(Series(f"{way}, {setting}", xs,
                                 [metrics[f"{prefix}halfduplex_{way}_{k}_ms"] for k in keys]))
    fig = Figure(name="duplex", title="JAXA06 half duplex: federate NICs / NIST Net NICs",
                 xlabel="federate NICs / NIST Net NICs", ylabel="time per exchange (ms)",
                 series=series, xrange=(0.5, 4.5), logy=True,
                 extra=["set xtics (" + ", ".join(f'"{l}" {x}' for l, x in zip(labels, xs)) + ")"])
    figures = [fig]
    for setting, (bw, size) in DUPLEX_SETTINGS.items():
        r = recs.get((setting, "twoway", reading))
        if r is not None and "timeline_lane" in r.result:
            figures.append(timeline_figure(
                f"duplex-timeline-{setting}",
                f"two-way {bw}bps {size} B, {DUPLEX_LABELS[reading]}", r))
    notes = ["Prediction. The federate PCs' NICs forced to half duplex (IEEE 802.3 CSMA/CD, "
             "model/ethernet) facing the NIST Net PC's NICs forced full (main: only the federate "
             "PCs' setting was changed, a duplex mismatch), forced half, or autonegotiating "
             "(parallel detection: half); full duplex for comparison. 1 Mbit/s, 1024 bytes as "
             "the study; 20 Mbit/s, 4096 bytes where both directions of a link are busy at "
             "once. Event counts per exchange: 802.3 collisions, late collisions and FCS errors "
             "at the NICs, frame pairs of opposite directions overlapping on a federate link, "
             "TCP retransmissions, timeouts and fast retransmits. The timeline figures show one "
             "two-way step of the mismatch on both links (the first step from the middle of the "
             "last repetition that has an overlap, else the middle step)."]
    return Analysis(rows=rows, metrics=metrics, figures=figures, notes=notes)


# ----------------------------------------------------------------------------------------------
# jaxa-background: traffic besides the benchmark's on the federate links (doc/rti.rst, "Traffic
# besides the benchmark's").

#: The backgrounds: name -> the program's parameters. arp: the NIST Net PC's unicast ARP probes
#: of each federate PC (Linux's neighbour re-validation, NeighbourProbe); ntp: an NTP poll's
#: 48-octet packet each way on each federate link at ntpd's shortest poll interval, 64 s;
#: netbios: a browser host announcement of about 200 octets each way at the first minutes' rate,
#: one a minute (both Poisson at that rate: their phase is unknown); udpN: N datagrams a second of
#: 64-octet frames each way on each federate link (Poisson), a what-if scale.
BACKGROUNDS = {"none": {}, "arp": {"background": "arp"},
               "ntp": {"background": "udp", "backgroundRate": 1 / 64, "backgroundSize": 48},
               "netbios": {"background": "udp", "backgroundRate": 1 / 60, "backgroundSize": 200},
               "udp10": {"background": "udp", "backgroundRate": 10.0},
               "udp100": {"background": "udp", "backgroundRate": 100.0},
               "udp1000": {"background": "udp", "backgroundRate": 1000.0}}
#: The duplex readings (jaxa-duplex's, with full duplex for comparison): name -> parameters.
BACKGROUND_READINGS = {"fd": {}, "hd_full": {"halfDuplex": True, "emulatorNic": "full"},
                       "hd_half": {"halfDuplex": True},
                       "hd_auto": {"halfDuplex": True, "emulatorNic": "auto"}}
#: Per-exchange counts: metric suffix -> the record's per-repetition series.
BACKGROUND_COUNTS = {"collisions": "eth_collisions_runs",
                     "late_collisions": "eth_late_collisions_runs",
                     "fcs_errors": "eth_fcs_errors_runs",
                     "retransmissions": "tcp_retransmissions_runs",
                     "rtos": "tcp_rtos_runs", "background_frames": "background_frames_runs"}


def background_points(scale):
    """The one-way benchmark at the study's half-duplex setting (1 Mbit/s, 1024 bytes) under
    each background and each duplex reading."""
    bw, size = DUPLEX_SETTINGS["paper"]
    return [_pt(scale, "sync", bw, size, **BACKGROUND_READINGS[r], **BACKGROUNDS[b])
            for b in BACKGROUNDS for r in BACKGROUND_READINGS]


def _background_key(params):
    b = next(k for k, v in BACKGROUNDS.items()
             if all(params.get(n) == x for n, x in v.items())
             and (v or "background" not in params))
    r = next(k for k, v in BACKGROUND_READINGS.items()
             if bool(params.get("halfDuplex")) == bool(v.get("halfDuplex"))
             and params.get("emulatorNic", "half" if params.get("halfDuplex") else None)
             == v.get("emulatorNic", "half" if v.get("halfDuplex") else None))
    return b, r


def background_analyse(records):
    """Per background and duplex reading: the time per exchange with its interval over the
    repetitions (5-95 %), its change against full duplex under the same background, and the
    events per exchange (collisions, late collisions, FCS errors, TCP retransmissions and
    timeouts, the background's own frames), each with its interval over the repetitions."""
    from ..experiment import seed_interval

    metrics, rows, by = {}, [], {}
    for rec in records:
        b, r = _background_key(rec.params)
        res = rec.result
        by[(b, r)] = rec
        name = f"background_{b}_oneway_{r}"
        runs = res.get("time_per_exchange_ms_runs") or []
        unfinished = res["reps"] - len(runs)
        metrics[f"{name}_unfinished_reps"] = unfinished
        row = {"background": b, "reading": r, "unfinished_reps": unfinished}
        if runs:
            mid, lo, hi = seed_interval(runs)
            metrics[f"{name}_ms"], metrics[f"{name}_ms_low"], metrics[f"{name}_ms_high"] = (
                mid, lo, hi)
            row["time_per_exchange_ms"] = mid
        if b != "none":
            for suffix, field in BACKGROUND_COUNTS.items():
                per = [x / res["exchanges"] for x in res[field]]
                mid, lo, hi = seed_interval(per)
                key = f"{name}_{suffix}_per_exchange"
                metrics[key], metrics[f"{key}_low"], metrics[f"{key}_high"] = mid, lo, hi
                row[f"{suffix}_per_exchange"] = mid
        rows.append(row)
    # Half duplex against full duplex under the same background: the change in % with the
    # widest combination of the two intervals.
    for (b, r), rec in by.items():
        name = f"background_{b}_oneway_{r}"
        fd = f"background_{b}_oneway_fd"
        if r == "fd" or f"{name}_ms" not in metrics or f"{fd}_ms" not in metrics:
            continue
        key = f"{name}_vs_fd_pct"
        metrics[key] = 100 * (metrics[f"{name}_ms"] / metrics[f"{fd}_ms"] - 1)
        metrics[f"{key}_low"] = 100 * (metrics[f"{name}_ms_low"] / metrics[f"{fd}_ms_high"] - 1)
        metrics[f"{key}_high"] = 100 * (metrics[f"{name}_ms_high"] / metrics[f"{fd}_ms_low"] - 1)
    xs = list(range(1, len(BACKGROUNDS) + 1))
    series = []
    for r in BACKGROUND_READINGS:
        pts = [(x, metrics.get(f"background_{b}_oneway_{r}_ms")) for x, b in zip(xs, BACKGROUNDS)]
        pts = [(x, y) for x, y in pts if y is not None]
        if pts:
            series.append(Series(r.replace("_", " "), [x for x, _ in pts], [y for _, y in pts]))
    fig = Figure(name="background", title="JAXA06 one-way step under background traffic, "
                 "1 Mbit/s, 1024 B", xlabel="background on the federate links",
                 ylabel="time per exchange (ms)", series=series, logy=True,
                 xrange=(0.5, len(xs) + 0.5),
                 extra=["set xtics (" + ", ".join(f'"{b}" {x}' for b, x in zip(BACKGROUNDS, xs))
                        + ")"])
    notes = ["What-if: traffic besides the benchmark's on the federate links, which the other "
             "JAXA06 experiments assume absent. arp: the NIST Net PC re-validates its neighbour "
             "entries of the two federate PCs with a unicast ARP probe every 20-50 s (Linux's "
             "defaults); udpN: N datagrams a second of 64-octet frames each way on each link, "
             "Poisson. Readings: fd full duplex; hd_full federate NICs half, NIST Net's full (a "
             "duplex mismatch); hd_half every NIC half; hd_auto NIST Net's autonegotiating. "
             "Intervals over the repetitions (5-95 %). A repetition whose background reached "
             "500 000 datagrams ends unfinished (*_unfinished_reps)."]
    return Analysis(rows=rows, metrics=metrics, figures=[fig], notes=notes)


def point_cost(p: dict) -> float:
    """Simulator events a point takes, roughly (counted on paper-scale runs): only for ordering.

    Per synchronised exchange about 25 + 25 per full-size segment of the update, 1.65 times that
    bidirectionally, 41 more per time-only federate on the other PC and 6 per one on the CRC's
    PC; per asynchronous update about 26 per full-size segment (the stream is coalesced).
    """
    segments = (p["dataSize"] + 103) / 1448
    if p["mode"] == "async":
        per = 2.5 + 26 * segments
    else:
        per = 25 + 25 * math.ceil(segments)
        if p["mode"] == "bidir":
            per *= 1.65
        per += 41 * p.get("extraOther", 0) + 6 * p.get("extraCrc", 0)
    return per * p["reps"] * p["exchanges"]


# prti1516's per-operation cost K, calibrated on Fig. 4's beta (doc/rti.rst): the one procedure
# of bench/rti-calibrate.py and of jaxa-duplex's per-sample recalibration.
K_SETTINGS = ("CallCost", "CallbackCost", "EncodeCost", "DecodeCost", "RouteCost",
              "TimeManagementCost")


def rti_costs(k, per_federate=True):
    """--rtiSet text of the per-operation cost K (1 cycle per byte encoded or decoded); with
    per_federate, the GALT evaluation's per-federate term at its assumed K/10 (otherwise the
    profile's, e.g. a sampled value, stands)."""
    text = ";".join(f"{s}={k:.0f}" for s in K_SETTINGS) + ";EncodeCostPerByte=1;DecodeCostPerByte=1"
    return text + (f";TimeManagementCostPerFederate={k / 10}" if per_federate else "")


def crossing_alpha_beta(mode, rti_set, host_set="", profile_file=None, options=None, reps=1,
                        exchanges=300, jobs=2):
    """alpha (bytes), beta (ms) and the mean rate fraction of the synchronised ("sync", Fig. 4)
    or asynchronous ("async", Fig. 7) benchmark by the crossing-point method over CROSSING_BW
    and SIZES, exactly as the experiments measure them."""
    from concurrent.futures import ThreadPoolExecutor

    from ..runner import run_program_json

    def run(job):
        bw, size = job
        params = {"mode": mode, "bandwidth": BW[bw][0], "dataSize": size, "reps": reps,
                  "exchanges": exchanges, "rtiSet": rti_set}
        return run_program_json(PROGRAM, params, profile_file, options,
                                host_set)["time_per_exchange_ms"]

    jobs_ = [(bw, s) for bw in CROSSING_BW for s in SIZES]
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        times = dict(zip(jobs_, pool.map(run, jobs_)))
    fits = {bw: fit_line(SIZES, [times[(bw, s)] for s in SIZES]) for bw in CROSSING_BW}
    alpha, beta, _ = crossing_method(fits, CROSSING_BW)
    frac = sum(rate_fraction(fits[bw][0], BW[bw][1]) for bw in CROSSING_BW) / len(CROSSING_BW)
    return alpha, beta, frac


def calibrate_k(ka, kb, header=None, per_federate=True, profile_file=None, options=None,
                host_set="", tolerance_ms=0.002, max_steps=5, log=None, **run):
    """K (cycles, rounded to 100) whose synchronised beta is Fig. 4's: secant steps from the two
    starting values ka, kb (beta grows almost linearly with K; part of the work hides behind
    transmissions at low bandwidth), stopping within tolerance_ms. header: EncodingHeaderSize
    (None: the profile's). Returns the Recalibration's dict: settings for prti1516, "value" K,
    "achieved" beta (ms), "iterations" (benchmark sets measured)."""
    target = _calibration()["sync_beta_ms"]
    seen = {}

    def beta(k):
        if k not in seen:
            rti_set = (f"EncodingHeaderSize={header};" if header else "") + rti_costs(k, per_federate)
            seen[k] = crossing_alpha_beta("sync", rti_set, host_set, profile_file, options, **run)[1]
            if log:
                log(f"  K = {k:.0f}: beta {seen[k]:.4f} ms (target {target:g})")
        return seen[k]

    ka, kb = float(ka), float(kb)
    if abs(beta(ka) - target) > tolerance_ms:
        for _ in range(max_steps):
            bb = beta(kb)
            if abs(bb - target) <= tolerance_ms or bb == beta(ka):
                break
            # a step back to a K already measured reuses its beta (no run) and steps on
            ka, kb = kb, max(0.0, round(kb + (target - bb) * (kb - ka) / (bb - beta(ka)), -2))
    k = min(seen, key=lambda x: abs(seen[x] - target))
    settings = {f"RtiSettings.{s}": f"{k:.0f}" for s in K_SETTINGS}
    if per_federate:
        settings["RtiSettings.TimeManagementCostPerFederate"] = f"{k / 10:g}"
    return {"settings": {("rti", "prti1516"): settings}, "value": k, "achieved": seen[k],
            "iterations": len(seen)}


def _profile_k():
    from ..ranges import Profiles

    return float(Profiles().value("rti", "prti1516", "RtiSettings.CallCost"))


def _recalibrate_k(tolerance_pct=5.0):
    """K per sample on Fig. 4's beta (0.45 ms), secant steps from the profile's K and 20 %
    more. Tolerance 5 %: the nominal model is 2.1-2.5 % above 0.45 ms (the profile's K is not
    refitted to the percent: jaxa-fig4's check allows 15 %, the crossing method's resolution),
    and beta is not monotonic in K at the percent level: with 3 %, 5 of
    22 fits of a Morris N = 4 run ended at 3.4-3.7 % after six benchmark sets, their secant
    steps jumping between K whose betas scatter by that much. The per-federate term keeps the sample's value (it is a factor):
    K alone is refitted. One benchmark run at a time per fit (the fits run --jobs at once)."""
    from ..sensitivity import Recalibration

    target = _calibration()["sync_beta_ms"]

    def procedure(pf, opts):
        k0 = _profile_k()
        return calibrate_k(k0, round(1.2 * k0, -2), per_federate=False, profile_file=pf,
                           options=opts, tolerance_ms=tolerance_pct / 100 * target, jobs=1)

    return Recalibration(parameter="rti/prti1516 K", metric="fig4 sync beta_ms",
                         target=_calibration()["sync_beta_ms"], tolerance_pct=tolerance_pct,
                         procedure=procedure)


def _duplex_sensitivity():
    from ..sensitivity import Sensitivity

    from ..ranges import Choice, Range

    # The federate PCs' estimated wake-up latency and kernel tick, NIST Net's PC's
    # tick, the release handler's own time on that PC (0, a lower bound), and
    # prti1516's per-federate time-management term (K/10, an assumption: doc/rti.rst). All of
    # them move Fig. 4's beta, on which K is calibrated: each sample refits K by
    # bench/rti-calibrate.py's procedure (calibrate_k). Which NICs the half-duplex test
    # changed is a discrete reading (doc/ethernet.rst): every sample runs every reading as its
    # own points, and the choice factor duplexReading, applied in the analysis, picks the
    # reading whose points the main metrics (*_hd_ms) come from (no program point of its own).
    return Sensitivity(
        profiles=("pc2006-linux26", "nistnet-linux24", "prti1516"),
        recalibrate=[_recalibrate_k()],
        ranges=[Range("ns3::LinkEmulatorQueueDisc::ReleaseCost", 0, 3.2,
                      "NIST Net's release runs in its RTC interrupt handler, whose own time is "
                      "not known (doc/link.rst): from 0 (the lower bound, the default) to the "
                      "longest kernel-tick handler on the same 3 GHz CPU, 3.2 us (doc/host.rst), "
                      "an interrupt handler of the same kind", unit="us"),
                # the reading the text supports last: on Morris's four grid levels it takes
                # two (ranges.Choice), the other readings one each
                Choice("duplexReading", ["half", "auto", DUPLEX_MAIN],
                       "which NICs [JAXA06]'s half-duplex test changed (doc/ethernet.rst): the "
                       "federate PCs' only, the NIST Net PC's staying forced full (full: a "
                       "duplex mismatch, the reading the text supports), every NIC (half), or "
                       "the federate PCs' with the NIST Net PC's autonegotiating (auto); "
                       "applied in the analysis: the reading the *_hd_ms metrics come from",
                       default=DUPLEX_MAIN, in_analysis=True),
                # what a half-duplex NIC's MAC does in a mismatch (doc/ethernet.rst)
                Choice("ns3::EthernetNetDevice::LateCollision", ["Discard", "Retry"],
                       "a half-duplex MAC after a late collision: abandons the frame (the era's "
                       "controllers' counters: 'transmission abandoned') or backs off and "
                       "retries as after any collision (doc/ethernet.rst)"),
                Choice("ns3::EthernetNetDevice::ReceiveWhileSending", ["Damaged", "Intact"],
                       "a frame that begins to arrive at a half-duplex NIC while it sends: "
                       "discarded as a collision, or passed up whole from its own pair "
                       "(doc/ethernet.rst)")] + _structure_choices(),
        analyse=lambda records, choices: duplex_analyse(records, choices["duplexReading"]),
        metrics=("*",))


#: The two-way step's serial structure as pRTI 1516 may run it (doc/rti.rst, 'The two-way step's
#: serial structure'): discrete readings of what [JAXA06] does not describe, each a choice factor
#: of every prediction on the synchronised benchmark. The nominal readings are the model's
#: defaults (one thread per component, the connections written in the order they were used).
HANDOFF_CYCLES = 9000


def _structure_choices():
    from ..ranges import Choice

    return [
        Choice("ns3::RtiSettings::WriteOrder", ["FirstUsed", "RemoteFirst", "LocalFirst"],
               "the order in which one CRC turn writes to its connections (pRTI's is not "
               "published): in the order the turn used them, the far PC's TCP connection first, "
               "or the loopback to the CRC's own PC first; it orders the two grants of a two-way "
               "step (doc/rti.rst)", default="FirstUsed"),
        Choice("ns3::RtiSettings::ThreadHandoffCost", ["0", str(HANDOFF_CYCLES)],
               "whether a component's threads hand work to each other (pRTI: a reader per "
               "connection, the core or the federate's evoking thread, an I/O writer): none, or "
               "a futex wake and a context switch per hand-off, 9000 cycles (3 us at 3 GHz: "
               "lmbench lat_ctx 2-5 us on Pentium 4 class CPUs plus the futex system call; "
               "doc/rti.rst)", default="0"),
        Choice("ns3::HostCpu::WakeUpPreemption", ["false", "true"],
               "whether a woken process takes the CPU from another on its PC (Linux 2.6's O(1) "
               "scheduler preempts the current task for a woken one of better dynamic "
               "priority; which the CRC's and peer-b's JVMs had is not known): first come, "
               "first served, or the woken one first, the other resuming after a switch back "
               "(doc/rti.rst)", default="false"),
        Choice("ns3::RtiSettings::TsoBookkeeping", ["None", "Counts", "ReadNotes"],
               "what pRTI's CRC keeps to know no TSO message is on its way to a federate it "
               "grants (IEEE 1516-2000 clause 8 leaves it to the RTI): its own routing only, "
               "sent/read counts on every time advance request, or a note per TSO message read "
               "that the federate's grant waits for (doc/rti.rst)", default="None"),
    ]


def _rti_sensitivity(metrics):
    """The ranged assumptions of a prediction of the synchronised benchmark on the half-duplex
    test's testbed, full duplex: the federate PCs' and NIST Net PC's profile ranges (wake-up
    latency, kernel tick), prti1516's per-federate time-management term, NIST Net's release
    cost (as jaxa-duplex's, without its duplex reading), K refitted per sample on Fig. 4's
    beta. metrics: the predicted metrics' patterns (numeric ones get a band)."""
    from ..ranges import Range
    from ..sensitivity import Sensitivity

    release = next(r for r in _duplex_sensitivity().ranges
                   if isinstance(r, Range) and not r.levels)
    return Sensitivity(profiles=("pc2006-linux26", "nistnet-linux24", "prti1516"),
                       recalibrate=[_recalibrate_k()], ranges=[release] + _structure_choices(),
                       metrics=metrics)


def _spread_sensitivity():
    """The spread over the same factors as the predictions' (_rti_sensitivity: the PCs' and
    prti1516's ranges with the per-step and per-run variation, NIST Net's release cost, the
    two-way structure's choices; K refitted per sample on Fig. 4's beta, the fits shared with
    theirs). Each sample runs one set of the study's 10 runs at 10 and 20 Mbit/s, where the
    largest spread sits (below, the transmissions hide the RTI's work: spreads under 0.2 %),
    so a sample's spread is one set's, as random as the study's own number."""
    from dataclasses import replace

    return replace(_rti_sensitivity(("sync_spread_max_pct", "sync_spread_max_pct_10M",
                                     "sync_spread_max_pct_20M")),
                   point_filter=lambda p: p["RngRun"] == 1 and _bw_label(p) in ("10M", "20M"))


#: The predicted metrics of the other prediction experiments (not their input echoes).
RTI_SENSITIVITY_METRICS = {
    "jaxa-order": ("order_*",),
    "jaxa-bidir": ("bidir_*",),
    # (not the slopes' 95 % half-widths over the repetitions: a spread, not a prediction);
    # the verdict too: its levels over the design (its own _levels are over the repetitions)
    "jaxa-fig8": ("federates_*_crc*_other*_ms", "federates_*_base_ms",
                  "federates_*_slope_crc_ms", "federates_*_slope_other_ms",
                  "federates_*_effect_pct", "federates_*_dominant"),
}


for _id, _title, _points, _analyse in [
    ("jaxa-fig4", "Synchronised RTI benchmark: time vs data size per bandwidth (Fig. 4)",
     fig4_points, fig4_analyse),
    ("jaxa-fig5", "Synchronised RTI benchmark vs equation 1 against bandwidth (Fig. 5)",
     fig4_points, fig5_analyse),
    ("jaxa-spread", "Run-to-run spread of the synchronised benchmark, 10 runs x 1000 exchanges "
     "(Fig. 4, a check)", spread_points, spread_analyse),
    ("jaxa-fig6", "Delay with bandwidth: NIST Net (equation 2) vs netem (equation 1) (Fig. 6)",
     fig6_points, fig6_analyse),
    ("jaxa-fig7", "Asynchronous RTI benchmark: time vs data size per bandwidth (Fig. 7)",
     fig7_points, fig7_analyse),
    ("jaxa-fig8", "Time-only federates on the CRC's PC and the other PC (prediction)",
     fig8_points, fig8_analyse),
    ("jaxa-wait", "The benchmark program: evokeCallback vs sleep-polling on 1000/250 Hz ticks, "
     "beta against Fig. 4's; the clock's start", wait_points, wait_analyse),
    ("jaxa-order", "TimeStamp vs Receive order data, 128 kbit/s, 1024 B (prediction)",
     order_points, order_analyse),
    ("jaxa-bidir", "Bidirectional vs one-way exchange (prediction)",
     bidir_points, bidir_analyse),
    ("jaxa-duplex", "Half vs full duplex NICs, one-way and two-way (prediction)",
     duplex_points, duplex_analyse),
    ("jaxa-background", "Traffic besides the benchmark's on the federate links: ARP probes and "
     "UDP datagrams under each duplex reading (what-if)", background_points, background_analyse),
]:
    register(Experiment(id=_id, study="JAXA06", title=_title, program=PROGRAM, points=_points,
                        analyse=_analyse, cost=point_cost,
                        sensitivity=_duplex_sensitivity() if _id == "jaxa-duplex" else
                        _spread_sensitivity() if _id == "jaxa-spread" else
                        _rti_sensitivity(RTI_SENSITIVITY_METRICS[_id])
                        if _id in RTI_SENSITIVITY_METRICS else None))
