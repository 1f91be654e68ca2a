/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_SWITCH_HELPER_H
#define TESTBED_SWITCH_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/net-device-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/queue-size.h"
#include "ns3/switch-net-device.h"

/**
 * @file
 * @ingroup testbed-switch
 * Helper: Ethernet switches and their links.
 */

namespace ns3
{

/**
 * @ingroup testbed-switch
 * @brief Builds switches (SwitchNetDevice, or a subclass) and their links: one link per port (its
 * own data rate: 1000BASE-T senders, 100BASE-T receivers), per-port output queues of a given
 * size, and 802.1Q trunks between switches. The links are ns-3's CSMA (CsmaChannel and
 * CsmaNetDevice: half duplex, no preamble or interframe gap) unless SetLinkType(FULL_DUPLEX)
 * asks for the lean full-duplex Ethernet links (FullDuplexEthernetNetDevice: one event per
 * frame and hop). A switch with other links (EthernetHelper's) gets them as ports with
 * SwitchNetDevice::AddSwitchPort.
 */
class SwitchHelper
{
  public:
    /// The links the helper builds.
    enum LinkType : uint8_t
    {
        CSMA = 0,        //!< ns-3's CsmaChannel with two CsmaNetDevices
        FULL_DUPLEX = 1, //!< a FullDuplexEthernetChannel with two FullDuplexEthernetNetDevices
    };

    /** Builds ns3::SwitchNetDevice switches. */
    SwitchHelper();
    /**
     * @brief The links of every port created afterwards.
     * @param type CSMA (the default) or FULL_DUPLEX
     */
    void SetLinkType(LinkType type);
    /**
     * @brief Set an attribute of the switch device created by Install().
     * @param name the attribute name
     * @param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * @brief Set an attribute of the SwitchFabric created by Install().
     * @param name the attribute name
     * @param value its value
     */
    void SetFabricAttribute(const std::string& name, const AttributeValue& value);
    /**
     * @brief Output queue size of every port created afterwards (switch and host side).
     * @param size e.g. QueueSize("100p")
     */
    void SetPortQueueSize(QueueSize size);
    /**
     * @brief Put a switch (no ports yet) on a switch node.
     * @param switchNode the node
     * @return the switch
     */
    Ptr<SwitchNetDevice> Install(Ptr<Node> switchNode) const;
    /**
     * @brief Link a host to a new switch port.
     * @param sw the switch
     * @param host the host node
     * @param rate link data rate (port speed)
     * @param delay propagation delay
     * @return {host device, switch port device}
     */
    NetDeviceContainer Connect(Ptr<SwitchNetDevice> sw,
                               Ptr<Node> host,
                               DataRate rate,
                               Time delay = Seconds(0)) const;
    /**
     * @brief Link two switches with an 802.1Q tagged trunk.
     * @param a one switch
     * @param b the other
     * @param rate link data rate
     * @param vlan the VLAN id
     * @param delay propagation delay
     * @return {port of a, port of b}
     */
    NetDeviceContainer ConnectTrunk(Ptr<SwitchNetDevice> a,
                                    Ptr<SwitchNetDevice> b,
                                    DataRate rate,
                                    uint16_t vlan = 1,
                                    Time delay = Seconds(0)) const;

  protected:
    /**
     * @brief Builds switches of another device type.
     * @param deviceType a SwitchNetDevice subclass
     */
    explicit SwitchHelper(TypeId deviceType);

  private:
    /**
     * @brief A link between two nodes (CSMA or full duplex, SetLinkType), one new device on
     * each.
     * @param a one node
     * @param b the other
     * @param rate link data rate
     * @param delay propagation delay
     * @return {device on a, device on b}
     */
    NetDeviceContainer Link(Ptr<Node> a, Ptr<Node> b, DataRate rate, Time delay) const;
    ObjectFactory m_device;       //!< switch device factory
    ObjectFactory m_fabric;       //!< fabric factory
    QueueSize m_queueSize;        //!< port queue size
    bool m_queueSizeFixed{false}; //!< m_queueSize set by SetPortQueueSize (else a default)
    LinkType m_linkType{CSMA};    //!< the links built
};

} // namespace ns3

#endif /* TESTBED_SWITCH_HELPER_H */
