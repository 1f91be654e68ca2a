/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tick-timer.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TickTimer");

NS_OBJECT_ENSURE_REGISTERED(TickTimer);

TypeId
TickTimer::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TickTimer")
              .SetParent<TimerModel>()
              .SetGroupName("Testbed")
              .AddConstructor<TickTimer>()
              .AddAttribute("Frequency",
                            "Nominal tick rate of the periodic clock interrupt (Hz).",
                            DoubleValue(1000.0),
                            MakeDoubleAccessor(&TickTimer::m_frequency),
                            MakeDoubleChecker<double>(1.0, 1e9))
              .AddAttribute("Phase",
                            "Time of tick number 0 (ticks are at Phase + k * period).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&TickTimer::m_phase),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ExtraTicks",
                            "Ticks added after the first tick at or after the expiry "
                            "(1 for a jiffy-based Linux 2.6 sleep).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&TickTimer::m_extraTicks),
                            MakeUintegerChecker<uint32_t>(0, 1000))
              .AddAttribute("ClockError",
                            "Relative rate error of the clock: real period = nominal period * "
                            "(1 + ClockError). Positive = slow clock.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&TickTimer::m_clockError),
                            MakeDoubleChecker<double>(-0.5, 0.5));
    return tid;
}

Time
TickTimer::GetPeriod() const
{
    return Seconds((1.0 + m_clockError) / m_frequency);
}

Time
TickTimer::GetFireTime(Time now, Time delay)
{
    NS_ASSERT_MSG(!delay.IsStrictlyNegative(), "negative timer delay " << delay);
    if (m_cachedFrequency != m_frequency || m_cachedError != m_clockError)
    {
        m_perSteps = PeriodSteps(m_frequency, m_clockError);
        m_cachedFrequency = m_frequency;
        m_cachedError = m_clockError;
        m_cachedDelay = -1;
    }
    if (delay.GetTimeStep() != m_cachedDelay)
    {
        m_stretched = StretchedSteps(delay, m_clockError);
        m_cachedDelay = delay.GetTimeStep();
    }
    Time fire = TickAtOrAfter(m_phase, m_perSteps, m_extraTicks, now, m_stretched);
    NS_LOG_LOGIC("armed " << now << " delay " << delay << " fires " << fire);
    return fire;
}

Time
TickTimer::FirstTickAtOrAfter(Time phase,
                              double frequency,
                              double clockError,
                              uint32_t extraTicks,
                              Time now,
                              Time delay)
{
    NS_ASSERT_MSG(!delay.IsStrictlyNegative(), "negative timer delay " << delay);
    return TickAtOrAfter(phase,
                         PeriodSteps(frequency, clockError),
                         extraTicks,
                         now,
                         StretchedSteps(delay, clockError));
}

long double
TickTimer::PeriodSteps(double frequency, double clockError)
{
    // Tick k is at Phase + round(k * period), computed from the exact (non-truncated) period so
    // that no rounding drift accumulates (1/8192 s is not a whole number of nanoseconds).
    // (Time::FromInteger: the same steps as Seconds(1), without the conversion from double.)
    const long double perSteps
        = static_cast<long double>(Time::FromInteger(1, Time::S).GetTimeStep())
          * (1.0L + clockError) / static_cast<long double>(frequency);
    NS_ABORT_MSG_IF(perSteps < 1.0L, "TickTimer period below the simulator's time resolution");
    return perSteps;
}

int64_t
TickTimer::StretchedSteps(Time delay, double clockError)
{
    // The timer counts its own (error-stretched) periods, so the requested delay is stretched too.
    return std::llround(static_cast<long double>(delay.GetTimeStep()) * (1.0L + clockError));
}

Time
TickTimer::TickAtOrAfter(Time phase,
                         long double perSteps,
                         uint32_t extraTicks,
                         Time now,
                         int64_t stretched)
{
    const int64_t rel = (now - phase).GetTimeStep() + stretched;
    if (perSteps == std::floor(perSteps) && perSteps < 0x1p62L)
    {
        // A whole number of steps (a frequency that divides the second, no clock error): tick
        // k is exactly k * period, so the first at or after rel is the ceiling of their
        // quotient, in integers (the same tick as below, without long double arithmetic).
        const auto period = static_cast<int64_t>(perSteps);
        const int64_t k = rel > 0 ? (rel - 1) / period + 1 : 0;
        return phase + TimeStep((k + extraTicks) * period);
    }
    auto tick = [perSteps](int64_t k) {
        return std::llround(static_cast<long double>(k) * perSteps);
    };
    // The first tick at or after rel, k, is bracketed by the estimate k0 = floor(rel / period):
    // tick k0 + 1 = round((k0 + 1) * period) >= rel since (k0 + 1) * period > rel, and tick
    // k0 - 1 <= round(rel - period) < rel since the period is at least one step. So k is k0
    // (tick k0 at or after rel, e.g. rounded up to it) or k0 + 1; k0 - 1 only if the division
    // rounded up across a whole tick (long double: not for any time the simulator holds).
    int64_t k = 0;
    if (rel > 0)
    {
        k = static_cast<int64_t>(std::floor(rel / perSteps));
        if (tick(k) < rel)
        {
            ++k;
        }
        else if (k > 0 && tick(k - 1) >= rel)
        {
            --k;
        }
    }
    NS_ASSERT_MSG(tick(k) >= rel && (k == 0 || tick(k - 1) < rel),
                  "TickTimer: tick " << k << " is not the first at or after " << rel);
    k += extraTicks;
    return phase + TimeStep(tick(k));
}

} // namespace ns3
