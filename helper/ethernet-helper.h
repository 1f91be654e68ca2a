/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_ETHERNET_HELPER_H
#define TESTBED_ETHERNET_HELPER_H

#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

/**
 * @file
 * @ingroup testbed-ethernet
 * Building IEEE 802.3 links and hubs.
 */

namespace ns3
{

/**
 * @ingroup testbed-ethernet
 * @brief Builds Ethernet segments of EthernetNetDevices: a cable between two nodes, or a repeater
 * hub with a cable to each node; pcap (DLT_EN10MB) and ascii traces as ns-3's helpers do.
 *
 * @code
 * EthernetHelper eth;
 * eth.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
 * eth.SetDeviceAttribute("Duplex", StringValue("ForcedHalf"));
 * NetDeviceContainer link = eth.Install(a, b);            // one cable, 10 m
 * NetDeviceContainer lan = eth.InstallHub(stations);      // a hub, a cable to each station
 * eth.AssignStreams(lan, 100);
 * eth.EnablePcapAll("hub");
 * @endcode
 */
class EthernetHelper
    : public PcapHelperForDevice
    , public AsciiTraceHelperForDevice
{
  public:
    /// A helper for 100 Mbit/s autonegotiating NICs, 10 m cables, 100-packet queues.
    EthernetHelper();

    /**
     * @brief Set an attribute of the devices to create.
     * @param name an EthernetNetDevice attribute
     * @param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * @brief Set an attribute of the cables and hubs to create.
     * @param name an EthernetChannel (EthernetHub) attribute
     * @param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /**
     * @brief Set the transmit queue type of the devices to create.
     * @param type a Queue<Packet> type name
     * @param name1 an attribute name (optional)
     * @param value1 its value
     */
    void SetQueue(const std::string& type,
                  const std::string& name1 = "",
                  const AttributeValue& value1 = EmptyAttributeValue());
    /**
     * @brief The cable length of the devices to create (metres).
     * @param metres the length (a point-to-point cable; or each station's cable to a hub)
     */
    void SetCableLength(double metres);

    /**
     * @brief A new device on a node, not yet attached.
     * @param node the node
     * @return the device
     */
    Ptr<EthernetNetDevice> CreateDevice(Ptr<Node> node) const;

    /**
     * @brief A cable between two nodes (the devices' Duplex attributes are negotiated).
     * @param a one node
     * @param b the other
     * @return the two devices (a's, then b's)
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

    /**
     * @brief A cable between two given devices (each with its own configuration).
     * @param a one device
     * @param b the other
     * @return the channel
     */
    Ptr<EthernetChannel> Connect(Ptr<EthernetNetDevice> a, Ptr<EthernetNetDevice> b) const;

    /**
     * @brief A repeater hub and a cable to each node (channel attributes apply to the hub).
     * @param nodes the stations
     * @return their devices
     */
    NetDeviceContainer InstallHub(const NodeContainer& nodes) const;

    /**
     * @brief Assign fixed random variable streams (the devices' backoff).
     * @param devices EthernetNetDevices
     * @param stream first stream index
     * @return the number of streams used
     */
    int64_t AssignStreams(const NetDeviceContainer& devices, int64_t stream) const;

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;
    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_device;  //!< device factory
    ObjectFactory m_channel; //!< cable factory
    ObjectFactory m_hub;     //!< hub factory
    ObjectFactory m_queue;   //!< queue factory
    double m_cable;          //!< cable length (m)
};

} // namespace ns3

#endif /* TESTBED_ETHERNET_HELPER_H */
