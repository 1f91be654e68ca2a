/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_LEAN_SIMULATOR_IMPL_H
#define TESTBED_LEAN_SIMULATOR_IMPL_H

#include "ns3/event-id.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

/**
 * @file
 * @ingroup testbed-simulator
 * ns3::LeanSimulatorImpl: ns-3's DefaultSimulatorImpl with a built-in binary heap of 128-bit
 * keys.
 */

namespace ns3
{

/**
 * @defgroup testbed-simulator Simulator core
 * @ingroup testbed
 * A cheaper implementation of ns-3's event loop with exactly ns-3's event order.
 */

/**
 * @ingroup testbed-simulator
 * @brief ns-3's single-threaded event loop (DefaultSimulatorImpl) with a built-in event queue
 * and no per-event logging: the same events in the same order, at a lower cost per event.
 *
 * Every event gets, as in DefaultSimulatorImpl, a key (timestamp, uid) where uid is a 32-bit
 * counter that starts at EventId::VALID and advances by one on every Schedule, ScheduleNow,
 * ScheduleWithContext and ScheduleDestroy. Events run in increasing timestamp and, at equal
 * timestamps, increasing uid: the key is a total order, so every correct priority queue pops the
 * same sequence and this implementation runs the same events at the same times, with the same
 * contexts, uids, event count, Stop, Cancel, Remove, IsExpired, GetDelayLeft and Destroy
 * semantics as DefaultSimulatorImpl with any ns-3 scheduler (TestSuite testbed-simulator
 * compares the two on randomized schedules).
 *
 * What it saves, per event: the Scheduler object's virtual calls and NS_LOG checks (the ns3
 * wheel is built with logging, so each Insert, RemoveNext and Schedule tests its log component),
 * the EventId that DefaultSimulatorImpl builds for PreEventHook (a no-op in SimulatorImpl; this
 * class is final), and most of a heap operation per event: the queue is a binary min-heap on
 * one vector of 32-byte entries, each with one 128-bit key (timestamp << 64 | tie key), so that
 * two entries compare in one (branch-free) comparison. The running event's place at the root
 * stays vacant while it runs, and the first event it schedules sinks from there (one sift-down
 * instead of a sift-down to take the running event out and a sift-up to put the new one in: a
 * new event most often runs among the next few). An event that schedules nothing leaves the
 * root to be filled as an ordinary pop does (Settle(): before the next event, before a Remove
 * that searches the queue or rebuilds it, at the end of Run and at disposal).
 *
 * Remove() takes an event out of a queue of at most EAGER_REMOVE_LIMIT entries at once, found by
 * a pass over the vector; out of a larger one lazily: it cancels the event and adds its key to
 * the removed keys (a min-heap of their own), and the entry goes without running (not counted,
 * the clock not moved to it) when it reaches the root, or when the removed entries outnumber the
 * others and the queue is rebuilt without them. The root holds the least key queued and every
 * removed key is queued, so the root's entry was removed exactly when its key is the least
 * removed key: one comparison per event. A pass over a queue of thousands per Remove was most
 * of the cost of Remove-heavy runs.
 *
 * The event queue is built in: the SchedulerType global value and SetScheduler() do not change
 * it (they could not change the order either).
 *
 * **Lane order (opt-in).** With the Attribute SameTimeOrder = Lane, events of the same timestamp
 * run by (context, uid) instead of uid: the event's context is its *lane* (the program's own
 * events, of Simulator::NO_CONTEXT, first, e.g. a Stop; then lower contexts first), and within a
 * lane the order of insertion. The order of two
 * same-time events of different lanes then no longer depends on which was inserted first, and
 * the order within a lane depends only on the order of that lane's insertions: a run split over
 * processes (doc/mega.rst) can reproduce it in each process from the lanes it runs, where
 * the global insertion order (uid) is not available. Events inherit their lane from the event
 * that schedules them (Schedule, ScheduleNow), or take the context given (ScheduleWithContext),
 * as contexts do in ns-3; IsExpired and GetDelayLeft follow the same order. The default, Uid,
 * is ns-3's order; Lane is a different (equally deterministic) order, so a program's records
 * may change where same-time events of different contexts tie. Select this implementation with the
 * global value SimulatorImplementationType=ns3::LeanSimulatorImpl (ProgramOptions::
 * SetSimulatorDefaults does for the module's programs) before the first Simulator call, or with
 * Simulator::SetImplementation().
 */
class LeanSimulatorImpl final : public SimulatorImpl
{
  public:
    /// The order of events of the same timestamp (Attribute SameTimeOrder).
    enum SameTimeOrder
    {
        UID,  //!< ns-3's: insertion order (uid)
        LANE, //!< lane (the event's context), then insertion order (uid)
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    LeanSimulatorImpl();
    ~LeanSimulatorImpl() override;

    // Inherited from SimulatorImpl (the semantics of DefaultSimulatorImpl).
    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    EventId Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /**
     * @brief The LeanSimulatorImpl whose Run() is running (set at Run's start, cleared at its
     * end), for ScheduleEvent, ScheduleEventWithContext and SimulatorNowStep.
     * @return it, or null outside Run (or under another SimulatorImpl)
     */
    static LeanSimulatorImpl* Running()
    {
        return s_running;
    }

    /**
     * @brief Schedule as Schedule() does (the same uid, key and EventId), with the delay in
     * time steps; simulation thread only.
     * @param delay the delay (time steps, not negative)
     * @param event the event (the queue takes over the caller's reference)
     * @return the event's id
     */
    EventId ScheduleSteps(int64_t delay, EventImpl* event)
    {
        NS_ASSERT_MSG(delay >= 0, "LeanSimulatorImpl::ScheduleSteps(): Negative delay");
        const uint64_t ts = m_currentTs + static_cast<uint64_t>(delay);
        const uint32_t uid = Insert(ts, m_currentContext, event);
        return EventId(event, ts, m_currentContext, uid);
    }

    /**
     * @brief ScheduleSteps without the EventId (ScheduleEventNoId).
     * @param delay the delay (time steps, not negative)
     * @param event the event (the queue takes over the caller's reference)
     */
    void InsertSteps(int64_t delay, EventImpl* event)
    {
        NS_ASSERT_MSG(delay >= 0, "LeanSimulatorImpl::InsertSteps(): Negative delay");
        Insert(m_currentTs + static_cast<uint64_t>(delay), m_currentContext, event);
    }

    /**
     * @brief Schedule as ScheduleWithContext() does from the simulation thread, with the delay
     * in time steps.
     * @param context the event's context
     * @param delay the delay (time steps, not negative)
     * @param event the event (the queue takes over the caller's reference)
     */
    void ScheduleStepsWithContext(uint32_t context, int64_t delay, EventImpl* event)
    {
        NS_ASSERT_MSG(delay >= 0, "LeanSimulatorImpl::ScheduleStepsWithContext(): Negative delay");
        Insert(m_currentTs + static_cast<uint64_t>(delay), context, event);
    }

    /**
     * @brief The clock in time steps (Now().GetTimeStep() without a Time).
     * @return the current time step
     */
    int64_t NowStep() const
    {
        return static_cast<int64_t>(m_currentTs);
    }

  private:
    void DoDispose() override;

    /// A queue key: the timestamp in the high 64 bits, the tie key in the low 64.
    using Key = unsigned __int128;

    /** One pending event: its key, its context and its (referenced) implementation. */
    struct Entry
    {
        Key key;          //!< (ts << 64) | tie key: the queue's total order
        EventImpl* impl;  //!< the event (one reference held by the queue)
        uint32_t context; //!< the context the event runs in
    };

    /**
     * @brief The tie key of an event: its uid, behind its lane (context) in the lane order.
     * @param context the event's context
     * @param uid its uid
     * @return the key (same-time events run in increasing key)
     */
    uint64_t TieKey(uint32_t context, uint32_t uid) const
    {
        // Lane context + 1: Simulator::NO_CONTEXT (the program's own events, Stop) first.
        return ((static_cast<uint64_t>(static_cast<uint32_t>(context + 1)) & m_laneMask) << 32)
               | uid;
    }

    /**
     * @brief The queue key of an event: timestamp, then the tie key (uid: ns-3's
     * Scheduler::EventKey order; or lane and uid).
     * @param ts its timestamp (time steps)
     * @param context its context
     * @param uid its uid
     * @return the key (events run in increasing key)
     */
    Key MakeKey(uint64_t ts, uint32_t context, uint32_t uid) const
    {
        return (static_cast<Key>(ts) << 64) | TieKey(context, uid);
    }

    /**
     * @brief Set the same-time order (only while no event is queued).
     * @param order the order
     */
    void SetSameTimeOrder(SameTimeOrder order);
    /** @return the same-time order */
    SameTimeOrder GetSameTimeOrder() const;

    /**
     * @brief Insert an event with the next uid.
     * @param ts absolute time (time steps)
     * @param context its context
     * @param event the event (the queue takes over the caller's reference)
     * @return its uid
     */
    uint32_t Insert(uint64_t ts, uint32_t context, EventImpl* event);
    /**
     * @brief Move an entry up from a hole at @p i to its place.
     * @param i the hole's index
     * @param e the entry
     */
    void SiftUp(std::size_t i, const Entry& e);
    /**
     * @brief Move an entry down from a hole at @p i to its place (among the first @p n).
     * @param i the hole's index
     * @param n the heap's size
     * @param e the entry
     */
    void SiftDown(std::size_t i, std::size_t n, const Entry& e);

    /**
     * @brief Fill the vacant root (the place of the event that ran and scheduled nothing) with
     * the last entry, as a pop does; nothing if the root is not vacant.
     */
    void Settle()
    {
        if (m_vacant)
        {
            FillRoot();
        }
    }

    /** @brief Settle's work: the last entry sinks from the vacant root. */
    void FillRoot();

    /** @return the number of queued events (a vacant root not counted) */
    std::size_t Queued() const
    {
        return m_heap.size() - (m_vacant ? 1 : 0);
    }

    /** @brief Take removed entries off the root until it holds an event to run (or none). */
    void PurgeRemoved();

    /** @brief Rebuild the queue without its removed entries (releasing them). */
    void Compact();

    /// Remove() takes the entry out at once from a queue of at most this many entries (a pass
    /// over them costs less than a removed entry left in the heap), lazily from a larger one.
    static constexpr std::size_t EAGER_REMOVE_LIMIT = 128;

    /// Removed entries may exceed the others by this many before the queue is rebuilt.
    static constexpr std::size_t REMOVED_SLACK = 64;

    /// m_nextRemoved when no entry is removed: above every key an event can have.
    static constexpr Key NONE_REMOVED = ~Key{0};

    /** @brief Queue the events that other threads scheduled with a context (after every event:
     * the test inline, the work out of line). */
    void ProcessEventsWithContext()
    {
        if (!m_eventsWithContextEmpty)
        {
            QueueEventsWithContext();
        }
    }

    /** @brief ProcessEventsWithContext's work: take the other threads' events and queue them. */
    void QueueEventsWithContext();

    /** An event scheduled with a context from another thread (as in DefaultSimulatorImpl). */
    struct EventWithContext
    {
        uint32_t context;   //!< its context
        uint64_t timestamp; //!< its delay (time steps), made absolute when it is queued
        EventImpl* event;   //!< the event
    };

    std::vector<Entry> m_heap;       //!< the binary min-heap of pending events
    std::vector<Key> m_removed;      //!< keys of removed entries still in m_heap (a min-heap)
    Key m_nextRemoved{NONE_REMOVED}; //!< the least of m_removed (NONE_REMOVED: none)
    std::list<EventWithContext> m_eventsWithContext; //!< from other threads
    bool m_eventsWithContextEmpty;                   //!< whether m_eventsWithContext is empty
    std::mutex m_eventsWithContextMutex;             //!< guards m_eventsWithContext
    std::list<EventId> m_destroyEvents;              //!< ScheduleDestroy's events, in order
    bool m_stop;                                     //!< Stop() was called
    uint32_t m_uid;                                  //!< the next uid
    uint32_t m_currentUid;                           //!< uid of the running event
    uint64_t m_currentKey{0};       //!< tie key of the running event (0: none ran yet)
    uint64_t m_currentTs;           //!< the clock (time steps)
    uint32_t m_currentContext;      //!< context of the running event
    uint64_t m_eventCount;          //!< events run (cancelled ones included)
    int m_unscheduledEvents;        //!< events queued and not run yet
    std::thread::id m_mainThreadId; //!< the thread that runs the simulation
    uint64_t m_laneMask{0}; //!< 0xffffffff in the lane order (context in the tie key), else 0
    bool m_vacant{false};   //!< the root's entry ran (or runs): its place is free

    static LeanSimulatorImpl* s_running; //!< the instance whose Run() is running, or null
};

/**
 * @ingroup testbed-simulator
 * @brief Schedule an event in the current context: straight into the LeanSimulatorImpl whose
 * Run() is running, else through ns3::Simulator (any SimulatorImpl; before Run). The same
 * event, uid and order as Simulator::Schedule; simulation thread only.
 * @param delay the delay (time steps)
 * @param event the event (e.g. MakePooledEvent; the simulator takes over its reference)
 * @return the event's id
 */
inline EventId
ScheduleEvent(int64_t delay, EventImpl* event)
{
    if (LeanSimulatorImpl* sim = LeanSimulatorImpl::Running())
    {
        return sim->ScheduleSteps(delay, event);
    }
    return Simulator::Schedule(TimeStep(delay), Ptr<EventImpl>(event, false));
}

/**
 * @ingroup testbed-simulator
 * @brief ScheduleEvent without an EventId: the same event, uid and order, for a caller that
 * keeps the event itself (a reference of its own, EventImpl::Ref) and cancels it, while it is
 * pending, with EventImpl::Cancel, as Simulator::Cancel does for a pending event. Simulation
 * thread only.
 * @param delay the delay (time steps)
 * @param event the event (the simulator takes over its reference)
 */
inline void
ScheduleEventNoId(int64_t delay, EventImpl* event)
{
    if (LeanSimulatorImpl* sim = LeanSimulatorImpl::Running())
    {
        sim->InsertSteps(delay, event);
        return;
    }
    Simulator::Schedule(TimeStep(delay), Ptr<EventImpl>(event, false));
}

/**
 * @ingroup testbed-simulator
 * @brief ScheduleEvent with the delay as a Time.
 * @param delay the delay
 * @param event the event (the simulator takes over its reference)
 * @return the event's id
 */
inline EventId
ScheduleEvent(const Time& delay, EventImpl* event)
{
    return ScheduleEvent(delay.GetTimeStep(), event);
}

/**
 * @ingroup testbed-simulator
 * @brief Schedule an event in a context: straight into the LeanSimulatorImpl whose Run() is
 * running, else with Simulator::ScheduleWithContext. Simulation thread only.
 * @param context the event's context
 * @param delay the delay (time steps)
 * @param event the event (the simulator takes over its reference)
 */
inline void
ScheduleEventWithContext(uint32_t context, int64_t delay, EventImpl* event)
{
    if (LeanSimulatorImpl* sim = LeanSimulatorImpl::Running())
    {
        sim->ScheduleStepsWithContext(context, delay, event);
        return;
    }
    Simulator::ScheduleWithContext(context, TimeStep(delay), event);
}

/**
 * @ingroup testbed-simulator
 * @brief ScheduleEventWithContext with the delay as a Time.
 * @param context the event's context
 * @param delay the delay
 * @param event the event (the simulator takes over its reference)
 */
inline void
ScheduleEventWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    ScheduleEventWithContext(context, delay.GetTimeStep(), event);
}

/**
 * @ingroup testbed-simulator
 * @brief The simulation clock in time steps: the running LeanSimulatorImpl's clock read
 * directly, else Simulator::Now() (any SimulatorImpl; outside Run).
 * @return Simulator::Now().GetTimeStep()
 */
inline int64_t
SimulatorNowStep()
{
    if (const LeanSimulatorImpl* sim = LeanSimulatorImpl::Running())
    {
        return sim->NowStep();
    }
    return Simulator::Now().GetTimeStep();
}

} // namespace ns3

#endif /* TESTBED_LEAN_SIMULATOR_IMPL_H */
