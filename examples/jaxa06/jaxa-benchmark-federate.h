/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_JAXA_BENCHMARK_FEDERATE_H
#define TESTBED_JAXA_BENCHMARK_FEDERATE_H

#include "ns3/object.h"
#include "ns3/rti-ambassador.h"
#include "ns3/traced-callback.h"

#include <string>

/**
 * @file
 * @ingroup testbed-apps
 * The [JAXA06] RTI benchmark federates.
 */

namespace ns3
{

class TimerModel;

/**
 * @ingroup testbed-apps
 * @brief One federate of the [JAXA06] benchmark: sender, receiver, both (bidirectional) or
 * time-only.
 *
 * Set-up: join; the sender publishes the object class Data (attribute payload) and registers an
 * instance, the receiver subscribes to it (a bidirectional federate does both); in synchronised
 * mode every federate enables time regulation (lookahead = one step) and time constrained. Then
 * it achieves the synchronization point "ready" (registered by the master federate once every
 * federate is expected to have joined) and starts when the federation is synchronized.
 *
 * Loop, Exchanges times:
 *
 * - synchronised: a sender updates payload (DataSize bytes) with timestamp t + lookahead (or
 *   receive order, DataOrder = RO) and requests TAR(t + 1); a receiver or time-only federate
 *   requests TAR(t + 1); the next step starts at the grant. A receiver counts the reflects.
 * - asynchronous: the sender calls updateAttributeValues (receive order) Exchanges times in a
 *   row; the receiver counts reflects; there is no time management.
 *
 * The start time is the federationSynchronized callback; the end time the last grant
 * (synchronised) or the last reflect (asynchronous receiver) or the last update call
 * (asynchronous sender).
 */
class JaxaBenchmarkFederate
    : public Object
    , public FederateAmbassador
{
  public:
    /** Role. */
    enum Role
    {
        SENDER,        //!< sends, advances
        RECEIVER,      //!< receives, advances
        BIDIRECTIONAL, //!< sends and receives, advances
        TIME_ONLY      //!< only advances time (synchronised mode)
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    JaxaBenchmarkFederate();
    ~JaxaBenchmarkFederate() override;

    /**
     * @brief Attach to its RTI ambassador and join.
     * @param amb the RTI ambassador (installed on the federate's node)
     * @param name the federate name
     * @param master whether this federate registers the synchronization point
     * @param readyAt when the master registers it (every join is done by then)
     */
    void Start(Ptr<RtiAmbassador> amb, const std::string& name, bool master, Time readyAt);

    /**
     * @brief The benchmark's operator, for the master: it registers "ready" at readyAt (Start)
     * only if allJoined() holds (every federate of the run is in the federation), else when
     * told that it may hold (ReadyGateOpened). Without it, a federate whose join completes after
     * the registration and after the federation synchronized at "ready" without it (a long link
     * delay: three crossings before the join is done) never starts, and neither does the
     * federation's time.
     * @param allJoined whether every federate of the run has joined
     */
    void SetReadyGate(Callback<bool> allJoined);
    /** @return whether the master's "ready" is due (readyAt passed) and not registered yet */
    bool IsReadyPending() const;
    /** @brief The gate may have opened: the master registers "ready" if it is pending and the
     * gate holds. */
    void ReadyGateOpened();

    /**
     * @brief Wait for callbacks by sleep-polling instead of blocking in evokeCallback(EvokeWait):
     * the program calls evokeCallback(0) and, when it returns with nothing, its process sleeps
     * (HostProcess::Sleep: the timer, the scheduling latency, then the CPU) before it polls
     * again. Call before Start.
     * @param timer the timer the process's sleeps end on (null: the host's)
     * @param sleep the sleep it asks for
     */
    void SetPolling(Ptr<TimerModel> timer, Time sleep);

    /** @return whether the loop is over */
    bool IsDone() const;
    /** @return when the program started (Start: it begins to join) */
    Time GetProgramStartTime() const;
    /** @return when the program learnt that it joined (federationJoined; 0 before) */
    Time GetJoinedTime() const;
    /** @return when the program discovered its first object instance (0: none) */
    Time GetDiscoveredTime() const;
    /** @return when the loop started (federationSynchronized) */
    Time GetStartTime() const;
    /** @return when the loop ended */
    Time GetEndTime() const;
    /** @return exchanges completed (grants in synchronised mode, reflects or updates else) */
    uint32_t GetCompleted() const;
    /** @return reflects received */
    uint32_t GetReflects() const;
    /** @return the federate's role */
    Role GetRole() const;

    /**
     * TracedCallback signature for the end of the loop.
     * @param [in] start when it started
     * @param [in] end when it ended
     */
    typedef void (*DoneTracedCallback)(Time start, Time end);

    /**
     * TracedCallback signature for the start of the loop.
     * @param [in] start when it started
     */
    typedef void (*StartTracedCallback)(Time start);

    /**
     * TracedCallback signature for a completed synchronised step (its grant reached the
     * program).
     * @param step the number of steps completed so far (1 for the first)
     */
    typedef void (*StepTracedCallback)(uint32_t step);

    /**
     * TracedCallback signature for the program's learning that it joined (federationJoined).
     */
    typedef void (*JoinedTracedCallback)();

    // FederateAmbassador
    void FederationJoined(FederateHandle federate) override;
    void AnnounceSynchronizationPoint(const std::string& label, const UserTag& tag) override;
    void FederationSynchronized(const std::string& label) override;
    void ReflectAttributeValues(ObjectInstanceHandle object,
                                const HandleValueMap& values,
                                const UserTag& tag,
                                OrderType sentOrder,
                                TransportationType transport,
                                LogicalTime time,
                                OrderType receivedOrder,
                                FederateHandle producer) override;
    void TimeRegulationEnabled(LogicalTime time) override;
    void TimeConstrainedEnabled(LogicalTime time) override;
    void TimeAdvanceGrant(LogicalTime time) override;
    void DiscoverObjectInstance(ObjectInstanceHandle object,
                                ObjectClassHandle cls,
                                const std::string& name) override;
    void EvokeReturned(uint32_t delivered) override;
    /**
     * The connection to the RTI is gone: the program's loop ends where it is (the next RTI call
     * would throw), without its Done.
     * @param reason what ended the connection
     */
    void ConnectionLost(const std::string& reason) override;

    /** @return whether the connection to the RTI was lost */
    bool IsLost() const;

  protected:
    void DoDispose() override;

  private:
    /** Achieve "ready" once the set-up is complete and the point is announced. */
    /**
     * The program's next calls once what it waits for has come (called by every callback with
     * immediate callbacks, after every evoke with evoked ones).
     */
    void Continue();
    /** Publish, register, subscribe, enable time management. */
    void Declare();
    /** The loop starts (the clock is read). */
    void StartLoop();
    /** Evoked callbacks: block in evokeCallback(EvokeWait). */
    void Evoke();
    void MaybeReady();
    /** One step of the synchronised loop. */
    void Step();
    /** Send one update. */
    void Send();
    /** The loop is over. */
    void Finish();

    Ptr<RtiAmbassador> m_amb;               //!< RTI ambassador
    Role m_role;                            //!< Role
    bool m_sync;                            //!< Synchronised
    bool m_tsoData;                         //!< DataOrder = TSO
    uint32_t m_dataSize;                    //!< DataSize
    uint32_t m_exchanges;                   //!< Exchanges
    double m_lookahead;                     //!< Lookahead
    bool m_master;                          //!< registers the sync point
    double m_evokeWait;                     //!< EvokeWait (s)
    bool m_evoked;                          //!< the federation's callbacks are evoked
    bool m_joined;                          //!< federationJoined came
    bool m_declared;                        //!< declarations made
    bool m_synchronized;                    //!< "ready" reached
    bool m_granted;                         //!< a grant came and was not handled yet
    ObjectClassHandle m_class;              //!< Data
    AttributeHandle m_payload;              //!< Data.payload
    ObjectInstanceHandle m_obj;             //!< our instance
    HandleValueMap m_values;                //!< the update's values
    bool m_regulating;                      //!< regulation enabled
    bool m_constrained;                     //!< constrained enabled
    bool m_announced;                       //!< "ready" announced
    bool m_achieved;                        //!< "ready" achieved
    bool m_running;                         //!< loop running
    bool m_done;                            //!< loop over
    bool m_lost;                            //!< the connection to the RTI was lost
    uint32_t m_completed;                   //!< exchanges completed
    uint32_t m_reflects;                    //!< reflects received
    bool m_poll{false};                     //!< SetPolling called (else evokeCallback)
    Ptr<TimerModel> m_pollTimer;            //!< SetPolling: the timer
    Time m_pollSleep;                       //!< SetPolling: the sleep asked for
    Time m_programStart;                    //!< Start
    Time m_joinedAt;                        //!< federationJoined
    Time m_discoveredAt;                    //!< first discoverObjectInstance
    Time m_start;                           //!< loop start
    Time m_end;                             //!< loop end
    TracedCallback<Time, Time> m_doneTrace; //!< end of the loop
    TracedCallback<Time> m_startTrace;      //!< start of the loop
    TracedCallback<uint32_t> m_stepTrace;   //!< a synchronised step completed
    TracedCallback<> m_joinedTrace;         //!< the program learnt that it joined
    Callback<bool> m_readyGate;             //!< every federate joined (SetReadyGate)
    bool m_readyDue{false};                 //!< the master's readyAt has passed
    bool m_readyRegistered{false};          //!< the master registered "ready"
};

} // namespace ns3

#endif /* TESTBED_JAXA_BENCHMARK_FEDERATE_H */
