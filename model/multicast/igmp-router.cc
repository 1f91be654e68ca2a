/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "igmp-router.h"

#include "igmp-set-ops.h"

#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IgmpRouter");

IgmpRouter::IgmpRouter(IgmpL4Protocol& l4)
    : m_l4(l4)
{
}

void
IgmpRouter::Dispose()
{
    for (auto& [i, itf] : m_ifs)
    {
        itf.queryEvent.Cancel();
        itf.otherQuerierEvent.Cancel();
        for (auto& [g, rg] : itf.groups)
        {
            rg.lmqEvent.Cancel();
            rg.expiry.Cancel();
        }
    }
    m_ifs.clear();
}

IgmpRouter::RouterInterface&
IgmpRouter::GetIf(uint32_t ifIndex)
{
    return m_ifs[ifIndex];
}

const IgmpRouter::RouterInterface*
IgmpRouter::FindIf(uint32_t ifIndex) const
{
    auto it = m_ifs.find(ifIndex);
    return it == m_ifs.end() ? nullptr : &it->second;
}

bool
IgmpRouter::IsEnabled(uint32_t ifIndex) const
{
    const RouterInterface* itf = FindIf(ifIndex);
    return itf && itf->router;
}

void
IgmpRouter::Enable(uint32_t ifIndex, Time delay)
{
    NS_LOG_FUNCTION(this << ifIndex << delay);
    NS_ABORT_MSG_IF(!m_l4.m_ipv4 || ifIndex >= m_l4.m_ipv4->GetNInterfaces(),
                    "IgmpL4Protocol::EnableRouter: interface index " << ifIndex << " out of range");
    NS_ABORT_MSG_IF(m_l4.m_queryResponseInterval >= m_l4.m_queryInterval,
                    "IgmpL4Protocol: QueryResponseInterval "
                        << m_l4.m_queryResponseInterval.As(Time::S)
                        << " must be below QueryInterval " << m_l4.m_queryInterval.As(Time::S));
    RouterInterface& itf = GetIf(ifIndex);
    itf.router = true;
    itf.startupLeft = m_l4.m_startupQueryCount == 0 ? m_l4.m_robustness : m_l4.m_startupQueryCount;
    SetQuerier(ifIndex, true); // RFC 2236 3: every router starts as querier
    itf.queryEvent.Cancel();
    itf.queryEvent = Simulator::Schedule(delay, &IgmpRouter::SendGeneralQuery, this, ifIndex);
}

void
IgmpRouter::Disable(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    RouterInterface& itf = GetIf(ifIndex);
    itf.router = false;
    itf.queryEvent.Cancel();
    itf.otherQuerierEvent.Cancel();
    for (auto& [g, rg] : itf.groups)
    {
        rg.lmqEvent.Cancel();
        rg.expiry.Cancel();
    }
    itf.groups.clear();
    SetQuerier(ifIndex, false);
}

bool
IgmpRouter::IsQuerier(uint32_t ifIndex) const
{
    const RouterInterface* itf = FindIf(ifIndex);
    return itf && itf->querier;
}

void
IgmpRouter::SetQuerier(uint32_t ifIndex, bool querier)
{
    RouterInterface& itf = GetIf(ifIndex);
    if (itf.querier != querier)
    {
        NS_LOG_LOGIC("if " << ifIndex << (querier ? " becomes querier" : " becomes non-querier"));
        itf.querier = querier;
        m_l4.m_querierTrace(ifIndex, querier);
    }
}

void
IgmpRouter::SendGeneralQuery(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    RouterInterface& itf = GetIf(ifIndex);
    if (!itf.router || !itf.querier)
    {
        return;
    }
    IgmpHeader q
        = m_l4.m_version == 2
              ? IgmpHeader::MakeV2Query(Ipv4Address::GetAny(), m_l4.m_queryResponseInterval)
              : IgmpHeader::MakeV3Query(Ipv4Address::GetAny(),
                                        m_l4.m_queryResponseInterval,
                                        false,
                                        static_cast<uint8_t>(m_l4.m_robustness),
                                        m_l4.m_queryInterval);
    m_l4.SendMessage(ifIndex, IgmpL4Protocol::ALL_SYSTEMS, q);
    Time next = m_l4.m_queryInterval;
    if (itf.startupLeft > 0)
    {
        --itf.startupLeft;
        if (itf.startupLeft > 0)
        {
            next = m_l4.m_startupQueryInterval.IsZero() ? m_l4.m_queryInterval / 4
                                                        : m_l4.m_startupQueryInterval;
        }
    }
    itf.queryEvent = Simulator::Schedule(next, &IgmpRouter::SendGeneralQuery, this, ifIndex);
}

void
IgmpRouter::OtherQuerierExpired(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    RouterInterface& itf = GetIf(ifIndex);
    // RFC 2236 7 / RFC 3376 6.6: the other querier is gone: become querier, query at once.
    SetQuerier(ifIndex, true);
    itf.otherQuerier = Ipv4Address::GetAny();
    itf.queryEvent.Cancel();
    SendGeneralQuery(ifIndex);
}

void
IgmpRouter::ReceiveQuery(uint32_t ifIndex, Ipv4Address src, const IgmpHeader& q)
{
    NS_LOG_FUNCTION(this << ifIndex << src);
    RouterInterface& itf = GetIf(ifIndex);
    const Time now = Simulator::Now();
    // Querier election (RFC 2236 3, RFC 3376 6.6.2): the lowest address wins. Queries from
    // 0.0.0.0 (snooping-switch proxy queriers, RFC 4541 2.1.1) take no part in the election.
    if (src != Ipv4Address::GetAny() && src < m_l4.GetIfAddress(ifIndex))
    {
        SetQuerier(ifIndex, false);
        itf.otherQuerier = src;
        itf.startupLeft = 0;
        itf.queryEvent.Cancel();
        itf.otherQuerierEvent.Cancel();
        itf.otherQuerierEvent = Simulator::Schedule(m_l4.GetOtherQuerierPresentInterval(),
                                                    &IgmpRouter::OtherQuerierExpired,
                                                    this,
                                                    ifIndex);
    }
    // Group(-and-source)-specific queries from the querier lower timers (RFC 2236 3, RFC 3376
    // 6.6.1), unless the S flag says "suppress router-side processing".
    const Ipv4Address group = q.GetGroup();
    if (group == Ipv4Address::GetAny() || (q.IsV3Query() && q.GetSFlag()))
    {
        return;
    }
    auto it = itf.groups.find(group);
    if (it == itf.groups.end())
    {
        return;
    }
    RouterGroup& g = it->second;
    const Time lmqt = now + m_l4.GetLastMemberQueryTime();
    if (q.GetSources().empty())
    {
        if (g.mode == EXCLUDE && g.groupTimer > lmqt)
        {
            g.groupTimer = lmqt;
        }
        else if (g.mode == INCLUDE)
        {
            for (auto& [s, t] : g.sources)
            {
                t = std::min(t, lmqt);
            }
        }
    }
    else
    {
        for (const auto& s : q.GetSources())
        {
            auto sit = g.sources.find(s);
            if (sit != g.sources.end() && sit->second > lmqt)
            {
                sit->second = lmqt;
            }
        }
    }
    Reschedule(ifIndex, group);
}

void
IgmpRouter::ReceiveRecord(uint32_t ifIndex, const IgmpGroupRecord& rec, uint8_t hostVersion)
{
    NS_LOG_FUNCTION(this << ifIndex << rec.group << +rec.type << +hostVersion);
    RouterInterface& itf = GetIf(ifIndex);
    const Time now = Simulator::Now();
    const Time gmi = now + m_l4.GetGroupMembershipInterval();
    auto found = itf.groups.find(rec.group);
    const bool existed = found != itf.groups.end();
    RouterGroup& g = itf.groups[rec.group];
    if (!existed)
    {
        g.groupTimer = now;
    }
    if (hostVersion == 1)
    {
        g.v1HostUntil = gmi; // Older Host Present Interval = GMI (RFC 3376 8.13)
    }
    else if (hostVersion == 2)
    {
        g.v2HostUntil = gmi;
    }
    uint8_t compat = g.v1HostUntil > now ? 1 : (g.v2HostUntil > now ? 2 : 3);
    if (m_l4.m_version == 2)
    {
        compat = std::min<uint8_t>(compat, 2);
    }
    uint8_t type = rec.type;
    std::set<Ipv4Address> b(rec.sources.begin(), rec.sources.end());
    // RFC 3376 7.3.2: group compatibility mode.
    if (compat < 3)
    {
        if (type == IgmpGroupRecord::BLOCK_OLD_SOURCES)
        {
            Reschedule(ifIndex, rec.group);
            return;
        }
        if (type == IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE
            || type == IgmpGroupRecord::MODE_IS_EXCLUDE)
        {
            b.clear();
        }
        if (compat == 1 && type == IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE && b.empty())
        {
            Reschedule(ifIndex, rec.group);
            return; // leaves are ignored while v1 hosts are present
        }
    }
    auto setTimers = [&g](const std::set<Ipv4Address>& s, Time t) {
        for (const auto& a : s)
        {
            g.sources[a] = t;
        }
    };
    auto erase = [&g](const std::set<Ipv4Address>& s) {
        for (const auto& a : s)
        {
            g.sources.erase(a);
        }
    };
    std::set<Ipv4Address> a; // INCLUDE: A; EXCLUDE: X (timers > 0)
    std::set<Ipv4Address> y; // EXCLUDE: Y (timers == 0)
    for (const auto& [s, t] : g.sources)
    {
        (t > now ? a : y).insert(s);
    }
    bool queryGroup = false;
    std::set<Ipv4Address> querySources;
    if (g.mode == INCLUDE)
    {
        std::set<Ipv4Address> all = a;
        all.insert(y.begin(), y.end());
        a = all;
        switch (type)
        {
            case IgmpGroupRecord::MODE_IS_INCLUDE:
            case IgmpGroupRecord::ALLOW_NEW_SOURCES:
                setTimers(b, gmi);
                break;
            case IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE:
                setTimers(b, gmi);
                querySources = igmp::Minus(a, b);
                break;
            case IgmpGroupRecord::BLOCK_OLD_SOURCES:
                querySources = igmp::Inter(a, b);
                break;
            case IgmpGroupRecord::MODE_IS_EXCLUDE:
            case IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE:
                // EXCLUDE(A*B, B-A); (B-A)=0; Delete(A-B); GT=GMI [TO_EX: Q(G,A*B)]
                erase(igmp::Minus(a, b));
                setTimers(igmp::Minus(b, a), Time(0));
                g.mode = EXCLUDE;
                g.groupTimer = gmi;
                if (type == IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE)
                {
                    querySources = igmp::Inter(a, b);
                }
                break;
        }
    }
    else
    {
        const std::set<Ipv4Address>& x = a;
        switch (type)
        {
            case IgmpGroupRecord::MODE_IS_INCLUDE:
            case IgmpGroupRecord::ALLOW_NEW_SOURCES:
                setTimers(b, gmi); // EXCLUDE(X+A, Y-A); (A)=GMI
                break;
            case IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE:
                setTimers(b, gmi);
                querySources = igmp::Minus(x, b); // Q(G,X-A)
                queryGroup = true;                // Q(G)
                break;
            case IgmpGroupRecord::BLOCK_OLD_SOURCES: {
                // EXCLUDE(X+(A-Y), Y); (A-X-Y)=Group Timer; Q(G,A-Y)
                auto newSrc = igmp::Minus(igmp::Minus(b, x), y);
                setTimers(newSrc, g.groupTimer);
                querySources = igmp::Minus(b, y);
                break;
            }
            case IgmpGroupRecord::MODE_IS_EXCLUDE:
            case IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE: {
                // EXCLUDE(A-Y, Y*A); (A-X-Y)=GMI or GT; Delete(X-A), Delete(Y-A); GT=GMI
                auto newSrc = igmp::Minus(igmp::Minus(b, x), y);
                erase(igmp::Minus(x, b));
                erase(igmp::Minus(y, b));
                setTimers(newSrc, type == IgmpGroupRecord::MODE_IS_EXCLUDE ? gmi : g.groupTimer);
                g.groupTimer = gmi;
                if (type == IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE)
                {
                    querySources = igmp::Minus(b, y);
                }
                break;
            }
        }
    }
    if (g.mode == INCLUDE && g.sources.empty())
    {
        // Nothing to keep (a leave or block for a group without state).
        g.lmqEvent.Cancel();
        g.expiry.Cancel();
        itf.groups.erase(rec.group);
        if (existed)
        {
            m_l4.m_routerGroupTrace(ifIndex, rec.group, 0);
        }
        return;
    }
    if (!existed)
    {
        m_l4.m_routerGroupTrace(ifIndex, rec.group, 1);
    }
    if (itf.querier)
    {
        if (queryGroup)
        {
            GroupQuery(ifIndex, rec.group);
        }
        if (!querySources.empty() && m_l4.m_version == 3 && compat == 3)
        {
            SourceQuery(ifIndex, rec.group, querySources);
        }
    }
    Reschedule(ifIndex, rec.group);
}

void
IgmpRouter::GroupQuery(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    RouterGroup& g = GetIf(ifIndex).groups[group];
    // RFC 3376 6.6.3.1 / RFC 2236 3: group timer := LMQT, send [LMQC] group-specific queries
    // [LMQI] apart.
    const Time lmqt = Simulator::Now() + m_l4.GetLastMemberQueryTime();
    if (g.groupTimer > lmqt)
    {
        g.groupTimer = lmqt;
    }
    g.lmqLeft = m_l4.LastMemberQueryCount();
    g.lmqEvent.Cancel();
    LmqTimer(ifIndex, group);
}

void
IgmpRouter::SourceQuery(uint32_t ifIndex, Ipv4Address group, const std::set<Ipv4Address>& sources)
{
    NS_LOG_FUNCTION(this << ifIndex << group << sources.size());
    RouterGroup& g = GetIf(ifIndex).groups[group];
    // RFC 3376 6.6.3.2: source timers := LMQT, send [LMQC] group-and-source-specific queries.
    const Time lmqt = Simulator::Now() + m_l4.GetLastMemberQueryTime();
    for (const auto& s : sources)
    {
        auto it = g.sources.find(s);
        if (it != g.sources.end() && it->second > lmqt)
        {
            it->second = lmqt;
        }
    }
    g.lmqSources.insert(sources.begin(), sources.end());
    g.lmqSourceLeft = m_l4.LastMemberQueryCount();
    g.lmqEvent.Cancel();
    LmqTimer(ifIndex, group);
}

void
IgmpRouter::LmqTimer(uint32_t ifIndex, Ipv4Address group)
{
    RouterInterface& itf = GetIf(ifIndex);
    auto it = itf.groups.find(group);
    if (it == itf.groups.end() || !itf.querier)
    {
        return;
    }
    RouterGroup& g = it->second;
    const Time now = Simulator::Now();
    const Time lmqt = now + m_l4.GetLastMemberQueryTime();
    if (g.lmqLeft > 0)
    {
        --g.lmqLeft;
        // A report since the first query raised the group timer: v2 stops, v3 sets S.
        const bool raised = g.groupTimer > lmqt;
        if (m_l4.m_version == 2)
        {
            if (raised)
            {
                g.lmqLeft = 0;
            }
            else
            {
                m_l4.SendMessage(ifIndex,
                                 group,
                                 IgmpHeader::MakeV2Query(group, m_l4.m_lastMemberQueryInterval));
            }
        }
        else
        {
            m_l4.SendMessage(ifIndex,
                             group,
                             IgmpHeader::MakeV3Query(group,
                                                     m_l4.m_lastMemberQueryInterval,
                                                     raised,
                                                     static_cast<uint8_t>(m_l4.m_robustness),
                                                     m_l4.m_queryInterval));
        }
    }
    if (g.lmqSourceLeft > 0)
    {
        --g.lmqSourceLeft;
        std::vector<Ipv4Address> low;
        std::vector<Ipv4Address> high;
        for (const auto& s : g.lmqSources)
        {
            auto sit = g.sources.find(s);
            if (sit == g.sources.end())
            {
                continue;
            }
            (sit->second > lmqt ? high : low).push_back(s);
        }
        for (auto* list : {&low, &high})
        {
            if (!list->empty())
            {
                m_l4.SendMessage(ifIndex,
                                 group,
                                 IgmpHeader::MakeV3Query(group,
                                                         m_l4.m_lastMemberQueryInterval,
                                                         list == &high,
                                                         static_cast<uint8_t>(m_l4.m_robustness),
                                                         m_l4.m_queryInterval,
                                                         *list));
            }
        }
        if (g.lmqSourceLeft == 0)
        {
            g.lmqSources.clear();
        }
    }
    if (g.lmqLeft > 0 || g.lmqSourceLeft > 0)
    {
        g.lmqEvent = Simulator::Schedule(m_l4.m_lastMemberQueryInterval,
                                         &IgmpRouter::LmqTimer,
                                         this,
                                         ifIndex,
                                         group);
    }
    Reschedule(ifIndex, group);
}

void
IgmpRouter::Reschedule(uint32_t ifIndex, Ipv4Address group)
{
    RouterInterface& itf = GetIf(ifIndex);
    auto it = itf.groups.find(group);
    if (it == itf.groups.end())
    {
        return;
    }
    RouterGroup& g = it->second;
    const Time now = Simulator::Now();
    Time next = Time::Max();
    if (g.mode == EXCLUDE)
    {
        next = g.groupTimer;
    }
    else
    {
        for (const auto& [s, t] : g.sources)
        {
            next = std::min(next, t);
        }
    }
    g.expiry.Cancel();
    g.expiry = Simulator::Schedule(std::max(next - now, Time(0)),
                                   &IgmpRouter::Check,
                                   this,
                                   ifIndex,
                                   group);
}

void
IgmpRouter::Check(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    RouterInterface& itf = GetIf(ifIndex);
    auto it = itf.groups.find(group);
    if (it == itf.groups.end())
    {
        return;
    }
    RouterGroup& g = it->second;
    const Time now = Simulator::Now();
    if (g.mode == EXCLUDE && g.groupTimer <= now)
    {
        // RFC 3376 6.5: group timer expiry in EXCLUDE: drop Y, switch to INCLUDE(X).
        NS_LOG_LOGIC("if " << ifIndex << " group " << group << ": group timer expired");
        g.mode = INCLUDE;
    }
    if (g.mode == INCLUDE)
    {
        for (auto s = g.sources.begin(); s != g.sources.end();)
        {
            s = s->second <= now ? g.sources.erase(s) : std::next(s);
        }
        if (g.sources.empty())
        {
            g.lmqEvent.Cancel();
            itf.groups.erase(it);
            m_l4.m_routerGroupTrace(ifIndex, group, 0);
            return;
        }
    }
    Reschedule(ifIndex, group);
}

bool
IgmpRouter::HasListeners(uint32_t ifIndex, Ipv4Address group, Ipv4Address source) const
{
    const RouterInterface* itf = FindIf(ifIndex);
    if (!itf)
    {
        return false;
    }
    auto it = itf->groups.find(group);
    if (it == itf->groups.end())
    {
        return false;
    }
    const RouterGroup& g = it->second;
    const Time now = Simulator::Now();
    if (source == Ipv4Address::GetAny())
    {
        if (g.mode == EXCLUDE)
        {
            return true;
        }
        for (const auto& [s, t] : g.sources)
        {
            if (t > now)
            {
                return true;
            }
        }
        return false;
    }
    auto sit = g.sources.find(source);
    if (g.mode == INCLUDE)
    {
        return sit != g.sources.end() && sit->second > now;
    }
    return sit == g.sources.end() || sit->second > now;
}

IgmpL4Protocol::FilterMode
IgmpRouter::GetFilterMode(uint32_t ifIndex, Ipv4Address group) const
{
    const RouterInterface* itf = FindIf(ifIndex);
    if (!itf)
    {
        return INCLUDE;
    }
    auto it = itf->groups.find(group);
    return it == itf->groups.end() ? INCLUDE : it->second.mode;
}

std::vector<Ipv4Address>
IgmpRouter::GetGroups(uint32_t ifIndex) const
{
    std::vector<Ipv4Address> r;
    if (const RouterInterface* itf = FindIf(ifIndex))
    {
        for (const auto& [g, rg] : itf->groups)
        {
            r.push_back(g);
        }
    }
    return r;
}

Time
IgmpRouter::GetNextTransmission(uint32_t ifIndex) const
{
    const RouterInterface* itf = FindIf(ifIndex);
    Time next = Time::Max();
    if (!itf)
    {
        return next;
    }
    auto earliest = [&next](const EventId& ev) {
        if (!ev.IsExpired())
        {
            next = std::min(next, TimeStep(ev.GetTs()));
        }
    };
    earliest(itf->queryEvent);
    earliest(itf->otherQuerierEvent);
    for (const auto& [g, rg] : itf->groups)
    {
        earliest(rg.lmqEvent);
    }
    return next;
}

} // namespace ns3
