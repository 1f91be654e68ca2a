/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_IGMP_TIMERS_H
#define TESTBED_IGMP_TIMERS_H

#include "ns3/nstime.h"

#include <cstdint>

/**
 * @file
 * @ingroup testbed-multicast
 * The IGMP timers and variables of RFC 3376 section 8 (RFC 2236 section 8 for IGMPv2).
 */

namespace ns3
{

/**
 * @ingroup testbed-multicast
 * @brief The protocol variables of IGMP (RFC 3376 section 8, RFC 2236 section 8) in one value:
 * what a querier, its hosts and a snooping switch must agree on.
 *
 * Default construction gives the RFCs' defaults. The derived intervals are computed from the
 * variables by the RFCs' formulas, so the querier (IgmpL4Protocol), the hosts and the snooping
 * switch (SnoopingBridgeNetDevice) that are given one IgmpTimers agree by construction.
 * Scaled() shrinks every interval for quick runs.
 */
struct IgmpTimers
{
    /** Robustness Variable (RFC 3376 8.1, RFC 2236 8.1): 2. */
    uint32_t robustness{2};
    /** Query Interval (8.2): 125 s. */
    Time queryInterval{Seconds(125)};
    /** Query Response Interval (8.3): 10 s. */
    Time queryResponseInterval{Seconds(10)};
    /** Startup Query Interval (8.6): 0 = the default, 1/4 of the Query Interval. */
    Time startupQueryInterval{Seconds(0)};
    /** Startup Query Count (8.7): 0 = the default, the Robustness Variable. */
    uint32_t startupQueryCount{0};
    /** Last Member Query Interval (8.8): 1 s. */
    Time lastMemberQueryInterval{Seconds(1)};
    /** Last Member Query Count (8.9): 0 = the default, the Robustness Variable. */
    uint32_t lastMemberQueryCount{0};
    /** Unsolicited Report Interval of IGMPv1/v2 hosts (RFC 2236 8.10): 10 s. */
    Time unsolicitedReportIntervalV2{Seconds(10)};
    /** Unsolicited Report Interval of IGMPv3 hosts (RFC 3376 8.11): 1 s. */
    Time unsolicitedReportIntervalV3{Seconds(1)};

    /** @return Group Membership Interval (8.4) = Robustness * QI + QRI */
    Time GroupMembershipInterval() const;
    /** @return Other Querier Present Interval (8.5) = Robustness * QI + QRI / 2 */
    Time OtherQuerierPresentInterval() const;
    /** @return the Startup Query Interval in effect (QI / 4 unless set) */
    Time StartupQueryInterval() const;
    /** @return the Startup Query Count in effect (Robustness unless set) */
    uint32_t StartupQueryCount() const;
    /** @return the Last Member Query Count in effect (Robustness unless set) */
    uint32_t LastMemberQueryCount() const;
    /** @return Last Member Query Time (RFC 3376 8.14) = LMQC * LMQI */
    Time LastMemberQueryTime() const;
    /** @return Older Version Querier Present Timeout (8.12) = Robustness * QI + QRI */
    Time OlderVersionQuerierPresentTimeout() const;
    /** @return Older Host Present Interval (8.13) = Robustness * QI + QRI */
    Time OlderHostPresentInterval() const;

    /**
     * @brief The same variables with every interval multiplied by @p factor (a quick run of a
     * protocol whose timers are minutes long). The Last Member Query Interval stays at least
     * 100 ms: queries carry it as a Max Resp Code in tenths of a second (RFC 2236 2.2).
     * @param factor the factor (> 0)
     * @return the scaled timers
     */
    IgmpTimers Scaled(double factor) const;
};

} // namespace ns3

#endif /* TESTBED_IGMP_TIMERS_H */
