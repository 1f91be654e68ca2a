/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-cpu-interference.h"

#include "ns3/assert.h"
#include "ns3/double.h"
#include "ns3/fast-path.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostCpuInterference");

HostCpuInterference::HostCpuInterference()
{
    m_interArrival = CreateObject<ExponentialRandomVariable>();
    m_interArrival->SetAttribute("Mean", DoubleValue(1.0));
}

void
HostCpuInterference::Start(Cpu* cpu, const std::vector<bool>& shielded, bool deferred)
{
    m_cpu = cpu;
    m_shielded = shielded;
    const uint32_t cores = shielded.size();
    m_events.resize(cores);
    m_next.assign(cores, Time(-1));
    m_deferred = deferred;
    for (uint32_t c = 0; c < cores; ++c)
    {
        Schedule(c, true, Simulator::Now());
    }
}

void
HostCpuInterference::Schedule(uint32_t c, bool first, Time from)
{
    double rate = m_shielded[c] ? m_shieldedRate : m_rate;
    if (rate <= 0)
    {
        return;
    }
    double draw = 1.0;
    if (!m_periodic || m_shielded[c])
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
    m_next[c] = from + gap;
    if (!m_deferred)
    {
        m_events[c] = Simulator::Schedule(from + gap - Simulator::Now(),
                                          &HostCpuInterference::Fire,
                                          this,
                                          c);
    }
}

void
HostCpuInterference::Arm()
{
    if (!m_deferred)
    {
        return;
    }
    m_deferred = false;
    for (uint32_t c = 0; c < m_next.size(); ++c)
    {
        if (!m_next[c].IsNegative())
        {
            NS_ASSERT(m_next[c] > Simulator::Now());
            m_events[c] = Simulator::Schedule(m_next[c] - Simulator::Now(),
                                              &HostCpuInterference::Fire,
                                              this,
                                              c);
        }
    }
}

void
HostCpuInterference::Defer()
{
    if (m_deferred || m_idleEvents || m_next.empty())
    {
        return;
    }
    m_deferred = true;
    for (auto& ev : m_events)
    {
        // Removed, not cancelled: a cancelled event stays in the event list until its time,
        // and the run would not end before it. m_next keeps its instant.
        Simulator::Remove(ev);
    }
}

double
HostCpuInterference::DrawDuration(uint32_t c)
{
    Ptr<RandomVariableStream> d = m_shielded[c] ? m_shieldedDuration : m_duration;
    return std::max(0.0, d->GetValue());
}

void
HostCpuInterference::CatchUp()
{
    if (!m_deferred)
    {
        return;
    }
    const Time now = Simulator::Now();
    while (true)
    {
        // The core whose event is due first (in time order, as the events would have run:
        // the cores share the gap and duration streams).
        int32_t c = -1;
        for (uint32_t i = 0; i < m_next.size(); ++i)
        {
            const Time t = m_next[i];
            if (!t.IsNegative() && t <= now && (c < 0 || t < m_next[c]))
            {
                c = i;
            }
        }
        if (c < 0)
        {
            break;
        }
        const Time due = m_next[c];
        Schedule(c, false, due); // the next instant (no event while deferred)
        const int64_t service = fastpath::FromSeconds(DrawDuration(c)).GetTimeStep();
        ++m_count;
        m_cpu->RunDueInterference(c, due.GetTimeStep(), service);
    }
}

void
HostCpuInterference::Fire(uint32_t c)
{
    double seconds = DrawDuration(c);
    ++m_count;
    NS_LOG_LOGIC("core " << c << " interference " << seconds * 1e6 << " us");
    m_cpu->RunInterference(c, fastpath::FromSeconds(seconds));
    Schedule(c, false, Simulator::Now());
}

int64_t
HostCpuInterference::AssignStreams(int64_t stream)
{
    m_interArrival->SetStream(stream);
    m_duration->SetStream(stream + 1);
    m_shieldedDuration->SetStream(stream + 2);
    return 3;
}

void
HostCpuInterference::Dispose()
{
    for (auto& ev : m_events)
    {
        ev.Cancel();
    }
    m_events.clear();
    m_duration = nullptr;
    m_shieldedDuration = nullptr;
    m_interArrival = nullptr;
    m_cpu = nullptr;
}

void
HostCpuInterference::SetRate(double rate)
{
    m_rate = rate;
}

double
HostCpuInterference::GetRate() const
{
    return m_rate;
}

void
HostCpuInterference::SetShieldedRate(double rate)
{
    m_shieldedRate = rate;
}

double
HostCpuInterference::GetShieldedRate() const
{
    return m_shieldedRate;
}

void
HostCpuInterference::SetPeriodic(bool periodic)
{
    m_periodic = periodic;
}

bool
HostCpuInterference::GetPeriodic() const
{
    return m_periodic;
}

void
HostCpuInterference::SetIdleEvents(bool events)
{
    m_idleEvents = events;
}

bool
HostCpuInterference::GetIdleEvents() const
{
    return m_idleEvents;
}

void
HostCpuInterference::SetDuration(Ptr<RandomVariableStream> duration)
{
    m_duration = duration;
}

Ptr<RandomVariableStream>
HostCpuInterference::GetDuration() const
{
    return m_duration;
}

void
HostCpuInterference::SetShieldedDuration(Ptr<RandomVariableStream> duration)
{
    m_shieldedDuration = duration;
}

Ptr<RandomVariableStream>
HostCpuInterference::GetShieldedDuration() const
{
    return m_shieldedDuration;
}

} // namespace ns3
