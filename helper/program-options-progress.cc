/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ProgramOptions: progress lines (--progress) and the wall-clock watch that tells a long run is
// still alive.

#include "program-options.h"

#include "ns3/simulator.h"

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>

namespace ns3
{

namespace
{

/**
 * The wall-clock watch's note (SetProgressNote) and its lock, never destroyed: the watch's
 * thread may read them while the program exits.
 * @return the note and its lock
 */
std::pair<std::mutex, std::string>&
Note()
{
    static auto* note = new std::pair<std::mutex, std::string>();
    return *note;
}

/** Wall clock (steady_clock, seconds) of the last progress line: --progress's or the watch's. */
std::atomic<int64_t> g_lastLine{0};

/** @return the steady clock in whole seconds */
int64_t
SteadySeconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

void
ProgramOptions::SetProgressNote(const std::string& note)
{
    std::lock_guard<std::mutex> lock(Note().first);
    Note().second = note;
}

void
ProgramOptions::StartWallWatch() const
{
    const std::string program = m_program;
    const int64_t start = SteadySeconds();
    g_lastLine = start;
    // TESTBED_WATCH_SECONDS (a whole number >= 1) shortens the period, for the tests.
    int64_t period = WATCH_SECONDS;
    if (const char* env = std::getenv("TESTBED_WATCH_SECONDS"))
    {
        const std::string text(env);
        uint64_t v = 0;
        const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
        if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos
            && res.ec == std::errc() && v >= 1 && v <= 86400)
        {
            period = static_cast<int64_t>(v);
        }
    }
    std::thread([program, start, period]() {
        for (;;)
        {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            const int64_t now = SteadySeconds();
            if (now - g_lastLine.load() < period)
            {
                continue; // a line (the watch's or --progress's) came less than a period ago
            }
            g_lastLine = now;
            std::string note;
            {
                std::lock_guard<std::mutex> lock(Note().first);
                note = Note().second;
            }
            // One write(2): a line whole, whatever the simulation thread prints meanwhile.
            const std::string line = program + ": still running after "
                                     + std::to_string(now - start) + " s of wall clock"
                                     + (note.empty() ? "" : ": " + note) + "\n";
            [[maybe_unused]] auto n = write(2, line.data(), line.size());
        }
    }).detach();
}

void
ProgramOptions::StartProgress(Time stop)
{
    if (!m_progress)
    {
        return;
    }
    std::cerr << "simulating " << stop.As(Time::S) << std::endl;
    m_show = Progress{};
    m_show.stop = stop;
    m_show.step = stop / 1000;
    m_show.wallStart = std::chrono::steady_clock::now();
    m_show.lastLine = m_show.wallStart;
    m_show.lastLineSim = Simulator::Now();
    if (m_show.step.IsStrictlyPositive() && Simulator::Now() + m_show.step < stop)
    {
        Simulator::Schedule(m_show.step, &ProgramOptions::ProgressTick, this);
    }
}

void
ProgramOptions::ProgressTick()
{
    ++m_show.ticks;
    Time now = Simulator::Now();
    auto wall = std::chrono::steady_clock::now();
    std::chrono::duration<double> sinceLine = wall - m_show.lastLine;
    if (sinceLine.count() >= 10.0)
    {
        std::chrono::duration<double> elapsed = wall - m_show.wallStart;
        double speed = (now - m_show.lastLineSim).GetSeconds() / sinceLine.count();
        std::ostringstream line;
        line << std::fixed << std::setprecision(2) << now.GetSeconds() << "s of "
             << m_show.stop.GetSeconds() << "s (" << std::setprecision(1)
             << 100.0 * now.GetSeconds() / m_show.stop.GetSeconds() << " %), "
             << std::setprecision(2) << speed << "x real time, " << std::setprecision(0)
             << elapsed.count() << " s elapsed";
        std::cerr << line.str() << std::endl;
        g_lastLine = SteadySeconds();
        m_show.lastLine = wall;
        m_show.lastLineSim = now;
    }
    if (now + m_show.step < m_show.stop)
    {
        Simulator::Schedule(m_show.step, &ProgramOptions::ProgressTick, this);
    }
}

uint64_t
ProgramOptions::GetEventCount() const
{
    return Simulator::GetEventCount() - m_show.ticks;
}

} // namespace ns3
