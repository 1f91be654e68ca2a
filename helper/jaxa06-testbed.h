/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_JAXA06_TESTBED_H
#define TESTBED_JAXA06_TESTBED_H

#include "ns3/data-rate.h"
#include "ns3/emulated-testbed-helper.h"
#include "ns3/nstime.h"
#include "ns3/tick-timer.h"
#include "ns3/timer-model.h"

#include <string>

/**
 * @file
 * @ingroup testbed
 * The [JAXA06] testbed: two federate PCs and the NIST Net PC between them.
 */

namespace ns3
{

/**
 * @ingroup testbed
 * @brief Settings of the [JAXA06] testbed.
 */
struct Jaxa06TestbedConfig
{
    DataRate bandwidth{0};  //!< NIST Net bandwidth limit, each direction (0 = none)
    Time delay{0};          //!< NIST Net delay, each direction
    bool halfDuplex{false}; //!< NICs at half duplex (shared medium) instead of full duplex
    bool netem{false};      //!< combine rate and delay additively (netem) instead of NIST Net
    std::string hostProfile{"pc2006-linux26"};      //!< HostProfile of the two federate PCs
    std::string emulatorProfile{"nistnet-linux24"}; //!< HostProfile of the NIST Net PC
    std::string pcapPrefix;                         //!< pcap file prefix ("" = none)
    int64_t stream{1000}; //!< first random stream index used by the testbed (RTC phase, hosts)
};

/**
 * @ingroup testbed
 * @brief Builds the [JAXA06] testbed: hostA -- NIST Net PC -- hostB, 100BASE-TX.
 *
 * The two federate PCs and the emulator PC get host platforms (HostProfile), the emulator's
 * queue discs the NIST Net settings, and NIST Net's timer: packets that NIST Net delays or
 * rate-limits are released on the ticks of the PC's real-time clock, which NIST Net programs to
 * 8192 Hz; a packet that needs neither passes at once.
 */
class Jaxa06Testbed
{
  public:
    /** NIST Net's real-time clock rate (Hz), from NIST Net's design (Carson & Santay 2003). */
    static constexpr double NISTNET_RTC_HZ = 8192.0;

    /**
     * @brief Build the testbed (three new nodes; also calls ConfigureLinuxTcp() and assigns
     * the random streams of the hosts and emulators from config.stream on).
     * @param config the settings
     * @return the nodes, devices, addresses and emulator queue discs
     */
    static EmulatedTestbed Build(const Jaxa06TestbedConfig& config);

    /**
     * @brief The NIST Net timer: the PC's real-time clock at 8192 Hz.
     * @return a new timer model
     */
    static Ptr<TimerModel> CreateNistNetTimer();

    /**
     * @brief Make new TCP sockets behave like Linux 2.6 of 2006 (global defaults): BIC
     * congestion control, MSS 1448 with timestamps, initial window 3, delayed ACKs of at most
     * 40 ms, minimum RTO 200 ms, 128 KiB send and 171 KiB receive buffers.
     */
    static void ConfigureLinuxTcp();
};

} // namespace ns3

#endif /* TESTBED_JAXA06_TESTBED_H */
