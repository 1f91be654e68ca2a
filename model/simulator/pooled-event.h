/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_POOLED_EVENT_H
#define TESTBED_POOLED_EVENT_H

#include "ns3/event-impl.h"

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

/**
 * @file
 * @ingroup testbed-simulator
 * ns3::PooledEvent and ns3::MakePooledEvent: an event for a lambda or functor whose memory is
 * recycled on a free list per functor type.
 */

namespace ns3
{

/**
 * @ingroup testbed-simulator
 * @brief An ordinary ns3::EventImpl that calls a functor (as ns-3's MakeEvent(function) makes),
 * allocated from a free list of its own type instead of the heap.
 *
 * ns-3 allocates every event with new and frees it with delete when its last reference goes
 * (SimpleRefCount::Unref), and a SimulatorImpl has no allocator hook. This class has a
 * class-specific operator new and delete: a freed event's memory goes onto a free list of its
 * type (one list per functor type, one size per list) and the next event of that type takes it,
 * so an event that is created and freed at a high rate costs no call into the allocator. The
 * memory of a list is kept for the life of the process (it is reachable, not leaked).
 *
 * It is an ordinary EventImpl, reference-counted: any SimulatorImpl schedules, cancels and
 * frees it (Simulator::Schedule(delay, Ptr<EventImpl>), DefaultSimulatorImpl included), and an
 * EventId may keep it beyond its run. The functor (and what it captured) is destroyed when the
 * last reference goes, as in MakeEvent.
 *
 * **Not thread-safe**: the free lists have no lock. Create and free these events on the
 * simulation thread only, i.e. from events of a single-threaded SimulatorImpl (or before Run):
 * never with ScheduleWithContext from another thread, nor in a program that runs several
 * simulator threads (ns-3's MPI or multithreaded implementations).
 *
 * @tparam F the functor type (called with no arguments)
 */
template<typename F>
class PooledEvent final : public EventImpl
{
  public:
    /**
     * @brief Constructor.
     * @param f the functor (moved in)
     */
    explicit PooledEvent(F&& f)
        : m_function(std::move(f))
    {
    }

    /**
     * @brief Constructor.
     * @param f the functor (copied)
     */
    explicit PooledEvent(const F& f)
        : m_function(f)
    {
    }

    ~PooledEvent() override = default;

    /**
     * @brief Memory for one event: the head of the type's free list, else the heap.
     * @param size the object's size (sizeof(PooledEvent): the class is final)
     * @return the memory
     */
    static void* operator new(std::size_t size)
    {
        static_assert(sizeof(PooledEvent) >= sizeof(FreeNode), "room for the free-list link");
        static_assert(alignof(PooledEvent) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__,
                      "the heap's alignment suffices");
        if (FreeNode* n = s_free)
        {
            s_free = n->next;
            return n;
        }
        return ::operator new(size);
    }

    /**
     * @brief Give an event's memory back to the type's free list.
     * @param p the memory
     */
    static void operator delete(void* p) noexcept
    {
        FreeNode* n = static_cast<FreeNode*>(p);
        n->next = s_free;
        s_free = n;
    }

    /**
     * @brief The number of free blocks on this type's list (for tests).
     * @return the count
     */
    static std::size_t FreeCount()
    {
        std::size_t n = 0;
        for (const FreeNode* f = s_free; f; f = f->next)
        {
            ++n;
        }
        return n;
    }

  private:
    void Notify() override
    {
        m_function();
    }

    /// A free block: its first bytes link the list.
    struct FreeNode
    {
        FreeNode* next; //!< the next free block
    };

    F m_function;                            //!< the functor
    static inline FreeNode* s_free{nullptr}; //!< the type's free blocks (not thread-safe)
};

/**
 * @ingroup testbed-simulator
 * @brief An event that calls a functor, its memory from the functor type's free list
 * (PooledEvent; simulation thread only).
 *
 * Schedule it with Simulator::Schedule(delay, Ptr<EventImpl>(MakePooledEvent(f), false)), or
 * with ScheduleEvent (lean-simulator-impl.h), which takes the new event's reference over.
 *
 * @tparam F \deduced the functor type
 * @param f the functor (a lambda, typically)
 * @return the event, with one reference (the caller's)
 */
template<typename F>
EventImpl*
MakePooledEvent(F&& f)
{
    return new PooledEvent<std::decay_t<F>>(std::forward<F>(f));
}

} // namespace ns3

#endif /* TESTBED_POOLED_EVENT_H */
