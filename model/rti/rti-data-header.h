/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_DATA_HEADER_H
#define TESTBED_RTI_DATA_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

/**
 * @file
 * @ingroup testbed-rti
 * The header of an update on the direct data path (RtiLrc).
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief The RTI header of one attribute update on the direct data path: its fields, then
 * padding up to the RTI's encoding header size (RtiSettings::EncodingHeaderSize), then the
 * application's attribute bytes (a payload of that many bytes follows the header).
 *
 * Wire format (network byte order): type (1 byte, 'U'), object class (4), sending federate (4),
 * sequence number (4), tag in nanoseconds (8, signed), payload length (4), zero padding.
 */
class RtiDataHeader : public Header
{
  public:
    /** Bytes of the fields before the padding. */
    static constexpr uint32_t FIELDS_SIZE = 25;
    /** The type byte of an update. */
    static constexpr uint8_t UPDATE = 'U';

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /**
     * @brief A header of a given encoded size.
     * @param size the serialized size (>= FIELDS_SIZE)
     */
    explicit RtiDataHeader(uint32_t size = FIELDS_SIZE);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * @brief Read a header from the front of a packet of the direct path, checking it.
     * @param packet the packet (header and payload)
     * @param size the encoding header size of the federation
     * @param reason set when the bytes are not a valid update
     * @return true if the packet holds exactly one valid update
     */
    bool TryPeek(Ptr<const class Packet> packet, uint32_t size, std::string& reason);

    uint32_t objectClass{0}; //!< object class handle
    uint32_t sender{0};      //!< sending federate handle
    uint32_t seq{0};         //!< per-sender sequence number
    Time tag;                //!< the sending RCI's tag (its local time)
    uint32_t payload{0};     //!< attribute bytes that follow

  private:
    uint32_t m_size; //!< serialized size
    uint8_t m_type;  //!< type byte read
};

} // namespace ns3

#endif /* TESTBED_RTI_DATA_HEADER_H */
