/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_MEMORY_HINTS_H
#define TESTBED_MEMORY_HINTS_H

#include "ns3/callback.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#ifdef __linux__
#    include <sys/mman.h>
#endif

/**
 * @file
 * @ingroup testbed-simulator
 * ns3::memoryhints: where the model's per-item state lies in memory and when it is loaded
 * (prefetches, huge pages). A hint changes how fast a run is, never what it computes.
 */

namespace ns3
{

/**
 * @ingroup testbed-simulator
 * @brief Memory hints for the per-item state of very large runs (10^6 virtual nodes): every
 * hint the model gives the processor or the kernel goes through here, and none changes a result.
 */
namespace memoryhints
{

/**
 * @brief Start loading the cache line at an address for writing, kept in every cache level
 * (the item is updated soon).
 * @param p the address
 */
inline void
PrefetchForWrite(const void* p)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1, 3);
#else
    (void) p;
#endif
}

/**
 * @brief The announcement that an item (a virtual node, by id) will be used soon: a producer
 * that knows its next item calls it, a holder of state per item prefetches that item's state
 * (PrefetchForWrite). It must not change what the simulation does.
 */
using NextUse = Callback<void, uint32_t>;

/**
 * @brief An allocator whose arrays of 1 MB or more are made of whole 2 MB pages and ask Linux for
 * transparent huge pages (madvise MADV_HUGEPAGE; a hint: ordinary pages if the system refuses).
 * A table that a run updates at random places (one entry per virtual node, tens of MB at 10^6
 * senders) is far larger than the TLB covers with 4 KB pages: each update would be a TLB miss,
 * a page walk (two-dimensional in a virtual machine) before the cache miss, which a prefetch
 * does not hide. Smaller arrays are ordinary allocations. Only where the memory lies changes.
 */
template<typename T>
struct HugePageAllocator
{
    using value_type = T; //!< the element type

    /// The huge page size.
    static constexpr std::size_t PAGE = std::size_t(2) << 20;
    /// Arrays from this size on are made of huge pages.
    static constexpr std::size_t THRESHOLD = std::size_t(1) << 20;

    HugePageAllocator() = default;

    /**
     * Rebinding constructor (stateless).
     */
    template<typename U>
    HugePageAllocator(const HugePageAllocator<U>&)
    {
    }

    /**
     * @param n elements
     * @return storage for them
     */
    T* allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < THRESHOLD)
        {
            return static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T))));
        }
        const std::size_t rounded = (bytes + PAGE - 1) / PAGE * PAGE;
        void* p = std::aligned_alloc(PAGE, rounded);
        if (!p)
        {
            throw std::bad_alloc();
        }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, rounded, MADV_HUGEPAGE); // a hint: ordinary pages if refused
#endif
        return static_cast<T*>(p);
    }

    /**
     * @param p storage from allocate
     * @param n its elements
     */
    void deallocate(T* p, std::size_t n)
    {
        if (n * sizeof(T) < THRESHOLD)
        {
            ::operator delete(p, std::align_val_t(alignof(T)));
            return;
        }
        std::free(p);
    }

    /**
     * @return true: stateless
     */
    template<typename U>
    bool operator==(const HugePageAllocator<U>&) const
    {
        return true;
    }

    /**
     * @return false: stateless
     */
    template<typename U>
    bool operator!=(const HugePageAllocator<U>&) const
    {
        return false;
    }
};

} // namespace memoryhints

} // namespace ns3

#endif /* TESTBED_MEMORY_HINTS_H */
