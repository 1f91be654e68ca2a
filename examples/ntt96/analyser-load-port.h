/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_ANALYSER_LOAD_PORT_H
#define TESTBED_ANALYSER_LOAD_PORT_H

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

/**
 * @file
 * @ingroup testbed-apps
 * [NTT96]'s load: the analyser's load port.
 */

namespace ns3
{

/**
 * @ingroup testbed-apps
 * @brief A traffic generator's port: UDP datagrams at a constant rate, put on the wire by the
 * port's adapter as addressed at set-up ([NTT96]'s analyser loads the ring or the hub).
 *
 * A hardware generator plays frames it was given; it runs no host stack. So the frames go to
 * the adapter (NetDevice::Send) with their IPv4 and UDP headers built here, addressed to the
 * next hop's MAC address given at set-up: no ARP exchange, no route lookup and no queue disc
 * on the way, and no CPU is charged (the load's rate is an input). The IPv4 header is the one
 * ns-3's Ipv4L3Protocol builds (TTL 64, may fragment, an identification that counts the
 * datagrams, a checksum when Node::ChecksumEnabled), so the router and the sink's stack
 * receive what they would from a host. A frame the adapter refuses (its queue full) is lost,
 * as in a generator's own buffer.
 */
class AnalyserLoadPort : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    AnalyserLoadPort();
    ~AnalyserLoadPort() override;

    /**
     * @brief Where the frames go.
     * @param device the port's adapter (on this application's node)
     * @param nextHop the MAC address of the next hop (the destination on the same segment, or
     *        the router's interface)
     * @param source the datagrams' source address (the port's own)
     * @param destination the datagrams' destination address
     */
    void SetTarget(Ptr<NetDevice> device,
                   const Address& nextHop,
                   Ipv4Address source,
                   Ipv4Address destination);

    /** @return datagrams the adapter accepted */
    uint64_t GetSent() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /** Put one frame on the adapter and schedule the next. */
    void Send();

    double m_rate;                //!< Rate (datagrams/s)
    uint32_t m_size;              //!< PacketSize (UDP payload bytes)
    uint16_t m_sourcePort;        //!< SourcePort
    uint16_t m_destinationPort;   //!< DestinationPort
    Ptr<NetDevice> m_device;      //!< the port's adapter
    Address m_nextHop;            //!< the next hop's MAC address
    Ipv4Address m_source;         //!< source address
    Ipv4Address m_destination;    //!< destination address
    Ptr<Packet> m_datagram;       //!< the UDP datagram (header and payload), built once
    uint16_t m_identification{0}; //!< the next IPv4 identification
    EventId m_event;              //!< next send
    uint64_t m_sent{0};           //!< datagrams the adapter accepted
    TracedCallback<Ptr<const Packet>> m_txTrace; //!< Tx: a frame the adapter accepted
};

} // namespace ns3

#endif /* TESTBED_ANALYSER_LOAD_PORT_H */
