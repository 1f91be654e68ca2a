/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "profile.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Profile");

namespace
{

/** A registered model family. */
struct Kind
{
    std::vector<std::string> sections;       //!< allowed section names
    std::string builtin;                     //!< built-in profiles (text), parsed on first use
    bool loaded{false};                      //!< builtin parsed
    std::map<std::string, Profile> profiles; //!< by name
};

/** @return the registry of kinds (constructed on first use, so static registrars may use it) */
std::map<std::string, Kind>&
Kinds()
{
    static std::map<std::string, Kind> kinds;
    return kinds;
}

/**
 * Trim blanks.
 * @param s string
 * @return trimmed string
 */
std::string
Trim(const std::string& s)
{
    auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
    {
        return "";
    }
    auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

/**
 * The kind of a name, with its built-in profiles parsed.
 * @param kind the kind's name
 * @return the kind, or null if none is registered
 */
Kind*
FindKind(const std::string& kind)
{
    auto it = Kinds().find(kind);
    if (it == Kinds().end())
    {
        return nullptr;
    }
    Kind& k = it->second;
    if (!k.loaded)
    {
        k.loaded = true;
        Profile::LoadText(k.builtin, "built-in " + kind + " profiles");
    }
    return &k;
}

/** An object value "TypeName[A=1|B=x[..]|C=3]" taken apart. */
struct ObjectValue
{
    std::string type;                                       //!< "TypeName"
    std::vector<std::pair<std::string, std::string>> attrs; //!< (name, value) in order
};

/**
 * Take an object value apart (brackets may nest inside attribute values).
 * @param text the value
 * @param [out] out the parts
 * @return false if @p text is not of the form "TypeName[...]"
 */
bool
ParseObjectValue(const std::string& text, ObjectValue& out)
{
    auto open = text.find('[');
    if (open == std::string::npos || text.back() != ']')
    {
        return false;
    }
    out.type = text.substr(0, open);
    out.attrs.clear();
    std::string inner = text.substr(open + 1, text.size() - open - 2);
    int depth = 0;
    std::string item;
    auto flush = [&out](const std::string& it) {
        if (it.empty())
        {
            return true;
        }
        auto eq = it.find('=');
        if (eq == std::string::npos || eq == 0)
        {
            return false;
        }
        out.attrs.emplace_back(it.substr(0, eq), it.substr(eq + 1));
        return true;
    };
    for (char ch : inner)
    {
        if (ch == '[')
        {
            ++depth;
        }
        else if (ch == ']')
        {
            --depth;
        }
        if (ch == '|' && depth == 0)
        {
            if (!flush(item))
            {
                return false;
            }
            item.clear();
            continue;
        }
        item += ch;
    }
    return depth == 0 && flush(item);
}

/**
 * Put an object value together again.
 * @param v the parts
 * @return "TypeName[A=1|B=2]"
 */
std::string
FormatObjectValue(const ObjectValue& v)
{
    std::string s = v.type + "[";
    for (size_t i = 0; i < v.attrs.size(); ++i)
    {
        s += (i ? "|" : "") + v.attrs[i].first + "=" + v.attrs[i].second;
    }
    return s + "]";
}

/**
 * Whether a text can stand as one attribute value inside an object value: no '|' outside
 * brackets and balanced brackets ("4000|Frequency=1" would set a second attribute).
 * @param text the value
 * @return true if it is one value
 */
bool
IsOneInnerValue(const std::string& text)
{
    int depth = 0;
    for (char ch : text)
    {
        if (ch == '[')
        {
            ++depth;
        }
        else if (ch == ']' && --depth < 0)
        {
            return false;
        }
        else if (ch == '|' && depth == 0)
        {
            return false;
        }
    }
    return depth == 0;
}

/**
 * Whether a value's text has its type's syntax, for the types whose ns-3 parser aborts on a
 * malformed text instead of refusing it (UintegerValue, IntegerValue, DoubleValue, TimeValue).
 * @param valueType the checker's value type name ("ns3::UintegerValue")
 * @param text the text
 * @return false if ns-3 would abort on it
 */
bool
IsWellFormed(const std::string& valueType, const std::string& text)
{
    static const std::regex integer("^[+-]?[0-9]+$");
    static const std::regex real("^[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?$");
    static const std::regex time("^[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                                 "(?:s|ms|us|ns|ps|fs|min|h|d|y)?$");
    if (valueType == "ns3::UintegerValue" || valueType == "ns3::IntegerValue")
    {
        return std::regex_match(text, integer);
    }
    if (valueType == "ns3::DoubleValue")
    {
        return std::regex_match(text, real);
    }
    if (valueType == "ns3::TimeValue")
    {
        return std::regex_match(text, time) && Profile::IsTimeTextInRange(text);
    }
    return true;
}

/**
 * Whether a value is one of an enum attribute's names: ns-3's EnumChecker asserts on an unknown
 * name instead of refusing it. Its GetUnderlyingTypeInformation lists the names, "A|B|C".
 * @param checker the attribute's checker
 * @param text the value's text
 * @return false for an enum value that names none of the enum's values; true otherwise
 */
bool
IsEnumName(Ptr<const AttributeChecker> checker, const std::string& text)
{
    if (checker->GetValueTypeName().rfind("ns3::EnumValue", 0) != 0)
    {
        return true;
    }
    std::istringstream names(checker->GetUnderlyingTypeInformation());
    std::string name;
    while (std::getline(names, name, '|'))
    {
        if (name == text)
        {
            return true;
        }
    }
    return false;
}

/**
 * Check an attribute value against its checker without creating anything: an object value
 * ("ns3::HostCpu[Frequency=2e9|Cores=1]", for a Pointer attribute) is taken apart and each
 * inner value checked against the named type's attribute, recursively.
 * @param checker the attribute's checker
 * @param value the value's text
 * @param where the attribute's name in the message
 * @param [out] error what is wrong when the result is false
 * @return whether ns-3 would accept the value
 */
bool
CheckAttributeValue(Ptr<const AttributeChecker> checker,
                    const std::string& value,
                    const std::string& where,
                    std::string& error)
{
    auto pointer = DynamicCast<const PointerChecker>(checker);
    if (!pointer)
    {
        if (!IsWellFormed(checker->GetValueTypeName(), value) || !IsEnumName(checker, value)
            || !checker->CreateValidValue(StringValue(value)))
        {
            error = "'" + value + "' is not a valid value of " + where;
            return false;
        }
        return true;
    }
    ObjectValue ov;
    if (value.find('[') == std::string::npos)
    {
        ov.type = value;
    }
    else if (!ParseObjectValue(value, ov))
    {
        error = "'" + value + "' is not an object value (Type[Name=Value|...]) for " + where;
        return false;
    }
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(ov.type, &tid) || !tid.HasConstructor()
        || !(tid == pointer->GetPointeeTypeId() || tid.IsChildOf(pointer->GetPointeeTypeId())))
    {
        error = "'" + ov.type + "' is not a type of " + pointer->GetPointeeTypeId().GetName()
                + " for " + where;
        return false;
    }
    for (const auto& [name, inner] : ov.attrs)
    {
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            error = ov.type + " has no attribute '" + name + "' (" + where + ")";
            return false;
        }
        if (!CheckAttributeValue(info.checker, inner, ov.type + "::" + name, error))
        {
            return false;
        }
    }
    return true;
}

/**
 * Replace (or add) an attribute inside an object value.
 * @param value the object value (changed in place)
 * @param inner the attribute's name
 * @param newValue its new value
 * @param add whether to add the attribute if the value does not set it yet
 * @return whether the value is an object value with that attribute (or one was added)
 */
bool
ReplaceInner(std::string& value,
             const std::string& inner,
             const std::string& newValue,
             bool add = false)
{
    ObjectValue ov;
    if (!ParseObjectValue(value, ov) || !IsOneInnerValue(newValue))
    {
        return false;
    }
    for (auto& [name, v] : ov.attrs)
    {
        if (name == inner)
        {
            v = newValue;
            value = FormatObjectValue(ov);
            return true;
        }
    }
    if (add)
    {
        ov.attrs.emplace_back(inner, newValue);
        value = FormatObjectValue(ov);
        return true;
    }
    return false;
}

} // namespace

Profile::Profile(std::string kind, std::string name, std::string description, Settings settings)
    : m_kind(std::move(kind))
    , m_name(std::move(name))
    , m_description(std::move(description))
    , m_settings(std::move(settings))
{
}

const std::string&
Profile::GetKind() const
{
    return m_kind;
}

const std::string&
Profile::GetName() const
{
    return m_name;
}

const std::string&
Profile::GetDescription() const
{
    return m_description;
}

const Profile::Settings&
Profile::GetSettings() const
{
    return m_settings;
}

const std::string&
Profile::GetBase() const
{
    return m_base;
}

const Profile::Settings&
Profile::GetOwnSettings() const
{
    return m_own;
}

const std::string&
Profile::GetOrigin() const
{
    return m_origin;
}

const Profile::Settings&
Profile::GetNotes() const
{
    return m_notes;
}

Profile::Settings
Profile::GetSection(const std::string& section) const
{
    Settings out;
    const std::string prefix = section + ".";
    for (const auto& [key, value] : m_settings)
    {
        if (key.compare(0, prefix.size(), prefix) == 0)
        {
            out.emplace_back(key.substr(prefix.size()), value);
        }
    }
    return out;
}

bool
Profile::TryWithChanges(const Settings& changes,
                        const std::string& name,
                        Profile& out,
                        std::string& error) const
{
    NS_LOG_FUNCTION(this << name);
    Profile p = *this;
    p.m_name = name;
    p.m_base = m_name;
    p.m_own = changes;
    p.m_origin.clear();
    p.m_notes.clear();
    for (const auto& change : changes)
    {
        const std::string& key = change.first;
        const std::string& value = change.second;
        if (key.find_first_of("[]|=") != std::string::npos)
        {
            error = "'" + key + "' is not a parameter name";
            return false;
        }
        // "Section.Attribute": the whole value.
        auto whole = std::find_if(p.m_settings.begin(), p.m_settings.end(), [&key](auto& s) {
            return s.first == key;
        });
        if (whole != p.m_settings.end())
        {
            whole->second = value;
            continue;
        }
        // "Section.Attribute.Inner": inside that setting's object value.
        auto dot = key.rfind('.');
        if (dot != std::string::npos)
        {
            std::string outer = key.substr(0, dot);
            std::string inner = key.substr(dot + 1);
            auto it = std::find_if(p.m_settings.begin(), p.m_settings.end(), [&outer](auto& s) {
                return s.first == outer;
            });
            if (it != p.m_settings.end() && !IsOneInnerValue(value))
            {
                error = "'" + value + "' is not one value of " + key
                        + " ('|' outside brackets, or unbalanced brackets)";
                return false;
            }
            if (it == p.m_settings.end() || !ReplaceInner(it->second, inner, value, true))
            {
                error = "'" + key + "' is not a setting of " + m_kind + " profile " + m_name
                        + " (nor an attribute inside one of its object values)";
                return false;
            }
            continue;
        }
        // "Inner": inside exactly one object value.
        if (!IsOneInnerValue(value))
        {
            error = "'" + value + "' is not one value of " + key
                    + " ('|' outside brackets, or unbalanced brackets)";
            return false;
        }
        std::vector<std::string> holders;
        for (auto& [k, v] : p.m_settings)
        {
            std::string copy = v;
            if (ReplaceInner(copy, key, value))
            {
                holders.push_back(k);
            }
        }
        if (holders.size() != 1)
        {
            if (holders.empty())
            {
                error = "'" + key + "' is not a parameter of " + m_kind + " profile " + m_name;
            }
            else
            {
                error = "'" + key + "' is ambiguous in " + m_kind + " profile " + m_name
                        + ": qualify it as one of";
                for (const auto& h : holders)
                {
                    error += " " + h + "." + key;
                }
            }
            return false;
        }
        for (auto& [k, v] : p.m_settings)
        {
            if (k == holders.front())
            {
                ReplaceInner(v, key, value);
            }
        }
    }
    out = p;
    return true;
}

bool
Profile::TryCheckAttribute(const std::string& typeName,
                           const std::string& attribute,
                           const std::string& value,
                           std::string& error)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid)
        || !tid.LookupAttributeByName(attribute, &info))
    {
        error = typeName + " has no attribute '" + attribute + "'";
        return false;
    }
    return CheckAttributeValue(info.checker, value, typeName + "::" + attribute, error);
}

bool
Profile::TryCheck(std::string& error) const
{
    for (const auto& [key, value] : m_settings)
    {
        auto dot = key.find('.');
        TypeId tid;
        TypeId::AttributeInformation info;
        if (dot == std::string::npos
            || !TypeId::LookupByNameFailSafe("ns3::" + key.substr(0, dot), &tid)
            || !tid.LookupAttributeByName(key.substr(dot + 1), &info))
        {
            error = m_kind + " profile " + m_name + ": '" + key + "' is not an attribute";
            return false;
        }
        if (!CheckAttributeValue(info.checker, value, key, error))
        {
            error = m_kind + " profile " + m_name + ": " + error;
            return false;
        }
    }
    return true;
}

Profile
Profile::WithChanges(const Settings& changes, const std::string& name) const
{
    Profile out;
    std::string error;
    NS_ABORT_MSG_IF(!TryWithChanges(changes, name, out, error), "Profile::WithChanges: " << error);
    return out;
}

bool
Profile::ParseChanges(const std::string& text, Settings& out, std::string& error)
{
    out.clear();
    std::string::size_type start = 0;
    while (start <= text.size())
    {
        auto end = text.find(';', start);
        std::string item
            = Trim(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (!item.empty())
        {
            auto eq = item.find('=');
            if (eq == std::string::npos || eq == 0)
            {
                error = "expected Name=Value, got '" + item + "'";
                return false;
            }
            out.emplace_back(Trim(item.substr(0, eq)), Trim(item.substr(eq + 1)));
        }
        if (end == std::string::npos)
        {
            break;
        }
        start = end + 1;
    }
    return true;
}

void
Profile::RegisterKind(const std::string& kind,
                      const std::vector<std::string>& sections,
                      const std::string& builtin)
{
    Kind& k = Kinds()[kind];
    k.sections = sections;
    k.builtin = builtin;
}

void
Profile::Register(const Profile& profile)
{
    NS_ABORT_MSG_IF(profile.m_name.empty(), "Profile::Register: empty profile name");
    Kind* k = FindKind(profile.m_kind);
    NS_ABORT_MSG_IF(!k, "Profile::Register: unknown profile kind '" << profile.m_kind << "'");
    k->profiles[profile.m_name] = profile;
}

bool
Profile::Exists(const std::string& kind, const std::string& name)
{
    Kind* k = FindKind(kind);
    return k && k->profiles.count(name) > 0;
}

const Profile&
Profile::Get(const std::string& kind, const std::string& name)
{
    Kind* k = FindKind(kind);
    NS_ABORT_MSG_IF(!k, "Profile: unknown profile kind '" << kind << "'");
    auto it = k->profiles.find(name);
    if (it == k->profiles.end())
    {
        std::ostringstream known;
        for (const auto& [n, p] : k->profiles)
        {
            known << " " << n;
        }
        NS_FATAL_ERROR("Profile: unknown " << kind << " profile '" << name
                                           << "'; known:" << known.str());
    }
    return it->second;
}

std::vector<std::string>
Profile::List(const std::string& kind)
{
    std::vector<std::string> names;
    if (Kind* k = FindKind(kind))
    {
        for (const auto& [n, p] : k->profiles)
        {
            names.push_back(n);
        }
    }
    return names;
}

std::vector<std::string>
Profile::ListKinds()
{
    std::vector<std::string> kinds;
    for (const auto& [name, k] : Kinds())
    {
        kinds.push_back(name);
    }
    return kinds;
}

bool
Profile::IsTimeTextInRange(const std::string& text)
{
    static const std::regex time("^([+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
                                 "(s|ms|us|ns|ps|fs|min|h|d|y)?$");
    std::smatch m;
    if (!std::regex_match(text, m, time))
    {
        return false;
    }
    // The units' lengths as ns-3's Time(std::string) takes them (a year is 365 days).
    static const std::map<std::string, long double> seconds = {{"", 1.0L},
                                                               {"s", 1.0L},
                                                               {"ms", 1e-3L},
                                                               {"us", 1e-6L},
                                                               {"ns", 1e-9L},
                                                               {"ps", 1e-12L},
                                                               {"fs", 1e-15L},
                                                               {"min", 60.0L},
                                                               {"h", 3600.0L},
                                                               {"d", 86400.0L},
                                                               {"y", 365.0L * 86400.0L}};
    const long double number = std::fabs(std::strtold(m[1].str().c_str(), nullptr));
    // int64x64 holds the number in its own unit first (a signed 64-bit integer part), then the
    // Time holds it in the resolution's unit (int64): a margin of 1/1000 below both bounds keeps
    // the rounding of the conversion inside them.
    const long double limit = 9.223372036854775807e18L * 0.999L;
    const long double value = number * seconds.at(m[2].str());
    return std::isfinite(number) && number < limit
           && value < static_cast<long double>(Time::Max().GetSeconds()) * 0.999L;
}

bool
Profile::TryLoadText(const std::string& text,
                     const std::string& origin,
                     uint32_t& count,
                     std::string& error)
{
    // A leading UTF-8 byte order mark (editors on Windows write one) is not part of the text.
    static const std::string bom = "\xEF\xBB\xBF";
    std::istringstream in(text.compare(0, bom.size(), bom) == 0 ? text.substr(bom.size()) : text);
    std::string line;
    uint32_t lineNo = 0;
    std::vector<Profile> read;
    std::vector<bool> derived;                                  // read[i] started from a base
    std::map<std::pair<std::string, std::string>, uint32_t> at; // (kind, name) -> its line
    auto where = [&origin, &lineNo]() {
        return origin + ":" + std::to_string(lineNo) + ": ";
    };
    while (std::getline(in, line))
    {
        ++lineNo;
        line = Trim(line);
        if (line.rfind("#@range", 0) == 0 && read.empty())
        {
            error = where() + "a '#@range' line belongs inside a profile's section";
            return false;
        }
        if (line.rfind("#@", 0) == 0 && !read.empty())
        {
            read.back().m_notes.emplace_back(origin + ":" + std::to_string(lineNo), line);
            continue;
        }
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        if (line.front() == '[')
        {
            auto space = line.find(' ');
            if (line.back() != ']' || space == std::string::npos)
            {
                error = where() + "expected '[KIND NAME]', got '" + Printable(line) + "'";
                return false;
            }
            std::string kind = line.substr(1, space - 1);
            std::string name = Trim(line.substr(space + 1, line.size() - space - 2));
            if (kind == "profile")
            {
                kind = "host";
            }
            if (Kinds().count(kind) == 0)
            {
                error = where() + "unknown profile kind '" + Printable(kind) + "'";
                return false;
            }
            if (name.empty())
            {
                error = where() + "empty profile name";
                return false;
            }
            auto [first, fresh] = at.emplace(std::make_pair(kind, name), lineNo);
            if (!fresh)
            {
                error = where() + "[" + kind + " " + name + "] is defined twice (first at line "
                        + std::to_string(first->second) + ")";
                return false;
            }
            read.emplace_back(kind, name, "", Settings{});
            read.back().m_origin = origin + ":" + std::to_string(lineNo);
            derived.push_back(false);
            continue;
        }
        auto eq = line.find('=');
        if (eq == std::string::npos)
        {
            error = where() + "expected 'key = value', got '" + Printable(line) + "'";
            return false;
        }
        if (read.empty())
        {
            error = where() + "setting outside a [KIND NAME] section";
            return false;
        }
        Profile& current = read.back();
        std::string key = Trim(line.substr(0, eq));
        std::string value = Trim(line.substr(eq + 1));
        if (key == "description")
        {
            current.m_description = value;
            continue;
        }
        if (key == "base")
        {
            // Start from another profile of the kind: read earlier in this text, or registered.
            if (derived.back() || !current.m_settings.empty())
            {
                error = where() + "'base' must come before the profile's settings, once";
                return false;
            }
            const Profile* base = nullptr;
            for (auto it = read.rbegin() + 1; it != read.rend() && !base; ++it)
            {
                base = it->m_kind == current.m_kind && it->m_name == value ? &*it : nullptr;
            }
            if (!base)
            {
                // (While the built-in text itself is read, its kind counts as loaded: only the
                // profiles read above are candidates.)
                const auto& registered = FindKind(current.m_kind)->profiles;
                auto found = registered.find(value);
                base = found == registered.end() ? nullptr : &found->second;
            }
            if (!base)
            {
                error = where() + "base '" + value + "' is not a " + current.m_kind
                        + " profile defined before this one";
                return false;
            }
            current.m_settings = base->m_settings;
            current.m_base = value;
            if (current.m_description.empty())
            {
                current.m_description = base->m_description;
            }
            derived.back() = true;
            continue;
        }
        if (derived.back())
        {
            // A derived profile changes its base's settings as WithChanges does (a whole
            // "Section.Attribute", or "Section.Attribute.Inner" inside an object value); a
            // setting the base does not have is added.
            Profile changed;
            std::string why;
            if (std::count(key.begin(), key.end(), '.') > 1
                || std::any_of(current.m_settings.begin(),
                               current.m_settings.end(),
                               [&key](const auto& kv) { return kv.first == key; }))
            {
                if (!current.TryWithChanges({{key, value}}, current.m_name, changed, why))
                {
                    error = where() + why;
                    return false;
                }
                current.m_settings = std::move(changed.m_settings);
                current.m_own.emplace_back(key, value);
                continue;
            }
        }
        const auto& sections = Kinds()[current.m_kind].sections;
        auto dot = key.find('.');
        std::string section = dot == std::string::npos ? "" : key.substr(0, dot);
        if (dot == std::string::npos || dot + 1 == key.size()
            || std::find(sections.begin(), sections.end(), section) == sections.end())
        {
            std::string allowed;
            for (const auto& s : sections)
            {
                allowed += (allowed.empty() ? "" : ", ") + s + ".<attribute>";
            }
            error = where() + "unknown key '" + Printable(key) + "' (expected description, "
                    + allowed + ")";
            return false;
        }
        current.m_settings.emplace_back(key, value);
        current.m_own.emplace_back(key, value);
    }
    for (const auto& p : read)
    {
        Kind& k = Kinds()[p.m_kind];
        if (!k.loaded)
        {
            // Built-in profiles first, so that a file can replace one of them.
            FindKind(p.m_kind);
        }
        k.profiles[p.m_name] = p;
    }
    count = static_cast<uint32_t>(read.size());
    return true;
}

uint32_t
Profile::LoadText(const std::string& text, const std::string& origin)
{
    uint32_t count = 0;
    std::string error;
    NS_ABORT_MSG_IF(!TryLoadText(text, origin, count, error), "Profile: " << error);
    return count;
}

bool
Profile::TryLoadFile(const std::string& path, uint32_t& count, std::string& error)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
    {
        error = "'" + path + "' is not a readable file";
        return false;
    }
    const auto bytes = std::filesystem::file_size(path, ec);
    if (ec || bytes > MAX_FILE_BYTES)
    {
        error = "'" + path + "' is longer than " + std::to_string(MAX_FILE_BYTES)
                + " bytes (the longest profile file read)";
        return false;
    }
    std::ifstream in(path);
    std::stringstream ss;
    if (in)
    {
        ss << in.rdbuf(); // sets ss's failbit on an empty file: not an error
    }
    if (!in || in.bad())
    {
        error = "cannot read profile file '" + path + "'";
        return false;
    }
    return TryLoadText(ss.str(), path, count, error);
}

uint32_t
Profile::LoadFile(const std::string& path)
{
    uint32_t count = 0;
    std::string error;
    NS_ABORT_MSG_IF(!TryLoadFile(path, count, error), "Profile: " << error);
    return count;
}

std::string
Profile::Printable(const std::string& text)
{
    std::string out;
    for (unsigned char c : text)
    {
        if (c >= 0x20 && c < 0x7f)
        {
            out += static_cast<char>(c);
        }
        else
        {
            static const char* hex = "0123456789ABCDEF";
            out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
        }
    }
    return out;
}

} // namespace ns3
