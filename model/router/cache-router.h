/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_CACHE_ROUTER_H
#define TESTBED_CACHE_ROUTER_H

#include "route-cache.h"

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <vector>

/**
 * @file
 * @ingroup testbed-router
 * The forwarding engine of a route-cache router.
 */

namespace ns3
{

class HostCpu;
class Ipv4L3Protocol;

/**
 * @ingroup testbed-router
 * @brief Forwarding of a mid-1990s general-purpose router on its CPU: fast path on a route-cache
 * hit, slow path (routing-table lookup by a process) on a miss.
 *
 * Installed on a Node with ns-3's internet stack (IP forwarding, static or global routes) and a
 * HostPlatform without NIC models (the router's CPU). The router takes the place of the
 * traffic-control layer as the IPv4 receive handler of every IP device; ARP and packets for the
 * router itself go to the stack at no cost. Every packet to be forwarded:
 *
 * 1. runs the interrupt-level fast path (FastPathCost, HARDIRQ class on the CPU): the receive
 *    interrupt, the cache probe and, on a hit, the rewrite and the hand-over to the output
 *    interface; then it is forwarded (by ns-3's IPv4 forwarding, with the same routing table);
 * 2. on a miss, or if fast switching is off for it, the packet is handed to the IP input
 *    process (process switching). Each input interface has its own input hold queue
 *    (InputQueueLimit packets of that interface, waiting or in service; Cisco IOS's
 *    "hold-queue N in", default 75): a packet whose interface already has that many is
 *    dropped, whatever the other interfaces hold. The process takes the packets one by one in
 *    arrival order (SlowPathCost each, PROCESS class, preempted by interrupts), looks the route
 *    up, fills the cache (if fast switching is on for the packet) and forwards it.
 *
 * The router has ONE RouteCache (CacheCapacity entries, [NTT96]'s 8548), shared by all
 * interfaces; fast switching is switched on or off per interface (SetCacheEnabled: Cisco's
 * interface command "ip route-cache"). Whose switch governs a packet (Attribute CacheSide):
 * that of the interface it leaves by (Output, the default: "ip route-cache" enables fast
 * switching out of the interface) or that of the interface it arrived on (Input). A packet
 * whose switch is off is process-switched and enters nothing into the cache; a packet whose
 * switch is on looks its destination up in the one cache, and a miss fills it (if there is
 * room: under FlushAll a full cache takes nothing until its next flush, so while it is full
 * every packet to a destination not in it is process-switched, whichever interface it uses).
 *
 * Where packets are lost (each with its counter and trace source):
 *
 * - the receive ring: each interface holds at most RxRingSize frames whose interrupt-level work
 *   has not been done (0: unbounded); a frame that arrives at a full ring is an overrun (RingDrop);
 * - the input hold queue (QueueDrop), above;
 * - the public buffer pools (BufferPools, Cisco IOS's "show buffers"): a packet handed to the IP
 *   input process needs a public buffer of its size class (Small 104, Middle 600, Big 1 524,
 *   VeryBig 4 520, Large 5 024, Huge 18 024 bytes), taken at interrupt level, where IOS cannot
 *   create buffers: with none free the packet is dropped (PoolDrop, IOS's "failures"). The
 *   buffer is freed when the packet is forwarded. A pool below its min-free, or one that failed,
 *   is grown by the pool manager, a process (PROCESS class: it needs the CPU, after the
 *   interrupts and the packet the IP input process is working on), BufferCreateCost cycles a
 *   buffer, up to min-free free buffers (one more after a failure). Buffers are not trimmed.
 *
 * The IP input process takes the queued packets in arrival order (InputService Fifo) or one per
 * interface in turn (RoundRobin).
 */
class CacheRouter : public Object
{
  public:
    /** The order in which the IP input process takes the interfaces' queued packets. */
    enum Service : uint8_t
    {
        FIFO = 0,        //!< in arrival order, whatever the interface
        ROUND_ROBIN = 1, //!< one packet of each interface with packets queued, in turn
    };

    /** Which interface's cache a packet uses. */
    enum Side : uint8_t
    {
        OUTPUT = 0, //!< the cache of the interface the packet leaves by
        INPUT = 1,  //!< the cache of the interface the packet arrived on
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    CacheRouter();
    ~CacheRouter() override;

    /**
     * @brief Install on a router node: the route cache (configured from the CacheCapacity,
     * CachePolicy and FlushInterval attributes), an input hold queue per IP interface
     * (InputQueueLimit), the router as the IPv4 receive handler. Call after the node's IP
     * addresses are assigned and its HostPlatform installed.
     * @param node the router node
     */
    void Install(Ptr<Node> node);

    /**
     * @brief Switch fast switching of an interface on or off (Cisco's "ip route-cache";
     * default on).
     * @param interface the IPv4 interface index
     * @param enabled whether packets governed by this interface use the route cache
     */
    void SetCacheEnabled(uint32_t interface, bool enabled);

    /**
     * @brief Whether fast switching of an interface is on.
     * @param interface the IPv4 interface index
     * @return true if on
     */
    bool IsCacheEnabled(uint32_t interface) const;

    /**
     * @brief The router's route cache (one, shared by every interface).
     * @return the cache
     */
    Ptr<RouteCache> GetCache() const;

    /**
     * @brief Set an interface's input hold queue (Cisco's "hold-queue N in"; the default is
     * InputQueueLimit).
     * @param interface the IPv4 interface index
     * @param limit packets of that interface waiting for or in process switching
     */
    void SetInputQueueLimit(uint32_t interface, uint32_t limit);

    /**
     * @param interface the IPv4 interface index
     * @return its input hold queue limit
     */
    uint32_t GetInputQueueLimit(uint32_t interface) const;

    /**
     * @brief Entry point for frames from a device (a Node protocol handler).
     * @param device the receiving device
     * @param packet the frame's payload
     * @param protocol the EtherType
     * @param from source address
     * @param to destination address
     * @param packetType host, broadcast, multicast or other-host
     */
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType packetType);

    /** @return packets forwarded by the fast path */
    uint64_t GetFastPath() const;
    /** @return packets forwarded by the slow path */
    uint64_t GetSlowPath() const;
    /** @return packets dropped because their interface's input hold queue was full */
    uint64_t GetQueueDrops() const;
    /** @return the largest number of packets waiting for or in process switching */
    uint32_t GetMaxQueue() const;
    /** @return frames dropped because their interface's receive ring was full (overruns) */
    uint64_t GetRingDrops() const;
    /** @return packets dropped for want of a public buffer at interrupt level (failures) */
    uint64_t GetPoolDrops() const;
    /** @return public buffers the pool manager created */
    uint64_t GetBuffersCreated() const;
    /**
     * @param interface the IPv4 interface index (input)
     * @return frames that arrived on it and found its receive ring full
     */
    uint64_t GetRingDrops(uint32_t interface) const;
    /**
     * @param interface the IPv4 interface index (input)
     * @return packets that arrived on it and found no public buffer
     */
    uint64_t GetPoolDrops(uint32_t interface) const;
    /**
     * @param interface the IPv4 interface index (input)
     * @return packets that arrived on it and were forwarded by the fast path
     */
    uint64_t GetFastPath(uint32_t interface) const;
    /**
     * @param interface the IPv4 interface index (input)
     * @return packets that arrived on it and were forwarded by the slow path
     */
    uint64_t GetSlowPath(uint32_t interface) const;
    /**
     * @param interface the IPv4 interface index (input)
     * @return packets that arrived on it and found its input hold queue full
     */
    uint64_t GetQueueDrops(uint32_t interface) const;
    /**
     * @param interface the IPv4 interface index (input)
     * @return the largest occupancy of its input hold queue
     */
    uint32_t GetMaxQueue(uint32_t interface) const;

    /**
     * TracedCallback signature for a forwarded packet.
     * @param [in] packet the packet (its IPv4 header first)
     * @param [in] delay time from its arrival at the router to its hand-over to the stack
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet, Time delay);

    /**
     * TracedCallback signature for an input-queue drop.
     * @param [in] packet the packet
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet);

  protected:
    void DoDispose() override;

  private:
    /** A packet on its way through the router. */
    struct Frame
    {
        Ptr<NetDevice> device;            //!< input device
        Ptr<const Packet> packet;         //!< the packet
        uint16_t protocol;                //!< EtherType
        Address from;                     //!< source
        Address to;                       //!< destination
        NetDevice::PacketType packetType; //!< type
        Time arrival;                     //!< arrival at the router
        Ipv4Address destination;          //!< the IP destination (the cache's key)
        bool fill;                        //!< fast switching on: fill the cache on a miss
        uint32_t inIf;                    //!< input interface
        uint32_t oif;                     //!< output interface
        bool hit;                         //!< cache hit
        int32_t pool;                     //!< public pool of its buffer (-1: none)
    };

    /** A public buffer pool (IOS "show buffers"). */
    struct Pool
    {
        uint32_t size;      //!< buffer bytes
        uint32_t total;     //!< buffers (permanent + created)
        uint32_t free;      //!< free buffers
        uint32_t minFree;   //!< min-free: the pool manager grows the pool below it
        bool failed{false}; //!< an allocation failed since the pool manager's last run
    };

    /** Per-interface state: the fast-switching switch, the input hold queue, counters. */
    struct Interface
    {
        bool enabled{true};     //!< fast switching on
        uint32_t limit{0};      //!< input hold queue limit
        uint32_t queued{0};     //!< packets of this interface waiting or in service
        uint32_t maxQueued{0};  //!< largest queued
        uint64_t nFast{0};      //!< fast-path forwards (by input interface)
        uint64_t nSlow{0};      //!< slow-path forwards (by input interface)
        uint64_t nDrops{0};     //!< input hold queue drops
        uint32_t inRing{0};     //!< frames in the receive ring (interrupt work not done)
        uint64_t nRingDrops{0}; //!< receive ring overruns
        uint64_t nPoolDrops{0}; //!< public buffer failures
    };

    /** The interrupt-level work of the oldest frame is done. */
    void FastDone();
    /** The slow-path lookup of the oldest queued frame is done. */
    void SlowDone();
    /** Start the slow-path process on the next queued frame, if idle. */
    void MaybeStartSlow();
    /** The pool manager created one buffer. */
    void PoolManagerDone();
    /** Run the pool manager if a pool needs buffers and it is idle. */
    void MaybeGrowPools();
    /**
     * The public pool of a packet.
     * @param bytes the packet's bytes with its MAC header
     * @return the pool's index, or -1 when no pool is large enough
     */
    int32_t PoolOf(uint32_t bytes) const;
    /**
     * An interface's state, or abort naming the caller.
     * @param interface the IPv4 interface index
     * @param caller the public method
     * @return the state
     */
    const Interface& If(uint32_t interface, const char* caller) const;
    /**
     * Hand a frame to the stack.
     * @param frame the frame
     */
    void Deliver(const Frame& frame);

    Ptr<Node> m_node;           //!< the router node
    Ptr<Ipv4L3Protocol> m_ipv4; //!< its IPv4
    Ptr<HostCpu> m_cpu;         //!< its CPU
    Callback<void,
             Ptr<NetDevice>,
             Ptr<const Packet>,
             uint16_t,
             const Address&,
             const Address&,
             NetDevice::PacketType>
        m_up;                     //!< the traffic-control layer's receive
    Ptr<RouteCache> m_cache;      //!< the route cache
    std::vector<Interface> m_ifs; //!< per IPv4 interface
    std::deque<Frame> m_fast;     //!< frames in interrupt-level work (FIFO)
    std::deque<Frame> m_input;    //!< the IP input process's packets (front in service)
    bool m_slowBusy{false};       //!< the process works on a packet of m_input
    std::size_t m_inService{0};   //!< index in m_input of the packet in service
    uint32_t m_nextIf{0};         //!< RoundRobin: the interface served next
    std::vector<Pool> m_pools;    //!< the public buffer pools (BufferPools)
    bool m_poolBusy{false};       //!< the pool manager is creating a buffer
    int32_t m_growing{-1};        //!< the pool it creates a buffer for
    Callback<void> m_poolDoneCb;  //!< PoolManagerDone
    uint32_t m_poolPid{0};        //!< owner id of the pool manager
    Callback<void> m_fastDoneCb;  //!< FastDone
    Callback<void> m_slowDoneCb;  //!< SlowDone
    uint32_t m_pid{0};            //!< owner id of the IP input process

    double m_fastCycles;         //!< FastPathCost
    double m_slowCycles;         //!< SlowPathCost
    uint32_t m_queueLimit;       //!< InputQueueLimit (each interface's default)
    Side m_side;                 //!< CacheSide
    uint32_t m_cacheCapacity;    //!< CacheCapacity
    RouteCache::Policy m_policy; //!< CachePolicy
    Time m_flushInterval;        //!< FlushInterval
    Time m_flushPhase;           //!< FlushPhase
    uint32_t m_ringSize;         //!< RxRingSize
    bool m_usePools;             //!< BufferPools
    double m_createCycles;       //!< BufferCreateCost
    Service m_service;           //!< InputService

    uint64_t m_nFast{0};                                 //!< counter
    uint64_t m_nSlow{0};                                 //!< counter
    uint64_t m_nDrops{0};                                //!< counter
    uint32_t m_maxQueue{0};                              //!< largest m_input
    TracedCallback<Ptr<const Packet>, Time> m_fastTrace; //!< fast-path forwards
    TracedCallback<Ptr<const Packet>, Time> m_slowTrace; //!< slow-path forwards
    TracedCallback<Ptr<const Packet>> m_dropTrace;       //!< input-queue drops
    TracedCallback<Ptr<const Packet>> m_ringDropTrace;   //!< receive ring overruns
    TracedCallback<Ptr<const Packet>> m_poolDropTrace;   //!< public buffer failures
    uint64_t m_nRingDrops{0};                            //!< counter
    uint64_t m_nPoolDrops{0};                            //!< counter
    uint64_t m_nCreated{0};                              //!< counter
};

} // namespace ns3

#endif /* TESTBED_CACHE_ROUTER_H */
