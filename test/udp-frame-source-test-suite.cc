/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <cmath>

/**
 * @file
 * @ingroup testbed
 * UdpFrameSource, the load that runs no host stack: its timing (a periodic source's datagrams
 * at start + k/Rate, a Poisson source's count within the Poisson law), the headers ns-3's stack
 * would write (TTL by destination, an identification that counts, the ports, the payload's head
 * and zeros) and its count (what the adapter accepted, no more: conservation across a link that
 * cannot carry the rate).
 */

using namespace ns3;

namespace
{

/** Two nodes on a SimpleChannel, a UdpFrameSource on the first, a recorder on the second. */
struct Bench
{
    Ptr<Node> a;                                        //!< the source's node
    Ptr<Node> b;                                        //!< the far node
    Ptr<SimpleNetDevice> da;                            //!< a's device
    Ptr<SimpleNetDevice> db;                            //!< b's device
    Ptr<UdpFrameSource> source;                         //!< the source
    std::vector<std::pair<Time, Ptr<Packet>>> received; //!< what b's device received

    /**
     * @param rate the far device's data rate ("0bps": no serialisation time)
     * @param queue the source device's queue size
     */
    Bench(const std::string& rate, const std::string& queue)
    {
        a = CreateObject<Node>();
        b = CreateObject<Node>();
        Ptr<SimpleChannel> ch = CreateObject<SimpleChannel>();
        da = CreateObject<SimpleNetDevice>();
        db = CreateObject<SimpleNetDevice>();
        da->SetAttribute("DataRate", DataRateValue(DataRate(rate)));
        Ptr<DropTailQueue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
        q->SetAttribute("MaxSize", QueueSizeValue(QueueSize(queue)));
        da->SetQueue(q);
        for (auto [n, d] : {std::pair{a, da}, std::pair{b, db}})
        {
            d->SetAddress(Mac48Address::Allocate());
            d->SetChannel(ch);
            n->AddDevice(d);
        }
        db->SetReceiveCallback(
            [this](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address&) {
                NS_ASSERT(protocol == Ipv4L3Protocol::PROT_NUMBER);
                received.emplace_back(Simulator::Now(), p->Copy());
                return true;
            });
        source = CreateObject<UdpFrameSource>();
        a->AddApplication(source);
    }
};

/** A periodic source to a unicast address: times, headers, payload. */
class PeriodicUnicastTest : public TestCase
{
  public:
    PeriodicUnicastTest()
        : TestCase("periodic: a datagram at the start and every period, with the stack's headers")
    {
    }

  private:
    void DoRun() override
    {
        Bench t("0bps", "100p");
        t.source->SetAttribute("Rate", DoubleValue(1000));
        t.source->SetAttribute("PacketSize", UintegerValue(100));
        t.source->SetAttribute("SourcePort", UintegerValue(5000));
        t.source->SetAttribute("DestinationPort", UintegerValue(6000));
        t.source->SetTarget(t.da, t.db->GetAddress(), "10.0.0.1", "10.0.0.2");
        t.source->SetStartTime(Seconds(1));
        t.source->SetStopTime(MicroSeconds(1009500));
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        // 1.000, 1.001, ..., 1.009 s: ten datagrams before the stop at 1.0095 s
        NS_TEST_ASSERT_MSG_EQ(t.received.size(), 10, "datagrams received");
        NS_TEST_ASSERT_MSG_EQ(t.source->GetSent(), 10, "datagrams counted as sent");
        for (uint32_t k = 0; k < t.received.size(); ++k)
        {
            auto [at, p] = t.received[k];
            NS_TEST_ASSERT_MSG_EQ(at, Seconds(1) + MilliSeconds(k), "datagram " << k << "'s time");
            NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 20 + 8 + 100, "IPv4 + UDP + PacketSize");
            Ipv4Header ip;
            p->RemoveHeader(ip);
            NS_TEST_ASSERT_MSG_EQ(ip.GetTtl(), 64, "unicast: Linux's ip_default_ttl");
            NS_TEST_ASSERT_MSG_EQ(ip.GetIdentification(), k, "the identification counts");
            NS_TEST_ASSERT_MSG_EQ(ip.GetProtocol(), UdpL4Protocol::PROT_NUMBER, "UDP");
            NS_TEST_ASSERT_MSG_EQ(ip.GetSource(), Ipv4Address("10.0.0.1"), "source");
            NS_TEST_ASSERT_MSG_EQ(ip.GetDestination(), Ipv4Address("10.0.0.2"), "destination");
            NS_TEST_ASSERT_MSG_EQ(ip.IsDontFragment(), false, "may fragment");
            NS_TEST_ASSERT_MSG_EQ(ip.GetPayloadSize(), 108, "IPv4 payload length");
            UdpHeader udp;
            p->RemoveHeader(udp);
            NS_TEST_ASSERT_MSG_EQ(udp.GetSourcePort(), 5000, "source port");
            NS_TEST_ASSERT_MSG_EQ(udp.GetDestinationPort(), 6000, "destination port");
            std::vector<uint8_t> data(p->GetSize());
            p->CopyData(data.data(), data.size());
            NS_TEST_ASSERT_MSG_EQ(size_t(std::count(data.begin(), data.end(), 0)), 100, "zeros");
        }
        Simulator::Destroy();
    }
};

/** A Poisson source to a multicast group with a payload head. */
class PoissonMulticastTest : public TestCase
{
  public:
    PoissonMulticastTest()
        : TestCase("Poisson: a count within the Poisson law, TTL 1 to a group, the payload head")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        Bench t("0bps", "100p");
        const Ipv4Address group("239.1.0.2");
        t.source->SetAttribute("Rate", DoubleValue(10000));
        t.source->SetAttribute("Poisson", BooleanValue(true));
        t.source->SetAttribute("PacketSize", UintegerValue(72));
        t.source->AssignStreams(7);
        SendUdpHeader head;
        head.SetNodeId(0xffffffff);
        Ptr<Packet> payload = Create<Packet>();
        payload->AddHeader(head);
        t.source->SetPayload(payload);
        t.source->SetTarget(t.da, t.da->GetMulticast(group), "10.0.0.1", group);
        t.source->SetStartTime(Seconds(1));
        t.source->SetStopTime(Seconds(2));
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        // 10 000 expected in the second; the Poisson law's sd is 100: within 5 sd
        const double n = t.received.size();
        NS_TEST_ASSERT_MSG_EQ_TOL(n, 10000.0, 500.0, "datagrams in one second at 10 000/s");
        NS_TEST_ASSERT_MSG_EQ(t.source->GetSent(), t.received.size(), "sent = received");
        NS_TEST_ASSERT_MSG_GT(t.received.front().first, Seconds(1), "first after one gap");
        // Exponential gaps: the standard deviation equals the mean (within 5 %)
        double sum = 0;
        double sum2 = 0;
        for (size_t k = 1; k < t.received.size(); ++k)
        {
            const double g = (t.received[k].first - t.received[k - 1].first).GetSeconds();
            sum += g;
            sum2 += g * g;
        }
        const double m = sum / (n - 1);
        const double sd = std::sqrt(sum2 / (n - 1) - m * m);
        NS_TEST_ASSERT_MSG_EQ_TOL(sd / m, 1.0, 0.05, "an exponential gap's sd over its mean");
        Ptr<Packet> p = t.received.back().second;
        Ipv4Header ip;
        p->RemoveHeader(ip);
        NS_TEST_ASSERT_MSG_EQ(ip.GetTtl(), 1, "to a group: RFC 1112's default TTL");
        NS_TEST_ASSERT_MSG_EQ(ip.GetIdentification(), uint16_t(t.received.size() - 1), "counts");
        UdpHeader udp;
        p->RemoveHeader(udp);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 72, "PacketSize octets of payload");
        SendUdpHeader got;
        p->RemoveHeader(got);
        NS_TEST_ASSERT_MSG_EQ(got.GetNodeId(), 0xffffffff, "the head's node id");
        std::vector<uint8_t> rest(p->GetSize());
        p->CopyData(rest.data(), rest.size());
        NS_TEST_ASSERT_MSG_EQ(rest.size(), 72 - SendUdpHeader::SIZE, "the rest");
        NS_TEST_ASSERT_MSG_EQ(size_t(std::count(rest.begin(), rest.end(), 0)),
                              rest.size(),
                              "zeros");
        Simulator::Destroy();
    }
};

/** A link that cannot carry the rate: the count is what the adapter accepted. */
class RefusedTest : public TestCase
{
  public:
    RefusedTest()
        : TestCase("a datagram the adapter refuses is not counted: sent = carried")
    {
    }

  private:
    void DoRun() override
    {
        // 128-octet datagrams at 1 000/s offered to 102.4 kbit/s, which carries 100 a second
        Bench t("102400bps", "2p");
        t.source->SetAttribute("Rate", DoubleValue(1000));
        t.source->SetAttribute("PacketSize", UintegerValue(100));
        t.source->SetTarget(t.da, t.db->GetAddress(), "10.0.0.1", "10.0.0.2");
        t.source->SetStartTime(Seconds(0));
        t.source->SetStopTime(Seconds(1));
        Simulator::Stop(Seconds(2)); // the queue drains after the stop
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t.source->GetSent(), t.received.size(), "sent = carried");
        NS_TEST_ASSERT_MSG_EQ_TOL(double(t.received.size()), 100.0, 3.0, "what the link carries");
        Simulator::Destroy();
    }
};

/** The suite. */
class UdpFrameSourceTestSuite : public TestSuite
{
  public:
    UdpFrameSourceTestSuite()
        : TestSuite("testbed-udp-frame-source", Type::UNIT)
    {
        AddTestCase(new PeriodicUnicastTest, Duration::QUICK);
        AddTestCase(new PoissonMulticastTest, Duration::QUICK);
        AddTestCase(new RefusedTest, Duration::QUICK);
    }
};

/** The suite's instance. */
UdpFrameSourceTestSuite g_udpFrameSourceTestSuite;

} // namespace
