/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3::LeanSimulatorImpl against ns-3's own DefaultSimulatorImpl: a hand-computed order of
 * same-time events, and randomized schedules (same-timestamp events, Cancel, Remove, events
 * that schedule events, ScheduleNow, ScheduleWithContext, ScheduleDestroy, Stop at a time and a
 * second Run) that must give the identical trace of (time, context, event, uid) under both.
 */

#include "ns3/default-simulator-impl.h"
#include "ns3/lean-simulator-impl.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstdint>
#include <random>
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
     * @return the trace
     */
    std::vector<Record> Run(Ptr<SimulatorImpl> impl,
                            uint64_t seed,
                            uint32_t initial,
                            uint32_t maxEvents)
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
        // Stop at a time, run, look, then run on to a second stop and to the end.
        Simulator::Stop(NanoSeconds(Draw(40) + 20));
        Simulator::Run();
        End();
        Simulator::Stop(NanoSeconds(Draw(40) + 20));
        Simulator::Run();
        End();
        Simulator::Run();
        End();
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
                                 label,
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
 * identical trace (every event's time, context, label and the event count when it ran; every
 * returned uid and timestamp; every IsExpired and GetDelayLeft answer; the state after each
 * Run; the destroy events).
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
    LeanSimulatorDifferentialTestCase(uint64_t seed, uint32_t initial, uint32_t maxEvents)
        : TestCase("LeanSimulatorImpl = DefaultSimulatorImpl on a random schedule (seed "
                   + std::to_string(seed) + ", " + std::to_string(initial) + " initial events)")
        , m_seed(seed)
        , m_initial(initial)
        , m_maxEvents(maxEvents)
    {
    }

  private:
    void DoRun() override
    {
        RandomSchedule schedule;
        const std::vector<Record> reference
            = schedule.Run(CreateObject<DefaultSimulatorImpl>(), m_seed, m_initial, m_maxEvents);
        const std::vector<Record> lean
            = schedule.Run(CreateObject<LeanSimulatorImpl>(), m_seed, m_initial, m_maxEvents);
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
        // The first difference, if any.
        std::size_t i = 0;
        while (i < reference.size() && i < lean.size() && lean[i] == reference[i])
        {
            ++i;
        }
        if (i < reference.size() && i < lean.size())
        {
            NS_TEST_ASSERT_MSG_EQ(Show(lean[i]), Show(reference[i]), "record " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(lean.size(), reference.size(), "trace length");
    }

    uint64_t m_seed;      //!< the schedule's seed
    uint32_t m_initial;   //!< events before Run
    uint32_t m_maxEvents; //!< label limit
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
    }
};

static SimulatorTestSuite g_simulatorTestSuite; //!< static instance
