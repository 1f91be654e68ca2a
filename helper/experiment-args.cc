/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "experiment-args.h"

#include "ns3/environment-variable.h"
#include "ns3/global-value.h"
#include "ns3/string.h"

#include <cstdlib>
#include <iostream>

namespace ns3
{

void
ExperimentArgs::Require(bool ok, const std::string& message)
{
    if (!ok)
    {
        std::cerr << "error: " << message << std::endl;
        std::exit(EXIT_BAD_ARGUMENTS);
    }
}

DataRate
ExperimentArgs::ParseDataRate(const std::string& option, const std::string& text, bool allowZero)
{
    DataRateValue value;
    Ptr<const AttributeChecker> checker = MakeDataRateChecker();
    Require(value.DeserializeFromString(text, checker),
            "--" + option + "='" + text + "' is not a data rate (e.g. 128kbps, 1Mbps)");
    DataRate rate = value.Get();
    Require(allowZero || rate.GetBitRate() > 0, "--" + option + " must be > 0");
    return rate;
}

void
ExperimentArgs::SetSimulatorDefaults()
{
    if (!EnvironmentVariable::Get("NS_GLOBAL_VALUE", "SchedulerType").first)
    {
        GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
    }
}

} // namespace ns3
