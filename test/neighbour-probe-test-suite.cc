/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup testbed-tests
 * NeighbourProbe: Linux's re-validation cycle of a forwarding node's neighbour entry, and a
 * probe meeting a frame at a half-duplex end, both against hand-derived expectations.
 */

#include "ns3/arp-header.h"
#include "ns3/arp-l3-protocol.h"
#include "ns3/enum.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/neighbour-probe.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;

namespace
{

/** Two nodes on one Ethernet cable with IPv4, node 0 probing node 1. */
struct ProbedLink
{
    NodeContainer nodes{2};
    NetDeviceContainer devs;
    Ipv4InterfaceContainer ifs;
    Ptr<NeighbourProbe> probe;
    std::vector<Time> probes;  //!< when node 0 sent a probe
    std::vector<Time> replies; //!< when node 0 received an ARP reply

    ProbedLink(const std::string& duplexA, const std::string& duplexB, Time firstProbe)
    {
        EthernetHelper eth;
        eth.SetCableLength(10);
        eth.SetDeviceAttribute("Duplex", StringValue(duplexA));
        Ptr<EthernetNetDevice> a = eth.CreateDevice(nodes.Get(0));
        eth.SetDeviceAttribute("Duplex", StringValue(duplexB));
        Ptr<EthernetNetDevice> b = eth.CreateDevice(nodes.Get(1));
        eth.Connect(a, b);
        devs.Add(a);
        devs.Add(b);
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper ip("10.0.0.0", "255.255.255.0");
        ifs = ip.Assign(devs);
        probe = CreateObject<NeighbourProbe>();
        probe->SetAttribute("FirstProbe", TimeValue(firstProbe));
        probe->SetTarget(a, ifs.GetAddress(0), b->GetAddress(), ifs.GetAddress(1));
        probe->AssignStreams(5);
        nodes.Get(0)->AddApplication(probe);
        probe->TraceConnectWithoutContext(
            "Tx",
            Callback<void, Ptr<const Packet>>(
                [this](Ptr<const Packet>) { probes.push_back(Simulator::Now()); }));
        // A second ARP handler on node 0 sees the replies (ArpL3Protocol gets them too).
        nodes.Get(0)->RegisterProtocolHandler(
            Callback<void,
                     Ptr<NetDevice>,
                     Ptr<const Packet>,
                     uint16_t,
                     const Address&,
                     const Address&,
                     NetDevice::PacketType>([this](Ptr<NetDevice>,
                                                   Ptr<const Packet> p,
                                                   uint16_t,
                                                   const Address&,
                                                   const Address&,
                                                   NetDevice::PacketType) {
                ArpHeader arp;
                p->Copy()->RemoveHeader(arp);
                if (arp.IsReply())
                {
                    replies.push_back(Simulator::Now());
                }
            }),
            ArpL3Protocol::PROT_NUMBER,
            a);
    }
};

} // namespace

/**
 * @ingroup testbed-tests
 * The cycle (Linux NUD, base_reachable_time 30 s, delay_first_probe_time 5 s, reachable_time
 * drawn again every 300 s): the first probe within the first cycle; between two probes
 * reachable_time + 5 s with reachable_time in [15, 45) s, the same within each 300 s of
 * reachable_time; every probe answered by the neighbour's own ARP within a millisecond.
 */
class NeighbourProbeCycleTestCase : public TestCase
{
  public:
    NeighbourProbeCycleTestCase()
        : TestCase("NeighbourProbe: a unicast ARP probe every reachable_time + 5 s, answered")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        ProbedLink link("ForcedFull", "ForcedFull", Seconds(-1));
        Simulator::Stop(Seconds(2000));
        Simulator::Run();
        const auto& t = link.probes;
        NS_TEST_ASSERT_MSG_GT(t.size(), 30u, "2000 s: at least 2000 / 50 probes");
        NS_TEST_ASSERT_MSG_LT(t.size(), 101u, "at most 2000 / 20 + 1");
        NS_TEST_EXPECT_MSG_LT(t[0], Seconds(50), "the first within the first cycle");
        uint32_t changes = 0;
        for (size_t i = 1; i < t.size(); ++i)
        {
            const Time gap = t[i] - t[i - 1];
            NS_TEST_EXPECT_MSG_GT_OR_EQ(gap, Seconds(20), "reachable_time >= 15 s, + 5 s");
            NS_TEST_EXPECT_MSG_LT(gap, Seconds(50), "reachable_time < 45 s, + 5 s");
            if (i >= 2 && gap != t[i - 1] - t[i - 2])
            {
                ++changes;
            }
        }
        // reachable_time is drawn again at the first probe 300 s after the last draw: the gap
        // changes at most once per 300 s (plus the first probe's own draw).
        NS_TEST_EXPECT_MSG_LT_OR_EQ(changes, 2000u / 300u + 1u, "redrawn every 300 s");
        NS_TEST_EXPECT_MSG_GT(changes, 0u, "and drawn again");
        NS_TEST_ASSERT_MSG_EQ(link.replies.size(), t.size(), "every probe answered");
        for (size_t i = 0; i < t.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_LT(link.replies[i] - t[i], MilliSeconds(1), "within 1 ms");
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * A probe meets a frame at a half-duplex end (the duplex mismatch: node 0 forced full, the
 * prober; node 1 forced half). Node 1 starts a 1518-octet frame at t0 = 1 s (123.04 us with the
 * preamble); the probe leaves node 0 at t0 + 20 us, whose full-duplex MAC does not listen, and
 * reaches node 1 at t0 + 20 us + d (d = 10 m / 0.65 c = 51.3 ns). Node 1 sees a collision
 * then, late (after the first 512 bit times of its frame, preamble not counted: 5.76 us), and
 * abandons the frame (LateCollision Discard) after the 32-bit jam; node 0 receives the frame
 * cut at t0 + 20 us + d + 0.32 us: 19.73 us of frame after the preamble, 246 octets, an FCS
 * error; the probe arriving while node 1 sends is damaged (ReceiveWhileSending Damaged), so
 * node 1 does not answer it.
 */
class NeighbourProbeMeetsFrameTestCase : public TestCase
{
  public:
    NeighbourProbeMeetsFrameTestCase()
        : TestCase("NeighbourProbe: a probe meeting a frame at a half-duplex end, hand-timed")
    {
    }

  private:
    void DoRun() override
    {
        const Time t0 = Seconds(1);
        ProbedLink link("ForcedFull", "ForcedHalf", t0 + MicroSeconds(20));
        Ptr<EthernetNetDevice> full = DynamicCast<EthernetNetDevice>(link.devs.Get(0));
        Ptr<EthernetNetDevice> half = DynamicCast<EthernetNetDevice>(link.devs.Get(1));
        half->SetAttribute("LateCollision", StringValue("Discard"));
        half->SetAttribute("ReceiveWhileSending", StringValue("Damaged"));
        std::vector<Time> late;
        half->TraceConnectWithoutContext(
            "Collision",
            Callback<void, uint32_t, bool>([&late](uint32_t, bool isLate) {
                if (isLate)
                {
                    late.push_back(Simulator::Now());
                }
            }));
        std::vector<uint32_t> fcs;
        full->TraceConnectWithoutContext(
            "RxFcsError",
            Callback<void, Ptr<const Packet>, uint32_t>(
                [&fcs](Ptr<const Packet>, uint32_t octets) { fcs.push_back(octets); }));
        Simulator::Schedule(t0, [&]() {
            half->Send(Create<Packet>(1500), full->GetAddress(), 0x88B5);
        });
        Simulator::Stop(t0 + MilliSeconds(10));
        Simulator::Run();
        const Time d = Seconds(10 / (0.65 * 299792458.0));
        NS_TEST_ASSERT_MSG_EQ(link.probes.size(), 1u, "one probe");
        NS_TEST_EXPECT_MSG_EQ(link.probes[0], t0 + MicroSeconds(20), "at t0 + 20 us");
        NS_TEST_ASSERT_MSG_EQ(late.size(), 1u, "one late collision at the half end");
        NS_TEST_EXPECT_MSG_EQ_TOL(late[0], t0 + MicroSeconds(20) + d, NanoSeconds(1), "at d");
        NS_TEST_EXPECT_MSG_EQ(half->GetStats().lateCollisions, 1u, "counted");
        NS_TEST_EXPECT_MSG_EQ(half->GetStats().txFrames, 0u, "the frame abandoned");
        NS_TEST_ASSERT_MSG_EQ(fcs.size(), 1u, "the cut frame: an FCS error at the full end");
        // (20 us + d + 0.32 us jam - 0.64 us preamble) x 100 Mbit/s / 8
        NS_TEST_EXPECT_MSG_EQ(fcs[0], 246u, "246 octets of it");
        NS_TEST_EXPECT_MSG_EQ(link.replies.size(), 0u, "the damaged probe is not answered");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The NeighbourProbe suite.
 */
class NeighbourProbeTestSuite : public TestSuite
{
  public:
    NeighbourProbeTestSuite()
        : TestSuite("testbed-neighbour-probe", Type::UNIT)
    {
        AddTestCase(new NeighbourProbeCycleTestCase, Duration::QUICK);
        AddTestCase(new NeighbourProbeMeetsFrameTestCase, Duration::QUICK);
    }
};

static NeighbourProbeTestSuite g_neighbourProbeTestSuite; //!< static instance
