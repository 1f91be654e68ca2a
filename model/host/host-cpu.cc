/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-cpu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstring>
#include <sstream>

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
              .AddAttribute("InterferenceRate",
                            "Sporadic kernel activity on each core that is not shielded (timer "
                            "and housekeeping interrupts, daemons with interrupts masked): mean "
                            "events per second per core, Poisson (0: none).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostCpu::m_interferenceRate),
                            MakeDoubleChecker<double>(0.0, 1e6))
              .AddAttribute("InterferencePeriodic",
                            "Whether the events of InterferenceRate (not the shielded ones) come "
                            "periodically, every 1/InterferenceRate from a random phase (a "
                            "kernel's timer tick: Linux's HZ), instead of as a Poisson stream.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&HostCpu::m_interferencePeriodic),
                            MakeBooleanChecker())
              .AddAttribute("InterferenceDuration",
                            "Duration (s) of one event of InterferenceRate.",
                            StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                            MakePointerAccessor(&HostCpu::m_interferenceDuration),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("ShieldedInterferenceRate",
                            "Sporadic events that a shielded core still sees (inter-processor "
                            "interrupts such as TLB shootdowns, a local timer tick that is not "
                            "disabled): mean events per second per shielded core (0: none).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostCpu::m_shieldedInterferenceRate),
                            MakeDoubleChecker<double>(0.0, 1e6))
              .AddAttribute("ShieldedInterferenceDuration",
                            "Duration (s) of one event of ShieldedInterferenceRate.",
                            StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                            MakePointerAccessor(&HostCpu::m_shieldedInterferenceDuration),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("CacheSize",
                            "Last-level cache (octets) for the refill after a context switch "
                            "(0: no cache model).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostCpu::m_cacheSize),
                            MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 40))
              .AddAttribute("CacheLineSize",
                            "Cache line (octets).",
                            UintegerValue(32),
                            MakeUintegerAccessor(&HostCpu::m_cacheLine),
                            MakeUintegerChecker<uint32_t>(4, 4096))
              .AddAttribute("CacheAssociativity",
                            "Ways of the set-associative cache.",
                            UintegerValue(8),
                            MakeUintegerAccessor(&HostCpu::m_cacheWays),
                            MakeUintegerChecker<uint32_t>(1, 64))
              .AddAttribute("MemoryLatency",
                            "Time to refill one cache line from main memory (a dependent miss).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&HostCpu::m_memoryLatency),
                            MakeTimeChecker(Seconds(0), MicroSeconds(10)))
              .AddAttribute("ProcessWorkingSet",
                            "Private memory (octets) a process touches in one run (task and "
                            "kernel stack, page tables, user stack and data, socket); refilled "
                            "as far as evicted when a core switches to it (0: no cache model).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostCpu::m_workingSet),
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
    , m_interferenceRate(0)
    , m_shieldedInterferenceRate(0)
    , m_interferencePeriodic(false)
    , m_nInterference(0)
    , m_cacheSize(0)
    , m_cacheLine(32)
    , m_cacheWays(8)
    , m_workingSet(0)
{
    NS_LOG_FUNCTION(this);
    m_busy.fill(Seconds(0));
    m_interArrival = CreateObject<ExponentialRandomVariable>();
    m_interArrival->SetAttribute("Mean", DoubleValue(1.0));
}

HostCpu::~HostCpu()
{
    NS_LOG_FUNCTION(this);
}

void
HostCpu::DoDispose()
{
    for (auto& core : m_cores)
    {
        core.completion.Cancel();
        core.task.done = Callback<void>();
    }
    m_cores.clear();
    for (auto& q : m_runq)
    {
        q.clear();
    }
    m_coreRunq.clear();
    for (auto& ev : m_interferenceEvents)
    {
        ev.Cancel();
    }
    m_interferenceEvents.clear();
    m_interferenceDuration = nullptr;
    m_shieldedInterferenceDuration = nullptr;
    m_interArrival = nullptr;
    Object::DoDispose();
}

void
HostCpu::Setup()
{
    NS_ABORT_MSG_IF(!m_cores.empty(), "HostCpu: Cores changed after the first work item");
    m_cores.resize(m_nCores);
    m_coreRunq.resize(m_nCores);
    m_shielded.assign(m_nCores, false);
    std::istringstream in(m_shieldedSpec);
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
        NS_ABORT_MSG_IF(used == 0 || item.find_first_not_of(" ", used) != std::string::npos
                            || core < 0 || core >= static_cast<long>(m_nCores),
                        "HostCpu: ShieldedCores \"" << m_shieldedSpec << "\": \"" << item
                                                    << "\" is not a core in [0, " << m_nCores
                                                    << ")");
        m_shielded[core] = true;
        m_affine = true;
    }
    uint32_t open = 0;
    for (uint32_t c = 0; c < m_nCores; ++c)
    {
        open += m_shielded[c] ? 0 : 1;
    }
    NS_ABORT_MSG_IF(open == 0,
                    "HostCpu: ShieldedCores \"" << m_shieldedSpec
                                                << "\" shields every core: the "
                                                   "kernel needs one");
    if (m_interruptCore >= 0)
    {
        NS_ABORT_MSG_IF(static_cast<uint32_t>(m_interruptCore) >= m_nCores,
                        "HostCpu: InterruptCore " << m_interruptCore << " >= Cores " << m_nCores);
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
    if (m_interferenceRate > 0 || m_shieldedInterferenceRate > 0)
    {
        m_interferenceEvents.resize(m_nCores);
        for (uint32_t c = 0; c < m_nCores; ++c)
        {
            m_affinity[INTERFERENCE_OWNER + c] = c;
            m_affine = true;
            ScheduleInterference(c, true);
        }
    }
    Object::DoInitialize();
}

void
HostCpu::ScheduleInterference(uint32_t c, bool first)
{
    double rate = m_shielded[c] ? m_shieldedInterferenceRate : m_interferenceRate;
    if (rate <= 0)
    {
        return;
    }
    double draw = 1.0;
    if (!m_interferencePeriodic || m_shielded[c])
    {
        draw = m_interArrival->GetValue(); // Poisson: exponential gaps, mean 1 / rate
    }
    else if (first)
    {
        // A periodic tick: the first at a uniform phase (1 - exp(-x) of an exponential draw x is
        // uniform on [0, 1), so one stream serves both arrival laws), then one every period.
        draw = 1.0 - std::exp(-m_interArrival->GetValue());
    }
    Time gap = Seconds(draw / rate);
    m_interferenceEvents[c] = Simulator::Schedule(gap, &HostCpu::Interfere, this, c);
}

void
HostCpu::Interfere(uint32_t c)
{
    Ptr<RandomVariableStream> d
        = m_shielded[c] ? m_shieldedInterferenceDuration : m_interferenceDuration;
    double seconds = std::max(0.0, d->GetValue());
    ++m_nInterference;
    NS_LOG_LOGIC("core " << c << " interference " << seconds * 1e6 << " us");
    Submit(HARDIRQ, Seconds(seconds), INTERFERENCE_OWNER + c, Callback<void>());
    ScheduleInterference(c, false);
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

uint64_t
HostCpu::GetInterferenceEvents() const
{
    return m_nInterference;
}

bool
HostCpu::HasInterference() const
{
    return m_interferenceRate > 0 || m_shieldedInterferenceRate > 0;
}

int64_t
HostCpu::AssignStreams(int64_t stream)
{
    m_interArrival->SetStream(stream);
    m_interferenceDuration->SetStream(stream + 1);
    m_shieldedInterferenceDuration->SetStream(stream + 2);
    return 3;
}

int32_t
HostCpu::CoreOf(uint32_t owner) const
{
    auto it = m_affinity.find(owner);
    return it == m_affinity.end() ? -1 : static_cast<int32_t>(it->second);
}

Time
HostCpu::CyclesToTime(double cycles) const
{
    NS_ASSERT_MSG(cycles >= 0, "negative cycle count " << cycles);
    // The same few cycle counts recur (per-interrupt, per-frame and per-message costs): their
    // times are remembered (the conversion goes through 128-bit fixed point).
    uint64_t bits;
    std::memcpy(&bits, &cycles, sizeof(bits));
    CachedTime& e = m_timeCache[(bits * 0x9E3779B97F4A7C15ULL) >> (64 - TIME_CACHE_BITS)];
    if (e.cycles != cycles || e.frequency != m_frequency)
    {
        e.cycles = cycles;
        e.frequency = m_frequency;
        e.time = Seconds(cycles / m_frequency);
    }
    return e.time;
}

Time
HostCpu::GetRefillTime(uint32_t owner) const
{
    if (m_cacheSize == 0 || m_workingSet == 0)
    {
        return Seconds(0);
    }
    const double lines = std::ceil(double(m_workingSet) / m_cacheLine);
    if (owner >= m_lastTouched.size() || m_lastTouched[owner] == 0)
    {
        return m_memoryLatency * int64_t(lines); // never ran: every line is cold
    }
    // Lines of other runs since this owner's last run, spread over the sets: a line survives
    // if fewer than `ways` of them fell into its set (LRU within a set; Poisson occupancy).
    const double sets = std::max(1.0, double(m_cacheSize) / (double(m_cacheLine) * m_cacheWays));
    const double lambda = double(m_linesTouched - (m_lastTouched[owner] - 1)) / sets;
    double term = std::exp(-lambda);
    double survive = 0;
    for (uint32_t k = 0; k < m_cacheWays; ++k)
    {
        survive += term;
        term *= lambda / (k + 1);
    }
    const double evicted = std::max(0.0, 1.0 - survive);
    return NanoSeconds(std::llround(lines * evicted * m_memoryLatency.GetNanoSeconds()));
}

void
HostCpu::Touch(uint32_t owner, bool other)
{
    if (m_cacheSize == 0 || m_workingSet == 0)
    {
        return;
    }
    // A process that follows itself re-touches lines that are the most recent already.
    if (other)
    {
        m_linesTouched += static_cast<uint64_t>(std::ceil(double(m_workingSet) / m_cacheLine));
    }
    if (owner >= m_lastTouched.size())
    {
        m_lastTouched.resize(std::max<std::size_t>(owner + 1, m_lastTouched.size() * 2), 0);
    }
    m_lastTouched[owner] = m_linesTouched + 1;
}

Time
HostCpu::GetRefillTotal() const
{
    return m_refillTotal;
}

double
HostCpu::GetFrequency() const
{
    return m_frequency;
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
    Time busy = m_busy[priority];
    // Add the part of running tasks served so far.
    for (const auto& core : m_cores)
    {
        if (core.busy && core.task.priority == priority)
        {
            busy += Simulator::Now() - core.started;
        }
    }
    return busy;
}

uint32_t
HostCpu::GetQueueLength(Priority priority) const
{
    NS_ASSERT(priority < N_PRIORITIES);
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
    NS_ABORT_MSG_IF(priority >= N_PRIORITIES, "HostCpu: unknown priority " << +priority);
    NS_ABORT_MSG_IF(service.IsStrictlyNegative(), "HostCpu: negative service time " << service);
    if (m_cores.size() != m_nCores)
    {
        Setup();
    }
    Task task{service, service, Simulator::Now(), Time(-1), priority, owner, std::move(done)};
    const int32_t bound = m_affine ? CoreOf(owner) : -1;

    // An idle core that may run it takes it at once (lowest index first: deterministic).
    for (uint32_t c = 0; c < m_cores.size(); ++c)
    {
        if (!m_cores[c].busy && MayRun(c, bound))
        {
            Start(c, std::move(task));
            return;
        }
    }
    // Otherwise preempt the core running the lowest class, if that class is lower than ours.
    int victim = -1;
    for (uint32_t c = 0; c < m_cores.size(); ++c)
    {
        if (MayRun(c, bound) && m_cores[c].task.priority > priority
            && (victim < 0 || m_cores[c].task.priority > m_cores[victim].task.priority))
        {
            victim = c;
        }
    }
    if (victim >= 0)
    {
        Core& core = m_cores[victim];
        Task preempted = std::move(core.task);
        Time served = Simulator::Now() - core.started;
        preempted.remaining -= served;
        m_busy[preempted.priority] += served;
        core.completion.Cancel();
        core.busy = false;
        core.idleSince = Simulator::Now(); // not idle at all: the new item starts at once
        NS_LOG_LOGIC("core " << victim << " preempts owner " << preempted.owner << " class "
                             << +preempted.priority << " remaining " << preempted.remaining);
        // The preempted item resumes before the others of its class.
        int32_t home = m_affine ? CoreOf(preempted.owner) : -1;
        RunQueue(home, preempted.priority).push_front(std::move(preempted));
        Start(victim, std::move(task));
        return;
    }
    RunQueue(bound, priority).push_back(std::move(task));
}

void
HostCpu::Start(uint32_t c, Task&& task)
{
    Core& core = m_cores[c];
    NS_ASSERT(!core.busy);
    if (task.firstStart.IsStrictlyNegative())
    {
        task.firstStart = Simulator::Now();
        // A core leaving a deep idle state needs the exit latency first.
        if (m_idleEntry.IsStrictlyPositive() && Simulator::Now() - core.idleSince >= m_idleEntry)
        {
            task.remaining += m_idleExit;
            task.service += m_idleExit;
        }
        // A process task on a core that last ran another process pays a context switch, and
        // the refill of its working set as far as the others evicted it.
        if (task.priority == PROCESS)
        {
            const bool other = task.owner != core.lastOwner;
            const bool switched = other && core.lastOwner != KERNEL;
            if (switched)
            {
                const Time refill = GetRefillTime(task.owner);
                const Time cs = CyclesToTime(m_contextSwitchCycles) + refill;
                task.remaining += cs;
                task.service += cs;
                m_refillTotal += refill;
            }
            Touch(task.owner, other);
        }
    }
    if (task.priority == PROCESS)
    {
        core.lastOwner = task.owner;
    }
    core.busy = true;
    core.started = Simulator::Now();
    core.task = std::move(task);
    // A lambda event: no std::bind/std::function behind it (one allocation per item, not two).
    core.completion = Simulator::Schedule(core.task.remaining, [this, c]() { Complete(c); });
}

void
HostCpu::Complete(uint32_t c)
{
    Core& core = m_cores[c];
    NS_ASSERT(core.busy);
    Task task = std::move(core.task);
    m_busy[task.priority] += Simulator::Now() - core.started;
    core.busy = false;
    core.idleSince = Simulator::Now();
    core.task.done = Callback<void>();
    NS_LOG_LOGIC("core " << c << " completed owner " << task.owner << " class " << +task.priority
                         << " service " << task.service);
    m_workTrace(task.priority, task.owner, task.firstStart - task.submitted, task.service);
    // The core takes the next queued item first, so work that the completion submits queues
    // behind the items already waiting (no jumping the queue through an idle core).
    Dispatch(c);
    if (!task.done.IsNull())
    {
        task.done();
    }
}

void
HostCpu::Dispatch(uint32_t c)
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
            Start(c, std::move(next));
            return;
        }
    }
}

} // namespace ns3
