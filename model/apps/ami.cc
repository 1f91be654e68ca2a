/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ami.h"

#include "ns3/double.h"
#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/igmp-l4-protocol.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Ami");

NS_OBJECT_ENSURE_REGISTERED(Ami);

TypeId
Ami::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::Ami")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<Ami>()
              .AddAttribute("Group",
                            "The multicast group to join.",
                            Ipv4AddressValue("239.1.0.1"),
                            MakeIpv4AddressAccessor(&Ami::m_group),
                            MakeIpv4AddressChecker())
              .AddAttribute("Interface",
                            "IPv4 interface index to join on (-1: the first up, "
                            "multicast-capable, non-loopback interface).",
                            IntegerValue(-1),
                            MakeIntegerAccessor(&Ami::m_interface),
                            MakeIntegerChecker<int32_t>(-1))
              .AddAttribute("JoinCost",
                            "CPU cycles of the ami process before the join takes effect "
                            "(socket(), setsockopt(IP_ADD_MEMBERSHIP)).",
                            DoubleValue(20000),
                            MakeDoubleAccessor(&Ami::m_joinCycles),
                            MakeDoubleChecker<double>(0, 1e9));
    return tid;
}

Ami::Ami()
    : m_interface(-1)
    , m_joinCycles(20000)
    , m_joined(false)
    , m_running(false)
{
}

Ami::~Ami()
{
}

void
Ami::DoDispose()
{
    m_socket = nullptr;
    m_process = nullptr;
    Application::DoDispose();
}

bool
Ami::IsJoined() const
{
    return m_joined;
}

void
Ami::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_group.IsMulticast(), "Ami: Group " << m_group << " is not multicast");
    NS_ABORT_MSG_IF(!GetNode()->GetObject<IgmpL4Protocol>(),
                    "Ami: node " << GetNode()->GetId()
                                 << " has no IgmpL4Protocol (IgmpHelper::Install)");
    m_running = true;
    Ptr<HostPlatform> host = GetNode()->GetObject<HostPlatform>();
    if (host)
    {
        m_process = host->CreateProcess();
        m_process->ExecuteCycles(m_joinCycles, MakeCallback(&Ami::Join, this));
    }
    else
    {
        Join();
    }
}

void
Ami::Join()
{
    if (!m_running)
    {
        return;
    }
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    IgmpL4Protocol::JoinGroup(m_socket, m_group, m_interface);
    m_joined = true;
    NS_LOG_INFO("node " << GetNode()->GetId() << " joined " << m_group);
}

void
Ami::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    if (m_joined)
    {
        IgmpL4Protocol::LeaveGroup(m_socket, m_group, m_interface);
        m_socket->Close();
        m_joined = false;
    }
}

} // namespace ns3
