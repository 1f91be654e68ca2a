/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A program of your own that ./testbed sweep and ./testbed validate run by name, as
// doc/sweeps.rst shows: ping through the [JAXA06] testbed (host A -- NIST Net PC -- host B, the
// emulator at 1 Mbit/s with --delay each way). ProgramOptions gives it --describe, --check and
// --output, the ResultRecord its result fields, and every ns-3 attribute of a type it uses is a
// parameter too (--ns3::LinkEmulatorQueueDisc::Jitter=5ms: the emulator's delay jitter).

#include "ns3/core-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <numeric>
#include <vector>

using namespace ns3;

namespace
{

std::vector<double> g_rttMs; //!< the round-trip times (ms)

/**
 * Keep an RTT sample.
 * @param seq sequence number
 * @param rtt round-trip time
 */
void
Rtt(uint16_t seq, Time rtt)
{
    g_rttMs.push_back(rtt.GetSeconds() * 1e3);
}

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    Time delay = MilliSeconds(50);
    uint32_t count = 20;
    ProgramOptions opts("ping-jitter",
                        "ping through the [JAXA06] testbed, NIST Net at 1 Mbit/s with a delay "
                        "(and its jitter: --ns3::LinkEmulatorQueueDisc::Jitter)");
    opts.Add("delay", "NIST Net delay, each direction (e.g. 50ms)", delay, Seconds(0), Seconds(10));
    opts.Add("count", "number of pings (one a second)", count, 1, 10000);
    ResultRecord& rec = opts.Record();
    rec.Declare("delay_ms", ResultRecord::REAL, "--delay (ms)")
        .Declare("rtt_mean_ms",
                 ResultRecord::REAL,
                 "mean round-trip time (ms)",
                 ResultRecord::SOMETIMES)
        .Declare("rtt_max_ms",
                 ResultRecord::REAL,
                 "largest round-trip time (ms)",
                 ResultRecord::SOMETIMES)
        .Declare("received", ResultRecord::INT, "echo replies that arrived");
    opts.Parse(argc, argv);

    EmulatedTestbedHelper testbed = EmulatedTestbedHelper::Jaxa06();
    testbed.SetEmulatorAttribute("Rate", DataRateValue(DataRate("1Mbps")));
    testbed.SetEmulatorAttribute("Delay", TimeValue(delay));
    EmulatedTestbed tb = testbed.Install();
    testbed.AssignStreams(tb, 1000);
    Ptr<HostPing> ping = CreateObject<HostPing>();
    UserAttributes::SetFixed(ping, "Remote", Ipv4AddressValue(tb.hostBAddress), "host B");
    UserAttributes::SetFixed(ping, "Count", UintegerValue(count), "from its option --count");
    ping->TraceConnectWithoutContext("Rtt", MakeCallback(&Rtt));
    tb.hostA->AddApplication(ping);
    Simulator::Run();

    rec.Set("delay_ms", delay.GetSeconds() * 1e3);
    rec.SetInt("received", g_rttMs.size());
    if (!g_rttMs.empty())
    {
        rec.Set("rtt_mean_ms",
                std::accumulate(g_rttMs.begin(), g_rttMs.end(), 0.0) / g_rttMs.size());
        rec.Set("rtt_max_ms", *std::max_element(g_rttMs.begin(), g_rttMs.end()));
    }
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
