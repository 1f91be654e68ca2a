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
 * @brief [NTT96]'s jitter: the standard arrival time of packet k is the first packet's arrival
 * plus k times the sending interval; the jitter is max - min of (actual - standard) over the
 * packets k = 0 .. count-1.
 *
 * Packet k is the stream's k-th packet as the analyser numbered it (its sequence number minus
 * the first one's), so a lost packet leaves a gap and does not shift the later ones.
 */
class NttJitter
{
  public:
    /** The result. */
    struct Result
    {
        double jitter{0};    //!< max - min of the deviations (s)
        double minDev{0};    //!< smallest deviation (s)
        double maxDev{0};    //!< largest deviation (s)
        uint32_t used{0};    //!< packets of the window that arrived
        uint32_t missing{0}; //!< packets of the window that did not
    };

    /**
     * @brief Compute the jitter.
     * @param arrivals (sequence number, arrival time) in arrival order; the first arrival is
     *        packet 0 (later packets with a smaller number are ignored)
     * @param interval the sending interval
     * @param count packets in the window (the study: 1000)
     * @return the result (jitter 0 if nothing arrived)
     */
    static Result Compute(const std::vector<std::pair<uint32_t, Time>>& arrivals,
                          Time interval,
                          uint32_t count);
};

} // namespace ns3

#endif /* TESTBED_NTT_JITTER_H */
