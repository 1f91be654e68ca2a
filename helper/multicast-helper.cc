/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "multicast-helper.h"

#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/user-attributes.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MulticastHelper");

IgmpHelper::IgmpHelper()
{
    m_factory.SetTypeId(IgmpL4Protocol::GetTypeId());
}

void
IgmpHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    UserAttributes::SetFixed(m_factory, name, value, "through IgmpHelper::SetAttribute");
}

void
IgmpHelper::SetTimers(const IgmpTimers& timers)
{
    m_timers = timers;
}

void
IgmpHelper::Install(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

Ptr<IgmpL4Protocol>
IgmpHelper::Install(Ptr<Node> node) const
{
    NS_ABORT_MSG_IF(!node->GetObject<Ipv4L3Protocol>(),
                    "IgmpHelper::Install: node "
                        << node->GetId() << " has no IPv4 stack (InternetStackHelper first)");
    NS_ABORT_MSG_IF(node->GetObject<IgmpL4Protocol>(),
                    "IgmpHelper::Install: node " << node->GetId() << " already has IGMP");
    Ptr<IgmpL4Protocol> igmp = m_factory.Create<IgmpL4Protocol>();
    if (m_timers)
    {
        // The timers are one set (RFC 3376 section 8): a user value for one of them would be
        // overwritten here.
        for (const char* name : {"Robustness",
                                 "QueryInterval",
                                 "QueryResponseInterval",
                                 "StartupQueryInterval",
                                 "StartupQueryCount",
                                 "LastMemberQueryInterval",
                                 "LastMemberQueryCount",
                                 "UnsolicitedReportIntervalV2",
                                 "UnsolicitedReportIntervalV3"})
        {
            UserAttributes::RequireNotGiven(IgmpL4Protocol::GetTypeId(),
                                            name,
                                            "as one of the IGMP timers it sets together "
                                            "(IgmpHelper::SetTimers)");
        }
        igmp->SetTimers(*m_timers);
    }
    node->AggregateObject(igmp);
    return igmp;
}

void
IgmpHelper::EnableQuerier(Ptr<Node> node, uint32_t ifIndex, Time start)
{
    Ptr<IgmpL4Protocol> igmp = node->GetObject<IgmpL4Protocol>();
    NS_ABORT_MSG_IF(!igmp, "IgmpHelper::EnableQuerier: node " << node->GetId() << " has no IGMP");
    igmp->EnableRouter(ifIndex, start);
}

void
IgmpHelper::ScheduleJoin(Time at, Ptr<Socket> socket, Ipv4Address group, int32_t ifIndex)
{
    Simulator::Schedule(at - Simulator::Now(), [socket, group, ifIndex]() {
        IgmpL4Protocol::JoinGroup(socket, group, ifIndex);
    });
}

void
IgmpHelper::ScheduleLeave(Time at, Ptr<Socket> socket, Ipv4Address group, int32_t ifIndex)
{
    Simulator::Schedule(at - Simulator::Now(), [socket, group, ifIndex]() {
        IgmpL4Protocol::LeaveGroup(socket, group, ifIndex);
    });
}

int64_t
IgmpHelper::AssignStreams(NodeContainer nodes, int64_t stream)
{
    int64_t n = 0;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        if (Ptr<IgmpL4Protocol> igmp = (*it)->GetObject<IgmpL4Protocol>())
        {
            n += igmp->AssignStreams(stream + n);
        }
        for (uint32_t d = 0; d < (*it)->GetNDevices(); ++d)
        {
            if (auto br = DynamicCast<SnoopingBridgeNetDevice>((*it)->GetDevice(d)))
            {
                n += br->GetFabric()->AssignStreams(stream + n);
            }
        }
    }
    return n;
}

SnoopingSwitchHelper::SnoopingSwitchHelper()
    : SwitchHelper(SnoopingBridgeNetDevice::GetTypeId())
{
}

Ptr<SnoopingBridgeNetDevice>
SnoopingSwitchHelper::Install(Ptr<Node> switchNode) const
{
    return DynamicCast<SnoopingBridgeNetDevice>(SwitchHelper::Install(switchNode));
}

} // namespace ns3
