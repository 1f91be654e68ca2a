/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The [MEGA06] instruments and the querier on a host platform, against hand-computed timings,
 * hand-computed statistics and the RFC membership interval.
 */

#include "ns3/boolean.h"
#include "ns3/csma-helper.h"
#include "ns3/double.h"
#include "ns3/global-value.h"
#include "ns3/host-cpu.h"
#include "ns3/host-nic.h"
#include "ns3/host-platform-helper.h"
#include "ns3/host-platform.h"
#include "ns3/igmp-l4-protocol.h"
#include "ns3/integer.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/mrouted.h"
#include "ns3/multicast-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/sara.h"
#include "ns3/send-udp.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/tick-timer.h"
#include "ns3/udp-header.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ns3;

namespace
{

const Ipv4Address kGroup("239.1.0.1");

/**
 * Two nodes on one CSMA segment with IPv4 (10.0.0.1, 10.0.0.2), IGMP, and a 224.0.0.0/4 route.
 */
struct Pair
{
    NodeContainer nodes;     //!< the nodes
    NetDeviceContainer devs; //!< their devices

    Pair()
    {
        nodes.Create(2);
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", StringValue("1Gbps"));
        devs = csma.Install(nodes);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper("10.0.0.0", "255.255.255.0").Assign(devs);
        Ipv4StaticRoutingHelper routing;
        for (uint32_t i = 0; i < 2; ++i)
        {
            routing.GetStaticRouting(nodes.Get(i)->GetObject<Ipv4>())
                ->AddNetworkRouteTo(Ipv4Address("224.0.0.0"), Ipv4Mask("240.0.0.0"), 1);
        }
        IgmpHelper igmp;
        igmp.SetAttribute("Version", UintegerValue(2));
        igmp.Install(nodes);
    }
};

} // namespace

/**
 * @ingroup testbed-tests
 * send_udp on a 250 Hz jiffy timer: intervals of exactly 252 ticks (sleep(1) from after the
 * send: first tick at or after the expiry, plus one), timestamps at the start of the send path,
 * and two virtual nodes contending for the CPU (context switches); sara sees the intervals.
 */
class SendUdpTestCase : public TestCase
{
  public:
    SendUdpTestCase()
        : TestCase("send_udp: intervals on a tick timer, CPU contention; sara receives them")
    {
    }

  private:
    std::vector<std::vector<Time>> m_ts{2}; //!< timestamps per node

    /**
     * Send trace.
     * @param node node id
     * @param serial serial number
     * @param ts timestamp
     */
    void Sent(uint32_t node, uint32_t serial, Time ts)
    {
        NS_TEST_ASSERT_MSG_EQ(serial, m_ts[node].size(), "serial numbers 0, 1, 2, ...");
        m_ts[node].push_back(ts);
    }

    void DoRun() override
    {
        Pair pair;
        HostPlatformHelper hosts;
        hosts.SetAttribute("Cpu",
                           StringValue("ns3::HostCpu[Frequency=1e9|ContextSwitchCost=3000]"));
        hosts.SetAttribute("Timer", StringValue("ns3::TickTimer[Frequency=250|ExtraTicks=1]"));
        hosts.SetAttribute("SendCost", DoubleValue(10000)); // 10 us, no per-byte cost
        hosts.Install(pair.nodes.Get(0));                   // the receiver is ideal

        Ptr<SendUdp> app = CreateObject<SendUdp>();
        app->SetAttribute("Nodes", UintegerValue(2));
        app->SetAttribute("Group", Ipv4AddressValue(kGroup));
        app->SetAttribute("StartWindow", TimeValue(Seconds(0))); // both start at once
        app->SetAttribute("LoopCost", DoubleValue(2000));        // 2 us
        app->SetAttribute("Device", UintegerValue(0));
        app->TraceConnectWithoutContext("Send", MakeCallback(&SendUdpTestCase::Sent, this));
        pair.nodes.Get(0)->AddApplication(app);
        app->SetStartTime(MilliSeconds(100));
        app->SetStopTime(Seconds(5));
        Ptr<Sara> sara = CreateObject<Sara>();
        sara->SetAttribute("Group", Ipv4AddressValue(kGroup));
        pair.nodes.Get(1)->AddApplication(sara);
        sara->SetStopTime(Seconds(6));
        Simulator::Stop(Seconds(6));
        Simulator::Run();

        // Node 0 runs first: 0.1 s + 2 us (loop) -> timestamp 100.002 ms, done at 100.012 ms.
        // Node 1 waits for it, pays a 3 us context switch: 100.015 + 2 = 100.017 ms, done at
        // 100.027 ms. Both sleep(1) expire before the tick at 1.104 s (tick 276): they wake on
        // tick 277 = 1.108 s. Node 0 again first, but now after node 1 ran: context switch for
        // both: 1.108 + 3 + 2 us = 1.108005 s; node 1: 1.108015 + 3 + 2 us = 1.108020 s. From
        // then on every cycle is the same: intervals of 252 ticks = 1.008 s.
        NS_TEST_ASSERT_MSG_EQ(m_ts[0].size(),
                              5u,
                              "node 0: sends at 0.1, 1.108, 2.116, 3.124, 4.132");
        NS_TEST_ASSERT_MSG_EQ(m_ts[1].size(), 5u, "node 1: five sends too");
        NS_TEST_ASSERT_MSG_EQ(m_ts[0][0], MicroSeconds(100002), "node 0 first timestamp");
        NS_TEST_ASSERT_MSG_EQ(m_ts[1][0], MicroSeconds(100017), "node 1 waits and switches");
        NS_TEST_ASSERT_MSG_EQ(m_ts[0][1], MicroSeconds(1108005), "node 0 on tick 277");
        NS_TEST_ASSERT_MSG_EQ(m_ts[1][1], MicroSeconds(1108020), "node 1 after node 0");
        for (uint32_t n = 0; n < 2; ++n)
        {
            for (uint32_t k = 2; k < m_ts[n].size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(m_ts[n][k] - m_ts[n][k - 1],
                                      MicroSeconds(1008000),
                                      "252 ticks of 4 ms");
            }
        }
        // sara (ideal host) got every packet; node 0's send intervals: 1.008003 s once, then
        // 1.008 s three times.
        const SaraTable& t = sara->GetTable();
        NS_TEST_ASSERT_MSG_EQ(t.GetNNodes(), 2u, "two virtual nodes seen");
        SaraTable::NodeStats s0 = t.GetNode(0);
        NS_TEST_ASSERT_MSG_EQ(s0.packets, 5u, "five packets");
        NS_TEST_ASSERT_MSG_EQ(s0.drops, 0u, "no drops");
        NS_TEST_ASSERT_MSG_EQ(s0.intervals, 4u, "four intervals");
        const double mean = (1.008003 + 3 * 1.008) / 4;
        const double sd
            = std::sqrt((std::pow(1.008003 - mean, 2) + 3 * std::pow(1.008 - mean, 2)) / 4);
        NS_TEST_ASSERT_MSG_EQ_TOL(s0.sendMean, mean, 1e-12, "mean send interval");
        NS_TEST_ASSERT_MSG_EQ_TOL(s0.sendStd, sd, 1e-9, "send interval deviation");
        // The receive intervals equal the send intervals (same path for every packet).
        NS_TEST_ASSERT_MSG_EQ_TOL(s0.recvMean, mean, 1e-12, "mean receive interval");
        // SendUdp reserved pids 1 and 2: the next process gets 3.
        Ptr<HostPlatform> host = pair.nodes.Get(0)->GetObject<HostPlatform>();
        NS_TEST_ASSERT_MSG_EQ(host->CreateProcess()->GetPid(), 3u, "pids after the reserved block");
        NS_TEST_ASSERT_MSG_EQ(host->ReservePids(10), 4u, "a new block starts at the next pid");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * send_udp stopped while the CPU has taken (or is about to take) a wake-up: the setting of
 * SendUdpTestCase (two nodes, 250 Hz jiffies, 2 us loop, 10 us send, 3 us context switch), the
 * application stopped during the second round. Both nodes wake on tick 277 (1.108 s); the CPU
 * plans node 0's iteration at its time (1.108 s, 3 + 2 + 10 = 15 us, to 1.108015 s); node 1's
 * falls due at the same instant and waits for it (1.108015-1.108030 s). Stopped at 1.108005 s
 * (inside node 0's planned run) or at 1.108 s (the instant both fall due: a wake-up counts as
 * earlier than anything else at its instant, HostCpu's rule), both iterations were taken before
 * the stop and run to their end, but their sends do not happen (the application is stopped
 * when they complete): one send per node (100.002 and 100.017 ms) and PROCESS busy time
 * 12 + 15 (first round) + 15 + 15 (second) = 57 us. Stopped at 1.107 s (nothing due yet), the
 * second round never starts: 27 us.
 */
class SendUdpStopTestCase : public TestCase
{
  public:
    SendUdpStopTestCase()
        : TestCase("send_udp: stopped while the CPU runs or takes a wake-up")
    {
    }

  private:
    std::vector<std::vector<Time>> m_ts{2}; //!< timestamps per node

    /**
     * Send trace.
     * @param node node id
     * @param serial serial number
     * @param ts timestamp
     */
    void Sent(uint32_t node, uint32_t serial, Time ts)
    {
        m_ts[node].push_back(ts);
    }

    /**
     * Run with the application stopped at some time.
     * @param stop the stop time
     * @return the CPU's PROCESS busy time at 2 s
     */
    Time Run(Time stop)
    {
        m_ts.assign(2, {});
        Pair pair;
        HostPlatformHelper hosts;
        hosts.SetAttribute("Cpu",
                           StringValue("ns3::HostCpu[Frequency=1e9|ContextSwitchCost=3000]"));
        hosts.SetAttribute("Timer", StringValue("ns3::TickTimer[Frequency=250|ExtraTicks=1]"));
        hosts.SetAttribute("SendCost", DoubleValue(10000));
        hosts.Install(pair.nodes.Get(0));
        Ptr<SendUdp> app = CreateObject<SendUdp>();
        app->SetAttribute("Nodes", UintegerValue(2));
        app->SetAttribute("Group", Ipv4AddressValue(kGroup));
        app->SetAttribute("StartWindow", TimeValue(Seconds(0)));
        app->SetAttribute("LoopCost", DoubleValue(2000));
        app->SetAttribute("Device", UintegerValue(0));
        app->TraceConnectWithoutContext("Send", MakeCallback(&SendUdpStopTestCase::Sent, this));
        pair.nodes.Get(0)->AddApplication(app);
        app->SetStartTime(MilliSeconds(100));
        app->SetStopTime(stop);
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        const Time busy
            = pair.nodes.Get(0)->GetObject<HostPlatform>()->GetCpu()->GetBusyTime(HostCpu::PROCESS);
        Simulator::Destroy();
        return busy;
    }

    void DoRun() override
    {
        for (const Time stop :
             {MicroSeconds(1108005), MicroSeconds(1108000), MicroSeconds(1107000)})
        {
            const Time busy = Run(stop);
            NS_TEST_ASSERT_MSG_EQ(m_ts[0].size(), 1u, "node 0 sends once, stop " << stop);
            NS_TEST_ASSERT_MSG_EQ(m_ts[1].size(), 1u, "node 1 sends once, stop " << stop);
            NS_TEST_EXPECT_MSG_EQ(m_ts[0][0], MicroSeconds(100002), "node 0's timestamp");
            NS_TEST_EXPECT_MSG_EQ(m_ts[1][0], MicroSeconds(100017), "node 1's timestamp");
            const Time expected
                = stop < MicroSeconds(1108000) ? MicroSeconds(27) : MicroSeconds(57);
            NS_TEST_EXPECT_MSG_EQ(busy, expected, "PROCESS busy time, stop " << stop);
        }
    }
};

/**
 * @ingroup testbed-tests
 * send_udp's wake-up queue when a new wake-up belongs far from its back (the binary-search
 * fallback after 32 steps from the back): 400 nodes without a PC (no CPU, no timer: node i sends
 * at s_i + k x 100 ms exactly), start times s_i uniform in [0, 1 s). In the first second a node
 * that sleeps 100 ms goes in front of the start times of every node not yet started after it
 * (up to ~360 of them). Expected, independently of the queue: the start times drawn from a
 * UniformRandomVariable on the application's stream (the same draws in the same order), every
 * send s_i + k x 100 ms before the stop at 1.5 s, in time order; the trace must give exactly
 * that sequence of (node, time).
 */
class SendUdpWakeupOrderTestCase : public TestCase
{
  public:
    SendUdpWakeupOrderTestCase()
        : TestCase("send_udp: wake-ups far from the queue's back keep their time order")
    {
    }

  private:
    std::vector<std::pair<int64_t, uint32_t>> m_sent; //!< (timestamp in steps, node)

    /**
     * Send trace.
     * @param node node id
     * @param serial serial number
     * @param ts timestamp
     */
    void Sent(uint32_t node, uint32_t serial, Time ts)
    {
        m_sent.emplace_back(ts.GetTimeStep(), node);
    }

    void DoRun() override
    {
        const uint32_t nodes = 400;
        const Time window = Seconds(1);
        const Time interval = MilliSeconds(100);
        const Time stop = MilliSeconds(1500);
        const int64_t stream = 11;
        // The expectation: the start times from the same stream, then every send in time order.
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(stream);
        std::vector<std::pair<int64_t, uint32_t>> expected;
        for (uint32_t i = 0; i < nodes; ++i)
        {
            const Time start = Seconds(u->GetValue(0.0, window.GetSeconds()));
            for (Time t = start; t < stop; t += interval)
            {
                expected.emplace_back(t.GetTimeStep(), i);
            }
        }
        std::sort(expected.begin(), expected.end());
        for (std::size_t k = 1; k < expected.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_NE(expected[k].first,
                                  expected[k - 1].first,
                                  "no two sends at one instant (the order is then the time's)");
        }

        Pair pair;
        Ptr<SendUdp> app = CreateObject<SendUdp>();
        app->SetAttribute("Nodes", UintegerValue(nodes));
        app->SetAttribute("Group", Ipv4AddressValue(kGroup));
        app->SetAttribute("StartWindow", TimeValue(window));
        app->SetAttribute("Interval", TimeValue(interval));
        app->SetAttribute("Device", UintegerValue(0));
        app->AssignStreams(stream);
        app->TraceConnectWithoutContext("Send",
                                        MakeCallback(&SendUdpWakeupOrderTestCase::Sent, this));
        pair.nodes.Get(0)->AddApplication(app);
        app->SetStartTime(Seconds(0));
        app->SetStopTime(stop);
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(m_sent.size(), expected.size(), "every send before the stop");
        for (std::size_t k = 0; k < expected.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(m_sent[k].second, expected[k].second, "node of send " << k);
            NS_TEST_ASSERT_MSG_EQ(m_sent[k].first, expected[k].first, "time of send " << k);
        }
    }
};

/**
 * @ingroup testbed-tests
 * SaraTable::Reserve's flat array as the programs build it: consecutive ranges reserved one PC
 * after another (the array grows at its end; 2 x 12 000 nodes of 64 octets make it larger than
 * the 1 MB from which it is made of huge pages), a range in front of it (the array is rebuilt
 * with the nodes kept) and a disjoint range (the hash table), plus an id never reserved. Every
 * node's packets and intervals, the count and the id order of the moments against the packets
 * given (independent of the layout).
 */
class SaraTableReserveTestCase : public TestCase
{
  public:
    SaraTableReserveTestCase()
        : TestCase("sara: the flat table grown range by range keeps every node")
    {
    }

  private:
    void DoRun() override
    {
        SaraTable t;
        t.Reserve(1000, 12000);  // [1000, 13000)
        t.Reserve(13000, 12000); // [1000, 25000): grown at its end
        t.Reserve(400, 600);     // [400, 25000): rebuilt, in front
        t.Reserve(90000, 10);    // disjoint: the map
        // The expected packets per id: id k gets (k % 3) + 2 packets 1 s apart (serials 0, 1,
        // ...), sent at k us, received 1 ms later.
        const std::vector<uint32_t> ids = {400, 999, 1000, 12999, 13000, 24999, 90005, 123456};
        for (int round = 0; round < 4; ++round)
        {
            for (uint32_t id : ids)
            {
                if (round < int(id % 3) + 2)
                {
                    const Time sent = Seconds(round) + MicroSeconds(id);
                    t.Prefetch(id);
                    t.Add(id, round, sent, sent + MilliSeconds(1));
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(t.GetNNodes(), ids.size(), "every node seen once");
        NS_TEST_ASSERT_MSG_EQ(t.Has(401), false, "a reserved id without packets is unseen");
        NS_TEST_ASSERT_MSG_EQ(t.Has(25000), false, "beyond the range, never added");
        const std::vector<SaraTable::NodeMoments> m = t.GetMoments();
        NS_TEST_ASSERT_MSG_EQ(m.size(), ids.size(), "one moment set per node");
        for (std::size_t k = 0; k < ids.size(); ++k)
        {
            const uint32_t id = ids[k];
            NS_TEST_ASSERT_MSG_EQ(m[k].stats.nodeId, id, "moments in id order");
            NS_TEST_ASSERT_MSG_EQ(m[k].stats.packets, id % 3 + 2, "packets of " << id);
            NS_TEST_ASSERT_MSG_EQ(m[k].stats.intervals, id % 3 + 1, "intervals of " << id);
            NS_TEST_ASSERT_MSG_EQ_TOL(m[k].stats.sendMean, 1.0, 1e-12, "send interval " << id);
            SaraTable::NodeStats s = t.GetNode(id);
            NS_TEST_ASSERT_MSG_EQ(s.packets, id % 3 + 2, "GetNode packets of " << id);
        }
    }
};

/**
 * @ingroup testbed-tests
 * SendUdp::SetNextNodeHint on a PC (the CPU takes the wake-ups): 200 nodes with FirstNodeId
 * 1000 that start at random times and send every 100 ms. On one core the sends follow the
 * wake-ups in order, so every hint must name the node of the send after the one in progress:
 * hint k is the id of send k + 1 (independent expectation: the Send trace). A hint is only a
 * hint: the sends are the same with and without one (a second run without it).
 */
class SendUdpNextNodeHintTestCase : public TestCase
{
  public:
    SendUdpNextNodeHintTestCase()
        : TestCase("send_udp: the next-node hint names the node that sends next")
    {
    }

  private:
    std::vector<std::pair<int64_t, uint32_t>> m_sent; //!< (timestamp in steps, node id)
    std::vector<uint32_t> m_hints;                    //!< hinted node ids

    /**
     * Send trace.
     * @param node node id
     * @param serial serial number
     * @param ts timestamp
     */
    void Sent(uint32_t node, uint32_t serial, Time ts)
    {
        m_sent.emplace_back(ts.GetTimeStep(), node);
    }

    /**
     * The hint.
     * @param node node id
     */
    void Hint(uint32_t node)
    {
        m_hints.push_back(node);
    }

    /**
     * One run.
     * @param hint whether to set the hint
     * @return the sends
     */
    std::vector<std::pair<int64_t, uint32_t>> RunOnce(bool hint)
    {
        m_sent.clear();
        m_hints.clear();
        Pair pair;
        HostPlatformHelper hosts;
        hosts.SetAttribute("Cpu",
                           StringValue("ns3::HostCpu[Frequency=1e9|ContextSwitchCost=3000]"));
        hosts.Install(pair.nodes.Get(0));
        Ptr<SendUdp> app = CreateObject<SendUdp>();
        app->SetAttribute("Nodes", UintegerValue(200));
        app->SetAttribute("FirstNodeId", UintegerValue(1000));
        app->SetAttribute("Group", Ipv4AddressValue(kGroup));
        app->SetAttribute("Interval", TimeValue(MilliSeconds(100)));
        app->SetAttribute("Device", UintegerValue(0));
        app->AssignStreams(5);
        app->TraceConnectWithoutContext("Send",
                                        MakeCallback(&SendUdpNextNodeHintTestCase::Sent, this));
        if (hint)
        {
            app->SetNextNodeHint(MakeCallback(&SendUdpNextNodeHintTestCase::Hint, this));
        }
        pair.nodes.Get(0)->AddApplication(app);
        app->SetStartTime(Seconds(0));
        app->SetStopTime(Seconds(2));
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        Simulator::Destroy();
        return m_sent;
    }

    void DoRun() override
    {
        const auto without = RunOnce(false);
        NS_TEST_ASSERT_MSG_EQ(m_hints.size(), 0u, "no hint set: none called");
        const auto with = RunOnce(true);
        NS_TEST_ASSERT_MSG_EQ(with.size(), without.size(), "the same sends with the hint");
        NS_TEST_ASSERT_MSG_EQ((with == without), true, "the same sends with the hint");
        NS_TEST_ASSERT_MSG_GT(with.size(), 3000u, "about 200 x 19 sends");
        // Every send but the first was hinted while the one before it was in progress.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(m_hints.size() + 1, with.size(), "a hint per send");
        for (std::size_t k = 0; k + 1 < with.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(m_hints[k], with[k + 1].second, "hint " << k);
        }
    }
};

/**
 * @ingroup testbed-tests
 * The octets of a send_udp datagram as the receiver's device gets them, against RFC 791 and
 * RFC 768 written out by hand: IPv4 without options (version 4, IHL 5, total length 100,
 * protocol 17, TTL 1, the sender's and the group's addresses), UDP (ports 10000, length 80),
 * then the payload (64-bit timestamp in ns, 32-bit node id, 32-bit serial, big-endian) and zero
 * padding. With ns-3's checksums off SendUdp patches a prebuilt datagram, with them on it
 * serializes the headers: both give these octets, the second with checksums that verify.
 */
class SendUdpDatagramTestCase : public TestCase
{
  public:
    SendUdpDatagramTestCase()
        : TestCase("send_udp: the datagram's octets (RFC 791 and 768), checksums off and on")
    {
    }

  private:
    std::vector<std::vector<uint8_t>> m_rx; //!< the datagrams received, in order

    /**
     * Promiscuous receive callback of the receiver's device.
     * @param packet the frame without its Ethernet header
     * @param protocol the EtherType
     * @return true
     */
    bool Rx(Ptr<NetDevice>,
            Ptr<const Packet> packet,
            uint16_t protocol,
            const Address&,
            const Address&,
            NetDevice::PacketType)
    {
        if (protocol == 0x0800 && packet->GetSize() == 100)
        {
            std::vector<uint8_t> b(packet->GetSize());
            packet->CopyData(b.data(), b.size());
            if (b[9] == 17) // UDP (the IGMP reports are protocol 2)
            {
                m_rx.push_back(std::move(b));
            }
        }
        return true;
    }

    /**
     * Run two virtual nodes (ids 7 and 8) without a host platform from 0.1 s for 1.5 s.
     * @param checksums ns-3's ChecksumEnabled
     */
    void RunOnce(bool checksums)
    {
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(checksums));
        m_rx.clear();
        Pair pair;
        pair.devs.Get(1)->SetPromiscReceiveCallback(
            MakeCallback(&SendUdpDatagramTestCase::Rx, this));
        Ptr<SendUdp> app = CreateObject<SendUdp>();
        app->SetAttribute("Nodes", UintegerValue(2));
        app->SetAttribute("FirstNodeId", UintegerValue(7));
        app->SetAttribute("Group", Ipv4AddressValue(kGroup));
        app->SetAttribute("StartWindow", TimeValue(Seconds(0)));
        app->SetAttribute("Device", UintegerValue(0));
        pair.nodes.Get(0)->AddApplication(app);
        app->SetStartTime(MilliSeconds(100));
        app->SetStopTime(MilliSeconds(1600));
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        Simulator::Destroy();
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
    }

    /**
     * One's-complement sum of 16-bit words (RFC 1071).
     * @param b the octets
     * @param from first octet
     * @param to one past the last octet
     * @param sum the sum so far
     * @return the folded sum
     */
    static uint32_t Sum(const std::vector<uint8_t>& b, size_t from, size_t to, uint32_t sum)
    {
        for (size_t k = from; k < to; k += 2)
        {
            sum += (uint32_t(b[k]) << 8) | b[k + 1];
        }
        while (sum >> 16)
        {
            sum = (sum & 0xFFFF) + (sum >> 16);
        }
        return sum;
    }

    void DoRun() override
    {
        // Without a host the nodes send at 0.1 s and 1.1 s, node 7 before node 8 each time.
        std::vector<std::vector<uint8_t>> expected;
        const std::pair<uint64_t, uint32_t> sends[]
            = {{100000000, 7}, {100000000, 8}, {1100000000, 7}, {1100000000, 8}};
        uint32_t k = 0;
        for (auto [ns, node] : sends)
        {
            std::vector<uint8_t> e = {0x45, 0,    0,    100,  0,   0,  0, 0, 1, 17, 0, 0, // IPv4
                                      10,   0,    0,    1,    239, 1,  0, 1,  // 10.0.0.1
                                      0x27, 0x10, 0x27, 0x10, 0,   80, 0, 0}; // UDP
            for (int s = 56; s >= 0; s -= 8)
            {
                e.push_back(uint8_t(ns >> s));
            }
            for (uint32_t v : {node, k / 2})
            {
                for (int s = 24; s >= 0; s -= 8)
                {
                    e.push_back(uint8_t(v >> s));
                }
            }
            e.resize(100, 0);
            expected.push_back(e);
            ++k;
        }

        RunOnce(false);
        NS_TEST_ASSERT_MSG_EQ(m_rx.size(), 4u, "two sends per node");
        for (uint32_t i = 0; i < m_rx.size() && i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((m_rx[i] == expected[i]), true, "datagram " << i << " octets");
        }

        RunOnce(true);
        NS_TEST_ASSERT_MSG_EQ(m_rx.size(), 4u, "two sends per node (checksums on)");
        for (uint32_t i = 0; i < m_rx.size() && i < 4; ++i)
        {
            std::vector<uint8_t> b = m_rx[i];
            NS_TEST_ASSERT_MSG_EQ(Sum(b, 0, 20, 0), 0xFFFFu, "IPv4 header checksum verifies");
            // UDP: pseudo-header (addresses, protocol, UDP length) plus the datagram.
            const uint32_t pseudo = Sum(b, 12, 20, 17 + 80);
            NS_TEST_ASSERT_MSG_EQ(Sum(b, 20, 100, pseudo), 0xFFFFu, "UDP checksum verifies");
            b[10] = b[11] = b[26] = b[27] = 0;
            NS_TEST_ASSERT_MSG_EQ((b == expected[i]), true, "same octets besides checksums");
        }
    }
};

/**
 * @ingroup testbed-tests
 * sara's statistics on a crafted sequence with a gap, a duplicate and a reordered packet:
 * exact means and population deviations; the interval across the gap is excluded.
 */
class SaraStatisticsTestCase : public TestCase
{
  public:
    SaraStatisticsTestCase()
        : TestCase("sara: per-node statistics, gap excluded, pooled summary")
    {
    }

  private:
    void DoRun() override
    {
        SaraTable t;
        t.Reserve(5, 3); // node 7 in the flat range, node 9 in the map
        // Prefetches are hints: inside and outside the range, before and between the Adds.
        t.Prefetch(7);
        t.Prefetch(9);
        t.Prefetch(0xffffffff);
        // Node 7: serials 0 1 2 (3 lost) 4 5, then a duplicate 5 and a late 3.
        const double sent[] = {0.0, 1.0, 2.1, 4.0, 5.2};
        const double recv[] = {0.5, 1.6, 2.55, 4.7, 5.6};
        const uint32_t serial[] = {0, 1, 2, 4, 5};
        for (int i = 0; i < 5; ++i)
        {
            t.Add(7, serial[i], Seconds(sent[i]), Seconds(recv[i]));
        }
        t.Add(7, 5, Seconds(5.2), Seconds(5.7));
        t.Add(7, 3, Seconds(3.0), Seconds(5.8));
        // Node 9: two packets, one interval of 2 s (send) and 3 s (receive).
        t.Add(9, 10, Seconds(0), Seconds(0));
        t.Add(9, 11, Seconds(2), Seconds(3));

        // Send intervals 1.0, 1.1, (2->4 excluded), 1.2: mean 1.1, variance 0.02 / 3.
        // Receive intervals 1.1, 0.95, 0.9: mean 2.95 / 3, variance as computed below.
        SaraTable::NodeStats s = t.GetNode(7);
        NS_TEST_ASSERT_MSG_EQ(s.packets, 5u, "packets (duplicate and late one not counted)");
        NS_TEST_ASSERT_MSG_EQ(s.drops, 1u, "one drop from the serial gap");
        NS_TEST_ASSERT_MSG_EQ(s.reordered, 2u, "duplicate and reordered packet");
        NS_TEST_ASSERT_MSG_EQ(s.intervals, 3u, "three intervals (gap excluded)");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.sendMean, 1.1, 1e-12, "mean send interval");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.sendStd, std::sqrt(0.02 / 3), 1e-12, "send deviation");
        const double rm = (1.1 + 0.95 + 0.9) / 3;
        const double rv
            = (std::pow(1.1 - rm, 2) + std::pow(0.95 - rm, 2) + std::pow(0.9 - rm, 2)) / 3;
        NS_TEST_ASSERT_MSG_EQ_TOL(s.recvMean, rm, 1e-12, "mean receive interval");
        NS_TEST_ASSERT_MSG_EQ_TOL(s.recvStd, std::sqrt(rv), 1e-12, "receive deviation");

        SaraTable::NodeStats s9 = t.GetNode(9);
        NS_TEST_ASSERT_MSG_EQ(s9.intervals, 1u, "one interval");
        NS_TEST_ASSERT_MSG_EQ_TOL(s9.sendStd, 0.0, 1e-15, "one interval: no deviation");

        // Over all nodes: 4 intervals 1.0 1.1 1.2 2.0 (send), 1.1 0.95 0.9 3.0 (receive).
        SaraTable::Summary sum = t.GetSummary();
        NS_TEST_ASSERT_MSG_EQ(sum.nodes, 2u, "two nodes");
        NS_TEST_ASSERT_MSG_EQ(sum.packets, 7u, "packets");
        NS_TEST_ASSERT_MSG_EQ(sum.drops, 1u, "drops");
        NS_TEST_ASSERT_MSG_EQ(sum.intervals, 4u, "intervals");
        NS_TEST_ASSERT_MSG_EQ_TOL(sum.dropRate, 1.0 / 8, 1e-15, "drop rate = 1 / (7 + 1)");
        NS_TEST_ASSERT_MSG_EQ_TOL(sum.sendMeanMean, (1.1 + 2.0) / 2, 1e-12, "mean of node means");
        NS_TEST_ASSERT_MSG_EQ_TOL(sum.sendStdMean,
                                  (std::sqrt(0.02 / 3) + 0) / 2,
                                  1e-12,
                                  "mean of node deviations");
        const double pm = (1.0 + 1.1 + 1.2 + 2.0) / 4;
        const double pv = (std::pow(1.0 - pm, 2) + std::pow(1.1 - pm, 2) + std::pow(1.2 - pm, 2)
                           + std::pow(2.0 - pm, 2))
                          / 4;
        NS_TEST_ASSERT_MSG_EQ_TOL(sum.pooledSendMean, pm, 1e-12, "pooled mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(sum.pooledSendStd, std::sqrt(pv), 1e-12, "pooled deviation");
        const double qm = (1.1 + 0.95 + 0.9 + 3.0) / 4;
        const double qv = (std::pow(1.1 - qm, 2) + std::pow(0.95 - qm, 2) + std::pow(0.9 - qm, 2)
                           + std::pow(3.0 - qm, 2))
                          / 4;
        NS_TEST_ASSERT_MSG_EQ_TOL(sum.pooledRecvStd, std::sqrt(qv), 1e-12, "pooled receive dev.");
    }
};

/**
 * @ingroup testbed-tests
 * The querier's general query (due 5.05 ms) under a flood of 1 000 frames (every 10 us from
 * 1.005 ms; interrupt 4 us + softirq 8 us each): unmoderated, the kernel is busy from 1.005 ms
 * to 1.005 + 1000 * 12 us = 13.005 ms and the mrouted process (query: 10 us) sends at
 * 13.015 ms; with MaxInterruptRate 10 000/s and a 4-descriptor ring the CPU is busy 36 us of
 * every 100 us (from 1.105 ms on) and the query goes out at 5.06 ms.
 */
class QuerierDelayTestCase : public TestCase
{
  public:
    QuerierDelayTestCase()
        : TestCase("mrouted: query delayed by receive livelock, on time with moderation")
    {
    }

  private:
    std::vector<std::pair<Time, Time>> m_queries; //!< (due, sent)

    /**
     * Query trace.
     * @param due due time
     * @param sent send time
     */
    void Query(Time due, Time sent)
    {
        m_queries.emplace_back(due, sent);
    }

    /**
     * Run the scenario.
     * @param rate MaxInterruptRate
     */
    void RunOnce(double rate)
    {
        m_queries.clear();
        Pair pair;
        Ptr<Node> q = pair.nodes.Get(0);
        Ptr<IgmpL4Protocol> igmp = q->GetObject<IgmpL4Protocol>();
        igmp->SetAttribute("StartupQueryCount", UintegerValue(2));
        igmp->SetAttribute("StartupQueryInterval", TimeValue(MicroSeconds(5050)));
        HostPlatformHelper hosts;
        hosts.SetAttribute("Cpu", StringValue("ns3::HostCpu[Frequency=1e9]"));
        hosts.SetAttribute("SendCost", DoubleValue(10000));
        hosts.SetNicAttribute("RxRingSize", UintegerValue(4));
        hosts.SetNicAttribute("BacklogLimit", UintegerValue(2000));
        hosts.SetNicAttribute("InterruptCost", DoubleValue(4000));
        hosts.SetNicAttribute("StackCost", DoubleValue(8000));
        hosts.SetNicAttribute("MaxInterruptRate", DoubleValue(rate));
        hosts.Install(q);
        Ptr<Mrouted> mrouted = CreateObject<Mrouted>();
        mrouted->SetAttribute("WorkCost", DoubleValue(0));
        mrouted->TraceConnectWithoutContext("QuerySent",
                                            MakeCallback(&QuerierDelayTestCase::Query, this));
        q->AddApplication(mrouted);
        mrouted->SetStopTime(Seconds(1));

        // The flood: 1 000 UDP multicast datagrams straight into the querier's NIC model.
        Ptr<NetDevice> dev = pair.devs.Get(0);
        Ptr<HostNic> nic = q->GetObject<HostPlatform>()->GetNic(dev);
        Ptr<Packet> p = Create<Packet>(72);
        UdpHeader udp;
        udp.SetDestinationPort(10000);
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address("10.0.0.9"));
        ip.SetDestination(Ipv4Address("239.1.0.2"));
        ip.SetProtocol(17);
        ip.SetPayloadSize(80);
        p->AddHeader(ip);
        for (int k = 0; k < 1000; ++k)
        {
            Simulator::Schedule(MicroSeconds(1005 + 10 * k), [nic, dev, p]() {
                nic->Receive(dev,
                             p->Copy(),
                             0x0800,
                             Mac48Address("00:00:00:00:00:09"),
                             Mac48Address::GetMulticast(Ipv4Address("239.1.0.2")),
                             NetDevice::PACKET_MULTICAST);
            });
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        Simulator::Destroy();
    }

    void DoRun() override
    {
        RunOnce(0);
        NS_TEST_ASSERT_MSG_EQ(m_queries.size(), 2u, "two startup queries");
        NS_TEST_ASSERT_MSG_EQ(m_queries[0].second, MicroSeconds(10), "first: idle CPU, 10 us");
        NS_TEST_ASSERT_MSG_EQ(m_queries[1].first, MicroSeconds(5050), "second due at 5.05 ms");
        NS_TEST_ASSERT_MSG_EQ(m_queries[1].second,
                              MicroSeconds(13015),
                              "unmoderated: sent after the kernel's busy period");
        RunOnce(10000);
        NS_TEST_ASSERT_MSG_EQ(m_queries.size(), 2u, "two startup queries");
        NS_TEST_ASSERT_MSG_EQ(m_queries[1].first, MicroSeconds(5050), "second due at 5.05 ms");
        NS_TEST_ASSERT_MSG_EQ(m_queries[1].second,
                              MicroSeconds(5060),
                              "moderated: sent 10 us after it fell due");
    }
};

/**
 * @ingroup testbed-tests
 * Queries stop (the querier's CPU is taken by interrupt work from 30 s on): the switch removes
 * the host's port from the group exactly one Group Membership Interval (Robustness 2 * QI 20 s
 * + QRI 4 s = 44 s) after the last report reached it, and data stops reaching the host.
 */
class MembershipTimeoutTestCase : public TestCase
{
  public:
    MembershipTimeoutTestCase()
        : TestCase("snooping switch: membership times out one GMI after the last report")
    {
    }

  private:
    Time m_lastReport{Seconds(-1)}; //!< last IGMP report frame at the host's switch port
    Time m_removed{Seconds(-1)};    //!< membership removal
    Time m_lastQuery{Seconds(-1)};  //!< last general query sent

    /**
     * Frame received by the host's switch port (MacRx: its payload).
     * @param p the payload
     */
    void PortRx(Ptr<const Packet> p)
    {
        // IPv4 with the router alert option (24 octets), IGMP type at octet 24.
        uint8_t b[24 + 1];
        if (p->CopyData(b, sizeof(b)) == sizeof(b) && (b[0] >> 4) == 4 && b[9] == 2
            && (b[24] == 0x16 || b[24] == 0x12))
        {
            m_lastReport = Simulator::Now();
        }
    }

    /**
     * Membership trace.
     * @param g group
     * @param port port
     * @param member joined or left
     */
    void Member(Ipv4Address g, uint32_t port, bool member)
    {
        if (!member && g == kGroup)
        {
            m_removed = Simulator::Now();
        }
    }

    /**
     * Query trace.
     * @param due due time
     * @param sent send time
     */
    void Query(Time due, Time sent)
    {
        m_lastQuery = sent;
    }

    void DoRun() override
    {
        const Time qi = Seconds(20);
        const Time qri = Seconds(4);
        const Time gmi = qi * 2 + qri;
        SnoopingSwitchHelper sh;
        sh.SetDeviceAttribute("MembershipInterval", TimeValue(gmi));
        Ptr<Node> sw = CreateObject<Node>();
        Ptr<SnoopingBridgeNetDevice> br = sh.Install(sw);
        NodeContainer nodes(2); // 0 querier, 1 host
        NetDeviceContainer devs;
        NetDeviceContainer ports;
        for (uint32_t i = 0; i < 2; ++i)
        {
            NetDeviceContainer d = sh.Connect(br, nodes.Get(i), DataRate("100Mbps"));
            devs.Add(d.Get(0));
            ports.Add(d.Get(1));
        }
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper("10.0.0.0", "255.255.255.0").Assign(devs);
        IgmpHelper igmp;
        igmp.SetAttribute("Version", UintegerValue(2));
        igmp.SetAttribute("QueryInterval", TimeValue(qi));
        igmp.SetAttribute("QueryResponseInterval", TimeValue(qri));
        igmp.Install(nodes);
        IgmpHelper::AssignStreams(nodes, 11);
        NS_TEST_ASSERT_MSG_EQ(
            nodes.Get(0)->GetObject<IgmpL4Protocol>()->GetGroupMembershipInterval(),
            Seconds(44),
            "RFC 2236: GMI = 2 * 20 s + 4 s");
        HostPlatformHelper hosts;
        hosts.Install(nodes.Get(0)); // querier PC: bare (zero-cost) platform
        Ptr<Mrouted> mrouted = CreateObject<Mrouted>();
        mrouted->SetAttribute("WorkCost", DoubleValue(0));
        mrouted->TraceConnectWithoutContext("QuerySent",
                                            MakeCallback(&MembershipTimeoutTestCase::Query, this));
        nodes.Get(0)->AddApplication(mrouted);
        mrouted->SetStopTime(Seconds(200));
        br->TraceConnectWithoutContext("Membership",
                                       MakeCallback(&MembershipTimeoutTestCase::Member, this));
        ports.Get(1)->TraceConnectWithoutContext(
            "MacRx",
            MakeCallback(&MembershipTimeoutTestCase::PortRx, this));
        Ptr<Socket> s = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        IgmpHelper::ScheduleJoin(Seconds(1), s, kGroup);
        // From 30 s the querier's CPU is taken by interrupt work (a 1 000 s handler).
        Ptr<HostCpu> cpu = nodes.Get(0)->GetObject<HostPlatform>()->GetCpu();
        Simulator::Schedule(Seconds(30), [cpu]() {
            cpu->Submit(HostCpu::HARDIRQ, Seconds(1000), HostCpu::KERNEL, Callback<void>());
        });
        Simulator::Stop(Seconds(150));
        Simulator::Run();
        // Queries at 0, 5 (startup, QI / 4) and 25 s; the one due at 45 s never goes out.
        NS_TEST_ASSERT_MSG_EQ(m_lastQuery, Seconds(25), "last query before the CPU is taken");
        NS_TEST_ASSERT_MSG_GT(m_lastReport, Seconds(25), "the host answered it");
        NS_TEST_ASSERT_MSG_LT(m_lastReport, Seconds(25) + qri + Seconds(0.01), "within QRI");
        NS_TEST_ASSERT_MSG_EQ(m_removed, m_lastReport + gmi, "removed exactly one GMI later");
        NS_TEST_ASSERT_MSG_EQ(br->GetMemberPorts(kGroup).size(), 0u, "no member port left");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The [MEGA06] instruments and querier.
 */
class Mega06TestSuite : public TestSuite
{
  public:
    Mega06TestSuite()
        : TestSuite("testbed-mega06", Type::UNIT)
    {
        AddTestCase(new SendUdpTestCase, Duration::QUICK);
        AddTestCase(new SendUdpStopTestCase, Duration::QUICK);
        AddTestCase(new SendUdpWakeupOrderTestCase, Duration::QUICK);
        AddTestCase(new SendUdpNextNodeHintTestCase, Duration::QUICK);
        AddTestCase(new SendUdpDatagramTestCase, Duration::QUICK);
        AddTestCase(new SaraStatisticsTestCase, Duration::QUICK);
        AddTestCase(new SaraTableReserveTestCase, Duration::QUICK);
        AddTestCase(new QuerierDelayTestCase, Duration::QUICK);
        AddTestCase(new MembershipTimeoutTestCase, Duration::QUICK);
    }
};

static Mega06TestSuite g_mega06TestSuite; //!< static instance
