/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-ping.h"

#include "ns3/host-platform.h"
#include "ns3/icmpv4.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-raw-socket-factory.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostPing");

NS_OBJECT_ENSURE_REGISTERED(HostPing);

TypeId
HostPing::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::HostPing")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<HostPing>()
              .AddAttribute("Remote",
                            "Address to ping.",
                            Ipv4AddressValue(),
                            MakeIpv4AddressAccessor(&HostPing::m_remote),
                            MakeIpv4AddressChecker())
              .AddAttribute("Size",
                            "ICMP data bytes (ping -s; 56 gives 84-byte IP packets).",
                            UintegerValue(56),
                            MakeUintegerAccessor(&HostPing::m_size),
                            MakeUintegerChecker<uint32_t>(8, 65507))
              .AddAttribute("Count",
                            "Requests to send (ping -c; 0 = until the application stops).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostPing::m_count),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Interval",
                            "Time between requests (ping -i).",
                            TimeValue(Seconds(1)),
                            MakeTimeAccessor(&HostPing::m_interval),
                            MakeTimeChecker(MicroSeconds(1)))
              .AddAttribute("Preload",
                            "Requests sent back to back at the start (ping -l).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostPing::m_preload),
                            MakeUintegerChecker<uint32_t>(0, 65535))
              .AddAttribute("Identifier",
                            "ICMP echo identifier.",
                            UintegerValue(0x4242),
                            MakeUintegerAccessor(&HostPing::m_id),
                            MakeUintegerChecker<uint16_t>())
              .AddTraceSource("Rtt",
                              "An echo reply arrived: its round-trip time.",
                              MakeTraceSourceAccessor(&HostPing::m_rttTrace),
                              "ns3::HostPing::RttTracedCallback")
              .AddTraceSource("Tx",
                              "An echo request was sent (user-space send time).",
                              MakeTraceSourceAccessor(&HostPing::m_txTrace),
                              "ns3::HostPing::SeqTimeTracedCallback")
              .AddTraceSource("Rx",
                              "An echo reply arrived (kernel receive time).",
                              MakeTraceSourceAccessor(&HostPing::m_rxTrace),
                              "ns3::HostPing::SeqTimeTracedCallback");
    return tid;
}

HostPing::HostPing()
    : m_size(56)
    , m_count(0)
    , m_preload(0)
    , m_id(0x4242)
    , m_seq(0)
    , m_received(0)
    , m_running(false)
{
}

HostPing::~HostPing()
{
}

void
HostPing::DoDispose()
{
    m_socket = nullptr;
    m_process = nullptr;
    Application::DoDispose();
}

uint32_t
HostPing::GetReceived() const
{
    return m_received;
}

uint32_t
HostPing::GetSent() const
{
    return m_seq;
}

void
HostPing::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_remote == Ipv4Address(), "HostPing: Remote address not set");
    m_socket = Socket::CreateSocket(GetNode(), Ipv4RawSocketFactory::GetTypeId());
    m_socket->SetAttribute("Protocol", UintegerValue(1)); // ICMP
    m_socket->SetRecvCallback(MakeCallback(&HostPing::Receive, this));
    Ptr<HostPlatform> host = GetNode()->GetObject<HostPlatform>();
    if (host)
    {
        m_process = host->CreateProcess();
    }
    m_running = true;
    if (m_process)
    {
        m_process->Execute(Seconds(0), MakeCallback(&HostPing::SendOne, this));
    }
    else
    {
        SendOne();
    }
}

void
HostPing::StopApplication()
{
    m_running = false;
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
HostPing::SendOne()
{
    if (!m_running || (m_count > 0 && m_seq >= m_count))
    {
        return;
    }
    uint16_t seq = m_seq++;
    // The user-space send timestamp, then the send path of the process.
    m_sendTime[seq] = Simulator::Now();
    m_txTrace(seq, Simulator::Now());
    Icmpv4Echo echo;
    echo.SetIdentifier(m_id);
    echo.SetSequenceNumber(seq);
    echo.SetData(Create<Packet>(m_size));
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(echo);
    Icmpv4Header icmp;
    icmp.SetType(Icmpv4Header::ICMPV4_ECHO);
    icmp.SetCode(0);
    if (Node::ChecksumEnabled())
    {
        icmp.EnableChecksum();
    }
    p->AddHeader(icmp);
    auto send = [this, p]() {
        if (m_running)
        {
            m_socket->SendTo(p, 0, InetSocketAddress(m_remote, 0));
        }
        Next();
    };
    if (m_process)
    {
        Ptr<HostPlatform> host = GetNode()->GetObject<HostPlatform>();
        m_process->Execute(host->GetSendCost(p->GetSize() + 20), Callback<void>(send));
    }
    else
    {
        send();
    }
}

void
HostPing::Next()
{
    if (!m_running || (m_count > 0 && m_seq >= m_count))
    {
        return;
    }
    if (m_seq < m_preload)
    {
        if (m_process)
        {
            m_process->Execute(Seconds(0), MakeCallback(&HostPing::SendOne, this));
        }
        else
        {
            SendOne();
        }
        return;
    }
    if (m_process)
    {
        m_process->Sleep(m_interval, MakeCallback(&HostPing::SendOne, this));
    }
    else
    {
        Simulator::Schedule(m_interval, &HostPing::SendOne, this);
    }
}

void
HostPing::Receive(Ptr<Socket> socket)
{
    Ptr<Packet> p;
    while ((p = socket->Recv()))
    {
        Ipv4Header ip;
        p->RemoveHeader(ip);
        if (ip.GetSource() != m_remote)
        {
            continue;
        }
        Icmpv4Header icmp;
        p->RemoveHeader(icmp);
        if (icmp.GetType() != Icmpv4Header::ICMPV4_ECHO_REPLY)
        {
            continue;
        }
        Icmpv4Echo echo;
        p->RemoveHeader(echo);
        if (echo.GetIdentifier() != m_id)
        {
            continue;
        }
        auto it = m_sendTime.find(echo.GetSequenceNumber());
        if (it == m_sendTime.end())
        {
            continue; // duplicate or unknown
        }
        Time rtt = Simulator::Now() - it->second;
        m_sendTime.erase(it);
        ++m_received;
        m_rxTrace(echo.GetSequenceNumber(), Simulator::Now());
        m_rttTrace(echo.GetSequenceNumber(), rtt);
        NS_LOG_INFO("seq " << echo.GetSequenceNumber() << " rtt " << rtt.As(Time::US));
    }
}

} // namespace ns3
