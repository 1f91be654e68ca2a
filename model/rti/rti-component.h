/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_COMPONENT_H
#define TESTBED_RTI_COMPONENT_H

#include "rti-connection.h"
#include "rti-settings.h"

#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/object.h"

#include <deque>
#include <functional>

/**
 * @file
 * @ingroup testbed-rti
 * What the CRC and the local RTI components share: a process, its CPU work and its reads.
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief An RTI process on a host: reads its connections, does CPU work, sends messages.
 *
 * Everything the component does is a step of its HostProcess, in order: reading a connection
 * (the host's receive cost for the bytes read, then the RTI's decode cost per message), RTI
 * work (Charge), sending (the RTI's encode cost and the host's send cost, then the message goes
 * to the transport) and actions such as callbacks (Do). Work charged with Charge() is executed
 * before the next action, as one CPU work item.
 */
class RtiComponent : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiComponent();
    ~RtiComponent() override;

    /** @return the component's process */
    Ptr<HostProcess> GetProcess() const;

    /** @return the federation settings */
    Ptr<RtiSettings> GetSettings() const;

    /** @return the node */
    Ptr<Node> GetNode() const;

    /** @return CPU cycles charged so far (RTI work and the host's socket costs) */
    double GetCyclesCharged() const;

  protected:
    void DoDispose() override;

    /**
     * Attach to a node (creates the process on its HostPlatform, which must exist).
     * @param node the node
     * @param settings federation settings
     */
    void Attach(Ptr<Node> node, Ptr<RtiSettings> settings);

    /**
     * CPU work to do before the next action.
     * @param cycles CPU cycles
     */
    void Charge(double cycles);

    /**
     * An action after the work charged so far (ends a CPU work item).
     * @param action the action
     */
    void Do(std::function<void()> action);

    /** Execute work charged but not followed by an action. */
    void Flush();

    /**
     * Send a message: encode cost and the host's send cost, then hand it to the connection.
     * @param conn the connection
     * @param msg the message
     */
    void Transmit(Ptr<RtiConnection> conn, const RtiMessage& msg);

    /**
     * Start reading a connection when it has data.
     * @param conn the connection
     */
    void Watch(Ptr<RtiConnection> conn);

    /**
     * Handle one received message (in process context; its decode cost is charged already).
     * @param conn where it came from
     * @param msg the message
     */
    virtual void HandleMessage(Ptr<RtiConnection> conn, const RtiMessage& msg) = 0;

    Ptr<RtiSettings> m_settings; //!< federation settings

  private:
    /**
     * Data became available on a connection.
     * @param conn the connection
     */
    void DataAvailable(Ptr<RtiConnection> conn);
    /** Read the next ready connection (a process step). */
    void ReadNext();
    /**
     * Host-CPU cycles of a time value.
     * @param t time
     * @return cycles at the host's frequency
     */
    double ToCycles(Time t) const;

    Ptr<Node> m_node;                       //!< node
    Ptr<HostPlatform> m_platform;           //!< host
    Ptr<HostProcess> m_process;             //!< the process
    double m_pending;                       //!< cycles charged, not yet executed
    double m_charged;                       //!< total cycles charged
    std::deque<Ptr<RtiConnection>> m_ready; //!< connections with data, in arrival order
    bool m_readScheduled;                   //!< a read step is queued
};

} // namespace ns3

#endif /* TESTBED_RTI_COMPONENT_H */
