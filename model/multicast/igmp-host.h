/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_IGMP_HOST_H
#define TESTBED_IGMP_HOST_H

#include "igmp-header.h"
#include "igmp-l4-protocol.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

/**
 * @file
 * @ingroup testbed-multicast
 * The host role of IGMP: RFC 2236 section 6 and RFC 3376 section 5.
 */

namespace ns3
{

/**
 * @ingroup testbed-multicast
 * @brief The host part of IGMP on one node (owned by its IgmpL4Protocol).
 *
 * Per interface: the multicast reception state of RFC 3376 section 3.2 (the merge of every
 * socket's (group, filter mode, source list)); unsolicited reports on joins with [Robustness
 * Variable] retransmissions; answers to queries after a random delay within Max Resp Time; the
 * IGMPv2 host state machine of RFC 2236 section 6 with report suppression; IGMPv3 state-change
 * records and their retransmissions (RFC 3376 section 5.1) and query responses (5.2); the Host
 * Compatibility Mode of RFC 3376 section 7.2.1. It sends through its protocol (transmit hook,
 * Router Alert header) and uses its variables (IgmpTimers) and trace sources.
 */
class IgmpHost
{
  public:
    /** The filter mode (IgmpL4Protocol's). */
    using FilterMode = IgmpL4Protocol::FilterMode;
    /** The IGMPv2 host state (IgmpL4Protocol's). */
    using HostState = IgmpL4Protocol::HostState;

    /**
     * @brief The host role of a protocol.
     * @param l4 the protocol (outlives this object)
     */
    explicit IgmpHost(IgmpL4Protocol& l4);

    /** @brief Cancel every timer and drop the state. */
    void Dispose();

    /**
     * @brief One owner's filter for a group on an interface (IgmpL4Protocol::SetOwnerFilter).
     * @param ifIndex the interface
     * @param owner the owner key
     * @param group the group
     * @param mode the filter mode
     * @param sources the sources
     */
    void SetOwnerFilter(uint32_t ifIndex,
                        uintptr_t owner,
                        Ipv4Address group,
                        FilterMode mode,
                        const std::vector<Ipv4Address>& sources);
    /**
     * @brief Remove every record of one owner.
     * @param owner the owner key
     */
    void RemoveOwner(uintptr_t owner);
    /**
     * @brief Does the reception state accept @p source to @p group (IgmpL4Protocol::IsMember)?
     * @param ifIndex the interface
     * @param group the group
     * @param source the source, or 0.0.0.0
     * @return true if accepted
     */
    bool IsMember(uint32_t ifIndex, Ipv4Address group, Ipv4Address source) const;
    /**
     * @brief The IGMPv2 host state of a group.
     * @param ifIndex the interface
     * @param group the group
     * @return the state
     */
    HostState GetState(uint32_t ifIndex, Ipv4Address group) const;
    /**
     * @brief The Host Compatibility Mode of an interface (RFC 3376 7.2.1).
     * @param ifIndex the interface
     * @return 1, 2 or 3
     */
    uint8_t GetCompatibilityMode(uint32_t ifIndex) const;
    /**
     * @brief A query arrived on an interface.
     * @param ifIndex the interface
     * @param q the query
     */
    void ReceiveQuery(uint32_t ifIndex, const IgmpHeader& q);
    /**
     * @brief Another host's v1/v2 report for a group arrived (suppression).
     * @param ifIndex the interface
     * @param group the group
     */
    void ReceiveReport(uint32_t ifIndex, Ipv4Address group);

  private:
    /// Per-source retransmission counters of pending state-change records.
    struct PendingChange
    {
        uint32_t filterModeRetrans{0};         //!< TO_IN/TO_EX retransmissions left
        std::map<Ipv4Address, uint32_t> allow; //!< ALLOW retransmissions left per source
        std::map<Ipv4Address, uint32_t> block; //!< BLOCK retransmissions left per source
    };

    /// Host state of one group on one interface.
    struct HostGroup
    {
        std::map<uintptr_t, std::pair<FilterMode, std::set<Ipv4Address>>> owners; //!< sockets
        FilterMode mode{IgmpL4Protocol::INCLUDE};      //!< merged filter mode
        std::set<Ipv4Address> sources;                 //!< merged source list
        HostState v2State{IgmpL4Protocol::NON_MEMBER}; //!< v1/v2 host state
        bool lastReporter{false};                      //!< "I sent the last report"
        uint32_t unsolicitedLeft{0};                   //!< v1/v2 unsolicited repeats left
        EventId reportTimer;                //!< v1/v2 report timer / v3 group-query timer
        bool pendingGroupQuery{false};      //!< v3: response to a group(-source) query pending
        std::set<Ipv4Address> querySources; //!< v3: recorded sources of G&S queries
        PendingChange change;               //!< v3: pending state-change retransmissions
    };

    /// Host state of one interface.
    struct HostInterface
    {
        std::map<Ipv4Address, HostGroup> groups; //!< the groups
        EventId generalResponse;                 //!< v3 interface timer
        EventId stateChangeTimer;                //!< v3 state-change retransmission timer
        Time v1QuerierUntil;                     //!< IGMPv1 Querier Present expiry
        Time v2QuerierUntil;                     //!< IGMPv2 Querier Present expiry
    };

    static constexpr FilterMode INCLUDE = IgmpL4Protocol::INCLUDE;                //!< shorthand
    static constexpr FilterMode EXCLUDE = IgmpL4Protocol::EXCLUDE;                //!< shorthand
    static constexpr HostState NON_MEMBER = IgmpL4Protocol::NON_MEMBER;           //!< shorthand
    static constexpr HostState DELAYING_MEMBER = IgmpL4Protocol::DELAYING_MEMBER; //!< shorthand
    static constexpr HostState IDLE_MEMBER = IgmpL4Protocol::IDLE_MEMBER;         //!< shorthand

    HostInterface& GetIf(uint32_t ifIndex);                    //!< state (created)
    const HostInterface* FindIf(uint32_t ifIndex) const;       //!< state or null
    HostGroup* FindGroup(uint32_t ifIndex, Ipv4Address group); //!< a group's state or null
    Time UnsolicitedInterval(uint32_t ifIndex) const;          //!< by compatibility mode
    static bool GroupActive(const HostGroup& g);               //!< has reception state
    void MaybeEraseGroup(uint32_t ifIndex, Ipv4Address group); //!< drop idle group state
    void SetV2State(uint32_t ifIndex, Ipv4Address group, HostGroup& g, HostState s); //!< traced
    /** The merged state of a group changed (RFC 3376 5.1 / RFC 2236 6 join and leave). */
    void StateChanged(uint32_t ifIndex,
                      Ipv4Address group,
                      FilterMode oldMode,
                      const std::set<Ipv4Address>& oldSources);
    void StateChangeTimer(uint32_t ifIndex);                  //!< v3 state-change records
    void V2Report(uint32_t ifIndex, Ipv4Address group);       //!< send a v1/v2 report
    void V2Join(uint32_t ifIndex, Ipv4Address group);         //!< RFC 2236 6 "join group"
    void V2TimerExpired(uint32_t ifIndex, Ipv4Address group); //!< RFC 2236 6 "timer expired"
    void V2Leave(uint32_t ifIndex, Ipv4Address group);        //!< RFC 2236 6 "leave group"
    void GeneralResponse(uint32_t ifIndex);                   //!< v3 current-state records
    void GroupResponse(uint32_t ifIndex, Ipv4Address group);  //!< v3 group(-source) response

    IgmpL4Protocol& m_l4;                    //!< the protocol
    std::map<uint32_t, HostInterface> m_ifs; //!< per-interface state
};

} // namespace ns3

#endif /* TESTBED_IGMP_HOST_H */
