/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "program-options.h"

#include "host-platform-helper.h"
#include "log-check.h"
#include "user-attributes.h"

#include "ns3/callback.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/profile.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#ifdef __linux__
#    include <csignal>
#    include <sys/prctl.h>
#endif
#include <unistd.h>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProgramOptions");

namespace
{

/**
 * When the environment names the process that started this program (TESTBED_PARENT_PID, set by
 * the campaign's runner), the program is killed when that process dies (Linux's
 * PR_SET_PDEATHSIG), so that a worker killed in the middle of a point leaves no program running;
 * a parent already gone (the program's parent is no longer that process) kills it at once. Set
 * here, as the program starts, rather than between fork and exec in the runner: a pre-exec hook
 * makes Python fork the whole worker process instead of using vfork, which cost 20 ms of CPU
 * per point (bench/spawn.py). Elsewhere, or without the variable, nothing happens.
 */
void
DieWithParent()
{
#ifdef __linux__
    const char* text = std::getenv("TESTBED_PARENT_PID");
    if (text == nullptr || *text == '\0')
    {
        return;
    }
    char* end = nullptr;
    const long parent = std::strtol(text, &end, 10);
    if (*end != '\0' || parent <= 0)
    {
        return; // not a process id: the runner sets a decimal pid, nothing else does
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != static_cast<pid_t>(parent))
    {
        raise(SIGKILL); // the parent died before the signal was armed
    }
#endif
}

/**
 * A JSON string literal.
 * @param s the text
 * @return the quoted, escaped text
 */
std::string
Quote(const std::string& s)
{
    std::string out = "\"";
    for (char c : s)
    {
        switch (c)
        {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20)
                {
                    char buf[8];
                    std::snprintf(buf, sizeof(buf), "\\u%04x", c);
                    out += buf;
                }
                else
                {
                    out += c;
                }
        }
    }
    return out + "\"";
}

/**
 * Parse a whole unsigned decimal number (no sign, no blanks).
 * @param text the text
 * @param [out] out the number
 * @return "" or why it is refused
 */
std::string
ParseUnsigned(const std::string& text, uint64_t& out)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    {
        return "not an unsigned integer (digits only, no sign)";
    }
    auto res = std::from_chars(text.data(), text.data() + text.size(), out);
    if (res.ec == std::errc::result_out_of_range)
    {
        return "too large";
    }
    return "";
}

/**
 * Parse a whole signed decimal number.
 * @param text the text
 * @param [out] out the number
 * @return "" or why it is refused
 */
std::string
ParseSigned(const std::string& text, int64_t& out)
{
    static const std::regex re("^[+-]?[0-9]+$");
    if (!std::regex_match(text, re))
    {
        return "not an integer";
    }
    const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
    auto res = std::from_chars(begin, text.data() + text.size(), out);
    if (res.ec == std::errc::result_out_of_range)
    {
        return "out of the integer range";
    }
    return "";
}

/**
 * Parse a whole, finite real number.
 * @param text the text
 * @param [out] out the number
 * @return "" or why it is refused
 */
std::string
ParseReal(const std::string& text, double& out)
{
    if (text.empty())
    {
        return "not a number";
    }
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size())
    {
        return "not a number";
    }
    if (!std::isfinite(out))
    {
        return "not a finite number";
    }
    return "";
}

/**
 * The number at the start of a value with a unit ("50ms", "1.5Mbps").
 * @param text the text
 * @param [out] number the number
 * @param [out] unit the rest
 * @return whether a finite number starts the text
 */
bool
SplitNumberUnit(const std::string& text, double& number, std::string& unit)
{
    static const std::regex re("^([+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
                               "\\s*([A-Za-z/]*)$");
    std::smatch m;
    if (!std::regex_match(text, m, re))
    {
        return false;
    }
    number = std::strtod(m[1].str().c_str(), nullptr);
    unit = m[2].str();
    return std::isfinite(number);
}

/**
 * Seconds per unit of ns-3's time syntax.
 * @param unit the unit ("" = seconds)
 * @param [out] seconds seconds per unit
 * @return whether ns-3 knows the unit
 */
bool
TimeUnitSeconds(const std::string& unit, double& seconds)
{
    static const std::map<std::string, double> units = {{"", 1.0},
                                                        {"s", 1.0},
                                                        {"ms", 1e-3},
                                                        {"us", 1e-6},
                                                        {"ns", 1e-9},
                                                        {"ps", 1e-12},
                                                        {"fs", 1e-15},
                                                        {"min", 60.0},
                                                        {"h", 3600.0},
                                                        {"d", 86400.0},
                                                        {"y", 365.0 * 86400.0}};
    auto it = units.find(unit);
    if (it == units.end())
    {
        return false;
    }
    seconds = it->second;
    return true;
}

/**
 * A time as text in a readable unit.
 * @param t the time
 * @return e.g. "50ms"
 */
std::string
TimeText(Time t)
{
    int64_t ns = t.GetNanoSeconds();
    if (t == NanoSeconds(ns))
    {
        if (ns % 1000000000 == 0)
        {
            return std::to_string(ns / 1000000000) + "s";
        }
        if (ns % 1000000 == 0)
        {
            return std::to_string(ns / 1000000) + "ms";
        }
        if (ns % 1000 == 0)
        {
            return std::to_string(ns / 1000) + "us";
        }
        return std::to_string(ns) + "ns";
    }
    return ProgramOptions::RealText(t.GetSeconds()) + "s";
}

/** The options of ns-3's own CommandLine help. */
/// Whether the command line gave an ns-3 attribute (--ns3::Type::Attribute=value).
bool g_attributesGiven = false;

/// The end of a --check that went through the program's set-up: the simulation would start.
void
EndCheckAtRun()
{
    std::cout.flush();
    std::cerr.flush();
    std::exit(0);
}

const std::set<std::string> g_helpOptions = {"help",
                                             "PrintHelp",
                                             "PrintGlobals",
                                             "PrintGroups",
                                             "PrintGroup",
                                             "PrintTypeIds",
                                             "PrintAttributes",
                                             "version",
                                             "PrintVersion"};

} // namespace

std::string
ProgramOptions::RealText(double x)
{
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof(buf), x);
    return std::string(buf, res.ptr);
}

ProgramOptions::ProgramOptions(const std::string& program, const std::string& description)
    : m_program(program)
    , m_description(description)
{
}

ProgramOptions::~ProgramOptions() = default;

ProgramOptions&
ProgramOptions::Declare(Option opt)
{
    NS_ABORT_MSG_IF(opt.name.empty() || opt.name == "output" || opt.name == "describe"
                        || opt.name == "progress" || opt.name == "check" || opt.name == "maxEvents"
                        || opt.name == "maxMemory",
                    "ProgramOptions: reserved or empty option name '" << opt.name << "'");
    for (const auto& o : m_opts)
    {
        NS_ABORT_MSG_IF(o->name == opt.name,
                        "ProgramOptions: option --" << opt.name << " declared twice");
    }
    m_opts.push_back(std::make_unique<Option>(std::move(opt)));
    return *this;
}

template<typename T, typename Parsed>
ProgramOptions&
ProgramOptions::AddNumber(const std::string& name,
                          const std::string& help,
                          T& value,
                          T min,
                          T max,
                          const char* type,
                          std::string (*parse)(const std::string&, Parsed&),
                          std::string (*text)(T),
                          const std::string& unit)
{
    NS_ABORT_MSG_IF(!(min <= max) || value < min || value > max,
                    "ProgramOptions: --" << name << ": default outside its range");
    Option o;
    o.name = name;
    o.type = type;
    o.help = help;
    o.defaultText = text(value);
    o.minText = text(min);
    o.maxText = text(max);
    o.unit = unit;
    T* target = &value;
    o.apply = [target, min, max, parse](const std::string& s) -> std::string {
        Parsed v{};
        std::string why = parse(s, v);
        if (!why.empty())
        {
            return why;
        }
        if (v < static_cast<Parsed>(min) || v > static_cast<Parsed>(max))
        {
            return "out of range";
        }
        *target = static_cast<T>(v);
        return "";
    };
    return Declare(std::move(o));
}

ProgramOptions&
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    uint32_t& value,
                    uint32_t min,
                    uint32_t max,
                    const std::string& unit)
{
    return AddNumber<uint32_t, uint64_t>(
        name,
        help,
        value,
        min,
        max,
        "uint",
        &ParseUnsigned,
        [](uint32_t x) { return std::to_string(x); },
        unit);
}

ProgramOptions&
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    uint64_t& value,
                    uint64_t min,
                    uint64_t max,
                    const std::string& unit)
{
    return AddNumber<uint64_t, uint64_t>(
        name,
        help,
        value,
        min,
        max,
        "uint",
        &ParseUnsigned,
        [](uint64_t x) { return std::to_string(x); },
        unit);
}

ProgramOptions&
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    int64_t& value,
                    int64_t min,
                    int64_t max,
                    const std::string& unit)
{
    return AddNumber<int64_t, int64_t>(
        name,
        help,
        value,
        min,
        max,
        "int",
        &ParseSigned,
        [](int64_t x) { return std::to_string(x); },
        unit);
}

ProgramOptions&
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    double& value,
                    double min,
                    double max,
                    const std::string& unit)
{
    return AddNumber<double,
                     double>(name, help, value, min, max, "real", &ParseReal, &RealText, unit);
}

ProgramOptions&
ProgramOptions::AddRepetitions(const std::string& name,
                               const std::string& help,
                               uint32_t& value,
                               uint32_t min,
                               uint32_t max)
{
    Add(name, help, value, min, max);
    m_opts.back()->repetitions = true;
    return *this;
}

ProgramOptions&
ProgramOptions::Add(const std::string& name, const std::string& help, bool& value)
{
    Option o;
    o.name = name;
    o.type = "bool";
    o.help = help;
    o.defaultText = value ? "true" : "false";
    o.choices = {"true", "false"};
    bool* target = &value;
    o.apply = [target](const std::string& text) -> std::string {
        if (text.empty() || text == "true" || text == "1" || text == "t")
        {
            *target = true;
        }
        else if (text == "false" || text == "0" || text == "f")
        {
            *target = false;
        }
        else
        {
            return "not a boolean (true, false, 1, 0)";
        }
        return "";
    };
    return Declare(std::move(o));
}

ProgramOptions&
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    Time& value,
                    Time min,
                    Time max)
{
    NS_ABORT_MSG_IF(min > max || value < min || value > max,
                    "ProgramOptions: --" << name << ": default outside its range");
    Option o;
    o.name = name;
    o.type = "time";
    o.help = help;
    o.defaultText = TimeText(value);
    o.minText = TimeText(min);
    o.maxText = TimeText(max);
    Time* target = &value;
    o.apply = [target, min, max](const std::string& text) -> std::string {
        double number = 0;
        std::string unit;
        double perUnit = 1;
        if (!SplitNumberUnit(text, number, unit) || !TimeUnitSeconds(unit, perUnit))
        {
            return "not a time (a number and a unit: s, ms, us, ns, min, h)";
        }
        // Checked in seconds before ns-3 converts it (a huge value overflows ns-3's Time), with
        // a tolerance that widens the range (the bounds themselves, "100us" = 1e-4 s, must pass
        // whatever the rounding of number * perUnit); the exact check on the Time follows.
        double seconds = number * perUnit;
        const double lo = min.GetSeconds();
        const double hi = max.GetSeconds();
        if (!std::isfinite(seconds) || seconds < lo - std::abs(lo) * 1e-12 - 1e-18
            || seconds > hi + std::abs(hi) * 1e-12 + 1e-18)
        {
            return "out of range";
        }
        // Within the tolerance: a value that ns-3's conversion rounds past a bound is the bound.
        Time t(text);
        *target = t < min ? min : (t > max ? max : t);
        return "";
    };
    return Declare(std::move(o));
}

ProgramOptions&
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    DataRate& value,
                    DataRate min,
                    DataRate max)
{
    NS_ABORT_MSG_IF(min > max || value < min || value > max,
                    "ProgramOptions: --" << name << ": default outside its range");
    Option o;
    o.name = name;
    o.type = "rate";
    o.help = help;
    o.defaultText = std::to_string(value.GetBitRate()) + "bps";
    o.minText = std::to_string(min.GetBitRate()) + "bps";
    o.maxText = std::to_string(max.GetBitRate()) + "bps";
    DataRate* target = &value;
    o.apply = [target, min, max](const std::string& text) -> std::string {
        double number = 0;
        std::string unit;
        DataRateValue v;
        if (!SplitNumberUnit(text, number, unit) || number < 0 || number > 1e15
            || !v.DeserializeFromString(text, MakeDataRateChecker()))
        {
            return "not a data rate (a number and a unit: bps, kbps, Mbps, Gbps, ...)";
        }
        if (v.Get() < min || v.Get() > max)
        {
            return "out of range";
        }
        *target = v.Get();
        return "";
    };
    return Declare(std::move(o));
}

ProgramOptions&
ProgramOptions::Add(const std::string& name, const std::string& help, std::string& value)
{
    Option o;
    o.name = name;
    o.type = "string";
    o.help = help;
    o.defaultText = value;
    std::string* target = &value;
    o.apply = [target](const std::string& text) -> std::string {
        *target = text;
        return "";
    };
    return Declare(std::move(o));
}

ProgramOptions&
ProgramOptions::AddOutputPrefix(const std::string& name,
                                const std::string& help,
                                std::string& value)
{
    Add(name, help, value);
    m_opts.back()->outputPrefix = true;
    std::string* target = &value;
    AddCheck([name, target]() {
        if (target->empty())
        {
            return;
        }
        const std::filesystem::path folder = std::filesystem::path(*target).parent_path().empty()
                                                 ? std::filesystem::path(".")
                                                 : std::filesystem::path(*target).parent_path();
        std::error_code ec;
        Require(std::filesystem::is_directory(folder, ec)
                    && access(folder.c_str(), W_OK | X_OK) == 0,
                "--" + name + "=" + *target + ": the folder '" + folder.string()
                    + "' does not exist or is not writable");
        // A file created there and removed again: access() says yes to root everywhere, and a
        // folder such as /proc takes no new file whatever its permissions (ns-3's pcap writer
        // would stop the run over it).
        std::string probe = (folder / ".testbed-probe-XXXXXX").string();
        const int fd = mkstemp(probe.data());
        const int err = errno;
        if (fd >= 0)
        {
            close(fd);
            unlink(probe.c_str());
        }
        Require(fd >= 0,
                "--" + name + "=" + *target + ": no file can be created in the folder '"
                    + folder.string() + "' (" + std::strerror(err) + ")");
    });
    return *this;
}

ProgramOptions&
ProgramOptions::AddChoice(const std::string& name,
                          const std::string& help,
                          std::string& value,
                          const std::vector<std::string>& choices)
{
    NS_ABORT_MSG_IF(std::find(choices.begin(), choices.end(), value) == choices.end(),
                    "ProgramOptions: --" << name << ": default not one of its choices");
    Option o;
    o.name = name;
    o.type = "choice";
    o.help = help;
    o.defaultText = value;
    o.choices = choices;
    std::string* target = &value;
    o.apply = [target, choices](const std::string& text) -> std::string {
        if (std::find(choices.begin(), choices.end(), text) == choices.end())
        {
            return "not one of the choices";
        }
        *target = text;
        return "";
    };
    return Declare(std::move(o));
}

ProgramOptions&
ProgramOptions::AddCheck(std::function<void()> check)
{
    m_checks.push_back(std::move(check));
    return *this;
}

namespace
{

/** How Parse and Require end the program (SetExit); empty: std::exit. */
std::function<void(int)> g_exit;

/**
 * End the program with a status: the hook's way (SetExit) if there is one, else std::exit.
 * @param status the exit status
 */
[[noreturn]] void
Exit(int status)
{
    if (g_exit)
    {
        g_exit(status); // a hook that returns still ends the program
    }
    std::exit(status);
}

} // namespace

void
ProgramOptions::SetExit(std::function<void(int)> exit)
{
    g_exit = std::move(exit);
}

void
ProgramOptions::Require(bool ok, const std::string& message)
{
    if (!ok)
    {
        std::cerr << "error: " << message << std::endl;
        Exit(EXIT_BAD_ARGUMENTS);
    }
}

void
ProgramOptions::PreCheck(int argc, char* argv[])
{
    std::set<std::string> globals;
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        globals.insert((*it)->GetName());
    }
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        Require(arg.size() > 1 && arg[0] == '-',
                "unexpected argument '" + arg + "' (options are --name=value)");
        std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
        auto eq = body.find('=');
        std::string name = body.substr(0, eq);
        std::string value = eq == std::string::npos ? "" : body.substr(eq + 1);
        bool known = name == "output" || name == "describe" || name == "progress" || name == "check"
                     || name == "maxEvents" || name == "maxMemory" || g_helpOptions.count(name) > 0
                     || name.find("::") != std::string::npos;
        for (const auto& o : m_opts)
        {
            known = known || o->name == name;
        }
        if (name.find("::") != std::string::npos)
        {
            // --ns3::Type::Attribute=value: checked here (ns-3 exits 1, or aborts on a bad
            // time), then recorded: it wins over the values the set-up gives
            // (UserAttributes).
            std::string why;
            Require(eq != std::string::npos, "--" + name + ": give a value (--" + name + "=...)");
            // Checked first: the message must be built after the check has set it.
            const bool ok = UserAttributes::Check(name, value, why);
            Require(ok, "--" + name + "=" + value + ": " + why);
            UserAttributes::Record(name, value);
            g_attributesGiven = true;
            continue;
        }
        if (name == "RngRun" || name == "RngSeed")
        {
            uint64_t v = 0;
            std::string why = ParseUnsigned(value, v);
            Require(why.empty() && (name == "RngRun" || v >= 1)
                        && (name == "RngRun" || v <= std::numeric_limits<uint32_t>::max()),
                    "--" + name + "=" + value + ": " + (why.empty() ? "out of range" : why)
                        + " (allowed: "
                        + (name == "RngRun" ? "0 .. 18446744073709551615" : "1 .. 4294967295")
                        + ")");
            continue;
        }
        if (name == "check" || name == "describe" || name == "progress")
        {
            // ns-3's CommandLine reads these flags: it would print its whole help and exit 1
            // over a value it does not read as a bool.
            std::string v = value;
            std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) {
                return static_cast<char>(std::tolower(c));
            });
            Require(eq == std::string::npos || v == "true" || v == "false" || v == "t" || v == "f"
                        || v == "1" || v == "0",
                    "--" + name + "=" + value + ": not a bool (true or false)");
            continue;
        }
        if (name == "SimulatorImplementationType" || name == "SchedulerType")
        {
            std::string why;
            // Checked first: the message must be built after the check has set it.
            const bool ok = CheckSimulatorType(name, value, why);
            Require(ok, "--" + name + "=" + value + ": " + why);
            continue;
        }
        if (!known && globals.count(name) > 0)
        {
            // Another global value of ns-3's (ChecksumEnabled, ...): its checker, here, as
            // CommandLine would end the program with its whole help over a value it refuses.
            for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
            {
                if ((*it)->GetName() == name)
                {
                    Require(eq != std::string::npos
                                && (*it)->GetChecker()->CreateValidValue(StringValue(value)),
                            "--" + name + "=" + value + ": not a value of ns-3's global " + name
                                + " (" + (*it)->GetChecker()->GetUnderlyingTypeInformation() + ")");
                }
            }
            continue;
        }
        if (!known && globals.count(name) == 0)
        {
            std::string names;
            for (const auto& o : m_opts)
            {
                names += " --" + o->name;
            }
            Require(false,
                    "unknown option --" + name + " (options:" + names
                        + " --output --describe --check --maxEvents --maxMemory; ns-3's --RngRun, "
                          "--RngSeed, --help)");
        }
    }
}

std::vector<std::string>
ProgramOptions::Rewrite(int argc, char* argv[])
{
    static const std::regex bareNumber("^[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?$");
    std::vector<std::string> args(argv, argv + argc);
    std::set<std::string> given;
    for (int i = 1; i < argc; ++i)
    {
        const std::string& arg = args[i];
        if (arg.size() > 1 && arg[0] == '-')
        {
            std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
            given.insert(body.substr(0, body.find('=')));
        }
    }
    for (int i = 1; i < argc; ++i)
    {
        std::string& arg = args[i];
        if (arg.size() < 2 || arg[0] != '-')
        {
            continue;
        }
        std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
        const auto eq = body.find('=');
        const std::string name = body.substr(0, eq);
        for (const Alias& a : m_aliases)
        {
            if (a.old != name)
            {
                continue;
            }
            std::string value = eq == std::string::npos ? "" : body.substr(eq + 1);
            const bool bare = !a.bareUnit.empty() && std::regex_match(value, bareNumber);
            if (a.old == a.name && !bare)
            {
                break; // the option's own spelling
            }
            Require(a.old == a.name || given.count(a.name) == 0,
                    "--" + a.old + " (deprecated) and --" + a.name + " are the same option: give "
                        + "--" + a.name + " only");
            if (bare)
            {
                value += a.bareUnit;
            }
            const std::string now = "--" + a.name + (eq == std::string::npos ? "" : "=" + value);
            std::cerr << "warning: " << m_program << ": " << arg
                      << (a.old == a.name ? " (a number without a unit, read in " + a.bareUnit + ")"
                                          : "")
                      << " is deprecated and will be refused in the next release: write " << now
                      << std::endl;
            arg = now;
            break;
        }
    }
    return args;
}

void
ProgramOptions::Parse(int argc, char* argv[])
{
    DieWithParent();
    UserAttributes::SetProgram(m_program);
    WarnOfCompiledOutLogs(m_program);
    for (int i = 1; i < argc; ++i)
    {
        Require(std::string(argv[i]) != "--checkBatch" || argc == 2,
                "--checkBatch takes no other option (the sets come on standard input)");
        Require(std::string(argv[i]) != "--serve" || argc == 2,
                "--serve takes no other option (the requests come on standard input)");
    }
    std::vector<std::string> batch;
    const bool serve = argc == 2 && std::string(argv[1]) == "--serve";
    if (serve || (argc == 2 && std::string(argv[1]) == "--checkBatch"))
    {
        // returns in a child only, with its set of options
        serve ? Serve(batch) : CheckBatch(batch);
        std::vector<char*> raw;
        for (auto& a : batch)
        {
            raw.push_back(a.data());
        }
        raw.push_back(nullptr);
        argc = static_cast<int>(batch.size());
        argv = raw.data();
        std::vector<std::string> rewritten = Rewrite(argc, argv);
        batch.swap(rewritten);
    }
    std::vector<std::string> args = m_batchChild || m_served ? batch : Rewrite(argc, argv);
    std::vector<char*> ptrs;
    for (auto& a : args)
    {
        ptrs.push_back(a.data());
    }
    ptrs.push_back(nullptr);
    argv = ptrs.data();
    PreCheck(argc, argv);
    DeclareCommandLine();
    m_cmd->Parse(argc, argv);
    if (m_batchChild)
    {
        m_check = true; // whatever the set says: a child never runs
        m_describe = false;
    }
    if (m_describe)
    {
        std::cout << Describe() << std::endl;
        Exit(0);
    }
    CheckValues();
    if (m_check)
    {
        if (!g_attributesGiven)
        {
            Exit(0);
        }
        // Which attributes the program sets itself is decided by its set-up
        // (UserAttributes::SetFixed and RequireNotGiven stop it, exit status 2, on a user value
        // for one of them): with an ns-3 attribute given, --check goes on through the set-up and
        // ends where the simulation would start, at the first event (scheduled here, before any
        // of the set-up's), with exit status 0. Nothing is simulated.
        Simulator::ScheduleNow(&EndCheckAtRun);
        return;
    }
    StartMemoryWatch();
    StartWallWatch();
}

void
ProgramOptions::DeclareCommandLine()
{
    m_cmd = std::make_unique<CommandLine>(m_program);
    m_cmd->Usage(m_description);
    for (auto& o : m_opts)
    {
        Option* opt = o.get();
        std::string help = opt->help;
        if (opt->type == "choice")
        {
            std::string list;
            for (size_t i = 0; i < opt->choices.size(); ++i)
            {
                list += (i ? ", " : "")
                        + (opt->choices[i].empty() ? std::string("\"\"") : opt->choices[i]);
            }
            help += " [" + list + "]";
        }
        else if (!opt->minText.empty())
        {
            help += " [" + opt->minText + " .. " + opt->maxText
                    + (opt->unit.empty() ? "" : " " + opt->unit) + "]";
        }
        m_cmd->AddValue(opt->name,
                        help,
                        ns3::Callback<bool, const std::string&>([opt](const std::string& text) {
                            opt->raw = text;
                            opt->given = true;
                            return true;
                        }),
                        opt->defaultText);
    }
    // Read verbatim through a callback: CommandLine reads a std::string with >>, which stops at
    // the first blank ("--output=x/my results/r.json" would write x/my).
    m_cmd->AddValue("output",
                    "JSON result file (- or empty: standard output)",
                    ns3::Callback<bool, const std::string&>([this](const std::string& text) {
                        m_output = text;
                        return true;
                    }),
                    m_output);
    m_cmd->AddValue("describe",
                    "print the options and the result fields as JSON and exit",
                    m_describe);
    m_cmd->AddValue("check", "check the options and exit without running", m_check);
    m_cmd->AddValue("maxEvents",
                    "budget of estimated simulator events: a run estimated above it is refused "
                    "before it starts (programs that estimate them)",
                    ns3::Callback<bool, const std::string&>([this](const std::string& text) {
                        double v = 0;
                        Require(ParseReal(text, v).empty() && v >= 1 && v <= 1e15,
                                "--maxEvents=" + text + ": not a number in [1, 1e15]");
                        m_maxEvents = v;
                        return true;
                    }),
                    RealText(m_maxEvents));
    m_cmd->AddValue("maxMemory",
                    "budget of resident memory (MiB): a run estimated above it is refused before "
                    "it starts (programs that estimate it), any run stops with exit 2 beyond it "
                    "(default: half the machine's memory)",
                    ns3::Callback<bool, const std::string&>([this](const std::string& text) {
                        uint64_t v = 0;
                        Require(ParseUnsigned(text, v).empty() && v >= 16 && v <= (1ULL << 30),
                                "--maxMemory=" + text
                                    + ": not a whole number of MiB in [16, 2^30]");
                        m_maxMemoryMb = v;
                        return true;
                    }),
                    "");
    m_cmd->AddValue("progress",
                    "report simulated-time progress on stderr while running",
                    m_progress);
}

void
ProgramOptions::CheckValues()
{
    for (auto& o : m_opts)
    {
        if (!o->given)
        {
            continue;
        }
        std::string why = o->apply(o->raw);
        if (!why.empty())
        {
            std::string allowed;
            if (o->type == "choice" || o->type == "bool")
            {
                for (size_t i = 0; i < o->choices.size(); ++i)
                {
                    allowed += (i ? ", " : "")
                               + (o->choices[i].empty() ? std::string("\"\"") : o->choices[i]);
                }
            }
            else if (!o->minText.empty())
            {
                allowed = o->minText + " .. " + o->maxText;
            }
            Require(false,
                    "--" + o->name + "=" + o->raw + ": " + why
                        + (allowed.empty() ? "" : " (allowed: " + allowed + ")"));
        }
    }
    if (m_profileFile && !m_profileFile->empty())
    {
        uint32_t count = 0;
        std::string error;
        // Loaded first: the message must be built after the load has set it.
        const bool ok = Profile::TryLoadFile(*m_profileFile, count, error);
        Require(ok, "--profileFile: " + error);
    }
    for (const ProfileCheck& c : m_profileChecks)
    {
        Require((c.allowEmpty && c.value->empty()) || Profile::Exists(c.kind, *c.value),
                "--" + c.option + "='" + *c.value + "' is not a profile of kind " + c.kind
                    + " (built-in or from --profileFile)");
    }
    // Every value that reaches a model is checked here, so that --check finds what the run
    // would refuse: the profiles' settings, --hostSet applied to the host profiles, --rtiSet
    // against RtiSettings' attributes, then the program's own rules (AddCheck).
    for (const ProfileCheck& c : m_profileChecks)
    {
        std::string error;
        // Checked first: the message must be built after the check has set it.
        const bool ok = c.value->empty() || Profile::Get(c.kind, *c.value).TryCheck(error);
        Require(ok, "--" + c.option + "=" + *c.value + ": " + error);
    }
    for (const std::string& name : m_settingsOptions)
    {
        const Profile::Settings settings = ParseSettings(GetText(name), name);
        if (name == "hostSet" && !settings.empty())
        {
            for (const ProfileCheck& c : m_profileChecks)
            {
                if (c.kind == "host" && !c.value->empty())
                {
                    WithHostSet(*c.value, GetText(name));
                }
            }
        }
        else if (name == "rtiSet")
        {
            for (const auto& [attribute, value] : settings)
            {
                std::string error;
                const bool ok
                    = Profile::TryCheckAttribute("ns3::RtiSettings", attribute, value, error);
                Require(ok, "--rtiSet: " + error);
            }
        }
    }
    // The CPU each host profile gives (with --hostSet and the user's --ns3::HostCpu:: values):
    // cores that HostCpu would stop the run over.
    const bool hostSet = std::find(m_settingsOptions.begin(), m_settingsOptions.end(), "hostSet")
                             != m_settingsOptions.end()
                         && !ParseSettings(GetText("hostSet"), "hostSet").empty();
    for (const ProfileCheck& c : m_profileChecks)
    {
        if (c.kind != "host" || c.value->empty())
        {
            continue;
        }
        const std::string profile = hostSet ? WithHostSet(*c.value, GetText("hostSet")) : *c.value;
        std::string error;
        // Checked first: the message must be built after the check has set it.
        const bool ok = HostPlatformHelper::TryCheckCpu(profile, error);
        Require(ok, "--" + c.option + "=" + *c.value + ": " + error);
    }
    for (const auto& check : m_checks)
    {
        check();
    }
    if (m_eventEstimate)
    {
        const double events = m_eventEstimate();
        Require(events <= m_maxEvents,
                "the run would take about " + RealText(std::round(events)) + " simulator events ("
                    + m_eventEstimateText + "), more than the budget --maxEvents="
                    + RealText(m_maxEvents) + ": shorten it, or raise --maxEvents to run it");
    }
    if (m_memoryEstimate)
    {
        const double mib = m_memoryEstimate();
        const uint64_t budget = MemoryBudgetMb();
        Require(mib <= static_cast<double>(budget),
                "the run would use about " + RealText(std::round(mib)) + " MiB ("
                    + m_memoryEstimateText
                    + "), more than the budget --maxMemory=" + std::to_string(budget)
                    + " (MiB): shorten it, or raise --maxMemory to run it");
    }
}

ProgramOptions&
ProgramOptions::AddProfileFile(std::string& path)
{
    m_profileFile = &path;
    return Add("profileFile",
               "a file of extra profiles (host, RTI, ...; the text format of doc/host.rst) to "
               "load first",
               path);
}

ProgramOptions&
ProgramOptions::AddProfile(const std::string& option,
                           const std::string& kind,
                           const std::string& help,
                           std::string& name,
                           bool allowEmpty)
{
    m_profileChecks.push_back(ProfileCheck{option, kind, &name, allowEmpty});
    return Add(option, help, name);
}

ProgramOptions&
ProgramOptions::AddHostProfile(std::string& name, const std::string& help, bool allowEmpty)
{
    return AddProfile("hostProfile", "host", help, name, allowEmpty);
}

ProgramOptions&
ProgramOptions::AddRtiProfile(std::string& name, const std::string& help, bool allowEmpty)
{
    return AddProfile("rtiProfile", "rti", help, name, allowEmpty);
}

ProgramOptions&
ProgramOptions::AddHostSet(std::string& changes)
{
    m_settingsOptions.emplace_back("hostSet");
    return Add("hostSet",
               "host parameters changed (sensitivity studies): Key=Value;... with Key a host "
               "profile setting (HostNic.InterruptDelay=50us) or an attribute inside an object "
               "value (ContextSwitchCost)",
               changes);
}

ProgramOptions&
ProgramOptions::AddRtiSet(std::string& changes)
{
    m_settingsOptions.emplace_back("rtiSet");
    return Add("rtiSet", "RtiSettings attributes after the RTI profile: Name=Value;...", changes);
}

ProgramOptions&
ProgramOptions::AddDeprecated(const std::string& old,
                              const std::string& name,
                              const std::string& bareUnit)
{
    bool declared = false;
    for (const auto& o : m_opts)
    {
        declared = declared || o->name == name;
        NS_ABORT_MSG_IF(o->name == old && old != name,
                        "ProgramOptions: deprecated --" << old << " is also an option");
    }
    NS_ABORT_MSG_IF(!declared, "ProgramOptions: --" << old << " stands for undeclared --" << name);
    NS_ABORT_MSG_IF(old == name && bareUnit.empty(),
                    "ProgramOptions: --" << old << " cannot stand for itself");
    m_aliases.push_back(Alias{old, name, bareUnit});
    return *this;
}

Profile::Settings
ProgramOptions::ParseSettings(const std::string& text, const std::string& option)
{
    Profile::Settings out;
    std::string error;
    bool ok = Profile::ParseChanges(text, out, error);
    Require(ok, "--" + option + ": " + error);
    return out;
}

std::string
ProgramOptions::WithHostSet(const std::string& profile, const std::string& changes)
{
    if (changes.empty())
    {
        return profile;
    }
    const Profile::Settings settings = ParseSettings(changes, "hostSet");
    // A change here and a user's --ns3::Section::Attribute= for the same attribute contradict
    // each other (the latter would win over the profile): refused.
    for (const auto& [key, value] : settings)
    {
        const auto dot = key.find('.');
        TypeId tid;
        if (dot != std::string::npos
            && TypeId::LookupByNameFailSafe("ns3::" + key.substr(0, dot), &tid))
        {
            std::string attr = key.substr(dot + 1);
            attr = attr.substr(0, attr.find('.'));
            UserAttributes::RequireNotGiven(tid, attr, "from its option --hostSet (" + key + ")");
        }
    }
    Profile copy;
    std::string error;
    bool ok
        = Profile::Get("host", profile).TryWithChanges(settings, profile + "+changed", copy, error);
    Require(ok, "--hostSet: " + error);
    ok = copy.TryCheck(error);
    Require(ok, "--hostSet: " + error);
    Profile::Register(copy);
    return copy.GetName();
}

ResultRecord&
ProgramOptions::Record()
{
    return m_record;
}

bool
ProgramOptions::IsGiven(const std::string& name) const
{
    for (const auto& o : m_opts)
    {
        if (o->name == name)
        {
            return o->given;
        }
    }
    NS_FATAL_ERROR("ProgramOptions::IsGiven: no option --" << name);
    return false;
}

std::string
ProgramOptions::GetText(const std::string& name) const
{
    for (const auto& o : m_opts)
    {
        if (o->name == name)
        {
            return o->given ? o->raw : o->defaultText;
        }
    }
    NS_FATAL_ERROR("ProgramOptions::GetText: no option --" << name);
    return "";
}

const std::string&
ProgramOptions::GetOutput() const
{
    return m_output;
}

std::string
ProgramOptions::Describe() const
{
    std::ostringstream os;
    os << "{\"program\": " << Quote(m_program) << ", \"description\": " << Quote(m_description)
       << ", \"options\": [";
    bool first = true;
    for (const auto& o : m_opts)
    {
        // Numbers as JSON numbers; times, rates, words as strings in the option's own syntax.
        bool number = o->type == "uint" || o->type == "int" || o->type == "real";
        auto value = [number](const std::string& text) {
            return number ? text : Quote(text);
        };
        os << (first ? "" : ", ") << "{\"name\": " << Quote(o->name)
           << ", \"type\": " << Quote(o->type)
           << ", \"default\": " << (o->type == "bool" ? o->defaultText : value(o->defaultText))
           << ", \"help\": " << Quote(o->help);
        if (!o->minText.empty())
        {
            os << ", \"min\": " << value(o->minText) << ", \"max\": " << value(o->maxText);
        }
        if (!o->unit.empty())
        {
            os << ", \"unit\": " << Quote(o->unit);
        }
        if (o->repetitions)
        {
            os << ", \"repetitions\": true";
        }
        if (o->outputPrefix)
        {
            os << ", \"output_prefix\": true";
        }
        if (!o->choices.empty())
        {
            os << ", \"choices\": [";
            for (size_t i = 0; i < o->choices.size(); ++i)
            {
                os << (i ? ", " : "") << Quote(o->choices[i]);
            }
            os << "]";
        }
        os << "}";
        first = false;
    }
    os << "], \"deprecated\": [";
    for (size_t i = 0; i < m_aliases.size(); ++i)
    {
        const Alias& a = m_aliases[i];
        os << (i ? ", " : "") << "{\"name\": " << Quote(a.old) << ", \"use\": " << Quote(a.name);
        if (!a.bareUnit.empty())
        {
            os << ", \"bare_number_unit\": " << Quote(a.bareUnit);
        }
        os << "}";
    }
    os << "], \"fields\": " << m_record.DescribeFields() << ", \"check_batch\": true}";
    return os.str();
}

} // namespace ns3
