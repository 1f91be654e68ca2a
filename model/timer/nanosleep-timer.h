/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NANOSLEEP_TIMER_H
#define TESTBED_NANOSLEEP_TIMER_H

#include "timer-model.h"

/**
 * @file
 * @ingroup testbed-timer
 * clock_nanosleep() on Linux with high-resolution timers and timer slack ([GINE14]'s NANOSLEEP).
 */

namespace ns3
{

/**
 * @ingroup testbed-timer
 * @brief clock_nanosleep() of a normal (SCHED_OTHER) thread on Linux >= 2.6.28 with
 * high-resolution timers ([GINE14]'s NANOSLEEP timer).
 *
 * Since Linux 2.6.28 a user-space sleep is a range timer: it may expire anywhere in
 * [expiry, expiry + slack], slack = the thread's timer_slack_ns (50 us by default for normal
 * threads, prctl(2) PR_SET_TIMERSLACK). The hardware timer is programmed for the end of the
 * range so that other timers can be coalesced into it; on an otherwise idle CPU nothing expires
 * the sleep earlier, so it ends TimerSlack after the requested time. Its interrupt then needs
 * ExpiryLatency (interrupt entry, hrtimer handler, hrtimer_wakeup) before the thread is made
 * runnable:
 *
 *     fire = now + delay + TimerSlack + max(0, ExpiryLatency draw)
 *
 * The thread's scheduling latency and context switch come after the firing (HostProcess adds
 * them). A sleep is one-shot: a program loop arms it again after its own work, so the default
 * periodic use (GetFireTime(now, interval)) applies and the loop's processing adds to every
 * interval. Earlier expiry by a coinciding timer interrupt inside the slack window is not
 * modelled.
 */
class NanosleepTimer : public TimerModel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NanosleepTimer();
    ~NanosleepTimer() override;

    Time GetFireTime(Time now, Time delay) override;
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    Time m_slack;                        //!< timer slack
    Ptr<RandomVariableStream> m_latency; //!< expiry latency (s)
};

} // namespace ns3

#endif /* TESTBED_NANOSLEEP_TIMER_H */
