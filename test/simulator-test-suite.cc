/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3::LeanSimulatorImpl against ns-3's own DefaultSimulatorImpl: a hand-computed order of
 * same-time events, and randomized schedules (same-timestamp events, Cancel, Remove, events
 * that schedule events, ScheduleNow, ScheduleWithContext, ScheduleDestroy, Stop at a time and a
 * second Run) that must give the identical trace of (time, context, event, uid) under both;
 * and PooledEvent (MakePooledEvent): memory reuse, the captured state's destruction, both
 * implementations.
 */

#include "ns3/default-simulator-impl.h"
#include "ns3/enum.h"
#include "ns3/fast-path.h"
#include "ns3/lean-simulator-impl.h"
#include "ns3/nstime.h"
#include "ns3/pooled-event.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/** One observation of a run: what happened, when, in which context, with which numbers. */
struct Record
{
    char what;        //!< 'E' event ran, 'D' destroy event ran, 'S' scheduled, 'Q' query, 'R' end
    int64_t time;     //!< Simulator::Now in time steps
    uint32_t context; //!< Simulator::GetContext
    uint64_t label;   //!< the event's label (or a query's answer)
    uint64_t extra;   //!< a uid, a delay left, an event count

    /**
     * @brief Equality of every field.
     * @param o the other record
     * @return whether equal
     */
    bool operator==(const Record& o) const
    {
        return std::tie(what, time, context, label, extra)
               == std::tie(o.what, o.time, o.context, o.label, o.extra);
    }
};

/**
 * @brief A record as text (for failure messages).
 * @param r the record
 * @return the text
 */
std::string
Show(const Record& r)
{
    std::ostringstream os;
    os << r.what << " t=" << r.time << " ctx=" << r.context << " label=" << r.label
       << " extra=" << r.extra;
    return os.str();
}

/**
 * @brief The first difference between two traces.
 * @param lean the trace under LeanSimulatorImpl
 * @param reference the trace under DefaultSimulatorImpl
 * @return "" if they are identical, else the first differing record of each (or the lengths)
 */
std::string
FirstDifference(const std::vector<Record>& lean, const std::vector<Record>& reference)
{
    std::size_t i = 0;
    while (i < reference.size() && i < lean.size() && lean[i] == reference[i])
    {
        ++i;
    }
    if (i < reference.size() && i < lean.size())
    {
        return "record " + std::to_string(i) + ": " + Show(lean[i]) + " against "
               + Show(reference[i]);
    }
    if (lean.size() != reference.size())
    {
        return "trace length " + std::to_string(lean.size()) + " against "
               + std::to_string(reference.size());
    }
    return "";
}

/**
 * A randomized schedule, driven by its own random generator: as long as both implementations
 * run the events in the same order, they draw the same numbers and make the same calls.
 */
class RandomSchedule
{
  public:
    /**
     * @brief Run the schedule under one simulator implementation.
     * @param impl the implementation (installed with Simulator::SetImplementation)
     * @param seed the generator's seed
     * @param initial events scheduled before Run
     * @param maxEvents no event schedules further events once this many labels were given
     * @param toEnd whether the last Run runs to the end (else Destroy releases queued events)
     * @return the trace
     */
    std::vector<Record> Run(Ptr<SimulatorImpl> impl,
                            uint64_t seed,
                            uint32_t initial,
                            uint32_t maxEvents,
                            bool toEnd = true)
    {
        Simulator::Destroy();
        Simulator::SetImplementation(impl);
        m_rng.seed(seed);
        m_trace.clear();
        m_ids.clear();
        m_next = 0;
        m_maxEvents = maxEvents;
        for (uint32_t i = 0; i < initial; ++i)
        {
            ScheduleOne();
        }
        // Stop at a time, run, look, then run on to a second stop and to the end (or destroy
        // the simulator with events queued). Between the runs, schedule, cancel, remove and
        // ask from outside Run (a Stop's event scheduled nothing: LeanSimulatorImpl's root).
        Simulator::Stop(NanoSeconds(Draw(40) + 20));
        Simulator::Run();
        End();
        Outside();
        Simulator::Stop(NanoSeconds(Draw(40) + 20));
        Simulator::Run();
        End();
        if (toEnd)
        {
            Outside();
            Simulator::Run();
            End();
        }
        Simulator::Destroy();
        return m_trace;
    }

  private:
    /**
     * @brief A uniform draw.
     * @param n the number of values
     * @return a value in [0, n)
     */
    uint64_t Draw(uint64_t n)
    {
        return std::uniform_int_distribution<uint64_t>(0, n - 1)(m_rng);
    }

    /**
     * @brief A delay with many ties: mostly a few nanoseconds, zero often.
     * @return the delay
     */
    Time Delay()
    {
        static const int64_t delays[] = {0, 0, 0, 1, 1, 2, 3, 5, 8, 13, 40};
        return NanoSeconds(delays[Draw(std::size(delays))]);
    }

    /** @brief The simulator's state after a Run. */
    void End()
    {
        m_trace.push_back(Record{'R',
                                 Simulator::Now().GetTimeStep(),
                                 Simulator::GetContext(),
                                 Simulator::IsFinished(),
                                 Simulator::GetEventCount()});
    }

    /** @brief Schedule, cancel, remove and ask from outside Run. */
    void Outside()
    {
        for (uint64_t i = Draw(4); i > 0; --i)
        {
            ScheduleOne();
        }
        for (uint64_t i = Draw(4); i > 0; --i)
        {
            Touch();
        }
        End();
    }

    /** @brief Schedule one event in one of the ways the simulator offers. */
    void ScheduleOne()
    {
        const uint64_t label = m_next++;
        const uint64_t how = Draw(10);
        EventId id;
        if (how < 5)
        {
            id = Simulator::Schedule(Delay(), &RandomSchedule::Fire, this, label);
        }
        else if (how < 7)
        {
            id = Simulator::ScheduleNow(&RandomSchedule::Fire, this, label);
        }
        else if (how < 9)
        {
            Simulator::ScheduleWithContext(static_cast<uint32_t>(Draw(5)),
                                           Delay(),
                                           &RandomSchedule::Fire,
                                           this,
                                           label);
        }
        else
        {
            id = Simulator::ScheduleDestroy(&RandomSchedule::Destroyed, this, label);
        }
        m_trace.push_back(Record{'S',
                                 Simulator::Now().GetTimeStep(),
                                 Simulator::GetContext(),
                                 label,
                                 id.GetUid() * 1000003ULL + id.GetTs()});
        if (id.GetUid() != EventId::UID::INVALID)
        {
            m_ids.push_back(id);
        }
    }

    /**
     * @brief Cancel, remove or ask about an event scheduled earlier.
     */
    void Touch()
    {
        if (m_ids.empty())
        {
            return;
        }
        const EventId& id = m_ids[Draw(m_ids.size())];
        const uint64_t what = Draw(4);
        if (what == 0)
        {
            Simulator::Cancel(id);
        }
        else if (what == 1)
        {
            Simulator::Remove(id);
        }
        m_trace.push_back(Record{'Q',
                                 Simulator::Now().GetTimeStep(),
                                 Simulator::GetContext(),
                                 what * 2 + id.IsExpired(),
                                 static_cast<uint64_t>(Simulator::GetDelayLeft(id).GetTimeStep())});
    }

    /**
     * @brief An event: record it, then maybe schedule, cancel, remove or query others.
     * @param label its label
     */
    void Fire(uint64_t label)
    {
        m_trace.push_back(Record{'E',
                                 Simulator::Now().GetTimeStep(),
                                 Simulator::GetContext(),
                                 label * 2 + Simulator::IsFinished(),
                                 Simulator::GetEventCount()});
        const uint64_t children = m_next < m_maxEvents ? Draw(3) : 0;
        for (uint64_t i = 0; i < children; ++i)
        {
            ScheduleOne();
        }
        for (uint64_t i = Draw(3); i > 0; --i)
        {
            Touch();
        }
    }

    /**
     * @brief A destroy event: record it.
     * @param label its label
     */
    void Destroyed(uint64_t label)
    {
        m_trace.push_back(Record{'D', Simulator::Now().GetTimeStep(), 0, label, 0});
    }

    std::mt19937_64 m_rng;       //!< the schedule's random numbers
    std::vector<Record> m_trace; //!< what happened
    std::vector<EventId> m_ids;  //!< events to cancel, remove or ask about
    uint64_t m_next{0};          //!< the next label
    uint64_t m_maxEvents{0};     //!< label limit for events scheduled by events
};

/**
 * @brief Record the label of an event in a list.
 * @param order the list
 * @param label the label
 */
void
Note(std::vector<int>* order, int label)
{
    order->push_back(label);
}

} // namespace

/**
 * @ingroup testbed-tests
 * Same-time events by hand: at equal timestamps events run in the order they were scheduled
 * (ns-3's documented rule), whichever way they were scheduled, including ScheduleNow from an
 * event at that time, which runs after the events already queued for it.
 */
class LeanSimulatorTieOrderTestCase : public TestCase
{
  public:
    LeanSimulatorTieOrderTestCase()
        : TestCase("LeanSimulatorImpl: same-time events run in scheduling order")
    {
    }

  private:
    void DoRun() override
    {
        Simulator::Destroy();
        Simulator::SetImplementation(CreateObject<LeanSimulatorImpl>());
        std::vector<int> order;
        // 5 at 2 ns; 1, 2, 3 at 1 ns; 4 scheduled at 1 ns by 1 with ScheduleNow; 6 at 1 ns in
        // context 7 by 2; 3 removed, 2's copy 8 cancelled: 1 2 4 6 at 1 ns, then 5 (and 8
        // counted as an event but not run).
        Simulator::Schedule(NanoSeconds(2), &Note, &order, 5);
        Simulator::Schedule(NanoSeconds(1), [&order]() {
            Note(&order, 1);
            Simulator::ScheduleNow(&Note, &order, 4);
        });
        EventId eight;
        Simulator::Schedule(NanoSeconds(1), [this, &order, &eight]() {
            Note(&order, 2);
            Simulator::ScheduleWithContext(7, Time(0), [this, &order]() {
                NS_TEST_EXPECT_MSG_EQ(Simulator::GetContext(), 7, "context of event 6");
                Note(&order, 6);
            });
            Simulator::Cancel(eight);
        });
        EventId three = Simulator::Schedule(NanoSeconds(1), &Note, &order, 3);
        eight = Simulator::Schedule(NanoSeconds(1), &Note, &order, 8);
        Simulator::Remove(three);
        NS_TEST_ASSERT_MSG_EQ(three.IsExpired(), true, "a removed event is expired");
        Simulator::Run();
        const std::vector<int> expected{1, 2, 4, 6, 5};
        NS_TEST_ASSERT_MSG_EQ(order.size(), expected.size(), "events run");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(order[i], expected[i], "event at place " << i);
        }
        // Events run: 1, 2, 8 (cancelled), 4, 6, 5; the removed 3 does not count.
        NS_TEST_EXPECT_MSG_EQ(Simulator::GetEventCount(), 6, "event count");
        NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), NanoSeconds(2), "clock at the end");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Randomized schedules under ns-3's DefaultSimulatorImpl and under LeanSimulatorImpl: the
 * identical trace (every event's time, context, label, IsFinished and the event count when it
 * ran; every returned uid and timestamp; every IsExpired and GetDelayLeft answer, inside and
 * outside Run; the state after each Run; the destroy events); one schedule is destroyed with
 * events still queued.
 */
class LeanSimulatorDifferentialTestCase : public TestCase
{
  public:
    /**
     * @brief Constructor.
     * @param seed the schedule's seed
     * @param initial events scheduled before Run
     * @param maxEvents label limit for events scheduled by events
     */
    LeanSimulatorDifferentialTestCase(uint64_t seed,
                                      uint32_t initial,
                                      uint32_t maxEvents,
                                      bool toEnd = true)
        : TestCase("LeanSimulatorImpl = DefaultSimulatorImpl on a random schedule (seed "
                   + std::to_string(seed) + ", " + std::to_string(initial) + " initial events"
                   + (toEnd ? ")" : ", destroyed with events queued)"))
        , m_seed(seed)
        , m_initial(initial)
        , m_maxEvents(maxEvents)
        , m_toEnd(toEnd)
    {
    }

  private:
    void DoRun() override
    {
        RandomSchedule schedule;
        const std::vector<Record> reference = schedule.Run(CreateObject<DefaultSimulatorImpl>(),
                                                           m_seed,
                                                           m_initial,
                                                           m_maxEvents,
                                                           m_toEnd);
        const std::vector<Record> lean = schedule.Run(CreateObject<LeanSimulatorImpl>(),
                                                      m_seed,
                                                      m_initial,
                                                      m_maxEvents,
                                                      m_toEnd);
        // The schedule exercised what it should.
        uint64_t events = 0;
        uint64_t destroyed = 0;
        uint64_t ties = 0;
        uint64_t contexts = 0;
        uint64_t removed = 0;
        int64_t last = -1;
        for (const auto& r : reference)
        {
            events += r.what == 'E';
            destroyed += r.what == 'D';
            ties += r.what == 'E' && r.time == last;
            contexts += r.what == 'E' && r.context != Simulator::NO_CONTEXT;
            removed += r.what == 'Q' && r.label / 2 == 1;
            last = r.what == 'E' ? r.time : last;
        }
        NS_TEST_ASSERT_MSG_GT(events, m_initial, "events that scheduled events");
        NS_TEST_ASSERT_MSG_GT(destroyed, 0, "destroy events");
        NS_TEST_ASSERT_MSG_GT(ties, events / 4, "events at the time of the one before");
        NS_TEST_ASSERT_MSG_GT(contexts, 0, "events scheduled with a context");
        NS_TEST_ASSERT_MSG_GT(removed, 0, "events removed");
        NS_TEST_ASSERT_MSG_EQ(FirstDifference(lean, reference), "", "the traces differ");
    }

    uint64_t m_seed;      //!< the schedule's seed
    uint32_t m_initial;   //!< events before Run
    uint32_t m_maxEvents; //!< label limit
    bool m_toEnd;         //!< whether the last Run runs to the end
};

/**
 * @ingroup testbed-tests
 * Many removals against DefaultSimulatorImpl: events far ahead removed by the hundred from
 * inside events (so the removed entries outnumber the others and the queue is rebuilt without
 * them), removed events at the head of the queue and at the running event's time, Remove after
 * Cancel, and a removed event as the last one queued (the run must end without it). The trace of
 * (time, context, label, event count, IsFinished) must be identical; hand-counted: every event
 * not removed runs once, the event count is the number of events run (cancelled ones included),
 * and a removed event never runs.
 */
class LeanSimulatorRemoveManyTestCase : public TestCase
{
  public:
    LeanSimulatorRemoveManyTestCase()
        : TestCase("LeanSimulatorImpl = DefaultSimulatorImpl with removals outnumbering events")
    {
    }

  private:
    /**
     * @brief Run the schedule under one implementation.
     * @param impl the implementation
     * @return the trace
     */
    std::vector<Record> RunUnder(Ptr<SimulatorImpl> impl)
    {
        Simulator::Destroy();
        Simulator::SetImplementation(impl);
        m_trace.clear();
        m_ids.clear();
        m_rng.seed(7);
        m_ran = 0;
        m_removedCount = 0;
        m_cancelledCount = 0;
        m_scheduled = 0;
        for (uint32_t i = 0; i < 3000; ++i)
        {
            const uint64_t label = m_scheduled++;
            const Time at = NanoSeconds(1 + std::uniform_int_distribution<int>(0, 5000)(m_rng));
            if (label % 7 == 0)
            {
                Simulator::ScheduleWithContext(static_cast<uint32_t>(label % 3),
                                               at,
                                               &LeanSimulatorRemoveManyTestCase::Fire,
                                               this,
                                               label);
            }
            else
            {
                m_ids.push_back(
                    Simulator::Schedule(at, &LeanSimulatorRemoveManyTestCase::Fire, this, label));
            }
        }
        // The last event queued is one that will be removed: nothing else is left after 10 us.
        m_last = Simulator::Schedule(MicroSeconds(10),
                                     &LeanSimulatorRemoveManyTestCase::Fire,
                                     this,
                                     uint64_t{999999});
        Simulator::Run();
        m_trace.push_back(Record{'R',
                                 Simulator::Now().GetTimeStep(),
                                 0,
                                 Simulator::IsFinished(),
                                 Simulator::GetEventCount()});
        Simulator::Destroy();
        return m_trace;
    }

    /**
     * @brief An event: record it; every 50th removes up to 400 queued events (some just ahead,
     * at the head of the queue), cancels a few and then removes one of those.
     * @param label its label
     */
    void Fire(uint64_t label)
    {
        ++m_ran;
        m_trace.push_back(Record{'E',
                                 Simulator::Now().GetTimeStep(),
                                 Simulator::GetContext(),
                                 label * 2 + Simulator::IsFinished(),
                                 Simulator::GetEventCount()});
        if (label == 999999)
        {
            NS_TEST_ASSERT_MSG_EQ(true, false, "the removed last event ran");
        }
        if (m_ran % 50 != 1)
        {
            return;
        }
        // An event at this very time, removed: the running event's instant.
        EventId now = Simulator::ScheduleNow(&LeanSimulatorRemoveManyTestCase::Fire, this, label);
        Simulator::Remove(now);
        ++m_removedCount;
        for (int k = 0; k < 400 && !m_ids.empty(); ++k)
        {
            const std::size_t i
                = std::uniform_int_distribution<std::size_t>(0, m_ids.size() - 1)(m_rng);
            EventId id = m_ids[i];
            m_ids[i] = m_ids.back();
            m_ids.pop_back();
            if (id.IsExpired())
            {
                continue;
            }
            if (k % 40 == 0)
            {
                Simulator::Cancel(id); // runs (and counts) as a cancelled event ...
                ++m_cancelledCount;
                continue;
            }
            Simulator::Remove(id);
            ++m_removedCount;
        }
        if (!m_last.IsExpired() && m_ran > 100)
        {
            Simulator::Remove(m_last);
            ++m_removedCount;
        }
        m_trace.push_back(Record{'Q',
                                 Simulator::Now().GetTimeStep(),
                                 Simulator::GetContext(),
                                 Simulator::IsFinished(),
                                 Simulator::GetEventCount()});
    }

    void DoRun() override
    {
        const std::vector<Record> reference = RunUnder(CreateObject<DefaultSimulatorImpl>());
        const uint64_t ran = m_ran;
        const uint64_t removed = m_removedCount;
        const uint64_t cancelled = m_cancelledCount;
        const std::vector<Record> lean = RunUnder(CreateObject<LeanSimulatorImpl>());
        // Hand-counted: 3001 events queued, ScheduleNow events added, removed ones never run.
        NS_TEST_ASSERT_MSG_GT(removed, 1000u, "most events removed");
        NS_TEST_ASSERT_MSG_GT(cancelled, 0u, "some cancelled");
        const uint64_t added = (ran + 49) / 50; // one ScheduleNow per 50th event, all removed
        NS_TEST_ASSERT_MSG_EQ(ran, 3001 + added - removed - cancelled, "every other event ran");
        NS_TEST_ASSERT_MSG_EQ(reference.back().extra, ran + cancelled, "events counted");
        NS_TEST_ASSERT_MSG_EQ(reference.back().label, 1, "finished");
        NS_TEST_ASSERT_MSG_EQ(FirstDifference(lean, reference), "", "the traces differ");
    }

    std::mt19937_64 m_rng;        //!< the schedule's random numbers
    std::vector<Record> m_trace;  //!< what happened
    std::vector<EventId> m_ids;   //!< events that may be removed
    EventId m_last;               //!< the last event queued
    uint64_t m_ran{0};            //!< events run (not cancelled)
    uint64_t m_removedCount{0};   //!< Remove calls on pending events
    uint64_t m_cancelledCount{0}; //!< Cancel calls on pending events
    uint64_t m_scheduled{0};      //!< labels given
};

/**
 * @brief A LeanSimulatorImpl with the lane order (Attribute SameTimeOrder = Lane).
 * @param lane whether the lane order (else ns-3's uid order)
 * @return the implementation
 */
static Ptr<LeanSimulatorImpl>
MakeLean(bool lane)
{
    Ptr<LeanSimulatorImpl> impl = CreateObject<LeanSimulatorImpl>();
    impl->SetAttribute("SameTimeOrder",
                       EnumValue(lane ? LeanSimulatorImpl::LANE : LeanSimulatorImpl::UID));
    return impl;
}

/**
 * @ingroup testbed-tests
 * The lane order by hand: at equal timestamps events run by context (lane), then in the order
 * they were inserted into their lane, whatever the order of insertion across lanes; an event
 * scheduled with Schedule or ScheduleNow stays in the lane of the event that schedules it.
 */
class LeanSimulatorLaneTieTestCase : public TestCase
{
  public:
    LeanSimulatorLaneTieTestCase()
        : TestCase("LeanSimulatorImpl lane order: same-time events by (lane, insertion in lane)")
    {
    }

  private:
    void DoRun() override
    {
        Simulator::Destroy();
        Simulator::SetImplementation(MakeLean(true));
        std::vector<int> order;
        // At 1 ns, inserted in this order: 1 in lane 5, 2 in lane 3, 3 in lane 5, 4 in lane 3,
        // 5 in lane 9; 1 schedules 6 with ScheduleNow (lane 5, after 3) and 7 in lane 4 at
        // 1 ns (lane 4 is behind the running lane 5: it runs next); 2 schedules 8 with Schedule
        // at 1 ns (lane 3, after 4). At 2 ns: 10 in lane 0, then 9 (no context: first).
        // Hence 2 4 8 (lane 3), 1 (lane 5), 7 (lane 4, late), 3 6 (lane 5), 5 (lane 9), 9, 10.
        Simulator::ScheduleWithContext(5, NanoSeconds(1), [&order]() {
            Note(&order, 1);
            Simulator::ScheduleNow(&Note, &order, 6);
            Simulator::ScheduleWithContext(4, Time(0), &Note, &order, 7);
        });
        Simulator::ScheduleWithContext(3, NanoSeconds(1), [this, &order]() {
            Note(&order, 2);
            EventId e = Simulator::Schedule(Time(0), &Note, &order, 8);
            NS_TEST_EXPECT_MSG_EQ(e.IsExpired(), false, "8 is pending");
        });
        Simulator::ScheduleWithContext(5, NanoSeconds(1), &Note, &order, 3);
        Simulator::ScheduleWithContext(3, NanoSeconds(1), [this, &order]() {
            NS_TEST_EXPECT_MSG_EQ(Simulator::GetContext(), 3, "lane of event 4");
            Note(&order, 4);
        });
        Simulator::ScheduleWithContext(9, NanoSeconds(1), &Note, &order, 5);
        Simulator::ScheduleWithContext(0, NanoSeconds(2), &Note, &order, 10);
        EventId nine = Simulator::Schedule(NanoSeconds(2), &Note, &order, 9);
        // A Stop at 3 ns stops before the events at 3 ns, even those inserted before it.
        Simulator::ScheduleWithContext(0, NanoSeconds(3), &Note, &order, 11);
        Simulator::Stop(NanoSeconds(3));
        NS_TEST_EXPECT_MSG_EQ(nine.IsExpired(), false, "an event before Run is pending");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), NanoSeconds(3), "stopped at 3 ns");
        NS_TEST_EXPECT_MSG_EQ(nine.IsExpired(), true, "9 ran");
        const std::vector<int> expected{2, 4, 8, 1, 7, 3, 6, 5, 9, 10};
        NS_TEST_ASSERT_MSG_EQ(order.size(), expected.size(), "events run");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(order[i], expected[i], "event at place " << i);
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The property a split run needs from the lane order: the events of several lanes, inserted
 * in two different interleavings of the lanes (each lane's own insertions in the same order),
 * run in the same order, and that order is the one an independent reference computes from
 * per-lane insertion counters: a std::set of (time, lane, n-th insertion into the lane), the
 * same events scheduling their follow-ups. Under ns-3's uid order the two interleavings give
 * different orders (the schedule has cross-lane ties), so the test can tell the two apart.
 */
class LeanSimulatorLaneInterleavingTestCase : public TestCase
{
  public:
    LeanSimulatorLaneInterleavingTestCase()
        : TestCase("LeanSimulatorImpl lane order: independent of the interleaving of lanes")
    {
    }

  private:
    /** An initial event: its lane, time (ns) and label. */
    struct Initial
    {
        uint32_t lane;  //!< lane (context)
        int64_t ns;     //!< time
        uint32_t label; //!< label
    };

    /**
     * The follow-ups of an event: its label's own rule, the same in the reference.
     * @param label the running event's label
     * @param lane its lane
     * @return (lane, delay ns, label) of the events it schedules, in order
     */
    static std::vector<std::tuple<uint32_t, int64_t, uint32_t>> FollowUps(uint32_t label,
                                                                          uint32_t lane)
    {
        std::vector<std::tuple<uint32_t, int64_t, uint32_t>> f;
        if (label < 4000)
        {
            f.emplace_back(lane, label % 3, label * 2 + 4000);               // own lane
            f.emplace_back((lane + label) % 5, label % 2, label * 2 + 4001); // another lane
        }
        return f;
    }

    /**
     * @brief Run the events under an implementation, inserted in the given order.
     * @param impl the implementation
     * @param initial the initial events, in insertion order
     * @return the labels in the order they ran
     */
    std::vector<uint32_t> RunOnce(Ptr<SimulatorImpl> impl, const std::vector<Initial>& initial)
    {
        Simulator::Destroy();
        Simulator::SetImplementation(impl);
        std::vector<uint32_t> order;
        for (const auto& e : initial)
        {
            Simulator::ScheduleWithContext(e.lane,
                                           NanoSeconds(e.ns),
                                           &LeanSimulatorLaneInterleavingTestCase::Fire,
                                           &order,
                                           e.label);
        }
        Simulator::Run();
        Simulator::Destroy();
        return order;
    }

    /**
     * @brief An event: note its label, schedule its follow-ups.
     * @param order the labels run
     * @param label its label
     */
    static void Fire(std::vector<uint32_t>* order, uint32_t label)
    {
        order->push_back(label);
        const uint32_t lane = Simulator::GetContext();
        for (const auto& [to, delay, next] : FollowUps(label, lane))
        {
            if (to == lane)
            {
                Simulator::Schedule(NanoSeconds(delay), &Fire, order, next);
            }
            else
            {
                Simulator::ScheduleWithContext(to, NanoSeconds(delay), &Fire, order, next);
            }
        }
    }

    /**
     * @brief The reference: a set keyed (time, lane, n-th insertion into the lane).
     * @param initial the initial events, in insertion order
     * @return the labels in the order they run
     */
    static std::vector<uint32_t> Reference(const std::vector<Initial>& initial)
    {
        std::map<uint32_t, uint64_t> inserted; // per lane
        std::set<std::tuple<int64_t, uint32_t, uint64_t, uint32_t>> queue;
        for (const auto& e : initial)
        {
            queue.emplace(e.ns, e.lane, inserted[e.lane]++, e.label);
        }
        std::vector<uint32_t> order;
        while (!queue.empty())
        {
            const auto [ns, lane, n, label] = *queue.begin();
            queue.erase(queue.begin());
            order.push_back(label);
            for (const auto& [to, delay, next] : FollowUps(label, lane))
            {
                queue.emplace(ns + delay, to, inserted[to]++, next);
            }
        }
        return order;
    }

    void DoRun() override
    {
        // 2 000 events in 5 lanes at 20 distinct times: many ties within and across lanes.
        std::mt19937_64 rng(29);
        std::vector<std::vector<Initial>> lanes(5);
        for (uint32_t label = 0; label < 2000; ++label)
        {
            const uint32_t lane = rng() % 5;
            lanes[lane].push_back(Initial{lane, static_cast<int64_t>(rng() % 20), label});
        }
        // Interleaving 1: lane by lane; 2: a random merge that keeps each lane's own order.
        std::vector<Initial> byLane;
        for (const auto& l : lanes)
        {
            byLane.insert(byLane.end(), l.begin(), l.end());
        }
        std::vector<Initial> mixed;
        std::vector<std::size_t> next(lanes.size(), 0);
        while (mixed.size() < byLane.size())
        {
            const std::size_t l = rng() % lanes.size();
            if (next[l] < lanes[l].size())
            {
                mixed.push_back(lanes[l][next[l]++]);
            }
        }
        const std::vector<uint32_t> reference = Reference(byLane);
        NS_TEST_ASSERT_MSG_EQ(reference.size(), 6000, "every event and its two follow-ups");
        NS_TEST_ASSERT_MSG_EQ((reference == Reference(mixed)), true, "the reference itself");
        const std::vector<uint32_t> a = RunOnce(MakeLean(true), byLane);
        const std::vector<uint32_t> b = RunOnce(MakeLean(true), mixed);
        NS_TEST_EXPECT_MSG_EQ((a == reference), true, "lane order, lanes inserted one by one");
        NS_TEST_EXPECT_MSG_EQ((b == reference), true, "lane order, lanes interleaved");
        const std::vector<uint32_t> ua = RunOnce(MakeLean(false), byLane);
        const std::vector<uint32_t> ub = RunOnce(MakeLean(false), mixed);
        NS_TEST_EXPECT_MSG_EQ((ua == ub), false, "uid order depends on the interleaving");
    }
};

/**
 * @ingroup testbed-tests
 * MakePooledEvent under both implementations: the events run at their times with their
 * captures; a freed event's memory is the next event's of the same type (the free list); the
 * captured state is destroyed when the last reference goes (after the run, or at Cancel and
 * Destroy for an event that never runs, or when a kept EventId goes); a second functor type has
 * its own list.
 */
class PooledEventTestCase : public TestCase
{
  public:
    /**
     * @brief Constructor.
     * @param lean LeanSimulatorImpl (else ns-3's DefaultSimulatorImpl)
     */
    PooledEventTestCase(bool lean)
        : TestCase(std::string("PooledEvent: reuse after free, captured state destroyed (")
                   + (lean ? "LeanSimulatorImpl" : "DefaultSimulatorImpl") + ")")
        , m_lean(lean)
    {
    }

  private:
    /** Counts its live copies (a captured state). */
    struct Tracker
    {
        int* live; //!< live copies

        /**
         * @brief Constructor.
         * @param l the counter
         */
        explicit Tracker(int* l)
            : live(l)
        {
            ++*live;
        }

        /**
         * @brief Copy.
         * @param o the original
         */
        Tracker(const Tracker& o)
            : live(o.live)
        {
            ++*live;
        }

        Tracker& operator=(const Tracker&) = delete;

        ~Tracker()
        {
            --*live;
        }
    };

    void DoRun() override
    {
        Simulator::Destroy();
        if (m_lean)
        {
            Simulator::SetImplementation(CreateObject<LeanSimulatorImpl>());
        }
        else
        {
            Simulator::SetImplementation(CreateObject<DefaultSimulatorImpl>());
        }
        int live = 0;
        std::vector<std::pair<int64_t, int>> ran;
        auto make = [&ran, &live](int label) {
            Tracker t(&live);
            return [&ran, t, label]() {
                ran.emplace_back(Simulator::Now().GetTimeStep(), label);
            };
        };
        using Event = PooledEvent<decltype(make(0))>;
        const std::size_t free0 = Event::FreeCount();
        // Two events at 10 and 20 ns; each captured state alive until its event is freed.
        EventImpl* a = MakePooledEvent(make(1));
        EventImpl* b = MakePooledEvent(make(2));
        NS_TEST_ASSERT_MSG_EQ(live, 2, "two captured states");
        NS_TEST_ASSERT_MSG_EQ(Event::FreeCount(),
                              (free0 >= 2 ? free0 - 2 : 0),
                              "taken from the list");
        Simulator::Schedule(NanoSeconds(10), Ptr<EventImpl>(a, false));
        EventId kept = Simulator::Schedule(NanoSeconds(20), Ptr<EventImpl>(b, false));
        // A third at 40 ns, cancelled: the run stops at 30 ns, so it goes at Destroy (queued).
        EventId cancelled
            = Simulator::Schedule(NanoSeconds(40), Ptr<EventImpl>(MakePooledEvent(make(3)), false));
        Simulator::Cancel(cancelled);
        cancelled = EventId();
        // a is freed when it has run (no EventId kept); an event at 15 ns reuses its memory.
        Simulator::Schedule(NanoSeconds(15), [&]() {
            NS_TEST_EXPECT_MSG_EQ(live, 2, "a's state destroyed after its run (b and 3 alive)");
            EventImpl* c = MakePooledEvent(make(4));
            NS_TEST_EXPECT_MSG_EQ(c, a, "the freed event's memory is reused");
            Simulator::Schedule(NanoSeconds(10), Ptr<EventImpl>(c, false));
        });
        Simulator::Stop(NanoSeconds(30));
        Simulator::Run();
        const std::vector<std::pair<int64_t, int>> expected{{NanoSeconds(10).GetTimeStep(), 1},
                                                            {NanoSeconds(20).GetTimeStep(), 2},
                                                            {NanoSeconds(25).GetTimeStep(), 4}};
        NS_TEST_ASSERT_MSG_EQ((ran == expected), true, "events at their times with their labels");
        // b ran, but the EventId keeps it (and its state) alive; 3 is queued until Destroy.
        NS_TEST_EXPECT_MSG_EQ(live, 2, "b's and 3's states alive");
        kept = EventId();
        NS_TEST_EXPECT_MSG_EQ(live, 1, "b's state destroyed with its last reference");
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(live, 0, "the cancelled event's state destroyed at Destroy");
        NS_TEST_EXPECT_MSG_EQ(Event::FreeCount(),
                              std::max<std::size_t>(free0, 3),
                              "all on the list");
        // Another functor type has its own list: it does not take this type's memory.
        auto other = [&ran]() {
            ran.clear();
        };
        EventImpl* o = MakePooledEvent(other);
        NS_TEST_EXPECT_MSG_EQ(Event::FreeCount(), std::max<std::size_t>(free0, 3), "own list");
        o->Invoke();
        NS_TEST_EXPECT_MSG_EQ(ran.empty(), true, "the other event ran");
        o->Unref();
        NS_TEST_EXPECT_MSG_EQ(PooledEvent<decltype(other)>::FreeCount(), 1, "on its own list");
    }

    bool m_lean; //!< which implementation
};

/**
 * @ingroup testbed-tests
 * The seam (fastpath) under both implementations, against ns-3's documented rules: an event
 * scheduled through fastpath::Schedule, fastpath::ScheduleWithContext or a fastpath::Event takes
 * the next uid (the counter advances by one per schedule, as Simulator::Schedule's), so events
 * of one instant run in the order they were scheduled whichever way; ScheduleWithContext's event
 * runs in its context; fastpath::Now is Simulator::Now, in and before Run; a held event that is
 * cancelled does not run and still counts in the event count (DefaultSimulatorImpl counts every
 * event it pops); IsHeld is true from Schedule until Ran or Cancel.
 */
class FastPathTestCase : public TestCase
{
  public:
    /**
     * @brief Constructor.
     * @param lean LeanSimulatorImpl (else ns-3's DefaultSimulatorImpl)
     */
    FastPathTestCase(bool lean)
        : TestCase(std::string("fastpath: uid order, contexts, clock, held events (")
                   + (lean ? "LeanSimulatorImpl" : "DefaultSimulatorImpl") + ")")
        , m_lean(lean)
    {
    }

  private:
    void DoRun() override
    {
        Simulator::Destroy();
        if (m_lean)
        {
            Simulator::SetImplementation(CreateObject<LeanSimulatorImpl>());
        }
        else
        {
            Simulator::SetImplementation(CreateObject<DefaultSimulatorImpl>());
        }
        NS_TEST_ASSERT_MSG_EQ(fastpath::NowStep(), 0, "the clock before Run");
        std::vector<std::pair<int64_t, int>> ran;
        std::vector<uint32_t> contexts;
        const int64_t t10 = NanoSeconds(10).GetTimeStep();
        const int64_t t20 = NanoSeconds(20).GetTimeStep();
        auto note = [&ran](int label) {
            NS_ASSERT(fastpath::Now() == Simulator::Now());
            ran.emplace_back(fastpath::NowStep(), label);
        };
        // Four events at 10 ns, scheduled four ways, interleaved: they run as scheduled.
        const uint32_t uid0 = Simulator::Schedule(NanoSeconds(10), [&]() { note(1); }).GetUid();
        fastpath::Schedule(t10, [&]() { note(2); });
        fastpath::Event held;
        held.Schedule(t10, [&]() {
            held.Ran();
            note(3);
        });
        NS_TEST_ASSERT_MSG_EQ(held.IsHeld(), true, "held once scheduled");
        fastpath::ScheduleWithContext(7, t10, [&]() {
            contexts.push_back(Simulator::GetContext());
            note(4);
        });
        const uint32_t uid4 = Simulator::Schedule(NanoSeconds(10), [&]() { note(5); }).GetUid();
        NS_TEST_ASSERT_MSG_EQ(uid4, uid0 + 4, "one uid per schedule, whichever way");
        // A held event cancelled before its time does not run; another is rescheduled.
        fastpath::Event cancelled;
        cancelled.Schedule(t20, [&]() { note(6); });
        Simulator::Schedule(NanoSeconds(15), [&]() {
            NS_TEST_EXPECT_MSG_EQ(held.IsHeld(), false, "let go when it ran");
            NS_TEST_EXPECT_MSG_EQ(cancelled.IsHeld(), true, "still held");
            cancelled.Cancel();
            NS_TEST_EXPECT_MSG_EQ(cancelled.IsHeld(), false, "let go when cancelled");
            cancelled.Schedule(t20 - NanoSeconds(15).GetTimeStep(), [&]() {
                cancelled.Ran();
                note(7);
            });
        });
        Simulator::Run();
        const std::vector<std::pair<int64_t, int>> expected{{t10, 1},
                                                            {t10, 2},
                                                            {t10, 3},
                                                            {t10, 4},
                                                            {t10, 5},
                                                            {t20, 7}};
        NS_TEST_EXPECT_MSG_EQ((ran == expected), true, "same-time events in scheduling order");
        NS_TEST_EXPECT_MSG_EQ((contexts == std::vector<uint32_t>{7}), true, "the given context");
        // Events run: the five at 10 ns, the one at 15 ns, the cancelled one and its successor.
        NS_TEST_EXPECT_MSG_EQ(Simulator::GetEventCount(), 8, "a cancelled event counts");
        NS_TEST_EXPECT_MSG_EQ(cancelled.IsHeld(), false, "nothing held after the run");
        Simulator::Destroy();
    }

    bool m_lean; //!< which implementation
};

/**
 * @ingroup testbed-tests
 * fastpath::FromSeconds() gives the Time that Seconds() gives, to the time step, for values of
 * every magnitude and sign: the edges of its integer arithmetic (zero, subnormals, the last
 * bits below one half of the fixed point's unit, exact halves that round up) and random doubles
 * of every binary exponent up to the largest Time at nanosecond resolution (2^63 ns, about
 * 2^33 s: beyond it Seconds() itself overflows).
 */
class FromSecondsTestCase : public TestCase
{
  public:
    FromSecondsTestCase()
        : TestCase("fastpath::FromSeconds() is Seconds() to the time step")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t checked = 0;
        uint64_t differ = 0;
        double first = 0;
        auto check = [&](double v) {
            ++checked;
            if (fastpath::FromSeconds(v).GetTimeStep() != Seconds(v).GetTimeStep())
            {
                if (differ++ == 0)
                {
                    first = v;
                }
            }
        };
        std::vector<double> edges{0.0,
                                  -0.0,
                                  std::numeric_limits<double>::denorm_min(),
                                  std::numeric_limits<double>::min(),
                                  0.5,
                                  1.0,
                                  1.5,
                                  1e-9,
                                  1.5e-9,
                                  2.5e-9,
                                  1e-6,
                                  3.2e-6,
                                  0.0055,
                                  86400.0,
                                  std::ldexp(1.0, 32),
                                  std::nextafter(std::ldexp(1.0, 33), 0.0)};
        for (int e = -75; e <= -50; ++e)
        {
            // One half of the unit 2^-64 and its neighbours: the rounding up of an exact half.
            for (int k = 1; k <= 7; ++k)
            {
                edges.push_back(std::ldexp(static_cast<double>(k), e));
                edges.push_back(std::ldexp(static_cast<double>(k) + 0.5, e));
            }
        }
        for (double v : edges)
        {
            check(v);
            check(-v);
        }
        std::mt19937_64 rng(12345);
        std::uniform_real_distribution<double> unit(1.0, 2.0);
        for (int e = -80; e <= 32; ++e)
        {
            for (int i = 0; i < 2000; ++i)
            {
                const double v = std::ldexp(unit(rng), e);
                check(v);
                check(-v);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(differ,
                              0,
                              differ << " of " << checked << " values differ, first "
                                     << std::hexfloat << first);
        // Hand-computed, at the resolution the values are given in.
        NS_TEST_EXPECT_MSG_EQ(fastpath::FromSeconds(1e-3), MilliSeconds(1), "1 ms");
        NS_TEST_EXPECT_MSG_EQ(fastpath::FromSeconds(-2.5e-6), NanoSeconds(-2500), "-2.5 us");
        NS_TEST_EXPECT_MSG_EQ(fastpath::FromSeconds(3.0), Seconds(3), "3 s");
    }
};

/**
 * @ingroup testbed-tests
 * The simulator-core TestSuite.
 */
class SimulatorTestSuite : public TestSuite
{
  public:
    SimulatorTestSuite()
        : TestSuite("testbed-simulator", Type::UNIT)
    {
        AddTestCase(new LeanSimulatorTieOrderTestCase, Duration::QUICK);
        AddTestCase(new LeanSimulatorDifferentialTestCase(1, 20, 2000), Duration::QUICK);
        AddTestCase(new LeanSimulatorDifferentialTestCase(2, 200, 5000), Duration::QUICK);
        AddTestCase(new LeanSimulatorDifferentialTestCase(3, 5000, 20000), Duration::QUICK);
        AddTestCase(new LeanSimulatorDifferentialTestCase(4, 200, 5000, false), Duration::QUICK);
        AddTestCase(new LeanSimulatorRemoveManyTestCase, Duration::QUICK);
        AddTestCase(new LeanSimulatorLaneTieTestCase, Duration::QUICK);
        AddTestCase(new LeanSimulatorLaneInterleavingTestCase, Duration::QUICK);
        AddTestCase(new PooledEventTestCase(true), Duration::QUICK);
        AddTestCase(new PooledEventTestCase(false), Duration::QUICK);
        AddTestCase(new FastPathTestCase(true), Duration::QUICK);
        AddTestCase(new FastPathTestCase(false), Duration::QUICK);
        AddTestCase(new FromSecondsTestCase, Duration::QUICK);
    }
};

static SimulatorTestSuite g_simulatorTestSuite; //!< static instance
