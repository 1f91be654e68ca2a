/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_ETHERNET_FRAMING_H
#define TESTBED_ETHERNET_FRAMING_H

#include <algorithm>
#include <array>
#include <cstdint>

/**
 * @file
 * @ingroup testbed-ethernet
 * IEEE 802.3 framing: the constants and the octets a frame occupies on the wire.
 */

namespace ns3
{

/**
 * @ingroup testbed-ethernet
 * @brief IEEE 802.3 framing (clauses 3 and 4), in one place for everything that times a frame.
 *
 * A frame carrying P payload octets is the 14-octet header (destination, source, type), the
 * payload padded to 46 octets, and the 4-octet FCS: 64 to 1518 octets (an 802.1Q tag travels
 * inside the payload, up to 1522). On the wire it is preceded by 8 octets of preamble and SFD
 * and followed by the interframe gap of 96 bit times (12 octet times). A 100-octet IP datagram
 * thus occupies 8 + 118 + 12 = 138 octet times; a 28-octet one (padded to 46) 8 + 64 + 12 = 84.
 *
 * Both Ethernet MACs of the module (EthernetNetDevice, FullDuplexEthernetNetDevice) derive from
 * it through EthernetPort, so that EthernetNetDevice::PREAMBLE and friends name these.
 */
struct EthernetFraming
{
    /** Preamble and SFD (octets). */
    static constexpr uint32_t PREAMBLE = 8;
    /** Header: destination, source, type (octets). */
    static constexpr uint32_t HEADER = 14;
    /** Frame check sequence (octets). */
    static constexpr uint32_t FCS = 4;
    /** 802.1Q tag (octets, inside the payload). */
    static constexpr uint32_t VLAN_TAG = 4;
    /** The EtherType of an 802.1Q-tagged frame. */
    static constexpr uint16_t VLAN_ETHERTYPE = 0x8100;
    /** Minimum frame, header to FCS (octets). */
    static constexpr uint32_t MIN_FRAME = 64;
    /** Maximum untagged frame, header to FCS (octets). */
    static constexpr uint32_t MAX_FRAME = 1518;
    /** Minimum payload: shorter payloads are padded to it (octets). */
    static constexpr uint32_t MIN_PAYLOAD = MIN_FRAME - HEADER - FCS;
    /** Maximum payload (octets). */
    static constexpr uint32_t MAX_PAYLOAD = MAX_FRAME - HEADER - FCS;
    /** Interframe gap (bit times). */
    static constexpr uint32_t IFG_BITS = 96;
    /** Interframe gap (octet times). */
    static constexpr uint32_t IFG = IFG_BITS / 8;
    /** The part of the gap in which a carrier restarts a deferral (bit times, 4.2.3.2.1). */
    static constexpr uint32_t IFG_PART1_BITS = 64;
    /** Slot time (bit times). */
    static constexpr uint32_t SLOT_BITS = 512;
    /** Jam (bit times). */
    static constexpr uint32_t JAM_BITS = 32;
    /** Attempts before a frame is discarded (half duplex). */
    static constexpr uint32_t ATTEMPT_LIMIT = 16;
    /** Largest backoff exponent (half duplex). */
    static constexpr uint32_t BACKOFF_LIMIT = 10;

    /**
     * @brief The 802.1Q tag that starts a tagged frame's payload (after the 0x8100 type).
     * @param tci the tag control information (priority, DEI, VLAN id)
     * @param inner the EtherType of the payload after the tag
     * @return the TCI and the inner EtherType, in network order
     */
    static constexpr std::array<uint8_t, VLAN_TAG> VlanTag(uint16_t tci, uint16_t inner)
    {
        return {static_cast<uint8_t>(tci >> 8),
                static_cast<uint8_t>(tci & 0xff),
                static_cast<uint8_t>(inner >> 8),
                static_cast<uint8_t>(inner & 0xff)};
    }

    /**
     * @brief Octets of the frame that carries a payload, header to FCS.
     * @param payload the payload's octets (an 802.1Q tag included)
     * @return max(64, 14 + payload + 4)
     */
    static constexpr uint32_t FrameOctets(uint32_t payload)
    {
        return std::max(MIN_FRAME, HEADER + payload + FCS);
    }

    /**
     * @brief Octet times a frame occupies the wire: preamble and SFD, the frame, the gap.
     * @param payload the payload's octets
     * @return 8 + FrameOctets(payload) + 12
     */
    static constexpr uint32_t WireOctets(uint32_t payload)
    {
        return PREAMBLE + FrameOctets(payload) + IFG;
    }
};

} // namespace ns3

#endif /* TESTBED_ETHERNET_FRAMING_H */
