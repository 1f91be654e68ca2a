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
#include "ns3/random-variable-stream.h"

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
 *
 * The component works in turns: reading one connection, one callback into the federate, or
 * the service calls made in one simulation event from outside the process. With
 * RtiSettings::WriteBatching the messages a turn sends are queued, and at the end of the turn
 * the output is written with one system call per connection (an I/O thread that runs when the
 * RTI's or the federate's thread blocks, on a uniprocessor); otherwise each message is written
 * with its own call as soon as it is encoded.
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

    /** @return minor garbage collections of this component's VM so far */
    uint64_t GetMinorGcs() const;

    /** @return time of this component's minor garbage collections so far */
    Time GetMinorGcTime() const;

    /** @return thread hand-offs charged so far */
    uint64_t GetThreadHandoffs() const;

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
     * An RTI operation's CPU work (RtiSettings: its cost times the run's factor and the cost
     * variation's factor) and its allocation on the component's heap (a minor collection's
     * pause when eden fills).
     * @param cycles the operation's nominal cycles
     * @param bytes size of the message it encodes or decodes (0 if none)
     */
    void ChargeOperation(double cycles, uint32_t bytes = 0);

    /**
     * An action after the work charged so far (ends a CPU work item).
     * @param action the action
     */
    void Do(std::function<void()> action);

    /**
     * An action after the work charged so far, as a turn of its own (BeginTurn, the action,
     * EndTurn): what it sends is written at its end.
     * @param action the action
     */
    void DoTurn(std::function<void()> action);

    /** Execute work charged but not followed by an action. */
    void Flush();

    /** A turn begins (nested turns end with the outermost). */
    void BeginTurn();

    /** A turn ends: write the queued output (WriteBatching) or execute what is charged. */
    void EndTurn();

    /**
     * A turn around a service call: inside a turn it joins it; from outside the process it
     * joins the turn of the current simulation event (which ends once the event is over).
     */
    void CallTurn();

    /**
     * Send a message: encode cost and the host's send cost, then hand it to the connection
     * (with WriteBatching: encode cost, then into the output queue, written with the others
     * queued in the same turn by one system call).
     * @param conn the connection
     * @param msg the message (moved into the output)
     */
    void Transmit(Ptr<RtiConnection> conn, RtiMessage msg);

    /**
     * Start reading a connection when it has data.
     * @param conn the connection
     */
    void Watch(Ptr<RtiConnection> conn);

    /**
     * Handle one received message (in process context; its decode cost is charged already).
     * @param conn where it came from
     * @param msg the message (the handler may move from it: it is not used afterwards)
     */
    virtual void HandleMessage(Ptr<RtiConnection> conn, RtiMessage& msg) = 0;

    Ptr<RtiSettings> m_settings; //!< federation settings

  private:
    /** What the process does at the end of a CPU work item (Do, DoTurn, Transmit, EndTurn). */
    struct Action
    {
        /** Kinds of actions. */
        enum Kind : uint8_t
        {
            SEND_BATCH, //!< conn->SendBatch(msgs) (one message or the output of a turn)
            CALL,       //!< call()
            CALL_TURN,  //!< call() as a turn
        };

        Kind kind;                    //!< what to do
        Ptr<RtiConnection> conn;      //!< SEND_BATCH: the connection
        std::vector<RtiMessage> msgs; //!< SEND_BATCH: the messages
        std::function<void()> call;   //!< CALL, CALL_TURN: the function
    };

    /**
     * Queue an action after the work charged so far (one CPU work item of the process).
     * @param action the action
     */
    void Enqueue(Action&& action);
    /** The work item of the oldest queued action is done: run the action. */
    void RunAction();
    /**
     * Data became available on a connection.
     * @param conn the connection
     */
    void DataAvailable(Ptr<RtiConnection> conn);
    /** Read the next ready connection (a process step). */
    void ReadNext();
    /** The turn of the service calls of one simulation event ends. */
    void EndExternalTurn();
    /**
     * Host-CPU cycles of a time value.
     * @param t time
     * @return cycles at the host's frequency
     */
    double ToCycles(Time t) const;
    /**
     * Allocate on the component's heap; a minor collection when eden fills.
     * @param bytes bytes allocated
     */
    void Allocate(double bytes);
    /** Charge one thread hand-off (RtiSettings::ThreadHandoffCycles), if it costs anything. */
    void ChargeHandoff();

    Ptr<Node> m_node;                       //!< node
    Ptr<HostPlatform> m_platform;           //!< host
    Ptr<HostProcess> m_process;             //!< the process
    double m_pending;                       //!< cycles charged, not yet executed
    double m_charged;                       //!< total cycles charged
    Ptr<GammaRandomVariable> m_costFactor;  //!< cost variation (created when it is used)
    double m_invocationFactor;              //!< this run's cost factor (< 0: not drawn yet)
    Ptr<UniformRandomVariable> m_uniform;   //!< eden phase and pauses (created when used)
    double m_edenUsed;                      //!< bytes allocated since the last collection
    bool m_edenStarted;                     //!< the eden's start-up occupancy is drawn
    uint64_t m_gcs;                         //!< minor collections
    Time m_gcTime;                          //!< their pauses
    uint64_t m_handoffs;                    //!< thread hand-offs charged
    std::deque<Ptr<RtiConnection>> m_ready; //!< connections with data, in arrival order
    bool m_readScheduled;                   //!< a read step is queued

    /** The messages of a turn for one connection. */
    struct Output
    {
        Ptr<RtiConnection> conn;      //!< the connection
        std::vector<RtiMessage> msgs; //!< the messages, in order
        uint32_t bytes;               //!< their serialized size
    };

    /** Output queue per connection, in the order the connections were first used. */
    std::vector<Output> m_output;
    /** The output of the turn being written (kept for its room). */
    std::vector<Output> m_turnOutput;
    uint32_t m_turnDepth;         //!< nesting of turns
    bool m_externalTurn;          //!< a turn of outside calls is open
    std::deque<Action> m_actions; //!< actions queued in the process, in order
    Callback<void> m_actionDone;  //!< RunAction, the callback of every action's work item
    Callback<void> m_readNext;    //!< ReadNext, the callback of every read's wake-up
};

} // namespace ns3

#endif /* TESTBED_RTI_COMPONENT_H */
