/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-net-device.h"

#include "ethernet-channel.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/fast-path.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetNetDevice");

NS_OBJECT_ENSURE_REGISTERED(EthernetNetDevice);

TypeId
EthernetNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::EthernetNetDevice")
              .SetParent<EthernetPort>()
              .SetGroupName("Testbed")
              .AddConstructor<EthernetNetDevice>()
              .AddAttribute("DataRate",
                            "The NIC's rate: 10, 100 or 1000 Mbit/s (the highest it offers when "
                            "autonegotiating, its rate when forced).",
                            DataRateValue(DataRate("100Mbps")),
                            MakeDataRateAccessor(&EthernetNetDevice::m_rate),
                            MakeDataRateChecker())
              .AddAttribute("Duplex",
                            "Duplex configuration: Auto (IEEE 802.3 clause 28 autonegotiation, "
                            "with parallel detection), ForcedFull or ForcedHalf.",
                            EnumValue(AUTO),
                            MakeEnumAccessor<Duplex>(&EthernetNetDevice::m_duplex),
                            MakeEnumChecker(AUTO,
                                            "Auto",
                                            FORCED_FULL,
                                            "ForcedFull",
                                            FORCED_HALF,
                                            "ForcedHalf"))
              .AddAttribute("LateCollision",
                            "Half duplex: a frame after a late collision is abandoned "
                            "(Discard, what the era's controllers did) or backed off and retried "
                            "as after any collision (Retry).",
                            EnumValue(LATE_DISCARD),
                            MakeEnumAccessor<LateCollision>(&EthernetNetDevice::m_latePolicy),
                            MakeEnumChecker(LATE_DISCARD, "Discard", LATE_RETRY, "Retry"))
              .AddAttribute(
                  "ReceiveWhileSending",
                  "Half duplex on a cable: a frame that begins to arrive while the "
                  "station sends is discarded (Damaged: the MAC takes it for a "
                  "collision) or passed up (Intact: its pair is separate).",
                  EnumValue(RX_DAMAGED),
                  MakeEnumAccessor<ReceiveWhileSending>(&EthernetNetDevice::m_rxWhileSending),
                  MakeEnumChecker(RX_DAMAGED, "Damaged", RX_INTACT, "Intact"))
              .AddAttribute("Address",
                            "The MAC address of this device.",
                            Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                            MakeMac48AddressAccessor(&EthernetNetDevice::m_address),
                            MakeMac48AddressChecker())
              .AddAttribute(
                  "Mtu",
                  "The MAC-level Maximum Transmission Unit (payload octets).",
                  UintegerValue(1500),
                  MakeUintegerAccessor(&EthernetNetDevice::SetMtu, &EthernetNetDevice::GetMtu),
                  MakeUintegerChecker<uint16_t>(46, 1500))
              .AddAttribute("ChecksumEnabled",
                            "Compute the FCS on sending and check it on receiving (a damaged "
                            "frame is known to be damaged either way).",
                            BooleanValue(false),
                            MakeBooleanAccessor(&EthernetNetDevice::m_checksum),
                            MakeBooleanChecker())
              .AddAttribute("TxQueue",
                            "The transmit queue.",
                            PointerValue(),
                            MakePointerAccessor(&EthernetNetDevice::m_queue),
                            MakePointerChecker<Queue<Packet>>())
              .AddTraceSource("PhyTxBegin",
                              "A frame (an attempt) began on the wire.",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_phyTxBeginTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyTxEnd",
                              "A frame was sent whole.",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_phyTxEndTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyTxDrop",
                              "A frame was discarded by the MAC (excessive or late collision).",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_phyTxDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyRxEnd",
                              "A frame arrived whole and undamaged.",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_phyRxEndTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyRxDrop",
                              "A damaged frame or fragment was discarded on reception.",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_phyRxDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("Deferral",
                              "A frame had to wait for the carrier (counted once per frame).",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_deferralTrace),
                              "ns3::TracedCallback::Void")
              .AddTraceSource("Collision",
                              "A collision while sending (attempt number, late).",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_collisionTrace),
                              "ns3::EthernetNetDevice::CollisionTracedCallback")
              .AddTraceSource("Backoff",
                              "A backoff was drawn (attempt number, slots).",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_backoffTrace),
                              "ns3::EthernetNetDevice::BackoffTracedCallback")
              .AddTraceSource("ExcessiveCollisions",
                              "A frame was discarded after 16 collisions.",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_excessiveTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("LateCollision",
                              "A frame was discarded after a late collision.",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_lateTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("RxRunt",
                              "A fragment of fewer than 64 octets arrived (frame, octets).",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_runtTrace),
                              "ns3::EthernetNetDevice::DamagedTracedCallback")
              .AddTraceSource("RxFcsError",
                              "A damaged frame of 64 octets or more arrived (frame, octets).",
                              MakeTraceSourceAccessor(&EthernetNetDevice::m_fcsTrace),
                              "ns3::EthernetNetDevice::DamagedTracedCallback");
    return tid;
}

EthernetNetDevice::EthernetNetDevice()
    : m_rate("100Mbps")
    , m_duplex(AUTO)
    , m_checksum(false)
{
    NS_LOG_FUNCTION(this);
    m_backoffRng = CreateObject<UniformRandomVariable>();
    // Silent since long before the start: a first frame need not wait for a gap.
    m_idleSince = Seconds(-1);
    m_gapReady = Seconds(-1);
}

EthernetNetDevice::~EthernetNetDevice()
{
}

void
EthernetNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_channel = nullptr;
    m_queue = nullptr;
    m_current = nullptr;
    m_queueInterface = nullptr;
    m_backoffRng = nullptr;
    m_incoming.clear();
    m_fetched.clear();
    EthernetPort::DoDispose();
}

void
EthernetNetDevice::NotifyNewAggregate()
{
    if (!m_queueInterface)
    {
        if (Ptr<NetDeviceQueueInterface> ndqi = GetObject<NetDeviceQueueInterface>())
        {
            m_queueInterface = ndqi;
            if (m_queue)
            {
                ndqi->GetTxQueue(0)->ConnectQueueTraces(m_queue);
            }
        }
    }
    NetDevice::NotifyNewAggregate();
}

void
EthernetNetDevice::Attach(Ptr<EthernetChannel> channel, double cableLength)
{
    NS_LOG_FUNCTION(this << channel << cableLength);
    NS_ABORT_MSG_IF(m_channel, "EthernetNetDevice: already attached to a segment");
    const uint64_t r = m_rate.GetBitRate();
    NS_ABORT_MSG_IF(r != 10000000 && r != 100000000 && r != 1000000000,
                    "EthernetNetDevice: DataRate " << r
                                                   << " bit/s; an 802.3 NIC runs at 10, 100 or "
                                                      "1000 Mbit/s");
    channel->Attach(this, cableLength);
}

void
EthernetNetDevice::SetLink(Ptr<EthernetChannel> channel,
                           uint32_t index,
                           DataRate rate,
                           bool fullDuplex)
{
    NS_LOG_FUNCTION(this << index << rate << fullDuplex);
    m_channel = channel;
    m_index = index;
    m_linkRate = rate;
    m_fullDuplex = fullDuplex;
    m_bitSeconds = 1.0 / static_cast<double>(rate.GetBitRate());
    bool wasUp = m_linkUp;
    m_linkUp = true;
    if (!wasUp)
    {
        NotifyLinkChange();
    }
}

void
EthernetNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    m_queue = queue;
}

Ptr<Queue<Packet>>
EthernetNetDevice::GetQueue() const
{
    return m_queue;
}

EthernetNetDevice::Duplex
EthernetNetDevice::GetDuplexSetting() const
{
    return m_duplex;
}

DataRate
EthernetNetDevice::GetDataRate() const
{
    return m_rate;
}

bool
EthernetNetDevice::IsFullDuplex() const
{
    return m_fullDuplex;
}

DataRate
EthernetNetDevice::GetLinkRate() const
{
    return m_linkRate;
}

const EthernetNetDevice::Stats&
EthernetNetDevice::GetStats() const
{
    return m_stats;
}

const EthernetPort::Counters&
EthernetNetDevice::GetCounters() const
{
    return m_stats;
}

int64_t
EthernetNetDevice::AssignStreams(int64_t stream)
{
    m_backoffRng->SetStream(stream);
    return 1;
}

bool
EthernetNetDevice::NeedsSignalStarts() const
{
    return !m_fullDuplex;
}

Time
EthernetNetDevice::BitTime(uint64_t bits) const
{
    return fastpath::FromSeconds(static_cast<double>(bits) * m_bitSeconds);
}

bool
EthernetNetDevice::Carrier() const
{
    return !m_incoming.empty() || m_state == TRANSMITTING || m_state == JAMMING;
}

// --- sending ---------------------------------------------------------------------------------

bool
EthernetNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return Enqueue(packet, m_address, Mac48Address::ConvertFrom(dest), protocolNumber);
}

bool
EthernetNetDevice::SendFrom(Ptr<Packet> packet,
                            const Address& source,
                            const Address& dest,
                            uint16_t protocolNumber)
{
    return Enqueue(packet,
                   Mac48Address::ConvertFrom(source),
                   Mac48Address::ConvertFrom(dest),
                   protocolNumber);
}

bool
EthernetNetDevice::SendShared(Ptr<const Packet> packet,
                              Mac48Address source,
                              Mac48Address dest,
                              uint16_t protocol)
{
    // The MAC frames the packet it queues: a copy of its own.
    return Enqueue(packet->Copy(), source, dest, protocol);
}

bool
EthernetNetDevice::Enqueue(Ptr<Packet> packet,
                           Mac48Address src,
                           Mac48Address dst,
                           uint16_t protocol)
{
    NS_LOG_FUNCTION(this << packet << src << dst << protocol);
    m_macTxTrace(packet);
    if (!m_linkUp || packet->GetSize() > m_mtu)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    // DIX framing: header, payload padded to 46 octets, FCS.
    if (packet->GetSize() < MIN_PAYLOAD)
    {
        // Zero pad octets (Create<Packet>(n) is n zeros): ns-3's AddPaddingAtEnd leaves them
        // unset (stale heap memory, as the "Etherleak" drivers did; Linux pads with zeros).
        packet->AddAtEnd(Create<Packet>(MIN_PAYLOAD - packet->GetSize()));
    }
    EthernetHeader header(false);
    header.SetSource(src);
    header.SetDestination(dst);
    header.SetLengthType(protocol);
    packet->AddHeader(header);
    EthernetTrailer trailer;
    if (m_checksum)
    {
        trailer.EnableFcs(true);
        trailer.CalcFcs(packet);
    }
    packet->AddTrailer(trailer);
    if (!m_queue->Enqueue(packet))
    {
        m_macTxDropTrace(packet);
        return false;
    }
    if (m_txFetchDelay.IsStrictlyPositive())
    {
        // The NIC fetches the frame from the host's memory (TxFetchDelay), from its hand-over.
        m_fetched.push_back(Simulator::Now() + m_txFetchDelay);
    }
    if (m_state == IDLE)
    {
        StartNext();
    }
    return true;
}

void
EthernetNetDevice::StartNext()
{
    m_current = m_queue->Dequeue();
    if (!m_current)
    {
        m_state = IDLE;
        return;
    }
    if (!m_fetched.empty())
    {
        // Not before the NIC has fetched it (a frame queued behind another was fetched while
        // that one was sent).
        m_gapReady = std::max(m_gapReady, m_fetched.front());
        m_fetched.pop_front();
    }
    m_attempts = 0;
    m_deferred = false;
    m_snifferTrace(m_current);
    m_promiscSnifferTrace(m_current);
    Attempt();
}

void
EthernetNetDevice::Attempt()
{
    const Time now = Simulator::Now();
    if (m_fullDuplex)
    {
        // Full duplex: no carrier sense; only the gap behind the previous own frame.
        if (now < m_gapReady)
        {
            m_state = DEFERRING;
            m_event = Simulator::Schedule(m_gapReady - now, [this]() { Transmit(); });
            return;
        }
        Transmit();
        return;
    }
    // Half duplex (4.2.3.2.1): defer while the carrier is on, then for the interframe gap.
    m_state = DEFERRING;
    if (!m_incoming.empty())
    {
        if (!m_deferred)
        {
            m_deferred = true;
            ++m_stats.deferrals;
            m_deferralTrace();
        }
        return; // SignalEnd resumes when the carrier goes off
    }
    const Time ready = std::max(m_idleSince + BitTime(IFG_BITS), m_gapReady);
    if (now < ready)
    {
        m_event = Simulator::Schedule(ready - now, [this]() { DeferCheck(); });
        return;
    }
    Transmit();
}

void
EthernetNetDevice::DeferCheck()
{
    // A carrier that came in the first part of the gap made the device wait for it (SignalStart
    // cancelled this check); one that came in the last part is ignored (4.2.3.2.1).
    Transmit();
}

void
EthernetNetDevice::Transmit()
{
    NS_LOG_FUNCTION(this);
    const uint32_t frame = m_current->GetSize();
    const uint64_t bits = static_cast<uint64_t>(PREAMBLE + frame) * 8;
    const Time duration = BitTime(bits);
    const Time now = Simulator::Now();
    m_state = TRANSMITTING;
    m_txStart = now;
    if (m_fullDuplex && m_cutThroughStart < now)
    {
        // A frame forwarded cut-through (EthernetPort::SendSharedCutThrough): it started when
        // the switch had its destination, or when this transmitter's gap ended after that; the
        // peer gets its last bit at the true end.
        m_txStart = std::max(m_cutThroughStart, m_gapReady);
    }
    m_txFullEnd = m_txStart + duration;
    m_lateCollision = false;
    m_phyTxBeginTrace(m_current);
    m_txId = m_channel->TransmitStart(m_index, m_current, m_txFullEnd - now, !m_fullDuplex);
    m_event = Simulator::Schedule(m_txFullEnd - now, [this]() { TransmitEnd(); });
    if (!m_fullDuplex && !m_incoming.empty())
    {
        // A signal is already here (it arrived in the gap's last part, or at this instant).
        Collision(m_txStart);
    }
}

void
EthernetNetDevice::TransmitEnd()
{
    NS_LOG_FUNCTION(this);
    ++m_stats.txFrames;
    m_stats.txBytes += m_current->GetSize();
    m_phyTxEndTrace(m_current);
    FrameDone();
}

void
EthernetNetDevice::Collision(Time at)
{
    NS_LOG_FUNCTION(this << at);
    if (m_state != TRANSMITTING)
    {
        return;
    }
    // Complete the preamble, then jam 32 bits (4.2.3.2.4); the frame is late if the collision
    // came after the first 512 bit times of the frame (the preamble not counted).
    m_lateCollision = at > m_txStart + BitTime(static_cast<uint64_t>(PREAMBLE) * 8 + SLOT_BITS);
    Time stop = std::max(at, m_txStart + BitTime(static_cast<uint64_t>(PREAMBLE) * 8))
                + BitTime(JAM_BITS);
    stop = std::min(stop, m_txFullEnd);
    m_event.Cancel();
    m_channel->TransmitAbort(m_txId, stop - m_txStart);
    ++m_attempts;
    ++m_stats.collisions;
    ++m_stats.collisionsByAttempt[std::min<uint32_t>(m_attempts, ATTEMPT_LIMIT) - 1];
    m_collisionTrace(m_attempts, m_lateCollision);
    m_state = JAMMING;
    m_event = Simulator::Schedule(stop - Simulator::Now(), [this]() { CollisionEnd(); });
}

void
EthernetNetDevice::CollisionEnd()
{
    NS_LOG_FUNCTION(this << m_attempts);
    m_idleSince = m_incoming.empty() ? Simulator::Now() : m_idleSince;
    if (m_lateCollision)
    {
        ++m_stats.lateCollisions;
    }
    if (m_lateCollision && m_latePolicy == LATE_DISCARD)
    {
        m_lateTrace(m_current);
        m_phyTxDropTrace(m_current);
        FrameDone();
        return;
    }
    if (m_attempts >= ATTEMPT_LIMIT)
    {
        ++m_stats.excessiveCollisions;
        m_excessiveTrace(m_current);
        m_phyTxDropTrace(m_current);
        FrameDone();
        return;
    }
    // Truncated binary exponential backoff (4.2.3.2.5).
    const uint32_t k = std::min(m_attempts, BACKOFF_LIMIT);
    const uint32_t slots = m_backoffRng->GetInteger(0, (1u << k) - 1);
    m_backoffTrace(m_attempts, slots);
    m_state = BACKOFF;
    m_event = Simulator::Schedule(BitTime(static_cast<uint64_t>(slots) * SLOT_BITS),
                                  [this]() { Attempt(); });
}

void
EthernetNetDevice::FrameDone()
{
    const Time now = Simulator::Now();
    m_gapReady = now + BitTime(IFG_BITS);
    if (m_incoming.empty())
    {
        m_idleSince = now;
    }
    m_current = nullptr;
    m_state = IDLE;
    StartNext();
}

// --- receiving -------------------------------------------------------------------------------

void
EthernetNetDevice::SignalStart(uint64_t id)
{
    const bool busy = !m_incoming.empty();
    const bool sending = m_state == TRANSMITTING || m_state == JAMMING;
    // Signals that meet here damage each other: in a hub all signals share the medium; in a
    // half-duplex station receive activity while sending is a collision.
    bool damaged
        = busy
          || (sending && (m_channel->IsHub() || (!m_fullDuplex && m_rxWhileSending == RX_DAMAGED)));
    if (busy && m_channel->IsHub())
    {
        for (auto& [other, in] : m_incoming)
        {
            in.damaged = true;
        }
    }
    m_incoming[id] = Incoming{Simulator::Now(), damaged};
    if (m_fullDuplex)
    {
        return;
    }
    if (m_state == TRANSMITTING)
    {
        Collision(Simulator::Now());
    }
    else if (m_state == DEFERRING && m_event.IsPending()
             && Simulator::Now() < m_idleSince + BitTime(IFG_PART1_BITS))
    {
        // Carrier in the first part of the gap: wait for it to go off again.
        m_event.Cancel();
    }
    if (m_state == DEFERRING && m_current && !m_deferred && !m_event.IsPending())
    {
        m_deferred = true;
        ++m_stats.deferrals;
        m_deferralTrace();
    }
}

void
EthernetNetDevice::SignalEnd(uint64_t id,
                             Ptr<const Packet> frame,
                             bool whole,
                             uint64_t wireBits,
                             bool tracked)
{
    bool damaged = false;
    if (tracked)
    {
        auto it = m_incoming.find(id);
        if (it != m_incoming.end())
        {
            damaged = it->second.damaged;
            m_incoming.erase(it);
        }
        if (m_incoming.empty())
        {
            // Carrier off.
            if (m_state != TRANSMITTING && m_state != JAMMING)
            {
                m_idleSince = Simulator::Now();
            }
            if (m_state == DEFERRING && !m_event.IsPending() && m_current)
            {
                const Time wait = std::max(BitTime(IFG_BITS), m_gapReady - Simulator::Now());
                m_event = Simulator::Schedule(wait, [this]() { DeferCheck(); });
            }
        }
    }
    if (!whole || damaged)
    {
        const uint64_t frameBits = wireBits > PREAMBLE * 8 ? wireBits - PREAMBLE * 8 : 0;
        const uint32_t octets
            = static_cast<uint32_t>(std::min<uint64_t>(frameBits / 8, frame->GetSize()));
        Ptr<Packet> part = frame->CreateFragment(0, octets);
        if (octets < MIN_FRAME)
        {
            ++m_stats.runts;
            m_runtTrace(part, octets);
        }
        else
        {
            ++m_stats.fcsErrors;
            m_fcsTrace(part, octets);
        }
        m_phyRxDropTrace(part);
        return;
    }
    Receive(frame->Copy());
}

void
EthernetNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    m_phyRxEndTrace(frame);
    EthernetTrailer trailer;
    frame->RemoveTrailer(trailer);
    if (m_checksum)
    {
        trailer.EnableFcs(true);
        if (!trailer.CheckFcs(frame))
        {
            ++m_stats.fcsErrors;
            m_fcsTrace(frame, frame->GetSize() + 4);
            m_phyRxDropTrace(frame);
            return;
        }
    }
    EthernetHeader header(false);
    frame->RemoveHeader(header);
    const Mac48Address dst = header.GetDestination();
    const Mac48Address src = header.GetSource();
    const uint16_t protocol = header.GetLengthType();
    const NetDevice::PacketType type = Classify(dst);
    ++m_stats.rxFrames;
    m_stats.rxBytes += frame->GetSize() + HEADER + FCS;
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    if (!m_promiscCallback.IsNull())
    {
        m_macPromiscRxTrace(frame);
        m_promiscCallback(this, frame, protocol, src, dst, type);
    }
    if (type != NetDevice::PACKET_OTHERHOST)
    {
        m_macRxTrace(frame);
        m_rxCallback(this, frame, protocol, src);
    }
}

// --- NetDevice -------------------------------------------------------------------------------

Ptr<Channel>
EthernetNetDevice::GetChannel() const
{
    return m_channel;
}

bool
EthernetNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

} // namespace ns3
