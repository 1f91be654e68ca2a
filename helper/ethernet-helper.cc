/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/names.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/queue.h"
#include "ns3/user-attributes.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetHelper");

EthernetHelper::EthernetHelper()
    : m_cable(10)
{
    m_device.SetTypeId(EthernetNetDevice::GetTypeId());
    m_channel.SetTypeId(EthernetChannel::GetTypeId());
    m_hub.SetTypeId(EthernetHub::GetTypeId());
    m_queue.SetTypeId("ns3::DropTailQueue<Packet>");
}

void
EthernetHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    UserAttributes::SetFixed(m_device, name, value, "through EthernetHelper::SetDeviceAttribute");
}

void
EthernetHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    UserAttributes::SetFixed(m_channel, name, value, "through EthernetHelper::SetChannelAttribute");
    UserAttributes::SetFixed(m_hub, name, value, "through EthernetHelper::SetChannelAttribute");
}

void
EthernetHelper::SetQueue(const std::string& type,
                         const std::string& name1,
                         const AttributeValue& value1)
{
    m_queue.SetTypeId(type);
    if (!name1.empty())
    {
        UserAttributes::SetFixed(m_queue, name1, value1, "through EthernetHelper::SetQueue");
    }
}

void
EthernetHelper::SetCableLength(double metres)
{
    NS_ABORT_MSG_IF(!(metres >= 0 && metres <= 2000),
                    "EthernetHelper: cable length " << metres << " m outside [0, 2000] m");
    m_cable = metres;
}

Ptr<EthernetNetDevice>
EthernetHelper::CreateDevice(Ptr<Node> node) const
{
    Ptr<EthernetNetDevice> d = m_device.Create<EthernetNetDevice>();
    d->SetAddress(Mac48Address::Allocate());
    Ptr<Queue<Packet>> q = m_queue.Create<Queue<Packet>>();
    d->SetQueue(q);
    node->AddDevice(d);
    Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
    ndqi->GetTxQueue(0)->ConnectQueueTraces(q);
    d->AggregateObject(ndqi);
    return d;
}

Ptr<EthernetChannel>
EthernetHelper::Connect(Ptr<EthernetNetDevice> a, Ptr<EthernetNetDevice> b) const
{
    Ptr<EthernetChannel> ch = m_channel.Create<EthernetChannel>();
    a->Attach(ch, m_cable);
    b->Attach(ch, m_cable);
    return ch;
}

NetDeviceContainer
EthernetHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    Ptr<EthernetNetDevice> da = CreateDevice(a);
    Ptr<EthernetNetDevice> db = CreateDevice(b);
    Connect(da, db);
    NetDeviceContainer c;
    c.Add(da);
    c.Add(db);
    return c;
}

NetDeviceContainer
EthernetHelper::InstallHub(const NodeContainer& nodes) const
{
    Ptr<EthernetHub> hub = m_hub.Create<EthernetHub>();
    NetDeviceContainer c;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<EthernetNetDevice> d = CreateDevice(*it);
        d->Attach(hub, m_cable);
        c.Add(d);
    }
    return c;
}

int64_t
EthernetHelper::AssignStreams(const NetDeviceContainer& devices, int64_t stream) const
{
    int64_t used = 0;
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        if (Ptr<EthernetNetDevice> d = DynamicCast<EthernetNetDevice>(*it))
        {
            used += d->AssignStreams(stream + used);
        }
    }
    return used;
}

void
EthernetHelper::EnablePcapInternal(std::string prefix,
                                   Ptr<NetDevice> nd,
                                   bool promiscuous,
                                   bool explicitFilename)
{
    Ptr<EthernetNetDevice> device = DynamicCast<EthernetNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("EthernetHelper::EnablePcapInternal: not an EthernetNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename
        = explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file
        = pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<EthernetNetDevice>(device,
                                                  promiscuous ? "PromiscSniffer" : "Sniffer",
                                                  file);
}

void
EthernetHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                                    std::string prefix,
                                    Ptr<NetDevice> nd,
                                    bool explicitFilename)
{
    Ptr<EthernetNetDevice> device = DynamicCast<EthernetNetDevice>(nd);
    if (!device)
    {
        return;
    }
    AsciiTraceHelper ascii;
    if (!stream)
    {
        std::string filename
            = explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
        stream = ascii.CreateFileStream(filename);
    }
    ascii.HookDefaultEnqueueSinkWithoutContext<Queue<Packet>>(device->GetQueue(),
                                                              "Enqueue",
                                                              stream);
    ascii.HookDefaultDropSinkWithoutContext<Queue<Packet>>(device->GetQueue(), "Drop", stream);
    ascii.HookDefaultDequeueSinkWithoutContext<Queue<Packet>>(device->GetQueue(),
                                                              "Dequeue",
                                                              stream);
    ascii.HookDefaultReceiveSinkWithoutContext<EthernetNetDevice>(device, "MacRx", stream);
}

} // namespace ns3
