/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "igmp-host.h"

#include "igmp-set-ops.h"

#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IgmpHost");

IgmpHost::IgmpHost(IgmpL4Protocol& l4)
    : m_l4(l4)
{
}

void
IgmpHost::Dispose()
{
    for (auto& [i, itf] : m_ifs)
    {
        itf.generalResponse.Cancel();
        itf.stateChangeTimer.Cancel();
        for (auto& [g, hg] : itf.groups)
        {
            hg.reportTimer.Cancel();
        }
    }
    m_ifs.clear();
}

IgmpHost::HostInterface&
IgmpHost::GetIf(uint32_t ifIndex)
{
    return m_ifs[ifIndex];
}

const IgmpHost::HostInterface*
IgmpHost::FindIf(uint32_t ifIndex) const
{
    auto it = m_ifs.find(ifIndex);
    return it == m_ifs.end() ? nullptr : &it->second;
}

bool
IgmpHost::GroupActive(const HostGroup& g)
{
    return g.mode == EXCLUDE || !g.sources.empty();
}

void
IgmpHost::SetOwnerFilter(uint32_t ifIndex,
                         uintptr_t owner,
                         Ipv4Address group,
                         FilterMode mode,
                         const std::vector<Ipv4Address>& sources)
{
    NS_LOG_FUNCTION(this << ifIndex << owner << group << +mode << sources.size());
    NS_ABORT_MSG_IF(!group.IsMulticast(),
                    "IgmpL4Protocol: " << group << " is not a multicast group address");
    NS_ABORT_MSG_IF(!m_l4.m_ipv4 || ifIndex >= m_l4.m_ipv4->GetNInterfaces(),
                    "IgmpL4Protocol: interface index " << ifIndex << " out of range");
    if (group == IgmpL4Protocol::ALL_SYSTEMS)
    {
        return; // always joined, never reported (RFC 2236 section 6)
    }
    HostInterface& itf = GetIf(ifIndex);
    HostGroup& g = itf.groups[group];
    const FilterMode oldMode = g.mode;
    const std::set<Ipv4Address> oldSources = g.sources;
    if (mode == INCLUDE && sources.empty())
    {
        g.owners.erase(owner);
    }
    else
    {
        g.owners[owner] = {mode, std::set<Ipv4Address>(sources.begin(), sources.end())};
    }
    // Merge (RFC 3376 section 3.2).
    bool anyExclude = false;
    std::set<Ipv4Address> inclUnion;
    std::set<Ipv4Address> exclInter;
    bool firstExcl = true;
    for (const auto& [o, f] : g.owners)
    {
        if (f.first == EXCLUDE)
        {
            anyExclude = true;
            exclInter = firstExcl ? f.second : igmp::Inter(exclInter, f.second);
            firstExcl = false;
        }
        else
        {
            inclUnion.insert(f.second.begin(), f.second.end());
        }
    }
    g.mode = anyExclude ? EXCLUDE : INCLUDE;
    g.sources = anyExclude ? igmp::Minus(exclInter, inclUnion) : inclUnion;
    if (g.mode != oldMode || g.sources != oldSources)
    {
        StateChanged(ifIndex, group, oldMode, oldSources);
    }
    MaybeEraseGroup(ifIndex, group);
}

void
IgmpHost::RemoveOwner(uintptr_t owner)
{
    NS_LOG_FUNCTION(this << owner);
    std::vector<std::pair<uint32_t, Ipv4Address>> todo;
    for (const auto& [i, itf] : m_ifs)
    {
        for (const auto& [g, hg] : itf.groups)
        {
            if (hg.owners.count(owner))
            {
                todo.emplace_back(i, g);
            }
        }
    }
    for (const auto& [i, g] : todo)
    {
        SetOwnerFilter(i, owner, g, INCLUDE, {});
    }
}

bool
IgmpHost::IsMember(uint32_t ifIndex, Ipv4Address group, Ipv4Address source) const
{
    if (group == IgmpL4Protocol::ALL_SYSTEMS)
    {
        return true;
    }
    const HostInterface* itf = FindIf(ifIndex);
    if (!itf)
    {
        return false;
    }
    auto it = itf->groups.find(group);
    if (it == itf->groups.end() || !GroupActive(it->second))
    {
        return false;
    }
    if (source == Ipv4Address::GetAny())
    {
        return true;
    }
    const bool listed = it->second.sources.count(source) > 0;
    return it->second.mode == INCLUDE ? listed : !listed;
}

IgmpL4Protocol::HostState
IgmpHost::GetState(uint32_t ifIndex, Ipv4Address group) const
{
    const HostInterface* itf = FindIf(ifIndex);
    if (!itf)
    {
        return NON_MEMBER;
    }
    auto it = itf->groups.find(group);
    return it == itf->groups.end() ? NON_MEMBER : it->second.v2State;
}

IgmpHost::HostGroup*
IgmpHost::FindGroup(uint32_t ifIndex, Ipv4Address group)
{
    HostInterface& itf = GetIf(ifIndex);
    auto it = itf.groups.find(group);
    return it == itf.groups.end() ? nullptr : &it->second;
}

void
IgmpHost::MaybeEraseGroup(uint32_t ifIndex, Ipv4Address group)
{
    HostGroup* found = FindGroup(ifIndex, group);
    if (!found)
    {
        return;
    }
    HostGroup& g = *found;
    if (g.owners.empty() && !GroupActive(g) && g.change.filterModeRetrans == 0
        && g.change.allow.empty() && g.change.block.empty() && !g.reportTimer.IsPending())
    {
        GetIf(ifIndex).groups.erase(group);
    }
}

void
IgmpHost::SetV2State(uint32_t ifIndex, Ipv4Address group, HostGroup& g, HostState s)
{
    if (g.v2State != s)
    {
        NS_LOG_LOGIC("if " << ifIndex << " group " << group << " host state " << +g.v2State
                           << " -> " << +s);
        g.v2State = s;
        m_l4.m_hostStateTrace(ifIndex, group, s);
    }
}

void
IgmpHost::StateChanged(uint32_t ifIndex,
                       Ipv4Address group,
                       FilterMode oldMode,
                       const std::set<Ipv4Address>& oldSources)
{
    HostInterface& itf = GetIf(ifIndex);
    HostGroup& g = itf.groups[group];
    const bool wasActive = oldMode == EXCLUDE || !oldSources.empty();
    const bool active = GroupActive(g);
    NS_LOG_FUNCTION(this << ifIndex << group << wasActive << active);
    if (GetCompatibilityMode(ifIndex) < 3)
    {
        // RFC 3376 7.2.1: only joins and leaves are visible to v1/v2 queriers.
        if (!wasActive && active)
        {
            V2Join(ifIndex, group);
        }
        else if (wasActive && !active)
        {
            V2Leave(ifIndex, group);
        }
        return;
    }
    // IGMPv3 state-change records (RFC 3376 section 5.1).
    PendingChange& c = g.change;
    if (g.mode != oldMode)
    {
        c.filterModeRetrans = m_l4.m_robustness;
        c.allow.clear();
        c.block.clear();
    }
    else if (c.filterModeRetrans > 0)
    {
        c.filterModeRetrans = m_l4.m_robustness; // the pending TO_xx record carries the new state
    }
    else
    {
        std::set<Ipv4Address> allow;
        std::set<Ipv4Address> block;
        if (g.mode == INCLUDE)
        {
            allow = igmp::Minus(g.sources, oldSources);
            block = igmp::Minus(oldSources, g.sources);
        }
        else
        {
            allow = igmp::Minus(oldSources, g.sources);
            block = igmp::Minus(g.sources, oldSources);
        }
        for (const auto& s : allow)
        {
            c.allow[s] = m_l4.m_robustness;
            c.block.erase(s);
        }
        for (const auto& s : block)
        {
            c.block[s] = m_l4.m_robustness;
            c.allow.erase(s);
        }
    }
    m_l4.m_hostStateTrace(ifIndex, group, active ? IDLE_MEMBER : NON_MEMBER);
    g.v2State = active ? IDLE_MEMBER : NON_MEMBER;
    if (!active)
    {
        // A pending query response for a group we left is void.
        g.reportTimer.Cancel();
        g.pendingGroupQuery = false;
        g.querySources.clear();
    }
    // Send now; retransmissions follow at random delays.
    itf.stateChangeTimer.Cancel();
    StateChangeTimer(ifIndex);
}

void
IgmpHost::StateChangeTimer(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    HostInterface& itf = GetIf(ifIndex);
    std::vector<IgmpGroupRecord> records;
    bool more = false;
    std::vector<Ipv4Address> done;
    for (auto& [group, g] : itf.groups)
    {
        PendingChange& c = g.change;
        if (c.filterModeRetrans > 0)
        {
            IgmpGroupRecord r;
            r.type = g.mode == INCLUDE ? IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE
                                       : IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE;
            r.group = group;
            r.sources.assign(g.sources.begin(), g.sources.end());
            records.push_back(std::move(r));
            --c.filterModeRetrans;
        }
        else
        {
            for (auto* list : {&c.allow, &c.block})
            {
                if (list->empty())
                {
                    continue;
                }
                IgmpGroupRecord r;
                r.type = list == &c.allow ? IgmpGroupRecord::ALLOW_NEW_SOURCES
                                          : IgmpGroupRecord::BLOCK_OLD_SOURCES;
                r.group = group;
                for (auto it = list->begin(); it != list->end();)
                {
                    r.sources.push_back(it->first);
                    if (--it->second == 0)
                    {
                        it = list->erase(it);
                    }
                    else
                    {
                        ++it;
                    }
                }
                records.push_back(std::move(r));
            }
        }
        if (c.filterModeRetrans > 0 || !c.allow.empty() || !c.block.empty())
        {
            more = true;
        }
        else
        {
            done.push_back(group);
        }
    }
    m_l4.SendV3Records(ifIndex, records);
    for (const auto& group : done)
    {
        MaybeEraseGroup(ifIndex, group);
    }
    if (more)
    {
        itf.stateChangeTimer = Simulator::Schedule(m_l4.RandomDelay(m_l4.m_unsolicitedV3),
                                                   &IgmpHost::StateChangeTimer,
                                                   this,
                                                   ifIndex);
    }
}

void
IgmpHost::V2Report(uint32_t ifIndex, Ipv4Address group)
{
    const uint8_t mode = GetCompatibilityMode(ifIndex);
    m_l4.SendMessage(ifIndex,
                     group,
                     IgmpHeader::MakeV2Message(mode == 1 ? IgmpHeader::V1_MEMBERSHIP_REPORT
                                                         : IgmpHeader::V2_MEMBERSHIP_REPORT,
                                               group));
}

void
IgmpHost::V2Join(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    HostGroup& g = GetIf(ifIndex).groups[group];
    // RFC 2236 6: "join group": send report, set flag, start timer (the report is repeated
    // [Robustness Variable] - 1 times after random delays within the Unsolicited Report Interval).
    V2Report(ifIndex, group);
    g.lastReporter = true;
    g.unsolicitedLeft = m_l4.m_robustness - 1;
    g.reportTimer.Cancel();
    if (g.unsolicitedLeft > 0)
    {
        g.reportTimer = Simulator::Schedule(m_l4.RandomDelay(UnsolicitedInterval(ifIndex)),
                                            &IgmpHost::V2TimerExpired,
                                            this,
                                            ifIndex,
                                            group);
        SetV2State(ifIndex, group, g, DELAYING_MEMBER);
    }
    else
    {
        SetV2State(ifIndex, group, g, IDLE_MEMBER);
    }
}

void
IgmpHost::V2TimerExpired(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    HostGroup* found = FindGroup(ifIndex, group);
    if (!found)
    {
        return;
    }
    HostGroup& g = *found;
    // RFC 2236 6: "timer expired": send report, set flag -> Idle Member.
    V2Report(ifIndex, group);
    g.lastReporter = true;
    if (g.unsolicitedLeft > 0)
    {
        --g.unsolicitedLeft;
    }
    if (g.unsolicitedLeft > 0)
    {
        g.reportTimer = Simulator::Schedule(m_l4.RandomDelay(UnsolicitedInterval(ifIndex)),
                                            &IgmpHost::V2TimerExpired,
                                            this,
                                            ifIndex,
                                            group);
    }
    else
    {
        SetV2State(ifIndex, group, g, IDLE_MEMBER);
    }
}

void
IgmpHost::V2Leave(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    HostGroup& g = GetIf(ifIndex).groups[group];
    g.reportTimer.Cancel();
    g.unsolicitedLeft = 0;
    // RFC 2236 6: "leave group": send leave if flag set (not to an IGMPv1 querier).
    if (g.lastReporter && GetCompatibilityMode(ifIndex) == 2)
    {
        m_l4.SendMessage(ifIndex,
                         IgmpL4Protocol::ALL_ROUTERS,
                         IgmpHeader::MakeV2Message(IgmpHeader::V2_LEAVE_GROUP, group));
    }
    g.lastReporter = false;
    SetV2State(ifIndex, group, g, NON_MEMBER);
}

void
IgmpHost::ReceiveQuery(uint32_t ifIndex, const IgmpHeader& q)
{
    HostInterface& itf = GetIf(ifIndex);
    const Time now = Simulator::Now();
    const uint8_t before = GetCompatibilityMode(ifIndex);
    const uint8_t qv = q.GetQueryVersion();
    if (qv == 1)
    {
        itf.v1QuerierUntil = now + m_l4.GetOlderVersionQuerierPresentTimeout();
    }
    else if (qv == 2)
    {
        itf.v2QuerierUntil = now + m_l4.GetOlderVersionQuerierPresentTimeout();
    }
    const uint8_t mode = GetCompatibilityMode(ifIndex);
    if (before == 3 && mode < 3)
    {
        // RFC 3376 7.2.1: cancel pending v3 responses and retransmissions on the switch.
        NS_LOG_LOGIC("if " << ifIndex << " host compatibility mode 3 -> " << +mode);
        itf.generalResponse.Cancel();
        itf.stateChangeTimer.Cancel();
        for (auto& [group, g] : itf.groups)
        {
            g.reportTimer.Cancel();
            g.pendingGroupQuery = false;
            g.querySources.clear();
            g.change = PendingChange();
            g.lastReporter = GroupActive(g);
            g.v2State = GroupActive(g) ? IDLE_MEMBER : NON_MEMBER;
        }
    }
    const Ipv4Address group = q.GetGroup();
    const Time maxResp = q.GetMaxRespTime();
    if (mode < 3)
    {
        // RFC 2236 6: "query received": start (or shorten) the report timer of each matching
        // active group.
        for (auto& [gaddr, g] : itf.groups)
        {
            if (!GroupActive(g) || (group != Ipv4Address::GetAny() && group != gaddr))
            {
                continue;
            }
            const bool running = g.reportTimer.IsPending();
            if (running && Simulator::GetDelayLeft(g.reportTimer) <= maxResp)
            {
                continue;
            }
            g.reportTimer.Cancel();
            g.unsolicitedLeft = 0;
            g.reportTimer = Simulator::Schedule(m_l4.RandomDelay(maxResp),
                                                &IgmpHost::V2TimerExpired,
                                                this,
                                                ifIndex,
                                                gaddr);
            SetV2State(ifIndex, gaddr, g, DELAYING_MEMBER);
        }
        return;
    }
    // IGMPv3 (RFC 3376 5.2): schedule the response.
    const Time delay = m_l4.RandomDelay(maxResp);
    // Rule 1: a pending general response that is sooner covers this query.
    if (itf.generalResponse.IsPending() && Simulator::GetDelayLeft(itf.generalResponse) < delay)
    {
        return;
    }
    if (group == Ipv4Address::GetAny())
    {
        // Rule 2.
        itf.generalResponse.Cancel();
        itf.generalResponse = Simulator::Schedule(delay, &IgmpHost::GeneralResponse, this, ifIndex);
        return;
    }
    auto it = itf.groups.find(group);
    if (it == itf.groups.end() || !GroupActive(it->second))
    {
        return;
    }
    HostGroup& g = it->second;
    const auto& qs = q.GetSources();
    if (!g.pendingGroupQuery)
    {
        // Rule 3.
        g.pendingGroupQuery = true;
        g.querySources = std::set<Ipv4Address>(qs.begin(), qs.end());
        g.reportTimer.Cancel();
        g.reportTimer = Simulator::Schedule(delay, &IgmpHost::GroupResponse, this, ifIndex, group);
        return;
    }
    // Rules 4 and 5.
    if (qs.empty() || g.querySources.empty())
    {
        g.querySources.clear();
    }
    else
    {
        g.querySources.insert(qs.begin(), qs.end());
    }
    const Time left = Simulator::GetDelayLeft(g.reportTimer);
    if (delay < left)
    {
        g.reportTimer.Cancel();
        g.reportTimer = Simulator::Schedule(delay, &IgmpHost::GroupResponse, this, ifIndex, group);
    }
}

void
IgmpHost::GeneralResponse(uint32_t ifIndex)
{
    NS_LOG_FUNCTION(this << ifIndex);
    HostInterface& itf = GetIf(ifIndex);
    std::vector<IgmpGroupRecord> records;
    for (const auto& [group, g] : itf.groups)
    {
        if (!GroupActive(g))
        {
            continue;
        }
        IgmpGroupRecord r;
        r.type = g.mode == INCLUDE ? IgmpGroupRecord::MODE_IS_INCLUDE
                                   : IgmpGroupRecord::MODE_IS_EXCLUDE;
        r.group = group;
        r.sources.assign(g.sources.begin(), g.sources.end());
        records.push_back(std::move(r));
    }
    m_l4.SendV3Records(ifIndex, records);
}

void
IgmpHost::GroupResponse(uint32_t ifIndex, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << ifIndex << group);
    HostGroup* found = FindGroup(ifIndex, group);
    if (!found)
    {
        return;
    }
    HostGroup& g = *found;
    g.pendingGroupQuery = false;
    IgmpGroupRecord r;
    r.group = group;
    if (g.querySources.empty())
    {
        r.type = g.mode == INCLUDE ? IgmpGroupRecord::MODE_IS_INCLUDE
                                   : IgmpGroupRecord::MODE_IS_EXCLUDE;
        r.sources.assign(g.sources.begin(), g.sources.end());
    }
    else
    {
        r.type = IgmpGroupRecord::MODE_IS_INCLUDE;
        auto s = g.mode == INCLUDE ? igmp::Inter(g.sources, g.querySources)
                                   : igmp::Minus(g.querySources, g.sources);
        r.sources.assign(s.begin(), s.end());
        g.querySources.clear();
        if (r.sources.empty())
        {
            return; // RFC 3376 5.2: no response if the computed set is empty
        }
    }
    if (!GroupActive(g))
    {
        return;
    }
    m_l4.SendV3Records(ifIndex, {r});
}

void
IgmpHost::ReceiveReport(uint32_t ifIndex, Ipv4Address group)
{
    HostInterface& itf = GetIf(ifIndex);
    auto it = itf.groups.find(group);
    if (it == itf.groups.end() || GetCompatibilityMode(ifIndex) == 3)
    {
        return; // IGMPv3 hosts do not suppress (RFC 3376 section 5.2)
    }
    HostGroup& g = it->second;
    if (g.v2State == DELAYING_MEMBER)
    {
        // RFC 2236 6: "report received" in Delaying Member: stop timer, clear flag.
        NS_LOG_LOGIC("if " << ifIndex << " group " << group << ": report suppressed");
        g.reportTimer.Cancel();
        g.unsolicitedLeft = 0;
        g.lastReporter = false;
        ++m_l4.m_stats.suppressed;
        SetV2State(ifIndex, group, g, IDLE_MEMBER);
    }
}

uint8_t
IgmpHost::GetCompatibilityMode(uint32_t ifIndex) const
{
    const HostInterface* itf = FindIf(ifIndex);
    const Time now = Simulator::Now();
    if (itf && itf->v1QuerierUntil > now)
    {
        return 1;
    }
    if (m_l4.m_version == 2 || (itf && itf->v2QuerierUntil > now))
    {
        return 2;
    }
    return 3;
}

Time
IgmpHost::UnsolicitedInterval(uint32_t ifIndex) const
{
    return GetCompatibilityMode(ifIndex) == 3 ? m_l4.m_unsolicitedV3 : m_l4.m_unsolicitedV2;
}

} // namespace ns3
