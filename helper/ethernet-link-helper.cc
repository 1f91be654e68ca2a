/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-link-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ethernet-helper.h"
#include "ns3/log.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/user-attributes.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetLinkHelper");

namespace
{
/// PPP header bytes that ns-3's PointToPointNetDevice puts on the wire.
constexpr uint32_t PPP_HEADER = 2;
} // namespace

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
    return m_rate.CalculateBytesTxTime(ipBytes + WIRE_OVERHEAD_BYTES);
}

NetDeviceContainer
EthernetLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    NS_LOG_FUNCTION(this << a << b);
    NS_ABORT_MSG_IF(!a || !b, "EthernetLinkHelper::Install: null node");
    if (m_duplex == FULL_DUPLEX)
    {
        // Occupancy: (IP + 2) byte-times of transmission + 36 byte-times of gap = IP + 38.
        // Arrival of the last bit: (IP + 2) + 24 byte-times = IP + preamble + header + FCS.
        // The line rate, the gap and the delay that make a point-to-point link an Ethernet
        // link follow from the helper's settings: a user value for one of them would break
        // the timing (doc/link.rst), so it is refused.
        const std::string by = "to model a full-duplex Ethernet link (EthernetLinkHelper)";
        UserAttributes::RequireNotGiven(PointToPointNetDevice::GetTypeId(), "DataRate", by);
        UserAttributes::RequireNotGiven(PointToPointNetDevice::GetTypeId(), "InterframeGap", by);
        UserAttributes::RequireNotGiven(PointToPointChannel::GetTypeId(), "Delay", by);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(m_rate));
        p2p.SetDeviceAttribute(
            "InterframeGap",
            TimeValue(m_rate.CalculateBytesTxTime(WIRE_OVERHEAD_BYTES - PPP_HEADER)));
        p2p.SetChannelAttribute("Delay",
                                TimeValue(m_cableDelay
                                          + m_rate.CalculateBytesTxTime(
                                              EthernetFraming::PREAMBLE + EthernetFraming::HEADER
                                              + EthernetFraming::FCS - PPP_HEADER)));
        return p2p.Install(a, b);
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
    PointToPointHelper p2p;
    EthernetHelper eth;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<NetDevice> d = devices.Get(i);
        if (DynamicCast<PointToPointNetDevice>(d))
        {
            p2p.EnablePcap(prefix, d, false);
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
