/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_PROCESS_H
#define TESTBED_HOST_PROCESS_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <deque>

/**
 * @file
 * @ingroup testbed-host
 * A single-threaded process on a host.
 */

namespace ns3
{

class HostPlatform;
class TimerModel;

/**
 * @ingroup testbed-host
 * @brief A single-threaded user process: a sequence of CPU work, sleeps and wake-ups.
 *
 * A process does one thing at a time. Its steps run strictly in the order they were asked for:
 *
 * - Execute(cost): CPU work of the given service time, a PROCESS-class item on the host's CPU
 *   (so it waits for the CPU behind other processes and is preempted by interrupts);
 * - Sleep(delay): a timed sleep. The process wakes when its timer model fires
 *   (TimerModel::GetFireTime, e.g. on a jiffy), plus the OS scheduling latency drawn from the
 *   platform's SchedulingLatency, and then needs the CPU to continue;
 * - Wake(): a wake-up from a blocking wait (a packet arrived on a socket it reads). If the
 *   process is blocked (nothing to do), the wake-up costs the scheduling latency and a trip
 *   through the run queue; if it is busy, the event is simply handled after its current steps.
 *
 * Each step's callback is invoked when the step is over, in process context; new steps it asks
 * for are appended after the ones already pending.
 */
class HostProcess : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    HostProcess();
    ~HostProcess() override;

    /**
     * @brief Attach the process to its host (done by HostPlatform::CreateProcess).
     * @param platform the host
     * @param pid the process id (>= 1, unique on the host)
     */
    void Setup(Ptr<HostPlatform> platform, uint32_t pid);

    /**
     * @brief The process id.
     * @return pid
     */
    uint32_t GetPid() const;

    /**
     * @brief The host.
     * @return the platform
     */
    Ptr<HostPlatform> GetPlatform() const;

    /**
     * @brief CPU work of a given service time.
     * @param cost service time at this host's CPU speed
     * @param done called when done (may be null)
     */
    void Execute(Time cost, Callback<void> done = Callback<void>());

    /**
     * @brief CPU work of a given number of cycles.
     * @param cycles CPU cycles
     * @param done called when done (may be null)
     */
    void ExecuteCycles(double cycles, Callback<void> done = Callback<void>());

    /**
     * @brief Sleep for a duration on the process's timer.
     * @param delay requested sleep
     * @param done called when the process runs again
     */
    void Sleep(Time delay, Callback<void> done = Callback<void>());

    /**
     * @brief Sleep until an absolute time (a sleep of max(0, t - now) when the step starts).
     * @param t the requested wake-up time
     * @param done called when the process runs again
     */
    void SleepUntil(Time t, Callback<void> done = Callback<void>());

    /**
     * @brief Bind the process to one core (sched_setaffinity; on a shielded core it then sees
     * no other process and no interrupt that is not bound there). See HostCpu::Bind.
     * @param core the core
     */
    void SetCore(uint32_t core);

    /**
     * @brief Wake up from a blocking wait.
     * @param done called when the process runs again
     */
    void Wake(Callback<void> done);

    /**
     * @brief Whether the process has nothing to do (blocked or finished).
     * @return true if no step is pending or running
     */
    bool IsIdle() const;

    /**
     * @brief Use a specific timer for this process's sleeps (default: the platform's).
     * @param timer the timer model
     */
    void SetTimer(Ptr<TimerModel> timer);

    /**
     * TracedCallback signature for a wake-up.
     * @param [in] requested the time the process asked to be woken (Sleep), or the time of the
     *             wake-up event (Wake)
     * @param [in] running the time it got the CPU again
     */
    typedef void (*WakeupTracedCallback)(Time requested, Time running);

  protected:
    void DoDispose() override;

  private:
    /** Kinds of steps. */
    enum Kind : uint8_t
    {
        EXEC,
        SLEEP,
        SLEEP_UNTIL,
        WAKE
    };

    /** A pending step. */
    struct Step
    {
        Kind kind;           //!< what to do
        Time amount;         //!< service time, sleep duration or absolute wake time
        Callback<void> done; //!< completion
        bool fromBlocked;    //!< the process was blocked (idle) when the step was asked for
    };

    /**
     * Append a step and start it if the process is idle.
     * @param step the step
     */
    void Push(Step step);
    /** Start the next pending step, if any. */
    void Next();
    /**
     * The current step is over.
     * @param requested when the wake-up was asked for (for the trace; -1 if not a wake-up)
     */
    void StepDone(Time requested);
    /**
     * The process becomes runnable after a wake-up; it queues for the CPU.
     * @param requested when the wake-up was asked for
     */
    void Runnable(Time requested);
    /** The CPU item of the current step (execution or wake-up) is done. */
    void CpuDone();

    Ptr<HostPlatform> m_platform; //!< the host
    Ptr<TimerModel> m_timer;      //!< timer for sleeps (null = platform's)
    uint32_t m_pid;               //!< process id
    std::deque<Step> m_steps;     //!< pending steps (front = current if running)
    bool m_running;               //!< a step is in progress
    Time m_requested;         //!< wake-up time asked for by the step on the CPU (-1: not a wake-up)
    Callback<void> m_cpuDone; //!< CpuDone, given to the CPU with every item
    TracedCallback<Time, Time> m_wakeupTrace; //!< wake-up trace
};

} // namespace ns3

#endif /* TESTBED_HOST_PROCESS_H */
