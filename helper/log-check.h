/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_LOG_CHECK_H
#define TESTBED_LOG_CHECK_H

#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed
 * A warning when NS_LOG names a component of this module that the build compiled out.
 */

namespace ns3
{

/**
 * @ingroup testbed
 * @brief The components of this module (model/, helper/, examples/) that an NS_LOG value names
 * and whose NS_LOG statements this build compiled out.
 *
 * A Release build (`./testbed build`) compiles the module's NS_LOG statements out, as ns-3's
 * release profile does, while the wheel's ns-3 keeps its own: NS_LOG=<a module component> then
 * prints nothing. "*" (all components) names every module component. Empty when the module was
 * compiled with NS3_LOG_ENABLE (a Debug build, `./testbed build --logs`, an ns-3 tree's debug
 * profile) or when NS_LOG names none of the module's components.
 *
 * @param nsLog the value of NS_LOG (`name[=level|...][:name...]`)
 * @return the names, in NS_LOG's order
 */
std::vector<std::string> CompiledOutLogComponents(const std::string& nsLog);

/**
 * @brief When the environment's NS_LOG names components that CompiledOutLogComponents() finds,
 * print one warning line on stderr saying so and how to get their output (the logging build in
 * build-logs/). Called by ProgramOptions::Parse, so every experiment program warns.
 * @param program the program's name (for the path of its logging build)
 */
void WarnOfCompiledOutLogs(const std::string& program);

} // namespace ns3

#endif /* TESTBED_LOG_CHECK_H */
