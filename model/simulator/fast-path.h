/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FAST_PATH_H
#define TESTBED_FAST_PATH_H

#include "lean-simulator-impl.h"
#include "pooled-event.h"

#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/int64x64.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <cstring>
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

/**
 * @brief Seconds(value), the same Time to the time step, without Seconds()'s long double.
 *
 * ns3::Seconds(double) makes the 64.64 fixed-point value through x87 long double arithmetic
 * (int64x64_t(long double): the integer part, and the fraction times 2^64 plus one half,
 * truncated) and libgcc's 128-bit conversions. For a finite double below 2^62 in magnitude
 * those steps are exact in long double, so the fixed-point value is the double times 2^64
 * rounded half up (away from zero for a negative value, which is converted as its magnitude
 * and negated). This function computes that integer from the double's bits and hands it to
 * ns-3's own Time::From() (the unit's multiplication and the rounding to a time step), so
 * the Time is the one Seconds() gives; any other value (or another int64x64_t implementation)
 * goes through Seconds() itself. The simulator test suite checks the equality over many
 * values of every magnitude.
 * @param value the time in seconds
 * @return Seconds(value)
 */
inline Time
FromSeconds(double value)
{
#ifdef INT64X64_USE_128
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const bool negative = (bits >> 63) != 0;
    const uint32_t biased = static_cast<uint32_t>(bits >> 52) & 0x7ff;
    // Finite and below 2^62 in magnitude (biased exponent of 2^62: 1023 + 62).
    if (biased < 1023 + 62)
    {
        const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
        // |value| = mantissa x 2^exponent (a subnormal has no implicit bit).
        const uint64_t mantissa = biased == 0 ? fraction : (fraction | (uint64_t{1} << 52));
        const int32_t exponent = (biased == 0 ? 1 : static_cast<int32_t>(biased)) - 1075;
        // |value| x 2^64 = mantissa x 2^(exponent + 64), rounded half up.
        const int32_t shift = exponent + 64;
        unsigned __int128 fixed;
        if (shift >= 0)
        {
            fixed = static_cast<unsigned __int128>(mantissa) << shift;
        }
        else if (-shift <= 60)
        {
            fixed = (mantissa + (uint64_t{1} << (-shift - 1))) >> -shift;
        }
        else
        {
            fixed = 0; // below 2^-8 of the fixed point's last bit: rounds to zero
        }
        const __int128 v = negative ? -static_cast<__int128>(fixed) : static_cast<__int128>(fixed);
        return Time::From(int64x64_t(static_cast<int64_t>(v >> 64), static_cast<uint64_t>(v)),
                          Time::S);
    }
#endif
    return Seconds(value);
}

} // namespace fastpath

} // namespace ns3

#endif /* TESTBED_FAST_PATH_H */
