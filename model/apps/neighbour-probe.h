/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NEIGHBOUR_PROBE_H
#define TESTBED_NEIGHBOUR_PROBE_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

/**
 * @file
 * @ingroup testbed-apps
 * The unicast ARP probes with which a Linux router re-validates a neighbour it only forwards to.
 */

namespace ns3
{

/**
 * @ingroup testbed-apps
 * @brief The unicast ARP requests a Linux 2.4/2.6 node sends to re-validate the neighbour
 * entry of a next hop that it only forwards traffic to.
 *
 * Linux's neighbour state machine (net/core/neighbour.c, NUD): a confirmed entry stays
 * REACHABLE for reachable_time, then becomes STALE; the next packet sent through a STALE
 * entry puts it in DELAY, and if nothing confirms it within delay_first_probe_time (5 s) the
 * node sends a unicast ARP request to the cached address (PROBE); the reply confirms it
 * again. A local TCP connection confirms its next hop on every ACK that acknowledges new data
 * (tcp_ack's dst_confirm), so an end host running TCP never probes; a router forwarding
 * packets gets no such confirmation and probes once per cycle. reachable_time is drawn
 * uniformly from [base/2, 3 base/2) (neigh_rand_reach_time, base_reachable_time 30 s) and
 * drawn again every 300 s (neigh_periodic_work).
 *
 * This application assumes the forwarded traffic never pauses (the benchmark's exchanges), so
 * the entry is used the moment it turns STALE: a probe every reachable_time +
 * DelayFirstProbeTime, the cycle restarting at each probe (the reply comes back within
 * microseconds on one Ethernet). The first probe falls uniformly within the first cycle (the
 * entry's phase at the start is not known) unless FirstProbe is set. Each probe is a real ARP
 * request (ArpHeader) handed straight to the adapter: the neighbour's ArpL3Protocol answers
 * it through its own stack. The probe does not pass a queue disc on the prober's side: NIST
 * Net, the only router of this kind in the studies, delays IP packets, not ARP.
 */
class NeighbourProbe : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    NeighbourProbe();
    ~NeighbourProbe() override;

    /**
     * @brief The neighbour to re-validate.
     * @param device the adapter on this application's node that reaches it
     * @param self this node's IPv4 address on that adapter
     * @param neighbourMac the neighbour's cached hardware address
     * @param neighbour the neighbour's IPv4 address
     */
    void SetTarget(Ptr<NetDevice> device,
                   Ipv4Address self,
                   const Address& neighbourMac,
                   Ipv4Address neighbour);

    /** @return the probes the adapter accepted */
    uint64_t GetProbes() const;

    /**
     * @brief Assign a fixed random variable stream.
     * @param stream the first stream index
     * @return the number of streams assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /** Draw reachable_time from [base/2, 3 base/2). */
    void DrawReachableTime();
    /** @return one cycle: reachable_time + delay_first_probe_time */
    Time Cycle() const;
    /** Send one probe and schedule the next. */
    void Probe();

    Time m_base;                                 //!< BaseReachableTime
    Time m_delayFirst;                           //!< DelayFirstProbeTime
    Time m_redraw;                               //!< ReachableTimeRedraw
    Time m_firstProbe;                           //!< FirstProbe (negative: a random phase)
    Time m_reachable;                            //!< the current reachable_time
    Time m_lastDraw;                             //!< when it was drawn
    Ptr<NetDevice> m_device;                     //!< the adapter
    Ipv4Address m_self;                          //!< this node's address on it
    Address m_neighbourMac;                      //!< the neighbour's cached hardware address
    Ipv4Address m_neighbour;                     //!< the neighbour's address
    Ptr<UniformRandomVariable> m_uniform;        //!< reachable_time and the first phase
    EventId m_event;                             //!< the next probe
    uint64_t m_probes{0};                        //!< probes the adapter accepted
    TracedCallback<Ptr<const Packet>> m_txTrace; //!< Tx
};

} // namespace ns3

#endif /* TESTBED_NEIGHBOUR_PROBE_H */
