/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FAST_PATH_H
#define TESTBED_FAST_PATH_H

#include "lean-simulator-impl.h"
#include "pooled-event.h"

#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"

#include <utility>

/**
 * @file
 * @ingroup testbed-simulator
 * ns3::fastpath: the one interface through which the per-frame model code reaches the event
 * loop (the running clock, a pooled event, a held future event).
 */

namespace ns3
{

/**
 * @ingroup testbed-simulator
 * @brief The seam between the per-frame model code and the event loop.
 *
 * Every function goes straight into the LeanSimulatorImpl whose Run() is running and through
 * ns3::Simulator otherwise (before Run, or under any other SimulatorImpl), with the same uid,
 * key and order as Simulator::Schedule and Simulator::Now: a model that uses it runs unchanged,
 * with the same records, under DefaultSimulatorImpl. Simulation thread only (the pooled events'
 * free lists have no lock). doc/simulator.rst describes the seam and why it is exact.
 */
namespace fastpath
{

/**
 * @brief The running clock in time steps (Simulator::Now().GetTimeStep()). A handler reads it
 * once and passes it down.
 * @return the clock
 */
inline int64_t
NowStep()
{
    return SimulatorNowStep();
}

/**
 * @brief The running clock (Simulator::Now()).
 * @return the clock
 */
inline Time
Now()
{
    return TimeStep(SimulatorNowStep());
}

/**
 * @brief Schedule a pooled event for a lambda in the current context, not to be cancelled (as
 * Simulator::Schedule(delay, lambda) with the EventId dropped).
 * @param delay the delay (time steps)
 * @param f the lambda
 */
template<typename F>
inline void
Schedule(int64_t delay, F&& f)
{
    ScheduleEventNoId(delay, MakePooledEvent(std::forward<F>(f)));
}

/**
 * @brief Schedule a pooled event for a lambda in a context (another node's), not to be
 * cancelled (as Simulator::ScheduleWithContext(context, delay, lambda)).
 * @param context the event's context
 * @param delay the delay (time steps)
 * @param f the lambda
 */
template<typename F>
inline void
ScheduleWithContext(uint32_t context, int64_t delay, F&& f)
{
    ScheduleEventWithContext(context, delay, MakePooledEvent(std::forward<F>(f)));
}

/**
 * @brief The way a per-frame component holds a future event of its own: a pooled event and a
 * reference to it, without an EventId (the handle is one pointer; copying an EventId costs a
 * reference count and three more words).
 *
 * Schedule() makes and schedules the event and holds it; the component lets it go when it runs
 * (Ran(), from the event itself) or cancels it before (Cancel(), what Simulator::Cancel does to
 * a pending event: a cancelled event still counts in the event count). IsHeld() is then
 * EventId::IsPending(). A handle that goes away while it holds an event lets it go without
 * cancelling it, as a destroyed EventId does. Move-only.
 */
class Event
{
  public:
    Event() = default;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    /**
     * @brief Take over another handle's event.
     * @param other the handle (empty afterwards)
     */
    Event(Event&& other) noexcept
        : m_event(std::exchange(other.m_event, nullptr))
    {
    }

    /**
     * @brief Take over another handle's event (this one must hold none).
     * @param other the handle (empty afterwards)
     * @return this handle
     */
    Event& operator=(Event&& other) noexcept
    {
        NS_ASSERT(m_event == nullptr);
        m_event = std::exchange(other.m_event, nullptr);
        return *this;
    }

    ~Event()
    {
        Ran();
    }

    /**
     * @brief Schedule a pooled event for a lambda in the current context and hold it (the
     * handle must hold none).
     * @param delay the delay (time steps)
     * @param f the lambda
     */
    template<typename F>
    void Schedule(int64_t delay, F&& f)
    {
        NS_ASSERT(m_event == nullptr);
        m_event = MakePooledEvent(std::forward<F>(f));
        m_event->Ref(); // the handle's reference; the simulator takes over the other
        ScheduleEventNoId(delay, m_event);
    }

    /**
     * @brief Cancel the event if it is held (it does not run), and let it go.
     */
    void Cancel()
    {
        if (EventImpl* event = std::exchange(m_event, nullptr))
        {
            event->Cancel();
            event->Unref();
        }
    }

    /**
     * @brief Let the event go without cancelling it (it runs, or has run).
     */
    void Ran()
    {
        if (EventImpl* event = std::exchange(m_event, nullptr))
        {
            event->Unref();
        }
    }

    /**
     * @brief Whether an event is held (scheduled, neither run nor cancelled).
     * @return true if so
     */
    bool IsHeld() const
    {
        return m_event != nullptr;
    }

  private:
    EventImpl* m_event{nullptr}; //!< the held event (a reference of the handle's own), or null
};

} // namespace fastpath

} // namespace ns3

#endif /* TESTBED_FAST_PATH_H */
