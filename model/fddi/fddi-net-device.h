/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FDDI_NET_DEVICE_H
#define TESTBED_FDDI_NET_DEVICE_H

#include "fddi-channel.h"

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/queue.h"
#include "ns3/traced-callback.h"

/**
 * @file
 * @ingroup testbed-fddi
 * An FDDI station's MAC.
 */

namespace ns3
{

/**
 * @ingroup testbed-fddi
 * @brief An FDDI station (single-attachment, one MAC) with the timed-token protocol.
 *
 * Frames: FddiHeader (FC, DA, SA) and an IEEE 802.2 LLC/SNAP header (RFC 1390) in front of the
 * IP datagram; IP MTU 4352 bytes (RFC 1390). The preamble, SD, FCS, ED and FS add
 * WIRE_OVERHEAD bytes to a frame's time on the ring.
 *
 * Two transmit queues: synchronous (frames whose SocketPriorityTag priority is at least
 * SyncPriority) and asynchronous (all others). Timers (ANSI X3.139): the token rotation timer
 * TRT runs from each early token arrival; when it reaches TTRT it expires, sets Late_Ct and
 * restarts. At a token arrival:
 *
 * - Late_Ct = 0 (early token): THT = TTRT - TRT, and TRT restarts;
 * - Late_Ct = 1 (late token): Late_Ct is cleared, THT = 0, TRT keeps running.
 *
 * The station then sends synchronous frames up to its SynchronousAllocation (on early and late
 * tokens alike), then asynchronous frames as long as THT has not expired (THT runs only while
 * asynchronous frames are sent; a frame started before it expires is completed: the
 * asynchronous overrun), and issues the token. A second TRT expiry with Late_Ct set would start
 * the claim process on a real ring; it cannot happen while the synchronous allocations plus
 * the ring latency stay below TTRT, and is only counted here (GetLateOverruns).
 */
class FddiNetDevice : public NetDevice
{
  public:
    /** Preamble (8), SD (1), FCS (4), ED (0.5) and FS (1.5) bytes not carried in the packet. */
    static constexpr uint32_t WIRE_OVERHEAD = 15;
    /** LLC/SNAP header bytes (IEEE 802.2, RFC 1042/1390). */
    static constexpr uint32_t LLC_SNAP = 8;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    FddiNetDevice();
    ~FddiNetDevice() override;

    /**
     * @brief Insert the station into a ring.
     * @param channel the ring
     */
    void Attach(Ptr<FddiChannel> channel);

    /** @return the MAC address */
    Mac48Address GetMacAddress() const;

    /** @return whether a frame is queued */
    bool HasPending() const;

    /**
     * @brief The ring comes up (called by the channel).
     * @param lastArrival the token's last (virtual) arrival here
     */
    void RingUp(Time lastArrival);

    /**
     * @brief The token arrives (called by the channel): run the timers and, if allowed to send,
     * start transmitting; the device releases the token through the channel when done.
     * @return whether the station captured the token
     */
    bool TokenArrived();

    /**
     * @brief Idle token arrivals while the token was parked (called by the channel).
     * @param first the first arrival
     * @param period the ring latency
     * @param until arrivals strictly before this are processed
     * @return the number of arrivals
     */
    uint64_t IdleVisits(Time first, Time period, Time until);

    /** @return the time between the last two token arrivals */
    Time GetLastRotation() const;
    /** @return second TRT expiries with Late_Ct set (see the class description) */
    uint64_t GetLateOverruns() const;
    /** @return frames sent */
    uint64_t GetTxFrames() const;
    /** @return malformed frames dropped at reception */
    uint64_t GetMalformed() const;

    /**
     * @brief Frame reception (called by the channel).
     * @param packet the frame, FddiHeader first
     */
    void Receive(Ptr<Packet> packet);

    // NetDevice
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
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * Token arrival: process TRT expiries and Late_Ct.
     * @param at arrival time
     * @return THT (zero for a late token)
     */
    Time Arrive(Time at);
    /** Send the next frame of this token visit, or release the token. */
    void SendNext();
    /**
     * Time of a frame on the ring.
     * @param packet the frame (FddiHeader first)
     * @return its duration
     */
    Time FrameTime(Ptr<const Packet> packet) const;

    Ptr<FddiChannel> m_channel;              //!< the ring
    uint32_t m_station{0};                   //!< position in the ring
    Ptr<Node> m_node;                        //!< node
    uint32_t m_ifIndex{0};                   //!< interface index
    Mac48Address m_address;                  //!< address
    uint16_t m_mtu;                          //!< Mtu
    Ptr<Queue<Packet>> m_async;              //!< AsyncQueue
    Ptr<Queue<Packet>> m_sync;               //!< SyncQueue
    Time m_syncAllocation;                   //!< SynchronousAllocation
    uint32_t m_syncPriority;                 //!< SyncPriority
    Time m_trtStart;                         //!< when TRT last restarted
    bool m_lateCt{false};                    //!< Late_Ct
    Time m_lastArrival;                      //!< last token arrival
    Time m_lastRotation;                     //!< last rotation time
    bool m_holding{false};                   //!< the station holds the token
    Time m_syncLeft;                         //!< synchronous allocation left in this visit
    Time m_tht;                              //!< THT loaded at this visit
    Time m_asyncDeadline;                    //!< THT expiry (once asynchronous sending started)
    bool m_asyncStarted{false};              //!< asynchronous sending started in this visit
    uint64_t m_lateOverruns{0};              //!< counter
    uint64_t m_txFrames{0};                  //!< counter
    uint64_t m_malformed{0};                 //!< counter
    NetDevice::ReceiveCallback m_rxCallback; //!< up
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< up (promiscuous)
    TracedCallback<Ptr<const Packet>> m_macTxTrace;      //!< accepted for sending
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;  //!< queue full or too big
    TracedCallback<Ptr<const Packet>> m_macRxTrace;      //!< received
    TracedCallback<Ptr<const Packet>> m_malformedTrace;  //!< malformed frames
    TracedCallback<Ptr<const Packet>> m_snifferTrace;    //!< every frame sent or received
};

} // namespace ns3

#endif /* TESTBED_FDDI_NET_DEVICE_H */
