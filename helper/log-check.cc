/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "log-check.h"

#include "ns3/log.h"
#include "ns3/system-path.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * Whether a component was defined in this module's own sources (model/, helper/, examples/ of the
 * checkout this file was compiled from). File() is the __FILE__ of NS_LOG_COMPONENT_DEFINE, which
 * has the same form (absolute, or relative to the build directory under ccache's base_dir) as
 * this file's own __FILE__.
 * @param file the component's file
 * @return true for a module source
 */
bool
IsModuleFile(const std::string& file)
{
    static const std::string self = __FILE__; // <root>/helper/log-check.cc
    static const std::string root
        = self.substr(0, self.size() - std::string("helper/log-check.cc").size());
    for (const char* dir : {"model/", "helper/", "examples/"})
    {
        if (file.rfind(root + dir, 0) == 0)
        {
            return true;
        }
    }
    return false;
}

} // namespace

std::vector<std::string>
CompiledOutLogComponents(const std::string& nsLog)
{
    std::vector<std::string> out;
#ifndef NS3_LOG_ENABLE
    const auto* components = LogComponent::GetComponentList();
    std::istringstream in(nsLog);
    std::string item;
    while (std::getline(in, item, ':'))
    {
        const std::string name = item.substr(0, item.find('='));
        if (name == "*" || name == "***")
        {
            out.emplace_back("*");
            continue;
        }
        auto it = components->find(name);
        if (it != components->end() && IsModuleFile(it->second->File()))
        {
            out.push_back(name);
        }
    }
#endif
    return out;
}

void
WarnOfCompiledOutLogs(const std::string& program)
{
    const char* nsLog = std::getenv("NS_LOG");
    if (nsLog == nullptr)
    {
        return;
    }
    const std::vector<std::string> names = CompiledOutLogComponents(nsLog);
    if (names.empty())
    {
        return;
    }
    std::string list;
    for (const auto& n : names)
    {
        list += (list.empty() ? "" : ", ") + (n == "*" ? std::string("* (the module's part)") : n);
    }
    // A user's program is built into build/scratch/, an example into build/examples/; the
    // logging build has the same layout.
    const std::string self = SystemPath::FindSelfDirectory();
    const std::string folder
        = self.substr(self.find_last_of('/') + 1) == "scratch" ? "scratch" : "examples";
    std::cerr << "warning: NS_LOG names " << list
              << ": this Release build compiled the module's NS_LOG statements out, so they print "
                 "nothing. `./testbed build --logs` builds a logging variant: build-logs/"
              << folder << "/" << program << std::endl;
}

} // namespace ns3
