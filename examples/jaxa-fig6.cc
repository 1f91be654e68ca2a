/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] Fig. 6: the synchronised benchmark, 64-byte data, with a NIST Net (or netem) delay
 * and bandwidth.
 * The repetitions run in this one process (run numbers RngRun, RngRun + 1, ...).
 *
 *   ./jaxa-fig6 --bandwidth=128kbps --delay=50ms --netem=false --reps=10 --RngRun=1 --output=r.json
 */

#include "ns3/testbed-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    JaxaBenchmarkConfig defaults;
    defaults.mode = "sync";
    return JaxaBenchmark::Main(argc, argv, "jaxa-fig6", defaults);
}
