/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] half duplex: one-way (--mode=sync) or two-way (--mode=bidir) exchange with the
 * NICs at full or half duplex.
 * The repetitions run in this one process (run numbers RngRun, RngRun + 1, ...).
 *
 *   ./jaxa-duplex --bandwidth=1Mbps --dataSize=1024 --halfDuplex=true --reps=10 --RngRun=1
 * --output=r.json
 */

#include "ns3/testbed-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    JaxaBenchmarkConfig defaults;
    defaults.mode = "sync";
    return JaxaBenchmark::Main(argc, argv, "jaxa-duplex", defaults);
}
