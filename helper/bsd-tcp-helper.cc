/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bsd-tcp-helper.h"

#include "user-attributes.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/bsd-tcp-socket-factory.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

void
BsdTcpHelper::ConfigureDefaults(uint32_t sndBuf, uint32_t rcvBuf, bool timestamps)
{
    UserAttributes::SetConfigDefault("ns3::TcpL4Protocol::SocketType",
                                     StringValue("ns3::TcpLinuxReno"));
    UserAttributes::SetConfigDefault("ns3::TcpL4Protocol::RecoveryType",
                                     StringValue("ns3::TcpClassicRecovery"));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::SndBufSize", UintegerValue(sndBuf));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(rcvBuf));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(1));
    // PR_FASTHZ = 5: tcp_fasttimo every 200 ms (BsdTcpSocket sends delayed ACKs on that tick).
    UserAttributes::SetConfigDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(200)));
    // TCP_REASS only sets TF_DELACK for in-order data: no ACK every n-th segment on arrival.
    UserAttributes::SetConfigDefault("ns3::TcpSocket::DelAckCount",
                                     UintegerValue(std::numeric_limits<uint32_t>::max()));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::TcpNoDelay", BooleanValue(false)); // Nagle on
    // TCP_MAXRXTSHIFT = 12 retransmissions, the 13th timeout drops the connection.
    UserAttributes::SetConfigDefault("ns3::TcpSocket::DataRetries", UintegerValue(12));
    // SYNs: BsdTcpSocket's own timers (6 s, then 24, 48 s) and the 75 s connection-establishment
    // timer, which expires before ns-3's count of SYN retries could.
    UserAttributes::SetConfigDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(6)));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::ConnCount", UintegerValue(13));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(timestamps));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(false));
    // TCPTV_MIN = 1 s; the slow timeout's 500 ms clock.
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::ClockGranularity",
                                     TimeValue(MilliSeconds(500)));
}

void
BsdTcpHelper::Install(NodeContainer nodes)
{
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> n = nodes.Get(i);
        NS_ABORT_MSG_IF(n->GetObject<BsdTcpSocketFactory>(),
                        "BsdTcpHelper::Install: node " << n->GetId() << " has one already");
        n->AggregateObject(CreateObject<BsdTcpSocketFactory>());
    }
}

int64_t
BsdTcpHelper::AssignStreams(NodeContainer nodes, int64_t stream)
{
    int64_t used = 0;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<BsdTcpSocketFactory> f = nodes.Get(i)->GetObject<BsdTcpSocketFactory>();
        NS_ABORT_MSG_IF(!f,
                        "BsdTcpHelper::AssignStreams: node " << nodes.Get(i)->GetId()
                                                             << " has no BsdTcpSocketFactory");
        used += f->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
