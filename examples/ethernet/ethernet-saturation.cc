/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Saturated stations on a repeater hub (IEEE 802.3 half duplex, CSMA/CD): every station always
 * has a frame for the next one. Channel efficiency (frame octets delivered over capacity), the
 * Metcalfe-Boggs prediction for the same station count and frame size, Jain's fairness index,
 * collisions per frame, the mean run of consecutive frames from one station (capture effect).
 *
 *   ./ethernet-saturation --stations=8 --payload=1500 --seconds=1 --output=-
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/testbed-module.h"

#include <cmath>
#include <numeric>

using namespace ns3;

namespace
{

std::vector<uint64_t> g_delivered; //!< frames per sender
std::vector<uint32_t> g_order;     //!< senders in delivery order
NetDeviceContainer g_devs;         //!< the stations
uint32_t g_payload = 0;            //!< payload octets

bool
Rx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t protocol, const Address&)
{
    uint32_t sender = protocol - 0x8800;
    ++g_delivered[sender];
    g_order.push_back(sender);
    return true;
}

void
Offer(uint32_t i)
{
    g_devs.Get(i)->Send(Create<Packet>(g_payload),
                        g_devs.Get((i + 1) % g_devs.GetN())->GetAddress(),
                        0x8800 + i);
}

void
Done(uint32_t i, Ptr<const Packet>)
{
    Simulator::ScheduleNow(&Offer, i);
}

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    uint32_t stations = 8;
    uint32_t payload = 1500;
    Time span = Seconds(1);
    DataRate rate("100Mbps");
    double cable = 10;
    ProgramOptions opts("ethernet-saturation",
                        "saturated stations on an IEEE 802.3 repeater hub: efficiency, fairness, "
                        "capture");
    // Up to 1024 stations: the 802.3 limit of stations on one collision domain.
    opts.Add("stations", "stations on the hub", stations, 2, 1024);
    opts.Add("payload",
             "payload octets per frame (46..1500: frames of 64..1518)",
             payload,
             46,
             1500,
             "bytes");
    opts.Add("seconds", "simulated time", span, MilliSeconds(1), Seconds(100));
    opts.Add("rate",
             "the hub's rate (10 or 100 Mbit/s)",
             rate,
             DataRate("10Mbps"),
             DataRate("100Mbps"));
    opts.Add("cable", "each station's cable to the hub (m)", cable, 0, 100, "m");
    ResultRecord& rec = opts.Record();
    rec.Declare("stations", ResultRecord::INT, "--stations")
        .Declare("frame_octets", ResultRecord::INT, "frame size (octets)")
        .Declare("rate_bps", ResultRecord::REAL, "line rate (bit/s)")
        .Declare("efficiency",
                 ResultRecord::REAL,
                 "channel efficiency: payload bits delivered / line capacity")
        .Declare("framing_bound",
                 ResultRecord::REAL,
                 "upper bound from framing overhead (preamble and IFG)")
        .Declare("metcalfe_boggs", ResultRecord::REAL, "Metcalfe-Boggs efficiency estimate")
        .Declare("jain_fairness",
                 ResultRecord::REAL,
                 "Jain's fairness index of the stations' deliveries")
        .Declare("collisions_per_frame", ResultRecord::REAL, "collisions per delivered frame")
        .Declare("excessive_collision_drops", ResultRecord::INT, "frames dropped after 16 attempts")
        .Declare("mean_run",
                 ResultRecord::REAL,
                 "mean run of consecutive frames by one station (capture effect)");
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        ProgramOptions::Require(rate.GetBitRate() == 10000000 || rate.GetBitRate() == 100000000,
                                "--rate must be 10Mbps or 100Mbps");
    });
    opts.Parse(argc, argv);

    NodeContainer nodes(stations);
    EthernetHelper eth;
    eth.SetDeviceAttribute("DataRate", DataRateValue(rate));
    eth.SetChannelAttribute("Rate", DataRateValue(rate));
    eth.SetCableLength(cable);
    eth.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("4p"));
    g_devs = eth.InstallHub(nodes);
    eth.AssignStreams(g_devs, 1000);
    g_delivered.assign(stations, 0);
    g_payload = payload;
    for (uint32_t i = 0; i < stations; ++i)
    {
        g_devs.Get(i)->SetReceiveCallback(MakeCallback(&Rx));
        g_devs.Get(i)->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&Done, i));
        g_devs.Get(i)->TraceConnectWithoutContext("PhyTxDrop", MakeBoundCallback(&Done, i));
        for (int k = 0; k < 4; ++k)
        {
            Simulator::Schedule(MicroSeconds(1), &Offer, i);
        }
    }
    Simulator::Stop(span);
    opts.StartProgress(span);
    Simulator::Run();

    const uint32_t frame = payload + 18;
    const double total = std::accumulate(g_delivered.begin(), g_delivered.end(), 0.0);
    double sq = 0;
    for (uint64_t x : g_delivered)
    {
        sq += double(x) * x;
    }
    uint64_t collisions = 0;
    uint64_t excessive = 0;
    for (uint32_t i = 0; i < stations; ++i)
    {
        const auto& s = DynamicCast<EthernetNetDevice>(g_devs.Get(i))->GetStats();
        collisions += s.collisions;
        excessive += s.excessiveCollisions;
    }
    double runs = g_order.empty() ? 0 : 1;
    for (size_t i = 1; i < g_order.size(); ++i)
    {
        runs += g_order[i] != g_order[i - 1] ? 1 : 0;
    }
    // Metcalfe and Boggs (1976), with the preamble and gap (20 octets) and the 64-octet slot.
    const double a = std::pow(1.0 - 1.0 / stations, stations - 1.0);
    const double w = (1.0 - a) / a;
    rec.SetInt("stations", stations);
    rec.SetInt("frame_octets", frame);
    rec.Set("rate_bps", rate.GetBitRate());
    rec.Set("efficiency", total * frame * 8.0 / (rate.GetBitRate() * span.GetSeconds()));
    rec.Set("framing_bound", frame / (frame + 20.0));
    rec.Set("metcalfe_boggs", frame / (frame + 20.0 + w * 64.0));
    rec.Set("jain_fairness", total > 0 ? total * total / (stations * sq) : 0);
    rec.Set("collisions_per_frame", total > 0 ? collisions / total : 0);
    rec.SetInt("excessive_collision_drops", excessive);
    rec.Set("mean_run", runs > 0 ? g_order.size() / runs : 0);
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
