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
 * size, and 802.1Q trunks between switches. The links are the lean full-duplex Ethernet links
 * (FullDuplexEthernetNetDevice on a FullDuplexEthernetChannel: one event per frame and hop,
 * EthernetFraming's timing). A port on another link (a half-duplex one of EthernetHelper, as
 * examples/tno03 builds) is attached with SwitchNetDevice::AddSwitchPort.
 */
class SwitchHelper
{
  public:
    /** Builds ns3::SwitchNetDevice switches. */
    SwitchHelper();
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
     * @brief Output queue size of every port created afterwards (switch and host side): the
     * devices' MaxQueueFrames.
     * @param size in frames, e.g. QueueSize("100p")
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
     * @brief A full-duplex link between two nodes, one new device on each.
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
};

} // namespace ns3

#endif /* TESTBED_SWITCH_HELPER_H */
