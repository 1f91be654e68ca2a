/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The lean full-duplex Ethernet link (FullDuplexEthernetNetDevice) against hand-computed wire
 * times (IEEE 802.3: preamble and SFD 8 octets, header 14, payload padded to 46, FCS 4, gap 96
 * bit times), the drop-tail rule, the independence of the two directions, and the module's
 * 802.3 device in full duplex (EthernetNetDevice) on the same traffic; frame descriptors
 * (FrameTemplate) against the octets and timing of the same frames as ns-3 Packets.
 */

#include "udp-datagram-octets.h"

#include "ns3/data-rate.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/frame-descriptor.h"
#include "ns3/full-duplex-ethernet-helper.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/node-container.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

/** Arrival times and sizes of the frames a device passes up. */
struct Sink
{
    std::vector<int64_t> times;  //!< arrival times (ns)
    std::vector<uint32_t> sizes; //!< payload sizes

    /**
     * The device's receive callback.
     * @param p the payload
     * @return true
     */
    bool Rx(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
    {
        times.push_back(Simulator::Now().GetNanoSeconds());
        sizes.push_back(p->GetSize());
        return true;
    }

    /**
     * Listen to a device.
     * @param d the device
     */
    void Listen(Ptr<NetDevice> d)
    {
        d->SetReceiveCallback(MakeCallback(&Sink::Rx, this));
    }
};

/**
 * A full-duplex link between two new nodes.
 * @param rate the rate
 * @param queue MaxQueueFrames
 * @param delay the cable's delay
 * @return the two devices
 */
NetDeviceContainer
Link(const std::string& rate, uint32_t queue = 100, Time delay = Seconds(0))
{
    NodeContainer n(2);
    FullDuplexEthernetHelper eth;
    eth.SetDeviceAttribute("DataRate", StringValue(rate));
    eth.SetDeviceAttribute("MaxQueueFrames", UintegerValue(queue));
    eth.SetChannelAttribute("Delay", TimeValue(delay));
    return eth.Install(n.Get(0), n.Get(1));
}

/**
 * Schedule a send of a payload of some octets.
 * @param at when
 * @param dev the device
 * @param octets the payload size
 * @param uid if not null, the packet's uid is appended here
 */
void
SendAt(Time at, Ptr<NetDevice> dev, uint32_t octets, std::vector<uint64_t>* uid = nullptr)
{
    Simulator::Schedule(at, [dev, octets, uid]() {
        Ptr<Packet> p = Create<Packet>(octets);
        if (uid)
        {
            uid->push_back(p->GetUid());
        }
        dev->Send(p, Mac48Address::GetBroadcast(), 0x0800);
    });
}

} // namespace

/**
 * @ingroup testbed-tests
 * Back-to-back frames at 1 Gbit/s and 100 Mbit/s, hand-computed: a 100-octet IP datagram is a
 * 118-octet frame; its last bit arrives (8 + 118) x 8 = 1 008 bit times after its first left,
 * the next frame starts 96 bit times later (1 104 bit times apart: 1.104 us at 1 Gbit/s); a
 * 28-octet payload is padded to a 64-octet frame (72 x 8 = 576 bit times); the cable's delay is
 * added.
 */
class FullDuplexTimingTestCase : public TestCase
{
  public:
    FullDuplexTimingTestCase()
        : TestCase("full-duplex Ethernet: back-to-back frames, hand-computed wire times")
    {
    }

  private:
    void DoRun() override
    {
        for (auto [rate, bitNs] : {std::pair{"1Gbps", 1}, std::pair{"100Mbps", 10}})
        {
            NetDeviceContainer d = Link(rate, 100, NanoSeconds(500));
            Sink sink;
            sink.Listen(d.Get(1));
            // Three 100-octet datagrams and a 28-octet one at t = 1 us, one more at 100 us.
            for (uint32_t octets : {100u, 100u, 100u, 28u})
            {
                SendAt(MicroSeconds(1), d.Get(0), octets);
            }
            SendAt(MicroSeconds(100), d.Get(0), 100);
            Simulator::Run();
            const int64_t t0 = 1000;
            const std::vector<int64_t> expected = {
                t0 + 1008 * bitNs + 500,
                t0 + (1104 + 1008) * bitNs + 500,
                t0 + (2 * 1104 + 1008) * bitNs + 500,
                t0 + (3 * 1104 + 576) * bitNs + 500,
                100000 + 1008 * bitNs + 500,
            };
            NS_TEST_ASSERT_MSG_EQ(sink.times.size(), expected.size(), rate << ": frames");
            for (std::size_t i = 0; i < expected.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(sink.times[i], expected[i], rate << ": frame " << i);
            }
            NS_TEST_EXPECT_MSG_EQ(FullDuplexEthernetNetDevice::WireOctets(100), 138u, "wire");
            NS_TEST_EXPECT_MSG_EQ(FullDuplexEthernetNetDevice::WireOctets(28), 84u, "padded");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * The first frame dropped by a full queue (MaxQueueFrames = 2), hand-computed at 1 Gbit/s:
 * five 100-octet datagrams at t = 0: the first is sent at once, the next two wait, the fourth
 * and fifth find two waiting and are dropped. The second leaves the queue when the first
 * frame's last bit has left (1 008 ns): a datagram at 1 007 ns finds the queue still full, one at
 * 1 008 ns finds one frame waiting and is queued; it arrives after the three before it.
 */
class FullDuplexQueueTestCase : public TestCase
{
  public:
    FullDuplexQueueTestCase()
        : TestCase("full-duplex Ethernet: the first frame a full drop-tail queue drops")
    {
    }

  private:
    std::vector<uint64_t> m_dropped; //!< uids of dropped packets

    void Drop(Ptr<const Packet> p)
    {
        m_dropped.push_back(p->GetUid());
    }

    void DoRun() override
    {
        NetDeviceContainer d = Link("1Gbps", 2);
        d.Get(0)->TraceConnectWithoutContext("MacTxDrop",
                                             MakeCallback(&FullDuplexQueueTestCase::Drop, this));
        Sink sink;
        sink.Listen(d.Get(1));
        std::vector<uint64_t> uids;
        for (int i = 0; i < 5; ++i)
        {
            SendAt(Seconds(0), d.Get(0), 100, &uids);
        }
        SendAt(NanoSeconds(1007), d.Get(0), 100, &uids);
        SendAt(NanoSeconds(1008), d.Get(0), 100, &uids);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_dropped.size(), 3u, "three dropped");
        NS_TEST_EXPECT_MSG_EQ(m_dropped[0], uids[3], "the fourth is the first dropped");
        NS_TEST_EXPECT_MSG_EQ(m_dropped[1], uids[4], "then the fifth");
        NS_TEST_EXPECT_MSG_EQ(m_dropped[2], uids[5], "the one at 1 007 ns");
        const std::vector<int64_t> expected = {1008, 1104 + 1008, 2 * 1104 + 1008, 3 * 1104 + 1008};
        NS_TEST_ASSERT_MSG_EQ(sink.times.size(), expected.size(), "four arrive");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sink.times[i], expected[i], "frame " << i);
        }
        auto dev = DynamicCast<FullDuplexEthernetNetDevice>(d.Get(0));
        NS_TEST_EXPECT_MSG_EQ(dev->GetStats().txDrops, 3u, "counted");
        NS_TEST_EXPECT_MSG_EQ(dev->GetStats().txFrames, 4u, "accepted");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * An IGMP report (a 32-octet datagram with the Router Alert option: a 64-octet frame) from a
 * receiver and a data frame (100 octets) from the switch cross a 100 Mbit/s link at the same
 * time, and the report again in the middle of a second data frame: each arrives exactly when it
 * would alone (576 and 1 008 bit times after it was sent), as on a full-duplex link's separate
 * pairs (half-duplex CSMA would make one wait or collide).
 */
class FullDuplexCrossingTestCase : public TestCase
{
  public:
    FullDuplexCrossingTestCase()
        : TestCase("full-duplex Ethernet: a report and a data frame cross without interaction")
    {
    }

  private:
    void DoRun() override
    {
        NetDeviceContainer d = Link("100Mbps");
        Sink atSwitch;
        Sink atHost;
        atSwitch.Listen(d.Get(0));
        atHost.Listen(d.Get(1));
        SendAt(Seconds(0), d.Get(0), 100); // switch -> host, data
        SendAt(Seconds(0), d.Get(1), 32);  // host -> switch, report
        SendAt(MicroSeconds(20), d.Get(0), 100);
        SendAt(MicroSeconds(25), d.Get(1), 32);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(atHost.times.size(), 2u, "data frames");
        NS_TEST_ASSERT_MSG_EQ(atSwitch.times.size(), 2u, "reports");
        NS_TEST_EXPECT_MSG_EQ(atHost.times[0], 10080, "data alone");
        NS_TEST_EXPECT_MSG_EQ(atSwitch.times[0], 5760, "report alone");
        NS_TEST_EXPECT_MSG_EQ(atHost.times[1], 20000 + 10080, "second data");
        NS_TEST_EXPECT_MSG_EQ(atSwitch.times[1], 25000 + 5760, "second report, mid-frame");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Differential: the same traffic (random sizes, Poisson arrivals with bursts; a second run with
 * overflowing bursts) over the lean link and over the module's 802.3 device forced to full duplex
 * with an ns-3 DropTailQueue of the same size: identical arrival times, sizes and drops, in both
 * directions, at 1 Gbit/s and 100 Mbit/s.
 */
class FullDuplexDifferentialTestCase : public TestCase
{
  public:
    FullDuplexDifferentialTestCase()
        : TestCase("full-duplex Ethernet: the same arrival times as EthernetNetDevice in full "
                   "duplex")
    {
    }

  private:
    /// One frame to send.
    struct Send
    {
        int64_t at;      //!< time (ns)
        uint32_t dir;    //!< 0: a -> b, 1: b -> a
        uint32_t octets; //!< payload
    };

    /**
     * Run a schedule over a pair of devices.
     * @param a one end
     * @param b the other
     * @param sends the schedule
     * @return the sinks at b and a, and the drops
     */
    static std::tuple<Sink, Sink, uint64_t> Run(Ptr<NetDevice> a,
                                                Ptr<NetDevice> b,
                                                const std::vector<Send>& sends)
    {
        Sink atB;
        Sink atA;
        atB.Listen(b);
        atA.Listen(a);
        uint64_t drops = 0;
        auto count = [&drops](Ptr<const Packet>) {
            ++drops;
        };
        Callback<void, Ptr<const Packet>> cb(count);
        a->TraceConnectWithoutContext("MacTxDrop", cb);
        b->TraceConnectWithoutContext("MacTxDrop", cb);
        for (const auto& s : sends)
        {
            SendAt(NanoSeconds(s.at), s.dir == 0 ? a : b, s.octets);
        }
        Simulator::Run();
        Simulator::Destroy();
        return {atB, atA, drops};
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(1);
        Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
        gap->SetStream(2);
        for (auto [rate, bitNs] : {std::pair{"1Gbps", 1}, std::pair{"100Mbps", 10}})
        {
            // Poisson traffic both ways, sizes 1-1500, every 50th a burst of 20: no overflow.
            std::vector<Send> sends;
            double t = 0;
            for (int i = 0; i < 3000; ++i)
            {
                t += gap->GetValue(3000.0 * bitNs, 0);
                const uint32_t n = i % 50 == 0 ? 20 : 1;
                for (uint32_t k = 0; k < n; ++k)
                {
                    sends.push_back(
                        {static_cast<int64_t>(t), u->GetInteger(0, 1), u->GetInteger(1, 1500)});
                }
            }
            // Overflow: bursts of 12 into a queue of 4, each burst well after the last drained,
            // and one burst in the middle of the previous one's transmissions (at +2.5 frame
            // times, between frame boundaries).
            std::vector<Send> bursts;
            for (int i = 0; i < 20; ++i)
            {
                const int64_t at = 1000000LL * bitNs * (i + 1);
                for (int k = 0; k < 12; ++k)
                {
                    bursts.push_back({at, 0, 100});
                }
                for (int k = 0; k < 6; ++k)
                {
                    bursts.push_back({at + 2500 * bitNs, 0, 100});
                }
            }
            for (auto [schedule, queue] : {std::pair{&sends, 100000u}, std::pair{&bursts, 4u}})
            {
                NetDeviceContainer lean = Link(rate, queue);
                auto [leanB, leanA, leanDrops] = Run(lean.Get(0), lean.Get(1), *schedule);

                NodeContainer n(2);
                EthernetHelper eth;
                eth.SetDeviceAttribute("DataRate", StringValue(rate));
                eth.SetDeviceAttribute("Duplex", StringValue("ForcedFull"));
                eth.SetQueue("ns3::DropTailQueue<Packet>",
                             "MaxSize",
                             StringValue(std::to_string(queue) + "p"));
                eth.SetCableLength(0);
                NetDeviceContainer ref = eth.Install(n.Get(0), n.Get(1));
                auto [refB, refA, refDrops] = Run(ref.Get(0), ref.Get(1), *schedule);

                NS_TEST_ASSERT_MSG_GT(leanB.times.size(), 100u, rate << ": traffic");
                NS_TEST_EXPECT_MSG_EQ(leanDrops, refDrops, rate << ": drops");
                if (queue == 4)
                {
                    NS_TEST_EXPECT_MSG_GT(leanDrops, 100u, rate << ": the bursts overflow");
                }
                for (auto [x, y] : {std::pair{&leanB, &refB}, std::pair{&leanA, &refA}})
                {
                    NS_TEST_ASSERT_MSG_EQ(x->times.size(), y->times.size(), rate << ": frames");
                    for (std::size_t i = 0; i < x->times.size(); ++i)
                    {
                        NS_TEST_ASSERT_MSG_EQ(x->times[i], y->times[i], rate << ": frame " << i);
                        NS_TEST_ASSERT_MSG_EQ(x->sizes[i], y->sizes[i], rate << ": size " << i);
                    }
                }
            }
        }
    }
};

/**
 * @ingroup testbed-tests
 * A host NIC's transmit fetch (EthernetPort TxFetchDelay, 1 500 ns), hand-computed at 100 Mbit/s
 * on the lean MAC and on EthernetNetDevice in full and in half duplex (one sender: no
 * contention), cable 0. A 100-octet datagram is a 118-octet frame: its last bit 1 008 bit times
 * (10 080 ns) after its start, the next frame 1 104 bit times (11 040 ns) after the start. Three
 * datagrams at t = 1 us: the first starts at 2 500 ns, the second and third back to back behind
 * it (fetched while it was sent): last bits at 12 580, 23 620, 34 660 ns. One at 100 us starts at
 * 101 500 ns (last bit 111 580 ns, the MAC free at 112 540 ns); one at 101 us is fetched by
 * 102 500 ns and follows back to back (last bit 122 620 ns, the MAC free at 123 580 ns); one
 * handed over at 122 500 ns, while that frame is on the wire, waits for its own fetch: it starts
 * at 124 000 ns, its last bit at 134 080 ns.
 */
class TxFetchDelayTestCase : public TestCase
{
  public:
    TxFetchDelayTestCase()
        : TestCase("Ethernet: a host NIC's transmit fetch delays an idle MAC's start, both MACs")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<int64_t> expected = {12580, 23620, 34660, 111580, 122620, 134080};
        for (const std::string mac : {"lean", "ForcedFull", "ForcedHalf"})
        {
            NetDeviceContainer d;
            if (mac == "lean")
            {
                d = Link("100Mbps");
            }
            else
            {
                NodeContainer n(2);
                EthernetHelper eth;
                eth.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
                eth.SetDeviceAttribute("Duplex", StringValue(mac));
                eth.SetCableLength(0);
                d = eth.Install(n.Get(0), n.Get(1));
            }
            d.Get(0)->SetAttribute("TxFetchDelay", TimeValue(NanoSeconds(1500)));
            Sink sink;
            sink.Listen(d.Get(1));
            for (int i = 0; i < 3; ++i)
            {
                SendAt(MicroSeconds(1), d.Get(0), 100);
            }
            SendAt(MicroSeconds(100), d.Get(0), 100);
            SendAt(MicroSeconds(101), d.Get(0), 100);
            SendAt(NanoSeconds(122500), d.Get(0), 100);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(sink.times.size(), expected.size(), mac << ": frames");
            for (std::size_t i = 0; i < expected.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(sink.times[i], expected[i], mac << ": frame " << i);
            }
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * A short frame's pad octets are zero on both Ethernet devices, whatever memory ns-3's packet
 * buffers held before. IEEE 802.3 pads the data field to 46 octets without fixing the pad's
 * value; drivers that sent stale memory there leaked it onto the wire (CVE-2003-0001,
 * "Etherleak"), and Linux has padded with zeros since (skb_padto). Here the buffers are first
 * soiled with 0xAA octets, then a 28-octet payload of 0x11 octets crosses each device; the
 * receiver gets 46 octets: the 28 sent, then 18 zeros. (ns-3's Packet::AddPaddingAtEnd leaves the
 * pad unset, so a run's pcap and anything that reads the frame's octets depended on the heap.)
 */
class EthernetZeroPadTestCase : public TestCase
{
  public:
    EthernetZeroPadTestCase()
        : TestCase("Ethernet: a short frame's pad octets are zero (full-duplex and 802.3 device)")
    {
    }

  private:
    void DoRun() override
    {
        for (const bool lean : {true, false})
        {
            NetDeviceContainer d;
            if (lean)
            {
                d = Link("100Mbps");
            }
            else
            {
                NodeContainer n(2);
                EthernetHelper eth;
                eth.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
                eth.SetDeviceAttribute("Duplex", StringValue("ForcedFull"));
                d = eth.Install(n.Get(0), n.Get(1));
            }
            std::vector<std::vector<uint8_t>> got;
            auto rx = [&got](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&) {
                std::vector<uint8_t> b(p->GetSize());
                p->CopyData(b.data(), b.size());
                got.push_back(b);
                return true;
            };
            d.Get(1)->SetReceiveCallback(NetDevice::ReceiveCallback(rx));
            Simulator::Schedule(MicroSeconds(1), [dev = d.Get(0)]() {
                // Soil the free buffers: packets of 0xAA octets, made and released.
                for (int i = 0; i < 64; ++i)
                {
                    std::vector<uint8_t> junk(64 + i, 0xAA);
                    Ptr<Packet> j = Create<Packet>(junk.data(), junk.size());
                    j->AddHeader(EthernetHeader(false));
                }
                std::vector<uint8_t> payload(28, 0x11);
                dev->Send(Create<Packet>(payload.data(), payload.size()),
                          Mac48Address::GetBroadcast(),
                          0x0800);
            });
            Simulator::Run();
            Simulator::Destroy();
            const std::string which = lean ? "full-duplex: " : "802.3 device: ";
            NS_TEST_ASSERT_MSG_EQ(got.size(), 1u, which << "frames");
            NS_TEST_ASSERT_MSG_EQ(got[0].size(), 46u, which << "padded data field");
            for (std::size_t i = 0; i < got[0].size(); ++i)
            {
                const int expected = i < 28 ? 0x11 : 0;
                NS_TEST_EXPECT_MSG_EQ(static_cast<int>(got[0][i]),
                                      expected,
                                      which << "octet " << i);
            }
        }
    }
};

/**
 * @ingroup testbed-tests
 * Frame descriptors (FrameTemplate, FrameDescriptor) against the same frames as ns-3 Packets.
 * A hand-built IPv4/UDP datagram (RFC 791/768 layout: 100 octets, to 239.1.2.3, UDP port 5001,
 * 16 variable octets after the UDP header) parses to its group, port, payload offset 28 and
 * payload size 72; a descriptor's octets (MakePacket, CopyData) are the datagram's with its own
 * 16 octets; the same schedule sent as descriptors and as Packets through a queue of 2 frames
 * gives identical arrival times (hand-computed as in the queue test), drops and octets at a
 * receiver that takes Packets, and the same times at one that takes descriptors. A datagram to
 * a unicast address, or with IP options, is not a multicast template.
 */
class FrameDescriptorTestCase : public TestCase
{
  public:
    FrameDescriptorTestCase()
        : TestCase("full-duplex Ethernet: frame descriptors carry the same octets and timing")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint8_t> d = testdata::UdpDatagram({239, 1, 2, 3}, 1);
        Ptr<FrameTemplate> t = Create<FrameTemplate>(d, 28, 0x0800);
        const FrameTemplate::Udp& u = t->GetUdp();
        NS_TEST_ASSERT_MSG_EQ(u.valid, true, "a UDP multicast datagram");
        NS_TEST_EXPECT_MSG_EQ(u.group, Ipv4Address("239.1.2.3"), "group");
        NS_TEST_EXPECT_MSG_EQ(u.port, 5001, "port");
        NS_TEST_EXPECT_MSG_EQ(u.offset, 28u, "payload offset");
        NS_TEST_EXPECT_MSG_EQ(u.size, 72u, "payload size (total length 100 - 28)");
        NS_TEST_EXPECT_MSG_EQ(t->GetSize(), 100u, "size");

        // Its octets.
        FrameDescriptor f{t, {}};
        for (uint32_t k = 0; k < FrameTemplate::VAR; ++k)
        {
            f.var[k] = static_cast<uint8_t>(0xa0 + k);
        }
        std::vector<uint8_t> expected = d;
        std::copy(f.var.begin(), f.var.end(), expected.begin() + 28);
        Ptr<Packet> p = f.MakePacket();
        std::vector<uint8_t> got(p->GetSize());
        p->CopyData(got.data(), got.size());
        NS_TEST_EXPECT_MSG_EQ((got == expected), true, "MakePacket: the datagram's octets");
        for (uint32_t n : {20u, 28u, 30u, 44u, 64u, 200u})
        {
            std::vector<uint8_t> b(200, 0xff);
            const uint32_t c = f.CopyData(b.data(), n);
            NS_TEST_EXPECT_MSG_EQ(c, std::min(n, 100u), "CopyData " << n << ": count");
            NS_TEST_EXPECT_MSG_EQ(std::equal(b.begin(), b.begin() + c, expected.begin()),
                                  true,
                                  "CopyData " << n << ": octets");
            NS_TEST_EXPECT_MSG_EQ(b[c], 0xff, "CopyData " << n << ": no more");
        }

        // Not multicast templates: a unicast destination, IP options.
        std::vector<uint8_t> uni = d;
        uni[16] = 10;
        NS_TEST_EXPECT_MSG_EQ(Create<FrameTemplate>(uni, 28, 0x0800)->GetUdp().valid,
                              false,
                              "unicast");
        std::vector<uint8_t> opt = d;
        opt[0] = 0x46;
        NS_TEST_EXPECT_MSG_EQ(Create<FrameTemplate>(opt, 28, 0x0800)->GetUdp().valid,
                              false,
                              "IP options");

        // Timing and drops: descriptors and Packets on the same schedule (queue of 2, 1 Gbit/s:
        // five at t = 0, two dropped; one at 1 007 ns dropped, one at 1 008 ns queued).
        const std::vector<int64_t> sendAt = {0, 0, 0, 0, 0, 1007, 1008};
        const std::vector<int64_t> arrive = {1008, 1104 + 1008, 2 * 1104 + 1008, 3 * 1104 + 1008};
        std::vector<std::vector<uint8_t>> octets[2];
        std::vector<int64_t> times[3];
        uint64_t drops[3] = {0, 0, 0};
        for (int mode = 0; mode < 3; ++mode) // 0: Packets, 1: descriptors, 2: to a descriptor sink
        {
            NetDeviceContainer link = Link("1Gbps", 2);
            auto a = DynamicCast<FullDuplexEthernetNetDevice>(link.Get(0));
            auto b = DynamicCast<FullDuplexEthernetNetDevice>(link.Get(1));
            const Mac48Address src = Mac48Address::ConvertFrom(a->GetAddress());
            const Mac48Address dst("01:00:5e:01:02:03");
            std::vector<int64_t>& tm = times[mode];
            auto* oc = mode < 2 ? &octets[mode] : nullptr;
            auto rx = [&tm, oc](Ptr<NetDevice>, Ptr<const Packet> q, uint16_t, const Address&) {
                tm.push_back(Simulator::Now().GetNanoSeconds());
                std::vector<uint8_t> o(q->GetSize());
                q->CopyData(o.data(), o.size());
                oc->push_back(o);
                return true;
            };
            if (mode < 2)
            {
                b->SetReceiveCallback(
                    Callback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
                        rx));
            }
            else
            {
                b->SetFrameReceiveCallback(EthernetPort::FrameReceiveCallback(
                    [&tm](Ptr<EthernetPort>, const FrameDescriptor&, Mac48Address, Mac48Address) {
                        tm.push_back(Simulator::Now().GetNanoSeconds());
                    }));
            }
            for (std::size_t i = 0; i < sendAt.size(); ++i)
            {
                FrameDescriptor fi{t, {}};
                fi.var[15] = static_cast<uint8_t>(i); // the serial's last octet
                uint64_t* dr = &drops[mode];
                Simulator::Schedule(NanoSeconds(sendAt[i]), [a, fi, src, dst, mode, dr]() {
                    const bool ok = mode == 0 ? a->Send(fi.MakePacket(), dst, 0x0800)
                                              : a->SendFrame(fi, src, dst);
                    *dr += ok ? 0 : 1;
                });
            }
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_EXPECT_MSG_EQ(drops[mode], 3u, "mode " << mode << ": drops");
            NS_TEST_ASSERT_MSG_EQ(tm.size(), arrive.size(), "mode " << mode << ": frames");
            for (std::size_t i = 0; i < arrive.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(tm[i], arrive[i], "mode " << mode << ": frame " << i);
            }
        }
        NS_TEST_EXPECT_MSG_EQ((octets[0] == octets[1]), true, "the same octets as Packets");
        NS_TEST_EXPECT_MSG_EQ(+octets[1].back()[28 + 15], 6, "the last is the 7th frame's");
    }
};

/**
 * @ingroup testbed-tests
 * The two entries of a run split over processes, hand-computed at 1 Gbit/s
 * with a 500 ns cable: GetLastArrival after each of three back-to-back 100-octet datagrams sent
 * at t = 1 us is when the frame's last bit reaches the peer (1 000 + 1 008 + 500 ns, then
 * 1 104 ns apart), the times at which the peer receives them; Deliver hands a frame to the
 * upper layers at once, a 28-octet payload padded to 46 octets as from the link.
 */
class FullDuplexSplitEntriesTestCase : public TestCase
{
  public:
    FullDuplexSplitEntriesTestCase()
        : TestCase("full-duplex Ethernet: GetLastArrival and Deliver, hand-computed")
    {
    }

  private:
    void DoRun() override
    {
        NetDeviceContainer d = Link("1Gbps", 100, NanoSeconds(500));
        Ptr<FullDuplexEthernetNetDevice> tx = DynamicCast<FullDuplexEthernetNetDevice>(d.Get(0));
        Ptr<FullDuplexEthernetNetDevice> rx = DynamicCast<FullDuplexEthernetNetDevice>(d.Get(1));
        Sink sink;
        sink.Listen(rx);
        std::vector<int64_t> promised;
        Simulator::Schedule(MicroSeconds(1), [&]() {
            for (int i = 0; i < 3; ++i)
            {
                tx->Send(Create<Packet>(100), Mac48Address::GetBroadcast(), 0x0800);
                promised.push_back(tx->GetLastArrival().GetNanoSeconds());
            }
        });
        Simulator::Schedule(MicroSeconds(10), [&]() {
            rx->Deliver(Create<Packet>(28),
                        tx->GetMacAddress(),
                        Mac48Address::GetBroadcast(),
                        0x0800);
        });
        Simulator::Run();
        const std::vector<int64_t> expected
            = {1000 + 1008 + 500, 1000 + 1104 + 1008 + 500, 1000 + 2 * 1104 + 1008 + 500};
        NS_TEST_ASSERT_MSG_EQ(promised.size(), 3u, "three sends");
        NS_TEST_ASSERT_MSG_EQ(sink.times.size(), 4u, "three frames and the delivered one");
        for (std::size_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(promised[i], expected[i], "last arrival " << i);
            NS_TEST_EXPECT_MSG_EQ(sink.times[i], expected[i], "received " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(sink.times[3], 10000, "delivered at once");
        NS_TEST_EXPECT_MSG_EQ(sink.sizes[3], 46u, "padded to the minimum frame");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The full-duplex Ethernet suite.
 */
class FullDuplexEthernetTestSuite : public TestSuite
{
  public:
    FullDuplexEthernetTestSuite()
        : TestSuite("testbed-full-duplex-ethernet", Type::UNIT)
    {
        AddTestCase(new FullDuplexTimingTestCase, Duration::QUICK);
        AddTestCase(new FullDuplexQueueTestCase, Duration::QUICK);
        AddTestCase(new FullDuplexCrossingTestCase, Duration::QUICK);
        AddTestCase(new FullDuplexDifferentialTestCase, Duration::QUICK);
        AddTestCase(new TxFetchDelayTestCase, Duration::QUICK);
        AddTestCase(new EthernetZeroPadTestCase, Duration::QUICK);
        AddTestCase(new FrameDescriptorTestCase, Duration::QUICK);
        AddTestCase(new FullDuplexSplitEntriesTestCase, Duration::QUICK);
    }
};

static FullDuplexEthernetTestSuite g_fullDuplexEthernetTestSuite; //!< static instance
