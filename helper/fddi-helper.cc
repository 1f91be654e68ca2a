/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fddi-helper.h"

#include "ns3/abort.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/user-attributes.h"

namespace ns3
{

FddiHelper::FddiHelper()
{
    m_device.SetTypeId(FddiNetDevice::GetTypeId());
    m_channel.SetTypeId(FddiChannel::GetTypeId());
    // BSD's interface output queue limit (IFQ_MAXLEN = 50 packets).
    m_queue.SetTypeId("ns3::DropTailQueue<Packet>");
    // (a default: a user's --ns3::DropTailQueue<Packet>::MaxSize= replaces it)
    UserAttributes::SetDefault(m_queue, "MaxSize", QueueSizeValue(QueueSize("50p")));
}

void
FddiHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    UserAttributes::SetFixed(m_device, name, value, "through FddiHelper::SetDeviceAttribute");
}

void
FddiHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    UserAttributes::SetFixed(m_channel, name, value, "through FddiHelper::SetChannelAttribute");
}

void
FddiHelper::SetQueue(const std::string& type,
                     const std::string& name1,
                     const AttributeValue& value1)
{
    m_queue.SetTypeId(type);
    if (!name1.empty())
    {
        UserAttributes::SetFixed(m_queue, name1, value1, "through FddiHelper::SetQueue");
    }
}

NetDeviceContainer
FddiHelper::Install(const NodeContainer& nodes) const
{
    NS_ABORT_MSG_IF(nodes.GetN() < 2, "FddiHelper::Install: a ring needs at least 2 stations");
    Ptr<FddiChannel> ring = m_channel.Create<FddiChannel>();
    NetDeviceContainer devs;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<FddiNetDevice> d = m_device.Create<FddiNetDevice>();
        d->SetAddress(Mac48Address::Allocate());
        d->SetAttribute("AsyncQueue", PointerValue(m_queue.Create<Queue<Packet>>()));
        d->SetAttribute("SyncQueue", PointerValue(m_queue.Create<Queue<Packet>>()));
        nodes.Get(i)->AddDevice(d);
        d->Attach(ring);
        devs.Add(d);
    }
    return devs;
}

} // namespace ns3
