/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] Table 2: ping round-trip time through the NIST Net PC at one delay setting.
 *
 * Host A pings host B (56 data bytes, one a second) through the emulator, whose delay applies
 * in each direction; the record holds every RTT and their mean.
 *
 *   ./jaxa-table2 --delay=10ms --count=10 --output=r.json
 */

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
    ExperimentArgs::SetSimulatorDefaults();
    Time delay = Seconds(0);
    uint32_t count = 10;
    uint32_t size = 56;
    std::string bandwidth = "0bps";
    std::string output;
    std::string pcap;

    CommandLine cmd(__FILE__);
    cmd.AddValue("delay", "NIST Net delay setting, each direction (e.g. 10ms)", delay);
    cmd.AddValue("count", "number of pings (ping -c)", count);
    cmd.AddValue("size", "ICMP data bytes (ping -s)", size);
    cmd.AddValue("bandwidth", "NIST Net bandwidth setting (0bps: no limit)", bandwidth);
    cmd.AddValue("pcap", "pcap file prefix (empty: none)", pcap);
    cmd.AddValue("output", "JSON result file (- = stdout)", output);
    cmd.Parse(argc, argv);
    ExperimentArgs::Require(count > 0, "--count must be > 0");
    ExperimentArgs::Require(!delay.IsStrictlyNegative(), "--delay must be >= 0");
    ExperimentArgs::Require(size >= 8 && size <= 65507, "--size must be in [8, 65507]");

    EmulatedTestbedHelper testbed = EmulatedTestbedHelper::Jaxa06();
    testbed.SetEmulatorAttribute(
        "Rate",
        DataRateValue(ExperimentArgs::ParseDataRate("bandwidth", bandwidth, true)));
    testbed.SetEmulatorAttribute("Delay", TimeValue(delay));
    testbed.EnablePcap(pcap);
    EmulatedTestbed tb = testbed.Install();
    testbed.AssignStreams(tb, 1000);

    Ptr<HostPing> ping = CreateObject<HostPing>();
    ping->SetAttribute("Remote", Ipv4AddressValue(tb.hostBAddress));
    ping->SetAttribute("Count", UintegerValue(count));
    ping->SetAttribute("Size", UintegerValue(size));
    ping->TraceConnectWithoutContext("Rtt", MakeCallback(&Rtt));
    tb.hostA->AddApplication(ping);
    // Start at an arbitrary point of the RTC's tick period (not on a tick).
    ping->SetStartTime(Seconds(1) + MicroSeconds(37));
    ping->SetStopTime(Seconds(1) + Seconds(count) + delay * 4 + Seconds(1));

    Simulator::Run();
    NS_ABORT_MSG_IF(g_rttMs.size() != count,
                    "only " << g_rttMs.size() << " of " << count << " echo replies arrived");
    double mean = std::accumulate(g_rttMs.begin(), g_rttMs.end(), 0.0) / g_rttMs.size();

    ResultRecord rec;
    rec.Set("delay_ms", delay.GetSeconds() * 1e3);
    rec.SetInt("count", count);
    rec.Set("rtt_mean_ms", mean);
    rec.Set("rtt_min_ms", *std::min_element(g_rttMs.begin(), g_rttMs.end()));
    rec.Set("rtt_max_ms", *std::max_element(g_rttMs.begin(), g_rttMs.end()));
    rec.SetSeries("rtt_ms", g_rttMs);
    rec.Write(output);
    Simulator::Destroy();
    return 0;
}
