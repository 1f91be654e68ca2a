/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_CPU_ARRIVALS_H
#define TESTBED_HOST_CPU_ARRIVALS_H

#include "ns3/callback.h"
#include "ns3/nstime.h"

#include <cstdint>

/**
 * @file
 * @ingroup testbed-host
 * The arrival protocol of a host's CPU: work that falls due at known times, offered to the CPU
 * instead of one simulator event per item.
 */

namespace ns3
{

/**
 * @ingroup testbed-host
 * @brief What a work item of HostCpu calls when it completes: done(), or tagged(tag), or a kept
 * callback.
 */
struct HostCpuCompletion
{
    Callback<void> done;             //!< called if not null
    Callback<void, uint32_t> tagged; //!< else called with tag, if not null
    uint32_t tag{0};                 //!< the tag
    /// else, if not null, called with tag: a callback its owner keeps alive until the call
    const Callback<void, uint32_t>* keptTagged{nullptr};
};

/**
 * @ingroup testbed-host
 * @brief A source of PROCESS work items that fall due at times known in advance (processes
 * waking from a sleep), offered to a HostCpu (HostCpu::AddArrivalSource) and taken by it
 * without an event of their own.
 *
 * The CPU takes each item when it falls due, exactly as if it had been submitted then (same
 * run-queue position, same start, context switch and refill): while a core is busy, the items
 * that fell due are put in the run queue, in the order of their times, at the next change of the
 * CPU's state (a submission, a completion, an observation); when the core (single-core CPUs) is
 * idle, the earliest arrival's start is planned and only its completion is an event, so a
 * wake-up costs no event of its own. An item submitted at the same instant as an arrival falls
 * due counts as later than it. A source whose earliest arrival changes otherwise than by
 * TakeArrival tells the CPU (HostCpu::ArrivalsChanged).
 */
class HostCpuArrivalSource
{
  public:
    virtual ~HostCpuArrivalSource() = default;

    /// A pending arrival: when it falls due and the work item it brings.
    struct Arrival
    {
        int64_t time{0};   //!< time step at which the item is submitted
        Time service;      //!< its service time
        uint32_t owner{0}; //!< its owner (a process id)
    };

    /**
     * @brief The source's earliest pending arrival.
     * @param next set to it
     * @return false if none is pending
     */
    virtual bool PeekArrival(Arrival& next) const = 0;

    /**
     * @brief The CPU takes the earliest pending arrival (the one PeekArrival gives).
     * @return the item's completion
     */
    virtual HostCpuCompletion TakeArrival() = 0;
};

} // namespace ns3

#endif /* TESTBED_HOST_CPU_ARRIVALS_H */
