/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_LINK_EMULATOR_QUEUE_DISC_H
#define TESTBED_LINK_EMULATOR_QUEUE_DISC_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/host-cpu.h"
#include "ns3/ideal-timer.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/timer-model.h"
#include "ns3/traced-callback.h"

#include <cstdint>

/**
 * @file
 * @ingroup testbed-link
 * The link emulator (NIST Net / Linux netem) as a queue disc.
 */

namespace ns3
{

class TimeOrderedQueue;

/**
 * @ingroup testbed-link
 * @brief A NIST Net / Linux netem link emulator, installed as the root queue disc on an egress
 * NetDevice of the emulator router.
 *
 * Why a queue disc: like tc/netem it sits on the egress of the emulator router, sees every
 * forwarded packet (and nothing else), and uses ns-3's flow control (device queue stop/wake),
 * statistics and drop traces.
 *
 * On enqueue at time a of a packet of s = IP size + PacketOverhead bytes (clipped at 0):
 *
 * 1. Loss (LossModel Random: u < LossProbability, u the correlated uniform; or Gilbert-Elliott):
 *    dropped before enqueue with reason LOSS_DROP ("Emulated loss").
 * 2. Duplication (u < DuplicateProbability): a copy is enqueued after the original and goes
 *    through the stages 1 and 3-7 independently (it is not duplicated again).
 * 3. Delay sample d = Delay + Jitter * q(u), q the standardised quantile function of
 *    DelayDistribution, clipped at 0.
 * 4. Rate stage, if Rate > 0: txEnd = max(a, lastTxEnd) + s * 8 / Rate; lastTxEnd = txEnd.
 * 5. Release: Netem: (Rate > 0 ? txEnd : a) + d; NistNet: max(Rate > 0 ? txEnd : a, a + d).
 * 6. Reorder (u < ReorderProbability): release = a, bypassing delay and rate stage (stage 4 is
 *    skipped for this packet, as in netem).
 * 7. Queue limit: a packet beyond MaxSize is dropped with reason LIMIT_EXCEEDED_DROP ("Queue
 *    limit exceeded"); the limit is checked before stage 3, so such a packet draws no delay and
 *    takes no time of the rate stage.
 *
 * A packet whose release time is <= a is released at once (NIST Net's bypass of its delay queue),
 * unless TimerGatesAll is set: then it waits for the next firing like the others (GINE handles
 * its queues only on timer events, also for packets without delay). Others wait, ordered by
 * release time
 * (FIFO among equal times), for the emulator's timer: it is armed for the earliest waiting
 * release r at Timer->GetFireTime(now, r - now); when it fires, every waiting packet whose
 * release time has come (or which the firing was armed for) is released in one burst, the timer
 * is re-armed for the new earliest, and the queue disc runs. Dequeue returns released packets
 * in release order.
 *
 * See doc/link.rst for the exact semantics and their sources.
 */
class LinkEmulatorQueueDisc : public QueueDisc
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// Create an emulator that does nothing until configured (no delay, rate, loss...).
    LinkEmulatorQueueDisc();
    ~LinkEmulatorQueueDisc() override;

    /// How the rate stage and the delay combine.
    enum Semantics
    {
        NIST_NET, //!< release = max(txEnd, a + d): NIST Net overlaps bandwidth and delay
        NETEM     //!< release = txEnd + d: netem adds them
    };

    /// The loss process.
    enum LossModel
    {
        RANDOM,          //!< Bernoulli with optional netem correlation
        GILBERT_ELLIOTT, //!< two-state Markov chain (netem "loss gemodel p r 1-h 1-k")
    };

    /// The distribution of the jitter around Delay (netem's "distribution").
    enum DelayDistribution
    {
        UNIFORM,      //!< uniform on [-Jitter, +Jitter]
        NORMAL,       //!< normal with standard deviation Jitter
        PARETO,       //!< netem's pareto table: 4/3 ((1-u)^(-1/3) - 3/2)
        PARETO_NORMAL //!< netem's paretonormal table: 1/4 normal + 3/4 pareto (same u)
    };

    /// Drop reason of a packet lost by the loss model.
    static constexpr const char* LOSS_DROP = "Emulated loss";
    /// Drop reason of a packet beyond MaxSize.
    static constexpr const char* LIMIT_EXCEEDED_DROP = "Queue limit exceeded";

    /**
     * @brief Assign fixed random variable stream numbers to the random variables used (loss,
     * Gilbert-Elliott, duplication, delay, reorder, and the timer model's).
     * @param stream first stream index to use
     * @return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * @brief The timer model that releases packets (an IdealTimer unless Timer was set).
     * @return the timer model
     */
    Ptr<TimerModel> GetTimer();

    /**
     * @brief The number of packets in the time-ordered store that still wait for their release.
     * @return the number of waiting packets
     */
    uint32_t GetNWaiting() const;

    /**
     * @brief Number of packets lost by the loss model so far.
     * @return the count
     */
    uint64_t GetNLost() const;

    /**
     * @brief Number of duplicates made so far.
     * @return the count
     */
    uint64_t GetNDuplicated() const;

    /**
     * @brief Number of packets reordered (released at once) so far.
     * @return the count
     */
    uint64_t GetNReordered() const;

    /**
     * @brief Number of times the emulator's timer fired so far.
     * @return the count
     */
    uint64_t GetNTimerFirings() const;

    /**
     * TracedCallback signature for a packet accepted into the store with its release time.
     * @param [in] item the packet
     * @param [in] release its release time (absolute)
     */
    typedef void (*ScheduledTracedCallback)(Ptr<const QueueDiscItem> item, Time release);

    /**
     * TracedCallback signature for a firing of the emulator's timer.
     * @param [in] nReleased number of packets released by this firing
     */
    typedef void (*TimerFiredTracedCallback)(uint32_t nReleased);

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /// netem's correlated uniform: u = (1 - rho) * fresh + rho * last.
    struct CorrelatedUniform
    {
        double last{0};     //!< previous output
        bool primed{false}; //!< whether last is set (the first output is a fresh draw)

        /**
         * @param rng the fresh uniform [0,1) source
         * @param rho the correlation in [0,1]
         * @return the next correlated uniform
         */
        double Next(Ptr<UniformRandomVariable> rng, double rho);
    };

    /**
     * @brief Decide whether the loss model loses the next packet.
     * @return true if the packet is lost
     */
    bool IsLost();

    /**
     * @brief Draw the next delay sample d (clipped at 0).
     * @return d
     */
    Time SampleDelay();

    /**
     * @brief Copy an item for duplication (IPv4, IPv6 or ARP items).
     * @param item the item
     * @return the copy, or nullptr for an item of another type
     */
    static Ptr<QueueDiscItem> CopyItem(Ptr<const QueueDiscItem> item);

    /// Arm (or re-arm earlier) the timer for the earliest waiting packet.
    void Arm();

    /// Release every waiting packet that the pending firing covers; re-arm.
    void ReleaseDue();

    /// The timer's event: ReleaseDue(), then run the queue disc (on ReleaseCpu if set).
    void TimerExpired();

    /// The release as the timer interrupt's handler ran it: ReleaseDue(), then run the queue
    /// disc.
    void ReleaseNow();

    /// Run the queue disc again (released packets remain after a run hit its quota).
    void Kick();

    // Attributes
    Time m_delay;                     //!< constant delay
    Time m_jitter;                    //!< jitter spread
    double m_delayCorrelation;        //!< correlation of the jitter's uniform
    DelayDistribution m_distribution; //!< jitter distribution
    DataRate m_rate;                  //!< rate limit (0 = none)
    int32_t m_overhead;               //!< bytes added to the IP size for the rate stage
    Semantics m_semantics;            //!< combine rule of rate and delay
    LossModel m_lossModel;            //!< loss process
    double m_lossProbability;         //!< Random: loss probability
    double m_lossCorrelation;         //!< Random: correlation
    double m_geP;                     //!< Gilbert-Elliott p (good -> bad)
    double m_geR;                     //!< Gilbert-Elliott r (bad -> good)
    double m_geBadLoss;               //!< Gilbert-Elliott 1-h (loss in bad)
    double m_geGoodLoss;              //!< Gilbert-Elliott 1-k (loss in good)
    double m_duplicateProbability;    //!< duplication probability
    double m_duplicateCorrelation;    //!< duplication correlation
    double m_reorderProbability;      //!< reorder probability
    double m_reorderCorrelation;      //!< reorder correlation
    Ptr<TimerModel> m_timer;          //!< the emulator's timer
    bool m_timerGatesAll;             //!< packets due at once also wait for the timer
    Ptr<HostCpu> m_releaseCpu;        //!< CPU whose timer interrupt releases (null: none)
    Time m_releaseCost;               //!< the release handler's own CPU time

    // Random variables
    Ptr<UniformRandomVariable> m_lossRng;      //!< Random loss draws
    Ptr<UniformRandomVariable> m_geRng;        //!< Gilbert-Elliott draws
    Ptr<UniformRandomVariable> m_duplicateRng; //!< duplication draws
    Ptr<UniformRandomVariable> m_delayRng;     //!< jitter draws
    Ptr<UniformRandomVariable> m_reorderRng;   //!< reorder draws

    // State
    Ptr<TimeOrderedQueue> m_store;      //!< the time-ordered store (internal queue 0)
    CorrelatedUniform m_lossState;      //!< loss correlation state
    CorrelatedUniform m_duplicateState; //!< duplication correlation state
    CorrelatedUniform m_delayState;     //!< jitter correlation state
    CorrelatedUniform m_reorderState;   //!< reorder correlation state
    bool m_geBad;                       //!< Gilbert-Elliott: in the bad state
    Time m_lastTxEnd;                   //!< end of the last transmission of the rate stage
    bool m_enqueuingDuplicate;          //!< a duplicate is being enqueued
    EventId m_timerEvent;               //!< the pending timer firing
    Time m_armedRelease;                //!< release time the pending firing was armed for
    Time m_armedFire;                   //!< time of the pending firing
    EventId m_kick;                     //!< pending re-run when released packets remain
    uint32_t m_runDequeues;             //!< dequeues since a run started (an upper bound)
    uint64_t m_nLost;                   //!< packets lost
    uint64_t m_nDuplicated;             //!< duplicates made
    uint64_t m_nReordered;              //!< packets reordered
    uint64_t m_nFirings;                //!< timer firings

    // Traces
    TracedCallback<Ptr<const QueueDiscItem>, Time> m_scheduledTrace; //!< packet scheduled
    TracedCallback<Ptr<const QueueDiscItem>> m_lostTrace;            //!< packet lost
    TracedCallback<Ptr<const QueueDiscItem>> m_duplicatedTrace;      //!< duplicate made
    TracedCallback<Ptr<const QueueDiscItem>> m_reorderedTrace;       //!< packet reordered
    TracedCallback<uint32_t> m_timerFiredTrace;                      //!< timer fired
};

} // namespace ns3

#endif /* TESTBED_LINK_EMULATOR_QUEUE_DISC_H */
