/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// HostCpu's arrivals (HostCpuArrivalSource): sources of work that falls due at known times,
// taken when due or planned on an idle core, with only the completion as an event.

#include "host-cpu.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostCpuArrivals");

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
        m_now = fastpath::NowStep();
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
        if (m_interference.MayDefer())
        {
            // Deferred only while nothing can happen on the CPU before its next use: every core
            // idle and no arrival pending (an arrival must find the interference that came
            // before it, at its instant, so its events stay scheduled). Armed before Replan, so
            // that an interference event keeps its place before a new arrival event at the same
            // instant, as it had while scheduled all along.
            if (AllIdle() && !ArrivalPending())
            {
                m_interference.Defer();
            }
            else
            {
                m_interference.Arm();
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
HostCpu::TakeArrival(int32_t s, const ArrivalSource::Arrival& a, fastpath::Event* planned)
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
        m_planEvent.Schedule(m_planEnd - m_now, [this]() { CompletionEvent(0); });
        return;
    }
    // Several cores (or affinity): an event at the arrival's time if a core is idle then.
    bool idle = false;
    for (const auto& core : m_cores)
    {
        idle = idle || !core.busy;
    }
    if (idle && !(m_arrivalEvent.IsHeld() && m_arrivalEventTime == a.time))
    {
        m_arrivalEvent.Cancel();
        m_arrivalEventTime = a.time;
        m_arrivalEvent.Schedule(a.time - m_now, [this]() {
            m_arrivalEvent.Ran();
            Enter();
            Leave();
        });
    }
}

} // namespace ns3
