/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-helper.h"

#include "ns3/csma-channel.h"
#include "ns3/csma-net-device.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/node.h"

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
    m_device.Set(name, value);
}

void
SwitchHelper::SetFabricAttribute(const std::string& name, const AttributeValue& value)
{
    m_fabric.Set(name, value);
}

void
SwitchHelper::SetPortQueueSize(QueueSize size)
{
    m_queueSize = size;
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
    Ptr<CsmaChannel> ch = CreateObject<CsmaChannel>();
    ch->SetAttribute("DataRate", DataRateValue(rate));
    ch->SetAttribute("Delay", TimeValue(delay));
    NetDeviceContainer devs;
    for (Ptr<Node> n : {a, b})
    {
        Ptr<CsmaNetDevice> d = CreateObject<CsmaNetDevice>();
        d->SetAddress(Mac48Address::Allocate());
        Ptr<DropTailQueue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
        q->SetMaxSize(m_queueSize);
        d->SetQueue(q);
        n->AddDevice(d);
        d->Attach(ch);
        devs.Add(d);
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
