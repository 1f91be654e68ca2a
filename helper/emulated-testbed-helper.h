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
#include "ns3/timer-model.h"

#include <string>

/**
 * @file
 * @ingroup testbed-link
 * Host A -- emulator router -- host B: the [JAXA06] testbed (NIST Net PC between two federate
 * PCs) and [GINE14]'s emulated link (GINE's queues between two virtual hosts).
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
 * @brief Builds host A -- emulator router -- host B: two Ethernet links, an IPv4 network on
 * each side, a LinkEmulatorQueueDisc per direction on the emulator's egress devices, and
 * optionally the host platforms (model/host) of the three PCs and one emulator timer.
 *
 * The default is a bare topology (100BASE-TX full duplex, NIST Net semantics, no host model, the
 * emulators' own timer). Jaxa06() returns a helper set up as the [JAXA06] testbed:
 *
 * @code
 * EmulatedTestbedHelper helper = EmulatedTestbedHelper::Jaxa06();
 * helper.SetEmulatorAttribute("Rate", DataRateValue(DataRate("1Mbps")));
 * helper.SetEmulatorAttribute("Delay", TimeValue(MilliSeconds(50)));
 * EmulatedTestbed tb = helper.Install();
 * helper.AssignStreams(tb, 1000); // also draws the NIST Net clock's phase
 * @endcode
 */
class EmulatedTestbedHelper
{
  public:
    /// Create a helper for 100BASE-TX full-duplex links and NistNet emulators, no host model.
    EmulatedTestbedHelper();

    /** NIST Net's real-time clock rate (Hz), from NIST Net's design (Carson & Santay 2003). */
    static constexpr double NISTNET_RTC_HZ = 8192.0;

    /**
     * @brief A helper set up as the [JAXA06] testbed: two federate PCs (HostProfile
     * pc2006-linux26) through the NIST Net PC (nistnet-linux24), 100BASE-TX full duplex, NIST Net
     * semantics (no rate limit, no delay until set), one real-time clock at NISTNET_RTC_HZ driving
     * the release in both directions with a random phase (drawn by AssignStreams) in the NIST Net
     * PC's interrupt handler (SetReleaseOnEmulatorCpu), and the
     * Linux 2.6 TCP of 2006 (HostPlatformHelper::ConfigureLinux26Tcp, applied by Install).
     * @return the helper
     */
    static EmulatedTestbedHelper Jaxa06();

    /**
     * @brief The NIST Net timer: the PC's real-time clock at NISTNET_RTC_HZ.
     * @return a new timer model
     */
    static Ptr<TimerModel> CreateNistNetTimer();

    /**
     * @brief Install host platforms (HostPlatformHelper) on hosts A and B with this profile.
     * @param profile a HostProfile name ("" = no host model, the default)
     */
    void SetHostProfile(const std::string& profile);

    /**
     * @brief Install a host platform on the emulator router with this profile.
     * @param profile a HostProfile name ("" = no host model, the default)
     */
    void SetEmulatorProfile(const std::string& profile);

    /** @return the host profile of hosts A and B ("" = no host model) */
    std::string GetHostProfile() const;

    /** @return the host profile of the emulator router ("" = no host model) */
    std::string GetEmulatorProfile() const;

    /**
     * @brief Whether the host platforms get NIC models on their devices (default true; false
     * for virtual hosts without a NIC, as GINE's).
     * @param install whether to install NIC models
     */
    void SetInstallNics(bool install);

    /**
     * @brief One timer that drives both emulators' release (the emulators' Timer attribute).
     * @param timer the timer (null: each emulator keeps its own default)
     */
    void SetEmulatorTimer(Ptr<TimerModel> timer);

    /**
     * @brief Whether AssignStreams draws the emulator timer's tick phase uniformly over one
     * period (a TickTimer's Phase: where the experiment starts relative to the clock's ticks).
     * @param random whether to draw it (default false: the timer's own Phase)
     */
    void SetRandomTimerPhase(bool random);

    /**
     * @brief Whether Install first sets ns-3's TCP defaults to Linux 2.6 of 2006
     * (HostPlatformHelper::ConfigureLinux26Tcp; a global setting, as Config::SetDefault is).
     * @param enable whether to do so (default false)
     */
    void SetLinuxTcp(bool enable);

    /**
     * @brief Whether the emulators release on the emulator PC's CPU (LinkEmulatorQueueDisc
     * ReleaseCpu): the timer interrupt's handler waits for the hard interrupt work before it
     * (needs an emulator profile; default false).
     * @param onCpu whether to do so
     */
    void SetReleaseOnEmulatorCpu(bool onCpu);

    /**
     * @brief Set the duplex mode of both Ethernet links.
     * @param duplex FULL_DUPLEX (default) or HALF_DUPLEX
     */
    void SetDuplex(EthernetLinkHelper::Duplex duplex);

    /**
     * @brief The IEEE 802.3 NIC settings of HALF_DUPLEX links (EthernetNetDevice::Duplex): the
     * hosts' NICs and the emulator's (default: both forced half).
     * @param host the NICs of hosts A and B
     * @param emulator the emulator's two NICs
     */
    void SetNicDuplex(EthernetNetDevice::Duplex host, EthernetNetDevice::Duplex emulator);

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
     * @brief Fill the ARP caches of both links at build time (default true), so that no ARP
     * exchange precedes the first packets.
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
     * @brief Assign fixed random variable streams, in this order: the emulator timer's phase
     * (if SetRandomTimerPhase), the host platforms (host A, emulator, host B, where installed),
     * the emulators and the links, the emulator timer's own streams.
     * @param testbed what Install() returned
     * @param stream first stream index to use
     * @return the number of stream indices assigned
     */
    int64_t AssignStreams(const EmulatedTestbed& testbed, int64_t stream) const;

  private:
    EthernetLinkHelper m_ethernet;           //!< builds the two links
    LinkEmulatorHelper m_emulator;           //!< installs the emulators
    Ipv4Address m_networkA;                  //!< network A
    Ipv4Address m_networkB;                  //!< network B
    Ipv4Mask m_mask;                         //!< mask of both networks
    bool m_populateArp;                      //!< fill the links' ARP caches
    std::string m_pcapPrefix;                //!< pcap prefix ("" = none)
    std::string m_hostProfile;               //!< host A and B platform profile ("" = none)
    std::string m_emulatorProfile;           //!< emulator platform profile ("" = none)
    bool m_installNics;                      //!< host platforms get NIC models
    Ptr<TimerModel> m_timer;                 //!< timer of both emulators (null = their own)
    bool m_randomPhase;                      //!< AssignStreams draws the timer's phase
    bool m_linuxTcp;                         //!< Install sets Linux 2.6 TCP defaults
    bool m_releaseOnCpu;                     //!< emulators release on the emulator PC's CPU
    EthernetNetDevice::Duplex m_nicHost;     //!< hosts' NICs (HALF_DUPLEX links)
    EthernetNetDevice::Duplex m_nicEmulator; //!< emulator's NICs (HALF_DUPLEX links)
};

} // namespace ns3

#endif /* TESTBED_EMULATED_TESTBED_HELPER_H */
