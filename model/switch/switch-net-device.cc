/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-net-device.h"

#include "ns3/channel.h"
#include "ns3/ethernet-port.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchNetDevice");

NS_OBJECT_ENSURE_REGISTERED(SwitchNetDevice);

TypeId
SwitchNetDevice::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchNetDevice")
                            .SetParent<NetDevice>()
                            .SetGroupName("Testbed")
                            .AddConstructor<SwitchNetDevice>()
                            .AddAttribute("Mtu",
                                          "The MAC-level Maximum Transmission Unit (octets).",
                                          UintegerValue(1500),
                                          MakeUintegerAccessor(&SwitchNetDevice::SetMtu,
                                                               &SwitchNetDevice::GetMtu),
                                          MakeUintegerChecker<uint16_t>(68, 9216))
                            .AddAttribute("Fabric",
                                          "The switch fabric (engine, MAC table, random drop).",
                                          PointerValue(),
                                          MakePointerAccessor(&SwitchNetDevice::SetFabric,
                                                              &SwitchNetDevice::GetFabric),
                                          MakePointerChecker<SwitchFabric>());
    return tid;
}

SwitchNetDevice::SwitchNetDevice()
{
    NS_LOG_FUNCTION(this);
    SetFabric(CreateObject<SwitchFabric>());
}

void
SwitchNetDevice::SetFabric(Ptr<SwitchFabric> fabric)
{
    if (!fabric)
    {
        return; // the attribute's default (null): keep the fabric made by the constructor
    }
    if (m_fabric && m_fabric != fabric)
    {
        m_fabric->SetForwardCallback(SwitchFabric::ForwardCallback());
    }
    m_fabric = fabric;
    m_fabric->SetForwardCallback(MakeCallback(&SwitchNetDevice::Forward, this));
}

SwitchNetDevice::~SwitchNetDevice()
{
}

void
SwitchNetDevice::DoDispose()
{
    m_ports.clear();
    if (m_fabric)
    {
        m_fabric->Dispose();
    }
    m_fabric = nullptr;
    m_node = nullptr;
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscRxCallback = NetDevice::PromiscReceiveCallback();
    NetDevice::DoDispose();
}

Ptr<SwitchFabric>
SwitchNetDevice::GetFabric() const
{
    return m_fabric;
}

uint32_t
SwitchNetDevice::AddSwitchPort(Ptr<NetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(!port, "SwitchNetDevice::AddSwitchPort: null device");
    NS_ABORT_MSG_IF(!m_node, "SwitchNetDevice: add the switch to its node first");
    NS_ABORT_MSG_IF(port->GetNode() != m_node,
                    "SwitchNetDevice: port device belongs to another node");
    NS_ABORT_MSG_IF(!Mac48Address::IsMatchingType(port->GetAddress()),
                    "SwitchNetDevice: port device is not Ethernet-like");
    NS_ABORT_MSG_IF(!port->SupportsSendFrom(),
                    "SwitchNetDevice: port device does not support SendFrom");
    if (m_address == Mac48Address())
    {
        m_address = Mac48Address::ConvertFrom(port->GetAddress());
    }
    NS_ABORT_MSG_IF(m_portIndex.count(PeekPointer(port)),
                    "SwitchNetDevice: device added twice as a port");
    // The port hands every frame straight to the switch (its promiscuous receive callback),
    // not through Node's protocol-handler list, whose dispatch is linear in the number of
    // handlers (one per port for ns-3's BridgeNetDevice).
    port->SetPromiscReceiveCallback(MakeCallback(&SwitchNetDevice::ReceiveFromDevice, this));
    m_portIndex[PeekPointer(port)] = static_cast<uint32_t>(m_ports.size());
    Port p;
    p.dev = port;
    p.eth = dynamic_cast<EthernetPort*>(PeekPointer(port));
    if (p.eth)
    {
        // Frame descriptors (the lean MAC's path) come to the switch as they are.
        p.eth->SetFrameReceiveCallback(MakeCallback(&SwitchNetDevice::ReceiveFrameFromPort, this));
    }
    m_ports.push_back(p);
    const uint32_t index = static_cast<uint32_t>(m_ports.size() - 1);
    NotifyPortAdded(index);
    return index;
}

uint32_t
SwitchNetDevice::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<NetDevice>
SwitchNetDevice::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(), "SwitchNetDevice: no port " << i);
    return m_ports[i].dev;
}

int32_t
SwitchNetDevice::GetPortIndex(Ptr<const NetDevice> dev) const
{
    auto it = m_portIndex.find(PeekPointer(dev));
    return it == m_portIndex.end() ? -1 : static_cast<int32_t>(it->second);
}

void
SwitchNetDevice::SetTrunk(uint32_t port, uint16_t vlan)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(), "SwitchNetDevice::SetTrunk: no port " << port);
    NS_ABORT_MSG_IF(vlan < 1 || vlan > 4094,
                    "SwitchNetDevice::SetTrunk: VLAN id " << vlan << " not in 1..4094");
    m_ports[port].trunk = true;
    m_ports[port].vlan = vlan;
}

bool
SwitchNetDevice::ReceiveFromDevice(Ptr<NetDevice> device,
                                   Ptr<const Packet> packet,
                                   uint16_t protocol,
                                   const Address& source,
                                   const Address& destination,
                                   PacketType packetType)
{
    NS_LOG_FUNCTION(this << device << packet << protocol);
    const int32_t in = GetPortIndex(device);
    NS_ASSERT(in >= 0);
    SwitchFabric::Frame f;
    f.inPort = static_cast<uint32_t>(in);
    f.src = Mac48Address::ConvertFrom(source);
    f.dst = Mac48Address::ConvertFrom(destination);
    f.protocol = protocol;
    if (protocol == EthernetFraming::VLAN_ETHERTYPE && m_ports[in].trunk)
    {
        // Strip the 802.1Q tag: TCI (2 octets) and the inner EtherType (2 octets).
        uint8_t tag[EthernetFraming::VLAN_TAG];
        if (packet->CopyData(tag, EthernetFraming::VLAN_TAG) < EthernetFraming::VLAN_TAG)
        {
            m_fabric->NotifyDrop(packet, f.inPort, SwitchFabric::FILTERED);
            return true;
        }
        f.protocol = static_cast<uint16_t>((tag[2] << 8) | tag[3]);
        f.packet = packet->CreateFragment(EthernetFraming::VLAN_TAG,
                                          packet->GetSize() - EthernetFraming::VLAN_TAG);
    }
    else
    {
        f.packet = packet; // never changed: the output ports send it (or copies) as it is
    }
    if (m_fabric->GetForwardingMode() != SwitchFabric::STORE_AND_FORWARD)
    {
        MarkEarly(f, packet->GetSize());
    }
    m_fabric->Ingress(f);
    return true;
}

void
SwitchNetDevice::ReceiveFrameFromPort(Ptr<EthernetPort> device,
                                      const FrameDescriptor& frame,
                                      Mac48Address source,
                                      Mac48Address destination)
{
    const int32_t in = GetPortIndex(device);
    NS_ASSERT(in >= 0);
    SwitchFabric::Frame f;
    f.desc = frame;
    if (frame.GetProtocol() == EthernetFraming::VLAN_ETHERTYPE && m_ports[in].trunk)
    {
        if (!frame.tagged)
        {
            // A template whose payload holds a tag: untagged as a Packet.
            ReceiveFromDevice(device,
                              frame.MakePacket(),
                              EthernetFraming::VLAN_ETHERTYPE,
                              source,
                              destination,
                              NetDevice::PACKET_OTHERHOST);
            return;
        }
        // Strip the 802.1Q tag (ReceiveFromDevice's, without a Packet).
        f.desc.tagged = false;
        f.desc.tci = 0;
    }
    f.inPort = static_cast<uint32_t>(in);
    f.src = source;
    f.dst = destination;
    f.protocol = f.desc.GetProtocol();
    if (m_fabric->GetForwardingMode() != SwitchFabric::STORE_AND_FORWARD)
    {
        MarkEarly(f, frame.GetSize());
    }
    m_fabric->Ingress(f);
}

void
SwitchNetDevice::MarkEarly(SwitchFabric::Frame& frame, uint32_t payload) const
{
    // Only a full-duplex input: a half-duplex one's frame may still be a collision fragment.
    const EthernetPort* in = m_ports[frame.inPort].eth;
    if (in && in->IsFullDuplex())
    {
        m_fabric->MarkEarlyDecision(frame, payload, in->GetLinkRate());
    }
}

bool
SwitchNetDevice::StartsEarly(const SwitchFabric::Frame& frame, const EthernetPort* out) const
{
    // Cut-through needs a full-duplex output of the input's rate: a faster one would run out
    // of the frame's octets, and a half-duplex one defers to its carrier from now.
    return frame.cutThrough && out->IsFullDuplex()
           && out->GetLinkRate() == m_ports[frame.inPort].eth->GetLinkRate();
}

void
SwitchNetDevice::Forward(const SwitchFabric::Frame& frame)
{
    if (frame.inPort != LOCAL_PORT)
    {
        m_fabric->Learn(frame.src, frame.inPort);
    }
    // (Compared with the broadcast address kept once: Mac48Address::IsBroadcast makes it anew.)
    static const Mac48Address broadcast = Mac48Address::GetBroadcast();
    if (frame.dst == broadcast)
    {
        DeliverLocal(frame, NetDevice::PACKET_BROADCAST);
        Flood(frame);
        return;
    }
    if (frame.dst.IsGroup())
    {
        DeliverLocal(frame, NetDevice::PACKET_MULTICAST);
        ForwardGroup(frame);
        return;
    }
    // Unicast.
    if (frame.dst == m_address)
    {
        DeliverLocal(frame, NetDevice::PACKET_HOST);
        return;
    }
    const int64_t out = m_fabric->Lookup(frame.dst);
    if (out < 0)
    {
        Flood(frame);
    }
    else if (static_cast<uint32_t>(out) == frame.inPort)
    {
        m_fabric->NotifyDrop(frame, frame.inPort, SwitchFabric::FILTERED);
    }
    else
    {
        SendToPort(static_cast<uint32_t>(out), frame);
    }
}

void
SwitchNetDevice::SendToPort(uint32_t port, const SwitchFabric::Frame& frame)
{
    Port& p = m_ports[port];
    if (!p.divert.IsNull())
    {
        p.divert(frame);
        return;
    }
    if (!p.dev->IsLinkUp())
    {
        m_fabric->NotifyDrop(frame, port, SwitchFabric::PORT_DOWN);
        return;
    }
    if (m_fabric->RandomDrop(frame, port))
    {
        return;
    }
    if (!frame.packet && p.eth && !(p.trunk && frame.desc.tagged))
    {
        // A descriptor through an Ethernet port: no Packet at all on the lean MAC. A trunk
        // port tags it (as below for a Packet).
        FrameDescriptor desc = frame.desc;
        if (p.trunk)
        {
            desc.tagged = true;
            desc.tci = p.vlan;
        }
        const bool sent = StartsEarly(frame, p.eth)
                              ? p.eth->SendFrameCutThrough(desc, frame.src, frame.dst, frame.early)
                              : p.eth->SendFrame(desc, frame.src, frame.dst);
        if (!sent)
        {
            SwitchFabric::Frame dropped = frame;
            dropped.desc = desc; // the frame as the port would have sent it
            m_fabric->NotifyDrop(dropped, port, SwitchFabric::OUTPUT_QUEUE_FULL);
        }
        return;
    }
    Ptr<const Packet> out = frame.GetPacket();
    Ptr<Packet> own; // a packet of this port's own (the tagged frame), if any
    uint16_t protocol = frame.protocol;
    if (p.trunk)
    {
        const auto tag = EthernetFraming::VlanTag(p.vlan, frame.protocol);
        Ptr<Packet> tagged = Create<Packet>(tag.data(), tag.size());
        tagged->AddAtEnd(out);
        out = own = tagged;
        protocol = EthernetFraming::VLAN_ETHERTYPE;
    }
    if (p.eth)
    {
        // An Ethernet port never changes the packet it is given (a MAC that frames it copies
        // it): every port shares it.
        const bool sent
            = StartsEarly(frame, p.eth)
                  ? p.eth->SendSharedCutThrough(out, frame.src, frame.dst, protocol, frame.early)
                  : p.eth->SendShared(out, frame.src, frame.dst, protocol);
        if (!sent)
        {
            m_fabric->NotifyDrop(out, port, SwitchFabric::OUTPUT_QUEUE_FULL);
        }
        return;
    }
    // Other devices add their headers to the packet they send: a copy of their own.
    Ptr<Packet> copy = own ? own : out->Copy();
    if (!p.dev->SendFrom(copy, frame.src, frame.dst, protocol))
    {
        m_fabric->NotifyDrop(copy, port, SwitchFabric::OUTPUT_QUEUE_FULL);
    }
}

void
SwitchNetDevice::SetPortDivert(uint32_t port, Callback<void, const SwitchFabric::Frame&> divert)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(), "SwitchNetDevice::SetPortDivert: no port " << port);
    m_ports[port].divert = divert;
}

void
SwitchNetDevice::InjectToPort(uint32_t port, const SwitchFabric::Frame& frame)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(), "SwitchNetDevice::InjectToPort: no port " << port);
    SendToPort(port, frame);
}

void
SwitchNetDevice::Flood(const SwitchFabric::Frame& frame)
{
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        if (p != frame.inPort)
        {
            SendToPort(p, frame);
        }
    }
}

void
SwitchNetDevice::ForwardGroup(const SwitchFabric::Frame& frame)
{
    Flood(frame);
}

void
SwitchNetDevice::NotifyPortAdded(uint32_t port)
{
}

void
SwitchNetDevice::DeliverLocal(const SwitchFabric::Frame& frame, PacketType type)
{
    if (frame.inPort == LOCAL_PORT)
    {
        return;
    }
    if (m_localUp < 0)
    {
        // Decided once, at the first frame (the stack is installed before the simulation runs):
        // pass frames up only if the switch node has an IPv4 interface on the bridge.
        Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
        m_localUp = ipv4 && ipv4->GetInterfaceForDevice(this) >= 0 ? 1 : 0;
    }
    if (m_localUp == 0)
    {
        return;
    }
    Ptr<const Packet> packet = frame.GetPacket();
    if (!m_promiscRxCallback.IsNull())
    {
        m_promiscRxCallback(this, packet, frame.protocol, frame.src, frame.dst, type);
    }
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, packet, frame.protocol, frame.src);
    }
}

void
SwitchNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
SwitchNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
SwitchNetDevice::GetChannel() const
{
    return nullptr;
}

void
SwitchNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
SwitchNetDevice::GetAddress() const
{
    return m_address;
}

bool
SwitchNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
SwitchNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
SwitchNetDevice::IsLinkUp() const
{
    return true;
}

void
SwitchNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
SwitchNetDevice::IsBroadcast() const
{
    return true;
}

Address
SwitchNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
SwitchNetDevice::IsMulticast() const
{
    return true;
}

Address
SwitchNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
SwitchNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
SwitchNetDevice::IsPointToPoint() const
{
    return false;
}

bool
SwitchNetDevice::IsBridge() const
{
    return true;
}

bool
SwitchNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
SwitchNetDevice::SendFrom(Ptr<Packet> packet,
                          const Address& source,
                          const Address& dest,
                          uint16_t protocolNumber)
{
    SwitchFabric::Frame f;
    f.packet = packet;
    f.inPort = LOCAL_PORT;
    f.protocol = protocolNumber;
    f.src = Mac48Address::ConvertFrom(source);
    f.dst = Mac48Address::ConvertFrom(dest);
    Forward(f);
    return true;
}

Ptr<Node>
SwitchNetDevice::GetNode() const
{
    return m_node;
}

void
SwitchNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
SwitchNetDevice::NeedsArp() const
{
    return true;
}

void
SwitchNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
SwitchNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
SwitchNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
