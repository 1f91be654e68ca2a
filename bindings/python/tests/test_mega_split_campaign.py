"""The campaign runs a mega-scale point split by sets as Dask tasks and stores the record of the
point run whole (doc/mega.rst, "An exact split over processes").

The quick points of mega-scale (1, 2 and 4 sets, the querier) and mega-cat6009 (4 sets, 0 to 4
receivers on the 6009 behind its trunk, the querier) are run by the campaign twice on the
embedded Dask cluster (two workers): whole, and with every point that can be split run as two
parts (parts as Dask tasks, the coupled ones over TCP, then the merge). The stored results must
be equal byte for byte, ``events`` included: the split is exact, or the test fails. Which points
split when nothing forces it is the critical-path rule, checked by hand below."""

import dataclasses
import json

import pytest

from testbed import campaign, mega_split
from testbed.experiment import experiments


def _exps(split):
    exps = [e for e in experiments().values() if e.id in ("mega-scale", "mega-cat6009")]
    return [dataclasses.replace(e, split=split) for e in exps]


def _forced(params, total, workers):
    """Every point that can be split, in two."""
    return mega_split._SplitRunner(2) if mega_split.max_parts(params, 2) >= 2 else None


def _stored(out):
    recs = {}
    for path in sorted(out.glob("*/points/*.json")):
        data = json.loads(path.read_text())
        recs[(path.parent.parent.name, path.name)] = data
    return recs


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("split-campaign")
    whole, split = tmp / "whole", tmp / "split"
    for out, how in ((whole, None), (split, _forced)):
        res = campaign.run_campaign(_exps(how), "quick", 2, out, log=lambda *_: None,
                                    progress=False, shared=False)
        for exp_id, r in res.items():
            assert not isinstance(r, Exception), (exp_id, r)
    return _stored(whole), _stored(split)


def test_split_points_give_the_whole_records(campaigns):
    whole, split = campaigns
    assert whole.keys() == split.keys() and len(whole) == 3 + 5
    n_split = 0
    for key, w in whole.items():
        s = split[key]
        assert json.dumps(s["result"], sort_keys=True) == json.dumps(w["result"], sort_keys=True)
        assert s["params"] == w["params"]
        n_split += "parts" in s
        if "parts" in s:
            assert len(s["parts"]) == 2 and all(p["cpu_s"] > 0 for p in s["parts"])
    # Split: mega-scale's 2- and 4-set points and mega-cat6009's points with 0..3 receivers on
    # the 6009 (with 4 of 4 there, no set is left for a second part); the 1-set point runs whole.
    assert n_split == 2 + 4


def test_not_vacuous(campaigns):
    """Data crossed the querier's port and the trunk in the compared runs."""
    whole, _ = campaigns
    cat = {w["params"]["receiversOn6009"]: w["result"] for (e, _), w in whole.items()
           if e == "mega-cat6009"}
    assert cat[3]["sara_packets"] > 0 and cat[3]["querier_rx_pps"] > 0
    assert cat[3]["sara_drop_rate_6009"] >= 0 and cat[0]["events"] != cat[3]["events"]


def test_the_campaign_splits_the_critical_path_only():
    """By hand: six mega-scale points of 1, 2, 5, 10, 25 and 50 units (93 in all). Split with
    the querier, the 50-unit point's parts take 1.1 * 23/50 + 0.08 = 0.586 and 1.1 * 27/50 =
    0.594 of it (part0_sets: 23 of its 50 sets in part 0). On two workers that would leave
    max(29.7, (43 + 59) / 2 = 51) > max(50, 46.5) = 50: it runs whole. On four workers,
    max(29.7, 102 / 4 = 25.5) = 29.7 < max(50, 23.25) = 50: two parts. Without the querier on
    four workers: three parts (max(16.7, 23.25) = 23.25; four give the same path, so no more
    parts than that). A point of sets with no receiver
    on the 6509 (all 4 on the 6009) cannot split."""
    p = {"senderPcs": 200, "sendersPerGroup": 4, "receivers": 50, "receiversOn6009": 0,
         "querier": True}
    assert mega_split.parts_for(50, 93, 2, p) == 1
    assert mega_split.parts_for(50, 93, 4, p) == 2
    assert mega_split.parts_for(50, 93, 4, {**p, "querier": False}) == 3
    assert mega_split.parts_for(50, 50, 2, p) == 2  # alone: 29.7 < 50
    assert mega_split.parts_for(50, 50, 1, p) == 1  # one worker
    six = {"senderPcs": 16, "sendersPerGroup": 4, "receivers": 4, "receiversOn6009": 4,
           "querier": True}
    assert mega_split.max_parts(six, 8) == 1
    assert mega_split.max_parts({**six, "receiversOn6009": 3}, 8) == 2
    assert mega_split.max_parts({**p, "sendersPerGroup": 0}, 8) == 1
