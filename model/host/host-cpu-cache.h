/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_CPU_CACHE_H
#define TESTBED_HOST_CPU_CACHE_H

#include "ns3/memory-hints.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <vector>

/**
 * @file
 * @ingroup testbed-host
 * The cache-refill model of a host's CPU: what a process pays after a context switch for the
 * lines of its working set that the other processes evicted.
 */

namespace ns3
{

/**
 * @ingroup testbed-host
 * @brief The last-level cache as the CPU model sees it across context switches (HostCpu's
 * Attributes CacheSize, CacheLineSize, CacheAssociativity, MemoryLatency, ProcessWorkingSet; off
 * while CacheSize or ProcessWorkingSet is 0).
 *
 * Every run of a process touches its working set (ProcessWorkingSet octets of private memory).
 * When a core switches to a process, the lines of that working set which the other processes'
 * runs since its own last run evicted miss and are refilled from memory at MemoryLatency each.
 * With the lines of the other runs spread uniformly over the cache's sets (CacheSize / (line
 * size x associativity) sets), a line of the process survives if fewer than CacheAssociativity
 * other lines fell into its set: a Poisson probability of the footprint since the process last
 * ran (the lines touched by all switched-in runs in between, its distance).
 */
class HostCpuCache
{
  public:
    /**
     * @brief Whether the model is on (CacheSize and ProcessWorkingSet both > 0).
     * @return true if so
     */
    bool IsOn() const
    {
        return m_cacheSize != 0 && m_workingSet != 0;
    }

    /**
     * @brief The refill a process pays when a core switches to it now. The refill depends on
     * the owner only through its distance: the results of recent distances are remembered.
     * @param owner the process id
     * @return the refill time (time steps; 0 if the model is off)
     */
    int64_t RefillSteps(uint32_t owner) const;

    /**
     * @brief A process will run soon: its entry starts loading into the processor's cache
     * (memoryhints::PrefetchForWrite; nothing else changes).
     * @param owner the process id
     */
    void Prefetch(uint32_t owner) const
    {
        if (owner < m_lastTouched.size())
        {
            memoryhints::PrefetchForWrite(&m_lastTouched[owner]);
        }
    }

    /**
     * @brief Record a process's run (its lines are now the most recent).
     * @param owner the process id
     * @param other whether the core ran another owner before (its lines are touched anew)
     */
    void Touch(uint32_t owner, bool other);

    /**
     * @brief Add a refill to the total charged.
     * @param steps the refill (time steps)
     */
    void Charge(int64_t steps)
    {
        m_refillTotal += steps;
    }

    /**
     * @brief The refill time charged so far.
     * @return the total (time steps)
     */
    int64_t GetTotal() const
    {
        return m_refillTotal;
    }

    /**
     * @brief Set the last-level cache (empties the remembered refills).
     * @param octets its size
     */
    void SetCacheSize(uint64_t octets);
    /** @return the last-level cache (octets) */
    uint64_t GetCacheSize() const;
    /**
     * @brief Set the cache line (empties the remembered refills).
     * @param octets its size
     */
    void SetCacheLineSize(uint32_t octets);
    /** @return the cache line (octets) */
    uint32_t GetCacheLineSize() const;
    /**
     * @brief Set the ways of a set (empties the remembered refills).
     * @param ways the associativity
     */
    void SetCacheAssociativity(uint32_t ways);
    /** @return the ways of a set */
    uint32_t GetCacheAssociativity() const;
    /**
     * @brief Set the time to refill one line (empties the remembered refills).
     * @param latency the latency
     */
    void SetMemoryLatency(Time latency);
    /** @return the time to refill one line */
    Time GetMemoryLatency() const;
    /**
     * @brief Set the private memory a process touches in one run (empties the remembered
     * refills).
     * @param octets its size
     */
    void SetProcessWorkingSet(uint32_t octets);
    /** @return the private memory a process touches in one run (octets) */
    uint32_t GetProcessWorkingSet() const;

  private:
    /**
     * The refill after a distance (the computation of RefillSteps).
     * @param distance lines touched by other runs since the owner's last run
     * @return the refill time (time steps)
     */
    int64_t ComputeRefill(uint64_t distance) const;

    /** A refill remembered by distance. */
    struct CachedRefill
    {
        uint64_t distance{UINT64_MAX}; //!< the distance (UINT64_MAX: empty)
        int64_t steps{0};              //!< the refill (time steps)
    };

    /** Empties m_refillCache (a cache parameter changed: its entries no longer hold). */
    void ForgetRefills();

    uint64_t m_cacheSize{0};             //!< CacheSize (octets)
    uint32_t m_cacheLine{32};            //!< CacheLineSize (octets)
    uint32_t m_cacheWays{8};             //!< CacheAssociativity
    Time m_memoryLatency;                //!< MemoryLatency
    uint32_t m_workingSet{0};            //!< ProcessWorkingSet (octets)
    uint64_t m_linesTouched{0};          //!< lines touched by all switched-in process runs
    std::vector<uint64_t> m_lastTouched; //!< per owner: m_linesTouched after its last run + 1
    int64_t m_refillTotal{0};            //!< refill time charged so far (time steps)
    static constexpr int REFILL_CACHE_BITS = 6; //!< log2 of the size of m_refillCache
    mutable std::array<CachedRefill, 1 << REFILL_CACHE_BITS>
        m_refillCache; //!< recent refills by distance (emptied by the setters)
};

} // namespace ns3

#endif /* TESTBED_HOST_CPU_CACHE_H */
