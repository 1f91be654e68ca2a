/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ProgramOptions: the simulator every program runs on (which implementations and event lists it
// accepts, which it selects) and the defaults of ns-3 models that every program shares (ARP).

#include "program-options.h"
#include "user-attributes.h"

#include "ns3/environment-variable.h"
#include "ns3/global-value.h"
#include "ns3/lean-simulator-impl.h"
#include "ns3/string.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ns3
{

bool
ProgramOptions::CheckSimulatorType(const std::string& global,
                                   const std::string& value,
                                   std::string& why)
{
    if (global == "SchedulerType")
    {
        // Every event list of ns-3 gives the same order (time, then insertion): any of them.
        TypeId tid;
        const TypeId base = TypeId::LookupByName("ns3::Scheduler");
        if (TypeId::LookupByNameFailSafe(value, &tid) && tid.HasConstructor()
            && tid.IsChildOf(base))
        {
            return true;
        }
        why = "not an event scheduler (one of";
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            const TypeId t = TypeId::GetRegistered(i);
            if (t.HasConstructor() && t.IsChildOf(base))
            {
                why += " " + t.GetName();
            }
        }
        why += ")";
        return false;
    }
    // The simulator implementations a program runs on: both run in simulated time, in one
    // process. ns3::RealtimeSimulatorImpl would pace the run by the wall clock (a simulated
    // hour lasting an hour), the distributed ones need MPI, the visualizer its GUI.
    static const std::vector<std::string> impls
        = {LeanSimulatorImpl::GetTypeId().GetName(), "ns3::DefaultSimulatorImpl"};
    if (std::find(impls.begin(), impls.end(), value) != impls.end())
    {
        return true;
    }
    why = value == "ns3::RealtimeSimulatorImpl"
              ? std::string("runs in wall-clock time (a simulated second lasts a second); the "
                            "programs run in simulated time")
              : "not a simulator implementation the programs run on";
    why += " (one of " + impls[0] + ", " + impls[1] + ")";
    return false;
}

void
ProgramOptions::SetSimulatorDefaults()
{
    if (!EnvironmentVariable::Get("NS_GLOBAL_VALUE", "SchedulerType").first)
    {
        GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
    }
    if (!EnvironmentVariable::Get("NS_GLOBAL_VALUE", "SimulatorImplementationType").first)
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(LeanSimulatorImpl::GetTypeId().GetName()));
    }
    // Address resolution as every studied host's kernel does it on a wired LAN: the ARP request
    // goes out at once (Linux 2.4 neigh_event_send -> arp_solicit; 4.4BSD arpresolve ->
    // arprequest; IRIX and Windows likewise), not after ns-3's random RequestJitter of 0-10 ms
    // (meant against collisions on wireless channels), which delayed the first packet to each
    // neighbour by up to 10 ms. A Config default, set before any node exists, so every
    // ArpL3Protocol builds one random variable as before (automatic stream numbers unchanged);
    // --ns3::ArpL3Protocol::RequestJitter still chooses another one.
    UserAttributes::SetConfigDefault("ns3::ArpL3Protocol::RequestJitter",
                                     StringValue("ns3::ConstantRandomVariable[Constant=0]"));
}

} // namespace ns3
