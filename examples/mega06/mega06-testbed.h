/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_MEGA06_TESTBED_H
#define TESTBED_MEGA06_TESTBED_H

#include "ns3/ami.h"
#include "ns3/data-rate.h"
#include "ns3/igmp-timers.h"
#include "ns3/ipv4-address.h"
#include "ns3/mrouted.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/program-options.h"
#include "ns3/sara.h"
#include "ns3/send-udp.h"
#include "ns3/snooping-bridge-net-device.h"
#include "ns3/switch-helper.h"
#include "ns3/udp-frame-source.h"

#include <functional>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed
 * The [MEGA06] layer-2 network, reduced to the PCs an experiment observes.
 */

namespace ns3
{

class HostNic;

/**
 * @ingroup testbed
 * @brief Settings of a [MEGA06] network.
 */
struct Mega06TestbedConfig
{
    uint32_t senderPcs{1};     //!< Group A sender PCs simulated one by one
    uint32_t nodesPerPc{5000}; //!< send_udp virtual nodes per sender PC
    uint32_t receivers{1};     //!< Group B receiver PCs (ami + sara on the group)
    bool snooping{true};       //!< IGMP snooping on the switch (off: every frame flooded)
    bool unregisteredToRouterPorts{false}; //!< unregistered groups to router ports (else flood)
    double otherLoad{0}; //!< frames/s of the senders not simulated (to the other group)
    bool querier{false}; //!< a Group A PC running mrouted (IGMP querier)
    bool querierStaticRouterPort{true}; //!< its switch port is a configured router port
    double querierInterruptRate{0};     //!< its NIC's MaxInterruptRate (0 = unmoderated)
    double igmpTimeScale{1.0};          //!< every IGMP timer (RFC 2236 defaults) times this factor
    std::string profile{"starbed-p3-linux2613"}; //!< HostProfile of every PC
    Ipv4Address group{"239.1.0.1"};              //!< the observed senders' group
    Ipv4Address otherGroup{"239.1.0.2"};         //!< the other senders' group
    uint16_t port{10000};                        //!< send_udp port
    uint32_t packetSize{100};                    //!< IP packet size (octets)
    Time joinAt{MilliSeconds(100)};              //!< ami joins
    Time sendAt{MilliSeconds(500)};              //!< send_udp starts (each node within 1 s)
    Time loadAt{Seconds(0)};                     //!< the other senders' load starts
    Time stopAt{Seconds(10)};                    //!< every application stops
    int64_t stream{3000};                        //!< first random stream index
    /// Sender PCs per group (0: every sender PC to `group`, every receiver on it). Otherwise
    /// the [MEGA06] sets of scaling method A: sender PC i sends to GroupOf(i / sendersPerGroup)
    /// and receiver j joins GroupOf(j), one group per set.
    uint32_t sendersPerGroup{0};
    uint32_t receiversOn6009{0};  //!< the last receivers are on a second switch (the 6009)
    DataRate trunkRate{"1Gbps"};  //!< the 802.1Q trunk between the 6509 and the 6009
    bool sequentialLaunch{false}; //!< send_udp processes launched one by one (SendUdp)
    /// A part of a run split by sets (doc/mega.rst): the applications of the sets
    /// [partFirstSet, partFirstSet + partSets) run here (sendersPerGroup > 0); every PC, port
    /// and random stream is built as in the whole run, the other sets' PCs stay idle.
    uint32_t partFirstSet{0};
    uint32_t partSets{UINT32_MAX}; //!< sets whose applications run here (default: all)
    bool partShared{true}; //!< the rest of the network's and the querier's applications run here
    /// Each full-duplex port of the switches delivers its frames in a context of its own
    /// (PortContext): a lane per ingress port under LeanSimulatorImpl's lane order.
    bool portContexts{false};
};

/**
 * @ingroup testbed
 * @brief The MEGA06 programs' PC options, declared once: --hostProfile (into the
 * configuration's profile), --hostSet, --profileFile, and the deprecated --profile.
 */
struct Mega06HostOptions
{
    std::string hostSet;     //!< --hostSet: changes to the PCs' host profile ("" = none)
    std::string profileFile; //!< --profileFile: extra profile definitions ("" = none)

    /**
     * @brief Declare the options.
     * @param opts the program's options
     * @param config where --hostProfile goes (its profile)
     */
    void Add(ProgramOptions& opts, Mega06TestbedConfig& config);

    /**
     * @brief After ProgramOptions::Parse(): the configuration's profile with --hostSet applied
     * (ProgramOptions::WithHostSet).
     * @param config the configuration
     */
    void Apply(Mega06TestbedConfig& config) const;
};

/**
 * @ingroup testbed
 * @brief The work a MEGA06 run asks for, from its options, and the up-front budgets it gives
 * (ProgramOptions::SetEventEstimate, SetMemoryEstimate): the four programs' cost grows with
 * the send_udp nodes times the simulated time and with the load's frames, so a point beyond
 * --maxEvents or --maxMemory is refused by --check and before the run, in one line.
 *
 * An upper bound, each constant above what was measured (Release build, starbed-p3-linux2613,
 * 1-4 sender PCs, 1 000-400 000 nodes, 10^5-10^6 load frames/s): every node sends 1/Interval
 * packets a second during the whole run (ns3::SendUdp's Interval, which --ns3::SendUdp::Interval
 * changes; a saturated CPU sends fewer), a packet costs at most EVENTS_PER_PACKET events (20.5
 * measured on mega-scale, 15 on mega-flooding, about 7 on mega-multiplex), a load frame at most
 * EVENTS_PER_FRAME_PORT per PC it reaches (10 per flooded PC and 3 with snooping at 10^5
 * frames/s; 7 at the unmoderated querier), a PC at most EVENTS_PER_PC_SECOND of its own
 * (IGMP, timers; HZ = 1000 ticks if they are events); memory BASE_MIB (28 MiB measured) plus
 * BYTES_PER_NODE a node (240-300 measured).
 */
struct Mega06Work
{
    double nodes{0};      //!< send_udp nodes
    double seconds{0};    //!< simulated seconds
    double loadFrames{0}; //!< the load's frames
    double loadPorts{0};  //!< PCs each load frame reaches
    double pcs{0};        //!< PCs

    static constexpr double EVENTS_PER_PACKET = 30;      //!< events per send_udp packet
    static constexpr double EVENTS_PER_FRAME_PORT = 12;  //!< events per load frame and PC
    static constexpr double EVENTS_PER_PC_SECOND = 1000; //!< a PC's own events per second
    static constexpr double BASE_MIB = 64;               //!< memory without nodes (MiB)
    static constexpr double BYTES_PER_NODE = 1024;       //!< memory per send_udp node

    /** @return the send_udp nodes' packets per second each (1 / ns3::SendUdp's Interval) */
    static double SendRate();

    /** @return the estimated simulator events */
    double Events() const;

    /** @return the estimated resident memory (MiB) */
    double MemoryMib() const;

    /**
     * @brief Give a program's options the event and memory estimates of its work.
     * @param opts the program's options
     * @param work the work, from the parsed options (called in Parse())
     */
    static void SetBudgets(ProgramOptions& opts, std::function<Mega06Work()> work);
};

/**
 * @ingroup testbed
 * @brief The senders' own send intervals over an observation window [start, end): sara's
 * statistics (SaraTable) of the packets that send_udp sent, from SendUdp's "Send" trace (the
 * send-interval figures of [MEGA06], Figs. 7 and 10). One per experiment program.
 */
class Mega06SentWindow
{
  public:
    /**
     * @brief Set the window (packets sent outside it are not counted).
     * @param start its start
     * @param end its end (excluded)
     */
    void SetWindow(Time start, Time end);

    /**
     * @brief Count the packets an application sends from now on.
     * @param app the send_udp application of a PC
     */
    void Watch(Ptr<SendUdp> app);

    /**
     * @brief A packet sent (SendUdp's "Send" trace).
     * @param node virtual-node id
     * @param serial serial number
     * @param ts send time
     */
    void Sent(uint32_t node, uint32_t serial, Time ts);

    /**
     * @brief A node will send soon (SendUdp::SetNextNodeHint): its statistics start loading
     * into the cache (SaraTable::Prefetch); nothing else changes.
     * @param node virtual-node id
     */
    void Prefetch(uint32_t node);

    /** @return the packets sent in the window */
    uint64_t GetCount() const;

    /** @return sara's statistics of the send intervals in the window */
    SaraTable::Summary GetSummary() const;

    /** @return the per-node moments of the send intervals in the window (SaraTable) */
    std::vector<SaraTable::NodeMoments> GetMoments() const;

  private:
    Time m_start{Time::Max()}; //!< window start
    Time m_end{Time::Max()};   //!< window end
    SaraTable m_table;         //!< the intervals
    uint64_t m_count{0};       //!< packets in the window
};

/**
 * @ingroup testbed
 * @brief A [MEGA06] network: one IGMP-snooping switch with the observed PCs on their ports.
 *
 * Ports: senderPcs Group A PCs (1000BASE-T) each running SendUdp (nodesPerPc virtual nodes,
 * ids k * nodesPerPc onwards, to `group`); `receivers` Group B PCs (100BASE-T) running Ami and
 * Sara on `group`; optionally the querier PC (1000BASE-T, Mrouted, static router port unless
 * configured otherwise, NIC MaxInterruptRate as configured); and one 10 Gb/s port standing for
 * the rest of the network (the 802.1Q trunks to the switches of the other 200 PC sets): a
 * Poisson UdpFrameSource sends the other senders' aggregate load (otherLoad frames/s) to
 * `otherGroup` from there, and the node there joins `otherGroup` for the other sets'
 * receivers, so that with snooping the load stays behind that port (and reaches only router
 * ports), and without snooping it is flooded onto every PC. Every PC has a HostPlatform of
 * `profile`; the rest-of-network node has none.
 *
 * IGMP (version 2, as mrouted 3.x and the hosts that hear its queries): RFC 2236 timers times
 * igmpTimeScale (Query Interval 125 s, Query Response Interval 10 s, Unsolicited Report
 * Interval 10 s, Last Member Query Interval 1 s); the switch's port membership timeout is the
 * resulting Group Membership Interval and its router-port timeout the Other Querier Present
 * Interval.
 */
struct Mega06Testbed
{
    Ptr<Node> switchNode;                    //!< the switch (the Catalyst 6509)
    Ptr<SnoopingBridgeNetDevice> bridge;     //!< its snooping bridge
    Ptr<Node> switch6009;                    //!< the second switch (null if no receiver is there)
    Ptr<SnoopingBridgeNetDevice> bridge6009; //!< its snooping bridge
    uint32_t trunkPort{UINT32_MAX};          //!< the trunk's port on the 6509
    uint32_t trunkPort6009{UINT32_MAX};      //!< the trunk's port on the 6009
    NodeContainer senders;                   //!< sender PCs
    NodeContainer receivers;                 //!< receiver PCs
    Ptr<Node> querier;                       //!< querier PC (null if none)
    Ptr<Node> rest;                          //!< the rest of the network
    std::vector<Ptr<SendUdp>> sendUdp;       //!< per sender PC whose set runs here
    std::vector<Ptr<Sara>> sara;             //!< per receiver PC (null if its set is not here)
    Ptr<Mrouted> mrouted;                    //!< on the querier PC (null if none)
    Ptr<UdpFrameSource> load;                //!< the other senders' load
    std::vector<uint32_t> senderPorts;       //!< switch port of each sender PC
    std::vector<uint32_t> receiverPorts;     //!< switch port of each receiver PC
    uint32_t querierPort{UINT32_MAX};        //!< switch port of the querier PC
    uint32_t restPort{UINT32_MAX};           //!< switch port of the rest of the network

    /**
     * @brief Build the network and its applications (nodes, addresses 10.0.0.0/16, hosts,
     * IGMP, random streams from config.stream on).
     * @param config the settings
     * @return the network
     */
    static Mega06Testbed Build(const Mega06TestbedConfig& config);

  private:
    /**
     * @brief Build: the PCs' stacks, IGMP, host platforms and clock phases.
     * @param tb the network
     * @param c its settings
     * @param timers the IGMP timers
     * @param pcs the sender and receiver PCs
     * @param devs their devices and the querier's and the rest's
     * @param all out: every node with a stack
     * @param hostsAll out: every PC (with the querier)
     * @param stream the next random stream (advanced)
     */
    static void InstallHosts(Mega06Testbed& tb,
                             const Mega06TestbedConfig& c,
                             const IgmpTimers& timers,
                             const NodeContainer& pcs,
                             const NetDeviceContainer& devs,
                             NodeContainer& all,
                             NodeContainer& hostsAll,
                             int64_t& stream);

    /**
     * @brief Build: the applications of this run's (or part's) sets and the shared ones; every
     * application's random streams are taken, installed or not.
     * @param tb the network
     * @param c its settings
     * @param stream the next random stream (advanced)
     */
    static void InstallApplications(Mega06Testbed& tb,
                                    const Mega06TestbedConfig& c,
                                    int64_t& stream);

  public:
    /**
     * @brief Whether set k's applications run in this build (Mega06TestbedConfig::partSets).
     * @param config the configuration
     * @param k the set (sender PC i is in set i / sendersPerGroup, receiver j in set j)
     * @return true if they do
     */
    static bool SetHere(const Mega06TestbedConfig& config, uint32_t k);

    /**
     * @brief The group of set k (sendersPerGroup > 0): `group` + k. Consecutive addresses
     * differ in their low 23 bits, so their multicast MAC addresses differ (IPv4 maps 32
     * groups onto one MAC, RFC 1112 6.4).
     * @param config the configuration
     * @param k the set
     * @return the group
     */
    static Ipv4Address GroupOf(const Mega06TestbedConfig& config, uint32_t k);

    /**
     * @brief The context of a switch port's received frames (Mega06TestbedConfig::
     * portContexts): above every node id, the same in every part of a split run.
     * @param sw the switch (0: the 6509, 1: the 6009)
     * @param port the port
     * @return 0x40000000 + sw * 0x10000 + port
     */
    static uint32_t PortContext(uint32_t sw, uint32_t port);

    /**
     * @brief The NIC model of a PC (its only device).
     * @param pc a sender, receiver or querier PC
     * @return the NIC model
     */
    static Ptr<HostNic> GetNic(Ptr<Node> pc);

    /**
     * @brief The IGMP timers of the querier, the hosts and the switch: RFC 2236's defaults
     * with every interval scaled by the configuration's igmpTimeScale.
     * @param config the configuration
     * @return the timers
     */
    static IgmpTimers Timers(const Mega06TestbedConfig& config);
};

} // namespace ns3

#endif /* TESTBED_MEGA06_TESTBED_H */
