/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The IEEE 802.3 model against independent expectations: hand-computed timings of one station,
 * the collision/deferral boundary at the propagation delay, the backoff distribution (chi-square
 * against the uniform distribution of 4.2.3.2.5), the attempt limit, late collisions and FCS
 * errors under duplex mismatch, autonegotiation with parallel detection (clause 28), the
 * efficiency of saturated stations against Metcalfe and Boggs's formula, fairness and the capture
 * effect, and bridges and host NIC models over the device.
 */

#include "ns3/boolean.h"
#include "ns3/bridge-net-device.h"
#include "ns3/config.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/ethernet-port.h"
#include "ns3/full-duplex-ethernet-helper.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/host-platform-helper.h"
#include "ns3/host-platform.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Bit time at a rate. */
Time
Bits(uint64_t bits, double bps)
{
    return Seconds(static_cast<double>(bits) / bps);
}

/**
 * Saturated stations: every device always has a frame of @p payload octets to send to the
 * device after it; counts the frames each station got through.
 */
struct Saturated
{
    NodeContainer nodes;
    NetDeviceContainer devs;
    std::vector<uint64_t> delivered; //!< frames received whole, per sender
    std::vector<uint32_t> order;     //!< sender of every frame delivered, in order
    uint32_t payload;

    Saturated(uint32_t n,
              uint32_t payloadOctets,
              bool hub,
              const std::string& duplex,
              int64_t stream)
        : nodes(n)
        , delivered(n, 0)
        , payload(payloadOctets)
    {
        EthernetHelper eth;
        eth.SetDeviceAttribute("Duplex", StringValue(duplex));
        eth.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("4p"));
        devs = hub ? eth.InstallHub(nodes) : eth.Install(nodes.Get(0), nodes.Get(1));
        eth.AssignStreams(devs, stream);
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<EthernetNetDevice> d = DynamicCast<EthernetNetDevice>(devs.Get(i));
            d->SetReceiveCallback(MakeCallback(&Saturated::Rx, this));
            d->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&Saturated::Sent, this, i));
            d->TraceConnectWithoutContext("PhyTxDrop",
                                          MakeBoundCallback(&Saturated::Sent, this, i));
        }
    }

    bool Rx(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t proto, const Address& from)
    {
        uint32_t sender = proto - 0x8800;
        ++delivered[sender];
        order.push_back(sender);
        return true;
    }

    static void Sent(Saturated* s, uint32_t i, Ptr<const Packet>)
    {
        // Keep the queue full: one new frame for each one done.
        Simulator::ScheduleNow(&Saturated::Offer, s, i);
    }

    void Offer(uint32_t i)
    {
        Ptr<NetDevice> d = devs.Get(i);
        Ptr<NetDevice> to = devs.Get((i + 1) % devs.GetN());
        d->Send(Create<Packet>(payload), to->GetAddress(), 0x8800 + i);
    }

    void Start()
    {
        for (uint32_t i = 0; i < devs.GetN(); ++i)
        {
            for (int k = 0; k < 4; ++k)
            {
                Simulator::Schedule(MicroSeconds(1), &Saturated::Offer, this, i);
            }
        }
    }

    uint64_t Total() const
    {
        return std::accumulate(delivered.begin(), delivered.end(), uint64_t{0});
    }
};

/** Metcalfe and Boggs (1976): efficiency of Q saturated stations, frame F octets. */
double
MetcalfeBoggs(uint32_t q, uint32_t frameOctets)
{
    const double a = std::pow(1.0 - 1.0 / q, q - 1.0); // a slot is won with probability A
    const double w = (1.0 - a) / a;                    // mean slots of contention per frame
    // Channel time per frame: preamble 8 + frame + gap 12 octets, plus W slots of 64 octets.
    return frameOctets / (frameOctets + 20.0 + w * 64.0);
}

} // namespace

/**
 * @ingroup testbed-tests
 * One station alone sends back to back: the k-th frame's last bit reaches the other end at
 * d + (k-1) (8 + F + 12) 8 bt + (8 + F) 8 bt, and the throughput is line rate x F / (F + 20).
 */
class EthernetSingleStationTestCase : public TestCase
{
  public:
    EthernetSingleStationTestCase(const std::string& duplex)
        : TestCase("Ethernet: one station, back-to-back frames, hand-computed timing (" + duplex
                   + ")")
        , m_duplex(duplex)
    {
    }

  private:
    std::string m_duplex;
    std::vector<Time> m_rx;

    bool Rx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
    {
        m_rx.push_back(Simulator::Now());
        return true;
    }

    void DoRun() override
    {
        NodeContainer n(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("Duplex", StringValue(m_duplex));
        eth.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1000p"));
        eth.SetCableLength(100);
        NetDeviceContainer d = eth.Install(n.Get(0), n.Get(1));
        d.Get(1)->SetReceiveCallback(MakeCallback(&EthernetSingleStationTestCase::Rx, this));
        const uint32_t frames = 200;
        for (uint32_t i = 0; i < frames; ++i)
        {
            d.Get(0)->Send(Create<Packet>(1500), d.Get(1)->GetAddress(), 0x0800);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_rx.size(), frames, "every frame arrives");
        const double bps = 100e6;
        const Time prop = Seconds(100 / (0.65 * 299792458.0));
        for (uint32_t k : {0u, 1u, 199u})
        {
            Time expected
                = prop + Bits(uint64_t(k) * (8 + 1518 + 12) * 8, bps) + Bits((8 + 1518) * 8, bps);
            NS_TEST_EXPECT_MSG_EQ_TOL(m_rx[k], expected, NanoSeconds(2), "frame " << k);
        }
        double rate = (frames - 1) / (m_rx.back() - m_rx.front()).GetSeconds() * 1518 * 8;
        NS_TEST_EXPECT_MSG_EQ_TOL(rate, bps * 1518 / 1538, bps * 1e-6, "line rate x F / (F + 20)");
        Ptr<EthernetNetDevice> a = DynamicCast<EthernetNetDevice>(d.Get(0));
        NS_TEST_EXPECT_MSG_EQ(a->GetStats().collisions, 0u, "alone: no collision");
        // A 10-octet payload is padded to the 64-octet minimum frame.
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Two half-duplex stations on a 200 m cable: A starts at t = 0; B's frame is ready at t_B. B
 * cannot hear A before the propagation delay d: for t_B < d it sends and both see a collision;
 * for t_B > d it defers (the boundary is d, from the cable length and the velocity factor).
 */
class EthernetCollisionBoundaryTestCase : public TestCase
{
  public:
    EthernetCollisionBoundaryTestCase()
        : TestCase("Ethernet: collision before the propagation delay, deferral after it")
    {
    }

  private:
    void Run(Time tB, uint64_t& collisionsA, uint64_t& collisionsB, uint64_t& deferralsB)
    {
        NodeContainer n(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedHalf"));
        eth.SetCableLength(200);
        NetDeviceContainer d = eth.Install(n.Get(0), n.Get(1));
        eth.AssignStreams(d, 7);
        Simulator::Schedule(Seconds(1), [&]() {
            d.Get(0)->Send(Create<Packet>(100), d.Get(1)->GetAddress(), 0x0800);
        });
        Simulator::Schedule(Seconds(1) + tB, [&]() {
            d.Get(1)->Send(Create<Packet>(100), d.Get(0)->GetAddress(), 0x0800);
        });
        Simulator::Run();
        auto a = DynamicCast<EthernetNetDevice>(d.Get(0));
        auto b = DynamicCast<EthernetNetDevice>(d.Get(1));
        collisionsA = a->GetStats().collisions;
        collisionsB = b->GetStats().collisions;
        deferralsB = b->GetStats().deferrals;
        Simulator::Destroy();
    }

    void DoRun() override
    {
        const Time d = Seconds(200 / (0.65 * 299792458.0)); // 1026 ns
        uint64_t ca;
        uint64_t cb;
        uint64_t db;
        Run(d - NanoSeconds(3), ca, cb, db);
        NS_TEST_EXPECT_MSG_GT(ca, 0u, "A sees a collision just before d");
        NS_TEST_EXPECT_MSG_GT(cb, 0u, "B sees a collision just before d");
        Run(d + NanoSeconds(3), ca, cb, db);
        NS_TEST_EXPECT_MSG_EQ(ca, 0u, "no collision just after d");
        NS_TEST_EXPECT_MSG_EQ(cb, 0u, "no collision just after d");
        NS_TEST_EXPECT_MSG_EQ(db, 1u, "B defers just after d");
    }
};

/**
 * @ingroup testbed-tests
 * Deferral to the end of a carrier (IEEE 802.3 4.2.3.2.1): a station with a frame ready waits
 * for the carrier to go off, then for the interframe gap of 96 bit times, and sends even if a
 * carrier comes in the gap's last third. Two cases on a 100 Mbit/s hub with 10 m cables
 * (d = 2 x 10 m / 0.65 c + 920 ns from port to port), hand-computed:
 *
 * - Two stations deferring to the same carrier: A sends a 1018-octet frame at t0 (8 208 bits
 *   with the preamble); B and C get frames 20 us later and defer. The carrier goes off at both
 *   at t0 + d + 82.08 us; both start at that plus 0.96 us and collide on their first attempt
 *   (one collision each, none late).
 * - Two stations, two directions, the previous sender with a second frame: A sends two frames
 *   back to back, B gets one during A's first. A starts its second frame a gap after its own
 *   end, t0 + 82.08 + 0.96 us; B a gap after the carrier goes off at B, t0 + d + 82.08 + 0.96
 *   us, the instant A's second frame reaches B (the last part of B's gap: ignored). Both see a
 *   collision on the first attempt. This is the exchange of the TNO03 pipeline on its hub,
 *   whose Sender and ReceiverSender each find the other's frame on the wire.
 *
 * Every frame is delivered in the end (after the backoff).
 */
class EthernetDeferralTestCase : public TestCase
{
  public:
    EthernetDeferralTestCase()
        : TestCase("Ethernet: stations deferring to one carrier start a gap after it and "
                   "collide (802.3 4.2.3.2.1)")
    {
    }

  private:
    /** One station's first attempt and what it met. */
    struct Seen
    {
        std::vector<Time> txBegin;      //!< every PhyTxBegin
        std::vector<uint32_t> attempts; //!< the attempt number of each collision
        uint32_t late{0};               //!< late collisions
        uint32_t rx{0};                 //!< frames received whole
    };

    /**
     * @param stations stations on the hub; station 0 is A
     * @param framesA A's frames, handed over at t0
     * @param others the stations that get one frame each 20 us after t0
     */
    std::vector<Seen> Run(uint32_t stations, uint32_t framesA, std::vector<uint32_t> others)
    {
        NodeContainer n(stations);
        EthernetHelper eth;
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedHalf"));
        eth.SetCableLength(10);
        NetDeviceContainer d = eth.InstallHub(n);
        eth.AssignStreams(d, 3);
        std::vector<Seen> seen(stations);
        for (uint32_t i = 0; i < stations; ++i)
        {
            Ptr<NetDevice> dev = d.Get(i);
            Seen* s = &seen[i];
            dev->TraceConnectWithoutContext(
                "PhyTxBegin",
                Callback<void, Ptr<const Packet>>(
                    [s](Ptr<const Packet>) { s->txBegin.push_back(Simulator::Now()); }));
            dev->TraceConnectWithoutContext(
                "Collision",
                Callback<void, uint32_t, bool>([s](uint32_t attempt, bool late) {
                    s->attempts.push_back(attempt);
                    s->late += late ? 1 : 0;
                }));
            dev->SetReceiveCallback(
                Callback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
                    [s](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) {
                        ++s->rx;
                        return true;
                    }));
        }
        const Time t0 = Seconds(1);
        Simulator::Schedule(t0, [&]() {
            for (uint32_t k = 0; k < framesA; ++k)
            {
                d.Get(0)->Send(Create<Packet>(1000), d.Get(1)->GetAddress(), 0x0800);
            }
        });
        Simulator::Schedule(t0 + MicroSeconds(20), [&]() {
            for (uint32_t i : others)
            {
                d.Get(i)->Send(Create<Packet>(1000), d.Get(0)->GetAddress(), 0x0800);
            }
        });
        Simulator::Run();
        Simulator::Destroy();
        return seen;
    }

    void DoRun() override
    {
        const Time t0 = Seconds(1);
        const Time d = 2 * Seconds(10 / (0.65 * 299792458.0)) + NanoSeconds(920);
        const Time frame = Bits((8 + 1018) * 8, 100e6); // 82.08 us
        const Time gap = Bits(96, 100e6);               // 0.96 us

        // B (1) and C (2) defer to A's carrier.
        std::vector<Seen> s = Run(3, 1, {1, 2});
        for (uint32_t i : {1u, 2u})
        {
            NS_TEST_ASSERT_MSG_EQ(s[i].txBegin.empty(), false, "station " << i << " sends");
            NS_TEST_EXPECT_MSG_EQ_TOL(s[i].txBegin[0],
                                      t0 + d + frame + gap,
                                      NanoSeconds(1),
                                      "station " << i << ": a gap after the carrier goes off");
            NS_TEST_ASSERT_MSG_EQ(s[i].attempts.empty(), false, "station " << i << " collides");
            NS_TEST_EXPECT_MSG_EQ(s[i].attempts[0], 1u, "on its first attempt");
            NS_TEST_EXPECT_MSG_EQ(s[i].late, 0u, "not late");
        }
        NS_TEST_EXPECT_MSG_EQ(s[0].rx, 2u, "A receives both in the end");

        // A with two frames, B with one for A.
        s = Run(2, 2, {1});
        NS_TEST_ASSERT_MSG_GT_OR_EQ(s[0].txBegin.size(), 2u, "A sends twice");
        NS_TEST_EXPECT_MSG_EQ_TOL(s[0].txBegin[1],
                                  t0 + frame + gap,
                                  NanoSeconds(1),
                                  "A: a gap after its own frame");
        NS_TEST_ASSERT_MSG_EQ(s[1].txBegin.empty(), false, "B sends");
        NS_TEST_EXPECT_MSG_EQ_TOL(s[1].txBegin[0],
                                  t0 + d + frame + gap,
                                  NanoSeconds(1),
                                  "B: a gap after the carrier goes off at B");
        for (uint32_t i : {0u, 1u})
        {
            NS_TEST_ASSERT_MSG_EQ(s[i].attempts.empty(), false, "station " << i << " collides");
            NS_TEST_EXPECT_MSG_EQ(s[i].attempts[0], 1u, "on the first attempt");
        }
        NS_TEST_EXPECT_MSG_EQ(s[1].rx, 2u, "B receives both of A's frames");
        NS_TEST_EXPECT_MSG_EQ(s[0].rx, 1u, "A receives B's");
    }
};

/**
 * @ingroup testbed-tests
 * Truncated binary exponential backoff: a half-duplex station on a hub facing a full-duplex
 * station that sends back to back collides on every attempt. Its drawn slot counts after the
 * n-th collision, k = min(n, 10), must be uniform on [0, 2^k - 1] (chi-square, p = 0.001,
 * bins grouped to at most 16), and the 16th collision discards the frame.
 */
class EthernetBackoffTestCase : public TestCase
{
  public:
    EthernetBackoffTestCase()
        : TestCase("Ethernet: backoff uniform on [0, 2^min(n,10) - 1], 16th collision discards")
    {
    }

  private:
    std::map<uint32_t, std::vector<uint32_t>> m_draws; //!< attempt -> slots

    void Backoff(uint32_t attempt, uint32_t slots)
    {
        m_draws[attempt].push_back(slots);
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        NodeContainer n(2);
        EthernetHelper eth;
        eth.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("100000p"));
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedHalf"));
        Ptr<EthernetNetDevice> half = eth.CreateDevice(n.Get(0));
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedFull"));
        Ptr<EthernetNetDevice> full = eth.CreateDevice(n.Get(1));
        Ptr<EthernetHub> hub = CreateObject<EthernetHub>();
        half->Attach(hub, 10);
        full->Attach(hub, 10);
        half->AssignStreams(11);
        half->TraceConnectWithoutContext("Backoff",
                                         MakeCallback(&EthernetBackoffTestCase::Backoff, this));
        const uint32_t frames = 400;
        for (uint32_t i = 0; i < frames; ++i)
        {
            half->Send(Create<Packet>(200), full->GetAddress(), 0x0800);
        }
        // The full-duplex station sends back to back for as long as the other has frames.
        for (uint32_t i = 0; i < 70000; ++i)
        {
            full->Send(Create<Packet>(1500), half->GetAddress(), 0x0800);
        }
        Simulator::Stop(Seconds(7));
        Simulator::Run();
        const auto& s = half->GetStats();
        NS_TEST_ASSERT_MSG_EQ(s.txFrames, 0u, "no attempt gets through");
        NS_TEST_ASSERT_MSG_GT(s.excessiveCollisions, 100u, "frames discarded");
        // 16 collisions for each discarded frame, and fewer for the one in progress at the stop.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(s.collisions, s.excessiveCollisions * 16, "16 each");
        NS_TEST_EXPECT_MSG_LT(s.collisions, s.excessiveCollisions * 16 + 16, "16 each");
        NS_TEST_EXPECT_MSG_EQ(m_draws.count(16), 0u, "no backoff after the 16th collision");
        // Chi-square per attempt number (critical values at p = 0.001).
        const std::map<uint32_t, double> critical
            = {{1, 10.83}, {3, 16.27}, {7, 24.32}, {15, 37.70}};
        for (uint32_t attempt = 1; attempt <= 15; ++attempt)
        {
            const auto& v = m_draws[attempt];
            NS_TEST_ASSERT_MSG_GT(v.size(), 80u, "draws after collision " << attempt);
            const uint32_t k = std::min(attempt, 10u);
            const uint32_t range = 1u << k;
            const uint32_t bins = std::min(range, 16u);
            std::vector<double> count(bins, 0);
            for (uint32_t x : v)
            {
                NS_TEST_ASSERT_MSG_LT(x, range, "slots in [0, 2^k - 1]");
                count[x / (range / bins)] += 1;
            }
            const double expected = static_cast<double>(v.size()) / bins;
            double chi2 = 0;
            for (double c : count)
            {
                chi2 += (c - expected) * (c - expected) / expected;
            }
            NS_TEST_EXPECT_MSG_LT(chi2, critical.at(bins - 1), "chi-square, attempt " << attempt);
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Duplex mismatch on a cable: one end forced full, the other forced half, both sending long
 * frames. The half-duplex end sees the full-duplex end's frames start in the middle of its own:
 * late collisions; the full-duplex end receives the half-duplex end's frames cut short by the
 * jam: FCS errors (fragments of 64 octets or more). Under each reading of the half end's MAC:
 * after a late collision it abandons its frame (Discard) or backs off and sends it again once
 * the full end's 123 us frame and the gap are over, 900 us before the next pair (Retry); the
 * full end's frame, which began to arrive while the half end sent, is discarded (Damaged) or
 * passed up (Intact).
 */
class EthernetMismatchTestCase : public TestCase
{
  public:
    /**
     * Constructor.
     * @param late the half end's LateCollision reading
     * @param rx the half end's ReceiveWhileSending reading
     */
    EthernetMismatchTestCase(std::string late, std::string rx)
        : TestCase("Ethernet: duplex mismatch: late collisions at the half end, FCS errors at the "
                   "full end ("
                   + late + ", " + rx + ")")
        , m_late(late)
        , m_rx(rx)
    {
    }

  private:
    std::string m_late; //!< LateCollision
    std::string m_rx;   //!< ReceiveWhileSending

    void DoRun() override
    {
        NodeContainer n(2);
        EthernetHelper eth;
        eth.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1000p"));
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedHalf"));
        eth.SetDeviceAttribute("LateCollision", StringValue(m_late));
        eth.SetDeviceAttribute("ReceiveWhileSending", StringValue(m_rx));
        Ptr<EthernetNetDevice> half = eth.CreateDevice(n.Get(0));
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedFull"));
        eth.SetDeviceAttribute("LateCollision", StringValue("Discard"));
        eth.SetDeviceAttribute("ReceiveWhileSending", StringValue("Damaged"));
        Ptr<EthernetNetDevice> full = eth.CreateDevice(n.Get(1));
        eth.Connect(half, full);
        half->AssignStreams(3);
        NS_TEST_ASSERT_MSG_EQ(half->IsFullDuplex(), false, "forced half");
        NS_TEST_ASSERT_MSG_EQ(full->IsFullDuplex(), true, "forced full");
        for (uint32_t i = 0; i < 50; ++i)
        {
            Simulator::Schedule(MicroSeconds(1000 * i), [=]() {
                half->Send(Create<Packet>(1500), full->GetAddress(), 0x0800);
            });
            // The full end starts 100 us later: in the middle of the half end's 123 us frame.
            Simulator::Schedule(MicroSeconds(1000 * i + 100), [=]() {
                full->Send(Create<Packet>(1500), half->GetAddress(), 0x0800);
            });
        }
        Simulator::Run();
        const bool retry = m_late == "Retry";
        const bool intact = m_rx == "Intact";
        NS_TEST_EXPECT_MSG_EQ(half->GetStats().lateCollisions, 50u, "every half frame: late");
        NS_TEST_EXPECT_MSG_EQ(half->GetStats().collisions, 50u, "and no other collision");
        NS_TEST_EXPECT_MSG_EQ(half->GetStats().txFrames,
                              retry ? 50u : 0u,
                              "late: retried (once, whole) or abandoned");
        NS_TEST_EXPECT_MSG_EQ(full->GetStats().fcsErrors, 50u, "the full end: FCS errors");
        NS_TEST_EXPECT_MSG_EQ(full->GetStats().rxFrames,
                              retry ? 50u : 0u,
                              "the full end: the retried frames whole");
        NS_TEST_EXPECT_MSG_EQ(full->GetStats().collisions, 0u, "the full end sees no collision");
        NS_TEST_EXPECT_MSG_EQ(full->GetStats().txFrames, 50u, "the full end always sends");
        // Its frames met the half end's transmission: discarded, or kept on their own pair.
        NS_TEST_EXPECT_MSG_EQ(half->GetStats().rxFrames,
                              intact ? 50u : 0u,
                              "the half end: the full end's frames");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * A duplex mismatch on a hand-timed pair of frames, and TCP's recovery of the lost segment.
 * Host H (forced half) sends TCP segments to host F (forced full). The full end starts a frame
 * of its own 20 us into H's data frame (preamble 0.64 us + 512 bit times 5.12 us: past the
 * slot): H sees a collision after the slot (late, IEEE 802.3 4.2.3.2.4: jam, frame discarded,
 * no retry), F receives H's frame cut short by the jam (longer than 64 octets: an FCS error),
 * and the segment is lost. TCP (Linux 2.6: RTO srtt + max(4 mdev, 200 ms), three duplicate ACKs
 * for fast retransmit, RFC 5681 3.2) recovers it: with no segment after it, by a timeout srtt +
 * 200 ms after it was sent (the RTT is well under a millisecond); with four segments after it,
 * by a fast retransmit well before that.
 */
class EthernetMismatchTcpTestCase : public TestCase
{
  public:
    /**
     * Constructor.
     * @param followers segments the sender writes after the one that is lost
     */
    EthernetMismatchTcpTestCase(uint32_t followers)
        : TestCase("Ethernet: mismatch on a hand-timed frame pair: late collision at the half "
                   "end, FCS error at the full end, TCP recovers by "
                   + std::string(followers >= 3 ? "fast retransmit" : "timeout"))
        , m_followers(followers)
    {
    }

  private:
    uint32_t m_followers;     //!< segments after the lost one
    uint64_t m_received{0};   //!< bytes received by F
    Time m_lostSent{-1};      //!< when the lost segment's frame started
    std::vector<Time> m_retx; //!< when H retransmitted
    uint32_t m_losses{0};     //!< H's entries into CA_LOSS (timeouts)
    uint32_t m_recoveries{0}; //!< H's entries into CA_RECOVERY (fast retransmits)
    std::vector<bool> m_late; //!< H's collisions: late?
    Time m_srtt{0};           //!< H's smoothed RTT, last value
    Time m_rto{0};            //!< H's RTO, last value
    Time m_srttAtLoss{-1};    //!< H's smoothed RTT when the lost segment left
    Time m_rtoAtLoss{-1};     //!< H's RTO when the lost segment left
    Ptr<Socket> m_accepted;   //!< F's connection

    void Rx(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            m_received += p->GetSize();
        }
    }

    void DoRun() override
    {
        const uint32_t mss = 1000;
        const uint32_t warmup = 10;
        NodeContainer n(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedHalf"));
        Ptr<EthernetNetDevice> half = eth.CreateDevice(n.Get(0));
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedFull"));
        Ptr<EthernetNetDevice> full = eth.CreateDevice(n.Get(1));
        eth.Connect(half, full);
        NetDeviceContainer d;
        d.Add(half);
        d.Add(full);
        InternetStackHelper internet;
        internet.Install(n);
        Ipv4AddressHelper addr("10.8.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(d);

        // Linux 2.6's constants on these two sockets only (not as global defaults): RTO = srtt +
        // max(4 mdev, TCP_RTO_MIN = HZ/5 = 200 ms) (tcp_set_rto; HostPlatformHelper's
        // ConfigureLinux26Tcp), an ACK for every segment (quick-ACK mode at the start of a
        // connection), no timestamps (plain 40-byte headers).
        auto linux26 = [mss](Ptr<Socket> s) {
            s->SetAttribute("MinRto", TimeValue(MilliSeconds(200)));
            s->SetAttribute("ClockGranularity", TimeValue(MilliSeconds(200)));
            s->SetAttribute("SegmentSize", UintegerValue(mss));
            s->SetAttribute("DelAckCount", UintegerValue(1));
            s->SetAttribute("Timestamp", BooleanValue(false));
        };
        Ptr<Socket> sink = Socket::CreateSocket(n.Get(1), TcpSocketFactory::GetTypeId());
        linux26(sink);
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5001));
        sink->Listen();
        sink->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                MakeCallback(&EthernetMismatchTcpTestCase::Accept, this));
        Ptr<Socket> tx = Socket::CreateSocket(n.Get(0), TcpSocketFactory::GetTypeId());
        linux26(tx);
        tx->Bind();
        tx->Connect(InetSocketAddress(ifs.GetAddress(1), 5001));
        tx->TraceConnectWithoutContext(
            "Retransmission",
            Callback<void,
                     Ptr<const Packet>,
                     const TcpHeader&,
                     const Address&,
                     const Address&,
                     Ptr<const TcpSocketBase>>(
                [this](Ptr<const Packet>,
                       const TcpHeader&,
                       const Address&,
                       const Address&,
                       Ptr<const TcpSocketBase>) { m_retx.push_back(Simulator::Now()); }));
        tx->TraceConnectWithoutContext(
            "CongState",
            Callback<void, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t>(
                [this](TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
                    m_losses += now == TcpSocketState::CA_LOSS;
                    m_recoveries += now == TcpSocketState::CA_RECOVERY;
                }));
        half->TraceConnectWithoutContext(
            "Collision",
            Callback<void, uint32_t, bool>(
                [this](uint32_t, bool late) { m_late.push_back(late); }));
        tx->TraceConnectWithoutContext("RTT", Callback<void, Time, Time>([this](Time, Time now) {
                                           m_srtt = now;
                                       }));
        tx->TraceConnectWithoutContext("RTO", Callback<void, Time, Time>([this](Time, Time now) {
                                           m_rto = now;
                                       }));

        // Warm-up: ten segments (RTT samples of a fraction of a millisecond, the window open).
        Simulator::Schedule(MilliSeconds(100), [&]() { tx->Send(Create<Packet>(warmup * mss)); });
        // At 1 s: the segment to lose, then the followers. The full end's frame starts 20 us
        // after the first bit of the lost segment's frame.
        const Time at = Seconds(1);
        half->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>([&, at](Ptr<const Packet> p) {
                if (Simulator::Now() >= at && m_lostSent.IsNegative() && p->GetSize() > mss)
                {
                    m_lostSent = Simulator::Now();
                    m_srttAtLoss = m_srtt;
                    m_rtoAtLoss = m_rto;
                    Simulator::Schedule(MicroSeconds(20), [&]() {
                        full->Send(Create<Packet>(100), half->GetAddress(), 0x88B5);
                    });
                }
            }));
        Simulator::Schedule(at, [&]() { tx->Send(Create<Packet>((1 + m_followers) * mss)); });
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        const uint64_t total = static_cast<uint64_t>(warmup + 1 + m_followers) * mss;
        NS_TEST_ASSERT_MSG_EQ(m_lostSent.IsNegative(), false, "the segment was sent");
        NS_TEST_EXPECT_MSG_EQ(m_late.size(), 1u, "one collision at the half end");
        NS_TEST_EXPECT_MSG_EQ(m_late.empty() || m_late[0], true, "it is late (after 512 bits)");
        NS_TEST_EXPECT_MSG_EQ(half->GetStats().lateCollisions, 1u, "late collision counted");
        NS_TEST_EXPECT_MSG_EQ(full->GetStats().fcsErrors, 1u, "an FCS error at the full end");
        NS_TEST_EXPECT_MSG_EQ(full->GetStats().collisions, 0u, "the full end sees none");
        NS_TEST_EXPECT_MSG_EQ(m_retx.size(), 1u, "one retransmission");
        NS_TEST_EXPECT_MSG_EQ(m_received, total, "TCP delivered every byte");
        const Time after = m_retx.empty() ? Seconds(-1) : m_retx[0] - m_lostSent;
        if (m_followers >= 3)
        {
            NS_TEST_EXPECT_MSG_EQ(m_recoveries, 1u, "fast retransmit");
            NS_TEST_EXPECT_MSG_EQ(m_losses, 0u, "no timeout");
            NS_TEST_EXPECT_MSG_LT(after, MilliSeconds(1), "within the duplicate ACKs' time");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(m_losses, 1u, "a timeout");
            NS_TEST_EXPECT_MSG_EQ(m_recoveries, 0u, "too few duplicate ACKs for fast retransmit");
            // tcp_set_rto: srtt + max(4 mdev, 200 ms), the srtt at least one data frame's 83 us
            NS_TEST_EXPECT_MSG_GT(m_srttAtLoss, MicroSeconds(83), "an RTT was measured");
            NS_TEST_EXPECT_MSG_EQ(m_rtoAtLoss,
                                  m_srttAtLoss + MilliSeconds(200),
                                  "RTO = srtt + TCP_RTO_MIN");
            NS_TEST_EXPECT_MSG_EQ_TOL(after, m_rtoAtLoss, MicroSeconds(1), "timeout at the RTO");
        }
        Simulator::Destroy();
    }

    void Accept(Ptr<Socket> s, const Address&)
    {
        m_accepted = s;
        s->SetRecvCallback(MakeCallback(&EthernetMismatchTcpTestCase::Rx, this));
    }
};

/**
 * @ingroup testbed-tests
 * Autonegotiation (IEEE 802.3 clause 28): auto + auto: highest common rate, full duplex;
 * auto facing forced: the forced rate at half duplex on the auto side (parallel detection);
 * a station on a hub: half duplex at the hub's rate.
 */
class EthernetAutonegotiationTestCase : public TestCase
{
  public:
    EthernetAutonegotiationTestCase()
        : TestCase("Ethernet: autonegotiation and parallel detection (clause 28)")
    {
    }

  private:
    std::pair<Ptr<EthernetNetDevice>, Ptr<EthernetNetDevice>> Link(const std::string& da,
                                                                   const std::string& ra,
                                                                   const std::string& db,
                                                                   const std::string& rb)
    {
        NodeContainer n(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("Duplex", StringValue(da));
        eth.SetDeviceAttribute("DataRate", StringValue(ra));
        Ptr<EthernetNetDevice> a = eth.CreateDevice(n.Get(0));
        eth.SetDeviceAttribute("Duplex", StringValue(db));
        eth.SetDeviceAttribute("DataRate", StringValue(rb));
        Ptr<EthernetNetDevice> b = eth.CreateDevice(n.Get(1));
        eth.Connect(a, b);
        return {a, b};
    }

    void DoRun() override
    {
        auto [a1, b1] = Link("Auto", "1Gbps", "Auto", "100Mbps");
        NS_TEST_EXPECT_MSG_EQ(a1->GetLinkRate(), DataRate("100Mbps"), "highest common rate");
        NS_TEST_EXPECT_MSG_EQ(a1->IsFullDuplex() && b1->IsFullDuplex(), true, "full duplex");
        auto [a2, b2] = Link("Auto", "100Mbps", "ForcedFull", "100Mbps");
        NS_TEST_EXPECT_MSG_EQ(a2->IsFullDuplex(), false, "parallel detection: half duplex");
        NS_TEST_EXPECT_MSG_EQ(b2->IsFullDuplex(), true, "the forced end as forced");
        auto [a3, b3] = Link("Auto", "100Mbps", "ForcedHalf", "10Mbps");
        NS_TEST_EXPECT_MSG_EQ(a3->GetLinkRate(), DataRate("10Mbps"), "detected rate");
        NS_TEST_EXPECT_MSG_EQ(a3->IsFullDuplex(), false, "half duplex");
        NS_TEST_EXPECT_MSG_EQ(a1->IsLinkUp() && b3->IsLinkUp(), true, "links up");
        NodeContainer hubNodes(3);
        EthernetHelper eth;
        NetDeviceContainer d = eth.InstallHub(hubNodes);
        for (uint32_t i = 0; i < 3; ++i)
        {
            auto dev = DynamicCast<EthernetNetDevice>(d.Get(i));
            NS_TEST_EXPECT_MSG_EQ(dev->IsFullDuplex(), false, "hub: half duplex");
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Saturated stations on a hub (100 Mbit/s, short cables): the channel efficiency (frame octets
 * delivered over capacity) against Metcalfe and Boggs's formula E = F / (F + 20 + W 64), W =
 * (1 - A) / A slots, A = (1 - 1/Q)^(Q - 1) (the preamble and gap of 20 octets and the 64-octet
 * slot added to their packet and slot times). The formula assumes every station sends in a slot
 * with the optimal probability 1/Q; the binary exponential backoff of the standard with its
 * capture effect does better (Boggs, Mogul and Kent 1988: measured capacity well above the
 * theoretical curves), so the formula is a lower bound: E >= E_MB - 0.02 (the tolerance covers
 * the finite run), and E <= F / (F + 20), the framing bound. For long frames the two are close
 * (1518 octets: 92.1 % and 98.7 %); the test also checks the fairness of BEB over a long run
 * (Jain index >= 0.95 for 8 and 32 stations; Boggs et al.: Ethernet allocates the bandwidth
 * fairly) and the two-station capture effect (runs of consecutive frames from one station much
 * longer than the 2 of fair alternation).
 */
class EthernetEfficiencyTestCase : public TestCase
{
  public:
    /**
     * @param span the simulated time of each run
     * @param stations the station counts
     * @param fairness check fairness (needs a long span: BEB is unfair over short ones)
     */
    EthernetEfficiencyTestCase(Time span, std::vector<uint32_t> stations, bool fairness)
        : TestCase("Ethernet: saturated stations (" + std::to_string(span.GetMilliSeconds())
                   + " ms): Metcalfe-Boggs lower bound, framing bound"
                   + (fairness ? ", fairness" : "") + ", capture effect")
        , m_span(span)
        , m_stations(stations)
        , m_fairness(fairness)
    {
    }

  private:
    Time m_span;                      //!< simulated time per run
    std::vector<uint32_t> m_stations; //!< station counts
    bool m_fairness;                  //!< check fairness

    void DoRun() override
    {
        const double bps = 100e6;
        const Time span = m_span;
        for (uint32_t q : m_stations)
        {
            // 622 octets: TNO03's 512-byte update in its IP packet (a 640-octet frame), two
            // stations in two directions as the pipeline's Sender and ReceiverSender on the hub.
            std::vector<uint32_t> payloads{46, 1500};
            if (q == 2)
            {
                payloads.push_back(622);
            }
            for (uint32_t payload : payloads)
            {
                const uint32_t frame = payload + 18;
                Saturated s(q, payload, true, "Auto", 100);
                s.Start();
                Simulator::Stop(span);
                Simulator::Run();
                const double e = s.Total() * frame * 8.0 / (bps * span.GetSeconds());
                const double mb = MetcalfeBoggs(q, frame);
                NS_TEST_EXPECT_MSG_GT_OR_EQ(e, mb - 0.02, "Q=" << q << " F=" << frame);
                NS_TEST_EXPECT_MSG_LT_OR_EQ(e, frame / (frame + 20.0), "framing bound");
                if (m_fairness && payload == 1500)
                {
                    double sum = 0;
                    double sq = 0;
                    for (uint64_t x : s.delivered)
                    {
                        sum += x;
                        sq += double(x) * x;
                    }
                    NS_TEST_EXPECT_MSG_GT_OR_EQ(sum * sum / (q * sq),
                                                0.95,
                                                "Jain fairness Q=" << q);
                }
                if (q == 2 && payload == 46)
                {
                    // Capture: mean run of one station's consecutive frames.
                    double runs = 1;
                    for (size_t i = 1; i < s.order.size(); ++i)
                    {
                        runs += s.order[i] != s.order[i - 1] ? 1 : 0;
                    }
                    NS_TEST_EXPECT_MSG_GT(s.order.size() / runs, 4.0, "capture: long runs");
                }
                Simulator::Destroy();
            }
        }
    }
};

/**
 * @ingroup testbed-tests
 * The device under a BridgeNetDevice: a frame from one cable reaches the host on the other.
 */
class EthernetBridgeTestCase : public TestCase
{
  public:
    EthernetBridgeTestCase()
        : TestCase("Ethernet: ports of a bridge (SendFrom, promiscuous receive)")
    {
    }

  private:
    uint32_t m_rx{0};

    bool Rx(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
    {
        ++m_rx;
        return true;
    }

    void DoRun() override
    {
        NodeContainer hosts(2);
        Ptr<Node> sw = CreateObject<Node>();
        EthernetHelper eth;
        NetDeviceContainer l0 = eth.Install(hosts.Get(0), sw);
        NetDeviceContainer l1 = eth.Install(hosts.Get(1), sw);
        Ptr<BridgeNetDevice> br = CreateObject<BridgeNetDevice>();
        sw->AddDevice(br);
        br->AddBridgePort(l0.Get(1));
        br->AddBridgePort(l1.Get(1));
        l1.Get(0)->SetReceiveCallback(MakeCallback(&EthernetBridgeTestCase::Rx, this));
        Simulator::Schedule(MilliSeconds(1), [&]() {
            l0.Get(0)->Send(Create<Packet>(100), l1.Get(0)->GetAddress(), 0x0800);
        });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_rx, 1u, "through the bridge");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * IP over the device with the host model's NIC receive path in front of the stack
 * (HostPlatform::InstallNic): a UDP datagram crosses a half-duplex cable.
 */
class EthernetHostNicTestCase : public TestCase
{
  public:
    EthernetHostNicTestCase()
        : TestCase("Ethernet: IP and the host model's NIC receive path over the device")
    {
    }

  private:
    uint32_t m_rx{0};

    void Rx(Ptr<Socket> s)
    {
        while (s->Recv())
        {
            ++m_rx;
        }
    }

    void DoRun() override
    {
        NodeContainer n(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedHalf"));
        NetDeviceContainer d = eth.Install(n.Get(0), n.Get(1));
        InternetStackHelper internet;
        internet.Install(n);
        Ipv4AddressHelper addr("10.7.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(d);
        HostPlatformHelper hosts("pc2006-linux26");
        hosts.Install(n);
        NS_TEST_ASSERT_MSG_NE(n.Get(1)->GetObject<HostPlatform>()->GetNic(d.Get(1)),
                              nullptr,
                              "NIC model installed");
        Ptr<Socket> rx = Socket::CreateSocket(n.Get(1), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(MakeCallback(&EthernetHostNicTestCase::Rx, this));
        Ptr<Socket> tx = Socket::CreateSocket(n.Get(0), UdpSocketFactory::GetTypeId());
        Simulator::Schedule(MilliSeconds(10), [&]() {
            tx->SendTo(Create<Packet>(200), 0, InetSocketAddress(ifs.GetAddress(1), 9));
        });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_rx, 1u, "the datagram arrives (ARP first)");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * One Ethernet family: the 802.3 framing (clause 3: a 64-octet minimum frame, 1518 maximum,
 * 8 octets of preamble and SFD, a 12-octet gap), both MACs as EthernetPorts, the attribute and
 * trace names users give still reaching each MAC, and the port's SendShared contract (the
 * caller's packet is not changed; header to FCS counted) on both MACs at 100 Mbit/s full duplex.
 */
class EthernetFamilyTestCase : public TestCase
{
  public:
    EthernetFamilyTestCase()
        : TestCase("Both MACs are EthernetPorts with the framing defined once")
    {
    }

  private:
    void DoRun() override
    {
        // Framing by hand: header 14 + payload + FCS 4, at least 64; wire = 8 + frame + 12.
        NS_TEST_EXPECT_MSG_EQ(EthernetFraming::FrameOctets(0), 64u, "empty payload padded");
        NS_TEST_EXPECT_MSG_EQ(EthernetFraming::FrameOctets(46), 64u, "46 = 64 - 14 - 4");
        NS_TEST_EXPECT_MSG_EQ(EthernetFraming::FrameOctets(47), 65u, "no padding above 46");
        NS_TEST_EXPECT_MSG_EQ(EthernetFraming::FrameOctets(1500), 1518u, "maximum frame");
        NS_TEST_EXPECT_MSG_EQ(EthernetFraming::WireOctets(1500), 1538u, "8 + 1518 + 12");
        NS_TEST_EXPECT_MSG_EQ(EthernetFraming::WireOctets(28), 84u, "8 + 64 + 12");
        NS_TEST_EXPECT_MSG_EQ(EthernetNetDevice::PREAMBLE, 8u, "the MACs name the same");
        NS_TEST_EXPECT_MSG_EQ(FullDuplexEthernetNetDevice::IFG, 12u, "the MACs name the same");

        // The attribute names users set on each MAC (Config::SetDefault looks only at the
        // type's own attributes) and the trace names (looked up through the parents).
        NS_TEST_EXPECT_MSG_EQ(Config::SetDefaultFailSafe("ns3::FullDuplexEthernetNetDevice::Mtu",
                                                         UintegerValue(1500)),
                              true,
                              "Mtu of the lean MAC");
        NS_TEST_EXPECT_MSG_EQ(
            Config::SetDefaultFailSafe("ns3::EthernetNetDevice::Mtu", UintegerValue(1500)),
            true,
            "Mtu of the 802.3 MAC");

        for (bool lean : {false, true})
        {
            NodeContainer n(2);
            NetDeviceContainer d;
            if (lean)
            {
                FullDuplexEthernetHelper eth;
                eth.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
                d = eth.Install(n.Get(0), n.Get(1));
            }
            else
            {
                EthernetHelper eth;
                eth.SetDeviceAttribute("Duplex", StringValue("ForcedFull"));
                d = eth.Install(n.Get(0), n.Get(1));
            }
            Ptr<EthernetPort> a = DynamicCast<EthernetPort>(d.Get(0));
            Ptr<EthernetPort> b = DynamicCast<EthernetPort>(d.Get(1));
            NS_TEST_ASSERT_MSG_NE(a, nullptr, "an EthernetPort");
            NS_TEST_ASSERT_MSG_NE(b, nullptr, "an EthernetPort");
            NS_TEST_EXPECT_MSG_EQ(a->GetInstanceTypeId().GetParent(),
                                  EthernetPort::GetTypeId(),
                                  "derives from the port");
            uint32_t macTx = 0;
            NS_TEST_EXPECT_MSG_EQ(
                a->TraceConnectWithoutContext(
                    "MacTx",
                    Callback<void, Ptr<const Packet>>([&macTx](Ptr<const Packet>) { ++macTx; })),
                true,
                "MacTx by its name");
            a->SetAttribute("Mtu", UintegerValue(1000));
            NS_TEST_EXPECT_MSG_EQ(a->GetMtu(), 1000, "Mtu by its name");
            b->SetReceiveCallback(NetDevice::ReceiveCallback(
                [](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) { return true; }));
            Ptr<const Packet> p = Create<Packet>(100);
            Simulator::Schedule(MicroSeconds(10), [a, b, p]() {
                a->SendShared(p, a->GetMacAddress(), b->GetMacAddress(), 0x0800);
            });
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 100u, "the caller's packet is not changed");
            NS_TEST_EXPECT_MSG_EQ(macTx, 1u, "MacTx fired once");
            // 14 + 100 + 4 = 118 octets, header to FCS, on both ends.
            NS_TEST_EXPECT_MSG_EQ(a->GetCounters().txFrames, 1u, "one frame sent");
            NS_TEST_EXPECT_MSG_EQ(a->GetCounters().txBytes, 118u, "14 + 100 + 4");
            NS_TEST_EXPECT_MSG_EQ(b->GetCounters().rxFrames, 1u, "one frame received");
            NS_TEST_EXPECT_MSG_EQ(b->GetCounters().rxBytes, 118u, "14 + 100 + 4");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * The Ethernet suite.
 */
class EthernetTestSuite : public TestSuite
{
  public:
    EthernetTestSuite()
        : TestSuite("testbed-ethernet", Type::UNIT)
    {
        AddTestCase(new EthernetSingleStationTestCase("ForcedHalf"), Duration::QUICK);
        AddTestCase(new EthernetSingleStationTestCase("Auto"), Duration::QUICK);
        AddTestCase(new EthernetCollisionBoundaryTestCase, Duration::QUICK);
        AddTestCase(new EthernetDeferralTestCase, Duration::QUICK);
        AddTestCase(new EthernetBackoffTestCase, Duration::QUICK);
        for (const char* late : {"Discard", "Retry"})
        {
            for (const char* rx : {"Damaged", "Intact"})
            {
                AddTestCase(new EthernetMismatchTestCase(late, rx), Duration::QUICK);
            }
        }
        AddTestCase(new EthernetMismatchTcpTestCase(0), Duration::QUICK);
        AddTestCase(new EthernetMismatchTcpTestCase(4), Duration::QUICK);
        AddTestCase(new EthernetAutonegotiationTestCase, Duration::QUICK);
        AddTestCase(new EthernetEfficiencyTestCase(MilliSeconds(200), {2, 8, 32}, false),
                    Duration::QUICK);
        // Fairness is a long-run property (BEB's capture makes short windows unfair): 2 s.
        AddTestCase(new EthernetEfficiencyTestCase(Seconds(2), {8}, true), Duration::QUICK);
        AddTestCase(new EthernetEfficiencyTestCase(Seconds(2), {32}, true), Duration::EXTENSIVE);
        AddTestCase(new EthernetBridgeTestCase, Duration::QUICK);
        AddTestCase(new EthernetHostNicTestCase, Duration::QUICK);
        AddTestCase(new EthernetFamilyTestCase, Duration::QUICK);
    }
};

static EthernetTestSuite g_ethernetTestSuite; //!< static instance
