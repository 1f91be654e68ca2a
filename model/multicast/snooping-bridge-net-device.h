/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_SNOOPING_BRIDGE_NET_DEVICE_H
#define TESTBED_SNOOPING_BRIDGE_NET_DEVICE_H

#include "igmp-timers.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/switch-net-device.h"
#include "ns3/traced-callback.h"

#include <unordered_map>
#include <vector>

/**
 * @file
 * @ingroup testbed-multicast
 * IGMP snooping (RFC 4541): the multicast forwarding of a SwitchNetDevice.
 */

namespace ns3
{

/**
 * @ingroup testbed-multicast
 * @brief A learning Ethernet switch (SwitchNetDevice: ports, fabric, MAC learning, 802.1Q
 * trunks) that forwards multicast by IGMP snooping (RFC 4541).
 *
 * It plugs into SwitchNetDevice's multicast forwarding (ForwardGroup) and forwards multicast
 * by IGMP state; unicast and broadcast are the switch's:
 *
 * - queries: the ingress port becomes a router port for RouterPortTimeout (ports can also be
 *   made router ports statically); queries are flooded;
 * - reports (v1/v2, and v3 records that are not INCLUDE({})): the ingress port becomes a
 *   member of the group for MembershipInterval; reports are forwarded to router ports only
 *   (RFC 4541 2.1.1 (1)) so that hosts do not suppress each other's reports;
 * - leaves (v2 leave, v3 TO_IN({})/IS_IN({})): with FastLeave the port is removed at once;
 *   otherwise its membership timer is cut to LastMemberQueryCount * LastMemberQueryInterval
 *   (the querier's group-specific queries refresh it if other members remain); leaves go to
 *   router ports only;
 * - data to 224.0.0.0/24: flooded (RFC 4541 2.1.2 (2));
 * - data to a registered group: to its member ports and the router ports;
 * - data to an unregistered group: UnregisteredPolicy (FLOOD, or ROUTER_PORTS);
 * - Snooping=false: all multicast is flooded (stock bridge behaviour).
 *
 * Groups are IPv4 addresses (not MAC addresses: no 32:1 ambiguity), kept in a hash map with
 * one small vector of (port, expiry) per group; per-frame work is a hash lookup plus the
 * output ports. Membership timers are lazy: one event per group at its earliest expiry.
 *
 * The TypeId keeps its name (ns3::SnoopingBridgeNetDevice, parent ns3::SwitchNetDevice): Config
 * paths and --ns3::SnoopingBridgeNetDevice::Attr options name it; Mtu and Fabric are the
 * parent's attributes.
 */
class SnoopingBridgeNetDevice : public SwitchNetDevice
{
  public:
    /// What to do with multicast data for groups that have no members.
    enum UnregisteredPolicy : uint8_t
    {
        FLOOD = 0,        //!< to every port
        ROUTER_PORTS = 1, //!< to router ports only
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    SnoopingBridgeNetDevice();
    ~SnoopingBridgeNetDevice() override;

    /**
     * @brief Take the switch's IGMP timing from the querier's protocol variables: the port
     * membership timeout is their Group Membership Interval, a learned router port lives for
     * their Other Querier Present Interval, and leaves use their Last Member Query Interval and
     * Count (RFC 4541 2.1.1 asks a snooping switch to follow the querier's timers).
     * @param timers the querier's timers
     */
    void SetTimers(const IgmpTimers& timers);

    /**
     * @brief Configure a port as a static multicast router port (or undo it).
     * @param port the port index
     * @param router true for a static router port
     */
    void SetStaticRouterPort(uint32_t port, bool router);
    /**
     * @brief Is a port a router port now (static or learned and unexpired)?
     * @param port the port index
     * @return true if so
     */
    bool IsRouterPort(uint32_t port) const;
    /**
     * @brief The member ports of a group now (unexpired memberships).
     * @param group the group
     * @return port indices in ascending order
     */
    std::vector<uint32_t> GetMemberPorts(Ipv4Address group) const;
    /**
     * @brief The ports that data to @p group arriving on @p inPort would leave through now
     * (the forwarding set; random drops and queues aside).
     * @param group the group
     * @param inPort the ingress port
     * @return port indices in ascending order
     */
    std::vector<uint32_t> GetForwardingSet(Ipv4Address group, uint32_t inPort) const;
    /**
     * TracedCallback signature for membership changes.
     * @param [in] group the group
     * @param [in] port the port
     * @param [in] member true when the port joined, false when it left or timed out
     */
    typedef void (*MembershipTracedCallback)(Ipv4Address group, uint32_t port, bool member);
    /**
     * TracedCallback signature for router-port changes.
     * @param [in] port the port
     * @param [in] router true when it became a router port
     */
    typedef void (*RouterPortTracedCallback)(uint32_t port, bool router);

  protected:
    void DoDispose() override;
    void ForwardGroup(const SwitchFabric::Frame& frame) override;
    void NotifyPortAdded(uint32_t port) override;

  private:
    /// A port's multicast-router state.
    struct RouterState
    {
        bool staticRouter{false}; //!< configured router port
        Time routerUntil;         //!< learned router port expiry
    };

    /// A member port of a group.
    struct Member
    {
        uint32_t port; //!< port index
        Time expiry;   //!< membership expiry
    };

    /// Per-group state.
    struct Group
    {
        std::vector<Member> members; //!< member ports
        EventId timer;               //!< next expiry check
        Time timerAt;                //!< when it fires
    };

    void ToRouterPorts(const SwitchFabric::Frame& frame);
    void ToGroup(const SwitchFabric::Frame& frame, uint32_t group);
    bool SnoopIgmp(const SwitchFabric::Frame& frame, const uint8_t* ip, uint32_t ipLen);
    void Join(uint32_t group, uint32_t port);
    void Leave(uint32_t group, uint32_t port);
    void ArmTimer(uint32_t group, Group& g, Time at);
    void GroupTimer(uint32_t group);
    void LearnRouterPort(uint32_t port);

    std::vector<RouterState> m_routerState;       //!< per port
    std::vector<uint32_t> m_routerCandidates;     //!< ports that are or were router ports
    std::unordered_map<uint32_t, Group> m_groups; //!< group -> members
    std::vector<uint64_t> m_mark;                 //!< per-port stamp for de-duplication
    uint64_t m_stamp{0};                          //!< current stamp

    bool m_snooping;                   //!< snooping on
    UnregisteredPolicy m_unregistered; //!< unregistered-multicast policy
    bool m_fastLeave;                  //!< fast leave
    Time m_membershipInterval;         //!< port membership timeout
    Time m_routerPortTimeout;          //!< learned router port timeout
    Time m_lastMemberInterval;         //!< LMQI
    uint32_t m_lastMemberCount;        //!< LMQC

    TracedCallback<Ipv4Address, uint32_t, bool> m_membershipTrace; //!< membership changes
    TracedCallback<uint32_t, bool> m_routerPortTrace;              //!< router port changes
    TracedCallback<Ptr<const Packet>, uint32_t> m_malformedTrace;  //!< malformed IGMP
};

} // namespace ns3

#endif /* TESTBED_SNOOPING_BRIDGE_NET_DEVICE_H */
