/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_FOM_H
#define TESTBED_RTI_FOM_H

#include "rti-types.h"

#include "ns3/object.h"

#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed-rti
 * The federation object model (the FDD file every RTI component reads).
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief Object and interaction classes of a federation, with their handles.
 *
 * Every RTI component of a federation reads the same FOM (as pRTI's LRCs and CRC read the FDD
 * file), so handle lookups are local and cost no message. Handles are 1, 2, ... in the order of
 * definition; attribute and parameter handles are 1, 2, ... within their class.
 */
class RtiFom : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @brief Define an object class.
     * @param name class name (e.g. "HLAobjectRoot.Data")
     * @param attributes attribute names
     * @return the class handle
     */
    ObjectClassHandle AddObjectClass(const std::string& name,
                                     const std::vector<std::string>& attributes);

    /**
     * @brief Define an interaction class.
     * @param name class name
     * @param parameters parameter names
     * @return the class handle
     */
    InteractionClassHandle AddInteractionClass(const std::string& name,
                                               const std::vector<std::string>& parameters);

    /**
     * @brief Look up an object class; aborts if unknown.
     * @param name class name
     * @return its handle
     */
    ObjectClassHandle GetObjectClassHandle(const std::string& name) const;

    /**
     * @brief Look up an attribute; aborts if unknown.
     * @param cls the class
     * @param name attribute name
     * @return its handle
     */
    AttributeHandle GetAttributeHandle(ObjectClassHandle cls, const std::string& name) const;

    /**
     * @brief Look up an interaction class; aborts if unknown.
     * @param name class name
     * @return its handle
     */
    InteractionClassHandle GetInteractionClassHandle(const std::string& name) const;

    /**
     * @brief Look up a parameter; aborts if unknown.
     * @param cls the interaction class
     * @param name parameter name
     * @return its handle
     */
    ParameterHandle GetParameterHandle(InteractionClassHandle cls, const std::string& name) const;

    /**
     * @brief Whether an object class handle exists.
     * @param cls handle
     * @return true if defined
     */
    bool IsObjectClass(ObjectClassHandle cls) const;

    /**
     * @brief Whether an interaction class handle exists.
     * @param cls handle
     * @return true if defined
     */
    bool IsInteractionClass(InteractionClassHandle cls) const;

    /**
     * @brief Number of attributes of an object class.
     * @param cls the class
     * @return the count
     */
    uint32_t GetNAttributes(ObjectClassHandle cls) const;

  private:
    /** A class with its member names. */
    struct Class
    {
        std::string name;                 //!< class name
        std::vector<std::string> members; //!< attribute or parameter names
    };

    std::vector<Class> m_objectClasses;      //!< object classes (handle = index + 1)
    std::vector<Class> m_interactionClasses; //!< interaction classes (handle = index + 1)
};

} // namespace ns3

#endif /* TESTBED_RTI_FOM_H */
