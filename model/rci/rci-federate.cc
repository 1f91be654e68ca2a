/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rci-federate.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/log.h"
#include "ns3/rti-fedex.h"
#include "ns3/simulator.h"
#include "ns3/timer-model.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

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
              .AddAttribute("Scheduler",
                            "Time management: Default (none), UtcTm (paced to the node's "
                            "synchronised clock, timestamp order kept by the RCI) or HlaTm "
                            "(the RTI's time regulation and constraint, waits for grants).",
                            EnumValue(DEFAULT),
                            MakeEnumAccessor<Scheduler>(&RciFederate::m_scheduler),
                            MakeEnumChecker(DEFAULT, "Default", UTC_TM, "UtcTm", HLA_TM, "HlaTm"))
              .AddAttribute("Lookahead",
                            "HLA-TM: the federate's lookahead; its updates are stamped its time "
                            "plus this (> 0: with TimeAdvanceRequest a zero lookahead would "
                            "forbid stamping the granted time itself).",
                            TimeValue(MilliSeconds(1)),
                            MakeTimeAccessor(&RciFederate::m_lookahead),
                            MakeTimeChecker(NanoSeconds(1), Seconds(3600)))
              .AddAttribute("ActionCost",
                            "Middleware cycles (MIPS R10000 cycles, scaled by the host's "
                            "ReferenceCycleFactor) the RCI spends per action besides the action's "
                            "own work: frame scheduling, the action's bookkeeping, the tag "
                            "formatting. Charged before the action's callback runs.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&RciFederate::m_actionCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("ReflectCost",
                            "Middleware cycles (MIPS R10000 cycles, scaled by the host's "
                            "ReferenceCycleFactor) the RCI spends per reflection it receives: "
                            "parsing the tag, keeping and handing over the values. Charged after "
                            "the RTI's reflect callback, off the update's latency.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&RciFederate::m_reflectCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("ClockReads",
                            "Clock reads per action (gettimeofday: the host's SyscallCost each).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&RciFederate::m_clockReads),
                            MakeUintegerChecker<uint32_t>(0, 1000))
              .AddAttribute("TimerCalls",
                            "System calls of a paced action's wait for its time (clock_nanosleep "
                            "or a timed semaphore wait to an absolute time: the host's "
                            "SyscallCost each); a time already past returns from the call at "
                            "once, without a timer or a wake-up.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&RciFederate::m_timerCalls),
                            MakeUintegerChecker<uint32_t>(0, 1000))
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
    , m_notRun(0)
    , m_minLateness(Time::Max())
    , m_scheduler(DEFAULT)
    , m_horizon(Time(-1))
    , m_arrivals(0)
    , m_violations(0)
{
}

RciFederate::~RciFederate()
{
}

void
RciFederate::DoDispose()
{
    m_lrc = nullptr;
    m_clock = nullptr;
    m_reflect = RtiLrc::ReflectCallback();
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
    if (m_scheduler == HLA_TM)
    {
        NS_ABORT_MSG_IF(!m_lrc->GetFedex(), "RciFederate HLA-TM: the federate has not joined");
        if (!m_tmRequested)
        {
            EnableTimeManagement(Callback<void>());
        }
    }
    ScheduleNext();
}

void
RciFederate::EnableTimeManagement(Callback<void> enabled)
{
    NS_ABORT_MSG_IF(!m_lrc, "RciFederate::EnableTimeManagement before Setup");
    NS_ABORT_MSG_IF(m_scheduler != HLA_TM, "RciFederate::EnableTimeManagement: not HLA-TM");
    NS_ABORT_MSG_IF(m_tmRequested, "RciFederate: time management already enabled");
    m_tmRequested = true;
    m_lrc->EnableTimeManagement(m_lookahead, enabled);
}

void
RciFederate::Stop()
{
    if (m_running && m_pacing && !m_schedule.GetActions().empty())
    {
        // The actions already due that have not started: from the pending one on.
        const std::size_t n = m_schedule.GetActions().size();
        const Time now = Simulator::Now();
        uint64_t frame = m_frame;
        std::size_t i = m_next;
        while (ScheduledTime(frame, i) < now)
        {
            ++m_notRun;
            if (++i == n)
            {
                i = 0;
                ++frame;
            }
        }
    }
    m_running = false;
}

Time
RciFederate::SimTime(uint64_t frame, std::size_t index) const
{
    return m_schedule.GetFrame() * int64_t(frame) + m_schedule.GetActions()[index].offset;
}

Time
RciFederate::ScheduledTime(uint64_t frame, std::size_t index) const
{
    Time scheduled = m_start + Seconds(SimTime(frame, index).GetSeconds() / m_timescale);
    if (m_clock)
    {
        // The frame grid is on the node's clock: when does it read the action's time?
        scheduled = m_clock->ToTrueTime(scheduled);
    }
    return scheduled;
}

void
RciFederate::ScheduleNext()
{
    if (!m_running)
    {
        return;
    }
    Time simTime = SimTime(m_frame, m_next);
    Time scheduled = ScheduledTime(m_frame, m_next);
    Ptr<HostProcess> process = m_lrc->GetProcess();
    if (m_scheduler == HLA_TM)
    {
        // The federate's loop, once the previous action's work is done, requests the advance to
        // the next action's time at once (its output bound moves up to it, so the others are not
        // held back while it waits for the wallclock); at the grant it waits, paced, for the
        // action's time with a timeout, as UTC-TM does, and runs the action.
        process->Execute(Seconds(0), Callback<void>([this, process, simTime, scheduled]() {
                             if (!m_running)
                             {
                                 return;
                             }
                             m_lrc->RequestAdvance(simTime,
                                                   Callback<void>([this, process, scheduled]() {
                                                       AwaitGranted(process, scheduled);
                                                   }));
                         }));
    }
    else if (m_pacing)
    {
        // A federate that receives through the RCI waits with a timeout (on its RTI's semaphore):
        // the process stays free to read what arrives meanwhile; the timer's expiry wakes it for
        // the action. One that only sends sleeps.
        PacedWait(process, scheduled, m_scheduler == UTC_TM || !m_reflect.IsNull());
    }
    else
    {
        Time now = Simulator::Now();
        process->Execute(Seconds(0), Callback<void>([this, now]() { RunAction(now); }));
    }
}

void
RciFederate::AwaitGranted(Ptr<HostProcess> process, Time scheduled)
{
    if (!m_running)
    {
        return;
    }
    if (!m_pacing)
    {
        RunAction(Simulator::Now());
        return;
    }
    PacedWait(process, scheduled, true);
}

void
RciFederate::PacedWait(Ptr<HostProcess> process, Time scheduled, bool timed)
{
    Ptr<HostPlatform> host = process->GetPlatform();
    auto wait = [this, process, host, scheduled, timed]() {
        if (!m_running)
        {
            return;
        }
        Time now = Simulator::Now();
        if (scheduled <= now)
        {
            // An absolute time already past: the call returns at once (POSIX clock_nanosleep
            // with TIMER_ABSTIME, sem_timedwait), no timer, no wake-up; the action follows.
            process->Execute(Seconds(0),
                             Callback<void>([this, scheduled]() { RunAction(scheduled); }));
            return;
        }
        if (!timed)
        {
            process->SleepUntil(scheduled,
                                Callback<void>([this, scheduled]() { RunAction(scheduled); }));
            return;
        }
        Time fire = host->GetTimer()->GetFireTime(now, Max(Seconds(0), scheduled - now));
        Simulator::Schedule(fire - now, [this, process, scheduled]() {
            process->Wake(Callback<void>([this, scheduled]() { RunAction(scheduled); }));
        });
    };
    if (m_timerCalls == 0)
    {
        wait();
        return;
    }
    process->Execute(host->GetSyscallCost() * int64_t(m_timerCalls), Callback<void>(wait));
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
    m_minLateness = Min(m_minLateness, late);
    m_time = SimTime(m_frame, m_next);
    if ((a.kind == RciSchedule::UPDATE && m_scheduler == UTC_TM) || m_scheduler == HLA_TM)
    {
        // HLA-TM: the grant to this time delivers every reflection stamped up to it.
        Deliver();
    }
    m_actionTrace(a.name, scheduled, Simulator::Now());
    auto it = m_actions.find(a.name);
    Callback<void> action = it != m_actions.end() ? it->second : Callback<void>();
    if (++m_next == m_schedule.GetActions().size())
    {
        m_next = 0;
        ++m_frame;
    }
    Time own = ActionOverhead();
    if (own.IsStrictlyPositive())
    {
        // The RCI's own work for the action (frame scheduling, clock reads), then the action.
        m_lrc->GetProcess()->Execute(own, Callback<void>([this, action]() {
                                         if (!action.IsNull())
                                         {
                                             action();
                                         }
                                         ScheduleNext();
                                     }));
        return;
    }
    if (!action.IsNull())
    {
        action();
    }
    // Queued behind the work the action gave the process.
    ScheduleNext();
}

Time
RciFederate::ActionOverhead() const
{
    Ptr<HostPlatform> host = m_lrc->GetProcess()->GetPlatform();
    // A clock read is a system call (gettimeofday) unless the clock says what a reading costs
    // (a clock card's register read).
    Time read = host->GetSyscallCost();
    if (m_clock && m_clock->GetReadCost().IsStrictlyPositive())
    {
        read = m_clock->GetReadCost();
    }
    return host->GetCpu()->CyclesToTime(m_actionCycles * host->GetReferenceCycleFactor())
           + read * int64_t(m_clockReads);
}

void
RciFederate::ReadInUpdateActions()
{
    NS_ABORT_MSG_IF(!m_lrc, "RciFederate::ReadInUpdateActions before Setup");
    // Each read cycle of the RTI component is one Update action of this federate's unpaced
    // frames: the RCI's per-action work and clock reads once per cycle.
    m_lrc->SetCycleWork(m_actionCycles, m_clockReads);
    m_lrc->SetReflectWork(m_reflectCycles);
}

void
RciFederate::SetClock(Ptr<NodeClock> clock)
{
    m_clock = clock;
}

void
RciFederate::Update(uint32_t objectClass, uint32_t bytes)
{
    NS_ABORT_MSG_IF(!m_lrc, "RciFederate::Update before Setup");
    Time stamp = m_scheduler == UTC_TM ? m_time : (m_clock ? m_clock->Now() : Simulator::Now());
    if (m_scheduler == HLA_TM)
    {
        // Never below the federate's time + lookahead (its output bound).
        stamp = m_time + m_lookahead;
        m_lrc->NoteSent(objectClass, stamp);
    }
    m_lrc->Update(objectClass, bytes, stamp);
}

void
RciFederate::SetReflectCallback(RtiLrc::ReflectCallback cb)
{
    NS_ABORT_MSG_IF(!m_lrc, "RciFederate::SetReflectCallback before Setup");
    m_reflect = cb;
    m_lrc->SetReflectCallback(MakeCallback(&RciFederate::OnReflect, this));
    m_lrc->SetReflectWork(m_reflectCycles);
}

void
RciFederate::OnReflect(const RtiLrc::Reflection& r)
{
    if (m_scheduler == DEFAULT)
    {
        if (!m_reflect.IsNull())
        {
            m_reflect(r);
        }
        return;
    }
    if (r.tag <= m_horizon)
    {
        ++m_violations;
    }
    m_kept.emplace(r, m_arrivals++);
    if (m_scheduler == HLA_TM)
    {
        m_lrc->NoteRead(r.tag);
    }
}

void
RciFederate::Deliver()
{
    while (!m_kept.empty() && m_kept.top().first.tag <= m_time)
    {
        RtiLrc::Reflection r = m_kept.top().first;
        m_kept.pop();
        if (!m_reflect.IsNull())
        {
            m_reflect(r);
        }
    }
    m_horizon = Max(m_horizon, m_time);
}

Time
RciFederate::GetTime() const
{
    return m_time;
}

uint64_t
RciFederate::GetTsoViolations() const
{
    return m_violations;
}

Time
RciFederate::GetMinLateness() const
{
    return m_minLateness;
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

uint64_t
RciFederate::GetActionsNotRun() const
{
    return m_notRun;
}

Time
RciFederate::GetMaxLateness() const
{
    return m_maxLateness;
}

} // namespace ns3
