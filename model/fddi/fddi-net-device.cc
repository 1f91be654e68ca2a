/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fddi-net-device.h"

#include "fddi-header.h"

#include "ns3/abort.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/llc-snap-header.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FddiNetDevice");
NS_OBJECT_ENSURE_REGISTERED(FddiNetDevice);

TypeId
FddiNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FddiNetDevice")
              .SetParent<NetDevice>()
              .SetGroupName("Testbed")
              .AddConstructor<FddiNetDevice>()
              .AddAttribute("Mtu",
                            "IP MTU (bytes); RFC 1390: 4352. The largest frame (4500 bytes with "
                            "preamble) allows 4464 after FC, addresses, LLC/SNAP and trailer",
                            UintegerValue(4352),
                            MakeUintegerAccessor(&FddiNetDevice::SetMtu, &FddiNetDevice::GetMtu),
                            MakeUintegerChecker<uint16_t>(68, 4464))
              .AddAttribute("AsyncQueue",
                            "Queue of asynchronous frames",
                            PointerValue(),
                            MakePointerAccessor(&FddiNetDevice::m_async),
                            MakePointerChecker<Queue<Packet>>())
              .AddAttribute("SyncQueue",
                            "Queue of synchronous frames",
                            PointerValue(),
                            MakePointerAccessor(&FddiNetDevice::m_sync),
                            MakePointerChecker<Queue<Packet>>())
              .AddAttribute("SynchronousAllocation",
                            "Time per token visit for synchronous frames (0: none)",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&FddiNetDevice::m_syncAllocation),
                            MakeTimeChecker(Seconds(0), Seconds(0.165)))
              .AddAttribute("SyncPriority",
                            "Frames whose SocketPriorityTag priority is at least this are "
                            "synchronous (256: none)",
                            UintegerValue(256),
                            MakeUintegerAccessor(&FddiNetDevice::m_syncPriority),
                            MakeUintegerChecker<uint32_t>(0, 256))
              .AddTraceSource("MacTx",
                              "A packet was accepted for sending",
                              MakeTraceSourceAccessor(&FddiNetDevice::m_macTxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacTxDrop",
                              "A packet was dropped before sending (queue full, too big)",
                              MakeTraceSourceAccessor(&FddiNetDevice::m_macTxDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacRx",
                              "A packet was received and passed up",
                              MakeTraceSourceAccessor(&FddiNetDevice::m_macRxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("Malformed",
                              "A frame too short for its headers was dropped",
                              MakeTraceSourceAccessor(&FddiNetDevice::m_malformedTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("Sniffer",
                              "Every frame sent or received (for pcap)",
                              MakeTraceSourceAccessor(&FddiNetDevice::m_snifferTrace),
                              "ns3::Packet::TracedCallback");
    return tid;
}

FddiNetDevice::FddiNetDevice()
    : m_mtu(4352)
    , m_syncPriority(256)
{
    NS_LOG_FUNCTION(this);
}

FddiNetDevice::~FddiNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
FddiNetDevice::DoDispose()
{
    m_channel = nullptr;
    m_node = nullptr;
    m_async = nullptr;
    m_sync = nullptr;
    m_rxCallback.Nullify();
    m_promiscCallback.Nullify();
    NetDevice::DoDispose();
}

void
FddiNetDevice::Attach(Ptr<FddiChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    NS_ABORT_MSG_IF(m_channel, "FddiNetDevice::Attach: already on a ring");
    if (!m_async)
    {
        m_async = CreateObject<DropTailQueue<Packet>>();
    }
    if (!m_sync)
    {
        m_sync = CreateObject<DropTailQueue<Packet>>();
    }
    m_channel = channel;
    m_station = channel->Attach(this);
}

Mac48Address
FddiNetDevice::GetMacAddress() const
{
    return m_address;
}

bool
FddiNetDevice::HasPending() const
{
    return !m_async->IsEmpty() || !m_sync->IsEmpty();
}

void
FddiNetDevice::RingUp(Time lastArrival)
{
    m_trtStart = lastArrival;
    m_lastArrival = lastArrival;
    m_lateCt = false;
}

Time
FddiNetDevice::Arrive(Time at)
{
    const Time ttrt = m_channel->GetTtrt();
    while (at - m_trtStart >= ttrt)
    {
        if (m_lateCt)
        {
            ++m_lateOverruns; // a real ring would start the claim process
        }
        m_lateCt = true;
        m_trtStart += ttrt;
    }
    m_lastRotation = at - m_lastArrival;
    m_lastArrival = at;
    if (m_lateCt)
    {
        m_lateCt = false;
        return Seconds(0);
    }
    Time tht = ttrt - (at - m_trtStart);
    m_trtStart = at;
    return tht;
}

uint64_t
FddiNetDevice::IdleVisits(Time first, Time period, Time until)
{
    uint64_t n = 0;
    for (Time a = first; a < until; a += period)
    {
        Arrive(a);
        ++n;
        if (!m_lateCt && m_trtStart == a)
        {
            // An early token restarted TRT: every later idle arrival (period < TTRT) is early
            // too and restarts it again, so only the last one before `until` matters.
            const int64_t more = (until - a - TimeStep(1)).GetTimeStep() / period.GetTimeStep();
            if (more > 0)
            {
                a += TimeStep(more * period.GetTimeStep());
                m_lastRotation = period;
                m_lastArrival = a;
                m_trtStart = a;
                n += more;
            }
            break;
        }
    }
    return n;
}

bool
FddiNetDevice::TokenArrived()
{
    m_tht = Arrive(Simulator::Now());
    const bool sync = !m_sync->IsEmpty() && m_syncAllocation.IsStrictlyPositive();
    const bool async = !m_async->IsEmpty() && m_tht.IsStrictlyPositive();
    if (!sync && !async)
    {
        return false;
    }
    m_holding = true;
    m_syncLeft = m_syncAllocation;
    m_asyncStarted = false;
    SendNext();
    return true;
}

Time
FddiNetDevice::FrameTime(Ptr<const Packet> packet) const
{
    return m_channel->GetDataRate().CalculateBytesTxTime(packet->GetSize() + WIRE_OVERHEAD);
}

void
FddiNetDevice::SendNext()
{
    Ptr<Packet> p;
    if (!m_sync->IsEmpty() && FrameTime(m_sync->Peek()) <= m_syncLeft)
    {
        p = m_sync->Dequeue();
        m_syncLeft -= FrameTime(p);
    }
    else if (!m_async->IsEmpty())
    {
        if (!m_asyncStarted)
        {
            m_asyncStarted = true;
            m_asyncDeadline = Simulator::Now() + m_tht;
        }
        if (Simulator::Now() < m_asyncDeadline)
        {
            p = m_async->Dequeue();
        }
    }
    if (!p)
    {
        m_holding = false;
        m_channel->ReleaseToken(m_station);
        return;
    }
    FddiHeader h;
    p->PeekHeader(h);
    const Time d = FrameTime(p);
    ++m_txFrames;
    m_snifferTrace(p);
    m_channel->Transmit(m_station, p, h.GetDestination(), d);
    Simulator::Schedule(d, &FddiNetDevice::SendNext, this);
}

void
FddiNetDevice::Receive(Ptr<Packet> packet)
{
    m_snifferTrace(packet);
    if (packet->GetSize() < FddiHeader::SIZE + LLC_SNAP)
    {
        ++m_malformed;
        m_malformedTrace(packet);
        return;
    }
    FddiHeader h;
    packet->RemoveHeader(h);
    LlcSnapHeader llc;
    packet->RemoveHeader(llc);
    const Mac48Address dst = h.GetDestination();
    NetDevice::PacketType type = dst == m_address    ? PACKET_HOST
                                 : dst.IsBroadcast() ? PACKET_BROADCAST
                                 : dst.IsGroup()     ? PACKET_MULTICAST
                                                     : PACKET_OTHERHOST;
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, llc.GetType(), h.GetSource(), dst, type);
    }
    if (type != PACKET_OTHERHOST)
    {
        m_macRxTrace(packet);
        m_rxCallback(this, packet, llc.GetType(), h.GetSource());
    }
}

bool
FddiNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
FddiNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& source,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    NS_ABORT_MSG_IF(!m_channel, "FddiNetDevice::Send: the device is on no ring");
    if (packet->GetSize() > m_mtu)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);
    bool sync = false;
    if (m_syncPriority < 256)
    {
        SocketPriorityTag prio;
        sync = packet->PeekPacketTag(prio) && prio.GetPriority() >= m_syncPriority;
    }
    LlcSnapHeader llc;
    llc.SetType(protocolNumber);
    packet->AddHeader(llc);
    FddiHeader h;
    h.SetFrameControl(sync ? FddiHeader::LLC_SYNC : FddiHeader::LLC_ASYNC);
    h.SetDestination(Mac48Address::ConvertFrom(dest));
    h.SetSource(Mac48Address::ConvertFrom(source));
    packet->AddHeader(h);
    const bool wasPending = HasPending();
    if (!(sync ? m_sync : m_async)->Enqueue(packet))
    {
        m_macTxDropTrace(packet);
        return false;
    }
    if (!wasPending && !m_holding)
    {
        m_channel->NotifyPending(m_station);
    }
    return true;
}

Time
FddiNetDevice::GetLastRotation() const
{
    return m_lastRotation;
}

uint64_t
FddiNetDevice::GetLateOverruns() const
{
    return m_lateOverruns;
}

uint64_t
FddiNetDevice::GetTxFrames() const
{
    return m_txFrames;
}

uint64_t
FddiNetDevice::GetMalformed() const
{
    return m_malformed;
}

void
FddiNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
FddiNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
FddiNetDevice::GetChannel() const
{
    return m_channel;
}

void
FddiNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
FddiNetDevice::GetAddress() const
{
    return m_address;
}

bool
FddiNetDevice::SetMtu(const uint16_t mtu)
{
    NS_ABORT_MSG_IF(mtu < 68 || mtu > 4464, "FddiNetDevice: Mtu=" << mtu << " outside [68, 4464]");
    m_mtu = mtu;
    return true;
}

uint16_t
FddiNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
FddiNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
FddiNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
FddiNetDevice::IsBroadcast() const
{
    return true;
}

Address
FddiNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
FddiNetDevice::IsMulticast() const
{
    return true;
}

Address
FddiNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
FddiNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
FddiNetDevice::IsBridge() const
{
    return false;
}

bool
FddiNetDevice::IsPointToPoint() const
{
    return false;
}

Ptr<Node>
FddiNetDevice::GetNode() const
{
    return m_node;
}

void
FddiNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
FddiNetDevice::NeedsArp() const
{
    return true;
}

void
FddiNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
FddiNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
FddiNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
