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
 * @ingroup testbed-timer
 * The timer model interface: when does a timer that a program arms actually fire?
 */

namespace ns3
{

/**
 * @defgroup testbed-timer Timer models
 * @ingroup testbed
 *
 * When does a timer that a program arms actually fire? Periodic clock interrupts (jiffies, the
 * PC's RTC), high-resolution sleeps that oversleep, [GINE14]'s TCTimer (a rate-limited packet
 * stream on the loopback interface) and its boosted variant. Host processes sleep on them
 * (model/host) and the link emulator releases packets on them (model/link).
 */

/**
 * @ingroup testbed-timer
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

} // namespace ns3

#endif /* TESTBED_TIMER_MODEL_H */
