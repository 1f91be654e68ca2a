/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] Fig. 8: the synchronised benchmark with extra time-only federates on the CRC's PC
 * and on the other PC.
 * The repetitions run in this one process (run numbers RngRun, RngRun + 1, ...).
 *
 *   ./jaxa-fig8 --bandwidth=128kbps --extraCrc=2 --extraOther=3 --reps=10 --RngRun=1
 * --output=r.json
 */

#include "ns3/testbed-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    JaxaBenchmarkConfig defaults;
    defaults.mode = "sync";
    return JaxaBenchmark::Main(argc, argv, "jaxa-fig8", defaults);
}
