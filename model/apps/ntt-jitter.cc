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
    if (arrivals.empty() || count == 0)
    {
        r.lowerBound = count > 0;
        return r;
    }
    const Time t0 = arrivals.front().second;
    const uint32_t n = std::min<std::size_t>(count, arrivals.size());
    for (uint32_t k = 0; k < n; ++k)
    {
        const double dev = (arrivals[k].second - t0 - interval * k).GetSeconds();
        r.minDev = k == 0 ? dev : std::min(r.minDev, dev);
        r.maxDev = k == 0 ? dev : std::max(r.maxDev, dev);
    }
    r.logged = n;
    r.lowerBound = n < count;
    r.jitter = r.maxDev - r.minDev;
    return r;
}

NttJitter::Result
NttJitter::Compute(const std::vector<std::pair<uint32_t, Time>>& arrivals,
                   Time interval,
                   uint32_t count,
                   Time end)
{
    Result r = Compute(arrivals, interval, count);
    if (!r.lowerBound || arrivals.empty())
    {
        return r;
    }
    // Packet k = logged is logged after the cut-off: its deviation is at least this.
    const Time t0 = arrivals.front().second;
    r.pendingDev = (end - t0 - interval * r.logged).GetSeconds();
    r.maxDev = std::max(r.maxDev, r.pendingDev);
    r.jitter = r.maxDev - r.minDev;
    return r;
}

NttJitter::SeqResult
NttJitter::ComputeBySequence(const std::vector<std::pair<uint32_t, Time>>& arrivals,
                             Time interval,
                             uint32_t count)
{
    SeqResult r;
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
