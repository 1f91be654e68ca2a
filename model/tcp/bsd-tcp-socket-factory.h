/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_BSD_TCP_SOCKET_FACTORY_H
#define TESTBED_BSD_TCP_SOCKET_FACTORY_H

#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket-factory.h"

/**
 * @file
 * @ingroup testbed-tcp
 * The socket factory of a 4.4BSD host's TCP.
 */

namespace ns3
{

/**
 * @ingroup testbed-tcp
 * @brief Creates BsdTcpSocket objects on a node (aggregate it to the node; the node needs
 * ns-3's internet stack): Socket::CreateSocket(node, BsdTcpSocketFactory::GetTypeId()).
 *
 * ns-3's TcpL4Protocol creates only TcpSocketBase objects; this factory builds a BsdTcpSocket
 * the same way (the node's TcpL4Protocol, its RttEstimatorType, SocketType and RecoveryType)
 * and registers it with the protocol. The host's fast-timeout tick (tcp_fasttimo, on which
 * delayed ACKs are sent) has one phase per host, drawn uniformly in [0, DelAckTimeout) when the
 * first socket is created.
 */
class BsdTcpSocketFactory : public SocketFactory
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    BsdTcpSocketFactory();
    ~BsdTcpSocketFactory() override;

    Ptr<Socket> CreateSocket() override;

    /**
     * @brief Assign a fixed random variable stream number (the tick's phase).
     * @param stream the stream index
     * @return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /** @return the phase of the host's fast-timeout tick (drawn at the first socket) */
    Time GetFastTimerPhase();

  protected:
    void DoDispose() override;

  private:
    Ptr<UniformRandomVariable> m_phaseRv; //!< draws the tick's phase
    Time m_phase;                         //!< the tick's phase
    bool m_phaseDrawn{false};             //!< m_phase is set
};

} // namespace ns3

#endif /* TESTBED_BSD_TCP_SOCKET_FACTORY_H */
