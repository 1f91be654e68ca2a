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
 * 2. on a miss, or if the cache it would use is switched off, the packet joins the input queue
 *    of the IP input process (InputQueueLimit packets, waiting or in service; a packet that
 *    finds it full is dropped). The process takes the packets one by one (SlowPathCost each,
 *    PROCESS class, preempted by interrupts), looks the route up, fills the cache (if it is on)
 *    and forwards the packet.
 *
 * Each IP interface has its own RouteCache, switched on or off (SetCacheEnabled). Which
 * interface's cache a packet uses (Attribute CacheSide): the output interface's (Output, the
 * default: Cisco's "ip route-cache" is configured on, and builds entries for, the interface a
 * packet leaves by) or the input interface's (Input).
 */
class CacheRouter : public Object
{
  public:
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
     * @brief Install on a router node: one cache per IP interface (configured from the
     * CacheCapacity, CachePolicy and FlushInterval attributes), the router as the IPv4 receive
     * handler. Call after the node's IP addresses are assigned and its HostPlatform installed.
     * @param node the router node
     */
    void Install(Ptr<Node> node);

    /**
     * @brief Switch an interface's route cache on or off (default on).
     * @param interface the IPv4 interface index
     * @param enabled whether the cache is used
     */
    void SetCacheEnabled(uint32_t interface, bool enabled);

    /**
     * @brief Whether an interface's cache is on.
     * @param interface the IPv4 interface index
     * @return true if on
     */
    bool IsCacheEnabled(uint32_t interface) const;

    /**
     * @brief An interface's cache.
     * @param interface the IPv4 interface index
     * @return the cache
     */
    Ptr<RouteCache> GetCache(uint32_t interface) const;

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
    /** @return packets dropped because the input queue was full */
    uint64_t GetQueueDrops() const;
    /** @return the largest input-queue occupancy seen */
    uint32_t GetMaxQueue() const;

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
        int32_t cacheIf;                  //!< interface whose cache to fill (-1: none)
        uint32_t oif;                     //!< output interface
        bool hit;                         //!< cache hit
    };

    /** The interrupt-level work of the oldest frame is done. */
    void FastDone();
    /** The slow-path lookup of the oldest queued frame is done. */
    void SlowDone();
    /** Start the slow-path process on the next queued frame, if idle. */
    void MaybeStartSlow();
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
        m_up;                              //!< the traffic-control layer's receive
    std::vector<Ptr<RouteCache>> m_caches; //!< per IPv4 interface
    std::vector<bool> m_enabled;           //!< per IPv4 interface
    std::deque<Frame> m_fast;              //!< frames in interrupt-level work (FIFO)
    std::deque<Frame> m_input;             //!< input queue of the IP process (front in service)
    bool m_slowBusy{false};                //!< the process works on m_input.front()
    Callback<void> m_fastDoneCb;           //!< FastDone
    Callback<void> m_slowDoneCb;           //!< SlowDone
    uint32_t m_pid{0};                     //!< owner id of the IP input process

    double m_fastCycles;         //!< FastPathCost
    double m_slowCycles;         //!< SlowPathCost
    uint32_t m_queueLimit;       //!< InputQueueLimit
    Side m_side;                 //!< CacheSide
    uint32_t m_cacheCapacity;    //!< CacheCapacity
    RouteCache::Policy m_policy; //!< CachePolicy
    Time m_flushInterval;        //!< FlushInterval

    uint64_t m_nFast{0};                                 //!< counter
    uint64_t m_nSlow{0};                                 //!< counter
    uint64_t m_nDrops{0};                                //!< counter
    uint32_t m_maxQueue{0};                              //!< largest occupancy
    TracedCallback<Ptr<const Packet>, Time> m_fastTrace; //!< fast-path forwards
    TracedCallback<Ptr<const Packet>, Time> m_slowTrace; //!< slow-path forwards
    TracedCallback<Ptr<const Packet>> m_dropTrace;       //!< input-queue drops
};

} // namespace ns3

#endif /* TESTBED_CACHE_ROUTER_H */
