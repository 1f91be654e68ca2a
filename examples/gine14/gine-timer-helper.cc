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
        rtc->SetAttribute("Phase", TimeValue(Seconds(phase->GetValue(0.0, 1.0 / 8192))));
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
    tc->SetAttribute("PacketSize", UintegerValue(packetSize));
    const double bps = 8.0 * packetSize / interval.GetSeconds();
    tc->SetAttribute("Rate", DataRateValue(DataRate(static_cast<uint64_t>(bps + 0.5))));
    return tc;
}

} // namespace ns3
