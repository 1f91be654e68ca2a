/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the text parsers a user's files reach, the parameter profiles
 * (Profile::TryLoadText, then TryCheck of each profile read, the checks --profileFile runs) and
 * the RCI schedule sheets (RciSchedule::Parse, --sheet), and the time texts of both
 * (Profile::IsTimeTextInRange). The first byte chooses the parser, the rest is the text.
 * Properties: nothing crashes, aborts or reads out of bounds; a refused text has a message that
 * starts with "origin:line: "; a sheet read has a frame in [MIN_FRAME_NS, MAX_FRAME_NS] and 1 to
 * MAX_ACTIONS actions with offsets inside the frame, in order; a time text the checker lets
 * through is one ns-3's parser reads (where NS_ASSERT is compiled in, an overflow aborts).
 */

#include "fuzz-common.h"

#include "ns3/nstime.h"
#include "ns3/profile.h"
#include "ns3/rci-schedule.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Whether a message names the origin and a line number ("origin:12: ...").
 * @param error the message
 * @param origin the origin
 * @return whether it does
 */
bool
NamesTheLine(const std::string& error, const std::string& origin)
{
    if (error.rfind(origin + ":", 0) != 0)
    {
        return false;
    }
    std::size_t i = origin.size() + 1;
    const std::size_t digits = i;
    while (i < error.size() && error[i] >= '0' && error[i] <= '9')
    {
        ++i;
    }
    return i > digits && error.compare(i, 2, ": ") == 0;
}

/**
 * The profiles a text declares, as "[KIND NAME]" lines (KIND "profile" is "host").
 * @param text the text
 * @return (kind, name) of each
 */
std::vector<std::pair<std::string, std::string>>
Sections(const std::string& text)
{
    std::vector<std::pair<std::string, std::string>> out;
    std::size_t pos = 0;
    while (pos < text.size())
    {
        std::size_t nl = text.find('\n', pos);
        std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        const auto first = line.find_first_not_of(" \t\r");
        const auto last = line.find_last_not_of(" \t\r");
        if (first != std::string::npos && line[first] == '[' && line[last] == ']')
        {
            line = line.substr(first + 1, last - first - 1);
            const auto space = line.find(' ');
            if (space != std::string::npos)
            {
                std::string kind = line.substr(0, space);
                std::string name = line.substr(space + 1);
                const auto a = name.find_first_not_of(" \t\r");
                const auto b = name.find_last_not_of(" \t\r");
                name = a == std::string::npos ? "" : name.substr(a, b - a + 1);
                out.emplace_back(kind == "profile" ? "host" : kind, name);
            }
        }
        if (nl == std::string::npos)
        {
            break;
        }
        pos = nl + 1;
    }
    return out;
}

} // namespace

extern "C" int
LLVMFuzzerInitialize(int* argc, char*** argv)
{
    auto seed = [](char which, const std::string& s) {
        std::vector<uint8_t> b{static_cast<uint8_t>(which)};
        b.insert(b.end(), s.begin(), s.end());
        return b;
    };
    testbed_fuzz::WriteSeeds(
        *argc,
        *argv,
        {seed('p',
              "# a PC\n[host fz-1]\ndescription = 2 GHz PC\n"
              "HostPlatform.Cpu = ns3::HostCpu[Frequency=2e9|Cores=2|IdleExitLatency=20us]\n"
              "HostNic.RxRingSize = 256\nHostNic.InterruptDelay = 50us\n"),
         seed('p',
              "[host fz-2]\nbase = pc2006-linux26\nHostCpu.InterruptCore = 0\n"
              "HostPlatform.Cpu.Frequency = 1e9\n\n[rti fz-3]\nbase = prti1516\n"
              "RtiSettings.CallCost = 20000\n"),
         seed('s',
              "frame 100ms\nupdate inputs 0ms   # read\noutput state 30ms\nsync visual 80ms\n"),
         seed('s',
              "\xEF\xBB\xBF"
              "frame 10ms\nsync a 1ms\nupdate b 250us\n"),
         seed('t', "1e30s"),
         seed('t', "9.2e9s")});
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
    {
        return 0;
    }
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string error;
    switch (data[0] % 3)
    {
        case 0: {
            uint32_t count = 0;
            if (!Profile::TryLoadText(text, "fuzz.txt", count, error))
            {
                testbed_fuzz::Check(NamesTheLine(error, "fuzz.txt"));
                break;
            }
            // What --profileFile then checks of every profile read: TryCheck (each value
            // against its attribute's checker, object values taken apart) must refuse, not
            // abort.
            for (const auto& [kind, name] : Sections(text))
            {
                testbed_fuzz::Check(Profile::Exists(kind, name));
                const bool ok = Profile::Get(kind, name).TryCheck(error);
                testbed_fuzz::Check(ok || !error.empty());
            }
            break;
        }
        case 1: {
            RciSchedule s;
            if (!RciSchedule::Parse(text, "fuzz.rci", s, error))
            {
                testbed_fuzz::Check(NamesTheLine(error, "fuzz.rci"));
                break;
            }
            const Time frame = s.GetFrame();
            testbed_fuzz::Check(frame >= NanoSeconds(RciSchedule::MIN_FRAME_NS)
                                && frame <= NanoSeconds(RciSchedule::MAX_FRAME_NS));
            const auto& actions = s.GetActions();
            testbed_fuzz::Check(!actions.empty() && actions.size() <= RciSchedule::MAX_ACTIONS);
            for (std::size_t i = 0; i < actions.size(); ++i)
            {
                testbed_fuzz::Check(!actions[i].offset.IsStrictlyNegative()
                                    && actions[i].offset < frame);
                testbed_fuzz::Check(i == 0 || actions[i - 1].offset <= actions[i].offset);
            }
            break;
        }
        default:
            if (text.size() <= 64 && Profile::IsTimeTextInRange(text))
            {
                // ns-3's parser asserts on a time beyond int64x64 (this build compiles NS_ASSERT
                // in): a text let through must be read.
                const Time t(text);
                testbed_fuzz::Check(t <= Time::Max() && t >= Time::Min());
            }
            break;
    }
    return 0;
}
