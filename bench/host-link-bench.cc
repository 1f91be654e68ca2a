/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Cost of the testbed models against stock ns-3 on the same traffic: a UDP stream of N packets
 * from A through a router R to B (100 Mb/s point-to-point links), in four variants:
 *
 *   stock     stock ns-3 (pfifo_fast on R's egress)
 *   emulator  R's egress is a LinkEmulatorQueueDisc (rate 50 Mb/s, delay 10 ms, 8192 Hz timer)
 *   tbf       stock ns-3's TbfQueueDisc at 50 Mb/s on R's egress (the nearest stock stage)
 *   hosts     stock queue discs, HostPlatform + NIC models on A, R and B
 *
 * Prints one JSON line per variant: wall time, simulator events, packets delivered, events and
 * packets per wall-clock second, peak RSS.
 *
 *   ./build/bench/host-link-bench --packets=200000
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/testbed-module.h"
#include "ns3/traffic-control-module.h"

#include <chrono>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

uint64_t g_rx = 0; //!< packets received at B

/**
 * Count a received packet.
 * @param p packet
 * @param from sender
 */
void
Rx(Ptr<const Packet> p, const Address& from)
{
    ++g_rx;
}

/**
 * Run one variant.
 * @param variant name
 * @param packets packets to send
 */
void
RunVariant(const std::string& variant, uint32_t packets)
{
    g_rx = 0;
    NodeContainer nodes(3);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("1us"));
    NetDeviceContainer ar = p2p.Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer rb = p2p.Install(nodes.Get(1), nodes.Get(2));
    InternetStackHelper().Install(nodes);
    Ipv4AddressHelper addr("10.0.1.0", "255.255.255.0");
    addr.Assign(ar);
    addr.SetBase("10.0.2.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(rb);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    if (variant == "emulator")
    {
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::LinkEmulatorQueueDisc",
                             "Rate",
                             DataRateValue(DataRate("50Mbps")),
                             "Delay",
                             TimeValue(MilliSeconds(10)),
                             "Timer",
                             StringValue("ns3::TickTimer[Frequency=8192]"));
        tch.Uninstall(rb.Get(0));
        tch.Install(rb.Get(0));
    }
    else if (variant == "tbf")
    {
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::TbfQueueDisc",
                             "Rate",
                             DataRateValue(DataRate("50Mbps")),
                             "Burst",
                             UintegerValue(3000),
                             "MaxSize",
                             QueueSizeValue(QueueSize("1000p")));
        tch.Uninstall(rb.Get(0));
        tch.Install(rb.Get(0));
    }
    if (variant == "hosts")
    {
        HostPlatformHelper("pc2006-linux26").Install(nodes);
    }

    PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
    ApplicationContainer s = sink.Install(nodes.Get(2));
    s.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&Rx));
    // 1000-byte datagrams at 40 Mb/s: below both the 50 Mb/s stage and the wire.
    UdpClientHelper client(ifs.GetAddress(1), 9);
    client.SetAttribute("MaxPackets", UintegerValue(packets));
    client.SetAttribute("Interval", TimeValue(MicroSeconds(200)));
    client.SetAttribute("PacketSize", UintegerValue(1000));
    client.Install(nodes.Get(0)).Start(Seconds(1));

    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t events = Simulator::GetEventCount();
    Simulator::Destroy();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::cout << "{\"variant\": \"" << variant << "\", \"packets\": " << packets
              << ", \"delivered\": " << g_rx << ", \"wall_s\": " << wall
              << ", \"events\": " << events << ", \"events_per_s\": " << events / wall
              << ", \"packets_per_s\": " << g_rx / wall
              << ", \"peak_rss_mb\": " << ru.ru_maxrss / 1024.0 << "}" << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t packets = 200000;
    std::string variants = "stock,tbf,emulator,hosts";
    CommandLine cmd(__FILE__);
    cmd.AddValue("packets", "datagrams to send", packets);
    cmd.AddValue("variants", "comma-separated variants", variants);
    cmd.Parse(argc, argv);
    std::stringstream ss(variants);
    std::string v;
    while (std::getline(ss, v, ','))
    {
        ProgramOptions::Require(v == "stock" || v == "tbf" || v == "emulator" || v == "hosts",
                                "--variants: unknown variant '" + v + "'");
        RunVariant(v, packets);
    }
    return 0;
}
