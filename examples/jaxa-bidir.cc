/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] bidirectional exchange: both federates send, receive and advance (--mode=sync for
 * the one-way reference).
 * The repetitions run in this one process (run numbers RngRun, RngRun + 1, ...).
 *
 *   ./jaxa-bidir --bandwidth=1Mbps --dataSize=1024 --reps=10 --RngRun=1 --output=r.json
 */

#include "ns3/testbed-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    JaxaBenchmarkConfig defaults;
    defaults.mode = "bidir";
    return JaxaBenchmark::Main(argc, argv, "jaxa-bidir", defaults);
}
