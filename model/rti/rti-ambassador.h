/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_AMBASSADOR_H
#define TESTBED_RTI_AMBASSADOR_H

#include "rti-central-component.h"
#include "rti-component.h"
#include "rti-fom.h"
#include "rti-time-manager.h"

#include "ns3/event-id.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>
#include <map>
#include <string>

/**
 * @file
 * @ingroup testbed-rti
 * The local RTI component of a federate: IEEE 1516 RTIambassador services and FederateAmbassador
 * callbacks.
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief The federate's side of the IEEE 1516 interface: callbacks from the RTI.
 *
 * Subclass it (in C++ or in Python through cppyy) and override what the federate needs. The
 * callbacks are called in the federate's process, after the RTI's callback cost; RTI calls made
 * from a callback queue behind it. FederationJoined is not in the standard (where the join call
 * returns the handle): a simulated call cannot block, so its result comes back as a callback.
 */
class FederateAmbassador
{
  public:
    virtual ~FederateAmbassador();

    /**
     * @brief The join has completed (the result of joinFederationExecution).
     * @param federate the federate's handle
     */
    virtual void FederationJoined(FederateHandle federate);

    /**
     * @brief announceSynchronizationPoint.
     * @param label the label
     * @param tag the tag
     */
    virtual void AnnounceSynchronizationPoint(const std::string& label, const UserTag& tag);

    /**
     * @brief announceSynchronizationPoint, pointer form (for Python).
     * @param label the label
     * @param tag the tag
     */
    virtual void AnnounceSynchronizationPointPy(const std::string& label, const UserTag* tag);

    /**
     * @brief federationSynchronized.
     * @param label the label
     */
    virtual void FederationSynchronized(const std::string& label);

    /**
     * @brief discoverObjectInstance.
     * @param object the instance
     * @param cls its class
     * @param name its name
     */
    virtual void DiscoverObjectInstance(ObjectInstanceHandle object,
                                        ObjectClassHandle cls,
                                        const std::string& name);

    /**
     * @brief reflectAttributeValues.
     * @param object the instance
     * @param values the attribute values
     * @param tag the tag
     * @param sentOrder the order it was sent in
     * @param transport how it was transported
     * @param time its timestamp (0 if sent RO)
     * @param receivedOrder the order it is delivered in
     * @param producer the federate that updated it
     */
    virtual void ReflectAttributeValues(ObjectInstanceHandle object,
                                        const HandleValueMap& values,
                                        const UserTag& tag,
                                        OrderType sentOrder,
                                        TransportationType transport,
                                        LogicalTime time,
                                        OrderType receivedOrder,
                                        FederateHandle producer);

    /**
     * @brief reflectAttributeValues, pointer form (for Python); same arguments.
     * @param object the instance
     * @param values the attribute values
     * @param tag the tag
     * @param sentOrder the order it was sent in
     * @param transport how it was transported
     * @param time its timestamp (0 if sent RO)
     * @param receivedOrder the order it is delivered in
     * @param producer the federate that updated it
     */
    virtual void ReflectAttributeValuesPy(ObjectInstanceHandle object,
                                          const HandleValueMap* values,
                                          const UserTag* tag,
                                          OrderType sentOrder,
                                          TransportationType transport,
                                          LogicalTime time,
                                          OrderType receivedOrder,
                                          FederateHandle producer);

    /**
     * @brief receiveInteraction.
     * @param cls the interaction class
     * @param parameters the parameter values
     * @param tag the tag
     * @param sentOrder the order it was sent in
     * @param transport how it was transported
     * @param time its timestamp (0 if sent RO)
     * @param receivedOrder the order it is delivered in
     * @param producer the federate that sent it
     */
    virtual void ReceiveInteraction(InteractionClassHandle cls,
                                    const HandleValueMap& parameters,
                                    const UserTag& tag,
                                    OrderType sentOrder,
                                    TransportationType transport,
                                    LogicalTime time,
                                    OrderType receivedOrder,
                                    FederateHandle producer);

    /**
     * @brief receiveInteraction, pointer form (for Python); same arguments.
     * @param cls the interaction class
     * @param parameters the parameter values
     * @param tag the tag
     * @param sentOrder the order it was sent in
     * @param transport how it was transported
     * @param time its timestamp (0 if sent RO)
     * @param receivedOrder the order it is delivered in
     * @param producer the federate that sent it
     */
    virtual void ReceiveInteractionPy(InteractionClassHandle cls,
                                      const HandleValueMap* parameters,
                                      const UserTag* tag,
                                      OrderType sentOrder,
                                      TransportationType transport,
                                      LogicalTime time,
                                      OrderType receivedOrder,
                                      FederateHandle producer);

    /**
     * @brief timeRegulationEnabled.
     * @param time the federate's logical time
     */
    virtual void TimeRegulationEnabled(LogicalTime time);

    /**
     * @brief timeConstrainedEnabled.
     * @param time the federate's logical time
     */
    virtual void TimeConstrainedEnabled(LogicalTime time);

    /**
     * @brief timeAdvanceGrant.
     * @param time the granted logical time
     */
    virtual void TimeAdvanceGrant(LogicalTime time);

    /**
     * @brief An evokeCallback / evokeMultipleCallbacks call returned (CallbackModel Evoked): the
     * federate program continues after the call (its next calls, then usually another evoke).
     * @param delivered callbacks delivered during the call
     */
    virtual void EvokeReturned(uint32_t delivered);

    /**
     * @brief connectionLost (IEEE 1516-2010's FederateAmbassador service; a 1516-2000 RTI such
     * as pRTI 1516 throws RTIinternalError from the federate's next call instead): the
     * federate's connection to the RTI is gone (TCP gave up after its retransmission limit).
     * Delivered at once, as the RTI's reader thread sees the socket error, not in an evoke.
     * @param reason what ended the connection
     */
    virtual void ConnectionLost(const std::string& reason);
};

/**
 * @ingroup testbed-rti
 * @brief The local RTI component linked into a federate, with the RTIambassador services.
 *
 * One per federate; it runs in the federate's process on the federate's node and talks to the
 * CRC over TCP (or the loopback when on the CRC's node; best-effort updates over UDP). Every
 * service call charges the RTI's call cost (and encode and send costs for the message it sends)
 * to the federate's process; every message read charges the host's receive cost and the RTI's
 * decode cost; every callback the RTI's callback cost. Calls never block: their effects follow
 * in simulated time, results come back as callbacks.
 *
 * Delivery (IEEE 1516): a timestamp-order message to a constrained federate waits in the TSO
 * queue until a grant covers its timestamp; the grant's TSO messages are delivered in timestamp
 * order (ties in arrival order) before timeAdvanceGrant. Receive-order messages to a constrained
 * federate are delivered while it is advancing (at once with asynchronous delivery enabled).
 * With GaltMode NullMessages this component computes GALT from the null messages of the other
 * regulating federates and grants by itself; it sends a null message whenever its own output
 * bound changes.
 */
class RtiAmbassador : public RtiComponent
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiAmbassador();
    ~RtiAmbassador() override;

    /**
     * @brief Create the federate's process on a node and connect to the CRC (loopback if on
     * the CRC's node, TCP otherwise).
     * @param node the federate's node (with a HostPlatform)
     * @param crc the federation's CRC
     */
    void Install(Ptr<Node> node, Ptr<RtiCentralComponent> crc);

    /**
     * @brief Set the callback receiver (not owned; it must outlive the federation).
     * @param fa the federate ambassador
     */
    void SetFederateAmbassador(FederateAmbassador* fa);

    // --- Federation management -------------------------------------------------------------

    /**
     * @brief joinFederationExecution (FederationJoined reports the handle).
     * @param federateName the federate's name
     * @param federateType the federate's type
     * @param federationName the federation execution
     */
    void JoinFederationExecution(const std::string& federateName,
                                 const std::string& federateType,
                                 const std::string& federationName);
    /** @brief resignFederationExecution. */
    void ResignFederationExecution();
    /**
     * @brief registerFederationSynchronizationPoint (for all federates).
     * @param label the label
     * @param tag the tag
     */
    void RegisterFederationSynchronizationPoint(const std::string& label,
                                                const UserTag& tag = UserTag());
    /**
     * @brief synchronizationPointAchieved.
     * @param label the label
     */
    void SynchronizationPointAchieved(const std::string& label);

    // --- Declaration management ------------------------------------------------------------

    /**
     * @brief publishObjectClassAttributes.
     * @param cls the class
     * @param attributes the attributes
     */
    void PublishObjectClassAttributes(ObjectClassHandle cls, const AttributeHandleSet& attributes);
    /**
     * @brief unpublishObjectClass.
     * @param cls the class
     */
    void UnpublishObjectClass(ObjectClassHandle cls);
    /**
     * @brief subscribeObjectClassAttributes.
     * @param cls the class
     * @param attributes the attributes
     */
    void SubscribeObjectClassAttributes(ObjectClassHandle cls,
                                        const AttributeHandleSet& attributes);
    /**
     * @brief unsubscribeObjectClass.
     * @param cls the class
     */
    void UnsubscribeObjectClass(ObjectClassHandle cls);
    /**
     * @brief publishInteractionClass.
     * @param cls the class
     */
    void PublishInteractionClass(InteractionClassHandle cls);
    /**
     * @brief unpublishInteractionClass.
     * @param cls the class
     */
    void UnpublishInteractionClass(InteractionClassHandle cls);
    /**
     * @brief subscribeInteractionClass.
     * @param cls the class
     */
    void SubscribeInteractionClass(InteractionClassHandle cls);
    /**
     * @brief unsubscribeInteractionClass.
     * @param cls the class
     */
    void UnsubscribeInteractionClass(InteractionClassHandle cls);

    // --- Object management -----------------------------------------------------------------

    /**
     * @brief registerObjectInstance (after the join).
     * @param cls the class
     * @param name the instance name ("" = generated)
     * @return the instance handle
     */
    ObjectInstanceHandle RegisterObjectInstance(ObjectClassHandle cls,
                                                const std::string& name = "");
    /**
     * @brief updateAttributeValues, receive order.
     * @param object the instance
     * @param values the values
     * @param tag the tag
     */
    void UpdateAttributeValues(ObjectInstanceHandle object,
                               const HandleValueMap& values,
                               const UserTag& tag);
    /**
     * @brief updateAttributeValues with a timestamp (sent TSO if the federate is regulating and
     * the instance's order type is timestamp, RO otherwise).
     * @param object the instance
     * @param values the values
     * @param tag the tag
     * @param time the timestamp (>= the federate's output bound when sent TSO)
     */
    void UpdateAttributeValues(ObjectInstanceHandle object,
                               const HandleValueMap& values,
                               const UserTag& tag,
                               LogicalTime time);
    /**
     * @brief sendInteraction, receive order.
     * @param cls the interaction class
     * @param parameters the values
     * @param tag the tag
     */
    void SendInteraction(InteractionClassHandle cls,
                         const HandleValueMap& parameters,
                         const UserTag& tag);
    /**
     * @brief sendInteraction with a timestamp (TSO if regulating).
     * @param cls the interaction class
     * @param parameters the values
     * @param tag the tag
     * @param time the timestamp
     */
    void SendInteraction(InteractionClassHandle cls,
                         const HandleValueMap& parameters,
                         const UserTag& tag,
                         LogicalTime time);
    /**
     * @brief changeAttributeOrderType, for all attributes of an instance.
     * @param object the instance
     * @param order the order type its updates are sent in
     */
    void ChangeAttributeOrderType(ObjectInstanceHandle object, OrderType order);
    /**
     * @brief changeAttributeTransportationType, for all attributes of an instance
     * (best-effort updates go over UDP; TSO updates are always sent reliably).
     * @param object the instance
     * @param transport the transportation type
     */
    void ChangeAttributeTransportationType(ObjectInstanceHandle object,
                                           TransportationType transport);

    // --- Time management -------------------------------------------------------------------

    /**
     * @brief enableTimeRegulation.
     * @param lookahead the lookahead (>= 0)
     */
    void EnableTimeRegulation(LogicalTime lookahead);
    /** @brief disableTimeRegulation. */
    void DisableTimeRegulation();
    /** @brief enableTimeConstrained. */
    void EnableTimeConstrained();
    /** @brief disableTimeConstrained. */
    void DisableTimeConstrained();
    /** @brief enableAsynchronousDelivery (RO messages delivered while not advancing too). */
    void EnableAsynchronousDelivery();
    /** @brief disableAsynchronousDelivery. */
    void DisableAsynchronousDelivery();
    /**
     * @brief timeAdvanceRequest.
     * @param time the requested time
     */
    void TimeAdvanceRequest(LogicalTime time);
    /**
     * @brief timeAdvanceRequestAvailable.
     * @param time the requested time
     */
    void TimeAdvanceRequestAvailable(LogicalTime time);
    /**
     * @brief nextMessageRequest.
     * @param time the requested time
     */
    void NextMessageRequest(LogicalTime time);
    /**
     * @brief nextMessageRequestAvailable.
     * @param time the requested time
     */
    void NextMessageRequestAvailable(LogicalTime time);
    /**
     * @brief modifyLookahead.
     * @param lookahead the new lookahead
     */
    void ModifyLookahead(LogicalTime lookahead);

    // --- Callback delivery (RtiSettings CallbackModel Evoked, IEEE 1516-2000) ------------------

    /**
     * @brief evokeCallback(approximateMinimumTimeInSeconds): deliver at most one callback; if
     * none is queued, wait up to the given time for one. The call's return is
     * FederateAmbassador::EvokeReturned.
     * @param wait the longest wait in seconds (>= 0)
     */
    void EvokeCallback(double wait);
    /**
     * @brief evokeMultipleCallbacks(min, max): deliver the queued callbacks and those that
     * arrive until min seconds have passed, then return (callbacks are delivered as they come,
     * so none is pending at min and max only bounds the call). The return is
     * FederateAmbassador::EvokeReturned.
     * @param min approximate minimum time in seconds (>= 0)
     * @param max approximate maximum time in seconds (>= min)
     */
    void EvokeMultipleCallbacks(double min, double max);
    /** @return callbacks queued for the next evoke */
    uint32_t GetNQueuedCallbacks() const;
    /** @return callbacks delivered so far (both models) */
    uint64_t GetNCallbacks() const;

    /** @return queryLogicalTime */
    LogicalTime QueryLogicalTime() const;
    /** @return queryLookahead */
    LogicalTime QueryLookahead() const;
    /** @return queryGALT as this component knows it (NullMessages mode; +inf otherwise) */
    TimeBound QueryGalt() const;
    /** @return whether a time advance is pending */
    bool IsAdvancing() const;
    /** @return whether the federate is time-regulating */
    bool IsRegulating() const;
    /** @return whether the federate is time-constrained */
    bool IsConstrained() const;

    // --- Support services ------------------------------------------------------------------

    /**
     * @brief getObjectClassHandle.
     * @param name the class name
     * @return the handle
     */
    ObjectClassHandle GetObjectClassHandle(const std::string& name) const;
    /**
     * @brief getAttributeHandle.
     * @param cls the class
     * @param name the attribute name
     * @return the handle
     */
    AttributeHandle GetAttributeHandle(ObjectClassHandle cls, const std::string& name) const;
    /**
     * @brief getInteractionClassHandle.
     * @param name the class name
     * @return the handle
     */
    InteractionClassHandle GetInteractionClassHandle(const std::string& name) const;
    /**
     * @brief getParameterHandle.
     * @param cls the interaction class
     * @param name the parameter name
     * @return the handle
     */
    ParameterHandle GetParameterHandle(InteractionClassHandle cls, const std::string& name) const;

    /** @return the federate handle (0 before the join completed) */
    FederateHandle GetFederateHandle() const;
    /** @return whether the connection to the CRC is through the loopback */
    bool IsLocal() const;
    /** @return TSO messages delivered */
    uint64_t GetNTsoDelivered() const;
    /** @return RO messages delivered */
    uint64_t GetNRoDelivered() const;
    /** @return grants received (or made, in NullMessages mode) */
    uint64_t GetNGrants() const;
    /** @return null messages sent */
    uint64_t GetNNullSent() const;
    /** @return TSO messages that arrived with a timestamp already granted (a protocol error) */
    uint64_t GetNLateTso() const;

    /**
     * TracedCallback signature for a delivered message.
     * @param [in] time its timestamp (0 for RO)
     * @param [in] receivedOrder the order it was delivered in (OrderType as an integer)
     */
    typedef void (*DeliverTracedCallback)(LogicalTime time, uint8_t receivedOrder);

    /**
     * TracedCallback signature for a grant.
     * @param [in] time the granted time
     */
    typedef void (*GrantTracedCallback)(LogicalTime time);

    /**
     * TracedCallback signature for the connection to the RTI lost.
     * @param [in] reason what ended it
     */
    typedef void (*ConnectionLostTracedCallback)(const std::string& reason);

  protected:
    void DoDispose() override;
    void HandleMessage(Ptr<RtiConnection> conn, RtiMessage& msg) override;

  private:
    /**
     * The connection to the central component was lost: trace it and tell the federate.
     * @param reason what ended it
     */
    void HandleConnectionLost(const std::string& reason);

    /**
     * A new message from this federate.
     * @param type type
     * @return the message
     */
    RtiMessage Make(RtiMessage::Type type) const;
    /**
     * Charge a call's cost and send a message to the CRC.
     * @param msg the message
     * @param bestEffort over UDP (if remote)
     */
    void Call(RtiMessage msg, bool bestEffort = false);
    /**
     * A time advance service.
     * @param kind the service
     * @param time the requested time
     */
    void Advance(AdvanceKind kind, LogicalTime time);
    /**
     * Invoke a federate ambassador callback after the work charged so far, as a turn.
     * @param invoke the invocation
     */
    void Callback(std::function<void()> invoke);
    /**
     * Deliver a reflect or interaction now (callback cost + callback).
     * @param msg the message
     * @param receivedOrder the order it is delivered in
     */
    void Deliver(RtiMessage msg, OrderType receivedOrder);
    /**
     * A grant: deliver the covered TSO messages, then timeAdvanceGrant.
     * @param t the granted time
     */
    void Grant(LogicalTime t);
    /** Deliver RO messages held while the federate was not advancing. */
    void ReleaseHeldRo();
    /** NullMessages mode: grant if possible, send a null message if the bound changed. */
    void EvaluateLocal();

    /**
     * TsoRelease WhenGuaranteed: deliver the queued TSO messages that GALT has passed, up to the
     * requested time of a pending TAR/TARA.
     * @param galt the federate's GALT
     */
    void ReleaseGuaranteed(const TimeBound& galt);

    /** A callback's cost (CallbackModel Immediate: at once; Evoked: when it is dispatched). */
    void ChargeCallback();
    /**
     * Evoked: run a callback inside the evoke call (its cost, then a turn).
     * @param invoke the invocation
     */
    void Dispatch(std::function<void()> invoke);
    /** Evoked: the evoke call returns (after the callbacks dispatched in it). */
    void EvokeReturn();

    /** enableTimeConstrained completes: state, callback (and, NullMessages, a new bound). */
    void CompleteConstrained();
    /**
     * Send a null message with the current bound (or a withdrawal).
     * @param bound the bound
     * @param regulating false to withdraw
     */
    void SendNull(const TimeBound& bound, bool regulating);
    /** @return GALT from the other federates' null messages */
    TimeBound LocalGalt() const;
    /**
     * Whether a message can be sent: joined, connected.
     * @param what the call (for the error message)
     */
    void CheckJoined(const char* what) const;
    /**
     * A TSO message was read: count it (TsoBookkeeping Counts) or note it to the CRC
     * (TsoBookkeeping ReadNotes, while constrained: a TSO_NOTE_READ on the reliable connection).
     * @param msg the message read
     */
    void NoteRead(const RtiMessage& msg);

    Ptr<RtiFom> m_fom;         //!< FOM
    Ptr<RtiConnection> m_conn; //!< reliable connection to the CRC
    Ptr<RtiConnection> m_udp;  //!< best-effort path (remote only)
    FederateAmbassador* m_fa;  //!< callbacks (not owned)
    FederateHandle m_handle;   //!< our handle
    bool m_joinSent;           //!< join requested
    uint32_t m_serial;         //!< message serial
    uint32_t m_tsoSent;        //!< TSO messages sent (TsoBookkeeping Counts)
    uint32_t m_tsoRead;        //!< TSO messages read (TsoBookkeeping Counts)
    uint32_t m_nextObject;     //!< instance counter
    std::map<ObjectInstanceHandle, std::pair<OrderType, TransportationType>> m_objects; //!< ours
    RtiTimeManager::State m_state; //!< our time state
    bool m_asyncDelivery;          //!< asynchronous delivery enabled
    bool m_constrainedRequested;   //!< enableTimeConstrained pending
    bool m_constrainedAcked;       //!< NullMessages: the CRC acknowledged, waiting for GALT
    std::multimap<LogicalTime, RtiMessage> m_tsoQueue;   //!< TSO messages waiting for a grant
    std::deque<RtiMessage> m_heldRo;                     //!< RO messages waiting for an advance
    std::map<FederateHandle, TimeBound> m_others;        //!< NullMessages: others' bounds
    TimeBound m_lastBound;                               //!< NullMessages: last bound sent
    bool m_boundSent;                                    //!< NullMessages: a bound was sent
    uint64_t m_nTso;                                     //!< counter
    uint64_t m_nRo;                                      //!< counter
    uint64_t m_nGrants;                                  //!< counter
    uint64_t m_nNull;                                    //!< counter
    uint64_t m_nLate;                                    //!< counter
    uint64_t m_nCallbacks;                               //!< counter
    std::deque<std::function<void()>> m_callbacks;       //!< Evoked: queued callbacks
    bool m_evoking;                                      //!< Evoked: inside an evoke call
    bool m_evokeMultiple;                                //!< evokeMultipleCallbacks (else one)
    uint32_t m_evokeDelivered;                           //!< callbacks of the current evoke
    EventId m_evokeTimer;                                //!< end of the evoke's wait
    TracedCallback<LogicalTime, uint8_t> m_deliverTrace; //!< deliveries
    TracedCallback<LogicalTime> m_grantTrace;            //!< grants
    TracedCallback<const std::string&> m_lostTrace;      //!< connection to the RTI lost
};

} // namespace ns3

#endif /* TESTBED_RTI_AMBASSADOR_H */
