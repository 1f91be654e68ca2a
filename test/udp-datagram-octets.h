/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TEST_UDP_DATAGRAM_OCTETS_H
#define TESTBED_TEST_UDP_DATAGRAM_OCTETS_H

#include <algorithm>
#include <cstdint>
#include <vector>

/**
 * @file
 * @ingroup testbed-tests
 * A hand-built IPv4/UDP multicast datagram for the frame-descriptor tests.
 */

namespace ns3
{
namespace testdata
{

/**
 * @ingroup testbed-tests
 * @brief A 100-octet IPv4/UDP datagram laid out by hand (RFC 791/768): IPv4 header without
 * options from 10.0.0.@p srcHost to the group, UDP from port 5000 to 5001 with length 80, the
 * 16 octets after the UDP header zero (a template's variable octets) and the padding from octet
 * 44 on its own offset.
 * @param group the destination group's four octets
 * @param srcHost the source address's last octet
 * @return the datagram's octets
 */
inline std::vector<uint8_t>
UdpDatagram(const uint8_t (&group)[4], uint8_t srcHost)
{
    std::vector<uint8_t> d(100, 0);
    const uint8_t ip[20] = {0x45, 0, 0,  100, 0, 1,       0x40,     0,        1,        17,
                            0,    0, 10, 0,   0, srcHost, group[0], group[1], group[2], group[3]};
    std::copy(ip, ip + 20, d.begin());
    d[20] = 0x13; // source port 5000
    d[21] = 0x88;
    d[22] = 0x13; // destination port 5001
    d[23] = 0x89;
    d[24] = 0; // UDP length 80
    d[25] = 80;
    for (uint32_t k = 44; k < 100; ++k)
    {
        d[k] = static_cast<uint8_t>(k); // the constant padding
    }
    return d;
}

} // namespace testdata
} // namespace ns3

#endif /* TESTBED_TEST_UDP_DATAGRAM_OCTETS_H */
