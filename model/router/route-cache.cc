/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "route-cache.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RouteCache");
NS_OBJECT_ENSURE_REGISTERED(RouteCache);

TypeId
RouteCache::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RouteCache")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<RouteCache>()
              .AddAttribute("Capacity",
                            "Maximum number of entries (one per destination host); [NTT96]'s "
                            "router held 8548",
                            UintegerValue(8548),
                            MakeUintegerAccessor(&RouteCache::m_capacity),
                            MakeUintegerChecker<uint32_t>(1, 100000000))
              .AddAttribute("Policy",
                            "Replacement: FlushAll (clear all every FlushInterval, refuse fills "
                            "when full) or Lru (evict the least recently used entry when full)",
                            EnumValue(FLUSH_ALL),
                            MakeEnumAccessor<Policy>(&RouteCache::m_policy),
                            MakeEnumChecker(FLUSH_ALL, "FlushAll", LRU, "Lru"))
              .AddAttribute("FlushInterval",
                            "Period of the clear-all flush (0 s: no periodic flush)",
                            TimeValue(Seconds(60)),
                            MakeTimeAccessor(&RouteCache::m_flushInterval),
                            MakeTimeChecker(Seconds(0), Seconds(1e6)))
              .AddAttribute("FlushPhase",
                            "Time of the first periodic flush after the cache is initialized (0 s: "
                            "one FlushInterval after it)",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&RouteCache::m_flushPhase),
                            MakeTimeChecker(Seconds(0), Seconds(1e6)))
              .AddTraceSource("Hit",
                              "A lookup found its destination",
                              MakeTraceSourceAccessor(&RouteCache::m_hitTrace),
                              "ns3::RouteCache::EntryTracedCallback")
              .AddTraceSource("Miss",
                              "A lookup did not find its destination",
                              MakeTraceSourceAccessor(&RouteCache::m_missTrace),
                              "ns3::RouteCache::EntryTracedCallback")
              .AddTraceSource("Fill",
                              "An entry was added",
                              MakeTraceSourceAccessor(&RouteCache::m_fillTrace),
                              "ns3::RouteCache::EntryTracedCallback")
              .AddTraceSource("Evict",
                              "An entry was evicted (LRU)",
                              MakeTraceSourceAccessor(&RouteCache::m_evictTrace),
                              "ns3::RouteCache::EntryTracedCallback")
              .AddTraceSource("Flush",
                              "The cache was cleared",
                              MakeTraceSourceAccessor(&RouteCache::m_flushTrace),
                              "ns3::RouteCache::FlushTracedCallback");
    return tid;
}

RouteCache::RouteCache()
    : m_capacity(8548)
    , m_policy(FLUSH_ALL)
    , m_flushInterval(Seconds(60))
{
    NS_LOG_FUNCTION(this);
}

RouteCache::~RouteCache()
{
    NS_LOG_FUNCTION(this);
}

void
RouteCache::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    if (m_flushInterval.IsStrictlyPositive())
    {
        Time first = m_flushPhase.IsStrictlyPositive() ? m_flushPhase : m_flushInterval;
        m_flushEvent = Simulator::Schedule(first, &RouteCache::PeriodicFlush, this);
    }
    Object::DoInitialize();
}

void
RouteCache::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_flushEvent.Cancel();
    m_entries.clear();
    Object::DoDispose();
}

bool
RouteCache::Lookup(Ipv4Address dst, uint32_t& oif)
{
    auto& byDst = m_entries.get<ByDst>();
    auto it = byDst.find(dst.Get());
    if (it == byDst.end())
    {
        ++m_misses;
        m_missTrace(dst);
        return false;
    }
    oif = it->oif;
    if (m_policy == LRU)
    {
        m_entries.relocate(m_entries.begin(), m_entries.project<0>(it));
    }
    ++m_hits;
    m_hitTrace(dst);
    return true;
}

bool
RouteCache::Fill(Ipv4Address dst, uint32_t oif)
{
    auto& byDst = m_entries.get<ByDst>();
    if (byDst.find(dst.Get()) != byDst.end())
    {
        return false;
    }
    if (m_entries.size() >= m_capacity)
    {
        if (m_policy == FLUSH_ALL)
        {
            ++m_refused;
            return false;
        }
        Ipv4Address victim(m_entries.back().dst);
        m_entries.pop_back();
        ++m_evictions;
        m_evictTrace(victim);
    }
    m_entries.push_front(Entry{dst.Get(), oif});
    ++m_fills;
    m_fillTrace(dst);
    return true;
}

void
RouteCache::Flush()
{
    NS_LOG_FUNCTION(this);
    uint32_t n = m_entries.size();
    m_entries.clear();
    ++m_flushes;
    m_flushTrace(n);
}

void
RouteCache::PeriodicFlush()
{
    Flush();
    m_flushEvent = Simulator::Schedule(m_flushInterval, &RouteCache::PeriodicFlush, this);
}

uint32_t
RouteCache::GetSize() const
{
    return m_entries.size();
}

uint32_t
RouteCache::GetCapacity() const
{
    return m_capacity;
}

bool
RouteCache::IsFull() const
{
    return m_entries.size() >= m_capacity;
}

RouteCache::Policy
RouteCache::GetPolicy() const
{
    return m_policy;
}

uint64_t
RouteCache::GetHits() const
{
    return m_hits;
}

uint64_t
RouteCache::GetMisses() const
{
    return m_misses;
}

uint64_t
RouteCache::GetFills() const
{
    return m_fills;
}

uint64_t
RouteCache::GetRefusedFills() const
{
    return m_refused;
}

uint64_t
RouteCache::GetEvictions() const
{
    return m_evictions;
}

uint64_t
RouteCache::GetFlushes() const
{
    return m_flushes;
}

} // namespace ns3
