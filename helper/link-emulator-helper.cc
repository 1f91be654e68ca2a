/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-emulator-helper.h"

#include "user-attributes.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkEmulatorHelper");

LinkEmulatorHelper::LinkEmulatorHelper()
{
}

void
LinkEmulatorHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    SetAttribute(A_TO_B, name, value);
    SetAttribute(B_TO_A, name, value);
}

void
LinkEmulatorHelper::SetAttribute(Direction direction,
                                 const std::string& name,
                                 const AttributeValue& value)
{
    Store(direction, name, value, true);
}

void
LinkEmulatorHelper::SetDefaultAttribute(const std::string& name, const AttributeValue& value)
{
    Store(A_TO_B, name, value, false);
    Store(B_TO_A, name, value, false);
}

void
LinkEmulatorHelper::Store(Direction direction,
                          const std::string& name,
                          const AttributeValue& value,
                          bool fixed)
{
    NS_LOG_FUNCTION(this << direction << name << fixed);
    NS_ABORT_MSG_IF(direction != A_TO_B && direction != B_TO_A,
                    "LinkEmulatorHelper: unknown direction " << direction);
    TypeId tid = LinkEmulatorQueueDisc::GetTypeId();
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_IF(!tid.LookupAttributeByName(name, &info),
                    "LinkEmulatorHelper: LinkEmulatorQueueDisc has no attribute \"" << name
                                                                                    << "\"");
    Ptr<AttributeValue> valid = info.checker->CreateValidValue(value);
    NS_ABORT_MSG_IF(!valid,
                    "LinkEmulatorHelper: invalid value \"" << value.SerializeToString(info.checker)
                                                           << "\" for attribute " << name);
    m_settings[direction].push_back({name, valid, fixed});
}

Ptr<LinkEmulatorQueueDisc>
LinkEmulatorHelper::Install(Ptr<NetDevice> device, Direction direction) const
{
    NS_LOG_FUNCTION(this << device << direction);
    NS_ABORT_MSG_IF(!device, "LinkEmulatorHelper::Install: null device");
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_IF(!tc,
                    "LinkEmulatorHelper::Install: node " << device->GetNode()->GetId()
                                                         << " has no TrafficControlLayer "
                                                            "(install the Internet stack first)");
    if (tc->GetRootQueueDiscOnDevice(device))
    {
        tc->DeleteRootQueueDiscOnDevice(device);
    }
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::LinkEmulatorQueueDisc");
    QueueDiscContainer c = tch.Install(device);
    Ptr<LinkEmulatorQueueDisc> qd = DynamicCast<LinkEmulatorQueueDisc>(c.Get(0));
    NS_ASSERT(qd);
    for (const auto& s : m_settings[direction])
    {
        if (s.fixed)
        {
            UserAttributes::SetFixed(qd,
                                     s.name,
                                     *s.value,
                                     "from its options, through LinkEmulatorHelper::SetAttribute");
        }
        else
        {
            UserAttributes::SetDefault(qd, s.name, *s.value);
        }
    }
    return qd;
}

QueueDiscContainer
LinkEmulatorHelper::Install(const NetDeviceContainer& devices, Direction direction) const
{
    QueueDiscContainer c;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        c.Add(Install(devices.Get(i), direction));
    }
    return c;
}

QueueDiscContainer
LinkEmulatorHelper::InstallPair(Ptr<NetDevice> towardB, Ptr<NetDevice> towardA) const
{
    QueueDiscContainer c;
    c.Add(Install(towardB, A_TO_B));
    c.Add(Install(towardA, B_TO_A));
    return c;
}

int64_t
LinkEmulatorHelper::AssignStreams(const QueueDiscContainer& queueDiscs, int64_t stream)
{
    int64_t current = stream;
    for (auto it = queueDiscs.Begin(); it != queueDiscs.End(); ++it)
    {
        if (auto qd = DynamicCast<LinkEmulatorQueueDisc>(*it))
        {
            current += qd->AssignStreams(current);
        }
    }
    return current - stream;
}

} // namespace ns3
