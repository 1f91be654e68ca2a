/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NTT_KERNEL_SECTIONS_H
#define TESTBED_NTT_KERNEL_SECTIONS_H

#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

#include <vector>

/**
 * @file
 * @ingroup testbed-apps
 * Non-preemptible kernel sections of the processes that share a 1990s host with [NTT96]'s
 * stream processes.
 */

namespace ns3
{

class HostProcess;

/**
 * @ingroup testbed-apps
 * @brief The kernel work of competing processes on a non-preemptible kernel: while another
 * process runs in the kernel (a system call), a woken process waits until it leaves the kernel;
 * interrupts still run.
 *
 * Each section is a PROCESS-class work item of a process of its own on the node's HostPlatform
 * (processes do not preempt each other on the HostCpu: exactly a kernel that switches only when
 * the running process leaves the kernel or sleeps; interrupt work preempts it). Two sources:
 *
 * - the update daemon's sync(2): every SyncInterval (4.4BSD update(8) and the SVR4 fsflush's
 *   autoup: 30 s) from a random phase, SyncDuration of CPU time each;
 * - other processes' system calls (an X server, daemons): a Poisson process of OtherRate per
 *   second, OtherDuration each.
 *
 * Only their kernel time is charged: their user-mode work is preempted at once by a woken
 * stream process of kernel priority, which the HostCpu's non-preemptive PROCESS class cannot
 * express, and is left out.
 */
class NttKernelSections : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NttKernelSections();
    ~NttKernelSections() override;

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream index
     * @return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /** @return the start time of every section, in order */
    const std::vector<Time>& GetSections() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /** The update daemon's sync. */
    void Sync();
    /** Another process's system call. */
    void Other();

    Time m_syncInterval;                  //!< SyncInterval
    Time m_syncDuration;                  //!< SyncDuration
    double m_otherRate;                   //!< OtherRate
    Time m_otherDuration;                 //!< OtherDuration
    Ptr<UniformRandomVariable> m_phase;   //!< the sync's phase
    Ptr<ExponentialRandomVariable> m_gap; //!< gaps between other sections
    Ptr<HostProcess> m_update;            //!< the update daemon
    Ptr<HostProcess> m_other;             //!< the other processes
    EventId m_syncEvent;                  //!< next sync
    EventId m_otherEvent;                 //!< next other section
    std::vector<Time> m_sections;         //!< start times
};

} // namespace ns3

#endif /* TESTBED_NTT_KERNEL_SECTIONS_H */
