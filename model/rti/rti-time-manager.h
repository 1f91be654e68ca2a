/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_TIME_MANAGER_H
#define TESTBED_RTI_TIME_MANAGER_H

#include "rti-types.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup testbed-rti
 * IEEE 1516 time management rules: output bounds, GALT and grant conditions.
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief The time-management state of federates and the IEEE 1516 grant rules.
 *
 * Pure logic, no simulation: the CRC uses it for the whole federation (central GALT), a local
 * RTI component for its own federate with the other federates' bounds from null messages.
 *
 * Rules (IEEE 1516-2000/2010 chapter 8):
 *
 * - A regulating federate F with lookahead L may send TSO messages with timestamps of at least
 *   its output bound: T + L when granted at T, t + L while requesting TAR/TARA(t), and
 *   min(t, its earliest pending TSO message, GALT_F) + L while requesting NER/NERA(t) (it may be
 *   granted at the time of a message it has yet to receive, which no one can send before
 *   GALT_F). With L = 0 the bound is open (timestamps must exceed it) after or during a TAR or
 *   NER, closed after or during TARA/NERA.
 * - GALT_F is the smallest output bound of the other regulating federates (+infinity if none).
 * - A constrained federate's TAR(t) is granted t when no message with timestamp <= t can still
 *   come (GALT_F > t); TARA(t) when none with timestamp < t can (GALT_F >= t). NER(t) is granted
 *   at t' = min(t, earliest pending TSO message) when GALT_F > t'; NERA(t) when GALT_F >= t'.
 *   Every pending TSO message with timestamp <= t' is delivered before the grant. A federate
 *   that is not constrained is granted at once (NER/NERA at t).
 *
 * - modifyLookahead (not while advancing): an increase takes effect at once; a reduction from L
 *   to L' at logical time T takes effect only as the federate's time advances (IEEE 1516.1-2000
 *   8.19: the "actual lookahead" is max(L', L - (t - T))), so the output bound never falls below
 *   T + L, on which others may already have been granted: the bound is max(t + L', T + L).
 *
 * The central computation of all output bounds is a greatest fixed point (NER bounds depend on
 * GALT, which depends on the others' bounds): it starts from the bounds without the GALT term and
 * relaxes them like Bellman-Ford shortest paths (lookaheads are the edge weights), which ends in at
 * most N rounds. A cycle of zero-lookahead NER federates thus resolves to the smallest next
 * message time instead of deadlocking.
 */
class RtiTimeManager
{
  public:
    /** One federate's time state. */
    struct State
    {
        bool regulating{false};                //!< time-regulating
        bool constrained{false};               //!< time-constrained
        LogicalTime time{0};                   //!< logical time (last grant)
        LogicalTime lookahead{0};              //!< lookahead (regulating)
        bool advancing{false};                 //!< a time advance is pending
        AdvanceKind kind{AdvanceKind::TAR};    //!< the pending advance service
        LogicalTime requested{0};              //!< its requested time
        bool lastGrantAvailable{false};        //!< the last grant answered TARA/NERA
        std::multiset<LogicalTime> pendingTso; //!< timestamps of undelivered TSO messages to it
        /** Timestamps of TSO messages sent to it that it has not noted as read yet (the
         *  direct path's notes to the Fedex; the CRC's TsoBookkeeping ReadNotes); no grant at or
         *  past the least of them. */
        std::multiset<LogicalTime> unread;
        bool hasFloor{false}; //!< a lookahead reduction has not fully taken effect yet
        TimeBound floor;      //!< the output bound promised before that reduction
    };

    /** A grant: federate and time. */
    typedef std::pair<FederateHandle, LogicalTime> Grant;

    /**
     * @brief Output bound of a regulating federate.
     * @param s its state
     * @param galt its GALT (only used while it requests NER/NERA)
     * @return the bound
     */
    static TimeBound OutputBound(const State& s, const TimeBound& galt);

    /**
     * @brief Change the lookahead of a federate that is not advancing: an increase at once, a
     * reduction only as its logical time advances (the bound it had is kept as a floor).
     * @param s its state (not advancing)
     * @param lookahead the new lookahead (>= 0)
     */
    static void ModifyLookahead(State& s, LogicalTime lookahead);

    /**
     * @brief Whether an advancing federate can be granted now, and at which time.
     * @param s its state (advancing)
     * @param galt its GALT
     * @param[out] grant the grant time if it can
     * @return true if it can be granted
     */
    static bool CanGrant(const State& s, const TimeBound& galt, LogicalTime* grant);

    /**
     * @brief Apply a grant to a state: time, advancing flag, delivered TSO timestamps.
     * @param s the state
     * @param t the grant time
     */
    static void ApplyGrant(State& s, LogicalTime t);

    /**
     * @brief The federate has read a TSO message stamped t: one of its unread stamps t goes.
     * @param s the state
     * @param t the message's timestamp
     * @return false if no unread stamp t was held (the note came before the message's record)
     */
    static bool NoteRead(State& s, LogicalTime t);

    /**
     * @brief The state of a federate (created on first use).
     * @param f federate handle
     * @return its state
     */
    State& Get(FederateHandle f);

    /**
     * @brief Whether a federate has a state.
     * @param f federate handle
     * @return true if known
     */
    bool Has(FederateHandle f) const;

    /**
     * @brief Forget a federate (resigned).
     * @param f federate handle
     */
    void Remove(FederateHandle f);

    /** @return number of federates that are regulating or constrained */
    uint32_t GetNManaged() const;

    /**
     * @brief Output bounds of every regulating federate (greatest fixed point).
     * @return federate -> bound
     */
    std::map<FederateHandle, TimeBound> ComputeBounds() const;

    /**
     * @brief GALT of a federate given all bounds.
     * @tparam Bounds a range of (federate, bound) pairs: the map of ComputeBounds or a list
     * @param f the federate
     * @param bounds the regulating federates' bounds
     * @return the smallest bound of the others (+infinity if none)
     */
    template<class Bounds>
    static TimeBound Galt(FederateHandle f, const Bounds& bounds)
    {
        TimeBound g;
        for (const auto& [r, b] : bounds)
        {
            if (r != f && b < g)
            {
                g = b;
            }
        }
        return g;
    }

    /**
     * @brief Grant every advancing federate that can be granted, and apply the grants.
     * @return the grants made, in federate order
     */
    std::vector<Grant> Grants();

    /**
     * @brief The largest logical time among constrained federates (-infinity if none), for the
     * start time of a new regulator.
     * @return the time
     */
    LogicalTime MaxConstrainedTime() const;

  private:
    /** Bounds of the regulating federates, in federate order. */
    typedef std::vector<std::pair<FederateHandle, TimeBound>> BoundList;

    /**
     * What ComputeBounds computes, into a list.
     * @param bounds the list (replaced)
     */
    void ComputeBoundList(BoundList& bounds) const;

    std::map<FederateHandle, State> m_states; //!< states by federate
    BoundList m_bounds;                       //!< scratch list of Grants
};

} // namespace ns3

#endif /* TESTBED_RTI_TIME_MANAGER_H */
