/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-cpu-cache.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace ns3
{

int64_t
HostCpuCache::RefillSteps(uint32_t owner) const
{
    if (!IsOn())
    {
        return 0;
    }
    if (owner >= m_lastTouched.size() || m_lastTouched[owner] == 0)
    {
        // Never ran: every line is cold.
        const double lines = std::ceil(double(m_workingSet) / m_cacheLine);
        return (m_memoryLatency * int64_t(lines)).GetTimeStep();
    }
    const uint64_t distance = m_linesTouched - (m_lastTouched[owner] - 1);
    // The cache attributes' setters empty m_refillCache: its entries hold for the current ones.
    CachedRefill& e = m_refillCache[(distance * 0x9E3779B97F4A7C15ULL) >> (64 - REFILL_CACHE_BITS)];
    if (e.distance != distance)
    {
        e.distance = distance;
        e.steps = ComputeRefill(distance);
    }
    return e.steps;
}

int64_t
HostCpuCache::ComputeRefill(uint64_t distance) const
{
    const double lines = std::ceil(double(m_workingSet) / m_cacheLine);
    // Lines of other runs since this owner's last run, spread over the sets: a line survives
    // if fewer than `ways` of them fell into its set (LRU within a set; Poisson occupancy).
    const double sets = std::max(1.0, double(m_cacheSize) / (double(m_cacheLine) * m_cacheWays));
    const double lambda = double(distance) / sets;
    double term = std::exp(-lambda);
    double survive = 0;
    for (uint32_t k = 0; k < m_cacheWays; ++k)
    {
        survive += term;
        term *= lambda / (k + 1);
    }
    const double evicted = std::max(0.0, 1.0 - survive);
    return NanoSeconds(std::llround(lines * evicted * m_memoryLatency.GetNanoSeconds()))
        .GetTimeStep();
}

void
HostCpuCache::Touch(uint32_t owner, bool other)
{
    if (!IsOn())
    {
        return;
    }
    // A process that follows itself re-touches lines that are the most recent already.
    if (other)
    {
        m_linesTouched += static_cast<uint64_t>(std::ceil(double(m_workingSet) / m_cacheLine));
    }
    if (owner >= m_lastTouched.size())
    {
        m_lastTouched.resize(std::max<std::size_t>(owner + 1, m_lastTouched.size() * 2), 0);
    }
    m_lastTouched[owner] = m_linesTouched + 1;
}

Time
HostCpuCache::GetMemoryLatency() const
{
    return m_memoryLatency;
}

void
HostCpuCache::ForgetRefills()
{
    m_refillCache.fill(CachedRefill{});
}

void
HostCpuCache::SetCacheSize(uint64_t octets)
{
    m_cacheSize = octets;
    ForgetRefills();
}

uint64_t
HostCpuCache::GetCacheSize() const
{
    return m_cacheSize;
}

void
HostCpuCache::SetCacheLineSize(uint32_t octets)
{
    m_cacheLine = octets;
    ForgetRefills();
}

uint32_t
HostCpuCache::GetCacheLineSize() const
{
    return m_cacheLine;
}

void
HostCpuCache::SetCacheAssociativity(uint32_t ways)
{
    m_cacheWays = ways;
    ForgetRefills();
}

uint32_t
HostCpuCache::GetCacheAssociativity() const
{
    return m_cacheWays;
}

void
HostCpuCache::SetMemoryLatency(Time latency)
{
    m_memoryLatency = latency;
    ForgetRefills();
}

void
HostCpuCache::SetProcessWorkingSet(uint32_t octets)
{
    m_workingSet = octets;
    ForgetRefills();
}

uint32_t
HostCpuCache::GetProcessWorkingSet() const
{
    return m_workingSet;
}

} // namespace ns3
