/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rci-schedule.h"

#include "ns3/abort.h"
#include "ns3/profile.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * Parse a time with a unit ("10ms"); no unit is an error (a sheet must say what it means).
 * @param text the token
 * @param out the time
 * @return true on success
 */
bool
ParseTime(const std::string& text, Time& out)
{
    std::size_t i = 0;
    while (
        i < text.size()
        && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' || text[i] == '+'))
    {
        ++i;
    }
    if (i == 0 || i == text.size())
    {
        return false;
    }
    static const std::set<std::string> units{"s", "ms", "us", "ns"};
    if (!units.count(text.substr(i)))
    {
        return false;
    }
    try
    {
        std::size_t used = 0;
        double v = std::stod(text.substr(0, i), &used);
        const std::string unit = text.substr(i);
        const double perUnit = unit == "s" ? 1.0 : unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : 1e-9;
        // At most 10^6 s: far beyond any frame (MAX_FRAME_NS), and ns-3's Time (int64 ns,
        // about 9.2e9 s) cannot overflow (9.3e9 s aborted in int64x64).
        if (used != i || !(v >= 0) || v * perUnit > 1e6)
        {
            return false;
        }
    }
    catch (const std::exception&)
    {
        return false;
    }
    out = Time(text);
    return true;
}

} // namespace

RciSchedule::RciSchedule()
    : m_frame(Seconds(0))
{
}

std::string
RciSchedule::KindName(Kind kind)
{
    switch (kind)
    {
        case UPDATE:
            return "update";
        case OUTPUT:
            return "output";
        case SYNC:
            return "sync";
    }
    return "?";
}

bool
RciSchedule::Parse(const std::string& text,
                   const std::string& origin,
                   RciSchedule& out,
                   std::string& error)
{
    RciSchedule s;
    std::set<std::string> names;
    // A leading UTF-8 byte order mark (editors on Windows write one) is not part of the text.
    static const std::string bom = "\xEF\xBB\xBF";
    std::istringstream in(text.compare(0, bom.size(), bom) == 0 ? text.substr(bom.size()) : text);
    std::string line;
    uint32_t lineNo = 0;
    auto fail = [&](uint32_t n, const std::string& what) {
        error = origin + ":" + std::to_string(n) + ": " + what;
        return false;
    };
    while (std::getline(in, line))
    {
        ++lineNo;
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::vector<std::string> w;
        std::string word;
        while (words >> word)
        {
            w.push_back(word);
        }
        if (w.empty())
        {
            continue;
        }
        std::string key = w[0];
        std::transform(key.begin(), key.end(), key.begin(), ::tolower);
        if (key == "frame")
        {
            if (w.size() != 2)
            {
                return fail(lineNo, "expected 'frame LENGTH' (e.g. 'frame 10ms')");
            }
            if (!s.m_frame.IsZero())
            {
                return fail(lineNo, "a second 'frame' statement");
            }
            if (!s.m_actions.empty())
            {
                return fail(lineNo, "'frame' must come before the actions");
            }
            Time t;
            if (!ParseTime(w[1], t) || !t.IsStrictlyPositive())
            {
                return fail(lineNo,
                            "frame length '" + Profile::Printable(w[1])
                                + "' is not a positive time with a unit (s, ms, us, ns)");
            }
            if (t < NanoSeconds(MIN_FRAME_NS) || t > NanoSeconds(MAX_FRAME_NS))
            {
                return fail(lineNo,
                            "frame length '" + w[1] + "' is outside " + "[100us, 3600s]"
                                + " (shorter: below the era's timer resolution and one event per "
                                  "action without end; longer: no real-time frame)");
            }
            s.m_frame = t;
            continue;
        }
        Kind kind;
        if (key == "update")
        {
            kind = UPDATE;
        }
        else if (key == "output")
        {
            kind = OUTPUT;
        }
        else if (key == "sync")
        {
            kind = SYNC;
        }
        else
        {
            return fail(lineNo,
                        "unknown statement '" + Profile::Printable(w[0])
                            + "' (frame, update, output or sync)");
        }
        if (s.m_frame.IsZero())
        {
            return fail(lineNo, "an action before the 'frame' statement");
        }
        if (w.size() != 3)
        {
            return fail(lineNo, "expected '" + key + " NAME OFFSET'");
        }
        const std::string& name = w[1];
        bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        });
        if (!valid)
        {
            return fail(lineNo,
                        "action name '" + Profile::Printable(name) + "' is not an identifier");
        }
        if (!names.insert(name).second)
        {
            return fail(lineNo, "a second action named '" + name + "'");
        }
        Time offset;
        if (!ParseTime(w[2], offset))
        {
            return fail(lineNo,
                        "offset '" + Profile::Printable(w[2])
                            + "' is not a time with a unit (s, ms, us, ns)");
        }
        if (offset >= s.m_frame)
        {
            return fail(lineNo,
                        "offset " + w[2] + " is not inside the frame (0 <= offset < frame)");
        }
        if (s.m_actions.size() == MAX_ACTIONS)
        {
            return fail(lineNo,
                        "more than " + std::to_string(MAX_ACTIONS)
                            + " actions (the most a sheet may declare)");
        }
        s.m_actions.push_back({kind, name, offset});
    }
    if (s.m_frame.IsZero())
    {
        return fail(lineNo, "no 'frame' statement");
    }
    if (s.m_actions.empty())
    {
        return fail(lineNo, "no action (update, output or sync)");
    }
    std::stable_sort(s.m_actions.begin(), s.m_actions.end(), [](const Action& a, const Action& b) {
        return a.offset < b.offset;
    });
    out = std::move(s);
    return true;
}

RciSchedule
RciSchedule::LoadFile(const std::string& path)
{
    std::ifstream f(path);
    NS_ABORT_MSG_IF(!f, "RCI schedule sheet " << path << ": cannot be read");
    std::stringstream buf;
    buf << f.rdbuf();
    RciSchedule s;
    std::string error;
    NS_ABORT_MSG_IF(!Parse(buf.str(), path, s, error), "RCI schedule sheet " << error);
    return s;
}

RciSchedule
RciSchedule::Control(Time frame, uint32_t updates, uint32_t outputs, uint32_t syncs)
{
    NS_ABORT_MSG_IF(!frame.IsStrictlyPositive(), "RciSchedule::Control: frame must be > 0");
    uint32_t n = updates + outputs + syncs;
    NS_ABORT_MSG_IF(n == 0, "RciSchedule::Control: no action");
    RciSchedule s;
    s.m_frame = frame;
    uint32_t i = 0;
    auto add = [&](Kind kind, uint32_t count) {
        for (uint32_t k = 0; k < count; ++k, ++i)
        {
            s.m_actions.push_back(
                {kind, KindName(kind) + std::to_string(k + 1), frame * int64_t(i) / int64_t(n)});
        }
    };
    add(UPDATE, updates);
    add(OUTPUT, outputs);
    add(SYNC, syncs);
    return s;
}

Time
RciSchedule::GetFrame() const
{
    return m_frame;
}

const std::vector<RciSchedule::Action>&
RciSchedule::GetActions() const
{
    return m_actions;
}

} // namespace ns3
