/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TNO_LAN_H
#define TESTBED_TNO_LAN_H

#include "ns3/host-platform.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/program-options.h"
#include "ns3/ptr.h"
#include "ns3/rci-federate.h"

#include <string>
#include <vector>

/**
 * @file
 * The [TNO03] programs' machines and 100 Mbit/s LAN (tno-pipeline, tno-jitter, tno-schedulers).
 */

namespace ns3
{
namespace tno
{

/**
 * The switch's bus arbitration cycle: 16 ports granted 1 us each (an assumption: a 16-port
 * shared-bus switch of the era; doc/tno.rst). With the 2.56 Gbit/s bus a 600-byte frame waits
 * 0-16 us and crosses in 1.9 us: 9.9 us on average, the study's "about 10 us of buffering".
 */
const Time SWITCH_ARBITRATION_CYCLE = MicroSeconds(16);

/**
 * Join machines by a 100 Mbit/s LAN and number them 10.3.0.0/24.
 *
 * A switch: store and forward, full duplex, a shared-bus fabric: a frame fully received waits
 * for its ingress port's grant of a round-robin arbiter (SWITCH_ARBITRATION_CYCLE, 0 to one
 * cycle), then crosses a 2.56 Gbit/s bus ([TNO03]: "a switch adds about 10 us of buffering
 * latency": the mean of a variable delay; doc/tno.rst). A hub: one collision domain, the NICs
 * half duplex (a hub port does not negotiate; auto-negotiating NICs fall back to half by
 * parallel detection), CSMA/CD.
 *
 * @param machines the machines (with an Internet stack)
 * @param hub a repeater hub instead of a switch
 * @param stream first random stream of the Ethernet devices
 * @param devices if not null, receives the machines' devices (in machine order)
 * @param arbitrationCycle the switch's bus arbitration cycle
 * @param forwardingMode the switch's SwitchFabric ForwardingMode (empty: the attribute's
 * default, store-and-forward)
 * @return each machine's address
 */
std::vector<Ipv4Address> InstallLan(const NodeContainer& machines,
                                    bool hub,
                                    int64_t stream,
                                    NetDeviceContainer* devices = nullptr,
                                    Time arbitrationCycle = SWITCH_ARBITRATION_CYCLE,
                                    const std::string& forwardingMode = "");

/// The LAN switch's options of a program that builds the LAN.
struct SwitchOptions
{
    Time cycle{SWITCH_ARBITRATION_CYCLE}; //!< the bus arbitration cycle (option switchCycle)
    /// the Onyx machines' switch's SwitchFabric ForwardingMode (option onyxSwitchMode)
    std::string onyxMode{"StoreAndForward"};
};

/**
 * @brief Declare the LAN switch's options: switchCycle and onyxSwitchMode.
 * @param opts the program's options
 * @param sw where their values go
 */
void AddSwitchOptions(ProgramOptions& opts, SwitchOptions& sw);

/**
 * The RCI's own work per action (frame scheduling, the action's bookkeeping, tag formatting),
 * in MIPS R10000 cycles scaled by the host's ReferenceCycleFactor: calibrated on the knee of
 * configuration 2 (2 500 Hz; doc/tno.rst). The same middleware over every RTI.
 */
constexpr double RCI_ACTION_CYCLES = 29600;

/**
 * The RCI's own work per reflection it receives (parsing the tag, keeping and handing over the
 * values), MIPS R10000 cycles: calibrated on the highest frequency of configuration 2 (3 900 Hz;
 * doc/tno.rst). The read side of every reader, over every RTI.
 */
constexpr double RCI_REFLECT_CYCLES = 22000;

/** Clock reads per RCI action (a gettimeofday(): the host's SyscallCost each). */
constexpr uint32_t RCI_CLOCK_READS = 1;

/**
 * System calls of a paced action's wait for its time (one clock_nanosleep or timed semaphore
 * wait to an absolute time: the host's SyscallCost). The RCI's per-action work is its code
 * (RCI_ACTION_CYCLES, scaled) plus these and the clock reads (the host's, never scaled).
 */
constexpr uint32_t RCI_TIMER_CALLS = 1;

/**
 * Set the RCI's costs (RCI_ACTION_CYCLES, RCI_CLOCK_READS) on an RCI federate. Without @p by
 * the costs are the set-up's defaults (a user's --ns3::RciFederate::ActionCost= etc. wins);
 * with @p by they come from program options and a user value for them is refused (exit 2).
 * The clock reads and timer calls are always defaults.
 * @param rci the federate
 * @param actionCycles the RCI's cycles per action (default RCI_ACTION_CYCLES)
 * @param reflectCycles the RCI's cycles per reflection (default RCI_REFLECT_CYCLES)
 * @param by the options the costs come from, e.g. "from its options --rciActionCost and
 *        --rciReflectCost"; empty: defaults
 */
void SetRciCosts(Ptr<RciFederate> rci,
                 double actionCycles = RCI_ACTION_CYCLES,
                 double reflectCycles = RCI_REFLECT_CYCLES,
                 const std::string& by = "");

/**
 * Give every machine's network device the host's queueing discipline instead of ns-3's
 * default (FqCoDel): a priority FIFO (Linux 2.4 pfifo_fast; BSD's single ifqueue behaves as
 * its one band for this traffic) of the host's TxQueueLength packets.
 * @param devices the machines' devices
 * @param hosts the platforms, in the same order
 */
void InstallQueueDiscs(const NetDeviceContainer& devices,
                       const std::vector<Ptr<HostPlatform>>& hosts);

/** The uncertainty band of the iHawk's parameters that are not calibrated (doc/tno.rst). */
enum class Band
{
    CENTRAL, //!< the central values of the profiles
    FAST,    //!< the fast end: the smallest per-clock factor, the lmbench OS costs
    SLOW,    //!< the slow end: the largest per-clock factor, twice the lmbench OS costs
};

/**
 * Parse a band name.
 * @param name central, fast or slow
 * @return the band
 */
Band ParseBand(const std::string& name);

/**
 * Move an iHawk host to one end of its documented ranges (other hosts are left alone): the
 * middleware's per-clock factor (0.93-1.9 for the Pentium III Xeon, 1.07-2.2 for the
 * Pentium 4 Xeon: the study's "three times faster" to SPEC CINT2000 per MHz) and the kernel's
 * costs (lmbench's loopback figures to twice them: a real NIC's descriptor work and the fully
 * pre-emptible kernel's locking are not in lmbench's loopback path).
 * @param host the platform
 * @param profile its profile's name
 * @param band the band
 */
void ApplyBand(Ptr<HostPlatform> host, const std::string& profile, Band band);

/**
 * Install the host platforms: machine 0 gets @p hostA, the others @p hostB; random streams
 * from 100, 20 per machine.
 * @param machines the machines
 * @param hostA host profile of machine 0
 * @param hostB host profile of the other machines
 * @return the platforms, in machine order
 */
std::vector<Ptr<HostPlatform>> InstallHosts(const NodeContainer& machines,
                                            const std::string& hostA,
                                            const std::string& hostB);

} // namespace tno
} // namespace ns3

#endif /* TESTBED_TNO_LAN_H */
