/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fddi-channel.h"

#include "fddi-net-device.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FddiChannel");
NS_OBJECT_ENSURE_REGISTERED(FddiChannel);

TypeId
FddiChannel::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FddiChannel")
              .SetParent<Channel>()
              .SetGroupName("Testbed")
              .AddConstructor<FddiChannel>()
              .AddAttribute("Ttrt",
                            "Target token rotation time negotiated by the claim process",
                            TimeValue(MilliSeconds(8)),
                            MakeTimeAccessor(&FddiChannel::m_ttrt),
                            MakeTimeChecker(MicroSeconds(100), Seconds(0.165)))
              .AddAttribute("DataRate",
                            "Data rate on the ring (FDDI: 100 Mbit/s, 125 Mbaud 4B/5B)",
                            DataRateValue(DataRate("100Mbps")),
                            MakeDataRateAccessor(&FddiChannel::m_rate),
                            MakeDataRateChecker())
              .AddAttribute("FibreLength",
                            "Fibre between neighbouring stations (m)",
                            DoubleValue(100),
                            MakeDoubleAccessor(&FddiChannel::m_fibreLength),
                            MakeDoubleChecker<double>(0, 2000))
              .AddAttribute("FibreDelay",
                            "Propagation delay of the fibre per km",
                            TimeValue(NanoSeconds(5085)),
                            MakeTimeAccessor(&FddiChannel::m_fibreDelayPerKm),
                            MakeTimeChecker(NanoSeconds(3000), NanoSeconds(10000)))
              .AddAttribute("StationLatency",
                            "Delay of the token and of frames through each station's PHY and MAC",
                            TimeValue(NanoSeconds(600)),
                            MakeTimeAccessor(&FddiChannel::m_stationLatency),
                            MakeTimeChecker(NanoSeconds(0), MicroSeconds(100)))
              .AddAttribute("ParkIdleToken",
                            "Skip the idle token's hops while no station has a frame, advancing "
                            "the timers analytically (false: simulate every hop; for checks)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&FddiChannel::m_parkIdle),
                            MakeBooleanChecker())
              .AddTraceSource("TokenCapture",
                              "A station captured the token",
                              MakeTraceSourceAccessor(&FddiChannel::m_tokenTrace),
                              "ns3::FddiChannel::TokenTracedCallback");
    return tid;
}

FddiChannel::FddiChannel()
    : m_ttrt(MilliSeconds(8))
    , m_rate("100Mbps")
    , m_fibreLength(100)
    , m_fibreDelayPerKm(NanoSeconds(5085))
    , m_stationLatency(NanoSeconds(600))
{
    NS_LOG_FUNCTION(this);
}

FddiChannel::~FddiChannel()
{
    NS_LOG_FUNCTION(this);
}

void
FddiChannel::DoDispose()
{
    m_tokenEvent.Cancel();
    m_devices.clear();
    Channel::DoDispose();
}

uint32_t
FddiChannel::Attach(Ptr<FddiNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_setup, "FddiChannel::Attach: the ring is already running");
    m_devices.push_back(device);
    if (m_devices.size() == 1)
    {
        // The ring comes up when the simulation starts (or now, if it is running).
        Simulator::ScheduleNow(&FddiChannel::Setup, this);
    }
    return m_devices.size() - 1;
}

std::size_t
FddiChannel::GetNDevices() const
{
    return m_devices.size();
}

Ptr<NetDevice>
FddiChannel::GetDevice(std::size_t i) const
{
    return m_devices.at(i);
}

Time
FddiChannel::GetTtrt() const
{
    return m_ttrt;
}

DataRate
FddiChannel::GetDataRate() const
{
    return m_rate;
}

Time
FddiChannel::GetTokenTime() const
{
    return m_rate.CalculateBytesTxTime(11);
}

Time
FddiChannel::GetRingLatency() const
{
    const_cast<FddiChannel*>(this)->Setup();
    return m_ringLatency;
}

uint64_t
FddiChannel::GetTokenPasses() const
{
    return m_passes;
}

void
FddiChannel::Setup()
{
    if (m_setup)
    {
        return;
    }
    NS_ABORT_MSG_IF(m_devices.size() < 2, "FddiChannel: a ring needs at least 2 stations");
    m_setup = true;
    const Time hop
        = NanoSeconds(std::llround(m_fibreLength / 1000.0 * m_fibreDelayPerKm.GetNanoSeconds()))
          + m_stationLatency;
    m_hop.assign(m_devices.size(), hop);
    m_ringLatency = Seconds(0);
    for (const Time& h : m_hop)
    {
        m_ringLatency += h;
    }
    NS_ABORT_MSG_IF(!m_ringLatency.IsStrictlyPositive(),
                    "FddiChannel: the ring latency must be > 0 (FibreLength or StationLatency)");
    NS_ABORT_MSG_IF(m_ringLatency + GetTokenTime() >= m_ttrt,
                    "FddiChannel: Ttrt=" << m_ttrt.As(Time::MS) << " must exceed the ring latency "
                                         << m_ringLatency.As(Time::US));
    // The ring comes up now, at the end of the claim process: the idle token reaches station 0
    // now, having passed every station once before (parked at the last station one hop ago).
    const uint32_t last = m_devices.size() - 1;
    m_parked = true;
    m_parkStation = last;
    m_parkTime = Simulator::Now() - m_hop[last];
    for (uint32_t i = 0; i < m_devices.size(); ++i)
    {
        m_devices[i]->RingUp(i == last ? m_parkTime : m_parkTime + Path(last, i) - m_ringLatency);
    }
    if (!m_parkIdle)
    {
        m_parked = false;
        m_tokenEvent = Simulator::Schedule(m_hop[last] - (Simulator::Now() - m_parkTime),
                                           &FddiChannel::TokenArrive,
                                           this,
                                           0);
    }
}

Time
FddiChannel::Hop(uint32_t station) const
{
    return m_hop[station];
}

Time
FddiChannel::Path(uint32_t from, uint32_t to) const
{
    Time d;
    for (uint32_t k = from; k != to; k = (k + 1) % m_devices.size())
    {
        d += m_hop[k];
    }
    return d;
}

bool
FddiChannel::AnyPending() const
{
    for (const auto& d : m_devices)
    {
        if (d->HasPending())
        {
            return true;
        }
    }
    return false;
}

void
FddiChannel::NotifyPending(uint32_t station)
{
    NS_LOG_FUNCTION(this << station);
    Setup();
    if (!m_parked)
    {
        return;
    }
    m_parked = false;
    // Where the idle token is now: it reached station m_parkStation at m_parkTime and has been
    // going round every D since.
    const uint32_t n = m_devices.size();
    const Time now = Simulator::Now();
    const int64_t d = m_ringLatency.GetTimeStep();
    const int64_t r = (now - m_parkTime).GetTimeStep();
    const int64_t rounds = r / d;
    const int64_t rem = r - rounds * d;
    Time cum;
    uint32_t m = 0;
    do
    {
        cum += m_hop[(m_parkStation + m) % n];
        ++m;
    } while (cum.GetTimeStep() < rem);
    const uint32_t next = (m_parkStation + m) % n;
    const Time nextArrival = m_parkTime + TimeStep(rounds * d) + cum;
    // Every station's timers see the idle rotations before now.
    Time first;
    for (uint32_t k = 1; k <= n; ++k)
    {
        first += m_hop[(m_parkStation + k - 1) % n];
        const uint32_t s = (m_parkStation + k) % n;
        if (m_parkTime + first < now)
        {
            m_passes += m_devices[s]->IdleVisits(m_parkTime + first, m_ringLatency, now);
        }
    }
    m_tokenEvent = Simulator::Schedule(nextArrival - now, &FddiChannel::TokenArrive, this, next);
}

void
FddiChannel::TokenArrive(uint32_t station)
{
    ++m_passes;
    if (m_devices[station]->TokenArrived())
    {
        m_tokenTrace(station, m_devices[station]->GetLastRotation());
        return;
    }
    if (m_parkIdle && !AnyPending())
    {
        m_parked = true;
        m_parkStation = station;
        m_parkTime = Simulator::Now();
        return;
    }
    const uint32_t next = (station + 1) % m_devices.size();
    m_tokenEvent = Simulator::Schedule(Hop(station), &FddiChannel::TokenArrive, this, next);
}

void
FddiChannel::ReleaseToken(uint32_t station)
{
    const uint32_t next = (station + 1) % m_devices.size();
    m_tokenEvent
        = Simulator::Schedule(GetTokenTime() + Hop(station), &FddiChannel::TokenArrive, this, next);
}

void
FddiChannel::Transmit(uint32_t station, Ptr<const Packet> packet, Mac48Address dst, Time duration)
{
    const bool group = dst.IsGroup();
    for (uint32_t j = 0; j < m_devices.size(); ++j)
    {
        if (j == station || (!group && m_devices[j]->GetMacAddress() != dst))
        {
            continue;
        }
        Simulator::ScheduleWithContext(m_devices[j]->GetNode()->GetId(),
                                       duration + Path(station, j),
                                       &FddiChannel::Deliver,
                                       this,
                                       j,
                                       packet->Copy());
    }
}

void
FddiChannel::Deliver(uint32_t station, Ptr<Packet> packet)
{
    m_devices[station]->Receive(packet);
}

} // namespace ns3
