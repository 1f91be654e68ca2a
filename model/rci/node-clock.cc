/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "node-clock.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

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
                            "Local minus true time at time 0 (and until the first correction).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&NodeClock::m_offset),
                            MakeTimeChecker(Seconds(-3600), Seconds(3600)))
              .AddAttribute("Drift",
                            "Rate error of the clock's oscillator (parts per million; a PC "
                            "crystal of the era: tens of ppm).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&NodeClock::m_driftPpm),
                            MakeDoubleChecker<double>(-1000.0, 1000.0))
              .AddAttribute("Discipline",
                            "How the clock is corrected (SetDiscipline also sets the interval "
                            "and residual defaults).",
                            EnumValue(NONE),
                            MakeEnumAccessor<Discipline>(&NodeClock::m_discipline),
                            MakeEnumChecker(NONE, "None", NTP, "Ntp", CLOCK_CARD, "ClockCard"))
              .AddAttribute("SyncInterval",
                            "Time between two corrections of a disciplined clock.",
                            TimeValue(Seconds(64)),
                            MakeTimeAccessor(&NodeClock::m_interval),
                            MakeTimeChecker(MilliSeconds(1), Seconds(1e5)))
              .AddAttribute("SyncError",
                            "Residual offset (s) a correction leaves.",
                            StringValue("ns3::UniformRandomVariable[Min=-500e-6|Max=500e-6]"),
                            MakePointerAccessor(&NodeClock::m_residual),
                            MakePointerChecker<RandomVariableStream>());
    return tid;
}

NodeClock::NodeClock()
    : m_driftPpm(0)
    , m_discipline(NONE)
{
}

NodeClock::~NodeClock()
{
}

void
NodeClock::DoDispose()
{
    m_residual = nullptr;
    Object::DoDispose();
}

void
NodeClock::SetDiscipline(Discipline d)
{
    m_discipline = d;
    if (d == NTP)
    {
        // NTP's minimum poll interval (2^6 s, RFC 1305); a LAN's residual of some hundreds of
        // microseconds (an assumption, doc/tno.rst).
        m_interval = Seconds(64);
        m_residual = CreateObjectWithAttributes<UniformRandomVariable>("Min",
                                                                       DoubleValue(-500e-6),
                                                                       "Max",
                                                                       DoubleValue(500e-6));
    }
    else if (d == CLOCK_CARD)
    {
        // A card disciplined by a common signal (RCIM, GPS PPS) once a second, within a
        // microsecond (an assumption, doc/tno.rst).
        m_interval = Seconds(1);
        m_residual = CreateObjectWithAttributes<UniformRandomVariable>("Min",
                                                                       DoubleValue(-1e-6),
                                                                       "Max",
                                                                       DoubleValue(1e-6));
    }
    m_residuals.clear();
}

uint64_t
NodeClock::Segment(double t) const
{
    if (m_discipline == NONE || t <= 0)
    {
        return 0;
    }
    return static_cast<uint64_t>(std::floor(t / m_interval.GetSeconds()));
}

double
NodeClock::Residual(uint64_t k)
{
    if (k == 0)
    {
        return m_offset.GetSeconds();
    }
    while (m_residuals.size() < k)
    {
        m_residuals.push_back(m_residual->GetValue());
    }
    return m_residuals[k - 1];
}

Time
NodeClock::GetLocalTime(Time t)
{
    const double ts = t.GetSeconds();
    const uint64_t k = Segment(ts);
    const double since = ts - k * (m_discipline == NONE ? 0.0 : m_interval.GetSeconds());
    return Seconds(ts + Residual(k) + m_driftPpm * 1e-6 * since);
}

Time
NodeClock::Now()
{
    return GetLocalTime(Simulator::Now());
}

Time
NodeClock::ToTrueTime(Time local)
{
    // In segment k, local = t + e_k + d (t - s_k): t = (local - e_k + d s_k) / (1 + d). Start
    // with the segment of the uncorrected guess and move while the solution leaves it.
    const double l = local.GetSeconds();
    const double d = m_driftPpm * 1e-6;
    const double iv = m_discipline == NONE ? 0.0 : m_interval.GetSeconds();
    uint64_t k = Segment(l - Residual(Segment(l)));
    for (int guard = 0; guard < 64; ++guard)
    {
        const double sk = k * iv;
        double t = (l - Residual(k) + d * sk) / (1 + d);
        if (k > 0 && t < sk)
        {
            // Before this segment: the previous one, unless a forward step jumped over l.
            double prevEnd = sk;
            double prevLocal = prevEnd + Residual(k - 1) + d * iv;
            if (prevLocal > l)
            {
                --k;
                continue;
            }
            return Seconds(sk);
        }
        if (m_discipline != NONE && t >= sk + iv)
        {
            ++k;
            continue;
        }
        if (k > 0)
        {
            // A backward step: the clock read l already before the correction.
            const double tp = (l - Residual(k - 1) + d * (sk - iv)) / (1 + d);
            if (tp >= sk - iv && tp < sk)
            {
                return Seconds(tp);
            }
        }
        return Seconds(t);
    }
    NS_ABORT_MSG("NodeClock::ToTrueTime: no solution for " << local);
}

int64_t
NodeClock::AssignStreams(int64_t stream)
{
    m_residual->SetStream(stream);
    return 1;
}

} // namespace ns3
