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
# The frequencies raised run by run (Hz); beyond the study's ranges for the predictions.
GRID = {
    "1a": [50, 100, 200, 250, 275, 300, 325, 350, 375, 400, 450],
    "1b": [100, 200, 400, 600, 800, 850, 900, 925, 950, 1000, 1100],
    "2": [250, 500, 1000, 1500, 2000, 2500, 3000, 3500, 3800, 3900, 4000, 4500],
    "3a": [100, 250, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 8000],
    "3b": [100, 250, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 8000],
    "4": [500, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 10000, 12000, 15000],
}
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


def pipeline_points(scale):
    duration, runs = (1.0, 1) if scale == "quick" else (10.0, 3)
    return [{"config": c, "frequency": f, "duration": duration, "RngRun": run}
            for c, grid in GRID.items() for f in grid for run in range(1, runs + 1)]


def _verdict(r, frequency):
    """Why a point ends the sweep (None if it does not)."""
    if r["send_rate_hz"] < (1 - SENDER_TOLERANCE) * frequency:
        return "sender cannot reach the rate"
    if r["loss"] > LOSS_LIMIT:
        return "loss above 0.1 %"
    if (r["read_rate_hz"] < (1 - READ_TOLERANCE) * r["send_rate_hz"]
            or r["latency_growth"] > GROWTH_LIMIT):
        return "receiver falls behind"
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
        verdict = _verdict(r, f)
        by.setdefault(c, {}).setdefault(f, []).append((r, verdict))
        rows.append({"config": c, "frequency_hz": f, "run": rec.params["RngRun"],
                     "latency_mean_us": r["latency_mean_us"], "latency_max_us": r["latency_max_us"],
                     "loss": r["loss"], "read_rate_hz": r["read_rate_hz"],
                     "send_rate_hz": r["send_rate_hz"], "latency_growth": r["latency_growth"],
                     "relay_max_burst": r["relay_max_burst"], "verdict": verdict or "ok"})
    metrics, series = {}, []
    for c, (prefix, title) in CONFIGS.items():
        if c not in by:
            continue
        pts = []
        for f, rs in by[c].items():
            lat = sum(r["latency_mean_us"] for r, _ in rs) / len(rs)
            verdict = next((v for _, v in rs if v), None)
            pts.append((f, lat, verdict))
        lat0, knee, best, ended = sweep_summary(pts)
        metrics[f"{prefix}_latency_us"] = lat0
        metrics[f"{prefix}_knee_hz"] = knee
        metrics[f"{prefix}_max_hz"] = best
        metrics[f"{prefix}_sweep_ended_by"] = ended
        ok = sorted((f, lat) for f, lat, v in pts if v is None)
        series.append(Series(title, [f for f, _ in ok], [lat for _, lat in ok]))
    facts = {(str(r["config"]), r["quantity"]): float(r["value"])
             for r in validation.load("tno03-pipeline.csv")}
    checks = []
    tolerance = {"latency_us": 25.0, "max_hz": 15.0, "knee_hz": 25.0}
    for (c, q), value in facts.items():
        sim = metrics.get(f"{CONFIGS[c][0]}_{q}")
        if sim is not None:
            checks.append(Validation(f"{c} {q}", value, sim, tolerance[q]))
    fig = Figure(name="pipeline-latency",
                 title="TNO03 Figs. 8-14: mean latency against the Sender's frequency",
                 xlabel="frequency (Hz)", ylabel="mean latency (us)", logx=True, logy=True,
                 series=series)
    notes = [
        "Sender -> ReceiverSender -> Receiver, 512-byte updates; latency = Receiver's time of "
        "the reflect minus the Sender's tag (one clock). Points that end a sweep (loss, fall-"
        "behind, sender rate) are left out of the figure. 1a, 1b, 2: calibration on SGI Onyx "
        "(doc/tno.rst says which cost was set from which number; the knees are checks); 3a, "
        "3b, 4: predictions on iHawk PCs.",
    ]
    return Analysis(rows=rows, metrics=metrics, validation=checks, figures=[fig], notes=notes)


register(Experiment(
    id="tno-pipeline", study="TNO03",
    title="Pipeline latency against frequency, configurations 1a-4 (Figs. 8-14)",
    program="tno-pipeline", points=pipeline_points, analyse=pipeline_analyse))
