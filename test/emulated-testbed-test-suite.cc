/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The [JAXA06] testbed (host A -- emulator router -- host B) end to end: arrival times at the
 * hosts against hand computations of Ethernet serialisation, the emulator's rate stage and delay,
 * and its timer; half- versus full-duplex links.
 *
 * Hand-computation constants (100 Mbit/s: one byte-time = 80 ns; cable 50 ns):
 * - a 1000-byte IP packet occupies the wire (1000 + 38) * 80 = 83040 ns, and its last bit
 *   arrives (1000 + 26) * 80 + 50 = 82130 ns after its first bit left;
 * - a 100-byte IP packet: occupancy 138 * 80 = 11040 ns, latency 126 * 80 + 50 = 10130 ns;
 * - a 1-octet payload is padded to 46 (IEEE 802.3 4.2.3.3): a 64-octet frame, occupancy
 *   (8 + 64 + 12) * 80 = 6720 ns, latency (8 + 64) * 80 + 50 = 5810 ns.
 */

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/emulated-testbed-helper.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/link-emulator-queue-disc.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/tick-timer.h"
#include "ns3/timer-model.h"
#include "ns3/udp-socket-factory.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

using namespace ns3;

namespace
{

/**
 * @ingroup testbed-tests
 * UDP traffic between the testbed's hosts: trains of equal packets sent in one instant, and the
 * arrival time of every packet.
 */
class Traffic
{
  public:
    /**
     * Open a receiving socket on port 9 of @p node.
     * @param node the receiver
     * @return the arrival times (filled during the run)
     */
    std::vector<Time>* Receiver(Ptr<Node> node)
    {
        Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        s->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        m_arrivals.push_back(std::make_unique<std::vector<Time>>());
        std::vector<Time>* times = m_arrivals.back().get();
        s->SetRecvCallback(MakeBoundCallback(&Traffic::Receive, times));
        m_sockets.push_back(s);
        return times;
    }

    /**
     * Send @p n UDP packets of @p ipSize bytes (IP size) from @p from to @p to at time @p at.
     * @param from sender
     * @param to destination address
     * @param n number of packets
     * @param ipSize IP packet size (>= 28)
     * @param at send time
     */
    void Train(Ptr<Node> from, Ipv4Address to, uint32_t n, uint32_t ipSize, Time at)
    {
        Ptr<Socket> s = Socket::CreateSocket(from, UdpSocketFactory::GetTypeId());
        s->Connect(InetSocketAddress(to, 9));
        m_sockets.push_back(s);
        Simulator::Schedule(at, [s, n, ipSize]() {
            for (uint32_t i = 0; i < n; ++i)
            {
                s->Send(Create<Packet>(ipSize - 28));
            }
        });
    }

  private:
    /**
     * Record arrivals.
     * @param times where
     * @param s the socket
     */
    static void Receive(std::vector<Time>* times, Ptr<Socket> s)
    {
        while (s->Recv())
        {
            times->push_back(Simulator::Now());
        }
    }

    std::vector<Ptr<Socket>> m_sockets;                         //!< sockets in use
    std::vector<std::unique_ptr<std::vector<Time>>> m_arrivals; //!< arrival records
};

} // namespace

/**
 * @ingroup testbed-tests
 * Without impairment: Ethernet framing on both hops, in both directions.
 */
class TestbedEthernetTestCase : public TestCase
{
  public:
    TestbedEthernetTestCase()
        : TestCase("EmulatedTestbed: 100BASE-TX framing, full and half duplex, one way")
    {
    }

  private:
    void DoRun() override
    {
        for (auto duplex : {EthernetLinkHelper::FULL_DUPLEX, EthernetLinkHelper::HALF_DUPLEX})
        {
            EmulatedTestbedHelper helper;
            helper.SetDuplex(duplex);
            EmulatedTestbed t = helper.Install();
            helper.AssignStreams(t, 10);
            Traffic traffic;
            std::vector<Time>* atB = traffic.Receiver(t.hostB);
            std::vector<Time>* atA = traffic.Receiver(t.hostA);
            traffic.Train(t.hostA, t.hostBAddress, 10, 1000, Seconds(1));
            traffic.Train(t.hostB, t.hostAAddress, 1, 1000, Seconds(2));
            Simulator::Run();
            const char* mode = duplex == EthernetLinkHelper::FULL_DUPLEX ? "full" : "half";
            NS_TEST_ASSERT_MSG_EQ(atB->size(), 10, mode << ": all arrive at B");
            for (int k = 0; k < 10; ++k)
            {
                // Back to back on both hops: start k * 83040 ns, two hops of 82130 ns.
                NS_TEST_ASSERT_MSG_EQ((*atB)[k],
                                      Seconds(1) + NanoSeconds(k * 83040 + 2 * 82130),
                                      mode << ": arrival " << k);
            }
            NS_TEST_ASSERT_MSG_EQ(atA->size(), 1, mode << ": B -> A");
            NS_TEST_ASSERT_MSG_EQ((*atA)[0], Seconds(2) + NanoSeconds(2 * 82130), mode);
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * EthernetLinkHelper's full-duplex link pads a short frame to the 64-octet minimum: a 1-octet
 * payload arrives after the 64-octet frame and its preamble plus the cable delay, and the next
 * frame behind it a whole minimum frame time (with the gap) later.
 */
class LinkMinimumFrameTestCase : public TestCase
{
  public:
    LinkMinimumFrameTestCase()
        : TestCase("EthernetLinkHelper: full duplex, a 1-octet payload takes a 64-octet frame time")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        EthernetLinkHelper link; // 100 Mbit/s, 50 ns of cable
        NetDeviceContainer d = link.Install(a, b);
        std::vector<Time> at;
        std::vector<uint32_t> sizes;
        d.Get(1)->SetReceiveCallback(NetDevice::ReceiveCallback(
            [&at, &sizes](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&) {
                at.push_back(Simulator::Now());
                sizes.push_back(p->GetSize());
                return true;
            }));
        Simulator::Schedule(Seconds(1), [&]() {
            for (int k = 0; k < 2; ++k)
            {
                d.Get(0)->Send(Create<Packet>(1), d.Get(1)->GetAddress(), 0x0800);
            }
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(at.size(), 2u, "both frames arrive");
        // (8 preamble/SFD + 64 frame) octets x 80 ns + 50 ns of cable.
        NS_TEST_EXPECT_MSG_EQ(at[0], Seconds(1) + NanoSeconds(72 * 80 + 50), "first frame");
        // Behind it by (8 + 64 + 12) octet times.
        NS_TEST_EXPECT_MSG_EQ(at[1] - at[0], NanoSeconds(84 * 80), "second frame");
        NS_TEST_EXPECT_MSG_EQ(sizes[0], 46u, "the payload arrives with its padding");
    }
};

/**
 * @ingroup testbed-tests
 * The emulator on the A -> B path: NIST Net overlaps rate and delay, netem adds them; the B -> A
 * direction has its own (here empty) settings.
 */
class TestbedSemanticsTestCase : public TestCase
{
  public:
    TestbedSemanticsTestCase()
        : TestCase("EmulatedTestbed: 1 Mbps + 50 ms trains under NistNet and Netem")
    {
    }

  private:
    void DoRun() override
    {
        for (bool nistNet : {true, false})
        {
            EmulatedTestbedHelper helper;
            helper.SetEmulatorAttribute(LinkEmulatorHelper::A_TO_B,
                                        "Rate",
                                        DataRateValue(DataRate("1Mbps")));
            helper.SetEmulatorAttribute(LinkEmulatorHelper::A_TO_B,
                                        "Delay",
                                        TimeValue(MilliSeconds(50)));
            helper.SetEmulatorAttribute("Semantics",
                                        EnumValue(nistNet ? LinkEmulatorQueueDisc::NIST_NET
                                                          : LinkEmulatorQueueDisc::NETEM));
            EmulatedTestbed t = helper.Install();
            Traffic traffic;
            std::vector<Time>* atB = traffic.Receiver(t.hostB);
            std::vector<Time>* atA = traffic.Receiver(t.hostA);
            traffic.Train(t.hostA, t.hostBAddress, 10, 1000, Seconds(1));
            traffic.Train(t.hostB, t.hostAAddress, 1, 1000, Seconds(1));
            Simulator::Run();

            // Arrival at the emulator: a_k = 1 s + 82130 ns + k * 83040 ns. Rate stage: 1000 B
            // at 1 Mbps = 8 ms, busy from a_0: txEnd_k = a_0 + 8 (k + 1) ms.
            // NistNet: release = max(txEnd_k, a_k + 50 ms): the delay for k <= 5 (48 ms <
            //   50.415 ms), the rate stage from k = 6 (56 ms > 50.498 ms).
            // Netem: release = txEnd_k + 50 ms.
            // The hop to B adds 82130 ns (the wire is free: releases are >= 83040 ns apart).
            const Time a0 = Seconds(1) + NanoSeconds(82130);
            const char* name = nistNet ? "NistNet" : "Netem";
            NS_TEST_ASSERT_MSG_EQ(atB->size(), 10, name << ": all arrive");
            for (int k = 0; k < 10; ++k)
            {
                Time release;
                if (nistNet)
                {
                    release = k <= 5 ? a0 + NanoSeconds(k * 83040) + MilliSeconds(50)
                                     : a0 + MilliSeconds(8 * (k + 1));
                }
                else
                {
                    release = a0 + MilliSeconds(8 * (k + 1) + 50);
                }
                NS_TEST_ASSERT_MSG_EQ((*atB)[k],
                                      release + NanoSeconds(82130),
                                      name << ": arrival " << k);
            }
            // B -> A is not emulated.
            NS_TEST_ASSERT_MSG_EQ(atA->size(), 1, "B -> A");
            NS_TEST_ASSERT_MSG_EQ((*atA)[0], Seconds(1) + NanoSeconds(2 * 82130), "B -> A");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * Half duplex shares the medium between the two directions, full duplex does not.
 */
class TestbedDuplexTestCase : public TestCase
{
  public:
    TestbedDuplexTestCase()
        : TestCase("EmulatedTestbed: bidirectional traffic, half versus full duplex")
    {
    }

  private:
    /**
     * Both hosts send @p n packets of 1000 B to each other at 1 s.
     * @param duplex the duplex mode
     * @param n packets per direction
     * @return the time after 1 s at which the last packet arrived
     */
    static Time Exchange(EthernetLinkHelper::Duplex duplex, uint32_t n)
    {
        EmulatedTestbedHelper helper;
        helper.SetDuplex(duplex);
        EmulatedTestbed t = helper.Install();
        helper.AssignStreams(t, 20);
        Traffic traffic;
        std::vector<Time>* atB = traffic.Receiver(t.hostB);
        std::vector<Time>* atA = traffic.Receiver(t.hostA);
        traffic.Train(t.hostA, t.hostBAddress, n, 1000, Seconds(1));
        traffic.Train(t.hostB, t.hostAAddress, n, 1000, Seconds(1));
        Simulator::Run();
        Time last = std::max(atA->empty() ? Seconds(0) : atA->back(),
                             atB->empty() ? Seconds(0) : atB->back());
        bool all = atA->size() == n && atB->size() == n;
        Simulator::Destroy();
        return all ? last - Seconds(1) : Seconds(-1);
    }

    void DoRun() override
    {
        const uint32_t n = 20;
        Time full = Exchange(EthernetLinkHelper::FULL_DUPLEX, n);
        Time half = Exchange(EthernetLinkHelper::HALF_DUPLEX, n);
        // Full duplex: each direction as if alone, (n - 1) * 83040 + 2 * 82130 ns.
        NS_TEST_ASSERT_MSG_EQ(full, NanoSeconds((n - 1) * 83040 + 2 * 82130), "full duplex");
        // Half duplex: each segment carries 2n frames of 1018 B (81440 ns each) one after the
        // other, so the last arrival is at least 2n * 81440 ns; deferring and backoff add
        // some frame times.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(half, NanoSeconds(2 * n * 81440), "half duplex shares");
        NS_TEST_ASSERT_MSG_LT(half, NanoSeconds((2 * n + 20) * 83040), "half duplex bounded");
    }
};

/**
 * @ingroup testbed-tests
 * A coarse emulator timer releases a burst larger than the device queue and the queue disc's
 * quota; it leaves back to back, nothing is lost.
 */
class TestbedTimerBurstTestCase : public TestCase
{
  public:
    TestbedTimerBurstTestCase()
        : TestCase("EmulatedTestbed: 100 Hz emulator timer, burst of 300 packets")
    {
    }

  private:
    void DoRun() override
    {
        EmulatedTestbedHelper helper;
        Ptr<TickTimer> tick = CreateObject<TickTimer>();
        tick->SetAttribute("Frequency", DoubleValue(100));
        helper.SetEmulatorAttribute("Timer", PointerValue(tick));
        helper.SetEmulatorAttribute("Delay", TimeValue(MilliSeconds(10)));
        // A folder of its own, removed when the test ends whatever happens (ns-3's
        // CreateTempDirFilename leaves an ns-3.* folder of pcap files in the temp dir).
        std::string folder
            = (std::filesystem::temp_directory_path() / "testbed-pcap-XXXXXX").string();
        NS_TEST_ASSERT_MSG_NE(mkdtemp(folder.data()), nullptr, "a temporary folder");

        struct Remove
        {
            std::string path; //!< the folder

            ~Remove()
            {
                std::error_code ec;
                std::filesystem::remove_all(path, ec);
            }
        } removeAtEnd{folder};

        const std::string pcap = folder + "/testbed";
        helper.EnablePcap(pcap);
        EmulatedTestbed t = helper.Install();
        Traffic traffic;
        std::vector<Time>* atB = traffic.Receiver(t.hostB);
        traffic.Train(t.hostA, t.hostBAddress, 300, 100, Seconds(1));
        Simulator::Run();
        // Arrivals at the emulator 1 s + 10130 + k * 11040 ns (k < 300: before 1.0034 s);
        // releases 10 ms later, all before the tick at 1.02 s, which releases all 300; they
        // leave back to back: 1.02 s + k * 11040 + 10130 ns.
        NS_TEST_ASSERT_MSG_EQ(atB->size(), 300, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(t.aToB->GetStats().nTotalDroppedPackets, 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(t.aToB->GetNTimerFirings(), 1, "one firing");
        for (uint32_t k = 0; k < atB->size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ((*atB)[k],
                                  MilliSeconds(1020) + NanoSeconds(k * 11040 + 10130),
                                  "arrival " << k);
        }
        Simulator::Destroy();
        // pcap of host B's device (node 2, device 0): global header + 300 records.
        NS_TEST_ASSERT_MSG_EQ(t.hostB->GetId(), 2, "node ids in the order A, emulator, B");
        std::ifstream f(pcap + "-2-0.pcap", std::ios::binary | std::ios::ate);
        NS_TEST_ASSERT_MSG_EQ(f.good(), true, "pcap written");
        NS_TEST_ASSERT_MSG_GT(static_cast<int64_t>(f.tellg()), 300 * 100, "pcap holds the packets");
    }
};

/**
 * @ingroup testbed-tests
 * The same seed and run give identical arrivals at the hosts (random impairments, CSMA
 * backoff).
 */
class TestbedDeterminismTestCase : public TestCase
{
  public:
    TestbedDeterminismTestCase()
        : TestCase("EmulatedTestbed: same seed and run => identical arrivals")
    {
    }

  private:
    /**
     * One run.
     * @param run RngRun
     * @return arrival times at A and B (ns)
     */
    static std::vector<int64_t> OneRun(uint64_t run)
    {
        RngSeedManager::SetSeed(5);
        RngSeedManager::SetRun(run);
        EmulatedTestbedHelper helper;
        helper.SetDuplex(EthernetLinkHelper::HALF_DUPLEX);
        helper.SetEmulatorAttribute("Rate", DataRateValue(DataRate("10Mbps")));
        helper.SetEmulatorAttribute("Delay", TimeValue(MilliSeconds(5)));
        helper.SetEmulatorAttribute("Jitter", TimeValue(MilliSeconds(2)));
        helper.SetEmulatorAttribute("DelayDistribution", StringValue("Normal"));
        helper.SetEmulatorAttribute("LossProbability", DoubleValue(0.02));
        helper.SetEmulatorAttribute("DuplicateProbability", DoubleValue(0.02));
        EmulatedTestbed t = helper.Install();
        helper.AssignStreams(t, 0);
        Traffic traffic;
        std::vector<Time>* atB = traffic.Receiver(t.hostB);
        std::vector<Time>* atA = traffic.Receiver(t.hostA);
        for (int i = 0; i < 20; ++i)
        {
            traffic.Train(t.hostA, t.hostBAddress, 10, 500, Seconds(1) + MilliSeconds(10 * i));
            traffic.Train(t.hostB, t.hostAAddress, 10, 700, Seconds(1) + MilliSeconds(10 * i));
        }
        Simulator::Run();
        std::vector<int64_t> out;
        for (const auto* v : {atA, atB})
        {
            for (Time x : *v)
            {
                out.push_back(x.GetNanoSeconds());
            }
            out.push_back(-1);
        }
        Simulator::Destroy();
        return out;
    }

    void DoRun() override
    {
        auto a = OneRun(1);
        auto b = OneRun(1);
        auto c = OneRun(2);
        NS_TEST_ASSERT_MSG_GT(a.size(), 300, "traffic flowed");
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "identical for the same run");
        NS_TEST_ASSERT_MSG_EQ((a == c), false, "different for another run");
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
    }
};

/**
 * @ingroup testbed-tests
 * The emulated-testbed suite.
 */
class EmulatedTestbedTestSuite : public TestSuite
{
  public:
    EmulatedTestbedTestSuite()
        : TestSuite("testbed-emulated-testbed", Type::SYSTEM)
    {
        AddTestCase(new TestbedEthernetTestCase, Duration::QUICK);
        AddTestCase(new LinkMinimumFrameTestCase, Duration::QUICK);
        AddTestCase(new TestbedSemanticsTestCase, Duration::QUICK);
        AddTestCase(new TestbedDuplexTestCase, Duration::QUICK);
        AddTestCase(new TestbedTimerBurstTestCase, Duration::QUICK);
        AddTestCase(new TestbedDeterminismTestCase, Duration::QUICK);
    }
};

static EmulatedTestbedTestSuite g_emulatedTestbedTestSuite; //!< static instance
