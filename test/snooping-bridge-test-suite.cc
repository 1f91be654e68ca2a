/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IGMP-snooping switch (RFC 4541) forwarding sets, the plain learning switch and the
 * switch-fabric model.
 */

#include "udp-datagram-octets.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ethernet-port.h"
#include "ns3/frame-descriptor.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/igmp-l4-protocol.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-packet-info-tag.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/multicast-helper.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/switch-helper.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <map>

using namespace ns3;

namespace
{

const Ipv4Address G1("239.1.1.1");
const Ipv4Address G2("239.1.1.2");
const Ipv4Address G3("239.1.1.3"); // never joined

/**
 * A switch with a querier on port 0, hosts on ports 1..nHosts and a sender on the last port.
 * Node i of `nodes` is on port i.
 */
struct SwitchLan
{
    Ptr<Node> sw;
    Ptr<SnoopingBridgeNetDevice> br;
    NodeContainer nodes;
    std::vector<Ptr<NetDevice>> devs;
    std::vector<Ptr<IgmpL4Protocol>> igmp;
    std::vector<Ptr<Socket>> sockets;
    /// frames received per (node, group)
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> rx;
    /// IGMP reports/leaves seen by each node's device
    std::map<uint32_t, uint32_t> reportsSeen;

    SwitchLan(uint32_t nHosts,
              SnoopingSwitchHelper sh = SnoopingSwitchHelper(),
              IgmpHelper ih = IgmpHelper(),
              std::vector<DataRate> rates = {})
    {
        sw = CreateObject<Node>();
        br = sh.Install(sw);
        nodes.Create(nHosts + 2);
        NetDeviceContainer hostDevs;
        for (uint32_t i = 0; i < nodes.GetN(); ++i)
        {
            NetDeviceContainer d
                = sh.Connect(br, nodes.Get(i), i < rates.size() ? rates[i] : DataRate("100Mbps"));
            devs.push_back(d.Get(0));
            hostDevs.Add(d.Get(0));
            d.Get(0)->TraceConnectWithoutContext("MacRx",
                                                 MakeBoundCallback(&SwitchLan::OnRx, this, i));
        }
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
        addr.Assign(hostDevs);
        ih.Install(nodes);
        for (uint32_t i = 0; i < nodes.GetN(); ++i)
        {
            igmp.push_back(nodes.Get(i)->GetObject<IgmpL4Protocol>());
            sockets.push_back(Socket::CreateSocket(nodes.Get(i), UdpSocketFactory::GetTypeId()));
        }
        NodeContainer all(nodes);
        all.Add(sw);
        IgmpHelper::AssignStreams(all, 7);
    }

    uint32_t Sender() const
    {
        return nodes.GetN() - 1;
    }

    /// MacRx of a host's port: the frame's payload (an IPv4 datagram, or ARP).
    static void OnRx(SwitchLan* lan, uint32_t i, Ptr<const Packet> p)
    {
        uint8_t b[44];
        const uint32_t n = p->CopyData(b, sizeof(b));
        if (n < 24 || (b[0] >> 4) != 4)
        {
            return;
        }
        const uint8_t* ip = b;
        const uint32_t dst = (ip[16] << 24) | (ip[17] << 16) | (ip[18] << 8) | ip[19];
        if (ip[9] == 2)
        {
            const uint8_t* igmp = ip + 4 * (ip[0] & 0x0f);
            if (igmp[0] == 0x16 || igmp[0] == 0x17 || igmp[0] == 0x22)
            {
                lan->reportsSeen[i]++;
            }
            return;
        }
        lan->rx[{i, dst}]++;
    }

    /// The sender sends one UDP-in-IPv4 datagram of @p size octets to @p group (raw, at L2).
    void SendData(Ipv4Address group, uint32_t size = 100)
    {
        Ptr<Packet> p = Create<Packet>(size);
        Ipv4Header h;
        h.SetSource(Ipv4Address("10.0.0.200"));
        h.SetDestination(group);
        h.SetProtocol(17);
        h.SetTtl(8);
        h.SetPayloadSize(size);
        p->AddHeader(h);
        devs[Sender()]->Send(p, Mac48Address::GetMulticast(group), 0x0800);
    }

    void SendEvery(Time start, Time stop, Time period, Ipv4Address group)
    {
        for (Time t = start; t < stop; t += period)
        {
            Simulator::Schedule(t, &SwitchLan::SendData, this, group, 100);
        }
    }

    uint32_t Got(uint32_t node, Ipv4Address g) const
    {
        auto it = rx.find({node, g.Get()});
        return it == rx.end() ? 0 : it->second;
    }
};

IgmpHelper
ShortTimers(uint8_t version)
{
    IgmpHelper h;
    h.SetAttribute("Version", UintegerValue(version));
    h.SetAttribute("QueryInterval", TimeValue(Seconds(20)));
    h.SetAttribute("QueryResponseInterval", TimeValue(Seconds(4)));
    return h;
}

/// SwitchLan's switch A (querier 0, hosts 1-2, sender 3) with an 802.1Q trunk (1 Gbit/s, VLAN
/// 10) to a switch B, and one IGMPv2 host r behind B (10.0.1.1, 100 Mbit/s) with a socket.
struct TrunkedLan
{
    SnoopingSwitchHelper sh;          //!< both switches' helper
    SwitchLan lan;                    //!< switch A and its hosts
    Ptr<SnoopingBridgeNetDevice> brB; //!< switch B
    NetDeviceContainer trunk;         //!< the trunk's ends (A's, B's)
    Ptr<Node> r;                      //!< the host behind B
    NetDeviceContainer rd;            //!< its device
    Ptr<Socket> rs;                   //!< its UDP socket

    TrunkedLan()
        : lan(2, sh, ShortTimers(2))
    {
        brB = sh.Install(CreateObject<Node>());
        trunk = sh.ConnectTrunk(lan.br, brB, DataRate("1Gbps"), 10);
        r = CreateObject<Node>();
        rd = sh.Connect(brB, r, DataRate("100Mbps"));
        InternetStackHelper stack;
        stack.Install(r);
        Ipv4AddressHelper addr("10.0.1.0", "255.255.255.0");
        addr.Assign(NetDeviceContainer(rd.Get(0)));
        IgmpHelper ih = ShortTimers(2);
        ih.Install(r);
        rs = Socket::CreateSocket(r, UdpSocketFactory::GetTypeId());
    }
};

} // namespace

/**
 * @ingroup testbed-tests
 * RFC 4541 forwarding: members + router ports, reports only to router ports, 224.0.0.x and
 * unregistered groups flooded (or to router ports by policy), snooping off floods.
 */
class SnoopForwardingTestCase : public TestCase
{
  public:
    SnoopForwardingTestCase(uint8_t version, bool snooping, bool routerPortsPolicy)
        : TestCase(std::string("Snooping forwarding sets, IGMPv") + std::to_string(version)
                   + (snooping ? ", snooping on" : ", snooping off (flood)")
                   + (routerPortsPolicy ? ", unregistered -> router ports" : ""))
        , m_version(version)
        , m_snooping(snooping)
        , m_routerPorts(routerPortsPolicy)
    {
    }

  private:
    uint8_t m_version;
    bool m_snooping;
    bool m_routerPorts;

    void DoRun() override
    {
        SnoopingSwitchHelper sh;
        sh.SetDeviceAttribute("Snooping", BooleanValue(m_snooping));
        sh.SetDeviceAttribute("UnregisteredPolicy",
                              EnumValue(m_routerPorts ? SnoopingBridgeNetDevice::ROUTER_PORTS
                                                      : SnoopingBridgeNetDevice::FLOOD));
        SwitchLan lan(4, sh, ShortTimers(m_version));
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1);
        IgmpHelper::ScheduleJoin(Seconds(1), lan.sockets[1], G1);
        IgmpHelper::ScheduleJoin(Seconds(1), lan.sockets[3], G1);
        IgmpHelper::ScheduleJoin(Seconds(1), lan.sockets[2], G2);
        const Time period = MilliSeconds(100);
        lan.SendEvery(Seconds(5), Seconds(10), period, G1);
        lan.SendEvery(Seconds(5), Seconds(10), period, G2);
        lan.SendEvery(Seconds(5), Seconds(10), period, G3);
        lan.SendEvery(Seconds(5), Seconds(10), period, Ipv4Address("224.0.0.251"));
        std::vector<uint32_t> fs;
        Simulator::Schedule(Seconds(6), [&]() { fs = lan.br->GetForwardingSet(G1, 5); });
        Simulator::Stop(Seconds(11));
        Simulator::Run();
        const uint32_t n = 50;
        const uint32_t q = 0;
        const uint32_t h1 = 1;
        const uint32_t h2 = 2;
        const uint32_t h3 = 3;
        const uint32_t h4 = 4;
        if (!m_snooping)
        {
            for (uint32_t i = 0; i < 5; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(lan.Got(i, G1), n, "flooded G1 to node " << i);
                NS_TEST_ASSERT_MSG_EQ(lan.Got(i, G3), n, "flooded G3 to node " << i);
            }
            NS_TEST_ASSERT_MSG_GT(lan.reportsSeen[h2], 0u, "without snooping reports are flooded");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(fs.size(), 3u, "G1 forwarding set = {router 0, members 1, 3}");
        NS_TEST_ASSERT_MSG_EQ((fs[0] == 0 && fs[1] == 1 && fs[2] == 3), true, "set contents");
        // Registered groups: members and the router port, nobody else.
        NS_TEST_ASSERT_MSG_EQ(lan.Got(h1, G1), n, "member h1 gets G1");
        NS_TEST_ASSERT_MSG_EQ(lan.Got(h3, G1), n, "member h3 gets G1");
        NS_TEST_ASSERT_MSG_EQ(lan.Got(q, G1), n, "router port gets G1");
        NS_TEST_ASSERT_MSG_EQ(lan.Got(h2, G1), 0u, "h2 not a member of G1");
        NS_TEST_ASSERT_MSG_EQ(lan.Got(h4, G1), 0u, "h4 not a member");
        NS_TEST_ASSERT_MSG_EQ(lan.Got(h2, G2), n, "member h2 gets G2");
        NS_TEST_ASSERT_MSG_EQ(lan.Got(h1, G2), 0u, "h1 not a member of G2");
        NS_TEST_ASSERT_MSG_EQ(lan.Got(q, G2), n, "router port gets G2");
        // Unregistered group: by policy.
        NS_TEST_ASSERT_MSG_EQ(lan.Got(q, G3), n, "router port gets unregistered");
        const uint32_t unregisteredAtHost = m_routerPorts ? 0u : n;
        NS_TEST_ASSERT_MSG_EQ(lan.Got(h4, G3), unregisteredAtHost, "unregistered policy");
        // 224.0.0.x: always flooded.
        NS_TEST_ASSERT_MSG_EQ(lan.Got(h4, Ipv4Address("224.0.0.251")), n, "link-local flooded");
        // Reports go only to router ports: hosts never see each other's reports.
        for (uint32_t i = 1; i <= 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(lan.reportsSeen[i], 0u, "no report reaches host " << i);
        }
        NS_TEST_ASSERT_MSG_GT(lan.reportsSeen[q], 0u, "the querier gets the reports");
        NS_TEST_ASSERT_MSG_EQ(lan.br->IsRouterPort(0), true, "port 0 learned from queries");
        NS_TEST_ASSERT_MSG_EQ(lan.br->IsRouterPort(1), false, "port 1 is not");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The plain learning switch (SwitchNetDevice, IEEE 802.1D transparent bridging): a group-
 * addressed frame goes to every port but its ingress port, IGMP included (nothing is snooped);
 * unicast to an unknown address is flooded, to a learned address it leaves through that
 * address's port only. A diverted port (SetPortDivert) hands its frames to a callback, and
 * InjectToPort sends one through the port.
 */
class PlainSwitchTestCase : public TestCase
{
  public:
    PlainSwitchTestCase()
        : TestCase("Plain learning switch: multicast flooded, unicast learned")
    {
    }

  private:
    void DoRun() override
    {
        SwitchHelper sh;
        Ptr<Node> swNode = CreateObject<Node>();
        Ptr<SwitchNetDevice> sw = sh.Install(swNode);
        NodeContainer hosts;
        hosts.Create(4);
        std::vector<Ptr<NetDevice>> devs;
        for (uint32_t i = 0; i < 4; ++i)
        {
            devs.push_back(sh.Connect(sw, hosts.Get(i), DataRate("100Mbps")).Get(0));
        }
        NS_TEST_ASSERT_MSG_EQ(sw->GetNPorts(), 4u, "four ports");
        auto send = [&](uint32_t from, Address to) {
            devs[from]->Send(Create<Packet>(100), to, 0x0800);
        };
        auto expect = [&](std::vector<uint64_t> want, const std::string& what) {
            for (uint32_t i = 0; i < 4; ++i)
            {
                // Every frame that reached the host's NIC, whatever its destination address.
                NS_TEST_ASSERT_MSG_EQ(DynamicCast<EthernetPort>(devs[i])->GetCounters().rxFrames,
                                      want[i],
                                      what << ": frames at host " << i);
            }
        };
        // Group-addressed: flooded to the three other ports.
        Simulator::Schedule(Seconds(1), [&]() { send(3, Mac48Address::GetMulticast(G1)); });
        Simulator::Schedule(Seconds(2), [&]() { expect({1, 1, 1, 0}, "multicast"); });
        // Unicast to host 1, whose address the switch has not seen yet: flooded.
        Simulator::Schedule(Seconds(3), [&]() { send(0, devs[1]->GetAddress()); });
        Simulator::Schedule(Seconds(4), [&]() { expect({1, 2, 2, 1}, "unknown unicast"); });
        // Host 1 speaks (learned on its port); then unicast to it leaves through its port only.
        Simulator::Schedule(Seconds(5), [&]() { send(1, devs[0]->GetAddress()); });
        Simulator::Schedule(Seconds(6), [&]() { expect({2, 2, 2, 1}, "to learned host 0"); });
        Simulator::Schedule(Seconds(7), [&]() { send(2, devs[1]->GetAddress()); });
        Simulator::Schedule(Seconds(8), [&]() { expect({2, 3, 2, 1}, "to learned host 1"); });
        // Port 2 diverted (SetPortDivert, a split run): a group-addressed frame from host 3
        // reaches hosts 0 and 1, and the callback once (ingress port 3) instead of host 2;
        // with the divert removed, InjectToPort sends it to host 2.
        std::vector<SwitchFabric::Frame> diverted;
        Simulator::Schedule(Seconds(8.5), [&]() {
            sw->SetPortDivert(
                2,
                Callback<void, const SwitchFabric::Frame&>(
                    [&diverted](const SwitchFabric::Frame& f) { diverted.push_back(f); }));
        });
        Simulator::Schedule(Seconds(9), [&]() { send(3, Mac48Address::GetMulticast(G1)); });
        Simulator::Schedule(Seconds(10), [&]() {
            expect({3, 4, 2, 1}, "diverted");
            sw->SetPortDivert(2, Callback<void, const SwitchFabric::Frame&>());
            for (const auto& f : diverted)
            {
                sw->InjectToPort(2, f);
            }
        });
        Simulator::Schedule(Seconds(11), [&]() { expect({3, 4, 3, 1}, "injected"); });
        Simulator::Stop(Seconds(12));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(diverted.size(), 1u, "one frame diverted");
        NS_TEST_EXPECT_MSG_EQ(diverted[0].inPort, 3u, "from port 3");
        NS_TEST_EXPECT_MSG_EQ(diverted[0].GetSize(), 100u, "the frame");
        NS_TEST_ASSERT_MSG_EQ(sw->GetFabric()->GetMacTableSize(),
                              4u,
                              "every host that sent is learned");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Leave (normal and fast) and membership timeout of a silent host.
 */
class SnoopLeaveTimeoutTestCase : public TestCase
{
  public:
    SnoopLeaveTimeoutTestCase(bool fastLeave)
        : TestCase(std::string("Snooping leave and timeout, fast leave ")
                   + (fastLeave ? "on" : "off"))
        , m_fastLeave(fastLeave)
    {
    }

  private:
    bool m_fastLeave;
    std::vector<std::tuple<Time, uint32_t, uint32_t, bool>> m_events;

    void Membership(Ipv4Address g, uint32_t port, bool member)
    {
        m_events.emplace_back(Simulator::Now(), g.Get(), port, member);
    }

    void DoRun() override
    {
        SnoopingSwitchHelper sh;
        sh.SetDeviceAttribute("FastLeave", BooleanValue(m_fastLeave));
        sh.SetDeviceAttribute("MembershipInterval", TimeValue(Seconds(44)));
        sh.SetDeviceAttribute("LastMemberQueryInterval", TimeValue(Seconds(1)));
        sh.SetDeviceAttribute("LastMemberQueryCount", UintegerValue(2));
        SwitchLan lan(4, sh, ShortTimers(2));
        lan.br->TraceConnectWithoutContext(
            "Membership",
            MakeCallback(&SnoopLeaveTimeoutTestCase::Membership, this));
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1);
        IgmpHelper::ScheduleJoin(Seconds(1), lan.sockets[1], G1);
        IgmpHelper::ScheduleJoin(Seconds(1), lan.sockets[3], G1);
        IgmpHelper::ScheduleJoin(Seconds(1), lan.sockets[4], G2);
        IgmpHelper::ScheduleLeave(Seconds(30), lan.sockets[1], G1);
        // Host 4 goes silent at 2 s (after its unsolicited reports at 1 s and <= 11 s it answers
        // nothing): its port must leave G2 MembershipInterval after its last report.
        Time lastReport4;
        lan.igmp[4]->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(
                +[](Time* t, const IgmpHeader& m, uint32_t, Ipv4Address) { *t = Simulator::Now(); },
                &lastReport4));
        Simulator::Schedule(Seconds(12), &IgmpL4Protocol::SetMuted, lan.igmp[4], true);
        std::vector<uint32_t> at30half;
        std::vector<uint32_t> at32half;
        Simulator::Schedule(MilliSeconds(30500), [&]() { at30half = lan.br->GetMemberPorts(G1); });
        Simulator::Schedule(MilliSeconds(32500), [&]() { at32half = lan.br->GetMemberPorts(G1); });
        Simulator::Stop(Seconds(100));
        Simulator::Run();
        if (m_fastLeave)
        {
            NS_TEST_ASSERT_MSG_EQ(at30half.size(), 1u, "fast leave: port 1 removed at once");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(at30half.size(), 2u, "port 1 kept during the LMQ phase");
        }
        NS_TEST_ASSERT_MSG_EQ(at32half.size(), 1u, "after LMQC x LMQI only port 3 remains");
        NS_TEST_ASSERT_MSG_EQ(at32half[0], 3u, "port 3 answered the group-specific queries");
        // Port 1's removal time.
        Time removed1;
        Time removed4;
        for (const auto& [t, g, port, member] : m_events)
        {
            if (!member && port == 1)
            {
                removed1 = t;
            }
            if (!member && port == 4)
            {
                removed4 = t;
            }
        }
        const Time expect1 = m_fastLeave ? Seconds(30) : Seconds(32);
        NS_TEST_ASSERT_MSG_EQ_TOL(removed1, expect1, MicroSeconds(100), "port 1 removal time");
        NS_TEST_ASSERT_MSG_LT(lastReport4, Seconds(12), "host 4 silent after 12 s");
        NS_TEST_ASSERT_MSG_EQ_TOL(removed4,
                                  lastReport4 + Seconds(44),
                                  MicroSeconds(100),
                                  "silent port times out MembershipInterval after its last report");
        NS_TEST_ASSERT_MSG_EQ(lan.br->GetMemberPorts(G2).size(), 0u, "G2 empty");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The forwarding engine serves 1/capacity per frame and drops exactly what exceeds its queue.
 */
class FabricCapacityTestCase : public TestCase
{
  public:
    FabricCapacityTestCase()
        : TestCase("Fabric: forwarding capacity drops exactly the excess")
    {
    }

  private:
    std::vector<Time> m_served;

    void Served(const SwitchFabric::Frame& f)
    {
        m_served.push_back(Simulator::Now());
    }

    void DoRun() override
    {
        Ptr<SwitchFabric> fab = CreateObject<SwitchFabric>();
        fab->SetAttribute("ForwardingCapacity", DoubleValue(1000));
        fab->SetAttribute("EngineQueueLimit", UintegerValue(10));
        fab->SetForwardCallback(MakeCallback(&FabricCapacityTestCase::Served, this));
        SwitchFabric::Frame f{Create<Packet>(100), 0, 0x0800, Mac48Address(), Mac48Address()};
        // A burst of 100 frames at once: 1 in service + 10 waiting; 89 dropped.
        Simulator::Schedule(Seconds(0), [&]() {
            for (int i = 0; i < 100; ++i)
            {
                fab->Ingress(f);
            }
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_served.size(), 11u, "1 + EngineQueueLimit served");
        NS_TEST_ASSERT_MSG_EQ(fab->GetDropCount(SwitchFabric::ENGINE_OVERFLOW), 89u, "excess");
        NS_TEST_ASSERT_MSG_EQ(m_served.back(), MilliSeconds(11), "1 ms per frame");
        Simulator::Destroy();

        // 2000 frames/s offered for 1 s to 1000 frames/s: C x T + queue forwarded, rest dropped.
        m_served.clear();
        Ptr<SwitchFabric> fab2 = CreateObject<SwitchFabric>();
        fab2->SetAttribute("ForwardingCapacity", DoubleValue(1000));
        fab2->SetAttribute("EngineQueueLimit", UintegerValue(10));
        fab2->SetForwardCallback(MakeCallback(&FabricCapacityTestCase::Served, this));
        const uint32_t offered = 2000;
        for (uint32_t k = 0; k < offered; ++k)
        {
            Simulator::Schedule(MicroSeconds(500) * k + NanoSeconds(1),
                                &SwitchFabric::Ingress,
                                fab2,
                                f);
        }
        Simulator::Run();
        const uint64_t fwd = m_served.size();
        const uint64_t drop = fab2->GetDropCount(SwitchFabric::ENGINE_OVERFLOW);
        NS_TEST_ASSERT_MSG_EQ(fwd + drop, offered, "every frame forwarded or dropped");
        // Busy from the first arrival: 1000 completions in the offered second, then the 10
        // waiting frames and the one in service drain (arrivals are offset from completions).
        NS_TEST_ASSERT_MSG_EQ(fwd, 1000u + 10u, "C x T + EngineQueueLimit");
        NS_TEST_ASSERT_MSG_EQ(drop, 990u, "the excess is dropped");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Bus arbitration of a shared-bus switch: a frame fully received waits for its port's next
 * grant of the round-robin arbiter, then crosses the bus; a port's frames cross in order; over
 * arrivals spread evenly across the cycle the wait averages half a cycle (hand-computed).
 */
class FabricArbitrationTestCase : public TestCase
{
  public:
    FabricArbitrationTestCase()
        : TestCase("Fabric: bus arbitration wait of 0 to one cycle, FIFO per port")
    {
    }

  private:
    std::vector<Time> m_served;

    void Served(const SwitchFabric::Frame& f)
    {
        m_served.push_back(Simulator::Now());
    }

    Ptr<SwitchFabric> Make(Time cycle)
    {
        Ptr<SwitchFabric> fab = CreateObject<SwitchFabric>();
        fab->SetAttribute("ArbitrationCycle", TimeValue(cycle));
        fab->SetAttribute("ArbitrationSlots", UintegerValue(16));
        fab->SetAttribute("BusRate", DataRateValue(DataRate("1Gbps")));
        fab->SetForwardCallback(MakeCallback(&FabricArbitrationTestCase::Served, this));
        return fab;
    }

    void DoRun() override
    {
        // 100 bytes + Ethernet header and FCS (18) = 118 bytes: 944 ns at 1 Gbit/s.
        const Time bus = NanoSeconds(944);
        SwitchFabric::Frame p3{Create<Packet>(100), 3, 0x0800, Mac48Address(), Mac48Address()};
        SwitchFabric::Frame p0{Create<Packet>(100), 0, 0x0800, Mac48Address(), Mac48Address()};
        // Cycle 16 us, 16 slots: port 3 granted at 3, 19, 35 ... us; port 0 at 0, 16, 32 ... us.
        Ptr<SwitchFabric> fab = Make(MicroSeconds(16));
        Simulator::Schedule(MicroSeconds(10), [&]() {
            fab->Ingress(p3); // waits for 19 us
            fab->Ingress(p3); // crosses after the first
        });
        Simulator::Schedule(MicroSeconds(32), [&]() { fab->Ingress(p0); }); // on its grant
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_served.size(), 3u, "every frame forwarded");
        NS_TEST_ASSERT_MSG_EQ(m_served[0], MicroSeconds(19) + bus, "port 3's next grant");
        NS_TEST_ASSERT_MSG_EQ(m_served[1], MicroSeconds(19) + bus * 2, "FIFO behind the first");
        NS_TEST_ASSERT_MSG_EQ(m_served[2], MicroSeconds(32) + bus, "no wait on the grant");
        Simulator::Destroy();

        // 160 frames on port 0 at phases 0.05, 0.15, ... 15.95 us of the cycle (48.1 us apart):
        // waits 15.95 ... 0.05 us, mean 8 us = half the cycle.
        m_served.clear();
        Ptr<SwitchFabric> fab2 = Make(MicroSeconds(16));
        std::vector<Time> sent;
        for (uint32_t i = 0; i < 160; ++i)
        {
            const Time t = NanoSeconds(48100) * i + NanoSeconds(50);
            sent.push_back(t);
            Simulator::Schedule(t, &SwitchFabric::Ingress, fab2, p0);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_served.size(), 160u, "every frame forwarded");
        Time sum;
        Time lo = Seconds(1);
        Time hi;
        for (uint32_t i = 0; i < 160; ++i)
        {
            const Time d = m_served[i] - sent[i] - bus;
            sum += d;
            lo = std::min(lo, d);
            hi = std::max(hi, d);
        }
        NS_TEST_ASSERT_MSG_EQ(sum / 160, MicroSeconds(8), "mean wait: half a cycle");
        NS_TEST_ASSERT_MSG_EQ(lo, NanoSeconds(50), "shortest wait");
        NS_TEST_ASSERT_MSG_EQ(hi, NanoSeconds(15950), "longest wait");
        Simulator::Destroy();

        // No bus stage (cycle 0): forwarded at once, as before.
        m_served.clear();
        Ptr<SwitchFabric> fab3 = Make(Seconds(0));
        Simulator::Schedule(MicroSeconds(10), [&]() { fab3->Ingress(p3); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_served.at(0), MicroSeconds(10), "no delay without a bus stage");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Per-copy random drop within binomial bounds; MAC table capacity and aging.
 */
class FabricDropMacTestCase : public TestCase
{
  public:
    FabricDropMacTestCase()
        : TestCase("Fabric: random drop within binomial bounds, MAC capacity and aging")
    {
    }

  private:
    uint32_t m_learnFailed{0};

    void LearnFailed(Mac48Address a, uint32_t port)
    {
        ++m_learnFailed;
    }

    void DoRun() override
    {
        Ptr<SwitchFabric> fab = CreateObject<SwitchFabric>();
        fab->SetAttribute("DropProbability", DoubleValue(0.02));
        fab->AssignStreams(3);
        const uint32_t n = 100000;
        Ptr<Packet> p = Create<Packet>(10);
        uint32_t dropped = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            dropped += fab->RandomDrop(p, i % 4) ? 1 : 0;
        }
        // Binomial(n, 0.02): mean 2000, sd sqrt(n p (1 - p)) = 44.3; 5 sigma.
        const double sd = std::sqrt(n * 0.02 * 0.98);
        NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(dropped), n * 0.02, 5 * sd, "binomial");
        NS_TEST_ASSERT_MSG_EQ(fab->GetDropCount(SwitchFabric::RANDOM_DROP), dropped, "counted");

        Ptr<SwitchFabric> mac = CreateObject<SwitchFabric>();
        mac->SetAttribute("MacTableCapacity", UintegerValue(2));
        mac->SetAttribute("MacAgingTime", TimeValue(Seconds(10)));
        mac->TraceConnectWithoutContext("MacLearnFailed",
                                        MakeCallback(&FabricDropMacTestCase::LearnFailed, this));
        Mac48Address a("00:00:00:00:00:01");
        Mac48Address b("00:00:00:00:00:02");
        Mac48Address c("00:00:00:00:00:03");
        bool okC = true;
        int64_t portA = -2;
        int64_t portAlater = -2;
        bool okClater = false;
        Simulator::Schedule(Seconds(0), [&]() {
            mac->Learn(a, 1);
            mac->Learn(b, 2);
            okC = mac->Learn(c, 3);
            portA = mac->Lookup(a);
        });
        Simulator::Schedule(Seconds(5), [&]() { mac->Learn(b, 2); });
        Simulator::Schedule(Seconds(11), [&]() {
            portAlater = mac->Lookup(a);
            okClater = mac->Learn(c, 3);
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(okC, false, "table full: c not learned");
        NS_TEST_ASSERT_MSG_EQ(m_learnFailed, 1u, "MacLearnFailed traced");
        NS_TEST_ASSERT_MSG_EQ(portA, 1, "a on port 1");
        NS_TEST_ASSERT_MSG_EQ(portAlater, -1, "a aged out after 10 s");
        NS_TEST_ASSERT_MSG_EQ(okClater, true, "room again after aging");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * 802.1Q trunk between two switches: 4 more octets on the trunk, snooping across it; output
 * queue overflow is counted per port.
 */
class TrunkQueueTestCase : public TestCase
{
  public:
    TrunkQueueTestCase()
        : TestCase("802.1Q trunk (+4 octets, snooping across) and output-queue drops")
    {
    }

  private:
    std::vector<uint32_t> m_trunkSizes;
    std::vector<uint32_t> m_accessSizes;

    void Trunk(Ptr<const Packet> p)
    {
        m_trunkSizes.push_back(p->GetSize());
    }

    void Access(Ptr<const Packet> p)
    {
        m_accessSizes.push_back(p->GetSize());
    }

    void DoRun() override
    {
        TrunkedLan t;
        SwitchLan& lan = t.lan;
        Ptr<SnoopingBridgeNetDevice> brB = t.brB;
        NetDeviceContainer& trunk = t.trunk;
        NetDeviceContainer& rd = t.rd;
        Ptr<Socket> rs = t.rs;
        uint32_t rGot = 0;
        rd.Get(0)->TraceConnectWithoutContext("MacRx",
                                              MakeBoundCallback(
                                                  +[](uint32_t* n, Ptr<const Packet> p) {
                                                      // The payload: IPv4, protocol octet 9.
                                                      uint8_t b[20];
                                                      p->CopyData(b, 20);
                                                      if (b[9] == 17)
                                                      {
                                                          ++*n;
                                                      }
                                                  },
                                                  &rGot));
        // MacTx: the payload a port sends (on the trunk: the 802.1Q tag and the datagram).
        trunk.Get(0)->TraceConnectWithoutContext("MacTx",
                                                 MakeCallback(&TrunkQueueTestCase::Trunk, this));
        lan.devs[lan.Sender()]->TraceConnectWithoutContext(
            "MacTx",
            MakeCallback(&TrunkQueueTestCase::Access, this));
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1);
        IgmpHelper::ScheduleJoin(Seconds(1), rs, G1);
        IgmpHelper::ScheduleJoin(Seconds(1), lan.sockets[1], G2); // G2 registered on switch A
        Simulator::Schedule(Seconds(5), [&]() { lan.SendData(G1, 500); });
        Simulator::Schedule(Seconds(5) + MilliSeconds(1), [&]() { lan.SendData(G2, 500); });
        Simulator::Stop(Seconds(6));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(
            rGot,
            1u,
            "G1 crosses the trunk to its member; registered G2 (member on A) does not");
        NS_TEST_ASSERT_MSG_EQ(brB->IsRouterPort(0), true, "switch B learned the trunk as router");
        NS_TEST_ASSERT_MSG_EQ((m_accessSizes.size() >= 1), true, "sender transmitted");
        const uint32_t access = m_accessSizes.back();
        bool sawTagged = false;
        for (uint32_t s : m_trunkSizes)
        {
            sawTagged = sawTagged || s == access + 4;
        }
        NS_TEST_ASSERT_MSG_EQ(sawTagged, true, "the data frame is 4 octets longer on the trunk");
        Simulator::Destroy();

        // Output queue: 1-frame queues on 10 Mb/s ports, the sender on 1 Gb/s with a long queue;
        // 10 frames flooded at once -> per output port 1 on the wire, 1 queued, 8 dropped.
        SnoopingSwitchHelper sq;
        sq.SetPortQueueSize(QueueSize("1p"));
        const DataRate slow("10Mbps");
        SwitchLan q(2, sq, ShortTimers(2), {slow, slow, slow, DataRate("1Gbps")});
        q.devs[q.Sender()]->SetAttribute("MaxQueueFrames", UintegerValue(100));
        uint32_t traced = 0;
        q.br->GetFabric()->TraceConnectWithoutContext(
            "Drop",
            MakeBoundCallback(
                +[](uint32_t* n, Ptr<const Packet>, uint32_t, uint8_t reason) {
                    *n += reason == SwitchFabric::OUTPUT_QUEUE_FULL ? 1 : 0;
                },
                &traced));
        Simulator::Schedule(Seconds(1), [&]() {
            for (int i = 0; i < 10; ++i)
            {
                q.SendData(G3, 1000);
            }
        });
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(q.br->GetFabric()->GetDropCount(SwitchFabric::OUTPUT_QUEUE_FULL),
                              3u * 8u,
                              "8 drops on each of the 3 output ports");
        NS_TEST_ASSERT_MSG_EQ(traced, 24u, "each traced");
        NS_TEST_ASSERT_MSG_EQ(q.Got(1, G3), 2u, "2 frames reach a host");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * A frame descriptor crosses an 802.1Q trunk as the Packet it stands for: the same datagram to
 * a member behind the trunk, sent once as a Packet and once as a descriptor from the same
 * sender at the same time, reaches it at the same time with the same octets; on the trunk it
 * is the tagged frame in both (100 + 4 octets: TCI of VLAN 10, then IPv4's EtherType), and the
 * member's switch strips the tag. A tagged descriptor's size, EtherType and octets, by hand.
 */
class TrunkDescriptorTestCase : public TestCase
{
  public:
    TrunkDescriptorTestCase()
        : TestCase("802.1Q trunk: a frame descriptor is tagged and untagged as its Packet is")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FrameTemplate> t
            = Create<FrameTemplate>(testdata::UdpDatagram({239, 1, 1, 1}, 4), 28, 0x0800);
        FrameDescriptor f{t, {}};
        for (uint32_t k = 0; k < FrameTemplate::VAR; ++k)
        {
            f.var[k] = static_cast<uint8_t>(0xa0 + k);
        }
        std::vector<uint8_t> datagram(100);
        f.CopyData(datagram.data(), 100);

        // By hand: the tag is the TCI (VLAN 10) and the inner EtherType, then the datagram.
        FrameDescriptor tagged = f;
        tagged.tagged = true;
        tagged.tci = 10;
        NS_TEST_EXPECT_MSG_EQ(tagged.GetSize(), 104u, "tagged size");
        NS_TEST_EXPECT_MSG_EQ(tagged.GetProtocol(), 0x8100, "tagged EtherType");
        std::vector<uint8_t> expected = {0, 10, 0x08, 0x00};
        expected.insert(expected.end(), datagram.begin(), datagram.end());
        Ptr<Packet> tp = tagged.MakePacket();
        std::vector<uint8_t> got(tp->GetSize());
        tp->CopyData(got.data(), got.size());
        NS_TEST_EXPECT_MSG_EQ((got == expected), true, "tagged MakePacket");
        for (uint32_t n : {2u, 4u, 10u, 104u, 200u})
        {
            std::vector<uint8_t> b(200, 0xff);
            const uint32_t c = tagged.CopyData(b.data(), n);
            NS_TEST_EXPECT_MSG_EQ(c, std::min(n, 104u), "tagged CopyData " << n << ": count");
            NS_TEST_EXPECT_MSG_EQ(std::equal(b.begin(), b.begin() + c, expected.begin()),
                                  true,
                                  "tagged CopyData " << n << ": octets");
            NS_TEST_EXPECT_MSG_EQ(b[c], 0xff, "tagged CopyData " << n << ": no more");
        }

        // Through switch A, the trunk and switch B to G1's member, as a Packet and as a
        // descriptor.
        std::vector<int64_t> at[2];
        std::vector<std::vector<uint8_t>> member[2];
        std::vector<std::vector<uint8_t>> trunkFrames[2];
        for (int mode = 0; mode < 2; ++mode)
        {
            TrunkedLan tl;
            SwitchLan& lan = tl.lan;
            NetDeviceContainer& trunk = tl.trunk;
            NetDeviceContainer& rd = tl.rd;
            Ptr<Socket> rs = tl.rs;
            auto* times = &at[mode];
            auto* octets = &member[mode];
            rd.Get(0)->TraceConnectWithoutContext(
                "MacRx",
                Callback<void, Ptr<const Packet>>([times, octets](Ptr<const Packet> p) {
                    std::vector<uint8_t> o(p->GetSize());
                    p->CopyData(o.data(), o.size());
                    if (o.size() >= 20 && o[9] == 17)
                    {
                        times->push_back(Simulator::Now().GetNanoSeconds());
                        octets->push_back(o);
                    }
                }));
            auto* onTrunk = &trunkFrames[mode];
            trunk.Get(0)->TraceConnectWithoutContext(
                "MacTx",
                Callback<void, Ptr<const Packet>>([onTrunk](Ptr<const Packet> p) {
                    std::vector<uint8_t> o(p->GetSize());
                    p->CopyData(o.data(), o.size());
                    if (o.size() >= 24 && o[2] == 0x08 && o[3] == 0x00 && o[4 + 9] == 17)
                    {
                        onTrunk->push_back(o);
                    }
                }));
            IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1);
            IgmpHelper::ScheduleJoin(Seconds(1), rs, G1);
            auto dev = DynamicCast<FullDuplexEthernetNetDevice>(lan.devs[lan.Sender()]);
            NS_TEST_ASSERT_MSG_NE(dev, nullptr, "the sender's port is full-duplex Ethernet");
            const Mac48Address src = Mac48Address::ConvertFrom(dev->GetAddress());
            const Mac48Address dst = Mac48Address::GetMulticast(G1);
            Simulator::Schedule(Seconds(5), [dev, f, src, dst, mode]() {
                if (mode == 0)
                {
                    dev->Send(f.MakePacket(), dst, 0x0800);
                }
                else
                {
                    dev->SendFrame(f, src, dst);
                }
            });
            Simulator::Stop(Seconds(6));
            Simulator::Run();
            Simulator::Destroy();
            // (Compared only if counted right: a failed assertion need not end the case.)
            NS_TEST_EXPECT_MSG_EQ(at[mode].size(), 1u, "mode " << mode << ": one datagram");
            NS_TEST_EXPECT_MSG_EQ(trunkFrames[mode].size(), 1u, "mode " << mode << ": trunk");
            if (at[mode].size() != 1 || trunkFrames[mode].size() != 1)
            {
                return;
            }
            NS_TEST_EXPECT_MSG_EQ((member[mode][0] == datagram),
                                  true,
                                  "mode " << mode << ": the member gets the datagram, untagged");
            NS_TEST_EXPECT_MSG_EQ((trunkFrames[mode][0] == expected),
                                  true,
                                  "mode " << mode << ": tagged on the trunk");
        }
        NS_TEST_EXPECT_MSG_EQ(at[0][0], at[1][0], "the same arrival time");
        NS_TEST_EXPECT_MSG_GT(at[0][0], 5000000000LL, "after the send");
    }
};

/**
 * @ingroup testbed-tests
 * MEGA06 Fig. 11 set-up: receivers behind a second switch that drops each frame copy with a
 * constant probability lose a binomial share; receivers on the first switch lose nothing.
 */
class LossySwitchTestCase : public TestCase
{
  public:
    LossySwitchTestCase()
        : TestCase("Two switches on a trunk: per-copy random drop only behind the lossy one")
    {
    }

  private:
    void DoRun() override
    {
        SnoopingSwitchHelper sh;
        SwitchLan lan(2, sh, ShortTimers(2)); // switch A: querier 0, hosts 1-2, sender 3
        SnoopingSwitchHelper lossy;
        const double p = 0.02;
        lossy.SetFabricAttribute("DropProbability", DoubleValue(p));
        Ptr<Node> swB = CreateObject<Node>();
        Ptr<SnoopingBridgeNetDevice> brB = lossy.Install(swB);
        lossy.ConnectTrunk(lan.br, brB, DataRate("1Gbps"), 10);
        NodeContainer rb(4);
        NetDeviceContainer rdev;
        std::vector<uint32_t> got(4, 0);
        for (uint32_t i = 0; i < 4; ++i)
        {
            rdev.Add(lossy.Connect(brB, rb.Get(i), DataRate("100Mbps")).Get(0));
            rdev.Get(i)->TraceConnectWithoutContext("MacRx",
                                                    MakeBoundCallback(
                                                        +[](uint32_t* n, Ptr<const Packet> pk) {
                                                            // IPv4: protocol octet 9.
                                                            uint8_t b[20];
                                                            pk->CopyData(b, 20);
                                                            *n += b[9] == 17 ? 1 : 0;
                                                        },
                                                        &got[i]));
        }
        InternetStackHelper stack;
        stack.Install(rb);
        Ipv4AddressHelper addr("10.0.1.0", "255.255.255.0");
        addr.Assign(rdev);
        ShortTimers(2).Install(rb);
        NodeContainer all(rb, NodeContainer(swB));
        IgmpHelper::AssignStreams(all, 1000);
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1);
        IgmpHelper::ScheduleJoin(Seconds(1), lan.sockets[1], G1);
        for (uint32_t i = 0; i < 4; ++i)
        {
            IgmpHelper::ScheduleJoin(Seconds(1),
                                     Socket::CreateSocket(rb.Get(i), UdpSocketFactory::GetTypeId()),
                                     G1);
        }
        // IGMP frames cross switch B too and may be dropped there; data starts after the
        // memberships are in place (report repeats within 10 s keep them alive).
        const uint32_t n = 5000;
        lan.SendEvery(Seconds(3), Seconds(3) + MilliSeconds(1) * n, MilliSeconds(1), G1);
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(lan.Got(1, G1), n, "receiver on the lossless switch gets all");
        uint32_t total = 0;
        for (uint32_t i = 0; i < 4; ++i)
        {
            total += got[i];
        }
        const double lost = 4.0 * n - total;
        const double sd = std::sqrt(4.0 * n * p * (1 - p));
        NS_TEST_ASSERT_MSG_EQ_TOL(lost, 4.0 * n * p, 5 * sd, "binomial loss behind switch B");
        NS_TEST_ASSERT_MSG_GT(lost, 0.0, "some loss");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Static router ports get registered-group data without queries; learned ones expire.
 */
class RouterPortTestCase : public TestCase
{
  public:
    RouterPortTestCase()
        : TestCase("Router ports: static configuration and learned-port timeout")
    {
    }

  private:
    void DoRun() override
    {
        SnoopingSwitchHelper sh;
        sh.SetDeviceAttribute("RouterPortTimeout", TimeValue(Seconds(50)));
        SwitchLan lan(3, sh, ShortTimers(2)); // querier 0, hosts 1-3, sender 4
        lan.br->SetStaticRouterPort(3, true);
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1);
        IgmpHelper::ScheduleJoin(Seconds(1), lan.sockets[1], G1);
        // The querier stops querying at 30 s (its last startup/periodic query is at 25 s).
        Simulator::Schedule(Seconds(30), &IgmpL4Protocol::SetMuted, lan.igmp[0], true);
        lan.SendEvery(Seconds(5), Seconds(6), MilliSeconds(100), G1);
        bool r0at74 = true;
        bool r0at76 = true;
        Simulator::Schedule(Seconds(74), [&]() { r0at74 = lan.br->IsRouterPort(0); });
        Simulator::Schedule(Seconds(76), [&]() { r0at76 = lan.br->IsRouterPort(0); });
        Simulator::Stop(Seconds(80));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(lan.Got(3, G1), 10u, "static router port gets G1");
        NS_TEST_ASSERT_MSG_EQ(lan.Got(2, G1), 0u, "non-member, non-router port does not");
        NS_TEST_ASSERT_MSG_EQ(r0at74, true, "learned router port alive 49 s after the last query");
        NS_TEST_ASSERT_MSG_EQ(r0at76, false, "expired RouterPortTimeout after it");
        NS_TEST_ASSERT_MSG_EQ(lan.br->IsRouterPort(3), true, "static port stays");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * A UDP receiver joins through the socket call; datagrams arrive through the switch only after
 * the join and stop after the leave; IsMember() tells joined from flooded groups.
 */
class UdpReceiverTestCase : public TestCase
{
  public:
    UdpReceiverTestCase()
        : TestCase("UDP receiver: socket-level join and leave through the snooping switch")
    {
    }

  private:
    std::vector<std::pair<Time, Ipv4Address>> m_rx;
    Ptr<IgmpL4Protocol> m_igmp;
    uint32_t m_accepted{0};

    void Recv(Ptr<Socket> s)
    {
        Ptr<Packet> p;
        while ((p = s->Recv()))
        {
            Ipv4PacketInfoTag tag;
            bool tagged = p->RemovePacketTag(tag);
            NS_TEST_EXPECT_MSG_EQ(tagged, true, "RecvPktInfo: the datagram carries its address");
            m_rx.emplace_back(Simulator::Now(), tag.GetAddress());
            m_accepted += m_igmp->IsMember(1, tag.GetAddress()) ? 1 : 0;
        }
    }

    void DoRun() override
    {
        SnoopingSwitchHelper sh;
        sh.SetDeviceAttribute("FastLeave", BooleanValue(true));
        sh.SetDeviceAttribute("UnregisteredPolicy", StringValue("RouterPorts"));
        SwitchLan lan(2, sh, ShortTimers(3)); // querier 0, hosts 1-2, sender 3
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1);
        Ptr<Socket> rx = lan.sockets[1];
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9999));
        rx->SetRecvPktInfo(true);
        rx->SetRecvCallback(MakeCallback(&UdpReceiverTestCase::Recv, this));
        m_igmp = lan.igmp[1];
        IgmpHelper::ScheduleJoin(Seconds(2), rx, G1);
        IgmpHelper::ScheduleLeave(Seconds(4), rx, G1);
        Ptr<Node> snd = lan.nodes.Get(lan.Sender());
        Ipv4StaticRoutingHelper routing;
        routing.GetStaticRouting(snd->GetObject<Ipv4>())
            ->AddNetworkRouteTo(Ipv4Address("224.0.0.0"), Ipv4Mask("240.0.0.0"), 1);
        Ptr<Socket> tx = Socket::CreateSocket(snd, UdpSocketFactory::GetTypeId());
        tx->BindToNetDevice(lan.devs[lan.Sender()]);
        for (int k = 0; k < 50; ++k)
        {
            for (Ipv4Address g : {G1, Ipv4Address("224.0.0.251")})
            {
                Simulator::Schedule(Seconds(1) + MilliSeconds(100) * k, [tx, g]() {
                    tx->SendTo(Create<Packet>(20), 0, InetSocketAddress(g, 9999));
                });
            }
        }
        Simulator::Stop(Seconds(7));
        Simulator::Run();
        uint32_t g1 = 0;
        uint32_t linkLocal = 0;
        for (const auto& [t, g] : m_rx)
        {
            if (g == G1)
            {
                ++g1;
                NS_TEST_ASSERT_MSG_GT(t,
                                      Seconds(2),
                                      "no G1 before the join (unregistered: flood?)");
                NS_TEST_ASSERT_MSG_LT(t, Seconds(4) + MilliSeconds(1), "none after the leave");
            }
            else
            {
                ++linkLocal;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(g1, 20u, "G1 datagrams between the join and the leave");
        NS_TEST_ASSERT_MSG_EQ(linkLocal, 50u, "224.0.0.251 flooded to every port");
        NS_TEST_ASSERT_MSG_EQ(m_accepted, 20u, "IsMember accepts only the joined group");
        NS_TEST_ASSERT_MSG_EQ(lan.Got(2, G1), 0u, "the other host never gets G1");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The snooping suite.
 */
class SnoopingBridgeTestSuite : public TestSuite
{
  public:
    SnoopingBridgeTestSuite()
        : TestSuite("testbed-snooping-bridge", Type::UNIT)
    {
        AddTestCase(new SnoopForwardingTestCase(2, true, false), Duration::QUICK);
        AddTestCase(new SnoopForwardingTestCase(3, true, false), Duration::QUICK);
        AddTestCase(new SnoopForwardingTestCase(3, true, true), Duration::QUICK);
        AddTestCase(new SnoopForwardingTestCase(2, false, false), Duration::QUICK);
        AddTestCase(new SnoopLeaveTimeoutTestCase(false), Duration::QUICK);
        AddTestCase(new SnoopLeaveTimeoutTestCase(true), Duration::QUICK);
        AddTestCase(new FabricCapacityTestCase, Duration::QUICK);
        AddTestCase(new FabricDropMacTestCase, Duration::QUICK);
        AddTestCase(new FabricArbitrationTestCase, Duration::QUICK);
        AddTestCase(new TrunkQueueTestCase, Duration::QUICK);
        AddTestCase(new TrunkDescriptorTestCase, Duration::QUICK);
        AddTestCase(new LossySwitchTestCase, Duration::QUICK);
        AddTestCase(new RouterPortTestCase, Duration::QUICK);
        AddTestCase(new UdpReceiverTestCase, Duration::QUICK);
        AddTestCase(new PlainSwitchTestCase, Duration::QUICK);
    }
};

static SnoopingBridgeTestSuite g_snoopingBridgeTestSuite; //!< static instance
