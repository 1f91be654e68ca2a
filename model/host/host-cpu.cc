/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-cpu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fast-path.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostCpu");

NS_OBJECT_ENSURE_REGISTERED(HostCpu);

TypeId
HostCpu::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::HostCpu")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<HostCpu>()
              .AddAttribute("Frequency",
                            "Clock frequency of each core (Hz); converts cycle costs to time.",
                            DoubleValue(1e9),
                            MakeDoubleAccessor(&HostCpu::m_frequency),
                            MakeDoubleChecker<double>(1e6, 1e11))
              .AddAttribute("Cores",
                            "Number of cores (set before the first work item).",
                            UintegerValue(1),
                            MakeUintegerAccessor(&HostCpu::m_nCores),
                            MakeUintegerChecker<uint32_t>(1, 1024))
              .AddAttribute("ContextSwitchCost",
                            "Cycles a core spends switching from one process to another.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostCpu::m_contextSwitchCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("WakeUpPreemption",
                            "A process work item submitted while its owner has nothing running "
                            "or queued (a process woken by an event) takes a core from another "
                            "process, which resumes after it paying a context switch back (Linux "
                            "2.6's O(1) scheduler preempts the current task for a woken one of "
                            "better dynamic priority); false: processes are served first come, "
                            "first served.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&HostCpu::m_wakeUpPreemption),
                            MakeBooleanChecker())
              .AddAttribute("IdleEntryTime",
                            "A core idle for at least this long is in a deep idle state "
                            "(0 = no deep idle state).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&HostCpu::m_idleEntry),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("IdleExitLatency",
                            "Extra time the first item after a deep idle period needs (idle-state "
                            "exit and cold caches).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&HostCpu::m_idleExit),
                            MakeTimeChecker(Seconds(0), Seconds(1)))
              .AddAttribute("ShieldedCores",
                            "Comma-separated list of shielded cores (IRIX sysmp(MP_ISOLATE), "
                            "RedHawk shield -a): they run only the work of owners bound to them "
                            "(Bind). Empty: none.",
                            StringValue(""),
                            MakeStringAccessor(&HostCpu::m_shieldedSpec),
                            MakeStringChecker())
              .AddAttribute("InterruptCore",
                            "Core that takes all interrupt and softirq work (the interrupt "
                            "affinity of the NICs); -1: any core that is not shielded.",
                            IntegerValue(-1),
                            MakeIntegerAccessor(&HostCpu::m_interruptCore),
                            MakeIntegerChecker<int32_t>(-1, 1023))
              .AddAttribute(
                  "InterferenceRate",
                  "Sporadic kernel activity on each core that is not shielded (timer "
                  "and housekeeping interrupts, daemons with interrupts masked): mean "
                  "events per second per core, Poisson (0: none).",
                  DoubleValue(0.0),
                  MakeDoubleAccessor(&HostCpu::SetInterferenceRate, &HostCpu::GetInterferenceRate),
                  MakeDoubleChecker<double>(0.0, 1e6))
              .AddAttribute("InterferencePeriodic",
                            "Whether the events of InterferenceRate (not the shielded ones) come "
                            "periodically, every 1/InterferenceRate from a random phase (a "
                            "kernel's timer tick: Linux's HZ), instead of as a Poisson stream.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&HostCpu::SetInterferencePeriodic,
                                                &HostCpu::GetInterferencePeriodic),
                            MakeBooleanChecker())
              .AddAttribute("IdleInterferenceEvents",
                            "Whether interference events are simulator events while every core "
                            "is idle (true: a CPU with interference never lets Simulator::Run() "
                            "end by itself). False: while the CPU is idle with no arrival "
                            "pending (AddArrivalSource) they are not "
                            "scheduled, and are run when the CPU is next used or asked (Submit, "
                            "GetBusyTime, GetQueueLength, HasIdleCore, GetInterferenceEvents), "
                            "at the instants, with the draws and in the order they would have "
                            "had: results are the same.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&HostCpu::SetIdleInterferenceEvents,
                                                &HostCpu::GetIdleInterferenceEvents),
                            MakeBooleanChecker())
              .AddAttribute("InterferenceDuration",
                            "Duration (s) of one event of InterferenceRate.",
                            StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                            MakePointerAccessor(&HostCpu::SetInterferenceDuration,
                                                &HostCpu::GetInterferenceDuration),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("ShieldedInterferenceRate",
                            "Sporadic events that a shielded core still sees (inter-processor "
                            "interrupts such as TLB shootdowns, a local timer tick that is not "
                            "disabled): mean events per second per shielded core (0: none).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostCpu::SetShieldedInterferenceRate,
                                               &HostCpu::GetShieldedInterferenceRate),
                            MakeDoubleChecker<double>(0.0, 1e6))
              .AddAttribute("ShieldedInterferenceDuration",
                            "Duration (s) of one event of ShieldedInterferenceRate.",
                            StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                            MakePointerAccessor(&HostCpu::SetShieldedInterferenceDuration,
                                                &HostCpu::GetShieldedInterferenceDuration),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("CacheSize",
                            "Last-level cache (octets) for the refill after a context switch "
                            "(0: no cache model).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostCpu::SetCacheSize, &HostCpu::GetCacheSize),
                            MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 40))
              .AddAttribute(
                  "CacheLineSize",
                  "Cache line (octets).",
                  UintegerValue(32),
                  MakeUintegerAccessor(&HostCpu::SetCacheLineSize, &HostCpu::GetCacheLineSize),
                  MakeUintegerChecker<uint32_t>(4, 4096))
              .AddAttribute("CacheAssociativity",
                            "Ways of the set-associative cache.",
                            UintegerValue(8),
                            MakeUintegerAccessor(&HostCpu::SetCacheAssociativity,
                                                 &HostCpu::GetCacheAssociativity),
                            MakeUintegerChecker<uint32_t>(1, 64))
              .AddAttribute(
                  "MemoryLatency",
                  "Time to refill one cache line from main memory (a dependent miss).",
                  TimeValue(Seconds(0)),
                  MakeTimeAccessor(&HostCpu::SetMemoryLatency, &HostCpu::GetMemoryLatency),
                  MakeTimeChecker(Seconds(0), MicroSeconds(10)))
              .AddAttribute("ProcessWorkingSet",
                            "Private memory (octets) a process touches in one run (task and "
                            "kernel stack, page tables, user stack and data, socket); refilled "
                            "as far as evicted when a core switches to it (0: no cache model).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostCpu::SetProcessWorkingSet,
                                                 &HostCpu::GetProcessWorkingSet),
                            MakeUintegerChecker<uint32_t>(0, 1u << 30))
              .AddTraceSource("WorkDone",
                              "A work item received its whole service time.",
                              MakeTraceSourceAccessor(&HostCpu::m_workTrace),
                              "ns3::HostCpu::WorkTracedCallback");
    return tid;
}

HostCpu::HostCpu()
    : m_frequency(1e9)
    , m_nCores(1)
    , m_contextSwitchCycles(0)
    , m_interruptCore(-1)
    , m_affine(false)
{
    NS_LOG_FUNCTION(this);
    m_busy.fill(0);
}

HostCpu::~HostCpu()
{
    // The cores' held events go as destroyed EventIds would (not disposed: not cancelled).
    NS_LOG_FUNCTION(this);
}

void
HostCpu::DoDispose()
{
    for (auto& core : m_cores)
    {
        core.completion.Cancel();
    }
    m_cores.clear();
    m_slots.clear();
    m_freeSlots.clear();
    m_planEvent.Cancel();
    m_arrivalEvent.Cancel();
    m_planned = false;
    m_sources.clear();
    for (auto& q : m_runq)
    {
        q.clear();
    }
    m_coreRunq.clear();
    m_interference.Dispose();
    Object::DoDispose();
}

bool
HostCpu::CheckCores(uint32_t cores,
                    const std::string& shielded,
                    int32_t interruptCore,
                    std::string& why,
                    std::vector<bool>* shieldedCores)
{
    std::vector<bool> flags(cores, false);
    std::istringstream in(shielded);
    std::string item;
    while (std::getline(in, item, ','))
    {
        if (item.find_first_not_of(" ") == std::string::npos)
        {
            continue;
        }
        std::size_t used = 0;
        long core = -1;
        try
        {
            core = std::stol(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used == 0 || item.find_first_not_of(" ", used) != std::string::npos || core < 0
            || core >= static_cast<long>(cores))
        {
            why = "ShieldedCores \"" + shielded + "\": \"" + item + "\" is not a core in [0, "
                  + std::to_string(cores) + ")";
            return false;
        }
        flags[core] = true;
    }
    if (std::find(flags.begin(), flags.end(), false) == flags.end())
    {
        why = "ShieldedCores \"" + shielded + "\" shields every core: the kernel needs one";
        return false;
    }
    if (interruptCore >= 0 && static_cast<uint32_t>(interruptCore) >= cores)
    {
        why = "InterruptCore " + std::to_string(interruptCore) + " >= Cores "
              + std::to_string(cores) + " (the cores are 0 .. Cores - 1)";
        return false;
    }
    if (shieldedCores)
    {
        *shieldedCores = std::move(flags);
    }
    return true;
}

void
HostCpu::Setup()
{
    NS_ABORT_MSG_IF(!m_cores.empty(), "HostCpu: Cores changed after the first work item");
    m_cores.resize(m_nCores);
    m_coreRunq.resize(m_nCores);
    std::string why;
    NS_ABORT_MSG_UNLESS(CheckCores(m_nCores, m_shieldedSpec, m_interruptCore, why, &m_shielded),
                        "HostCpu: " << why);
    if (std::find(m_shielded.begin(), m_shielded.end(), true) != m_shielded.end())
    {
        m_affine = true;
    }
    if (m_interruptCore >= 0)
    {
        m_affinity[KERNEL] = m_interruptCore;
        m_affine = true;
    }
}

void
HostCpu::DoInitialize()
{
    if (m_cores.size() != m_nCores)
    {
        Setup();
    }
    if (m_interference.IsOn())
    {
        // Inside Enter/Leave: a plan made before the interference made the CPU affine is
        // resolved, and Leave plans the arrivals anew with the interference in place.
        Enter();
        for (uint32_t c = 0; c < m_nCores; ++c)
        {
            m_affinity[INTERFERENCE_OWNER + c] = c;
            m_affine = true;
        }
        // An idle CPU with no arrival pending defers its events until it is used
        // (IdleInterferenceEvents).
        m_interference.Start(this,
                             m_shielded,
                             !m_interference.GetIdleEvents() && AllIdle() && !ArrivalPending());
        Leave();
    }
    Object::DoInitialize();
}

bool
HostCpu::AllIdle() const
{
    for (const auto& core : m_cores)
    {
        if (core.busy)
        {
            return false;
        }
    }
    return true;
}

void
HostCpu::Bind(uint32_t owner, uint32_t core)
{
    NS_LOG_FUNCTION(this << owner << core);
    NS_ABORT_MSG_IF(core >= m_nCores, "HostCpu::Bind: core " << core << " >= Cores " << m_nCores);
    if (m_cores.size() != m_nCores)
    {
        Setup();
    }
    m_affinity[owner] = core;
    m_affine = true;
}

bool
HostCpu::IsShielded(uint32_t core) const
{
    return core < m_shielded.size() && m_shielded[core];
}

int64_t
HostCpu::AssignStreams(int64_t stream)
{
    return m_interference.AssignStreams(stream);
}

int32_t
HostCpu::CoreOf(uint32_t owner) const
{
    auto it = m_affinity.find(owner);
    return it == m_affinity.end() ? -1 : static_cast<int32_t>(it->second);
}

bool
HostCpu::IsCompleting(Time t) const
{
    for (const auto& core : m_cores)
    {
        if (core.busy && core.started + core.task.remaining == t.GetTimeStep())
        {
            return true;
        }
    }
    return m_planned && m_planEnd == t.GetTimeStep();
}

Time
HostCpu::GetRefillTime(uint32_t owner) const
{
    return TimeStep(m_cache.RefillSteps(owner));
}

Time
HostCpu::GetRefillTotal() const
{
    return TimeStep(m_cache.GetTotal());
}

Time
HostCpu::GetMemoryLatency() const
{
    return m_cache.GetMemoryLatency();
}

void
HostCpu::SetCacheSize(uint64_t octets)
{
    m_cache.SetCacheSize(octets);
}

uint64_t
HostCpu::GetCacheSize() const
{
    return m_cache.GetCacheSize();
}

void
HostCpu::SetCacheLineSize(uint32_t octets)
{
    m_cache.SetCacheLineSize(octets);
}

uint32_t
HostCpu::GetCacheLineSize() const
{
    return m_cache.GetCacheLineSize();
}

void
HostCpu::SetCacheAssociativity(uint32_t ways)
{
    m_cache.SetCacheAssociativity(ways);
}

uint32_t
HostCpu::GetCacheAssociativity() const
{
    return m_cache.GetCacheAssociativity();
}

void
HostCpu::SetMemoryLatency(Time latency)
{
    m_cache.SetMemoryLatency(latency);
}

void
HostCpu::SetProcessWorkingSet(uint32_t octets)
{
    m_cache.SetProcessWorkingSet(octets);
}

uint32_t
HostCpu::GetProcessWorkingSet() const
{
    return m_cache.GetProcessWorkingSet();
}

double
HostCpu::GetFrequency() const
{
    return m_frequency;
}

double
HostCpu::GetContextSwitchCycles() const
{
    return m_contextSwitchCycles;
}

uint32_t
HostCpu::GetNCores() const
{
    return m_nCores;
}

Time
HostCpu::GetBusyTime(Priority priority) const
{
    NS_ASSERT(priority < N_PRIORITIES);
    Sync(); // the deferred interference, then the arrivals due
    int64_t busy = m_busy[priority];
    // Add the part of running tasks served so far.
    const int64_t now = Simulator::Now().GetTimeStep();
    for (const auto& core : m_cores)
    {
        if (core.busy && core.task.priority == priority)
        {
            busy += now - core.started;
        }
    }
    return TimeStep(busy);
}

uint32_t
HostCpu::GetQueueLength(Priority priority) const
{
    NS_ASSERT(priority < N_PRIORITIES);
    Sync(); // the deferred interference, then the arrivals due
    uint32_t n = m_runq[priority].size();
    for (const auto& q : m_coreRunq)
    {
        n += q[priority].size();
    }
    return n;
}

bool
HostCpu::HasIdleCore() const
{
    Sync(); // the deferred interference, then the arrivals due
    if (m_cores.size() < m_nCores)
    {
        return true;
    }
    for (const auto& core : m_cores)
    {
        if (!core.busy)
        {
            return true;
        }
    }
    return false;
}

void
HostCpu::Submit(Priority priority, Time service, uint32_t owner, Callback<void> done)
{
    NS_LOG_FUNCTION(this << +priority << service << owner);
    SubmitNow(priority, service.GetTimeStep(), owner, Completion{std::move(done), {}, 0});
}

void
HostCpu::Submit(Priority priority,
                Time service,
                uint32_t owner,
                Callback<void, uint32_t> done,
                uint32_t tag)
{
    SubmitNow(priority, service.GetTimeStep(), owner, Completion{{}, std::move(done), tag});
}

void
HostCpu::SubmitKept(Priority priority, Time service, uint32_t owner, const Callback<void>* done)
{
    const int64_t steps = service.GetTimeStep();
    SubmitNow(Task{steps, steps, 0, -1, priority, owner, NO_SLOT, done});
}

void
HostCpu::SubmitKept(Priority priority,
                    Time service,
                    uint32_t owner,
                    const Callback<void, uint32_t>* done,
                    uint32_t tag)
{
    const int64_t steps = service.GetTimeStep();
    SubmitNow(Task{steps, steps, 0, -1, priority, owner, done ? tag : NO_SLOT, nullptr, done});
}

void
HostCpu::SubmitNow(Priority priority, int64_t service, uint32_t owner, Completion&& done)
{
    Task task{service, service, 0, -1, priority, owner, NO_SLOT};
    SetDone(task, std::move(done));
    SubmitNow(std::move(task));
}

void
HostCpu::SubmitNow(Task&& task)
{
    NS_ABORT_MSG_IF(task.priority >= N_PRIORITIES, "HostCpu: unknown priority " << +task.priority);
    NS_ABORT_MSG_IF(task.service < 0, "HostCpu: negative service time " << TimeStep(task.service));
    if (m_cores.size() != m_nCores)
    {
        Setup();
    }
    // Enter: the deferred interference due up to now first, then the arrivals due (an event or
    // arrival due now runs before the new item). The interference events are scheduled again
    // before the item: the CPU is about to be busy.
    Enter();
    m_interference.Arm();
    task.submitted = m_now;
    SubmitTask(std::move(task), m_now);
    Leave();
}

void
HostCpu::SetDone(Task& task, Completion&& done)
{
    if (done.keptTagged && done.done.IsNull() && done.tagged.IsNull())
    {
        // A kept callback: its pointer and the tag travel with the task (no slot, no copy).
        task.keptTagged = done.keptTagged;
        task.done = done.tag;
        return;
    }
    task.done = Hold(std::move(done));
}

uint32_t
HostCpu::Hold(Completion&& done)
{
    if (done.done.IsNull() && done.tagged.IsNull())
    {
        return NO_SLOT;
    }
    if (m_freeSlots.empty())
    {
        m_slots.push_back(std::move(done));
        return static_cast<uint32_t>(m_slots.size() - 1);
    }
    const uint32_t slot = m_freeSlots.back();
    m_freeSlots.pop_back();
    m_slots[slot] = std::move(done);
    return slot;
}

void
HostCpu::Call(const Task& task)
{
    if (task.kept)
    {
        if (!task.kept->IsNull()) // its owner may have let it go (disposed)
        {
            (*task.kept)();
        }
        return;
    }
    if (task.keptTagged)
    {
        if (!task.keptTagged->IsNull())
        {
            (*task.keptTagged)(task.done);
        }
        return;
    }
    const uint32_t slot = task.done;
    if (slot == NO_SLOT)
    {
        return;
    }
    // The slot stays taken during the call (the call may hold new completions: a deque keeps
    // this one in place).
    Completion& done = m_slots[slot];
    if (!done.done.IsNull())
    {
        done.done();
        done.done = Callback<void>();
    }
    else
    {
        done.tagged(done.tag);
        done.tagged = Callback<void, uint32_t>();
    }
    m_freeSlots.push_back(slot);
}

void
HostCpu::SubmitTask(Task&& task, int64_t at)
{
    const int32_t bound = m_affine ? CoreOf(task.owner) : -1;
    // An idle core that may run it takes it at once (lowest index first: deterministic).
    for (uint32_t c = 0; c < m_cores.size(); ++c)
    {
        if (!m_cores[c].busy && MayRun(c, bound))
        {
            Start(c, std::move(task), at);
            return;
        }
    }
    // Otherwise preempt the core running the lowest class, if that class is lower than ours.
    int victim = -1;
    for (uint32_t c = 0; c < m_cores.size(); ++c)
    {
        if (MayRun(c, bound) && m_cores[c].task.priority > task.priority
            && (victim < 0 || m_cores[c].task.priority > m_cores[victim].task.priority))
        {
            victim = c;
        }
    }
    if (victim < 0 && m_wakeUpPreemption && task.priority == PROCESS && task.owner != KERNEL
        && !OwnerHasWork(task.owner))
    {
        // A woken process (nothing of its own running or queued) takes a core from another
        // process (Linux 2.6's wake-up preemption): the lowest such core.
        for (uint32_t c = 0; c < m_cores.size() && victim < 0; ++c)
        {
            if (MayRun(c, bound) && m_cores[c].task.priority == PROCESS
                && m_cores[c].task.owner != task.owner)
            {
                victim = c;
            }
        }
    }
    if (victim >= 0)
    {
        Core& core = m_cores[victim];
        Task preempted = std::move(core.task);
        const int64_t served = at - core.started;
        preempted.remaining -= served;
        m_busy[preempted.priority] += served;
        if (preempted.priority == PROCESS && task.priority == PROCESS)
        {
            // A process preempted by another pays the switch back when it resumes.
            preempted.remaining += Cached(m_contextSwitchCycles).time.GetTimeStep();
        }
        core.completion.Cancel();
        core.busy = false;
        core.idleSince = at; // not idle at all: the new item starts at once
        NS_LOG_LOGIC("core " << victim << " preempts owner " << preempted.owner << " class "
                             << +preempted.priority << " remaining "
                             << TimeStep(preempted.remaining));
        // The preempted item resumes before the others of its class.
        int32_t home = m_affine ? CoreOf(preempted.owner) : -1;
        RunQueue(home, preempted.priority).push_front(std::move(preempted));
        Start(victim, std::move(task), at);
        return;
    }
    RunQueue(bound, task.priority).push_back(std::move(task));
}

bool
HostCpu::OwnerHasWork(uint32_t owner) const
{
    for (const Core& core : m_cores)
    {
        if (core.busy && core.task.owner == owner)
        {
            return true;
        }
    }
    const auto queued = [owner](const std::deque<Task>& q) {
        return std::any_of(q.begin(), q.end(), [owner](const Task& t) { return t.owner == owner; });
    };
    if (queued(m_runq[PROCESS]))
    {
        return true;
    }
    for (const auto& perCore : m_coreRunq)
    {
        if (queued(perCore[PROCESS]))
        {
            return true;
        }
    }
    return false;
}

int64_t
HostCpu::StartExtra(const Core& core, Priority priority, uint32_t owner, int64_t at, bool commit)
{
    int64_t extra = 0;
    // A core leaving a deep idle state needs the exit latency first.
    if (m_idleEntry.IsStrictlyPositive() && at - core.idleSince >= m_idleEntry.GetTimeStep())
    {
        extra += m_idleExit.GetTimeStep();
    }
    // A process task on a core that last ran another process pays a context switch, and the
    // refill of its working set as far as the others evicted it.
    if (priority == PROCESS)
    {
        const bool other = owner != core.lastOwner;
        const bool switched = other && core.lastOwner != KERNEL;
        if (switched)
        {
            const int64_t refill = m_cache.RefillSteps(owner);
            extra += Cached(m_contextSwitchCycles).time.GetTimeStep() + refill;
            if (commit)
            {
                m_cache.Charge(refill);
            }
        }
        if (commit)
        {
            m_cache.Touch(owner, other);
        }
    }
    return extra;
}

void
HostCpu::Start(uint32_t c, Task&& task, int64_t at, fastpath::Event* planned)
{
    Core& core = m_cores[c];
    NS_ASSERT(!core.busy);
    if (task.firstStart < 0)
    {
        task.firstStart = at;
        const int64_t extra = StartExtra(core, task.priority, task.owner, at, true);
        task.remaining += extra;
        task.service += extra;
    }
    if (task.priority == PROCESS)
    {
        core.lastOwner = task.owner;
    }
    core.busy = true;
    core.started = at;
    core.task = std::move(task);
    if (planned)
    {
        // A planned arrival: its completion was scheduled when it was planned.
        NS_ASSERT(m_planEnd == core.started + core.task.remaining);
        core.completion = std::move(*planned);
        return;
    }
    core.completion.Schedule(core.started + core.task.remaining - m_now,
                             [this, c]() { CompletionEvent(c); });
}

void
HostCpu::CompletionEvent(uint32_t c)
{
    Enter();
    Complete(c);
    Leave();
}

void
HostCpu::Complete(uint32_t c)
{
    Core& core = m_cores[c];
    NS_ASSERT(core.busy);
    core.completion.Ran();
    const Task task = core.task;
    m_busy[task.priority] += m_now - core.started;
    core.busy = false;
    core.idleSince = m_now;
    NS_LOG_LOGIC("core " << c << " completed owner " << task.owner << " class " << +task.priority
                         << " service " << TimeStep(task.service));
    if (!m_workTrace.IsEmpty())
    {
        // The trace's Time arguments are made only for a connected sink.
        m_workTrace(task.priority,
                    task.owner,
                    TimeStep(task.firstStart - task.submitted),
                    TimeStep(task.service));
    }
    // The core takes the next queued item first, so work that the completion submits queues
    // behind the items already waiting (no jumping the queue through an idle core).
    Dispatch(c, m_now);
    Call(task);
    // Leave() defers the interference if every core is now idle and no arrival is pending.
}

void
HostCpu::Dispatch(uint32_t c, int64_t now)
{
    // The highest class first; within a class, work bound to this core before shared work.
    const bool shared = !m_affine || !m_shielded[c];
    for (uint32_t p = 0; p < N_PRIORITIES; ++p)
    {
        std::deque<Task>* q = nullptr;
        if (m_affine && !m_coreRunq[c][p].empty())
        {
            q = &m_coreRunq[c][p];
        }
        else if (shared && !m_runq[p].empty())
        {
            q = &m_runq[p];
        }
        if (q)
        {
            Task next = std::move(q->front());
            q->pop_front();
            Start(c, std::move(next), now);
            return;
        }
    }
}

void
HostCpu::CatchUp()
{
    if (!m_interference.IsDeferred())
    {
        return;
    }
    m_interference.CatchUp();
    if (!AllIdle())
    {
        m_interference.Arm();
    }
}

void
HostCpu::RunInterference(uint32_t core, Time service)
{
    Submit(HARDIRQ, service, INTERFERENCE_OWNER + core, Callback<void>());
}

void
HostCpu::RunDueInterference(uint32_t c, int64_t t, int64_t service)
{
    const int64_t now = Simulator::Now().GetTimeStep();
    const uint32_t owner = INTERFERENCE_OWNER + c;
    Core& core = m_cores[c];
    if (core.busy)
    {
        // An earlier event still runs now: this one waits behind it (it is bound to c).
        RunQueue(c, HARDIRQ).push_back(Task{service, service, t, -1, HARDIRQ, owner, NO_SLOT});
        return;
    }
    // Start() at t: it waits for an earlier event that ran past t; otherwise a core idle for
    // IdleEntryTime pays the exit latency.
    const int64_t start = std::max(t, core.idleSince);
    int64_t run = service;
    if (start == t && m_idleEntry.IsStrictlyPositive()
        && t - core.idleSince >= m_idleEntry.GetTimeStep())
    {
        run += m_idleExit.GetTimeStep();
    }
    const int64_t end = start + run;
    if (end <= now)
    {
        // Complete() at end.
        m_busy[HARDIRQ] += run;
        core.idleSince = end;
        if (!m_workTrace.IsEmpty())
        {
            m_workTrace(HARDIRQ, owner, TimeStep(start - t), TimeStep(run));
        }
        return;
    }
    // Still running now: on its core since start, completing at end.
    core.busy = true;
    core.started = start;
    core.task = Task{run, run, t, start, HARDIRQ, owner, NO_SLOT};
    core.completion.Schedule(end - now, [this, c]() { CompletionEvent(c); });
}

uint64_t
HostCpu::GetInterferenceEvents() const
{
    // A query brings the deferred interference up to now (it changes nothing but when it runs).
    const_cast<HostCpu*>(this)->CatchUp();
    return m_interference.GetEvents();
}

bool
HostCpu::HasInterference() const
{
    return m_interference.IsOn();
}

void
HostCpu::SetInterferenceRate(double rate)
{
    m_interference.SetRate(rate);
}

double
HostCpu::GetInterferenceRate() const
{
    return m_interference.GetRate();
}

void
HostCpu::SetShieldedInterferenceRate(double rate)
{
    m_interference.SetShieldedRate(rate);
}

double
HostCpu::GetShieldedInterferenceRate() const
{
    return m_interference.GetShieldedRate();
}

void
HostCpu::SetInterferencePeriodic(bool periodic)
{
    m_interference.SetPeriodic(periodic);
}

bool
HostCpu::GetInterferencePeriodic() const
{
    return m_interference.GetPeriodic();
}

void
HostCpu::SetIdleInterferenceEvents(bool events)
{
    m_interference.SetIdleEvents(events);
}

bool
HostCpu::GetIdleInterferenceEvents() const
{
    return m_interference.GetIdleEvents();
}

void
HostCpu::SetInterferenceDuration(Ptr<RandomVariableStream> duration)
{
    m_interference.SetDuration(duration);
}

Ptr<RandomVariableStream>
HostCpu::GetInterferenceDuration() const
{
    return m_interference.GetDuration();
}

void
HostCpu::SetShieldedInterferenceDuration(Ptr<RandomVariableStream> duration)
{
    m_interference.SetShieldedDuration(duration);
}

Ptr<RandomVariableStream>
HostCpu::GetShieldedInterferenceDuration() const
{
    return m_interference.GetShieldedDuration();
}

} // namespace ns3
