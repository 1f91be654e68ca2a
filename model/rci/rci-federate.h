/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RCI_FEDERATE_H
#define TESTBED_RCI_FEDERATE_H

#include "node-clock.h"
#include "rci-schedule.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/rti-lrc.h"
#include "ns3/traced-callback.h"

#include <map>
#include <queue>
#include <vector>

/**
 * @file
 * @ingroup testbed-rci
 * An RCI component: the frame schedule run by a scheduler over the RTI.
 */

namespace ns3
{

/**
 * @ingroup testbed-rci
 * @brief TNO's RCI layer of one federate ([TNO03]): runs a frame schedule (RciSchedule) in the
 * federate's process with a scheduler, over the federate's local RTI component (RtiLrc).
 *
 * The actions run at their offsets of each frame, paced at Timescale times real time on the
 * node's clock (SetClock; without one, the true time); with Pacing false, frames follow each
 * other as fast as the process can run them. An action whose start is later than its scheduled
 * time by more than DeadlineTolerance is a deadline miss. Schedulers (attribute Scheduler):
 *
 * - Default: no time synchronisation; Update() stamps an update with the node clock's time
 *   (information only) and a reflection is handed to the application at once.
 * - UtcTm: the federation's time is UTC, i.e. each node's clock (synchronised by its
 *   discipline). Update() stamps an update with the federate's time (the scheduled time of the
 *   current action); the RCI keeps what it reads and hands it over at each UPDATE action, in
 *   timestamp order, up to the action's time. It never waits: a reflection that arrives after
 *   the UPDATE action that should have delivered it (timestamp <= a time already delivered) is
 *   a TSO violation, counted and handed over at the next UPDATE action.
 *
 * A federate that receives through the RCI (SetReflectCallback) waits for its next action with
 * a timeout, reading the RTI as messages come; one that only sends sleeps until the action.
 *
 * - HlaTm: the RTI's time management (the Fedex's, RtiLrc::EnableTimeManagement): the
 *   federate is time-regulating and time-constrained with lookahead Lookahead. Before each action
 *   it requests TimeAdvanceRequest(the action's time) as soon as the previous action's work is
 *   done (RtiLrc::RequestAdvance: a message to the Fedex; each update sent and read is noted to
 *   the Fedex in a message too) and waits for the grant message, then (paced as above) for the
 *   action's time; the reflections
 *   stamped up to that time are handed over in timestamp order, then the action runs. Update()
 * stamps an update with the federate's time + Lookahead. A slow federate holds every other back; a
 * TSO violation cannot happen (still counted, as a check).
 *
 * An action runs the callback registered under its name (SetAction) in the process; the
 * callback charges its work to the process (HostProcess::Execute, RtiLrc::Update).
 */
class RciFederate : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RciFederate();
    ~RciFederate() override;

    /**
     * @brief Attach to a federate's local RTI component and its schedule.
     * @param lrc the local RTI component (joined)
     * @param schedule the frame schedule
     */
    void Setup(Ptr<RtiLrc> lrc, const RciSchedule& schedule);

    /**
     * @brief The callback of a named action of the schedule.
     * @param name the action's name (must exist in the schedule)
     * @param cb the callback
     */
    void SetAction(const std::string& name, Callback<void> cb);

    /** The time-management scheme. */
    enum Scheduler : uint8_t
    {
        DEFAULT, //!< no time synchronisation
        UTC_TM,  //!< paced to UTC, timestamps in the tag, ordered by the RCI
        HLA_TM,  //!< the RTI's time management: regulating and constrained, waits for grants
    };

    /**
     * @brief Pace the frames to this node clock (default: the true time).
     * @param clock the clock
     */
    void SetClock(Ptr<NodeClock> clock);

    /**
     * @brief Send an update through the federate's RTI component, stamped as the scheduler says
     * (Default: the node clock's time; UtcTm: the current action's federate time).
     * @param objectClass the object class
     * @param bytes attribute bytes
     */
    void Update(uint32_t objectClass, uint32_t bytes);

    /**
     * @brief Receive reflections through the RCI (installs itself on the RTI component).
     * @param cb called in the process with each reflection, when the scheduler hands it over
     */
    void SetReflectCallback(RtiLrc::ReflectCallback cb);

    /** @return the federate time of the action running now (or of the last one) */
    Time GetTime() const;

    /** @return reflections that arrived after their time had been delivered (UtcTm) */
    uint64_t GetTsoViolations() const;

    /** @return the smallest lateness of an action (with GetMaxLateness: the scheduling jitter) */
    Time GetMinLateness() const;

    /**
     * @brief HlaTm: enable the RTI's time management now (RtiLrc::EnableTimeManagement with
     * the Lookahead: a message to the Fedex); @p enabled runs when the RTI's answer has been
     * read. Start does it itself if this was not called.
     * @param enabled the RTI's callback (may be null)
     */
    void EnableTimeManagement(Callback<void> enabled);

    /**
     * @brief Start the frames (HlaTm: enabling the time management first if
     * EnableTimeManagement was not called).
     * @param first the start of the first frame (absolute simulation time)
     */
    void Start(Time first);

    /**
     * @brief Run this federate as the study's ReceiverSender and Receiver do: unpaced frames
     * of one Update action that ticks the RTI (reads what is queued, callbacks), then blocks
     * until more comes. Each read cycle of the RTI component is one Update action and costs the
     * RCI's ActionCost and ClockReads once (RtiLrc::SetCycleWork); the reflections reach the
     * component's reflect callback. Needs no schedule or Start().
     */
    void ReadInUpdateActions();

    /** @return the RCI's own CPU time per action on this federate's host (ActionCost, clock
     * reads) */
    Time ActionOverhead() const;

    /** Stop after the action running now. */
    void Stop();

    /** @return the local RTI component */
    Ptr<RtiLrc> GetLrc() const;
    /** @return actions run */
    uint64_t GetActions() const;
    /** @return actions that started later than their time by more than DeadlineTolerance */
    uint64_t GetDeadlineMisses() const;
    /**
     * @return actions whose scheduled time had come when Stop() was called but that had not
     *         started (a federate held back, e.g. waiting for a grant); not deadline misses
     */
    uint64_t GetActionsNotRun() const;
    /** @return the largest lateness of an action */
    Time GetMaxLateness() const;

    /**
     * TracedCallback signature for an action's start.
     * @param [in] name the action
     * @param [in] scheduled its scheduled time
     * @param [in] started when it started
     */
    typedef void (*ActionTracedCallback)(const std::string& name, Time scheduled, Time started);

  protected:
    void DoDispose() override;

  private:
    /** Sleep until the next action, then run it. */
    void ScheduleNext();
    /**
     * @param frame a frame number
     * @param index an action of the schedule
     * @return the action's simulation (logical) time: frame x Frame + its offset
     */
    Time SimTime(uint64_t frame, std::size_t index) const;
    /**
     * @param frame a frame number
     * @param index an action of the schedule
     * @return the true time the action is scheduled for (the node clock's reading of it)
     */
    Time ScheduledTime(uint64_t frame, std::size_t index) const;
    /**
     * Run an action.
     * @param scheduled its scheduled time
     */
    void RunAction(Time scheduled);
    /**
     * HLA-TM: granted the next action's time; wait (paced) for it, then run it.
     * @param process the federate's process
     * @param scheduled the action's true start time
     */
    void AwaitGranted(Ptr<HostProcess> process, Time scheduled);
    /**
     * Wait, paced, for an action's time and run it: the wait's system call (TimerCalls x the
     * host's SyscallCost), then a sleep (@p timed false) or a timed wait that a message may end
     * earlier (@p timed true) to the absolute time; a time already past returns at once from
     * the call (no timer, no wake-up).
     * @param process the federate's process
     * @param scheduled the action's time (true time)
     * @param timed a timed wait on the RTI's semaphore instead of a sleep
     */
    void PacedWait(Ptr<HostProcess> process, Time scheduled, bool timed);
    /**
     * A reflection read by the RTI component.
     * @param r the reflection
     */
    void OnReflect(const RtiLrc::Reflection& r);
    /** Hand the kept reflections up to the current time to the application (UtcTm). */
    void Deliver();

    /** Orders kept reflections by timestamp, then by arrival. */
    struct Later
    {
        /**
         * @param a one
         * @param b another
         * @return whether a comes after b
         */
        bool operator()(const std::pair<RtiLrc::Reflection, uint64_t>& a,
                        const std::pair<RtiLrc::Reflection, uint64_t>& b) const
        {
            return a.first.tag != b.first.tag ? a.first.tag > b.first.tag : a.second > b.second;
        }
    };

    Ptr<RtiLrc> m_lrc;                               //!< local RTI component
    RciSchedule m_schedule;                          //!< the schedule
    std::map<std::string, Callback<void>> m_actions; //!< callbacks
    bool m_pacing;                                   //!< Pacing
    double m_timescale;                              //!< Timescale
    Time m_tolerance;                                //!< DeadlineTolerance
    Time m_lookahead;                                //!< Lookahead (HLA-TM)
    double m_actionCycles{0};                        //!< ActionCost
    uint32_t m_clockReads{0};                        //!< ClockReads
    uint32_t m_timerCalls{0};                        //!< TimerCalls
    double m_reflectCycles{0};                       //!< ReflectCost
    Time m_start;                                    //!< start of frame 0
    uint64_t m_frame;                                //!< current frame
    std::size_t m_next;                              //!< next action index
    bool m_running;                                  //!< started, not stopped
    bool m_tmRequested{false};                       //!< EnableTimeManagement was called
    uint64_t m_nActions;                             //!< counter
    uint64_t m_misses;                               //!< counter
    uint64_t m_notRun;                               //!< actions due but not started at Stop
    Time m_maxLateness;                              //!< largest lateness
    Time m_minLateness;                              //!< smallest lateness
    Scheduler m_scheduler;                           //!< Scheduler
    Ptr<NodeClock> m_clock;                          //!< the node's clock
    Time m_time;                                     //!< federate time
    Time m_horizon;                                  //!< last time delivered
    RtiLrc::ReflectCallback m_reflect;               //!< application's callback
    std::priority_queue<std::pair<RtiLrc::Reflection, uint64_t>,
                        std::vector<std::pair<RtiLrc::Reflection, uint64_t>>,
                        Later>
        m_kept;            //!< reflections kept for an UPDATE action, with arrival number
    uint64_t m_arrivals;   //!< reflections read
    uint64_t m_violations; //!< TSO violations
    TracedCallback<const std::string&, Time, Time> m_actionTrace; //!< action starts
};

} // namespace ns3

#endif /* TESTBED_RCI_FEDERATE_H */
