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
# One cost K per RTI operation (call, callback, encode, decode, routing step, time management
# evaluation; 1/10 of it per federate in a GALT evaluation), 1 cycle per byte encoded or decoded.
# K is calibrated on beta of [JAXA06] Fig. 4 (bench/rti-calibrate.py; doc/rti.rst): 23300 cycles
# = 7.8 us at 3 GHz.
RtiSettings.CallCost = 23300
RtiSettings.CallbackCost = 23300
RtiSettings.EncodeCost = 23300
RtiSettings.EncodeCostPerByte = 1
RtiSettings.DecodeCost = 23300
RtiSettings.DecodeCostPerByte = 1
RtiSettings.RouteCost = 23300
RtiSettings.TimeManagementCost = 23300
RtiSettings.TimeManagementCostPerFederate = 2330

# ---------------------------------------------------------------------------------------------
[rti ideal]
description = An RTI with no processing cost and the minimal encoding (a reference point)
RtiSettings.EncodingHeaderSize = 16
RtiSettings.GaltMode = Central
RtiSettings.TcpNoDelay = true
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
