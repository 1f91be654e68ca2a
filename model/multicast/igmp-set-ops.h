/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_IGMP_SET_OPS_H
#define TESTBED_IGMP_SET_OPS_H

#include <algorithm>
#include <iterator>
#include <set>

/**
 * @file
 * @ingroup testbed-multicast
 * The set operations of RFC 3376's tables (A-B, A*B) on source lists.
 */

namespace ns3
{
namespace igmp
{

/**
 * @ingroup testbed-multicast
 * @brief A - B.
 * @param a A
 * @param b B
 * @return the elements of A not in B
 */
template<typename T>
std::set<T>
Minus(const std::set<T>& a, const std::set<T>& b)
{
    std::set<T> r;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.end()));
    return r;
}

/**
 * @ingroup testbed-multicast
 * @brief A * B.
 * @param a A
 * @param b B
 * @return the elements in both
 */
template<typename T>
std::set<T>
Inter(const std::set<T>& a, const std::set<T>& b)
{
    std::set<T> r;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.end()));
    return r;
}

} // namespace igmp
} // namespace ns3

#endif /* TESTBED_IGMP_SET_OPS_H */
