/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FULL_DUPLEX_ETHERNET_HELPER_H
#define TESTBED_FULL_DUPLEX_ETHERNET_HELPER_H

#include "ns3/full-duplex-ethernet-channel.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

/**
 * @file
 * @ingroup testbed-ethernet
 * Builds lean full-duplex Ethernet links (FullDuplexEthernetNetDevice) and their pcap traces.
 */

namespace ns3
{

/**
 * @ingroup testbed-ethernet
 * @brief Builds full-duplex Ethernet links: a FullDuplexEthernetNetDevice on each of two nodes
 * (new MAC addresses) and the cable between them; pcap through ns-3's PcapHelperForDevice
 * (EnablePcap, DLT_EN10MB: the frames with header and FCS).
 *
 *     FullDuplexEthernetHelper eth;
 *     eth.SetDeviceAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
 *     NetDeviceContainer d = eth.Install(a, b);
 *     eth.EnablePcap("link", d.Get(0), true);
 */
class FullDuplexEthernetHelper : public PcapHelperForDevice
{
  public:
    FullDuplexEthernetHelper();

    /**
     * @brief Set an attribute of the devices to create (a user value for it is refused,
     * UserAttributes::SetFixed).
     * @param name a FullDuplexEthernetNetDevice attribute
     * @param value its value
     * @param by what sets it (the refusal's message names it)
     */
    void SetDeviceAttribute(const std::string& name,
                            const AttributeValue& value,
                            const std::string& by = "through "
                                                    "FullDuplexEthernetHelper::SetDeviceAttribute");

    /**
     * @brief Set an attribute of the cables to create (a user value for it is refused,
     * UserAttributes::SetFixed).
     * @param name a FullDuplexEthernetChannel attribute
     * @param value its value
     * @param by what sets it (the refusal's message names it)
     */
    void SetChannelAttribute(const std::string& name,
                             const AttributeValue& value,
                             const std::string& by = "through "
                                                     "FullDuplexEthernetHelper::"
                                                     "SetChannelAttribute");

    /**
     * @brief A link between two nodes.
     * @param a one node
     * @param b the other
     * @return the two devices (a's, then b's)
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_device;  //!< device factory
    ObjectFactory m_channel; //!< cable factory
};

} // namespace ns3

#endif /* TESTBED_FULL_DUPLEX_ETHERNET_HELPER_H */
