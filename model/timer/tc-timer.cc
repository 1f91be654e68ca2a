/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tc-timer.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcTimer");

NS_OBJECT_ENSURE_REGISTERED(TcTimer);

Time
TcTimer::DrawLatency(Ptr<RandomVariableStream> rv)
{
    return Seconds(std::max(0.0, rv->GetValue()));
}

TypeId
TcTimer::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TcTimer")
              .SetParent<TimerModel>()
              .SetGroupName("Testbed")
              .AddConstructor<TcTimer>()
              .AddAttribute("PacketSize",
                            "Octets the shaper accounts per packet (skb length on lo: Ethernet "
                            "14 + IP 20 + UDP 8 + payload); 43 = one payload byte.",
                            UintegerValue(43),
                            MakeUintegerAccessor(&TcTimer::m_packetSize),
                            MakeUintegerChecker<uint32_t>(1, 65535))
              .AddAttribute("Rate",
                            "The tc rate b (bit/s; tc keeps whole bytes/s). Nominal period "
                            "8 PacketSize / Rate; the default gives 10 us for 43 octets.",
                            DataRateValue(DataRate("34.4Mbps")),
                            MakeDataRateAccessor(&TcTimer::m_rate),
                            MakeDataRateChecker())
              .AddAttribute("Burst",
                            "The tbf bucket (bytes); 0 = the smallest that lets PacketSize "
                            "through (PacketSize + 1 rounded up to a whole cell).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&TcTimer::m_burst),
                            MakeUintegerChecker<uint32_t>(0, 1 << 24))
              .AddAttribute("PschedTick",
                            "The packet scheduler's clock unit (Linux >= 2.6.31: 64 ns).",
                            TimeValue(NanoSeconds(64)),
                            MakeTimeAccessor(&TcTimer::m_tick),
                            MakeTimeChecker(NanoSeconds(1), MicroSeconds(100)))
              .AddAttribute("CellLog",
                            "log2 of the rate table's cell size (tc: 3 for its default MTU "
                            "2047).",
                            UintegerValue(3),
                            MakeUintegerAccessor(&TcTimer::m_cellLog),
                            MakeUintegerChecker<uint32_t>(0, 8))
              .AddAttribute("SenderPeriod",
                            "Mean interval of the sender thread's send attempts, each of which "
                            "runs the qdisc; the first attempt after a packet becomes eligible "
                            "comes U(0, SenderPeriod) later (0 = the sender never polls).",
                            TimeValue(NanoSeconds(1500)),
                            MakeTimeAccessor(&TcTimer::m_senderPeriod),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("WatchdogLatency",
                            "From the watchdog hrtimer's expiry to the dequeue in the NET_TX "
                            "softirq (s); negative draws count as 0.",
                            StringValue("ns3::ExponentialRandomVariable[Mean=1e-6|Bound=2e-5]"),
                            MakePointerAccessor(&TcTimer::m_watchdogLatency),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("DeliveryLatency",
                            "From the dequeue to the packet's arrival at the reading socket "
                            "(loopback transmit, NET_RX softirq, UDP receive) (s).",
                            StringValue("ns3::UniformRandomVariable[Min=1e-6|Max=2e-6]"),
                            MakePointerAccessor(&TcTimer::m_deliveryLatency),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("Phase",
                            "Time the first packet leaves (the stream's start).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&TcTimer::m_phase),
                            MakeTimeChecker(Seconds(0)));
    return tid;
}

TcTimer::TcTimer()
    : m_packetSize(43)
    , m_prepared(false)
    , m_burst(0)
    , m_cellLog(3)
    , m_rateBytes(0)
    , m_l2t(0)
    , m_buffer(0)
    , m_tc(0)
    , m_tokens(0)
    , m_base(0)
    , m_reading(false)
    , m_readIndex(0)
{
    NS_LOG_FUNCTION(this);
    m_senderRng = CreateObject<UniformRandomVariable>();
}

TcTimer::~TcTimer()
{
    NS_LOG_FUNCTION(this);
}

void
TcTimer::DoDispose()
{
    m_watchdogLatency = nullptr;
    m_deliveryLatency = nullptr;
    m_senderRng = nullptr;
    m_arrivals.clear();
    TimerModel::DoDispose();
}

int64_t
TcTimer::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_watchdogLatency->SetStream(stream);
    m_deliveryLatency->SetStream(stream + 1);
    m_senderRng->SetStream(stream + 2);
    return 3;
}

uint64_t
TcTimer::ToBytesPerSecond(DataRate rate)
{
    uint64_t bytes = rate.GetBitRate() / 8;
    NS_ABORT_MSG_IF(bytes == 0,
                    "TcTimer: Rate=" << rate << " is below tc's resolution of 1 byte/s");
    NS_ABORT_MSG_IF(bytes > std::numeric_limits<uint32_t>::max(),
                    "TcTimer: Rate=" << rate << " exceeds tc's 32-bit bytes/s");
    return bytes;
}

uint32_t
TcTimer::XmitTicks(uint64_t rateBytes, uint32_t size) const
{
    // iproute2 tc_core.c: tc_calc_xmittime() = tc_core_time2tick(TIME_UNITS_PER_SEC * size /
    // rate), time2tick(t) = t * tick_in_usec, tick_in_usec = 1000 / (ns per tick), truncated
    // to unsigned. The same double arithmetic as tc.
    const double tickInUsec = 1000.0 / static_cast<double>(m_tick.GetNanoSeconds());
    const double us = 1000000.0 * (static_cast<double>(size) / static_cast<double>(rateBytes));
    const double ticks = us * tickInUsec;
    NS_ABORT_MSG_IF(ticks >= 4294967296.0,
                    "TcTimer: " << size << " bytes at " << rateBytes
                                << " bytes/s overflow tc's 32-bit rate table");
    return static_cast<uint32_t>(ticks);
}

uint32_t
TcTimer::PacketTicks(uint64_t rateBytes, uint32_t len) const
{
    // Kernel qdisc_l2t(): slot = (len + cell_align) >> cell_log, cell_align = -1 (tc), and
    // rtab[i] = xmittime((i + 1) << cell_log).
    int64_t slot = static_cast<int64_t>(len) - 1;
    slot = std::max<int64_t>(slot, 0) >> m_cellLog;
    auto rtab = [this, rateBytes](int64_t i) {
        return XmitTicks(rateBytes, static_cast<uint32_t>((i + 1) << m_cellLog));
    };
    if (slot > 255)
    {
        return rtab(255) * static_cast<uint32_t>(slot >> 8) + rtab(slot & 0xFF);
    }
    return rtab(slot);
}

uint32_t
TcTimer::GetBurstBytes() const
{
    if (m_burst > 0)
    {
        return m_burst;
    }
    const uint32_t cell = 1u << m_cellLog;
    return ((m_packetSize + 1 + cell - 1) / cell) * cell;
}

Time
TcTimer::GetNominalPeriod() const
{
    NS_ABORT_MSG_IF(m_rate.GetBitRate() == 0, "TcTimer: Rate must be > 0");
    return Seconds(8.0 * m_packetSize / static_cast<double>(m_rate.GetBitRate()));
}

uint64_t
TcTimer::GetRateBytesPerSecond()
{
    Prepare();
    return m_rateBytes;
}

Time
TcTimer::GetShaperPeriod()
{
    Prepare();
    return TimeStep(m_l2t * m_tick.GetTimeStep());
}

Time
TcTimer::GetStartTime()
{
    Prepare();
    return m_start;
}

void
TcTimer::Prepare()
{
    if (m_prepared)
    {
        return;
    }
    m_prepared = true;
    StartStream(ToBytesPerSecond(m_rate), m_phase);
}

void
TcTimer::StartStream(uint64_t rateBytes, Time start)
{
    NS_LOG_FUNCTION(this << rateBytes << start);
    m_rateBytes = rateBytes;
    m_l2t = PacketTicks(rateBytes, m_packetSize);
    const uint32_t burst = GetBurstBytes();
    m_buffer = XmitTicks(rateBytes, burst);
    // Kernel tbf_change(): max_size = (n << cell_log) - 1, n the first rate-table slot whose
    // time exceeds the buffer; longer packets are dropped.
    int64_t n = 0;
    while (n < 256
           && XmitTicks(rateBytes, static_cast<uint32_t>((n + 1) << m_cellLog))
                  <= static_cast<uint32_t>(m_buffer))
    {
        ++n;
    }
    const int64_t maxSize = (n << m_cellLog) - 1;
    NS_ABORT_MSG_IF(static_cast<int64_t>(m_packetSize) > maxSize,
                    "TcTimer: Burst=" << burst << " bytes is too small for PacketSize="
                                      << m_packetSize << " at " << rateBytes
                                      << " bytes/s: tbf would drop every packet (max_size "
                                      << maxSize << ")");
    NS_ABORT_MSG_IF(m_l2t <= 0,
                    "TcTimer: PacketSize=" << m_packetSize << " at " << rateBytes
                                           << " bytes/s takes less than one psched tick");
    const int64_t tick = m_tick.GetTimeStep();
    m_tc = start.GetTimeStep() / tick;
    m_tokens = m_buffer;
    m_lastDeparture = start;
    m_lastArrival = start;
    m_start = start;
    m_arrivals.clear();
    m_base = 0;
    m_reading = false;
    m_readIndex = 0;
    m_lastQuery = Seconds(0);
}

void
TcTimer::GenerateNext()
{
    const int64_t tick = m_tick.GetTimeStep();
    Time departure = m_lastDeparture;
    const int64_t need = m_l2t - m_tokens;
    if (need > 0)
    {
        // The attempt right after the last departure failed: the watchdog is armed for the
        // tick at which the tokens suffice.
        const Time eligible = TimeStep((m_tc + need) * tick);
        departure = eligible + DrawLatency(m_watchdogLatency);
        if (m_senderPeriod.IsStrictlyPositive())
        {
            // The sender's next send attempt: its loop jitters by more than a period between
            // two packets, so its phase against the eligible tick is uniform.
            const Time poll = eligible
                              + TimeStep(static_cast<int64_t>(
                                  std::floor(m_senderRng->GetValue(0.0, 1.0)
                                             * static_cast<double>(m_senderPeriod.GetTimeStep()))));
            departure = Min(departure, poll);
        }
    }
    // tbf_dequeue() at the attempt: psched time is the clock truncated to ticks.
    const int64_t now = departure.GetTimeStep() / tick;
    int64_t toks = std::min(now - m_tc, m_buffer) + m_tokens;
    toks = std::min(toks, m_buffer) - m_l2t;
    NS_ASSERT_MSG(toks >= 0, "TcTimer: dequeue before the tokens suffice");
    m_tc = now;
    m_tokens = toks;
    m_lastDeparture = departure;
    Time arrival = Max(m_lastArrival, departure + DrawLatency(m_deliveryLatency));
    m_lastArrival = arrival;
    m_arrivals.push_back(arrival);
}

void
TcTimer::GenerateUpTo(uint64_t k)
{
    NS_ABORT_MSG_IF(k < m_base, "TcTimer: packet " << k << " was already discarded");
    while (m_base + m_arrivals.size() <= k)
    {
        GenerateNext();
    }
}

Time
TcTimer::GetArrival(uint64_t k)
{
    Prepare();
    GenerateUpTo(k);
    return m_arrivals[k - m_base];
}

void
TcTimer::Trim(Time now)
{
    NS_ABORT_MSG_IF(now < m_lastQuery,
                    "TcTimer: queried at " << now << " after a query at " << m_lastQuery
                                           << " (queries must not go back in time)");
    m_lastQuery = now;
    while (m_arrivals.size() > 1 && m_arrivals.front() < now
           && (!m_reading || m_base < m_readIndex))
    {
        m_arrivals.pop_front();
        ++m_base;
    }
}

Time
TcTimer::GetFireTime(Time now, Time delay)
{
    NS_LOG_FUNCTION(this << now << delay);
    NS_ASSERT_MSG(!delay.IsStrictlyNegative(), "negative timer delay " << delay);
    Prepare();
    Trim(now);
    const Time target = now + delay;
    if (m_arrivals.empty())
    {
        GenerateNext();
    }
    while (m_arrivals.back() < target)
    {
        GenerateNext();
    }
    auto it = std::lower_bound(m_arrivals.begin(), m_arrivals.end(), target);
    NS_ASSERT(it != m_arrivals.end());
    NS_LOG_LOGIC("armed " << now << " delay " << delay << " fires " << *it);
    return *it;
}

Time
TcTimer::GetPeriodicFireTime(Time lastFire, Time now, Time interval)
{
    NS_LOG_FUNCTION(this << lastFire << now << interval);
    NS_ASSERT_MSG(now >= lastFire, "periodic re-arm before the last firing");
    Prepare();
    if (!m_reading)
    {
        // The reader starts with the last packet that arrived by lastFire.
        GetFireTime(lastFire, Seconds(0));
        auto it = std::upper_bound(m_arrivals.begin(), m_arrivals.end(), lastFire);
        NS_ABORT_MSG_IF(it == m_arrivals.begin(),
                        "TcTimer: the reader's first firing " << lastFire
                                                              << " precedes every packet");
        m_readIndex = m_base + static_cast<uint64_t>(it - m_arrivals.begin()) - 1;
        m_reading = true;
    }
    const double ratio = interval.GetSeconds() / GetNominalPeriod().GetSeconds();
    const uint64_t n = std::max<int64_t>(1, std::llround(ratio));
    m_readIndex += n;
    Time fire = Max(now, GetArrival(m_readIndex));
    Trim(now);
    return fire;
}

} // namespace ns3
