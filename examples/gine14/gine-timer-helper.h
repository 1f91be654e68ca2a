/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_GINE_TIMER_HELPER_H
#define TESTBED_GINE_TIMER_HELPER_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/timer-model.h"

#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed
 * The [GINE14] emulator timers by name, as the GINE experiment programs choose them.
 */

namespace ns3
{

/**
 * @ingroup testbed
 * @brief Creates the [GINE14] emulator timers by their names: "ideal" (IdealTimer), "rtc"
 * (RtcTimer at 8192 Hz with a random phase), "nanosleep" (NanosleepTimer), "tctimer" (TcTimer)
 * and "boosted" (BoostedTcTimer).
 */
class GineTimerHelper
{
  public:
    /** @return the timer names Create() accepts */
    static const std::vector<std::string>& Names();

    /**
     * @param name a timer name
     * @return true if Create() accepts the name
     */
    static bool IsName(const std::string& name);

    /**
     * @brief Create a timer with its defaults.
     *
     * TCTimer and Boosted TCTimer are asked, as GINE asks tc, for the rate b = 8 l / X in whole
     * bit/s (packets of l octets, one per interval X). The RTC's phase is drawn from phase (one
     * draw, for "rtc" only). Aborts on an unknown name (check with IsName() first).
     *
     * @param name the timer's name (Names())
     * @param packetSize l, the TCTimer's packet length on the loopback (octets)
     * @param interval X, the TCTimer's firing interval
     * @param phase the random variable of the RTC's phase
     * @return the timer
     */
    static Ptr<TimerModel> Create(const std::string& name,
                                  uint32_t packetSize,
                                  Time interval,
                                  Ptr<UniformRandomVariable> phase);
};

} // namespace ns3

#endif // TESTBED_GINE_TIMER_HELPER_H
