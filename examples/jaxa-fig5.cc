/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] Fig. 5: time per exchange of the synchronised benchmark against the NIST Net
 * bandwidth (compared with equation 1 by the analysis).
 * The repetitions run in this one process (run numbers RngRun, RngRun + 1, ...).
 *
 *   ./jaxa-fig5 --dataSize=1024 --bandwidth=512kbps --reps=10 --RngRun=1 --output=r.json
 */

#include "ns3/testbed-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    JaxaBenchmarkConfig defaults;
    defaults.mode = "sync";
    return JaxaBenchmark::Main(argc, argv, "jaxa-fig5", defaults);
}
