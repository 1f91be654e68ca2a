/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rci-federate.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RciFederate");

NS_OBJECT_ENSURE_REGISTERED(RciFederate);

TypeId
RciFederate::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RciFederate")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<RciFederate>()
              .AddAttribute("Pacing",
                            "Pace the frames to the host's clock (false: run them back to back).",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RciFederate::m_pacing),
                            MakeBooleanChecker())
              .AddAttribute("Timescale",
                            "With pacing, simulation time runs this many times real time.",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&RciFederate::m_timescale),
                            MakeDoubleChecker<double>(1e-3, 1e6))
              .AddAttribute("DeadlineTolerance",
                            "An action that starts later than its time by more than this misses "
                            "its deadline (the TNO Fighter Federate's 1 ms scheduling accuracy).",
                            TimeValue(MilliSeconds(1)),
                            MakeTimeAccessor(&RciFederate::m_tolerance),
                            MakeTimeChecker(Seconds(0)))
              .AddTraceSource("Action",
                              "An action started: name, scheduled time, start time.",
                              MakeTraceSourceAccessor(&RciFederate::m_actionTrace),
                              "ns3::RciFederate::ActionTracedCallback");
    return tid;
}

RciFederate::RciFederate()
    : m_pacing(true)
    , m_timescale(1.0)
    , m_frame(0)
    , m_next(0)
    , m_running(false)
    , m_nActions(0)
    , m_misses(0)
{
}

RciFederate::~RciFederate()
{
}

void
RciFederate::DoDispose()
{
    m_lrc = nullptr;
    m_actions.clear();
    Object::DoDispose();
}

void
RciFederate::Setup(Ptr<RtiLrc> lrc, const RciSchedule& schedule)
{
    NS_ABORT_MSG_IF(!lrc, "RciFederate::Setup: no local RTI component");
    NS_ABORT_MSG_IF(schedule.GetActions().empty(), "RciFederate::Setup: empty schedule");
    m_lrc = lrc;
    m_schedule = schedule;
}

void
RciFederate::SetAction(const std::string& name, Callback<void> cb)
{
    bool known = false;
    for (const auto& a : m_schedule.GetActions())
    {
        known = known || a.name == name;
    }
    NS_ABORT_MSG_IF(!known, "RciFederate::SetAction: the schedule has no action " << name);
    m_actions[name] = cb;
}

void
RciFederate::Start(Time first)
{
    NS_ABORT_MSG_IF(!m_lrc, "RciFederate::Start before Setup");
    m_start = first;
    m_frame = 0;
    m_next = 0;
    m_running = true;
    ScheduleNext();
}

void
RciFederate::Stop()
{
    m_running = false;
}

void
RciFederate::ScheduleNext()
{
    if (!m_running)
    {
        return;
    }
    const auto& a = m_schedule.GetActions()[m_next];
    Time simTime = m_schedule.GetFrame() * int64_t(m_frame) + a.offset;
    Time scheduled = m_start + Seconds(simTime.GetSeconds() / m_timescale);
    Ptr<HostProcess> process = m_lrc->GetProcess();
    if (m_pacing)
    {
        process->SleepUntil(scheduled,
                            Callback<void>([this, scheduled]() { RunAction(scheduled); }));
    }
    else
    {
        Time now = Simulator::Now();
        process->Execute(Seconds(0), Callback<void>([this, now]() { RunAction(now); }));
    }
}

void
RciFederate::RunAction(Time scheduled)
{
    if (!m_running)
    {
        return;
    }
    const auto& a = m_schedule.GetActions()[m_next];
    Time late = Simulator::Now() - scheduled;
    ++m_nActions;
    if (late > m_tolerance)
    {
        ++m_misses;
    }
    m_maxLateness = Max(m_maxLateness, late);
    m_actionTrace(a.name, scheduled, Simulator::Now());
    auto it = m_actions.find(a.name);
    if (it != m_actions.end() && !it->second.IsNull())
    {
        it->second();
    }
    if (++m_next == m_schedule.GetActions().size())
    {
        m_next = 0;
        ++m_frame;
    }
    // Queued behind the work the action gave the process.
    ScheduleNext();
}

Ptr<RtiLrc>
RciFederate::GetLrc() const
{
    return m_lrc;
}

uint64_t
RciFederate::GetActions() const
{
    return m_nActions;
}

uint64_t
RciFederate::GetDeadlineMisses() const
{
    return m_misses;
}

Time
RciFederate::GetMaxLateness() const
{
    return m_maxLateness;
}

} // namespace ns3
