/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-lrc.h"

#include "rti-fedex.h"

#include "ns3/boolean.h"
#include "ns3/host-platform.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiLrc");

NS_OBJECT_ENSURE_REGISTERED(RtiLrc);

TypeId
RtiLrc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RtiLrc")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<RtiLrc>()
              .AddTraceSource("Drop",
                              "A message was lost (full shared-memory queue) or malformed input "
                              "was dropped.",
                              MakeTraceSourceAccessor(&RtiLrc::m_dropTrace),
                              "ns3::RtiLrc::DropTracedCallback")
              .AddTraceSource("ReadCycle",
                              "A read cycle ended: the messages it delivered (a burst).",
                              MakeTraceSourceAccessor(&RtiLrc::m_readCycleTrace),
                              "ns3::RtiLrc::ReadCycleTracedCallback")
              .AddTraceSource("Reflect",
                              "An update was reflected: sender, sequence number, tag.",
                              MakeTraceSourceAccessor(&RtiLrc::m_reflectTrace),
                              "ns3::RtiLrc::ReflectTracedCallback");
    return tid;
}

RtiLrc::RtiLrc()
    : m_handle(0)
    , m_factor(1.0)
    , m_reading(false)
    , m_burst(0)
    , m_cycleLeft(0)
    , m_sent(0)
    , m_reflected(0)
    , m_gaps(0)
    , m_queueDrops(0)
    , m_socketDrops(0)
    , m_maxBurst(0)
{
}

RtiLrc::~RtiLrc()
{
}

void
RtiLrc::DoDispose()
{
    for (auto& conn : m_receiving)
    {
        conn->SetDataCallback(RtiConnection::DataCallback());
    }
    m_receiving.clear();
    m_udp = nullptr;
    m_listen = nullptr;
    m_routes.clear();
    m_inbox.clear();
    m_process = nullptr;
    m_settings = nullptr;
    m_fedex = nullptr;
    if (m_fedexConn)
    {
        m_fedexConn->SetDataCallback(RtiConnection::DataCallback());
        m_fedexConn = nullptr;
    }
    m_grants.clear();
    m_granted = Callback<void>();
    m_reflect = ReflectCallback();
    Object::DoDispose();
}

void
RtiLrc::Setup(Ptr<HostProcess> process, Ptr<RtiSettings> settings, Ipv4Address address)
{
    NS_ABORT_MSG_IF(!process || !settings, "RtiLrc::Setup: a process and settings are needed");
    NS_ABORT_MSG_IF(settings->GetDataPath() != RtiSettings::DIRECT,
                    "RtiLrc: the RTI's DataPath is not Direct (this RTI routes through the "
                    "central component; use RtiAmbassador)");
    m_process = process;
    m_settings = settings;
    m_address = address;
    m_factor = process->GetPlatform()->GetReferenceCycleFactor();
}

double
RtiLrc::Cycles(double referenceCycles) const
{
    return referenceCycles * m_factor;
}

void
RtiLrc::Join(Ptr<RtiFedex> fedex, const std::string& name)
{
    NS_ABORT_MSG_IF(!m_process, "RtiLrc::Join before Setup");
    NS_ABORT_MSG_IF(m_fedex, "RtiLrc::Join: already joined");
    m_fedex = fedex;
    fedex->Join(this, name);
    OpenTransport();
}

void
RtiLrc::SetHandle(uint32_t handle)
{
    m_handle = handle;
}

uint32_t
RtiLrc::GetHandle() const
{
    return m_handle;
}

Ptr<RtiFedex>
RtiLrc::GetFedex() const
{
    return m_fedex;
}

Ptr<HostProcess>
RtiLrc::GetProcess() const
{
    return m_process;
}

uint16_t
RtiLrc::GetPort() const
{
    uint16_t base = m_settings->GetTransport() == RtiSettings::TCP ? m_settings->GetPort()
                                                                   : m_settings->GetUdpPort();
    return static_cast<uint16_t>(base + m_handle);
}

Ipv4Address
RtiLrc::GetAddress() const
{
    return m_address;
}

void
RtiLrc::OpenTransport()
{
    Ptr<Node> node = m_process->GetPlatform()->GetObject<Node>();
    switch (m_settings->GetTransport())
    {
        case RtiSettings::UDP:
            m_udp = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
            NS_ABORT_MSG_IF(m_udp->Bind(InetSocketAddress(Ipv4Address::GetAny(), GetPort())) != 0,
                            "RtiLrc: cannot bind UDP port " << GetPort());
            {
                Ptr<RtiUdpConnection> rx = CreateObject<RtiUdpConnection>();
                rx->SetSocket(m_udp, Address(), true);
                Watch(rx);
            }
            break;
        case RtiSettings::TCP:
            m_listen = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
            NS_ABORT_MSG_IF(m_listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), GetPort()))
                                != 0,
                            "RtiLrc: cannot bind TCP port " << GetPort());
            m_listen->Listen();
            m_listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                        MakeCallback(&RtiLrc::HandleAccept, this));
            break;
        case RtiSettings::SHARED_MEMORY:
            break;
    }
}

void
RtiLrc::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    socket->SetAttribute("TcpNoDelay", BooleanValue(m_settings->GetTcpNoDelay()));
    Ptr<RtiTcpConnection> conn = CreateObject<RtiTcpConnection>();
    conn->SetSocket(socket);
    Watch(conn);
}

void
RtiLrc::Watch(Ptr<RtiConnection> conn)
{
    conn->SetDataCallback(MakeCallback(&RtiLrc::DataAvailable, this));
    m_receiving.push_back(conn);
}

void
RtiLrc::Publish(uint32_t objectClass)
{
    NS_ABORT_MSG_IF(!m_fedex, "RtiLrc::Publish before Join");
    m_fedex->Publish(this, objectClass);
}

void
RtiLrc::Subscribe(uint32_t objectClass)
{
    NS_ABORT_MSG_IF(!m_fedex, "RtiLrc::Subscribe before Join");
    m_fedex->Subscribe(this, objectClass);
}

void
RtiLrc::AddRoute(uint32_t objectClass, Ptr<RtiLrc> receiver)
{
    Route route{receiver, nullptr};
    switch (m_settings->GetTransport())
    {
        case RtiSettings::SHARED_MEMORY: {
            NS_ABORT_MSG_IF(receiver->m_process->GetPlatform() != m_process->GetPlatform(),
                            "RtiLrc: shared-memory transport between federates on different hosts");
            // The receiver's queue: what this sender writes arrives there.
            Ptr<RtiLocalConnection> tx = CreateObject<RtiLocalConnection>();
            Ptr<RtiLocalConnection> rx = CreateObject<RtiLocalConnection>();
            RtiLocalConnection::Connect(tx, rx);
            receiver->Watch(rx);
            route.conn = tx;
            break;
        }
        case RtiSettings::TCP: {
            Ptr<Node> node = m_process->GetPlatform()->GetObject<Node>();
            Ptr<Socket> socket = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
            socket->Bind();
            socket->SetAttribute("TcpNoDelay", BooleanValue(m_settings->GetTcpNoDelay()));
            socket->Connect(InetSocketAddress(receiver->GetAddress(), receiver->GetPort()));
            Ptr<RtiTcpConnection> conn = CreateObject<RtiTcpConnection>();
            conn->SetSocket(socket);
            route.conn = conn;
            break;
        }
        case RtiSettings::UDP: {
            Ptr<RtiUdpConnection> conn = CreateObject<RtiUdpConnection>();
            conn->SetSocket(m_udp,
                            InetSocketAddress(receiver->GetAddress(), receiver->GetPort()),
                            false);
            route.conn = conn;
            break;
        }
    }
    m_routes[objectClass].push_back(route);
}

Time
RtiLrc::SendSideCost(Ptr<HostPlatform> platform,
                     Ptr<RtiSettings> settings,
                     uint32_t size,
                     std::size_t receivers)
{
    Ptr<HostCpu> cpu = platform->GetCpu();
    const double factor = platform->GetReferenceCycleFactor();
    double cycles
        = settings->CallCycles() + settings->EncodeCycles(size) + settings->TransportCycles();
    Time cost = cpu->CyclesToTime(cycles * factor);
    if (settings->GetTransport() == RtiSettings::SHARED_MEMORY)
    {
        // The copy into each receiver's queue and the semaphore post (a system call).
        cost += (cpu->CyclesToTime(settings->ShmEnqueueCycles(size) * factor)
                 + platform->GetSyscallCost())
                * int64_t(receivers);
    }
    else
    {
        cost += platform->GetSendCost(size) * int64_t(receivers);
    }
    return cost;
}

Time
RtiLrc::ReadSideCost(Ptr<HostPlatform> platform, Ptr<RtiSettings> settings, uint32_t size)
{
    double cycles
        = settings->TransportCycles() + settings->DecodeCycles(size) + settings->CallbackCycles();
    Time cost = platform->GetCpu()->CyclesToTime(cycles * platform->GetReferenceCycleFactor());
    if (settings->GetTransport() == RtiSettings::SHARED_MEMORY)
    {
        cost += platform->GetSyscallCost(); // the semaphore operation that takes the message
    }
    else
    {
        cost += platform->GetRecvCost(size);
    }
    return cost;
}

void
RtiLrc::ConnectFedex(const Address& fedex)
{
    Ptr<Node> node = m_process->GetPlatform()->GetObject<Node>();
    Ptr<Socket> socket = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    socket->Bind();
    // Time-management messages are small and wait for their answer: no Nagle delay.
    socket->SetAttribute("TcpNoDelay", BooleanValue(true));
    socket->Connect(fedex);
    Ptr<RtiTcpConnection> conn = CreateObject<RtiTcpConnection>();
    conn->SetSocket(socket);
    SetFedexConnection(conn);
}

void
RtiLrc::SetFedexConnection(Ptr<RtiConnection> conn)
{
    m_fedexConn = conn;
    m_fedexConn->SetDataCallback(MakeCallback(&RtiLrc::FedexData, this));
}

void
RtiLrc::SendToFedex(const RtiMessage& msg)
{
    NS_ABORT_MSG_IF(!m_fedexConn, "RtiLrc " << m_handle << ": not time-managed");
    SendOne(m_process, m_settings, m_fedexConn, msg);
}

void
RtiLrc::SendOne(Ptr<HostProcess> process,
                Ptr<RtiSettings> settings,
                Ptr<RtiConnection> conn,
                const RtiMessage& msg)
{
    Ptr<HostPlatform> platform = process->GetPlatform();
    const bool network = settings->GetTransport() != RtiSettings::SHARED_MEMORY;
    process->Execute(SendSideCost(platform, settings, msg.GetSerializedSize(), 1),
                     Callback<void>([conn, msg, platform, network]() {
                         conn->Send(msg);
                         if (network)
                         {
                             platform->NotifyTransmitted();
                         }
                     }));
    if (network && platform->GetSendOffPathCost().IsStrictlyPositive())
    {
        process->Execute(platform->GetSendOffPathCost());
    }
}

void
RtiLrc::EnableTimeManagement(Time lookahead, Callback<void> enabled)
{
    NS_ABORT_MSG_IF(!m_fedex, "RtiLrc: EnableTimeManagement before Join");
    NS_ABORT_MSG_IF(lookahead.IsNegative(), "RtiLrc: negative lookahead");
    NS_ABORT_MSG_IF(m_fedexConn, "RtiLrc " << m_handle << ": time management already enabled");
    m_enabled = enabled;
    m_fedex->OpenTimeManagement(this);
    RtiMessage msg = m_settings->NewMessage(RtiMessage::ENABLE_TIME_REGULATION);
    msg.SetSource(m_handle);
    msg.time = static_cast<LogicalTime>(lookahead.GetNanoSeconds());
    SendToFedex(msg);
}

bool
RtiLrc::IsTimeManagementEnabled() const
{
    return m_tmEnabled;
}

void
RtiLrc::RequestAdvance(Time t, Callback<void> granted)
{
    NS_ABORT_MSG_IF(!m_granted.IsNull(), "RtiLrc " << m_handle << ": already advancing");
    m_granted = granted;
    m_requestedAt = Simulator::Now();
    RtiMessage msg = m_settings->NewMessage(RtiMessage::TIME_ADVANCE_REQUEST);
    msg.SetSource(m_handle);
    msg.SetAdvanceKind(AdvanceKind::TAR);
    msg.time = static_cast<LogicalTime>(t.GetNanoSeconds());
    SendToFedex(msg);
}

void
RtiLrc::NoteSent(uint32_t objectClass, Time ts)
{
    RtiMessage msg = m_settings->NewMessage(RtiMessage::TSO_NOTE_SENT);
    msg.SetSource(m_handle);
    msg.handle = objectClass;
    msg.time = static_cast<LogicalTime>(ts.GetNanoSeconds());
    SendToFedex(msg);
}

void
RtiLrc::NoteRead(Time ts)
{
    RtiMessage msg = m_settings->NewMessage(RtiMessage::TSO_NOTE_READ);
    msg.SetSource(m_handle);
    msg.time = static_cast<LogicalTime>(ts.GetNanoSeconds());
    SendToFedex(msg);
}

void
RtiLrc::FedexData(Ptr<RtiConnection> conn)
{
    while (conn->HasData())
    {
        RtiConnection::Chunk chunk = conn->Receive();
        for (RtiMessage& msg : chunk.messages)
        {
            if (msg.GetType() == RtiMessage::TIME_ADVANCE_GRANT
                || msg.GetType() == RtiMessage::TIME_REGULATION_ENABLED)
            {
                m_grants.push_back(std::move(msg));
            }
        }
    }
    if (!m_readingGrants && !m_grants.empty())
    {
        m_readingGrants = true;
        // A federate waiting for its grant is blocked on the connection: woken by it.
        m_process->Wake(Callback<void>([this]() { ReadGrant(); }));
    }
}

void
RtiLrc::ReadGrant()
{
    if (m_grants.empty())
    {
        m_readingGrants = false;
        return;
    }
    Ptr<HostPlatform> platform = m_process->GetPlatform();
    const uint32_t size = m_grants.front().GetSerializedSize();
    m_process->Execute(ReadSideCost(platform, m_settings, size), Callback<void>([this]() {
                           const bool enable
                               = m_grants.front().GetType() == RtiMessage::TIME_REGULATION_ENABLED;
                           m_grants.pop_front();
                           Callback<void> cb;
                           if (enable)
                           {
                               m_tmEnabled = true;
                               cb = m_enabled;
                               m_enabled = Callback<void>();
                           }
                           else
                           {
                               ++m_grantsRead;
                               m_grantWait += Simulator::Now() - m_requestedAt;
                               cb = m_granted;
                               m_granted = Callback<void>();
                           }
                           // The rest of the read off the grant's path, after the federate's
                           // timeAdvanceGrant callback has queued its work.
                           if (!cb.IsNull())
                           {
                               cb();
                           }
                           Ptr<HostPlatform> p = m_process->GetPlatform();
                           Time off = m_settings->GetTransport() == RtiSettings::SHARED_MEMORY
                                          ? Seconds(0)
                                          : p->GetRecvOffPathCost();
                           m_process->Execute(off, Callback<void>([this]() { ReadGrant(); }));
                       }));
}

uint64_t
RtiLrc::GetGrantsRead() const
{
    return m_grantsRead;
}

Time
RtiLrc::GetGrantWaitSum() const
{
    return m_grantWait;
}

void
RtiLrc::ChargeAdmin(Callback<void> done)
{
    m_process->ExecuteCycles(Cycles(m_settings->AdminCycles()), done);
}

uint32_t
RtiLrc::GetUpdateSize(uint32_t bytes) const
{
    RtiMessage m = m_settings->NewMessage(RtiMessage::UPDATE_ATTRIBUTES);
    m.values[1].resize(bytes);
    m.tag.resize(8);
    return m.GetSerializedSize();
}

void
RtiLrc::Update(uint32_t objectClass, uint32_t bytes, Time tag)
{
    NS_LOG_FUNCTION(this << objectClass << bytes << tag);
    NS_ABORT_MSG_IF(!m_fedex, "RtiLrc::Update before Join");
    NS_ABORT_MSG_IF(!m_fedex->IsPublisher(this, objectClass),
                    "RtiLrc::Update: federate " << m_handle << " does not publish class "
                                                << objectClass);
    // The update: the class as its object's handle (one object per class here), one
    // attribute of the update's bytes, the RCI's tag (its time, 8 bytes, network order).
    RtiMessage msg = m_settings->NewMessage(RtiMessage::UPDATE_ATTRIBUTES);
    msg.handle = objectClass;
    msg.SetSource(m_handle);
    msg.SetSerial(m_nextSeq[objectClass]++);
    msg.values[1].resize(bytes);
    uint64_t ns = static_cast<uint64_t>(tag.GetNanoSeconds());
    msg.tag.resize(8);
    for (int k = 0; k < 8; ++k)
    {
        msg.tag[k] = static_cast<uint8_t>(ns >> (56 - 8 * k));
    }
    uint32_t size = msg.GetSerializedSize();
    ++m_sent;
    // One step of the process: the RTI's upper layers (call, encoding) and its lowest layer,
    // then per receiver the operating system's part: the socket send (network transports) or
    // the copy into the receiver's queue and the semaphore post (a system call). The messages
    // leave when the step is done (a process that loops over its receivers sends the first one
    // a little earlier: not modelled). Then, off the messages' path, the rest of each send
    // call (the host's SendOffPathCost): the send side of the process's job.
    Ptr<HostPlatform> platform = m_process->GetPlatform();
    auto it = m_routes.find(objectClass);
    std::size_t receivers = it == m_routes.end() ? 0 : it->second.size();
    const bool shm = m_settings->GetTransport() == RtiSettings::SHARED_MEMORY;
    Time cost = SendSideCost(platform, m_settings, size, receivers);
    m_process->Execute(cost,
                       Callback<void>([this, objectClass, msg]() { SendNow(objectClass, msg); }));
    if (!shm && receivers > 0)
    {
        Time off = platform->GetSendOffPathCost() * int64_t(receivers);
        if (off.IsStrictlyPositive())
        {
            m_process->Execute(off);
        }
    }
}

void
RtiLrc::SendNow(uint32_t objectClass, const RtiMessage& msg)
{
    auto it = m_routes.find(objectClass);
    if (it == m_routes.end())
    {
        return;
    }
    const bool network = m_settings->GetTransport() != RtiSettings::SHARED_MEMORY;
    for (const Route& route : it->second)
    {
        route.conn->Send(msg);
        if (network)
        {
            // The kernel's transmit completion, on the interrupt core.
            m_process->GetPlatform()->NotifyTransmitted();
        }
    }
}

void
RtiLrc::DataAvailable(Ptr<RtiConnection> conn)
{
    const bool shm = m_settings->GetTransport() == RtiSettings::SHARED_MEMORY;
    const bool udp = m_settings->GetTransport() == RtiSettings::UDP;
    Ptr<HostPlatform> platform = m_process->GetPlatform();
    const uint32_t rcvbuf = udp ? platform->GetUdpReceiveBuffer() : 0;
    while (conn->HasData())
    {
        RtiConnection::Chunk chunk = conn->Receive();
        for (RtiMessage& msg : chunk.messages)
        {
            uint32_t size = msg.GetSerializedSize();
            if (msg.GetType() != RtiMessage::UPDATE_ATTRIBUTES || msg.tag.size() != 8)
            {
                NS_LOG_WARN("RtiLrc " << m_handle << ": ignored a " << msg.GetType()
                                      << " message on the direct path");
                continue;
            }
            if (shm && m_inbox.size() >= m_settings->GetShmQueueSize())
            {
                ++m_queueDrops;
                m_dropTrace(size, "shared-memory queue full");
                continue;
            }
            // UDP: the inbox is the socket's receive queue (the process takes a datagram only
            // when it reads): a datagram that does not fit in the receive buffer is dropped.
            uint32_t charge = udp ? platform->GetSocketBufferCharge(size) : 0;
            if (rcvbuf > 0 && m_inboxCharge + charge > rcvbuf)
            {
                ++m_socketDrops;
                m_dropTrace(size, "socket receive buffer full");
                continue;
            }
            m_inboxCharge += charge;
            m_inbox.push_back(Inbound{std::move(msg), size, charge});
        }
    }
    if (!m_reading && !m_inbox.empty())
    {
        m_reading = true;
        // A blocked reader is woken (semaphore or socket); a running one finds the message when
        // it comes back to read. The wake-up's kernel work on the reader's CPU (the host's
        // WaitCost: the rest of the blocking call, the switches; lmbench's pipe one way minus
        // its two calls) is on the message's path, as in lat_pipe, for every transport.
        m_process->Wake(Callback<void>([this]() { WokenUp(); }));
    }
}

void
RtiLrc::StartReadCycle()
{
    // A read cycle delivers the messages queued when it looks; later ones wait for the next.
    m_cycleLeft = m_inbox.size();
    m_burst = 0;
    ReadNext();
}

void
RtiLrc::ReadNext()
{
    Ptr<HostPlatform> platform = m_process->GetPlatform();
    if (m_cycleLeft == 0)
    {
        m_maxBurst = std::max(m_maxBurst, m_burst);
        m_readCycleTrace(m_burst);
        // The cycle's own work, once however many messages it read: the RTI's tick
        // (ReadCycleCost), the owner's per-cycle work (an RCI Update action, SetCycleWork) and,
        // on a socket, the non-blocking read that finds it empty.
        Time cycle = platform->GetCpu()->CyclesToTime(
                         Cycles(m_settings->ReadCycleCycles() + m_cycleReferenceCycles))
                     + platform->GetSyscallCost() * int64_t(m_cycleSyscalls);
        if (m_settings->GetTransport() == RtiSettings::UDP)
        {
            cycle += platform->GetSyscallCost();
        }
        if (cycle.IsStrictlyPositive())
        {
            m_process->Execute(cycle, Callback<void>([this]() { EndReadCycle(); }));
            return;
        }
        EndReadCycle();
        return;
    }
    const Inbound& msg = m_inbox.front();
    Time cost = ReadSideCost(platform, m_settings, msg.size);
    m_process->Execute(cost, Callback<void>([this]() { ReadDone(); }));
}

void
RtiLrc::WokenUp()
{
    Time wait = m_process->GetPlatform()->GetWaitCost();
    if (wait.IsStrictlyPositive())
    {
        m_process->Execute(wait, Callback<void>([this]() { StartReadCycle(); }));
        return;
    }
    StartReadCycle();
}

void
RtiLrc::EndReadCycle()
{
    if (!m_inbox.empty())
    {
        StartReadCycle(); // what came meanwhile: no wake-up, the process is running
        return;
    }
    // Nothing to read: the process blocks (select() or the semaphore wait); the next message
    // wakes it (WokenUp), what arrives meanwhile is read without another wake-up.
    m_reading = false;
}

void
RtiLrc::ReadDone()
{
    Inbound msg = std::move(m_inbox.front());
    m_inbox.pop_front();
    m_inboxCharge -= msg.charge;
    --m_cycleLeft;
    ++m_burst;
    const RtiMessage& m = msg.msg;
    uint32_t seq = m.GetSerial();
    auto [it, fresh] = m_expected.try_emplace(m.GetSource(), 0);
    if (seq > it->second)
    {
        m_gaps += seq - it->second;
    }
    it->second = std::max(it->second, seq + 1);
    uint64_t ns = 0;
    for (uint8_t b : m.tag)
    {
        ns = (ns << 8) | b;
    }
    Time tag = NanoSeconds(static_cast<int64_t>(ns));
    uint32_t bytes = m.values.empty() ? 0 : m.values.begin()->second.size();
    ++m_reflected;
    m_reflectTrace(m.GetSource(), seq, tag);
    if (!m_reflect.IsNull())
    {
        m_reflect(Reflection{m.handle, m.GetSource(), seq, tag, bytes});
    }
    // Off the message's path: the RTI's read-side work after the callback (ReflectTailCost),
    // the owner's per-reflection work (SetReflectWork: the RCI's) and the rest of the socket
    // read (the host's RecvOffPathCost): the read side of the job.
    Ptr<HostPlatform> platform = m_process->GetPlatform();
    Time tail = platform->GetCpu()->CyclesToTime(
        Cycles(m_settings->ReflectTailCycles() + m_reflectReferenceCycles));
    if (m_settings->GetTransport() != RtiSettings::SHARED_MEMORY)
    {
        tail += platform->GetRecvOffPathCost();
    }
    m_process->Execute(tail, Callback<void>([this]() { ReadNext(); }));
}

void
RtiLrc::SetCycleWork(double referenceCycles, uint32_t syscalls)
{
    NS_ABORT_MSG_IF(referenceCycles < 0, "RtiLrc::SetCycleWork: negative cycles");
    m_cycleReferenceCycles = referenceCycles;
    m_cycleSyscalls = syscalls;
}

void
RtiLrc::SetReflectWork(double referenceCycles)
{
    NS_ABORT_MSG_IF(referenceCycles < 0, "RtiLrc::SetReflectWork: negative cycles");
    m_reflectReferenceCycles = referenceCycles;
}

uint64_t
RtiLrc::GetSocketDrops() const
{
    return m_socketDrops;
}

void
RtiLrc::SetReflectCallback(ReflectCallback cb)
{
    m_reflect = cb;
}

uint64_t
RtiLrc::GetSent() const
{
    return m_sent;
}

uint64_t
RtiLrc::GetReflected() const
{
    return m_reflected;
}

uint64_t
RtiLrc::GetGaps() const
{
    return m_gaps;
}

uint64_t
RtiLrc::GetQueueDrops() const
{
    return m_queueDrops;
}

uint64_t
RtiLrc::GetMalformed() const
{
    uint64_t n = 0;
    for (const auto& conn : m_receiving)
    {
        n += conn->GetNMalformed();
    }
    return n;
}

uint32_t
RtiLrc::GetMaxBurst() const
{
    return m_maxBurst;
}

} // namespace ns3
