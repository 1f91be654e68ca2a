/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ProgramOptions: what a run will need (events, memory) and the watch that ends a run beyond its
// memory budget (--maxMemory).

#include "program-options.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

namespace ns3
{

ProgramOptions&
ProgramOptions::SetEventEstimate(std::function<double()> estimate, const std::string& what)
{
    m_eventEstimate = std::move(estimate);
    m_eventEstimateText = what;
    return *this;
}

ProgramOptions&
ProgramOptions::SetMemoryEstimate(std::function<double()> estimate, const std::string& what)
{
    m_memoryEstimate = std::move(estimate);
    m_memoryEstimateText = what;
    return *this;
}

uint64_t
ProgramOptions::MemoryBudgetMb() const
{
    if (m_maxMemoryMb > 0)
    {
        return m_maxMemoryMb;
    }
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0
               ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 2 / 1048576
               : 4096;
}

void
ProgramOptions::StartMemoryWatch() const
{
    const uint64_t budget = MemoryBudgetMb();
    const std::string program = m_program;
    // A thread that only reads /proc/self/statm: it never touches the simulation, so results
    // do not depend on it; beyond the budget it ends the process (exit 2) with one line instead
    // of letting the machine swap or the kernel kill it.
    std::thread([budget, program]() {
        const long pageSize = sysconf(_SC_PAGESIZE);
        while (true)
        {
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            std::ifstream statm("/proc/self/statm");
            uint64_t size = 0;
            uint64_t resident = 0;
            if (!(statm >> size >> resident))
            {
                return; // no /proc: no watch
            }
            const uint64_t mb = resident * static_cast<uint64_t>(pageSize) / 1048576;
            if (mb > budget)
            {
                const std::string msg = "error: " + program + ": the run uses " + std::to_string(mb)
                                        + " MiB, more than the budget "
                                          "--maxMemory="
                                        + std::to_string(budget)
                                        + " (MiB): shorten it, or raise --maxMemory to run it\n";
                [[maybe_unused]] auto n = write(2, msg.data(), msg.size());
                _exit(EXIT_BAD_ARGUMENTS);
            }
        }
    }).detach();
}

} // namespace ns3
