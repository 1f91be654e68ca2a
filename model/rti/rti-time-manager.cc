/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-time-manager.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiTimeManager");

namespace
{
/**
 * The bound of a state without its floor.
 * @param s the state
 * @param galt its GALT
 * @return the bound
 */
TimeBound
BoundWithoutFloor(const RtiTimeManager::State& s, const TimeBound& galt)
{
    TimeBound b;
    if (!s.advancing)
    {
        b.t = s.time + s.lookahead;
        b.open = s.lookahead == 0 && !s.lastGrantAvailable;
        return b;
    }
    if (!IsNextMessage(s.kind))
    {
        b.t = s.requested + s.lookahead;
        b.open = s.lookahead == 0 && s.kind == AdvanceKind::TAR;
        return b;
    }
    // NER/NERA: the earliest time it may be granted: its request, its earliest pending message,
    // or a message yet to come (not before GALT; only if it waits for GALT at all).
    TimeBound m{s.requested, false};
    if (!s.pendingTso.empty() && *s.pendingTso.begin() < m.t)
    {
        m = TimeBound{*s.pendingTso.begin(), false};
    }
    if (s.constrained && galt < m)
    {
        m = galt;
    }
    b.t = m.t + s.lookahead;
    b.open = m.open || (s.lookahead == 0 && s.kind == AdvanceKind::NER);
    return b;
}
} // namespace

TimeBound
RtiTimeManager::OutputBound(const State& s, const TimeBound& galt)
{
    TimeBound b = BoundWithoutFloor(s, galt);
    // A lookahead reduction does not lower a bound others may have been granted on.
    return (s.hasFloor && b < s.floor) ? s.floor : b;
}

void
RtiTimeManager::ModifyLookahead(State& s, LogicalTime lookahead)
{
    NS_ASSERT_MSG(!s.advancing, "modifyLookahead while advancing");
    TimeBound before = OutputBound(s, TimeBound());
    s.lookahead = lookahead;
    if (BoundWithoutFloor(s, TimeBound()) < before)
    {
        s.hasFloor = true;
        s.floor = before;
    }
    else
    {
        s.hasFloor = false; // an increase (or no change) takes effect at once
    }
}

bool
RtiTimeManager::CanGrant(const State& s, const TimeBound& galt, LogicalTime* grant)
{
    if (!s.advancing)
    {
        return false;
    }
    LogicalTime t = s.requested;
    if (IsNextMessage(s.kind) && !s.pendingTso.empty())
    {
        t = std::min(t, *s.pendingTso.begin());
    }
    // A TSO message stamped at or before the grant that the federate has not read yet (the
    // direct path's notes to the Fedex, the CRC's ReadNotes): wait for it.
    auto read = [&s](LogicalTime g) {
        return s.unread.empty() || *s.unread.begin() > g;
    };
    if (!s.constrained)
    {
        *grant = s.requested; // nothing is delivered in timestamp order to it
        return read(s.requested);
    }
    bool ok = (IsAvailable(s.kind) ? galt.t >= t : !galt.Allows(t)) && read(t);
    if (ok)
    {
        *grant = t;
    }
    return ok;
}

bool
RtiTimeManager::NoteRead(State& s, LogicalTime t)
{
    auto it = s.unread.find(t);
    if (it == s.unread.end())
    {
        return false;
    }
    s.unread.erase(it);
    return true;
}

void
RtiTimeManager::ApplyGrant(State& s, LogicalTime t)
{
    s.advancing = false;
    s.time = t;
    s.lastGrantAvailable = IsAvailable(s.kind);
    s.pendingTso.erase(s.pendingTso.begin(), s.pendingTso.upper_bound(t));
    if (s.hasFloor && !(BoundWithoutFloor(s, TimeBound()) < s.floor))
    {
        s.hasFloor = false; // the reduction has fully taken effect
    }
}

RtiTimeManager::State&
RtiTimeManager::Get(FederateHandle f)
{
    return m_states[f];
}

bool
RtiTimeManager::Has(FederateHandle f) const
{
    return m_states.count(f) > 0;
}

void
RtiTimeManager::Remove(FederateHandle f)
{
    m_states.erase(f);
}

uint32_t
RtiTimeManager::GetNManaged() const
{
    uint32_t n = 0;
    for (const auto& [f, s] : m_states)
    {
        n += (s.regulating || s.constrained) ? 1 : 0;
    }
    return n;
}

void
RtiTimeManager::ComputeBoundList(BoundList& bounds) const
{
    bounds.clear();
    const TimeBound inf;
    for (const auto& [f, s] : m_states)
    {
        if (s.regulating)
        {
            bounds.emplace_back(f, OutputBound(s, inf));
        }
    }
    // Relax the NER bounds with GALT until nothing changes (at most N rounds: every bound is the
    // least over chains of federates of a base bound plus their lookaheads).
    for (uint32_t round = 0; round <= bounds.size(); ++round)
    {
        bool changed = false;
        std::size_t k = 0; // the federate's entry: the list is in the order of m_states
        for (const auto& [f, s] : m_states)
        {
            if (!s.regulating)
            {
                continue;
            }
            std::pair<FederateHandle, TimeBound>& entry = bounds[k++];
            if (!s.advancing || !IsNextMessage(s.kind) || !s.constrained)
            {
                continue;
            }
            TimeBound b = OutputBound(s, Galt(f, bounds));
            if (b < entry.second)
            {
                entry.second = b;
                changed = true;
            }
        }
        if (!changed)
        {
            break;
        }
    }
}

std::map<FederateHandle, TimeBound>
RtiTimeManager::ComputeBounds() const
{
    BoundList list;
    ComputeBoundList(list);
    return std::map<FederateHandle, TimeBound>(list.begin(), list.end());
}

std::vector<RtiTimeManager::Grant>
RtiTimeManager::Grants()
{
    std::vector<Grant> grants;
    // A grant never lowers its federate's bound (it is granted at the time its bound already
    // assumed), so one pass over the federates finds every grant.
    ComputeBoundList(m_bounds);
    // GALT of a federate is the least bound of the others: the least bound of all, except for
    // the federate that holds it, whose GALT is the second least (equal bounds are equal values).
    TimeBound least;
    TimeBound second;
    FederateHandle holder = 0;
    bool held = false;
    for (const auto& [r, b] : m_bounds)
    {
        if (b < least)
        {
            second = least;
            least = b;
            holder = r;
            held = true;
        }
        else if (b < second)
        {
            second = b;
        }
    }
    for (auto& [f, s] : m_states)
    {
        LogicalTime t;
        if (CanGrant(s, (held && f == holder) ? second : least, &t))
        {
            ApplyGrant(s, t);
            grants.emplace_back(f, t);
        }
    }
    return grants;
}

LogicalTime
RtiTimeManager::MaxConstrainedTime() const
{
    LogicalTime t = -std::numeric_limits<double>::infinity();
    for (const auto& [f, s] : m_states)
    {
        if (s.constrained)
        {
            t = std::max(t, s.time);
        }
    }
    return t;
}

} // namespace ns3
