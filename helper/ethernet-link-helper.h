/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_ETHERNET_LINK_HELPER_H
#define TESTBED_ETHERNET_LINK_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/ethernet-framing.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

/**
 * @file
 * @ingroup testbed-link
 * Ethernet (100BASE-TX) links with exact wire occupancy, full or half duplex.
 */

namespace ns3
{

/**
 * @ingroup testbed-link
 * @brief Builds an Ethernet link (100BASE-TX by default) between two nodes, with one of the
 * module's two Ethernet MACs (EthernetPort):
 *
 * - Full duplex: two FullDuplexEthernetNetDevices on a FullDuplexEthernetChannel of the cable's
 *   delay (the lean MAC, one simulator event per frame and hop). A frame of P payload octets
 *   occupies the wire for EthernetFraming::WireOctets(P) = 8 + max(64, 18 + P) + 12 octet
 *   times, and its last bit reaches the peer (8 + max(64, 18 + P)) octet times + the cable
 *   delay after its first bit left: minimum-frame padding included. Each device has a
 *   NetDeviceQueueInterface, so that its transmit queue (MaxQueueFrames) stops the queue disc
 *   above it when full, as ns-3's own device helpers arrange.
 * - Half duplex: two EthernetNetDevices (IEEE 802.3 MAC with CSMA/CD, model/ethernet) on one
 *   cable, each end configured (SetNicDuplex: forced half by default, or autonegotiating, or
 *   forced full for a duplex mismatch); they negotiate as clause 28 says, defer, collide, jam and
 *   back off. The cable's length is the cable delay times the velocity of propagation.
 */
class EthernetLinkHelper
{
  public:
    /// Duplex mode of the link.
    enum Duplex
    {
        FULL_DUPLEX, //!< two FullDuplexEthernetNetDevices: each direction has its own wire
        HALF_DUPLEX  //!< two IEEE 802.3 NICs (EthernetNetDevice), each end's setting its own
    };

    /**
     * @brief Create a helper for 100 Mbit/s full-duplex links with a 50 ns (10 m) cable.
     */
    EthernetLinkHelper();

    /**
     * @brief Set the duplex mode.
     * @param duplex FULL_DUPLEX or HALF_DUPLEX
     */
    void SetDuplex(Duplex duplex);

    /**
     * @brief Get the duplex mode.
     * @return the duplex mode
     */
    Duplex GetDuplex() const;

    /**
     * @brief Set the line rate (100 Mbit/s for 100BASE-TX).
     * @param rate the rate (> 0)
     */
    void SetDataRate(DataRate rate);

    /**
     * @brief Get the line rate.
     * @return the rate
     */
    DataRate GetDataRate() const;

    /**
     * @brief Set the propagation delay of the cable (about 5 ns per metre).
     * @param delay the delay (>= 0)
     */
    void SetCableDelay(Time delay);

    /**
     * @brief The two NICs' duplex settings of a HALF_DUPLEX link (IEEE 802.3, see
     * EthernetNetDevice::Duplex): the first node's of Install and the second's. Default: both
     * forced half.
     * @param a the first node's NIC
     * @param b the second node's NIC
     */
    void SetNicDuplex(EthernetNetDevice::Duplex a, EthernetNetDevice::Duplex b);

    /**
     * @brief Get the propagation delay of the cable.
     * @return the delay
     */
    Time GetCableDelay() const;

    /**
     * @brief Connect two nodes with a new link.
     * @param a first node
     * @param b second node
     * @return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

    /**
     * @brief Enable pcap output (DLT_EN10MB) on devices made by this helper.
     * @param prefix file name prefix
     * @param devices the devices
     * @param promiscuous whether to capture in promiscuous mode
     */
    void EnablePcap(const std::string& prefix,
                    const NetDeviceContainer& devices,
                    bool promiscuous = false) const;

    /**
     * @brief Assign fixed random variable streams (the CSMA backoff of half-duplex devices).
     * @param devices the devices
     * @param stream first stream index to use
     * @return the number of stream indices assigned
     */
    int64_t AssignStreams(const NetDeviceContainer& devices, int64_t stream) const;

    /**
     * @brief Wire occupancy of one frame carrying an IP packet: EthernetFraming::WireOctets
     * octet times (ipBytes + 38, or 84 for an IP packet shorter than 46 octets).
     * @param ipBytes the IP packet size
     * @return the time the frame keeps the wire (or medium) busy
     */
    Time GetWireTime(uint32_t ipBytes) const;

  private:
    Duplex m_duplex;                  //!< duplex mode
    DataRate m_rate;                  //!< line rate
    Time m_cableDelay;                //!< cable propagation delay
    EthernetNetDevice::Duplex m_nicA; //!< first node's NIC setting (HALF_DUPLEX links)
    EthernetNetDevice::Duplex m_nicB; //!< second node's NIC setting (HALF_DUPLEX links)
};

} // namespace ns3

#endif /* TESTBED_ETHERNET_LINK_HELPER_H */
