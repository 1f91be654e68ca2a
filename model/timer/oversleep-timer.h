/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_OVERSLEEP_TIMER_H
#define TESTBED_OVERSLEEP_TIMER_H

#include "timer-model.h"

/**
 * @file
 * @ingroup testbed-timer
 * A high-resolution sleep that overshoots.
 */

namespace ns3
{

/**
 * @ingroup testbed-timer
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

#endif /* TESTBED_OVERSLEEP_TIMER_H */
