/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_PROFILE_H
#define TESTBED_PROFILE_H

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup testbed-profile
 * Named parameter profiles (host platforms, RTIs, ...): text data, one registry, WithChanges().
 */

namespace ns3
{

/**
 * @defgroup testbed-profile Parameter profiles
 * @ingroup testbed
 *
 * A profile is a named set of attribute values for the objects of one model family: one kind of
 * PC (kind "host": ns3::HostPlatform and ns3::HostNic attributes), one RTI (kind "rti":
 * ns3::RtiSettings attributes), ... Profiles are data, not code: each family registers its kind
 * with the sections (object types) its profiles may set and its built-in profiles as text; more
 * can be read from a file or registered at run time, and WithChanges() derives a variant for a
 * sensitivity or calibration study.
 */

/**
 * @ingroup testbed-profile
 * @brief A named set of attribute values of one model family, and the registry of all profiles.
 *
 * The text format (LoadText / LoadFile; '#' starts a comment line):
 *
 * @code
 * [host my-pc]
 * description = 2 GHz Linux 2.6 PC
 * HostPlatform.Cpu = ns3::HostCpu[Frequency=2e9|Cores=1|ContextSwitchCost=4000]
 * HostNic.RxRingSize = 256
 *
 * [rti my-rti]
 * RtiSettings.CallCost = 20000
 * @endcode
 *
 * A section header is "[KIND NAME]" ("[profile NAME]" is read as "[host NAME]"; one section per
 * kind and name in a text, a leading UTF-8 byte order mark is ignored); a setting is
 * "Section.Attribute = value", where Section is one of the sections the kind declared
 * (RegisterKind) and value is the attribute's string form. Settings keep their order: a helper
 * applies them in the order written.
 *
 * "base = OTHER", before any setting, starts the profile from the settings (and description)
 * of OTHER, a profile of the same kind read earlier in the text or already registered; the
 * settings that follow change it as WithChanges() does ("Section.Attribute" replaces a whole
 * value in place, "Section.Attribute.Inner" an attribute inside an object value), and a setting
 * the base does not have is added:
 * @code
 * [host my-slow-pc]
 * base = my-pc
 * HostPlatform.Cpu.Frequency = 1e9
 * @endcode
 *
 * A comment line that starts with "#@" inside a profile's section is a note: it does not change
 * the profile, but the parser keeps it with the profile (GetNotes()) for the tools that read
 * declarations from them (the "#@range" lines of the sensitivity analysis). The program
 * profile-dump prints every profile as this parser reads it (settings, base, own settings,
 * notes), so that no other program parses the text format again.
 */
class Profile
{
  public:
    /** Ordered settings: ("Section.Attribute", value) pairs. */
    typedef std::vector<std::pair<std::string, std::string>> Settings;

    Profile() = default;

    /**
     * @brief A profile.
     * @param kind the model family (a registered kind)
     * @param name the profile's name
     * @param description what it describes, with sources
     * @param settings the ordered settings
     */
    Profile(std::string kind, std::string name, std::string description, Settings settings);

    /** @return the model family ("host", "rti", ...) */
    const std::string& GetKind() const;
    /** @return the profile's name */
    const std::string& GetName() const;
    /** @return what the profile describes */
    const std::string& GetDescription() const;
    /** @return every setting, in order */
    const Settings& GetSettings() const;
    /** @return the profile it was derived from ("base = NAME", or WithChanges()), "" if none */
    const std::string& GetBase() const;
    /**
     * @return the settings the profile states itself, in order: the lines of its text after
     * "base" (a profile made by WithChanges(): its changes); for a profile without a base these
     * are its settings as written, before any "Section.Attribute.Inner" is folded in
     */
    const Settings& GetOwnSettings() const;
    /** @return where the profile's text starts ("FILE:LINE"; "" for a profile made in code) */
    const std::string& GetOrigin() const;
    /** @return the "#@" comment lines of the profile's section: ("FILE:LINE", line text) */
    const Settings& GetNotes() const;

    /**
     * @brief The settings of one section, without the section prefix, in order.
     * @param section a section name ("HostPlatform")
     * @return (attribute, value) pairs
     */
    Settings GetSection(const std::string& section) const;

    /**
     * @brief A copy with some values changed (for sensitivity and calibration studies), named
     * @p name. Each change is (key, value) with key one of
     *  - "Section.Attribute": replaces that setting's whole value (it must exist);
     *  - "Section.Attribute.Inner": sets the attribute Inner inside that setting's object
     *    value ("ns3::HostCpu[Frequency=3e9|IdleEntryTime=100us]"), adding it if the value does
     *    not set it yet (the object's TypeId checks the name when the object is created);
     *  - "Inner": an attribute inside exactly one object value of the profile (an error if none
     *    or several have it: qualify it then).
     * @param changes the changes, applied in order
     * @param name the new profile's name
     * @param [out] out the new profile
     * @param [out] error what is wrong when the result is false
     * @return whether every change applied
     */
    bool TryWithChanges(const Settings& changes,
                        const std::string& name,
                        Profile& out,
                        std::string& error) const;

    /**
     * @brief Check every setting against its object's attribute (name, and value with the
     * attribute's checker; object values such as "ns3::HostCpu[Frequency=0]" are taken apart
     * and checked inside), without creating any object: what would abort when a helper applies
     * the profile is found here.
     * @param [out] error what is wrong, naming the profile and the setting
     * @return whether every setting is valid
     */
    bool TryCheck(std::string& error) const;

    /**
     * @brief Check one attribute value of a type as TryCheck() does (name, syntax, checker;
     * object values taken apart), without creating any object.
     * @param typeName the type ("ns3::RtiSettings")
     * @param attribute the attribute's name
     * @param value the value's text
     * @param [out] error what is wrong
     * @return whether ns-3 would accept the value
     */
    static bool TryCheckAttribute(const std::string& typeName,
                                  const std::string& attribute,
                                  const std::string& value,
                                  std::string& error);

    /**
     * @brief As TryWithChanges(), aborting with the error message if a change does not apply.
     * @param changes the changes
     * @param name the new profile's name
     * @return the new profile
     */
    Profile WithChanges(const Settings& changes, const std::string& name) const;

    /**
     * @brief Split "Key=Value;Key=Value" into ordered pairs (empty items are skipped).
     * @param text the text
     * @param [out] out the pairs
     * @param [out] error what is wrong when the result is false
     * @return whether every item had the form Key=Value
     */
    static bool ParseChanges(const std::string& text, Settings& out, std::string& error);

    /**
     * @brief Whether a time in ns-3's text form ("20ms", "1e30s") is one a Time holds: its
     * number below 2^63 in its own unit and its value below Time::Max() (about 9.2e9 s at
     * ns-3's nanosecond resolution). ns-3's parser stops the program on a larger one (an
     * int64x64 overflow) instead of refusing it, so every text is checked here first.
     * @param text the time's text (a number with an optional unit: s, ms, us, ns, ps, fs, min,
     * h, d, y)
     * @return false for a malformed text or one beyond Time's range
     */
    static bool IsTimeTextInRange(const std::string& text);

    /**
     * @brief A text for a message, with every byte outside printable ASCII written as \xNN (a
     * stray byte order mark or control character would be invisible in the message).
     * @param text the text
     * @return the printable form
     */
    static std::string Printable(const std::string& text);

    /**
     * @brief Longest profile file TryLoadFile reads (bytes): 1 MiB, hundreds of times the
     * built-in profiles (a few KiB); a longer file is refused before it is read.
     */
    static constexpr uint64_t MAX_FILE_BYTES = 1 << 20;

    // --- the registry ---------------------------------------------------------------------

    /**
     * @brief Declare a model family: the sections its profiles may set and its built-in
     * profiles (text format, parsed on first use of the kind).
     * @param kind the family's name ("host")
     * @param sections the allowed section names ("HostPlatform", "HostNic")
     * @param builtin the built-in profiles in the text format (may be empty)
     */
    static void RegisterKind(const std::string& kind,
                             const std::vector<std::string>& sections,
                             const std::string& builtin);

    /**
     * @brief Register (or replace) a profile.
     * @param profile the profile (its kind must be registered)
     */
    static void Register(const Profile& profile);

    /**
     * @brief Whether a profile exists.
     * @param kind the model family
     * @param name the profile's name
     * @return true if registered
     */
    static bool Exists(const std::string& kind, const std::string& name);

    /**
     * @brief A profile; aborts with the known names of the kind if there is none of that name.
     * @param kind the model family
     * @param name the profile's name
     * @return the profile
     */
    static const Profile& Get(const std::string& kind, const std::string& name);

    /**
     * @brief The names of a kind's profiles.
     * @param kind the model family
     * @return the names, sorted
     */
    static std::vector<std::string> List(const std::string& kind);

    /**
     * @brief The registered model families.
     * @return the kinds' names, sorted
     */
    static std::vector<std::string> ListKinds();

    /**
     * @brief Parse profiles in the text format and register them (all or none).
     * @param text the text
     * @param origin the text's name in error messages (a file name)
     * @param [out] count the number of profiles read
     * @param [out] error "origin:line: what is wrong" when the result is false
     * @return whether the text was well formed
     */
    static bool TryLoadText(const std::string& text,
                            const std::string& origin,
                            uint32_t& count,
                            std::string& error);

    /**
     * @brief As TryLoadText(), aborting with the error message on a malformed text.
     * @param text the text
     * @param origin the text's name in error messages
     * @return the number of profiles read
     */
    static uint32_t LoadText(const std::string& text, const std::string& origin);

    /**
     * @brief Read a file of profiles (TryLoadText on its contents).
     * @param path the file
     * @param [out] count the number of profiles read
     * @param [out] error what is wrong when the result is false (unreadable or malformed)
     * @return whether the file was read
     */
    static bool TryLoadFile(const std::string& path, uint32_t& count, std::string& error);

    /**
     * @brief As TryLoadFile(), aborting with the error message.
     * @param path the file
     * @return the number of profiles read
     */
    static uint32_t LoadFile(const std::string& path);

  private:
    std::string m_kind;        //!< model family
    std::string m_name;        //!< profile name
    std::string m_description; //!< what it describes
    Settings m_settings;       //!< ordered settings
    std::string m_base;        //!< the profile it was derived from ("" if none)
    Settings m_own;            //!< the settings it states itself (after "base")
    std::string m_origin;      //!< where its text starts ("FILE:LINE")
    Settings m_notes;          //!< its "#@" comment lines: (FILE:LINE, text)
};

} // namespace ns3

#endif /* TESTBED_PROFILE_H */
