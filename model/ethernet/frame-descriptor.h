/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FRAME_DESCRIPTOR_H
#define TESTBED_FRAME_DESCRIPTOR_H

#include "ethernet-framing.h"

#include "ns3/ipv4-address.h"
#include "ns3/packet.h"
#include "ns3/simple-ref-count.h"

#include <array>
#include <cstdint>
#include <vector>

/**
 * @file
 * @ingroup testbed-ethernet
 * Frames of one family that differ only in a few octets: a shared template and a descriptor.
 */

namespace ns3
{

/**
 * @ingroup testbed-ethernet
 * @brief The constant part of a family of frames that differ only in FrameTemplate::VAR
 * octets at one place: the payload (after the Ethernet header) with those octets zero, its
 * EtherType, and what switches and hosts look up in it, parsed once.
 *
 * [MEGA06]'s send_udp datagrams of one PC are such a family: IPv4 and UDP headers and padding
 * are the same for all of them; the 16 octets of the send_udp header (timestamp, node id,
 * serial) differ. A frame of the family travels as a FrameDescriptor (the template and its 16
 * octets) instead of an ns-3 Packet on the lean full-duplex path (FullDuplexEthernetNetDevice,
 * SnoopingBridgeNetDevice, HostNic, HostPlatform::BindUdpMulticast); MakePacket gives the same
 * octets as a Packet wherever the frame leaves that path.
 */
class FrameTemplate : public SimpleRefCount<FrameTemplate>
{
  public:
    /** Octets that differ from frame to frame. */
    static constexpr uint32_t VAR = 16;

    /**
     * @brief A template.
     * @param payload the payload's octets (those at varOffset are ignored)
     * @param varOffset where the variable octets start (varOffset + VAR <= payload size)
     * @param protocol the EtherType
     */
    FrameTemplate(const std::vector<uint8_t>& payload, uint32_t varOffset, uint16_t protocol);

    /** @return the payload's size (octets) */
    uint32_t GetSize() const
    {
        return static_cast<uint32_t>(m_octets.size());
    }

    /** @return the EtherType */
    uint16_t GetProtocol() const
    {
        return m_protocol;
    }

    /** @return where the variable octets start */
    uint32_t GetVarOffset() const
    {
        return m_varOffset;
    }

    /** @return the payload's octets (zero where the variable octets are) */
    const uint8_t* GetOctets() const
    {
        return m_octets.data();
    }

    /**
     * @brief The payload of one frame, as ns-3 Packet::CopyData would give it.
     * @param var the frame's variable octets
     * @param buf where to copy
     * @param n at most this many octets from the start
     * @return the octets copied
     */
    uint32_t CopyData(const uint8_t* var, uint8_t* buf, uint32_t n) const;

    /**
     * @brief The payload of one frame as an ns-3 Packet (for pcap, devices off the lean path,
     * the stack).
     * @param var the frame's variable octets
     * @return the packet
     */
    Ptr<Packet> MakePacket(const uint8_t* var) const;

    /// What an IPv4/UDP multicast datagram template holds (parsed once).
    struct Udp
    {
        bool valid{false};  //!< IPv4 without options, UDP, not a fragment, to 224/4, whole
        Ipv4Address group;  //!< destination group
        uint16_t port{0};   //!< UDP destination port
        uint32_t offset{0}; //!< where the UDP payload starts
        uint32_t size{0};   //!< the UDP payload's size (from the IPv4 total length)
    };

    /** @return the IPv4/UDP multicast fields (valid false if it is not such a datagram) */
    const Udp& GetUdp() const
    {
        return m_udp;
    }

  private:
    std::vector<uint8_t> m_octets; //!< the payload, zero at the variable octets
    uint32_t m_varOffset;          //!< where the variable octets start
    uint16_t m_protocol;           //!< EtherType
    Udp m_udp;                     //!< IPv4/UDP multicast fields
};

/**
 * @ingroup testbed-ethernet
 * @brief One frame of a FrameTemplate's family: the template and the frame's variable octets
 * (copied by value through the lean path instead of an ns-3 Packet), and on an 802.1Q trunk
 * the tag before the payload.
 *
 * A switch tags a frame as it leaves by a trunk port and strips the tag as it comes in by one
 * (SwitchNetDevice), so a tagged descriptor only crosses a trunk's link: its size and EtherType
 * are the tagged frame's, and its octets the tag (TCI, then the template's EtherType) followed
 * by the payload, as the Packet a trunk port of the general path sends.
 */
struct FrameDescriptor
{
    Ptr<const FrameTemplate> tmpl;                 //!< the constant part
    std::array<uint8_t, FrameTemplate::VAR> var{}; //!< the octets that differ
    uint16_t tci{0};                               //!< the 802.1Q tag's TCI, if tagged
    bool tagged{false};                            //!< an 802.1Q tag precedes the payload

    /** @return the payload's size (octets), the tag included */
    uint32_t GetSize() const
    {
        return tmpl->GetSize() + (tagged ? EthernetFraming::VLAN_TAG : 0);
    }

    /** @return the EtherType (802.1Q's if tagged) */
    uint16_t GetProtocol() const
    {
        return tagged ? EthernetFraming::VLAN_ETHERTYPE : tmpl->GetProtocol();
    }

    /** @return the frame's payload (the tag first, if tagged) as an ns-3 Packet */
    Ptr<Packet> MakePacket() const;

    /**
     * @brief Copy the start of the payload (the tag first, if tagged).
     * @param buf where to
     * @param n at most this many octets
     * @return the octets copied
     */
    uint32_t CopyData(uint8_t* buf, uint32_t n) const;
};

} // namespace ns3

#endif /* TESTBED_FRAME_DESCRIPTOR_H */
