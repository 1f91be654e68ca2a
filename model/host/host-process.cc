/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-process.h"

#include "host-cpu.h"
#include "host-platform.h"

#include "ns3/fast-path.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/timer-model.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostProcess");

NS_OBJECT_ENSURE_REGISTERED(HostProcess);

TypeId
HostProcess::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::HostProcess")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<HostProcess>()
              .AddTraceSource("Wakeup",
                              "The process got the CPU again after a sleep or a wake-up event.",
                              MakeTraceSourceAccessor(&HostProcess::m_wakeupTrace),
                              "ns3::HostProcess::WakeupTracedCallback");
    return tid;
}

HostProcess::HostProcess()
    : m_pid(0)
    , m_running(false)
    , m_requested(-1)
{
    // One callback for every CPU item of the process (at most one is in flight at a time).
    m_cpuDone = MakeCallback(&HostProcess::CpuDone, this);
}

HostProcess::~HostProcess()
{
}

void
HostProcess::DoDispose()
{
    m_cpuDone = Callback<void>();
    m_steps.clear();
    m_platform = nullptr;
    m_timer = nullptr;
    Object::DoDispose();
}

void
HostProcess::Setup(Ptr<HostPlatform> platform, uint32_t pid)
{
    NS_ABORT_MSG_IF(pid == HostCpu::KERNEL, "HostProcess: pid 0 is reserved for the kernel");
    m_platform = platform;
    m_pid = pid;
}

uint32_t
HostProcess::GetPid() const
{
    return m_pid;
}

Ptr<HostPlatform>
HostProcess::GetPlatform() const
{
    return m_platform;
}

void
HostProcess::SetTimer(Ptr<TimerModel> timer)
{
    m_timer = timer;
}

bool
HostProcess::IsIdle() const
{
    return !m_running && m_steps.empty();
}

void
HostProcess::Execute(Time cost, Callback<void> done)
{
    NS_ABORT_MSG_IF(cost.IsStrictlyNegative(), "HostProcess::Execute: negative cost " << cost);
    Push({EXEC, cost, std::move(done), false});
}

void
HostProcess::ExecuteCycles(double cycles, Callback<void> done)
{
    NS_ABORT_MSG_IF(!m_platform, "HostProcess not attached to a HostPlatform");
    Execute(m_platform->GetCpu()->CyclesToTime(cycles), done);
}

void
HostProcess::Sleep(Time delay, Callback<void> done)
{
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(), "HostProcess::Sleep: negative delay " << delay);
    Push({SLEEP, delay, std::move(done), false});
}

void
HostProcess::SleepUntil(Time t, Callback<void> done)
{
    Push({SLEEP_UNTIL, t, std::move(done), false});
}

void
HostProcess::SetCore(uint32_t core)
{
    NS_ABORT_MSG_IF(!m_platform, "HostProcess::SetCore: not attached to a HostPlatform");
    m_platform->GetCpu()->Bind(m_pid, core);
}

void
HostProcess::Wake(Callback<void> done)
{
    Push({WAKE, fastpath::Now(), std::move(done), false});
}

void
HostProcess::Push(Step step)
{
    NS_ABORT_MSG_IF(!m_platform, "HostProcess not attached to a HostPlatform");
    bool blocked = IsIdle();
    step.fromBlocked = blocked;
    m_steps.push_back(std::move(step));
    if (blocked)
    {
        Next();
    }
}

void
HostProcess::Next()
{
    if (m_steps.empty())
    {
        m_running = false;
        return;
    }
    m_running = true;
    Step& step = m_steps.front();
    switch (step.kind)
    {
        case EXEC:
            m_requested = Time(-1);
            m_platform->GetCpu()->SubmitKept(HostCpu::PROCESS, step.amount, m_pid, &m_cpuDone);
            break;
        case SLEEP:
        case SLEEP_UNTIL: {
            Time now = fastpath::Now();
            Time delay = step.kind == SLEEP ? step.amount : Max(Seconds(0), step.amount - now);
            Time requested = now + delay;
            fastpath::Schedule(m_platform->SleepDelay(m_timer, delay).GetTimeStep(),
                               [this, requested]() { Runnable(requested); });
            break;
        }
        case WAKE:
            // The process was blocked when this wake-up came (otherwise it would have been queued
            // behind the running step and is handled now, in process context, at no extra cost).
            if (step.fromBlocked)
            {
                Time requested = step.amount;
                fastpath::Schedule(m_platform->DrawSchedulingLatency().GetTimeStep(),
                                   [this, requested]() { Runnable(requested); });
            }
            else
            {
                StepDone(Time(-1));
            }
            break;
    }
}

void
HostProcess::Runnable(Time requested)
{
    // Zero service: the item only waits for a core (the context switch is charged by the CPU).
    m_requested = requested;
    m_platform->GetCpu()->SubmitKept(HostCpu::PROCESS, Seconds(0), m_pid, &m_cpuDone);
}

void
HostProcess::CpuDone()
{
    StepDone(m_requested);
}

void
HostProcess::StepDone(Time requested)
{
    NS_ASSERT(!m_steps.empty());
    Callback<void> done = std::move(m_steps.front().done);
    m_steps.pop_front();
    if (!requested.IsStrictlyNegative())
    {
        m_wakeupTrace(requested, fastpath::Now());
    }
    if (!done.IsNull())
    {
        done();
    }
    Next();
}

} // namespace ns3
