/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/profile.h"
#include "ns3/string.h"
#include "ns3/user-attributes.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiHelper");

RtiHelper::RtiHelper()
{
    m_settingsFactory.SetTypeId(RtiSettings::GetTypeId());
    m_fom = CreateObject<RtiFom>();
}

void
RtiHelper::SetProfile(const std::string& profile)
{
    // A profile's values are defaults: a user's --ns3::RtiSettings::<name>= replaces them.
    for (const auto& [name, value] : Profile::Get("rti", profile).GetSection("RtiSettings"))
    {
        if (m_settings)
        {
            UserAttributes::SetDefault(m_settings, name, StringValue(value));
        }
        else
        {
            UserAttributes::SetDefault(m_settingsFactory, name, StringValue(value));
        }
    }
}

void
RtiHelper::SetSettingsAttribute(const std::string& name, const AttributeValue& value)
{
    const std::string by = "from its options, through RtiHelper::SetSettingsAttribute";
    if (m_settings)
    {
        UserAttributes::SetFixed(m_settings, name, value, by);
    }
    else
    {
        UserAttributes::SetFixed(m_settingsFactory, name, value, by);
    }
}

std::string
RtiHelper::TrySetSettings(const Profile::Settings& settings)
{
    const TypeId tid = RtiSettings::GetTypeId();
    for (const auto& [name, value] : settings)
    {
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            return "RtiSettings has no attribute '" + name + "'";
        }
        std::string error;
        if (!Profile::TryCheckAttribute("ns3::RtiSettings", name, value, error))
        {
            return error; // a malformed number would abort in ns-3's parser
        }
        Ptr<AttributeValue> v = info.checker->CreateValidValue(StringValue(value));
        if (!v)
        {
            return "'" + value + "' is not a valid value of RtiSettings::" + name;
        }
        SetSettingsAttribute(name, *v);
    }
    return "";
}

Ptr<RtiSettings>
RtiHelper::GetSettings()
{
    if (!m_settings)
    {
        m_settings = m_settingsFactory.Create<RtiSettings>();
    }
    return m_settings;
}

Ptr<RtiFom>
RtiHelper::GetFom()
{
    return m_fom;
}

Ptr<RtiCentralComponent>
RtiHelper::InstallCrc(Ptr<Node> node)
{
    NS_ABORT_MSG_IF(m_crc, "RtiHelper: the federation already has a CRC");
    m_crc = CreateObject<RtiCentralComponent>();
    m_crc->Install(node, GetSettings(), m_fom);
    return m_crc;
}

Ptr<RtiAmbassador>
RtiHelper::InstallFederate(Ptr<Node> node, FederateAmbassador* fa)
{
    NS_ABORT_MSG_IF(!m_crc, "RtiHelper: InstallCrc before InstallFederate");
    Ptr<RtiAmbassador> amb = CreateObject<RtiAmbassador>();
    amb->Install(node, m_crc);
    amb->SetFederateAmbassador(fa);
    return amb;
}

Ptr<RtiCentralComponent>
RtiHelper::GetCrc() const
{
    return m_crc;
}

} // namespace ns3
