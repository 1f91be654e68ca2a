/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_IDEAL_TIMER_H
#define TESTBED_IDEAL_TIMER_H

#include "timer-model.h"

/**
 * @file
 * @ingroup testbed-timer
 * An exact timer.
 */

namespace ns3
{

/**
 * @ingroup testbed-timer
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

} // namespace ns3

#endif /* TESTBED_IDEAL_TIMER_H */
