/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "user-attributes.h"

#include "program-options.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/profile.h"
#include "ns3/string.h"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <map>
#include <regex>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UserAttributes");

namespace
{

/** The program's name in messages. */
std::string g_program = "the program";

/** Defaults that Give() replaced: path -> the type's initial value before. */
std::map<std::string, Ptr<const AttributeValue>>&
Replaced()
{
    static std::map<std::string, Ptr<const AttributeValue>> replaced;
    return replaced;
}

/**
 * Whether a text is a time in ns-3's syntax (a number with an optional unit), which
 * Time(std::string) would otherwise end the program over (NS_FATAL_ERROR, exit status 134).
 * @param text the text
 * @return true if it is one
 */
bool
IsTimeText(const std::string& text)
{
    static const std::regex re("^[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                               "(?:s|ms|us|ns|ps|fs|min|h|d|y)?$");
    return std::regex_match(text, re);
}

/**
 * Split "ns3::Type::Attribute" at its last "::".
 * @param path the path
 * @param [out] type "ns3::Type"
 * @param [out] name "Attribute"
 * @return whether both parts are there
 */
bool
SplitPath(const std::string& path, std::string& type, std::string& name)
{
    auto pos = path.rfind("::");
    if (pos == std::string::npos || pos == 0 || pos + 2 >= path.size())
    {
        return false;
    }
    type = path.substr(0, pos);
    name = path.substr(pos + 2);
    return true;
}

/**
 * The index of an attribute that a type declares itself (not a parent), or -1.
 * @param tid the type
 * @param name the attribute's name
 * @return the index or -1
 */
int
OwnAttribute(TypeId tid, const std::string& name)
{
    for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        if (tid.GetAttribute(i).name == name)
        {
            return static_cast<int>(i);
        }
    }
    return -1;
}

/**
 * Check a value text against a checker before ns-3 parses it: ns-3 ends the program over a
 * malformed time (Time(std::string): NS_FATAL_ERROR) and over an unknown type or attribute in
 * an object's "ns3::Type[Name=Value|...]" text (ObjectFactory), instead of returning false.
 * @param info the attribute
 * @param value the text
 * @param [out] why why it is refused
 * @return true if ns-3 can parse it without stopping the program
 */
bool
PreCheckValue(const TypeId::AttributeInformation& info, const std::string& value, std::string& why)
{
    const std::string kind = info.checker->GetValueTypeName();
    if (kind == "ns3::TimeValue" && !IsTimeText(value))
    {
        why = "not a time (a number with s, ms, us, ns, ...: 20ms)";
        return false;
    }
    if (kind == "ns3::TimeValue" && !Profile::IsTimeTextInRange(value))
    {
        std::ostringstream max;
        max << std::setprecision(2) << Time::Max().GetSeconds();
        why = "a time beyond what ns-3's Time holds (|t| < " + max.str() + " s)";
        return false;
    }
    if (kind != "ns3::StringValue"
        && std::any_of(value.begin(), value.end(), [](unsigned char c) { return std::isspace(c); }))
    {
        why = "a value with a space";
        return false;
    }
    // DoubleValue, UintegerValue and IntegerValue read a number from a stream and abort when
    // text is left over ("0.5x", "abc"): their syntax is checked here.
    static const std::map<std::string, std::regex> numbers
        = {{"ns3::DoubleValue",
            std::regex("^[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")},
           {"ns3::UintegerValue", std::regex("^\\+?[0-9]+$")},
           {"ns3::IntegerValue", std::regex("^[+-]?[0-9]+$")}};
    auto number = numbers.find(kind);
    if (number != numbers.end() && !std::regex_match(value, number->second))
    {
        why = "not a number of the attribute's type ("
              + info.checker->GetUnderlyingTypeInformation() + ")";
        return false;
    }
    if (kind.rfind("ns3::EnumValue", 0) == 0)
    {
        // (EnumValue asserts on an unknown name where NS_ASSERT is compiled in)
        const std::string names = info.checker->GetUnderlyingTypeInformation();
        std::size_t pos = 0;
        while (pos <= names.size())
        {
            const std::size_t bar = names.find('|', pos);
            if (names.substr(pos, bar == std::string::npos ? std::string::npos : bar - pos)
                == value)
            {
                return true;
            }
            if (bar == std::string::npos)
            {
                break;
            }
            pos = bar + 1;
        }
        why = "not one of " + names;
        return false;
    }
    if (kind == "ns3::PointerValue")
    {
        // "ns3::Type" or "ns3::Type[Name=Value|Name=Value]", one level.
        static const std::regex re("^([A-Za-z0-9_:<>,]+)(?:\\[([^\\[\\]]*)\\])?$");
        std::smatch m;
        TypeId tid;
        if (!std::regex_match(value, m, re) || !TypeId::LookupByNameFailSafe(m[1].str(), &tid))
        {
            why = "not an object of a known type (ns3::Type[Name=Value|...])";
            return false;
        }
        std::string rest = m[2].str();
        std::size_t pos = 0;
        while (!rest.empty() && pos <= rest.size())
        {
            std::size_t bar = rest.find('|', pos);
            std::string item
                = rest.substr(pos, bar == std::string::npos ? std::string::npos : bar - pos);
            std::size_t eq = item.find('=');
            TypeId::AttributeInformation inner;
            if (eq == std::string::npos || !tid.LookupAttributeByName(item.substr(0, eq), &inner))
            {
                why = m[1].str() + " has no attribute '" + item.substr(0, eq) + "'";
                return false;
            }
            if (!PreCheckValue(inner, item.substr(eq + 1), why)
                || !inner.checker->CreateValidValue(StringValue(item.substr(eq + 1))))
            {
                why = item + ": " + (why.empty() ? std::string("refused") : why);
                return false;
            }
            if (bar == std::string::npos)
            {
                break;
            }
            pos = bar + 1;
        }
        return true;
    }
    if (kind == "ns3::ObjectPtrContainerValue" || kind == "ns3::CallbackValue")
    {
        why = info.name + " holds objects or a callback and cannot be given on the command line";
        return false;
    }
    return true;
}

} // namespace

std::map<std::string, std::string>&
UserAttributes::Given()
{
    static std::map<std::string, std::string> given;
    return given;
}

void
UserAttributes::SetProgram(const std::string& program)
{
    g_program = program;
}

bool
UserAttributes::Check(const std::string& path, const std::string& value, std::string& why)
{
    std::string type;
    std::string name;
    if (!SplitPath(path, type, name))
    {
        why = "not an attribute (--ns3::Type::Attribute=value)";
        return false;
    }
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid))
    {
        why = "no type " + type
              + " (./testbed python: testbed.ns lists them; ns-3's "
                "--PrintTypeIds)";
        return false;
    }
    const int index = OwnAttribute(tid, name);
    if (index < 0)
    {
        TypeId::AttributeInformation info;
        if (tid.LookupAttributeByName(name, &info))
        {
            for (TypeId t = tid; t.HasParent() && t.GetParent() != t;)
            {
                t = t.GetParent();
                if (OwnAttribute(t, name) >= 0)
                {
                    why = type + " inherits " + name + " from " + t.GetName() + ": give --"
                          + t.GetName() + "::" + name;
                    return false;
                }
            }
        }
        why = type + " has no attribute " + name + " (--PrintAttributes=" + type + " lists them)";
        return false;
    }
    const TypeId::AttributeInformation info = tid.GetAttribute(index);
    if ((info.flags & TypeId::ATTR_CONSTRUCT) == 0)
    {
        why = name + " cannot be set at construction";
        return false;
    }
    if (!PreCheckValue(info, value, why))
    {
        return false;
    }
    if (!info.checker->CreateValidValue(StringValue(value)))
    {
        why = "a value that " + name + " does not take ("
              + info.checker->GetUnderlyingTypeInformation() + ")";
        return false;
    }
    return true;
}

void
UserAttributes::Record(const std::string& path, const std::string& value)
{
    NS_LOG_FUNCTION(path << value);
    std::string type;
    std::string name;
    TypeId tid;
    NS_ABORT_MSG_UNLESS(SplitPath(path, type, name) && TypeId::LookupByNameFailSafe(type, &tid),
                        "UserAttributes::Record: not an attribute path: " << path);
    // The type's own spelling (a user may write a template's name with other spaces).
    Given()[tid.GetName() + "::" + name] = value;
}

void
UserAttributes::Give(const std::string& path, const std::string& value)
{
    std::string why;
    NS_ABORT_MSG_UNLESS(Check(path, value, why),
                        "UserAttributes::Give: " << path << "=" << value << ": " << why);
    std::string type;
    std::string name;
    SplitPath(path, type, name);
    TypeId tid = TypeId::LookupByName(type);
    const std::string key = tid.GetName() + "::" + name;
    if (Replaced().count(key) == 0)
    {
        Replaced()[key] = tid.GetAttribute(OwnAttribute(tid, name)).initialValue;
    }
    Record(path, value);
    Config::SetDefault(key, StringValue(value));
}

void
UserAttributes::Clear()
{
    for (const auto& [path, value] : Replaced())
    {
        Config::SetDefault(path, *value);
    }
    Replaced().clear();
    Given().clear();
}

const std::string*
UserAttributes::Find(TypeId tid, const std::string& name, std::string& path)
{
    if (Given().empty())
    {
        return nullptr;
    }
    for (TypeId t = tid;;)
    {
        auto it = Given().find(t.GetName() + "::" + name);
        if (it != Given().end())
        {
            path = it->first;
            return &it->second;
        }
        if (!t.HasParent() || t.GetParent() == t)
        {
            return nullptr;
        }
        t = t.GetParent();
    }
}

bool
UserAttributes::IsGiven(TypeId tid, const std::string& name)
{
    std::string path;
    return Find(tid, name, path) != nullptr;
}

bool
UserAttributes::SetDefault(ObjectBase& object, const std::string& name, const AttributeValue& value)
{
    if (IsGiven(object.GetInstanceTypeId(), name))
    {
        NS_LOG_LOGIC("keeping the user's " << object.GetInstanceTypeId().GetName() << "::" << name);
        return false;
    }
    object.SetAttribute(name, value);
    return true;
}

bool
UserAttributes::SetDefault(ObjectFactory& factory,
                           const std::string& name,
                           const AttributeValue& value)
{
    if (IsGiven(factory.GetTypeId(), name))
    {
        NS_LOG_LOGIC("keeping the user's " << factory.GetTypeId().GetName() << "::" << name);
        return false;
    }
    factory.Set(name, value);
    return true;
}

bool
UserAttributes::SetConfigDefault(const std::string& path, const AttributeValue& value)
{
    std::string type;
    std::string name;
    TypeId tid;
    NS_ABORT_MSG_UNLESS(SplitPath(path, type, name) && TypeId::LookupByNameFailSafe(type, &tid),
                        "UserAttributes::SetConfigDefault: not an attribute path: " << path);
    if (IsGiven(tid, name))
    {
        NS_LOG_LOGIC("keeping the user's " << path);
        return false;
    }
    Config::SetDefault(path, value);
    return true;
}

void
UserAttributes::RequireNotGiven(TypeId tid, const std::string& name, const std::string& by)
{
    std::string path;
    const std::string* value = Find(tid, name, path);
    ProgramOptions::Require(value == nullptr,
                            "--" + path + "=" + (value ? *value : std::string()) + ": " + g_program
                                + " sets " + path + " itself, " + by
                                + "; a value given for it here would be overwritten or contradict "
                                  "its record");
}

void
UserAttributes::SetFixed(ObjectBase& object,
                         const std::string& name,
                         const AttributeValue& value,
                         const std::string& by)
{
    RequireNotGiven(object.GetInstanceTypeId(), name, by);
    object.SetAttribute(name, value);
}

void
UserAttributes::SetFixed(ObjectFactory& factory,
                         const std::string& name,
                         const AttributeValue& value,
                         const std::string& by)
{
    RequireNotGiven(factory.GetTypeId(), name, by);
    factory.Set(name, value);
}

uint32_t
UserAttributes::Restore(ObjectBase& object)
{
    uint32_t n = 0;
    for (TypeId t = object.GetInstanceTypeId();;)
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            const std::string& name = t.GetAttribute(i).name;
            auto it = Given().find(t.GetName() + "::" + name);
            if (it != Given().end())
            {
                object.SetAttribute(name, StringValue(it->second));
                ++n;
            }
        }
        if (!t.HasParent() || t.GetParent() == t)
        {
            return n;
        }
        t = t.GetParent();
    }
}

} // namespace ns3
