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
             // Encoding: fixed 16-byte header plus opaque bytes (pRTI's message envelope).
             {"EncodingHeaderSize", "16"},
             {"GaltMode", "Central"},
             {"TcpNoDelay", "true"},
             {"CallCost", "0"},
             {"CallbackCost", "0"},
             {"EncodeCost", "0"},
             {"EncodeCostPerByte", "0"},
             {"DecodeCost", "0"},
             {"DecodeCostPerByte", "0"},
             {"RouteCost", "0"},
             {"TimeManagementCost", "0"},
             {"TimeManagementCostPerFederate", "0"},
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
