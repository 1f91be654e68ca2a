/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-connection.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiConnection");

NS_OBJECT_ENSURE_REGISTERED(RtiConnection);
NS_OBJECT_ENSURE_REGISTERED(RtiTcpConnection);
NS_OBJECT_ENSURE_REGISTERED(RtiLocalConnection);
NS_OBJECT_ENSURE_REGISTERED(RtiUdpConnection);

// ---------------------------------------------------------------------------------------------
// RtiConnection

TypeId
RtiConnection::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RtiConnection")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddTraceSource("Tx",
                              "A message was handed to the transport.",
                              MakeTraceSourceAccessor(&RtiConnection::m_txTrace),
                              "ns3::RtiConnection::MessageTracedCallback")
              .AddTraceSource("Rx",
                              "A complete message was read.",
                              MakeTraceSourceAccessor(&RtiConnection::m_rxTrace),
                              "ns3::RtiConnection::MessageTracedCallback")
              .AddTraceSource("Malformed",
                              "Malformed input was dropped (a datagram that is not one "
                              "well-formed message; on TCP the frame that closed the "
                              "connection), with the reason.",
                              MakeTraceSourceAccessor(&RtiConnection::m_malformedTrace),
                              "ns3::RtiConnection::MalformedTracedCallback")
              .AddTraceSource("Lost",
                              "The transport ended the connection with an error (TCP gave up "
                              "after its retransmission limit, or a reset came), with the reason.",
                              MakeTraceSourceAccessor(&RtiConnection::m_lostTrace),
                              "ns3::RtiConnection::LostTracedCallback");
    return tid;
}

RtiConnection::RtiConnection()
    : m_peer(0)
    , m_txMessages(0)
    , m_txBytes(0)
    , m_rxMessages(0)
    , m_malformed(0)
    , m_lost(false)
{
}

RtiConnection::~RtiConnection()
{
}

void
RtiConnection::DoDispose()
{
    m_data = DataCallback();
    Object::DoDispose();
}

void
RtiConnection::SetDataCallback(DataCallback cb)
{
    m_data = cb;
}

uint32_t
RtiConnection::GetPeer() const
{
    return m_peer;
}

void
RtiConnection::SetPeer(uint32_t peer)
{
    m_peer = peer;
}

uint64_t
RtiConnection::GetTxMessages() const
{
    return m_txMessages;
}

uint64_t
RtiConnection::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
RtiConnection::GetRxMessages() const
{
    return m_rxMessages;
}

bool
RtiConnection::IsDatagram() const
{
    return false;
}

void
RtiConnection::SendBatch(const std::vector<RtiMessage>& msgs)
{
    for (const auto& m : msgs)
    {
        Send(m);
    }
}

void
RtiConnection::NotifyData()
{
    if (!m_data.IsNull())
    {
        m_data(this);
    }
}

void
RtiConnection::Encode(const RtiMessage& msg, RtiBytes& out)
{
    uint32_t size = msg.GetSerializedSize();
    std::size_t at = out.size();
    out.resize(at + size);
    msg.SerializeTo(out.data() + at, size);
    ++m_txMessages;
    m_txBytes += size;
    m_txTrace(msg);
    NS_LOG_LOGIC(this << " tx " << msg);
}

Ptr<Packet>
RtiConnection::Encode(const RtiMessage& msg)
{
    m_encoded.clear();
    Encode(msg, m_encoded);
    return Create<Packet>(m_encoded.data(), m_encoded.size());
}

Ptr<Packet>
RtiConnection::Encode(const std::vector<RtiMessage>& msgs)
{
    NS_ASSERT(!msgs.empty());
    m_encoded.clear();
    for (const auto& m : msgs)
    {
        Encode(m, m_encoded);
    }
    return Create<Packet>(m_encoded.data(), m_encoded.size());
}

void
RtiConnection::CountRx(const RtiMessage& msg)
{
    ++m_rxMessages;
    m_rxTrace(msg);
    NS_LOG_LOGIC(this << " rx " << msg);
}

void
RtiConnection::CountMalformed(uint32_t bytes, const std::string& reason)
{
    ++m_malformed;
    NS_LOG_WARN("RtiConnection to " << m_peer << ": dropped " << bytes
                                    << " bytes of malformed input: " << reason);
    m_malformedTrace(bytes, reason);
}

uint64_t
RtiConnection::GetNMalformed() const
{
    return m_malformed;
}

bool
RtiConnection::IsLost() const
{
    return m_lost;
}

void
RtiConnection::NotifyLost(const std::string& reason)
{
    if (m_lost)
    {
        return;
    }
    m_lost = true;
    NS_LOG_WARN("RtiConnection to " << m_peer << " lost: " << reason);
    m_lostTrace(reason);
}

// ---------------------------------------------------------------------------------------------
// RtiTcpConnection

TypeId
RtiTcpConnection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiTcpConnection")
                            .SetParent<RtiConnection>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiTcpConnection>();
    return tid;
}

RtiTcpConnection::RtiTcpConnection()
    : m_notified(false)
    , m_broken(false)
{
}

RtiTcpConnection::~RtiTcpConnection()
{
}

void
RtiTcpConnection::DoDispose()
{
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        m_socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                    MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                     MakeNullCallback<void, Ptr<Socket>>());
    }
    m_socket = nullptr;
    m_txQueue.clear();
    m_rxBytes.clear();
    RtiConnection::DoDispose();
}

void
RtiTcpConnection::SetSocket(Ptr<Socket> socket)
{
    m_socket = socket;
    m_socket->SetRecvCallback(MakeCallback(&RtiTcpConnection::HandleRead, this));
    m_socket->SetSendCallback(MakeCallback(&RtiTcpConnection::HandleSend, this));
    m_socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                MakeCallback(&RtiTcpConnection::HandleErrorClose, this));
    m_socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                 MakeCallback(&RtiTcpConnection::HandleConnectFailed, this));
}

Ptr<Socket>
RtiTcpConnection::GetSocket() const
{
    return m_socket;
}

void
RtiTcpConnection::SetLocal(bool local)
{
    m_local = local;
}

bool
RtiTcpConnection::IsLocal() const
{
    return m_local;
}

void
RtiTcpConnection::Send(const RtiMessage& msg)
{
    NS_ABORT_MSG_IF(!m_socket, "RtiTcpConnection: no socket");
    m_txQueue.push_back(Encode(msg));
    Flush();
}

void
RtiTcpConnection::SendBatch(const std::vector<RtiMessage>& msgs)
{
    NS_ABORT_MSG_IF(!m_socket, "RtiTcpConnection: no socket");
    // The messages are serialized once, one after the other, into the bytes of one write.
    m_txQueue.push_back(Encode(msgs));
    Flush();
}

void
RtiTcpConnection::Flush()
{
    if (IsLost())
    {
        m_txQueue.clear(); // nothing reaches a lost connection
        return;
    }
    // One write per message, as an RTI writes each message with its own send() call; a message
    // that does not fit in the send buffer is written in parts as room appears.
    while (!m_txQueue.empty())
    {
        uint32_t room = m_socket->GetTxAvailable();
        if (room == 0)
        {
            return;
        }
        Ptr<Packet> p = m_txQueue.front();
        if (p->GetSize() <= room)
        {
            int sent = m_socket->Send(p);
            NS_ABORT_MSG_IF(sent < 0,
                            "RtiTcpConnection: send failed, errno " << m_socket->GetErrno());
            m_txQueue.pop_front();
        }
        else
        {
            Ptr<Packet> part = p->CreateFragment(0, room);
            int sent = m_socket->Send(part);
            NS_ABORT_MSG_IF(sent < 0,
                            "RtiTcpConnection: send failed, errno " << m_socket->GetErrno());
            p->RemoveAtStart(room);
        }
    }
}

void
RtiTcpConnection::HandleSend(Ptr<Socket> socket, uint32_t available)
{
    Flush();
}

void
RtiTcpConnection::HandleErrorClose(Ptr<Socket> socket)
{
    // What is still queued can never be written: a real RTI's send() would fail from now on.
    m_txQueue.clear();
    NotifyLost("TCP closed the connection with an error (its retransmission limit, or a reset)");
}

void
RtiTcpConnection::HandleConnectFailed(Ptr<Socket> socket)
{
    m_txQueue.clear();
    NotifyLost("TCP could not connect (its SYN retransmission limit, or a reset)");
}

void
RtiTcpConnection::HandleRead(Ptr<Socket> socket)
{
    if (!m_notified)
    {
        m_notified = true;
        NotifyData();
    }
}

bool
RtiTcpConnection::HasData() const
{
    return m_socket && m_socket->GetRxAvailable() > 0;
}

RtiConnection::Chunk
RtiTcpConnection::Receive()
{
    Chunk chunk;
    m_notified = false;
    Ptr<Packet> p;
    while ((p = m_socket->Recv()))
    {
        uint32_t n = p->GetSize();
        if (n == 0)
        {
            break;
        }
        chunk.bytes += n;
        std::size_t at = m_rxBytes.size();
        m_rxBytes.resize(at + n);
        p->CopyData(m_rxBytes.data() + at, n);
    }
    if (m_broken)
    {
        m_rxBytes.clear();
        return chunk;
    }
    // Frame the stream by the messages' length fields; a partial message stays for later. A
    // malformed frame ends the connection (a byte stream cannot be resynchronised): it is
    // counted and traced with its reason, the socket is closed and later bytes are dropped.
    std::string reason;
    std::size_t framed = Frame(m_rxBytes.data(), m_rxBytes.size(), chunk.messages, reason);
    for (const auto& msg : chunk.messages)
    {
        CountRx(msg);
    }
    if (!reason.empty())
    {
        CountMalformed(static_cast<uint32_t>(m_rxBytes.size() - framed), reason);
        m_broken = true;
        m_socket->Close();
        m_rxBytes.clear();
        return chunk;
    }
    m_rxBytes.erase(m_rxBytes.begin(), m_rxBytes.begin() + framed);
    return chunk;
}

std::size_t
RtiTcpConnection::Frame(const uint8_t* data,
                        std::size_t size,
                        std::vector<RtiMessage>& messages,
                        std::string& reason)
{
    std::size_t framed = 0;
    while (size - framed >= 4)
    {
        const uint8_t* head = data + framed;
        uint32_t n = RtiMessage::PeekLength(head);
        if (n < RtiMessage::CORE_HEADER_SIZE || n > MAX_FRAME)
        {
            reason = "frame length " + std::to_string(n) + " outside [16, "
                     + std::to_string(MAX_FRAME) + "]";
            return framed;
        }
        if (size - framed < n)
        {
            break;
        }
        uint32_t read = 0;
        RtiMessage& msg = messages.emplace_back();
        if (!msg.TryDeserializeFrom(head, n, read, reason))
        {
            messages.pop_back();
            return framed;
        }
        framed += n;
    }
    return framed;
}

// ---------------------------------------------------------------------------------------------
// RtiLocalConnection

TypeId
RtiLocalConnection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiLocalConnection")
                            .SetParent<RtiConnection>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiLocalConnection>();
    return tid;
}

RtiLocalConnection::RtiLocalConnection()
    : m_peer(nullptr)
    , m_notified(false)
{
}

RtiLocalConnection::~RtiLocalConnection()
{
}

void
RtiLocalConnection::DoDispose()
{
    if (m_peer)
    {
        m_peer->m_peer = nullptr;
    }
    m_peer = nullptr;
    m_inbox.clear();
    RtiConnection::DoDispose();
}

void
RtiLocalConnection::Connect(Ptr<RtiLocalConnection> a, Ptr<RtiLocalConnection> b)
{
    a->m_peer = PeekPointer(b);
    b->m_peer = PeekPointer(a);
}

bool
RtiLocalConnection::IsLocal() const
{
    return true;
}

void
RtiLocalConnection::Send(const RtiMessage& msg)
{
    NS_ABORT_MSG_IF(!m_peer, "RtiLocalConnection: not connected");
    RtiBytes bytes;
    Encode(msg, bytes);
    m_peer->Deliver(std::move(bytes));
}

void
RtiLocalConnection::Deliver(RtiBytes&& bytes)
{
    m_inbox.push_back(std::move(bytes));
    if (!m_notified)
    {
        m_notified = true;
        NotifyData();
    }
}

bool
RtiLocalConnection::HasData() const
{
    return !m_inbox.empty();
}

RtiConnection::Chunk
RtiLocalConnection::Receive()
{
    Chunk chunk;
    m_notified = false;
    while (!m_inbox.empty())
    {
        const RtiBytes& bytes = m_inbox.front();
        chunk.bytes += bytes.size();
        RtiMessage& msg = chunk.messages.emplace_back();
        uint32_t read = msg.DeserializeFrom(bytes.data(), bytes.size());
        NS_ABORT_MSG_IF(read != bytes.size(),
                        "RtiLocalConnection: " << bytes.size() << " bytes sent, " << read
                                               << " decoded");
        m_inbox.pop_front();
        CountRx(msg);
    }
    return chunk;
}

// ---------------------------------------------------------------------------------------------
// RtiUdpConnection

TypeId
RtiUdpConnection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiUdpConnection")
                            .SetParent<RtiConnection>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiUdpConnection>();
    return tid;
}

RtiUdpConnection::RtiUdpConnection()
    : m_notified(false)
{
}

RtiUdpConnection::~RtiUdpConnection()
{
}

void
RtiUdpConnection::DoDispose()
{
    m_socket = nullptr;
    RtiConnection::DoDispose();
}

void
RtiUdpConnection::SetSocket(Ptr<Socket> socket, const Address& peer, bool receive)
{
    m_socket = socket;
    m_peerAddress = peer;
    if (receive)
    {
        m_socket->SetRecvCallback(MakeCallback(&RtiUdpConnection::HandleRead, this));
    }
}

uint16_t
RtiUdpConnection::GetLocalPort() const
{
    Address a;
    m_socket->GetSockName(a);
    return InetSocketAddress::ConvertFrom(a).GetPort();
}

bool
RtiUdpConnection::IsLocal() const
{
    return false;
}

bool
RtiUdpConnection::IsDatagram() const
{
    return true;
}

void
RtiUdpConnection::Send(const RtiMessage& msg)
{
    NS_ABORT_MSG_IF(m_peerAddress.IsInvalid(), "RtiUdpConnection: receive-only endpoint");
    m_socket->SendTo(Encode(msg), 0, m_peerAddress);
}

void
RtiUdpConnection::HandleRead(Ptr<Socket> socket)
{
    if (!m_notified)
    {
        m_notified = true;
        NotifyData();
    }
}

bool
RtiUdpConnection::HasData() const
{
    return m_socket && m_socket->GetRxAvailable() > 0;
}

RtiConnection::Chunk
RtiUdpConnection::Receive()
{
    Chunk chunk;
    m_notified = false;
    Ptr<Packet> p;
    while ((p = m_socket->Recv()))
    {
        uint32_t size = p->GetSize();
        chunk.bytes += size;
        m_datagram.resize(size);
        if (size > 0)
        {
            p->CopyData(m_datagram.data(), size);
        }
        // A datagram from the network is input: one that is not one well-formed message is
        // counted, traced with its reason and dropped; the others go on.
        RtiMessage& msg = chunk.messages.emplace_back();
        uint32_t read = 0;
        std::string reason;
        if (!msg.TryDeserializeFrom(m_datagram.data(), size, read, reason))
        {
            chunk.messages.pop_back();
            CountMalformed(size, reason);
            continue;
        }
        CountRx(msg);
    }
    return chunk;
}

} // namespace ns3
