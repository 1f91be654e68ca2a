/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "frame-descriptor.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

FrameTemplate::FrameTemplate(const std::vector<uint8_t>& payload,
                             uint32_t varOffset,
                             uint16_t protocol)
    : m_octets(payload)
    , m_varOffset(varOffset)
    , m_protocol(protocol)
{
    NS_ABORT_MSG_IF(varOffset + VAR > m_octets.size(),
                    "FrameTemplate: the variable octets ("
                        << varOffset << "+" << VAR << ") exceed the payload (" << m_octets.size()
                        << ")");
    std::fill(m_octets.begin() + varOffset, m_octets.begin() + varOffset + VAR, 0);
    // The fields HostPlatform::BindUdpMulticast and the snooping switch look at, if they are
    // constant: IPv4 without options, UDP, not a fragment, to 224.0.0.0/4, whole, and the
    // variable octets past the IPv4 and UDP headers.
    const uint8_t* h = m_octets.data();
    constexpr uint32_t kIpUdp = 20 + 8;
    if (protocol == 0x0800 && m_octets.size() >= kIpUdp && varOffset >= kIpUdp)
    {
        const uint32_t total = (static_cast<uint32_t>(h[2]) << 8) | h[3];
        if (h[0] == 0x45 && h[9] == 17 && (h[6] & 0x3f) == 0 && h[7] == 0 && (h[16] >> 4) == 0xe
            && total >= kIpUdp && total <= m_octets.size())
        {
            m_udp.valid = true;
            m_udp.group = Ipv4Address((static_cast<uint32_t>(h[16]) << 24) | (h[17] << 16)
                                      | (h[18] << 8) | h[19]);
            m_udp.port = static_cast<uint16_t>((h[22] << 8) | h[23]);
            m_udp.offset = kIpUdp;
            m_udp.size = total - kIpUdp;
        }
    }
}

uint32_t
FrameTemplate::CopyData(const uint8_t* var, uint8_t* buf, uint32_t n) const
{
    n = std::min<uint32_t>(n, m_octets.size());
    std::memcpy(buf, m_octets.data(), n);
    if (n > m_varOffset)
    {
        std::memcpy(buf + m_varOffset, var, std::min<uint32_t>(VAR, n - m_varOffset));
    }
    return n;
}

Ptr<Packet>
FrameTemplate::MakePacket(const uint8_t* var) const
{
    std::vector<uint8_t> b(m_octets);
    std::memcpy(b.data() + m_varOffset, var, VAR);
    return Create<Packet>(b.data(), b.size());
}

Ptr<Packet>
FrameDescriptor::MakePacket() const
{
    Ptr<Packet> payload = tmpl->MakePacket(var.data());
    if (!tagged)
    {
        return payload;
    }
    const auto tag = EthernetFraming::VlanTag(tci, tmpl->GetProtocol());
    Ptr<Packet> p = Create<Packet>(tag.data(), tag.size());
    p->AddAtEnd(payload);
    return p;
}

uint32_t
FrameDescriptor::CopyData(uint8_t* buf, uint32_t n) const
{
    if (!tagged)
    {
        return tmpl->CopyData(var.data(), buf, n);
    }
    const auto tag = EthernetFraming::VlanTag(tci, tmpl->GetProtocol());
    const uint32_t head = std::min<uint32_t>(n, tag.size());
    std::memcpy(buf, tag.data(), head);
    return head + (n > head ? tmpl->CopyData(var.data(), buf + head, n - head) : 0);
}

} // namespace ns3
