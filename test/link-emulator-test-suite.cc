/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * LinkEmulatorQueueDisc on its own (no network): packets are enqueued directly and "sent" to a
 * callback. Expectations are hand-computed times, exact counts, and binomial/normal confidence
 * bounds with fixed seeds.
 */

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/link-emulator-queue-disc.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/oversleep-timer.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/rtc-timer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tc-timer.h"
#include "ns3/test.h"
#include "ns3/tick-timer.h"
#include "ns3/timer-model.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

/**
 * @ingroup testbed-tests
 * A LinkEmulatorQueueDisc outside any network: Enqueue() as the traffic-control layer does
 * (enqueue, then run), sends recorded with their time.
 */
class EmulatorHarness
{
  public:
    /// A packet leaving the emulator.
    struct Sent
    {
        Time time;     //!< when
        uint64_t uid;  //!< packet uid
        uint32_t size; //!< item size (IP packet)
    };

    /**
     * Create the queue disc; attributes are set before Start().
     */
    EmulatorHarness()
    {
        qd = CreateObject<LinkEmulatorQueueDisc>();
        qd->SetSendCallback([this](Ptr<QueueDiscItem> item) {
            sent.push_back({Simulator::Now(), item->GetPacket()->GetUid(), item->GetSize()});
        });
        qd->TraceConnectWithoutContext("PacketScheduled",
                                       MakeCallback(&EmulatorHarness::Scheduled, this));
    }

    /**
     * Initialize the queue disc (CheckConfig) and fix its random streams.
     * @param stream first stream index
     */
    void Start(int64_t stream = 100)
    {
        qd->Initialize();
        qd->AssignStreams(stream);
    }

    /**
     * Enqueue one IPv4 packet of @p ipSize bytes now, then run the queue disc.
     * @param ipSize IP packet size (>= 20)
     * @return the packet uid
     */
    uint64_t Enqueue(uint32_t ipSize)
    {
        Ptr<Packet> p = Create<Packet>(ipSize - 20);
        Ipv4Header h;
        h.SetPayloadSize(ipSize - 20);
        qd->Enqueue(Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, h));
        qd->Run();
        return p->GetUid();
    }

    /**
     * Enqueue at an absolute time.
     * @param t the time
     * @param ipSize IP packet size
     */
    void EnqueueAt(Time t, uint32_t ipSize)
    {
        Simulator::Schedule(t - Simulator::Now(), [this, ipSize]() { Enqueue(ipSize); });
    }

    /**
     * PacketScheduled sink.
     * @param item the packet
     * @param release its release time
     */
    void Scheduled(Ptr<const QueueDiscItem> item, Time release)
    {
        scheduled.emplace_back(item->GetPacket()->GetUid(), release);
        delays.push_back((release - Simulator::Now()).GetSeconds());
    }

    /**
     * Packets dropped for a reason.
     * @param reason the drop reason
     * @return the count
     */
    uint32_t Dropped(const char* reason)
    {
        const auto& m = qd->GetStats().nDroppedPacketsBeforeEnqueue;
        auto it = m.find(reason);
        return it == m.end() ? 0 : it->second;
    }

    Ptr<LinkEmulatorQueueDisc> qd;                    //!< the emulator
    std::vector<Sent> sent;                           //!< packets sent, in order
    std::vector<std::pair<uint64_t, Time>> scheduled; //!< (uid, release) per accepted packet
    std::vector<double> delays;                       //!< release - enqueue time (s)
};

/**
 * Mean of a sample.
 * @param x the sample
 * @return the mean
 */
double
Mean(const std::vector<double>& x)
{
    double s = 0;
    for (double v : x)
    {
        s += v;
    }
    return s / x.size();
}

/**
 * Variance of a sample (divisor n).
 * @param x the sample
 * @return the variance
 */
double
Variance(const std::vector<double>& x)
{
    double m = Mean(x);
    double s = 0;
    for (double v : x)
    {
        s += (v - m) * (v - m);
    }
    return s / x.size();
}

/**
 * Lag-1 autocorrelation of a sample.
 * @param x the sample
 * @return the autocorrelation
 */
double
Lag1(const std::vector<double>& x)
{
    double m = Mean(x);
    double num = 0;
    double den = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        den += (x[i] - m) * (x[i] - m);
        if (i > 0)
        {
            num += (x[i] - m) * (x[i - 1] - m);
        }
    }
    return num / den;
}

/**
 * Median of a sample.
 * @param x the sample (copied)
 * @return the median
 */
double
Median(std::vector<double> x)
{
    std::nth_element(x.begin(), x.begin() + x.size() / 2, x.end());
    return x[x.size() / 2];
}

} // namespace

/**
 * @ingroup testbed-tests
 * Attribute checkers reject bad configuration.
 */
class LinkEmulatorConfigTestCase : public TestCase
{
  public:
    LinkEmulatorConfigTestCase()
        : TestCase("LinkEmulatorQueueDisc: attribute checkers reject bad values")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LinkEmulatorQueueDisc> qd = CreateObject<LinkEmulatorQueueDisc>();
        for (const char* p : {"LossProbability",
                              "LossCorrelation",
                              "DuplicateProbability",
                              "DuplicateCorrelation",
                              "ReorderProbability",
                              "ReorderCorrelation",
                              "DelayCorrelation",
                              "GilbertP",
                              "GilbertR",
                              "GilbertBadLoss",
                              "GilbertGoodLoss"})
        {
            NS_TEST_ASSERT_MSG_EQ(qd->SetAttributeFailSafe(p, DoubleValue(1.5)),
                                  false,
                                  p << " = 1.5 accepted");
            NS_TEST_ASSERT_MSG_EQ(qd->SetAttributeFailSafe(p, DoubleValue(-0.1)),
                                  false,
                                  p << " = -0.1 accepted");
            NS_TEST_ASSERT_MSG_EQ(qd->SetAttributeFailSafe(p, DoubleValue(0.5)),
                                  true,
                                  p << " = 0.5 refused");
        }
        NS_TEST_ASSERT_MSG_EQ(qd->SetAttributeFailSafe("Delay", TimeValue(MilliSeconds(-1))),
                              false,
                              "negative delay accepted");
        NS_TEST_ASSERT_MSG_EQ(qd->SetAttributeFailSafe("Jitter", TimeValue(MilliSeconds(-1))),
                              false,
                              "negative jitter accepted");
        NS_TEST_ASSERT_MSG_EQ(qd->SetAttributeFailSafe("Semantics", StringValue("NistNet")),
                              true,
                              "NistNet refused");
        NS_TEST_ASSERT_MSG_EQ(qd->SetAttributeFailSafe("PacketOverhead", IntegerValue(-14)),
                              true,
                              "negative overhead refused");
    }
};

/**
 * @ingroup testbed-tests
 * Rate stage and delay: NistNet = max, Netem = sum, by hand.
 */
class LinkEmulatorSemanticsTestCase : public TestCase
{
  public:
    LinkEmulatorSemanticsTestCase()
        : TestCase("LinkEmulatorQueueDisc: rate and delay combine as max (NistNet) or sum (Netem)")
    {
    }

  private:
    void DoRun() override
    {
        for (bool nistNet : {true, false})
        {
            EmulatorHarness h;
            h.qd->SetAttribute("Rate", DataRateValue(DataRate("1Mbps")));
            h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(50)));
            h.qd->SetAttribute("Semantics", StringValue(nistNet ? "NistNet" : "Netem"));
            h.Start();
            // 10 packets of 1000 B, one every 1 ms from t = 0: 8 ms each at 1 Mbps.
            for (int k = 0; k < 10; ++k)
            {
                h.EnqueueAt(MilliSeconds(k), 1000);
            }
            Simulator::Run();
            // Transmission ends at 8 (k + 1) ms (the rate stage is busy from t = 0), arrivals
            // at k ms: NistNet releases at max(8 (k + 1), k + 50) ms, Netem at 8 (k + 1) + 50.
            const std::vector<int> expectedMs
                = nistNet ? std::vector<int>{50, 51, 52, 53, 54, 55, 56, 64, 72, 80}
                          : std::vector<int>{58, 66, 74, 82, 90, 98, 106, 114, 122, 130};
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), 10, "all sent");
            for (int k = 0; k < 10; ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(h.sent[k].time,
                                      MilliSeconds(expectedMs[k]),
                                      (nistNet ? "NistNet" : "Netem") << " packet " << k);
            }
            Simulator::Destroy();
        }

        // Overhead: 1000 B + 250 B at 1 Mbps = 10 ms; and an idle rate stage restarts at arrival.
        EmulatorHarness h;
        h.qd->SetAttribute("Rate", DataRateValue(DataRate("1Mbps")));
        h.qd->SetAttribute("PacketOverhead", IntegerValue(250));
        h.Start();
        h.EnqueueAt(Seconds(0), 1000);
        h.EnqueueAt(MilliSeconds(5), 1000);
        h.EnqueueAt(MilliSeconds(100), 1000);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.sent.size(), 3, "all sent");
        NS_TEST_ASSERT_MSG_EQ(h.sent[0].time, MilliSeconds(10), "first: 10 ms");
        NS_TEST_ASSERT_MSG_EQ(h.sent[1].time, MilliSeconds(20), "second waits: 20 ms");
        NS_TEST_ASSERT_MSG_EQ(h.sent[2].time, MilliSeconds(110), "idle stage: 110 ms");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Output order is release order (FIFO among equal release times), releases are exact with an
 * ideal timer, and a packet due at once leaves at once.
 */
class LinkEmulatorOrderTestCase : public TestCase
{
  public:
    LinkEmulatorOrderTestCase()
        : TestCase("LinkEmulatorQueueDisc: time-ordered store, FIFO ties, exact releases")
    {
    }

  private:
    void DoRun() override
    {
        EmulatorHarness h;
        h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(10)));
        h.qd->SetAttribute("Jitter", TimeValue(MilliSeconds(5)));
        h.Start(7);
        for (int k = 0; k < 2000; ++k)
        {
            h.EnqueueAt(MicroSeconds(100 * k), 100);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.sent.size(), 2000, "all sent");
        std::map<uint64_t, Time> release(h.scheduled.begin(), h.scheduled.end());
        bool exact = true;
        bool ordered = true;
        uint32_t overtaken = 0;
        for (std::size_t i = 0; i < h.sent.size(); ++i)
        {
            exact = exact && h.sent[i].time == release[h.sent[i].uid];
            if (i > 0)
            {
                ordered = ordered && h.sent[i].time >= h.sent[i - 1].time;
                overtaken += h.sent[i].uid < h.sent[i - 1].uid ? 1 : 0;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(exact, true, "ideal timer releases at the release time");
        NS_TEST_ASSERT_MSG_EQ(ordered, true, "release order");
        NS_TEST_ASSERT_MSG_GT(overtaken, 100, "10 ms +- 5 ms jitter at 0.1 ms spacing reorders");
        Simulator::Destroy();

        // Equal release times leave in arrival order; zero delay leaves at once.
        EmulatorHarness f;
        f.qd->SetAttribute("Rate", DataRateValue(DataRate("8Mbps")));
        f.qd->SetAttribute("Delay", TimeValue(MilliSeconds(20)));
        f.qd->SetAttribute("Semantics", StringValue("NistNet"));
        f.Start();
        std::vector<uint64_t> uids;
        Simulator::Schedule(Seconds(0), [&]() {
            for (int k = 0; k < 5; ++k)
            {
                // 1000 B at 8 Mbps = 1 ms each: txEnd 1..5 ms, all released at 20 ms.
                uids.push_back(f.Enqueue(1000));
            }
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(f.sent.size(), 5, "all sent");
        for (int k = 0; k < 5; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(f.sent[k].uid, uids[k], "FIFO among equal release times");
            NS_TEST_ASSERT_MSG_EQ(f.sent[k].time, MilliSeconds(20), "released at 20 ms");
        }
        Simulator::Destroy();

        EmulatorHarness z;
        z.Start();
        z.EnqueueAt(MilliSeconds(3), 100);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(z.sent.size(), 1, "sent");
        NS_TEST_ASSERT_MSG_EQ(z.sent[0].time, MilliSeconds(3), "no delay: out at once");
        NS_TEST_ASSERT_MSG_EQ(z.qd->GetNTimerFirings(), 0, "no timer involved");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The timer hook: releases only when the emulator's timer fires, in bursts.
 */
class LinkEmulatorTimerTestCase : public TestCase
{
  public:
    LinkEmulatorTimerTestCase()
        : TestCase("LinkEmulatorQueueDisc: tick and oversleep timers release in bursts")
    {
    }

  private:
    void DoRun() override
    {
        // Arrivals; releases 1 ms later.
        const std::vector<int> arrivalsUs = {0, 30, 60, 90, 130, 250, 500};

        // RTC at 8192 Hz: tick k at round(k * 122070.3125 ns). First tick at or after
        // 1000/1030/1060/1090 us is tick 9 (1098632.8 ns -> 1098633 ns); 1130 us -> tick 10
        // (1220703 ns); 1250 us -> tick 11 (1342773 ns); 1500 us -> tick 13 (1586914 ns).
        {
            EmulatorHarness h;
            Ptr<TickTimer> rtc = CreateObject<TickTimer>();
            rtc->SetAttribute("Frequency", DoubleValue(8192));
            h.qd->SetAttribute("Timer", PointerValue(rtc));
            h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(1)));
            std::vector<uint32_t> bursts;
            h.qd->TraceConnectWithoutContext(
                "TimerFired",
                MakeBoundCallback(
                    static_cast<void (*)(std::vector<uint32_t>*, uint32_t)>(
                        [](std::vector<uint32_t>* b, uint32_t n) { b->push_back(n); }),
                    &bursts));
            h.Start();
            for (int us : arrivalsUs)
            {
                h.EnqueueAt(MicroSeconds(us), 100);
            }
            Simulator::Run();
            const std::vector<int64_t> expectedNs
                = {1098633, 1098633, 1098633, 1098633, 1220703, 1342773, 1586914};
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), expectedNs.size(), "all sent");
            for (std::size_t i = 0; i < expectedNs.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(h.sent[i].time,
                                      NanoSeconds(expectedNs[i]),
                                      "tick release of packet " << i);
            }
            NS_TEST_ASSERT_MSG_EQ(bursts.size(), 4, "four firings");
            NS_TEST_ASSERT_MSG_EQ(bursts[0], 4, "four packets due within one tick leave together");
            NS_TEST_ASSERT_MSG_EQ(bursts[1] + bursts[2] + bursts[3], 3, "then one by one");
            Simulator::Destroy();
        }

        // Oversleep of 60 us: armed at 0 for 1000 us, fires 1060 us and releases the packets
        // due at 1000, 1030, 1060 us; re-armed at 1060 for 1090 us: fires 1150 us, releases
        // 1090 and 1130; re-armed at 1150 for 1250: fires 1310; then 1500 -> 1560 us.
        {
            EmulatorHarness h;
            Ptr<OversleepTimer> t = CreateObject<OversleepTimer>();
            t->SetAttribute("Oversleep",
                            StringValue("ns3::ConstantRandomVariable[Constant=60e-6]"));
            h.qd->SetAttribute("Timer", PointerValue(t));
            h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(1)));
            h.Start();
            for (int us : arrivalsUs)
            {
                h.EnqueueAt(MicroSeconds(us), 100);
            }
            Simulator::Run();
            const std::vector<int> expectedUs = {1060, 1060, 1060, 1150, 1150, 1310, 1560};
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), expectedUs.size(), "all sent");
            for (std::size_t i = 0; i < expectedUs.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(h.sent[i].time,
                                      MicroSeconds(expectedUs[i]),
                                      "oversleep release of packet " << i);
            }
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * GINE: with TimerGatesAll even undelayed packets wait for the timer and leave in bursts.
 */
class LinkEmulatorTimerGatesAllTestCase : public TestCase
{
  public:
    LinkEmulatorTimerGatesAllTestCase()
        : TestCase("LinkEmulatorQueueDisc: TimerGatesAll holds undelayed packets for the timer")
    {
    }

  private:
    /**
     * Send packets without delay through an emulator with a timer.
     * @param timer the timer
     * @param gatesAll TimerGatesAll
     * @param arrivals enqueue times
     * @param bursts filled with the number of packets of each firing
     * @return the send times
     */
    static std::vector<Time> Run(Ptr<TimerModel> timer,
                                 bool gatesAll,
                                 const std::vector<Time>& arrivals,
                                 std::vector<uint32_t>* bursts)
    {
        EmulatorHarness h;
        h.qd->SetAttribute("Timer", PointerValue(timer));
        h.qd->SetAttribute("TimerGatesAll", BooleanValue(gatesAll));
        h.qd->TraceConnectWithoutContext(
            "TimerFired",
            MakeBoundCallback(static_cast<void (*)(std::vector<uint32_t>*, uint32_t)>(
                                  [](std::vector<uint32_t>* b, uint32_t n) { b->push_back(n); }),
                              bursts));
        h.Start();
        for (Time t : arrivals)
        {
            h.EnqueueAt(t, 100);
        }
        Simulator::Run();
        Simulator::Destroy();
        std::vector<Time> out;
        for (const auto& s : h.sent)
        {
            out.push_back(s.time);
        }
        return out;
    }

    void DoRun() override
    {
        // RTC at 8192 Hz with phase 10 us: ticks at 10000, 132070, 254141 ns.
        const std::vector<Time> arrivals = {MicroSeconds(0),
                                            MicroSeconds(30),
                                            MicroSeconds(60),
                                            MicroSeconds(90),
                                            MicroSeconds(130),
                                            MicroSeconds(250)};
        {
            Ptr<RtcTimer> rtc = CreateObject<RtcTimer>();
            rtc->SetAttribute("Phase", TimeValue(MicroSeconds(10)));
            std::vector<uint32_t> bursts;
            auto sent = Run(rtc, false, arrivals, &bursts);
            NS_TEST_ASSERT_MSG_EQ((sent == arrivals), true, "default: NIST Net's bypass");
            NS_TEST_ASSERT_MSG_EQ(bursts.size(), 0, "no firing");
        }
        {
            Ptr<RtcTimer> rtc = CreateObject<RtcTimer>();
            rtc->SetAttribute("Phase", TimeValue(MicroSeconds(10)));
            std::vector<uint32_t> bursts;
            auto sent = Run(rtc, true, arrivals, &bursts);
            const std::vector<Time> expected = {NanoSeconds(10000),
                                                NanoSeconds(132070),
                                                NanoSeconds(132070),
                                                NanoSeconds(132070),
                                                NanoSeconds(132070),
                                                NanoSeconds(254141)};
            NS_TEST_ASSERT_MSG_EQ(sent.size(), expected.size(), "all sent");
            for (std::size_t i = 0; i < expected.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(sent[i], expected[i], "tick release of packet " << i);
            }
            NS_TEST_ASSERT_MSG_EQ((bursts == std::vector<uint32_t>{1, 4, 1}),
                                  true,
                                  "the four packets of one tick period leave together");
        }
        // A TCTimer of 43-octet packets at 34.4 Mbit/s without latencies fires every 11136 ns
        // from 0: packets at 0, 5, 30 and 31 us leave at 0, 11136, 33408 and 33408 ns.
        {
            Ptr<TcTimer> tc = CreateObject<TcTimer>();
            tc->SetAttribute("PacketSize", UintegerValue(43));
            tc->SetAttribute("Rate", DataRateValue(DataRate("34.4Mbps")));
            tc->SetAttribute("SenderPeriod", TimeValue(Seconds(0)));
            tc->SetAttribute("WatchdogLatency",
                             StringValue("ns3::ConstantRandomVariable[Constant=0]"));
            tc->SetAttribute("DeliveryLatency",
                             StringValue("ns3::ConstantRandomVariable[Constant=0]"));
            std::vector<uint32_t> bursts;
            auto sent = Run(tc,
                            true,
                            {MicroSeconds(0), MicroSeconds(5), MicroSeconds(30), MicroSeconds(31)},
                            &bursts);
            const std::vector<Time> expected
                = {Seconds(0), NanoSeconds(11136), NanoSeconds(33408), NanoSeconds(33408)};
            NS_TEST_ASSERT_MSG_EQ((sent == expected), true, "released on the stream's packets");
            NS_TEST_ASSERT_MSG_EQ((bursts == std::vector<uint32_t>{1, 1, 2}), true, "bursts");
        }
    }
};

/**
 * @ingroup testbed-tests
 * Nothing is left behind: bursts larger than the queue disc's quota, and a device queue that
 * was stopped when the timer fired.
 */
class LinkEmulatorFlowControlTestCase : public TestCase
{
  public:
    LinkEmulatorFlowControlTestCase()
        : TestCase("LinkEmulatorQueueDisc: large bursts and stopped device queues are drained")
    {
    }

  private:
    void DoRun() override
    {
        {
            // 300 packets with one release time: more than QueueDisc's Quota (64) per run.
            EmulatorHarness h;
            h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(1)));
            h.Start();
            Simulator::Schedule(Seconds(0), [&h]() {
                for (int k = 0; k < 300; ++k)
                {
                    h.Enqueue(100);
                }
            });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), 300, "whole burst sent");
            NS_TEST_ASSERT_MSG_EQ(h.sent.back().time, MilliSeconds(1), "all at the release");
            Simulator::Destroy();
        }
        {
            EmulatorHarness h;
            Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
            h.qd->SetNetDeviceQueueInterface(ndqi);
            Ptr<NetDeviceQueue> txq = ndqi->GetTxQueue(0);
            txq->SetWakeCallback(MakeCallback(&QueueDisc::Run, h.qd));
            h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(1)));
            h.Start();
            for (int k = 0; k < 10; ++k)
            {
                h.EnqueueAt(MicroSeconds(10 * k), 100);
            }
            // The device queue is stopped from 0.5 ms to 2 ms: the releases at 1.00-1.09 ms
            // wait, and all leave when the device wakes.
            Simulator::Schedule(MicroSeconds(500), [txq]() { txq->Stop(); });
            Simulator::Schedule(MilliSeconds(2), [txq]() { txq->Wake(); });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), 10, "nothing stuck");
            for (const auto& s : h.sent)
            {
                NS_TEST_ASSERT_MSG_EQ(s.time, MilliSeconds(2), "sent when the device woke");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * Queue limit: exact drop counts in packets and bytes.
 */
class LinkEmulatorLimitTestCase : public TestCase
{
  public:
    LinkEmulatorLimitTestCase()
        : TestCase("LinkEmulatorQueueDisc: queue limit drops exactly the excess")
    {
    }

  private:
    void DoRun() override
    {
        {
            EmulatorHarness h;
            h.qd->SetAttribute("MaxSize", QueueSizeValue(QueueSize("100p")));
            h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(10)));
            h.Start();
            Simulator::Schedule(Seconds(0), [&h]() {
                for (int k = 0; k < 150; ++k)
                {
                    h.Enqueue(500);
                }
            });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.Dropped(LinkEmulatorQueueDisc::LIMIT_EXCEEDED_DROP),
                                  50,
                                  "150 into 100p: 50 dropped");
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), 100, "100 sent");
            NS_TEST_ASSERT_MSG_EQ(h.qd->GetStats().nTotalDroppedPackets, 50, "no other drops");
            Simulator::Destroy();
        }
        {
            // Bytes: 15 packets of 1000 B into 10500 B: 10 accepted; after the release at
            // 10 ms the store is empty again and takes 10 more of the next 12.
            EmulatorHarness h;
            h.qd->SetAttribute("MaxSize", QueueSizeValue(QueueSize("10500B")));
            h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(10)));
            h.Start();
            auto burst = [&h](int n) {
                for (int k = 0; k < n; ++k)
                {
                    h.Enqueue(1000);
                }
            };
            Simulator::Schedule(Seconds(0), [burst]() { burst(15); });
            Simulator::Schedule(MilliSeconds(20), [burst]() { burst(12); });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.Dropped(LinkEmulatorQueueDisc::LIMIT_EXCEEDED_DROP),
                                  5 + 2,
                                  "byte limit");
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), 20, "20 sent");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * Loss, Gilbert-Elliott loss, duplication and reorder rates against their formulas.
 */
class LinkEmulatorRatesTestCase : public TestCase
{
  public:
    LinkEmulatorRatesTestCase()
        : TestCase("LinkEmulatorQueueDisc: loss, Gilbert-Elliott, duplication, reorder rates")
    {
    }

  private:
    void DoRun() override
    {
        const int n = 100000;
        // Random loss: binomial count, 5 sigma.
        for (double p : {0.01, 0.1})
        {
            EmulatorHarness h;
            h.qd->SetAttribute("LossProbability", DoubleValue(p));
            h.Start(11);
            for (int k = 0; k < n; ++k)
            {
                h.Enqueue(100);
            }
            double sigma = std::sqrt(n * p * (1 - p));
            NS_TEST_ASSERT_MSG_EQ_TOL(
                static_cast<double>(h.Dropped(LinkEmulatorQueueDisc::LOSS_DROP)),
                n * p,
                5 * sigma,
                "loss count for p = " << p);
            NS_TEST_ASSERT_MSG_EQ(h.qd->GetNLost(),
                                  h.Dropped(LinkEmulatorQueueDisc::LOSS_DROP),
                                  "counter");
            NS_TEST_ASSERT_MSG_EQ(h.sent.size() + h.qd->GetNLost(), n, "sent + lost = offered");
            Simulator::Destroy();
        }

        // Gilbert-Elliott p = 0.01, r = 0.3, 1-h = 0.8, 1-k = 0.001. Stationary bad-state
        // probability pi_b = p / (p + r); loss rate = pi_b (1-h) + (1 - pi_b)(1-k). Variance of
        // the count: n E[q(1-q)] + (delta q)^2 n pi_b pi_g (1 + lambda) / (1 - lambda),
        // lambda = 1 - p - r (the chain's second eigenvalue).
        {
            const double p = 0.01;
            const double r = 0.3;
            const double lb = 0.8;
            const double lg = 0.001;
            EmulatorHarness h;
            h.qd->SetAttribute("LossModel", StringValue("GilbertElliott"));
            h.qd->SetAttribute("GilbertP", DoubleValue(p));
            h.qd->SetAttribute("GilbertR", DoubleValue(r));
            h.qd->SetAttribute("GilbertBadLoss", DoubleValue(lb));
            h.qd->SetAttribute("GilbertGoodLoss", DoubleValue(lg));
            h.Start(12);
            for (int k = 0; k < n; ++k)
            {
                h.Enqueue(100);
            }
            double pb = p / (p + r);
            double pg = 1 - pb;
            double rate = pb * lb + pg * lg;
            double lambda = 1 - p - r;
            double var = n * (pb * lb * (1 - lb) + pg * lg * (1 - lg))
                         + (lb - lg) * (lb - lg) * n * pb * pg * (1 + lambda) / (1 - lambda);
            NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(h.qd->GetNLost()),
                                      n * rate,
                                      5 * std::sqrt(var),
                                      "Gilbert-Elliott stationary loss");
            Simulator::Destroy();
        }

        // Simple Gilbert (1-h = 1, 1-k = 0): loss bursts are bad-state sojourns, geometric with
        // mean 1/r.
        {
            const double p = 0.01;
            const double r = 0.3;
            EmulatorHarness h;
            h.qd->SetAttribute("LossModel", StringValue("GilbertElliott"));
            h.qd->SetAttribute("GilbertP", DoubleValue(p));
            h.qd->SetAttribute("GilbertR", DoubleValue(r));
            std::vector<bool> lost;
            h.qd->TraceConnectWithoutContext(
                "Lost",
                MakeBoundCallback(
                    static_cast<void (*)(std::vector<bool>*, Ptr<const QueueDiscItem>)>(
                        [](std::vector<bool>* l, Ptr<const QueueDiscItem>) { l->back() = true; }),
                    &lost));
            h.Start(13);
            for (int k = 0; k < n; ++k)
            {
                lost.push_back(false);
                h.Enqueue(100);
            }
            int runs = 0;
            int inRuns = 0;
            for (int k = 0; k < n; ++k)
            {
                inRuns += lost[k] ? 1 : 0;
                runs += (lost[k] && (k == 0 || !lost[k - 1])) ? 1 : 0;
            }
            double meanRun = static_cast<double>(inRuns) / runs;
            // Geometric run length: sd sqrt(1-r)/r per run.
            double tol = 5 * std::sqrt(1 - r) / r / std::sqrt(static_cast<double>(runs));
            NS_TEST_ASSERT_MSG_EQ_TOL(meanRun, 1 / r, tol, "mean loss burst = 1/r");
            Simulator::Destroy();
        }

        // Duplication: binomial count of copies; every copy is sent.
        for (double p : {0.01, 0.1})
        {
            EmulatorHarness h;
            h.qd->SetAttribute("DuplicateProbability", DoubleValue(p));
            h.Start(14);
            for (int k = 0; k < n; ++k)
            {
                h.Enqueue(100);
            }
            double sigma = std::sqrt(n * p * (1 - p));
            NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(h.qd->GetNDuplicated()),
                                      n * p,
                                      5 * sigma,
                                      "duplicate count for p = " << p);
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), n + h.qd->GetNDuplicated(), "copies sent");
            NS_TEST_ASSERT_MSG_EQ(h.qd->GetStats().nTotalReceivedPackets,
                                  n + h.qd->GetNDuplicated(),
                                  "copies counted as received");
            Simulator::Destroy();
        }

        // Reorder: binomial count; reordered packets are released at once.
        {
            const double p = 0.05;
            EmulatorHarness h;
            h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(10)));
            h.qd->SetAttribute("ReorderProbability", DoubleValue(p));
            h.qd->SetAttribute("MaxSize", QueueSizeValue(QueueSize("200000p")));
            h.Start(15);
            for (int k = 0; k < n; ++k)
            {
                h.Enqueue(100);
            }
            double sigma = std::sqrt(n * p * (1 - p));
            NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(h.qd->GetNReordered()),
                                      n * p,
                                      5 * sigma,
                                      "reorder count");
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), h.qd->GetNReordered(), "reordered sent at once");
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.sent.size(), n, "the rest after the delay");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * Jitter distributions: moments, quantiles and correlation against their formulas.
 */
class LinkEmulatorJitterTestCase : public TestCase
{
  public:
    LinkEmulatorJitterTestCase()
        : TestCase("LinkEmulatorQueueDisc: jitter distributions and correlation")
    {
    }

  private:
    /**
     * Delay samples (seconds) of n packets.
     * @param dist DelayDistribution name
     * @param correlation DelayCorrelation
     * @param stream random stream
     * @return the samples
     */
    static std::vector<double> Sample(const std::string& dist, double correlation, int64_t stream)
    {
        EmulatorHarness h;
        h.qd->SetAttribute("MaxSize", QueueSizeValue(QueueSize("200000p")));
        h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(100)));
        h.qd->SetAttribute("Jitter", TimeValue(MilliSeconds(10)));
        h.qd->SetAttribute("DelayDistribution", StringValue(dist));
        h.qd->SetAttribute("DelayCorrelation", DoubleValue(correlation));
        h.Start(stream);
        for (int k = 0; k < 100000; ++k)
        {
            h.Enqueue(100);
        }
        Simulator::Destroy();
        return h.delays;
    }

    void DoRun() override
    {
        const double D = 0.1;
        const double J = 0.01;
        const double n = 100000;

        // Uniform on [D - J, D + J]: mean D, variance J^2/3 (4th central moment J^4/5).
        std::vector<double> u = Sample("Uniform", 0, 21);
        double varU = J * J / 3;
        NS_TEST_ASSERT_MSG_EQ_TOL(Mean(u), D, 5 * std::sqrt(varU / n), "uniform mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(Variance(u),
                                  varU,
                                  5 * std::sqrt((std::pow(J, 4) / 5 - varU * varU) / n),
                                  "uniform variance");
        NS_TEST_ASSERT_MSG_EQ((*std::min_element(u.begin(), u.end()) >= D - J), true, "min");
        NS_TEST_ASSERT_MSG_EQ((*std::max_element(u.begin(), u.end()) <= D + J), true, "max");
        NS_TEST_ASSERT_MSG_EQ_TOL(Lag1(u), 0, 5 / std::sqrt(n), "uncorrelated");

        // Normal with sigma = J: mean D, variance J^2 (standard error sqrt(2/n) J^2; the +-4
        // sigma clip of netem's tables removes 0.1% of the variance), 68.27% within 1 sigma.
        std::vector<double> g = Sample("Normal", 0, 22);
        NS_TEST_ASSERT_MSG_EQ_TOL(Mean(g), D, 5 * J / std::sqrt(n), "normal mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(Variance(g),
                                  J * J,
                                  5 * std::sqrt(2 / n) * J * J + 0.0012 * J * J,
                                  "normal variance");
        double within
            = std::count_if(g.begin(), g.end(), [=](double x) { return std::abs(x - D) <= J; });
        NS_TEST_ASSERT_MSG_EQ_TOL(within / n,
                                  0.682689,
                                  5 * std::sqrt(0.682689 * 0.317311 / n),
                                  "normal: share within one sigma");

        // Correlation c (netem: u_n = (1-c) fresh + c u_{n-1}): lag-1 autocorrelation c, and
        // the uniform's variance shrinks by (1-c)/(1+c).
        const double c = 0.5;
        std::vector<double> uc = Sample("Uniform", c, 23);
        NS_TEST_ASSERT_MSG_EQ_TOL(Lag1(uc), c, 5 * std::sqrt((1 - c * c) / n), "lag-1 = c");
        NS_TEST_ASSERT_MSG_EQ_TOL(Variance(uc),
                                  varU * (1 - c) / (1 + c),
                                  0.05 * varU * (1 - c) / (1 + c),
                                  "correlated variance");
        std::vector<double> gc = Sample("Normal", c, 24);
        NS_TEST_ASSERT_MSG_GT(Lag1(gc), 0.4, "correlation raises the normal's lag-1");

        // netem's pareto: x = 4/3 ((1-u)^(-1/3) - 3/2): x >= -2/3, median 4/3 (2^(1/3) - 3/2),
        // P(x < 0) = 1 - (2/3)^3.
        std::vector<double> p = Sample("Pareto", 0, 25);
        double medianP = 4.0 / 3 * (std::cbrt(2.0) - 1.5);
        // Median standard error: Q'(1/2) / (2 sqrt(n)), Q'(u) = 4/9 (1-u)^(-4/3).
        double seMedianP = 4.0 / 9 * std::pow(0.5, -4.0 / 3) / (2 * std::sqrt(n));
        NS_TEST_ASSERT_MSG_EQ_TOL((Median(p) - D) / J, medianP, 5 * seMedianP, "pareto median");
        double below = std::count_if(p.begin(), p.end(), [=](double x) { return x < D; });
        double pBelow = 1 - 8.0 / 27;
        NS_TEST_ASSERT_MSG_EQ_TOL(below / n,
                                  pBelow,
                                  5 * std::sqrt(pBelow * (1 - pBelow) / n),
                                  "pareto: share below Delay");
        NS_TEST_ASSERT_MSG_EQ((*std::min_element(p.begin(), p.end()) >= D - 2 * J / 3 - 1e-9),
                              true,
                              "pareto minimum");
        NS_TEST_ASSERT_MSG_EQ((*std::max_element(p.begin(), p.end()) <= D + 4 * J + 1e-9),
                              true,
                              "table range");

        // paretonormal: 1/4 normal + 3/4 pareto of the same u: median 3/4 of pareto's.
        std::vector<double> pn = Sample("ParetoNormal", 0, 26);
        // Q'(1/2) = 1/4 sqrt(2 pi) + 3/4 * 4/9 * 2^(4/3).
        double dq = 0.25 * std::sqrt(2 * M_PI) + 0.75 * 4.0 / 9 * std::pow(2.0, 4.0 / 3);
        NS_TEST_ASSERT_MSG_EQ_TOL((Median(pn) - D) / J,
                                  0.75 * medianP,
                                  5 * dq / (2 * std::sqrt(n)),
                                  "paretonormal median");
    }
};

/**
 * @ingroup testbed-tests
 * The same seed and run give identical output; another run differs.
 */
class LinkEmulatorDeterminismTestCase : public TestCase
{
  public:
    LinkEmulatorDeterminismTestCase()
        : TestCase("LinkEmulatorQueueDisc: same seed and run => identical traces")
    {
    }

  private:
    /**
     * One run with every random stage on.
     * @param run RngRun
     * @return (time in ns, size) of every packet sent
     */
    static std::vector<std::pair<int64_t, uint32_t>> OneRun(uint64_t run)
    {
        RngSeedManager::SetSeed(3);
        RngSeedManager::SetRun(run);
        EmulatorHarness h;
        Ptr<OversleepTimer> t = CreateObject<OversleepTimer>();
        t->SetAttribute("Oversleep", StringValue("ns3::ExponentialRandomVariable[Mean=50e-6]"));
        h.qd->SetAttribute("Timer", PointerValue(t));
        h.qd->SetAttribute("Rate", DataRateValue(DataRate("20Mbps")));
        h.qd->SetAttribute("Delay", TimeValue(MilliSeconds(20)));
        h.qd->SetAttribute("Jitter", TimeValue(MilliSeconds(5)));
        h.qd->SetAttribute("DelayDistribution", StringValue("ParetoNormal"));
        h.qd->SetAttribute("DelayCorrelation", DoubleValue(0.25));
        h.qd->SetAttribute("LossProbability", DoubleValue(0.05));
        h.qd->SetAttribute("DuplicateProbability", DoubleValue(0.05));
        h.qd->SetAttribute("ReorderProbability", DoubleValue(0.05));
        h.Start(1);
        for (int k = 0; k < 2000; ++k)
        {
            h.EnqueueAt(MicroSeconds(500 * k), 200 + k % 800);
        }
        Simulator::Run();
        Simulator::Destroy();
        std::vector<std::pair<int64_t, uint32_t>> out;
        for (const auto& s : h.sent)
        {
            out.emplace_back(s.time.GetNanoSeconds(), s.size);
        }
        return out;
    }

    void DoRun() override
    {
        auto a = OneRun(1);
        auto b = OneRun(1);
        auto c = OneRun(2);
        NS_TEST_ASSERT_MSG_GT(a.size(), 1800, "most packets sent");
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "identical for the same run");
        NS_TEST_ASSERT_MSG_EQ((a == c), false, "different for another run");
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
    }
};

/**
 * @ingroup testbed-tests
 * The link-emulator suite.
 */
class LinkEmulatorTestSuite : public TestSuite
{
  public:
    LinkEmulatorTestSuite()
        : TestSuite("testbed-link-emulator", Type::UNIT)
    {
        AddTestCase(new LinkEmulatorConfigTestCase, Duration::QUICK);
        AddTestCase(new LinkEmulatorSemanticsTestCase, Duration::QUICK);
        AddTestCase(new LinkEmulatorOrderTestCase, Duration::QUICK);
        AddTestCase(new LinkEmulatorTimerTestCase, Duration::QUICK);
        AddTestCase(new LinkEmulatorTimerGatesAllTestCase, Duration::QUICK);
        AddTestCase(new LinkEmulatorFlowControlTestCase, Duration::QUICK);
        AddTestCase(new LinkEmulatorLimitTestCase, Duration::QUICK);
        AddTestCase(new LinkEmulatorRatesTestCase, Duration::QUICK);
        AddTestCase(new LinkEmulatorJitterTestCase, Duration::QUICK);
        AddTestCase(new LinkEmulatorDeterminismTestCase, Duration::QUICK);
    }
};

static LinkEmulatorTestSuite g_linkEmulatorTestSuite; //!< static instance
