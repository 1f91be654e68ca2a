/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NTT96_PROFILES_H
#define TESTBED_NTT96_PROFILES_H

/**
 * @file
 * @ingroup testbed-router
 * The host profiles of [NTT96]'s machines.
 */

namespace ns3
{

/**
 * @ingroup testbed-router
 * @brief Register the host profiles of [NTT96]'s machines (once; later calls do nothing):
 *
 * - ws1995-bsd44: the sending and receiving computers, a mid-1990s 100 MHz workstation with
 *   a 4.4BSD-derived stack and an FDDI or Ethernet adapter;
 * - router1995-m68040: the general-purpose router's CPU (a 25 MHz Motorola 68040 route
 *   processor); its forwarding costs are CacheRouter attributes.
 *
 * Sources and reasoning: doc/router.rst and doc/ntt.rst.
 */
void Ntt96RegisterProfiles();

} // namespace ns3

#endif /* TESTBED_NTT96_PROFILES_H */
