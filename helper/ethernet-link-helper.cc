/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-link-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ethernet-helper.h"
#include "ns3/full-duplex-ethernet-helper.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetLinkHelper");

EthernetLinkHelper::EthernetLinkHelper()
    : m_duplex(FULL_DUPLEX)
    , m_rate(DataRate("100Mbps"))
    , m_cableDelay(NanoSeconds(50))
    , m_nicA(EthernetNetDevice::FORCED_HALF)
    , m_nicB(EthernetNetDevice::FORCED_HALF)
{
}

void
EthernetLinkHelper::SetNicDuplex(EthernetNetDevice::Duplex a, EthernetNetDevice::Duplex b)
{
    m_nicA = a;
    m_nicB = b;
}

void
EthernetLinkHelper::SetDuplex(Duplex duplex)
{
    m_duplex = duplex;
}

EthernetLinkHelper::Duplex
EthernetLinkHelper::GetDuplex() const
{
    return m_duplex;
}

void
EthernetLinkHelper::SetDataRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "EthernetLinkHelper: DataRate must be > 0");
    m_rate = rate;
}

DataRate
EthernetLinkHelper::GetDataRate() const
{
    return m_rate;
}

void
EthernetLinkHelper::SetCableDelay(Time delay)
{
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(),
                    "EthernetLinkHelper: cable delay must be >= 0, got " << delay);
    m_cableDelay = delay;
}

Time
EthernetLinkHelper::GetCableDelay() const
{
    return m_cableDelay;
}

Time
EthernetLinkHelper::GetWireTime(uint32_t ipBytes) const
{
    return m_rate.CalculateBytesTxTime(EthernetFraming::WireOctets(ipBytes));
}

NetDeviceContainer
EthernetLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    NS_LOG_FUNCTION(this << a << b);
    NS_ABORT_MSG_IF(!a || !b, "EthernetLinkHelper::Install: null node");
    if (m_duplex == FULL_DUPLEX)
    {
        // The rate and the cable are the helper's settings (SetDataRate, SetCableDelay): a user
        // value for either would contradict them, so it is refused.
        const std::string by = "by EthernetLinkHelper (SetDataRate, SetCableDelay)";
        FullDuplexEthernetHelper fd;
        fd.SetDeviceAttribute("DataRate", DataRateValue(m_rate), by);
        fd.SetChannelAttribute("Delay", TimeValue(m_cableDelay), by);
        NetDeviceContainer devices = fd.Install(a, b);
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            devices.Get(i)->AggregateObject(CreateObject<NetDeviceQueueInterface>());
        }
        return devices;
    }
    // Two IEEE 802.3 NICs on one cable of the given delay (length = delay x NVP x c).
    EthernetHelper eth;
    eth.SetDeviceAttribute("DataRate", DataRateValue(m_rate));
    DoubleValue nvp;
    CreateObject<EthernetChannel>()->GetAttribute("VelocityFactor", nvp);
    eth.SetCableLength(m_cableDelay.GetSeconds() * nvp.Get() * 299792458.0);
    eth.SetDeviceAttribute("Duplex", EnumValue(m_nicA));
    Ptr<EthernetNetDevice> da = eth.CreateDevice(a);
    eth.SetDeviceAttribute("Duplex", EnumValue(m_nicB));
    Ptr<EthernetNetDevice> db = eth.CreateDevice(b);
    eth.Connect(da, db);
    NetDeviceContainer devices;
    devices.Add(da);
    devices.Add(db);
    return devices;
}

void
EthernetLinkHelper::EnablePcap(const std::string& prefix,
                               const NetDeviceContainer& devices,
                               bool promiscuous) const
{
    NS_LOG_FUNCTION(this << prefix);
    FullDuplexEthernetHelper fd;
    EthernetHelper eth;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<NetDevice> d = devices.Get(i);
        if (DynamicCast<FullDuplexEthernetNetDevice>(d))
        {
            fd.EnablePcap(prefix, d, promiscuous);
        }
        else if (DynamicCast<EthernetNetDevice>(d))
        {
            eth.EnablePcap(prefix, d, promiscuous);
        }
        else
        {
            NS_ABORT_MSG("EthernetLinkHelper::EnablePcap: device " << d->GetInstanceTypeId()
                                                                   << " was not made by "
                                                                      "EthernetLinkHelper");
        }
    }
}

int64_t
EthernetLinkHelper::AssignStreams(const NetDeviceContainer& devices, int64_t stream) const
{
    int64_t current = stream;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        if (auto eth = DynamicCast<EthernetNetDevice>(devices.Get(i)))
        {
            current += eth->AssignStreams(current);
        }
    }
    return current - stream;
}

} // namespace ns3
