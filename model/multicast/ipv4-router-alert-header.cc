/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ipv4-router-alert-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(Ipv4RouterAlertHeader);

TypeId
Ipv4RouterAlertHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::Ipv4RouterAlertHeader")
                            .SetParent<Header>()
                            .SetGroupName("Testbed")
                            .AddConstructor<Ipv4RouterAlertHeader>();
    return tid;
}

TypeId
Ipv4RouterAlertHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
Ipv4RouterAlertHeader::Print(std::ostream& os) const
{
    os << "IPv4+RA " << source << " > " << destination << " ttl=" << +ttl << " proto=" << +protocol
       << " len=" << (24 + payloadSize);
}

uint32_t
Ipv4RouterAlertHeader::GetSerializedSize() const
{
    return 24;
}

void
Ipv4RouterAlertHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(0x46); // version 4, IHL 6 (24 octets)
    i.WriteU8(tos);
    i.WriteHtonU16(static_cast<uint16_t>(24 + payloadSize));
    i.WriteHtonU16(identification);
    i.WriteHtonU16(0x4000); // DF, offset 0 (as Linux sends IGMP)
    i.WriteU8(ttl);
    i.WriteU8(protocol);
    i.WriteU16(0);
    i.WriteHtonU32(source.Get());
    i.WriteHtonU32(destination.Get());
    // Router Alert: type 148 (copied, class 0, number 20), length 4, value 0 (RFC 2113).
    i.WriteU8(0x94);
    i.WriteU8(0x04);
    i.WriteU16(0);
    Buffer::Iterator c = start;
    uint16_t checksum = c.CalculateIpChecksum(24);
    c = start;
    c.Next(10);
    c.WriteU16(checksum);
}

uint32_t
Ipv4RouterAlertHeader::Deserialize(Buffer::Iterator start)
{
    // The length first: an IPv4 header is at least 20 octets, version 4, and its header length
    // (5 to 15 words) must be in the bytes; the total length must cover the header.
    const uint32_t left = start.GetRemainingSize();
    Buffer::Iterator peek = start;
    const uint8_t first = left >= 1 ? peek.ReadU8() : 0;
    const uint32_t ihl = 4u * (first & 0x0f);
    m_valid = left >= 20 && (first >> 4) == 4 && ihl >= 20 && ihl <= left;
    if (m_valid)
    {
        peek.Next(1);
        m_valid = peek.ReadNtohU16() >= ihl;
    }
    if (!m_valid)
    {
        return 0;
    }
    Buffer::Iterator i = start;
    uint8_t verIhl = i.ReadU8();
    tos = i.ReadU8();
    payloadSize = static_cast<uint16_t>(i.ReadNtohU16() - 4 * (verIhl & 0x0f));
    identification = i.ReadNtohU16();
    i.Next(2);
    ttl = i.ReadU8();
    protocol = i.ReadU8();
    i.Next(2);
    source = Ipv4Address(i.ReadNtohU32());
    destination = Ipv4Address(i.ReadNtohU32());
    i.Next(4 * (verIhl & 0x0f) - 20);
    return 4 * (verIhl & 0x0f);
}

bool
Ipv4RouterAlertHeader::IsValid() const
{
    return m_valid;
}

} // namespace ns3
