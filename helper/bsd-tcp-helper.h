/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_BSD_TCP_HELPER_H
#define TESTBED_BSD_TCP_HELPER_H

#include "ns3/node-container.h"

#include <cstdint>

/**
 * @file
 * @ingroup testbed-tcp
 * Hosts with 4.4BSD's TCP.
 */

namespace ns3
{

/**
 * @ingroup testbed-tcp
 * @brief Gives nodes 4.4BSD's TCP: ns-3's TCP attributes set to 4.4BSD-Lite's values
 * (ConfigureDefaults) and a BsdTcpSocketFactory on each node (Install); applications create
 * their sockets with BsdTcpSocketFactory::GetTypeId().
 */
class BsdTcpHelper
{
  public:
    /**
     * @brief Set the defaults of ns-3's TCP attributes to 4.4BSD-Lite's (doc/tcp.rst gives the
     * source of each): Reno with classic recovery, initial window one segment, Nagle on,
     * delayed-ACK tick 200 ms (PR_FASTHZ) and no ACK-every-n-segments rule on arrival (an ACK
     * goes out on the tick, on a read that opens the window, or for out-of-order data), 12 data
     * retransmissions (TCP_MAXRXTSHIFT), minimum RTO 1 s (TCPTV_MIN) on a 500 ms clock, no
     * SACK, no window scaling. Each is a default (UserAttributes::SetConfigDefault): a value the
     * user gave on the command line (`--ns3::TcpSocket::DataRetries=...`) stays; a program
     * that passes its own option's value (@p sndBuf, @p rcvBuf, @p timestamps) refuses the
     * user's value for that attribute itself (UserAttributes::RequireNotGiven).
     * @param sndBuf send buffer (tcp_sendspace: 8192)
     * @param rcvBuf receive buffer (tcp_recvspace: 8192)
     * @param timestamps RFC 1323 timestamps (4.4BSD-Lite: on, tcp_do_rfc1323; most vendor stacks
     *        of 1995-96: none)
     */
    static void ConfigureDefaults(uint32_t sndBuf = 8192,
                                  uint32_t rcvBuf = 8192,
                                  bool timestamps = false);

    /**
     * @brief Aggregate a BsdTcpSocketFactory to each node (which has the internet stack).
     * @param nodes the hosts
     */
    static void Install(NodeContainer nodes);

    /**
     * @brief Fix the random streams of the nodes' factories (each host's fast-timer phase).
     * @param nodes the hosts
     * @param stream first stream index
     * @return streams used
     */
    static int64_t AssignStreams(NodeContainer nodes, int64_t stream);
};

} // namespace ns3

#endif /* TESTBED_BSD_TCP_HELPER_H */
