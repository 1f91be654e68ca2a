/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared by the libFuzzer targets: writing the seed corpus into an empty corpus folder, and the
 * check that turns a broken property into a crash the fuzzer reports.
 */

#ifndef TESTBED_FUZZ_COMMON_H
#define TESTBED_FUZZ_COMMON_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace testbed_fuzz
{

/**
 * If the first corpus folder given to the fuzzer is empty, write the seeds there (libFuzzer
 * calls LLVMFuzzerInitialize before it reads the corpus).
 * @param argc argument count
 * @param argv arguments
 * @param seeds the seed inputs (valid messages made by the module's own encoder)
 */
inline void
WriteSeeds(int argc, char** argv, const std::vector<std::vector<uint8_t>>& seeds)
{
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a.empty() || a[0] == '-')
        {
            continue;
        }
        std::filesystem::path dir(a);
        if (!std::filesystem::is_directory(dir) || !std::filesystem::is_empty(dir))
        {
            return;
        }
        for (size_t k = 0; k < seeds.size(); ++k)
        {
            std::ofstream(dir / ("seed-" + std::to_string(k)), std::ios::binary)
                .write(reinterpret_cast<const char*>(seeds[k].data()), seeds[k].size());
        }
        return;
    }
}

/**
 * A property of the code under test: abort (a crash libFuzzer reports, with the input) if it
 * does not hold.
 * @param ok the property
 * @param line the caller's line (in the message)
 */
inline void
Check(bool ok, int line = __builtin_LINE())
{
    if (!ok)
    {
        std::fprintf(stderr, "testbed_fuzz::Check failed at line %d\n", line);
        std::abort();
    }
}

} // namespace testbed_fuzz

#endif
