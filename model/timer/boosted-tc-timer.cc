/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "boosted-tc-timer.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BoostedTcTimer");

NS_OBJECT_ENSURE_REGISTERED(BoostedTcTimer);

TypeId
BoostedTcTimer::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::BoostedTcTimer")
              .SetParent<TcTimer>()
              .SetGroupName("Testbed")
              .AddConstructor<BoostedTcTimer>()
              .AddAttribute("CalibrationFirings",
                            "Packets timed by the calibration run before the emulation starts.",
                            UintegerValue(1000),
                            MakeUintegerAccessor(&BoostedTcTimer::m_calibrationFirings),
                            MakeUintegerChecker<uint32_t>(1, 100000000))
              .AddAttribute("MeasurementLatency",
                            "From a packet's arrival to the reading thread's timestamp "
                            "(its wake-up) during the calibration (s); negative draws count "
                            "as 0.",
                            StringValue("ns3::ExponentialRandomVariable[Mean=5e-6|Bound=1e-4]"),
                            MakePointerAccessor(&BoostedTcTimer::m_measurementLatency),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("TimestampResolution",
                            "Resolution of the calibration's timestamps (gettimeofday: 1 us).",
                            TimeValue(MicroSeconds(1)),
                            MakeTimeAccessor(&BoostedTcTimer::m_timestampResolution),
                            MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

BoostedTcTimer::BoostedTcTimer()
    : m_calibrationFirings(1000)
{
    NS_LOG_FUNCTION(this);
}

BoostedTcTimer::~BoostedTcTimer()
{
    NS_LOG_FUNCTION(this);
}

void
BoostedTcTimer::DoDispose()
{
    m_measurementLatency = nullptr;
    TcTimer::DoDispose();
}

int64_t
BoostedTcTimer::AssignStreams(int64_t stream)
{
    int64_t n = TcTimer::AssignStreams(stream);
    m_measurementLatency->SetStream(stream + n);
    return n + 1;
}

void
BoostedTcTimer::Prepare()
{
    if (m_prepared)
    {
        return;
    }
    m_prepared = true;
    NS_LOG_FUNCTION(this);
    // The calibration run: the stream at the requested rate, timed by the reading thread.
    StartStream(ToBytesPerSecond(m_rate), m_phase);
    const int64_t res = m_timestampResolution.GetTimeStep();
    auto stamp = [this, res](Time arrival) {
        Time t = arrival + DrawLatency(m_measurementLatency);
        return TimeStep((t.GetTimeStep() / res) * res);
    };
    const Time t0 = stamp(GetArrival(0));
    const Time tn = stamp(GetArrival(m_calibrationFirings));
    const Time end = Max(tn, GetArrival(m_calibrationFirings));
    const long double measured
        = static_cast<long double>((tn - t0).GetTimeStep()) / m_calibrationFirings;
    m_measuredPeriod = TimeStep(std::llround(measured));
    const long double nominal = static_cast<long double>(8.0L * m_packetSize)
                                / static_cast<long double>(m_rate.GetBitRate())
                                * static_cast<long double>(Seconds(1).GetTimeStep());
    const long double corrected
        = static_cast<long double>(m_rate.GetBitRate()) * measured / nominal;
    NS_ABORT_MSG_IF(corrected < 8.0L,
                    "BoostedTcTimer: calibration measured a period of " << m_measuredPeriod
                                                                        << "; cannot correct");
    m_correctedRate = DataRate(static_cast<uint64_t>(std::llround(corrected)));
    NS_LOG_INFO("measured period " << m_measuredPeriod << " (nominal " << GetNominalPeriod()
                                   << "), rate " << m_rate << " -> " << m_correctedRate);
    // The emulation starts with the corrected rate when the calibration is over.
    StartStream(ToBytesPerSecond(m_correctedRate), end);
}

Time
BoostedTcTimer::GetMeasuredPeriod()
{
    Prepare();
    return m_measuredPeriod;
}

DataRate
BoostedTcTimer::GetCorrectedRate()
{
    Prepare();
    return m_correctedRate;
}

} // namespace ns3
