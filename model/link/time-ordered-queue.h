/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TIME_ORDERED_QUEUE_H
#define TESTBED_TIME_ORDERED_QUEUE_H

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/queue-item.h"
#include "ns3/queue.h"

#include <cstdint>
#include <deque>
#include <vector>

/**
 * @file
 * @ingroup testbed-link
 * The time-ordered store of the link emulator (netem's "tfifo").
 */

namespace ns3
{

/**
 * @defgroup testbed-link Emulated-link model
 * @ingroup testbed
 *
 * NIST Net / Linux netem style link emulation: rate limit, delay with jitter distributions and
 * correlation, random and Gilbert-Elliott loss, duplication, reordering, selectable combine
 * semantics (NIST Net: max of transmission and delay; netem: sum) and an emulator timer that
 * releases packets only when it fires; Ethernet links and the [JAXA06] testbed topology.
 */

/**
 * @ingroup testbed-link
 * @brief A queue of QueueDiscItems kept in release-time order, in two stages.
 *
 * The internal queue of LinkEmulatorQueueDisc (the counterpart of netem's time-ordered fifo,
 * "tfifo"):
 *
 * - the @em waiting stage holds packets that are scheduled for a release time in the future,
 *   ordered by (release time, arrival number): earliest first, FIFO among equal release times;
 * - the @em released stage is a FIFO of packets whose release has happened (ReleaseUpTo(), called
 *   when the emulator's timer fires, moves them there in release-time order; Enqueue() puts a
 *   packet there directly). Dequeue() and Peek() see only this stage.
 *
 * Every item also sits in the base class' std::list (arrival order), so that the Queue base
 * class keeps the size counters and fires its Enqueue/Dequeue/Drop traces, which the owning
 * QueueDisc uses for its statistics. The stages index that list: a binary heap of list
 * iterators for the waiting stage and a deque of list iterators for the released stage. Every
 * operation is O(log n) or O(1) and allocates nothing beyond the base class' list node (the
 * heap and deque grow geometrically).
 */
class TimeOrderedQueue : public Queue<QueueDiscItem>
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// Create an empty queue.
    TimeOrderedQueue();
    ~TimeOrderedQueue() override;

    /**
     * @brief Add an item to the released stage (it can be dequeued at once).
     * @param item the item
     * @return false if the queue is full (the item is dropped and traced by the base class)
     */
    bool Enqueue(Ptr<QueueDiscItem> item) override;

    /**
     * @brief Add an item to the waiting stage, to be released at @p release.
     * @param item the item
     * @param release its release time
     * @return false if the queue is full (the item is dropped and traced by the base class)
     */
    bool EnqueueAt(Ptr<QueueDiscItem> item, Time release);

    /**
     * @brief Dequeue the oldest item of the released stage.
     * @return the item, or nullptr if no item has been released
     */
    Ptr<QueueDiscItem> Dequeue() override;

    /**
     * @brief Remove (and drop, as a drop after dequeue) the next item: the oldest released item,
     * else the earliest waiting item.
     * @return the item, or nullptr if the queue is empty
     */
    Ptr<QueueDiscItem> Remove() override;

    /**
     * @brief Peek at the oldest item of the released stage.
     * @return the item, or nullptr if no item has been released
     */
    Ptr<const QueueDiscItem> Peek() const override;

    /**
     * @brief Move every waiting item whose release time is <= @p t to the released stage, in
     * release-time order (FIFO among equal times).
     * @param t the time up to which items are released
     * @return the number of items moved
     */
    uint32_t ReleaseUpTo(Time t);

    /**
     * @brief The earliest release time in the waiting stage.
     * @return that time, or Time::Max() if no item waits
     */
    Time GetNextReleaseTime() const;

    /**
     * @brief The number of items in the waiting stage.
     * @return the number of waiting items
     */
    uint32_t GetNWaiting() const;

    /**
     * @brief The number of items in the released stage.
     * @return the number of released items
     */
    uint32_t GetNReleased() const;

  protected:
    void DoDispose() override;

  private:
    /// One waiting item: its release time, its arrival number (tie breaker) and its position.
    struct Waiting
    {
        Time release;  //!< release time
        uint64_t seq;  //!< arrival number, for FIFO order among equal release times
        Iterator item; //!< position in the base class' list
    };

    /// Heap order: true if @p a is released after @p b (std::push_heap builds a max-heap).
    struct Later
    {
        /**
         * @param a first entry
         * @param b second entry
         * @return true if @p a comes after @p b
         */
        bool operator()(const Waiting& a, const Waiting& b) const
        {
            return a.release != b.release ? a.release > b.release : a.seq > b.seq;
        }
    };

    std::vector<Waiting> m_waiting;  //!< waiting stage (binary heap, earliest on top)
    std::deque<Iterator> m_released; //!< released stage (FIFO)
    uint64_t m_seq;                  //!< next arrival number
    NS_LOG_TEMPLATE_DECLARE;         //!< this class' log component (the base class has its own)
};

} // namespace ns3

#endif /* TESTBED_TIME_ORDERED_QUEUE_H */
