/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-fom.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiFom");

NS_OBJECT_ENSURE_REGISTERED(RtiFom);

TypeId
RtiFom::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiFom")
                            .SetParent<Object>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiFom>();
    return tid;
}

ObjectClassHandle
RtiFom::AddObjectClass(const std::string& name, const std::vector<std::string>& attributes)
{
    NS_LOG_FUNCTION(this << name);
    for (const auto& c : m_objectClasses)
    {
        NS_ABORT_MSG_IF(c.name == name, "RtiFom: object class '" << name << "' defined twice");
    }
    m_objectClasses.push_back({name, attributes});
    return m_objectClasses.size();
}

InteractionClassHandle
RtiFom::AddInteractionClass(const std::string& name, const std::vector<std::string>& parameters)
{
    NS_LOG_FUNCTION(this << name);
    for (const auto& c : m_interactionClasses)
    {
        NS_ABORT_MSG_IF(c.name == name, "RtiFom: interaction class '" << name << "' defined twice");
    }
    m_interactionClasses.push_back({name, parameters});
    return m_interactionClasses.size();
}

ObjectClassHandle
RtiFom::GetObjectClassHandle(const std::string& name) const
{
    for (uint32_t i = 0; i < m_objectClasses.size(); ++i)
    {
        if (m_objectClasses[i].name == name)
        {
            return i + 1;
        }
    }
    NS_FATAL_ERROR("RtiFom: unknown object class '" << name << "'");
    return 0;
}

AttributeHandle
RtiFom::GetAttributeHandle(ObjectClassHandle cls, const std::string& name) const
{
    NS_ABORT_MSG_IF(!IsObjectClass(cls), "RtiFom: unknown object class handle " << cls);
    const auto& m = m_objectClasses[cls - 1].members;
    for (uint32_t i = 0; i < m.size(); ++i)
    {
        if (m[i] == name)
        {
            return i + 1;
        }
    }
    NS_FATAL_ERROR("RtiFom: class '" << m_objectClasses[cls - 1].name << "' has no attribute '"
                                     << name << "'");
    return 0;
}

InteractionClassHandle
RtiFom::GetInteractionClassHandle(const std::string& name) const
{
    for (uint32_t i = 0; i < m_interactionClasses.size(); ++i)
    {
        if (m_interactionClasses[i].name == name)
        {
            return i + 1;
        }
    }
    NS_FATAL_ERROR("RtiFom: unknown interaction class '" << name << "'");
    return 0;
}

ParameterHandle
RtiFom::GetParameterHandle(InteractionClassHandle cls, const std::string& name) const
{
    NS_ABORT_MSG_IF(!IsInteractionClass(cls), "RtiFom: unknown interaction class handle " << cls);
    const auto& m = m_interactionClasses[cls - 1].members;
    for (uint32_t i = 0; i < m.size(); ++i)
    {
        if (m[i] == name)
        {
            return i + 1;
        }
    }
    NS_FATAL_ERROR("RtiFom: interaction '" << m_interactionClasses[cls - 1].name
                                           << "' has no parameter '" << name << "'");
    return 0;
}

bool
RtiFom::IsObjectClass(ObjectClassHandle cls) const
{
    return cls >= 1 && cls <= m_objectClasses.size();
}

bool
RtiFom::IsInteractionClass(InteractionClassHandle cls) const
{
    return cls >= 1 && cls <= m_interactionClasses.size();
}

uint32_t
RtiFom::GetNAttributes(ObjectClassHandle cls) const
{
    NS_ABORT_MSG_IF(!IsObjectClass(cls), "RtiFom: unknown object class handle " << cls);
    return m_objectClasses[cls - 1].members.size();
}

} // namespace ns3
