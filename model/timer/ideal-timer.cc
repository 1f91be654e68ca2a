/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ideal-timer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IdealTimer");

NS_OBJECT_ENSURE_REGISTERED(IdealTimer);

TypeId
IdealTimer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IdealTimer")
                            .SetParent<TimerModel>()
                            .SetGroupName("Testbed")
                            .AddConstructor<IdealTimer>();
    return tid;
}

Time
IdealTimer::GetFireTime(Time now, Time delay)
{
    NS_ASSERT_MSG(!delay.IsStrictlyNegative(), "negative timer delay " << delay);
    return now + delay;
}

Time
IdealTimer::GetPeriodicFireTime(Time lastFire, Time now, Time interval)
{
    NS_ASSERT_MSG(!interval.IsStrictlyNegative(), "negative timer interval " << interval);
    return Max(now, lastFire + interval);
}

} // namespace ns3
