/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_SEND_UDP_H
#define TESTBED_SEND_UDP_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/fast-path.h"
#include "ns3/frame-descriptor.h"
#include "ns3/header.h"
#include "ns3/host-cpu.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/memory-hints.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>
#include <vector>

/**
 * @file
 * @ingroup testbed-apps
 * send_udp of [MEGA06]: many virtual sensor nodes, one UDP multicast packet a second each.
 */

namespace ns3
{

class FullDuplexEthernetNetDevice;
class HostPlatform;
class NetDevice;
class Packet;

/**
 * @ingroup testbed-apps
 * @brief The payload of a send_udp packet: send timestamp, virtual-node id, serial number.
 *
 * 16 octets in network byte order: the send timestamp in nanoseconds of simulation time
 * (64 bits; send_udp used gettimeofday()), the virtual-node id (32 bits, unique in the
 * experiment) and the node's serial number (32 bits, 0, 1, 2, ...). The rest of the UDP payload
 * is padding up to the packet size.
 */
class SendUdpHeader : public Header
{
  public:
    /** Serialized size (octets). */
    static constexpr uint32_t SIZE = 16;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * @brief Set the send timestamp.
     * @param t the time
     */
    void SetTimestamp(Time t);
    /** @return the send timestamp */
    Time GetTimestamp() const;
    /**
     * @brief Set the virtual-node id.
     * @param id the id
     */
    void SetNodeId(uint32_t id);
    /** @return the virtual-node id */
    uint32_t GetNodeId() const;
    /**
     * @brief Set the serial number.
     * @param serial the serial number
     */
    void SetSerial(uint32_t serial);
    /** @return the serial number */
    uint32_t GetSerial() const;

    /** @return whether the last Deserialize found a whole header (16 octets) */
    bool IsValid() const;

  private:
    int64_t m_timestamp{0}; //!< nanoseconds
    uint32_t m_nodeId{0};   //!< virtual-node id
    uint32_t m_serial{0};   //!< serial number
    bool m_valid{true};     //!< the last Deserialize found a whole header
};

/**
 * @ingroup testbed-apps
 * @brief send_udp: N virtual sensor nodes on one PC, each a process that sends one UDP
 * multicast packet every Interval (a per-PC multiplexer of N send_udp processes).
 *
 * Each virtual node behaves like one send_udp process of [MEGA06]:
 *
 *     loop { gettimeofday(&ts); build payload (ts, node id, serial++); sendto(group); sleep(1); }
 *
 * It starts at a random time in [0, StartWindow) after the application starts, and from then
 * on each iteration is one PROCESS-class work item on the host's CPU, of LoopCost cycles plus
 * the host's send path (HostPlatform::GetSendCost of the UDP payload), submitted with the
 * node's own process id, so the CPU charges a context switch whenever it changes from one
 * virtual node to another. The packet is handed to the socket when the item completes; the
 * timestamp is the time the send path began (completion minus the send path's service time).
 * The sleep is a relative sleep of Interval on the host's OS timer (HostPlatform::GetTimer, e.g.
 * jiffies), after which the node needs the OS scheduling latency
 * (HostPlatform::DrawSchedulingLatency) and then the CPU again. Jiffies, the scheduling latency,
 * contention between the PC's virtual nodes and the kernel's interrupt and softirq work (a
 * flood of received frames) therefore all shape the send intervals, and under receive livelock
 * the nodes stop sending.
 *
 * Why a multiplexer and not N HostProcess objects: a PC of [MEGA06] ran 5 000 send_udp
 * processes. Per virtual node this class keeps one 32-bit serial number, plus the CPU work item
 * or the wake-up that is pending for it; process ids come from HostPlatform::ReservePids. The
 * CPU sees exactly the work items N processes would submit.
 *
 * The sleeping nodes' wake-ups (their start times, then the end of each sleep) are kept in this
 * object's own queue, ordered by (time, order of the sleep): the PC's run queue of processes to
 * come. On a PC the queue is an arrival source of the CPU (HostCpu::ArrivalSource): the CPU takes
 * each node's iteration when its wake-up falls due, with no simulator event for the wake-up (the
 * iteration's completion is the one event of a send). Without a HostPlatform the simulator holds
 * one event, the earliest wake-up. Nodes due at one instant become runnable in the order their
 * sleeps began, as separate events at one instant would run. The simulator's scheduler thus
 * holds a few events per PC instead of one per virtual node (10^6 at the scale of [MEGA06]),
 * which is what makes its insertions and removals slow and its memory large.
 *
 * With SequentialLaunch, the nodes are not started at random times but launched one after
 * another as the study's PCs started them (a shell loop forking send_udp processes): each launch
 * is a PROCESS-class work item of the launcher (HostPlatform::GetLaunchCost) that competes for
 * the CPU with the nodes already running, and takes HostPlatform::GetProcessMemory from the PC's
 * memory; when the memory is exhausted (HostPlatform::AllocateMemory fails, fork's ENOMEM) the
 * launch stops and the nodes launched so far run.
 *
 * The datagram goes to the device directly, with the UDP and IPv4 headers the kernel would put
 * in front (AddIpUdpHeaders); on a lean full-duplex port (FullDuplexEthernetNetDevice) it goes as
 * a FrameDescriptor, the PC's FrameTemplate (its constant octets) and the 16 octets that differ,
 * without an ns-3 Packet: the CPU cost of the kernel's send path is the work item's
 * (HostPlatform::GetSendCost), and ns-3's socket, routing and traffic-control layers would add
 * no simulated time (no event) but most of a send's simulator work.
 *
 * Without a HostPlatform on the node the nodes send at exact intervals at no cost.
 */
class SendUdp
    : public Application
    , private HostCpu::ArrivalSource
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    SendUdp();
    ~SendUdp() override;

    /**
     * @brief Packets sent so far by all virtual nodes.
     * @return the count
     */
    uint64_t GetSent() const;

    /**
     * @brief Packets sent so far by one virtual node.
     * @param index the node's index on this PC, in [0, Nodes)
     * @return the count (= its next serial number)
     */
    uint32_t GetSent(uint32_t index) const;

    /**
     * @brief Virtual nodes started so far (all Nodes once started, unless the memory ran out
     * during a SequentialLaunch).
     * @return the count
     */
    uint32_t GetLaunched() const;

    /**
     * @brief Whether a SequentialLaunch stopped because the PC's memory was exhausted.
     * @return true if a launch failed
     */
    bool LaunchFailed() const;

    /**
     * @brief When the last virtual node was started (the launch's end), or -1 s if not yet.
     * @return the time
     */
    Time GetLaunchEnd() const;

    /**
     * @brief Set a hint for state kept per virtual node elsewhere (e.g., statistics of the
     * sent packets, from the "Send" trace): called with the virtual-node id of the node whose
     * wake-up is now the PC's next one (a node that sends soon), each time the CPU takes a
     * wake-up, for the holder to prefetch that node's state. At 10^6 senders each node's state
     * is touched once a second and is in no cache then; the hint comes about one wake-up interval
     * of the PC ahead of the send. One hint (a later call replaces it; a null callback removes
     * it); it must not change what the simulation does (a memory hint, memoryhints::NextUse).
     * @param hint called with a virtual-node id
     */
    void SetNextNodeHint(memoryhints::NextUse hint);

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream index
     * @return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * @brief Put the UDP and IPv4 headers of a send_udp datagram in front of its payload, as
     * the sender's kernel builds them (source and destination port, UDP length, IPv4 without
     * options, protocol 17, TTL 1, the header checksum when ns-3's checksums are enabled).
     * @param p the payload (SendUdpHeader and padding)
     * @param src the source address
     * @param group the destination group
     * @param port the UDP source and destination port
     */
    static void AddIpUdpHeaders(Ptr<Packet> p, Ipv4Address src, Ipv4Address group, uint16_t port);

    /**
     * @brief The IPv4 address of a device's interface (the source of the datagrams it sends).
     * @param dev the device
     * @return its first address, or 10.255.255.254 if it has none
     */
    static Ipv4Address SourceAddress(Ptr<NetDevice> dev);

    /**
     * TracedCallback signature for a sent packet.
     * @param [in] nodeId the virtual-node id
     * @param [in] serial its serial number
     * @param [in] timestamp the send timestamp in the payload
     */
    typedef void (*SendTracedCallback)(uint32_t nodeId, uint32_t serial, Time timestamp);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    // HostCpu::ArrivalSource: the wake-up heap.
    bool PeekArrival(HostCpu::ArrivalSource::Arrival& next) const override;
    HostCpu::Completion TakeArrival() override;

    /**
     * Node i wakes up after delay (its start or the end of its sleep): queue it in the wake-up
     * heap and (re)schedule the one wake-up event if it is now the earliest.
     * @param i node index on this PC
     * @param delay time from now
     * @param now the current time (Simulator::Now(), read once by the caller's event)
     */
    void Sleep(uint32_t i, Time delay, Time now);
    /**
     * Build the datagram the sender's kernel builds (payload, UDP and IPv4 headers), the
     * old way: through the headers' Serialize.
     * @param i node index on this PC
     * @param timestamp the send timestamp
     * @return the datagram
     */
    Ptr<Packet> BuildPacket(uint32_t i, Time timestamp) const;
    /** The earliest wake-up is due: every node due now becomes runnable. */
    void Wake();
    /**
     * A virtual node is runnable: its iteration goes to the CPU.
     * @param i node index on this PC
     */
    void Runnable(uint32_t i);
    /**
     * The launcher forked and exec'd one more node (SequentialLaunch).
     * @param i the node's index
     */
    void Launched(uint32_t i);
    /**
     * Launch node i (SequentialLaunch): the launcher's work item.
     * @param i the node's index
     */
    void Launch(uint32_t i);
    /**
     * A virtual node's iteration is done: send, then sleep.
     * @param i node index on this PC
     */
    void Iterated(uint32_t i);
    /**
     * Build and send one packet.
     * @param i node index on this PC
     * @param timestamp the send timestamp
     */
    void SendPacket(uint32_t i, Time timestamp);

    uint32_t m_nNodes;                   //!< Nodes
    uint32_t m_firstNodeId;              //!< FirstNodeId
    Ipv4Address m_group;                 //!< Group
    uint16_t m_port;                     //!< Port
    Time m_interval;                     //!< Interval
    uint32_t m_packetSize;               //!< PacketSize (IP octets)
    Time m_startWindow;                  //!< StartWindow
    double m_loopCycles;                 //!< LoopCost
    uint32_t m_deviceIndex;              //!< Device
    Ptr<UniformRandomVariable> m_rng;    //!< start times
    Ptr<HostPlatform> m_host;            //!< the PC (may be null)
    Ptr<NetDevice> m_device;             //!< the device the datagrams leave
    Address m_destination;               //!< the group's MAC address there
    Ipv4Address m_source;                //!< the device's IPv4 address
    uint32_t m_firstPid;                 //!< process id of node 0
    bool m_sequential;                   //!< SequentialLaunch
    uint32_t m_launcherPid;              //!< the launching shell
    uint32_t m_launched;                 //!< nodes started
    bool m_launchFailed;                 //!< memory exhausted
    Time m_launchEnd;                    //!< last node started
    bool m_running;                      //!< started and not stopped
    uint64_t m_sent;                     //!< packets sent
    std::vector<uint32_t> m_serial;      //!< per node: next serial number
    Callback<void, uint32_t> m_iterated; //!< Iterated: one callback, the node as its tag
    Time m_sendCost;                     //!< send path of one packet
    Time m_iterationCost;                //!< CPU time of one iteration

    /// A pending wake-up.
    struct Wakeup
    {
        int64_t time;  //!< time step of the wake-up
        uint32_t node; //!< node index
    };

    /// The sleeping nodes' wake-ups in the order they fall due: by time, and at one instant in
    /// the order their sleeps began. Every node sleeps the same Interval, so a new wake-up almost
    /// always falls due after every pending one and is appended; the front is the earliest.
    /// (A binary heap gave the same order, but each pop touched log2(Nodes) scattered entries:
    /// with 10^6 senders a cache miss per level.)
    std::deque<Wakeup> m_wakeups;
    Ptr<HostCpu> m_cpu;          //!< the PC's CPU, which takes the wake-ups (null: no PC)
    bool m_starting{false};      //!< StartApplication is queueing the first wake-ups
    fastpath::Event m_wakeEvent; //!< the earliest wake-up's event (no CPU)
    int64_t m_wakeEventTime{-1}; //!< its time step (-1: none pending)
    std::vector<uint32_t> m_due; //!< nodes due at the current wake-up (reused)
    /// The datagram's octets (IPv4, UDP, SendUdpHeader, padding) as BuildPacket serializes
    /// them, for the send to patch the 16 octets that differ (timestamp, node id, serial);
    /// empty when ns-3's checksums are enabled at StartApplication (the UDP checksum covers
    /// the payload; ChecksumEnabled is a program-wide setting made before the simulation).
    std::vector<uint8_t> m_datagram;
    /// The datagram as a frame template when the device is a lean full-duplex port: the send is
    /// a FrameDescriptor (the template and the 16 octets), no ns-3 Packet (null otherwise).
    Ptr<FrameTemplate> m_template;
    FullDuplexEthernetNetDevice* m_lean{nullptr}; //!< the device, if a lean full-duplex port
    Mac48Address m_srcMac;                        //!< its address
    Mac48Address m_dstMac;                        //!< the group's MAC address
    TracedCallback<uint32_t, uint32_t, Time> m_sendTrace; //!< sent packets
    memoryhints::NextUse m_nextNodeHint;                  //!< SetNextNodeHint
};

} // namespace ns3

#endif /* TESTBED_SEND_UDP_H */
