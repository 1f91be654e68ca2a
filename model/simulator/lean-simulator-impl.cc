/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lean-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <functional>

/**
 * @file
 * @ingroup testbed-simulator
 * ns3::LeanSimulatorImpl implementation.
 *
 * The queue is hand-written rather than Boost.Heap's d_ary_heap: the vacant root (the running
 * event's place, filled by the first event it schedules) is not a state a library heap has, and
 * taking a removed entry off the root without running it needs the root's entry, which Boost's
 * heaps give only with a pop. Boost's mutable heaps, which could remove an entry in place,
 * allocate a list node per element and add an indirection per comparison, the costs this class
 * removes.
 *
 * Binary, not 4-ary: the module's programs keep a few dozen events queued in a set and a new
 * event most often runs among the next few, so it sinks only a level or two from the root; a
 * binary heap then compares less per level (2 against 4) than a 4-ary one saves in levels
 * (measured: the 4-ary heap and Floyd's bottom-up pop both cost more instructions per send).
 */

namespace ns3
{

// As in DefaultSimulatorImpl, nothing on the per-event path logs.
NS_LOG_COMPONENT_DEFINE("LeanSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(LeanSimulatorImpl);

LeanSimulatorImpl* LeanSimulatorImpl::s_running = nullptr;

TypeId
LeanSimulatorImpl::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::LeanSimulatorImpl")
              .SetParent<SimulatorImpl>()
              .SetGroupName("Testbed")
              .AddConstructor<LeanSimulatorImpl>()
              .AddAttribute("SameTimeOrder",
                            "The order of events of the same timestamp: Uid "
                            "(ns-3's: the order of insertion) or Lane (the "
                            "event's context, then the order of insertion).",
                            EnumValue(UID),
                            MakeEnumAccessor<SameTimeOrder>(&LeanSimulatorImpl::SetSameTimeOrder,
                                                            &LeanSimulatorImpl::GetSameTimeOrder),
                            MakeEnumChecker(UID, "Uid", LANE, "Lane"));
    return tid;
}

void
LeanSimulatorImpl::SetSameTimeOrder(SameTimeOrder order)
{
    NS_LOG_FUNCTION(this << order);
    // The heap is ordered by the tie key: it cannot change under queued events.
    NS_ABORT_MSG_IF(Queued() != 0 || !m_eventsWithContextEmpty,
                    "LeanSimulatorImpl: SameTimeOrder can change only while no event is queued");
    m_laneMask = order == LANE ? 0xffffffffULL : 0;
}

LeanSimulatorImpl::SameTimeOrder
LeanSimulatorImpl::GetSameTimeOrder() const
{
    return m_laneMask != 0 ? LANE : UID;
}

LeanSimulatorImpl::LeanSimulatorImpl()
    : m_eventsWithContextEmpty(true)
    , m_stop(false)
    , m_uid(EventId::UID::VALID)
    , m_currentUid(EventId::UID::INVALID)
    , m_currentTs(0)
    , m_currentContext(Simulator::NO_CONTEXT)
    , m_eventCount(0)
    , m_unscheduledEvents(0)
    , m_mainThreadId(std::this_thread::get_id())
{
    NS_LOG_FUNCTION(this);
}

LeanSimulatorImpl::~LeanSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
}

void
LeanSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // Defensive only: no test can tell it is missing. Only Run() makes the root vacant, and Run()
    // returns only through the break after its loop's Settle(), so the root is settled here
    // unless an exception left Run() (ns-3 aborts rather than throws). The Settle() that matters
    // is the loop's, before each event and before Run() returns.
    Settle();
    ProcessEventsWithContext();
    // DefaultSimulatorImpl releases the remaining events in queue order.
    while (!m_heap.empty())
    {
        EventImpl* impl = m_heap.front().impl;
        m_vacant = true;
        FillRoot();
        impl->Unref();
    }
    m_removed.clear();
    m_nextRemoved = NONE_REMOVED;
    SimulatorImpl::DoDispose();
}

void
LeanSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
}

void
LeanSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    // The queue is built in; every ns-3 scheduler would give the same order.
    NS_LOG_FUNCTION(this << schedulerFactory);
}

uint32_t
LeanSimulatorImpl::GetSystemId() const
{
    return 0;
}

void
LeanSimulatorImpl::SiftUp(std::size_t i, const Entry& e)
{
    Entry* h = m_heap.data();
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / 2;
        if (!(e.key < h[parent].key))
        {
            break;
        }
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

void
LeanSimulatorImpl::SiftDown(std::size_t i, std::size_t n, const Entry& e)
{
    Entry* h = m_heap.data();
    for (;;)
    {
        std::size_t c = 2 * i + 1;
        if (c >= n)
        {
            break;
        }
        if (c + 1 < n && h[c + 1].key < h[c].key)
        {
            ++c;
        }
        if (!(h[c].key < e.key))
        {
            break;
        }
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

void
LeanSimulatorImpl::FillRoot()
{
    NS_ASSERT(m_vacant && !m_heap.empty());
    m_vacant = false;
    const Entry last = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0, m_heap.size(), last);
    }
}

uint32_t
LeanSimulatorImpl::Insert(uint64_t ts, uint32_t context, EventImpl* event)
{
    const uint32_t uid = m_uid++;
    m_unscheduledEvents++;
    const Entry e{MakeKey(ts, context, uid), event, context};
    if (m_vacant)
    {
        // The first event the running event schedules sinks from the running event's place.
        m_vacant = false;
        SiftDown(0, m_heap.size(), e);
    }
    else
    {
        m_heap.emplace_back();
        SiftUp(m_heap.size() - 1, e);
    }
    return uid;
}

bool
LeanSimulatorImpl::IsFinished() const
{
    return Queued() == m_removed.size() || m_stop;
}

void
LeanSimulatorImpl::QueueEventsWithContext()
{
    std::list<EventWithContext> eventsWithContext;
    {
        std::unique_lock lock{m_eventsWithContextMutex};
        m_eventsWithContext.swap(eventsWithContext);
        m_eventsWithContextEmpty = true;
    }
    for (const auto& event : eventsWithContext)
    {
        Insert(m_currentTs + event.timestamp, event.context, event.event);
    }
}

void
LeanSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_mainThreadId = std::this_thread::get_id();
    ProcessEventsWithContext();
    m_stop = false;
    s_running = this;

    for (;;)
    {
        // The root is vacant if the last event scheduled nothing; a removed entry at the root
        // goes without running.
        Settle();
        if (m_heap.empty() || m_stop)
        {
            break;
        }
        const Entry& next = m_heap.front();
        const uint64_t ts = static_cast<uint64_t>(next.key >> 64);
        // Before the least removed key's time no entry can be removed: one comparison per event.
        if (ts >= static_cast<uint64_t>(m_nextRemoved >> 64) && next.key == m_nextRemoved)
        {
            PurgeRemoved();
            continue;
        }
        // The root's entry runs; its place stays vacant for the first event it schedules.
        NS_ASSERT(ts >= m_currentTs);
        EventImpl* impl = next.impl;
        m_currentTs = ts;
        m_currentContext = next.context;
        m_currentKey = static_cast<uint64_t>(next.key);
        m_currentUid = static_cast<uint32_t>(m_currentKey);
        m_vacant = true;
        m_unscheduledEvents--;
        m_eventCount++;
        impl->Invoke();
        impl->Unref();
        ProcessEventsWithContext();
    }
    s_running = nullptr;
    NS_ASSERT(!m_heap.empty() || m_unscheduledEvents == 0);
}

void
LeanSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

EventId
LeanSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    return Simulator::Schedule(delay, &Simulator::Stop);
}

EventId
LeanSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "Simulator::Schedule Thread-unsafe invocation!");
    NS_ASSERT_MSG(delay.IsPositive(), "LeanSimulatorImpl::Schedule(): Negative delay");
    // DefaultSimulatorImpl: (uint64_t)(delay + TimeStep(m_currentTs)).GetTimeStep()
    const uint64_t ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    const uint32_t uid = Insert(ts, m_currentContext, event);
    return EventId(event, ts, m_currentContext, uid);
}

void
LeanSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    if (m_mainThreadId == std::this_thread::get_id())
    {
        Insert(m_currentTs + static_cast<uint64_t>(delay.GetTimeStep()), context, event);
    }
    else
    {
        std::unique_lock lock{m_eventsWithContextMutex};
        m_eventsWithContext.push_back(
            EventWithContext{context, static_cast<uint64_t>(delay.GetTimeStep()), event});
        m_eventsWithContextEmpty = false;
    }
}

EventId
LeanSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Schedule(Time(0), event);
}

EventId
LeanSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "Simulator::ScheduleDestroy Thread-unsafe invocation!");
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    m_uid++;
    return id;
}

Time
LeanSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
LeanSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    if (IsExpired(id))
    {
        return TimeStep(0);
    }
    return TimeStep(id.GetTs() - m_currentTs);
}

void
LeanSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); i++)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    const Key key = MakeKey(id.GetTs(), id.GetContext(), id.GetUid());
    if (m_heap.size() <= EAGER_REMOVE_LIMIT)
    {
        // A small queue: the entry is found by a pass over the vector and taken out at once.
        Settle();
        const auto it = std::find_if(m_heap.begin(), m_heap.end(), [key](const Entry& e) {
            return e.key == key;
        });
        NS_ASSERT_MSG(it != m_heap.end(), "LeanSimulatorImpl::Remove: a pending event not queued");
        const std::size_t i = it - m_heap.begin();
        EventImpl* impl = it->impl;
        const Entry last = m_heap.back();
        m_heap.pop_back();
        if (i < m_heap.size())
        {
            if (i > 0 && last.key < m_heap[(i - 1) / 2].key)
            {
                SiftUp(i, last);
            }
            else
            {
                SiftDown(i, m_heap.size(), last);
            }
        }
        impl->Cancel();
        impl->Unref();
        m_unscheduledEvents--;
        return;
    }
    // A large queue: taken out lazily. The entry stays where it is and its key joins the removed
    // keys; it goes when it reaches the root (PurgeRemoved) or when the queue is rebuilt
    // (Compact). A removed event neither runs nor counts, and does not move the clock, as in
    // DefaultSimulatorImpl; IsFinished leaves it out.
    id.PeekEventImpl()->Cancel();
    m_removed.push_back(key);
    std::push_heap(m_removed.begin(), m_removed.end(), std::greater<>());
    m_nextRemoved = m_removed.front();
    m_unscheduledEvents--;
    if (m_removed.size() > Queued() - m_removed.size() + REMOVED_SLACK)
    {
        Compact();
    }
}

void
LeanSimulatorImpl::PurgeRemoved()
{
    // The root holds the least key in the queue, and every removed key is in the queue, so the
    // root's entry was removed exactly when its key is the least removed key.
    while (!m_heap.empty() && m_heap.front().key == m_nextRemoved)
    {
        EventImpl* impl = m_heap.front().impl;
        m_vacant = true;
        FillRoot();
        impl->Unref();
        std::pop_heap(m_removed.begin(), m_removed.end(), std::greater<>());
        m_removed.pop_back();
        m_nextRemoved = m_removed.empty() ? NONE_REMOVED : m_removed.front();
    }
}

void
LeanSimulatorImpl::Compact()
{
    Settle();
    std::sort(m_removed.begin(), m_removed.end());
    std::size_t n = 0;
    for (const Entry& e : m_heap)
    {
        if (std::binary_search(m_removed.begin(), m_removed.end(), e.key))
        {
            e.impl->Unref();
        }
        else
        {
            m_heap[n++] = e;
        }
    }
    NS_ASSERT(m_heap.size() - n == m_removed.size());
    m_heap.resize(n);
    m_removed.clear();
    m_nextRemoved = NONE_REMOVED;
    // Floyd's heap construction: the key is a total order, so the heap pops the same sequence.
    for (std::size_t i = n / 2; i-- > 0;)
    {
        const Entry e = m_heap[i];
        SiftDown(i, n, e);
    }
}

void
LeanSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
LeanSimulatorImpl::IsExpired(const EventId& id) const
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        if (id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled())
        {
            return true;
        }
        for (const auto& d : m_destroyEvents)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    // Run already: before the running event in the queue's order, or the running event.
    return id.PeekEventImpl() == nullptr || id.GetTs() < m_currentTs
           || (id.GetTs() == m_currentTs && TieKey(id.GetContext(), id.GetUid()) <= m_currentKey)
           || id.PeekEventImpl()->IsCancelled();
}

Time
LeanSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
LeanSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
LeanSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
