/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_CPU_H
#define TESTBED_HOST_CPU_H

#include "host-cpu-arrivals.h"
#include "host-cpu-cache.h"
#include "host-cpu-interference.h"

#include "ns3/assert.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/fast-path.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstring>
#include <deque>
#include <string>
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
 *   items are shorter than a scheduler time slice), unless WakeUpPreemption lets a woken
 *   process (nothing of its own running or queued) take a core from another process.
 *
 * A preempted item resumes, with its remaining service time, before the other queued items of
 * its class. Within a class items are served first come, first served. When a core switches
 * from one process to another it pays a context switch (Attribute ContextSwitchCost).
 *
 * Receive livelock emerges from this discipline: when interrupts and their packet processing
 * need more than the whole CPU, processes never run.
 *
 * Cache refill after a context switch (Attributes CacheSize, CacheLineSize, CacheAssociativity,
 * MemoryLatency, ProcessWorkingSet): a process that a core switches to pays the refill of its
 * working set as far as the other processes' runs evicted it (HostCpuCache, host-cpu-cache.h).
 *
 * Sporadic interference (Attributes InterferenceRate, ShieldedInterferenceRate and their
 * durations): kernel work bound to each core, preempting the process there
 * (HostCpuInterference, host-cpu-interference.h); while every core is idle and no arrival is
 * pending its events are not scheduled, and are run at their instants when the CPU is next used
 * or asked.
 *
 * Arrivals (HostCpuArrivalSource, host-cpu-arrivals.h): processes that wake up at times known
 * in advance (the end of a sleep) are handed to the CPU as a source of future PROCESS work items
 * instead of one simulator event per wake-up; the CPU takes each when it falls due, exactly as
 * if it had been submitted then (host-cpu-arrivals.cc).
 *
 * Idle states: a core that has been idle for at least IdleEntryTime is in a deep idle state
 * (ACPI C-state, caches gone cold); the first item it runs afterwards needs IdleExitLatency
 * more (wake-up from the idle state and cache refill). Sporadic traffic (a ping a second) pays
 * it on every packet, back-to-back traffic never.
 */
class HostCpu
    : public Object
    , private HostCpuInterference::Cpu
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

    /**
     * @brief Whether Cores, ShieldedCores and InterruptCore agree (what Setup() would otherwise
     * stop the program over): every shielded core and the interrupt core exist, and one core
     * is left to the kernel.
     * @param cores Cores
     * @param shielded ShieldedCores ("1,2"; empty: none)
     * @param interruptCore InterruptCore (-1: any)
     * @param [out] why what is wrong when the result is false
     * @param [out] shieldedCores the shielded cores' flags (Cores of them), when given
     * @return whether they agree
     */
    static bool CheckCores(uint32_t cores,
                           const std::string& shielded,
                           int32_t interruptCore,
                           std::string& why,
                           std::vector<bool>* shieldedCores = nullptr);

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
     * @brief Submit a work item whose completion callback takes a tag (one callback serves many
     * items, e.g. one per virtual process, without a callback object per item).
     * @param priority its class
     * @param service CPU time it needs
     * @param owner who runs it (see the other Submit)
     * @param done called with @p tag when the item has received its whole service time
     * @param tag the tag
     */
    void Submit(Priority priority,
                Time service,
                uint32_t owner,
                Callback<void, uint32_t> done,
                uint32_t tag);

    /**
     * @brief Submit a work item whose completion is a callback the caller keeps (e.g. a member
     * made once): the CPU holds a pointer to it, not a copy (ns-3 Callbacks have no move: a copy
     * costs reference counts per item). The callback must stay alive until the item completes;
     * it is not called if it is null by then.
     * @param priority its class
     * @param service CPU time it needs
     * @param owner who runs it (see Submit)
     * @param done called when the item has received its whole service time (null: nothing)
     */
    void SubmitKept(Priority priority, Time service, uint32_t owner, const Callback<void>* done);

    /**
     * @brief SubmitKept with a tagged completion (see the tagged Submit).
     * @param priority its class
     * @param service CPU time it needs
     * @param owner who runs it
     * @param done called with @p tag when the item has received its whole service time
     * @param tag the tag
     */
    void SubmitKept(Priority priority,
                    Time service,
                    uint32_t owner,
                    const Callback<void, uint32_t>* done,
                    uint32_t tag);

    /// What a work item calls when it completes (HostCpuCompletion).
    using Completion = HostCpuCompletion;

    /// A source of PROCESS work items that fall due at known times (HostCpuArrivalSource).
    using ArrivalSource = HostCpuArrivalSource;

    /**
     * @brief Take the arrivals of a source (it must stay alive until removed).
     * @param source the source
     */
    void AddArrivalSource(ArrivalSource* source);

    /**
     * @brief Stop taking the arrivals of a source.
     * @param source the source
     */
    void RemoveArrivalSource(ArrivalSource* source);

    /**
     * @brief A process will run soon (a source's next arrival): its state in the CPU's models
     * starts loading into the processor's cache. Nothing else changes.
     * @param owner the process id
     */
    void PrefetchOwner(uint32_t owner) const
    {
        m_cache.Prefetch(owner);
    }

    /**
     * @brief A source's earliest arrival changed (one was added before it, or the source stopped):
     * the CPU plans again.
     */
    void ArrivalsChanged();

    /**
     * @brief Convert CPU cycles to time at this CPU's frequency.
     * @param cycles number of cycles
     * @return the time
     */
    Time CyclesToTime(double cycles) const
    {
        return Cached(cycles).time;
    }

    /**
     * @brief The CPU frequency.
     * @return frequency in Hz
     */
    double GetFrequency() const;

    /**
     * @brief The cost of a switch from one process to another (ContextSwitchCost).
     * @return cycles
     */
    double GetContextSwitchCycles() const;

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
     * @brief Whether a work item completes at a time (its completion event is due then).
     * @param t the time
     * @return true if a running (or planned) item's completion is at @p t
     */
    bool IsCompleting(Time t) const;

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
     * @brief Time to refill one cache line from main memory (attribute MemoryLatency).
     * @return the latency
     */
    Time GetMemoryLatency() const;

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
    /** A work item (its times in time steps: no ns3::Time on the per-item path). */
    struct Task
    {
        int64_t remaining;  //!< service still needed
        int64_t service;    //!< total service
        int64_t submitted;  //!< submission time
        int64_t firstStart; //!< first time it ran (-1 = not yet)
        Priority priority;  //!< class
        uint32_t owner;     //!< owner id
        uint32_t done;      //!< its completion's slot in m_slots (NO_SLOT: none), or the tag
        const Callback<void>* kept{nullptr};                 //!< a kept completion (SubmitKept)
        const Callback<void, uint32_t>* keptTagged{nullptr}; //!< a kept one, called with done
    };

    /// Task::done of a task without a completion.
    static constexpr uint32_t NO_SLOT = 0xFFFFFFFFu;

    /**
     * Keep a completion until its task completes: the tasks move between run queues and cores
     * as plain values, and the callbacks (ns-3 Callbacks copy their reference counts; they have
     * no move) are copied once, here.
     * @param done the completion
     * @return its slot (NO_SLOT if both callbacks are null)
     */
    uint32_t Hold(Completion&& done);
    /**
     * Give a task its completion: a kept callback by pointer, else a slot (Hold).
     * @param task the task
     * @param done the completion
     */
    void SetDone(Task& task, Completion&& done);
    /**
     * Call a task's completion (and free its slot).
     * @param task the task
     */
    void Call(const Task& task);

    /** A core (its times in time steps). */
    struct Core
    {
        bool busy{false};   //!< running a task
        Task task{};        //!< the task running
        int64_t started{0}; //!< when the current run of the task started
        /// Its completion event while busy (held, cancelled at a preemption), else none.
        fastpath::Event completion;
        uint32_t lastOwner{0}; //!< owner of the last process task on this core
        int64_t idleSince{0};  //!< when the core last became idle
    };

    /**
     * Start a task on a core.
     * @param c core index
     * @param task the task (moved from)
     * @param at the time it starts (time step; now, or an arrival's time not later than now)
     * @param planned its completion event if already scheduled (a planned arrival: taken
     *        over), else null
     */
    void Start(uint32_t c, Task&& task, int64_t at, fastpath::Event* planned = nullptr);
    /**
     * The extra time a task needs when it starts on a core at some time: the exit from a deep
     * idle state, a context switch and the refill of its working set.
     * @param core the core
     * @param priority the task's class
     * @param owner its owner
     * @param at its start (time step)
     * @param commit whether it starts now (the cache model records the run) or is only planned
     * @return the extra time (time steps)
     */
    int64_t StartExtra(const Core& core,
                       Priority priority,
                       uint32_t owner,
                       int64_t at,
                       bool commit);
    /**
     * Submit a work item now (both Submit overloads).
     * @param priority its class
     * @param service CPU time it needs (time steps)
     * @param owner who runs it
     * @param done its completion
     */
    void SubmitNow(Priority priority, int64_t service, uint32_t owner, Completion&& done);
    /**
     * Submit a task now (Submit, SubmitKept): the CPU brought up to now, then the task.
     * @param task the task (its submission time is set here)
     */
    void SubmitNow(Task&& task);
    /**
     * Submit a task at a given time (now, or the time an arrival fell due).
     * @param task the task (moved from)
     * @param at the time (time step)
     */
    void SubmitTask(Task&& task, int64_t at);
    /**
     * The task on a core has completed.
     * @param c core index
     */
    void Complete(uint32_t c);

    /**
     * A completion event (a planned arrival's, or a started task's).
     * @param c core index
     */
    void CompletionEvent(uint32_t c);
    /** An entry into the CPU's state: bring the arrivals up to now (outermost entry only). */
    void Enter();
    /** The end of an entry: plan the next arrival (outermost entry only). */
    void Leave();
    /** A planned arrival whose time has come starts; one in the future is cancelled; the
     * arrivals that fell due until now are submitted at their times. */
    void Resolve();
    /** Plan the earliest arrival's start on an idle core (or an event at its time). */
    void Replan();
    /**
     * The source with the earliest pending arrival.
     * @param next set to that arrival
     * @return its index in m_sources, or -1 if none is pending
     */
    int32_t EarliestArrival(ArrivalSource::Arrival& next) const;
    /**
     * Submit a source's earliest arrival at its time.
     * @param s the source's index
     * @param a the arrival (PeekArrival's)
     * @param planned the planned completion event if it starts as planned (taken over), else
     *        null
     */
    void TakeArrival(int32_t s, const ArrivalSource::Arrival& a, fastpath::Event* planned);
    /**
     * Bring the CPU up to now before an observation (const getters): the deferred interference
     * due, then the arrivals due.
     */
    void Sync() const;
    /**
     * Whether an arrival source has an arrival pending (or one is planned): the interference
     * is not deferred then.
     * @return true if an arrival is pending
     */
    bool ArrivalPending() const;
    /**
     * Start the highest-priority queued task on an idle core, if any.
     * @param c core index
     * @param now the current time step
     */
    void Dispatch(uint32_t c, int64_t now);

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
     * Whether an owner has a process work item running or queued (WakeUpPreemption).
     * @param owner the owner
     * @return true if it has
     */
    bool OwnerHasWork(uint32_t owner) const;

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
     * Whether every core is idle (then nothing is queued either: a queued item waits only for
     * a busy core).
     * @return true if no core runs a work item
     */
    bool AllIdle() const;
    /**
     * Bring the deferred interference up to now (HostCpuInterference::CatchUp: every event due
     * at or before now run as it would have run, RunDueInterference), and schedule its events
     * again if a core is then busy. Nothing to do while the events are scheduled.
     */
    void CatchUp();
    /**
     * An interference event at its instant: HARDIRQ work of the core's interference owner
     * (bound to the core), submitted now.
     * @param core the core
     * @param service its service time
     */
    void RunInterference(uint32_t core, Time service) override;
    /**
     * A deferred interference event due at @p due: run as Submit and Start would have run it
     * then on a CPU idle but for the deferred events before it (queued behind one still
     * running; completed, with its idle-exit latency, if it ended by now; else on its core).
     * @param core the core
     * @param due its instant (time step)
     * @param service its service time (time steps)
     */
    void RunDueInterference(uint32_t core, int64_t due, int64_t service) override;

    /**
     * Setter of the attribute InterferenceRate.
     * @param rate mean events per second per core that is not shielded
     */
    void SetInterferenceRate(double rate);
    /**
     * Getter of the attribute InterferenceRate.
     * @return mean events per second per core that is not shielded
     */
    double GetInterferenceRate() const;
    /**
     * Setter of the attribute ShieldedInterferenceRate.
     * @param rate mean events per second per shielded core
     */
    void SetShieldedInterferenceRate(double rate);
    /**
     * Getter of the attribute ShieldedInterferenceRate.
     * @return mean events per second per shielded core
     */
    double GetShieldedInterferenceRate() const;
    /**
     * Setter of the attribute InterferencePeriodic.
     * @param periodic whether the events of InterferenceRate are a periodic tick
     */
    void SetInterferencePeriodic(bool periodic);
    /**
     * Getter of the attribute InterferencePeriodic.
     * @return whether the events of InterferenceRate are a periodic tick
     */
    bool GetInterferencePeriodic() const;
    /**
     * Setter of the attribute IdleInterferenceEvents.
     * @param events whether the events stay simulator events while the CPU is idle
     */
    void SetIdleInterferenceEvents(bool events);
    /**
     * Getter of the attribute IdleInterferenceEvents.
     * @return whether the events stay simulator events while the CPU is idle
     */
    bool GetIdleInterferenceEvents() const;
    /**
     * Setter of the attribute InterferenceDuration.
     * @param duration the duration (s) of one event of InterferenceRate
     */
    void SetInterferenceDuration(Ptr<RandomVariableStream> duration);
    /**
     * Getter of the attribute InterferenceDuration.
     * @return the duration (s) of one event of InterferenceRate
     */
    Ptr<RandomVariableStream> GetInterferenceDuration() const;
    /**
     * Setter of the attribute ShieldedInterferenceDuration.
     * @param duration the duration (s) of one event of ShieldedInterferenceRate
     */
    void SetShieldedInterferenceDuration(Ptr<RandomVariableStream> duration);
    /**
     * Getter of the attribute ShieldedInterferenceDuration.
     * @return the duration (s) of one event of ShieldedInterferenceRate
     */
    Ptr<RandomVariableStream> GetShieldedInterferenceDuration() const;

    /**
     * Setter of the attribute CacheSize (HostCpuCache::SetCacheSize).
     * @param octets the last-level cache
     */
    void SetCacheSize(uint64_t octets);
    /**
     * Getter of the attribute CacheSize.
     * @return the last-level cache (octets)
     */
    uint64_t GetCacheSize() const;
    /**
     * Setter of the attribute CacheLineSize (empties the remembered refills).
     * @param octets the cache line
     */
    void SetCacheLineSize(uint32_t octets);
    /**
     * Getter of the attribute CacheLineSize.
     * @return the cache line (octets)
     */
    uint32_t GetCacheLineSize() const;
    /**
     * Setter of the attribute CacheAssociativity (empties the remembered refills).
     * @param ways the ways of a set
     */
    void SetCacheAssociativity(uint32_t ways);
    /**
     * Getter of the attribute CacheAssociativity.
     * @return the ways of a set
     */
    uint32_t GetCacheAssociativity() const;
    /**
     * Setter of the attribute MemoryLatency (empties the remembered refills).
     * @param latency the time to refill one line
     */
    void SetMemoryLatency(Time latency);
    /**
     * Setter of the attribute ProcessWorkingSet (empties the remembered refills).
     * @param octets the private memory a process touches in one run
     */
    void SetProcessWorkingSet(uint32_t octets);
    /**
     * Getter of the attribute ProcessWorkingSet.
     * @return the private memory a process touches in one run (octets)
     */
    uint32_t GetProcessWorkingSet() const;

    /** A cycle count converted to time. */
    struct CachedTime
    {
        double cycles{-1};   //!< the cycles (-1: empty)
        double frequency{0}; //!< at this frequency
        Time time;           //!< the time
    };

    /**
     * The conversion of a cycle count to time (CyclesToTime), remembered: the same few cycle
     * counts recur (per-interrupt, per-frame and per-message costs), and the conversion goes
     * through 128-bit fixed point.
     * @param cycles number of cycles
     * @return the entry that holds its time
     */
    const CachedTime& Cached(double cycles) const
    {
        NS_ASSERT_MSG(cycles >= 0, "negative cycle count " << cycles);
        uint64_t bits;
        std::memcpy(&bits, &cycles, sizeof(bits));
        CachedTime& e = m_timeCache[(bits * 0x9E3779B97F4A7C15ULL) >> (64 - TIME_CACHE_BITS)];
        if (e.cycles != cycles || e.frequency != m_frequency)
        {
            e.cycles = cycles;
            e.frequency = m_frequency;
            e.time = fastpath::FromSeconds(cycles / m_frequency);
        }
        return e;
    }

    double m_frequency;                                //!< Hz
    uint32_t m_nCores;                                 //!< cores
    double m_contextSwitchCycles;                      //!< cycles per process switch
    Time m_idleEntry;                                  //!< idle time before the deep state
    Time m_idleExit;                                   //!< extra time to leave deep idle
    std::vector<Core> m_cores;                         //!< the cores
    std::array<std::deque<Task>, N_PRIORITIES> m_runq; //!< queued tasks per class
    bool m_wakeUpPreemption{false};                    //!< WakeUpPreemption
    std::string m_shieldedSpec;                        //!< ShieldedCores
    int32_t m_interruptCore;                           //!< InterruptCore (-1: any)
    bool m_affine;                //!< affinity rules in force (a binding or a shield)
    std::vector<bool> m_shielded; //!< per core
    std::unordered_map<uint32_t, uint32_t> m_affinity;                  //!< owner -> core
    std::vector<std::array<std::deque<Task>, N_PRIORITIES>> m_coreRunq; //!< bound tasks per core
    HostCpuInterference m_interference;                                 //!< the interference model
    static constexpr uint32_t INTERFERENCE_OWNER = 0xFFFFF000u;         //!< + core index
    HostCpuCache m_cache;                                               //!< the cache-refill model
    std::array<int64_t, N_PRIORITIES> m_busy; //!< accumulated service per class (time steps)
    std::vector<ArrivalSource*> m_sources;    //!< arrival sources
    uint32_t m_depth{0};                      //!< nesting of entries (Enter/Leave)
    bool m_planned{false};                    //!< an arrival's start is planned (one core, idle)
    int64_t m_planTime{0};                    //!< its time (time step)
    int64_t m_planEnd{0};                     //!< its completion (time step)
    int32_t m_planSource{-1};                 //!< its source
    fastpath::Event m_planEvent;              //!< its completion event
    fastpath::Event m_arrivalEvent;           //!< multi-core CPUs: an event at an arrival's time
    int64_t m_arrivalEventTime{-1};           //!< its time
    TracedCallback<uint8_t, uint32_t, Time, Time> m_workTrace; //!< completion trace
    static constexpr int TIME_CACHE_BITS = 5;                  //!< log2 of the size of m_timeCache
    mutable std::array<CachedTime, 1 << TIME_CACHE_BITS>
        m_timeCache;                   //!< recent CyclesToTime results
    std::deque<Completion> m_slots;    //!< completions of the tasks (a deque: calls add slots)
    std::vector<uint32_t> m_freeSlots; //!< free slots of m_slots
    int64_t m_now{0};                  //!< the time step of the current entry (Enter)
};

} // namespace ns3

#endif /* TESTBED_HOST_CPU_H */
