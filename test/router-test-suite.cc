/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The route-cache router against independent expectations: the cache's accounting (fills,
 * hits, misses, refusals when full, the periodic clear-all flush, LRU eviction order), and the
 * router's fast and slow paths against hand-computed timings on a CPU of 1 MHz (one cycle = one
 * microsecond): a burst into the bounded input queue (who is dropped, when each survivor
 * leaves), a hit after a fill, a switched-off cache, and the input- and output-side readings.
 */

#include "ns3/cache-router.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/host-cpu.h"
#include "ns3/host-platform.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/route-cache.h"
#include "ns3/simple-channel.h"
#include "ns3/simple-net-device-helper.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

/**
 * @ingroup testbed-tests
 * Fill, hit, miss, refusal, flush and LRU accounting.
 */
class RouteCacheAccountingTestCase : public TestCase
{
  public:
    RouteCacheAccountingTestCase()
        : TestCase("RouteCache: fill, hit, miss, full, periodic flush, LRU eviction")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t oif = 0;
        Ipv4Address a("10.0.0.1");
        Ipv4Address b("10.0.0.2");
        Ipv4Address c("10.0.0.3");
        Ipv4Address d("10.0.0.4");

        // The study's policy: capacity 3, flush every 1 s.
        Ptr<RouteCache> flush = CreateObject<RouteCache>();
        flush->SetAttribute("Capacity", UintegerValue(3));
        flush->SetAttribute("FlushInterval", TimeValue(Seconds(1)));
        flush->Initialize();
        NS_TEST_EXPECT_MSG_EQ(flush->Lookup(a, oif), false, "empty: miss");
        NS_TEST_EXPECT_MSG_EQ(flush->Fill(a, 1), true, "fill a");
        NS_TEST_EXPECT_MSG_EQ(flush->Fill(a, 1), false, "a again: no change");
        NS_TEST_EXPECT_MSG_EQ(flush->Lookup(a, oif), true, "a hits");
        NS_TEST_EXPECT_MSG_EQ(oif, 1u, "with its interface");
        flush->Fill(b, 2);
        flush->Fill(c, 2);
        NS_TEST_EXPECT_MSG_EQ(flush->IsFull(), true, "3 of 3");
        NS_TEST_EXPECT_MSG_EQ(flush->Fill(d, 2), false, "full: d refused, nothing changes");
        NS_TEST_EXPECT_MSG_EQ(flush->Lookup(d, oif), false, "d keeps missing");
        NS_TEST_EXPECT_MSG_EQ(flush->Lookup(a, oif), true, "a still there");
        uint32_t flushed = 0;
        flush->TraceConnectWithoutContext("Flush", Callback<void, uint32_t>([&flushed](uint32_t n) {
                                              flushed += n;
                                          }));
        Simulator::Schedule(MilliSeconds(999), [&]() {
            NS_TEST_EXPECT_MSG_EQ(flush->GetSize(), 3u, "before the flush");
        });
        Simulator::Schedule(MilliSeconds(1001), [&]() {
            NS_TEST_EXPECT_MSG_EQ(flush->GetSize(), 0u, "cleared at 1 s");
            NS_TEST_EXPECT_MSG_EQ(flush->Fill(d, 2), true, "d fits after the flush");
        });
        Simulator::Stop(MilliSeconds(2500));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(flush->GetFlushes(), 2u, "flushes at 1 s and 2 s");
        NS_TEST_EXPECT_MSG_EQ(flushed, 4u, "3 entries, then d");
        NS_TEST_EXPECT_MSG_EQ(flush->GetHits(), 2u, "hits");
        NS_TEST_EXPECT_MSG_EQ(flush->GetMisses(), 2u, "misses");
        NS_TEST_EXPECT_MSG_EQ(flush->GetFills(), 4u, "fills");
        NS_TEST_EXPECT_MSG_EQ(flush->GetRefusedFills(), 1u, "refused");
        NS_TEST_EXPECT_MSG_EQ(flush->GetEvictions(), 0u, "FlushAll never evicts");
        Simulator::Destroy();

        // LRU: capacity 3, no flush; a hit makes an entry the most recent.
        Ptr<RouteCache> lru = CreateObject<RouteCache>();
        lru->SetAttribute("Capacity", UintegerValue(3));
        lru->SetAttribute("Policy", StringValue("Lru"));
        lru->SetAttribute("FlushInterval", TimeValue(Seconds(0)));
        lru->Initialize();
        lru->Fill(a, 1);
        lru->Fill(b, 1);
        lru->Fill(c, 1);
        lru->Lookup(a, oif); // order (most recent first): a c b
        NS_TEST_EXPECT_MSG_EQ(lru->Fill(d, 1), true, "d evicts the least recent");
        NS_TEST_EXPECT_MSG_EQ(lru->Lookup(b, oif), false, "b was evicted");
        NS_TEST_EXPECT_MSG_EQ(lru->Lookup(a, oif), true, "a survived");
        NS_TEST_EXPECT_MSG_EQ(lru->Lookup(c, oif), true, "c survived");
        NS_TEST_EXPECT_MSG_EQ(lru->GetEvictions(), 1u, "one eviction");
        NS_TEST_EXPECT_MSG_EQ(lru->GetSize(), 3u, "still 3");
        Simulator::Destroy();
    }
};

namespace
{

/** A source - router - sink line on simple devices, the router on a 1 MHz CPU. */
struct RouterLine
{
    NodeContainer nodes;        //!< source, router, sink
    Ptr<CacheRouter> router;    //!< the router
    Ipv4Address sinkAddr;       //!< sink address
    Ipv4Address otherAddr;      //!< a second address behind the router (sink's 2nd if)
    std::vector<double> fastUs; //!< fast-path delays (us)
    std::vector<double> slowUs; //!< slow-path delays (us)
    Ptr<Socket> tx;             //!< source socket
    Ptr<Socket> sink;           //!< sink socket

    /**
     * Build it.
     * @param fast fast-path cycles
     * @param slow slow-path cycles
     * @param queue input-queue limit
     * @param side cache side
     */
    RouterLine(double fast, double slow, uint32_t queue, const std::string& side)
    {
        nodes.Create(3);
        SimpleNetDeviceHelper simple;
        NetDeviceContainer left = simple.Install(NodeContainer(nodes.Get(0), nodes.Get(1)));
        NetDeviceContainer right = simple.Install(NodeContainer(nodes.Get(1), nodes.Get(2)));
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper ip("10.1.0.0", "255.255.255.0");
        ip.Assign(left);
        ip.SetBase("10.2.0.0", "255.255.255.0");
        Ipv4InterfaceContainer r = ip.Assign(right);
        sinkAddr = r.GetAddress(1);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();

        ObjectFactory cpu("ns3::HostCpu");
        cpu.Set("Frequency", DoubleValue(1e6));
        Ptr<HostPlatform> platform = CreateObject<HostPlatform>();
        platform->SetAttribute("Cpu", PointerValue(cpu.Create<HostCpu>()));
        nodes.Get(1)->AggregateObject(platform);
        router = CreateObject<CacheRouter>();
        router->SetAttribute("FastPathCost", DoubleValue(fast));
        router->SetAttribute("SlowPathCost", DoubleValue(slow));
        router->SetAttribute("InputQueueLimit", UintegerValue(queue));
        router->SetAttribute("CacheSide", StringValue(side));
        router->SetAttribute("FlushInterval", TimeValue(Seconds(0)));
        router->Install(nodes.Get(1));
        router->TraceConnectWithoutContext(
            "FastPath",
            Callback<void, Ptr<const Packet>, Time>(
                [this](Ptr<const Packet>, Time d) { fastUs.push_back(d.GetMicroSeconds()); }));
        router->TraceConnectWithoutContext(
            "SlowPath",
            Callback<void, Ptr<const Packet>, Time>(
                [this](Ptr<const Packet>, Time d) { slowUs.push_back(d.GetMicroSeconds()); }));
        tx = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        // A socket at the sink, or the sink would answer with ICMP port unreachable.
        sink = Socket::CreateSocket(nodes.Get(2), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    }

    /**
     * Send n datagrams now.
     * @param n how many
     * @param to destination
     */
    void Burst(uint32_t n, Ipv4Address to)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            tx->SendTo(Create<Packet>(100), 0, InetSocketAddress(to, 9));
        }
    }
};

} // namespace

/**
 * @ingroup testbed-tests
 * A burst into the slow path's bounded queue against a hand computation.
 */
class RouterSlowPathTestCase : public TestCase
{
  public:
    RouterSlowPathTestCase()
        : TestCase("CacheRouter: slow-path burst, queue limit and drops by hand")
    {
    }

  private:
    void DoRun() override
    {
        // f = 10 us at interrupt level, s = 100 us in the process, queue of 4.
        const double f = 10;
        const double s = 100;
        const uint32_t q = 4;
        const uint32_t n = 10;
        RouterLine line(f, s, q, "Output");
        line.router->SetCacheEnabled(2, false); // the sink's interface: everything slow
        // A first datagram resolves ARP on both hops; the burst arrives at one instant.
        Simulator::Schedule(MilliSeconds(10), [&]() { line.Burst(1, line.sinkAddr); });
        Simulator::Schedule(MilliSeconds(100), [&]() { line.Burst(n, line.sinkAddr); });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        // Hand computation for the burst: the n interrupt-level items run back to back (they
        // preempt the process), the k-th ends at k f; it finds k-1 packets in the queue (none
        // has left: the process only gets the CPU after the last interrupt item), so packets
        // 1..q enter and q+1..n are dropped. The process then serves them from n f on:
        // packet k leaves at n f + k s.
        NS_TEST_ASSERT_MSG_EQ(line.slowUs.size(), 1u + q, "warm-up packet and q packets");
        NS_TEST_EXPECT_MSG_EQ_TOL(line.slowUs[0], f + s, 1, "a lone packet: f + s");
        for (uint32_t k = 1; k <= q; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(line.slowUs[k], n * f + k * s, 1, "packet " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(line.router->GetQueueDrops(), n - q, "drops");
        NS_TEST_EXPECT_MSG_EQ(line.router->GetMaxQueue(), q, "queue peak");
        NS_TEST_EXPECT_MSG_EQ(line.fastUs.size(), 0u, "no fast path with the cache off");
        NS_TEST_EXPECT_MSG_EQ(line.router->GetCache(2)->GetFills(),
                              0u,
                              "a cache off is not filled");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * A hit after a fill takes the fast path; the two readings of "the interface's cache".
 */
class RouterCacheSideTestCase : public TestCase
{
  public:
    /** @param side "Output" or "Input" */
    RouterCacheSideTestCase(std::string side)
        : TestCase("CacheRouter: fill then hit, cache side " + side)
        , m_side(side)
    {
    }

  private:
    void DoRun() override
    {
        const double f = 10;
        const double s = 100;
        RouterLine line(f, s, 75, m_side);
        // Interfaces: 1 = source side (input), 2 = sink side (output).
        const uint32_t used = m_side == "Output" ? 2 : 1;
        const uint32_t other = 3 - used;
        Simulator::Schedule(MilliSeconds(10), [&]() { line.Burst(1, line.sinkAddr); });
        Simulator::Schedule(MilliSeconds(20), [&]() { line.Burst(1, line.sinkAddr); });
        // Switching the other interface's cache off changes nothing; this one's does.
        Simulator::Schedule(MilliSeconds(25),
                            [&]() { line.router->SetCacheEnabled(other, false); });
        Simulator::Schedule(MilliSeconds(30), [&]() { line.Burst(1, line.sinkAddr); });
        Simulator::Schedule(MilliSeconds(35), [&]() { line.router->SetCacheEnabled(used, false); });
        Simulator::Schedule(MilliSeconds(40), [&]() { line.Burst(1, line.sinkAddr); });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(line.slowUs.size(), 2u, "miss (fill) and cache off");
        NS_TEST_ASSERT_MSG_EQ(line.fastUs.size(), 2u, "two hits");
        NS_TEST_EXPECT_MSG_EQ_TOL(line.fastUs[0], f, 0.5, "a hit costs f");
        NS_TEST_EXPECT_MSG_EQ_TOL(line.slowUs[1], f + s, 0.5, "cache off: f + s");
        Ptr<RouteCache> c = line.router->GetCache(used);
        NS_TEST_EXPECT_MSG_EQ(c->GetFills(), 1u, "one fill in the " + m_side + " cache");
        NS_TEST_EXPECT_MSG_EQ(c->GetHits(), 2u, "two hits there");
        NS_TEST_EXPECT_MSG_EQ(c->GetMisses(), 1u, "one miss there");
        NS_TEST_EXPECT_MSG_EQ(line.router->GetCache(other)->GetFills(), 0u, "the other is unused");
        Simulator::Destroy();
    }

    std::string m_side; //!< CacheSide
};

/**
 * @ingroup testbed-tests
 * The router suite.
 */
class RouterTestSuite : public TestSuite
{
  public:
    RouterTestSuite()
        : TestSuite("testbed-router", Type::UNIT)
    {
        AddTestCase(new RouteCacheAccountingTestCase, Duration::QUICK);
        AddTestCase(new RouterSlowPathTestCase, Duration::QUICK);
        AddTestCase(new RouterCacheSideTestCase("Output"), Duration::QUICK);
        AddTestCase(new RouterCacheSideTestCase("Input"), Duration::QUICK);
    }
};

static RouterTestSuite g_routerTestSuite; //!< static instance
