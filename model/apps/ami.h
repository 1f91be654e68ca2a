/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_AMI_H
#define TESTBED_AMI_H

#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"

/**
 * @file
 * @ingroup testbed-apps
 * ami (A Multicast Introducer) of [MEGA06]: makes a receiver join a multicast group.
 */

namespace ns3
{

class HostProcess;
class Socket;

/**
 * @ingroup testbed-apps
 * @brief ami: joins the node to a multicast group through IgmpL4Protocol, and leaves it when
 * stopped.
 *
 * At start the ami process opens a UDP socket and calls IP_ADD_MEMBERSHIP
 * (IgmpL4Protocol::JoinGroup) after JoinCost cycles of CPU (socket and setsockopt system
 * calls); the kernel's IGMP then reports the membership (and answers the querier's queries from
 * then on). At stop it leaves (IP_DROP_MEMBERSHIP). The node needs IgmpL4Protocol
 * (IgmpHelper::Install).
 */
class Ami : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    Ami();
    ~Ami() override;

    /**
     * @brief Whether the membership is in place.
     * @return true between the join and the leave
     */
    bool IsJoined() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /** Join (process context). */
    void Join();

    Ipv4Address m_group;        //!< Group
    int32_t m_interface;        //!< Interface (-1 = first multicast-capable interface)
    double m_joinCycles;        //!< JoinCost
    Ptr<Socket> m_socket;       //!< the socket holding the membership
    Ptr<HostProcess> m_process; //!< the ami process (null without a host)
    bool m_joined;              //!< membership in place
    bool m_running;             //!< started and not stopped
};

} // namespace ns3

#endif /* TESTBED_AMI_H */
