/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ntt-forwarder.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/seq-ts-header.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/type-id.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NttForwarder");
NS_OBJECT_ENSURE_REGISTERED(NttForwarder);

TypeId
NttForwarder::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NttForwarder")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<NttForwarder>()
              .AddAttribute("ListenPort",
                            "UDP port of the analyser's stream",
                            UintegerValue(5000),
                            MakeUintegerAccessor(&NttForwarder::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("Remote",
                            "The receiving computer (InetSocketAddress)",
                            AddressValue(),
                            MakeAddressAccessor(&NttForwarder::m_remote),
                            MakeAddressChecker())
              .AddAttribute("Tcp",
                            "Carry the stream over TCP (true) or UDP (false)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&NttForwarder::m_tcp),
                            MakeBooleanChecker())
              .AddAttribute("RecordSize",
                            "Bytes of each record (one per stream packet; >= 12 for the header)",
                            UintegerValue(4160),
                            MakeUintegerAccessor(&NttForwarder::m_recordSize),
                            MakeUintegerChecker<uint32_t>(12, 65507))
              .AddAttribute("TcpFactory",
                            "Socket factory of the TCP stream (ns3::BsdTcpSocketFactory: "
                            "4.4BSD's TCP; ns3::TcpSocketFactory: ns-3's)",
                            TypeIdValue(TcpSocketFactory::GetTypeId()),
                            MakeTypeIdAccessor(&NttForwarder::m_tcpFactory),
                            MakeTypeIdChecker());
    return tid;
}

NttForwarder::NttForwarder()
    : m_port(5000)
    , m_tcp(true)
    , m_recordSize(4160)
    , m_tcpFactory(TcpSocketFactory::GetTypeId())
{
    NS_LOG_FUNCTION(this);
    m_nextCb = MakeCallback(&NttForwarder::Next, this);
    m_forwardCb = MakeCallback(&NttForwarder::Forward, this);
    m_writeCb = MakeCallback(&NttForwarder::Write, this);
}

NttForwarder::~NttForwarder()
{
    NS_LOG_FUNCTION(this);
}

void
NttForwarder::DoDispose()
{
    m_process = nullptr;
    m_in = nullptr;
    m_out = nullptr;
    m_nextCb.Nullify();
    m_forwardCb.Nullify();
    m_writeCb.Nullify();
    Application::DoDispose();
}

void
NttForwarder::StartApplication()
{
    NS_LOG_FUNCTION(this);
    Ptr<HostPlatform> host = GetNode()->GetObject<HostPlatform>();
    NS_ABORT_MSG_IF(!host, "NttForwarder: node " << GetNode()->GetId() << " has no HostPlatform");
    NS_ABORT_MSG_IF(!InetSocketAddress::IsMatchingType(m_remote),
                    "NttForwarder: Remote must be an InetSocketAddress");
    m_process = host->CreateProcess();
    m_in = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_in->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_in->SetRecvCallback(MakeCallback(&NttForwarder::OnInput, this));
    // The stream's packets that find the socket's receive buffer full (udp_recvspace) are lost
    // here, before the forwarding process sees them.
    m_in->TraceConnectWithoutContext(
        "Drop",
        Callback<void, Ptr<const Packet>>([this](Ptr<const Packet>) { ++m_bufferDrops; }));
    m_out = Socket::CreateSocket(GetNode(), m_tcp ? m_tcpFactory : UdpSocketFactory::GetTypeId());
    m_out->Bind();
    m_out->Connect(m_remote);
    m_out->SetSendCallback(MakeCallback(&NttForwarder::OnSpace, this));
}

void
NttForwarder::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_in)
    {
        m_in->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_in->Close();
    }
    if (m_out)
    {
        m_out->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        m_out->Close();
    }
}

void
NttForwarder::OnInput(Ptr<Socket>)
{
    if (!m_busy)
    {
        m_busy = true;
        m_process->Wake(m_nextCb);
    }
}

void
NttForwarder::Next()
{
    m_packet = m_in->Recv();
    if (!m_packet)
    {
        m_busy = false; // blocks in recvfrom()
        return;
    }
    ++m_read;
    m_process->Execute(m_process->GetPlatform()->GetRecvCost(m_packet->GetSize()), m_forwardCb);
}

void
NttForwarder::Forward()
{
    SeqTsHeader in;
    if (m_packet->GetSize() < in.GetSerializedSize())
    {
        ++m_malformed;
        Next();
        return;
    }
    m_packet->PeekHeader(in);
    SeqTsHeader out;
    out.SetSeq(in.GetSeq());
    m_record = Create<Packet>(m_recordSize - out.GetSerializedSize());
    m_record->AddHeader(out);
    m_written = 0;
    m_process->Execute(m_process->GetPlatform()->GetSendCost(m_recordSize), m_writeCb);
}

void
NttForwarder::Write()
{
    if (!m_tcp)
    {
        m_out->Send(m_record);
        ++m_forwarded;
        Next();
        return;
    }
    const uint32_t room = m_out->GetTxAvailable();
    const uint32_t n = std::min(room, m_recordSize - m_written);
    if (n > 0 && m_out->Send(m_record->CreateFragment(m_written, n)) > 0)
    {
        m_written += n;
    }
    if (m_written == m_recordSize)
    {
        ++m_forwarded;
        Next();
        return;
    }
    m_blocked = true; // sleeps until the send buffer has room
}

void
NttForwarder::OnSpace(Ptr<Socket>, uint32_t available)
{
    if (m_blocked && available > 0)
    {
        m_blocked = false;
        m_process->Wake(m_writeCb);
    }
}

uint64_t
NttForwarder::GetRead() const
{
    return m_read;
}

uint64_t
NttForwarder::GetForwarded() const
{
    return m_forwarded;
}

uint64_t
NttForwarder::GetMalformed() const
{
    return m_malformed;
}

uint64_t
NttForwarder::GetBufferDrops() const
{
    return m_bufferDrops;
}

Ptr<Socket>
NttForwarder::GetOutputSocket() const
{
    return m_out;
}

} // namespace ns3
