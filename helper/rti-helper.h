/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_HELPER_H
#define TESTBED_RTI_HELPER_H

#include "ns3/object-factory.h"
#include "ns3/profile.h"
#include "ns3/rti-ambassador.h"
#include "ns3/rti-central-component.h"
#include "ns3/rti-fom.h"
#include "ns3/rti-settings.h"

#include <string>

/**
 * @file
 * @ingroup testbed-rti
 * Helper that builds a simulated RTI federation: settings, FOM, CRC, local components.
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief Builds one RTI federation: its settings, its FOM, the CRC on a node, and a local RTI
 * component (RtiAmbassador) per federate.
 *
 * @code
 * RtiHelper rti;
 * rti.SetSettingsAttribute("GaltMode", EnumValue(RtiSettings::NULL_MESSAGES));
 * ObjectClassHandle data = rti.GetFom()->AddObjectClass("Data", {"payload"});
 * Ptr<RtiCentralComponent> crc = rti.InstallCrc(pcA);  // nodes need a HostPlatform
 * Ptr<RtiAmbassador> amb = rti.InstallFederate(pcB, &myFederateAmbassador);
 * amb->JoinFederationExecution("receiver", "Benchmark", "JAXA");
 * @endcode
 */
class RtiHelper
{
  public:
    RtiHelper();

    /**
     * @brief Set the settings' attributes from a named profile of kind "rti" (Profile) (before
     * other attributes).
     * @param profile the profile name (e.g. "prti1516")
     */
    void SetProfile(const std::string& profile);

    /**
     * @brief Set an attribute of the federation's RtiSettings (before InstallCrc).
     * @param name attribute name
     * @param value value
     */
    void SetSettingsAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Set RtiSettings attributes given as text (a program's --rtiSet), each checked
     * first: the attribute must exist and the value must pass its checker.
     * @param settings (attribute name, value as text) pairs, set in order
     * @return "" if all were set, else why the first refused one was refused (nothing after it
     *         is set)
     */
    std::string TrySetSettings(const Profile::Settings& settings);
    /**
     * @brief The federation's settings (created at the first call; attributes set after that
     * apply to the created object).
     * @return the settings
     */
    Ptr<RtiSettings> GetSettings();

    /**
     * @brief The federation's object model, to fill before the federates use it.
     * @return the FOM
     */
    Ptr<RtiFom> GetFom();

    /**
     * @brief Start the CRC on a node.
     * @param node the node (HostPlatform and Internet stack installed)
     * @return the CRC
     */
    Ptr<RtiCentralComponent> InstallCrc(Ptr<Node> node);

    /**
     * @brief Create a federate's local RTI component on a node, connected to the CRC.
     * @param node the node (HostPlatform and Internet stack installed)
     * @param fa the federate's callbacks (not owned; may be set later)
     * @return the RTI ambassador
     */
    Ptr<RtiAmbassador> InstallFederate(Ptr<Node> node, FederateAmbassador* fa = nullptr);

    /** @return the CRC (null before InstallCrc) */
    Ptr<RtiCentralComponent> GetCrc() const;

  private:
    ObjectFactory m_settingsFactory; //!< settings factory
    Ptr<RtiSettings> m_settings;     //!< created settings
    Ptr<RtiFom> m_fom;               //!< the FOM
    Ptr<RtiCentralComponent> m_crc;  //!< the CRC
};

} // namespace ns3

#endif /* TESTBED_RTI_HELPER_H */
