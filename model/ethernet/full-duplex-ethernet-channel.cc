/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "full-duplex-ethernet-channel.h"

#include "full-duplex-ethernet-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FullDuplexEthernetChannel");

NS_OBJECT_ENSURE_REGISTERED(FullDuplexEthernetChannel);

TypeId
FullDuplexEthernetChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FullDuplexEthernetChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Testbed")
                            .AddConstructor<FullDuplexEthernetChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the cable (each direction).",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&FullDuplexEthernetChannel::m_delay),
                                          MakeTimeChecker(Seconds(0), Seconds(1)));
    return tid;
}

FullDuplexEthernetChannel::FullDuplexEthernetChannel()
{
    NS_LOG_FUNCTION(this);
}

FullDuplexEthernetChannel::~FullDuplexEthernetChannel()
{
}

void
FullDuplexEthernetChannel::DoDispose()
{
    m_devices = {};
    m_nDevices = 0;
    Channel::DoDispose();
}

void
FullDuplexEthernetChannel::Attach(Ptr<FullDuplexEthernetNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!device, "FullDuplexEthernetChannel::Attach: null device");
    NS_ABORT_MSG_IF(m_nDevices >= 2, "FullDuplexEthernetChannel: a link has two ends");
    m_devices[m_nDevices++] = device;
    if (m_nDevices == 2)
    {
        m_devices[0]->LinkUp(m_devices[1]);
        m_devices[1]->LinkUp(m_devices[0]);
    }
}

Ptr<FullDuplexEthernetNetDevice>
FullDuplexEthernetChannel::GetPeer(Ptr<const FullDuplexEthernetNetDevice> device) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return m_devices[0] == device ? m_devices[1] : m_devices[0];
}

Time
FullDuplexEthernetChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
FullDuplexEthernetChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
FullDuplexEthernetChannel::GetDevice(std::size_t i) const
{
    NS_ABORT_MSG_IF(i >= m_nDevices, "FullDuplexEthernetChannel: no device " << i);
    return m_devices[i];
}

} // namespace ns3
