/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "time-ordered-queue.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimeOrderedQueue");

NS_OBJECT_ENSURE_REGISTERED(TimeOrderedQueue);

TypeId
TimeOrderedQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TimeOrderedQueue")
                            .SetParent<Queue<QueueDiscItem>>()
                            .SetGroupName("Testbed")
                            .AddConstructor<TimeOrderedQueue>();
    return tid;
}

TimeOrderedQueue::TimeOrderedQueue()
    : m_seq(0)
    , NS_LOG_TEMPLATE_DEFINE("TimeOrderedQueue")
{
    NS_LOG_FUNCTION(this);
}

TimeOrderedQueue::~TimeOrderedQueue()
{
    NS_LOG_FUNCTION(this);
}

bool
TimeOrderedQueue::Enqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    Iterator pos;
    if (!DoEnqueue(GetContainer().end(), item, pos))
    {
        return false;
    }
    m_released.push_back(pos);
    return true;
}

bool
TimeOrderedQueue::EnqueueAt(Ptr<QueueDiscItem> item, Time release)
{
    NS_LOG_FUNCTION(this << item << release);
    Iterator pos;
    if (!DoEnqueue(GetContainer().end(), item, pos))
    {
        return false;
    }
    m_waiting.push_back(Waiting{release, m_seq++, pos});
    std::push_heap(m_waiting.begin(), m_waiting.end(), Later());
    return true;
}

Ptr<QueueDiscItem>
TimeOrderedQueue::Dequeue()
{
    NS_LOG_FUNCTION(this);
    if (m_released.empty())
    {
        return nullptr;
    }
    Iterator pos = m_released.front();
    m_released.pop_front();
    return DoDequeue(pos);
}

Ptr<QueueDiscItem>
TimeOrderedQueue::Remove()
{
    NS_LOG_FUNCTION(this);
    if (!m_released.empty())
    {
        Iterator pos = m_released.front();
        m_released.pop_front();
        return DoRemove(pos);
    }
    if (!m_waiting.empty())
    {
        std::pop_heap(m_waiting.begin(), m_waiting.end(), Later());
        Iterator pos = m_waiting.back().item;
        m_waiting.pop_back();
        return DoRemove(pos);
    }
    return nullptr;
}

Ptr<const QueueDiscItem>
TimeOrderedQueue::Peek() const
{
    NS_LOG_FUNCTION(this);
    if (m_released.empty())
    {
        return nullptr;
    }
    return DoPeek(m_released.front());
}

uint32_t
TimeOrderedQueue::ReleaseUpTo(Time t)
{
    NS_LOG_FUNCTION(this << t);
    uint32_t n = 0;
    while (!m_waiting.empty() && m_waiting.front().release <= t)
    {
        std::pop_heap(m_waiting.begin(), m_waiting.end(), Later());
        m_released.push_back(m_waiting.back().item);
        m_waiting.pop_back();
        ++n;
    }
    return n;
}

Time
TimeOrderedQueue::GetNextReleaseTime() const
{
    return m_waiting.empty() ? Time::Max() : m_waiting.front().release;
}

uint32_t
TimeOrderedQueue::GetNWaiting() const
{
    return static_cast<uint32_t>(m_waiting.size());
}

uint32_t
TimeOrderedQueue::GetNReleased() const
{
    return static_cast<uint32_t>(m_released.size());
}

void
TimeOrderedQueue::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_waiting.clear();
    m_released.clear();
    Queue<QueueDiscItem>::DoDispose();
}

} // namespace ns3
