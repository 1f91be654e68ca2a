/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_CPU_H
#define TESTBED_HOST_CPU_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <unordered_map>
#include <vector>

/**
 * @file
 * @ingroup testbed-host
 * The CPU of a host: cores and a run queue of work items with priorities.
 */

namespace ns3
{

/**
 * @ingroup testbed-host
 * @brief A multi-core CPU with a priority run queue of work items.
 *
 * Everything a host does (interrupt handlers, the kernel's packet processing, application and
 * RTI work) is a work item with a service time. Items of three priority classes share the cores:
 *
 * - HARDIRQ: interrupt handlers; preempt anything of lower class;
 * - SOFTIRQ: the kernel's deferred packet processing; preempts processes;
 * - PROCESS: user processes; FIFO among themselves, not preempted by each other (their work
 *   items are shorter than a scheduler time slice).
 *
 * A preempted item resumes, with its remaining service time, before the other queued items of
 * its class. Within a class items are served first come, first served. When a core switches
 * from one process to another it pays a context switch (Attribute ContextSwitchCost).
 *
 * Receive livelock emerges from this discipline: when interrupts and their packet processing
 * need more than the whole CPU, processes never run.
 *
 * Cache refill after a context switch (Attributes CacheSize, CacheLineSize, CacheAssociativity,
 * MemoryLatency, ProcessWorkingSet; off while CacheSize or ProcessWorkingSet is 0): every run of
 * a process touches ProcessWorkingSet octets of private memory (its task and kernel stack, page
 * directory and page tables, user stack and data, socket). When a core switches to a process,
 * the lines of that working set which the other processes' runs since its own last run evicted
 * from the last-level cache miss and are refilled from memory at MemoryLatency each. With the
 * lines of the other runs spread uniformly over the cache's sets (CacheSize / (line size x
 * associativity) sets), a line of the process survives if fewer than CacheAssociativity other
 * lines fell into its set: a Poisson probability of the footprint since the process last ran
 * (lines touched by all switched-in runs in between). Few processes keep their working sets
 * cached; thousands evict each other completely, and every wake-up pays the whole refill.
 *
 * Idle states: a core that has been idle for at least IdleEntryTime is in a deep idle state
 * (ACPI C-state, caches gone cold); the first item it runs afterwards needs IdleExitLatency
 * more (wake-up from the idle state and cache refill). Sporadic traffic (a ping a second) pays
 * it on every packet, back-to-back traffic never.
 */
class HostCpu : public Object
{
  public:
    /** Priority classes, highest first. */
    enum Priority : uint8_t
    {
        HARDIRQ = 0, //!< interrupt handler
        SOFTIRQ = 1, //!< kernel deferred work (NET_RX)
        PROCESS = 2, //!< user process
    };

    /** Number of priority classes. */
    static constexpr uint32_t N_PRIORITIES = 3;

    /** Owner id of kernel (interrupt and softirq) work. */
    static constexpr uint32_t KERNEL = 0;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    HostCpu();
    ~HostCpu() override;

    /**
     * @brief Submit a work item.
     * @param priority its class
     * @param service CPU time it needs (at this CPU's speed)
     * @param owner who runs it: HostCpu::KERNEL or a process id (context switches are charged
     *        when a core changes from one process owner to another)
     * @param done called when the item has received its whole service time
     */
    void Submit(Priority priority, Time service, uint32_t owner, Callback<void> done);

    /**
     * @brief Convert CPU cycles to time at this CPU's frequency.
     * @param cycles number of cycles
     * @return the time
     */
    Time CyclesToTime(double cycles) const;

    /**
     * @brief The CPU frequency.
     * @return frequency in Hz
     */
    double GetFrequency() const;

    /**
     * @brief Number of cores.
     * @return the number of cores
     */
    uint32_t GetNCores() const;

    /**
     * @brief Total busy time of all cores for one class, up to now.
     * @param priority the class
     * @return the accumulated service time given to that class
     */
    Time GetBusyTime(Priority priority) const;

    /**
     * @brief Number of items waiting (not running) in a class.
     * @param priority the class
     * @return queue length
     */
    uint32_t GetQueueLength(Priority priority) const;

    /**
     * @brief Bind an owner's work to one core (sched_setaffinity / IRIX sysmp(MP_MUSTRUN) /
     * RedHawk's shield plus cpu binding). Work of a bound owner runs on that core only; a
     * shielded core (ShieldedCores) runs only the work of owners bound to it, so a process bound
     * to a shielded core sees no other process and no interrupt unless it is bound there.
     * @param owner the owner id (a pid, or KERNEL for interrupt and softirq work)
     * @param core the core (< Cores)
     */
    void Bind(uint32_t owner, uint32_t core);

    /**
     * @brief Whether a core is shielded (ShieldedCores).
     * @param core the core
     * @return true if shielded
     */
    bool IsShielded(uint32_t core) const;

    /**
     * @brief Number of sporadic interference events run so far (all cores).
     * @return the count
     */
    uint64_t GetInterferenceEvents() const;

    /**
     * @brief Whether sporadic interference is configured (InterferenceRate or
     * ShieldedInterferenceRate > 0).
     * @return true if so
     */
    bool HasInterference() const;

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream index
     * @return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * @brief Whether any core is idle right now.
     * @return true if at least one core is idle
     */
    bool HasIdleCore() const;

    /**
     * @brief The cache refill a process pays when a core switches to it now (the expected
     * number of its working-set lines evicted since its last run, times MemoryLatency).
     * @param owner the process id
     * @return the refill time (0 if the cache model is off)
     */
    Time GetRefillTime(uint32_t owner) const;

    /**
     * @brief Refill time charged so far (all process switches).
     * @return the total
     */
    Time GetRefillTotal() const;

    /**
     * TracedCallback signature for a work item's completion.
     * @param [in] priority the item's class
     * @param [in] owner the item's owner
     * @param [in] waited time between submission and first start
     * @param [in] service the item's service time
     */
    typedef void (*WorkTracedCallback)(uint8_t priority, uint32_t owner, Time waited, Time service);

  protected:
    void DoDispose() override;
    void DoInitialize() override;

  private:
    /** A work item. */
    struct Task
    {
        Time remaining;      //!< service still needed
        Time service;        //!< total service
        Time submitted;      //!< submission time
        Time firstStart;     //!< first time it ran (-1 = not yet)
        Priority priority;   //!< class
        uint32_t owner;      //!< owner id
        Callback<void> done; //!< completion callback
    };

    /** A core. */
    struct Core
    {
        bool busy{false};      //!< running a task
        Task task;             //!< the task running
        Time started;          //!< when the current run of the task started
        EventId completion;    //!< completion event
        uint32_t lastOwner{0}; //!< owner of the last process task on this core
        Time idleSince;        //!< when the core last became idle
    };

    /**
     * Start a task on a core.
     * @param c core index
     * @param task the task (moved from)
     */
    void Start(uint32_t c, Task&& task);
    /**
     * The task on a core has completed.
     * @param c core index
     */
    void Complete(uint32_t c);
    /**
     * Start the highest-priority queued task on an idle core, if any.
     * @param c core index
     */
    void Dispatch(uint32_t c);

    /**
     * Whether a core may run the work of an owner.
     * @param c core index
     * @param bound the core the owner is bound to, or -1
     * @return true if the core may run it
     */
    bool MayRun(uint32_t c, int32_t bound) const
    {
        return bound >= 0 ? static_cast<int32_t>(c) == bound : !(m_affine && m_shielded[c]);
    }

    /**
     * The run queue of a class for work bound to a core, or the shared one.
     * @param bound the core, or -1
     * @param priority the class
     * @return the queue
     */
    std::deque<Task>& RunQueue(int32_t bound, Priority priority)
    {
        return bound >= 0 ? m_coreRunq[bound][priority] : m_runq[priority];
    }

    /**
     * The core an owner is bound to.
     * @param owner the owner
     * @return the core, or -1 if unbound
     */
    int32_t CoreOf(uint32_t owner) const;
    /**
     * Size the cores, parse ShieldedCores and bind KERNEL to InterruptCore (once, before the
     * first work item or binding).
     */
    void Setup();
    /**
     * Schedule the next sporadic interference event on a core.
     * @param c core index
     * @param first whether it is the core's first event (a periodic tick draws its phase)
     */
    void ScheduleInterference(uint32_t c, bool first);
    /**
     * A sporadic interference event on a core: kernel work that preempts the process there.
     * @param c core index
     */
    void Interfere(uint32_t c);

    /**
     * Record a process's run for the cache model (its lines are now the most recent).
     * @param owner the process id
     * @param other whether the core ran another owner before (its lines are touched anew)
     */
    void Touch(uint32_t owner, bool other);

    /** A cycle count converted to time. */
    struct CachedTime
    {
        double cycles{-1};   //!< the cycles (-1: empty)
        double frequency{0}; //!< at this frequency
        Time time;           //!< the time
    };

    double m_frequency;                                //!< Hz
    uint32_t m_nCores;                                 //!< cores
    double m_contextSwitchCycles;                      //!< cycles per process switch
    Time m_idleEntry;                                  //!< idle time before the deep state
    Time m_idleExit;                                   //!< extra time to leave deep idle
    std::vector<Core> m_cores;                         //!< the cores
    std::array<std::deque<Task>, N_PRIORITIES> m_runq; //!< queued tasks per class
    std::string m_shieldedSpec;                        //!< ShieldedCores
    int32_t m_interruptCore;                           //!< InterruptCore (-1: any)
    bool m_affine;                //!< affinity rules in force (a binding or a shield)
    std::vector<bool> m_shielded; //!< per core
    std::unordered_map<uint32_t, uint32_t> m_affinity;                  //!< owner -> core
    std::vector<std::array<std::deque<Task>, N_PRIORITIES>> m_coreRunq; //!< bound tasks per core
    double m_interferenceRate;         //!< InterferenceRate (per core, 1/s)
    double m_shieldedInterferenceRate; //!< ShieldedInterferenceRate
    bool m_interferencePeriodic;       //!< InterferencePeriodic: a timer tick, not Poisson
    Ptr<RandomVariableStream> m_interferenceDuration;           //!< InterferenceDuration (s)
    Ptr<RandomVariableStream> m_shieldedInterferenceDuration;   //!< ShieldedInterferenceDuration
    Ptr<ExponentialRandomVariable> m_interArrival;              //!< gaps between events (mean 1)
    std::vector<EventId> m_interferenceEvents;                  //!< next event per core
    uint64_t m_nInterference;                                   //!< counter
    static constexpr uint32_t INTERFERENCE_OWNER = 0xFFFFF000u; //!< + core index
    uint64_t m_cacheSize;                                       //!< CacheSize (octets)
    uint32_t m_cacheLine;                                       //!< CacheLineSize (octets)
    uint32_t m_cacheWays;                                       //!< CacheAssociativity
    Time m_memoryLatency;                                       //!< MemoryLatency
    uint32_t m_workingSet;                                      //!< ProcessWorkingSet (octets)
    uint64_t m_linesTouched{0};            //!< lines touched by all switched-in process runs
    std::vector<uint64_t> m_lastTouched;   //!< per owner: m_linesTouched after its last run + 1
    Time m_refillTotal;                    //!< refill time charged so far
    std::array<Time, N_PRIORITIES> m_busy; //!< accumulated service per class
    TracedCallback<uint8_t, uint32_t, Time, Time> m_workTrace; //!< completion trace
    static constexpr int TIME_CACHE_BITS = 5;                  //!< log2 of the size of m_timeCache
    mutable std::array<CachedTime, 1 << TIME_CACHE_BITS>
        m_timeCache; //!< recent CyclesToTime results
};

} // namespace ns3

#endif /* TESTBED_HOST_CPU_H */
