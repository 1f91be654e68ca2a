/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-fedex.h"

#include "rti-lrc.h"

#include "ns3/boolean.h"
#include "ns3/host-platform.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/tcp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiFedex");

NS_OBJECT_ENSURE_REGISTERED(RtiFedex);
NS_OBJECT_ENSURE_REGISTERED(RtiExec);

TypeId
RtiFedex::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiFedex")
                            .SetParent<Object>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiFedex>();
    return tid;
}

RtiFedex::RtiFedex()
    : m_requests(0)
    , m_grants(0)
{
}

RtiFedex::~RtiFedex()
{
}

void
RtiFedex::DoDispose()
{
    m_process = nullptr;
    m_settings = nullptr;
    m_federates.clear();
    m_pub.clear();
    m_sub.clear();
    for (auto& conn : m_tmConns)
    {
        conn->SetDataCallback(RtiConnection::DataCallback());
    }
    m_tmConns.clear();
    m_replyConn.clear();
    m_tmInbox.clear();
    m_listen = nullptr;
    Object::DoDispose();
}

void
RtiFedex::Setup(Ptr<HostProcess> process, Ptr<RtiSettings> settings, const std::string& name)
{
    m_process = process;
    m_settings = settings;
    m_name = name;
}

std::string
RtiFedex::GetName() const
{
    return m_name;
}

Ptr<RtiSettings>
RtiFedex::GetSettings() const
{
    return m_settings;
}

Ptr<HostProcess>
RtiFedex::GetProcess() const
{
    return m_process;
}

uint32_t
RtiFedex::GetNFederates() const
{
    return m_federates.size();
}

uint64_t
RtiFedex::GetRequests() const
{
    return m_requests;
}

void
RtiFedex::Request(std::function<void()> action)
{
    ++m_requests;
    double cycles = m_settings->AdminCycles() * m_process->GetPlatform()->GetReferenceCycleFactor();
    m_process->ExecuteCycles(cycles, Callback<void>(action));
}

void
RtiFedex::Join(Ptr<RtiLrc> lrc, const std::string& name)
{
    NS_ABORT_MSG_IF(!m_names.insert(name).second,
                    "RtiFedex " << m_name << ": a federate named " << name << " has joined");
    m_federates.push_back(lrc);
    lrc->SetHandle(m_federates.size());
    NS_LOG_INFO("federation " << m_name << ": " << name << " joined as " << m_federates.size());
    Request([lrc]() { lrc->ChargeAdmin(Callback<void>()); });
}

void
RtiFedex::Publish(Ptr<RtiLrc> lrc, uint32_t objectClass)
{
    if (!m_isPub.insert({PeekPointer(lrc), objectClass}).second)
    {
        return;
    }
    m_pub[objectClass].push_back(lrc);
    // The routes exist from the call on (a publisher's first update queues behind the request
    // in simulated time anyway); the request's cost is charged to both processes.
    for (const auto& s : m_sub[objectClass])
    {
        if (s != lrc)
        {
            lrc->AddRoute(objectClass, s);
        }
    }
    Request([lrc]() { lrc->ChargeAdmin(Callback<void>()); });
}

void
RtiFedex::Subscribe(Ptr<RtiLrc> lrc, uint32_t objectClass)
{
    for (const auto& s : m_sub[objectClass])
    {
        if (s == lrc)
        {
            return;
        }
    }
    m_sub[objectClass].push_back(lrc);
    for (const auto& p : m_pub[objectClass])
    {
        if (p != lrc)
        {
            p->AddRoute(objectClass, lrc);
            Request([p]() { p->ChargeAdmin(Callback<void>()); });
        }
    }
    Request([lrc]() { lrc->ChargeAdmin(Callback<void>()); });
}

bool
RtiFedex::IsPublisher(Ptr<const RtiLrc> lrc, uint32_t objectClass) const
{
    return m_isPub.count({PeekPointer(lrc), objectClass}) > 0;
}

void
RtiFedex::OpenTimeManagement(Ptr<RtiLrc> lrc)
{
    // The federate's time-management connection, in the RTI's lowest layer.
    if (m_settings->GetTransport() == RtiSettings::SHARED_MEMORY)
    {
        NS_ABORT_MSG_IF(lrc->GetProcess()->GetPlatform() != m_process->GetPlatform(),
                        "RtiFedex: shared-memory time management across hosts");
        Ptr<RtiLocalConnection> mine = CreateObject<RtiLocalConnection>();
        Ptr<RtiLocalConnection> theirs = CreateObject<RtiLocalConnection>();
        RtiLocalConnection::Connect(mine, theirs);
        mine->SetDataCallback(MakeCallback(&RtiFedex::DataAvailable, this));
        m_tmConns.push_back(mine);
        m_replyConn[lrc->GetHandle()] = mine;
        lrc->SetFedexConnection(theirs);
        return;
    }
    Ptr<Node> node = m_process->GetPlatform()->GetObject<Node>();
    if (!m_listen)
    {
        m_listen = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(
            m_listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_settings->GetPort())) != 0,
            "RtiFedex: cannot bind TCP port " << m_settings->GetPort());
        m_listen->Listen();
        m_listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&RtiFedex::HandleAccept, this));
    }
    // From the Fedex's own host over the loopback interface, else to its first interface's
    // address over the network.
    Ipv4Address to("127.0.0.1");
    if (lrc->GetProcess()->GetPlatform() != m_process->GetPlatform())
    {
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        NS_ABORT_MSG_IF(!ipv4 || ipv4->GetNInterfaces() < 2,
                        "RtiFedex: the Fedex's host has no network interface");
        to = ipv4->GetAddress(1, 0).GetLocal();
    }
    lrc->ConnectFedex(InetSocketAddress(to, m_settings->GetPort()));
}

void
RtiFedex::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    // Time-management messages are small and wait for their answer: no Nagle delay.
    socket->SetAttribute("TcpNoDelay", BooleanValue(true));
    Ptr<RtiTcpConnection> conn = CreateObject<RtiTcpConnection>();
    conn->SetSocket(socket);
    conn->SetDataCallback(MakeCallback(&RtiFedex::DataAvailable, this));
    m_tmConns.push_back(conn);
}

void
RtiFedex::DataAvailable(Ptr<RtiConnection> conn)
{
    while (conn->HasData())
    {
        RtiConnection::Chunk chunk = conn->Receive();
        for (RtiMessage& msg : chunk.messages)
        {
            m_tmInbox.push_back(Inbound{std::move(msg), conn});
        }
    }
    if (!m_tmReading && !m_tmInbox.empty())
    {
        m_tmReading = true;
        // The Fedex blocks on its connections; a message wakes it.
        m_process->Wake(Callback<void>([this]() { ReadNext(); }));
    }
}

void
RtiFedex::ReadNext()
{
    if (m_tmInbox.empty())
    {
        m_tmReading = false;
        return;
    }
    const Inbound& in = m_tmInbox.front();
    // The read side of one message: the host's socket read (or semaphore operation) and the
    // RTI's lowest and upper layers (transport, decoding, the handler's dispatch).
    m_process->Execute(
        RtiLrc::ReadSideCost(m_process->GetPlatform(), m_settings, in.msg.GetSerializedSize()),
        Callback<void>([this]() { Handle(); }));
}

void
RtiFedex::Handle()
{
    Inbound in = std::move(m_tmInbox.front());
    m_tmInbox.pop_front();
    ++m_tmMessages;
    const RtiMessage& m = in.msg;
    const uint32_t h = m.GetSource();
    if (m.GetType() == RtiMessage::ENABLE_TIME_REGULATION)
    {
        // enableTimeRegulation and enableTimeConstrained with the message's lookahead; the
        // answer is the RTI's callback (TIME_REGULATION_ENABLED at the federate's time).
        NS_ABORT_MSG_IF(m_tm.Has(h), "RtiFedex: federate " << h << " is already time-managed");
        RtiTimeManager::State& s = m_tm.Get(h);
        s.regulating = true;
        s.constrained = true;
        s.time = 0;
        s.lookahead = m.time;
        m_replyConn[h] = in.conn;
        RtiMessage enabled = m_settings->NewMessage(RtiMessage::TIME_REGULATION_ENABLED);
        enabled.time = s.time;
        SendTo(h, enabled);
    }
    NS_ABORT_MSG_IF(!m_tm.Has(h), "RtiFedex: federate " << h << " is not time-managed");
    NS_LOG_LOGIC("Fedex reads " << m);
    switch (m.GetType())
    {
        case RtiMessage::ENABLE_TIME_REGULATION:
            break;
        case RtiMessage::TIME_ADVANCE_REQUEST: {
            RtiTimeManager::State& s = m_tm.Get(h);
            NS_ABORT_MSG_IF(s.advancing, "RtiFedex: federate " << h << " is already advancing");
            NS_ABORT_MSG_IF(m.time < s.time, "RtiFedex: TAR before the federate's time");
            // TimeAdvanceRequest(t): the federate promises no timestamp below t + L.
            s.advancing = true;
            s.kind = AdvanceKind::TAR;
            s.requested = m.time;
            m_replyConn[h] = in.conn;
            GrantAll();
            break;
        }
        case RtiMessage::TSO_NOTE_SENT: {
            // The note comes before the sender's next request on the same connection, so the
            // sender's bound still covers the timestamp.
            const TimeBound bound
                = RtiTimeManager::OutputBound(m_tm.Get(h),
                                              RtiTimeManager::Galt(h, m_tm.ComputeBounds()));
            NS_ABORT_MSG_IF(!bound.Allows(m.time),
                            "RtiFedex: federate " << h << " sends timestamp " << m.time
                                                  << " ns below its output bound " << bound.t
                                                  << " ns");
            for (const Ptr<RtiLrc>& r : m_sub[m.handle])
            {
                const uint32_t rh = r->GetHandle();
                if (rh == h || !m_tm.Has(rh))
                {
                    continue;
                }
                // The reader's note may have come first (it is on another connection).
                auto& early = m_readEarly[rh];
                auto e = early.find(m.time);
                if (e != early.end())
                {
                    early.erase(e);
                }
                else
                {
                    m_tm.Get(rh).unread.insert(m.time);
                }
            }
            break;
        }
        case RtiMessage::TSO_NOTE_READ: {
            if (m_tm.Has(h) && RtiTimeManager::NoteRead(m_tm.Get(h), m.time))
            {
                GrantAll();
            }
            else
            {
                m_readEarly[h].insert(m.time);
            }
            break;
        }
        default:
            NS_LOG_WARN("RtiFedex: ignored a " << RtiMessage::TypeName(m.GetType()));
            break;
    }
    // Off the message's path: the rest of the socket read (network transports).
    Time off = m_settings->GetTransport() == RtiSettings::SHARED_MEMORY
                   ? Seconds(0)
                   : m_process->GetPlatform()->GetRecvOffPathCost();
    m_process->Execute(off, Callback<void>([this]() { ReadNext(); }));
}

void
RtiFedex::GrantAll()
{
    const std::map<FederateHandle, TimeBound> bounds = m_tm.ComputeBounds();
    for (const Ptr<RtiLrc>& lrc : m_federates)
    {
        const uint32_t h = lrc->GetHandle();
        if (!m_tm.Has(h) || !m_tm.Get(h).advancing)
        {
            continue;
        }
        RtiTimeManager::State& s = m_tm.Get(h);
        LogicalTime g = 0;
        if (!RtiTimeManager::CanGrant(s, RtiTimeManager::Galt(h, bounds), &g))
        {
            continue;
        }
        RtiTimeManager::ApplyGrant(s, g);
        ++m_grants;
        // The grant is a message on the federate's connection. A grant leaves the federate's
        // bound where its request put it: the others' GALT does not change, one pass suffices.
        RtiMessage grant = m_settings->NewMessage(RtiMessage::TIME_ADVANCE_GRANT);
        grant.time = g;
        SendTo(h, grant);
    }
}

void
RtiFedex::SendTo(uint32_t h, const RtiMessage& msg)
{
    RtiLrc::SendOne(m_process, m_settings, m_replyConn[h], msg);
}

uint64_t
RtiFedex::GetGrants() const
{
    return m_grants;
}

uint64_t
RtiFedex::GetTimeMessages() const
{
    return m_tmMessages;
}

TypeId
RtiExec::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiExec")
                            .SetParent<Object>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiExec>();
    return tid;
}

RtiExec::RtiExec()
{
}

RtiExec::~RtiExec()
{
}

void
RtiExec::DoDispose()
{
    m_platform = nullptr;
    m_process = nullptr;
    m_settings = nullptr;
    m_fedexes.clear();
    Object::DoDispose();
}

void
RtiExec::Setup(Ptr<HostPlatform> platform, Ptr<RtiSettings> settings)
{
    NS_ABORT_MSG_IF(settings->GetDataPath() != RtiSettings::DIRECT,
                    "RtiExec: the RTI's DataPath is not Direct");
    m_platform = platform;
    m_settings = settings;
    m_process = platform->CreateProcess();
}

Ptr<RtiFedex>
RtiExec::CreateFederation(const std::string& name)
{
    NS_ABORT_MSG_IF(!m_platform, "RtiExec::CreateFederation before Setup");
    NS_ABORT_MSG_IF(m_fedexes.count(name), "RtiExec: federation " << name << " exists");
    Ptr<RtiFedex> fedex = CreateObject<RtiFedex>();
    Ptr<HostProcess> process = m_platform->CreateProcess();
    fedex->Setup(process, m_settings, name);
    m_fedexes[name] = fedex;
    // The RTIexec's work of launching the Fedex (fork and exec are the host's).
    m_process->ExecuteCycles(m_settings->AdminCycles() * m_platform->GetReferenceCycleFactor());
    return fedex;
}

} // namespace ns3
