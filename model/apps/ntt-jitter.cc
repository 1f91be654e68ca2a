/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ntt-jitter.h"

#include <algorithm>

namespace ns3
{

NttJitter::Result
NttJitter::Compute(const std::vector<std::pair<uint32_t, Time>>& arrivals,
                   Time interval,
                   uint32_t count)
{
    Result r;
    r.missing = count;
    if (arrivals.empty() || count == 0)
    {
        return r;
    }
    const uint32_t seq0 = arrivals.front().first;
    const Time t0 = arrivals.front().second;
    std::vector<bool> seen(count, false);
    bool any = false;
    for (const auto& [seq, t] : arrivals)
    {
        if (seq < seq0 || seq - seq0 >= count || seen[seq - seq0])
        {
            continue;
        }
        const uint32_t k = seq - seq0;
        seen[k] = true;
        const double dev = (t - t0 - interval * k).GetSeconds();
        r.minDev = any ? std::min(r.minDev, dev) : dev;
        r.maxDev = any ? std::max(r.maxDev, dev) : dev;
        any = true;
        ++r.used;
    }
    r.missing = count - r.used;
    r.jitter = r.maxDev - r.minDev;
    return r;
}

} // namespace ns3
