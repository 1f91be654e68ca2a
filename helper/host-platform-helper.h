/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_PLATFORM_HELPER_H
#define TESTBED_HOST_PLATFORM_HELPER_H

#include "ns3/host-platform.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed-host
 * Helper that installs host platforms on nodes.
 */

namespace ns3
{

/**
 * @ingroup testbed-host
 * @brief Installs a HostPlatform (and NIC models) on nodes, configured from a named profile.
 *
 * @code
 * HostPlatformHelper hosts("pc2006-linux26");
 * hosts.SetNicAttribute("InterruptDelay", TimeValue(MicroSeconds(50)));
 * hosts.Install(nodes); // after InternetStackHelper and Ipv4AddressHelper::Assign
 * @endcode
 */
class HostPlatformHelper
{
  public:
    /** A helper with the model's bare defaults (no profile). */
    HostPlatformHelper();

    /**
     * @brief A helper configured from a profile.
     * @param profile profile name (Profile::List("host"))
     */
    explicit HostPlatformHelper(const std::string& profile);

    /**
     * @brief Reset both factories to a profile's values.
     * @param profile profile name
     */
    void SetProfile(const std::string& profile);

    /**
     * @brief Set an attribute of the HostPlatforms to create (after the profile's).
     * @param name attribute name
     * @param value value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Set an attribute of the NIC models to create (after the profile's).
     * @param name attribute name
     * @param value value
     */
    void SetNicAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Whether Install() also puts NIC models on every IP device (default true).
     * @param install true to install NIC models
     */
    void SetInstallNics(bool install);

    /**
     * @brief Aggregate a platform to a node and install NIC models on its IP devices.
     *
     * Call after the internet stack is installed and addresses are assigned.
     * @param node the node
     * @return the platform
     */
    Ptr<HostPlatform> Install(Ptr<Node> node) const;

    /**
     * @brief Install on every node of a container.
     * @param nodes the nodes
     */
    void Install(NodeContainer nodes) const;

    /**
     * @brief Assign random streams to the platforms of the nodes.
     * @param nodes nodes with platforms
     * @param stream first stream index
     * @return number of streams used
     */
    static int64_t AssignStreams(NodeContainer nodes, int64_t stream);

    /**
     * @brief Make new TCP sockets behave like Linux 2.6 of 2006 (ns-3's global defaults, as
     * Config::SetDefault sets them): BIC congestion control, MSS 1448 with timestamps and SACK,
     * initial window 3, delayed ACKs of at most 40 ms, minimum RTO 200 ms, 128 KiB send and
     * 171 KiB receive buffers (the [JAXA06] PCs; doc/host.rst).
     */
    static void ConfigureLinux26Tcp();

    /**
     * @brief The text of one HostCpu attribute that a CPU installed from a host profile gets,
     * read from the profile without creating anything (for a program's option checks inside
     * ProgramOptions::Parse): the user's --ns3::HostCpu::<name> if given (it wins); else the
     * profile's "HostCpu.<name>" (Install sets it after the CPU is created, so it wins over a
     * value inside the object value); else "<name>=..." inside the object value
     * (HostPlatform.Cpu = ns3::HostCpu[...]); else the attribute's initial value.
     * @param profile the host profile's name
     * @param name the HostCpu attribute (aborts if HostCpu has none of that name)
     * @return the value's text
     */
    static std::string CpuSetting(const std::string& profile, const std::string& name);

    /**
     * @brief Check that a host profile's CPU settings agree with each other as the CPU will
     * have them (CpuSetting: the user's --ns3::HostCpu::<name> over the profile's):
     * HostCpu::CheckCores on Cores, ShieldedCores and InterruptCore. What the CPU would stop
     * the run over is found before the run (and by --check).
     * @param profile the host profile
     * @param [out] error what is wrong, naming the profile
     * @return whether they agree
     */
    static bool TryCheckCpu(const std::string& profile, std::string& error);

  private:
    ObjectFactory m_platform; //!< HostPlatform factory
    ObjectFactory m_nic;      //!< HostNic factory
    std::vector<std::pair<std::string, std::string>>
        m_cpuSettings;  //!< the profile's HostCpu section
    bool m_installNics; //!< install NIC models
};

} // namespace ns3

#endif /* TESTBED_HOST_PLATFORM_HELPER_H */
