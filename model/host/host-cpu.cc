/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-cpu.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <cstring>

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
{
    NS_LOG_FUNCTION(this);
    m_busy.fill(Seconds(0));
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
    Object::DoDispose();
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
    return m_runq[priority].size();
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
        NS_ABORT_MSG_IF(!m_cores.empty(), "HostCpu: Cores changed after the first work item");
        m_cores.resize(m_nCores);
    }
    Task task{service, service, Simulator::Now(), Time(-1), priority, owner, std::move(done)};

    // An idle core takes it at once (lowest index first: deterministic).
    for (uint32_t c = 0; c < m_cores.size(); ++c)
    {
        if (!m_cores[c].busy)
        {
            Start(c, std::move(task));
            return;
        }
    }
    // Otherwise preempt the core running the lowest class, if that class is lower than ours.
    int victim = -1;
    for (uint32_t c = 0; c < m_cores.size(); ++c)
    {
        if (m_cores[c].task.priority > priority
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
        m_runq[preempted.priority].push_front(std::move(preempted));
        Start(victim, std::move(task));
        return;
    }
    m_runq[priority].push_back(std::move(task));
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
        // A process task on a core that last ran another process pays a context switch.
        if (task.priority == PROCESS && task.owner != core.lastOwner && core.lastOwner != KERNEL)
        {
            Time cs = CyclesToTime(m_contextSwitchCycles);
            task.remaining += cs;
            task.service += cs;
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
    for (auto& q : m_runq)
    {
        if (!q.empty())
        {
            Task next = std::move(q.front());
            q.pop_front();
            Start(c, std::move(next));
            return;
        }
    }
}

} // namespace ns3
