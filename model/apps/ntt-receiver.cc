/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ntt-receiver.h"

#include "ns3/boolean.h"
#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/seq-ts-header.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/type-id.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NttReceiver");
NS_OBJECT_ENSURE_REGISTERED(NttReceiver);

TypeId
NttReceiver::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NttReceiver")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<NttReceiver>()
              .AddAttribute("Port",
                            "Port of the stream",
                            UintegerValue(5001),
                            MakeUintegerAccessor(&NttReceiver::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("Tcp",
                            "The stream comes over TCP (true) or UDP (false)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&NttReceiver::m_tcp),
                            MakeBooleanChecker())
              .AddAttribute("RecordSize",
                            "Bytes of each TCP stream record (>= 12 for the header)",
                            UintegerValue(4160),
                            MakeUintegerAccessor(&NttReceiver::m_recordSize),
                            MakeUintegerChecker<uint32_t>(12, 65507))
              .AddAttribute("TimestampHz",
                            "Ticks per second of the clock the application reads its arrival "
                            "times from (1000000: microseconds; 1024; 100: the clock "
                            "interrupt's tick alone)",
                            UintegerValue(1000000),
                            MakeUintegerAccessor(&NttReceiver::m_clockHz),
                            MakeUintegerChecker<uint32_t>(1, 1000000000))
              .AddAttribute("LogWriteEvery",
                            "Logged packets between two writes of the log to its file (0: the "
                            "log is kept in memory)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&NttReceiver::m_logWriteEvery),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("LogWriteCost",
                            "CPU time of one write of the log (a system call that the process "
                            "makes before its next read)",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&NttReceiver::m_logWriteCost),
                            MakeTimeChecker(Seconds(0), Seconds(1)))
              .AddAttribute("TcpFactory",
                            "Socket factory of the TCP stream (ns3::BsdTcpSocketFactory: "
                            "4.4BSD's TCP; ns3::TcpSocketFactory: ns-3's)",
                            TypeIdValue(TcpSocketFactory::GetTypeId()),
                            MakeTypeIdAccessor(&NttReceiver::m_tcpFactory),
                            MakeTypeIdChecker())
              .AddTraceSource("Arrival",
                              "A stream packet arrived at the application",
                              MakeTraceSourceAccessor(&NttReceiver::m_arrivalTrace),
                              "ns3::NttReceiver::ArrivalTracedCallback");
    return tid;
}

NttReceiver::NttReceiver()
    : m_port(5001)
    , m_tcp(true)
    , m_recordSize(4160)
    , m_clockHz(1000000)
    , m_logWriteEvery(0)
    , m_tcpFactory(TcpSocketFactory::GetTypeId())
{
    NS_LOG_FUNCTION(this);
    m_nextCb = MakeCallback(&NttReceiver::Next, this);
    m_doneCb = MakeCallback(&NttReceiver::Done, this);
}

NttReceiver::~NttReceiver()
{
    NS_LOG_FUNCTION(this);
}

void
NttReceiver::DoDispose()
{
    m_process = nullptr;
    m_listen = nullptr;
    m_data = nullptr;
    m_nextCb.Nullify();
    m_doneCb.Nullify();
    Application::DoDispose();
}

void
NttReceiver::StartApplication()
{
    NS_LOG_FUNCTION(this);
    Ptr<HostPlatform> host = GetNode()->GetObject<HostPlatform>();
    NS_ABORT_MSG_IF(!host, "NttReceiver: node " << GetNode()->GetId() << " has no HostPlatform");
    m_process = host->CreateProcess();
    m_listen
        = Socket::CreateSocket(GetNode(), m_tcp ? m_tcpFactory : UdpSocketFactory::GetTypeId());
    m_listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    if (m_tcp)
    {
        m_listen->Listen();
        m_listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&NttReceiver::OnAccept, this));
    }
    else
    {
        m_data = m_listen;
        m_data->SetRecvCallback(MakeCallback(&NttReceiver::OnData, this));
    }
}

void
NttReceiver::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& s : {m_data, m_listen})
    {
        if (s)
        {
            s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            s->Close();
        }
    }
}

void
NttReceiver::OnAccept(Ptr<Socket> socket, const Address&)
{
    NS_ABORT_MSG_IF(m_data, "NttReceiver: a second connection");
    m_data = socket;
    m_data->SetRecvCallback(MakeCallback(&NttReceiver::OnData, this));
}

void
NttReceiver::OnData(Ptr<Socket>)
{
    if (!m_busy)
    {
        m_busy = true;
        m_process->Wake(m_nextCb);
    }
}

void
NttReceiver::Next()
{
    m_chunk = m_tcp ? m_data->Recv(m_recordSize - m_inRecord, 0) : m_data->Recv();
    if (!m_chunk || m_chunk->GetSize() == 0)
    {
        m_busy = false; // blocks in read()
        return;
    }
    ++m_reads;
    m_process->Execute(m_process->GetPlatform()->GetRecvCost(m_chunk->GetSize()), m_doneCb);
}

void
NttReceiver::Done()
{
    const Time now = Simulator::Now();
    if (m_tcp)
    {
        ConsumeStream(m_chunk, now);
    }
    else
    {
        SeqTsHeader h;
        if (m_chunk->GetSize() >= h.GetSerializedSize())
        {
            m_chunk->PeekHeader(h);
            Log(h.GetSeq(), now);
        }
    }
    if (m_logWriteEvery > 0 && !m_arrivals.empty() && m_arrivals.size() % m_logWriteEvery == 0
        && m_arrivals.size() != m_logWritten)
    {
        // write(2) of the buffered log, then the next read.
        m_logWritten = m_arrivals.size();
        m_process->Execute(m_logWriteCost, m_nextCb);
        return;
    }
    Next();
}

void
NttReceiver::ConsumeStream(Ptr<const Packet> chunk, Time now)
{
    uint32_t offset = 0;
    const uint32_t size = chunk->GetSize();
    while (offset < size)
    {
        const uint32_t n = std::min(size - offset, m_recordSize - m_inRecord);
        if (m_inRecord < m_head.size())
        {
            const uint32_t h = std::min<uint32_t>(n, m_head.size() - m_inRecord);
            chunk->CreateFragment(offset, h)->CopyData(m_head.data() + m_inRecord, h);
        }
        m_inRecord += n;
        offset += n;
        if (m_inRecord == m_recordSize)
        {
            // SeqTsHeader: the sequence number first, in network byte order.
            uint32_t seq = (uint32_t(m_head[0]) << 24) | (uint32_t(m_head[1]) << 16)
                           | (uint32_t(m_head[2]) << 8) | uint32_t(m_head[3]);
            Log(seq, now);
            m_inRecord = 0;
        }
    }
}

Time
NttReceiver::ReadClock(Time t) const
{
    // floor(t x Hz) ticks, shown in nanoseconds rounded down (a tick of 1/1024 s is 976 562.5 ns).
    const __int128 ns = t.GetNanoSeconds();
    const __int128 ticks = ns * m_clockHz / 1000000000;
    return NanoSeconds(static_cast<int64_t>(ticks * 1000000000 / m_clockHz));
}

void
NttReceiver::Log(uint32_t seq, Time now)
{
    const Time shown = ReadClock(now);
    m_arrivals.emplace_back(seq, shown);
    m_arrivalTrace(seq, shown);
}

const std::vector<std::pair<uint32_t, Time>>&
NttReceiver::GetArrivals() const
{
    return m_arrivals;
}

uint64_t
NttReceiver::GetReads() const
{
    return m_reads;
}

} // namespace ns3
