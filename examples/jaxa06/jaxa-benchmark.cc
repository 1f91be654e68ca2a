/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] RTI benchmark: one configuration of the benchmark program on the JAXA06 testbed (two
 * federate PCs through the NIST Net PC), its repetitions in this one process (run numbers
 * RngRun, RngRun + 1, ...), one JSON record. Every RTI experiment of the study (Figs. 4-8, the
 * order-type, bidirectional and half-duplex predictions) is a set of points of this program:
 *
 *   ./jaxa-benchmark --mode=sync --dataSize=1024 --bandwidth=1Mbps --reps=10 --output=r.json
 *   ./jaxa-benchmark --mode=async --dataSize=64 --bandwidth=128kbps --output=-
 *   ./jaxa-benchmark --mode=sync --bandwidth=128kbps --delay=50ms --netem=true --output=-
 *   ./jaxa-benchmark --mode=bidir --bandwidth=20Mbps --extraCrc=6 --output=-
 */

#include "jaxa-benchmark-driver.h"

#include "ns3/profile.h"
#include "ns3/program-options.h"
#include "ns3/result-record.h"
#include "ns3/rng-seed-manager.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    JaxaBenchmarkConfig config;
    ProgramOptions opts("jaxa-benchmark",
                        "[JAXA06] RTI benchmark: one configuration, its repetitions, the time "
                        "per exchange");
    JaxaBenchmark::AddOptions(opts, config);
    ResultRecord& rec = opts.Record();
    rec.Declare("program", ResultRecord::STRING, "the program's name");
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() { JaxaBenchmark::Check(config); });
    opts.Parse(argc, argv);
    rec.SetString("program", "jaxa-benchmark");
    JaxaBenchmark::RunAll(config, RngSeedManager::GetRun(), rec);
    rec.Write(opts.GetOutput());
    return 0;
}
