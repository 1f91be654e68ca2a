/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Timer models against hand-computed firing times.
 */

#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/oversleep-timer.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/tick-timer.h"
#include "ns3/timer-model.h"
#include "ns3/uinteger.h"

using namespace ns3;

/**
 * @ingroup testbed-tests
 * A tick timer fires on the first tick at or after the expiry (+ extra ticks).
 */
class TickTimerTestCase : public TestCase
{
  public:
    TickTimerTestCase()
        : TestCase("TickTimer: firing on 1 kHz and 8192 Hz ticks")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TickTimer> t = CreateObject<TickTimer>();
        t->SetAttribute("Frequency", DoubleValue(1000));
        // Armed at 0.3 ms for 2 ms: expiry 2.3 ms -> tick 3 ms.
        NS_TEST_ASSERT_MSG_EQ(t->GetFireTime(MicroSeconds(300), MilliSeconds(2)),
                              MilliSeconds(3),
                              "first tick at or after 2.3 ms");
        // Expiry exactly on a tick fires on that tick.
        NS_TEST_ASSERT_MSG_EQ(t->GetFireTime(MilliSeconds(1), MilliSeconds(2)),
                              MilliSeconds(3),
                              "expiry on a tick");
        // Zero delay between ticks waits for the next tick.
        NS_TEST_ASSERT_MSG_EQ(t->GetFireTime(MicroSeconds(1), Seconds(0)),
                              MilliSeconds(1),
                              "zero delay waits for the next tick");
        // Linux 2.6 jiffy sleep: one extra tick.
        t->SetAttribute("ExtraTicks", UintegerValue(1));
        NS_TEST_ASSERT_MSG_EQ(t->GetFireTime(MicroSeconds(300), MilliSeconds(2)),
                              MilliSeconds(4),
                              "one extra jiffy");
        // The same delay from another instant (GetFireTime keeps the stretched delay), then the
        // period changed after use (it keeps the period too): a 250 Hz jiffy is 4 ms, so the
        // expiry 2.3 ms meets tick 4 ms, plus the extra tick.
        NS_TEST_ASSERT_MSG_EQ(t->GetFireTime(MicroSeconds(1300), MilliSeconds(2)),
                              MilliSeconds(5),
                              "same delay, expiry 3.3 ms -> tick 4 ms + one extra");
        t->SetAttribute("Frequency", DoubleValue(250));
        NS_TEST_ASSERT_MSG_EQ(t->GetFireTime(MicroSeconds(300), MilliSeconds(2)),
                              MilliSeconds(8),
                              "250 Hz after 1 kHz: tick 4 ms + one extra");

        // RTC at 8192 Hz: period 122.0703125 us; a 10 us request from a tick takes a whole period,
        // a 130 us request two periods.
        Ptr<TickTimer> rtc = CreateObject<TickTimer>();
        rtc->SetAttribute("Frequency", DoubleValue(8192));
        Time period = rtc->GetPeriod();
        NS_TEST_ASSERT_MSG_EQ_TOL(period.GetSeconds(), 1.0 / 8192, 1e-9, "RTC period");
        // Tick 8192 is at exactly 1 s: no drift from the period's nanosecond rounding.
        NS_TEST_ASSERT_MSG_EQ(rtc->GetFireTime(Seconds(1) - MicroSeconds(50), MicroSeconds(10)),
                              Seconds(1),
                              "tick 8192 at 1 s");
        NS_TEST_ASSERT_MSG_EQ(rtc->GetFireTime(Seconds(0), MicroSeconds(10)),
                              period,
                              "short request takes one period");
        NS_TEST_ASSERT_MSG_EQ(rtc->GetFireTime(Seconds(0), MicroSeconds(130)),
                              NanoSeconds(244141),
                              "130 us takes two periods");

        // A 1% slow clock stretches the period.
        rtc->SetAttribute("ClockError", DoubleValue(0.01));
        NS_TEST_ASSERT_MSG_EQ_TOL(rtc->GetPeriod().GetSeconds(),
                                  1.01 / 8192,
                                  1e-9,
                                  "slow clock period");
        // ... and the ticks after use: tick 1 at round(1e9 * 1.01 / 8192) = 123291 ns; the
        // 10 us request (10.1 us on the slow clock) fires there.
        NS_TEST_ASSERT_MSG_EQ(rtc->GetFireTime(Seconds(0), MicroSeconds(10)),
                              NanoSeconds(123291),
                              "slow clock: first tick at 123291 ns");
    }
};

/**
 * @ingroup testbed-tests
 * A sequence of sleeps on an 8192 Hz clock (period 122 070.3125 ns, tick k at round(k *
 * 122 070.3125) ns), each armed when the previous one fired, against hand-computed ticks: an
 * expiry on a rounded tick, just before it, between ticks, zero and one-step delays, tick 8192
 * at exactly 1 s, and a phase with an extra tick.
 */
class TickTimerSequenceTestCase : public TestCase
{
  public:
    TickTimerSequenceTestCase()
        : TestCase("TickTimer: a sequence of sleeps on 8192 Hz ticks, hand-computed")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TickTimer> t = CreateObject<TickTimer>();
        t->SetAttribute("Frequency", DoubleValue(8192));
        // Tick 40 is at 40 * 122070.3125 = 4882812.5 -> 4882813 ns (rounded half away from 0);
        // an expiry exactly there fires on tick 40, not on tick 41 (5004882.8 -> 5004883 ns).
        Time now = Seconds(0);
        Time fire = t->GetFireTime(now, NanoSeconds(4882813));
        NS_TEST_ASSERT_MSG_EQ(fire, NanoSeconds(4882813), "expiry on tick 40 (rounded up)");
        // From there 1 ms: expiry 5882813 ns; tick 48 at 5859375, tick 49 at 5981445.3 ns.
        now = fire;
        fire = t->GetFireTime(now, MilliSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(fire, NanoSeconds(5981445), "expiry between ticks 48 and 49");
        // A zero delay on a tick fires on it; one nanosecond more waits for tick 50
        // (6103515.625 -> 6103516 ns).
        now = fire;
        fire = t->GetFireTime(now, Seconds(0));
        NS_TEST_ASSERT_MSG_EQ(fire, NanoSeconds(5981445), "zero delay on tick 49");
        fire = t->GetFireTime(now, NanoSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(fire, NanoSeconds(6103516), "one step past tick 49 -> tick 50");
        // An expiry half a step before tick 40's exact time: 4882812 ns -> tick 40 at 4882813.
        fire = t->GetFireTime(NanoSeconds(2), NanoSeconds(4882810));
        NS_TEST_ASSERT_MSG_EQ(fire, NanoSeconds(4882813), "expiry just before tick 40");
        // One step after tick 39 (4760742.1875 -> 4760742 ns): tick 40.
        fire = t->GetFireTime(NanoSeconds(4760743), Seconds(0));
        NS_TEST_ASSERT_MSG_EQ(fire, NanoSeconds(4882813), "one step after tick 39");
        // Tick 8192 at exactly 1 s, from an expiry 100 us before it.
        fire = t->GetFireTime(MilliSeconds(999), MicroSeconds(900));
        NS_TEST_ASSERT_MSG_EQ(fire, Seconds(1), "tick 8192 at 1 s");
        // Phase 1 us and one extra tick: the expiry 4883813 ns is on tick 40 (1000 + 4882813),
        // so it fires on tick 41 at 1000 + 5004883 ns.
        t->SetAttribute("Phase", TimeValue(MicroSeconds(1)));
        t->SetAttribute("ExtraTicks", UintegerValue(1));
        fire = t->GetFireTime(Seconds(0), NanoSeconds(4883813));
        NS_TEST_ASSERT_MSG_EQ(fire, NanoSeconds(5005883), "phase 1 us: tick 40, plus one");
        // Armed before the phase (tick 0 at 1 us): a zero delay fires on tick 0 plus one.
        fire = t->GetFireTime(Seconds(0), Seconds(0));
        NS_TEST_ASSERT_MSG_EQ(fire, NanoSeconds(1000 + 122070), "before tick 0: tick 1");
    }
};

/**
 * @ingroup testbed-tests
 * An oversleep timer fires after delay + oversleep, rounded up to its resolution.
 */
class OversleepTimerTestCase : public TestCase
{
  public:
    OversleepTimerTestCase()
        : TestCase("OversleepTimer: constant and random oversleep")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<OversleepTimer> t = CreateObject<OversleepTimer>();
        t->SetAttribute("Oversleep", StringValue("ns3::ConstantRandomVariable[Constant=60e-6]"));
        NS_TEST_ASSERT_MSG_EQ(t->GetFireTime(MilliSeconds(1), MicroSeconds(100)),
                              MicroSeconds(1160),
                              "100 us + 60 us oversleep");
        t->SetAttribute("Resolution", TimeValue(MicroSeconds(50)));
        NS_TEST_ASSERT_MSG_EQ(t->GetFireTime(MilliSeconds(1), MicroSeconds(100)),
                              MicroSeconds(1200),
                              "rounded up to 50 us");

        // Random oversleep never fires early; its mean matches the distribution's mean.
        Ptr<OversleepTimer> r = CreateObject<OversleepTimer>();
        r->SetAttribute("Oversleep",
                        StringValue("ns3::ExponentialRandomVariable[Mean=60e-6|Bound=0]"));
        r->AssignStreams(7);
        const int n = 20000;
        double sum = 0;
        bool early = false;
        for (int i = 0; i < n; ++i)
        {
            Time f = r->GetFireTime(Seconds(0), MicroSeconds(10));
            early = early || f < MicroSeconds(10);
            sum += (f - MicroSeconds(10)).GetSeconds();
        }
        NS_TEST_ASSERT_MSG_EQ(early, false, "never early");
        // Mean of n exponentials: standard error 60us/sqrt(n) = 0.42 us; allow 5 sigma.
        NS_TEST_ASSERT_MSG_EQ_TOL(sum / n, 60e-6, 2.2e-6, "mean oversleep");
    }
};

/**
 * @ingroup testbed-tests
 * The timer-model suite.
 */
class TimerModelTestSuite : public TestSuite
{
  public:
    TimerModelTestSuite()
        : TestSuite("testbed-timer-model", Type::UNIT)
    {
        AddTestCase(new TickTimerTestCase, Duration::QUICK);
        AddTestCase(new TickTimerSequenceTestCase, Duration::QUICK);
        AddTestCase(new OversleepTimerTestCase, Duration::QUICK);
    }
};

static TimerModelTestSuite g_timerModelTestSuite; //!< static instance
