/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] Table 2: ping round-trip time through the NIST Net PC at one delay setting.
 *
 * Host A pings host B (56 data bytes, one a second) through the emulator, whose delay applies
 * in each direction; the record holds every RTT and their mean.
 *
 *   ./jaxa-table2 --delay=10ms --count=10 --output=r.json
 *   ./jaxa-table2 --delay=0ms --hostSet="HostNic.InterruptDelay=50us" --output=-
 */

#include "jaxa-benchmark-driver.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <numeric>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("JaxaTable2");

namespace
{

std::vector<double> g_rttMs; //!< RTT samples

/**
 * RTT trace.
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
    Time delay = Seconds(0);
    uint32_t count = 10;
    uint32_t size = 56;
    DataRate bandwidth(0);
    std::string pcap;
    JaxaBenchmarkConfig hosts; // the testbed's PCs: --hostProfile, --emulatorProfile, --hostSet

    ProgramOptions opts("jaxa-table2",
                        "[JAXA06] Table 2: ping from host A to host B through NIST Net, one a "
                        "second; the round-trip times");
    // Up to 10 s each way: beyond any link the studies emulated.
    opts.Add("delay",
             "NIST Net delay setting, each direction (e.g. 10ms)",
             delay,
             Seconds(0),
             Seconds(10));
    // One ping a second: 10^5 pings are 28 hours of simulated time.
    opts.Add("count", "number of pings (ping -c)", count, 1, 100000);
    opts.Add("size",
             "ICMP data bytes (ping -s; an IP datagram of at most 65535)",
             size,
             8,
             65507,
             "bytes");
    opts.Add("bandwidth",
             "NIST Net bandwidth setting (0bps: no limit)",
             bandwidth,
             DataRate(0),
             DataRate("100Mbps"));
    opts.AddOutputPrefix("pcap", "pcap file prefix (empty: none)", pcap);
    JaxaBenchmark::AddHostOptions(opts, hosts);
    JaxaBenchmark::RequireRunEnds(opts, hosts); // no stop time: the run ends by itself
    ResultRecord& rec = opts.Record();
    rec.Declare("delay_ms", ResultRecord::REAL, "--delay (ms)")
        .Declare("count", ResultRecord::INT, "--count")
        .Declare("rtt_mean_ms",
                 ResultRecord::REAL,
                 "mean round-trip time (ms)",
                 ResultRecord::SOMETIMES)
        .Declare("rtt_min_ms",
                 ResultRecord::REAL,
                 "smallest round-trip time (ms)",
                 ResultRecord::SOMETIMES)
        .Declare("rtt_max_ms",
                 ResultRecord::REAL,
                 "largest round-trip time (ms)",
                 ResultRecord::SOMETIMES)
        .Declare("rtt_ms", ResultRecord::SERIES, "every round-trip time (ms)")
        .Declare("received", ResultRecord::INT, "echo replies that arrived")
        .Declare("lost", ResultRecord::INT, "echo requests without a reply (--count - received)");
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        ProgramOptions::Require(
            bandwidth.GetBitRate() == 0 || (size + 28) * 8.0 / bandwidth.GetBitRate() < 1.0,
            "--bandwidth/--size: an echo would take longer than the 1 s interval");
    });
    opts.Parse(argc, argv);

    EmulatedTestbedHelper testbed = EmulatedTestbedHelper::Jaxa06();
    JaxaBenchmark::SetHosts(testbed, hosts);
    testbed.SetEmulatorAttribute("Rate", DataRateValue(bandwidth));
    testbed.SetEmulatorAttribute("Delay", TimeValue(delay));
    testbed.EnablePcap(pcap);
    EmulatedTestbed tb = testbed.Install();
    JaxaBenchmark::RequireRunEnds(tb);
    testbed.AssignStreams(tb, 1000);

    Ptr<HostPing> ping = CreateObject<HostPing>();
    UserAttributes::SetFixed(ping, "Remote", Ipv4AddressValue(tb.hostBAddress), "host B");
    UserAttributes::SetFixed(ping, "Count", UintegerValue(count), "from its option --count");
    UserAttributes::SetFixed(ping, "Size", UintegerValue(size), "from its option --size");
    ping->TraceConnectWithoutContext("Rtt", MakeCallback(&Rtt));
    tb.hostA->AddApplication(ping);
    // Start at an arbitrary point of the RTC's tick period (not on a tick).
    ping->SetStartTime(Seconds(1) + MicroSeconds(37));
    ping->SetStopTime(Seconds(1) + Seconds(count) + delay * 4 + Seconds(1));

    Simulator::Run();
    // A lost request or reply is a result (ping's "x% packet loss"): the statistics are over
    // the replies that arrived, and without any they are left out.
    NS_ABORT_MSG_IF(g_rttMs.size() > count,
                    g_rttMs.size() << " echo replies to " << count << " requests");
    rec.Set("delay_ms", delay.GetSeconds() * 1e3);
    rec.SetInt("count", count);
    rec.SetInt("received", g_rttMs.size());
    rec.SetInt("lost", count - g_rttMs.size());
    if (!g_rttMs.empty())
    {
        rec.Set("rtt_mean_ms",
                std::accumulate(g_rttMs.begin(), g_rttMs.end(), 0.0) / g_rttMs.size());
        rec.Set("rtt_min_ms", *std::min_element(g_rttMs.begin(), g_rttMs.end()));
        rec.Set("rtt_max_ms", *std::max_element(g_rttMs.begin(), g_rttMs.end()));
    }
    rec.SetSeries("rtt_ms", g_rttMs);
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
