/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "udp-frame-source.h"

#include "ns3/boolean.h"
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

NS_LOG_COMPONENT_DEFINE("UdpFrameSource");
NS_OBJECT_ENSURE_REGISTERED(UdpFrameSource);

TypeId
UdpFrameSource::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::UdpFrameSource")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<UdpFrameSource>()
              .AddAttribute("Rate",
                            "Datagrams per second (0: none)",
                            DoubleValue(0),
                            MakeDoubleAccessor(&UdpFrameSource::m_rate),
                            MakeDoubleChecker<double>(0, 1e8))
              .AddAttribute("Poisson",
                            "Exponential gaps of mean 1/Rate (a superposition of independent "
                            "senders); false: periodic, every 1/Rate",
                            BooleanValue(false),
                            MakeBooleanAccessor(&UdpFrameSource::m_poisson),
                            MakeBooleanChecker())
              .AddAttribute("PacketSize",
                            "UDP payload octets of each datagram",
                            UintegerValue(1472),
                            MakeUintegerAccessor(&UdpFrameSource::m_size),
                            MakeUintegerChecker<uint32_t>(0, 65507))
              .AddAttribute("SourcePort",
                            "The datagrams' UDP source port",
                            UintegerValue(49153),
                            MakeUintegerAccessor(&UdpFrameSource::m_sourcePort),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("DestinationPort",
                            "The datagrams' UDP destination port",
                            UintegerValue(9),
                            MakeUintegerAccessor(&UdpFrameSource::m_destinationPort),
                            MakeUintegerChecker<uint16_t>(1))
              .AddTraceSource("Tx",
                              "A datagram the adapter accepted (with its IPv4 header)",
                              MakeTraceSourceAccessor(&UdpFrameSource::m_txTrace),
                              "ns3::Packet::TracedCallback");
    return tid;
}

UdpFrameSource::UdpFrameSource()
    : m_rate(0)
    , m_poisson(false)
    , m_size(1472)
    , m_sourcePort(49153)
    , m_destinationPort(9)
{
    NS_LOG_FUNCTION(this);
}

UdpFrameSource::~UdpFrameSource()
{
    NS_LOG_FUNCTION(this);
}

void
UdpFrameSource::SetTarget(Ptr<NetDevice> device,
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
UdpFrameSource::SetPayload(Ptr<const Packet> head)
{
    NS_LOG_FUNCTION(this << head);
    m_head = head;
}

uint64_t
UdpFrameSource::GetSent() const
{
    return m_sent;
}

Ptr<ExponentialRandomVariable>
UdpFrameSource::Gaps()
{
    // Made on first use: a periodic source draws nothing and takes no stream.
    if (!m_gap)
    {
        m_gap = CreateObject<ExponentialRandomVariable>();
    }
    return m_gap;
}

int64_t
UdpFrameSource::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    Gaps()->SetStream(stream);
    return 1;
}

void
UdpFrameSource::DoDispose()
{
    m_event.Cancel();
    m_device = nullptr;
    m_head = nullptr;
    m_datagram = nullptr;
    m_gap = nullptr;
    Application::DoDispose();
}

void
UdpFrameSource::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_device, "UdpFrameSource: no adapter (SetTarget)");
    NS_ABORT_MSG_IF(m_device->GetNode() != GetNode(),
                    "UdpFrameSource: the adapter is not on the application's node");
    const uint32_t head = m_head ? m_head->GetSize() : 0;
    NS_ABORT_MSG_IF(head > m_size,
                    "UdpFrameSource: the payload's " << head << " octets exceed PacketSize "
                                                     << m_size);
    // The datagram, as UdpL4Protocol::Send builds it
    if (m_head)
    {
        // the head, then zeros (a packet's zero area: Packet::AddPaddingAtEnd's octets are
        // not initialised)
        m_datagram = m_head->Copy();
        m_datagram->AddAtEnd(Create<Packet>(m_size - head));
    }
    else
    {
        m_datagram = Create<Packet>(m_size);
    }
    UdpHeader udp;
    if (Node::ChecksumEnabled())
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(m_source, m_destination, UdpL4Protocol::PROT_NUMBER);
    }
    udp.SetSourcePort(m_sourcePort);
    udp.SetDestinationPort(m_destinationPort);
    m_datagram->AddHeader(udp);
    if (m_rate <= 0)
    {
        return;
    }
    if (m_poisson)
    {
        ScheduleNext();
    }
    else
    {
        m_event = Simulator::Schedule(Seconds(0), &UdpFrameSource::Send, this);
    }
}

void
UdpFrameSource::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
}

void
UdpFrameSource::ScheduleNext()
{
    const Time gap = m_poisson ? Seconds(Gaps()->GetValue(1.0 / m_rate, 0)) : Seconds(1.0 / m_rate);
    m_event = Simulator::Schedule(gap, &UdpFrameSource::Send, this);
}

void
UdpFrameSource::Send()
{
    // The IPv4 header as Ipv4L3Protocol::BuildHeader writes it for a datagram of a socket
    Ipv4Header ip;
    ip.SetSource(m_source);
    ip.SetDestination(m_destination);
    ip.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    ip.SetPayloadSize(m_datagram->GetSize());
    ip.SetTtl(m_destination.IsMulticast() ? 1 : 64);
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
    ScheduleNext();
}

} // namespace ns3
