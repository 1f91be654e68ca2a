"""Calibration leverage declarations: per experiment, its calibration points with the parameter
each set, as a factor over the fitted value's band (sensitivity.LEVERAGE_FACTORS). The table reads
the fitted settings' names from the study modules, so it lives beside them rather than in
sensitivity.py (which the study modules import); ``./testbed reproduce`` runs it
(sensitivity.run_leverage) and report.md shows each point's leverage (doc/sensitivity.rst)."""

from __future__ import annotations

from .build import describe_options
from .errors import CampaignError
from .experiments import jaxa06, tno03
from .ranges import Range
from .sensitivity import Leverage, option_factor, profile_factor


def fitted_option(program: str, name: str) -> float:
    """The default of a program's option (its --describe): the fitted value a calibration set."""
    for o in describe_options(program) or []:
        if o["name"] == name:
            return float(o["default"])
    raise CampaignError(f"{program} --describe names no option {name} (is it built?)")


def calibration_leverage(ids=None) -> dict[str, list[Leverage]]:
    """Per experiment, its calibration points with the parameter each set (the validation
    point's ``parameter``, as a factor)."""
    fit = "the fitted value +-10 %"
    rti_k = profile_factor("rti", "prti1516", [f"RtiSettings.{s}" for s in jaxa06.K_SETTINGS],
                           fit)
    header = profile_factor("rti", "prti1516", ["RtiSettings.EncodingHeaderSize"], fit)
    buffer = option_factor("ns3::Sara::BufferPackets", 113, fit, integer=True)
    decls = {
        # a power of two (the crystal divided by 2^k, at most 8 192 Hz): the next one down
        "gine-timer": [Leverage("RTC shortest interval (us)",
                                Range("ns3::RtcTimer::Frequency", 4096, 8192,
                                      "the fitted 8 192 Hz and the next rate the RTC can run "
                                      "at, 4 096 Hz", integer=True),
                                lambda p: p["timer"] == "rtc")],
        "jaxa-fig4": [Leverage("sync beta (ms)", rti_k), Leverage("sync alpha (bytes)", header)],
        "jaxa-fig7": [Leverage("async alpha (bytes)", header)],
        "mega-flooding": [Leverage(
            "one send_udp process per PC: send-interval std (us) [calibration]",
            profile_factor("host", "starbed-p3-linux2613", ["HostPlatform.SchedulingLatency.Mean"],
                           fit), lambda p: p["role"] == "one-process"),
            Leverage("a Group B PC with 20 000 nodes: drop rate", buffer,
                     lambda p: p["role"] == "receiver-20000")],
        "mega-receiver": [Leverage("a Group B PC with 20 000 nodes: drop rate [calibration]",
                                   buffer)],
        "tno-jitter": [
            Leverage("irix_sched_jitter_us",
                     profile_factor("host", "onyx-irix65-250",
                                    ["HostCpu.ShieldedInterferenceDuration.Constant"], fit),
                     lambda p: p["platform"] == "irix" and p["measure"] == "sched"),
            Leverage("ihawk_sched_jitter_us",
                     profile_factor("host", "ihawk-redhawk-700",
                                    ["HostCpu.ShieldedInterferenceDuration.Constant"], fit),
                     lambda p: p["platform"] == "ihawk" and p["measure"] == "sched"
                     and "band" not in p),
            Leverage("irix_net_mean_us",
                     profile_factor("host", "onyx-irix65-250", ["HostNic.ColdLines.Max"], fit),
                     lambda p: p["platform"] == "irix" and p["measure"] == "net"),
            Leverage("irix_net_max_us",
                     profile_factor("host", "onyx-irix65-250", ["HostCpu.InterferenceDuration.Max"],
                                    fit),
                     lambda p: p["platform"] == "irix" and p["measure"] == "net")],
    }
    if ids is None or "tno-pipeline" in ids:  # its fitted values from the built program
        decls["tno-pipeline"] = [
            Leverage("1a latency_us",
                     profile_factor("rti", "dmso-rti13ng",
                                    [f"RtiSettings.{s}" for s in tno03.K_SETTINGS], fit),
                     lambda p: p["config"] == "1a"),
            Leverage("1a max_hz",
                     profile_factor("rti", "dmso-rti13ng", ["RtiSettings.ReflectTailCost"], fit),
                     lambda p: p["config"] == "1a"),
            Leverage("1b max_hz",
                     profile_factor("host", "onyx-irix65-250", ["HostPlatform.SendOffPathCost",
                                                                "HostPlatform.RecvOffPathCost"],
                                    fit),
                     lambda p: p["config"] == "1b"),
            Leverage("2 latency_us",
                     profile_factor("rti", "tno-rti",
                                    [f"RtiSettings.{s}" for s in tno03.K_SETTINGS], fit),
                     lambda p: p["config"] == "2"),
            Leverage("2 knee_hz",
                     option_factor("rciActionCost",
                                   fitted_option("tno-pipeline", "rciActionCost"), fit),
                     lambda p: p["config"] == "2"),
            Leverage("2 max_hz",
                     option_factor("rciReflectCost",
                                   fitted_option("tno-pipeline", "rciReflectCost"), fit),
                     lambda p: p["config"] == "2")]
    return decls
