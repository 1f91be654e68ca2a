"""tno-jitter's rows give a tolerance reason about their own measurement: the lmbench IRIX
figures the IRIX network latency's minimum rests on are no reason for the iHawk's or the
scheduling rows."""

from testbed import validation
from testbed.experiments import tno03


def test_each_jitter_row_has_its_own_reason():
    rows = [r["metric"] for r in validation.facts("tno03-jitter.csv").values()]
    assert "ihawk_sched_jitter_us" in rows and "irix_net_min_us" in rows
    for metric in rows:
        reason = tno03.jitter_reason(metric)
        assert "10 000 samples" in reason
        assert ("IRIX" in reason) == metric.startswith("irix_net_"), (metric, reason)
