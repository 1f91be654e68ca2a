"""[JAXA06] Tables 1 and 2: calibration of the NIST Net emulator (ftp rate, ping RTT)."""

from statistics import mean

from .. import validation
from ..campaign import Analysis, Experiment, Figure, Series, Validation, register

# Table 1 settings: label used in metric names -> ns-3 DataRate string.
SETTINGS = {"100M": "100Mbps", "50M": "50Mbps", "10M": "10Mbps", "1M": "1Mbps",
            "512k": "512kbps", "128k": "128kbps"}
BPS = {"100M": 100e6, "50M": 50e6, "10M": 10e6, "1M": 1e6, "512k": 512e3, "128k": 128e3}


def _file_bytes(label, seconds):
    """A file that takes about `seconds` at the setting (at least 1 MB, at most 120 MB)."""
    return int(min(max(BPS[label] / 8 * seconds, 1_000_000), 120_000_000))


def table1_points(scale):
    seconds, runs = (8, 1) if scale == "quick" else (30, 3)
    return [{"bandwidth": SETTINGS[label], "fileBytes": _file_bytes(label, seconds),
             "RngRun": run}
            for label in SETTINGS for run in range(1, runs + 1)]


def table1_analyse(records):
    measured = {r["setting"]: r for r in validation.load("jaxa06-table1.csv")}
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
                                 sim, 3.0))
    fractions = [metrics[f"ftp_rate_bps_{k}"] / BPS[k] for k in SETTINGS]
    metrics["ftp_rate_fraction_mean"] = mean(fractions)
    xs = [BPS[k] for k in SETTINGS]
    fig = Figure(
        name="table1", title="JAXA06 Table 1: ftp rate as a fraction of the NIST Net setting",
        xlabel="NIST Net bandwidth setting (bit/s)", ylabel="ftp rate / setting (%)",
        logx=True, yrange=(90, 100),
        series=[Series("measured [JAXA06]", xs,
                       [100 * measured[k]["ftp_rate_bps"] / BPS[k] for k in SETTINGS],
                       style="points"),
                Series("simulated", xs,
                       [100 * metrics[f"ftp_rate_bps_{k}"] / BPS[k] for k in SETTINGS])])
    notes = ["An ftp-like bulk TCP transfer (Linux 2.6 TCP: BIC, MSS 1448 with timestamps) "
             "from host A to host B through the NIST Net PC, delay 0. The rate is below the "
             "setting because NIST Net limits IP bytes while ftp counts file bytes "
             "(1448 of every 1500), and at 100 Mbit/s the Ethernet framing (38 bytes a frame) "
             "limits first."]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig], notes=notes)


DELAYS_MS = [0, 5, 10, 15, 50, 100]


def table2_points(scale):
    count, runs = (10, 2) if scale == "quick" else (100, 5)
    return [{"delay": f"{d}ms", "count": count, "RngRun": run}
            for d in DELAYS_MS for run in range(1, runs + 1)]


def table2_analyse(records):
    measured = {r["delay_ms"]: r["ping_rtt_ms"] for r in validation.load("jaxa06-table2.csv")}
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
        checks.append(Validation(f"{d} ms ping RTT (ms)", measured[d], sim, 5.0))
    xs = DELAYS_MS
    fig = Figure(
        name="table2", title="JAXA06 Table 2: NIST Net delay setting vs ping RTT",
        xlabel="NIST Net delay setting, each direction (ms)", ylabel="ping RTT (ms)",
        series=[Series("measured [JAXA06]", xs, [measured[d] for d in xs], style="points"),
                Series("simulated", xs, [metrics[f"ping_rtt_ms_{d}ms"] for d in xs]),
                Series("2 x delay", xs, [2 * d for d in xs], style="lines")])
    notes = ["ping (56 data bytes, one a second) from host A to host B through the NIST Net PC. "
             "The RTT at delay 0 comes from the hosts' receive paths (calibrated: the CPUs' "
             "deep-idle exit latency, see doc/host.rst); with a delay NIST Net releases packets "
             "on its 8192 Hz real-time clock, adding about half a tick per direction."]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig], notes=notes)


register(Experiment(
    id="jaxa-table1", study="JAXA06",
    title="NIST Net bandwidth setting vs measured ftp rate (Table 1)",
    program="jaxa-table1", points=table1_points, analyse=table1_analyse))

register(Experiment(
    id="jaxa-table2", study="JAXA06",
    title="NIST Net delay setting vs ping round-trip time (Table 2)",
    program="jaxa-table2", points=table2_points, analyse=table2_analyse))
