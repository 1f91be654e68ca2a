/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-cpu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/lean-simulator-impl.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/pooled-event.h"
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
                            MakeBooleanAccessor(&HostCpu::m_idleInterferenceEvents),
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
    , m_interferenceRate(0)
    , m_shieldedInterferenceRate(0)
    , m_interferencePeriodic(false)
    , m_idleInterferenceEvents(false)
    , m_nInterference(0)
    , m_cacheSize(0)
    , m_cacheLine(32)
    , m_cacheWays(8)
    , m_workingSet(0)
{
    NS_LOG_FUNCTION(this);
    m_busy.fill(0);
    m_interArrival = CreateObject<ExponentialRandomVariable>();
    m_interArrival->SetAttribute("Mean", DoubleValue(1.0));
}

HostCpu::~HostCpu()
{
    NS_LOG_FUNCTION(this);
    for (auto& core : m_cores)
    {
        DropCompletion(core, false); // as a destroyed EventId would (not disposed: not cancelled)
    }
}

void
HostCpu::DoDispose()
{
    for (auto& core : m_cores)
    {
        DropCompletion(core, true);
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
    if (m_interferenceRate > 0 || m_shieldedInterferenceRate > 0)
    {
        // Inside Enter/Leave: a plan made before the interference made the CPU affine is
        // resolved, and Leave plans the arrivals anew with the interference in place.
        Enter();
        m_interferenceEvents.resize(m_nCores);
        m_nextInterference.assign(m_nCores, Time(-1));
        // An idle CPU with no arrival pending defers its events until it is used
        // (IdleInterferenceEvents).
        m_deferred = !m_idleInterferenceEvents && AllIdle() && !ArrivalPending();
        for (uint32_t c = 0; c < m_nCores; ++c)
        {
            m_affinity[INTERFERENCE_OWNER + c] = c;
            m_affine = true;
            ScheduleInterference(c, true, Simulator::Now());
        }
        Leave();
    }
    Object::DoInitialize();
}

void
HostCpu::ScheduleInterference(uint32_t c, bool first, Time from)
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
    m_nextInterference[c] = from + gap;
    if (!m_deferred)
    {
        m_interferenceEvents[c]
            = Simulator::Schedule(from + gap - Simulator::Now(), &HostCpu::Interfere, this, c);
    }
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
HostCpu::Arm()
{
    if (!m_deferred)
    {
        return;
    }
    m_deferred = false;
    for (uint32_t c = 0; c < m_nextInterference.size(); ++c)
    {
        if (!m_nextInterference[c].IsNegative())
        {
            NS_ASSERT(m_nextInterference[c] > Simulator::Now());
            m_interferenceEvents[c] = Simulator::Schedule(m_nextInterference[c] - Simulator::Now(),
                                                          &HostCpu::Interfere,
                                                          this,
                                                          c);
        }
    }
}

void
HostCpu::Defer()
{
    if (m_deferred || m_idleInterferenceEvents || m_nextInterference.empty())
    {
        return;
    }
    m_deferred = true;
    for (auto& ev : m_interferenceEvents)
    {
        // Removed, not cancelled: a cancelled event stays in the event list until its time,
        // and the run would not end before it. m_nextInterference keeps its instant.
        Simulator::Remove(ev);
    }
}

void
HostCpu::CatchUp()
{
    if (!m_deferred)
    {
        return;
    }
    const Time nowTime = Simulator::Now();
    const int64_t now = nowTime.GetTimeStep();
    while (true)
    {
        // The core whose event is due first (in time order, as the events would have run:
        // the cores share the gap and duration streams).
        int32_t c = -1;
        for (uint32_t i = 0; i < m_nextInterference.size(); ++i)
        {
            const Time t = m_nextInterference[i];
            if (!t.IsNegative() && t <= nowTime && (c < 0 || t < m_nextInterference[c]))
            {
                c = i;
            }
        }
        if (c < 0)
        {
            break;
        }
        const Time tTime = m_nextInterference[c];
        const int64_t t = tTime.GetTimeStep();
        ScheduleInterference(c, false, tTime); // the next instant (no event while deferred)
        // What Interfere() does at t, with the CPU idle but for earlier deferred events.
        Ptr<RandomVariableStream> d
            = m_shielded[c] ? m_shieldedInterferenceDuration : m_interferenceDuration;
        const int64_t service = Seconds(std::max(0.0, d->GetValue())).GetTimeStep();
        ++m_nInterference;
        const uint32_t owner = INTERFERENCE_OWNER + c;
        Core& core = m_cores[c];
        if (core.busy)
        {
            // An earlier event still runs now: this one waits behind it (it is bound to c).
            RunQueue(c, HARDIRQ).push_back(Task{service, service, t, -1, HARDIRQ, owner, NO_SLOT});
        }
        else
        {
            // Start() at t: it waits for an earlier event that ran past t; otherwise a core
            // idle for IdleEntryTime pays the exit latency.
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
            }
            else
            {
                // Still running now: on its core since start, completing at end.
                core.busy = true;
                core.started = start;
                core.task = Task{run, run, t, start, HARDIRQ, owner, NO_SLOT};
                EventImpl* event = MakePooledEvent([this, c]() { CompletionEvent(c); });
                HoldCompletion(core, event);
                ScheduleEventNoId(end - now, event);
            }
        }
    }
    if (!AllIdle())
    {
        Arm();
    }
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
    ScheduleInterference(c, false, Simulator::Now());
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
    // A query brings the deferred interference up to now (it changes nothing but when it runs).
    const_cast<HostCpu*>(this)->CatchUp();
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
    return TimeStep(RefillSteps(owner));
}

int64_t
HostCpu::RefillSteps(uint32_t owner) const
{
    if (m_cacheSize == 0 || m_workingSet == 0)
    {
        return 0;
    }
    if (owner >= m_lastTouched.size() || m_lastTouched[owner] == 0)
    {
        // Never ran: every line is cold.
        const double lines = std::ceil(double(m_workingSet) / m_cacheLine);
        return (m_memoryLatency * int64_t(lines)).GetTimeStep();
    }
    const uint64_t distance = m_linesTouched - (m_lastTouched[owner] - 1);
    // The cache attributes' setters empty m_refillCache: its entries hold for the current ones.
    CachedRefill& e = m_refillCache[(distance * 0x9E3779B97F4A7C15ULL) >> (64 - REFILL_CACHE_BITS)];
    if (e.distance != distance)
    {
        e.distance = distance;
        e.steps = ComputeRefill(distance);
    }
    return e.steps;
}

int64_t
HostCpu::ComputeRefill(uint64_t distance) const
{
    const double lines = std::ceil(double(m_workingSet) / m_cacheLine);
    // Lines of other runs since this owner's last run, spread over the sets: a line survives
    // if fewer than `ways` of them fell into its set (LRU within a set; Poisson occupancy).
    const double sets = std::max(1.0, double(m_cacheSize) / (double(m_cacheLine) * m_cacheWays));
    const double lambda = double(distance) / sets;
    double term = std::exp(-lambda);
    double survive = 0;
    for (uint32_t k = 0; k < m_cacheWays; ++k)
    {
        survive += term;
        term *= lambda / (k + 1);
    }
    const double evicted = std::max(0.0, 1.0 - survive);
    return NanoSeconds(std::llround(lines * evicted * m_memoryLatency.GetNanoSeconds()))
        .GetTimeStep();
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
    return TimeStep(m_refillTotal);
}

Time
HostCpu::GetMemoryLatency() const
{
    return m_memoryLatency;
}

void
HostCpu::ForgetRefills()
{
    m_refillCache.fill(CachedRefill{});
}

void
HostCpu::SetCacheSize(uint64_t octets)
{
    m_cacheSize = octets;
    ForgetRefills();
}

uint64_t
HostCpu::GetCacheSize() const
{
    return m_cacheSize;
}

void
HostCpu::SetCacheLineSize(uint32_t octets)
{
    m_cacheLine = octets;
    ForgetRefills();
}

uint32_t
HostCpu::GetCacheLineSize() const
{
    return m_cacheLine;
}

void
HostCpu::SetCacheAssociativity(uint32_t ways)
{
    m_cacheWays = ways;
    ForgetRefills();
}

uint32_t
HostCpu::GetCacheAssociativity() const
{
    return m_cacheWays;
}

void
HostCpu::SetMemoryLatency(Time latency)
{
    m_memoryLatency = latency;
    ForgetRefills();
}

void
HostCpu::SetProcessWorkingSet(uint32_t octets)
{
    m_workingSet = octets;
    ForgetRefills();
}

uint32_t
HostCpu::GetProcessWorkingSet() const
{
    return m_workingSet;
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
    Arm();
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
    if (victim >= 0)
    {
        Core& core = m_cores[victim];
        Task preempted = std::move(core.task);
        const int64_t served = at - core.started;
        preempted.remaining -= served;
        m_busy[preempted.priority] += served;
        DropCompletion(core, true);
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
            const int64_t refill = RefillSteps(owner);
            extra += Cached(m_contextSwitchCycles).time.GetTimeStep() + refill;
            if (commit)
            {
                m_refillTotal += refill;
            }
        }
        if (commit)
        {
            Touch(owner, other);
        }
    }
    return extra;
}

void
HostCpu::Start(uint32_t c, Task&& task, int64_t at, const EventId* planned)
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
        NS_ASSERT((Simulator::GetDelayLeft(*planned) + Simulator::Now()).GetTimeStep()
                  == core.started + core.task.remaining);
        HoldCompletion(core, planned->PeekEventImpl());
        return;
    }
    // A pooled lambda event: no std::bind/std::function behind it, and its memory from a free
    // list (simulation thread only). The core keeps the event, not an EventId.
    EventImpl* event = MakePooledEvent([this, c]() { CompletionEvent(c); });
    HoldCompletion(core, event);
    ScheduleEventNoId(core.started + core.task.remaining - m_now, event);
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
    DropCompletion(core, false); // it runs
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

// --- arrivals --------------------------------------------------------------------------------

void
HostCpu::AddArrivalSource(ArrivalSource* source)
{
    NS_LOG_FUNCTION(this << source);
    NS_ABORT_MSG_IF(!source, "HostCpu::AddArrivalSource: null source");
    if (m_cores.size() != m_nCores)
    {
        Setup();
    }
    Enter();
    m_sources.push_back(source);
    Leave();
}

void
HostCpu::RemoveArrivalSource(ArrivalSource* source)
{
    NS_LOG_FUNCTION(this << source);
    Enter();
    auto it = std::find(m_sources.begin(), m_sources.end(), source);
    if (it != m_sources.end())
    {
        if (m_planned)
        {
            // Resolve left a plan only for the future; it may be this source's.
            m_planEvent.Cancel();
            m_planned = false;
        }
        m_sources.erase(it);
    }
    Leave();
}

void
HostCpu::ArrivalsChanged()
{
    if (m_cores.size() != m_nCores)
    {
        Setup();
    }
    // Resolve cancels a plan for the future; Replan plans the (new) earliest arrival.
    Enter();
    Leave();
}

void
HostCpu::Sync() const
{
    HostCpu* self = const_cast<HostCpu*>(this);
    if (m_sources.empty())
    {
        self->CatchUp(); // the deferred interference only
        return;
    }
    self->Enter();
    self->Leave();
}

void
HostCpu::Enter()
{
    if (m_depth++ == 0)
    {
        // The simulator's clock stands still during an entry: read once.
        m_now = SimulatorNowStep();
        // In time order: the deferred interference due up to now (a no-op unless every core
        // was idle with no arrival pending), then the arrivals due, then the caller's work.
        CatchUp();
        if (!m_sources.empty())
        {
            Resolve();
        }
    }
}

void
HostCpu::Leave()
{
    NS_ASSERT(m_depth > 0);
    if (--m_depth == 0)
    {
        if (!m_nextInterference.empty() && !m_idleInterferenceEvents)
        {
            // Deferred only while nothing can happen on the CPU before its next use: every core
            // idle and no arrival pending (an arrival must find the interference that came
            // before it, at its instant, so its events stay scheduled). Armed before Replan, so
            // that an interference event keeps its place before a new arrival event at the same
            // instant, as it had while scheduled all along.
            if (AllIdle() && !ArrivalPending())
            {
                Defer();
            }
            else
            {
                Arm();
            }
        }
        if (!m_sources.empty())
        {
            Replan();
        }
    }
}

bool
HostCpu::ArrivalPending() const
{
    ArrivalSource::Arrival a;
    return m_planned || EarliestArrival(a) >= 0;
}

int32_t
HostCpu::EarliestArrival(ArrivalSource::Arrival& next) const
{
    int32_t best = -1;
    ArrivalSource::Arrival a;
    for (uint32_t s = 0; s < m_sources.size(); ++s)
    {
        if (m_sources[s]->PeekArrival(a) && (best < 0 || a.time < next.time))
        {
            best = static_cast<int32_t>(s);
            next = a;
        }
    }
    return best;
}

void
HostCpu::TakeArrival(int32_t s, const ArrivalSource::Arrival& a, const EventId* planned)
{
    const int64_t service = a.service.GetTimeStep();
    Task task{service, service, a.time, -1, PROCESS, a.owner, NO_SLOT};
    SetDone(task, m_sources[s]->TakeArrival());
    if (planned)
    {
        Start(0, std::move(task), a.time, planned);
        return;
    }
    SubmitTask(std::move(task), a.time);
}

void
HostCpu::Resolve()
{
    const int64_t now = m_now;
    ArrivalSource::Arrival a;
    if (m_planned)
    {
        m_planned = false;
        if (m_planTime <= now)
        {
            // The planned arrival started at its time (nothing happened on the CPU since).
            const int32_t s = EarliestArrival(a);
            NS_ABORT_MSG_IF(s != m_planSource || a.time != m_planTime,
                            "HostCpu: an arrival source changed its earliest arrival without "
                            "ArrivalsChanged");
            TakeArrival(s, a, &m_planEvent);
        }
        else
        {
            m_planEvent.Cancel();
        }
    }
    // The arrivals that fell due while the cores were busy join the run queues at their times.
    int32_t s;
    while ((s = EarliestArrival(a)) >= 0 && a.time <= now)
    {
        TakeArrival(s, a, nullptr);
    }
}

void
HostCpu::Replan()
{
    if (m_planned || m_cores.size() != m_nCores)
    {
        return;
    }
    ArrivalSource::Arrival a;
    const int32_t s = EarliestArrival(a);
    if (s < 0)
    {
        return;
    }
    if (m_nCores == 1 && !m_affine)
    {
        const Core& core = m_cores[0];
        if (core.busy)
        {
            return; // it waits in the run queue (taken at the next entry, in time order)
        }
        // The core is idle until then: the item starts at its time; only its completion is an
        // event (with the extra time as of its start: nothing changes on the CPU before it).
        const int64_t extra = StartExtra(core, PROCESS, a.owner, a.time, false);
        m_planned = true;
        m_planTime = a.time;
        m_planSource = s;
        m_planEnd = a.time + a.service.GetTimeStep() + extra;
        m_planEvent
            = Simulator::Schedule(TimeStep(m_planEnd - m_now), [this]() { CompletionEvent(0); });
        return;
    }
    // Several cores (or affinity): an event at the arrival's time if a core is idle then.
    bool idle = false;
    for (const auto& core : m_cores)
    {
        idle = idle || !core.busy;
    }
    if (idle && !(m_arrivalEvent.IsPending() && m_arrivalEventTime == a.time))
    {
        m_arrivalEvent.Cancel();
        m_arrivalEventTime = a.time;
        m_arrivalEvent = Simulator::Schedule(TimeStep(a.time) - Simulator::Now(), [this]() {
            Enter();
            Leave();
        });
    }
}

} // namespace ns3
