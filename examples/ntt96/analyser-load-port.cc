/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "analyser-load-port.h"

#include "ns3/double.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyserLoadPort");
NS_OBJECT_ENSURE_REGISTERED(AnalyserLoadPort);

TypeId
AnalyserLoadPort::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::AnalyserLoadPort")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<AnalyserLoadPort>()
              .AddAttribute("Rate",
                            "Datagrams per second",
                            DoubleValue(1000),
                            MakeDoubleAccessor(&AnalyserLoadPort::m_rate),
                            MakeDoubleChecker<double>(1e-3, 1e7))
              .AddAttribute("PacketSize",
                            "UDP payload bytes of each datagram",
                            UintegerValue(1472),
                            MakeUintegerAccessor(&AnalyserLoadPort::m_size),
                            MakeUintegerChecker<uint32_t>(0, 65507))
              .AddAttribute("SourcePort",
                            "The datagrams' UDP source port",
                            UintegerValue(49153),
                            MakeUintegerAccessor(&AnalyserLoadPort::m_sourcePort),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("DestinationPort",
                            "The datagrams' UDP destination port",
                            UintegerValue(9),
                            MakeUintegerAccessor(&AnalyserLoadPort::m_destinationPort),
                            MakeUintegerChecker<uint16_t>(1))
              .AddTraceSource("Tx",
                              "A frame the adapter accepted (the IPv4 datagram)",
                              MakeTraceSourceAccessor(&AnalyserLoadPort::m_txTrace),
                              "ns3::Packet::TracedCallback");
    return tid;
}

AnalyserLoadPort::AnalyserLoadPort()
    : m_rate(1000)
    , m_size(1472)
    , m_sourcePort(49153)
    , m_destinationPort(9)
{
    NS_LOG_FUNCTION(this);
}

AnalyserLoadPort::~AnalyserLoadPort()
{
    NS_LOG_FUNCTION(this);
}

void
AnalyserLoadPort::SetTarget(Ptr<NetDevice> device,
                            const Address& nextHop,
                            Ipv4Address source,
                            Ipv4Address destination)
{
    NS_LOG_FUNCTION(this << device << nextHop << source << destination);
    m_device = device;
    m_nextHop = nextHop;
    m_source = source;
    m_destination = destination;
}

void
AnalyserLoadPort::DoDispose()
{
    m_event.Cancel();
    m_device = nullptr;
    m_datagram = nullptr;
    Application::DoDispose();
}

void
AnalyserLoadPort::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_device, "AnalyserLoadPort: no adapter (SetTarget)");
    NS_ABORT_MSG_IF(m_device->GetNode() != GetNode(),
                    "AnalyserLoadPort: the adapter is not on the application's node");
    // The datagram, as UdpL4Protocol::Send builds it
    m_datagram = Create<Packet>(m_size);
    UdpHeader udp;
    if (Node::ChecksumEnabled())
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(m_source, m_destination, UdpL4Protocol::PROT_NUMBER);
    }
    udp.SetSourcePort(m_sourcePort);
    udp.SetDestinationPort(m_destinationPort);
    m_datagram->AddHeader(udp);
    m_event = Simulator::Schedule(Seconds(0), &AnalyserLoadPort::Send, this);
}

void
AnalyserLoadPort::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
}

void
AnalyserLoadPort::Send()
{
    // The IPv4 header as Ipv4L3Protocol::BuildHeader writes it for a datagram of a socket
    Ipv4Header ip;
    ip.SetSource(m_source);
    ip.SetDestination(m_destination);
    ip.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    ip.SetPayloadSize(m_datagram->GetSize());
    ip.SetTtl(64);
    ip.SetMayFragment();
    ip.SetIdentification(m_identification++);
    if (Node::ChecksumEnabled())
    {
        ip.EnableChecksum();
    }
    Ptr<Packet> p = m_datagram->Copy();
    p->AddHeader(ip);
    if (m_device->Send(p, m_nextHop, Ipv4L3Protocol::PROT_NUMBER))
    {
        ++m_sent;
        m_txTrace(p);
    }
    m_event = Simulator::Schedule(Seconds(1.0 / m_rate), &AnalyserLoadPort::Send, this);
}

uint64_t
AnalyserLoadPort::GetSent() const
{
    return m_sent;
}

} // namespace ns3
