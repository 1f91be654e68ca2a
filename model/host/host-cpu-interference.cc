/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// HostCpu's interference model: sporadic kernel activity on each core (InterferenceRate,
// ShieldedInterferenceRate), deferred while the CPU is idle and caught up at its next use.

#include "host-cpu.h"

#include "ns3/fast-path.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostCpuInterference");

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
    Time gap = fastpath::FromSeconds(draw / rate);
    m_nextInterference[c] = from + gap;
    if (!m_deferred)
    {
        m_interferenceEvents[c]
            = Simulator::Schedule(from + gap - Simulator::Now(), &HostCpu::Interfere, this, c);
    }
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
        const int64_t service = fastpath::FromSeconds(std::max(0.0, d->GetValue())).GetTimeStep();
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
                core.completion.Schedule(end - now, [this, c]() { CompletionEvent(c); });
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
    Submit(HARDIRQ, fastpath::FromSeconds(seconds), INTERFERENCE_OWNER + c, Callback<void>());
    ScheduleInterference(c, false, Simulator::Now());
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

} // namespace ns3
