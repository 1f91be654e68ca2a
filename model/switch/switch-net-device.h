/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_SWITCH_NET_DEVICE_H
#define TESTBED_SWITCH_NET_DEVICE_H

#include "switch-fabric.h"

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

/**
 * @file
 * @ingroup testbed-switch
 * A learning Ethernet switch on a SwitchFabric.
 */

namespace ns3
{

class EthernetPort;
class Node;

/**
 * @defgroup testbed-switch Ethernet switch
 * A store-and-forward learning Ethernet switch (SwitchNetDevice) and its fabric (SwitchFabric:
 * forwarding engine, MAC table, random drop), with 802.1Q trunks; multicast forwarding plugs in
 * by subclassing (SnoopingBridgeNetDevice, IGMP snooping, in the multicast family).
 */

/**
 * @ingroup testbed-switch
 * @brief A learning Ethernet switch (IEEE 802.1D transparent bridging) on a SwitchFabric.
 *
 * Like ns-3's BridgeNetDevice, it is installed on a switch node and given port devices
 * (AddSwitchPort); every frame a port receives goes through the fabric's forwarding engine,
 * then:
 *
 * - its source address is learned on its ingress port (the fabric's MAC table);
 * - broadcast is flooded to every other port;
 * - group-addressed (multicast) frames go to ForwardGroup(), which floods them here; a
 *   subclass that knows group memberships overrides it (SnoopingBridgeNetDevice);
 * - unicast goes to the port its destination was learned on, is flooded when unknown, and is
 *   dropped (FILTERED) when that port is the ingress port.
 *
 * Frames for the switch's own address, broadcast and multicast are passed up when the switch
 * node has an IPv4 interface on the switch device (a managed switch).
 *
 * A port can be an 802.1Q trunk (SetTrunk): frames leave it with a 4-octet VLAN tag (EtherType
 * 0x8100, then TCI and the inner EtherType) and arrive on it tagged; untagged access ports carry
 * plain frames. Only one VLAN is bridged.
 *
 * Ports are Ethernet ports (EthernetPort: the lean full-duplex MAC, or the 802.3 CSMA/CD MAC
 * for a half-duplex port); another NetDevice that supports SendFrom is accepted too. Frames are
 * not copied by the switch: the packet a port received is the one every Ethernet output port is
 * given (EthernetPort::SendShared; the lean MAC sends it as it is, the CSMA/CD MAC frames a copy
 * of its own), and a copy goes only to ports of other device types (ns-3 devices add their
 * headers to the packet they are given). A frame that finds its port's output queue full is
 * counted (OUTPUT_QUEUE_FULL). Frames that arrive as FrameDescriptor are forwarded as
 * descriptors through Ethernet access ports (EthernetPort::SendFrame: the lean MAC keeps them as
 * descriptors, the CSMA/CD MAC makes the Packet) and as Packets (FrameTemplate::MakePacket)
 * through any other port.
 */
class SwitchNetDevice : public NetDevice
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    SwitchNetDevice();
    ~SwitchNetDevice() override;

    /**
     * @brief Add a port. The device must support SendFrom (an EthernetPort or another
     * Ethernet-like device) and belong to the same node.
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
     * @brief A frame that leaves through a port goes to a callback instead (a run split over
     * processes, doc/mega.rst: the port's queue is simulated by another process). The
     * callback runs where the port would have taken the frame, in the ingress port's event.
     * @param port the port index
     * @param divert the callback (null: the port sends again)
     */
    void SetPortDivert(uint32_t port, Callback<void, const SwitchFabric::Frame&> divert);

    /**
     * @brief Send a frame through a port as the forwarding decision would (a frame diverted in
     * another process of a split run, SetPortDivert): the port's link, random drop, queue and
     * counters.
     * @param port the port index
     * @param frame the frame
     */
    void InjectToPort(uint32_t port, const SwitchFabric::Frame& frame);

  protected:
    /** The ingress port of frames the switch sends itself (SendFrom). */
    static constexpr uint32_t LOCAL_PORT = UINT32_MAX;

    void DoDispose() override;

    /**
     * @brief Forward a group-addressed (multicast, not broadcast) frame, once it has been
     * passed up locally: here, flood it.
     * @param frame the frame
     */
    virtual void ForwardGroup(const SwitchFabric::Frame& frame);
    /**
     * @brief A port was added (AddSwitchPort), for per-port state of a subclass.
     * @param port its index
     */
    virtual void NotifyPortAdded(uint32_t port);
    /**
     * @brief Send a frame through a port (random drop, 802.1Q tag on a trunk): the frame itself
     * through an Ethernet port, a copy through any other device.
     * @param port the port index
     * @param frame the frame
     */
    void SendToPort(uint32_t port, const SwitchFabric::Frame& frame);
    /**
     * @brief Send a frame through every port but its ingress port.
     * @param frame the frame
     */
    void Flood(const SwitchFabric::Frame& frame);

  private:
    /// A port.
    struct Port
    {
        Ptr<NetDevice> dev; //!< the device
        /// the device if it is an Ethernet port (EthernetPort: shared packets, descriptors)
        EthernetPort* eth{nullptr};
        bool trunk{false};                                 //!< 802.1Q tagged
        uint16_t vlan{1};                                  //!< VLAN id on a trunk
        Callback<void, const SwitchFabric::Frame&> divert; //!< SetPortDivert
    };

    /**
     * @brief Mark a frame for an early decision (the fabric's ForwardingMode) if its input
     * operates full duplex.
     * @param frame the frame
     * @param payload its payload on the input link (an 802.1Q tag included)
     */
    void MarkEarly(SwitchFabric::Frame& frame, uint32_t payload) const;

    /**
     * @brief Does a frame decided early start before now on this output?
     * @param frame the frame
     * @param out the output port
     * @return true if the output operates full duplex at the input's rate
     */
    bool StartsEarly(const SwitchFabric::Frame& frame, const EthernetPort* out) const;

    /**
     * @brief An Ethernet port received a frame descriptor.
     * @param device the port
     * @param frame the frame
     * @param source its source address
     * @param destination its destination address
     */
    void ReceiveFrameFromPort(Ptr<EthernetPort> device,
                              const FrameDescriptor& frame,
                              Mac48Address source,
                              Mac48Address destination);

    /**
     * @brief A port received a frame (its promiscuous receive callback).
     * @param device the port device
     * @param packet the frame's payload
     * @param protocol its EtherType
     * @param source its source address
     * @param destination its destination address
     * @param packetType its type as the port saw it
     * @return true
     */
    bool ReceiveFromDevice(Ptr<NetDevice> device,
                           Ptr<const Packet> packet,
                           uint16_t protocol,
                           const Address& source,
                           const Address& destination,
                           PacketType packetType);
    /**
     * @brief The forwarding decision of a frame the engine has served.
     * @param frame the frame
     */
    void Forward(const SwitchFabric::Frame& frame);
    /**
     * @brief Pass a frame up the switch device (a managed switch's own stack).
     * @param frame the frame
     * @param type its packet type
     */
    void DeliverLocal(const SwitchFabric::Frame& frame, PacketType type);

    Ptr<Node> m_node;                                           //!< the switch node
    Ptr<SwitchFabric> m_fabric;                                 //!< the fabric
    std::vector<Port> m_ports;                                  //!< ports
    std::unordered_map<const NetDevice*, uint32_t> m_portIndex; //!< device -> port index
    int m_localUp{-1};      //!< pass frames up the switch device: -1 not yet known, 0 no, 1 yes
    Mac48Address m_address; //!< switch address
    uint32_t m_ifIndex{0};  //!< interface index
    uint16_t m_mtu{1500};   //!< MTU
    NetDevice::ReceiveCallback m_rxCallback;               //!< up-call
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< promiscuous up-call
};

} // namespace ns3

#endif /* TESTBED_SWITCH_NET_DEVICE_H */
