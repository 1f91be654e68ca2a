/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "igmp-l4-protocol.h"

#include "igmp-host.h"
#include "igmp-router.h"
#include "ipv4-router-alert-header.h"

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

const Ipv4Address IgmpL4Protocol::ALL_SYSTEMS("224.0.0.1");
const Ipv4Address IgmpL4Protocol::ALL_ROUTERS("224.0.0.2");
const Ipv4Address IgmpL4Protocol::ALL_IGMPV3_ROUTERS("224.0.0.22");

namespace
{

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
                            UintegerValue(IgmpTimers().robustness),
                            MakeUintegerAccessor(&IgmpL4Protocol::m_robustness),
                            MakeUintegerChecker<uint32_t>(1, 7))
              .AddAttribute("QueryInterval",
                            "Query Interval (RFC 3376 8.2): time between general queries.",
                            TimeValue(IgmpTimers().queryInterval),
                            MakeTimeAccessor(&IgmpL4Protocol::m_queryInterval),
                            MakeTimeChecker(MilliSeconds(100), Seconds(31744)))
              .AddAttribute("QueryResponseInterval",
                            "Query Response Interval (RFC 3376 8.3): Max Resp Time of general "
                            "queries. Must be below QueryInterval.",
                            TimeValue(IgmpTimers().queryResponseInterval),
                            MakeTimeAccessor(&IgmpL4Protocol::m_queryResponseInterval),
                            MakeTimeChecker(MilliSeconds(100), Seconds(3174.4)))
              .AddAttribute("StartupQueryCount",
                            "Startup Query Count (RFC 3376 8.7); 0 = Robustness.",
                            UintegerValue(IgmpTimers().startupQueryCount),
                            MakeUintegerAccessor(&IgmpL4Protocol::m_startupQueryCount),
                            MakeUintegerChecker<uint32_t>(0, 100))
              .AddAttribute("StartupQueryInterval",
                            "Startup Query Interval (RFC 3376 8.6); 0 = QueryInterval / 4.",
                            TimeValue(IgmpTimers().startupQueryInterval),
                            MakeTimeAccessor(&IgmpL4Protocol::m_startupQueryInterval),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("LastMemberQueryInterval",
                            "Last Member Query Interval (RFC 3376 8.8): Max Resp Time of and time "
                            "between group-specific queries.",
                            TimeValue(IgmpTimers().lastMemberQueryInterval),
                            MakeTimeAccessor(&IgmpL4Protocol::m_lastMemberQueryInterval),
                            MakeTimeChecker(MilliSeconds(100), Seconds(25.5)))
              .AddAttribute("LastMemberQueryCount",
                            "Last Member Query Count (RFC 3376 8.9); 0 = Robustness.",
                            UintegerValue(IgmpTimers().lastMemberQueryCount),
                            MakeUintegerAccessor(&IgmpL4Protocol::m_lastMemberQueryCount),
                            MakeUintegerChecker<uint32_t>(0, 100))
              .AddAttribute("UnsolicitedReportIntervalV2",
                            "Unsolicited Report Interval of IGMPv1/v2 hosts (RFC 2236 8.10): "
                            "upper bound of the random delay between repeated join reports.",
                            TimeValue(IgmpTimers().unsolicitedReportIntervalV2),
                            MakeTimeAccessor(&IgmpL4Protocol::m_unsolicitedV2),
                            MakeTimeChecker(MilliSeconds(1)))
              .AddAttribute("UnsolicitedReportIntervalV3",
                            "Unsolicited Report Interval of IGMPv3 hosts (RFC 3376 8.11): upper "
                            "bound of the random delay between state-change retransmissions.",
                            TimeValue(IgmpTimers().unsolicitedReportIntervalV3),
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
    : m_host(std::make_unique<IgmpHost>(*this))
    , m_router(std::make_unique<IgmpRouter>(*this))
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
    m_host->Dispose();
    m_router->Dispose();
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

// --- timers ----------------------------------------------------------------------------------

IgmpTimers
IgmpL4Protocol::GetTimers() const
{
    IgmpTimers v;
    v.robustness = m_robustness;
    v.queryInterval = m_queryInterval;
    v.queryResponseInterval = m_queryResponseInterval;
    v.startupQueryInterval = m_startupQueryInterval;
    v.startupQueryCount = m_startupQueryCount;
    v.lastMemberQueryInterval = m_lastMemberQueryInterval;
    v.lastMemberQueryCount = m_lastMemberQueryCount;
    v.unsolicitedReportIntervalV2 = m_unsolicitedV2;
    v.unsolicitedReportIntervalV3 = m_unsolicitedV3;
    return v;
}

void
IgmpL4Protocol::SetTimers(const IgmpTimers& v)
{
    NS_LOG_FUNCTION(this);
    SetAttribute("Robustness", UintegerValue(v.robustness));
    SetAttribute("QueryInterval", TimeValue(v.queryInterval));
    SetAttribute("QueryResponseInterval", TimeValue(v.queryResponseInterval));
    SetAttribute("StartupQueryInterval", TimeValue(v.startupQueryInterval));
    SetAttribute("StartupQueryCount", UintegerValue(v.startupQueryCount));
    SetAttribute("LastMemberQueryInterval", TimeValue(v.lastMemberQueryInterval));
    SetAttribute("LastMemberQueryCount", UintegerValue(v.lastMemberQueryCount));
    SetAttribute("UnsolicitedReportIntervalV2", TimeValue(v.unsolicitedReportIntervalV2));
    SetAttribute("UnsolicitedReportIntervalV3", TimeValue(v.unsolicitedReportIntervalV3));
}

Time
IgmpL4Protocol::GetGroupMembershipInterval() const
{
    return m_gmiOverride.IsZero() ? GetTimers().GroupMembershipInterval() : m_gmiOverride;
}

Time
IgmpL4Protocol::GetOtherQuerierPresentInterval() const
{
    return m_oqpiOverride.IsZero() ? GetTimers().OtherQuerierPresentInterval() : m_oqpiOverride;
}

uint32_t
IgmpL4Protocol::LastMemberQueryCount() const
{
    return GetTimers().LastMemberQueryCount();
}

Time
IgmpL4Protocol::GetLastMemberQueryTime() const
{
    return GetTimers().LastMemberQueryTime();
}

Time
IgmpL4Protocol::GetOlderVersionQuerierPresentTimeout() const
{
    return GetTimers().OlderVersionQuerierPresentTimeout();
}

// --- helpers ---------------------------------------------------------------------------------

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
IgmpL4Protocol::RandomDelay(Time max)
{
    return NanoSeconds(
        static_cast<int64_t>(m_rng->GetValue(0.0, static_cast<double>(max.GetNanoSeconds()))));
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
            SendMessage(ifIndex, ALL_IGMPV3_ROUTERS, IgmpHeader::MakeV3Report(batch));
            batch.clear();
            size = 0;
        }
        batch.push_back(r);
        size += rs;
    }
    SendMessage(ifIndex, ALL_IGMPV3_ROUTERS, IgmpHeader::MakeV3Report(batch));
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

// --- host: state changes ---------------------------------------------------------------------

// --- host: queries and reports ---------------------------------------------------------------

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
    const bool router = m_router->IsEnabled(ifIndex);
    switch (h.GetType())
    {
        case IgmpHeader::MEMBERSHIP_QUERY:
            ++m_stats.rxQueries;
            m_host->ReceiveQuery(ifIndex, h);
            if (router)
            {
                m_router->ReceiveQuery(ifIndex, src, h);
            }
            break;
        case IgmpHeader::V1_MEMBERSHIP_REPORT:
        case IgmpHeader::V2_MEMBERSHIP_REPORT:
            ++m_stats.rxReports;
            if (!h.GetGroup().IsMulticast() || h.GetGroup() == ALL_SYSTEMS)
            {
                break;
            }
            m_host->ReceiveReport(ifIndex, h.GetGroup());
            if (router)
            {
                IgmpGroupRecord rec;
                rec.type = IgmpGroupRecord::MODE_IS_EXCLUDE;
                rec.group = h.GetGroup();
                m_router->ReceiveRecord(ifIndex,
                                        rec,
                                        h.GetType() == IgmpHeader::V1_MEMBERSHIP_REPORT ? 1 : 2);
            }
            break;
        case IgmpHeader::V2_LEAVE_GROUP:
            ++m_stats.rxLeaves;
            if (router && h.GetGroup().IsMulticast())
            {
                IgmpGroupRecord rec;
                rec.type = IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE;
                rec.group = h.GetGroup();
                m_router->ReceiveRecord(ifIndex, rec, 0);
            }
            break;
        case IgmpHeader::V3_MEMBERSHIP_REPORT:
            ++m_stats.rxReports;
            if (router)
            {
                for (const auto& rec : h.GetRecords())
                {
                    if (rec.group.IsMulticast() && rec.group != ALL_SYSTEMS && rec.type >= 1
                        && rec.type <= 6)
                    {
                        m_router->ReceiveRecord(ifIndex, rec, 3);
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

// --- the roles -------------------------------------------------------------------------------

void
IgmpL4Protocol::SetOwnerFilter(uint32_t ifIndex,
                               uintptr_t owner,
                               Ipv4Address group,
                               FilterMode mode,
                               const std::vector<Ipv4Address>& sources)
{
    m_host->SetOwnerFilter(ifIndex, owner, group, mode, sources);
}

void
IgmpL4Protocol::RemoveOwner(uintptr_t owner)
{
    m_host->RemoveOwner(owner);
}

bool
IgmpL4Protocol::IsMember(uint32_t ifIndex, Ipv4Address group, Ipv4Address source) const
{
    return m_host->IsMember(ifIndex, group, source);
}

IgmpL4Protocol::HostState
IgmpL4Protocol::GetHostState(uint32_t ifIndex, Ipv4Address group) const
{
    return m_host->GetState(ifIndex, group);
}

uint8_t
IgmpL4Protocol::GetHostCompatibilityMode(uint32_t ifIndex) const
{
    return m_host->GetCompatibilityMode(ifIndex);
}

void
IgmpL4Protocol::EnableRouter(uint32_t ifIndex, Time delay)
{
    m_router->Enable(ifIndex, delay);
}

void
IgmpL4Protocol::DisableRouter(uint32_t ifIndex)
{
    m_router->Disable(ifIndex);
}

bool
IgmpL4Protocol::IsQuerier(uint32_t ifIndex) const
{
    return m_router->IsQuerier(ifIndex);
}

bool
IgmpL4Protocol::HasListeners(uint32_t ifIndex, Ipv4Address group, Ipv4Address source) const
{
    return m_router->HasListeners(ifIndex, group, source);
}

IgmpL4Protocol::FilterMode
IgmpL4Protocol::GetRouterFilterMode(uint32_t ifIndex, Ipv4Address group) const
{
    return m_router->GetFilterMode(ifIndex, group);
}

std::vector<Ipv4Address>
IgmpL4Protocol::GetRouterGroups(uint32_t ifIndex) const
{
    return m_router->GetGroups(ifIndex);
}

Time
IgmpL4Protocol::GetNextRouterTransmission(uint32_t ifIndex) const
{
    return m_router->GetNextTransmission(ifIndex);
}

} // namespace ns3
