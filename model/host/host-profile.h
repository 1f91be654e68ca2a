/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_PROFILE_H
#define TESTBED_HOST_PROFILE_H

#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup testbed-host
 * Named host platform profiles.
 */

namespace ns3
{

/**
 * @ingroup testbed-host
 * @brief A named set of HostPlatform and HostNic attribute values: one kind of PC.
 *
 * Profiles are data, not code: each is a list of attribute name/value strings for
 * ns3::HostPlatform and for ns3::HostNic, applied by HostPlatformHelper before any explicit
 * SetAttribute. The built-in profiles are listed in host-profile.cc with the source of every
 * number; more can be registered at run time or read from a text file:
 *
 * @code
 * # comment
 * [profile my-pc]
 * description = 2 GHz Linux 2.6 PC
 * HostPlatform.Cpu = ns3::HostCpu[Frequency=2e9|Cores=1|ContextSwitchCost=4000]
 * HostNic.RxRingSize = 256
 * @endcode
 */
class HostProfile
{
  public:
    /** Attribute name/value pairs. */
    typedef std::vector<std::pair<std::string, std::string>> AttributeList;

    /** One profile. */
    struct Profile
    {
        std::string name;        //!< profile name
        std::string description; //!< what PC it describes, with sources
        AttributeList platform;  //!< ns3::HostPlatform attributes
        AttributeList nic;       //!< ns3::HostNic attributes
    };

    /**
     * @brief Register (or replace) a profile.
     * @param profile the profile
     */
    static void Register(const Profile& profile);

    /**
     * @brief Whether a profile exists.
     * @param name profile name
     * @return true if registered
     */
    static bool Exists(const std::string& name);

    /**
     * @brief Get a profile; aborts with the list of known names if there is none of that name.
     * @param name profile name
     * @return the profile
     */
    static const Profile& Get(const std::string& name);

    /**
     * @brief Names of all profiles.
     * @return the names, sorted
     */
    static std::vector<std::string> List();

    /**
     * @brief Read profiles from a text file (format in the class description); aborts on a
     * malformed line with its number.
     * @param path the file
     * @return number of profiles read
     */
    static uint32_t LoadFile(const std::string& path);

    /**
     * @brief Parse profiles from text (the file format).
     * @param text the text
     * @param origin name used in error messages
     * @return number of profiles read
     */
    static uint32_t LoadText(const std::string& text, const std::string& origin);
};

} // namespace ns3

#endif /* TESTBED_HOST_PROFILE_H */
