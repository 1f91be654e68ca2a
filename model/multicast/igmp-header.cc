/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "igmp-header.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IgmpHeader");

NS_OBJECT_ENSURE_REGISTERED(IgmpHeader);

namespace
{

/// Internet checksum (RFC 1071) of @p len octets.
uint16_t
InternetChecksum(const uint8_t* buf, uint32_t len)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i + 1 < len; i += 2)
    {
        sum += (static_cast<uint32_t>(buf[i]) << 8) | buf[i + 1];
    }
    if (len & 1)
    {
        sum += static_cast<uint32_t>(buf[len - 1]) << 8;
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum & 0xffff);
}

uint32_t
ReadU32(const uint8_t* p)
{
    return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16)
           | (static_cast<uint32_t>(p[2]) << 8) | p[3];
}

uint16_t
ReadU16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

} // namespace

IgmpHeader::IgmpHeader()
{
}

TypeId
IgmpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IgmpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Testbed")
                            .AddConstructor<IgmpHeader>();
    return tid;
}

TypeId
IgmpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IgmpHeader::Print(std::ostream& os) const
{
    switch (m_type)
    {
        case MEMBERSHIP_QUERY:
            os << "IGMPv" << +GetQueryVersion() << " query group=" << m_group
               << " maxResp=" << GetMaxRespTime().As(Time::S);
            if (m_v3Query)
            {
                os << " S=" << m_sFlag << " QRV=" << +m_qrv << " QQIC=" << +m_qqic
                   << " nsrc=" << m_sources.size();
            }
            break;
        case V1_MEMBERSHIP_REPORT:
            os << "IGMPv1 report group=" << m_group;
            break;
        case V2_MEMBERSHIP_REPORT:
            os << "IGMPv2 report group=" << m_group;
            break;
        case V2_LEAVE_GROUP:
            os << "IGMPv2 leave group=" << m_group;
            break;
        case V3_MEMBERSHIP_REPORT:
            os << "IGMPv3 report";
            for (const auto& r : m_records)
            {
                os << " [type=" << +r.type << " group=" << r.group << " nsrc=" << r.sources.size()
                   << "]";
            }
            break;
        default:
            os << "IGMP type=0x" << std::hex << +m_type << std::dec;
    }
}

uint32_t
IgmpHeader::GetSerializedSize() const
{
    if (m_type == MEMBERSHIP_QUERY && m_v3Query)
    {
        return 12 + 4 * m_sources.size();
    }
    if (m_type == V3_MEMBERSHIP_REPORT)
    {
        uint32_t n = 8;
        for (const auto& r : m_records)
        {
            n += 8 + 4 * r.sources.size() + 4 * r.auxDataLen;
        }
        return n;
    }
    return 8;
}

void
IgmpHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    const uint32_t size = GetSerializedSize();
    i.WriteU8(m_type);
    if (m_type == V3_MEMBERSHIP_REPORT)
    {
        i.WriteU8(0);
        i.WriteU16(0);
        i.WriteU16(0);
        i.WriteHtonU16(static_cast<uint16_t>(m_records.size()));
        for (const auto& r : m_records)
        {
            i.WriteU8(r.type);
            i.WriteU8(r.auxDataLen);
            i.WriteHtonU16(static_cast<uint16_t>(r.sources.size()));
            i.WriteHtonU32(r.group.Get());
            for (const auto& s : r.sources)
            {
                i.WriteHtonU32(s.Get());
            }
            for (uint32_t k = 0; k < 4u * r.auxDataLen; ++k)
            {
                i.WriteU8(0);
            }
        }
    }
    else
    {
        i.WriteU8(m_maxRespCode);
        i.WriteU16(0);
        i.WriteHtonU32(m_group.Get());
        if (m_type == MEMBERSHIP_QUERY && m_v3Query)
        {
            i.WriteU8(static_cast<uint8_t>((m_sFlag ? 0x08 : 0) | (m_qrv & 0x07)));
            i.WriteU8(m_qqic);
            i.WriteHtonU16(static_cast<uint16_t>(m_sources.size()));
            for (const auto& s : m_sources)
            {
                i.WriteHtonU32(s.Get());
            }
        }
    }
    Buffer::Iterator c = start;
    uint16_t checksum = c.CalculateIpChecksum(size);
    c = start;
    c.Next(2);
    c.WriteU16(checksum); // CalculateIpChecksum returns the value in network order already
}

uint32_t
IgmpHeader::Deserialize(Buffer::Iterator start)
{
    const uint32_t len = start.GetRemainingSize();
    std::vector<uint8_t> buf(len);
    start.Read(buf.data(), len);
    m_parse = Parse(buf.data(), len);
    return len;
}

IgmpHeader::ParseResult
IgmpHeader::Parse(const uint8_t* buf, uint32_t len)
{
    m_sources.clear();
    m_records.clear();
    m_v3Query = false;
    m_sFlag = false;
    m_qrv = 0;
    m_qqic = 0;
    if (len < 8)
    {
        return PARSE_TOO_SHORT;
    }
    if (InternetChecksum(buf, len) != 0)
    {
        return PARSE_BAD_CHECKSUM;
    }
    m_type = buf[0];
    m_maxRespCode = buf[1];
    m_checksum = ReadU16(buf + 2);
    m_group = Ipv4Address(ReadU32(buf + 4));
    switch (m_type)
    {
        case MEMBERSHIP_QUERY: {
            if (len == 8)
            {
                return PARSE_OK;
            }
            if (len < 12)
            {
                return PARSE_BAD_LENGTH;
            }
            m_v3Query = true;
            m_sFlag = (buf[8] & 0x08) != 0;
            m_qrv = buf[8] & 0x07;
            m_qqic = buf[9];
            const uint16_t n = ReadU16(buf + 10);
            if (12u + 4u * n > len)
            {
                return PARSE_TOO_SHORT;
            }
            m_sources.reserve(n);
            for (uint16_t k = 0; k < n; ++k)
            {
                m_sources.emplace_back(ReadU32(buf + 12 + 4 * k));
            }
            return PARSE_OK;
        }
        case V1_MEMBERSHIP_REPORT:
        case V2_MEMBERSHIP_REPORT:
        case V2_LEAVE_GROUP:
            return PARSE_OK;
        case V3_MEMBERSHIP_REPORT: {
            const uint16_t nrec = ReadU16(buf + 6);
            m_group = Ipv4Address::GetAny();
            uint32_t off = 8;
            // Room for what the bytes can hold (a record takes at least 8 octets), not for what
            // the count field claims.
            m_records.reserve(std::min<uint32_t>(nrec, (len - 8) / 8));
            for (uint16_t k = 0; k < nrec; ++k)
            {
                if (off + 8 > len)
                {
                    return PARSE_TOO_SHORT;
                }
                IgmpGroupRecord r;
                r.type = buf[off];
                r.auxDataLen = buf[off + 1];
                const uint16_t ns = ReadU16(buf + off + 2);
                r.group = Ipv4Address(ReadU32(buf + off + 4));
                off += 8;
                if (off + 4u * ns + 4u * r.auxDataLen > len)
                {
                    return PARSE_TOO_SHORT;
                }
                r.sources.reserve(ns);
                for (uint16_t s = 0; s < ns; ++s)
                {
                    r.sources.emplace_back(ReadU32(buf + off));
                    off += 4;
                }
                off += 4u * r.auxDataLen;
                m_records.push_back(std::move(r));
            }
            return PARSE_OK;
        }
        default:
            return PARSE_UNKNOWN_TYPE;
    }
}

IgmpHeader::ParseResult
IgmpHeader::GetParseResult() const
{
    return m_parse;
}

const char*
IgmpHeader::ParseResultName(ParseResult r)
{
    switch (r)
    {
        case PARSE_OK:
            return "ok";
        case PARSE_TOO_SHORT:
            return "too-short";
        case PARSE_BAD_CHECKSUM:
            return "bad-checksum";
        case PARSE_BAD_LENGTH:
            return "bad-length";
        case PARSE_UNKNOWN_TYPE:
            return "unknown-type";
    }
    return "?";
}

uint8_t
IgmpHeader::EncodeCode(uint32_t units)
{
    if (units < 128)
    {
        return static_cast<uint8_t>(units);
    }
    // 1 | exp (3 bits) | mant (4 bits): value = (mant | 0x10) << (exp + 3); the largest
    // representable value not above @p units.
    for (int exp = 7; exp >= 0; --exp)
    {
        const uint32_t base = 0x10u << (exp + 3);
        if (units >= base)
        {
            uint32_t mant = (units >> (exp + 3)) & 0x0f;
            return static_cast<uint8_t>(0x80 | (exp << 4) | mant);
        }
    }
    return 127;
}

uint32_t
IgmpHeader::DecodeCode(uint8_t code)
{
    if (code < 128)
    {
        return code;
    }
    const uint32_t exp = (code >> 4) & 0x07;
    const uint32_t mant = code & 0x0f;
    return (mant | 0x10) << (exp + 3);
}

IgmpHeader
IgmpHeader::MakeV2Query(Ipv4Address group, Time maxResp)
{
    IgmpHeader h;
    h.m_type = MEMBERSHIP_QUERY;
    const int64_t ds = std::clamp<int64_t>(std::llround(maxResp.GetSeconds() * 10), 1, 255);
    h.m_maxRespCode = static_cast<uint8_t>(ds);
    h.m_group = group;
    return h;
}

IgmpHeader
IgmpHeader::MakeV3Query(Ipv4Address group,
                        Time maxResp,
                        bool sFlag,
                        uint8_t qrv,
                        Time qqi,
                        const std::vector<Ipv4Address>& sources)
{
    IgmpHeader h;
    h.m_type = MEMBERSHIP_QUERY;
    h.m_v3Query = true;
    h.m_maxRespCode = EncodeCode(
        static_cast<uint32_t>(std::max<int64_t>(1, std::llround(maxResp.GetSeconds() * 10))));
    h.m_group = group;
    h.m_sFlag = sFlag;
    h.m_qrv = qrv > 7 ? 0 : qrv;
    h.m_qqic = EncodeCode(static_cast<uint32_t>(std::llround(qqi.GetSeconds())));
    h.m_sources = sources;
    return h;
}

IgmpHeader
IgmpHeader::MakeV2Message(Type type, Ipv4Address group)
{
    IgmpHeader h;
    h.m_type = type;
    h.m_group = group;
    return h;
}

IgmpHeader
IgmpHeader::MakeV3Report(const std::vector<IgmpGroupRecord>& records)
{
    IgmpHeader h;
    h.m_type = V3_MEMBERSHIP_REPORT;
    h.m_records = records;
    return h;
}

uint8_t
IgmpHeader::GetType() const
{
    return m_type;
}

void
IgmpHeader::SetType(uint8_t t)
{
    m_type = t;
}

uint8_t
IgmpHeader::GetMaxRespCode() const
{
    return m_maxRespCode;
}

void
IgmpHeader::SetMaxRespCode(uint8_t c)
{
    m_maxRespCode = c;
}

Ipv4Address
IgmpHeader::GetGroup() const
{
    return m_group;
}

void
IgmpHeader::SetGroup(Ipv4Address g)
{
    m_group = g;
}

uint16_t
IgmpHeader::GetChecksum() const
{
    return m_checksum;
}

bool
IgmpHeader::IsV3Query() const
{
    return m_type == MEMBERSHIP_QUERY && m_v3Query;
}

void
IgmpHeader::SetV3Query(bool v3)
{
    m_v3Query = v3;
}

uint8_t
IgmpHeader::GetQueryVersion() const
{
    if (m_type != MEMBERSHIP_QUERY)
    {
        return 0;
    }
    if (m_v3Query)
    {
        return 3;
    }
    return m_maxRespCode == 0 ? 1 : 2;
}

Time
IgmpHeader::GetMaxRespTime() const
{
    switch (GetQueryVersion())
    {
        case 1:
            return Seconds(10); // RFC 2236 section 4: v1 queries mean 10 s
        case 2:
            return MilliSeconds(100) * m_maxRespCode;
        case 3:
            return MilliSeconds(100) * DecodeCode(m_maxRespCode);
        default:
            return Time(0);
    }
}

bool
IgmpHeader::GetSFlag() const
{
    return m_sFlag;
}

uint8_t
IgmpHeader::GetQrv() const
{
    return m_qrv;
}

uint8_t
IgmpHeader::GetQqic() const
{
    return m_qqic;
}

const std::vector<Ipv4Address>&
IgmpHeader::GetSources() const
{
    return m_sources;
}

const std::vector<IgmpGroupRecord>&
IgmpHeader::GetRecords() const
{
    return m_records;
}

} // namespace ns3
