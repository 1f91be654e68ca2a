/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTC_TIMER_H
#define TESTBED_RTC_TIMER_H

#include "timer-model.h"

/**
 * @file
 * @ingroup testbed-timer
 * The PC's real-time clock as a periodic timer (/dev/rtc, GINE's default timer).
 */

namespace ns3
{

/**
 * @ingroup testbed-timer
 * @brief The PC real-time clock's periodic interrupt, read through /dev/rtc ([GINE14]'s RTC
 * timer, NIST Net's clock).
 *
 * The CMOS RTC divides its 32.768 kHz crystal to a periodic interrupt of 2^n Hz, n = 1..13, so
 * at most 8192 Hz (period 122.0703125 us). A program that reads /dev/rtc blocks until the next
 * interrupt; an emulator that waits for a time handles it on the first interrupt at or after
 * the expiry. Hence:
 *
 * - GetFireTime(now, delay): the first tick at or after now + delay (ticks at
 *   Phase + k / Frequency, stretched by ClockError); a request shorter than the period takes up
 *   to a whole period, and every interval is a whole number of periods.
 * - GetPeriodicFireTime(lastFire, now, interval): the interrupts keep coming while the program
 *   works, so a loop counts them from the tick that woke it: the first tick at or after
 *   lastFire + interval, or at once if that tick has already passed (read() returns at once
 *   when an interrupt is pending).
 *
 * Frequency must be a power of two from 2 to 8192 Hz (the RTC's periodic rates; a request for
 * more than 8192 Hz cannot be met, as [GINE14] observed). The interrupt's own latency and the
 * reader's wake-up are not part of this model (HostProcess adds the wake-up).
 */
class RtcTimer : public TimerModel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtcTimer();
    ~RtcTimer() override;

    Time GetFireTime(Time now, Time delay) override;

    /**
     * @brief Periodic use: the first tick at or after lastFire + interval (>= now).
     * @param lastFire the tick that woke the program last
     * @param now the time the program reads /dev/rtc again
     * @param interval the requested interval
     * @return the firing time
     */
    Time GetPeriodicFireTime(Time lastFire, Time now, Time interval) override;

    /**
     * @brief The real (error-stretched) interrupt period.
     * @return the period
     */
    Time GetPeriod() const;

  private:
    /// Abort unless Frequency is one of the RTC's rates.
    void CheckFrequency() const;

    double m_frequency;  //!< interrupt rate (Hz), a power of two in [2, 8192]
    Time m_phase;        //!< time of interrupt number 0
    double m_clockError; //!< relative rate error of the crystal (positive = slow)
};

} // namespace ns3

#endif /* TESTBED_RTC_TIMER_H */
