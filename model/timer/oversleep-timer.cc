/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "oversleep-timer.h"

#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OversleepTimer");

NS_OBJECT_ENSURE_REGISTERED(OversleepTimer);

TypeId
OversleepTimer::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::OversleepTimer")
              .SetParent<TimerModel>()
              .SetGroupName("Testbed")
              .AddConstructor<OversleepTimer>()
              .AddAttribute("Oversleep",
                            "Random oversleep added to every firing, in seconds.",
                            StringValue("ns3::ConstantRandomVariable[Constant=0.0]"),
                            MakePointerAccessor(&OversleepTimer::m_oversleep),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("Resolution",
                            "Granularity of the clock the firing time is rounded up to "
                            "(0 = continuous).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&OversleepTimer::m_resolution),
                            MakeTimeChecker(Seconds(0)));
    return tid;
}

Time
OversleepTimer::GetFireTime(Time now, Time delay)
{
    NS_ASSERT_MSG(!delay.IsStrictlyNegative(), "negative timer delay " << delay);
    double over = std::max(0.0, m_oversleep->GetValue());
    Time fire = now + delay + Seconds(over);
    if (m_resolution.IsStrictlyPositive())
    {
        int64_t r = m_resolution.GetTimeStep();
        int64_t t = fire.GetTimeStep();
        fire = TimeStep(((t + r - 1) / r) * r);
    }
    return fire;
}

int64_t
OversleepTimer::AssignStreams(int64_t stream)
{
    m_oversleep->SetStream(stream);
    return 1;
}

} // namespace ns3
