/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_ETHERNET_NET_DEVICE_H
#define TESTBED_ETHERNET_NET_DEVICE_H

#include "ethernet-port.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/queue.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <unordered_map>

/**
 * @file
 * @ingroup testbed-ethernet
 * An IEEE 802.3 MAC: half duplex with CSMA/CD, or full duplex.
 */

namespace ns3
{

class EthernetChannel;
class NetDeviceQueueInterface;

/**
 * @ingroup testbed-ethernet
 * @brief An Ethernet NIC (IEEE 802.3 clause 4 MAC) at 10, 100 or 1000 Mbit/s, half duplex with
 * CSMA/CD or full duplex, on an EthernetChannel.
 *
 * Frames as EthernetFraming says: destination, source, type (14 octets), payload padded to 46
 * octets, FCS (4): 64 to 1518 octets, preceded on the wire by preamble and SFD (8 octets) and
 * followed by the interframe gap (96 bit times).
 *
 * Half duplex (clause 4.2.3): a frame to send waits while the carrier is on, then 96 bit times of
 * silence (deferral; carrier in the first 64 bit times of the gap restarts it, in the last 32 it
 * is ignored); it is sent; a signal that reaches the station while it sends is a collision: it
 * completes the preamble, sends a 32-bit jam and stops, and retries after r slot times (512 bit
 * times), r uniform in [0, 2^k - 1], k = min(n, 10) after the n-th collision; the 16th collision
 * discards the frame (excessive collisions). A collision detected after the first 512 bit times
 * of the frame (preamble excluded) is late: the frame is abandoned (LateCollision Discard) or
 * retried as after any collision (Retry). A received frame that overlapped another signal, or that
 * its sender cut short, is discarded: a runt if fewer than 64 octets arrived, else an FCS error; a
 * frame that begins to arrive while the station sends on a cable is discarded (ReceiveWhileSending
 * Damaged) or kept (Intact).
 *
 * Full duplex: the device sends whenever its frame is ready (after the gap behind its previous
 * frame), never senses carrier and never sees a collision.
 *
 * Duplex configuration (attribute Duplex, IEEE 802.3 clause 28): AUTO autonegotiates with an
 * AUTO partner to the highest common rate, full duplex; facing a partner forced to a rate it
 * detects that rate and falls back to half duplex (parallel detection); FORCED_FULL and
 * FORCED_HALF use their own setting at DataRate whatever the partner does (a mismatch is
 * possible). A hub's ports are half duplex at the hub's rate.
 */
class EthernetNetDevice : public EthernetPort
{
  public:
    /// Duplex configuration of the NIC.
    enum Duplex : uint8_t
    {
        AUTO = 0,        //!< autonegotiation (clause 28)
        FORCED_FULL = 1, //!< full duplex at DataRate, no negotiation
        FORCED_HALF = 2, //!< half duplex at DataRate, no negotiation
    };

    /// What a half-duplex MAC does with a frame after a late collision.
    enum LateCollision : uint8_t
    {
        LATE_DISCARD = 0, //!< abandon the frame (most controllers)
        LATE_RETRY = 1,   //!< back off and retry as after any collision
    };

    /// What a half-duplex MAC does with a frame that begins to arrive while it sends.
    enum ReceiveWhileSending : uint8_t
    {
        RX_DAMAGED = 0, //!< discard it (the MAC takes the receive activity for a collision)
        RX_INTACT = 1,  //!< keep it (on a cable its pair is separate: nothing damaged it)
    };

    /// Counters (since the start).
    /// (txFrames: frames sent whole; rxFrames: frames received whole and passed up.)
    struct Stats : public EthernetPort::Counters
    {
        uint64_t deferrals{0};           //!< frames that had to wait for the carrier
        uint64_t collisions{0};          //!< collisions seen while sending
        uint64_t lateCollisions{0};      //!< of which late (discarded under LateCollision Discard)
        uint64_t excessiveCollisions{0}; //!< frames discarded after 16 collisions
        uint64_t runts{0};               //!< fragments of fewer than 64 octets received
        uint64_t fcsErrors{0};           //!< damaged frames of 64 octets or more received
        std::array<uint64_t, 16> collisionsByAttempt{}; //!< [n-1]: collisions at the n-th try
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    EthernetNetDevice();
    ~EthernetNetDevice() override;

    /**
     * @brief Attach to a segment (the channel's Attach calls back Attached).
     * @param channel the channel
     * @param cableLength the device's cable (metres)
     */
    void Attach(Ptr<EthernetChannel> channel, double cableLength);

    /**
     * @brief Set the transmit queue.
     * @param queue the queue
     */
    void SetQueue(Ptr<Queue<Packet>> queue);
    /** @return the transmit queue */
    Ptr<Queue<Packet>> GetQueue() const;

    /** @return the configured duplex mode */
    Duplex GetDuplexSetting() const;
    /** @return the configured (maximum) rate */
    DataRate GetDataRate() const;
    bool IsFullDuplex() const override;
    DataRate GetLinkRate() const override;
    /** @return the counters */
    const Stats& GetStats() const;
    const Counters& GetCounters() const override;

    /**
     * @brief Assign fixed random variable stream numbers (the backoff).
     * @param stream first stream index
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    // --- called by EthernetChannel -------------------------------------------------------------
    /**
     * @brief The link's operating point (negotiated, or forced).
     * @param channel the channel
     * @param index this device's index on it
     * @param rate the rate
     * @param fullDuplex whether full duplex
     */
    void SetLink(Ptr<EthernetChannel> channel, uint32_t index, DataRate rate, bool fullDuplex);
    /**
     * @brief A signal begins to arrive here (carrier on).
     * @param id the signal
     */
    void SignalStart(uint64_t id);
    /**
     * @brief A signal ends here.
     * @param id the signal
     * @param frame the frame it carried
     * @param whole whether its sender sent all of it
     * @param wireBits bits that arrived, preamble included
     * @param tracked whether SignalStart was called for it
     */
    void SignalEnd(uint64_t id,
                   Ptr<const Packet> frame,
                   bool whole,
                   uint64_t wireBits,
                   bool tracked);
    /** @return whether the channel must report every signal's start here (half duplex) */
    bool NeedsSignalStarts() const;

    // --- EthernetPort -------------------------------------------------------------------------
    bool SendShared(Ptr<const Packet> packet,
                    Mac48Address source,
                    Mac48Address dest,
                    uint16_t protocol) override;

    // --- NetDevice ----------------------------------------------------------------------------
    Ptr<Channel> GetChannel() const override;
    bool IsLinkUp() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;

    /**
     * TracedCallback signature for a collision.
     * @param [in] attempt the attempt that collided (1 = first)
     * @param [in] late whether it was late
     */
    typedef void (*CollisionTracedCallback)(uint32_t attempt, bool late);
    /**
     * TracedCallback signature for a backoff.
     * @param [in] attempt the attempt that collided
     * @param [in] slots the slots drawn
     */
    typedef void (*BackoffTracedCallback)(uint32_t attempt, uint32_t slots);
    /**
     * TracedCallback signature for a damaged frame received.
     * @param [in] frame what arrived of it
     * @param [in] octets its octets (header to the last whole octet)
     */
    typedef void (*DamagedTracedCallback)(Ptr<const Packet> frame, uint32_t octets);

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    /// Transmitter state.
    enum TxState : uint8_t
    {
        IDLE,         //!< nothing to send
        DEFERRING,    //!< waiting for the carrier and the gap
        TRANSMITTING, //!< sending a frame
        JAMMING,      //!< collision: jam, then stop
        BACKOFF,      //!< waiting for the backoff
    };

    /** Frame a packet and queue it. */
    bool Enqueue(Ptr<Packet> packet, Mac48Address src, Mac48Address dst, uint16_t protocol);
    void StartNext();        //!< take the next frame from the queue
    void Attempt();          //!< try to send the current frame now
    void DeferCheck();       //!< the gap after the carrier went off has passed
    void Transmit();         //!< put the current frame on the wire
    void TransmitEnd();      //!< its last bit has left
    void Collision(Time at); //!< a collision while sending
    void CollisionEnd();     //!< jam done: back off, or discard
    void FrameDone();        //!< the current frame is done (sent or discarded)
    bool Carrier() const;    //!< carrier sensed (a signal arrives here, or this device sends)
    Time BitTime(uint64_t bits) const; //!< duration of bits at the link rate
    /** Pass a received frame up. */
    void Receive(Ptr<Packet> frame);

    // configuration
    DataRate m_rate;                                  //!< configured rate
    Duplex m_duplex;                                  //!< configured duplex
    bool m_checksum;                                  //!< compute and check the FCS
    LateCollision m_latePolicy{LATE_DISCARD};         //!< LateCollision
    ReceiveWhileSending m_rxWhileSending{RX_DAMAGED}; //!< ReceiveWhileSending
    Ptr<Queue<Packet>> m_queue;                       //!< transmit queue
    Ptr<UniformRandomVariable> m_backoffRng;          //!< backoff draws

    // link
    Ptr<EthernetChannel> m_channel; //!< the segment
    uint32_t m_index{0};            //!< index on it
    bool m_linkUp{false};           //!< negotiated
    bool m_fullDuplex{false};       //!< operating duplex
    DataRate m_linkRate;            //!< operating rate
    double m_bitSeconds{0};         //!< one bit time (s)

    // transmitter
    TxState m_state{IDLE};       //!< transmitter state
    Ptr<Packet> m_current;       //!< the frame being sent
    uint32_t m_attempts{0};      //!< collisions of the current frame
    bool m_deferred{false};      //!< the current frame had to defer
    Time m_txStart;              //!< start of the current transmission
    Time m_txFullEnd;            //!< its planned end
    uint64_t m_txId{0};          //!< its signal
    bool m_lateCollision{false}; //!< the collision of the current attempt was late
    EventId m_event;             //!< transmit end, defer check, jam end, backoff end
    Time m_gapReady;             //!< earliest start behind the previous own frame
    std::deque<Time> m_fetched;  //!< TxFetchDelay: when each queued frame is fetched, in order

    // receiver
    /// A signal arriving here.
    struct Incoming
    {
        Time start;   //!< first bit here
        bool damaged; //!< overlapped another signal or this device's sending
    };

    std::unordered_map<uint64_t, Incoming> m_incoming; //!< signals arriving now
    Time m_idleSince;                                  //!< when the carrier last went off

    Ptr<NetDeviceQueueInterface> m_queueInterface; //!< flow control

    Stats m_stats; //!< counters

    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;     //!< PhyTxBegin
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;       //!< PhyTxEnd
    TracedCallback<Ptr<const Packet>> m_phyTxDropTrace;      //!< PhyTxDrop
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;       //!< PhyRxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;      //!< PhyRxDrop
    TracedCallback<> m_deferralTrace;                        //!< Deferral
    TracedCallback<uint32_t, bool> m_collisionTrace;         //!< Collision
    TracedCallback<uint32_t, uint32_t> m_backoffTrace;       //!< Backoff
    TracedCallback<Ptr<const Packet>> m_excessiveTrace;      //!< ExcessiveCollisions
    TracedCallback<Ptr<const Packet>> m_lateTrace;           //!< LateCollision
    TracedCallback<Ptr<const Packet>, uint32_t> m_runtTrace; //!< RxRunt
    TracedCallback<Ptr<const Packet>, uint32_t> m_fcsTrace;  //!< RxFcsError
};

} // namespace ns3

#endif /* TESTBED_ETHERNET_NET_DEVICE_H */
