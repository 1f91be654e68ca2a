/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NODE_CLOCK_H
#define TESTBED_NODE_CLOCK_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <vector>

/**
 * @file
 * @ingroup testbed-rci
 * A node's wallclock: offset, drift, and an optional discipline (NTP-like or a clock card).
 */

namespace ns3
{

/**
 * @ingroup testbed-rci
 * @brief A node's wallclock against true (simulation) time.
 *
 * The clock reads local(t) = t + offset(t). Undisciplined, offset(t) = Offset + Drift * t (Drift
 * in parts per million). Disciplined, the clock is corrected at every SyncInterval (instants
 * k * SyncInterval, k >= 1): the correction leaves a residual offset e_k drawn from SyncError,
 * and the drift runs on until the next correction: offset(t) = e_k + Drift * (t - k *
 * SyncInterval). Two disciplines differ only in their defaults (doc/tno.rst):
 *
 * - Ntp: NTP over the data network, poll 64 s, residual uniform +-500 us;
 * - ClockCard: a synchronised clock card (TNO's RCIM, or GPS with PPS), corrected every second,
 *   residual uniform +-1 us.
 *
 * A correction is a step (NTP's slewing is not modelled). The residuals are drawn in instant
 * order, so a run is reproducible whatever order the clock is read in.
 */
class NodeClock : public Object
{
  public:
    /** How the clock is kept on time. */
    enum Discipline : uint8_t
    {
        NONE,       //!< free running
        NTP,        //!< NTP-like periodic correction over the network
        CLOCK_CARD, //!< a synchronised clock card
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NodeClock();
    ~NodeClock() override;

    /**
     * @brief Choose a discipline with its default interval and residual (see the class).
     * @param d the discipline
     */
    void SetDiscipline(Discipline d);

    /**
     * @brief The local clock's reading at a true time.
     * @param t true (simulation) time (>= 0)
     * @return the local time
     */
    Time GetLocalTime(Time t);

    /** @return the local clock's reading now */
    Time Now();

    /**
     * @brief The true time at which the local clock reads @p local (the first, if a correction
     * steps the clock back over it; the correction instant, if a step forward jumps over it).
     * @param local a local time
     * @return the true (simulation) time
     */
    Time ToTrueTime(Time local);

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /**
     * The offset in force from correction k on (k = 0: before the first correction).
     * @param k the correction's index
     * @return seconds
     */
    double Residual(uint64_t k);
    /**
     * The index of the correction in force at a true time.
     * @param t seconds
     * @return k
     */
    uint64_t Segment(double t) const;

    Time m_offset;                        //!< Offset
    double m_driftPpm;                    //!< Drift
    Discipline m_discipline;              //!< Discipline
    Time m_interval;                      //!< SyncInterval
    Ptr<RandomVariableStream> m_residual; //!< SyncError (s)
    std::vector<double> m_residuals;      //!< e_k drawn so far (s)
};

} // namespace ns3

#endif /* TESTBED_NODE_CLOCK_H */
