/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FDDI_HELPER_H
#define TESTBED_FDDI_HELPER_H

#include "ns3/fddi-channel.h"
#include "ns3/fddi-net-device.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

/**
 * @file
 * @ingroup testbed-fddi
 * Builds FDDI rings.
 */

namespace ns3
{

/**
 * @ingroup testbed-fddi
 * @brief Builds an FDDI ring: one FddiNetDevice per node, in the nodes' order around the ring.
 */
class FddiHelper
{
  public:
    FddiHelper();

    /**
     * @brief Set an attribute of the devices to create.
     * @param name attribute name
     * @param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Set an attribute of the ring.
     * @param name attribute name
     * @param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Set the queue type and an attribute of the devices' transmit queues.
     * @param type queue TypeId name
     * @param name1 attribute name (may be empty)
     * @param value1 its value
     */
    void SetQueue(const std::string& type,
                  const std::string& name1 = "",
                  const AttributeValue& value1 = EmptyAttributeValue());

    /**
     * @brief Build a ring of the given nodes (at least 2).
     * @param nodes the stations in ring order
     * @return their devices, in the same order
     */
    NetDeviceContainer Install(const NodeContainer& nodes) const;

  private:
    ObjectFactory m_device;  //!< devices
    ObjectFactory m_channel; //!< ring
    ObjectFactory m_queue;   //!< transmit queues
};

} // namespace ns3

#endif /* TESTBED_FDDI_HELPER_H */
