/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RCI_FEDERATE_H
#define TESTBED_RCI_FEDERATE_H

#include "rci-schedule.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/rti-lrc.h"
#include "ns3/traced-callback.h"

#include <map>

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
 * Scheduler implemented: Default (no time synchronisation, updates without timestamp: the
 * actions run at their offsets of each frame on the host's clock, paced at Timescale times
 * real time; with Pacing false, frames follow each other as fast as the process can run
 * them). An action whose start is later than its scheduled time by more than
 * DeadlineTolerance is a deadline miss. The HLA-TM and UTC-TM schedulers of the study are not
 * built yet (see doc/tno.rst).
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

    /**
     * @brief Start the frames.
     * @param first the start of the first frame (absolute simulation time)
     */
    void Start(Time first);

    /** Stop after the action running now. */
    void Stop();

    /** @return the local RTI component */
    Ptr<RtiLrc> GetLrc() const;
    /** @return actions run */
    uint64_t GetActions() const;
    /** @return actions that started later than their time by more than DeadlineTolerance */
    uint64_t GetDeadlineMisses() const;
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
     * Run an action.
     * @param scheduled its scheduled time
     */
    void RunAction(Time scheduled);

    Ptr<RtiLrc> m_lrc;                                            //!< local RTI component
    RciSchedule m_schedule;                                       //!< the schedule
    std::map<std::string, Callback<void>> m_actions;              //!< callbacks
    bool m_pacing;                                                //!< Pacing
    double m_timescale;                                           //!< Timescale
    Time m_tolerance;                                             //!< DeadlineTolerance
    Time m_start;                                                 //!< start of frame 0
    uint64_t m_frame;                                             //!< current frame
    std::size_t m_next;                                           //!< next action index
    bool m_running;                                               //!< started, not stopped
    uint64_t m_nActions;                                          //!< counter
    uint64_t m_misses;                                            //!< counter
    Time m_maxLateness;                                           //!< largest lateness
    TracedCallback<const std::string&, Time, Time> m_actionTrace; //!< action starts
};

} // namespace ns3

#endif /* TESTBED_RCI_FEDERATE_H */
