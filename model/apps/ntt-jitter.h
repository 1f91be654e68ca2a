/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NTT_JITTER_H
#define TESTBED_NTT_JITTER_H

#include "ns3/nstime.h"

#include <cstdint>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup testbed-apps
 * [NTT96]'s jitter of a constant-rate stream.
 */

namespace ns3
{

/**
 * @ingroup testbed-apps
 * @brief [NTT96]'s jitter, as the study measured it, and the sequence-numbered variant.
 *
 * The study (doc/ntt.rst): the receiving computer logs each packet's arrival at application
 * level; the standard arrival time of the k-th LOGGED packet (k = 0, 1, ... in arrival order)
 * is the first logged packet's arrival + k x the sending interval, anchored once and never
 * re-synchronised; the jitter is max - min of (actual - standard) over the first `count`
 * logged packets, however long they take to arrive. A stream that falls behind its rate
 * accumulates the shortfall (the deviation grows linearly with k), and a packet lost before the
 * receiver leaves no gap: every later packet is one interval later than its standard.
 *
 * A run cut off before `count` packets were logged (the program's maximum simulated time)
 * gives a lower bound of the jitter: the deviations of the packets logged so far, and the
 * deviation the next packet has at least, since it is logged after the cut-off (Compute with
 * the cut-off time).
 *
 * ComputeBySequence is the jitter by sequence number: packet k is the
 * analyser's sequence number minus the first one's, so a lost packet leaves a gap and does not
 * shift the others. It is not the study's; it is kept as a second, named field.
 */
class NttJitter
{
  public:
    /** The study's jitter. */
    struct Result
    {
        double jitter{0};       //!< max - min of the deviations (s); a lower bound if cut off
        double minDev{0};       //!< smallest deviation (s)
        double maxDev{0};       //!< largest deviation (s), the cut-off's pending one included
        uint32_t logged{0};     //!< packets of the window logged (at most count)
        bool lowerBound{false}; //!< fewer than count packets were logged: jitter is a bound
        double pendingDev{0};   //!< cut off: the next packet's deviation is at least this (s)
    };

    /** The sequence-numbered statistic. */
    struct SeqResult
    {
        double jitter{0};    //!< max - min of the deviations (s)
        double minDev{0};    //!< smallest deviation (s)
        double maxDev{0};    //!< largest deviation (s)
        uint32_t used{0};    //!< sequence numbers of the window that arrived
        uint32_t missing{0}; //!< sequence numbers of the window that did not
    };

    /**
     * @brief The study's jitter over the first `count` logged packets, in arrival order.
     *
     * With fewer than `count` arrivals the result is flagged as a lower bound (over the packets
     * logged); the overload with the cut-off time also counts the next packet's pending
     * deviation.
     * @param arrivals (sequence number, arrival time) in arrival order (the numbers are not used)
     * @param interval the sending interval
     * @param count packets in the window (the study: 1000)
     * @return the result (jitter 0 if nothing was logged)
     */
    static Result Compute(const std::vector<std::pair<uint32_t, Time>>& arrivals,
                          Time interval,
                          uint32_t count);

    /**
     * @brief The study's jitter of a run that logged until `end`.
     *
     * If fewer than `count` packets were logged, packet k = arrivals.size() would be logged
     * after `end`: its deviation is at least end - (first + k x interval), and the result is the
     * lower bound max(maxDev, that) - minDev.
     * @param arrivals (sequence number, arrival time) in arrival order (the numbers are not used)
     * @param interval the sending interval
     * @param count packets in the window (the study: 1000)
     * @param end the time logging stopped (the cut-off)
     * @return the result (jitter 0 if nothing was logged)
     */
    static Result Compute(const std::vector<std::pair<uint32_t, Time>>& arrivals,
                          Time interval,
                          uint32_t count,
                          Time end);

    /**
     * @brief The sequence-numbered statistic (not the study's): packet k is the one numbered
     * first + k; a lost packet leaves a gap.
     * @param arrivals (sequence number, arrival time) in arrival order; the first arrival is
     *        packet 0 (later packets with a smaller number are ignored, as are duplicates)
     * @param interval the sending interval
     * @param count sequence numbers in the window
     * @return the result (jitter 0 if nothing arrived)
     */
    static SeqResult ComputeBySequence(const std::vector<std::pair<uint32_t, Time>>& arrivals,
                                       Time interval,
                                       uint32_t count);
};

} // namespace ns3

#endif /* TESTBED_NTT_JITTER_H */
