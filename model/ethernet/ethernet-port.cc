/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-port.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetPort");

NS_OBJECT_ENSURE_REGISTERED(EthernetPort);

TypeId
EthernetPort::GetTypeId()
{
    // The attributes (Address, Mtu) are registered by each MAC, so that
    // --ns3::<MAC>::Mtu= and Config::SetDefault keep naming them there.
    static TypeId tid
        = TypeId("ns3::EthernetPort")
              .SetParent<NetDevice>()
              .SetGroupName("Testbed")
              .AddAttribute("TxFetchDelay",
                            "Time from a frame's hand-over to the MAC until its transmission may "
                            "start: a host NIC's fetch of the transmit descriptor and of the "
                            "frame's first bytes over the host's I/O bus (HostNic TxFetchDelay "
                            "sets it). A frame queued behind another was fetched while that one "
                            "was sent. 0: at once (a switch port).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&EthernetPort::m_txFetchDelay),
                            MakeTimeChecker(Seconds(0), MilliSeconds(10)))
              .AddTraceSource("MacTx",
                              "A packet arrived for transmission (the lean MAC: was accepted).",
                              MakeTraceSourceAccessor(&EthernetPort::m_macTxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacTxDrop",
                              "A packet was dropped before transmission (queue full, too large, "
                              "no link).",
                              MakeTraceSourceAccessor(&EthernetPort::m_macTxDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacRx",
                              "A frame for this device was received and is passed up.",
                              MakeTraceSourceAccessor(&EthernetPort::m_macRxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacPromiscRx",
                              "A frame was received (any destination) and is passed up.",
                              MakeTraceSourceAccessor(&EthernetPort::m_macPromiscRxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("Sniffer",
                              "Frames sent or received for this device, whole (pcap).",
                              MakeTraceSourceAccessor(&EthernetPort::m_snifferTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PromiscSniffer",
                              "Every frame sent or received, whole (pcap).",
                              MakeTraceSourceAccessor(&EthernetPort::m_promiscSnifferTrace),
                              "ns3::Packet::TracedCallback");
    return tid;
}

EthernetPort::EthernetPort()
{
    NS_LOG_FUNCTION(this);
}

EthernetPort::~EthernetPort()
{
}

void
EthernetPort::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscCallback = NetDevice::PromiscReceiveCallback();
    m_frameCallback = FrameReceiveCallback();
    NetDevice::DoDispose();
}

bool
EthernetPort::SendFrame(const FrameDescriptor& frame, Mac48Address source, Mac48Address dest)
{
    return SendShared(frame.MakePacket(), source, dest, frame.GetProtocol());
}

bool
EthernetPort::SendSharedCutThrough(Ptr<const Packet> packet,
                                   Mac48Address source,
                                   Mac48Address dest,
                                   uint16_t protocol,
                                   Time earliest)
{
    m_cutThroughStart = std::min(earliest, Simulator::Now());
    const bool sent = SendShared(packet, source, dest, protocol);
    m_cutThroughStart = Time::Max();
    return sent;
}

bool
EthernetPort::SendFrameCutThrough(const FrameDescriptor& frame,
                                  Mac48Address source,
                                  Mac48Address dest,
                                  Time earliest)
{
    m_cutThroughStart = std::min(earliest, Simulator::Now());
    const bool sent = SendFrame(frame, source, dest);
    m_cutThroughStart = Time::Max();
    return sent;
}

void
EthernetPort::SetFrameReceiveCallback(FrameReceiveCallback cb)
{
    m_frameCallback = cb;
}

NetDevice::PacketType
EthernetPort::Classify(Mac48Address dest) const
{
    if (dest.IsBroadcast())
    {
        return NetDevice::PACKET_BROADCAST;
    }
    if (dest.IsGroup())
    {
        return NetDevice::PACKET_MULTICAST;
    }
    if (dest == m_address)
    {
        return NetDevice::PACKET_HOST;
    }
    return NetDevice::PACKET_OTHERHOST;
}

void
EthernetPort::NotifyLinkChange()
{
    m_linkChangeCallbacks();
}

// --- NetDevice -------------------------------------------------------------------------------

void
EthernetPort::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
EthernetPort::GetIfIndex() const
{
    return m_ifIndex;
}

void
EthernetPort::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
EthernetPort::GetAddress() const
{
    return m_address;
}

bool
EthernetPort::SetMtu(const uint16_t mtu)
{
    if (mtu < MIN_PAYLOAD || mtu > MAX_PAYLOAD)
    {
        return false;
    }
    m_mtu = mtu;
    return true;
}

uint16_t
EthernetPort::GetMtu() const
{
    return m_mtu;
}

void
EthernetPort::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
EthernetPort::IsBroadcast() const
{
    return true;
}

Address
EthernetPort::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
EthernetPort::IsMulticast() const
{
    return true;
}

Address
EthernetPort::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
EthernetPort::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
EthernetPort::IsBridge() const
{
    return false;
}

bool
EthernetPort::IsPointToPoint() const
{
    return false;
}

Ptr<Node>
EthernetPort::GetNode() const
{
    return m_node;
}

void
EthernetPort::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
EthernetPort::NeedsArp() const
{
    return true;
}

void
EthernetPort::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
EthernetPort::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
EthernetPort::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
