/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TICK_TIMER_H
#define TESTBED_TICK_TIMER_H

#include "timer-model.h"

/**
 * @file
 * @ingroup testbed-timer
 * A timer driven by a periodic clock interrupt.
 */

namespace ns3
{

/**
 * @ingroup testbed-timer
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
    /**
     * The tick period in time steps, not truncated.
     * @param frequency nominal tick rate (Hz)
     * @param clockError relative rate error
     * @return the period
     */
    static long double PeriodSteps(double frequency, double clockError);
    /**
     * A requested delay stretched by the clock's error, in time steps.
     * @param delay the delay (>= 0)
     * @param clockError relative rate error
     * @return the stretched delay
     */
    static int64_t StretchedSteps(Time delay, double clockError);
    /**
     * The first tick at or after now + a stretched delay, plus extra ticks.
     * @param phase time of tick 0
     * @param perSteps the period (PeriodSteps)
     * @param extraTicks ticks added
     * @param now the time the timer is armed
     * @param stretched the stretched delay (StretchedSteps)
     * @return the firing time
     */
    static Time TickAtOrAfter(Time phase,
                              long double perSteps,
                              uint32_t extraTicks,
                              Time now,
                              int64_t stretched);

    double m_frequency;    //!< nominal tick frequency (Hz)
    Time m_phase;          //!< time of tick 0
    uint32_t m_extraTicks; //!< ticks added after the first tick at or after the expiry
    double m_clockError;   //!< relative rate error: real period = nominal * (1 + error)

    // GetFireTime's constants, computed again when an attribute they depend on changes (a
    // sender arms its timer with the same delay every time: sleep(1)).
    double m_cachedFrequency{-1}; //!< m_frequency of m_perSteps (-1: none)
    double m_cachedError{0};      //!< m_clockError of m_perSteps
    long double m_perSteps{0};    //!< PeriodSteps
    int64_t m_cachedDelay{-1};    //!< the delay of m_stretched (time steps; -1: none)
    int64_t m_stretched{0};       //!< StretchedSteps of it
};

} // namespace ns3

#endif /* TESTBED_TICK_TIMER_H */
