/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "full-duplex-ethernet-helper.h"

#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/user-attributes.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FullDuplexEthernetHelper");

FullDuplexEthernetHelper::FullDuplexEthernetHelper()
{
    m_device.SetTypeId(FullDuplexEthernetNetDevice::GetTypeId());
    m_channel.SetTypeId(FullDuplexEthernetChannel::GetTypeId());
}

void
FullDuplexEthernetHelper::SetDeviceAttribute(const std::string& name,
                                             const AttributeValue& value,
                                             const std::string& by)
{
    UserAttributes::SetFixed(m_device, name, value, by);
}

void
FullDuplexEthernetHelper::SetChannelAttribute(const std::string& name,
                                              const AttributeValue& value,
                                              const std::string& by)
{
    UserAttributes::SetFixed(m_channel, name, value, by);
}

NetDeviceContainer
FullDuplexEthernetHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    Ptr<FullDuplexEthernetChannel> ch = m_channel.Create<FullDuplexEthernetChannel>();
    NetDeviceContainer devs;
    for (Ptr<Node> n : {a, b})
    {
        Ptr<FullDuplexEthernetNetDevice> d = m_device.Create<FullDuplexEthernetNetDevice>();
        d->SetAddress(Mac48Address::Allocate());
        n->AddDevice(d);
        devs.Add(d);
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        DynamicCast<FullDuplexEthernetNetDevice>(devs.Get(i))->Attach(ch);
    }
    return devs;
}

void
FullDuplexEthernetHelper::EnablePcapInternal(std::string prefix,
                                             Ptr<NetDevice> nd,
                                             bool promiscuous,
                                             bool explicitFilename)
{
    Ptr<FullDuplexEthernetNetDevice> device = DynamicCast<FullDuplexEthernetNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("FullDuplexEthernetHelper::EnablePcapInternal: not a "
                    "FullDuplexEthernetNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename
        = explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file
        = pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<FullDuplexEthernetNetDevice>(device,
                                                            promiscuous ? "PromiscSniffer"
                                                                        : "Sniffer",
                                                            file);
}

} // namespace ns3
