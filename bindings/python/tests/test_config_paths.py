"""doc/experiments.rst's Config path reaches what the chapter says: in the Jaxa06 testbed, the
emulator's two queue discs (both directions) on node 1, the NIST Net PC, and none on the hosts;
Config::Set through it sets the attribute on both."""

import re

import pytest

from testbed import BUILD_DIR, ROOT


@pytest.mark.skipif(not (BUILD_DIR / "lib" / "libtestbed.so").exists(), reason="not built")
def test_documented_config_path_reaches_both_emulator_queue_discs():
    text = (ROOT / "doc" / "experiments.rst").read_text()
    paths = re.findall(r"^   (/NodeList/\S+)$", text, re.M)
    assert paths, "doc/experiments.rst shows no Config path"
    path = paths[0]
    assert path.endswith("/$ns3::LinkEmulatorQueueDisc/Jitter")
    import testbed

    ns = testbed.ns
    helper = ns.EmulatedTestbedHelper.Jaxa06()
    helper.Install()
    objects = path.rsplit("/", 1)[0]
    found = ns.Config.LookupMatches(objects)
    assert found.GetN() == 2
    for node in (0, 2):
        assert ns.Config.LookupMatches(objects.replace("/NodeList/1/", f"/NodeList/{node}/")) \
            .GetN() == 0
    ns.Config.Set(path, ns.TimeValue(ns.MilliSeconds(5)))
    for i in range(found.GetN()):
        v = ns.TimeValue()
        found.Get(i).GetAttribute("Jitter", v)
        assert v.Get().GetMicroSeconds() == 5000
    ns.Simulator.Destroy()
