/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_CPU_INTERFERENCE_H
#define TESTBED_HOST_CPU_INTERFERENCE_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

/**
 * @file
 * @ingroup testbed-host
 * The interference model of a host's CPU: sporadic kernel work bound to each core, and its
 * deferral while the CPU is idle.
 */

namespace ns3
{

/**
 * @ingroup testbed-host
 * @brief Sporadic kernel activity on each core of a HostCpu (its Attributes InterferenceRate,
 * InterferencePeriodic, InterferenceDuration, ShieldedInterferenceRate,
 * ShieldedInterferenceDuration, IdleInterferenceEvents; off while both rates are 0).
 *
 * Each core has a stream of events: Poisson at InterferenceRate, or with InterferencePeriodic
 * one every 1/InterferenceRate from a uniform phase (a kernel's timer tick); a shielded core
 * has its own Poisson rate. Each event is a work item of the CPU's highest class, bound to its
 * core, whose service time is a draw of the duration. The cores share one stream of gaps and
 * one per kind of duration, drawn in the order the events happen.
 *
 * While the CPU is idle with nothing pending (the CPU decides: Defer), the events are not
 * simulator events, so that a run whose work is done ends; each core keeps the instant of its
 * next event. When the CPU is next used or asked, CatchUp runs every event due up to now in time
 * order, with the draws and in the order they would have had as events, and hands each to the
 * CPU (Cpu::RunDueInterference), which places it as it would have run; Arm makes the pending
 * instants events again.
 */
class HostCpuInterference
{
  public:
    /** What the interference asks of the CPU whose cores it interrupts. */
    class Cpu
    {
      public:
        virtual ~Cpu() = default;
        /**
         * @brief An event at its instant (now): kernel work bound to a core.
         * @param core the core
         * @param service its service time
         */
        virtual void RunInterference(uint32_t core, Time service) = 0;
        /**
         * @brief A deferred event, due at or before now: placed as it would have run at its
         * instant on a CPU idle but for the deferred events before it.
         * @param core the core
         * @param due its instant (time step)
         * @param service its service time (time steps)
         */
        virtual void RunDueInterference(uint32_t core, int64_t due, int64_t service) = 0;
    };

    HostCpuInterference();

    /**
     * @brief Whether there is interference (a rate > 0).
     * @return true if so
     */
    bool IsOn() const
    {
        return m_rate > 0 || m_shieldedRate > 0;
    }

    /**
     * @brief Start the events of every core (once, when the CPU is initialized and IsOn).
     * @param cpu the CPU (it must outlive this model's events)
     * @param shielded per core, whether it is shielded (the number of cores)
     * @param deferred whether the events start deferred (the CPU is idle with nothing pending
     *        and IdleInterferenceEvents is false)
     */
    void Start(Cpu* cpu, const std::vector<bool>& shielded, bool deferred);

    /**
     * @brief Whether the CPU may defer the events: they are started and IdleInterferenceEvents
     * is false.
     * @return true if so
     */
    bool MayDefer() const
    {
        return !m_next.empty() && !m_idleEvents;
    }

    /**
     * @brief Whether the events are deferred.
     * @return true if so
     */
    bool IsDeferred() const
    {
        return m_deferred;
    }

    /** Remove the pending events (the CPU is idle): defer them. */
    void Defer();
    /** Schedule the next event of every core that has one (they were deferred). */
    void Arm();
    /**
     * @brief Run, in time order, every deferred event due at or before now, each handed to
     * the CPU (Cpu::RunDueInterference) after its core's next instant is drawn. Nothing to do
     * while the events are scheduled; the caller arms them again if a core is busy.
     */
    void CatchUp();

    /**
     * @brief The events run so far (deferred ones as far as caught up).
     * @return the count
     */
    uint64_t GetEvents() const
    {
        return m_count;
    }

    /**
     * @brief Use fixed random variable stream numbers (the gaps, then the two durations).
     * @param stream first stream index
     * @return the number of streams used (3)
     */
    int64_t AssignStreams(int64_t stream);

    /** Cancel the pending events and let the random variables go. */
    void Dispose();

    /**
     * @brief Set InterferenceRate.
     * @param rate mean events per second per core that is not shielded
     */
    void SetRate(double rate);
    /**
     * @brief Get InterferenceRate.
     * @return mean events per second per core that is not shielded
     */
    double GetRate() const;
    /**
     * @brief Set ShieldedInterferenceRate.
     * @param rate mean events per second per shielded core
     */
    void SetShieldedRate(double rate);
    /**
     * @brief Get ShieldedInterferenceRate.
     * @return mean events per second per shielded core
     */
    double GetShieldedRate() const;
    /**
     * @brief Set InterferencePeriodic.
     * @param periodic whether the events of InterferenceRate are a periodic tick
     */
    void SetPeriodic(bool periodic);
    /**
     * @brief Get InterferencePeriodic.
     * @return whether the events of InterferenceRate are a periodic tick
     */
    bool GetPeriodic() const;
    /**
     * @brief Set IdleInterferenceEvents.
     * @param events whether the events stay simulator events while the CPU is idle
     */
    void SetIdleEvents(bool events);
    /**
     * @brief Get IdleInterferenceEvents.
     * @return whether the events stay simulator events while the CPU is idle
     */
    bool GetIdleEvents() const;
    /**
     * @brief Set InterferenceDuration.
     * @param duration the duration (s) of one event of InterferenceRate
     */
    void SetDuration(Ptr<RandomVariableStream> duration);
    /**
     * @brief Get InterferenceDuration.
     * @return the duration (s) of one event of InterferenceRate
     */
    Ptr<RandomVariableStream> GetDuration() const;
    /**
     * @brief Set ShieldedInterferenceDuration.
     * @param duration the duration (s) of one event of ShieldedInterferenceRate
     */
    void SetShieldedDuration(Ptr<RandomVariableStream> duration);
    /**
     * @brief Get ShieldedInterferenceDuration.
     * @return the duration (s) of one event of ShieldedInterferenceRate
     */
    Ptr<RandomVariableStream> GetShieldedDuration() const;

  private:
    /**
     * Draw the next event of a core and schedule it (unless deferred).
     * @param c core index
     * @param first whether it is the core's first event (a periodic tick draws its phase)
     * @param from the instant the gap is counted from (the previous event's, or now)
     */
    void Schedule(uint32_t c, bool first, Time from);
    /**
     * An event of a core at its instant: its duration drawn and handed to the CPU.
     * @param c core index
     */
    void Fire(uint32_t c);
    /**
     * The duration of a core's next event.
     * @param c core index
     * @return its service time (s, >= 0)
     */
    double DrawDuration(uint32_t c);

    Cpu* m_cpu{nullptr};                           //!< the CPU
    double m_rate{0};                              //!< InterferenceRate (per core, 1/s)
    double m_shieldedRate{0};                      //!< ShieldedInterferenceRate
    bool m_periodic{false};                        //!< InterferencePeriodic
    bool m_idleEvents{false};                      //!< IdleInterferenceEvents
    Ptr<RandomVariableStream> m_duration;          //!< InterferenceDuration (s)
    Ptr<RandomVariableStream> m_shieldedDuration;  //!< ShieldedInterferenceDuration (s)
    Ptr<ExponentialRandomVariable> m_interArrival; //!< gaps between events (mean 1)
    std::vector<bool> m_shielded;                  //!< per core
    std::vector<EventId> m_events;                 //!< next event per core
    std::vector<Time> m_next;                      //!< per core: its next instant (-1: none)
    bool m_deferred{false};                        //!< the events are not scheduled
    uint64_t m_count{0};                           //!< events run
};

} // namespace ns3

#endif /* TESTBED_HOST_CPU_INTERFERENCE_H */
