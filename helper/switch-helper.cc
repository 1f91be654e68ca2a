/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-helper.h"

#include "full-duplex-ethernet-helper.h"

#include "ns3/node.h"
#include "ns3/uinteger.h"
#include "ns3/user-attributes.h"

namespace ns3
{

SwitchHelper::SwitchHelper()
    : SwitchHelper(SwitchNetDevice::GetTypeId())
{
}

SwitchHelper::SwitchHelper(TypeId deviceType)
    : m_queueSize("100p")
{
    m_device.SetTypeId(deviceType);
    m_fabric.SetTypeId(SwitchFabric::GetTypeId());
}

void
SwitchHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    UserAttributes::SetFixed(m_device, name, value, "through SwitchHelper::SetDeviceAttribute");
}

void
SwitchHelper::SetFabricAttribute(const std::string& name, const AttributeValue& value)
{
    UserAttributes::SetFixed(m_fabric, name, value, "through SwitchHelper::SetFabricAttribute");
}

void
SwitchHelper::SetPortQueueSize(QueueSize size)
{
    m_queueSize = size;
    m_queueSizeFixed = true;
}

Ptr<SwitchNetDevice>
SwitchHelper::Install(Ptr<Node> switchNode) const
{
    Ptr<SwitchNetDevice> sw = m_device.Create<SwitchNetDevice>();
    Ptr<SwitchFabric> fabric = m_fabric.Create<SwitchFabric>();
    sw->SetFabric(fabric);
    switchNode->AddDevice(sw);
    return sw;
}

NetDeviceContainer
SwitchHelper::Link(Ptr<Node> a, Ptr<Node> b, DataRate rate, Time delay) const
{
    NS_ABORT_MSG_IF(m_queueSize.GetUnit() != QueueSizeUnit::PACKETS,
                    "SwitchHelper: full-duplex links count their queues in frames, not "
                        << m_queueSize);
    FullDuplexEthernetHelper eth;
    eth.SetDeviceAttribute("DataRate", DataRateValue(rate), "per link, for its topology");
    eth.SetChannelAttribute("Delay", TimeValue(delay), "per link, for its topology");
    NetDeviceContainer devs = eth.Install(a, b);
    for (uint32_t i = 0; i < devs.GetN(); ++i)
    {
        // The port queue: the helper's default (a user's
        // --ns3::FullDuplexEthernetNetDevice::MaxQueueFrames= replaces it), unless the program
        // set it (SetPortQueueSize).
        const UintegerValue frames(m_queueSize.GetValue());
        if (m_queueSizeFixed)
        {
            UserAttributes::SetFixed(devs.Get(i),
                                     "MaxQueueFrames",
                                     frames,
                                     "through SwitchHelper::SetPortQueueSize");
        }
        else
        {
            UserAttributes::SetDefault(devs.Get(i), "MaxQueueFrames", frames);
        }
    }
    return devs;
}

NetDeviceContainer
SwitchHelper::Connect(Ptr<SwitchNetDevice> sw, Ptr<Node> host, DataRate rate, Time delay) const
{
    NetDeviceContainer d = Link(host, sw->GetNode(), rate, delay);
    sw->AddSwitchPort(d.Get(1));
    return d;
}

NetDeviceContainer
SwitchHelper::ConnectTrunk(Ptr<SwitchNetDevice> a,
                           Ptr<SwitchNetDevice> b,
                           DataRate rate,
                           uint16_t vlan,
                           Time delay) const
{
    NetDeviceContainer d = Link(a->GetNode(), b->GetNode(), rate, delay);
    a->SetTrunk(a->AddSwitchPort(d.Get(0)), vlan);
    b->SetTrunk(b->AddSwitchPort(d.Get(1)), vlan);
    return d;
}

} // namespace ns3
