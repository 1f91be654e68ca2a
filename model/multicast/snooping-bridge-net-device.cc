/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "snooping-bridge-net-device.h"

#include "igmp-header.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
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
constexpr uint8_t kIgmp = 2;
} // namespace

TypeId
SnoopingBridgeNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SnoopingBridgeNetDevice")
              .SetParent<SwitchNetDevice>()
              .SetGroupName("Testbed")
              .AddConstructor<SnoopingBridgeNetDevice>()
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
    SwitchNetDevice::DoDispose();
}

void
SnoopingBridgeNetDevice::NotifyPortAdded(uint32_t port)
{
    m_routerState.emplace_back();
    m_mark.push_back(0);
}

void
SnoopingBridgeNetDevice::SetStaticRouterPort(uint32_t port, bool router)
{
    NS_ABORT_MSG_IF(port >= GetNPorts(),
                    "SnoopingBridgeNetDevice::SetStaticRouterPort: no port " << port);
    const bool before = IsRouterPort(port);
    m_routerState[port].staticRouter = router;
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
    const RouterState& p = m_routerState.at(port);
    return p.staticRouter || p.routerUntil > Simulator::Now();
}

void
SnoopingBridgeNetDevice::LearnRouterPort(uint32_t port)
{
    const bool before = IsRouterPort(port);
    m_routerState[port].routerUntil = Simulator::Now() + m_routerPortTimeout;
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
    for (uint32_t p = 0; p < GetNPorts(); ++p)
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
        GetFabric()->NotifyDrop(frame, frame.inPort, SwitchFabric::MALFORMED_IGMP);
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
        GetFabric()->NotifyDrop(frame, frame.inPort, SwitchFabric::MALFORMED_IGMP);
        return false;
    }
    const bool fromPort = frame.inPort != LOCAL_PORT;
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
SnoopingBridgeNetDevice::SetTimers(const IgmpTimers& timers)
{
    NS_LOG_FUNCTION(this);
    SetAttribute("MembershipInterval", TimeValue(timers.GroupMembershipInterval()));
    SetAttribute("RouterPortTimeout", TimeValue(timers.OtherQuerierPresentInterval()));
    SetAttribute("LastMemberQueryInterval", TimeValue(timers.lastMemberQueryInterval));
    SetAttribute("LastMemberQueryCount", UintegerValue(timers.LastMemberQueryCount()));
}

void
SnoopingBridgeNetDevice::ForwardGroup(const SwitchFabric::Frame& frame)
{
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
}

} // namespace ns3
