/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_LINK_EMULATOR_HELPER_H
#define TESTBED_LINK_EMULATOR_HELPER_H

#include "ns3/attribute.h"
#include "ns3/link-emulator-queue-disc.h"
#include "ns3/net-device-container.h"
#include "ns3/queue-disc-container.h"

#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup testbed-link
 * Installs LinkEmulatorQueueDisc with per-direction settings.
 */

namespace ns3
{

/**
 * @ingroup testbed-link
 * @brief Installs LinkEmulatorQueueDisc as the root queue disc of egress devices of an emulator
 * router, with separate attribute sets for the two directions (like NIST Net's and GINE's
 * per-direction settings).
 *
 * An emulated link joins side A and side B through the emulator router: direction A_TO_B is the
 * emulator's egress device toward B, B_TO_A its egress device toward A. Attributes set without a
 * direction apply to both; a per-direction setting overrides it. Installing replaces a root queue
 * disc already on the device (e.g. the default one of Ipv4AddressHelper).
 *
 * A "Timer" set through SetAttribute is shared by every queue disc installed with it (one
 * emulator clock, as on a NIST Net PC); set a separate TimerModel per direction if needed.
 *
 * Precedence in a program (UserAttributes): a value set with SetAttribute is the program's own
 * (its options), and a user's `--ns3::LinkEmulatorQueueDisc::<name>=` for it stops the program
 * (exit status 2); a value set with SetDefaultAttribute is a set-up's default, which a user's
 * `--ns3::LinkEmulatorQueueDisc::<name>=` replaces.
 */
class LinkEmulatorHelper
{
  public:
    /// The direction an attribute set applies to.
    enum Direction
    {
        A_TO_B, //!< traffic from side A to side B (installed on the device toward B)
        B_TO_A  //!< traffic from side B to side A (installed on the device toward A)
    };

    /// Create a helper with no attribute set (LinkEmulatorQueueDisc defaults).
    LinkEmulatorHelper();

    /**
     * @brief Set an attribute of LinkEmulatorQueueDisc for both directions.
     * @param name the attribute name (aborts if LinkEmulatorQueueDisc has none such)
     * @param value the value (aborts if invalid for the attribute)
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Set an attribute of LinkEmulatorQueueDisc for one direction.
     * @param direction A_TO_B or B_TO_A
     * @param name the attribute name (aborts if LinkEmulatorQueueDisc has none such)
     * @param value the value (aborts if invalid for the attribute)
     */
    void SetAttribute(Direction direction, const std::string& name, const AttributeValue& value);

    /**
     * @brief Set a default of the set-up for an attribute of LinkEmulatorQueueDisc, both
     * directions: a value the user gives on the command line replaces it.
     * @param name the attribute name (aborts if LinkEmulatorQueueDisc has none such)
     * @param value the value (aborts if invalid for the attribute)
     */
    void SetDefaultAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Install an emulator queue disc on one device.
     * @param device the emulator's egress device
     * @param direction the attribute set to use
     * @return the queue disc
     */
    Ptr<LinkEmulatorQueueDisc> Install(Ptr<NetDevice> device, Direction direction) const;

    /**
     * @brief Install emulator queue discs on devices, all with one direction's attributes.
     * @param devices the emulator's egress devices
     * @param direction the attribute set to use
     * @return the queue discs, in the order of the devices
     */
    QueueDiscContainer Install(const NetDeviceContainer& devices, Direction direction) const;

    /**
     * @brief Install both directions of one emulated link.
     * @param towardB the emulator's device toward B (gets the A_TO_B attributes)
     * @param towardA the emulator's device toward A (gets the B_TO_A attributes)
     * @return the queue discs: A_TO_B first, B_TO_A second
     */
    QueueDiscContainer InstallPair(Ptr<NetDevice> towardB, Ptr<NetDevice> towardA) const;

    /**
     * @brief Assign fixed random variable streams to the LinkEmulatorQueueDiscs in @p queueDiscs
     * (others are skipped).
     * @param queueDiscs the queue discs
     * @param stream first stream index to use
     * @return the number of stream indices assigned
     */
    static int64_t AssignStreams(const QueueDiscContainer& queueDiscs, int64_t stream);

  private:
    /// An attribute setting.
    struct Setting
    {
        std::string name;          //!< the attribute's name
        Ptr<AttributeValue> value; //!< its validated value
        bool fixed;                //!< the program's own value (else a default the user replaces)
    };

    /**
     * @brief Validate and store a setting.
     * @param direction A_TO_B or B_TO_A
     * @param name the attribute name
     * @param value the value
     * @param fixed the program's own value (SetAttribute) or a default (SetDefaultAttribute)
     */
    void Store(Direction direction,
               const std::string& name,
               const AttributeValue& value,
               bool fixed);

    std::vector<Setting> m_settings[2]; //!< settings per direction, in the order they were made
};

} // namespace ns3

#endif /* TESTBED_LINK_EMULATOR_HELPER_H */
