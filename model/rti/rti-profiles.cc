/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/profile.h"

/**
 * @file
 * @ingroup testbed-rti
 * The built-in RTI profiles (kind "rti": section RtiSettings), as text data.
 */

namespace ns3
{

namespace
{

/**
 * The built-in RTI profiles, in the text format that Profile::LoadText reads. Costs are CPU
 * cycles per operation of the RTI itself; the operating system's socket and packet costs are the
 * host profile's. Sources and calibrations: doc/rti.rst.
 */
const char* const g_builtinProfiles = R"(
# ---------------------------------------------------------------------------------------------
[rti prti1516]
description = Pitch pRTI 1516 (2005-2006, Java) on the JAXA06 PCs (pc2006-linux26, 3 GHz)
# Encoding: the 16 bytes of fixed header fields plus 67 opaque bytes (pRTI's message envelope).
# Calibrated: the alphas of [JAXA06] Fig. 4 (synchronised) and Fig. 7 (asynchronous) together
# (bench/rti-calibrate.py; doc/rti.rst).
RtiSettings.EncodingHeaderSize = 83
RtiSettings.GaltMode = Central
RtiSettings.TcpNoDelay = true
# A Java RTI: the federate's (and the CRC's) thread queues messages, an I/O thread writes them;
# on the uniprocessor PCs it runs when the thread blocks.
RtiSettings.WriteBatching = true
# IEEE 1516-2000 (pRTI 1516): callbacks wait in the local component until the federate evokes
# them (evokeCallback / evokeMultipleCallbacks); each costs CallbackCost when dispatched.
RtiSettings.CallbackModel = Evoked
# One cost K per RTI operation (call, callback, encode, decode, routing step, time management
# evaluation; 1/10 of it per federate in a GALT evaluation), 1 cycle per byte encoded or decoded.
# K is calibrated on beta of [JAXA06] Fig. 4 (bench/rti-calibrate.py; doc/rti.rst): 21100 cycles
# = 7.0 us at 3 GHz, with the cost variation and the minor collections below.
RtiSettings.CallCost = 21100
RtiSettings.CallbackCost = 21100
RtiSettings.EncodeCost = 21100
RtiSettings.EncodeCostPerByte = 1
RtiSettings.DecodeCost = 21100
RtiSettings.DecodeCostPerByte = 1
RtiSettings.RouteCost = 21100
RtiSettings.TimeManagementCost = 21100
RtiSettings.TimeManagementCostPerFederate = 2110
#@range RtiSettings.TimeManagementCostPerFederate 0 6330 : K/10 is an assumption (doc/rti.rst): from nothing to 3 K/10 per federate; K is calibrated with it, so a study must refit K (bench/rti-calibrate.py) sample by sample
# A Java RTI's processing varies from operation to operation (caches, the JIT's state): every
# operation's cost is K times a gamma factor of mean 1. No measurement of pRTI's per-operation
# spread is known (doc/rti.rst, 'Per-step variation').
RtiSettings.CostVariation = 0.2
#@range RtiSettings.CostVariation 0 0.5 : an estimate, no measurement of a Java RTI's per-operation spread known (doc/rti.rst): from deterministic to a coefficient of variation of 0.5
# Each run starts the programs afresh: every component's VM invocation has its own compilation
# plan and code and heap layout, so all of its operations cost one factor more or less than
# another run's (Georges, Buytaert & Eeckhout, OOPSLA 2007: Java run times differ from VM
# invocation to VM invocation; doc/rti.rst, 'Per-step variation').
RtiSettings.InvocationVariation = 0.02
#@range RtiSettings.InvocationVariation 0 0.04 : an estimate (doc/rti.rst): from a compilation plan and layout that repeat exactly to about 4 % across invocations, the wider of Georges et al.'s 95 % intervals over 30 invocations (over 3 % of the mean) read as a full width
# Every component (the CRC, each federate's local component) is its own HotSpot VM (pRTI 1516:
# Java; J2SE 1.4.2 or 5.0 on a uniprocessor PC: the client VM's serial copying collector for the
# young generation). A minor collection stops the VM when eden is full: a renewal process driven
# by what the RTI allocates per operation. Sizes and pauses: doc/rti.rst, 'Per-step variation'.
RtiSettings.AllocationPerOperation = 512
#@range RtiSettings.AllocationPerOperation 128 2048 : an estimate of the objects of one operation of a Java RTI (a message object, a handle-value map and its entries, a logical time, a callback record: a few hundred bytes; doc/rti.rst): a quarter to four times the nominal 512 bytes
RtiSettings.AllocationPerByte = 2
#@range RtiSettings.AllocationPerByte 1 4 : an estimate (doc/rti.rst): each message byte copied into a byte array once (read or write buffer) to four times (buffer, value copy, the federate's copy, the encoder's growth)
RtiSettings.EdenSize = 1048576
#@range RtiSettings.EdenSize 262144 4194304 : from the pre-5.0 HotSpot defaults (doc/rti.rst): a heap of a few MB (the client VM's small initial heap, growing to the live set; 64 MB at most), a young generation of 1/(NewRatio + 1) of it, eden all but the two survivor spaces: 256 KB to 4 MB
RtiSettings.MinorGcPauseMin = 500us
RtiSettings.MinorGcPauseMax = 3ms
#@range gcpause=RtiSettings.MinorGcPauseMin,RtiSettings.MinorGcPauseMax x0.33 x3 : an estimate of a serial copying young collection with few survivors on a 3 GHz Pentium 4 (root and card scan, survivor copy; doc/rti.rst): a third to three times the nominal 0.5-3 ms

# ---------------------------------------------------------------------------------------------
[rti ideal]
description = An RTI with no processing cost and the minimal encoding (a reference point)
RtiSettings.EncodingHeaderSize = 16
RtiSettings.GaltMode = Central
RtiSettings.TcpNoDelay = true
# ---------------------------------------------------------------------------------------------
# [TNO03]'s RTIs on the direct data path (RtiLrc, RtiFedex). Costs in MIPS R10000 cycles
# (scaled by each host's ReferenceCycleFactor). Sources and calibrations: doc/tno.rst.
#
# TNO's RTI is layered: RTI-DM and RTI-SM share every layer but the lowest. tno-rti holds the
# shared upper layers; the two transports differ only in their lowest layer, whose operating-
# system part (sockets, semaphores, wake-ups) is the host's (HostPlatform), not the RTI's.
[rti tno-rti]
description = TNO RTI, the upper layers shared by RTI-DM and RTI-SM (TNO03)
RtiSettings.DataPath = Direct
# One per-operation cost K (call, encode, decode, callback, and the RTI's own lowest-layer
# bookkeeping); calibrated on the low-frequency latency of configuration 2 (450 us).
RtiSettings.CallCost = 5100
RtiSettings.EncodeCost = 5100
RtiSettings.TransportCost = 5100
RtiSettings.DecodeCost = 5100
RtiSettings.CallbackCost = 5100
RtiSettings.AdminCost = 100000
#@range RtiSettings.AdminCost 10000 1000000 : an assumption, no source of the era found (doc/tno.rst): one federation-management request (join, publish, subscribe) from a tenth to ten times the central 100 000 R10000 cycles; it acts on the federation's start (the Fedex reads the enables behind these requests), no TNO03 calibration depends on it

[rti tno-rti-dm]
base = tno-rti
description = TNO RTI-DM: UDP/IP over Ethernet (TNO03)
RtiSettings.Transport = Udp
# 512 bytes of attribute data in a 622-byte IP packet: 622 - 28 (UDP/IP) = 594 bytes of message,
# of which the update's body takes 540 (object handle 4, value count 4, attribute handle and
# length 8, the 512 bytes, tag length 4, the RCI's 8-byte tag): an encoding header of 54 bytes.
RtiSettings.EncodingHeaderSize = 54

[rti tno-rti-sm]
base = tno-rti
description = TNO RTI-SM: shared-memory message queues on one machine (TNO03)
RtiSettings.Transport = SharedMemory
# 586-byte messages: the 540-byte update body (see tno-rti-dm) and a 46-byte header.
RtiSettings.EncodingHeaderSize = 46
# A copy into each receiver's queue: memcpy at about one byte per cycle, and the queue's lock
# and slot bookkeeping (the semaphore post is a system call: the host's).
RtiSettings.ShmEnqueueCost = 1000
RtiSettings.ShmCopyCostPerByte = 1
# Messages a receiver's queue holds: an assumption, no source (doc/tno.rst, "The shared-memory
# queue").
RtiSettings.ShmQueueSize = 64
#@range RtiSettings.ShmQueueSize 40 1024 : an assumption, no source of TNO's RTI-SM found (doc/tno.rst, 'The shared-memory queue'): from 40 (smaller queues lose at 3 900 Hz on configuration 2, where the study kept up, with the calibrated costs) to 1024

[rti dmso-rti13ng]
description = DMSO RTI 1.3NG-like: heavier per-message path over TCP (an assumption: the study does not say its transport) (TNO03)
RtiSettings.DataPath = Direct
RtiSettings.Transport = Tcp
RtiSettings.TcpNoDelay = true
RtiSettings.EncodingHeaderSize = 54
# K calibrated on the low-frequency latency of 1a (2900 us); the RTI's own read-side work per
# reflected message (ReflectTailCost, readers only) on 1a's highest frequency (375 Hz). The host's
# socket costs and the RCI's are the same as for RTI-DM.
RtiSettings.CallCost = 37200
RtiSettings.EncodeCost = 37200
RtiSettings.TransportCost = 37200
RtiSettings.DecodeCost = 37200
RtiSettings.CallbackCost = 37200
RtiSettings.ReflectTailCost = 110000
RtiSettings.AdminCost = 300000
)";

/** Registers the kind "rti" and its built-in profiles when the library is loaded. */
struct RtiProfilesRegistrar
{
    RtiProfilesRegistrar()
    {
        Profile::RegisterKind("rti", {"RtiSettings"}, g_builtinProfiles);
    }
} g_rtiProfilesRegistrar; //!< the registrar

} // namespace

} // namespace ns3
