/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] Fig. 4: the synchronised RTI benchmark (TSO update and TAR per step) at one data
 * size and NIST Net bandwidth, delay 0.
 * The repetitions run in this one process (run numbers RngRun, RngRun + 1, ...).
 *
 *   ./jaxa-fig4 --dataSize=1024 --bandwidth=1Mbps --reps=10 --RngRun=1 --output=r.json
 */

#include "ns3/testbed-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    JaxaBenchmarkConfig defaults;
    defaults.mode = "sync";
    return JaxaBenchmark::Main(argc, argv, "jaxa-fig4", defaults);
}
