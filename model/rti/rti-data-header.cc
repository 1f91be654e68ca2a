/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-data-header.h"

#include "ns3/abort.h"
#include "ns3/packet.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RtiDataHeader);

TypeId
RtiDataHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiDataHeader")
                            .SetParent<Header>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiDataHeader>();
    return tid;
}

TypeId
RtiDataHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RtiDataHeader::RtiDataHeader(uint32_t size)
    : m_size(size)
    , m_type(UPDATE)
{
    NS_ABORT_MSG_IF(size < FIELDS_SIZE,
                    "RtiDataHeader: an encoding header of " << size << " bytes cannot hold the "
                                                            << FIELDS_SIZE << " bytes of fields");
}

uint32_t
RtiDataHeader::GetSerializedSize() const
{
    return m_size;
}

void
RtiDataHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(UPDATE);
    i.WriteHtonU32(objectClass);
    i.WriteHtonU32(sender);
    i.WriteHtonU32(seq);
    i.WriteHtonU64(static_cast<uint64_t>(tag.GetNanoSeconds()));
    i.WriteHtonU32(payload);
    for (uint32_t k = FIELDS_SIZE; k < m_size; ++k)
    {
        i.WriteU8(0);
    }
}

uint32_t
RtiDataHeader::Deserialize(Buffer::Iterator i)
{
    m_type = i.ReadU8();
    objectClass = i.ReadNtohU32();
    sender = i.ReadNtohU32();
    seq = i.ReadNtohU32();
    tag = NanoSeconds(static_cast<int64_t>(i.ReadNtohU64()));
    payload = i.ReadNtohU32();
    i.Next(m_size - FIELDS_SIZE);
    return m_size;
}

bool
RtiDataHeader::TryPeek(Ptr<const Packet> packet, uint32_t size, std::string& reason)
{
    m_size = size;
    if (packet->GetSize() < size)
    {
        reason = "shorter than the RTI header";
        return false;
    }
    packet->PeekHeader(*this);
    if (m_type != UPDATE)
    {
        reason = "unknown message type";
        return false;
    }
    if (packet->GetSize() - size != payload)
    {
        reason = "payload length does not match the datagram";
        return false;
    }
    return true;
}

void
RtiDataHeader::Print(std::ostream& os) const
{
    os << "update class=" << objectClass << " sender=" << sender << " seq=" << seq
       << " tag=" << tag.GetNanoSeconds() << "ns payload=" << payload;
}

} // namespace ns3
