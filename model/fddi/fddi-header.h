/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FDDI_HEADER_H
#define TESTBED_FDDI_HEADER_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"

/**
 * @file
 * @ingroup testbed-fddi
 * The FDDI MAC header (frame control, destination and source addresses).
 */

namespace ns3
{

/**
 * @ingroup testbed-fddi
 * @brief The part of an FDDI frame between the starting delimiter and the information field:
 * frame control (FC) and the 48-bit destination and source addresses (ANSI X3.139).
 *
 * The preamble, starting delimiter, frame check sequence, ending delimiter and frame status
 * are not carried in the packet; FddiNetDevice counts their 15 bytes in the frame's time on the
 * ring (FddiNetDevice::WIRE_OVERHEAD).
 */
class FddiHeader : public Header
{
  public:
    /** Frame-control values of LLC frames with 48-bit addresses (ANSI X3.139, RFC 1390). */
    enum FrameControl : uint8_t
    {
        LLC_ASYNC = 0x50, //!< asynchronous LLC frame, priority 0
        LLC_SYNC = 0xD0,  //!< synchronous LLC frame
    };

    /** Serialized size in bytes. */
    static constexpr uint32_t SIZE = 13;

    FddiHeader();

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

    /** @param fc the frame control byte */
    void SetFrameControl(uint8_t fc);
    /** @return the frame control byte */
    uint8_t GetFrameControl() const;
    /** @param a the destination */
    void SetDestination(Mac48Address a);
    /** @return the destination */
    Mac48Address GetDestination() const;
    /** @param a the source */
    void SetSource(Mac48Address a);
    /** @return the source */
    Mac48Address GetSource() const;

  private:
    uint8_t m_fc;       //!< frame control
    Mac48Address m_dst; //!< destination
    Mac48Address m_src; //!< source
};

} // namespace ns3

#endif /* TESTBED_FDDI_HEADER_H */
