/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bsd-tcp-socket-factory.h"

#include "bsd-tcp-socket.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/rtt-estimator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-socket.h"
#include "ns3/type-id.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BsdTcpSocketFactory");
NS_OBJECT_ENSURE_REGISTERED(BsdTcpSocketFactory);

TypeId
BsdTcpSocketFactory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BsdTcpSocketFactory")
                            .SetParent<SocketFactory>()
                            .SetGroupName("Testbed")
                            .AddConstructor<BsdTcpSocketFactory>();
    return tid;
}

BsdTcpSocketFactory::BsdTcpSocketFactory()
{
    NS_LOG_FUNCTION(this);
    m_phaseRv = CreateObject<UniformRandomVariable>();
}

BsdTcpSocketFactory::~BsdTcpSocketFactory()
{
    NS_LOG_FUNCTION(this);
}

void
BsdTcpSocketFactory::DoDispose()
{
    m_phaseRv = nullptr;
    SocketFactory::DoDispose();
}

int64_t
BsdTcpSocketFactory::AssignStreams(int64_t stream)
{
    m_phaseRv->SetStream(stream);
    return 1;
}

Time
BsdTcpSocketFactory::GetFastTimerPhase()
{
    if (!m_phaseDrawn)
    {
        // The tick's period is the sockets' DelAckTimeout (PR_FASTHZ: 200 ms in 4.4BSD), as
        // configured when the first socket is made.
        TypeId::AttributeInformation info;
        TcpSocket::GetTypeId().LookupAttributeByName("DelAckTimeout", &info);
        Ptr<const TimeValue> period = DynamicCast<const TimeValue>(info.initialValue);
        NS_ABORT_MSG_IF(!period, "BsdTcpSocketFactory: no TcpSocket::DelAckTimeout");
        m_phase = Seconds(m_phaseRv->GetValue(0, period->Get().GetSeconds()));
        m_phaseDrawn = true;
    }
    return m_phase;
}

Ptr<Socket>
BsdTcpSocketFactory::CreateSocket()
{
    NS_LOG_FUNCTION(this);
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(!node, "BsdTcpSocketFactory: not aggregated to a node");
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_IF(!tcp, "BsdTcpSocketFactory: node " << node->GetId() << " has no TcpL4Protocol");
    // As TcpL4Protocol::CreateSocket, with a BsdTcpSocket.
    TypeIdValue rttType;
    TypeIdValue congestionType;
    TypeIdValue recoveryType;
    tcp->GetAttribute("RttEstimatorType", rttType);
    tcp->GetAttribute("SocketType", congestionType);
    tcp->GetAttribute("RecoveryType", recoveryType);
    ObjectFactory rtt(rttType.Get().GetName());
    ObjectFactory congestion(congestionType.Get().GetName());
    ObjectFactory recovery(recoveryType.Get().GetName());
    const Time phase = GetFastTimerPhase();
    Ptr<BsdTcpSocket> socket = CreateObject<BsdTcpSocket>();
    socket->SetNode(node);
    socket->SetTcp(tcp);
    socket->SetRtt(rtt.Create<RttEstimator>());
    socket->SetCongestionControlAlgorithm(congestion.Create<TcpCongestionOps>());
    socket->SetRecoveryAlgorithm(recovery.Create<TcpRecoveryOps>());
    socket->SetFastTimerPhase(phase);
    tcp->AddSocket(socket);
    return socket;
}

} // namespace ns3
