/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [NTT96]'s jitter definition on hand-made arrivals (standard arrival = first + k x interval;
 * max - min of the deviations; lost packets leave gaps, duplicates and packets before the first
 * are ignored) and on a TCP record stream cut at arbitrary byte boundaries (a packet arrives
 * when the read completing its record completes).
 */

#include "ns3/ntt-jitter.h"
#include "ns3/ntt-receiver.h"
#include "ns3/packet.h"
#include "ns3/seq-ts-header.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

/**
 * @ingroup testbed-tests
 * The jitter of hand-made arrival lists.
 */
class NttJitterTestCase : public TestCase
{
  public:
    NttJitterTestCase()
        : TestCase("NTT96 jitter: hand-made arrivals")
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
        NS_TEST_EXPECT_MSG_EQ(r.used, 5u, "all used");

        // A window of 3: packets 103 and 104 are outside it.
        r = NttJitter::Compute(a, T, 3);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 3e-3, 1e-12, "window of 3: 1 - (-2) ms");

        // Packet 102 lost: the later ones keep their numbers; one missing.
        std::vector<std::pair<uint32_t, Time>> lost(a);
        lost.erase(lost.begin() + 2);
        r = NttJitter::Compute(lost, T, 5);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 3e-3, 1e-12, "without packet 102: 3 - 0 ms");
        NS_TEST_EXPECT_MSG_EQ(r.missing, 1u, "one missing");

        // A late first packet makes every other deviation negative.
        std::vector<std::pair<uint32_t, Time>> late{{0, Seconds(1) + MilliSeconds(4)},
                                                    {1, Seconds(1) + T},
                                                    {2, Seconds(1) + T * 2}};
        r = NttJitter::Compute(late, T, 3);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 4e-3, 1e-12, "late first packet");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.minDev, -4e-3, 1e-12, "the others 4 ms early");

        // Duplicates are ignored.
        late.emplace_back(1, Seconds(9));
        r = NttJitter::Compute(late, T, 3);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jitter, 4e-3, 1e-12, "duplicate ignored");
        NS_TEST_EXPECT_MSG_EQ(NttJitter::Compute({}, T, 3).used, 0u, "nothing arrived");
        NS_TEST_EXPECT_MSG_EQ(NttJitter::Compute({}, T, 3).missing, 3u, "all missing");
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
 * The NTT96 instruments' suite.
 */
class NttTestSuite : public TestSuite
{
  public:
    NttTestSuite()
        : TestSuite("testbed-ntt", Type::UNIT)
    {
        AddTestCase(new NttJitterTestCase, Duration::QUICK);
        AddTestCase(new NttRecordStreamTestCase, Duration::QUICK);
    }
};

static NttTestSuite g_nttTestSuite; //!< static instance
