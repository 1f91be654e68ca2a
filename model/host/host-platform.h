/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_PLATFORM_H
#define TESTBED_HOST_PLATFORM_H

#include "host-cpu.h"
#include "host-nic.h"
#include "host-process.h"

#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/timer-model.h"

#include <map>
#include <vector>

/**
 * @file
 * @ingroup testbed-host
 * The host platform aggregated to a Node.
 */

namespace ns3
{

/**
 * @defgroup testbed-host Host platform model
 * @ingroup testbed
 *
 * The PC under a measurement: CPU run queue, OS scheduling latency, per-packet protocol-stack
 * and NIC interrupt costs, receive rings; processes sleep on the timers of testbed-timer.
 */

/**
 * @ingroup testbed-host
 * @brief The PC behind a Node: CPU, OS timer and scheduling latency, protocol-stack costs, NICs.
 *
 * Aggregated to a Node (node->GetObject<HostPlatform>()). Applications, RTI components and
 * routers charge their work to it: they create HostProcess objects (CreateProcess) and execute
 * their CPU costs there; the send path of a process costs GetSendCost(bytes), reading a received
 * message GetRecvCost(bytes). The NICs (InstallNic) put the kernel's receive processing between
 * the NetDevices and the stack.
 *
 * Parameters are physical (cycles per operation, timer rates, latencies) and come in named
 * profiles (Profile, kind "host"; model/host/host-profiles.cc) applied by HostPlatformHelper.
 */
class HostPlatform : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    HostPlatform();
    ~HostPlatform() override;

    /**
     * @brief The CPU.
     * @return the CPU
     */
    Ptr<HostCpu> GetCpu() const;

    /**
     * @brief The OS timer that processes sleep on by default.
     * @return the timer model
     */
    Ptr<TimerModel> GetTimer() const;

    /**
     * @brief Draw one OS scheduling latency (wake-up event to runnable), >= 0.
     * @return the latency
     */
    Time DrawSchedulingLatency();

    /**
     * @brief How long a process that sleeps now for delay waits until it is runnable again: the
     * timer's firing (TimerModel::GetFireTime), then one scheduling latency.
     * @param timer the timer it sleeps on (null: this host's timer)
     * @param delay the requested sleep
     * @return the time from now until the process is runnable
     */
    Time SleepDelay(Ptr<TimerModel> timer, Time delay);

    /**
     * @brief SleepDelay for a caller that has read the clock already (one read per event).
     * @param timer the timer it sleeps on (null: this host's timer)
     * @param delay the requested sleep
     * @param now the current time (Simulator::Now())
     * @return the time from now until the process is runnable
     */
    Time SleepDelay(Ptr<TimerModel> timer, Time delay, Time now);

    /**
     * @brief Create a process on this host.
     * @return the process (pids are 1, 2, ... in creation order)
     */
    Ptr<HostProcess> CreateProcess();

    /**
     * @brief Reserve a block of process ids for processes that an application keeps itself.
     *
     * An application that runs many light processes (e.g. thousands of send_udp instances
     * multiplexed by one SendUdp) submits their work to the CPU directly, one owner id per
     * process, so that the CPU charges their context switches; the ids must not collide with
     * those of HostProcess objects.
     * @param n number of ids (>= 1)
     * @return the first id of the block (the block is [first, first + n))
     */
    uint32_t ReservePids(uint32_t n);

    /**
     * @brief Take memory for a process (fork): fails when the installed Memory (if any) cannot
     * hold it besides BaseMemory and what earlier allocations took.
     * @param bytes the process's memory (e.g. GetProcessMemory())
     * @return true if allocated
     */
    bool AllocateMemory(uint64_t bytes);

    /**
     * @brief Memory in use: BaseMemory plus every allocation so far.
     * @return octets
     */
    uint64_t GetMemoryUsed() const;

    /**
     * @brief Memory one minimal process occupies (Attribute ProcessMemory).
     * @return octets
     */
    uint64_t GetProcessMemory() const;

    /**
     * @brief CPU time to start one process (Attribute ProcessLaunchCost).
     * @return the time
     */
    Time GetLaunchCost() const;

    /**
     * @brief Cycles of this CPU for work that takes one cycle on the reference architecture of
     * middleware cost profiles (a MIPS R10000; attribute ReferenceCycleFactor).
     * @return the factor
     */
    double GetReferenceCycleFactor() const;

    /**
     * @brief CPU time for a process to send one message of a given size (syscall, transport,
     * IP, driver transmit).
     * @param bytes message size handed to the socket
     * @return service time
     */
    Time GetSendCost(uint32_t bytes) const;

    /**
     * @brief CPU time for a process to receive one message (syscall and copy to user space).
     * @param bytes message size read from the socket
     * @return service time
     */
    Time GetRecvCost(uint32_t bytes) const;

    /**
     * @brief CPU time of one cheap system call of this OS (lmbench's null I/O: a write of one
     * word to /dev/null): a clock read by gettimeofday, a semaphore operation that does not
     * block, a non-blocking read that finds nothing (attribute SyscallCost).
     * @return service time
     */
    Time GetSyscallCost() const;

    /**
     * @brief CPU time a process spends on its own CPU for one blocking wait that another CPU's
     * event ends (attribute WaitCost): the part of a blocking call beyond its entry, the switch
     * away, and the wake-up path and switch back when woken (lmbench: pipe latency minus two
     * system calls).
     * @return service time
     */
    Time GetWaitCost() const;

    /**
     * @brief CPU time a sending process spends per datagram off the datagram's path (attribute
     * SendOffPathCost): the rest of the send call after the frame was handed to the device, and
     * the reclaiming of transmitted buffers done in the caller's context.
     * @return service time
     */
    Time GetSendOffPathCost() const;

    /**
     * @brief CPU time a reading process spends per datagram read off its path (attribute
     * RecvOffPathCost): buffer and socket bookkeeping after the data is in user space.
     * @return service time
     */
    Time GetRecvOffPathCost() const;

    /**
     * @brief The kernel's transmit-completion work for one frame sent, on the interrupt core
     * (attribute TxCompletionCost: the completion interrupt, freeing the buffer); submitted as
     * HARDIRQ work of the kernel. Nothing when the cost is 0.
     */
    void NotifyTransmitted();

    /**
     * @brief Bytes a UDP socket's receive buffer holds by default (SO_RCVBUF; attribute
     * UdpReceiveBuffer, 0 = unlimited).
     * @return bytes
     */
    uint32_t GetUdpReceiveBuffer() const;

    /**
     * @brief Bytes a queued datagram of a given size counts against the receive buffer: its
     * size or the kernel's buffer for it (attribute SocketBufferCharge), whichever is larger.
     * @param bytes the datagram's payload
     * @return bytes charged
     */
    uint32_t GetSocketBufferCharge(uint32_t bytes) const;

    /**
     * @brief Packets the interface's transmit queue holds (Linux txqueuelen, BSD ifq_maxlen;
     * attribute TxQueueLength).
     * @return packets
     */
    uint32_t GetTxQueueLength() const;

    /**
     * @brief Put a NIC receive-path model between a device of this node and its stack.
     *
     * Must be called after the device's IP interface exists (after Ipv4AddressHelper::Assign):
     * the model takes the place of the node's protocol handlers that ns-3's internet stack
     * registered for the device.
     * @param device a device of this node
     * @return the NIC model (already configured from this platform's NIC factory)
     */
    Ptr<HostNic> InstallNic(Ptr<NetDevice> device);

    /**
     * @brief The NIC model of a device.
     * @param device the device
     * @return the NIC model, or null if none is installed
     */
    Ptr<HostNic> GetNic(Ptr<NetDevice> device) const;

    /**
     * A UDP multicast datagram that BindUdpMulticast delivers: an ns-3 Packet (the frame's
     * payload: the IPv4 datagram, possibly followed by link-layer padding) or a frame descriptor
     * of the lean path (FrameDescriptor: no Packet is made for it).
     */
    struct UdpDatagram
    {
        Ipv4Address group;                     //!< the destination group
        uint32_t offset{0};                    //!< where the UDP payload starts in the frame
        uint32_t size{0};                      //!< the UDP payload's size (IPv4 total length)
        Ptr<const Packet> packet;              //!< the frame's payload, or null
        const FrameDescriptor* frame{nullptr}; //!< the frame, when packet is null

        /**
         * @brief Copy the start of the UDP payload.
         * @param buf where to
         * @param n octets (at most size; at most 64)
         */
        void CopyPayload(uint8_t* buf, uint32_t n) const;
    };

    /** Receiver of the UDP datagrams that BindUdpMulticast binds. */
    typedef Callback<void, const UdpDatagram&> UdpMulticastSink;

    /**
     * @brief Deliver the UDP datagrams to multicast groups on @p port straight from the kernel's
     * receive path (the NIC models' softirq) to @p sink, without ns-3's IPv4 and UDP layers.
     *
     * For the heavy multicast of [MEGA06] (10^6 send_udp datagrams per second): ns-3's
     * Ipv4L3Protocol, routing and UdpL4Protocol add no simulated time and no event on this
     * path (their CPU cost is the NIC model's StackCost), only simulator work. A datagram takes
     * this path if it is IPv4 without options (IHL 5), not a fragment, UDP, to a multicast
     * group, whole (total length within the frame), the port is bound here and ns-3's checksums
     * are off (Node::ChecksumEnabled; with them on, the stack verifies them as before); anything
     * else (IGMP, ARP, other ports and traffic) goes up the stack. A null sink means no program
     * listens: the datagram is discarded, as ns-3's UDP does for a multicast datagram without an
     * endpoint (and as the kernel does for a group the host has not joined). Binding a port
     * replaces its earlier binding; no ns-3 socket of this node may be bound to it.
     * @param port the UDP destination port
     * @param sink the receiver (null: discard)
     */
    void BindUdpMulticast(uint16_t port, UdpMulticastSink sink);

    /**
     * @brief Remove a binding of BindUdpMulticast (the port's datagrams go up the stack again).
     * @param port the UDP destination port
     */
    void UnbindUdpMulticast(uint16_t port);

    /**
     * @brief Set the factory that configures new NIC models (done by the helper).
     * @param factory an ObjectFactory for ns3::HostNic
     */
    void SetNicFactory(const ObjectFactory& factory);

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream index
     * @return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;
    void DoInitialize() override;
    void NotifyNewAggregate() override;

  private:
    /** Re-register the node's protocol handlers with NIC models in front where installed. */
    void Interpose();
    /** Install (or remove) DeliverUdpMulticast on every NIC model, as bindings exist. */
    void UpdateIntercepts();
    /**
     * A NIC model's processed frame: a datagram of a bound UDP multicast port goes to its sink.
     * @param packet the frame's payload
     * @param protocol its EtherType
     * @return true if it was taken (delivered or discarded)
     */
    bool DeliverUdpMulticast(Ptr<const Packet> packet, uint16_t protocol);
    /**
     * A NIC model's processed frame descriptor: the same for frames of the lean path.
     * @param frame the frame
     * @return true if it was taken (delivered or discarded)
     */
    bool DeliverUdpMulticastFrame(const FrameDescriptor& frame);
    /**
     * Node::ChecksumEnabled, read at the first datagram of this node and remembered.
     * @return true if ns-3's checksums are on
     */
    bool ChecksumsOn();

    /// A bound UDP port.
    struct UdpBinding
    {
        uint16_t port;         //!< the port
        UdpMulticastSink sink; //!< its receiver (null: discard)
    };

    Ptr<Node> m_node;                              //!< our node
    Ptr<HostCpu> m_cpu;                            //!< the CPU
    Ptr<TimerModel> m_timer;                       //!< default process timer
    Ptr<RandomVariableStream> m_schedLatency;      //!< seconds
    double m_sendCycles;                           //!< SendCost
    double m_sendCyclesPerByte;                    //!< SendCostPerByte
    double m_recvCycles;                           //!< RecvCost
    double m_recvCyclesPerByte;                    //!< RecvCostPerByte
    std::string m_profile;                         //!< profile name (information)
    double m_referenceCycleFactor;                 //!< ReferenceCycleFactor
    uint32_t m_nextPid;                            //!< next process id
    std::vector<Ptr<HostProcess>> m_processes;     //!< processes (for disposal)
    std::map<Ptr<NetDevice>, Ptr<HostNic>> m_nics; //!< NIC models
    std::vector<UdpBinding> m_udpBindings;         //!< BindUdpMulticast (a few ports)
    int8_t m_checksums{-1};                        //!< ChecksumsOn (-1: not read yet)
    ObjectFactory m_nicFactory;                    //!< configures NIC models
    uint64_t m_memory;                             //!< Memory (0 = unlimited)
    uint64_t m_baseMemory;                         //!< BaseMemory
    uint64_t m_allocated;                          //!< allocations so far
    uint64_t m_processMemory;                      //!< ProcessMemory
    double m_launchCycles;                         //!< ProcessLaunchCost
    double m_syscallCycles;                        //!< SyscallCost
    double m_waitCycles;                           //!< WaitCost
    double m_sendOffCycles;                        //!< SendOffPathCost
    double m_recvOffCycles;                        //!< RecvOffPathCost
    double m_txCompletionCycles;                   //!< TxCompletionCost
    uint32_t m_udpRcvBuf;                          //!< UdpReceiveBuffer
    uint32_t m_sockCharge;                         //!< SocketBufferCharge
    uint32_t m_txQueueLength;                      //!< TxQueueLength
};

} // namespace ns3

#endif /* TESTBED_HOST_PLATFORM_H */
