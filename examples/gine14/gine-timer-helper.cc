/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gine-timer-helper.h"

#include "ns3/abort.h"
#include "ns3/boosted-tc-timer.h"
#include "ns3/data-rate.h"
#include "ns3/ideal-timer.h"
#include "ns3/nanosleep-timer.h"
#include "ns3/rtc-timer.h"
#include "ns3/tc-timer.h"
#include "ns3/timer-model.h"
#include "ns3/uinteger.h"
#include "ns3/user-attributes.h"

#include <algorithm>

namespace ns3
{

const std::vector<std::string>&
GineTimerHelper::Names()
{
    static const std::vector<std::string> names
        = {"ideal", "rtc", "nanosleep", "tctimer", "boosted"};
    return names;
}

bool
GineTimerHelper::IsName(const std::string& name)
{
    const auto& n = Names();
    return std::find(n.begin(), n.end(), name) != n.end();
}

Ptr<TimerModel>
GineTimerHelper::Create(const std::string& name,
                        uint32_t packetSize,
                        Time interval,
                        Ptr<UniformRandomVariable> phase)
{
    if (name == "ideal")
    {
        return CreateObject<IdealTimer>();
    }
    if (name == "rtc")
    {
        Ptr<RtcTimer> rtc = CreateObject<RtcTimer>();
        // A random phase per run, unless the user gave one (drawn in any case: the later
        // streams stay the same).
        const Time drawn = Seconds(phase->GetValue(0.0, 1.0 / 8192));
        UserAttributes::SetDefault(rtc, "Phase", TimeValue(drawn));
        return rtc;
    }
    if (name == "nanosleep")
    {
        return CreateObject<NanosleepTimer>();
    }
    NS_ABORT_MSG_UNLESS(name == "tctimer" || name == "boosted",
                        "GineTimerHelper: unknown timer '" << name << "'");
    NS_ABORT_MSG_UNLESS(interval.IsStrictlyPositive(), "GineTimerHelper: interval must be > 0");
    Ptr<TcTimer> tc = name == "boosted" ? Ptr<TcTimer>(CreateObject<BoostedTcTimer>())
                                        : CreateObject<TcTimer>();
    // GINE sets the rate from the request, b = 8 l / X ([GINE14]).
    const std::string by = "from the requested interval, b = 8 l / X";
    UserAttributes::SetFixed(tc, "PacketSize", UintegerValue(packetSize), by);
    const double bps = 8.0 * packetSize / interval.GetSeconds();
    UserAttributes::SetFixed(tc,
                             "Rate",
                             DataRateValue(DataRate(static_cast<uint64_t>(bps + 0.5))),
                             by);
    return tc;
}

} // namespace ns3
