/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "snooping-bridge-net-device.h"

#include "igmp-header.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/enum.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SnoopingBridgeNetDevice");

NS_OBJECT_ENSURE_REGISTERED(SnoopingBridgeNetDevice);

namespace
{
constexpr uint16_t kIpv4 = 0x0800;
constexpr uint16_t kVlan = 0x8100;
constexpr uint8_t kIgmp = 2;
constexpr uint32_t kLocalPort = UINT32_MAX;
} // namespace

TypeId
SnoopingBridgeNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SnoopingBridgeNetDevice")
              .SetParent<NetDevice>()
              .SetGroupName("Testbed")
              .AddConstructor<SnoopingBridgeNetDevice>()
              .AddAttribute("Mtu",
                            "The MAC-level Maximum Transmission Unit (octets).",
                            UintegerValue(1500),
                            MakeUintegerAccessor(&SnoopingBridgeNetDevice::SetMtu,
                                                 &SnoopingBridgeNetDevice::GetMtu),
                            MakeUintegerChecker<uint16_t>(68, 9216))
              .AddAttribute("Snooping",
                            "IGMP snooping on; off = every multicast frame is flooded.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&SnoopingBridgeNetDevice::m_snooping),
                            MakeBooleanChecker())
              .AddAttribute(
                  "UnregisteredPolicy",
                  "Multicast data to groups without members: flood to every port, or "
                  "send to router ports only (RFC 4541 2.1.2).",
                  EnumValue(FLOOD),
                  MakeEnumAccessor<UnregisteredPolicy>(&SnoopingBridgeNetDevice::m_unregistered),
                  MakeEnumChecker(FLOOD, "Flood", ROUTER_PORTS, "RouterPorts"))
              .AddAttribute("FastLeave",
                            "Remove a port from a group as soon as a leave arrives on it (for "
                            "ports with one host).",
                            BooleanValue(false),
                            MakeBooleanAccessor(&SnoopingBridgeNetDevice::m_fastLeave),
                            MakeBooleanChecker())
              .AddAttribute("MembershipInterval",
                            "Port membership timeout after the last report (Linux "
                            "mcast_membership_interval; RFC 3376 GMI = 260 s).",
                            TimeValue(IgmpTimers().GroupMembershipInterval()),
                            MakeTimeAccessor(&SnoopingBridgeNetDevice::m_membershipInterval),
                            MakeTimeChecker(MilliSeconds(1)))
              .AddAttribute("RouterPortTimeout",
                            "Lifetime of a router port learned from a query (Linux "
                            "mcast_querier_interval; RFC 3376 Other Querier Present = 255 s).",
                            TimeValue(IgmpTimers().OtherQuerierPresentInterval()),
                            MakeTimeAccessor(&SnoopingBridgeNetDevice::m_routerPortTimeout),
                            MakeTimeChecker(MilliSeconds(1)))
              .AddAttribute("LastMemberQueryInterval",
                            "Last Member Query Interval assumed for leaves without fast leave.",
                            TimeValue(IgmpTimers().lastMemberQueryInterval),
                            MakeTimeAccessor(&SnoopingBridgeNetDevice::m_lastMemberInterval),
                            MakeTimeChecker(MilliSeconds(1)))
              .AddAttribute("LastMemberQueryCount",
                            "Last Member Query Count assumed for leaves without fast leave.",
                            UintegerValue(IgmpTimers().LastMemberQueryCount()),
                            MakeUintegerAccessor(&SnoopingBridgeNetDevice::m_lastMemberCount),
                            MakeUintegerChecker<uint32_t>(1, 100))
              .AddAttribute("Fabric",
                            "The switch fabric (engine, MAC table, random drop).",
                            PointerValue(),
                            MakePointerAccessor(&SnoopingBridgeNetDevice::SetFabric,
                                                &SnoopingBridgeNetDevice::GetFabric),
                            MakePointerChecker<SwitchFabric>())
              .AddTraceSource("Membership",
                              "A port joined (true) or left / timed out of (false) a group.",
                              MakeTraceSourceAccessor(&SnoopingBridgeNetDevice::m_membershipTrace),
                              "ns3::SnoopingBridgeNetDevice::MembershipTracedCallback")
              .AddTraceSource("RouterPort",
                              "A port became (true) or stopped being (false) a router port.",
                              MakeTraceSourceAccessor(&SnoopingBridgeNetDevice::m_routerPortTrace),
                              "ns3::SnoopingBridgeNetDevice::RouterPortTracedCallback")
              .AddTraceSource("MalformedIgmp",
                              "A malformed IGMP frame was dropped (packet, ingress port).",
                              MakeTraceSourceAccessor(&SnoopingBridgeNetDevice::m_malformedTrace),
                              "ns3::Packet::TracedCallback");
    return tid;
}

SnoopingBridgeNetDevice::SnoopingBridgeNetDevice()
{
    NS_LOG_FUNCTION(this);
    SetFabric(CreateObject<SwitchFabric>());
}

void
SnoopingBridgeNetDevice::SetFabric(Ptr<SwitchFabric> fabric)
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
    m_fabric->SetForwardCallback(MakeCallback(&SnoopingBridgeNetDevice::Forward, this));
}

SnoopingBridgeNetDevice::~SnoopingBridgeNetDevice()
{
}

void
SnoopingBridgeNetDevice::DoDispose()
{
    for (auto& [g, grp] : m_groups)
    {
        grp.timer.Cancel();
    }
    m_groups.clear();
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
SnoopingBridgeNetDevice::GetFabric() const
{
    return m_fabric;
}

uint32_t
SnoopingBridgeNetDevice::AddSwitchPort(Ptr<NetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(!port, "SnoopingBridgeNetDevice::AddSwitchPort: null device");
    NS_ABORT_MSG_IF(!m_node, "SnoopingBridgeNetDevice: add the bridge to its node first");
    NS_ABORT_MSG_IF(port->GetNode() != m_node,
                    "SnoopingBridgeNetDevice: port device belongs to another node");
    NS_ABORT_MSG_IF(!Mac48Address::IsMatchingType(port->GetAddress()),
                    "SnoopingBridgeNetDevice: port device is not Ethernet-like");
    NS_ABORT_MSG_IF(!port->SupportsSendFrom(),
                    "SnoopingBridgeNetDevice: port device does not support SendFrom");
    if (m_address == Mac48Address())
    {
        m_address = Mac48Address::ConvertFrom(port->GetAddress());
    }
    NS_ABORT_MSG_IF(m_portIndex.count(PeekPointer(port)),
                    "SnoopingBridgeNetDevice: device added twice as a port");
    // The port hands every frame straight to the bridge (its promiscuous receive callback),
    // not through Node's protocol-handler list, whose dispatch is linear in the number of
    // handlers (one per port for ns-3's BridgeNetDevice).
    port->SetPromiscReceiveCallback(
        MakeCallback(&SnoopingBridgeNetDevice::ReceiveFromDevice, this));
    m_portIndex[PeekPointer(port)] = static_cast<uint32_t>(m_ports.size());
    Port p;
    p.dev = port;
    p.lean = dynamic_cast<FullDuplexEthernetNetDevice*>(PeekPointer(port));
    if (p.lean)
    {
        // Frame descriptors (the lean path) come to the bridge as they are.
        p.lean->SetFrameReceiveCallback(
            MakeCallback(&SnoopingBridgeNetDevice::ReceiveFrameFromPort, this));
    }
    m_ports.push_back(p);
    m_mark.push_back(0);
    return static_cast<uint32_t>(m_ports.size() - 1);
}

uint32_t
SnoopingBridgeNetDevice::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<NetDevice>
SnoopingBridgeNetDevice::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(), "SnoopingBridgeNetDevice: no port " << i);
    return m_ports[i].dev;
}

int32_t
SnoopingBridgeNetDevice::GetPortIndex(Ptr<const NetDevice> dev) const
{
    auto it = m_portIndex.find(PeekPointer(dev));
    return it == m_portIndex.end() ? -1 : static_cast<int32_t>(it->second);
}

void
SnoopingBridgeNetDevice::SetTrunk(uint32_t port, uint16_t vlan)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(), "SnoopingBridgeNetDevice::SetTrunk: no port " << port);
    NS_ABORT_MSG_IF(vlan < 1 || vlan > 4094,
                    "SnoopingBridgeNetDevice::SetTrunk: VLAN id " << vlan << " not in 1..4094");
    m_ports[port].trunk = true;
    m_ports[port].vlan = vlan;
}

void
SnoopingBridgeNetDevice::SetStaticRouterPort(uint32_t port, bool router)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "SnoopingBridgeNetDevice::SetStaticRouterPort: no port " << port);
    const bool before = IsRouterPort(port);
    m_ports[port].staticRouter = router;
    if (std::find(m_routerCandidates.begin(), m_routerCandidates.end(), port)
        == m_routerCandidates.end())
    {
        m_routerCandidates.push_back(port);
    }
    if (before != IsRouterPort(port))
    {
        m_routerPortTrace(port, !before);
    }
}

bool
SnoopingBridgeNetDevice::IsRouterPort(uint32_t port) const
{
    const Port& p = m_ports.at(port);
    return p.staticRouter || p.routerUntil > Simulator::Now();
}

void
SnoopingBridgeNetDevice::LearnRouterPort(uint32_t port)
{
    const bool before = IsRouterPort(port);
    m_ports[port].routerUntil = Simulator::Now() + m_routerPortTimeout;
    if (std::find(m_routerCandidates.begin(), m_routerCandidates.end(), port)
        == m_routerCandidates.end())
    {
        m_routerCandidates.push_back(port);
    }
    if (!before)
    {
        NS_LOG_LOGIC("port " << port << " is a router port");
        m_routerPortTrace(port, true);
    }
}

std::vector<uint32_t>
SnoopingBridgeNetDevice::GetMemberPorts(Ipv4Address group) const
{
    std::vector<uint32_t> r;
    auto it = m_groups.find(group.Get());
    if (it != m_groups.end())
    {
        const Time now = Simulator::Now();
        for (const auto& m : it->second.members)
        {
            if (m.expiry > now)
            {
                r.push_back(m.port);
            }
        }
    }
    std::sort(r.begin(), r.end());
    return r;
}

std::vector<uint32_t>
SnoopingBridgeNetDevice::GetForwardingSet(Ipv4Address group, uint32_t inPort) const
{
    std::vector<uint32_t> r;
    const bool linkLocal = (group.Get() & 0xffffff00u) == 0xe0000000u;
    std::vector<uint32_t> members = GetMemberPorts(group);
    const bool flood = !m_snooping || linkLocal || (members.empty() && m_unregistered == FLOOD);
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        if (p == inPort)
        {
            continue;
        }
        if (flood || IsRouterPort(p) || std::binary_search(members.begin(), members.end(), p))
        {
            r.push_back(p);
        }
    }
    return r;
}

// --- data path -------------------------------------------------------------------------------

bool
SnoopingBridgeNetDevice::ReceiveFromDevice(Ptr<NetDevice> device,
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
    if (protocol == kVlan && m_ports[in].trunk)
    {
        // Strip the 802.1Q tag: TCI (2 octets) and the inner EtherType (2 octets).
        uint8_t tag[4];
        if (packet->CopyData(tag, 4) < 4)
        {
            m_fabric->NotifyDrop(packet, f.inPort, SwitchFabric::FILTERED);
            return true;
        }
        f.protocol = static_cast<uint16_t>((tag[2] << 8) | tag[3]);
        f.packet = packet->CreateFragment(4, packet->GetSize() - 4);
    }
    else
    {
        f.packet = packet; // never changed: the output ports send it (or copies) as it is
    }
    m_fabric->Ingress(f);
    return true;
}

void
SnoopingBridgeNetDevice::ReceiveFrameFromPort(Ptr<FullDuplexEthernetNetDevice> device,
                                              const FrameDescriptor& frame,
                                              Mac48Address source,
                                              Mac48Address destination)
{
    const int32_t in = GetPortIndex(device);
    NS_ASSERT(in >= 0);
    if (frame.tmpl->GetProtocol() == kVlan && m_ports[in].trunk)
    {
        // Tagged: untag it as a Packet (descriptors are never tagged by this module).
        Ptr<Packet> p = frame.MakePacket();
        ReceiveFromDevice(device, p, kVlan, source, destination, NetDevice::PACKET_OTHERHOST);
        return;
    }
    SwitchFabric::Frame f;
    f.inPort = static_cast<uint32_t>(in);
    f.src = source;
    f.dst = destination;
    f.protocol = frame.tmpl->GetProtocol();
    f.desc = frame;
    m_fabric->Ingress(f);
}

void
SnoopingBridgeNetDevice::Forward(const SwitchFabric::Frame& frame)
{
    if (frame.inPort != kLocalPort)
    {
        m_fabric->Learn(frame.src, frame.inPort);
    }
    if (frame.dst.IsBroadcast())
    {
        DeliverLocal(frame, NetDevice::PACKET_BROADCAST);
        Flood(frame);
        return;
    }
    if (frame.dst.IsGroup())
    {
        DeliverLocal(frame, NetDevice::PACKET_MULTICAST);
        if (!m_snooping || frame.protocol != kIpv4)
        {
            Flood(frame);
            return;
        }
        uint8_t ip[64];
        const uint32_t n = frame.CopyData(ip, sizeof(ip));
        if (n < 20 || (ip[0] >> 4) != 4 || (ip[0] & 0x0f) < 5)
        {
            Flood(frame); // not a parsable IPv4 header: treat as non-IP multicast
            return;
        }
        const uint32_t group
            = (static_cast<uint32_t>(ip[16]) << 24) | (ip[17] << 16) | (ip[18] << 8) | ip[19];
        if (ip[9] == kIgmp)
        {
            SnoopIgmp(frame, ip, n);
            return;
        }
        if ((group & 0xffffff00u) == 0xe0000000u)
        {
            Flood(frame); // 224.0.0.0/24: always flooded (RFC 4541 2.1.2 (2))
            return;
        }
        ToGroup(frame, group);
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

bool
SnoopingBridgeNetDevice::SnoopIgmp(const SwitchFabric::Frame& frame,
                                   const uint8_t* ip,
                                   uint32_t ipLen)
{
    const uint32_t ihl = 4u * (ip[0] & 0x0f);
    const uint32_t total = (static_cast<uint32_t>(ip[2]) << 8) | ip[3];
    const uint32_t size = frame.GetSize();
    if (total > size || total < ihl + 8)
    {
        m_malformedTrace(frame.GetPacket(), frame.inPort);
        m_fabric->NotifyDrop(frame, frame.inPort, SwitchFabric::MALFORMED_IGMP);
        return false;
    }
    const uint32_t igmpLen = total - ihl;
    std::vector<uint8_t> big;
    uint8_t small[256];
    uint8_t* buf = small;
    if (total > sizeof(small))
    {
        big.resize(total);
        buf = big.data();
    }
    frame.CopyData(buf, total);
    IgmpHeader h;
    if (h.Parse(buf + ihl, igmpLen) != IgmpHeader::PARSE_OK)
    {
        m_malformedTrace(frame.GetPacket(), frame.inPort);
        m_fabric->NotifyDrop(frame, frame.inPort, SwitchFabric::MALFORMED_IGMP);
        return false;
    }
    const bool fromPort = frame.inPort != kLocalPort;
    switch (h.GetType())
    {
        case IgmpHeader::MEMBERSHIP_QUERY:
            if (fromPort)
            {
                LearnRouterPort(frame.inPort);
            }
            Flood(frame);
            return true;
        case IgmpHeader::V1_MEMBERSHIP_REPORT:
        case IgmpHeader::V2_MEMBERSHIP_REPORT:
            if (fromPort && h.GetGroup().IsMulticast())
            {
                Join(h.GetGroup().Get(), frame.inPort);
            }
            ToRouterPorts(frame);
            return true;
        case IgmpHeader::V2_LEAVE_GROUP:
            if (fromPort && h.GetGroup().IsMulticast())
            {
                Leave(h.GetGroup().Get(), frame.inPort);
            }
            ToRouterPorts(frame);
            return true;
        case IgmpHeader::V3_MEMBERSHIP_REPORT:
            if (fromPort)
            {
                for (const auto& r : h.GetRecords())
                {
                    if (!r.group.IsMulticast())
                    {
                        continue;
                    }
                    switch (r.type)
                    {
                        case IgmpGroupRecord::MODE_IS_EXCLUDE:
                        case IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE:
                            Join(r.group.Get(), frame.inPort);
                            break;
                        case IgmpGroupRecord::MODE_IS_INCLUDE:
                        case IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE:
                        case IgmpGroupRecord::ALLOW_NEW_SOURCES:
                            if (r.sources.empty())
                            {
                                if (r.type != IgmpGroupRecord::ALLOW_NEW_SOURCES)
                                {
                                    Leave(r.group.Get(), frame.inPort);
                                }
                            }
                            else
                            {
                                Join(r.group.Get(), frame.inPort);
                            }
                            break;
                        default:
                            break; // BLOCK: source-specific, not tracked (group-based snooping)
                    }
                }
            }
            ToRouterPorts(frame);
            return true;
        default:
            Flood(frame);
            return true;
    }
}

void
SnoopingBridgeNetDevice::SendToPort(uint32_t port, const SwitchFabric::Frame& frame)
{
    Port& p = m_ports[port];
    if (!p.dev->IsLinkUp())
    {
        m_fabric->NotifyDrop(frame, port, SwitchFabric::PORT_DOWN);
        return;
    }
    if (m_fabric->RandomDrop(frame, port))
    {
        return;
    }
    if (!frame.packet && p.lean && !p.trunk)
    {
        // A descriptor through a lean access port: no Packet at all.
        if (!p.lean->SendFrame(frame.desc, frame.src, frame.dst))
        {
            m_fabric->NotifyDrop(frame, port, SwitchFabric::OUTPUT_QUEUE_FULL);
        }
        return;
    }
    Ptr<const Packet> out = frame.GetPacket();
    Ptr<Packet> own; // a packet of this port's own (the tagged frame), if any
    uint16_t protocol = frame.protocol;
    if (p.trunk)
    {
        const uint8_t tag[4] = {static_cast<uint8_t>(p.vlan >> 8),
                                static_cast<uint8_t>(p.vlan & 0xff),
                                static_cast<uint8_t>(frame.protocol >> 8),
                                static_cast<uint8_t>(frame.protocol & 0xff)};
        Ptr<Packet> tagged = Create<Packet>(tag, 4);
        tagged->AddAtEnd(out);
        out = own = tagged;
        protocol = kVlan;
    }
    const bool sent
        = p.lean ? p.lean->SendShared(out, frame.src, frame.dst, protocol)
                 : p.dev->SendFrom(own ? own : out->Copy(), frame.src, frame.dst, protocol);
    if (!sent)
    {
        m_fabric->NotifyDrop(out, port, SwitchFabric::OUTPUT_QUEUE_FULL);
    }
}

void
SnoopingBridgeNetDevice::Flood(const SwitchFabric::Frame& frame)
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
SnoopingBridgeNetDevice::ToRouterPorts(const SwitchFabric::Frame& frame)
{
    for (uint32_t p : m_routerCandidates)
    {
        if (p != frame.inPort && IsRouterPort(p))
        {
            SendToPort(p, frame);
        }
    }
}

void
SnoopingBridgeNetDevice::ToGroup(const SwitchFabric::Frame& frame, uint32_t group)
{
    auto it = m_groups.find(group);
    const Time now = Simulator::Now();
    bool any = false;
    ++m_stamp;
    if (it != m_groups.end())
    {
        for (const auto& m : it->second.members)
        {
            if (m.expiry > now)
            {
                any = true;
                if (m.port != frame.inPort)
                {
                    m_mark[m.port] = m_stamp;
                    SendToPort(m.port, frame);
                }
            }
        }
    }
    if (!any && m_unregistered == FLOOD)
    {
        Flood(frame);
        return;
    }
    for (uint32_t p : m_routerCandidates)
    {
        if (p != frame.inPort && m_mark[p] != m_stamp && IsRouterPort(p))
        {
            SendToPort(p, frame);
        }
    }
}

// --- membership ------------------------------------------------------------------------------

void
SnoopingBridgeNetDevice::Join(uint32_t group, uint32_t port)
{
    const Time expiry = Simulator::Now() + m_membershipInterval;
    Group& g = m_groups[group];
    for (auto& m : g.members)
    {
        if (m.port == port)
        {
            const bool wasMember = m.expiry > Simulator::Now();
            m.expiry = expiry;
            if (!wasMember)
            {
                m_membershipTrace(Ipv4Address(group), port, true);
            }
            ArmTimer(group, g, expiry);
            return;
        }
    }
    g.members.push_back(Member{port, expiry});
    NS_LOG_LOGIC("port " << port << " joins " << Ipv4Address(group));
    m_membershipTrace(Ipv4Address(group), port, true);
    ArmTimer(group, g, expiry);
}

void
SnoopingBridgeNetDevice::Leave(uint32_t group, uint32_t port)
{
    auto it = m_groups.find(group);
    if (it == m_groups.end())
    {
        return;
    }
    Group& g = it->second;
    const Time now = Simulator::Now();
    for (auto m = g.members.begin(); m != g.members.end(); ++m)
    {
        if (m->port != port)
        {
            continue;
        }
        if (m_fastLeave)
        {
            const bool wasMember = m->expiry > now;
            g.members.erase(m);
            if (wasMember)
            {
                m_membershipTrace(Ipv4Address(group), port, false);
            }
            if (g.members.empty())
            {
                g.timer.Cancel();
                m_groups.erase(it);
            }
            return;
        }
        // Wait for the querier's group-specific queries: a remaining member refreshes the port.
        const Time cut = now + m_lastMemberInterval * static_cast<int64_t>(m_lastMemberCount);
        if (m->expiry > cut)
        {
            m->expiry = cut;
            ArmTimer(group, g, cut);
        }
        return;
    }
}

void
SnoopingBridgeNetDevice::ArmTimer(uint32_t group, Group& g, Time at)
{
    // One event per group at the earliest expiry; later expiries are found when it fires.
    if (g.timer.IsPending() && g.timerAt <= at)
    {
        return;
    }
    g.timer.Cancel();
    g.timerAt = at;
    g.timer = Simulator::Schedule(at - Simulator::Now(),
                                  &SnoopingBridgeNetDevice::GroupTimer,
                                  this,
                                  group);
}

void
SnoopingBridgeNetDevice::GroupTimer(uint32_t group)
{
    auto it = m_groups.find(group);
    if (it == m_groups.end())
    {
        return;
    }
    Group& g = it->second;
    const Time now = Simulator::Now();
    Time next = Time::Max();
    for (auto m = g.members.begin(); m != g.members.end();)
    {
        if (m->expiry <= now)
        {
            NS_LOG_LOGIC("port " << m->port << " membership of " << Ipv4Address(group)
                                 << " expired");
            m_membershipTrace(Ipv4Address(group), m->port, false);
            m = g.members.erase(m);
        }
        else
        {
            next = std::min(next, m->expiry);
            ++m;
        }
    }
    if (g.members.empty())
    {
        m_groups.erase(it);
        return;
    }
    g.timerAt = next;
    g.timer = Simulator::Schedule(next - now, &SnoopingBridgeNetDevice::GroupTimer, this, group);
}

void
SnoopingBridgeNetDevice::DeliverLocal(const SwitchFabric::Frame& frame, PacketType type)
{
    if (frame.inPort == kLocalPort)
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

// --- NetDevice -------------------------------------------------------------------------------

void
SnoopingBridgeNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
SnoopingBridgeNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
SnoopingBridgeNetDevice::GetChannel() const
{
    return nullptr;
}

void
SnoopingBridgeNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
SnoopingBridgeNetDevice::GetAddress() const
{
    return m_address;
}

bool
SnoopingBridgeNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
SnoopingBridgeNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
SnoopingBridgeNetDevice::IsLinkUp() const
{
    return true;
}

void
SnoopingBridgeNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
SnoopingBridgeNetDevice::IsBroadcast() const
{
    return true;
}

Address
SnoopingBridgeNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
SnoopingBridgeNetDevice::IsMulticast() const
{
    return true;
}

Address
SnoopingBridgeNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
SnoopingBridgeNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
SnoopingBridgeNetDevice::IsPointToPoint() const
{
    return false;
}

bool
SnoopingBridgeNetDevice::IsBridge() const
{
    return true;
}

bool
SnoopingBridgeNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
SnoopingBridgeNetDevice::SendFrom(Ptr<Packet> packet,
                                  const Address& source,
                                  const Address& dest,
                                  uint16_t protocolNumber)
{
    SwitchFabric::Frame f;
    f.packet = packet;
    f.inPort = kLocalPort;
    f.protocol = protocolNumber;
    f.src = Mac48Address::ConvertFrom(source);
    f.dst = Mac48Address::ConvertFrom(dest);
    Forward(f);
    return true;
}

Ptr<Node>
SnoopingBridgeNetDevice::GetNode() const
{
    return m_node;
}

void
SnoopingBridgeNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
SnoopingBridgeNetDevice::NeedsArp() const
{
    return true;
}

void
SnoopingBridgeNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
SnoopingBridgeNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
SnoopingBridgeNetDevice::SupportsSendFrom() const
{
    return true;
}

void
SnoopingBridgeNetDevice::SetTimers(const IgmpTimers& timers)
{
    NS_LOG_FUNCTION(this);
    SetAttribute("MembershipInterval", TimeValue(timers.GroupMembershipInterval()));
    SetAttribute("RouterPortTimeout", TimeValue(timers.OtherQuerierPresentInterval()));
    SetAttribute("LastMemberQueryInterval", TimeValue(timers.lastMemberQueryInterval));
    SetAttribute("LastMemberQueryCount", UintegerValue(timers.LastMemberQueryCount()));
}

} // namespace ns3
