/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nanosleep-timer.h"

#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NanosleepTimer");

NS_OBJECT_ENSURE_REGISTERED(NanosleepTimer);

TypeId
NanosleepTimer::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NanosleepTimer")
              .SetParent<TimerModel>()
              .SetGroupName("Testbed")
              .AddConstructor<NanosleepTimer>()
              .AddAttribute("TimerSlack",
                            "The thread's timer slack: the sleep's hardware timer is set this "
                            "much after the requested expiry (Linux default for normal threads: "
                            "50 us).",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&NanosleepTimer::m_slack),
                            MakeTimeChecker(Seconds(0), MilliSeconds(100)))
              .AddAttribute("ExpiryLatency",
                            "Time from the hardware timer's expiry to the thread being made "
                            "runnable (interrupt entry, hrtimer handler, wake-up), in seconds; "
                            "negative draws count as 0.",
                            StringValue("ns3::ExponentialRandomVariable[Mean=1e-6|Bound=2e-5]"),
                            MakePointerAccessor(&NanosleepTimer::m_latency),
                            MakePointerChecker<RandomVariableStream>());
    return tid;
}

NanosleepTimer::NanosleepTimer()
{
    NS_LOG_FUNCTION(this);
}

NanosleepTimer::~NanosleepTimer()
{
    NS_LOG_FUNCTION(this);
}

void
NanosleepTimer::DoDispose()
{
    m_latency = nullptr;
    TimerModel::DoDispose();
}

Time
NanosleepTimer::GetFireTime(Time now, Time delay)
{
    NS_LOG_FUNCTION(this << now << delay);
    NS_ASSERT_MSG(!delay.IsStrictlyNegative(), "negative timer delay " << delay);
    Time latency = Seconds(std::max(0.0, m_latency->GetValue()));
    return now + delay + m_slack + latency;
}

int64_t
NanosleepTimer::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_latency->SetStream(stream);
    return 1;
}

} // namespace ns3
