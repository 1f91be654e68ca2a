/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_UDP_FRAME_SOURCE_H
#define TESTBED_UDP_FRAME_SOURCE_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

/**
 * @file
 * @ingroup testbed-apps
 * A load that runs no host stack: UDP/IPv4 datagrams handed to an adapter at a rate.
 */

namespace ns3
{

/**
 * @ingroup testbed-apps
 * @brief UDP/IPv4 datagrams at Rate a second handed straight to one adapter
 * (NetDevice::Send), addressed at set-up: a load whose sender the experiment does not model.
 *
 * Two studies load their networks this way. [NTT96]'s analyser has a load port, a hardware
 * generator that plays the frames it was given at a constant rate (Poisson=false). [MEGA06]'s
 * other senders are a population of independent processes, one packet a second each; an
 * experiment that looks at a few PCs needs them only as their superposition, a Poisson stream
 * (Poisson=true, exponential gaps of mean 1/Rate). Neither sender runs the node's IP stack:
 * no ARP exchange, route lookup or queue disc, and no CPU is charged (the rate is an input).
 *
 * Each datagram is the payload set at set-up (SetPayload: an instrument's header, zero octets
 * to PacketSize) with the UDP and IPv4 headers ns-3's UdpL4Protocol and Ipv4L3Protocol would
 * write: checksums when Node::ChecksumEnabled, may fragment, an identification that counts the
 * datagrams, TTL 1 to a multicast group (RFC 1112's default) and 64 otherwise (Linux's
 * ip_default_ttl). A periodic source sends its first datagram at its start time; a Poisson
 * source one exponential gap after it, as a stationary superposition's first arrival falls. A
 * datagram the adapter refuses (its queue full) is lost, as in a generator's own buffer, and
 * not counted as sent.
 */
class UdpFrameSource : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    UdpFrameSource();
    ~UdpFrameSource() override;

    /**
     * @brief Where the datagrams go.
     * @param device the adapter (on this application's node)
     * @param nextHop the next hop's MAC address on the adapter's link (the destination on the
     *        same segment, a router's interface, or a group's multicast address)
     * @param source the datagrams' source address
     * @param destination the datagrams' destination address (unicast or a multicast group)
     */
    void SetTarget(Ptr<NetDevice> device,
                   const Address& nextHop,
                   Ipv4Address source,
                   Ipv4Address destination);

    /**
     * @brief The first octets of every datagram's UDP payload (an instrument's header); the
     * rest, to PacketSize octets, is zeros. Without it the payload is all zeros.
     * @param head the octets (at most PacketSize)
     */
    void SetPayload(Ptr<const Packet> head);

    /** @return datagrams the adapter accepted */
    uint64_t GetSent() const;

    /**
     * @brief Assign a fixed random variable stream number to the gaps of a Poisson source.
     * @param stream the stream index
     * @return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /** Hand one datagram to the adapter and schedule the next. */
    void Send();
    /** Schedule the next datagram one gap from now. */
    void ScheduleNext();
    /** @return the gaps' random variable, made on first use */
    Ptr<ExponentialRandomVariable> Gaps();

    double m_rate;                        //!< Rate (datagrams/s)
    bool m_poisson;                       //!< Poisson
    uint32_t m_size;                      //!< PacketSize (UDP payload octets)
    uint16_t m_sourcePort;                //!< SourcePort
    uint16_t m_destinationPort;           //!< DestinationPort
    Ptr<NetDevice> m_device;              //!< the adapter
    Address m_nextHop;                    //!< the next hop's MAC address
    Ipv4Address m_source;                 //!< source address
    Ipv4Address m_destination;            //!< destination address
    Ptr<const Packet> m_head;             //!< the payload's first octets (or none)
    Ptr<Packet> m_datagram;               //!< the UDP datagram (header and payload), built once
    Ptr<ExponentialRandomVariable> m_gap; //!< a Poisson source's gaps (s)
    uint16_t m_identification{0};         //!< the next IPv4 identification
    EventId m_event;                      //!< next datagram
    uint64_t m_sent{0};                   //!< datagrams the adapter accepted
    TracedCallback<Ptr<const Packet>> m_txTrace; //!< Tx: a datagram the adapter accepted
};

} // namespace ns3

#endif /* TESTBED_UDP_FRAME_SOURCE_H */
