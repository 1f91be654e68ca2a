/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: a program's command line under --check, as ProgramOptions::Parse reads it
 * (jaxa-benchmark's options, JaxaBenchmark::AddOptions and its checks, and every option any
 * program takes: --ns3::Type::Attribute=, ns-3's global values, --hostSet, --rtiSet,
 * --profileFile, --maxEvents, ...). The input is the arguments, one a line. Properties: nothing
 * crashes, aborts or reads out of bounds, and --check ends with exit status 0 (the run would
 * start) or 2 (refused, with a message), never another one: what --check accepts does not make
 * the run abort over its options, and a sweep's pre-check agrees with its points.
 *
 * ns-3's own help and listing options (--help, --PrintHelp, --PrintTypeIds, ...) end the program
 * with ns-3's status by design; --checkBatch and --serve read standard input: inputs with them
 * are skipped.
 */

#include "fuzz-common.h"
#include "jaxa-benchmark-driver.h"

#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/program-options.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/user-attributes.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** How ProgramOptions ends the program here: a throw, caught after Parse. */
struct Exited
{
    int status; //!< the exit status
};

/** An attribute's default before any command line (a command line changes it). */
struct Default
{
    TypeId tid;                        //!< the type
    std::size_t index;                 //!< the attribute's index
    std::string path;                  //!< "ns3::Type::Attribute"
    Ptr<const AttributeValue> initial; //!< its default
};

/** Every attribute's default before any command line. */
std::vector<Default> g_defaults;
/** Every global value before any command line. */
std::map<std::string, std::string> g_globals;

/**
 * The name of an argument ("--name=value" -> "name").
 * @param arg the argument
 * @return its name
 */
std::string
NameOf(const std::string& arg)
{
    std::size_t start = arg.find_first_not_of('-');
    if (start == std::string::npos)
    {
        return "";
    }
    return arg.substr(start,
                      arg.find('=') == std::string::npos ? std::string::npos
                                                         : arg.find('=') - start);
}

/** Put back what a command line changed in the process: attribute defaults, global values. */
void
Restore()
{
    for (const Default& d : g_defaults)
    {
        if (d.tid.GetAttribute(d.index).initialValue != d.initial)
        {
            Config::SetDefaultFailSafe(d.path, *d.initial);
        }
    }
    UserAttributes::Clear();
    for (const auto& [name, value] : g_globals)
    {
        GlobalValue::BindFailSafe(name, StringValue(value));
    }
}

} // namespace

extern "C" int
LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ProgramOptions::SetSimulatorDefaults();
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            const auto info = tid.GetAttribute(a);
            g_defaults.push_back({tid, a, tid.GetName() + "::" + info.name, info.initialValue});
        }
    }
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        StringValue v;
        (*it)->GetValue(v);
        g_globals[(*it)->GetName()] = v.Get();
    }
    ProgramOptions::SetExit([](int status) { throw Exited{status}; });
    auto seed = [](const std::string& s) {
        return std::vector<uint8_t>(s.begin(), s.end());
    };
    testbed_fuzz::WriteSeeds(
        *argc,
        *argv,
        {seed("--mode=async\n--dataSize=64\n--exchanges=10\n--reps=1"),
         seed("--mode=sync\n--bandwidth=128kbps\n--delay=50ms\n--netem=true"),
         seed("--ns3::HostCpu::InterruptCore=0\n--ns3::HostCpu::IdleExitLatency=10us"),
         seed("--hostSet=HostNic.InterruptDelay=50us;HostCpu.Cores=2"),
         seed("--rtiSet=CallCost=20000\n--galt=null\n--nagle=off"),
         seed("--SchedulerType=ns3::MapScheduler\n--RngRun=3\n--RngSeed=2"),
         seed("--halfDuplex=true\n--emulatorNic=auto\n--extraCrc=2\n--extraOther=1"),
         seed("--maxEvents=1e9\n--maxMemory=512\n--output=-"),
         seed("--ns3::HostPlatform::Cpu=ns3::HostCpu[Frequency=2e9|Cores=2]"),
         seed("--delayDirection=a-to-b\n--crcHost=sender\n--tsoData=false")});
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::vector<std::string> args{"jaxa-benchmark"};
    std::string text(reinterpret_cast<const char*>(data), size);
    std::size_t pos = 0;
    while (pos <= text.size())
    {
        std::size_t nl = text.find('\n', pos);
        std::string arg = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        if (!arg.empty())
        {
            if (arg.find('\0') != std::string::npos)
            {
                return 0; // a C string ends there: no command line holds it
            }
            const std::string name = NameOf(arg);
            if (name == "checkBatch" || name == "serve" || name == "help"
                || name.rfind("Print", 0) == 0)
            {
                return 0;
            }
            args.push_back(arg);
        }
        if (nl == std::string::npos)
        {
            break;
        }
        pos = nl + 1;
    }
    args.emplace_back("--check");
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);

    int status = -1;
    {
        JaxaBenchmarkConfig config;
        ProgramOptions opts("jaxa-benchmark", "fuzzed");
        JaxaBenchmark::AddOptions(opts, config);
        // As jaxa-benchmark's main() declares them.
        opts.AddCheck([&config]() { JaxaBenchmark::Check(config); });
        try
        {
            opts.Parse(static_cast<int>(args.size()), argv.data());
        }
        catch (const Exited& e)
        {
            status = e.status;
        }
    }
    if (status == -1)
    {
        // Parse returned: with an ns-3 attribute given, --check goes on through the program's
        // set-up to the first event (ProgramOptions::Parse). This target checks the options, not
        // the set-up: the options were accepted; the pending end-of-check event goes.
        Simulator::Destroy();
        status = 0;
    }
    Restore();
    testbed_fuzz::Check(status == 0 || status == 2);
    return 0;
}
