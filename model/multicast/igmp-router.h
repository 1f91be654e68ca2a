/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_IGMP_ROUTER_H
#define TESTBED_IGMP_ROUTER_H

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
 * The router (querier) role of IGMP: RFC 3376 section 6 and RFC 2236 sections 3 and 7.
 */

namespace ns3
{

/**
 * @ingroup testbed-multicast
 * @brief The router part of IGMP on one node (owned by its IgmpL4Protocol), enabled per
 * interface.
 *
 * Per interface: the group table of RFC 3376 section 6 (filter mode, group timer, source
 * timers, older-host-present timers; the actions of 6.4.1 and 6.4.2, group compatibility of
 * 7.3.2), querier election by lowest address with the Other Querier Present timer (6.6.2),
 * startup and periodic general queries while querier, and group-specific and
 * group-and-source-specific queries on leaves and blocks (6.6.3), with the S flag (6.6.1).
 */
class IgmpRouter
{
  public:
    /** The filter mode (IgmpL4Protocol's). */
    using FilterMode = IgmpL4Protocol::FilterMode;

    /**
     * @brief The router role of a protocol.
     * @param l4 the protocol (outlives this object)
     */
    explicit IgmpRouter(IgmpL4Protocol& l4);

    /** @brief Cancel every timer and drop the state. */
    void Dispose();

    /**
     * @brief Run the router part on an interface (startup queries after @p delay).
     * @param ifIndex the interface
     * @param delay time until the first startup query
     */
    void Enable(uint32_t ifIndex, Time delay);
    /**
     * @brief Stop it on an interface (state dropped).
     * @param ifIndex the interface
     */
    void Disable(uint32_t ifIndex);
    /**
     * @param ifIndex the interface
     * @return whether the router part runs there
     */
    bool IsEnabled(uint32_t ifIndex) const;
    /**
     * @param ifIndex the interface
     * @return whether this router is the querier there
     */
    bool IsQuerier(uint32_t ifIndex) const;
    /**
     * @brief A query arrived on an enabled interface (election, timer lowering).
     * @param ifIndex the interface
     * @param src its source
     * @param q the query
     */
    void ReceiveQuery(uint32_t ifIndex, Ipv4Address src, const IgmpHeader& q);
    /**
     * @brief A group record arrived on an enabled interface (v1/v2 reports and leaves as
     * records).
     * @param ifIndex the interface
     * @param rec the record
     * @param hostVersion 1, 2 or 3 (0 for a v2 leave)
     */
    void ReceiveRecord(uint32_t ifIndex, const IgmpGroupRecord& rec, uint8_t hostVersion);
    /**
     * @brief RFC 3376 6.3: does the table have listeners (IgmpL4Protocol::HasListeners)?
     * @param ifIndex the interface
     * @param group the group
     * @param source a source, or 0.0.0.0
     * @return true if traffic would be forwarded
     */
    bool HasListeners(uint32_t ifIndex, Ipv4Address group, Ipv4Address source) const;
    /**
     * @param ifIndex the interface
     * @param group the group
     * @return the router filter mode (INCLUDE if absent)
     */
    FilterMode GetFilterMode(uint32_t ifIndex, Ipv4Address group) const;
    /**
     * @param ifIndex the interface
     * @return the groups in the table
     */
    std::vector<Ipv4Address> GetGroups(uint32_t ifIndex) const;
    /**
     * @brief The earliest time at which a timer of the router part asks for a message on an
     * interface (general, group- or group-and-source-specific query, or the other querier's
     * timeout, which sends a general query): a lower bound on its next transmission.
     * @param ifIndex the interface
     * @return the time, Time::Max() if no such timer runs
     */
    Time GetNextTransmission(uint32_t ifIndex) const;

  private:
    /// Router state of one group on one interface.
    struct RouterGroup
    {
        FilterMode mode{IgmpL4Protocol::INCLUDE}; //!< router filter mode
        Time groupTimer;                          //!< group timer expiry (absolute)
        std::map<Ipv4Address, Time> sources;      //!< source timer expiries (absolute)
        Time v1HostUntil;                         //!< older host present (v1) expiry
        Time v2HostUntil;                         //!< older host present (v2) expiry
        uint32_t lmqLeft{0};                      //!< group-specific queries still to send
        std::set<Ipv4Address> lmqSources;         //!< sources of pending G&S queries
        uint32_t lmqSourceLeft{0};                //!< G&S queries still to send
        EventId lmqEvent;                         //!< next group(-source)-specific query
        EventId expiry;                           //!< next timer check
    };

    /// Router state of one interface.
    struct RouterInterface
    {
        bool router{false};                        //!< router part enabled
        bool querier{false};                       //!< this router is querier
        uint32_t startupLeft{0};                   //!< startup queries left
        EventId queryEvent;                        //!< next general query
        EventId otherQuerierEvent;                 //!< other querier present timeout
        Ipv4Address otherQuerier;                  //!< address of the elected other querier
        std::map<Ipv4Address, RouterGroup> groups; //!< the group table
    };

    static constexpr FilterMode INCLUDE = IgmpL4Protocol::INCLUDE; //!< shorthand
    static constexpr FilterMode EXCLUDE = IgmpL4Protocol::EXCLUDE; //!< shorthand

    RouterInterface& GetIf(uint32_t ifIndex);              //!< state (created)
    const RouterInterface* FindIf(uint32_t ifIndex) const; //!< state or null
    void SetQuerier(uint32_t ifIndex, bool querier);       //!< traced election outcome
    void SendGeneralQuery(uint32_t ifIndex);               //!< startup / periodic query
    void OtherQuerierExpired(uint32_t ifIndex);            //!< RFC 3376 6.6 take over
    void GroupQuery(uint32_t ifIndex, Ipv4Address group);  //!< RFC 3376 6.6.3.1
    /** RFC 3376 6.6.3.2: group-and-source-specific queries. */
    void SourceQuery(uint32_t ifIndex, Ipv4Address group, const std::set<Ipv4Address>& sources);
    void LmqTimer(uint32_t ifIndex, Ipv4Address group);   //!< next last-member query
    void Reschedule(uint32_t ifIndex, Ipv4Address group); //!< next timer check of a group
    void Check(uint32_t ifIndex, Ipv4Address group);      //!< timer expiries (RFC 3376 6.5)

    IgmpL4Protocol& m_l4;                      //!< the protocol
    std::map<uint32_t, RouterInterface> m_ifs; //!< per-interface state
};

} // namespace ns3

#endif /* TESTBED_IGMP_ROUTER_H */
