/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "igmp-l4-protocol.h"

#include "ns3/boolean.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/queue-item.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IgmpL4Protocol");

NS_OBJECT_ENSURE_REGISTERED(IgmpL4Protocol);

namespace
{

const Ipv4Address kAllSystems("224.0.0.1");
const Ipv4Address kAllRouters("224.0.0.2");
const Ipv4Address kAllIgmpv3Routers("224.0.0.22");

/// A finished IPv4 datagram (header with options already added) for the traffic-control layer.
class IgmpQueueDiscItem : public QueueDiscItem
{
  public:
    IgmpQueueDiscItem(Ptr<Packet> p, const Address& addr, uint16_t protocol)
        : QueueDiscItem(p, addr, protocol)
    {
    }

    void AddHeader() override
    {
    }

    bool Mark() override
    {
        return false;
    }
};

template<typename T>
std::set<T>
Minus(const std::set<T>& a, const std::set<T>& b)
{
    std::set<T> r;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.end()));
    return r;
}

template<typename T>
std::set<T>
Inter(const std::set<T>& a, const std::set<T>& b)
{
    std::set<T> r;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.end()));
    return r;
}

} // namespace

TypeId
IgmpL4Protocol::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::IgmpL4Protocol")
              .SetParent<IpL4Protocol>()
              .SetGroupName("Testbed")
              .AddConstructor<IgmpL4Protocol>()
              .AddAttribute("Version",
                            "IGMP version run by hosts and queriers: 2 (RFC 2236) or 3 (RFC 3376). "
                            "Hosts fall back to v1/v2 when they hear older queries.",
                            UintegerValue(3),
                            MakeUintegerAccessor(&IgmpL4Protocol::m_version),
                            MakeUintegerChecker<uint8_t>(2, 3))
              .AddAttribute("Robustness",
                            "Robustness Variable (RFC 3376 8.1): transmissions of unsolicited "
                            "reports and state-change records, startup and last-member query "
                            "counts by default.",
                            UintegerValue(2),
                            MakeUintegerAccessor(&IgmpL4Protocol::m_robustness),
                            MakeUintegerChecker<uint32_t>(1, 7))
              .AddAttribute("QueryInterval",
                            "Query Interval (RFC 3376 8.2): time between general queries.",
                            TimeValue(Seconds(125)),
                            MakeTimeAccessor(&IgmpL4Protocol::m_queryInterval),
                            MakeTimeChecker(MilliSeconds(100), Seconds(31744)))
              .AddAttribute("QueryResponseInterval",
                            "Query Response Interval (RFC 3376 8.3): Max Resp Time of general "
                            "queries. Must be below QueryInterval.",
                            TimeValue(Seconds(10)),
                            MakeTimeAccessor(&IgmpL4Protocol::m_queryResponseInterval),
                            MakeTimeChecker(MilliSeconds(100), Seconds(3174.4)))
              .AddAttribute("StartupQueryCount",
                            "Startup Query Count (RFC 3376 8.7); 0 = Robustness.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&IgmpL4Protocol::m_startupQueryCount),
                            MakeUintegerChecker<uint32_t>(0, 100))
              .AddAttribute("StartupQueryInterval",
                            "Startup Query Interval (RFC 3376 8.6); 0 = QueryInterval / 4.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&IgmpL4Protocol::m_startupQueryInterval),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("LastMemberQueryInterval",
                            "Last Member Query Interval (RFC 3376 8.8): Max Resp Time of and time "
                            "between group-specific queries.",
                            TimeValue(Seconds(1)),
                            MakeTimeAccessor(&IgmpL4Protocol::m_lastMemberQueryInterval),
                            MakeTimeChecker(MilliSeconds(100), Seconds(25.5)))
              .AddAttribute("LastMemberQueryCount",
                            "Last Member Query Count (RFC 3376 8.9); 0 = Robustness.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&IgmpL4Protocol::m_lastMemberQueryCount),
                            MakeUintegerChecker<uint32_t>(0, 100))
              .AddAttribute("UnsolicitedReportIntervalV2",
                            "Unsolicited Report Interval of IGMPv1/v2 hosts (RFC 2236 8.10): "
                            "upper bound of the random delay between repeated join reports.",
                            TimeValue(Seconds(10)),
                            MakeTimeAccessor(&IgmpL4Protocol::m_unsolicitedV2),
                            MakeTimeChecker(MilliSeconds(1)))
              .AddAttribute("UnsolicitedReportIntervalV3",
                            "Unsolicited Report Interval of IGMPv3 hosts (RFC 3376 8.11): upper "
                            "bound of the random delay between state-change retransmissions.",
                            TimeValue(Seconds(1)),
                            MakeTimeAccessor(&IgmpL4Protocol::m_unsolicitedV3),
                            MakeTimeChecker(MilliSeconds(1)))
              .AddAttribute("GroupMembershipInterval",
                            "Group Membership Interval (RFC 3376 8.4); 0 = Robustness * "
                            "QueryInterval + QueryResponseInterval (260 s by default).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&IgmpL4Protocol::m_gmiOverride),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("OtherQuerierPresentInterval",
                            "Other Querier Present Interval (RFC 3376 8.5); 0 = Robustness * "
                            "QueryInterval + QueryResponseInterval / 2 (255 s by default).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&IgmpL4Protocol::m_oqpiOverride),
                            MakeTimeChecker(Seconds(0)))
              .AddTraceSource("Tx",
                              "An IGMP message was sent (message, interface, destination).",
                              MakeTraceSourceAccessor(&IgmpL4Protocol::m_txTrace),
                              "ns3::IgmpL4Protocol::MessageTracedCallback")
              .AddTraceSource("Rx",
                              "A well-formed IGMP message was received (message, interface, "
                              "source).",
                              MakeTraceSourceAccessor(&IgmpL4Protocol::m_rxTrace),
                              "ns3::IgmpL4Protocol::MessageTracedCallback")
              .AddTraceSource("Malformed",
                              "A malformed IGMP message was dropped (packet, interface, reason "
                              "= IgmpHeader::ParseResult).",
                              MakeTraceSourceAccessor(&IgmpL4Protocol::m_malformedTrace),
                              "ns3::IgmpL4Protocol::MalformedTracedCallback")
              .AddTraceSource("HostState",
                              "Host group state changed (interface, group, HostState; v3 "
                              "membership changes are reported as IDLE_MEMBER / NON_MEMBER).",
                              MakeTraceSourceAccessor(&IgmpL4Protocol::m_hostStateTrace),
                              "ns3::IgmpL4Protocol::GroupStateTracedCallback")
              .AddTraceSource("RouterGroup",
                              "A group appeared (1) in or left (0) the router's table.",
                              MakeTraceSourceAccessor(&IgmpL4Protocol::m_routerGroupTrace),
                              "ns3::IgmpL4Protocol::GroupStateTracedCallback")
              .AddTraceSource("Querier",
                              "This router became querier (true) or non-querier (false).",
                              MakeTraceSourceAccessor(&IgmpL4Protocol::m_querierTrace),
                              "ns3::IgmpL4Protocol::QuerierTracedCallback");
    return tid;
}

IgmpL4Protocol::IgmpL4Protocol()
{
    NS_LOG_FUNCTION(this);
    m_rng = CreateObject<UniformRandomVariable>();
}

IgmpL4Protocol::~IgmpL4Protocol()
{
}

void
IgmpL4Protocol::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
}

void
IgmpL4Protocol::NotifyNewAggregate()
{
    NS_LOG_FUNCTION(this);
    if (!m_node)
    {
        Ptr<Node> node = GetObject<Node>();
        if (node)
        {
            Ptr<Ipv4L3Protocol> ipv4 = GetObject<Ipv4L3Protocol>();
            if (ipv4)
            {
                SetNode(node);
                m_ipv4 = ipv4;
                ipv4->Insert(this);
            }
        }
    }
    IpL4Protocol::NotifyNewAggregate();
}

void
IgmpL4Protocol::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& [i, itf] : m_ifs)
    {
        itf.generalResponse.Cancel();
        itf.stateChangeTimer.Cancel();
        itf.queryEvent.Cancel();
        itf.otherQuerierEvent.Cancel();
        for (auto& [g, hg] : itf.host)
        {
            hg.reportTimer.Cancel();
        }
        for (auto& [g, rg] : itf.groups)
        {
            rg.lmqEvent.Cancel();
            rg.expiry.Cancel();
        }
    }
    m_ifs.clear();
    m_txHook = TransmitHook();
    m_node = nullptr;
    m_ipv4 = nullptr;
    m_downTarget = IpL4Protocol::DownTargetCallback();
    m_downTarget6 = IpL4Protocol::DownTargetCallback6();
    IpL4Protocol::DoDispose();
}

int
IgmpL4Protocol::GetProtocolNumber() const
{
    return PROT_NUMBER;
}

void
IgmpL4Protocol::SetDownTarget(IpL4Protocol::DownTargetCallback cb)
{
    m_downTarget = cb;
}

void
IgmpL4Protocol::SetDownTarget6(IpL4Protocol::DownTargetCallback6 cb)
{
    m_downTarget6 = cb;
}

IpL4Protocol::DownTargetCallback
IgmpL4Protocol::GetDownTarget() const
{
    return m_downTarget;
}

IpL4Protocol::DownTargetCallback6
IgmpL4Protocol::GetDownTarget6() const
{
    return m_downTarget6;
}

int64_t
IgmpL4Protocol::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

const IgmpL4Protocol::Stats&
IgmpL4Protocol::GetStats() const
{
    return m_stats;
}

void
IgmpL4Protocol::SetMuted(bool muted)
{
    NS_LOG_FUNCTION(this << muted);
    m_muted = muted;
}

// --- derived timers --------------------------------------------------------------------------

Time
IgmpL4Protocol::GetGroupMembershipInterval() const
{
    if (!m_gmiOverride.IsZero())
    {
        return m_gmiOverride;
    }
    return m_queryInterval * static_cast<int64_t>(m_robustness) + m_queryResponseInterval;
}

Time
IgmpL4Protocol::GetOtherQuerierPresentInterval() const
{
    if (!m_oqpiOverride.IsZero())
    {
        return m_oqpiOverride;
    }
    return m_queryInterval * static_cast<int64_t>(m_robustness) + m_queryResponseInterval / 2;
}

uint32_t
IgmpL4Protocol::LastMemberQueryCount() const
{
    return m_lastMemberQueryCount == 0 ? m_robustness : m_lastMemberQueryCount;
}

Time
IgmpL4Protocol::GetLastMemberQueryTime() const
{
    return m_lastMemberQueryInterval * static_cast<int64_t>(LastMemberQueryCount());
}

Time
IgmpL4Protocol::GetOlderVersionQuerierPresentTimeout() const
{
    return m_queryInterval * static_cast<int64_t>(m_robustness) + m_queryResponseInterval;
}

// --- helpers ---------------------------------------------------------------------------------

IgmpL4Protocol::Interface&
IgmpL4Protocol::GetIf(uint32_t ifIndex)
{
    return m_ifs[ifIndex];
}

const IgmpL4Protocol::Interface*
IgmpL4Protocol::FindIf(uint32_t ifIndex) const
{
    auto it = m_ifs.find(ifIndex);
    return it == m_ifs.end() ? nullptr : &it->second;
}

Ipv4Address
IgmpL4Protocol::GetIfAddress(uint32_t ifIndex) const
{
    if (m_ipv4 && ifIndex < m_ipv4->GetNInterfaces() && m_ipv4->GetNAddresses(ifIndex) > 0)
    {
        return m_ipv4->GetAddress(ifIndex, 0).GetLocal();
    }
    return Ipv4Address::GetAny();
}

Time
IgmpL4Protocol::UnsolicitedInterval(uint32_t ifIndex) const
{
    return GetHostCompatibilityMode(ifIndex) == 3 ? m_unsolicitedV3 : m_unsolicitedV2;
}

Time
IgmpL4Protocol::RandomDelay(Time max)
{
    return NanoSeconds(
        static_cast<int64_t>(m_rng->GetValue(0.0, static_cast<double>(max.GetNanoSeconds()))));
}

uint8_t
IgmpL4Protocol::GetHostCompatibilityMode(uint32_t ifIndex) const
{
    const Interface* itf = FindIf(ifIndex);
    const Time now = Simulator::Now();
    if (itf && itf->v1QuerierUntil > now)
    {
        return 1;
    }
    if (m_version == 2 || (itf && itf->v2QuerierUntil > now))
    {
        return 2;
    }
    return 3;
}

// --- transmission ----------------------------------------------------------------------------

void
IgmpL4Protocol::SetTransmitHook(TransmitHook hook)
{
    NS_LOG_FUNCTION(this);
    m_txHook = std::move(hook);
}

void
IgmpL4Protocol::SendMessage(uint32_t ifIndex, Ipv4Address dst, const IgmpHeader& msg)
{
    if (m_txHook)
    {
        Ptr<IgmpL4Protocol> self(this);
        m_txHook([self, ifIndex, dst, msg]() {
            if (self->m_ipv4)
            {
                self->DoSendMessage(ifIndex, dst, msg);
            }
        });
        return;
    }
    DoSendMessage(ifIndex, dst, msg);
}

void
IgmpL4Protocol::DoSendMessage(uint32_t ifIndex, Ipv4Address dst, const IgmpHeader& msg)
{
    NS_LOG_FUNCTION(this << ifIndex << dst << msg);
    if (m_muted)
    {
        NS_LOG_LOGIC("muted: not sending " << msg);
        return;
    }
    NS_ABORT_MSG_IF(!m_ipv4 || ifIndex >= m_ipv4->GetNInterfaces(),
                    "IgmpL4Protocol: no IPv4 interface " << ifIndex);
    Ptr<NetDevice> dev = m_ipv4->GetNetDevice(ifIndex);
    if (!m_ipv4->IsUp(ifIndex) || !dev->IsLinkUp())
    {
        NS_LOG_LOGIC("interface " << ifIndex << " down: not sending");
        return;
    }
    switch (msg.GetType())
    {
        case IgmpHeader::MEMBERSHIP_QUERY:
            ++m_stats.txQueries;
            break;
        case IgmpHeader::V2_LEAVE_GROUP:
            ++m_stats.txLeaves;
            break;
        default:
            ++m_stats.txReports;
    }
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(msg);
    Ipv4RouterAlertHeader ip;
    ip.source = GetIfAddress(ifIndex);
    ip.destination = dst;
    ip.payloadSize = static_cast<uint16_t>(p->GetSize());
    ip.identification = m_ipId++;
    p->AddHeader(ip);
    m_txTrace(msg, ifIndex, dst);
    Ptr<TrafficControlLayer> tc = m_node->GetObject<TrafficControlLayer>();
    Address mac = dev->GetMulticast(dst);
    if (tc)
    {
        tc->Send(dev, Create<IgmpQueueDiscItem>(p, mac, Ipv4L3Protocol::PROT_NUMBER));
    }
    else
    {
        dev->Send(p, mac, Ipv4L3Protocol::PROT_NUMBER);
    }
}

void
IgmpL4Protocol::SendV3Records(uint32_t ifIndex, const std::vector<IgmpGroupRecord>& records)
{
    if (records.empty())
    {
        return;
    }
    // Split at the interface MTU (RFC 3376 4.2.16).
    const uint32_t mtu = m_ipv4->GetMtu(ifIndex);
    const uint32_t room = mtu > 32 ? mtu - 24 - 8 : 0;
    std::vector<IgmpGroupRecord> batch;
    uint32_t size = 0;
    for (const auto& r : records)
    {
        const uint32_t rs = 8 + 4 * r.sources.size();
        if (!batch.empty() && size + rs > room)
        {
            SendMessage(ifIndex, kAllIgmpv3Routers, IgmpHeader::MakeV3Report(batch));
            batch.clear();
            size = 0;
        }
        batch.push_back(r);
        size += rs;
    }
    SendMessage(ifIndex, kAllIgmpv3Routers, IgmpHeader::MakeV3Report(batch));
}

// --- socket API ------------------------------------------------------------------------------

int32_t
IgmpL4Protocol::ResolveInterface(Ptr<Socket> socket, int32_t ifIndex)
{
    NS_ABORT_MSG_IF(!socket, "IgmpL4Protocol: null socket");
    Ptr<Ipv4L3Protocol> ipv4 = socket->GetNode()->GetObject<Ipv4L3Protocol>();
    NS_ABORT_MSG_IF(!ipv4, "IgmpL4Protocol: node " << socket->GetNode()->GetId() << " has no IPv4");
    if (ifIndex >= 0)
    {
        NS_ABORT_MSG_IF(static_cast<uint32_t>(ifIndex) >= ipv4->GetNInterfaces(),
                        "IgmpL4Protocol: interface index " << ifIndex << " out of range");
        return ifIndex;
    }
    if (Ptr<NetDevice> bound = socket->GetBoundNetDevice())
    {
        return ipv4->GetInterfaceForDevice(bound);
    }
    for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
    {
        Ptr<NetDevice> dev = ipv4->GetNetDevice(i);
        if (!DynamicCast<LoopbackNetDevice>(dev) && ipv4->IsUp(i) && dev->IsMulticast())
        {
            return i;
        }
    }
    NS_FATAL_ERROR("IgmpL4Protocol: node " << socket->GetNode()->GetId()
                                           << " has no up, multicast-capable interface to join on");
}

namespace
{
Ptr<IgmpL4Protocol>
IgmpOf(Ptr<Socket> socket)
{
    NS_ABORT_MSG_IF(!socket, "IgmpL4Protocol: null socket");
    Ptr<IgmpL4Protocol> igmp = socket->GetNode()->GetObject<IgmpL4Protocol>();
    NS_ABORT_MSG_IF(!igmp,
                    "IgmpL4Protocol: node " << socket->GetNode()->GetId()
                                            << " has no IGMP (use IgmpHelper::Install)");
    return igmp;
}
} // namespace

void
IgmpL4Protocol::JoinGroup(Ptr<Socket> socket, Ipv4Address group, int32_t ifIndex)
{
    SetSourceFilter(socket, group, EXCLUDE, {}, ifIndex);
}

void
IgmpL4Protocol::LeaveGroup(Ptr<Socket> socket, Ipv4Address group, int32_t ifIndex)
{
    SetSourceFilter(socket, group, INCLUDE, {}, ifIndex);
}

void
IgmpL4Protocol::SetSourceFilter(Ptr<Socket> socket,
                                Ipv4Address group,
                                FilterMode mode,
                                const std::vector<Ipv4Address>& sources,
                                int32_t ifIndex)
{
    Ptr<IgmpL4Protocol> igmp = IgmpOf(socket);
    const int32_t i = ResolveInterface(socket, ifIndex);
    igmp->SetOwnerFilter(i, reinterpret_cast<uintptr_t>(PeekPointer(socket)), group, mode, sources);
}

void
IgmpL4Protocol::LeaveAll(Ptr<Socket> socket)
{
    IgmpOf(socket)->RemoveOwner(reinterpret_cast<uintptr_t>(PeekPointer(socket)));
}

bool
IgmpL4Protocol::GroupActive(const HostGroup& g)
{
    return g.mode == EXCLUDE || !g.sources.empty();
}

void
IgmpL4Protocol::SetOwnerFilter(uint32_t ifIndex,
                               uintptr_t owner,
                               Ipv4Address group,
                               FilterMode mode,
                               const std::vector<Ipv4Address>& sources)
{
    NS_LOG_FUNCTION(this << ifIndex << owner << group << +mode << sources.size());
    NS_ABORT_MSG_IF(!group.IsMulticast(),
                    "IgmpL4Protocol: " << group << " is not a multicast group address");
    NS_ABORT_MSG_IF(!m_ipv4 || ifIndex >= m_ipv4->GetNInterfaces(),
                    "IgmpL4Protocol: interface index " << ifIndex << " out of range");
    if (group == kAllSystems)
    {
        return; // always joined, never reported (RFC 2236 section 6)
    }
    Interface& itf = GetIf(ifIndex);
    HostGroup& g = itf.host[group];
    const FilterMode oldMode = g.mode;
    const std::set<Ipv4Address> oldSources = g.sources;
    if (mode == INCLUDE && sources.empty())
    {
        g.owners.erase(owner);
    }
    else
    {
        g.owners[owner] = {mode, std::set<Ipv4Address>(sources.begin(), sources.end())};
    }
    // Merge (RFC 3376 section 3.2).
    bool anyExclude = false;
    std::set<Ipv4Address> inclUnion;
    std::set<Ipv4Address> exclInter;
    bool firstExcl = true;
    for (const auto& [o, f] : g.owners)
    {
        if (f.first == EXCLUDE)
        {
            anyExclude = true;
            exclInter = firstExcl ? f.second : Inter(exclInter, f.second);
            firstExcl = false;
        }
        else
        {
            inclUnion.insert(f.second.begin(), f.second.end());
        }
    }
    g.mode = anyExclude ? EXCLUDE : INCLUDE;
    g.sources = anyExclude ? Minus(exclInter, inclUnion) : inclUnion;
    if (g.mode != oldMode || g.sources != oldSources)
    {
        HostStateChanged(ifIndex, group, oldMode, oldSources);
    }
    MaybeEraseHostGroup(ifIndex, group);
}

void
IgmpL4Protocol::RemoveOwner(uintptr_t owner)
{
    NS_LOG_FUNCTION(this << owner);
    std::vector<std::pair<uint32_t, Ipv4Address>> todo;
    for (const auto& [i, itf] : m_ifs)
    {
        for (const auto& [g, hg] : itf.host)
        {
            if (hg.owners.count(owner))
            {
                todo.emplace_back(i, g);
            }
        }
    }
    for (const auto& [i, g] : todo)
    {
        SetOwnerFilter(i, owner, g, INCLUDE, {});
    }
}

bool
IgmpL4Protocol::IsMember(uint32_t ifIndex, Ipv4Address group, Ipv4Address source) const
{
    if (group == kAllSystems)
    {
        return true;
    }
    const Interface* itf = FindIf(ifIndex);
    if (!itf)
    {
        return false;
    }
    auto it = itf->host.find(group);
    if (it == itf->host.end() || !GroupActive(it->second))
    {
        return false;
    }
    if (source == Ipv4Address::GetAny())
    {
        return true;
    }
    const bool listed = it->second.sources.count(source) > 0;
    return it->second.mode == INCLUDE ? listed : !listed;
}

IgmpL4Protocol::HostState
IgmpL4Protocol::GetHostState(uint32_t ifIndex, Ipv4Address group) const
{
    const Interface* itf = FindIf(ifIndex);
    if (!itf)
    {
        return NON_MEMBER;
    }
    auto it = itf->host.find(group);
    return it == itf->host.end() ? NON_MEMBER : it->second.v2State;
}

void
IgmpL4Protocol::MaybeEraseHostGroup(uint32_t ifIndex, Ipv4Address group)
{
    Interface& itf = GetIf(ifIndex);
    auto it = itf.host.find(group);
    if (it == itf.host.end())
    {
        return;
    }
    HostGroup& g = it->second;
    if (g.owners.empty() && !GroupActive(g) && g.change.filterModeRetrans == 0
        && g.change.allow.empty() && g.change.block.empty() && !g.reportTimer.IsPending())
    {
        itf.host.erase(it);
    }
}

void
IgmpL4Protocol::SetHostV2State(uint32_t ifIndex, Ipv4Address group, HostGroup& g, HostState s)
{
    if (g.v2State != s)
    {
        NS_LOG_LOGIC("if " << ifIndex << " group " << group << " host state " << +g.v2State
                           << " -> " << +s);
        g.v2State = s;
        m_hostStateTrace(ifIndex, group, s);
    }
}

// --- host: state changes ---------------------------------------------------------------------

void
IgmpL4Protocol::HostStateChanged(uint32_t ifIndex,
                                 Ipv4Address group,
                                 FilterMode oldMode,
                                 const std::set<Ipv4Address>& oldSources)
{
    Interface& itf = GetIf(ifIndex);
    HostGroup& g = itf.host[group];
    const bool wasActive = oldMode == EXCLUDE || !oldSources.empty();
    const bool active = GroupActive(g);
    NS_LOG_FUNCTION(this << ifIndex << group << wasActive << active);
    if (GetHostCompatibilityMode(ifIndex) < 3)
    {
        // RFC 3376 7.2.1: only joins and leaves are visible to v1/v2 queriers.
        if (!wasActive && active)
        {
            HostV2Join(ifIndex, group);
        }
        else if (wasActive && !active)
        {
            HostV2Leave(ifIndex, group);
        }
        return;
    }
    // IGMPv3 state-change records (RFC 3376 section 5.1).
    PendingChange& c = g.change;
    if (g.mode != oldMode)
    {
        c.filterModeRetrans = m_robustness;
        c.allow.clear();
        c.block.clear();
    }
    else if (c.filterModeRetrans > 0)
    {
        c.filterModeRetrans = m_robustness; // the pending TO_xx record carries the new state
    }
    else
    {
        std::set<Ipv4Address> allow;
        std::set<Ipv4Address> block;
        if (g.mode == INCLUDE)
        {
            allow = Minus(g.sources, oldSources);
            block = Minus(oldSources, g.sources);
        }
        else
        {
            allow = Minus(oldSources, g.sources);
            block = Minus(g.sources, oldSources);
        }
        for (const auto& s : allow)
        {
            c.allow[s] = m_robustness;
            c.block.erase(s);
        }
        for (const auto& s : block)
        {
            c.block[s] = m_robustness;
            c.allow.erase(s);
        }
    }
    m_hostStateTrace(ifIndex, group, active ? IDLE_MEMBER : NON_MEMBER);
    g.v2State = active ? IDLE_MEMBER : NON_MEMBER;
    if (!active)
    {
        // A pending query response for a group we left is void.
        g.reportTimer.Cancel();
        g.pendingGroupQuery = false;
        g.querySources.clear();
    }
    // Send now; retransmissions follow at random delays.
    itf.stateChangeTimer.Cancel();
    HostStateChangeTimer(ifIndex);
}

void
IgmpL4Protocol::HostStateChangeTimer(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    Interface& itf = GetIf(ifIndex);
    std::vector<IgmpGroupRecord> records;
    bool more = false;
    std::vector<Ipv4Address> done;
    for (auto& [group, g] : itf.host)
    {
        PendingChange& c = g.change;
        if (c.filterModeRetrans > 0)
        {
            IgmpGroupRecord r;
            r.type = g.mode == INCLUDE ? IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE
                                       : IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE;
            r.group = group;
            r.sources.assign(g.sources.begin(), g.sources.end());
            records.push_back(std::move(r));
            --c.filterModeRetrans;
        }
        else
        {
            for (auto* list : {&c.allow, &c.block})
            {
                if (list->empty())
                {
                    continue;
                }
                IgmpGroupRecord r;
                r.type = list == &c.allow ? IgmpGroupRecord::ALLOW_NEW_SOURCES
                                          : IgmpGroupRecord::BLOCK_OLD_SOURCES;
                r.group = group;
                for (auto it = list->begin(); it != list->end();)
                {
                    r.sources.push_back(it->first);
                    if (--it->second == 0)
                    {
                        it = list->erase(it);
                    }
                    else
                    {
                        ++it;
                    }
                }
                records.push_back(std::move(r));
            }
        }
        if (c.filterModeRetrans > 0 || !c.allow.empty() || !c.block.empty())
        {
            more = true;
        }
        else
        {
            done.push_back(group);
        }
    }
    SendV3Records(ifIndex, records);
    for (const auto& group : done)
    {
        MaybeEraseHostGroup(ifIndex, group);
    }
    if (more)
    {
        itf.stateChangeTimer = Simulator::Schedule(RandomDelay(m_unsolicitedV3),
                                                   &IgmpL4Protocol::HostStateChangeTimer,
                                                   this,
                                                   ifIndex);
    }
}

void
IgmpL4Protocol::HostV2Report(uint32_t ifIndex, Ipv4Address group)
{
    const uint8_t mode = GetHostCompatibilityMode(ifIndex);
    SendMessage(ifIndex,
                group,
                IgmpHeader::MakeV2Message(mode == 1 ? IgmpHeader::V1_MEMBERSHIP_REPORT
                                                    : IgmpHeader::V2_MEMBERSHIP_REPORT,
                                          group));
}

void
IgmpL4Protocol::HostV2Join(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    HostGroup& g = GetIf(ifIndex).host[group];
    // RFC 2236 6: "join group": send report, set flag, start timer (the report is repeated
    // [Robustness Variable] - 1 times after random delays within the Unsolicited Report Interval).
    HostV2Report(ifIndex, group);
    g.lastReporter = true;
    g.unsolicitedLeft = m_robustness - 1;
    g.reportTimer.Cancel();
    if (g.unsolicitedLeft > 0)
    {
        g.reportTimer = Simulator::Schedule(RandomDelay(UnsolicitedInterval(ifIndex)),
                                            &IgmpL4Protocol::HostV2TimerExpired,
                                            this,
                                            ifIndex,
                                            group);
        SetHostV2State(ifIndex, group, g, DELAYING_MEMBER);
    }
    else
    {
        SetHostV2State(ifIndex, group, g, IDLE_MEMBER);
    }
}

void
IgmpL4Protocol::HostV2TimerExpired(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    Interface& itf = GetIf(ifIndex);
    auto it = itf.host.find(group);
    if (it == itf.host.end())
    {
        return;
    }
    HostGroup& g = it->second;
    // RFC 2236 6: "timer expired": send report, set flag -> Idle Member.
    HostV2Report(ifIndex, group);
    g.lastReporter = true;
    if (g.unsolicitedLeft > 0)
    {
        --g.unsolicitedLeft;
    }
    if (g.unsolicitedLeft > 0)
    {
        g.reportTimer = Simulator::Schedule(RandomDelay(UnsolicitedInterval(ifIndex)),
                                            &IgmpL4Protocol::HostV2TimerExpired,
                                            this,
                                            ifIndex,
                                            group);
    }
    else
    {
        SetHostV2State(ifIndex, group, g, IDLE_MEMBER);
    }
}

void
IgmpL4Protocol::HostV2Leave(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    HostGroup& g = GetIf(ifIndex).host[group];
    g.reportTimer.Cancel();
    g.unsolicitedLeft = 0;
    // RFC 2236 6: "leave group": send leave if flag set (not to an IGMPv1 querier).
    if (g.lastReporter && GetHostCompatibilityMode(ifIndex) == 2)
    {
        SendMessage(ifIndex,
                    kAllRouters,
                    IgmpHeader::MakeV2Message(IgmpHeader::V2_LEAVE_GROUP, group));
    }
    g.lastReporter = false;
    SetHostV2State(ifIndex, group, g, NON_MEMBER);
}

// --- host: queries and reports ---------------------------------------------------------------

void
IgmpL4Protocol::HostReceiveQuery(uint32_t ifIndex, const IgmpHeader& q)
{
    Interface& itf = GetIf(ifIndex);
    const Time now = Simulator::Now();
    const uint8_t before = GetHostCompatibilityMode(ifIndex);
    const uint8_t qv = q.GetQueryVersion();
    if (qv == 1)
    {
        itf.v1QuerierUntil = now + GetOlderVersionQuerierPresentTimeout();
    }
    else if (qv == 2)
    {
        itf.v2QuerierUntil = now + GetOlderVersionQuerierPresentTimeout();
    }
    const uint8_t mode = GetHostCompatibilityMode(ifIndex);
    if (before == 3 && mode < 3)
    {
        // RFC 3376 7.2.1: cancel pending v3 responses and retransmissions on the switch.
        NS_LOG_LOGIC("if " << ifIndex << " host compatibility mode 3 -> " << +mode);
        itf.generalResponse.Cancel();
        itf.stateChangeTimer.Cancel();
        for (auto& [group, g] : itf.host)
        {
            g.reportTimer.Cancel();
            g.pendingGroupQuery = false;
            g.querySources.clear();
            g.change = PendingChange();
            g.lastReporter = GroupActive(g);
            g.v2State = GroupActive(g) ? IDLE_MEMBER : NON_MEMBER;
        }
    }
    const Ipv4Address group = q.GetGroup();
    const Time maxResp = q.GetMaxRespTime();
    if (mode < 3)
    {
        // RFC 2236 6: "query received": start (or shorten) the report timer of each matching
        // active group.
        for (auto& [gaddr, g] : itf.host)
        {
            if (!GroupActive(g) || (group != Ipv4Address::GetAny() && group != gaddr))
            {
                continue;
            }
            const bool running = g.reportTimer.IsPending();
            if (running && Simulator::GetDelayLeft(g.reportTimer) <= maxResp)
            {
                continue;
            }
            g.reportTimer.Cancel();
            g.unsolicitedLeft = 0;
            g.reportTimer = Simulator::Schedule(RandomDelay(maxResp),
                                                &IgmpL4Protocol::HostV2TimerExpired,
                                                this,
                                                ifIndex,
                                                gaddr);
            SetHostV2State(ifIndex, gaddr, g, DELAYING_MEMBER);
        }
        return;
    }
    // IGMPv3 (RFC 3376 5.2): schedule the response.
    const Time delay = RandomDelay(maxResp);
    // Rule 1: a pending general response that is sooner covers this query.
    if (itf.generalResponse.IsPending() && Simulator::GetDelayLeft(itf.generalResponse) < delay)
    {
        return;
    }
    if (group == Ipv4Address::GetAny())
    {
        // Rule 2.
        itf.generalResponse.Cancel();
        itf.generalResponse
            = Simulator::Schedule(delay, &IgmpL4Protocol::HostGeneralResponse, this, ifIndex);
        return;
    }
    auto it = itf.host.find(group);
    if (it == itf.host.end() || !GroupActive(it->second))
    {
        return;
    }
    HostGroup& g = it->second;
    const auto& qs = q.GetSources();
    if (!g.pendingGroupQuery)
    {
        // Rule 3.
        g.pendingGroupQuery = true;
        g.querySources = std::set<Ipv4Address>(qs.begin(), qs.end());
        g.reportTimer.Cancel();
        g.reportTimer
            = Simulator::Schedule(delay, &IgmpL4Protocol::HostGroupResponse, this, ifIndex, group);
        return;
    }
    // Rules 4 and 5.
    if (qs.empty() || g.querySources.empty())
    {
        g.querySources.clear();
    }
    else
    {
        g.querySources.insert(qs.begin(), qs.end());
    }
    const Time left = Simulator::GetDelayLeft(g.reportTimer);
    if (delay < left)
    {
        g.reportTimer.Cancel();
        g.reportTimer
            = Simulator::Schedule(delay, &IgmpL4Protocol::HostGroupResponse, this, ifIndex, group);
    }
}

void
IgmpL4Protocol::HostGeneralResponse(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    Interface& itf = GetIf(ifIndex);
    std::vector<IgmpGroupRecord> records;
    for (const auto& [group, g] : itf.host)
    {
        if (!GroupActive(g))
        {
            continue;
        }
        IgmpGroupRecord r;
        r.type = g.mode == INCLUDE ? IgmpGroupRecord::MODE_IS_INCLUDE
                                   : IgmpGroupRecord::MODE_IS_EXCLUDE;
        r.group = group;
        r.sources.assign(g.sources.begin(), g.sources.end());
        records.push_back(std::move(r));
    }
    SendV3Records(ifIndex, records);
}

void
IgmpL4Protocol::HostGroupResponse(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    Interface& itf = GetIf(ifIndex);
    auto it = itf.host.find(group);
    if (it == itf.host.end())
    {
        return;
    }
    HostGroup& g = it->second;
    g.pendingGroupQuery = false;
    IgmpGroupRecord r;
    r.group = group;
    if (g.querySources.empty())
    {
        r.type = g.mode == INCLUDE ? IgmpGroupRecord::MODE_IS_INCLUDE
                                   : IgmpGroupRecord::MODE_IS_EXCLUDE;
        r.sources.assign(g.sources.begin(), g.sources.end());
    }
    else
    {
        r.type = IgmpGroupRecord::MODE_IS_INCLUDE;
        auto s = g.mode == INCLUDE ? Inter(g.sources, g.querySources)
                                   : Minus(g.querySources, g.sources);
        r.sources.assign(s.begin(), s.end());
        g.querySources.clear();
        if (r.sources.empty())
        {
            return; // RFC 3376 5.2: no response if the computed set is empty
        }
    }
    if (!GroupActive(g))
    {
        return;
    }
    SendV3Records(ifIndex, {r});
}

void
IgmpL4Protocol::HostReceiveReport(uint32_t ifIndex, Ipv4Address group)
{
    Interface& itf = GetIf(ifIndex);
    auto it = itf.host.find(group);
    if (it == itf.host.end() || GetHostCompatibilityMode(ifIndex) == 3)
    {
        return; // IGMPv3 hosts do not suppress (RFC 3376 section 5.2)
    }
    HostGroup& g = it->second;
    if (g.v2State == DELAYING_MEMBER)
    {
        // RFC 2236 6: "report received" in Delaying Member: stop timer, clear flag.
        NS_LOG_LOGIC("if " << ifIndex << " group " << group << ": report suppressed");
        g.reportTimer.Cancel();
        g.unsolicitedLeft = 0;
        g.lastReporter = false;
        ++m_stats.suppressed;
        SetHostV2State(ifIndex, group, g, IDLE_MEMBER);
    }
}

// --- receive ---------------------------------------------------------------------------------

IpL4Protocol::RxStatus
IgmpL4Protocol::Receive(Ptr<Packet> p, const Ipv4Header& header, Ptr<Ipv4Interface> incoming)
{
    NS_LOG_FUNCTION(this << p << header << incoming);
    const int32_t idx = m_ipv4->GetInterfaceForDevice(incoming->GetDevice());
    NS_ASSERT(idx >= 0);
    const uint32_t ifIndex = static_cast<uint32_t>(idx);
    const uint32_t len = p->GetSize();
    uint8_t stackBuf[256];
    std::vector<uint8_t> heapBuf;
    uint8_t* buf = stackBuf;
    if (len > sizeof(stackBuf))
    {
        heapBuf.resize(len);
        buf = heapBuf.data();
    }
    p->CopyData(buf, len);
    IgmpHeader h;
    const IgmpHeader::ParseResult r = h.Parse(buf, len);
    if (r != IgmpHeader::PARSE_OK)
    {
        ++m_stats.rxMalformed;
        NS_LOG_LOGIC("malformed IGMP from " << header.GetSource() << ": "
                                            << IgmpHeader::ParseResultName(r));
        m_malformedTrace(p, ifIndex, r);
        return r == IgmpHeader::PARSE_BAD_CHECKSUM ? IpL4Protocol::RX_CSUM_FAILED
                                                   : IpL4Protocol::RX_OK;
    }
    const Ipv4Address src = header.GetSource();
    if (src == GetIfAddress(ifIndex) && src != Ipv4Address::GetAny())
    {
        return IpL4Protocol::RX_OK; // our own message looped back
    }
    m_rxTrace(h, ifIndex, src);
    Interface& itf = GetIf(ifIndex);
    switch (h.GetType())
    {
        case IgmpHeader::MEMBERSHIP_QUERY:
            ++m_stats.rxQueries;
            HostReceiveQuery(ifIndex, h);
            if (itf.router)
            {
                RouterReceiveQuery(ifIndex, src, h);
            }
            break;
        case IgmpHeader::V1_MEMBERSHIP_REPORT:
        case IgmpHeader::V2_MEMBERSHIP_REPORT:
            ++m_stats.rxReports;
            if (!h.GetGroup().IsMulticast() || h.GetGroup() == kAllSystems)
            {
                break;
            }
            HostReceiveReport(ifIndex, h.GetGroup());
            if (itf.router)
            {
                IgmpGroupRecord rec;
                rec.type = IgmpGroupRecord::MODE_IS_EXCLUDE;
                rec.group = h.GetGroup();
                RouterReceiveRecord(ifIndex,
                                    rec,
                                    h.GetType() == IgmpHeader::V1_MEMBERSHIP_REPORT ? 1 : 2);
            }
            break;
        case IgmpHeader::V2_LEAVE_GROUP:
            ++m_stats.rxLeaves;
            if (itf.router && h.GetGroup().IsMulticast())
            {
                IgmpGroupRecord rec;
                rec.type = IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE;
                rec.group = h.GetGroup();
                RouterReceiveRecord(ifIndex, rec, 0);
            }
            break;
        case IgmpHeader::V3_MEMBERSHIP_REPORT:
            ++m_stats.rxReports;
            if (itf.router)
            {
                for (const auto& rec : h.GetRecords())
                {
                    if (rec.group.IsMulticast() && rec.group != kAllSystems && rec.type >= 1
                        && rec.type <= 6)
                    {
                        RouterReceiveRecord(ifIndex, rec, 3);
                    }
                }
            }
            break;
        default:
            break;
    }
    return IpL4Protocol::RX_OK;
}

IpL4Protocol::RxStatus
IgmpL4Protocol::Receive(Ptr<Packet> p, const Ipv6Header& header, Ptr<Ipv6Interface> incoming)
{
    return IpL4Protocol::RX_ENDPOINT_UNREACH;
}

// --- router ----------------------------------------------------------------------------------

void
IgmpL4Protocol::EnableRouter(uint32_t ifIndex, Time delay)
{
    NS_LOG_FUNCTION(this << ifIndex << delay);
    NS_ABORT_MSG_IF(!m_ipv4 || ifIndex >= m_ipv4->GetNInterfaces(),
                    "IgmpL4Protocol::EnableRouter: interface index " << ifIndex << " out of range");
    NS_ABORT_MSG_IF(m_queryResponseInterval >= m_queryInterval,
                    "IgmpL4Protocol: QueryResponseInterval " << m_queryResponseInterval.As(Time::S)
                                                             << " must be below QueryInterval "
                                                             << m_queryInterval.As(Time::S));
    Interface& itf = GetIf(ifIndex);
    itf.router = true;
    itf.startupLeft = m_startupQueryCount == 0 ? m_robustness : m_startupQueryCount;
    SetQuerier(ifIndex, true); // RFC 2236 3: every router starts as querier
    itf.queryEvent.Cancel();
    itf.queryEvent
        = Simulator::Schedule(delay, &IgmpL4Protocol::RouterSendGeneralQuery, this, ifIndex);
}

void
IgmpL4Protocol::DisableRouter(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    Interface& itf = GetIf(ifIndex);
    itf.router = false;
    itf.queryEvent.Cancel();
    itf.otherQuerierEvent.Cancel();
    for (auto& [g, rg] : itf.groups)
    {
        rg.lmqEvent.Cancel();
        rg.expiry.Cancel();
    }
    itf.groups.clear();
    SetQuerier(ifIndex, false);
}

bool
IgmpL4Protocol::IsQuerier(uint32_t ifIndex) const
{
    const Interface* itf = FindIf(ifIndex);
    return itf && itf->querier;
}

void
IgmpL4Protocol::SetQuerier(uint32_t ifIndex, bool querier)
{
    Interface& itf = GetIf(ifIndex);
    if (itf.querier != querier)
    {
        NS_LOG_LOGIC("if " << ifIndex << (querier ? " becomes querier" : " becomes non-querier"));
        itf.querier = querier;
        m_querierTrace(ifIndex, querier);
    }
}

void
IgmpL4Protocol::RouterSendGeneralQuery(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    Interface& itf = GetIf(ifIndex);
    if (!itf.router || !itf.querier)
    {
        return;
    }
    IgmpHeader q = m_version == 2
                       ? IgmpHeader::MakeV2Query(Ipv4Address::GetAny(), m_queryResponseInterval)
                       : IgmpHeader::MakeV3Query(Ipv4Address::GetAny(),
                                                 m_queryResponseInterval,
                                                 false,
                                                 static_cast<uint8_t>(m_robustness),
                                                 m_queryInterval);
    SendMessage(ifIndex, kAllSystems, q);
    Time next = m_queryInterval;
    if (itf.startupLeft > 0)
    {
        --itf.startupLeft;
        if (itf.startupLeft > 0)
        {
            next = m_startupQueryInterval.IsZero() ? m_queryInterval / 4 : m_startupQueryInterval;
        }
    }
    itf.queryEvent
        = Simulator::Schedule(next, &IgmpL4Protocol::RouterSendGeneralQuery, this, ifIndex);
}

void
IgmpL4Protocol::RouterOtherQuerierExpired(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    Interface& itf = GetIf(ifIndex);
    // RFC 2236 7 / RFC 3376 6.6: the other querier is gone: become querier, query at once.
    SetQuerier(ifIndex, true);
    itf.otherQuerier = Ipv4Address::GetAny();
    itf.queryEvent.Cancel();
    RouterSendGeneralQuery(ifIndex);
}

void
IgmpL4Protocol::RouterReceiveQuery(uint32_t ifIndex, Ipv4Address src, const IgmpHeader& q)
{
    NS_LOG_FUNCTION(this << ifIndex << src);
    Interface& itf = GetIf(ifIndex);
    const Time now = Simulator::Now();
    // Querier election (RFC 2236 3, RFC 3376 6.6.2): the lowest address wins. Queries from
    // 0.0.0.0 (snooping-switch proxy queriers, RFC 4541 2.1.1) take no part in the election.
    if (src != Ipv4Address::GetAny() && src < GetIfAddress(ifIndex))
    {
        SetQuerier(ifIndex, false);
        itf.otherQuerier = src;
        itf.startupLeft = 0;
        itf.queryEvent.Cancel();
        itf.otherQuerierEvent.Cancel();
        itf.otherQuerierEvent = Simulator::Schedule(GetOtherQuerierPresentInterval(),
                                                    &IgmpL4Protocol::RouterOtherQuerierExpired,
                                                    this,
                                                    ifIndex);
    }
    // Group(-and-source)-specific queries from the querier lower timers (RFC 2236 3, RFC 3376
    // 6.6.1), unless the S flag says "suppress router-side processing".
    const Ipv4Address group = q.GetGroup();
    if (group == Ipv4Address::GetAny() || (q.IsV3Query() && q.GetSFlag()))
    {
        return;
    }
    auto it = itf.groups.find(group);
    if (it == itf.groups.end())
    {
        return;
    }
    RouterGroup& g = it->second;
    const Time lmqt = now + GetLastMemberQueryTime();
    if (q.GetSources().empty())
    {
        if (g.mode == EXCLUDE && g.groupTimer > lmqt)
        {
            g.groupTimer = lmqt;
        }
        else if (g.mode == INCLUDE)
        {
            for (auto& [s, t] : g.sources)
            {
                t = std::min(t, lmqt);
            }
        }
    }
    else
    {
        for (const auto& s : q.GetSources())
        {
            auto sit = g.sources.find(s);
            if (sit != g.sources.end() && sit->second > lmqt)
            {
                sit->second = lmqt;
            }
        }
    }
    RouterReschedule(ifIndex, group);
}

void
IgmpL4Protocol::RouterReceiveRecord(uint32_t ifIndex,
                                    const IgmpGroupRecord& rec,
                                    uint8_t hostVersion)
{
    NS_LOG_FUNCTION(this << ifIndex << rec.group << +rec.type << +hostVersion);
    Interface& itf = GetIf(ifIndex);
    const Time now = Simulator::Now();
    const Time gmi = now + GetGroupMembershipInterval();
    auto found = itf.groups.find(rec.group);
    const bool existed = found != itf.groups.end();
    RouterGroup& g = itf.groups[rec.group];
    if (!existed)
    {
        g.groupTimer = now;
    }
    if (hostVersion == 1)
    {
        g.v1HostUntil = gmi; // Older Host Present Interval = GMI (RFC 3376 8.13)
    }
    else if (hostVersion == 2)
    {
        g.v2HostUntil = gmi;
    }
    uint8_t compat = g.v1HostUntil > now ? 1 : (g.v2HostUntil > now ? 2 : 3);
    if (m_version == 2)
    {
        compat = std::min<uint8_t>(compat, 2);
    }
    uint8_t type = rec.type;
    std::set<Ipv4Address> b(rec.sources.begin(), rec.sources.end());
    // RFC 3376 7.3.2: group compatibility mode.
    if (compat < 3)
    {
        if (type == IgmpGroupRecord::BLOCK_OLD_SOURCES)
        {
            RouterReschedule(ifIndex, rec.group);
            return;
        }
        if (type == IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE
            || type == IgmpGroupRecord::MODE_IS_EXCLUDE)
        {
            b.clear();
        }
        if (compat == 1 && type == IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE && b.empty())
        {
            RouterReschedule(ifIndex, rec.group);
            return; // leaves are ignored while v1 hosts are present
        }
    }
    auto setTimers = [&g](const std::set<Ipv4Address>& s, Time t) {
        for (const auto& a : s)
        {
            g.sources[a] = t;
        }
    };
    auto erase = [&g](const std::set<Ipv4Address>& s) {
        for (const auto& a : s)
        {
            g.sources.erase(a);
        }
    };
    std::set<Ipv4Address> a; // INCLUDE: A; EXCLUDE: X (timers > 0)
    std::set<Ipv4Address> y; // EXCLUDE: Y (timers == 0)
    for (const auto& [s, t] : g.sources)
    {
        (t > now ? a : y).insert(s);
    }
    bool queryGroup = false;
    std::set<Ipv4Address> querySources;
    if (g.mode == INCLUDE)
    {
        std::set<Ipv4Address> all = a;
        all.insert(y.begin(), y.end());
        a = all;
        switch (type)
        {
            case IgmpGroupRecord::MODE_IS_INCLUDE:
            case IgmpGroupRecord::ALLOW_NEW_SOURCES:
                setTimers(b, gmi);
                break;
            case IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE:
                setTimers(b, gmi);
                querySources = Minus(a, b);
                break;
            case IgmpGroupRecord::BLOCK_OLD_SOURCES:
                querySources = Inter(a, b);
                break;
            case IgmpGroupRecord::MODE_IS_EXCLUDE:
            case IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE:
                // EXCLUDE(A*B, B-A); (B-A)=0; Delete(A-B); GT=GMI [TO_EX: Q(G,A*B)]
                erase(Minus(a, b));
                setTimers(Minus(b, a), Time(0));
                g.mode = EXCLUDE;
                g.groupTimer = gmi;
                if (type == IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE)
                {
                    querySources = Inter(a, b);
                }
                break;
        }
    }
    else
    {
        const std::set<Ipv4Address>& x = a;
        switch (type)
        {
            case IgmpGroupRecord::MODE_IS_INCLUDE:
            case IgmpGroupRecord::ALLOW_NEW_SOURCES:
                setTimers(b, gmi); // EXCLUDE(X+A, Y-A); (A)=GMI
                break;
            case IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE:
                setTimers(b, gmi);
                querySources = Minus(x, b); // Q(G,X-A)
                queryGroup = true;          // Q(G)
                break;
            case IgmpGroupRecord::BLOCK_OLD_SOURCES: {
                // EXCLUDE(X+(A-Y), Y); (A-X-Y)=Group Timer; Q(G,A-Y)
                auto newSrc = Minus(Minus(b, x), y);
                setTimers(newSrc, g.groupTimer);
                querySources = Minus(b, y);
                break;
            }
            case IgmpGroupRecord::MODE_IS_EXCLUDE:
            case IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE: {
                // EXCLUDE(A-Y, Y*A); (A-X-Y)=GMI or GT; Delete(X-A), Delete(Y-A); GT=GMI
                auto newSrc = Minus(Minus(b, x), y);
                erase(Minus(x, b));
                erase(Minus(y, b));
                setTimers(newSrc, type == IgmpGroupRecord::MODE_IS_EXCLUDE ? gmi : g.groupTimer);
                g.groupTimer = gmi;
                if (type == IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE)
                {
                    querySources = Minus(b, y);
                }
                break;
            }
        }
    }
    if (g.mode == INCLUDE && g.sources.empty())
    {
        // Nothing to keep (a leave or block for a group without state).
        g.lmqEvent.Cancel();
        g.expiry.Cancel();
        itf.groups.erase(rec.group);
        if (existed)
        {
            m_routerGroupTrace(ifIndex, rec.group, 0);
        }
        return;
    }
    if (!existed)
    {
        m_routerGroupTrace(ifIndex, rec.group, 1);
    }
    if (itf.querier)
    {
        if (queryGroup)
        {
            RouterGroupQuery(ifIndex, rec.group);
        }
        if (!querySources.empty() && m_version == 3 && compat == 3)
        {
            RouterSourceQuery(ifIndex, rec.group, querySources);
        }
    }
    RouterReschedule(ifIndex, rec.group);
}

void
IgmpL4Protocol::RouterGroupQuery(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    RouterGroup& g = GetIf(ifIndex).groups[group];
    // RFC 3376 6.6.3.1 / RFC 2236 3: group timer := LMQT, send [LMQC] group-specific queries
    // [LMQI] apart.
    const Time lmqt = Simulator::Now() + GetLastMemberQueryTime();
    if (g.groupTimer > lmqt)
    {
        g.groupTimer = lmqt;
    }
    g.lmqLeft = LastMemberQueryCount();
    g.lmqEvent.Cancel();
    RouterLmqTimer(ifIndex, group);
}

void
IgmpL4Protocol::RouterSourceQuery(uint32_t ifIndex,
                                  Ipv4Address group,
                                  const std::set<Ipv4Address>& sources)
{
    NS_LOG_FUNCTION(this << ifIndex << group << sources.size());
    RouterGroup& g = GetIf(ifIndex).groups[group];
    // RFC 3376 6.6.3.2: source timers := LMQT, send [LMQC] group-and-source-specific queries.
    const Time lmqt = Simulator::Now() + GetLastMemberQueryTime();
    for (const auto& s : sources)
    {
        auto it = g.sources.find(s);
        if (it != g.sources.end() && it->second > lmqt)
        {
            it->second = lmqt;
        }
    }
    g.lmqSources.insert(sources.begin(), sources.end());
    g.lmqSourceLeft = LastMemberQueryCount();
    g.lmqEvent.Cancel();
    RouterLmqTimer(ifIndex, group);
}

void
IgmpL4Protocol::RouterLmqTimer(uint32_t ifIndex, Ipv4Address group)
{
    Interface& itf = GetIf(ifIndex);
    auto it = itf.groups.find(group);
    if (it == itf.groups.end() || !itf.querier)
    {
        return;
    }
    RouterGroup& g = it->second;
    const Time now = Simulator::Now();
    const Time lmqt = now + GetLastMemberQueryTime();
    if (g.lmqLeft > 0)
    {
        --g.lmqLeft;
        // A report since the first query raised the group timer: v2 stops, v3 sets S.
        const bool raised = g.groupTimer > lmqt;
        if (m_version == 2)
        {
            if (raised)
            {
                g.lmqLeft = 0;
            }
            else
            {
                SendMessage(ifIndex,
                            group,
                            IgmpHeader::MakeV2Query(group, m_lastMemberQueryInterval));
            }
        }
        else
        {
            SendMessage(ifIndex,
                        group,
                        IgmpHeader::MakeV3Query(group,
                                                m_lastMemberQueryInterval,
                                                raised,
                                                static_cast<uint8_t>(m_robustness),
                                                m_queryInterval));
        }
    }
    if (g.lmqSourceLeft > 0)
    {
        --g.lmqSourceLeft;
        std::vector<Ipv4Address> low;
        std::vector<Ipv4Address> high;
        for (const auto& s : g.lmqSources)
        {
            auto sit = g.sources.find(s);
            if (sit == g.sources.end())
            {
                continue;
            }
            (sit->second > lmqt ? high : low).push_back(s);
        }
        for (auto* list : {&low, &high})
        {
            if (!list->empty())
            {
                SendMessage(ifIndex,
                            group,
                            IgmpHeader::MakeV3Query(group,
                                                    m_lastMemberQueryInterval,
                                                    list == &high,
                                                    static_cast<uint8_t>(m_robustness),
                                                    m_queryInterval,
                                                    *list));
            }
        }
        if (g.lmqSourceLeft == 0)
        {
            g.lmqSources.clear();
        }
    }
    if (g.lmqLeft > 0 || g.lmqSourceLeft > 0)
    {
        g.lmqEvent = Simulator::Schedule(m_lastMemberQueryInterval,
                                         &IgmpL4Protocol::RouterLmqTimer,
                                         this,
                                         ifIndex,
                                         group);
    }
    RouterReschedule(ifIndex, group);
}

void
IgmpL4Protocol::RouterReschedule(uint32_t ifIndex, Ipv4Address group)
{
    Interface& itf = GetIf(ifIndex);
    auto it = itf.groups.find(group);
    if (it == itf.groups.end())
    {
        return;
    }
    RouterGroup& g = it->second;
    const Time now = Simulator::Now();
    Time next = Time::Max();
    if (g.mode == EXCLUDE)
    {
        next = g.groupTimer;
    }
    else
    {
        for (const auto& [s, t] : g.sources)
        {
            next = std::min(next, t);
        }
    }
    g.expiry.Cancel();
    g.expiry = Simulator::Schedule(std::max(next - now, Time(0)),
                                   &IgmpL4Protocol::RouterCheck,
                                   this,
                                   ifIndex,
                                   group);
}

void
IgmpL4Protocol::RouterCheck(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    Interface& itf = GetIf(ifIndex);
    auto it = itf.groups.find(group);
    if (it == itf.groups.end())
    {
        return;
    }
    RouterGroup& g = it->second;
    const Time now = Simulator::Now();
    if (g.mode == EXCLUDE && g.groupTimer <= now)
    {
        // RFC 3376 6.5: group timer expiry in EXCLUDE: drop Y, switch to INCLUDE(X).
        NS_LOG_LOGIC("if " << ifIndex << " group " << group << ": group timer expired");
        g.mode = INCLUDE;
    }
    if (g.mode == INCLUDE)
    {
        for (auto s = g.sources.begin(); s != g.sources.end();)
        {
            s = s->second <= now ? g.sources.erase(s) : std::next(s);
        }
        if (g.sources.empty())
        {
            g.lmqEvent.Cancel();
            itf.groups.erase(it);
            m_routerGroupTrace(ifIndex, group, 0);
            return;
        }
    }
    RouterReschedule(ifIndex, group);
}

bool
IgmpL4Protocol::HasListeners(uint32_t ifIndex, Ipv4Address group, Ipv4Address source) const
{
    const Interface* itf = FindIf(ifIndex);
    if (!itf)
    {
        return false;
    }
    auto it = itf->groups.find(group);
    if (it == itf->groups.end())
    {
        return false;
    }
    const RouterGroup& g = it->second;
    const Time now = Simulator::Now();
    if (source == Ipv4Address::GetAny())
    {
        if (g.mode == EXCLUDE)
        {
            return true;
        }
        for (const auto& [s, t] : g.sources)
        {
            if (t > now)
            {
                return true;
            }
        }
        return false;
    }
    auto sit = g.sources.find(source);
    if (g.mode == INCLUDE)
    {
        return sit != g.sources.end() && sit->second > now;
    }
    return sit == g.sources.end() || sit->second > now;
}

IgmpL4Protocol::FilterMode
IgmpL4Protocol::GetRouterFilterMode(uint32_t ifIndex, Ipv4Address group) const
{
    const Interface* itf = FindIf(ifIndex);
    if (!itf)
    {
        return INCLUDE;
    }
    auto it = itf->groups.find(group);
    return it == itf->groups.end() ? INCLUDE : it->second.mode;
}

std::vector<Ipv4Address>
IgmpL4Protocol::GetRouterGroups(uint32_t ifIndex) const
{
    std::vector<Ipv4Address> r;
    if (const Interface* itf = FindIf(ifIndex))
    {
        for (const auto& [g, rg] : itf->groups)
        {
            r.push_back(g);
        }
    }
    return r;
}

} // namespace ns3
