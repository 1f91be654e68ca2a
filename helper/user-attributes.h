/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_USER_ATTRIBUTES_H
#define TESTBED_USER_ATTRIBUTES_H

#include "ns3/attribute.h"
#include "ns3/object-base.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <map>
#include <string>

/**
 * @file
 * @ingroup testbed
 * Attribute values the user gave on the command line, and the precedence they have over the
 * values a helper or a study set-up gives.
 */

namespace ns3
{

/**
 * @ingroup testbed
 * @brief The attribute values a user gave on a program's command line
 * (`--ns3::Type::Attribute=value`), and the rule that they win.
 *
 * ns-3's CommandLine turns such an argument into the attribute's default
 * (Config::SetDefault), which an object takes when it is created; a helper or a study set-up
 * that then sets the attribute on the object would silently replace the user's value. So the
 * helpers and the study set-ups set attributes through this class:
 *
 * - SetDefault(): a value of the set-up's own choosing (a study's default, a profile's value,
 *   a timer derived from other timers): skipped when the user gave the attribute, so the
 *   user's value stays. SetConfigDefault() is the same for Config::SetDefault, Restore() puts
 *   the user's values back after a model call that sets several attributes at once (such as
 *   SnoopingBridgeNetDevice::SetTimers).
 * - SetFixed(): a value the program decides from one of its own options or from the topology
 *   it builds (an address, a port, the delay of --delay): a user value for that attribute
 *   would contradict the program's option or its record, so the program stops with exit status
 *   2 naming the attribute and what sets it.
 *
 * ProgramOptions::Parse records the user's arguments (Record) after checking each one: an
 * unknown type or attribute, an attribute given under a type that does not declare it, and a
 * value that the attribute's checker refuses end the program with exit status 2 instead of
 * ns-3's exit status 1 or abort. Without a recorded argument (Python, the test suites) every
 * SetDefault and SetFixed sets its value as SetAttribute would.
 */
class UserAttributes
{
  public:
    /**
     * @brief Check one `--ns3::Type::Attribute=value` argument.
     * @param path "ns3::Type::Attribute"
     * @param value the value text
     * @param [out] why why it is refused
     * @return true if ns-3 will accept it as the attribute's default
     */
    static bool Check(const std::string& path, const std::string& value, std::string& why);

    /**
     * @brief Record a checked argument that the command line sets (ProgramOptions::Parse).
     * @param path "ns3::Type::Attribute"
     * @param value the value text
     */
    static void Record(const std::string& path, const std::string& value);

    /**
     * @brief Give an attribute as the command line would (tests, Python): check it (abort if
     * it is refused), record it and set it as the attribute's default.
     * @param path "ns3::Type::Attribute"
     * @param value the value text
     */
    static void Give(const std::string& path, const std::string& value);

    /**
     * @brief Forget every recorded attribute, and restore the defaults that Give() changed.
     */
    static void Clear();

    /**
     * @brief Whether the user gave an attribute of objects of a type (declared by the type or
     * one of its parents).
     * @param tid the object's type
     * @param name the attribute's name
     * @return true if given
     */
    static bool IsGiven(TypeId tid, const std::string& name);

    /**
     * @brief Set a value of the set-up's own choosing, unless the user gave the attribute.
     * @param object the object
     * @param name the attribute's name
     * @param value the value
     * @return whether the value was set
     */
    static bool SetDefault(ObjectBase& object,
                           const std::string& name,
                           const AttributeValue& value);

    /**
     * @brief SetDefault on an object behind a pointer.
     * @param object the object
     * @param name the attribute's name
     * @param value the value
     * @return whether the value was set
     */
    template<class T>
    static bool SetDefault(Ptr<T> object, const std::string& name, const AttributeValue& value)
    {
        return SetDefault(*PeekPointer(object), name, value);
    }

    /**
     * @brief A factory's value of the set-up's own choosing, unless the user gave the
     * attribute (the objects it creates then take the user's value from the default).
     * @param factory the factory (its type set)
     * @param name the attribute's name
     * @param value the value
     * @return whether the value was set
     */
    static bool SetDefault(ObjectFactory& factory,
                           const std::string& name,
                           const AttributeValue& value);

    /**
     * @brief Config::SetDefault of the set-up's own choosing, unless the user gave it.
     * @param path "ns3::Type::Attribute"
     * @param value the value
     * @return whether the default was set
     */
    static bool SetConfigDefault(const std::string& path, const AttributeValue& value);

    /**
     * @brief Set a value the program decides itself; a user value for the attribute ends the
     * program (exit status 2) with a message naming the attribute and @p by.
     * @param object the object
     * @param name the attribute's name
     * @param value the value
     * @param by what sets it, e.g. "from its option --delay" or "for the topology it builds"
     */
    static void SetFixed(ObjectBase& object,
                         const std::string& name,
                         const AttributeValue& value,
                         const std::string& by);

    /**
     * @brief SetFixed on an object behind a pointer.
     * @param object the object
     * @param name the attribute's name
     * @param value the value
     * @param by what sets it
     */
    template<class T>
    static void SetFixed(Ptr<T> object,
                         const std::string& name,
                         const AttributeValue& value,
                         const std::string& by)
    {
        SetFixed(*PeekPointer(object), name, value, by);
    }

    /**
     * @brief SetFixed on a factory.
     * @param factory the factory (its type set)
     * @param name the attribute's name
     * @param value the value
     * @param by what sets it
     */
    static void SetFixed(ObjectFactory& factory,
                         const std::string& name,
                         const AttributeValue& value,
                         const std::string& by);

    /**
     * @brief Stop (exit status 2) if the user gave an attribute that the program sets itself.
     * @param tid the type of the objects
     * @param name the attribute's name
     * @param by what sets it
     */
    static void RequireNotGiven(TypeId tid, const std::string& name, const std::string& by);

    /**
     * @brief Put the user's values back on an object, after a call that set several of its
     * attributes at once.
     * @param object the object
     * @return how many attributes were set
     */
    static uint32_t Restore(ObjectBase& object);

    /**
     * @brief Restore on an object behind a pointer.
     * @param object the object
     * @return how many attributes were set
     */
    template<class T>
    static uint32_t Restore(Ptr<T> object)
    {
        return Restore(*PeekPointer(object));
    }

    /**
     * @brief The program's name in messages (ProgramOptions sets it).
     * @param program the name
     */
    static void SetProgram(const std::string& program);

  private:
    /**
     * @brief The recorded value of an attribute of a type, if given.
     * @param tid the type
     * @param name the attribute's name
     * @param [out] path the "ns3::Type::Attribute" under which the user gave it
     * @return the value text, or nullptr
     */
    static const std::string* Find(TypeId tid, const std::string& name, std::string& path);

    /** @return "ns3::Type::Attribute" -> value of every recorded argument */
    static std::map<std::string, std::string>& Given();
};

} // namespace ns3

#endif /* TESTBED_USER_ATTRIBUTES_H */
