/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_EMULATED_TESTBED_HELPER_H
#define TESTBED_EMULATED_TESTBED_HELPER_H

#include "ns3/ethernet-link-helper.h"
#include "ns3/ipv4-address.h"
#include "ns3/link-emulator-helper.h"
#include "ns3/link-emulator-queue-disc.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"

#include <string>

/**
 * @file
 * @ingroup testbed-link
 * The [JAXA06] testbed: host A -- emulator router -- host B.
 */

namespace ns3
{

/**
 * @ingroup testbed-link
 * @brief What EmulatedTestbedHelper::Install() built: nodes, devices, addresses, emulators.
 *
 * Plain data, usable from C++ and (through cppyy) from Python.
 */
struct EmulatedTestbed
{
    Ptr<Node> hostA;    //!< host A (e.g. the sending federate's PC)
    Ptr<Node> emulator; //!< the emulator router (the NIST Net PC)
    Ptr<Node> hostB;    //!< host B

    Ptr<NetDevice> hostADevice;     //!< host A's NIC
    Ptr<NetDevice> emulatorADevice; //!< the emulator's NIC toward A (carries B -> A)
    Ptr<NetDevice> emulatorBDevice; //!< the emulator's NIC toward B (carries A -> B)
    Ptr<NetDevice> hostBDevice;     //!< host B's NIC

    Ipv4Address hostAAddress;     //!< host A's address (network A)
    Ipv4Address emulatorAAddress; //!< the emulator's address on network A (A's gateway)
    Ipv4Address emulatorBAddress; //!< the emulator's address on network B (B's gateway)
    Ipv4Address hostBAddress;     //!< host B's address (network B)

    Ptr<LinkEmulatorQueueDisc> aToB; //!< emulator for A -> B, on emulatorBDevice
    Ptr<LinkEmulatorQueueDisc> bToA; //!< emulator for B -> A, on emulatorADevice

    /**
     * @brief The three nodes.
     * @return hostA, emulator, hostB
     */
    NodeContainer GetNodes() const;

    /**
     * @brief The four devices.
     * @return hostADevice, emulatorADevice, emulatorBDevice, hostBDevice
     */
    NetDeviceContainer GetDevices() const;
};

/**
 * @ingroup testbed-link
 * @brief Builds the [JAXA06] testbed: two hosts joined through an emulator router.
 *
 *     hostA --- Ethernet --- emulator --- Ethernet --- hostB
 *     netA.1             netA.2    netB.2             netB.1
 *
 * Both links are EthernetLinkHelper links (100BASE-TX full duplex by default; half duplex as a
 * CSMA segment on request). Every node gets the Internet stack; addresses are assigned by hand
 * (no global address generator, so that several testbeds can coexist); host A and host B get a
 * static default route through the emulator, which forwards between its interfaces. The
 * emulator's egress devices get LinkEmulatorQueueDiscs (A -> B on the device toward B, B -> A
 * on the device toward A); the hosts' devices get pfifo_fast (Linux's default, 1000 packets).
 * On half-duplex links the ARP caches are filled at build time (warm caches, as after the
 * ping that preceded every measurement) unless disabled.
 *
 * The emulators' Semantics default to NistNet here (the [JAXA06] testbed ran NIST Net); set
 * "Semantics" to Netem for a netem testbed. Host costs are not modelled here: the nodes are
 * left for the host-platform model.
 */
class EmulatedTestbedHelper
{
  public:
    /// Create a helper for 100BASE-TX full-duplex links and NistNet emulators.
    EmulatedTestbedHelper();

    /**
     * @brief Set the duplex mode of both Ethernet links.
     * @param duplex FULL_DUPLEX (default) or HALF_DUPLEX
     */
    void SetDuplex(EthernetLinkHelper::Duplex duplex);

    /**
     * @brief Set the line rate of both Ethernet links.
     * @param rate the rate (default 100 Mbit/s)
     */
    void SetDataRate(DataRate rate);

    /**
     * @brief Set the cable delay of both Ethernet links.
     * @param delay the delay (default 50 ns)
     */
    void SetCableDelay(Time delay);

    /**
     * @brief Set the two IPv4 networks.
     * @param networkA network of host A and the emulator's A side (default 10.1.1.0)
     * @param networkB network of host B and the emulator's B side (default 10.1.2.0)
     * @param mask the mask of both (default 255.255.255.0)
     */
    void SetNetworks(Ipv4Address networkA, Ipv4Address networkB, Ipv4Mask mask);

    /**
     * @brief Set an emulator attribute for both directions.
     * @param name a LinkEmulatorQueueDisc attribute name
     * @param value its value
     */
    void SetEmulatorAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Set an emulator attribute for one direction.
     * @param direction LinkEmulatorHelper::A_TO_B or B_TO_A
     * @param name a LinkEmulatorQueueDisc attribute name
     * @param value its value
     */
    void SetEmulatorAttribute(LinkEmulatorHelper::Direction direction,
                              const std::string& name,
                              const AttributeValue& value);

    /**
     * @brief Fill ARP caches of half-duplex (CSMA) links at build time (default true).
     * @param enable whether to do so
     */
    void SetPopulateArpCaches(bool enable);

    /**
     * @brief Write pcap files of the four devices (prefix-<node>-<device>.pcap).
     * @param prefix the file name prefix ("" disables)
     */
    void EnablePcap(const std::string& prefix);

    /**
     * @brief Build the testbed on three new nodes.
     * @return what was built
     */
    EmulatedTestbed Install() const;

    /**
     * @brief Build the testbed on three given nodes (the Internet stack is installed on those
     * that have none).
     * @param hostA host A
     * @param emulator the emulator router
     * @param hostB host B
     * @return what was built
     */
    EmulatedTestbed Install(Ptr<Node> hostA, Ptr<Node> emulator, Ptr<Node> hostB) const;

    /**
     * @brief Assign fixed random variable streams: the emulators' and the CSMA devices'.
     * @param testbed what Install() returned
     * @param stream first stream index to use
     * @return the number of stream indices assigned
     */
    int64_t AssignStreams(const EmulatedTestbed& testbed, int64_t stream) const;

  private:
    EthernetLinkHelper m_ethernet; //!< builds the two links
    LinkEmulatorHelper m_emulator; //!< installs the emulators
    Ipv4Address m_networkA;        //!< network A
    Ipv4Address m_networkB;        //!< network B
    Ipv4Mask m_mask;               //!< mask of both networks
    bool m_populateArp;            //!< fill ARP caches of CSMA links
    std::string m_pcapPrefix;      //!< pcap prefix ("" = none)
};

} // namespace ns3

#endif /* TESTBED_EMULATED_TESTBED_HELPER_H */
