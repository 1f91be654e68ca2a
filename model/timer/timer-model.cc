/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "timer-model.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimerModel");

NS_OBJECT_ENSURE_REGISTERED(TimerModel);

TypeId
TimerModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TimerModel").SetParent<Object>().SetGroupName("Testbed");
    return tid;
}

Time
TimerModel::GetPeriodicFireTime(Time lastFire, Time now, Time interval)
{
    NS_ASSERT_MSG(now >= lastFire,
                  "periodic re-arm at " << now << " before the last firing " << lastFire);
    return GetFireTime(now, interval);
}

int64_t
TimerModel::AssignStreams(int64_t stream)
{
    return 0;
}

} // namespace ns3
