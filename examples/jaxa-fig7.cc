/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] Fig. 7: the asynchronous benchmark (receive-order updates, no time management) at
 * one data size and bandwidth, delay 0.
 * The repetitions run in this one process (run numbers RngRun, RngRun + 1, ...).
 *
 *   ./jaxa-fig7 --dataSize=1024 --bandwidth=1Mbps --reps=10 --RngRun=1 --output=r.json
 */

#include "ns3/testbed-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    JaxaBenchmarkConfig defaults;
    defaults.mode = "async";
    return JaxaBenchmark::Main(argc, argv, "jaxa-fig7", defaults);
}
