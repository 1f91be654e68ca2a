/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "full-duplex-ethernet-net-device.h"

#include "full-duplex-ethernet-channel.h"

#include "ns3/abort.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/fast-path.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FullDuplexEthernetNetDevice");

NS_OBJECT_ENSURE_REGISTERED(FullDuplexEthernetNetDevice);

namespace
{
constexpr uint16_t kVlan = 0x8100;
constexpr int64_t kNever = std::numeric_limits<int64_t>::min() / 2;
} // namespace

TypeId
FullDuplexEthernetNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FullDuplexEthernetNetDevice")
              .SetParent<EthernetPort>()
              .SetGroupName("Testbed")
              .AddConstructor<FullDuplexEthernetNetDevice>()
              .AddAttribute("DataRate",
                            "The link's rate (both directions).",
                            DataRateValue(DataRate("1Gbps")),
                            MakeDataRateAccessor(&FullDuplexEthernetNetDevice::SetDataRate,
                                                 &FullDuplexEthernetNetDevice::GetDataRate),
                            MakeDataRateChecker())
              .AddAttribute("MaxQueueFrames",
                            "Transmit queue (drop-tail): frames that may wait for the "
                            "transmitter; a frame that finds this many waiting is dropped.",
                            UintegerValue(100),
                            MakeUintegerAccessor(&FullDuplexEthernetNetDevice::SetMaxQueueFrames,
                                                 &FullDuplexEthernetNetDevice::GetMaxQueueFrames),
                            MakeUintegerChecker<uint32_t>(1, 1u << 24))
              .AddAttribute("Address",
                            "The MAC address of this device.",
                            Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                            MakeMac48AddressAccessor(&FullDuplexEthernetNetDevice::m_address),
                            MakeMac48AddressChecker())
              .AddAttribute("Mtu",
                            "The MAC-level Maximum Transmission Unit (payload octets).",
                            UintegerValue(1500),
                            MakeUintegerAccessor(&FullDuplexEthernetNetDevice::SetMtu,
                                                 &FullDuplexEthernetNetDevice::GetMtu),
                            MakeUintegerChecker<uint16_t>(46, 1500))
              .AddTraceSource("FrameTx",
                              "A frame taken for transmission: the payload, when its preamble "
                              "starts and when its last bit leaves (both may lie ahead).",
                              MakeTraceSourceAccessor(&FullDuplexEthernetNetDevice::m_frameTxTrace),
                              "ns3::FullDuplexEthernetNetDevice::FrameTxCallback");
    return tid;
}

FullDuplexEthernetNetDevice::FullDuplexEthernetNetDevice()
    : m_rate("1Gbps")
    , m_bps(m_rate.GetBitRate())
    , m_queueLimit(100)
    , m_txStart(kNever)
    , m_txFree(kNever)
    , m_lastBitEnd(kNever)
{
    NS_LOG_FUNCTION(this);
}

FullDuplexEthernetNetDevice::~FullDuplexEthernetNetDevice()
{
}

void
FullDuplexEthernetNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_channel = nullptr;
    m_peer = nullptr;
    m_leave.clear();
    m_queueInterface = nullptr;
    EthernetPort::DoDispose();
}

void
FullDuplexEthernetNetDevice::NotifyNewAggregate()
{
    if (!m_queueInterface)
    {
        m_queueInterface = GetObject<NetDeviceQueueInterface>();
    }
    EthernetPort::NotifyNewAggregate();
}

void
FullDuplexEthernetNetDevice::Attach(Ptr<FullDuplexEthernetChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    NS_ABORT_MSG_IF(m_channel, "FullDuplexEthernetNetDevice: already attached to a cable");
    NS_ABORT_MSG_IF(m_rate.GetBitRate() == 0, "FullDuplexEthernetNetDevice: DataRate is 0");
    m_channel = channel;
    channel->Attach(this);
}

void
FullDuplexEthernetNetDevice::SetReceiveContext(uint32_t context)
{
    m_receiveContext = context;
    if (m_peer)
    {
        m_peer->m_peerContext = context != UINT32_MAX ? context : m_node->GetId();
    }
}

void
FullDuplexEthernetNetDevice::LinkUp(Ptr<FullDuplexEthernetNetDevice> peer)
{
    NS_LOG_FUNCTION(this << peer);
    m_peer = peer;
    NS_ABORT_MSG_IF(
        !peer->GetNode(),
        "FullDuplexEthernetNetDevice: add both devices to their nodes before attaching");
    m_peerContext
        = peer->m_receiveContext != UINT32_MAX ? peer->m_receiveContext : peer->GetNode()->GetId();
    m_stepPs = TimeStep(1).GetPicoSeconds();
    NS_ABORT_MSG_IF(m_stepPs <= 0,
                    "FullDuplexEthernetNetDevice: the time resolution must be 1 ps or coarser");
    m_delayPs = m_channel->GetDelay().GetPicoSeconds();
    m_leave.assign(m_queueLimit, kNever);
    m_head = 0;
    NotifyLinkChange();
}

Ptr<FullDuplexEthernetNetDevice>
FullDuplexEthernetNetDevice::GetPeer() const
{
    return m_peer;
}

DataRate
FullDuplexEthernetNetDevice::GetDataRate() const
{
    return m_rate;
}

bool
FullDuplexEthernetNetDevice::IsFullDuplex() const
{
    return true;
}

DataRate
FullDuplexEthernetNetDevice::GetLinkRate() const
{
    return m_rate;
}

void
FullDuplexEthernetNetDevice::SetDataRate(DataRate rate)
{
    m_rate = rate;
    m_bps = rate.GetBitRate();
}

void
FullDuplexEthernetNetDevice::SetMaxQueueFrames(uint32_t frames)
{
    m_queueLimit = frames;
    if (m_peer)
    {
        // Set after the link came up (a helper's port queue): the queue starts empty again.
        m_leave.assign(m_queueLimit, kNever);
        m_head = 0;
    }
}

uint32_t
FullDuplexEthernetNetDevice::GetMaxQueueFrames() const
{
    return m_queueLimit;
}

const FullDuplexEthernetNetDevice::Stats&
FullDuplexEthernetNetDevice::GetStats() const
{
    return m_stats;
}

const EthernetPort::Counters&
FullDuplexEthernetNetDevice::GetCounters() const
{
    return m_stats;
}

int64_t
FullDuplexEthernetNetDevice::BitsToPs(uint64_t bits) const
{
    return static_cast<int64_t>((bits * 1000000000000ULL + m_bps - 1) / m_bps);
}

uint32_t
FullDuplexEthernetNetDevice::GetQueueLength() const
{
    const int64_t now = Simulator::Now().GetTimeStep() * m_stepPs;
    uint32_t n = 0;
    for (int64_t leave : m_leave)
    {
        n += leave > now ? 1 : 0;
    }
    return n;
}

// --- sending ---------------------------------------------------------------------------------

bool
FullDuplexEthernetNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendShared(packet, m_address, Mac48Address::ConvertFrom(dest), protocolNumber);
}

bool
FullDuplexEthernetNetDevice::SendFrom(Ptr<Packet> packet,
                                      const Address& source,
                                      const Address& dest,
                                      uint16_t protocolNumber)
{
    return SendShared(packet,
                      Mac48Address::ConvertFrom(source),
                      Mac48Address::ConvertFrom(dest),
                      protocolNumber);
}

bool
FullDuplexEthernetNetDevice::Admit(uint32_t payload, uint16_t protocol, int64_t& arrival)
{
    const int64_t now = fastpath::NowStep() * m_stepPs;
    // The queue is full if the oldest of the last MaxQueueFrames frames still waits.
    if (!m_peer || payload > m_mtu + (protocol == kVlan ? 4u : 0u) || m_leave[m_head] > now)
    {
        ++m_stats.txDrops;
        return false;
    }
    const uint32_t frame = FrameOctets(payload);
    // It leaves the queue when the previous frame's last bit has left (or now); it starts when
    // the gap behind that frame is over (or now).
    const int64_t leave = std::max(now, m_lastBitEnd);
    // A frame forwarded cut-through (EthernetPort::SendSharedCutThrough) may have started
    // before now, when the switch had its destination, if the transmitter was free then.
    const int64_t cut = m_cutThroughStart.GetTimeStep(); // Time::Max() if not cut-through
    const int64_t from = cut < now / m_stepPs ? cut * m_stepPs : now;
    // A host NIC fetches the frame from the host's memory first (TxFetchDelay; a frame queued
    // behind another was fetched while that one was sent).
    const int64_t start = std::max(from + m_txFetchDelay.GetTimeStep() * m_stepPs, m_txFree);
    m_txStart = start;
    m_lastBitEnd = start + BitsToPs(uint64_t(PREAMBLE + frame) * 8);
    m_txFree = m_lastBitEnd + BitsToPs(uint64_t(IFG) * 8);
    m_leave[m_head] = leave;
    m_head = m_head + 1 == m_queueLimit ? 0 : m_head + 1;
    ++m_stats.txFrames;
    m_stats.txBytes += frame;
    // The one event of the hop: the last bit at the peer (rounded up to the time resolution).
    arrival = (m_lastBitEnd + m_delayPs + m_stepPs - 1) / m_stepPs - now / m_stepPs;
    if (m_queueInterface)
    {
        StopIfFull(now);
    }
    return true;
}

void
FullDuplexEthernetNetDevice::StopIfFull(int64_t now)
{
    // Full: the next frame would find MaxQueueFrames frames waiting (Admit's test).
    if (m_leave[m_head] <= now)
    {
        return;
    }
    m_queueInterface->GetTxQueue(0)->Stop();
    if (!m_wakePending)
    {
        m_wakePending = true;
        const int64_t at = (m_leave[m_head] + m_stepPs - 1) / m_stepPs;
        Simulator::Schedule(TimeStep(at - now / m_stepPs),
                            &FullDuplexEthernetNetDevice::WakeQueue,
                            this);
    }
}

void
FullDuplexEthernetNetDevice::WakeQueue()
{
    m_wakePending = false;
    const int64_t now = Simulator::Now().GetTimeStep() * m_stepPs;
    if (m_leave[m_head] > now)
    {
        StopIfFull(now); // filled again meanwhile (a sender that ignores the stop)
        return;
    }
    m_queueInterface->GetTxQueue(0)->Wake();
}

bool
FullDuplexEthernetNetDevice::SendShared(Ptr<const Packet> packet,
                                        Mac48Address source,
                                        Mac48Address dest,
                                        uint16_t protocol)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocol);
    int64_t arrival;
    if (!Admit(packet->GetSize(), protocol, arrival))
    {
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);
    if (!m_frameTxTrace.IsEmpty())
    {
        m_frameTxTrace(packet, PicoSeconds(m_txStart), PicoSeconds(m_lastBitEnd));
    }
    if (!m_snifferTrace.IsEmpty() || !m_promiscSnifferTrace.IsEmpty())
    {
        Ptr<Packet> f = BuildFrame(packet, source, dest, protocol);
        m_snifferTrace(f);
        m_promiscSnifferTrace(f);
    }
    Simulator::ScheduleWithContext(m_peerContext,
                                   TimeStep(arrival),
                                   &FullDuplexEthernetNetDevice::Receive,
                                   PeekPointer(m_peer),
                                   packet,
                                   source,
                                   dest,
                                   protocol);
    return true;
}

bool
FullDuplexEthernetNetDevice::SendFrame(const FrameDescriptor& frame,
                                       Mac48Address source,
                                       Mac48Address dest)
{
    int64_t arrival;
    if (!Admit(frame.GetSize(), frame.GetProtocol(), arrival))
    {
        if (!m_macTxDropTrace.IsEmpty())
        {
            m_macTxDropTrace(frame.MakePacket());
        }
        return false;
    }
    if (!m_macTxTrace.IsEmpty() || !m_snifferTrace.IsEmpty() || !m_promiscSnifferTrace.IsEmpty()
        || !m_frameTxTrace.IsEmpty())
    {
        Ptr<Packet> p = frame.MakePacket();
        m_macTxTrace(p);
        m_frameTxTrace(p, PicoSeconds(m_txStart), PicoSeconds(m_lastBitEnd));
        if (!m_snifferTrace.IsEmpty() || !m_promiscSnifferTrace.IsEmpty())
        {
            Ptr<Packet> f = BuildFrame(p, source, dest, frame.GetProtocol());
            m_snifferTrace(f);
            m_promiscSnifferTrace(f);
        }
    }
    FullDuplexEthernetNetDevice* peer = PeekPointer(m_peer);
    fastpath::ScheduleWithContext(m_peerContext, arrival, [peer, frame, source, dest]() {
        peer->ReceiveFrame(frame, source, dest);
    });
    return true;
}

void
FullDuplexEthernetNetDevice::Deliver(Ptr<const Packet> packet,
                                     Mac48Address source,
                                     Mac48Address dest,
                                     uint16_t protocol)
{
    Receive(packet, source, dest, protocol);
}

Time
FullDuplexEthernetNetDevice::GetLastArrival() const
{
    // As Admit rounds it: up to the time resolution.
    return TimeStep((m_lastBitEnd + m_delayPs + m_stepPs - 1) / m_stepPs);
}

void
FullDuplexEthernetNetDevice::ReceiveFrame(FrameDescriptor frame,
                                          Mac48Address source,
                                          Mac48Address dest)
{
    if (m_frameCallback.IsNull())
    {
        Receive(frame.MakePacket(), source, dest, frame.GetProtocol());
        return;
    }
    ++m_stats.rxFrames;
    m_stats.rxBytes += FrameOctets(frame.GetSize());
    if (!m_snifferTrace.IsEmpty() || !m_promiscSnifferTrace.IsEmpty() || !m_macRxTrace.IsEmpty()
        || !m_macPromiscRxTrace.IsEmpty())
    {
        Ptr<Packet> p = frame.MakePacket();
        Ptr<Packet> f = BuildFrame(p, source, dest, frame.GetProtocol());
        const bool mine = dest.IsGroup() || dest == m_address;
        if (mine)
        {
            m_snifferTrace(f);
            m_macRxTrace(p);
        }
        m_promiscSnifferTrace(f);
        m_macPromiscRxTrace(p);
    }
    m_frameCallback(this, frame, source, dest);
}

Ptr<Packet>
FullDuplexEthernetNetDevice::BuildFrame(Ptr<const Packet> packet,
                                        Mac48Address source,
                                        Mac48Address dest,
                                        uint16_t protocol)
{
    Ptr<Packet> f = packet->Copy();
    if (f->GetSize() < MIN_PAYLOAD)
    {
        // Zero pad octets (Create<Packet>(n) is n zeros): ns-3's AddPaddingAtEnd leaves them
        // unset (stale heap memory, as the "Etherleak" drivers did; Linux pads with zeros).
        f->AddAtEnd(Create<Packet>(MIN_PAYLOAD - f->GetSize()));
    }
    EthernetHeader header(false);
    header.SetSource(source);
    header.SetDestination(dest);
    header.SetLengthType(protocol);
    f->AddHeader(header);
    f->AddTrailer(EthernetTrailer());
    return f;
}

// --- receiving -------------------------------------------------------------------------------

void
FullDuplexEthernetNetDevice::Receive(Ptr<const Packet> packet,
                                     Mac48Address source,
                                     Mac48Address dest,
                                     uint16_t protocol)
{
    NS_LOG_FUNCTION(this << packet);
    ++m_stats.rxFrames;
    m_stats.rxBytes += FrameOctets(packet->GetSize());
    if (packet->GetSize() < MIN_PAYLOAD)
    {
        // A short frame reaches the upper layers with its padding, as from a NIC (and from
        // ns-3's CSMA and the 802.3 device); only these few frames are copied.
        Ptr<Packet> padded = packet->Copy();
        padded->AddAtEnd(Create<Packet>(MIN_PAYLOAD - packet->GetSize())); // zeros
        packet = padded;
    }
    const NetDevice::PacketType type = Classify(dest);
    if (!m_snifferTrace.IsEmpty() || !m_promiscSnifferTrace.IsEmpty())
    {
        Ptr<Packet> f = BuildFrame(packet, source, dest, protocol);
        if (type != NetDevice::PACKET_OTHERHOST)
        {
            m_snifferTrace(f);
        }
        m_promiscSnifferTrace(f);
    }
    if (!m_promiscCallback.IsNull())
    {
        m_macPromiscRxTrace(packet);
        m_promiscCallback(this, packet, protocol, source, dest, type);
    }
    if (type != NetDevice::PACKET_OTHERHOST && !m_rxCallback.IsNull())
    {
        m_macRxTrace(packet);
        m_rxCallback(this, packet, protocol, source);
    }
}

// --- NetDevice -------------------------------------------------------------------------------

Ptr<Channel>
FullDuplexEthernetNetDevice::GetChannel() const
{
    return m_channel;
}

bool
FullDuplexEthernetNetDevice::IsLinkUp() const
{
    return m_peer != nullptr;
}

} // namespace ns3
