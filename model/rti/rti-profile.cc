/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-profile.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiProfile");

namespace
{

/** @return the built-in profiles */
const std::map<std::string, RtiProfile::AttributeList>&
Profiles()
{
    static const std::map<std::string, RtiProfile::AttributeList> profiles = {
        // Pitch pRTI 1516 (2005-2006, Java) on the [JAXA06] PCs (pc2006-linux26, 3 GHz).
        // Costs are CPU cycles per operation of the RTI itself; the operating system's socket
        // and packet costs are the host profile's. Calibration: doc/rti.rst, "Calibration".
        {"prti1516",
         {
             // Encoding: the 16 bytes of fixed header fields plus 67 opaque bytes (pRTI's
             // message envelope). Calibrated: the alphas of [JAXA06] Fig. 4 (synchronised) and
             // Fig. 7 (asynchronous) together (bench/rti-calibrate.py; doc/rti.rst).
             {"EncodingHeaderSize", "83"},
             {"GaltMode", "Central"},
             {"TcpNoDelay", "true"},
             // A Java RTI: the federate's (and the CRC's) thread queues messages, an I/O thread
             // writes them; on the uniprocessor PCs it runs when the thread blocks.
             {"WriteBatching", "true"},
             // One cost K per RTI operation (call, callback, encode, decode, routing step, time
             // management evaluation; 1/10 of it per federate in a GALT evaluation), 1 cycle per
             // byte encoded or decoded. K is calibrated on beta of [JAXA06] Fig. 4
             // (bench/rti-calibrate.py; doc/rti.rst): 23300 cycles = 7.8 us at 3 GHz.
             {"CallCost", "23300"},
             {"CallbackCost", "23300"},
             {"EncodeCost", "23300"},
             {"EncodeCostPerByte", "1"},
             {"DecodeCost", "23300"},
             {"DecodeCostPerByte", "1"},
             {"RouteCost", "23300"},
             {"TimeManagementCost", "23300"},
             {"TimeManagementCostPerFederate", "2330"},
         }},
        // The RTI with no processing cost and the minimal encoding (a reference point).
        {"ideal",
         {
             {"EncodingHeaderSize", "16"},
             {"GaltMode", "Central"},
             {"TcpNoDelay", "true"},
         }},
    };
    return profiles;
}

} // namespace

const RtiProfile::AttributeList&
RtiProfile::Get(const std::string& name)
{
    auto it = Profiles().find(name);
    if (it == Profiles().end())
    {
        std::string known;
        for (const auto& [n, p] : Profiles())
        {
            known += " " + n;
        }
        NS_FATAL_ERROR("RtiProfile: unknown profile '" << name << "'; known:" << known);
    }
    return it->second;
}

std::vector<std::string>
RtiProfile::List()
{
    std::vector<std::string> names;
    for (const auto& [n, p] : Profiles())
    {
        names.push_back(n);
    }
    return names;
}

} // namespace ns3
