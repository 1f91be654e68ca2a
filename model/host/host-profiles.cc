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
# The kernel's timer interrupt: HZ = 1000 on i386 Linux 2.6 (include/asm-i386/param.h; R. Love,
# Linux Kernel Development, 2nd ed., 2005, ch. 10), periodic from an arbitrary phase, each tick's
# handler and timer softirq 1-4 us on a 2.4 GHz Pentium 4 (the estimate of ihawk-redhawk-2400's
# CPU 0), 2 400-9 600 cycles: 0.8-3.2 us at 3 GHz. It delays whatever the CPU does at the time.
HostCpu.InterferenceRate = 1000
HostCpu.InterferencePeriodic = true
HostCpu.InterferenceDuration = ns3::UniformRandomVariable[Min=0.8e-6|Max=3.2e-6]
#@range HostCpu.InterferenceDuration.Max 1.6e-6 8e-6 : an estimate carried from ihawk-redhawk-2400's tick (1-4 us at 2.4 GHz, its own range of the longest 2-10 us) to 3 GHz: half to 2.5 times the nominal longest (doc/host.rst)
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
# Linux 2.4's timer interrupt, HZ = 100 on i386 (Love, ch. 10), the same handler as
# pc2006-linux26's.
HostCpu.InterferenceRate = 100
HostCpu.InterferencePeriodic = true
HostCpu.InterferenceDuration = ns3::UniformRandomVariable[Min=0.8e-6|Max=3.2e-6]
#@range HostCpu.InterferenceDuration.Max 1.6e-6 8e-6 : the same estimate as pc2006-linux26's tick (doc/host.rst): half to 2.5 times the nominal longest
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
# The SGI Onyx machines of [TNO03]: MIPS R10000 CPUs, IRIX 6.5 with REACT real-time extensions.
# CPU 0 runs the kernel's housekeeping, the daemons and every interrupt; the other CPUs are
# isolated (sysmp MP_ISOLATE, "shielded") and run only the process bound to them. Four CPUs is
# an assumption (the study gives the clock rates, not the counts). Sources and calibrations:
# doc/tno.rst, "Host costs".
#
# Operating-system costs in cycles, from lmbench on an SGI POWER Challenge (IRIX64, IP25: MIPS
# R10000 195 MHz; McVoy and Staelin, USENIX 1996, Tables of null system call, context switch,
# pipe and UDP latency): null system call (a write of one word to /dev/null) 23 us = 4 500
# cycles; context switch (2 processes, 0 KB) 55 us = 10 700; pipe latency 230 us round trip,
# 115 us = 22 400 cycles one way; UDP latency (loopback) 486 us round trip, 47 400 cycles one
# way. The same cycle counts are taken for the 250 MHz part (same core).
[host onyx-irix65-250]
description = SGI Onyx, 4 x 250 MHz MIPS R10000-class, IRIX 6.5 (CPUs 1-3 shielded); TNO03 Sender and Receiver machine
# lmbench memory latency of the IP25 (R10000 195 MHz): 1 134 ns from main memory.
HostPlatform.Cpu = ns3::HostCpu[Frequency=250e6|Cores=4|ContextSwitchCost=10700|MemoryLatency=1134ns]
#@range HostPlatform.Cpu.Cores 4 8 : the study gives clock rates, not CPU counts; 4 is the fewest that shield three (Sender, Receiver, a spare), 8 a large deskside Onyx of the era (more only adds idle CPUs)
HostCpu.ShieldedCores = 1,2,3
HostCpu.InterruptCore = 0
# CPU 0's own activity (the 100 Hz clock interrupt and its callouts, daemons running with
# interrupts blocked): a Poisson stream of 100 busy periods per second (IRIX's HZ = 100) of
# uniform 0 to D us, which delay the network interrupts queued behind them. D = 230 us is
# calibrated on [TNO03]'s IRIX network latency maximum, 475 us (tno-jitter's echo, half the
# round trip, mean maximum of 5 runs; doc/tno.rst).
HostCpu.InterferenceRate = 100
HostCpu.InterferenceDuration = ns3::UniformRandomVariable[Min=0|Max=230e-6]
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
# A cheap system call (lmbench null I/O): clock reads, semaphore operations, the empty read.
HostPlatform.SyscallCost = 4500
# A blocking wait ended from another CPU: pipe one way (22 400) minus its two calls (9 000).
HostPlatform.WaitCost = 13400
# UDP one way (47 400) minus the reader's wait (13 400): 34 000 cycles of protocol work, split
# 40 % send call (socket, UDP/IP output, driver), 45 % the receive path on the interrupt CPU
# (interrupt 3 000, driver 3 000, IP/UDP input and the IRIX network process 9 300), 15 % the
# reader's recvfrom (copy out, buffer free). The split is an assumption; the sum is lmbench's.
HostPlatform.SendCost = 13600
HostPlatform.SendCostPerByte = 0
HostPlatform.RecvCost = 5100
HostPlatform.RecvCostPerByte = 0
HostNic.RxRingSize = 256
HostNic.InterruptDelay = 0us
HostNic.InterruptCost = 3000
HostNic.DriverCost = 3000
HostNic.StackCost = 9300
HostNic.StackCostPerByte = 0
HostNic.Napi = false
# Per-frame variability of the receive path from cache and bus state: the lines a frame's
# processing finds cold, uniform 0 to 2 m, each the CPU's MemoryLatency; m = 13 calibrated on
# the body of [TNO03]'s IRIX latency distribution (mean - min = 22 us; doc/tno.rst), with the
# switch's variable wait included, by bench/tno-coldlines-calibrate.py.
HostNic.ColdLines = ns3::UniformRandomVariable[Min=0|Max=26]
# Transmit completion on the interrupt CPU: an interrupt and the driver's reclaim (taken equal
# to the receive handler's, 6 000 cycles; an estimate).
HostPlatform.TxCompletionCost = 6000
# Which Onyx: the OS costs above are an IP25 POWER Challenge's (lmbench, IRIX 6.2); SGI's own
# unixperf results of the IP27 class (Origin/Onyx2, IRIX 6.4) stand at 0.53-0.66 of the same
# machine's figures (doc/tno.rst, 'Which Onyx'). A factor of tno-pipeline's bands, with the
# calibrations on configuration 2 and the IRIX body refitted in every sample.
#@range irix=HostPlatform.SyscallCost,HostPlatform.Cpu.ContextSwitchCost,HostPlatform.WaitCost,HostPlatform.SendCost,HostPlatform.RecvCost,HostNic.InterruptCost,HostNic.DriverCost,HostNic.StackCost,HostPlatform.TxCompletionCost x0.53 x1 : doc/tno.rst, 'Which Onyx': lmbench's IP25 POWER Challenge figures (x1, the profile's) down to the IP27 class, SGI's unixperf ratios to them (pipe round trip 0.53 and 0.63, SunRPC over UDP 0.58 and 0.66; another tool, so ratios across benchmarks) [unixperf97]
# Off-path per-datagram work of the sending and the reading process (the rest of sendto and
# recvfrom after the data moved: IRIX's multiprocessor stack hands packets to kernel network
# processes, McVoy and Staelin 1996). Calibrated on configuration 1b's highest frequency,
# 925 Hz, as one sum split equally (doc/tno.rst); lmbench's whole UDP one-way path is 47 400.
HostPlatform.SendOffPathCost = 68000
HostPlatform.RecvOffPathCost = 68000
# UDP socket receive buffer: IRIX's default (udp_sendspace x udp_recvgrams) was not found; the
# 4.4BSD default udp_recvspace, 40 x (1024 + 16) = 41 600 bytes, each datagram counting an mbuf
# cluster and its header (2 048 + 128 bytes): 19 datagrams of the pipeline's 594 bytes.
HostPlatform.UdpReceiveBuffer = 41600
HostPlatform.SocketBufferCharge = 2176
# The interface's send queue: 4.4BSD IFQ_MAXLEN, 50 packets (IRIX's value not found).
HostPlatform.TxQueueLength = 50

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
# CPUs). The CPU counts are assumptions. Outcomes on these machines are predictions.
#
# Operating-system costs from lmbench 2.0 under Linux 2.4 on the same cores (not from the IRIX
# calibration): Pentium III 789 MHz, Linux 2.4.19 (P. Ciarrocchi, linux-kernel, 2003-04-12:
# null I/O 0.55 us, context switch 0.92 us, pipe 4.62 us and UDP 15.2 us round trip, memory
# 159 ns), in cycles of the P6 core. The middleware's per-clock speed against the R10000
# (ReferenceCycleFactor): doc/tno.rst, "Per-clock factor" (range 0.93-1.9).
[host ihawk-redhawk-700]
description = iHawk, 4 x 700 MHz Pentium III Xeon, RedHawk Linux (RedHat 8.0, CPUs 1-3 shielded); TNO03 predictions
HostPlatform.Cpu = ns3::HostCpu[Frequency=700e6|Cores=4|ContextSwitchCost=730|MemoryLatency=159ns]
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
# Middleware per-clock factor: lmbench L1 and L2 load latencies in cycles (geometric mean)
# against the R10000's (doc/tno.rst); band 0.93 (the study's "three times faster") to 1.9.
HostPlatform.ReferenceCycleFactor = 1.1
#@range HostPlatform.ReferenceCycleFactor 0.93 1.9 : doc/tno.rst, 'Per-clock factor': 0.93 from the study's 'roughly three times faster' (700 / (3 x 250)), 1.9 from SPEC CINT2000 base per MHz (R12000 0.8, Pentium III 0.4); 1.1 (lmbench load latencies) between
HostPlatform.SyscallCost = 430
# Pipe one way (1 820 cycles) minus two calls.
HostPlatform.WaitCost = 960
# UDP one way (6 010 cycles) minus the wait: 5 050 cycles, split as on IRIX.
HostPlatform.SendCost = 2020
HostPlatform.SendCostPerByte = 0
HostPlatform.RecvCost = 760
HostPlatform.RecvCostPerByte = 0
HostNic.RxRingSize = 256
HostNic.InterruptCost = 700
HostNic.DriverCost = 500
HostNic.StackCost = 1070
HostNic.StackCostPerByte = 0
HostNic.Napi = false
# RedHawk runs the bottom halves in a kernel daemon (Brosky, Linux Journal): the softirq is woken
# and pays a context switch before its first frame.
HostNic.SoftirqThread = true
# The NIC's own path, which lmbench's loopback figures do not contain (doc/tno.rst, 'The NIC's
# path'). The receive DMA after the FCS over a 32-bit 33 MHz PCI bus at its peak, 133 MB/s
# (PCI Local Bus Specification 2.x), from half that (arbitration, short bursts) to a 64-bit
# 133 MHz PCI-X slot's peak (1 066 MB/s) of the Xeon boards of 2002.
HostNic.RxDmaRate = 1064Mbps
#@range HostNic.RxDmaRate 532Mbps 8528Mbps : PCI 2.x 32-bit 33 MHz peak (133 MB/s) halved for arbitration and short bursts, up to a 64-bit 133 MHz PCI-X slot's peak (1 066 MB/s); doc/tno.rst, 'The NIC's path'
# I/O APIC delivery and interrupt entry: 10 +- 1 us measured on a 100 MHz dual Pentium with an
# I/O APIC (Molnar, 1996), most of it CPU work that a 700 MHz core does in a seventh; 2 us
# (an estimate), from the APIC message alone (1 us) to the 1996 figure.
HostNic.InterruptDelay = 2us
#@range HostNic.InterruptDelay 1us 10us : an estimate (doc/tno.rst, 'The NIC's path'): the APIC bus message alone to the 10 us Molnar measured on a 100 MHz dual Pentium with an I/O APIC (1996)
# One uncached read of the NIC's interrupt status per interrupt: 1 700-2 100 cycles of a 2.4 GHz
# CPU for an e1000's registers (Olsson and Welte's mmio_test, 2005), 0.7-0.9 us.
HostNic.RegisterReadTime = 0.8us
#@range HostNic.RegisterReadTime 0.3us 1us : doc/tno.rst, 'The NIC's path': about ten PCI clocks for a target on the host bridge's bus (0.3 us) to the 0.9 us mmio_test measured for an e1000 (Olsson and Welte, 2005)
# Transmit: the NIC fetches the descriptor (a bus round trip, as a register read) and the
# frame's first bytes before it may start: 0.8 us + 96 bytes at 133 MB/s, 1.5 us (an estimate).
HostNic.TxFetchDelay = 1.5us
#@range HostNic.TxFetchDelay 0.6us 3us : an estimate (doc/tno.rst, 'The NIC's path'): one bus round trip for the descriptor and 96 bytes of data at the bus rate, from half to twice that
# The same count of cold lines per frame as IRIX's (a property of the work, not the CPU) at
# this machine's memory latency.
HostNic.ColdLines = ns3::UniformRandomVariable[Min=0|Max=26]
# Linux 2.4 frees transmitted buffers in the driver's interrupt (on CPU 0): no off-path work in
# the process.
HostPlatform.TxCompletionCost = 1200
HostPlatform.SendOffPathCost = 0
HostPlatform.RecvOffPathCost = 0
# Linux 2.4: net.core.rmem_default = SK_RMEM_MAX = 65 535 bytes, each datagram counting its
# sk_buff's truesize (a 2 048-byte data area for a full-size receive buffer and the sk_buff):
# 29 datagrams.
HostPlatform.UdpReceiveBuffer = 65535
HostPlatform.SocketBufferCharge = 2208
# Linux 2.4 ether_setup(): tx_queue_len 100 (pfifo_fast).
HostPlatform.TxQueueLength = 100
#@range linux=HostPlatform.SyscallCost,HostPlatform.WaitCost,HostPlatform.SendCost,HostPlatform.RecvCost,HostPlatform.TxCompletionCost,HostPlatform.Cpu.ContextSwitchCost,HostNic.InterruptCost,HostNic.DriverCost,HostNic.StackCost x1 x2 : doc/tno.rst, 'Host costs': lmbench's Linux 2.4 figures (single-CPU desktops, vanilla kernels) to twice them, for RedHawk's pre-emptible SMP kernel (locking, the softirq daemon), which no source measures; the NIC's own path is explicit (the slow end of tno-pipeline --band)

# lmbench 2.0, Pentium 4 2.4 GHz, Linux 2.4.18 (P. Mau, linux-kernel, 2002-10-02): null I/O
# 0.75 us, context switch 0.81 us, pipe 4.92 us and UDP 12.9 us round trip, memory 118 ns.
[host ihawk-redhawk-2400]
base = ihawk-redhawk-700
description = iHawk, 2 x 2400 MHz Pentium 4 Xeon, RedHawk Linux (RedHat 8.0, CPU 1 shielded); TNO03 predictions
HostPlatform.Cpu.Frequency = 2400e6
HostPlatform.Cpu.Cores = 2
HostPlatform.Cpu.ContextSwitchCost = 1950
#@range HostPlatform.Cpu.Cores 2 4 : an assumption (the study gives the clock rate only); 2 is the fewest that shield one
HostPlatform.Cpu.MemoryLatency = 118ns
HostCpu.ShieldedCores = 1
# CPU 0's tick handler at 2.4 GHz: 1-4 us.
HostCpu.InterferenceDuration = ns3::UniformRandomVariable[Min=1e-6|Max=4e-6]
#@range HostCpu.InterferenceDuration.Max 2e-6 10e-6 : an assumption (the 700 MHz tick's handler scaled to 2.4 GHz); half to 2.5 times the nominal longest
# The shielded CPU's tick handler: the 700 MHz Xeon's 1 750 cycles x 1.45 / 1.1 (the per-clock
# factors) at 2.4 GHz, 0.96 us.
HostCpu.ShieldedInterferenceDuration = ns3::ConstantRandomVariable[Constant=0.96e-6]
HostPlatform.ReferenceCycleFactor = 1.45
#@range HostPlatform.ReferenceCycleFactor 1.07 2.2 : doc/tno.rst, 'Per-clock factor': 1.07 from the study's 'roughly three times faster' with the Pentium 4's 15 % per-clock penalty, 2.2 from SPEC CINT2000 base per MHz (R12000 0.8, Pentium 4 0.35); 1.45 (lmbench load latencies) between
HostPlatform.SyscallCost = 1800
HostPlatform.WaitCost = 2300
HostPlatform.SendCost = 5270
HostPlatform.RecvCost = 1980
HostNic.InterruptCost = 1800
HostNic.DriverCost = 1300
HostNic.StackCost = 2830
HostPlatform.TxCompletionCost = 3100
#@range linux=HostPlatform.SyscallCost,HostPlatform.WaitCost,HostPlatform.SendCost,HostPlatform.RecvCost,HostPlatform.TxCompletionCost,HostPlatform.Cpu.ContextSwitchCost,HostNic.InterruptCost,HostNic.DriverCost,HostNic.StackCost x1 x2 : as ihawk-redhawk-700's: lmbench's Linux 2.4 figures to twice them, for RedHawk's pre-emptible SMP kernel; the NIC's own path is explicit (doc/tno.rst, 'Host costs'; the slow end of tno-pipeline --band)

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
#@range HostCpu.InterferenceDuration.Max 10e-6 30e-6 : doc/ntt.rst's free parameters: the handler takes 1 000 to 3 000 cycles (10-30 us at 100 MHz), an estimate from a 300 MHz Pentium II's timer interrupt; the longest tick from the documented low end (every tick 10 us) to the nominal high end
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
