/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TIMER_MODEL_H
#define TESTBED_TIMER_MODEL_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

/**
 * @file
 * @ingroup testbed-host
 * Timer models: when does a timer that a program arms actually fire?
 */

namespace ns3
{

/**
 * @defgroup testbed-host Host platform model
 * @ingroup testbed
 *
 * The PC under a measurement: CPU run queue, OS scheduling latency, per-packet protocol-stack
 * and NIC interrupt costs, receive rings, and the timers that programs sleep on.
 */

/**
 * @ingroup testbed-host
 * @brief Abstract timer: maps a requested expiry to the time the timer really fires.
 *
 * A program (an application's sleep, a periodic sender, the link emulator's packet release)
 * arms a timer at time @c now to expire @c delay later. Real timers fire late: at the next tick
 * of a periodic clock, after an oversleep, or at the next packet of a rate-limited stream. Each
 * subclass implements one such mechanism; they are interchangeable wherever a TimerModel is
 * accepted (HostPlatform, HostProcess, the emulated link).
 *
 * The returned time is always >= now + delay unless a subclass documents otherwise (a timer that
 * corrects its own drift may fire early by less than its quantum).
 */
class TimerModel : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @brief When does a timer armed at @p now with timeout @p delay fire?
     * @param now the time the timer is armed (normally Simulator::Now())
     * @param delay the requested timeout (>= 0)
     * @return the absolute simulation time of the firing
     */
    virtual Time GetFireTime(Time now, Time delay) = 0;

    /**
     * @brief Periodic use: when does a program loop's next firing come?
     *
     * A program that was woken by the firing at @p lastFire has done its work and, at @p now
     * (>= lastFire), waits for one more @p interval. How the wait is measured is a property of
     * the mechanism: a one-shot timer (nanosleep) is armed again at @p now, so the program's
     * own processing adds to the interval (the default: GetFireTime(now, interval)); a periodic
     * source (a clock interrupt, a packet stream) keeps running, so the interval counts from the
     * last firing (IdealTimer, RtcTimer, TcTimer override this). The result is >= now; it is now
     * itself if the firing has already happened (the program does not block).
     *
     * @param lastFire the firing that woke the program last
     * @param now the time the program waits again (>= lastFire)
     * @param interval the requested interval (>= 0)
     * @return the absolute simulation time of the next firing
     */
    virtual Time GetPeriodicFireTime(Time lastFire, Time now, Time interval);

    /**
     * @brief Assign fixed random variable stream numbers to the random variables used.
     * @param stream first stream index to use
     * @return the number of stream indices assigned
     */
    virtual int64_t AssignStreams(int64_t stream);
};

/**
 * @ingroup testbed-host
 * @brief An exact timer: fires at now + delay (event-exact simulation time).
 */
class IdealTimer : public TimerModel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    Time GetFireTime(Time now, Time delay) override;

    /**
     * @brief An ideal periodic timer: the next firing is exactly one interval after the last.
     * @param lastFire the last firing
     * @param now the time the program waits again
     * @param interval the interval
     * @return max(now, lastFire + interval)
     */
    Time GetPeriodicFireTime(Time lastFire, Time now, Time interval) override;
};

/**
 * @ingroup testbed-host
 * @brief A timer driven by a periodic clock interrupt (Linux jiffies, the PC's RTC).
 *
 * The clock ticks at t = Phase + k / Frequency. A timer fires on the first tick at or after
 * now + delay, plus @c ExtraTicks ticks (a Linux 2.6 jiffy-based nanosleep() before
 * high-resolution timers adds one tick so that it never sleeps less than asked, because the
 * current jiffy is already partly over). Requests shorter than one period therefore take up to a
 * whole period, and intervals between firings are whole multiples of the period.
 *
 * A ClockError (relative rate error of the oscillator, e.g. 0.01 = 1% slow) stretches the real
 * periods against the nominal ones; since the timer measures a requested delay in its own ticks,
 * every delay is stretched by the same factor (a timer armed for d fires on the first tick at or
 * after now + d * (1 + ClockError)).
 */
class TickTimer : public TimerModel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    Time GetFireTime(Time now, Time delay) override;

    /**
     * @brief The real (error-stretched) tick period.
     * @return the period
     */
    Time GetPeriod() const;

    /**
     * @brief The first tick at or after an expiry, plus extra ticks, of a periodic clock (the
     * computation of GetFireTime, shared with RtcTimer).
     *
     * Ticks are at phase + round(k * (1 + clockError) / frequency) (exact nanoseconds of the
     * non-truncated period, so no rounding drift accumulates); the requested delay is
     * stretched by (1 + clockError) since the clock counts its own periods.
     *
     * @param phase time of tick 0
     * @param frequency nominal tick rate (Hz)
     * @param clockError relative rate error (positive = slow)
     * @param extraTicks ticks added after the first tick at or after the expiry
     * @param now the time the timer is armed
     * @param delay the requested timeout (>= 0)
     * @return the firing time
     */
    static Time FirstTickAtOrAfter(Time phase,
                                   double frequency,
                                   double clockError,
                                   uint32_t extraTicks,
                                   Time now,
                                   Time delay);

  private:
    double m_frequency;    //!< nominal tick frequency (Hz)
    Time m_phase;          //!< time of tick 0
    uint32_t m_extraTicks; //!< ticks added after the first tick at or after the expiry
    double m_clockError;   //!< relative rate error: real period = nominal * (1 + error)
};

/**
 * @ingroup testbed-host
 * @brief A high-resolution sleep that overshoots: fires at now + delay + oversleep.
 *
 * Models clock_nanosleep()/hrtimers: the wake-up comes after the requested time plus a random
 * oversleep (timer slack, interrupt and wake-up path), drawn per firing from @c Oversleep.
 * Negative draws are clipped to zero: such a timer never fires early.
 */
class OversleepTimer : public TimerModel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    Time GetFireTime(Time now, Time delay) override;
    int64_t AssignStreams(int64_t stream) override;

  private:
    Ptr<RandomVariableStream> m_oversleep; //!< oversleep in seconds
    Time m_resolution;                     //!< granularity the result is rounded up to (0 = none)
};

} // namespace ns3

#endif /* TESTBED_TIMER_MODEL_H */
