/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_IGMP_L4_PROTOCOL_H
#define TESTBED_IGMP_L4_PROTOCOL_H

#include "igmp-header.h"
#include "igmp-timers.h"

#include "ns3/event-id.h"
#include "ns3/ip-l4-protocol.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

/**
 * @file
 * @ingroup testbed-multicast
 * IGMPv2 (RFC 2236) and IGMPv3 (RFC 3376) as an IPv4 layer-4 protocol: host and querier.
 */

namespace ns3
{

class Node;
class Ipv4L3Protocol;
class IgmpHost;
class IgmpRouter;
class Socket;
class Packet;

/**
 * @ingroup testbed-multicast
 * @brief IGMP (IP protocol 2) for hosts and routers, versions 2 and 3 (and v1 compatibility).
 *
 * Aggregate one to a Node that has an Ipv4L3Protocol (IgmpHelper does it). It then:
 *
 * - **as a host** keeps, per interface, the multicast reception state of RFC 3376 section 3.2
 *   (the merge of every socket's (group, filter mode, source list)), sends unsolicited reports
 *   on joins with [Robustness Variable] retransmissions, answers queries after a random delay
 *   within Max Resp Time, suppresses its report when it hears another host's (v2 only), sends
 *   Leave Group / TO_IN({}) on leave, and runs in the Host Compatibility Mode of RFC 3376
 *   section 7.2.1 (v1/v2 Querier Present timers);
 * - **as a router** (EnableRouter(), per interface) keeps the group table of RFC 2236 section 7 /
 *   RFC 3376 section 6 (filter mode, group timer, source timers, older-host-present timers),
 *   elects the querier (lowest address; Other Querier Present timer), sends startup and periodic
 *   general queries when it is the querier, and group-specific (and group-and-source-specific)
 *   queries on leaves / blocks.
 *
 * Applications join through the socket-level calls JoinGroup()/LeaveGroup()/SetSourceFilter()
 * (IP_ADD_MEMBERSHIP, IP_DROP_MEMBERSHIP, setsourcefilter() of the RFC 3678 API).
 *
 * IGMP messages are sent with a 24-octet IPv4 header carrying Router Alert (RFC 2113), TTL 1,
 * built by this class and handed directly to the interface's traffic-control layer with the
 * IPv4-to-Ethernet multicast MAC mapping (RFC 1112 section 6.4): see doc/multicast.rst.
 */
class IgmpL4Protocol : public IpL4Protocol
{
  public:
    static constexpr uint8_t PROT_NUMBER = 2;    //!< IP protocol number of IGMP
    static const Ipv4Address ALL_SYSTEMS;        //!< 224.0.0.1 (RFC 1112)
    static const Ipv4Address ALL_ROUTERS;        //!< 224.0.0.2 (RFC 2236)
    static const Ipv4Address ALL_IGMPV3_ROUTERS; //!< 224.0.0.22 (RFC 3376)

    /// Filter mode of RFC 3376 section 3.
    enum FilterMode : uint8_t
    {
        INCLUDE = 0, //!< receive only from the listed sources
        EXCLUDE = 1, //!< receive from all but the listed sources
    };

    /// IGMPv2 host states (RFC 2236 section 6).
    enum HostState : uint8_t
    {
        NON_MEMBER = 0,      //!< no reception state
        DELAYING_MEMBER = 1, //!< member with a report timer running
        IDLE_MEMBER = 2,     //!< member without a report timer
    };

    /// Message counters (all interfaces).
    struct Stats
    {
        uint64_t txQueries{0};   //!< queries sent
        uint64_t txReports{0};   //!< v1/v2/v3 reports sent
        uint64_t txLeaves{0};    //!< v2 leaves sent
        uint64_t rxQueries{0};   //!< queries received
        uint64_t rxReports{0};   //!< reports received
        uint64_t rxLeaves{0};    //!< leaves received
        uint64_t rxMalformed{0}; //!< malformed messages dropped
        uint64_t suppressed{0};  //!< v1/v2 reports suppressed by another host's report
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    IgmpL4Protocol();
    ~IgmpL4Protocol() override;

    /**
     * @brief Set the node (normally done on aggregation).
     * @param node the node
     */
    void SetNode(Ptr<Node> node);

    // --- IpL4Protocol -------------------------------------------------------------------------
    int GetProtocolNumber() const override;
    IpL4Protocol::RxStatus Receive(Ptr<Packet> p,
                                   const Ipv4Header& header,
                                   Ptr<Ipv4Interface> incomingInterface) override;
    IpL4Protocol::RxStatus Receive(Ptr<Packet> p,
                                   const Ipv6Header& header,
                                   Ptr<Ipv6Interface> incomingInterface) override;
    void SetDownTarget(IpL4Protocol::DownTargetCallback cb) override;
    void SetDownTarget6(IpL4Protocol::DownTargetCallback6 cb) override;
    IpL4Protocol::DownTargetCallback GetDownTarget() const override;
    IpL4Protocol::DownTargetCallback6 GetDownTarget6() const override;

    // --- host API ----------------------------------------------------------------------------
    /**
     * @brief Set one owner's (socket's) filter for a group on an interface (RFC 3678
     * setsourcefilter). INCLUDE with no sources removes the owner's record. Reports follow
     * from the change of the merged interface state.
     * @param ifIndex the IPv4 interface index
     * @param owner an opaque owner key (sockets use their address)
     * @param group the multicast group (224.0.0.1 is refused: always joined, never reported)
     * @param mode the filter mode
     * @param sources the source list
     */
    void SetOwnerFilter(uint32_t ifIndex,
                        uintptr_t owner,
                        Ipv4Address group,
                        FilterMode mode,
                        const std::vector<Ipv4Address>& sources);
    /**
     * @brief Remove every record of one owner (on every interface), as closing a socket does.
     * @param owner the owner key
     */
    void RemoveOwner(uintptr_t owner);

    /**
     * @brief IP_ADD_MEMBERSHIP on a socket: EXCLUDE({}) for @p group.
     * @param socket a socket of a node that has IgmpL4Protocol
     * @param group the group
     * @param ifIndex interface index, or -1: the socket's bound device, else the first
     *        up, multicast-capable, non-loopback interface
     */
    static void JoinGroup(Ptr<Socket> socket, Ipv4Address group, int32_t ifIndex = -1);
    /**
     * @brief IP_DROP_MEMBERSHIP on a socket.
     * @param socket the socket
     * @param group the group
     * @param ifIndex as for JoinGroup()
     */
    static void LeaveGroup(Ptr<Socket> socket, Ipv4Address group, int32_t ifIndex = -1);
    /**
     * @brief setsourcefilter() on a socket (RFC 3678 section 5.2).
     * @param socket the socket
     * @param group the group
     * @param mode INCLUDE or EXCLUDE
     * @param sources the sources
     * @param ifIndex as for JoinGroup()
     */
    static void SetSourceFilter(Ptr<Socket> socket,
                                Ipv4Address group,
                                FilterMode mode,
                                const std::vector<Ipv4Address>& sources,
                                int32_t ifIndex = -1);
    /**
     * @brief Drop every membership of a socket (call before closing it).
     * @param socket the socket
     */
    static void LeaveAll(Ptr<Socket> socket);

    /**
     * @brief Does the interface's reception state accept traffic from @p source to @p group?
     * (RFC 3376 section 3.2; Ipv4Address::GetAny() as source asks "any source at all").
     * A receiving application can filter with it (ns-3 delivers every multicast datagram to
     * every socket bound to its port).
     * @param ifIndex the interface
     * @param group the group
     * @param source the source, or 0.0.0.0
     * @return true if accepted
     */
    bool IsMember(uint32_t ifIndex, Ipv4Address group, Ipv4Address source = Ipv4Address()) const;
    /**
     * @brief The IGMPv2 host state of a group (v1/v2 compatibility and Version=2 hosts).
     * @param ifIndex the interface
     * @param group the group
     * @return the state
     */
    HostState GetHostState(uint32_t ifIndex, Ipv4Address group) const;
    /**
     * @brief The host compatibility mode of an interface (RFC 3376 section 7.2.1).
     * @param ifIndex the interface
     * @return 1, 2 or 3
     */
    uint8_t GetHostCompatibilityMode(uint32_t ifIndex) const;
    /**
     * @brief Stop (or resume) emitting IGMP messages on every interface: models a host whose
     * IGMP is blocked (firewall, crashed daemon); state machines keep running.
     * @param muted true to mute
     */
    void SetMuted(bool muted);

    // --- router API --------------------------------------------------------------------------
    /**
     * @brief Run the router part (group table, querier election, querier) on an interface.
     * The querier starts with startup queries at once (or after @p delay).
     * @param ifIndex the interface
     * @param delay time until the first startup query
     */
    void EnableRouter(uint32_t ifIndex, Time delay = Seconds(0));
    /**
     * @brief Stop the router part on an interface (state is dropped).
     * @param ifIndex the interface
     */
    void DisableRouter(uint32_t ifIndex);
    /**
     * @brief Is this router the querier on the interface?
     * @param ifIndex the interface
     * @return true if querier
     */
    bool IsQuerier(uint32_t ifIndex) const;
    /**
     * @brief Does the router's table have listeners of @p group (from @p source) on the
     * interface? (RFC 3376 section 6.3 forwarding rule.)
     * @param ifIndex the interface
     * @param group the group
     * @param source a source, or 0.0.0.0 for "the group has any state"
     * @return true if traffic would be forwarded onto the interface
     */
    bool HasListeners(uint32_t ifIndex,
                      Ipv4Address group,
                      Ipv4Address source = Ipv4Address()) const;
    /**
     * @brief The router's filter mode of a group (INCLUDE if absent).
     * @param ifIndex the interface
     * @param group the group
     * @return the mode
     */
    FilterMode GetRouterFilterMode(uint32_t ifIndex, Ipv4Address group) const;
    /**
     * @brief The groups in the router's table on an interface.
     * @param ifIndex the interface
     * @return the groups
     */
    std::vector<Ipv4Address> GetRouterGroups(uint32_t ifIndex) const;
    /**
     * @brief A lower bound on the router part's next transmission on an interface
     * (IgmpRouter::GetNextTransmission).
     * @param ifIndex the interface
     * @return the time, Time::Max() if no timer of the router part runs there
     */
    Time GetNextRouterTransmission(uint32_t ifIndex) const;

    // --- timers (RFC 3376 section 8) ---------------------------------------------------------
    /**
     * @brief The protocol variables in effect (the attributes' values).
     * @return the timers
     */
    IgmpTimers GetTimers() const;
    /**
     * @brief Set every protocol variable at once (the attributes Robustness, QueryInterval,
     * QueryResponseInterval, StartupQueryInterval/Count, LastMemberQueryInterval/Count and the
     * Unsolicited Report Intervals).
     * @param timers the timers
     */
    void SetTimers(const IgmpTimers& timers);

    /** @return Group Membership Interval = Robustness * QI + QRI */
    Time GetGroupMembershipInterval() const;
    /** @return Other Querier Present Interval = Robustness * QI + QRI / 2 */
    Time GetOtherQuerierPresentInterval() const;
    /** @return Last Member Query Time = LMQC * LMQI */
    Time GetLastMemberQueryTime() const;
    /** @return Older Version Querier Present Timeout = Robustness * QI + QRI */
    Time GetOlderVersionQuerierPresentTimeout() const;

    /** @return the message counters */
    const Stats& GetStats() const;

    /**
     * A host-platform hook for transmissions: called with the work of sending one IGMP message
     * (building it and handing it to the interface). The default (no hook) runs it at once. A
     * host model (model/host/) can run it later as CPU work of the IGMP daemon / kernel, or
     * never (an overloaded querier that fails to send queries, MEGA06). Timers keep running
     * on simulated time either way.
     */
    typedef std::function<void(std::function<void()>)> TransmitHook;
    /**
     * @brief Install (or, with an empty function, remove) the transmit hook.
     * @param hook the hook
     */
    void SetTransmitHook(TransmitHook hook);

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream index
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature for sent/received IGMP messages.
     * @param [in] msg the message
     * @param [in] ifIndex the interface
     * @param [in] peer the destination (Tx) or source (Rx) address
     */
    typedef void (*MessageTracedCallback)(const IgmpHeader& msg,
                                          uint32_t ifIndex,
                                          Ipv4Address peer);
    /**
     * TracedCallback signature for malformed messages.
     * @param [in] packet the IGMP message
     * @param [in] ifIndex the interface
     * @param [in] reason an IgmpHeader::ParseResult
     */
    typedef void (*MalformedTracedCallback)(Ptr<const Packet> packet,
                                            uint32_t ifIndex,
                                            uint8_t reason);
    /**
     * TracedCallback signature for group state changes (host and router).
     * @param [in] ifIndex the interface
     * @param [in] group the group
     * @param [in] state host: a HostState; router: 1 present, 0 removed
     */
    typedef void (*GroupStateTracedCallback)(uint32_t ifIndex, Ipv4Address group, uint8_t state);
    /**
     * TracedCallback signature for querier election changes.
     * @param [in] ifIndex the interface
     * @param [in] querier true if this router became querier
     */
    typedef void (*QuerierTracedCallback)(uint32_t ifIndex, bool querier);

  protected:
    void NotifyNewAggregate() override;
    void DoDispose() override;

  private:
    friend class IgmpHost;
    friend class IgmpRouter;

    Ipv4Address GetIfAddress(uint32_t ifIndex) const; //!< first address of an interface
    static int32_t ResolveInterface(Ptr<Socket> socket, int32_t ifIndex); //!< socket's interface
    Time RandomDelay(Time max);                                           //!< uniform in [0, max)
    uint32_t LastMemberQueryCount() const;                                //!< in effect

    /** Send a message through the transmit hook. */
    void SendMessage(uint32_t ifIndex, Ipv4Address dst, const IgmpHeader& msg);
    /** Build and send a message now (Router Alert header, traffic control). */
    void DoSendMessage(uint32_t ifIndex, Ipv4Address dst, const IgmpHeader& msg);
    /** Send v3 records, split at the interface MTU. */
    void SendV3Records(uint32_t ifIndex, const std::vector<IgmpGroupRecord>& records);

    std::unique_ptr<IgmpHost> m_host;                //!< the host role
    std::unique_ptr<IgmpRouter> m_router;            //!< the router role
    Ptr<Node> m_node;                                //!< the node
    Ptr<Ipv4L3Protocol> m_ipv4;                      //!< its IPv4
    Ptr<UniformRandomVariable> m_rng;                //!< report delays
    IpL4Protocol::DownTargetCallback m_downTarget;   //!< unused (IGMP writes its own header)
    IpL4Protocol::DownTargetCallback6 m_downTarget6; //!< unused
    uint16_t m_ipId{0};                              //!< IPv4 identification counter
    bool m_muted{false};                             //!< emit nothing
    TransmitHook m_txHook;                           //!< host-platform transmit hook
    Stats m_stats;                                   //!< counters

    uint8_t m_version;               //!< IGMP version (2 or 3)
    uint32_t m_robustness;           //!< Robustness Variable
    Time m_queryInterval;            //!< Query Interval
    Time m_queryResponseInterval;    //!< Query Response Interval
    uint32_t m_startupQueryCount;    //!< Startup Query Count (0 = robustness)
    Time m_startupQueryInterval;     //!< Startup Query Interval (0 = QI / 4)
    Time m_lastMemberQueryInterval;  //!< Last Member Query Interval
    uint32_t m_lastMemberQueryCount; //!< Last Member Query Count (0 = robustness)
    Time m_unsolicitedV2;            //!< Unsolicited Report Interval, v1/v2
    Time m_unsolicitedV3;            //!< Unsolicited Report Interval, v3
    Time m_gmiOverride;              //!< Group Membership Interval (0 = derived)
    Time m_oqpiOverride;             //!< Other Querier Present Interval (0 = derived)

    TracedCallback<const IgmpHeader&, uint32_t, Ipv4Address> m_txTrace;    //!< sent
    TracedCallback<const IgmpHeader&, uint32_t, Ipv4Address> m_rxTrace;    //!< received
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_malformedTrace; //!< malformed
    TracedCallback<uint32_t, Ipv4Address, uint8_t> m_hostStateTrace;       //!< host v2 state
    TracedCallback<uint32_t, Ipv4Address, uint8_t> m_routerGroupTrace;     //!< router table
    TracedCallback<uint32_t, bool> m_querierTrace;                         //!< querier election
};

} // namespace ns3

#endif /* TESTBED_IGMP_L4_PROTOCOL_H */
