"""The module is usable from Python: classes load through cppyy and a simulation runs."""

import pytest

import testbed


@pytest.fixture(scope="module")
def ns():
    return testbed.ns


def test_types_registered(ns):
    for name in ("HostPlatform", "HostCpu", "HostNic", "HostProcess", "TickTimer",
                 "OversleepTimer", "IdealTimer"):
        tid = ns.TypeId.LookupByName(f"ns3::{name}")
        assert tid.GetName() == f"ns3::{name}"
        assert hasattr(ns, name)


def test_tick_timer_from_python(ns):
    t = ns.CreateObject[ns.TickTimer]()
    t.SetAttribute("Frequency", ns.DoubleValue(8192))
    # 1/8192 s rounds to 122070 ns; a 130 us request from 0 takes two periods (244 140.625 ns).
    fire = t.GetFireTime(ns.Seconds(0), ns.MicroSeconds(130))
    assert fire.GetNanoSeconds() == 244141


def test_udp_echo_through_host_model(ns):
    """UDP echo between two hosts: hand-computed counts and CPU time on the server."""
    nodes = ns.NodeContainer(2)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue("100Mbps"))
    p2p.SetChannelAttribute("Delay", ns.StringValue("0s"))
    devs = p2p.Install(nodes)
    ns.InternetStackHelper().Install(nodes)
    addr = ns.Ipv4AddressHelper()
    addr.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.0"))
    ifs = addr.Assign(devs)

    hosts = ns.HostPlatformHelper()
    hosts.SetAttribute("Cpu", ns.StringValue("ns3::HostCpu[Frequency=1e9]"))
    hosts.SetNicAttribute("InterruptCost", ns.DoubleValue(2000))  # 2 us per interrupt
    hosts.SetNicAttribute("StackCost", ns.DoubleValue(5000))  # 5 us per frame
    hosts.Install(nodes)

    server = ns.UdpEchoServerHelper(9)
    server.Install(nodes.Get(1)).Start(ns.Seconds(0))
    client = ns.UdpEchoClientHelper(ifs.GetAddress(1).ConvertTo(), 9)
    client.SetAttribute("MaxPackets", ns.UintegerValue(5))
    client.SetAttribute("Interval", ns.TimeValue(ns.MilliSeconds(10)))
    client.SetAttribute("PacketSize", ns.UintegerValue(200))
    client.Install(nodes.Get(0)).Start(ns.Seconds(1))
    ns.Simulator.Stop(ns.Seconds(2))
    ns.Simulator.Run()

    srv = nodes.Get(1).GetObject[ns.HostPlatform]()
    nic = srv.GetNic(devs.Get(1))
    # Five requests, each alone in the ring: five interrupts, five frames up the stack.
    assert nic.GetDelivered() == 5
    assert nic.GetInterrupts() == 5
    cpu = srv.GetCpu()
    assert cpu.GetBusyTime(ns.HostCpu.HARDIRQ).GetMicroSeconds() == 5 * 2
    assert cpu.GetBusyTime(ns.HostCpu.SOFTIRQ).GetMicroSeconds() == 5 * 5
    # The client got the five echoes back through its own NIC model.
    cli = nodes.Get(0).GetObject[ns.HostPlatform]().GetNic(devs.Get(0))
    assert cli.GetDelivered() == 5
    ns.Simulator.Destroy()
