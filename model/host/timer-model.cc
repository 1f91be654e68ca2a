/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "timer-model.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimerModel");

NS_OBJECT_ENSURE_REGISTERED(TimerModel);
NS_OBJECT_ENSURE_REGISTERED(IdealTimer);
NS_OBJECT_ENSURE_REGISTERED(TickTimer);
NS_OBJECT_ENSURE_REGISTERED(OversleepTimer);

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
    Time fire = FirstTickAtOrAfter(m_phase, m_frequency, m_clockError, m_extraTicks, now, delay);
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
    // Tick k is at Phase + round(k * period), computed from the exact (non-truncated) period so
    // that no rounding drift accumulates (1/8192 s is not a whole number of nanoseconds).
    const long double perSteps = static_cast<long double>(Seconds(1).GetTimeStep())
                                 * (1.0L + clockError) / static_cast<long double>(frequency);
    NS_ABORT_MSG_IF(perSteps < 1.0L, "TickTimer period below the simulator's time resolution");
    auto tick = [perSteps](int64_t k) {
        return std::llround(static_cast<long double>(k) * perSteps);
    };
    // The timer counts its own (error-stretched) periods, so the requested delay is stretched too.
    const int64_t rel
        = (now - phase).GetTimeStep()
          + std::llround(static_cast<long double>(delay.GetTimeStep()) * (1.0L + clockError));
    int64_t k = rel <= 0 ? 0 : static_cast<int64_t>(std::floor(rel / perSteps));
    while (tick(k) < rel)
    {
        ++k;
    }
    while (k > 0 && tick(k - 1) >= rel)
    {
        --k;
    }
    k += extraTicks;
    return phase + TimeStep(tick(k));
}

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
