/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_SNOOPING_BRIDGE_NET_DEVICE_H
#define TESTBED_SNOOPING_BRIDGE_NET_DEVICE_H

#include "igmp-timers.h"
#include "switch-fabric.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <unordered_map>
#include <vector>

/**
 * @file
 * @ingroup testbed-multicast
 * An Ethernet switch that snoops IGMP (RFC 4541) on top of a SwitchFabric.
 */

namespace ns3
{

class FullDuplexEthernetNetDevice;
class Node;

/**
 * @ingroup testbed-multicast
 * @brief A learning Ethernet switch with IGMP snooping (RFC 4541) and a fabric model.
 *
 * Like ns-3's BridgeNetDevice, it is installed on a switch node and given port devices
 * (AddSwitchPort); unlike it, it forwards multicast by IGMP state:
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
 * Frames are not copied: the packet a port received is the one every output port sends
 * (FullDuplexEthernetNetDevice::SendShared), and a copy goes only to ports of other device types
 * (ns-3 devices add their headers to the packet they are given). A copy that finds its port's
 * output queue full is counted (OUTPUT_QUEUE_FULL) when the frame arrives, at no further cost.
 * Frames that arrive as FrameDescriptor on lean ports are forwarded as descriptors through lean
 * ports and as Packets (FrameTemplate::MakePacket) through any other port.
 *
 * A port can be an 802.1Q trunk (SetTrunk): frames leave it with a 4-octet VLAN tag (EtherType
 * 0x8100, then TCI and the inner EtherType) and arrive on it tagged; untagged access ports carry
 * plain frames. Only one VLAN is bridged.
 */
class SnoopingBridgeNetDevice : public NetDevice
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
     * @brief Add a port. The device must support SendFrom (Ethernet-like, e.g. CsmaNetDevice)
     * and belong to the same node.
     * @param port the port device
     * @return the port index
     */
    uint32_t AddSwitchPort(Ptr<NetDevice> port);
    /** @return the number of ports */
    uint32_t GetNPorts() const;
    /**
     * @brief A port device.
     * @param i the port index
     * @return the device
     */
    Ptr<NetDevice> GetPort(uint32_t i) const;
    /**
     * @brief The index of a port device.
     * @param dev the device
     * @return the index, or -1
     */
    int32_t GetPortIndex(Ptr<const NetDevice> dev) const;
    /**
     * @brief Make a port an 802.1Q tagged trunk.
     * @param port the port index
     * @param vlan the VLAN id (1..4094) written into the tag
     */
    void SetTrunk(uint32_t port, uint16_t vlan);
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
    /** @return the fabric */
    Ptr<SwitchFabric> GetFabric() const;
    /**
     * @brief Replace the fabric (before the simulation starts).
     * @param fabric the fabric
     */
    void SetFabric(Ptr<SwitchFabric> fabric);

    // --- NetDevice ---------------------------------------------------------------------------
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

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

  private:
    /// A port.
    struct Port
    {
        Ptr<NetDevice> dev; //!< the device
        /// the device if it is a lean full-duplex port (frames go out of it without a copy)
        FullDuplexEthernetNetDevice* lean{nullptr};
        bool trunk{false};        //!< 802.1Q tagged
        uint16_t vlan{1};         //!< VLAN id on a trunk
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

    /**
     * A lean port received a frame descriptor.
     * @param device the port
     * @param frame the frame
     * @param source its source address
     * @param destination its destination address
     */
    void ReceiveFrameFromPort(Ptr<FullDuplexEthernetNetDevice> device,
                              const FrameDescriptor& frame,
                              Mac48Address source,
                              Mac48Address destination);
    bool ReceiveFromDevice(Ptr<NetDevice> device,
                           Ptr<const Packet> packet,
                           uint16_t protocol,
                           const Address& source,
                           const Address& destination,
                           PacketType packetType);
    void Forward(const SwitchFabric::Frame& frame);
    void SendToPort(uint32_t port, const SwitchFabric::Frame& frame);
    void Flood(const SwitchFabric::Frame& frame);
    void ToRouterPorts(const SwitchFabric::Frame& frame);
    void ToGroup(const SwitchFabric::Frame& frame, uint32_t group);
    bool SnoopIgmp(const SwitchFabric::Frame& frame, const uint8_t* ip, uint32_t ipLen);
    void Join(uint32_t group, uint32_t port);
    void Leave(uint32_t group, uint32_t port);
    void ArmTimer(uint32_t group, Group& g, Time at);
    void GroupTimer(uint32_t group);
    void LearnRouterPort(uint32_t port);
    void DeliverLocal(const SwitchFabric::Frame& frame, PacketType type);

    Ptr<Node> m_node;                                           //!< the switch node
    Ptr<SwitchFabric> m_fabric;                                 //!< the fabric
    std::vector<Port> m_ports;                                  //!< ports
    std::unordered_map<const NetDevice*, uint32_t> m_portIndex; //!< device -> port index
    int m_localUp{-1}; //!< pass frames up the bridge device: -1 not yet known, 0 no, 1 yes
    std::vector<uint32_t> m_routerCandidates;              //!< ports that are or were router ports
    std::unordered_map<uint32_t, Group> m_groups;          //!< group -> members
    std::vector<uint64_t> m_mark;                          //!< per-port stamp for de-duplication
    uint64_t m_stamp{0};                                   //!< current stamp
    Mac48Address m_address;                                //!< bridge address
    uint32_t m_ifIndex{0};                                 //!< interface index
    uint16_t m_mtu{1500};                                  //!< MTU
    NetDevice::ReceiveCallback m_rxCallback;               //!< up-call
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< promiscuous up-call

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
