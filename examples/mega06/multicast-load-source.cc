/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "multicast-load-source.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/send-udp.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MulticastLoadSource");

NS_OBJECT_ENSURE_REGISTERED(MulticastLoadSource);

TypeId
MulticastLoadSource::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MulticastLoadSource")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<MulticastLoadSource>()
              .AddAttribute("Rate",
                            "Frames per second (0 = none).",
                            DoubleValue(0),
                            MakeDoubleAccessor(&MulticastLoadSource::m_rate),
                            MakeDoubleChecker<double>(0, 1e8))
              .AddAttribute("Poisson",
                            "Exponential gaps (superposition of independent senders); false: "
                            "periodic.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MulticastLoadSource::m_poisson),
                            MakeBooleanChecker())
              .AddAttribute("Group",
                            "Destination multicast group.",
                            Ipv4AddressValue("239.1.0.2"),
                            MakeIpv4AddressAccessor(&MulticastLoadSource::m_group),
                            MakeIpv4AddressChecker())
              .AddAttribute("Port",
                            "UDP destination port.",
                            UintegerValue(10000),
                            MakeUintegerAccessor(&MulticastLoadSource::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("PacketSize",
                            "IP packet size (octets).",
                            UintegerValue(100),
                            MakeUintegerAccessor(&MulticastLoadSource::m_packetSize),
                            MakeUintegerChecker<uint32_t>(20 + 8 + SendUdpHeader::SIZE, 1500))
              .AddAttribute("Device",
                            "Index of the node's device the frames leave from.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MulticastLoadSource::m_deviceIndex),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("NodeId",
                            "Virtual-node id written into the payload.",
                            UintegerValue(0xffffffff),
                            MakeUintegerAccessor(&MulticastLoadSource::m_nodeId),
                            MakeUintegerChecker<uint32_t>());
    return tid;
}

MulticastLoadSource::MulticastLoadSource()
    : m_rate(0)
    , m_poisson(true)
    , m_port(10000)
    , m_packetSize(100)
    , m_deviceIndex(0)
    , m_nodeId(0xffffffff)
    , m_sent(0)
{
    m_gap = CreateObject<ExponentialRandomVariable>();
}

MulticastLoadSource::~MulticastLoadSource()
{
}

void
MulticastLoadSource::DoDispose()
{
    m_next.Cancel();
    m_device = nullptr;
    m_template = nullptr;
    m_gap = nullptr;
    Application::DoDispose();
}

int64_t
MulticastLoadSource::AssignStreams(int64_t stream)
{
    m_gap->SetStream(stream);
    return 1;
}

uint64_t
MulticastLoadSource::GetSent() const
{
    return m_sent;
}

void
MulticastLoadSource::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_group.IsMulticast(),
                    "MulticastLoadSource: Group " << m_group << " is not multicast");
    NS_ABORT_MSG_IF(m_deviceIndex >= GetNode()->GetNDevices(),
                    "MulticastLoadSource: Device " << m_deviceIndex << " does not exist");
    m_device = GetNode()->GetDevice(m_deviceIndex);
    SendUdpHeader payload;
    payload.SetNodeId(m_nodeId);
    m_template = Create<Packet>(m_packetSize - 20 - 8 - SendUdpHeader::SIZE);
    m_template->AddHeader(payload);
    m_destination = m_device->GetMulticast(m_group);
    SendUdp::AddIpUdpHeaders(m_template, SendUdp::SourceAddress(m_device), m_group, m_port);
    m_gap->SetAttribute("Mean", DoubleValue(m_rate > 0 ? 1.0 / m_rate : 1.0));
    if (m_rate > 0)
    {
        ScheduleNext();
    }
}

void
MulticastLoadSource::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_next.Cancel();
}

void
MulticastLoadSource::ScheduleNext()
{
    Time gap = m_poisson ? Seconds(m_gap->GetValue()) : Seconds(1.0 / m_rate);
    m_next = Simulator::Schedule(gap, [this]() { SendOne(); });
}

void
MulticastLoadSource::SendOne()
{
    m_device->Send(m_template->Copy(), m_destination, Ipv4L3Protocol::PROT_NUMBER);
    ++m_sent;
    ScheduleNext();
}

} // namespace ns3
