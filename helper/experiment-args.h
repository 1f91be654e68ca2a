/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_EXPERIMENT_ARGS_H
#define TESTBED_EXPERIMENT_ARGS_H

#include "ns3/data-rate.h"

#include <string>

/**
 * @file
 * @ingroup testbed
 * Checking the command-line parameters of experiment programs.
 */

namespace ns3
{

/**
 * @ingroup testbed
 * @brief Argument checks for experiment programs: a bad value ends the program with a message
 * naming the option and exit status 2, before any model sees it (no abort, no core dump).
 */
class ExperimentArgs
{
  public:
    /** Exit status of a program given bad arguments. */
    static constexpr int EXIT_BAD_ARGUMENTS = 2;

    /**
     * @brief Stop with "error: <message>" and exit status 2 unless @p ok.
     * @param ok the condition that must hold
     * @param message what is wrong (name the option and the value)
     */
    static void Require(bool ok, const std::string& message);

    /**
     * @brief Parse a data rate ("128kbps", "1Mbps", "100Mb/s", ...).
     * @param option the option's name (for the message)
     * @param text the value given
     * @param allowZero whether 0 is acceptable
     * @return the rate
     */
    static DataRate ParseDataRate(const std::string& option,
                                  const std::string& text,
                                  bool allowZero = false);

    /**
     * @brief Simulator settings every experiment program starts with (call first in main):
     * the event queue is ns3::PriorityQueueScheduler, a binary heap on a vector, instead of
     * ns-3's default std::map (no allocation per event). Every scheduler runs the events in the
     * same (time, id) order, so results do not depend on it; NS_GLOBAL_VALUE=SchedulerType=...
     * and --SchedulerType still choose another one.
     */
    static void SetSimulatorDefaults();
};

} // namespace ns3

#endif /* TESTBED_EXPERIMENT_ARGS_H */
