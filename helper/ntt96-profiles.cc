/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ntt96-profiles.h"

#include "ns3/profile.h"

namespace ns3
{

namespace
{

/** The profiles, in Profile's text format; every number is discussed in doc/ntt.rst. */
const char* const g_ntt96Profiles = R"(
# ---------------------------------------------------------------------------------------------
# [NTT96]'s sending and receiving computers (make not given): a mid-1990s workstation, 100 MHz
# single CPU (SuperSPARC / Pentium / Alpha class), a 4.4BSD-derived kernel (hz = 100), an FDDI
# or Ethernet adapter with a non-polling driver.
[host ws1995-bsd44]
description = mid-1990s 100 MHz workstation, 4.4BSD-derived stack (hz=100); NTT96 sending and receiving computers
# Context switch of a few tens of microseconds on the era's RISC workstations (lmbench lat_ctx,
# McVoy and Staelin 1996: 10-70 us): 5 000 cycles = 50 us.
HostPlatform.Cpu = ns3::HostCpu[Frequency=100e6|Cores=1|ContextSwitchCost=5000]
# BSD's callout wheel runs on the 100 Hz clock: a sleep ends on a tick.
HostPlatform.Timer = ns3::TickTimer[Frequency=100|ExtraTicks=1]
# Wake-up of a blocked process: a few tens of microseconds (the context switch is charged apart).
HostPlatform.SchedulingLatency = ns3::ExponentialRandomVariable[Mean=20e-6|Bound=5e-4]
# Per-packet protocol processing (socket layer, TCP or UDP, IP, driver) of some 1 000 to 2 000
# instructions (Clark, Jacobson, Romkey, Salwen 1989; Kay and Pasquale 1993 measured 100-200 us
# of non-data-touching overhead per packet on 20-25 MHz workstations), and data-touching costs
# (user copy and checksum) of a few cycles a byte at the era's 30-50 MB/s memory bandwidth.
HostPlatform.SendCost = 10000
HostPlatform.SendCostPerByte = 3
HostPlatform.RecvCost = 6000
HostPlatform.RecvCostPerByte = 2
HostNic.RxRingSize = 64
HostNic.InterruptDelay = 0us
HostNic.InterruptCost = 2000
HostNic.DriverCost = 2000
HostNic.StackCost = 5000
HostNic.StackCostPerByte = 1
HostNic.Napi = false
# BSD's IP input queue (ipintrq) holds IFQ_MAXLEN = 50 packets.
HostNic.BacklogLimit = 50

# ---------------------------------------------------------------------------------------------
# [NTT96]'s general-purpose router (make not given): a route processor of the Cisco AGS+/7000
# generation, a 25 MHz Motorola 68040. Forwarding costs: CacheRouter (doc/router.rst).
[host router1995-m68040]
description = mid-1990s general-purpose router CPU (25 MHz Motorola 68040 route processor); NTT96 router
HostPlatform.Cpu = ns3::HostCpu[Frequency=25e6|Cores=1]
)";

} // namespace

void
Ntt96RegisterProfiles()
{
    if (!Profile::Exists("host", "ws1995-bsd44"))
    {
        Profile::LoadText(g_ntt96Profiles, "ntt96-profiles.cc");
    }
}

} // namespace ns3
