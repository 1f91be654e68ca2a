/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "random-destination-source.h"

#include "ns3/double.h"
#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RandomDestinationSource");
NS_OBJECT_ENSURE_REGISTERED(RandomDestinationSource);

TypeId
RandomDestinationSource::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RandomDestinationSource")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<RandomDestinationSource>()
              .AddAttribute("Rate",
                            "Datagrams per second",
                            DoubleValue(1000),
                            MakeDoubleAccessor(&RandomDestinationSource::m_rate),
                            MakeDoubleChecker<double>(1e-3, 1e7))
              .AddAttribute("PacketSize",
                            "UDP payload bytes",
                            UintegerValue(64),
                            MakeUintegerAccessor(&RandomDestinationSource::m_size),
                            MakeUintegerChecker<uint32_t>(0, 65507))
              .AddAttribute("Prefix",
                            "The block the destinations are drawn from",
                            Ipv4AddressValue("10.128.0.0"),
                            MakeIpv4AddressAccessor(&RandomDestinationSource::m_prefix),
                            MakeIpv4AddressChecker())
              .AddAttribute("PrefixLength",
                            "Its prefix length (the host part is drawn)",
                            UintegerValue(9),
                            MakeUintegerAccessor(&RandomDestinationSource::m_prefixLength),
                            MakeUintegerChecker<uint32_t>(1, 30))
              .AddAttribute("Port",
                            "Destination UDP port",
                            UintegerValue(9),
                            MakeUintegerAccessor(&RandomDestinationSource::m_port),
                            MakeUintegerChecker<uint16_t>(1));
    return tid;
}

RandomDestinationSource::RandomDestinationSource()
    : m_rate(1000)
    , m_size(64)
    , m_prefix("10.128.0.0")
    , m_prefixLength(9)
    , m_port(9)
{
    NS_LOG_FUNCTION(this);
    m_host = CreateObject<UniformRandomVariable>();
}

RandomDestinationSource::~RandomDestinationSource()
{
    NS_LOG_FUNCTION(this);
}

void
RandomDestinationSource::DoDispose()
{
    m_event.Cancel();
    m_socket = nullptr;
    m_host = nullptr;
    m_process = nullptr;
    Application::DoDispose();
}

int64_t
RandomDestinationSource::AssignStreams(int64_t stream)
{
    m_host->SetStream(stream);
    return 1;
}

void
RandomDestinationSource::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->Bind();
    if (m_process)
    {
        m_running = true;
        Loop();
        return;
    }
    Send();
}

void
RandomDestinationSource::SetProcess(Ptr<HostProcess> process)
{
    m_process = process;
}

void
RandomDestinationSource::Loop()
{
    m_process->Execute(m_process->GetPlatform()->GetSendCost(m_size),
                       MakeCallback(&RandomDestinationSource::SendOne, this));
}

void
RandomDestinationSource::SendOne()
{
    if (!m_running)
    {
        return;
    }
    Emit();
    Loop();
}

void
RandomDestinationSource::Halt()
{
    NS_LOG_FUNCTION(this);
    StopApplication();
}

void
RandomDestinationSource::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_running = false;
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
RandomDestinationSource::Send()
{
    Emit();
    m_event = Simulator::Schedule(Seconds(1.0 / m_rate), &RandomDestinationSource::Send, this);
}

void
RandomDestinationSource::Emit()
{
    // Host part in [1, 2^(32-len) - 2]: not the block's network or broadcast address.
    const uint32_t hosts = (1u << (32 - m_prefixLength)) - 2;
    const uint32_t host = 1 + m_host->GetInteger(0, hosts - 1);
    Ipv4Address dst((m_prefix.Get() & ~((1u << (32 - m_prefixLength)) - 1)) | host);
    m_socket->SendTo(Create<Packet>(m_size), 0, InetSocketAddress(dst, m_port));
    m_last = Simulator::Now();
    if (m_sent++ == 0)
    {
        m_first = m_last;
    }
}

double
RandomDestinationSource::GetSendRate() const
{
    return m_sent < 2 ? 0.0 : (m_sent - 1) / (m_last - m_first).GetSeconds();
}

uint64_t
RandomDestinationSource::GetSent() const
{
    return m_sent;
}

} // namespace ns3
