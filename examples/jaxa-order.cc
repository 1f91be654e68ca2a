/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] order type: the synchronised benchmark with the data in timestamp order or in
 * receive order.
 * The repetitions run in this one process (run numbers RngRun, RngRun + 1, ...).
 *
 *   ./jaxa-order --bandwidth=128kbps --dataSize=1024 --tsoData=false --reps=10 --RngRun=1
 * --output=r.json
 */

#include "ns3/testbed-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    JaxaBenchmarkConfig defaults;
    defaults.mode = "sync";
    return JaxaBenchmark::Main(argc, argv, "jaxa-order", defaults);
}
