/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_PROFILE_H
#define TESTBED_RTI_PROFILE_H

#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup testbed-rti
 * Named sets of RtiSettings values: one per RTI implementation being modelled.
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief A named set of RtiSettings attribute values (an RTI implementation on a kind of PC).
 *
 * The built-in profiles are in rti-profile.cc with the source of every number; doc/rti.rst
 * says which were calibrated on which [JAXA06] number. RtiHelper::SetProfile applies one.
 */
class RtiProfile
{
  public:
    /** Attribute name/value pairs of ns3::RtiSettings. */
    typedef std::vector<std::pair<std::string, std::string>> AttributeList;

    /**
     * @brief The attribute values of a profile; aborts with the known names if unknown.
     * @param name profile name
     * @return the values
     */
    static const AttributeList& Get(const std::string& name);

    /**
     * @brief Names of the built-in profiles.
     * @return the names
     */
    static std::vector<std::string> List();
};

} // namespace ns3

#endif /* TESTBED_RTI_PROFILE_H */
