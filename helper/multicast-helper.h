/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_MULTICAST_HELPER_H
#define TESTBED_MULTICAST_HELPER_H

#include "ns3/igmp-l4-protocol.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/snooping-bridge-net-device.h"
#include "ns3/switch-helper.h"

#include <optional>

/**
 * @file
 * @ingroup testbed-multicast
 * Helpers: IGMP on nodes, snooping switches and their links.
 */

namespace ns3
{

class Socket;

/**
 * @ingroup testbed-multicast
 * @brief Installs IgmpL4Protocol on nodes that have an IPv4 stack, makes queriers, and
 * schedules socket-level joins and leaves.
 */
class IgmpHelper
{
  public:
    IgmpHelper();
    /**
     * @brief Set an attribute of the IgmpL4Protocol objects created by Install().
     * @param name the attribute name
     * @param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /**
     * @brief Set the protocol variables of the IgmpL4Protocols to create
     * (IgmpL4Protocol::SetTimers on each, after the attributes of SetAttribute).
     * @param timers the timers
     */
    void SetTimers(const IgmpTimers& timers);
    /**
     * @brief Aggregate IGMP to each node (which must already have Ipv4L3Protocol).
     * @param nodes the nodes
     */
    void Install(NodeContainer nodes) const;
    /**
     * @brief Aggregate IGMP to a node.
     * @param node the node
     * @return the protocol
     */
    Ptr<IgmpL4Protocol> Install(Ptr<Node> node) const;
    /**
     * @brief Run the router part (querier election, group table) on an interface of a node.
     * @param node a node with IGMP installed
     * @param ifIndex the IPv4 interface
     * @param start time of the first startup query
     */
    static void EnableQuerier(Ptr<Node> node, uint32_t ifIndex, Time start = Seconds(0));
    /**
     * @brief Schedule IP_ADD_MEMBERSHIP on a socket.
     * @param at absolute simulation time
     * @param socket the socket
     * @param group the group
     * @param ifIndex interface (-1: see IgmpL4Protocol::JoinGroup)
     */
    static void ScheduleJoin(Time at, Ptr<Socket> socket, Ipv4Address group, int32_t ifIndex = -1);
    /**
     * @brief Schedule IP_DROP_MEMBERSHIP on a socket.
     * @param at absolute simulation time
     * @param socket the socket
     * @param group the group
     * @param ifIndex interface (-1: see IgmpL4Protocol::JoinGroup)
     */
    static void ScheduleLeave(Time at, Ptr<Socket> socket, Ipv4Address group, int32_t ifIndex = -1);
    /**
     * @brief Assign random streams to the IGMP of each node.
     * @param nodes the nodes
     * @param stream the first stream
     * @return the number of streams used
     */
    static int64_t AssignStreams(NodeContainer nodes, int64_t stream);

  private:
    ObjectFactory m_factory;            //!< IgmpL4Protocol factory
    std::optional<IgmpTimers> m_timers; //!< timers set on every new protocol (SetTimers)
};

/**
 * @ingroup testbed-multicast
 * @brief Builds IGMP-snooping switches (SnoopingBridgeNetDevice) and their links: a SwitchHelper
 * whose devices snoop IGMP.
 */
class SnoopingSwitchHelper : public SwitchHelper
{
  public:
    SnoopingSwitchHelper();
    /**
     * @brief Put a snooping switch (no ports yet) on a switch node.
     * @param switchNode the node
     * @return the switch
     */
    Ptr<SnoopingBridgeNetDevice> Install(Ptr<Node> switchNode) const;
};

} // namespace ns3

#endif /* TESTBED_MULTICAST_HELPER_H */
