/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-central-component.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiCentralComponent");

NS_OBJECT_ENSURE_REGISTERED(RtiCentralComponent);

TypeId
RtiCentralComponent::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RtiCentralComponent")
              .SetParent<RtiComponent>()
              .SetGroupName("Testbed")
              .AddConstructor<RtiCentralComponent>()
              .AddTraceSource("Route",
                              "An update or interaction was routed to its receivers.",
                              MakeTraceSourceAccessor(&RtiCentralComponent::m_routeTrace),
                              "ns3::RtiCentralComponent::RouteTracedCallback");
    return tid;
}

RtiCentralComponent::RtiCentralComponent()
    : m_nextHandle(1)
    , m_nLocal(0)
{
}

RtiCentralComponent::~RtiCentralComponent()
{
}

void
RtiCentralComponent::DoDispose()
{
    if (m_listen)
    {
        m_listen->Close();
        m_listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeNullCallback<void, Ptr<Socket>, const Address&>());
    }
    m_listen = nullptr;
    m_udp = nullptr;
    for (auto& c : m_connections)
    {
        c->Dispose();
    }
    m_connections.clear();
    if (m_udpRx)
    {
        m_udpRx->Dispose();
    }
    m_udpRx = nullptr;
    m_federates.clear();
    m_nullCache.clear();
    m_fom = nullptr;
    RtiComponent::DoDispose();
}

void
RtiCentralComponent::Install(Ptr<Node> node, Ptr<RtiSettings> settings, Ptr<RtiFom> fom)
{
    NS_LOG_FUNCTION(this << node);
    Attach(node, settings);
    m_fom = fom;
    m_listen = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    m_listen->SetAttribute("TcpNoDelay", BooleanValue(settings->GetTcpNoDelay()));
    m_listen->SetAttribute("SegmentSize", UintegerValue(settings->GetTcpSegmentSize()));
    NS_ABORT_MSG_IF(m_listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), settings->GetPort()))
                        < 0,
                    "RtiCentralComponent: cannot bind TCP port " << settings->GetPort());
    m_listen->Listen();
    m_listen->SetAcceptCallback(MakeCallback(&RtiCentralComponent::AcceptRequest, this),
                                MakeCallback(&RtiCentralComponent::Accepted, this));
    m_udp = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_udp->Bind(InetSocketAddress(Ipv4Address::GetAny(), settings->GetUdpPort()))
                        < 0,
                    "RtiCentralComponent: cannot bind UDP port " << settings->GetUdpPort());
    m_udpRx = CreateObject<RtiUdpConnection>();
    m_udpRx->SetSocket(m_udp, Address(), true);
    Watch(m_udpRx);
}

Ptr<RtiConnection>
RtiCentralComponent::ConnectLocal()
{
    NS_ABORT_MSG_IF(!m_settings, "RtiCentralComponent::ConnectLocal before Install");
    Ptr<RtiLocalConnection> mine = CreateObject<RtiLocalConnection>();
    Ptr<RtiLocalConnection> theirs = CreateObject<RtiLocalConnection>();
    RtiLocalConnection::Connect(mine, theirs);
    m_connections.push_back(mine);
    Watch(mine);
    ++m_nLocal;
    return theirs;
}

Ipv4Address
RtiCentralComponent::GetAddress() const
{
    Ptr<Ipv4> ipv4 = GetNode()->GetObject<Ipv4>();
    NS_ABORT_MSG_IF(!ipv4, "RtiCentralComponent: node without IPv4");
    for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
    {
        for (uint32_t a = 0; a < ipv4->GetNAddresses(i); ++a)
        {
            Ipv4Address addr = ipv4->GetAddress(i, a).GetLocal();
            if (addr != Ipv4Address::GetLoopback())
            {
                return addr;
            }
        }
    }
    NS_FATAL_ERROR("RtiCentralComponent: node " << GetNode()->GetId() << " has no IPv4 address");
    return Ipv4Address();
}

Ptr<RtiFom>
RtiCentralComponent::GetFom() const
{
    return m_fom;
}

uint64_t
RtiCentralComponent::GetNReceived(RtiMessage::Type type) const
{
    return type < RtiMessage::TYPE_COUNT ? m_rx[type] : 0;
}

uint64_t
RtiCentralComponent::GetNSent(RtiMessage::Type type) const
{
    return type < RtiMessage::TYPE_COUNT ? m_tx[type] : 0;
}

uint32_t
RtiCentralComponent::GetNFederates() const
{
    return m_federates.size();
}

bool
RtiCentralComponent::AcceptRequest(Ptr<Socket> s, const Address& from)
{
    return true;
}

void
RtiCentralComponent::Accepted(Ptr<Socket> s, const Address& from)
{
    NS_LOG_FUNCTION(this << s << from);
    Ptr<RtiTcpConnection> conn = CreateObject<RtiTcpConnection>();
    conn->SetSocket(s);
    // A federate on this node over the loopback (RtiSettings LocalPath LoopbackTcp).
    conn->SetLocal(InetSocketAddress::IsMatchingType(from)
                   && InetSocketAddress::ConvertFrom(from).GetIpv4().IsLocalhost());
    m_connections.push_back(conn);
    Watch(conn);
}

RtiMessage
RtiCentralComponent::Reply(RtiMessage::Type type) const
{
    RtiMessage m = m_settings->NewMessage(type);
    m.SetSource(0);
    return m;
}

void
RtiCentralComponent::SendTo(FederateHandle f, RtiMessage msg, bool bestEffort)
{
    auto it = m_federates.find(f);
    if (it == m_federates.end())
    {
        return;
    }
    Ptr<RtiConnection> conn = (bestEffort && it->second.udp) ? it->second.udp : it->second.conn;
    ++m_tx[msg.GetType()];
    Transmit(conn, std::move(msg));
}

void
RtiCentralComponent::HandleMessage(Ptr<RtiConnection> conn, RtiMessage& msg)
{
    ++m_rx[msg.GetType()];
    FederateHandle f = conn->GetPeer();
    if (msg.GetType() != RtiMessage::JOIN && f == 0)
    {
        f = msg.GetSource(); // best-effort datagrams carry their source
    }
    NS_LOG_LOGIC("CRC " << Simulator::Now().As(Time::US) << " from " << f << ": " << msg);
    switch (msg.GetType())
    {
        case RtiMessage::JOIN: {
            FederateHandle h = m_nextHandle++;
            conn->SetPeer(h);
            Federate& fed = m_federates[h];
            fed.name = msg.name3;
            fed.type = msg.name2;
            fed.conn = conn;
            if (!conn->IsLocal() && msg.handle != 0)
            {
                Ptr<RtiTcpConnection> tcp = DynamicCast<RtiTcpConnection>(conn);
                Address peer;
                tcp->GetSocket()->GetPeerName(peer);
                Ptr<RtiUdpConnection> udp = CreateObject<RtiUdpConnection>();
                udp->SetSocket(
                    m_udp,
                    InetSocketAddress(InetSocketAddress::ConvertFrom(peer).GetIpv4(), msg.handle),
                    false);
                udp->SetPeer(h);
                m_connections.push_back(udp);
                fed.udp = udp;
            }
            RtiMessage r = Reply(RtiMessage::JOIN_RESPONSE);
            r.handle = h;
            SendTo(h, std::move(r));
            if (m_settings->GetGaltMode() == RtiSettings::NULL_MESSAGES)
            {
                for (const auto& [g, null] : m_nullCache)
                {
                    SendTo(h, null);
                }
            }
            // Synchronization points in progress are announced to the joiner too.
            for (auto& [label, sp] : m_sync)
            {
                sp.second.insert(h);
                RtiMessage a = Reply(RtiMessage::ANNOUNCE_SYNC_POINT);
                a.name = label;
                a.tag = sp.first;
                SendTo(h, std::move(a));
            }
            break;
        }
        case RtiMessage::RESIGN:
            RemoveFederate(f);
            break;
        case RtiMessage::PUBLISH_OBJECT_CLASS:
            m_objPubs[msg.handle][f].insert(msg.handles.begin(), msg.handles.end());
            break;
        case RtiMessage::UNPUBLISH_OBJECT_CLASS:
            m_objPubs[msg.handle].erase(f);
            break;
        case RtiMessage::SUBSCRIBE_OBJECT_CLASS:
            m_objSubs[msg.handle][f].insert(msg.handles.begin(), msg.handles.end());
            DiscoverExisting(f, msg.handle);
            break;
        case RtiMessage::UNSUBSCRIBE_OBJECT_CLASS:
            m_objSubs[msg.handle].erase(f);
            break;
        case RtiMessage::PUBLISH_INTERACTION:
            m_intPubs[msg.handle].insert(f);
            break;
        case RtiMessage::UNPUBLISH_INTERACTION:
            m_intPubs[msg.handle].erase(f);
            break;
        case RtiMessage::SUBSCRIBE_INTERACTION:
            m_intSubs[msg.handle].insert(f);
            break;
        case RtiMessage::UNSUBSCRIBE_INTERACTION:
            m_intSubs[msg.handle].erase(f);
            break;
        case RtiMessage::REGISTER_OBJECT: {
            m_objects[msg.handle2] = std::make_tuple(msg.handle, f, msg.name);
            ChargeOperation(m_settings->RouteCycles());
            for (const auto& [s, attrs] : m_objSubs[msg.handle])
            {
                if (s != f)
                {
                    RtiMessage d = Reply(RtiMessage::DISCOVER_OBJECT);
                    d.SetSource(f);
                    d.handle = msg.handle;
                    d.handle2 = msg.handle2;
                    d.name = msg.name;
                    SendTo(s, std::move(d));
                }
            }
            break;
        }
        case RtiMessage::UPDATE_ATTRIBUTES:
        case RtiMessage::SEND_INTERACTION:
            Route(f, msg);
            break;
        case RtiMessage::ENABLE_TIME_REGULATION: {
            ChargeOperation(m_settings->TimeManagementCycles(m_tm.GetNManaged() + 1));
            RtiTimeManager::State& s = m_tm.Get(f);
            s.regulating = true;
            s.lookahead = msg.time;
            LogicalTime maxc = m_tm.MaxConstrainedTime();
            if (maxc - msg.time > s.time)
            {
                s.time = maxc - msg.time;
            }
            RtiMessage r = Reply(RtiMessage::TIME_REGULATION_ENABLED);
            r.time = s.time;
            SendTo(f, std::move(r));
            break;
        }
        case RtiMessage::DISABLE_TIME_REGULATION:
            ChargeOperation(m_settings->TimeManagementCycles(m_tm.GetNManaged()));
            m_tm.Get(f).regulating = false;
            if (m_settings->GetGaltMode() == RtiSettings::CENTRAL)
            {
                EvaluateTime();
            }
            break;
        case RtiMessage::ENABLE_TIME_CONSTRAINED:
            ChargeOperation(m_settings->TimeManagementCycles(m_tm.GetNManaged() + 1));
            m_tm.Get(f);
            m_federates[f].constrainedPending = true;
            if (m_settings->GetGaltMode() == RtiSettings::CENTRAL)
            {
                EvaluateTime();
            }
            else
            {
                // Acknowledged only: the local component checks GALT itself.
                m_federates[f].constrainedPending = false;
                m_tm.Get(f).constrained = true;
                RtiMessage r = Reply(RtiMessage::TIME_CONSTRAINED_ENABLED);
                r.time = m_tm.Get(f).time;
                SendTo(f, std::move(r));
            }
            break;
        case RtiMessage::DISABLE_TIME_CONSTRAINED:
            ChargeOperation(m_settings->TimeManagementCycles(m_tm.GetNManaged()));
            m_tm.Get(f).constrained = false;
            m_tm.Get(f).pendingTso.clear();
            m_tm.Get(f).unread.clear();
            if (m_settings->GetGaltMode() == RtiSettings::CENTRAL)
            {
                EvaluateTime();
            }
            break;
        case RtiMessage::MODIFY_LOOKAHEAD:
            ChargeOperation(m_settings->TimeManagementCycles(m_tm.GetNManaged()));
            RtiTimeManager::ModifyLookahead(m_tm.Get(f), msg.time);
            if (m_settings->GetGaltMode() == RtiSettings::CENTRAL)
            {
                EvaluateTime();
            }
            break;
        case RtiMessage::TIME_ADVANCE_REQUEST: {
            NS_ABORT_MSG_IF(m_settings->GetGaltMode() != RtiSettings::CENTRAL,
                            "RtiCentralComponent: time advance request in NullMessages mode");
            RtiTimeManager::State& s = m_tm.Get(f);
            s.advancing = true;
            s.kind = msg.GetAdvanceKind();
            s.requested = msg.time;
            if (msg.GetFlags() & RtiMessage::FLAG_COUNTS)
            {
                // TsoBookkeeping Counts: on one reliable connection each way nothing overtakes;
                // counts that disagree are a broken connection or a broken component.
                NS_ABORT_MSG_IF(msg.handle != m_tsoFrom[f] || msg.handle2 > m_tsoTo[f],
                                "RtiCentralComponent: federate "
                                    << f << " counts " << msg.handle << " TSO messages sent and "
                                    << msg.handle2 << " read; the CRC received " << m_tsoFrom[f]
                                    << " from it and forwarded " << m_tsoTo[f]);
            }
            EvaluateTime();
            break;
        }
        case RtiMessage::TSO_NOTE_READ: {
            // TsoBookkeeping ReadNotes: the federate has read a TSO message forwarded to it.
            if (RtiTimeManager::NoteRead(m_tm.Get(f), msg.time))
            {
                EvaluateTime();
            }
            break;
        }
        case RtiMessage::NULL_MESSAGE: {
            // Relay to every other federate (they compute GALT themselves).
            ChargeOperation(m_settings->RouteCycles());
            if (msg.GetFlags() & RtiMessage::FLAG_REGULATING)
            {
                m_nullCache[f] = msg;
            }
            else
            {
                m_nullCache.erase(f);
            }
            for (const auto& [g, fed] : m_federates)
            {
                if (g != f)
                {
                    SendTo(g, msg);
                }
            }
            break;
        }
        case RtiMessage::REGISTER_SYNC_POINT: {
            auto& sp = m_sync[msg.name];
            sp.first = msg.tag;
            sp.second.clear();
            for (const auto& [g, fed] : m_federates)
            {
                sp.second.insert(g);
                RtiMessage a = Reply(RtiMessage::ANNOUNCE_SYNC_POINT);
                a.name = msg.name;
                a.tag = msg.tag;
                SendTo(g, std::move(a));
            }
            break;
        }
        case RtiMessage::SYNC_POINT_ACHIEVED: {
            auto it = m_sync.find(msg.name);
            if (it != m_sync.end())
            {
                it->second.second.erase(f);
                CheckSyncPoint(msg.name);
            }
            break;
        }
        default:
            NS_LOG_WARN("RtiCentralComponent: unexpected " << msg);
            break;
    }
}

void
RtiCentralComponent::Route(FederateHandle from, RtiMessage& msg)
{
    ChargeOperation(m_settings->RouteCycles());
    // TsoBookkeeping Counts: the CRC's own counts, against which the requests' are checked.
    const bool counts = msg.IsTso() && m_settings->GetTsoBookkeeping() == RtiSettings::TSO_COUNTS;
    if (counts)
    {
        ++m_tsoFrom[from];
    }
    bool interaction = msg.GetType() == RtiMessage::SEND_INTERACTION;
    bool bestEffort = (msg.GetFlags() & RtiMessage::FLAG_BEST_EFFORT) && !msg.IsTso();
    std::vector<std::pair<FederateHandle, RtiMessage>> out;
    if (interaction)
    {
        for (FederateHandle s : m_intSubs[msg.handle])
        {
            if (s == from)
            {
                continue;
            }
            RtiMessage r = msg;
            r.SetType(RtiMessage::RECEIVE_INTERACTION);
            out.emplace_back(s, std::move(r));
        }
    }
    else
    {
        auto obj = m_objects.find(msg.handle);
        if (obj == m_objects.end())
        {
            NS_LOG_WARN("RtiCentralComponent: update of unknown object " << msg.handle);
            return;
        }
        ObjectClassHandle cls = std::get<0>(obj->second);
        // Each reflect carries the subscribed part of the values: the values are set aside
        // while the rest of the message is copied.
        HandleValueMap values = std::move(msg.values);
        msg.values.clear();
        for (const auto& [s, attrs] : m_objSubs[cls])
        {
            if (s == from)
            {
                continue;
            }
            RtiMessage r = msg;
            r.SetType(RtiMessage::REFLECT_ATTRIBUTES);
            for (const auto& [h, v] : values)
            {
                if (attrs.count(h))
                {
                    r.values[h] = v;
                }
            }
            if (!r.values.empty())
            {
                out.emplace_back(s, std::move(r));
            }
        }
        msg.values = std::move(values);
    }
    m_routeTrace(msg, out.size());
    const bool notes = m_settings->GetTsoBookkeeping() == RtiSettings::TSO_READ_NOTES;
    for (auto& [s, r] : out)
    {
        r.SetSource(from);
        if (counts)
        {
            ++m_tsoTo[s];
        }
        if (msg.IsTso() && m_settings->GetGaltMode() == RtiSettings::CENTRAL && m_tm.Has(s)
            && m_tm.Get(s).constrained)
        {
            m_tm.Get(s).pendingTso.insert(msg.time);
            if (notes)
            {
                m_tm.Get(s).unread.insert(msg.time);
            }
        }
        SendTo(s, std::move(r), bestEffort);
    }
}

void
RtiCentralComponent::EvaluateTime()
{
    ChargeOperation(m_settings->TimeManagementCycles(m_tm.GetNManaged()));
    std::vector<RtiTimeManager::Grant> grants = m_tm.Grants();
    for (const auto& [g, t] : grants)
    {
        RtiMessage tag = Reply(RtiMessage::TIME_ADVANCE_GRANT);
        tag.time = t;
        SendTo(g, std::move(tag));
    }
    bool release = m_settings->GetTsoRelease() == RtiSettings::WHEN_GUARANTEED;
    std::map<FederateHandle, TimeBound> bounds;
    bool computed = false;
    for (auto& [g, fed] : m_federates)
    {
        if (!fed.constrainedPending && !release)
        {
            continue;
        }
        if (!computed)
        {
            bounds = m_tm.ComputeBounds();
            computed = true;
        }
        RtiTimeManager::State& s = m_tm.Get(g);
        TimeBound galt = RtiTimeManager::Galt(g, bounds);
        // enableTimeConstrained completes when no message at or before the federate's time can
        // still come: the local component counts one at its time as late (as after a TAR
        // grant), so the bound's open/closed side counts.
        if (fed.constrainedPending && !galt.Allows(s.time))
        {
            fed.constrainedPending = false;
            s.constrained = true;
            RtiMessage r = Reply(RtiMessage::TIME_CONSTRAINED_ENABLED);
            r.time = s.time;
            SendTo(g, std::move(r));
        }
        // TsoRelease WhenGuaranteed: tell a federate in a TAR/TARA that GALT has passed some of
        // the TSO messages forwarded to it (they are ahead of the notice on its connection).
        if (release && s.advancing && !IsNextMessage(s.kind) && s.constrained
            && !s.pendingTso.empty() && *s.pendingTso.begin() <= s.requested
            && !galt.Allows(*s.pendingTso.begin()))
        {
            while (!s.pendingTso.empty() && *s.pendingTso.begin() <= s.requested
                   && !galt.Allows(*s.pendingTso.begin()))
            {
                s.pendingTso.erase(s.pendingTso.begin());
            }
            RtiMessage n = Reply(RtiMessage::NULL_MESSAGE);
            n.SetFlags(galt.open ? RtiMessage::FLAG_OPEN : 0);
            n.time = galt.t;
            SendTo(g, std::move(n));
        }
    }
}

void
RtiCentralComponent::DiscoverExisting(FederateHandle f, ObjectClassHandle cls)
{
    for (const auto& [obj, info] : m_objects)
    {
        if (std::get<0>(info) == cls && std::get<1>(info) != f)
        {
            RtiMessage d = Reply(RtiMessage::DISCOVER_OBJECT);
            d.SetSource(std::get<1>(info));
            d.handle = cls;
            d.handle2 = obj;
            d.name = std::get<2>(info);
            SendTo(f, std::move(d));
        }
    }
}

void
RtiCentralComponent::RemoveFederate(FederateHandle f)
{
    for (auto& [c, m] : m_objSubs)
    {
        m.erase(f);
    }
    for (auto& [c, m] : m_objPubs)
    {
        m.erase(f);
    }
    for (auto& [c, s] : m_intSubs)
    {
        s.erase(f);
    }
    for (auto& [c, s] : m_intPubs)
    {
        s.erase(f);
    }
    m_tm.Remove(f);
    m_federates.erase(f);
    if (m_nullCache.erase(f))
    {
        RtiMessage w = Reply(RtiMessage::NULL_MESSAGE);
        w.SetSource(f);
        w.time = 0;
        for (const auto& [g, fed] : m_federates)
        {
            SendTo(g, w);
        }
    }
    std::vector<std::string> labels;
    for (auto& [label, sp] : m_sync)
    {
        if (sp.second.erase(f))
        {
            labels.push_back(label);
        }
    }
    for (const auto& l : labels)
    {
        CheckSyncPoint(l);
    }
    if (m_settings->GetGaltMode() == RtiSettings::CENTRAL)
    {
        EvaluateTime();
    }
}

void
RtiCentralComponent::CheckSyncPoint(const std::string& label)
{
    auto it = m_sync.find(label);
    if (it == m_sync.end() || !it->second.second.empty())
    {
        return;
    }
    m_sync.erase(it);
    for (const auto& [g, fed] : m_federates)
    {
        RtiMessage s = Reply(RtiMessage::FEDERATION_SYNCHRONIZED);
        s.name = label;
        SendTo(g, std::move(s));
    }
}

} // namespace ns3
