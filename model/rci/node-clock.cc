/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "node-clock.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NodeClock");
NS_OBJECT_ENSURE_REGISTERED(NodeClock);

TypeId
NodeClock::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NodeClock")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<NodeClock>()
              .AddAttribute("Offset",
                            "Local minus true time at time 0.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&NodeClock::m_offset),
                            MakeTimeChecker(Seconds(-3600), Seconds(3600)))
              .AddAttribute("Drift",
                            "Rate error of the clock's oscillator (parts per million; a PC "
                            "crystal of the era: tens of ppm, doc/tno.rst).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&NodeClock::m_driftPpm),
                            MakeDoubleChecker<double>(-1000.0, 1000.0))
              .AddAttribute("Discipline",
                            "How the clock is kept on time: None (free running), Ntp (an "
                            "NtpClient corrects its rate), ClockCard (a common time base).",
                            EnumValue(NONE),
                            MakeEnumAccessor<Discipline>(&NodeClock::m_discipline),
                            MakeEnumChecker(NONE, "None", NTP, "Ntp", CLOCK_CARD, "ClockCard"))
              .AddAttribute("MaxSlew",
                            "Largest rate correction (ppm): the kernel's adjtime() slew limit "
                            "and NTP's maximum frequency offset (500 ppm, RFC 1305, RFC 5905).",
                            DoubleValue(500.0),
                            MakeDoubleAccessor(&NodeClock::m_maxSlewPpm),
                            MakeDoubleChecker<double>(0.0, 100000.0))
              .AddAttribute("Resolution",
                            "Readings are truncated to a multiple of this (0: exact).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&NodeClock::m_resolution),
                            MakeTimeChecker(Seconds(0), Seconds(1)))
              .AddAttribute("ReadCost",
                            "CPU time of one reading by a process (0: the host's system call, "
                            "HostPlatform SyscallCost).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&NodeClock::m_readCost),
                            MakeTimeChecker(Seconds(0), Seconds(1)));
    return tid;
}

NodeClock::NodeClock()
    : m_driftPpm(0)
    , m_discipline(NONE)
    , m_maxSlewPpm(500)
{
}

NodeClock::~NodeClock()
{
}

void
NodeClock::DoDispose()
{
    m_piece.clear();
    Object::DoDispose();
}

void
NodeClock::SetDiscipline(Discipline d)
{
    m_discipline = d;
}

NodeClock::Discipline
NodeClock::GetDiscipline() const
{
    return m_discipline;
}

void
NodeClock::Init()
{
    if (m_piece.empty())
    {
        m_piece.push_back(Piece{0.0, m_offset.GetSeconds(), 1 + m_driftPpm * 1e-6});
    }
}

double
NodeClock::Local(double t)
{
    Init();
    // The last piece that starts at or before t.
    auto it = std::upper_bound(m_piece.begin(), m_piece.end(), t, [](double v, const Piece& p) {
        return v < p.t;
    });
    const Piece& p = it == m_piece.begin() ? m_piece.front() : *(it - 1);
    return p.l + p.rate * (t - p.t);
}

Time
NodeClock::GetLocalTime(Time t)
{
    const double l = Local(t.GetSeconds());
    if (m_resolution.IsStrictlyPositive())
    {
        const int64_t step = m_resolution.GetTimeStep();
        const int64_t ticks = static_cast<int64_t>(std::floor(l / m_resolution.GetSeconds()));
        return TimeStep(ticks * step);
    }
    return Seconds(l);
}

Time
NodeClock::Now()
{
    return GetLocalTime(Simulator::Now());
}

Time
NodeClock::ToTrueTime(Time local)
{
    Init();
    double l = local.GetSeconds();
    if (m_resolution.IsStrictlyPositive())
    {
        // A truncated reading shows l from the instant the clock reaches the next multiple.
        const double r = m_resolution.GetSeconds();
        l = std::ceil(l / r - 1e-9) * r;
    }
    // The clock is increasing: the last piece whose local start is at or before l.
    auto it = std::upper_bound(m_piece.begin(), m_piece.end(), l, [](double v, const Piece& p) {
        return v < p.l;
    });
    const Piece& p = it == m_piece.begin() ? m_piece.front() : *(it - 1);
    return Seconds(p.t + (l - p.l) / p.rate);
}

double
NodeClock::SetCorrection(double ppm)
{
    Init();
    const double applied = std::clamp(ppm, -m_maxSlewPpm, m_maxSlewPpm);
    const double t = Simulator::Now().GetSeconds();
    NS_ABORT_MSG_IF(t < m_piece.back().t, "NodeClock::SetCorrection in the past");
    const double l = Local(t);
    const double rate = 1 + (m_driftPpm + applied) * 1e-6;
    if (m_piece.back().t == t)
    {
        m_piece.back().rate = rate;
    }
    else
    {
        m_piece.push_back(Piece{t, l, rate});
    }
    m_correction = applied;
    m_maxCorrection = std::max(m_maxCorrection, std::abs(applied));
    NS_LOG_LOGIC("clock " << this << " at " << t << " s: correction " << applied << " ppm");
    return applied;
}

double
NodeClock::GetCorrection() const
{
    return m_correction;
}

double
NodeClock::GetMaxCorrection() const
{
    return m_maxCorrection;
}

Time
NodeClock::GetReadCost() const
{
    return m_readCost;
}

} // namespace ns3
