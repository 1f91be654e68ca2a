/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_CENTRAL_COMPONENT_H
#define TESTBED_RTI_CENTRAL_COMPONENT_H

#include "rti-component.h"
#include "rti-fom.h"
#include "rti-time-manager.h"

#include "ns3/ipv4-address.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <array>
#include <map>
#include <set>
#include <string>

/**
 * @file
 * @ingroup testbed-rti
 * The central RTI component (pRTI's CRC, CERTI's RTIG).
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief The central RTI process of a federation execution: joins, declarations, routing of
 * updates and interactions, synchronization points, and time management.
 *
 * It runs as a process on a node (any node: one of the federates' PCs, as in [JAXA06], or
 * another) and listens on TCP (RtiSettings::Port) for the local RTI components of remote
 * federates; federates on its own node connect through the loopback (RtiLocalConnection).
 * Best-effort updates arrive and leave on UDP (RtiSettings::UdpPort).
 *
 * Routing: an update or interaction is read, decoded, routed (RouteCost: find the subscribers)
 * and re-encoded and sent once per receiving federate, in federate-handle order. A timestamp-
 * order message is always sent reliably (TCP), so a later grant on the same connection cannot
 * overtake it.
 *
 * Time management: with GaltMode Central the CRC holds every federate's time state, computes
 * GALT (RtiTimeManager) on every time-advance request and sends the grants. With NullMessages
 * it relays every local component's null messages to all other federates (and replays the
 * latest of each regulating federate to a joining one); the grants are then made by the local
 * components.
 */
class RtiCentralComponent : public RtiComponent
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiCentralComponent();
    ~RtiCentralComponent() override;

    /**
     * @brief Start the CRC on a node: create its process and listen.
     * @param node the node (with a HostPlatform and the Internet stack)
     * @param settings federation settings
     * @param fom the federation object model
     */
    void Install(Ptr<Node> node, Ptr<RtiSettings> settings, Ptr<RtiFom> fom);

    /**
     * @brief Connect a local RTI component on the same node (loopback).
     * @return the local component's end of the connection
     */
    Ptr<RtiConnection> ConnectLocal();

    /** @return the CRC's IPv4 address (its node's first non-loopback interface) */
    Ipv4Address GetAddress() const;

    /** @return the FOM */
    Ptr<RtiFom> GetFom() const;

    /**
     * @brief Number of messages of a type received.
     * @param type the message type
     * @return the count
     */
    uint64_t GetNReceived(RtiMessage::Type type) const;

    /**
     * @brief Number of messages of a type sent.
     * @param type the message type
     * @return the count
     */
    uint64_t GetNSent(RtiMessage::Type type) const;

    /** @return number of federates currently joined */
    uint32_t GetNFederates() const;

    /**
     * TracedCallback signature for a routing step.
     * @param [in] msg the update or interaction
     * @param [in] receivers number of federates it was sent to
     */
    typedef void (*RouteTracedCallback)(const RtiMessage& msg, uint32_t receivers);

  protected:
    void DoDispose() override;
    void HandleMessage(Ptr<RtiConnection> conn, RtiMessage& msg) override;

  private:
    /** A joined federate as the CRC sees it. */
    struct Federate
    {
        std::string name;                //!< federate name
        std::string type;                //!< federate type
        Ptr<RtiConnection> conn;         //!< reliable connection
        Ptr<RtiConnection> udp;          //!< best-effort send path (null if local)
        bool constrainedPending{false};  //!< enableTimeConstrained waiting for GALT
        std::set<std::string> announced; //!< sync points announced to it
    };

    /**
     * Accept a connection request.
     * @param s listening socket
     * @param from requester
     * @return true (always accepted)
     */
    bool AcceptRequest(Ptr<Socket> s, const Address& from);
    /**
     * A connection was accepted.
     * @param s new socket
     * @param from peer
     */
    void Accepted(Ptr<Socket> s, const Address& from);

    /**
     * Send a message to a federate (counts it).
     * @param f federate
     * @param msg message
     * @param bestEffort use the UDP path if the federate has one
     */
    void SendTo(FederateHandle f, RtiMessage msg, bool bestEffort = false);

    /**
     * A reply template from the CRC.
     * @param type type
     * @return the message
     */
    RtiMessage Reply(RtiMessage::Type type) const;

    /** Central mode: make every possible grant and enable pending constrained federates. */
    void EvaluateTime();

    /**
     * Route an update or interaction to its receivers.
     * @param from sender
     * @param msg the message (its values are set aside while the reflects are made, then put
     *        back)
     */
    void Route(FederateHandle from, RtiMessage& msg);

    /**
     * Send discovers of existing instances to a new subscriber of a class.
     * @param f subscriber
     * @param cls the class
     */
    void DiscoverExisting(FederateHandle f, ObjectClassHandle cls);

    /**
     * A federate leaves: clean its declarations, time state and sync points.
     * @param f the federate
     */
    void RemoveFederate(FederateHandle f);

    /**
     * Check whether a synchronization point is complete.
     * @param label the label
     */
    void CheckSyncPoint(const std::string& label);

    Ptr<RtiFom> m_fom;                              //!< the FOM
    Ptr<Socket> m_listen;                           //!< TCP listening socket
    Ptr<Socket> m_udp;                              //!< UDP socket
    Ptr<RtiUdpConnection> m_udpRx;                  //!< UDP receive endpoint
    std::vector<Ptr<RtiConnection>> m_connections;  //!< all connections (for disposal)
    std::map<FederateHandle, Federate> m_federates; //!< joined federates
    FederateHandle m_nextHandle;                    //!< next federate handle
    std::map<ObjectClassHandle, std::map<FederateHandle, AttributeHandleSet>> m_objSubs; //!< subs
    std::map<ObjectClassHandle, std::map<FederateHandle, AttributeHandleSet>> m_objPubs; //!< pubs
    std::map<InteractionClassHandle, std::set<FederateHandle>> m_intSubs; //!< subscriptions
    std::map<InteractionClassHandle, std::set<FederateHandle>> m_intPubs; //!< publications
    /** Object instances: handle -> (class, owner, name). */
    std::map<ObjectInstanceHandle, std::tuple<ObjectClassHandle, FederateHandle, std::string>>
        m_objects;
    std::map<std::string, std::pair<UserTag, std::set<FederateHandle>>> m_sync; //!< sync points
    RtiTimeManager m_tm;                                 //!< central time management
    std::map<FederateHandle, RtiMessage> m_nullCache;    //!< latest null of each regulator
    std::array<uint64_t, RtiMessage::TYPE_COUNT> m_rx{}; //!< received per type
    std::map<FederateHandle, uint64_t> m_tsoFrom; //!< TSO messages received from each federate
    std::map<FederateHandle, uint64_t> m_tsoTo;   //!< TSO messages forwarded to each federate
    std::array<uint64_t, RtiMessage::TYPE_COUNT> m_tx{};      //!< sent per type
    uint32_t m_nLocal;                                        //!< local connections made
    TracedCallback<const RtiMessage&, uint32_t> m_routeTrace; //!< routing steps
};

} // namespace ns3

#endif /* TESTBED_RTI_CENTRAL_COMPONENT_H */
