/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rtc-timer.h"

#include "tick-timer.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtcTimer");

NS_OBJECT_ENSURE_REGISTERED(RtcTimer);

TypeId
RtcTimer::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RtcTimer")
              .SetParent<TimerModel>()
              .SetGroupName("Testbed")
              .AddConstructor<RtcTimer>()
              .AddAttribute("Frequency",
                            "Periodic interrupt rate of the RTC (Hz): a power of two from 2 to "
                            "8192 (the 32.768 kHz crystal divided by 2^k).",
                            DoubleValue(8192.0),
                            MakeDoubleAccessor(&RtcTimer::m_frequency),
                            MakeDoubleChecker<double>(2.0, 8192.0))
              .AddAttribute("Phase",
                            "Time of interrupt number 0 (interrupts at Phase + k / Frequency).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&RtcTimer::m_phase),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ClockError",
                            "Relative rate error of the RTC crystal: real period = nominal * "
                            "(1 + ClockError); a watch crystal is within +-20e-6.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&RtcTimer::m_clockError),
                            MakeDoubleChecker<double>(-0.01, 0.01));
    return tid;
}

RtcTimer::RtcTimer()
    : m_frequency(8192.0)
    , m_clockError(0.0)
{
    NS_LOG_FUNCTION(this);
}

RtcTimer::~RtcTimer()
{
    NS_LOG_FUNCTION(this);
}

void
RtcTimer::CheckFrequency() const
{
    double e = std::log2(m_frequency);
    NS_ABORT_MSG_IF(std::fabs(e - std::round(e)) > 1e-12,
                    "RtcTimer: Frequency=" << m_frequency
                                           << " Hz is not a power of two (the RTC's periodic "
                                              "rates are 2, 4, ..., 8192 Hz)");
}

Time
RtcTimer::GetPeriod() const
{
    return Seconds((1.0 + m_clockError) / m_frequency);
}

Time
RtcTimer::GetFireTime(Time now, Time delay)
{
    NS_LOG_FUNCTION(this << now << delay);
    CheckFrequency();
    return TickTimer::FirstTickAtOrAfter(m_phase, m_frequency, m_clockError, 0, now, delay);
}

Time
RtcTimer::GetPeriodicFireTime(Time lastFire, Time now, Time interval)
{
    NS_LOG_FUNCTION(this << lastFire << now << interval);
    NS_ASSERT_MSG(now >= lastFire, "periodic re-arm before the last firing");
    CheckFrequency();
    Time next
        = TickTimer::FirstTickAtOrAfter(m_phase, m_frequency, m_clockError, 0, lastFire, interval);
    return Max(now, next);
}

} // namespace ns3
