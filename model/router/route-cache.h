/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_ROUTE_CACHE_H
#define TESTBED_ROUTE_CACHE_H

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <boost/multi_index/hashed_index.hpp>
#include <boost/multi_index/member.hpp>
#include <boost/multi_index/sequenced_index.hpp>
#include <boost/multi_index_container.hpp>
#include <cstddef>
#include <limits>
#include <memory>
#include <utility>

/**
 * @file
 * @ingroup testbed-router
 * The route cache of a router (one table for all its interfaces).
 */

namespace ns3
{

/**
 * @defgroup testbed-router Route-cache router
 * @ingroup testbed
 *
 * A mid-1990s general-purpose router: a fast path for packets whose destination is in a route
 * cache, a slow path (routing-table lookup by a process on the router's CPU, behind a bounded
 * input queue) for the others.
 */

/**
 * @ingroup testbed-router
 * @brief A route cache: destination address -> output interface, bounded, with the study's
 * flush-all replacement policy or LRU.
 *
 * The cache holds at most Capacity entries (one per destination host, as the fast-switching
 * caches of the era). Lookup() counts a hit or a miss; Fill() adds the entry that the slow path
 * computed. Two replacement policies (Attribute Policy):
 *
 * - FlushAll ([NTT96]'s router): every FlushInterval the whole cache is cleared at once; no
 *   entry is changed otherwise, so a full cache refuses new entries until the next flush;
 * - Lru: no periodic flush (unless FlushInterval > 0); a fill into a full cache evicts the least
 *   recently used entry (a hit makes an entry the most recently used).
 *
 * The entries live in a Boost.MultiIndex container: a hashed index on the destination (O(1)
 * lookup) and a sequenced index in recency order (O(1) LRU update and eviction).
 */
class RouteCache : public Object
{
  public:
    /** Replacement policies. */
    enum Policy : uint8_t
    {
        FLUSH_ALL = 0, //!< clear everything every FlushInterval, refuse fills when full
        LRU = 1,       //!< evict the least recently used entry when full
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RouteCache();
    ~RouteCache() override;

    /**
     * @brief Look a destination up (counts a hit or a miss; a hit refreshes LRU order).
     * @param dst destination address
     * @param [out] oif the cached output interface on a hit
     * @return true on a hit
     */
    bool Lookup(Ipv4Address dst, uint32_t& oif);

    /**
     * @brief Add an entry computed by the slow path (no change if present).
     * @param dst destination address
     * @param oif output interface
     * @return true if the entry was added (false: already present, or full under FlushAll)
     */
    bool Fill(Ipv4Address dst, uint32_t oif);

    /** @brief Clear every entry now (counts a flush). */
    void Flush();

    /** @return number of entries */
    uint32_t GetSize() const;
    /** @return the capacity */
    uint32_t GetCapacity() const;
    /** @return whether the cache is full */
    bool IsFull() const;
    /** @return the policy */
    Policy GetPolicy() const;

    /** @return lookups that hit */
    uint64_t GetHits() const;
    /** @return lookups that missed */
    uint64_t GetMisses() const;
    /** @return entries added */
    uint64_t GetFills() const;
    /** @return fills refused because the cache was full (FlushAll) */
    uint64_t GetRefusedFills() const;
    /** @return entries evicted (LRU) */
    uint64_t GetEvictions() const;
    /** @return flushes (periodic and explicit) */
    uint64_t GetFlushes() const;

    /**
     * TracedCallback signature for a lookup, a fill or an eviction.
     * @param [in] dst the destination
     */
    typedef void (*EntryTracedCallback)(Ipv4Address dst);

    /**
     * TracedCallback signature for a flush.
     * @param [in] entries the number of entries cleared
     */
    typedef void (*FlushTracedCallback)(uint32_t entries);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /** A cache entry. */
    struct Entry
    {
        uint32_t dst; //!< destination address (host order)
        uint32_t oif; //!< output interface
    };

    /** Tag of the hashed index. */
    struct ByDst
    {
    };

    /**
     * std::allocator with the C++03 members (rebind, pointer, ...) that C++20 removed and that
     * Boost 1.66's MultiIndex (the Boost of the ns3 wheel) still uses.
     */
    template<class T>
    struct Allocator
    {
        typedef T value_type;                   //!< value type
        typedef T* pointer;                     //!< pointer
        typedef const T* const_pointer;         //!< const pointer
        typedef T& reference;                   //!< reference
        typedef const T& const_reference;       //!< const reference
        typedef std::size_t size_type;          //!< size
        typedef std::ptrdiff_t difference_type; //!< difference

        /** The same allocator for another type. */
        template<class U>
        struct rebind
        {
            typedef Allocator<U> other; //!< the rebound type
        };

        Allocator() noexcept = default;

        /** Converting constructor (stateless). */
        template<class U>
        Allocator(const Allocator<U>&) noexcept
        {
        }

        /**
         * @param n objects
         * @return storage for them
         */
        pointer allocate(size_type n, const void* = nullptr)
        {
            return std::allocator<T>().allocate(n);
        }

        /**
         * @param p storage from allocate
         * @param n its size
         */
        void deallocate(pointer p, size_type n)
        {
            std::allocator<T>().deallocate(p, n);
        }

        /**
         * @param p where
         * @param args constructor arguments
         */
        template<class U, class... Args>
        void construct(U* p, Args&&... args)
        {
            ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
        }

        /** @param p the object to destroy */
        template<class U>
        void destroy(U* p)
        {
            p->~U();
        }

        /** @return the largest allocation */
        size_type max_size() const noexcept
        {
            return std::numeric_limits<size_type>::max() / sizeof(T);
        }

        /** @return true (stateless) */
        bool operator==(const Allocator&) const noexcept
        {
            return true;
        }

        /** @return false (stateless) */
        bool operator!=(const Allocator&) const noexcept
        {
            return false;
        }
    };

    /** The entries: recency order (front = most recent) and a hash on the destination. */
    typedef boost::multi_index_container<
        Entry,
        boost::multi_index::indexed_by<
            boost::multi_index::sequenced<>,
            boost::multi_index::hashed_unique<
                boost::multi_index::tag<ByDst>,
                boost::multi_index::member<Entry, uint32_t, &Entry::dst>>>,
        Allocator<Entry>>
        Entries;

    /** Periodic flush. */
    void PeriodicFlush();

    Entries m_entries;                        //!< the entries
    uint32_t m_capacity;                      //!< Capacity
    Policy m_policy;                          //!< Policy
    Time m_flushInterval;                     //!< FlushInterval (0: none)
    Time m_flushPhase;                        //!< FlushPhase
    EventId m_flushEvent;                     //!< next periodic flush
    uint64_t m_hits{0};                       //!< counter
    uint64_t m_misses{0};                     //!< counter
    uint64_t m_fills{0};                      //!< counter
    uint64_t m_refused{0};                    //!< counter
    uint64_t m_evictions{0};                  //!< counter
    uint64_t m_flushes{0};                    //!< counter
    TracedCallback<Ipv4Address> m_hitTrace;   //!< hits
    TracedCallback<Ipv4Address> m_missTrace;  //!< misses
    TracedCallback<Ipv4Address> m_fillTrace;  //!< fills
    TracedCallback<Ipv4Address> m_evictTrace; //!< LRU evictions
    TracedCallback<uint32_t> m_flushTrace;    //!< flushes
};

} // namespace ns3

#endif /* TESTBED_ROUTE_CACHE_H */
