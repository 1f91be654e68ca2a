/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fddi-header.h"

#include "ns3/address-utils.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FddiHeader);

FddiHeader::FddiHeader()
    : m_fc(LLC_ASYNC)
{
}

TypeId
FddiHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FddiHeader")
                            .SetParent<Header>()
                            .SetGroupName("Testbed")
                            .AddConstructor<FddiHeader>();
    return tid;
}

TypeId
FddiHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
FddiHeader::Print(std::ostream& os) const
{
    os << "FC=0x" << std::hex << uint32_t(m_fc) << std::dec << " " << m_src << " > " << m_dst;
}

uint32_t
FddiHeader::GetSerializedSize() const
{
    return SIZE;
}

void
FddiHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_fc);
    WriteTo(start, m_dst);
    WriteTo(start, m_src);
}

uint32_t
FddiHeader::Deserialize(Buffer::Iterator start)
{
    // Length first: a short frame yields 0 and leaves the header unchanged.
    if (start.GetRemainingSize() < SIZE)
    {
        return 0;
    }
    m_fc = start.ReadU8();
    ReadFrom(start, m_dst);
    ReadFrom(start, m_src);
    return SIZE;
}

void
FddiHeader::SetFrameControl(uint8_t fc)
{
    m_fc = fc;
}

uint8_t
FddiHeader::GetFrameControl() const
{
    return m_fc;
}

void
FddiHeader::SetDestination(Mac48Address a)
{
    m_dst = a;
}

Mac48Address
FddiHeader::GetDestination() const
{
    return m_dst;
}

void
FddiHeader::SetSource(Mac48Address a)
{
    m_src = a;
}

Mac48Address
FddiHeader::GetSource() const
{
    return m_src;
}

} // namespace ns3
