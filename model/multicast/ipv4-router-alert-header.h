/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_IPV4_ROUTER_ALERT_HEADER_H
#define TESTBED_IPV4_ROUTER_ALERT_HEADER_H

#include "ns3/header.h"
#include "ns3/ipv4-address.h"

/**
 * @file
 * @ingroup testbed-multicast
 * An IPv4 header with the Router Alert option (RFC 2113), as IGMP messages carry it.
 */

namespace ns3
{

/**
 * @ingroup testbed-multicast
 * @brief A 24-octet IPv4 header carrying the Router Alert option (RFC 2113), for IGMP.
 *
 * ns-3's Ipv4Header serializes 20 octets only. IGMP messages must carry Router Alert (RFC 2236
 * section 2, RFC 3376 section 4), so IgmpL4Protocol writes its IPv4 header with this class and
 * hands the finished datagram to the traffic-control layer of the interface. The header checksum
 * is always computed. Deserialization is not needed on the model's receive path (ns-3's
 * Ipv4Header skips options) but is provided for tests and captures: it checks the length first
 * (at least 20 octets, version 4, a header length of 5 to 15 words that the bytes hold); a
 * header that fails is not read: Deserialize returns 0 and IsValid() is false.
 */
class Ipv4RouterAlertHeader : public Header
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    Ipv4Address source;         //!< source address
    Ipv4Address destination;    //!< destination address
    uint16_t payloadSize{0};    //!< IGMP message length (octets)
    uint16_t identification{0}; //!< IP identification
    uint8_t ttl{1};             //!< time to live (1 for IGMP)
    uint8_t tos{0xc0};          //!< type of service (Internet Control, as Linux sends IGMP)
    uint8_t protocol{2};        //!< protocol number (2 = IGMP)

    /** @return whether the last Deserialize read a well-formed header */
    bool IsValid() const;

  private:
    bool m_valid{true}; //!< the last Deserialize read a well-formed header
};

} // namespace ns3

#endif /* TESTBED_IPV4_ROUTER_ALERT_HEADER_H */
