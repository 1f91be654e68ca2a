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
    , m_sent(0)
    , m_reflected(0)
    , m_gaps(0)
    , m_queueDrops(0)
    , m_malformed(0)
    , m_sendDrops(0)
    , m_maxBurst(0)
{
}

RtiLrc::~RtiLrc()
{
}

void
RtiLrc::DoDispose()
{
    if (m_udp)
    {
        m_udp->Close();
        m_udp->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
    m_udp = nullptr;
    m_listen = nullptr;
    m_accepted.clear();
    m_stream.clear();
    m_routes.clear();
    m_inbox.clear();
    m_process = nullptr;
    m_settings = nullptr;
    m_fedex = nullptr;
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
            m_udp->SetRecvCallback(MakeCallback(&RtiLrc::HandleRead, this));
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
    socket->SetRecvCallback(MakeCallback(&RtiLrc::HandleRead, this));
    m_accepted.push_back(socket);
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
        case RtiSettings::SHARED_MEMORY:
            NS_ABORT_MSG_IF(receiver->m_process->GetPlatform() != m_process->GetPlatform(),
                            "RtiLrc: shared-memory transport between federates on different hosts");
            break;
        case RtiSettings::TCP: {
            Ptr<Node> node = m_process->GetPlatform()->GetObject<Node>();
            route.tcp = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
            route.tcp->Bind();
            route.tcp->SetAttribute("TcpNoDelay", BooleanValue(m_settings->GetTcpNoDelay()));
            route.tcp->Connect(InetSocketAddress(receiver->GetAddress(), receiver->GetPort()));
            break;
        }
        case RtiSettings::UDP:
            break;
    }
    m_routes[objectClass].push_back(route);
}

void
RtiLrc::ChargeAdmin(Callback<void> done)
{
    m_process->ExecuteCycles(Cycles(m_settings->AdminCycles()), done);
}

uint32_t
RtiLrc::GetMessageSize(uint32_t bytes) const
{
    return m_settings->GetHeaderSize() + bytes;
}

void
RtiLrc::Update(uint32_t objectClass, uint32_t bytes, Time tag)
{
    NS_LOG_FUNCTION(this << objectClass << bytes << tag);
    NS_ABORT_MSG_IF(!m_fedex, "RtiLrc::Update before Join");
    NS_ABORT_MSG_IF(!m_fedex->IsPublisher(this, objectClass),
                    "RtiLrc::Update: federate " << m_handle << " does not publish class "
                                                << objectClass);
    RtiDataHeader header(m_settings->GetHeaderSize());
    header.objectClass = objectClass;
    header.sender = m_handle;
    header.seq = m_nextSeq[objectClass]++;
    header.tag = tag;
    header.payload = bytes;
    uint32_t size = GetMessageSize(bytes);
    ++m_sent;
    // One step of the process: the RTI's call, encoding and lowest layer, then per receiver the
    // socket send or the queue copy; the messages leave when the step is done (a process that
    // loops over its receivers sends the first one a little earlier: not modelled).
    Ptr<HostPlatform> platform = m_process->GetPlatform();
    Ptr<HostCpu> cpu = platform->GetCpu();
    double cycles
        = m_settings->CallCycles() + m_settings->EncodeCycles(size) + m_settings->TransportCycles();
    Time cost = cpu->CyclesToTime(Cycles(cycles));
    auto it = m_routes.find(objectClass);
    std::size_t receivers = it == m_routes.end() ? 0 : it->second.size();
    if (m_settings->GetTransport() == RtiSettings::SHARED_MEMORY)
    {
        cost += cpu->CyclesToTime(Cycles(m_settings->ShmEnqueueCycles(size))) * int64_t(receivers);
    }
    else
    {
        cost += platform->GetSendCost(size) * int64_t(receivers);
    }
    m_process->Execute(cost, Callback<void>([this, objectClass, header]() {
                           SendNow(objectClass, header);
                       }));
}

void
RtiLrc::SendNow(uint32_t objectClass, RtiDataHeader header)
{
    auto it = m_routes.find(objectClass);
    if (it == m_routes.end())
    {
        return;
    }
    uint32_t size = GetMessageSize(header.payload);
    for (const Route& route : it->second)
    {
        switch (m_settings->GetTransport())
        {
            case RtiSettings::SHARED_MEMORY:
                route.lrc->ShmDeliver(header, size);
                break;
            case RtiSettings::UDP: {
                Ptr<Packet> p = Create<Packet>(header.payload);
                p->AddHeader(header);
                if (m_udp->SendTo(p,
                                  0,
                                  InetSocketAddress(route.lrc->GetAddress(), route.lrc->GetPort()))
                    < 0)
                {
                    ++m_sendDrops;
                    m_dropTrace(size, "UDP send failed");
                }
                break;
            }
            case RtiSettings::TCP: {
                Ptr<Packet> p = Create<Packet>(header.payload);
                p->AddHeader(header);
                if (route.tcp->Send(p) < 0)
                {
                    // A full send buffer: the RTI's non-blocking write fails and the update is
                    // lost.
                    ++m_sendDrops;
                    m_dropTrace(size, "TCP send buffer full");
                }
                break;
            }
        }
    }
}

void
RtiLrc::ShmDeliver(const RtiDataHeader& header, uint32_t size)
{
    if (m_inbox.size() >= m_settings->GetShmQueueSize())
    {
        ++m_queueDrops;
        m_dropTrace(size, "shared-memory queue full");
        return;
    }
    Arrived(Inbound{header, size});
}

void
RtiLrc::HandleRead(Ptr<Socket> socket)
{
    Ptr<Packet> p;
    Address from;
    uint32_t headerSize = m_settings->GetHeaderSize();
    while ((p = socket->RecvFrom(from)))
    {
        if (m_settings->GetTransport() == RtiSettings::UDP)
        {
            RtiDataHeader h;
            std::string reason;
            if (!h.TryPeek(p, headerSize, reason))
            {
                ++m_malformed;
                m_dropTrace(p->GetSize(), reason);
                continue;
            }
            Arrived(Inbound{h, p->GetSize()});
            continue;
        }
        // TCP: a byte stream; cut it into messages (header, then its payload).
        std::vector<uint8_t>& buf = m_stream[socket];
        std::size_t old = buf.size();
        buf.resize(old + p->GetSize());
        p->CopyData(buf.data() + old, p->GetSize());
        std::size_t pos = 0;
        while (buf.size() - pos >= headerSize)
        {
            Ptr<Packet> head = Create<Packet>(buf.data() + pos, headerSize);
            RtiDataHeader h(headerSize);
            head->PeekHeader(h);
            uint64_t total = uint64_t(headerSize) + h.payload;
            if (buf[pos] != RtiDataHeader::UPDATE || h.payload > (16u << 20))
            {
                ++m_malformed;
                m_dropTrace(buf.size() - pos, "malformed stream: connection closed");
                buf.clear();
                pos = 0;
                socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
                socket->Close();
                break;
            }
            if (buf.size() - pos < total)
            {
                break;
            }
            pos += total;
            Arrived(Inbound{h, static_cast<uint32_t>(total)});
        }
        buf.erase(buf.begin(), buf.begin() + pos);
    }
}

void
RtiLrc::Arrived(Inbound&& msg)
{
    m_inbox.push_back(std::move(msg));
    if (!m_reading)
    {
        m_reading = true;
        m_burst = 0;
        // A blocked reader is woken (semaphore or socket); a running one finds the message when
        // it comes back to read.
        m_process->Wake(Callback<void>([this]() { ReadNext(); }));
    }
}

void
RtiLrc::ReadNext()
{
    if (m_inbox.empty())
    {
        m_reading = false;
        m_maxBurst = std::max(m_maxBurst, m_burst);
        return;
    }
    const Inbound& msg = m_inbox.front();
    double cycles = m_settings->TransportCycles() + m_settings->DecodeCycles(msg.size)
                    + m_settings->CallbackCycles();
    Time cost = m_process->GetPlatform()->GetCpu()->CyclesToTime(Cycles(cycles));
    if (m_settings->GetTransport() != RtiSettings::SHARED_MEMORY)
    {
        cost += m_process->GetPlatform()->GetRecvCost(msg.size);
    }
    m_process->Execute(cost, Callback<void>([this]() { ReadDone(); }));
}

void
RtiLrc::ReadDone()
{
    Inbound msg = std::move(m_inbox.front());
    m_inbox.pop_front();
    ++m_burst;
    const RtiDataHeader& h = msg.header;
    auto [it, fresh] = m_expected.try_emplace(h.sender, 0);
    if (h.seq > it->second)
    {
        m_gaps += h.seq - it->second;
    }
    it->second = std::max(it->second, h.seq + 1);
    ++m_reflected;
    m_reflectTrace(h.sender, h.seq, h.tag);
    if (!m_reflect.IsNull())
    {
        m_reflect(Reflection{h.objectClass, h.sender, h.seq, h.tag, h.payload});
    }
    m_process->ExecuteCycles(Cycles(m_settings->ReflectTailCycles()),
                             Callback<void>([this]() { ReadNext(); }));
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
    return m_malformed;
}

uint64_t
RtiLrc::GetSendDrops() const
{
    return m_sendDrops;
}

uint32_t
RtiLrc::GetMaxBurst() const
{
    return m_maxBurst;
}

} // namespace ns3
