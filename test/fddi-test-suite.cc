/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The FDDI ring against independent expectations: a frame's delivery time on an idle ring by
 * hand (token position, frame time, fibre and station delays), the parked idle token against
 * hop-by-hop simulation, the throughput and the mean token rotation time of saturated stations
 * against the timed-token formulas (R. Jain, "Performance analysis of FDDI token ring networks:
 * effect of parameters and guidelines for setting TTRT", IEEE LTS 1991: efficiency
 * N(T-D)/(NT+D), mean rotation (NT+D)/(N+1)), the 2 TTRT bound on the rotation time, the
 * synchronous allocation, IP over the ring (RFC 1390 MTU, no fragmentation of the 4 160-byte
 * stream packets) and malformed frames.
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fddi-channel.h"
#include "ns3/fddi-helper.h"
#include "ns3/fddi-net-device.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

/** Fibre delay per metre (ns) and station latency (ns) used by the hand computations. */
constexpr double FIBRE_NS_PER_M = 5.085;
constexpr int64_t STATION_NS = 600;

/**
 * Build a ring of n stations without IP.
 * @param n stations
 * @param fibre fibre between neighbours (m)
 * @param latency station latency
 * @param ttrt TTRT
 * @param park park the idle token
 * @return the devices
 */
std::vector<Ptr<FddiNetDevice>>
MakeRing(uint32_t n, double fibre, Time latency, Time ttrt, bool park)
{
    NodeContainer nodes;
    nodes.Create(n);
    FddiHelper helper;
    helper.SetChannelAttribute("FibreLength", DoubleValue(fibre));
    helper.SetChannelAttribute("StationLatency", TimeValue(latency));
    helper.SetChannelAttribute("Ttrt", TimeValue(ttrt));
    helper.SetChannelAttribute("ParkIdleToken", BooleanValue(park));
    helper.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("100000p")));
    NetDeviceContainer devs = helper.Install(nodes);
    std::vector<Ptr<FddiNetDevice>> out;
    for (uint32_t i = 0; i < n; ++i)
    {
        out.push_back(DynamicCast<FddiNetDevice>(devs.Get(i)));
    }
    return out;
}

} // namespace

/**
 * @ingroup testbed-tests
 * Delivery times on an idle ring by hand, and the parked token against hop-by-hop simulation.
 */
class FddiIdleRingTestCase : public TestCase
{
  public:
    FddiIdleRingTestCase()
        : TestCase("FDDI: frame timing on an idle ring by hand; parked token = hop by hop")
    {
    }

  private:
    /**
     * Send a pattern of frames and return their arrival times.
     * @param park park the idle token
     * @return arrival times (ns)
     */
    std::vector<int64_t> Run(bool park)
    {
        auto devs = MakeRing(4, 200, NanoSeconds(STATION_NS), MilliSeconds(8), park);
        std::vector<int64_t> arrivals;
        for (auto& d : devs)
        {
            d->SetReceiveCallback(
                Callback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
                    [&arrivals](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) {
                        arrivals.push_back(Simulator::Now().GetNanoSeconds());
                        return true;
                    }));
        }

        // (time, from, to, payload bytes)
        struct Send
        {
            int64_t at;
            uint32_t from;
            uint32_t to;
            uint32_t bytes;
        };

        std::vector<Send> pattern{{1000000, 1, 3, 1000},
                                  {1500000, 3, 0, 4000},
                                  {1500100, 0, 2, 64},
                                  {7777777, 2, 1, 1500},
                                  {7777777, 1, 2, 1500}};
        for (const auto& s : pattern)
        {
            Simulator::Schedule(NanoSeconds(s.at), [&devs, s]() {
                devs[s.from]->Send(Create<Packet>(s.bytes), devs[s.to]->GetAddress(), 0x0800);
            });
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        Simulator::Destroy();
        return arrivals;
    }

    void DoRun() override
    {
        std::vector<int64_t> parked = Run(true);
        std::vector<int64_t> hopByHop = Run(false);
        NS_TEST_ASSERT_MSG_EQ(parked.size(), 5u, "every frame arrives");
        // Hand computation of the first frame: the ring comes up at t = 0 with the token at
        // station 0; it reaches station 1 at h + nD, h = 200 m x 5.085 ns/m + 600 ns.
        const int64_t h = static_cast<int64_t>(200 * FIBRE_NS_PER_M) + STATION_NS; // 1617 ns
        const int64_t d = 4 * h;
        const int64_t t0 = 1000000;
        const int64_t n = (t0 - h + d - 1) / d;
        const int64_t capture = h + n * d;
        const int64_t frameNs = (1000 + 13 + 8 + 15) * 80; // bytes at 100 Mbit/s
        NS_TEST_EXPECT_MSG_EQ(parked[0], capture + frameNs + 2 * h, "first frame's arrival");
        NS_TEST_ASSERT_MSG_EQ(parked.size(), hopByHop.size(), "same frames");
        for (std::size_t i = 0; i < parked.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(parked[i], hopByHop[i], "parked token = hop by hop, frame " << i);
        }
    }
};

/**
 * @ingroup testbed-tests
 * Saturated asynchronous stations against the timed-token formulas.
 */
class FddiSaturationTestCase : public TestCase
{
  public:
    /**
     * @param active stations with a full queue (of 3)
     */
    FddiSaturationTestCase(uint32_t active)
        : TestCase("FDDI: " + std::to_string(active)
                   + " saturated station(s): efficiency and rotation against Jain's formulas")
        , m_active(active)
    {
    }

  private:
    void DoRun() override
    {
        // A long ring (D comparable with TTRT) makes the protocol's overhead visible: 3 stations,
        // 2 km of fibre and 100 us of latency each.
        const Time ttrt = MilliSeconds(1);
        auto devs = MakeRing(3, 2000, MicroSeconds(100), ttrt, true);
        Ptr<FddiChannel> ring = DynamicCast<FddiChannel>(devs[0]->GetChannel());
        const uint32_t payload = 40; // short frames: the asynchronous overrun stays small
        const double frameS = (payload + 13 + 8 + 15) * 8 / 100e6;
        const Time start = MilliSeconds(100);
        const Time stop = MilliSeconds(500);
        uint64_t delivered = 0;
        double maxRotation = 0;
        for (uint32_t i = 0; i < 3; ++i)
        {
            devs[i]->SetReceiveCallback(
                Callback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
                    [&delivered,
                     start,
                     stop](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) {
                        Time now = Simulator::Now();
                        delivered += now >= start && now < stop;
                        return true;
                    }));
        }
        ring->TraceConnectWithoutContext(
            "TokenCapture",
            Callback<void, uint32_t, Time>([&maxRotation, start](uint32_t, Time rotation) {
                if (Simulator::Now() >= start)
                {
                    maxRotation = std::max(maxRotation, rotation.GetSeconds());
                }
            }));
        for (uint32_t i = 0; i < m_active; ++i)
        {
            // More than the window can carry: the queues never run dry.
            for (uint32_t k = 0; k < 60000; ++k)
            {
                devs[i]->Send(Create<Packet>(payload), devs[(i + 1) % 3]->GetAddress(), 0x0800);
            }
        }
        uint64_t passesAtStart = 0;
        uint64_t passesAtStop = 0;
        Simulator::Schedule(start, [&]() { passesAtStart = ring->GetTokenPasses(); });
        Simulator::Schedule(stop, [&]() { passesAtStop = ring->GetTokenPasses(); });
        Simulator::Stop(stop + MilliSeconds(1));
        Simulator::Run();

        const double window = (stop - start).GetSeconds();
        const double n = m_active;
        const double t = ttrt.GetSeconds();
        const double d = 3 * (2.0 * 5.085e-6 + 100e-6); // ring latency
        const double efficiency = delivered * frameS / window;
        const double expected = n * (t - d) / (n * t + d);
        NS_TEST_EXPECT_MSG_EQ_TOL(efficiency, expected, 0.02 * expected, "efficiency");
        const double rotation = 3 * window / double(passesAtStop - passesAtStart);
        const double expectedRotation = (n * t + d) / (n + 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(rotation,
                                  expectedRotation,
                                  0.02 * expectedRotation,
                                  "mean token rotation time");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(maxRotation, 2 * t, "rotation time <= 2 TTRT");
        for (auto& dev : devs)
        {
            NS_TEST_EXPECT_MSG_EQ(dev->GetLateOverruns(), 0u, "no second TRT expiry");
        }
        Simulator::Destroy();
    }

    uint32_t m_active; //!< saturated stations
};

/**
 * @ingroup testbed-tests
 * The synchronous class keeps its allocation against saturated asynchronous stations.
 */
class FddiSynchronousTestCase : public TestCase
{
  public:
    FddiSynchronousTestCase()
        : TestCase("FDDI: synchronous allocation every rotation under asynchronous saturation")
    {
    }

  private:
    void DoRun() override
    {
        const Time ttrt = MilliSeconds(1);
        auto devs = MakeRing(3, 2000, MicroSeconds(100), ttrt, true);
        const uint32_t payload = 1000;
        const Time frame = NanoSeconds((payload + 13 + 8 + 15) * 80); // 82.88 us
        devs[0]->SetAttribute("SyncPriority", UintegerValue(6));
        devs[0]->SetAttribute("SynchronousAllocation", TimeValue(frame * 2)); // 2 frames a visit
        std::vector<Time> syncRx;
        devs[1]->SetReceiveCallback(
            Callback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
                [&syncRx](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) {
                    syncRx.push_back(Simulator::Now());
                    return true;
                }));
        for (uint32_t k = 0; k < 2000; ++k)
        {
            Ptr<Packet> p = Create<Packet>(payload);
            SocketPriorityTag prio;
            prio.SetPriority(7);
            p->AddPacketTag(prio);
            devs[0]->Send(p, devs[1]->GetAddress(), 0x0800);
            devs[1]->Send(Create<Packet>(40), devs[2]->GetAddress(), 0x0800);
            devs[2]->Send(Create<Packet>(40), devs[0]->GetAddress(), 0x0800);
        }
        Simulator::Stop(MilliSeconds(200));
        Simulator::Run();
        // Two synchronous frames per token visit, and visits at most 2 TTRT apart: at least
        // 2 frames per 2 ms.
        NS_TEST_ASSERT_MSG_GT(syncRx.size(), 100u, "synchronous frames flow");
        Time maxGap;
        for (std::size_t i = 2; i < syncRx.size(); i += 2)
        {
            maxGap = std::max(maxGap, syncRx[i] - syncRx[i - 2]);
        }
        NS_TEST_EXPECT_MSG_LT_OR_EQ(maxGap, 2 * ttrt, "a synchronous visit every <= 2 TTRT");
        // (200 ms / 2 ms) visits of 2 frames, less the first visit's offset.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(syncRx.size(), 198u, "2 frames per visit, <= 2 ms apart");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * IP over the ring: ARP, the RFC 1390 MTU, fragmentation only above it; malformed frames.
 */
class FddiIpTestCase : public TestCase
{
  public:
    FddiIpTestCase()
        : TestCase("FDDI: IP over the ring (MTU 4352, ARP), malformed frames dropped")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(3);
        FddiHelper helper;
        NetDeviceContainer devs = helper.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper ip("10.1.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = ip.Assign(devs);
        Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(2), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        std::vector<uint32_t> sizes;
        rx->SetRecvCallback(Callback<void, Ptr<Socket>>([&sizes](Ptr<Socket> s) {
            while (Ptr<Packet> p = s->Recv())
            {
                sizes.push_back(p->GetSize());
            }
        }));
        Ptr<Socket> tx = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        Ptr<FddiNetDevice> d0 = DynamicCast<FddiNetDevice>(devs.Get(0));
        uint64_t afterFirst = 0;
        Simulator::Schedule(MilliSeconds(1), [&]() {
            tx->SendTo(Create<Packet>(4160), 0, InetSocketAddress(ifs.GetAddress(2), 9));
        });
        Simulator::Schedule(MilliSeconds(50), [&]() {
            afterFirst = d0->GetTxFrames();
            tx->SendTo(Create<Packet>(4400), 0, InetSocketAddress(ifs.GetAddress(2), 9));
        });
        Ptr<FddiNetDevice> d2 = DynamicCast<FddiNetDevice>(devs.Get(2));
        Simulator::Schedule(MilliSeconds(60), [&]() { d2->Receive(Create<Packet>(10)); });
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sizes.size(), 2u, "both datagrams arrive");
        NS_TEST_EXPECT_MSG_EQ(sizes[0], 4160u, "4160 bytes");
        NS_TEST_EXPECT_MSG_EQ(sizes[1], 4400u, "4400 bytes (reassembled)");
        NS_TEST_EXPECT_MSG_EQ(afterFirst, 2u, "ARP request and one unfragmented frame");
        NS_TEST_EXPECT_MSG_EQ(d0->GetTxFrames() - afterFirst, 2u, "4400 bytes: two fragments");
        NS_TEST_EXPECT_MSG_EQ(d2->GetMalformed(), 1u, "a 10-byte frame is malformed");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The FDDI suite.
 */
class FddiTestSuite : public TestSuite
{
  public:
    FddiTestSuite()
        : TestSuite("testbed-fddi", Type::UNIT)
    {
        AddTestCase(new FddiIdleRingTestCase, Duration::QUICK);
        AddTestCase(new FddiSaturationTestCase(1), Duration::QUICK);
        AddTestCase(new FddiSaturationTestCase(3), Duration::QUICK);
        AddTestCase(new FddiSynchronousTestCase, Duration::QUICK);
        AddTestCase(new FddiIpTestCase, Duration::QUICK);
    }
};

static FddiTestSuite g_fddiTestSuite; //!< static instance
