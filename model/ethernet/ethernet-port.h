/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_ETHERNET_PORT_H
#define TESTBED_ETHERNET_PORT_H

#include "ethernet-framing.h"
#include "frame-descriptor.h"

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <cstdint>

/**
 * @file
 * @ingroup testbed-ethernet
 * What every Ethernet port of the module is, whatever its MAC.
 */

namespace ns3
{

/**
 * @ingroup testbed-ethernet
 * @brief One Ethernet port (a NIC or a switch port): the part of an IEEE 802.3 station that does
 * not depend on how its MAC gets a frame onto the wire.
 *
 * The module has two MACs on this base:
 * - EthernetNetDevice: the 802.3 clause 4 MAC, half duplex with CSMA/CD or full duplex, with an
 *   ns-3 transmit queue and an event per signal edge (EthernetChannel, EthernetHub);
 * - FullDuplexEthernetNetDevice: a lean full-duplex MAC, one simulator event per frame and hop
 *   (FullDuplexEthernetChannel), which may carry frames as FrameDescriptor.
 *
 * The port holds the MAC address, the interface index, the MTU, the node, the receive callbacks
 * (Packets, and frame descriptors for receivers that take them), the link-change callbacks, the
 * frame counters every MAC keeps, and the MAC-level trace sources (MacTx, MacTxDrop, MacRx,
 * MacPromiscRx, Sniffer, PromiscSniffer). The framing constants (EthernetFraming) are reachable
 * through it. A switch or a host's NIC model works with any port through SendShared, SendFrame
 * and SetFrameReceiveCallback: a MAC that has no descriptor path makes a Packet of the frame.
 */
class EthernetPort
    : public NetDevice
    , public EthernetFraming
{
  public:
    /// Frame counters every MAC keeps (since the start).
    struct Counters
    {
        uint64_t txFrames{0}; //!< frames sent (accepted for transmission by the lean MAC)
        uint64_t txBytes{0};  //!< their octets, header to FCS
        uint64_t rxFrames{0}; //!< frames received
        uint64_t rxBytes{0};  //!< their octets, header to FCS
    };

    /**
     * Callback of a receiver that takes frame descriptors (the switch, a host's NIC model): the
     * port, the frame, its source and destination addresses.
     */
    typedef Callback<void, Ptr<EthernetPort>, const FrameDescriptor&, Mac48Address, Mac48Address>
        FrameReceiveCallback;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    EthernetPort();
    ~EthernetPort() override;

    /** @return the MAC address of this port (as GetAddress, without an ns-3 Address) */
    Mac48Address GetMacAddress() const
    {
        return m_address;
    }

    /** @return the frame counters */
    virtual const Counters& GetCounters() const = 0;

    /**
     * @brief Send a frame without taking the packet over: the caller's packet is not changed
     * (it may go out of other ports too). A MAC that adds its header to the packet it sends
     * works on a copy.
     * @param packet the payload (after the Ethernet header)
     * @param source the source address
     * @param dest the destination address
     * @param protocol the EtherType
     * @return false if dropped (queue full, too large, link down)
     */
    virtual bool SendShared(Ptr<const Packet> packet,
                            Mac48Address source,
                            Mac48Address dest,
                            uint16_t protocol)
        = 0;

    /**
     * @brief Send a frame given by its descriptor (a FrameTemplate and its variable octets).
     * This base sends the Packet the descriptor stands for (FrameDescriptor::MakePacket); a MAC
     * with a descriptor path overrides it.
     * @param frame the frame
     * @param source the source address
     * @param dest the destination address
     * @return false if dropped (queue full, too large, link down)
     */
    virtual bool SendFrame(const FrameDescriptor& frame, Mac48Address source, Mac48Address dest);

    /** @return whether the MAC operates full duplex (after negotiation) */
    virtual bool IsFullDuplex() const = 0;
    /** @return the link's operating rate (after negotiation) */
    virtual DataRate GetLinkRate() const = 0;

    /**
     * @brief Send a frame that a cut-through switch forwards (SwitchFabric ForwardingMode): its
     * transmission may have started at @p earliest, a time already past (the switch had its
     * destination address then), if this transmitter was free from then on; otherwise it starts
     * when the transmitter is free, as by SendShared. A MAC that does not operate full duplex
     * sends it as by SendShared (a half-duplex transmitter defers to the carrier from now).
     *
     * The start is decided at the call (the frame's last bit in at the switch): a frame that
     * another took the transmitter from between @p earliest and now waits behind it, although
     * a cut-through switch would have started it first.
     * @param packet the payload (after the Ethernet header)
     * @param source the source address
     * @param dest the destination address
     * @param protocol the EtherType
     * @param earliest the earliest start of the frame's preamble (not after now)
     * @return false if dropped (queue full, too large, link down)
     */
    bool SendSharedCutThrough(Ptr<const Packet> packet,
                              Mac48Address source,
                              Mac48Address dest,
                              uint16_t protocol,
                              Time earliest);

    /**
     * @brief SendSharedCutThrough for a frame given by its descriptor.
     * @param frame the frame
     * @param source the source address
     * @param dest the destination address
     * @param earliest the earliest start of the frame's preamble (not after now)
     * @return false if dropped (queue full, too large, link down)
     */
    bool SendFrameCutThrough(const FrameDescriptor& frame,
                             Mac48Address source,
                             Mac48Address dest,
                             Time earliest);

    /**
     * @brief Let a receiver take the frames that arrive as descriptors; without one they reach
     * the receive callbacks as ns-3 Packets (FrameTemplate::MakePacket). The receiver gets every
     * such frame, whatever its destination (it filters like a promiscuous receiver). A MAC that
     * never receives descriptors never calls it.
     * @param cb the receiver (null: Packets)
     */
    void SetFrameReceiveCallback(FrameReceiveCallback cb);

    // --- NetDevice ----------------------------------------------------------------------------
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

    /**
     * @brief The packet type of a received frame, as a NIC sees its destination.
     * @param dest the destination address
     * @return broadcast, multicast, host (this port's address) or other host
     */
    NetDevice::PacketType Classify(Mac48Address dest) const;

    /** @brief Tell the link-change callbacks that the link came up. */
    void NotifyLinkChange();

    Mac48Address m_address;                              //!< Address (attribute of each MAC)
    uint16_t m_mtu{MAX_PAYLOAD};                         //!< Mtu (attribute of each MAC)
    Ptr<Node> m_node;                                    //!< node
    uint32_t m_ifIndex{0};                               //!< interface index
    NetDevice::ReceiveCallback m_rxCallback;             //!< receive callback
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< promiscuous callback
    FrameReceiveCallback m_frameCallback;                //!< takes descriptors (may be null)
    /// The earliest start of the frame being sent by a SendSharedCutThrough or
    /// SendFrameCutThrough call (only during that call; Time::Max() otherwise): the MAC's
    /// transmitter reads it when it takes the frame.
    Time m_cutThroughStart{Time::Max()};
    /** TxFetchDelay: from a frame's hand-over to the MAC, while it is idle, to the earliest
     *  start of its transmission (a host NIC's descriptor and data fetch; 0 for a switch). */
    Time m_txFetchDelay{0};
    TracedCallback<> m_linkChangeCallbacks; //!< link changes

    TracedCallback<Ptr<const Packet>> m_macTxTrace;          //!< MacTx
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;      //!< MacTxDrop
    TracedCallback<Ptr<const Packet>> m_macRxTrace;          //!< MacRx
    TracedCallback<Ptr<const Packet>> m_macPromiscRxTrace;   //!< MacPromiscRx
    TracedCallback<Ptr<const Packet>> m_snifferTrace;        //!< Sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< PromiscSniffer
};

} // namespace ns3

#endif /* TESTBED_ETHERNET_PORT_H */
