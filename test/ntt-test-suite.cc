/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [NTT96]'s jitter definition on hand-made arrivals (standard arrival of the k-th LOGGED
 * packet = first + k x interval, in arrival order; max - min of the deviations over the first
 * n logged packets: a shortfall accumulates linearly in k, a loss before the receiver shifts
 * the schedule; a cut-off run gives a lower bound), the sequence-numbered statistic, and a TCP
 * record stream cut at arbitrary byte boundaries (a packet arrives when the read completing
 * its record completes).
 */

#include "ns3/ntt-jitter.h"
#include "ns3/ntt-receiver.h"
#include "ns3/packet.h"
#include "ns3/seq-ts-header.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

/**
 * @ingroup testbed-tests
 * The study's jitter on hand-made arrival lists: the k-th LOGGED packet, in arrival order.
 */
class NttJitterTestCase : public TestCase
{
  public:
    NttJitterTestCase()
        : TestCase("NTT96 jitter: hand-made arrivals, the k-th logged packet")
    {
    }

  private:
    void DoRun() override
    {
        const Time T = MicroSeconds(5550);
        // Packets 100..104 at 10 s + k T + d_k, d = (0, +1, -2, +3, 0) ms: deviations relative
        // to the first are (0, 1, -2, 3, 0) ms, jitter 5 ms.
        std::vector<std::pair<uint32_t, Time>> a;
        const int d[] = {0, 1, -2, 3, 0};
        for (uint32_t k = 0; k < 5; ++k)
        {
            a.emplace_back(100 + k, Seconds(10) + T * k + MilliSeconds(d[k]));
        }
        NttJitter::Result r = NttJitter::Compute(a, T, 5);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 5e-3, 1e-12, "max - min");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.maxDev, 3e-3, 1e-12, "max deviation");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.minDev, -2e-3, 1e-12, "min deviation");

        // A window of 3: the first three logged packets, 1 - (-2) ms.
        r = NttJitter::Compute(a, T, 3);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 3e-3, 1e-12, "window of 3: 1 - (-2) ms");

        // A late first packet makes every other deviation negative.
        std::vector<std::pair<uint32_t, Time>> late{{0, Seconds(1) + MilliSeconds(4)},
                                                    {1, Seconds(1) + T},
                                                    {2, Seconds(1) + T * 2}};
        r = NttJitter::Compute(late, T, 3);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 4e-3, 1e-12, "late first packet");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.minDev, -4e-3, 1e-12, "the others 4 ms early");
    }
};

/**
 * @ingroup testbed-tests
 * A stream that falls behind its rate: the shortfall accumulates, the jitter grows linearly
 * with the number of logged packets. By hand: packet k logged at k (T + delta) has the
 * deviation k delta, so the jitter over n packets is (n - 1) delta.
 */
class NttJitterShortfallTestCase : public TestCase
{
  public:
    NttJitterShortfallTestCase()
        : TestCase("NTT96 jitter: a shortfall accumulates linearly in k")
    {
    }

  private:
    void DoRun() override
    {
        const Time T = MicroSeconds(5550);
        const Time delta = MicroSeconds(50); // the stream runs at T / (T + delta) of its rate
        std::vector<std::pair<uint32_t, Time>> slow;
        for (uint32_t k = 0; k < 1000; ++k)
        {
            slow.emplace_back(k, Seconds(2) + (T + delta) * k);
        }
        for (uint32_t n : {10u, 100u, 1000u})
        {
            NttJitter::Result r = NttJitter::Compute(slow, T, n);
            NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter,
                                      (n - 1) * delta.GetSeconds(),
                                      1e-12,
                                      "jitter over " << n << " packets: (n - 1) delta");
        }
        // Half the stream lost before the receiver (every other packet: the sending computer's
        // socket buffer overflows), the rest on time: the receiver logs one packet every 2 T,
        // so the k-th logged packet is k T late and the jitter over n logged packets is
        // (n - 1) T, although every packet that arrived was on time by its sequence number.
        std::vector<std::pair<uint32_t, Time>> halved;
        for (uint32_t s = 0; s < 2000; s += 2)
        {
            halved.emplace_back(s, Seconds(2) + T * s);
        }
        for (uint32_t n : {10u, 100u, 1000u})
        {
            NttJitter::Result r = NttJitter::Compute(halved, T, n);
            NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter,
                                      (n - 1) * T.GetSeconds(),
                                      1e-12,
                                      "half lost, " << n << " logged: (n - 1) T");
        }
    }
};

/**
 * @ingroup testbed-tests
 * A packet lost before the receiver leaves no gap: the schedule shifts by one interval.
 */
class NttJitterLossTestCase : public TestCase
{
  public:
    NttJitterLossTestCase()
        : TestCase("NTT96 jitter: loss before the receiver shifts the schedule")
    {
    }

  private:
    void DoRun() override
    {
        const Time T = MicroSeconds(5550);
        // Packets 0..5 sent at k T, each arriving 1 ms after it was sent; packet 2 is lost.
        // Logged: 0, 1, 3, 4, 5 as k = 0..4; standards t0 + k T; deviations 0, 0, T, T, T:
        // jitter T (by sequence numbers it would be 0).
        std::vector<std::pair<uint32_t, Time>> a;
        for (uint32_t s : {0u, 1u, 3u, 4u, 5u})
        {
            a.emplace_back(s, T * s + MilliSeconds(1));
        }
        NttJitter::Result r = NttJitter::Compute(a, T, 5);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, T.GetSeconds(), 1e-12, "one loss: jitter T");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.maxDev, T.GetSeconds(), 1e-12, "the later ones one T late");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.minDev, 0.0, 1e-12, "the earlier ones on time");
        // Three losses in a row: 3 T.
        std::vector<std::pair<uint32_t, Time>> b{{0, Seconds(1)},
                                                 {1, Seconds(1) + T},
                                                 {5, Seconds(1) + T * 5},
                                                 {6, Seconds(1) + T * 6}};
        r = NttJitter::Compute(b, T, 4);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 3 * T.GetSeconds(), 1e-12, "three losses: 3 T");
    }
};

/**
 * @ingroup testbed-tests
 * A run cut off before the window was logged: the jitter is a lower bound that counts the next
 * packet's pending deviation; the sequence-numbered statistic keeps its old meaning.
 */
class NttJitterCutOffTestCase : public TestCase
{
  public:
    NttJitterCutOffTestCase()
        : TestCase("NTT96 jitter: a cut-off run gives a lower bound; the sequence statistic")
    {
    }

  private:
    void DoRun() override
    {
        const Time T = MicroSeconds(5550);
        // Three of five logged, at 0, T + 1 ms, 2 T - 0.5 ms; cut off at 30 ms. Deviations
        // 0, +1, -0.5 ms; packet 3 comes after 30 ms: its deviation is at least
        // 30 ms - 3 T = 13.35 ms, so the jitter is at least 13.35 + 0.5 ms.
        std::vector<std::pair<uint32_t, Time>> a{{0, Seconds(0)},
                                                 {1, T + MilliSeconds(1)},
                                                 {2, T * 2 - MicroSeconds(500)}};
        NttJitter::Result r = NttJitter::Compute(a, T, 5, MilliSeconds(30));
        NS_TEST_EXPECT_MSG_EQ(r.lowerBound, true, "cut off");
        NS_TEST_EXPECT_MSG_EQ(r.logged, 3u, "three logged");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.pendingDev, 13.35e-3, 1e-12, "pending deviation");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 13.85e-3, 1e-12, "lower bound");
        // Cut off early, the pending deviation is below the logged ones: max - min of those.
        r = NttJitter::Compute(a, T, 5, T * 2);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 1.5e-3, 1e-12, "bound of the logged packets");
        // Nothing logged: 0, a (trivial) lower bound, never undefined.
        r = NttJitter::Compute({}, T, 5, Seconds(10));
        NS_TEST_EXPECT_MSG_EQ(r.lowerBound, true, "nothing logged: a bound");
        NS_TEST_EXPECT_MSG_EQ(r.jitter, 0.0, "of zero");
        // The window is the first n LOGGED packets however long they take: with every other
        // packet lost, 1000 logged packets span 2000 sequence numbers.
        std::vector<std::pair<uint32_t, Time>> halved;
        for (uint32_t s = 0; s < 2000; s += 2)
        {
            halved.emplace_back(s, T * s);
        }
        r = NttJitter::Compute(halved, T, 1000, T * 2000);
        NS_TEST_EXPECT_MSG_EQ(r.logged, 1000u, "1000 logged packets");
        NS_TEST_EXPECT_MSG_EQ(r.lowerBound, false, "not cut off");
        // The whole window logged: the cut-off time plays no part.
        std::vector<std::pair<uint32_t, Time>> full{{0, Seconds(0)}, {1, T}, {2, T * 2}};
        r = NttJitter::Compute(full, T, 3, Seconds(100));
        NS_TEST_EXPECT_MSG_EQ(r.lowerBound, false, "complete");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 0.0, 1e-12, "on time");

        // The sequence-numbered statistic (a second field): a loss leaves a gap.
        std::vector<std::pair<uint32_t, Time>> lost{{0, Seconds(0)},
                                                    {1, T},
                                                    {3, T * 3 + MilliSeconds(2)},
                                                    {1, Seconds(9)}};
        NttJitter::SeqResult s = NttJitter::ComputeBySequence(lost, T, 4);
        NS_TEST_EXPECT_MSG_EQ_TOL(s.jitter, 2e-3, 1e-12, "by sequence: 2 ms");
        NS_TEST_EXPECT_MSG_EQ(s.used, 3u, "the duplicate ignored");
        NS_TEST_EXPECT_MSG_EQ(s.missing, 1u, "one missing");
    }
};

/**
 * @ingroup testbed-tests
 * A TCP record stream cut at arbitrary read boundaries.
 */
class NttRecordStreamTestCase : public TestCase
{
  public:
    NttRecordStreamTestCase()
        : TestCase("NTT96 jitter: TCP record stream, arrival = read completing the record")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t size = 100; // record bytes
        Ptr<NttReceiver> rx = CreateObject<NttReceiver>();
        rx->SetAttribute("RecordSize", UintegerValue(size));
        // Records 7, 8, 9, 10 (numbers in their SeqTsHeader), 400 bytes in all.
        Ptr<Packet> stream = Create<Packet>();
        for (uint32_t s = 7; s <= 10; ++s)
        {
            Ptr<Packet> rec = Create<Packet>(size - 12);
            SeqTsHeader h;
            h.SetSeq(s);
            rec->AddHeader(h);
            stream->AddAtEnd(rec);
        }
        // Reads of 5, 150, 45, 3 (a header split across reads), 97, 100 bytes at t = 1..6 s:
        // record 7 completes at the 2nd read, 8 at the 3rd, 9 at the 5th, 10 at the 6th.
        const uint32_t cuts[] = {5, 150, 45, 3, 97, 100};
        uint32_t offset = 0;
        for (uint32_t i = 0; i < 6; ++i)
        {
            rx->ConsumeStream(stream->CreateFragment(offset, cuts[i]), Seconds(i + 1));
            offset += cuts[i];
        }
        const auto& a = rx->GetArrivals();
        NS_TEST_ASSERT_MSG_EQ(a.size(), 4u, "four records");
        const uint32_t seq[] = {7, 8, 9, 10};
        const double at[] = {2, 3, 5, 6};
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(a[i].first, seq[i], "record " << i << "'s number");
            NS_TEST_EXPECT_MSG_EQ(a[i].second, Seconds(at[i]), "record " << i << "'s arrival");
        }
        // Interval 1 s: standard arrivals 2, 3, 4, 5 s, deviations (0, 0, 1, 1) s.
        NttJitter::Result r = NttJitter::Compute(a, Seconds(1), 4);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 1.0, 1e-12, "record-stream jitter");
    }
};

/**
 * @ingroup testbed-tests
 * The receiving application's clock: logged times are multiples of its tick, and a perfectly
 * periodic stream's jitter is the spread of the rounding alone.
 */
class NttClockQuantumTestCase : public TestCase
{
  public:
    /**
     * @param hz ticks per second
     * @param low the least jitter, by hand (s)
     * @param high the largest (s)
     */
    NttClockQuantumTestCase(uint32_t hz, double low, double high)
        : TestCase("NTT96 receiver: timestamps on a " + std::to_string(hz) + " Hz clock")
        , m_hz(hz)
        , m_low(low)
        , m_high(high)
    {
    }

  private:
    void DoRun() override
    {
        // 1 000 records arriving exactly every 5.55 ms from t0 = 1.234567891 s (a phase off
        // every tick grid), read one record per read.
        const uint32_t size = 12;
        const uint32_t n = 1000;
        const Time interval = MicroSeconds(5550);
        Ptr<NttReceiver> rx = CreateObject<NttReceiver>();
        rx->SetAttribute("RecordSize", UintegerValue(size));
        rx->SetAttribute("TimestampHz", UintegerValue(m_hz));
        for (uint32_t k = 0; k < n; ++k)
        {
            Ptr<Packet> rec = Create<Packet>();
            SeqTsHeader h;
            h.SetSeq(k);
            rec->AddHeader(h);
            rx->ConsumeStream(rec, NanoSeconds(1234567891) + k * interval);
        }
        const auto& a = rx->GetArrivals();
        NS_TEST_ASSERT_MSG_EQ(a.size(), n, "every record logged");
        for (const auto& [seq, t] : a)
        {
            // t shows tick m = round(t x Hz): m x 1e9 / Hz ns rounded down is t.
            const int64_t ns = t.GetNanoSeconds();
            const auto m = static_cast<int64_t>(std::llround(double(ns) * m_hz / 1e9));
            NS_TEST_EXPECT_MSG_EQ(ns,
                                  static_cast<int64_t>(__int128(m) * 1000000000 / m_hz),
                                  "packet " << seq << "'s time is a whole tick");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(t,
                                        NanoSeconds(1234567891) + seq * interval,
                                        "the clock shows the tick at or before the arrival");
        }
        const NttJitter::Result r = NttJitter::Compute(a, interval, n);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(r.jitter, m_low, "jitter at least");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(r.jitter, m_high, "jitter at most");
    }

    uint32_t m_hz; //!< ticks per second
    double m_low;  //!< least jitter (s)
    double m_high; //!< largest jitter (s)
};

/**
 * @ingroup testbed-tests
 * The NTT96 instruments' suite.
 */
class NttTestSuite : public TestSuite
{
  public:
    NttTestSuite()
        : TestSuite("testbed-ntt", Type::UNIT)
    {
        AddTestCase(new NttJitterTestCase, Duration::QUICK);
        AddTestCase(new NttJitterShortfallTestCase, Duration::QUICK);
        AddTestCase(new NttJitterLossTestCase, Duration::QUICK);
        AddTestCase(new NttJitterCutOffTestCase, Duration::QUICK);
        AddTestCase(new NttRecordStreamTestCase, Duration::QUICK);
        // By hand, with every arrival error e_k = t_k - tick(t_k) in [0, q) and the deviation
        // of packet k = e_0 - e_k: 1 us divides 5.55 ms, so every e_k is the same (jitter 0);
        // 10 ms: 5.55 / 10 = 111 / 200 with 111 and 200 coprime, so the 1 000 errors take 200
        // equally spaced values (199 / 200 x 10 ms = 9.95 ms); 1/1024 s: 5.55 ms is 5.6832
        // ticks, the errors fill [0, q) to within q/100 (and the ns rounding of a tick, 1 ns).
        AddTestCase(new NttClockQuantumTestCase(1000000, 0, 0), Duration::QUICK);
        AddTestCase(new NttClockQuantumTestCase(100, 9.95e-3 - 1e-12, 9.95e-3 + 1e-12),
                    Duration::QUICK);
        AddTestCase(new NttClockQuantumTestCase(1024, 0.99 / 1024, 1.0 / 1024 + 1e-9),
                    Duration::QUICK);
    }
};

static NttTestSuite g_nttTestSuite; //!< static instance
