/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FDDI_CHANNEL_H
#define TESTBED_FDDI_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <vector>

/**
 * @file
 * @ingroup testbed-fddi
 * The FDDI ring: stations in ring order and the token.
 */

namespace ns3
{

/**
 * @defgroup testbed-fddi FDDI ring
 * @ingroup testbed
 *
 * A 100 Mbit/s FDDI ring (ANSI X3.139 MAC) with the timed-token protocol.
 */

class FddiNetDevice;

/**
 * @ingroup testbed-fddi
 * @brief An FDDI ring: the stations in ring order, the fibre between them and the token.
 *
 * Level of detail: the MAC's timed-token rotation protocol (ANSI X3.139) is modelled exactly at
 * the level of frames and the token; the PHY (4B/5B at 125 Mbaud, elasticity buffers), station
 * management, the claim and beacon processes and the dual ring's wrap are not. The ring starts
 * operational with the negotiated target token rotation time TTRT (Attribute; every station
 * bids the same T_Req) and the token at the first station.
 *
 * The token passes from station i to station i+1 (mod N) in the fibre's propagation delay
 * plus the next station's latency (Attributes FibreLength, FibreDelay, StationLatency); the
 * ring latency D is their sum over the ring. A station that captures the token transmits its
 * frames back to back at DataRate and then issues a new token (11 bytes: preamble, SD, FC,
 * ED). A frame reaches station j when its last bit has travelled from the sender to j. The
 * ring is collision free: only the token holder transmits.
 *
 * While no station has anything to send, the idle token is not simulated hop by hop (it would
 * cost an event every microsecond): it is parked, and when a frame arrives the token's
 * position and every station's timers are advanced analytically to where hop-by-hop
 * simulation would have left them (the same arithmetic; the test suite checks it).
 */
class FddiChannel : public Channel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    FddiChannel();
    ~FddiChannel() override;

    /**
     * @brief Insert a station into the ring, after the ones attached before it.
     * @param device the station's device
     * @return its position in the ring
     */
    uint32_t Attach(Ptr<FddiNetDevice> device);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /** @return the target token rotation time */
    Time GetTtrt() const;
    /** @return the data rate */
    DataRate GetDataRate() const;
    /** @return the ring latency D (the idle token's rotation time) */
    Time GetRingLatency() const;
    /** @return the time of one token on the ring (11 bytes) */
    Time GetTokenTime() const;

    /**
     * @brief A station has a frame to send and had none before (unparks an idle token).
     * @param station the station's position
     */
    void NotifyPending(uint32_t station);

    /**
     * @brief A station transmits a frame now; deliver it to its destination(s).
     * @param station the sender's position
     * @param packet the frame (FddiHeader first)
     * @param dst its destination
     * @param duration its time on the ring
     */
    void Transmit(uint32_t station, Ptr<const Packet> packet, Mac48Address dst, Time duration);

    /**
     * @brief The token holder issues the token now (after its last frame).
     * @param station its position
     */
    void ReleaseToken(uint32_t station);

    /** @return token arrivals at stations (simulated and parked-over rotations counted) */
    uint64_t GetTokenPasses() const;

    /**
     * TracedCallback signature for a token arrival at a station that captures it.
     * @param [in] station the station
     * @param [in] rotation time since the token last arrived at that station
     */
    typedef void (*TokenTracedCallback)(uint32_t station, Time rotation);

  protected:
    void DoDispose() override;

  private:
    /**
     * The token arrives at a station.
     * @param station the position
     */
    void TokenArrive(uint32_t station);
    /**
     * Delay from a station to the next one.
     * @param station the position
     * @return the hop delay
     */
    Time Hop(uint32_t station) const;
    /**
     * Delay from one station to another along the ring.
     * @param from the sender
     * @param to the receiver
     * @return the path delay
     */
    Time Path(uint32_t from, uint32_t to) const;
    /** Compute the hop delays (at the first use). */
    void Setup();
    /** Whether any station has a frame queued. */
    bool AnyPending() const;
    /**
     * Deliver a frame to one station.
     * @param station the receiver
     * @param packet the frame
     */
    void Deliver(uint32_t station, Ptr<Packet> packet);

    std::vector<Ptr<FddiNetDevice>> m_devices;   //!< ring order
    std::vector<Time> m_hop;                     //!< hop delay after each station
    std::vector<Time> m_lastArrival;             //!< last token arrival per station
    Time m_ringLatency;                          //!< sum of m_hop
    Time m_ttrt;                                 //!< TTRT
    DataRate m_rate;                             //!< DataRate
    double m_fibreLength;                        //!< FibreLength (m between stations)
    Time m_fibreDelayPerKm;                      //!< FibreDelay
    Time m_stationLatency;                       //!< StationLatency
    bool m_setup{false};                         //!< hop delays computed
    bool m_parkIdle{true};                       //!< ParkIdleToken
    bool m_parked{true};                         //!< the token is idle and parked
    uint32_t m_parkStation{0};                   //!< where it was parked
    Time m_parkTime;                             //!< when it arrived there
    EventId m_tokenEvent;                        //!< next token arrival
    uint64_t m_passes{0};                        //!< counter
    TracedCallback<uint32_t, Time> m_tokenTrace; //!< captures
};

} // namespace ns3

#endif /* TESTBED_FDDI_CHANNEL_H */
