/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-fabric.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ethernet-framing.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchFabric");

NS_OBJECT_ENSURE_REGISTERED(SwitchFabric);

namespace
{
uint64_t
MacKey(Mac48Address a)
{
    uint8_t b[6];
    a.CopyTo(b);
    uint64_t k = 0;
    for (uint8_t x : b)
    {
        k = (k << 8) | x;
    }
    return k;
}
} // namespace

TypeId
SwitchFabric::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SwitchFabric")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<SwitchFabric>()
              .AddAttribute("ForwardingCapacity",
                            "Forwarding decisions per second of the switching engine (frames/s); "
                            "0 = unlimited (no engine delay, no engine drops).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&SwitchFabric::m_capacity),
                            MakeDoubleChecker<double>(0.0, 1e12))
              .AddAttribute("EngineQueueLimit",
                            "Frames that may wait for the switching engine; more are dropped "
                            "(ENGINE_OVERFLOW).",
                            UintegerValue(1000),
                            MakeUintegerAccessor(&SwitchFabric::m_queueLimit),
                            MakeUintegerChecker<uint32_t>(0, 100000000))
              .AddAttribute("DropProbability",
                            "Probability that a frame copy leaving through a port is dropped "
                            "(independent per copy).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&SwitchFabric::m_dropProbability),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("MacTableCapacity",
                            "Entries of the MAC address table (frames to unlearned addresses are "
                            "flooded).",
                            UintegerValue(16384),
                            MakeUintegerAccessor(&SwitchFabric::m_macCapacity),
                            MakeUintegerChecker<uint32_t>(1, 100000000))
              .AddAttribute("MacAgingTime",
                            "Time after which an address not seen again is forgotten.",
                            TimeValue(Seconds(300)),
                            MakeTimeAccessor(&SwitchFabric::m_macAging),
                            MakeTimeChecker(MilliSeconds(1)))
              .AddAttribute("ArbitrationCycle",
                            "Cycle of the round-robin bus arbiter of a shared-bus switch: a frame "
                            "fully received waits for its ingress port's next grant (0 to one "
                            "cycle), then crosses the bus at BusRate; 0 = no bus stage.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&SwitchFabric::m_cycle),
                            MakeTimeChecker(Seconds(0), Seconds(1)))
              .AddAttribute("ArbitrationSlots",
                            "Ports granted per arbitration cycle (port p's grant is at p mod "
                            "ArbitrationSlots slots of ArbitrationCycle / ArbitrationSlots).",
                            UintegerValue(16),
                            MakeUintegerAccessor(&SwitchFabric::m_slots),
                            MakeUintegerChecker<uint32_t>(1, 4096))
              .AddAttribute("BusRate",
                            "Rate at which a granted frame crosses the bus (bit/s; with "
                            "ArbitrationCycle > 0).",
                            DataRateValue(DataRate("2.56Gbps")),
                            MakeDataRateAccessor(&SwitchFabric::m_busRate),
                            MakeDataRateChecker())
              .AddAttribute("ArbitrationFreeRunning",
                            "The arbiter runs on the switch's own oscillator: the grants' phase "
                            "is drawn uniform over one cycle at the first crossing, and their "
                            "rate is offset from the simulation's time by ArbitrationClockOffset "
                            "plus a draw uniform within +-ArbitrationClockTolerance; false = "
                            "grants at k * ArbitrationCycle from t = 0.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&SwitchFabric::m_freeRunning),
                            MakeBooleanChecker())
              .AddAttribute("ArbitrationClockTolerance",
                            "Bound of the free-running arbiter's rate offset drawn per run "
                            "(ppm, uniform within +-this; with ArbitrationFreeRunning).",
                            DoubleValue(50.0),
                            MakeDoubleAccessor(&SwitchFabric::m_clockTolerance),
                            MakeDoubleChecker<double>(0.0, 1000.0))
              .AddAttribute("ArbitrationClockOffset",
                            "Fixed rate offset of the free-running arbiter's clock (ppm; "
                            "positive = grants come faster; with ArbitrationFreeRunning).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&SwitchFabric::m_clockOffset),
                            MakeDoubleChecker<double>(-1000.0, 1000.0))
              .AddAttribute("ForwardingMode",
                            "When the switch decides where a frame goes: StoreAndForward when "
                            "its last bit is in; CutThrough when its destination address is in "
                            "(preamble, SFD and 6 octets); FragmentFree when its first 64 octets "
                            "are. An early frame starts on a free full-duplex output of its "
                            "input's rate from then on.",
                            EnumValue(STORE_AND_FORWARD),
                            MakeEnumAccessor<ForwardingMode>(&SwitchFabric::m_mode),
                            MakeEnumChecker(STORE_AND_FORWARD,
                                            "StoreAndForward",
                                            CUT_THROUGH,
                                            "CutThrough",
                                            FRAGMENT_FREE,
                                            "FragmentFree"))
              .AddTraceSource("Drop",
                              "A frame (copy) was dropped: packet, port, DropReason.",
                              MakeTraceSourceAccessor(&SwitchFabric::m_dropTrace),
                              "ns3::SwitchFabric::DropTracedCallback")
              .AddTraceSource("MacLearnFailed",
                              "A source address was not learned because the MAC table is full.",
                              MakeTraceSourceAccessor(&SwitchFabric::m_macFailTrace),
                              "ns3::SwitchFabric::MacTracedCallback");
    return tid;
}

SwitchFabric::SwitchFabric()
{
    m_rng = CreateObject<UniformRandomVariable>();
}

SwitchFabric::~SwitchFabric()
{
}

void
SwitchFabric::DoDispose()
{
    m_serveEvent.Cancel();
    m_queue.clear();
    m_mac.clear();
    m_forward = ForwardCallback();
    Object::DoDispose();
}

void
SwitchFabric::SetForwardCallback(ForwardCallback cb)
{
    m_forward = cb;
}

int64_t
SwitchFabric::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

void
SwitchFabric::MarkEarlyDecision(Frame& frame, uint32_t payload, DataRate rate) const
{
    if (m_mode == STORE_AND_FORWARD)
    {
        return;
    }
    // The frame's preamble began (8 + frame octets) octet times before its last bit came in;
    // the switch decides once the preamble, SFD and the first 6 (cut-through) or 64
    // (fragment-free) octets of the frame are in.
    const uint32_t wire = EthernetFraming::PREAMBLE + EthernetFraming::FrameOctets(payload);
    const uint32_t decided
        = EthernetFraming::PREAMBLE + (m_mode == CUT_THROUGH ? 6 : EthernetFraming::MIN_FRAME);
    frame.cutThrough = true;
    frame.early = Simulator::Now() - rate.CalculateBytesTxTime(wire - decided);
}

void
SwitchFabric::Ingress(const Frame& frame)
{
    if (m_cycle.IsStrictlyPositive())
    {
        // On the bus the frame has its Ethernet header and FCS (14 + 4 bytes).
        const Time now = Simulator::Now();
        const Time done = BusCrossing(frame.inPort,
                                      frame.GetSize() + 18,
                                      frame.cutThrough ? frame.early : now,
                                      frame.cutThrough);
        if (!frame.cutThrough)
        {
            Simulator::Schedule(done - now, &SwitchFabric::EngineIngress, this, frame);
            return;
        }
        Frame f = frame;
        if (done <= now)
        {
            f.early = done;
            EngineIngress(f);
            return;
        }
        f.cutThrough = false; // it starts when it has crossed: then, for the output
        Simulator::Schedule(done - now, &SwitchFabric::EngineIngress, this, f);
        return;
    }
    EngineIngress(frame);
}

Time
SwitchFabric::BusCrossing(uint32_t port, uint32_t bytes, Time from, bool early)
{
    const Time now = from; // when the frame asks for the bus
    const int64_t cycle = m_cycle.GetTimeStep();
    const uint32_t slot = port == UINT32_MAX ? 0 : port % m_slots;
    const int64_t offset = cycle * slot / m_slots;
    Time grant;
    if (m_freeRunning)
    {
        grant = FreeRunningGrant(now, offset);
    }
    else
    {
        // The port's first grant at or after now: k * cycle + offset >= now.
        int64_t k = (now.GetTimeStep() - offset + cycle - 1) / cycle;
        k = std::max<int64_t>(k, 0);
        grant = TimeStep(k * cycle + offset);
    }
    // The port's frames cross one after the other, in arrival order.
    auto it = m_portBusFree.find(port);
    if (it != m_portBusFree.end() && it->second > grant)
    {
        grant = it->second;
    }
    Time done = grant + m_busRate.CalculateBytesTxTime(bytes);
    m_portBusFree[port] = done;
    if (early)
    {
        // The header crosses at the grant and the rest as it comes in (the bus is faster than
        // the port): the output may start when the header has crossed, and the port's next
        // frame crosses after this one's last bit is in.
        m_portBusFree[port] = std::max(done, Simulator::Now());
        done = grant + m_busRate.CalculateBytesTxTime(EthernetFraming::HEADER);
    }
    NS_LOG_LOGIC("port " << port << " frame of " << bytes << " B: grant " << grant.As(Time::US)
                         << ", crossed " << done.As(Time::US));
    return done;
}

Time
SwitchFabric::FreeRunningGrant(Time now, int64_t offset)
{
    const auto cycle = static_cast<long double>(m_cycle.GetTimeStep());
    if (!m_clockDrawn)
    {
        // One phase and one rate per run, from the fabric's own stream.
        m_phase = m_rng->GetValue(0.0, 1.0) * cycle;
        const double ppm = m_clockOffset + m_rng->GetValue(-m_clockTolerance, m_clockTolerance);
        m_rate = 1.0L + static_cast<long double>(ppm) * 1e-6L;
        m_clockDrawn = true;
        NS_LOG_INFO("free-running arbiter: phase " << static_cast<double>(m_phase)
                                                   << " steps, rate offset " << ppm << " ppm");
    }
    const long double t = static_cast<long double>(now.GetTimeStep());
    // The slot's first grant at or after now on the arbiter's clock: a = k * cycle + offset.
    const long double a = m_phase + t * m_rate;
    const long double k = std::ceil((a - static_cast<long double>(offset)) / cycle);
    const long double g = (k * cycle + static_cast<long double>(offset) - m_phase) / m_rate;
    const auto step = static_cast<int64_t>(std::ceil(g));
    return TimeStep(std::max(step, now.GetTimeStep()));
}

void
SwitchFabric::EngineIngress(const Frame& frame)
{
    if (m_capacity <= 0.0)
    {
        ++m_forwarded;
        m_forward(frame);
        return;
    }
    if (!m_busy)
    {
        if (frame.cutThrough)
        {
            // Decided early: its service began at the decision, or when the engine's last
            // service ended after that; it may leave when the service ends.
            const Time now = Simulator::Now();
            const Time end = std::max(frame.early, m_engineFree) + Seconds(1.0 / m_capacity);
            m_engineFree = end;
            if (end <= now)
            {
                Frame f = frame;
                f.early = end;
                ++m_forwarded;
                m_forward(f);
                return;
            }
            m_busy = true;
            m_queue.push_back(frame);
            m_queue.back().cutThrough = false; // it starts when it is served: then, for the output
            m_serveEvent = Simulator::Schedule(end - now, &SwitchFabric::Serve, this);
            return;
        }
        m_busy = true;
        m_queue.push_back(frame);
        m_serveEvent = Simulator::Schedule(Seconds(1.0 / m_capacity), &SwitchFabric::Serve, this);
        return;
    }
    // m_queue holds the frame in service at its head.
    if (m_queue.size() > m_queueLimit)
    {
        NotifyDrop(frame, frame.inPort, ENGINE_OVERFLOW);
        return;
    }
    m_queue.push_back(frame);
}

void
SwitchFabric::Serve()
{
    NS_ASSERT(!m_queue.empty());
    Frame f = std::move(m_queue.front());
    m_queue.pop_front();
    if (!m_queue.empty())
    {
        m_serveEvent = Simulator::Schedule(Seconds(1.0 / m_capacity), &SwitchFabric::Serve, this);
    }
    else
    {
        m_busy = false;
        m_engineFree = Simulator::Now();
    }
    ++m_forwarded;
    m_forward(f);
}

uint32_t
SwitchFabric::GetEngineQueueLength() const
{
    return m_busy ? static_cast<uint32_t>(m_queue.size() - 1) : 0;
}

bool
SwitchFabric::DrawDrop()
{
    return m_dropProbability > 0.0 && m_rng->GetValue() < m_dropProbability;
}

bool
SwitchFabric::RandomDrop(Ptr<const Packet> packet, uint32_t port)
{
    if (!DrawDrop())
    {
        return false;
    }
    NotifyDrop(packet, port, RANDOM_DROP);
    return true;
}

bool
SwitchFabric::RandomDrop(const Frame& frame, uint32_t port)
{
    if (!DrawDrop())
    {
        return false;
    }
    NotifyDrop(frame, port, RANDOM_DROP);
    return true;
}

void
SwitchFabric::PurgeAged()
{
    const Time now = Simulator::Now();
    for (auto it = m_mac.begin(); it != m_mac.end();)
    {
        it = it->second.expiry <= now ? m_mac.erase(it) : std::next(it);
    }
}

bool
SwitchFabric::Learn(Mac48Address addr, uint32_t port)
{
    const uint64_t k = MacKey(addr);
    const Time expiry = Simulator::Now() + m_macAging;
    auto it = m_mac.find(k);
    if (it != m_mac.end())
    {
        it->second.port = port;
        it->second.expiry = expiry;
        return true;
    }
    if (m_mac.size() >= m_macCapacity)
    {
        PurgeAged();
        if (m_mac.size() >= m_macCapacity)
        {
            m_macFailTrace(addr, port);
            return false;
        }
    }
    m_mac.emplace(k, MacEntry{port, expiry});
    return true;
}

int64_t
SwitchFabric::Lookup(Mac48Address addr)
{
    auto it = m_mac.find(MacKey(addr));
    if (it == m_mac.end())
    {
        return -1;
    }
    if (it->second.expiry <= Simulator::Now())
    {
        m_mac.erase(it);
        return -1;
    }
    return it->second.port;
}

uint32_t
SwitchFabric::GetMacTableSize() const
{
    return static_cast<uint32_t>(m_mac.size());
}

void
SwitchFabric::FlushMacTable()
{
    m_mac.clear();
}

void
SwitchFabric::NotifyDrop(Ptr<const Packet> packet, uint32_t port, DropReason reason)
{
    NS_LOG_LOGIC("drop on port " << port << ": " << DropReasonName(reason));
    ++m_drops[reason];
    m_dropTrace(packet, port, reason);
}

void
SwitchFabric::NotifyDrop(const Frame& frame, uint32_t port, DropReason reason)
{
    NS_LOG_LOGIC("drop on port " << port << ": " << DropReasonName(reason));
    ++m_drops[reason];
    if (!m_dropTrace.IsEmpty())
    {
        m_dropTrace(frame.GetPacket(), port, reason);
    }
}

uint64_t
SwitchFabric::GetDropCount(DropReason reason) const
{
    NS_ABORT_MSG_IF(reason >= N_DROP_REASONS, "SwitchFabric: bad drop reason " << +reason);
    return m_drops[reason];
}

uint64_t
SwitchFabric::GetForwardedCount() const
{
    return m_forwarded;
}

const char*
SwitchFabric::DropReasonName(DropReason r)
{
    switch (r)
    {
        case ENGINE_OVERFLOW:
            return "engine-overflow";
        case RANDOM_DROP:
            return "random-drop";
        case OUTPUT_QUEUE_FULL:
            return "output-queue-full";
        case FILTERED:
            return "filtered";
        case MALFORMED_IGMP:
            return "malformed-igmp";
        case PORT_DOWN:
            return "port-down";
        default:
            return "?";
    }
}

} // namespace ns3
