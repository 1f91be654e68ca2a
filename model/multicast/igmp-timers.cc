/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "igmp-timers.h"

#include "ns3/abort.h"

namespace ns3
{

Time
IgmpTimers::GroupMembershipInterval() const
{
    return queryInterval * static_cast<int64_t>(robustness) + queryResponseInterval;
}

Time
IgmpTimers::OtherQuerierPresentInterval() const
{
    return queryInterval * static_cast<int64_t>(robustness) + queryResponseInterval / 2;
}

Time
IgmpTimers::StartupQueryInterval() const
{
    return startupQueryInterval.IsZero() ? queryInterval / 4 : startupQueryInterval;
}

uint32_t
IgmpTimers::StartupQueryCount() const
{
    return startupQueryCount == 0 ? robustness : startupQueryCount;
}

uint32_t
IgmpTimers::LastMemberQueryCount() const
{
    return lastMemberQueryCount == 0 ? robustness : lastMemberQueryCount;
}

Time
IgmpTimers::LastMemberQueryTime() const
{
    return lastMemberQueryInterval * static_cast<int64_t>(LastMemberQueryCount());
}

Time
IgmpTimers::OlderVersionQuerierPresentTimeout() const
{
    return queryInterval * static_cast<int64_t>(robustness) + queryResponseInterval;
}

Time
IgmpTimers::OlderHostPresentInterval() const
{
    return queryInterval * static_cast<int64_t>(robustness) + queryResponseInterval;
}

IgmpTimers
IgmpTimers::Scaled(double factor) const
{
    NS_ABORT_MSG_IF(!(factor > 0), "IgmpTimers::Scaled: factor " << factor << " must be > 0");
    IgmpTimers s = *this;
    s.queryInterval = queryInterval * factor;
    s.queryResponseInterval = queryResponseInterval * factor;
    s.startupQueryInterval = startupQueryInterval * factor;
    s.lastMemberQueryInterval = Max(lastMemberQueryInterval * factor, MilliSeconds(100));
    s.unsolicitedReportIntervalV2 = unsolicitedReportIntervalV2 * factor;
    s.unsolicitedReportIntervalV3 = unsolicitedReportIntervalV3 * factor;
    return s;
}

} // namespace ns3
