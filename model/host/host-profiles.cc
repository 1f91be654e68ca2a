/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/profile.h"

/**
 * @file
 * @ingroup testbed-host
 * The built-in host profiles (kind "host": sections HostPlatform and HostNic), as text data.
 */

namespace ns3
{

namespace
{

/**
 * The built-in profiles, in the text format that Profile::LoadText reads. Every number is a
 * physical parameter; the sources and the calibrations are given next to it and in
 * doc/host.rst.
 */
const char* const g_builtinProfiles = R"(
# ---------------------------------------------------------------------------------------------
# A 2006 desktop PC: Pentium 4 class, 3 GHz, Linux 2.6 (HZ=1000, no high-resolution timers),
# 100BASE-TX NIC with a legacy (non-NAPI) driver. The federate PCs of [JAXA06].
[host pc2006-linux26]
description = 2006 desktop PC (Pentium 4 class, 3 GHz), Linux 2.6, 100BASE-TX; JAXA06 federate PCs
# Context switch of a few microseconds (lmbench lat_ctx on P4-class CPUs: 2-5 us).
# No deep idle state: a desktop Pentium 4 under Linux 2.6 idles in HLT (ACPI C1, or C1E on the
# later steppings), whose exit takes on the order of a microsecond; the ACPI C2/C3 states with
# tens of microseconds of exit latency were features of the mobile parts (doc/host.rst).
HostPlatform.Cpu = ns3::HostCpu[Frequency=3e9|Cores=1|ContextSwitchCost=6000]
# Jiffy-based sleeps: first tick after the expiry plus one (Linux 2.6 before hrtimers).
HostPlatform.Timer = ns3::TickTimer[Frequency=1000|ExtraTicks=1]
# Wake-up of a blocked process on an idle machine: tens of microseconds at most.
HostPlatform.SchedulingLatency = ns3::ExponentialRandomVariable[Mean=5e-6|Bound=1e-4]
#@range HostPlatform.SchedulingLatency.Mean 2e-6 20e-6 : an estimate ("tens of microseconds at most" for an idle machine): 2-20 us mean
# Socket send: system call, UDP/TCP, IP and driver transmit; copy and checksum per byte.
HostPlatform.SendCost = 15000
HostPlatform.SendCostPerByte = 2
# Socket read: system call and copy to user space.
HostPlatform.RecvCost = 9000
HostPlatform.RecvCostPerByte = 2
HostNic.RxRingSize = 256
# No receive interrupt coalescing at these packet rates (an idle NIC interrupts at once).
HostNic.InterruptDelay = 0us
HostNic.InterruptCost = 9000
HostNic.DriverCost = 3000
HostNic.StackCost = 15000
HostNic.StackCostPerByte = 1
HostNic.Napi = false

# ---------------------------------------------------------------------------------------------
# The NIST Net emulator PC of [JAXA06]: a Linux 2.4 router PC (NIST Net is a 2.4 kernel module)
# of the same generation, two 100BASE-TX NICs; it forwards in the kernel, no process involved.
[host nistnet-linux24]
description = NIST Net emulator PC (Pentium 4 class, 3 GHz), Linux 2.4 router, two 100BASE-TX NICs
# Same CPU generation as the federate PCs (no deep idle state: see pc2006-linux26).
HostPlatform.Cpu = ns3::HostCpu[Frequency=3e9|Cores=1|ContextSwitchCost=6000]
HostPlatform.Timer = ns3::TickTimer[Frequency=100|ExtraTicks=1]
HostNic.RxRingSize = 256
HostNic.InterruptDelay = 0us
HostNic.InterruptCost = 9000
HostNic.DriverCost = 3000
HostNic.StackCost = 15000
HostNic.StackCostPerByte = 1
HostNic.Napi = false

# ---------------------------------------------------------------------------------------------
# StarBED Group A/B PC of [MEGA06]: Pentium III 1 GHz, 512 MB, Linux 2.6.13 (HZ=250 default,
# no high-resolution timers), e1000-class NIC (1000BASE-T on Group A, 100BASE-T on Group B).
[host starbed-p3-linux2613]
description = StarBED PC (Pentium III 1 GHz, 512 MB), Linux 2.6.13, e1000-class NIC; MEGA06 Groups A and B
# Pentium III (Coppermine) 1 GHz: 256 KB on-die L2, 8-way, 32-octet lines (Intel P3 datasheet;
# CPUID descriptor 0x82); a line from PC133 SDRAM through a 133 MHz FSB about 135 ns (tRCD + CL
# 45 ns, 4-transfer burst 30 ns, FSB request/snoop and chipset 60 ns). A send_udp wake-up touches
# about 4 KB of private lines (task, kernel stack of nanosleep and sendto, page directory and
# tables, user stack and data, socket): refilled after a switch as far as other processes evicted
# them (the process-count mechanism of doc/mega.rst).
HostPlatform.Cpu = ns3::HostCpu[Frequency=1e9|Cores=1|ContextSwitchCost=3000|CacheSize=262144|CacheLineSize=32|CacheAssociativity=8|MemoryLatency=135ns|ProcessWorkingSet=4096]
#@range HostPlatform.Cpu.ProcessWorkingSet 2048 8192 : an estimate from the code paths (doc/mega.rst), not a measurement: half to twice the 128 lines counted
HostPlatform.Timer = ns3::TickTimer[Frequency=250|ExtraTicks=1]
# 512 MB installed; the kernel, its tables (mem_map 4 MB), the min_free_kbytes reserve (2.9 MB)
# and the system's daemons about 40 MB; a minimal process 63 KB (8 KB kernel stack, 4 KB page
# directory, 3 page tables, 7 KB of task/mm/file/signal/socket structures, 8 private user
# pages); starting one (fork + execve by a shell) about 500 us. Estimates, see doc/mega.rst.
HostPlatform.Memory = 536870912
HostPlatform.BaseMemory = 41943040
HostPlatform.ProcessMemory = 64512
HostPlatform.ProcessLaunchCost = 500000
#@range HostPlatform.BaseMemory 31457280 62914560 : an estimate (kernel, mem_map, reserve, daemons): 30-60 MB
#@range HostPlatform.ProcessMemory 49152 98304 : an estimate of a minimal process (63 KB): 48-96 KB
#@range HostPlatform.ProcessLaunchCost 250000 1000000 : an estimate of fork + execve on a 1 GHz Pentium III (lmbench lat_proc exec order): 250-1000 us
# Calibrated: one send_udp process per PC sent with a send-interval standard deviation of "a few
# hundred microseconds" ([MEGA06]; taken as 300 us). A relative sleep(1) on the 250 Hz jiffy
# timer wakes on the tick grid, so the interval is a whole number of ticks plus the difference
# of two independent wake-up latencies: std(interval) = sqrt(2) * std(latency); an exponential
# latency (std = mean) of mean 300 us / sqrt(2) = 212 us. It stands for everything between the
# tick and the process running on an otherwise idle PC (timer softirq, wake-up, the SpringOS
# slave and other daemons); the bound keeps it below one tick. See doc/mega.rst.
HostPlatform.SchedulingLatency = ns3::ExponentialRandomVariable[Mean=212e-6|Bound=4e-3]
HostPlatform.SendCost = 10000
HostPlatform.SendCostPerByte = 2
HostPlatform.RecvCost = 6000
HostPlatform.RecvCostPerByte = 2
HostNic.RxRingSize = 256
HostNic.InterruptDelay = 0us
HostNic.InterruptCost = 5000
HostNic.DriverCost = 1500
HostNic.StackCost = 6000
HostNic.StackCostPerByte = 1
HostNic.Napi = false

# ---------------------------------------------------------------------------------------------
# The GINE PC of [GINE14]: Core i5-3337U (Ivy Bridge, 1.8 GHz, 2 cores with hyper-threading),
# Linux 3.8 with high-resolution timers. GINE's virtual hosts and its emulator thread all run on
# it; the virtual interfaces have no NIC (install the platform without NIC models).
[host gine-i5-3337u-linux38]
description = GINE PC (Core i5-3337U 1.8 GHz, 2 cores), Linux 3.8 with hrtimers; GINE14 emulator and virtual hosts
# Two cores (the hyper-threads share them); a context switch of 1-2 us (lmbench lat_ctx on
# Ivy Bridge class CPUs). Deep idle states are not modelled (see doc/gine.rst).
HostPlatform.Cpu = ns3::HostCpu[Frequency=1.8e9|Cores=2|ContextSwitchCost=3000]
# clock_nanosleep() with the default 50 us timer slack of a normal thread (hrtimers).
HostPlatform.Timer = ns3::NanosleepTimer
# Wake-up of a blocked thread on an idle machine: a few microseconds (same as pc2006-linux26).
HostPlatform.SchedulingLatency = ns3::ExponentialRandomVariable[Mean=5e-6|Bound=1e-4]
# System call, UDP/ICMP and IP output and the virtual interface's transmit: about half the
# cycles of the 2006 Pentium 4 (faster system calls, higher IPC).
HostPlatform.SendCost = 7000
HostPlatform.SendCostPerByte = 1
HostPlatform.RecvCost = 4000
HostPlatform.RecvCostPerByte = 1
# ---------------------------------------------------------------------------------------------
# The SGI Onyx machines of [TNO03]: MIPS R10000-class CPUs, IRIX 6.5 with REACT real-time
# extensions. CPU 0 runs the kernel's housekeeping, the daemons and every interrupt; the other
# CPUs are isolated (sysmp MP_ISOLATE, "shielded") and run only the process bound to them. Four
# CPUs is an assumption (the study gives the clock rates, not the counts). Sources and
# calibrations: doc/tno.rst.
[host onyx-irix65-250]
description = SGI Onyx, 4 x 250 MHz MIPS R10000-class, IRIX 6.5 (CPUs 1-3 shielded); TNO03 Sender and Receiver machine
HostPlatform.Cpu = ns3::HostCpu[Frequency=250e6|Cores=4|ContextSwitchCost=2500]
#@range HostPlatform.Cpu.Cores 4 8 : the study gives clock rates, not CPU counts; 4 is the fewest that shield three (Sender, Receiver, a spare), 8 a large deskside Onyx of the era (more only adds idle CPUs)
HostCpu.ShieldedCores = 1,2,3
HostCpu.InterruptCore = 0
# CPU 0's own activity (the 100 Hz clock interrupt and its callouts, daemons running with
# interrupts blocked): a Poisson stream of 100 busy periods per second (IRIX's HZ = 100) of
# uniform 0 to 170 us, which delay the network interrupts queued behind them. The longest
# duration, 170 us, is calibrated on [TNO03]'s IRIX network latency maximum, 475 us
# (tno-jitter); the mean, minimum and jitter are then checks (doc/tno.rst).
HostCpu.InterferenceRate = 100
HostCpu.InterferenceDuration = ns3::UniformRandomVariable[Min=0|Max=170e-6]
# What an isolated IRIX CPU still sees: sporadic cross-processor interrupts (TLB shootdowns,
# cache flushes), a Poisson stream of 30 per second of 35 us each (8 750 cycles at 250 MHz).
# Both are set from [TNO03]'s scheduling jitter, 39 us over 10 000 activations with "below
# 10 us most of the time": tno-jitter's irix_sched_jitter_us is a consistency check
# (doc/tno.rst).
HostCpu.ShieldedInterferenceRate = 30
HostCpu.ShieldedInterferenceDuration = ns3::ConstantRandomVariable[Constant=35e-6]
# POSIX high-resolution timers (CLOCK_SGI_FAST on REACT): a sleep expires at its time.
HostPlatform.Timer = ns3::IdealTimer
# Wake-up of a real-time process on its isolated CPU: "below 10 us most of the time" ([TNO03]).
HostPlatform.SchedulingLatency = ns3::UniformRandomVariable[Min=3e-6|Max=11e-6]
HostPlatform.ReferenceCycleFactor = 1.0
# Protocol-stack cost: the study's own figure, ~200 us per message through the Ethernet stack on a
# PC of the day, taken for this 250 MHz machine: 50 000 cycles per message, split 20 000 on the
# send side (socket, UDP/IP, driver transmit) and 30 000 on the receive side (interrupt 6 000,
# driver 4 000, IP/UDP input 10 000, the reader's recvfrom 10 000).
#@range stack=HostPlatform.SendCost,HostPlatform.RecvCost,HostNic.InterruptCost,HostNic.DriverCost,HostNic.StackCost x0.5 x1.15 : "about 200 us per message" is the study's figure for a PC of the day, taken for this machine; 100 us at the low end; the high end is bounded by the calibration: above x1.17 no K >= 0 gives 1b's 780 us (doc/sensitivity.rst)
HostPlatform.SendCost = 20000
HostPlatform.SendCostPerByte = 0
HostPlatform.RecvCost = 10000
HostPlatform.RecvCostPerByte = 0
HostNic.RxRingSize = 256
HostNic.InterruptDelay = 0us
HostNic.InterruptCost = 6000
HostNic.DriverCost = 4000
HostNic.StackCost = 10000
HostNic.StackCostPerByte = 0
HostNic.Napi = false

[host onyx-irix65-195]
base = onyx-irix65-250
description = SGI Onyx, 2 x 195 MHz MIPS R10000, IRIX 6.5 (CPU 1 shielded); TNO03 ReceiverSender machine
HostPlatform.Cpu.Frequency = 195e6
HostPlatform.Cpu.Cores = 2
#@range HostPlatform.Cpu.Cores 2 4 : an assumption (the study gives the clock rate only); 2 is the fewest that shield one
HostCpu.ShieldedCores = 1

# ---------------------------------------------------------------------------------------------
# Concurrent Computer Corporation iHawk PCs of [TNO03]: Intel Xeon, RedHat 8.0 with RedHawk
# (a fully pre-emptible Linux 2.4 kernel, CPU shielding). 700 MHz: a Pentium III Xeon (P6
# core, four CPUs: the study shields one per federate); 2400 MHz: a Pentium 4 Xeon (NetBurst, two
# CPUs). The CPU counts are assumptions.
# Kernel path costs in cycles as for the 2006 Pentium 4 Linux PCs (pc2006-linux26); the
# per-clock speed against the R10000 (ReferenceCycleFactor) from SPEC CINT2000 base results of
# the era per MHz (doc/tno.rst). Outcomes on these machines are predictions.
[host ihawk-redhawk-700]
description = iHawk, 4 x 700 MHz Pentium III Xeon, RedHawk Linux (RedHat 8.0, CPUs 1-3 shielded); TNO03 predictions
HostPlatform.Cpu = ns3::HostCpu[Frequency=700e6|Cores=4|ContextSwitchCost=3000]
#@range HostPlatform.Cpu.Cores 4 8 : an assumption (the study gives the clock rate only); 4 is the fewest that shield three
HostCpu.ShieldedCores = 1,2,3
HostCpu.InterruptCore = 0
# CPU 0: the 100 Hz timer interrupt of Linux 2.4 (about 5 us each) and the daemons.
HostCpu.InterferenceRate = 100
HostCpu.InterferenceDuration = ns3::UniformRandomVariable[Min=2e-6|Max=8e-6]
#@range HostCpu.InterferenceDuration.Max 4e-6 20e-6 : an assumption (a Linux 2.4 tick handler and its callouts at 700 MHz); from half to 2.5 times the nominal longest
# A RedHawk shielded CPU still sees its 100 Hz local timer interrupt (Linux 2.4, HZ = 100),
# a Poisson stream of 100 events per second; the handler's 2.5 us (1 750 cycles at 700 MHz) is
# set from [TNO03]'s 3 us scheduling jitter (sleep then busy-wait) over 10 000 activations:
# tno-jitter's ihawk_sched_jitter_us is a consistency check (doc/tno.rst).
HostCpu.ShieldedInterferenceRate = 100
HostCpu.ShieldedInterferenceDuration = ns3::ConstantRandomVariable[Constant=2.5e-6]
HostPlatform.Timer = ns3::IdealTimer
# A pre-emptible kernel wakes a real-time process on its shielded CPU within a few us.
HostPlatform.SchedulingLatency = ns3::UniformRandomVariable[Min=2e-6|Max=6e-6]
#@range HostPlatform.SchedulingLatency.Max 3e-6 11e-6 : an assumption (a fully pre-emptible kernel); up to IRIX's bound of the same path, 11 us
HostPlatform.ReferenceCycleFactor = 1.9
#@range HostPlatform.ReferenceCycleFactor 1.6 2.3 : SPEC CINT2000 per MHz, rounded: R12000 0.8 against Pentium III 0.4 (2.0); the R10000 runs a little below the R12000 per clock, and the P6 core's integer code varies by +-15 %
HostPlatform.SendCost = 15000
HostPlatform.SendCostPerByte = 0
HostPlatform.RecvCost = 9000
HostPlatform.RecvCostPerByte = 0
HostNic.RxRingSize = 256
HostNic.InterruptDelay = 0us
HostNic.InterruptCost = 9000
HostNic.DriverCost = 3000
HostNic.StackCost = 15000
HostNic.StackCostPerByte = 0
HostNic.Napi = false
#@range kernel=HostPlatform.SendCost,HostPlatform.RecvCost,HostNic.InterruptCost,HostNic.DriverCost,HostNic.StackCost x0.6 x1.2 : the Pentium 4 Linux PCs' cycle counts (pc2006-linux26), themselves estimates; the P6 core's cheaper system calls would lower them

[host ihawk-redhawk-2400]
base = ihawk-redhawk-700
description = iHawk, 2 x 2400 MHz Pentium 4 Xeon, RedHawk Linux (RedHat 8.0, CPU 1 shielded); TNO03 predictions
HostPlatform.Cpu.Frequency = 2400e6
HostPlatform.Cpu.Cores = 2
#@range HostPlatform.Cpu.Cores 2 4 : an assumption (the study gives the clock rate only); 2 is the fewest that shield one
HostPlatform.Cpu.ContextSwitchCost = 6000
HostCpu.ShieldedCores = 1
# CPU 0's tick handler at 2.4 GHz: 1-4 us.
HostCpu.InterferenceDuration = ns3::UniformRandomVariable[Min=1e-6|Max=4e-6]
#@range HostCpu.InterferenceDuration.Max 2e-6 10e-6 : an assumption (the 700 MHz tick's handler scaled to 2.4 GHz); half to 2.5 times the nominal longest
# The shielded CPU's tick handler: the 700 MHz Xeon's 1 750 cycles x 2.2 / 1.9 (the per-clock
# factors) at 2.4 GHz, 0.85 us.
HostCpu.ShieldedInterferenceDuration = ns3::ConstantRandomVariable[Constant=0.85e-6]
HostPlatform.ReferenceCycleFactor = 2.2
#@range HostPlatform.ReferenceCycleFactor 1.9 2.7 : SPEC CINT2000 per MHz, rounded: R12000 0.8 against Pentium 4 0.35 (2.3); NetBurst's per-clock speed varies more with the code (+-15 %)

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
# The clock interrupt itself (hz = 100: hardclock(), and softclock() when callouts are due,
# kern_clock.c; McKusick et al., The Design and Implementation of the 4.4BSD Operating System,
# 1996, sec. 3.4): every 10 ms from the boot's phase, preempting whatever runs. Its handler: an
# interrupt's entry and exit (4.45 us, some 1 300 cycles, for a timer interrupt on a 300 MHz
# Pentium II, Aron and Druschel, SOSP 1999) and hardclock's accounting and callout scan, a few
# hundred instructions more; on the era's slower memory 1 000 to 3 000 cycles, 10 to 30 us at
# 100 MHz (uniform: the ticks that run callouts take longer).
HostCpu.InterferenceRate = 100
HostCpu.InterferencePeriodic = true
HostCpu.InterferenceDuration = ns3::UniformRandomVariable[Min=10e-6|Max=30e-6]
# Wake-up of a process blocked in a socket read: sorwakeup() makes it runnable at a kernel
# priority (PSOCK) above every user process, so it runs when the interrupt and software-interrupt
# work in progress is done (McKusick et al. 1996, sec. 4.4), after the context switch charged
# apart; the kernel work between the two (the rest of ipintr, other callouts) is modelled as an
# exponential of mean 20 us, bounded at 500 us (an assumption within 0 to 100 us of mean).
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
#@range stack=HostPlatform.SendCost,HostPlatform.RecvCost,HostNic.InterruptCost,HostNic.DriverCost,HostNic.StackCost x0.5 x2 : chosen at the order of the era's measurements (100-200 us of per-packet overhead on 20-25 MHz machines), not measured on these workstations: half to twice
# BSD's IP input queue (ipintrq) holds IFQ_MAXLEN = 50 packets.
HostNic.BacklogLimit = 50

# ---------------------------------------------------------------------------------------------
# [NTT96]'s general-purpose router (make not given): a route processor of the Cisco AGS+/7000
# generation, a 25 MHz Motorola 68040. Forwarding costs: CacheRouter (doc/router.rst).
[host router1995-m68040]
description = mid-1990s general-purpose router CPU (25 MHz Motorola 68040 route processor); NTT96 router
HostPlatform.Cpu = ns3::HostCpu[Frequency=25e6|Cores=1]
)";

/** Registers the kind "host" and its built-in profiles when the library is loaded. */
struct HostProfilesRegistrar
{
    HostProfilesRegistrar()
    {
        Profile::RegisterKind("host", {"HostPlatform", "HostCpu", "HostNic"}, g_builtinProfiles);
    }
} g_hostProfilesRegistrar; //!< the registrar

} // namespace

} // namespace ns3
