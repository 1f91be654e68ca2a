/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_SWITCH_FABRIC_H
#define TESTBED_SWITCH_FABRIC_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/frame-descriptor.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <unordered_map>

/**
 * @file
 * @ingroup testbed-switch
 * The switching fabric of an Ethernet switch: forwarding engine, MAC table, random drops.
 */

namespace ns3
{

/**
 * @ingroup testbed-switch
 * @brief The fabric of a store-and-forward Ethernet switch.
 *
 * - **Forwarding engine**: one server that makes one forwarding decision per frame in
 *   1 / ForwardingCapacity seconds; frames wait in a FIFO of EngineQueueLimit frames and are
 *   dropped (ENGINE_OVERFLOW) beyond it. ForwardingCapacity 0 = infinitely fast (no event).
 * - **MAC table**: MacTableCapacity entries, each aged out MacAgingTime after the address was
 *   last seen; when the table is full, new addresses are not learned (their frames are flooded
 *   as unknown unicast) and MacLearnFailed fires.
 * - **Random drop**: each frame copy leaving through a port is dropped with DropProbability
 *   (the Catalyst 6009 of MEGA06 dropped a constant fraction independent of load).
 * - **Bus arbitration** (a shared-bus / shared-memory switch): a frame fully received on a port
 *   waits in the port's buffer for the port's next grant of a fixed round-robin (time-division)
 *   arbiter, then crosses the bus at BusRate; the port's next frame crosses after it. Port p is
 *   granted at k * ArbitrationCycle + (p mod ArbitrationSlots) * ArbitrationCycle /
 *   ArbitrationSlots. The wait varies with the phase of the frame's arrival in the cycle
 *   (0 to one cycle): a variable buffering delay, not a fixed service time. ArbitrationCycle 0
 *   = no bus stage (no event). The bus stage comes before the forwarding engine.
 *   With ArbitrationFreeRunning the arbiter runs on the switch's own oscillator, not on the
 *   simulation's time: at the first crossing the grid's phase is drawn uniform over one cycle
 *   and its rate offset uniform within +-ArbitrationClockTolerance ppm (plus the fixed
 *   ArbitrationClockOffset), so a sender whose period is a whole number of cycles in true time
 *   is not phase-locked to the grants (arbiter time a(t) = phase + t (1 + offset)).
 *
 * - **Forwarding mode** (ForwardingMode): a store-and-forward switch decides on a frame when
 *   its last bit is in; a cut-through switch when its destination address is in (preamble, SFD
 *   and 6 octets), a fragment-free one when its first 64 octets are (a collision fragment is
 *   never forwarded). A frame decided early starts on its output port then, if the port was
 *   free, the output operates full duplex and its rate is the input's; otherwise it waits as
 *   a stored frame does (a frame from a half-duplex port is always stored: it may still be a
 *   collision fragment). With the bus stage the early frame waits for its port's grant from
 *   the decision on; its port's next frame crosses after its last bit is in. A queued engine
 *   (ForwardingCapacity > 0) idle at the decision serves the early frame from then on (or from
 *   the end of its last service); a busy one queues it, and it leaves when it is served.
 *
 * Per-output-port queues are the ports' device queues (FullDuplexEthernetNetDevice MaxQueueFrames,
 * which the helper sets, or an EthernetNetDevice TxQueue); their overflows are reported here as
 * OUTPUT_QUEUE_FULL by the switch.
 */
class SwitchFabric : public Object
{
  public:
    /// Why a frame (or one copy of it) was dropped.
    enum DropReason : uint8_t
    {
        ENGINE_OVERFLOW = 0,   //!< forwarding engine queue full
        RANDOM_DROP = 1,       //!< per-copy random drop (DropProbability)
        OUTPUT_QUEUE_FULL = 2, //!< output port device queue full
        FILTERED = 3,          //!< destination is on the ingress port / no output port
        MALFORMED_IGMP = 4,    //!< IGMP message that does not parse
        PORT_DOWN = 5,         //!< output port link down
        N_DROP_REASONS = 6,    //!< number of reasons
    };

    /// When the switch decides where a frame goes (Attribute ForwardingMode).
    enum ForwardingMode : uint8_t
    {
        STORE_AND_FORWARD = 0, //!< when its last bit is in
        CUT_THROUGH = 1,       //!< when its destination address is in
        FRAGMENT_FREE = 2,     //!< when its first 64 octets are in
    };

    /// A frame inside the switch: an ns-3 Packet, or a FrameDescriptor (the lean path).
    struct Frame
    {
        Ptr<const Packet> packet; //!< payload (no Ethernet header, no VLAN tag); never changed
        uint32_t inPort;          //!< ingress port index (UINT32_MAX = from the switch itself)
        uint16_t protocol;        //!< EtherType
        Mac48Address src;         //!< source MAC
        Mac48Address dst;         //!< destination MAC
        FrameDescriptor desc;     //!< the frame, when packet is null
        /// Decided before its last bit was in (ForwardingMode): it may start on an output
        /// port from @c early on
        bool cutThrough{false};
        Time early; //!< with cutThrough: the earliest start on an output port

        /** @return the payload's size */
        uint32_t GetSize() const
        {
            return packet ? packet->GetSize() : desc.GetSize();
        }

        /**
         * @brief Copy the start of the payload.
         * @param buf where to
         * @param n at most this many octets
         * @return the octets copied
         */
        uint32_t CopyData(uint8_t* buf, uint32_t n) const
        {
            return packet ? packet->CopyData(buf, n) : desc.CopyData(buf, n);
        }

        /** @return the payload as a Packet (made from the descriptor if need be) */
        Ptr<const Packet> GetPacket() const
        {
            return packet ? packet : Ptr<const Packet>(desc.MakePacket());
        }
    };

    /// Forwarding-decision callback (the bridge), called when the engine has served a frame.
    typedef Callback<void, const Frame&> ForwardCallback;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    SwitchFabric();
    ~SwitchFabric() override;

    /**
     * @brief Set the forwarding-decision callback.
     * @param cb the callback
     */
    void SetForwardCallback(ForwardCallback cb);

    /**
     * @brief A frame enters the forwarding engine (or is dropped, ENGINE_OVERFLOW).
     * @param frame the frame
     */
    void Ingress(const Frame& frame);

    /**
     * @brief Mark a frame whose last bit has just come in through a full-duplex port for
     * forwarding before that (ForwardingMode): it may leave from the moment the switch had
     * its destination address (or its first 64 octets). Store-and-forward leaves it as it is.
     * @param frame the frame
     * @param payload its payload on the ingress link (an 802.1Q tag included)
     * @param rate the ingress link's rate
     */
    void MarkEarlyDecision(Frame& frame, uint32_t payload, DataRate rate) const;

    /** @return the forwarding mode (Attribute ForwardingMode) */
    ForwardingMode GetForwardingMode() const
    {
        return m_mode;
    }

    /**
     * @brief Should this copy of a frame leaving through @p port be dropped at random?
     * Counts and traces the drop.
     * @param packet the copy
     * @param port the output port
     * @return true if dropped
     */
    bool RandomDrop(Ptr<const Packet> packet, uint32_t port);

    /**
     * @brief Should this copy of a frame leaving through @p port be dropped at random? Counts
     * and traces the drop (the packet made for the trace only if something listens).
     * @param frame the frame
     * @param port the output port
     * @return true if dropped
     */
    bool RandomDrop(const Frame& frame, uint32_t port);

    /**
     * @brief Learn (or refresh) a source address on a port.
     * @param addr the address
     * @param port the port
     * @return false if the table is full and the address is new
     */
    bool Learn(Mac48Address addr, uint32_t port);
    /**
     * @brief The port of a learned, unexpired address.
     * @param addr the address
     * @return the port, or -1 if unknown
     */
    int64_t Lookup(Mac48Address addr);
    /** @return the number of entries (including aged ones not yet purged) */
    uint32_t GetMacTableSize() const;
    /** Forget every learned address (e.g. after a topology change). */
    void FlushMacTable();

    /**
     * @brief Count and trace a drop.
     * @param packet the frame
     * @param port the port concerned
     * @param reason the reason
     */
    void NotifyDrop(Ptr<const Packet> packet, uint32_t port, DropReason reason);

    /**
     * @brief Count and trace a drop (the packet made for the trace only if something listens).
     * @param frame the frame
     * @param port the port concerned
     * @param reason the reason
     */
    void NotifyDrop(const Frame& frame, uint32_t port, DropReason reason);
    /**
     * @brief The number of drops for one reason.
     * @param reason the reason
     * @return the count
     */
    uint64_t GetDropCount(DropReason reason) const;
    /** @return frames served by the forwarding engine */
    uint64_t GetForwardedCount() const;
    /** @return frames currently waiting for the engine */
    uint32_t GetEngineQueueLength() const;
    /**
     * @brief Name of a drop reason.
     * @param r the reason
     * @return a static string
     */
    static const char* DropReasonName(DropReason r);

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream index
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature for drops.
     * @param [in] packet the frame
     * @param [in] port the port concerned
     * @param [in] reason a DropReason
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, uint32_t port, uint8_t reason);
    /**
     * TracedCallback signature for MAC learning failures.
     * @param [in] addr the address not learned
     * @param [in] port the port it was seen on
     */
    typedef void (*MacTracedCallback)(Mac48Address addr, uint32_t port);

  protected:
    void DoDispose() override;

  private:
    /**
     * Draw whether a copy is dropped at random (no draw if the probability is 0).
     * @return true if it is dropped
     */
    bool DrawDrop();

    /// Serve the head of the engine queue.
    void Serve();
    /**
     * The forwarding engine's part of Ingress (after the bus).
     * @param frame the frame
     */
    void EngineIngress(const Frame& frame);
    /**
     * @brief The time a frame on a port has crossed the bus (a frame decided early: the time
     * its decision octets have). Also books the port's bus time.
     * @param port the ingress port
     * @param bytes the frame's size on the bus
     * @param from when the frame may ask for the bus: its last bit in, or its early decision
     * @param early the frame was decided before its last bit was in
     * @return the crossing's end
     */
    Time BusCrossing(uint32_t port, uint32_t bytes, Time from, bool early);
    /**
     * @brief The first grant at or after @p now of a slot at @p offset time steps into the
     * cycle, on the free-running arbiter's clock (phase and rate drawn at the first call).
     * @param now the time (true time)
     * @param offset the slot's offset in the cycle (arbiter time steps)
     * @return the grant (true time, not before @p now)
     */
    Time FreeRunningGrant(Time now, int64_t offset);
    /// Purge aged entries (when the table is full).
    void PurgeAged();

    /// A MAC table entry.
    struct MacEntry
    {
        uint32_t port; //!< port
        Time expiry;   //!< aging expiry
    };

    ForwardCallback m_forward;                        //!< bridge decision
    ForwardingMode m_mode{STORE_AND_FORWARD};         //!< when frames are decided
    double m_capacity;                                //!< frames/s (0 = unlimited)
    uint32_t m_queueLimit;                            //!< engine queue limit (frames)
    double m_dropProbability;                         //!< per-copy drop probability
    uint32_t m_macCapacity;                           //!< MAC table capacity
    Time m_macAging;                                  //!< MAC aging time
    Ptr<UniformRandomVariable> m_rng;                 //!< random drops
    std::deque<Frame> m_queue;                        //!< engine queue (waiting frames)
    bool m_busy{false};                               //!< engine serving a frame
    Time m_engineFree;                                //!< end of the engine's last service
    EventId m_serveEvent;                             //!< end of the current service
    std::unordered_map<uint64_t, MacEntry> m_mac;     //!< MAC table
    std::array<uint64_t, N_DROP_REASONS> m_drops{};   //!< drop counters
    uint64_t m_forwarded{0};                          //!< served frames
    Time m_cycle;                                     //!< arbitration cycle (0 = no bus stage)
    uint32_t m_slots;                                 //!< ports granted per cycle
    DataRate m_busRate;                               //!< bus rate
    std::unordered_map<uint32_t, Time> m_portBusFree; //!< end of each port's last crossing
    bool m_freeRunning;                               //!< arbiter on its own clock
    double m_clockTolerance;                          //!< drawn rate offset bound (ppm)
    double m_clockOffset;                             //!< fixed rate offset (ppm)
    bool m_clockDrawn{false};                         //!< phase and rate drawn
    long double m_phase{0};                           //!< arbiter time at t = 0 (time steps)
    long double m_rate{1};                            //!< arbiter seconds per true second
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_dropTrace; //!< drops
    TracedCallback<Mac48Address, uint32_t> m_macFailTrace;            //!< learning failures
};

} // namespace ns3

#endif /* TESTBED_SWITCH_FABRIC_H */
