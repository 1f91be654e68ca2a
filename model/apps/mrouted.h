/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_MROUTED_H
#define TESTBED_MROUTED_H

#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>

/**
 * @file
 * @ingroup testbed-apps
 * The IGMP querier of [MEGA06] (mrouted) as a user-space process on a host platform.
 */

namespace ns3
{

class HostProcess;
class IgmpHeader;
class IgmpL4Protocol;
class Ipv4Address;

/**
 * @ingroup testbed-apps
 * @brief mrouted's IGMP querier: IgmpL4Protocol's router part on an interface, with every IGMP
 * transmission done by a PROCESS-class process on the host.
 *
 * At start it enables the router part of the node's IgmpL4Protocol on Interface (querier
 * election, startup and periodic general queries, group table) and installs the protocol's
 * transmit hook (IgmpL4Protocol::SetTransmitHook): when the protocol's timer says a message is
 * due, the mrouted process is woken (OS scheduling latency, then the run queue; the process is
 * a user process, below interrupts and softirqs) and runs WorkCost cycles plus the host's send
 * path (HostPlatform::GetSendCost of the IGMP datagram) before the message goes out. The
 * protocol's timers keep running in simulated time (as the kernel's and mrouted's timer
 * arithmetic would): a query that is due while the CPU is in receive livelock waits in the
 * process's queue and goes out late, or never. Messages leave in the order they fell due.
 *
 * GetQueriesDue() counts the messages that fell due (a querier on a LAN without leaves sends
 * only general queries; GetOtherSent() counts anything else that went out), the trace
 * QuerySent gives each general query's due and send times.
 *
 * Without a HostPlatform on the node the queries go out when due (no hook is installed).
 */
class Mrouted : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    Mrouted();
    ~Mrouted() override;

    /** @return IGMP messages that fell due (hook calls) */
    uint64_t GetQueriesDue() const;
    /** @return general queries that went out */
    uint64_t GetQueriesSent() const;
    /** @return other IGMP messages that went out (group-specific queries, reports) */
    uint64_t GetOtherSent() const;
    /** @return messages due but not sent yet */
    uint64_t GetPending() const;

    /**
     * TracedCallback signature for a general query on the wire.
     * @param [in] due when the protocol's timer asked for it
     * @param [in] sent when it was handed to the interface
     */
    typedef void (*QueryTracedCallback)(Time due, Time sent);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /**
     * The protocol wants to send a message.
     * @param send the work of sending it
     */
    void Hook(std::function<void()> send);
    /** The process has done the work of the oldest pending message: send it. */
    void Transmit();
    /**
     * A message left (the protocol's Tx trace).
     * @param msg the message
     * @param ifIndex the interface
     * @param dst the destination
     */
    void Sent(const IgmpHeader& msg, uint32_t ifIndex, Ipv4Address dst);

    /** A message waiting for the process. */
    struct Pending
    {
        Time due;                   //!< when it fell due
        std::function<void()> send; //!< the protocol's send work
    };

    uint32_t m_interface;                    //!< Interface
    double m_workCycles;                     //!< WorkCost
    Ptr<IgmpL4Protocol> m_igmp;              //!< the protocol
    Ptr<HostProcess> m_process;              //!< the mrouted process (null without a host)
    std::deque<Pending> m_pending;           //!< messages waiting for the process
    Time m_currentDue;                       //!< due time of the message being sent
    uint64_t m_due;                          //!< counter
    uint64_t m_queriesSent;                  //!< counter
    uint64_t m_otherSent;                    //!< counter
    TracedCallback<Time, Time> m_queryTrace; //!< general queries sent
};

} // namespace ns3

#endif /* TESTBED_MROUTED_H */
