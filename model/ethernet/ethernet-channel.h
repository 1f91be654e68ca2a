/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_ETHERNET_CHANNEL_H
#define TESTBED_ETHERNET_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

/**
 * @file
 * @ingroup testbed-ethernet
 * An Ethernet segment: a twisted-pair cable between two stations, or a repeater hub and the
 * cables of its ports (one collision domain).
 */

namespace ns3
{

/**
 * @defgroup testbed-ethernet Ethernet (IEEE 802.3) with CSMA/CD
 * @ingroup testbed
 *
 * A half- and full-duplex IEEE 802.3 MAC (EthernetNetDevice) on twisted-pair segments
 * (EthernetChannel): carrier sense after the propagation delay, deferral with the interframe gap,
 * collisions, jam, truncated binary exponential backoff, late collisions, runts and FCS errors,
 * autonegotiation with parallel detection (IEEE 802.3 clause 28) and duplex mismatch; a repeater
 * hub (EthernetHub). See doc/ethernet.rst.
 */

class EthernetNetDevice;

/**
 * @ingroup testbed-ethernet
 * @brief An Ethernet segment: the devices attached to one twisted-pair cable, or to the ports of
 * one repeater hub, and the signals between them.
 *
 * Every attached device has its own cable (CableLength attribute at Attach; the propagation
 * delay is length / (VelocityFactor * c)). Between two devices a signal takes the delay of the
 * sender's cable, the repeater's delay (RepeaterDelay, hubs only) and the delay of the receiver's
 * cable; a point-to-point cable is one cable whose delay is split between its two ends.
 *
 * The channel carries *signals*: a transmission starts at the sender, reaches every other device
 * after the propagation delay, and ends when the sender stops (at the frame's last bit, or
 * earlier when a collision makes it jam and stop). Each device sees the start (carrier on) and the
 * end (carrier off, and the frame if it is whole) of every signal at its own place and time; what
 * a half-duplex MAC does with them (defer, detect a collision, discard a fragment) is the device's
 * business. In a hub every signal reaches every port; on a point-to-point cable the two
 * directions are separate pairs, so signals only meet inside a half-duplex station (receive
 * activity while transmitting is a collision there, as on 10BASE-T and 100BASE-TX).
 *
 * Autonegotiation (IEEE 802.3 clause 28) runs when a point-to-point cable has both ends, and for
 * every station on a hub (whose repeater ports are half duplex at the hub's rate): see
 * EthernetNetDevice::Duplex.
 */
class EthernetChannel : public Channel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    EthernetChannel();
    ~EthernetChannel() override;

    /**
     * @brief Attach a device with its cable (a device joins one channel).
     * @param device the device
     * @param cableLength the cable from the device to the hub, or the whole cable of a
     *        point-to-point link (metres)
     * @return the device's index on the channel
     */
    uint32_t Attach(Ptr<EthernetNetDevice> device, double cableLength);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /** @return whether this segment is a repeater hub (else a point-to-point cable) */
    bool IsHub() const;

    /** @return the hub's port rate (hubs), bit/s */
    uint64_t GetHubRate() const;

    /**
     * @brief Propagation time of a signal from one device to another.
     * @param from sender index
     * @param to receiver index
     * @return cable delays plus the repeater's delay (hubs)
     */
    Time GetDelay(uint32_t from, uint32_t to) const;

    /**
     * @brief A device starts a signal (called by EthernetNetDevice).
     * @param from the sender's index
     * @param frame the frame (header, payload, padding, FCS)
     * @param duration the signal's length if it runs to its end (preamble and frame)
     * @param abortable whether the sender may stop it early (a half-duplex sender)
     * @return the signal's id
     */
    uint64_t TransmitStart(uint32_t from, Ptr<const Packet> frame, Time duration, bool abortable);

    /**
     * @brief The sender stops its signal early (collision): it ends @p duration after it began.
     * @param id the signal
     * @param duration the new length (at most the old one)
     */
    void TransmitAbort(uint64_t id, Time duration);

  protected:
    void DoDispose() override;

    bool m_hub; //!< a hub (set by EthernetHub)

  private:
    /// A signal that a half-duplex sender may still cut short.
    struct Signal
    {
        uint32_t from;              //!< sender index
        Time start;                 //!< first bit at the sender
        Time duration;              //!< length at the sender
        Ptr<const Packet> frame;    //!< the frame
        bool whole;                 //!< not cut short
        uint64_t wireBits;          //!< bits sent (preamble included)
        std::vector<Time> endTimes; //!< when its end is due at each receiver (Max: done)
        uint32_t pendingEnds{0};    //!< ends not yet delivered
    };

    /** Run autonegotiation between the attached devices (see EthernetNetDevice::Duplex). */
    void Negotiate();

    /**
     * The end of an abortable signal at one receiver (stale if an abort moved it).
     * @param id the signal
     * @param to the receiver
     */
    void AbortableEnd(uint64_t id, uint32_t to);

    /**
     * @param dev a device
     * @return its node's id, the context of events for it
     */
    static uint32_t ContextOf(Ptr<EthernetNetDevice> dev);

    std::vector<Ptr<EthernetNetDevice>> m_devices;  //!< attached devices
    std::vector<Time> m_cable;                      //!< cable delay of each device
    double m_velocityFactor;                        //!< NVP of the cable
    Time m_repeaterDelay;                           //!< repeater delay (0 = point-to-point cable)
    DataRate m_hubRate;                             //!< hub port rate
    uint64_t m_nextId{1};                           //!< next signal id
    std::unordered_map<uint64_t, Signal> m_signals; //!< abortable signals in flight
};

/**
 * @ingroup testbed-ethernet
 * @brief A repeater hub (IEEE 802.3 clauses 9 and 27): an EthernetChannel in hub mode, N ports,
 * one collision domain, the repeater's own delay between ports.
 *
 * The default repeater delay is the budget of a 100BASE-T Class II repeater (IEEE 802.3 clause
 * 29.3.1.3, Table 29-3: 92 bit times, 0.92 us at 100 Mbit/s); a 10 Mbit/s hub (clause 9) is set
 * with RepeaterDelay and Rate.
 */
class EthernetHub : public EthernetChannel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    EthernetHub();
};

} // namespace ns3

#endif /* TESTBED_ETHERNET_CHANNEL_H */
