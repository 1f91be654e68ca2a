/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Frames per wall second of the IEEE 802.3 model (EthernetNetDevice) against ns-3's
 * CsmaNetDevice on the same traffic, in one run: two stations on one 100 Mbit/s cable exchange
 * 1000-octet payloads, at low load (each sends one frame every 1 ms: 1.6 % of the line) and
 * saturated (both keep their queue full). The Ethernet device runs half duplex (CSMA/CD, the
 * model CSMA stands in for) and full duplex (its fast path).
 *
 *   ./build/bench/ethernet-bench [--seconds=10]
 */

#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/network-module.h"
#include "ns3/testbed-module.h"

#include <chrono>
#include <iostream>

using namespace ns3;

namespace
{

uint64_t g_rx = 0; //!< frames received

bool
Rx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
{
    ++g_rx;
    return true;
}

/** Keep a device's queue fed: a new frame whenever one leaves. */
void
Refill(Ptr<NetDevice> from, Address to, Ptr<const Packet>)
{
    from->Send(Create<Packet>(1000), to, 0x0800);
}

/** One frame every period. */
void
Periodic(Ptr<NetDevice> from, Address to, Time period)
{
    from->Send(Create<Packet>(1000), to, 0x0800);
    Simulator::Schedule(period, &Periodic, from, to, period);
}

/**
 * Run one case.
 * @param devs the two devices
 * @param saturated saturated or low load
 * @param seconds simulated seconds
 * @param txTrace the device trace fired when a frame is done
 * @return frames per wall second
 */
double
Run(NetDeviceContainer devs, bool saturated, double seconds, const std::string& txTrace)
{
    g_rx = 0;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<NetDevice> from = devs.Get(i);
        Address to = devs.Get(1 - i)->GetAddress();
        devs.Get(1 - i)->SetReceiveCallback(MakeCallback(&Rx));
        if (saturated)
        {
            from->TraceConnectWithoutContext(txTrace, MakeBoundCallback(&Refill, from, to));
            for (int k = 0; k < 4; ++k)
            {
                Simulator::Schedule(MicroSeconds(1 + i),
                                    [from, to]() { from->Send(Create<Packet>(1000), to, 0x0800); });
            }
        }
        else
        {
            Simulator::Schedule(MicroSeconds(1 + 500 * i), &Periodic, from, to, MilliSeconds(1));
        }
    }
    Simulator::Stop(Seconds(seconds));
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t events = Simulator::GetEventCount();
    Simulator::Destroy();
    std::cout << "    frames " << g_rx << ", events " << events << ", wall " << wall << " s"
              << std::endl;
    return g_rx / wall;
}

} // namespace

int
main(int argc, char* argv[])
{
    double seconds = 10;
    CommandLine cmd(__FILE__);
    cmd.AddValue("seconds", "simulated seconds per case", seconds);
    cmd.Parse(argc, argv);
    GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));

    for (bool saturated : {false, true})
    {
        std::cout << (saturated ? "saturated" : "low load (1 frame/ms each way)") << std::endl;
        NodeContainer n1(2);
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
        csma.SetChannelAttribute("Delay", TimeValue(NanoSeconds(50)));
        std::cout << "  ns-3 CsmaNetDevice" << std::endl;
        double c = Run(csma.Install(n1), saturated, seconds, "PhyTxEnd");
        double r[2];
        int i = 0;
        for (std::string duplex : {"ForcedHalf", "ForcedFull"})
        {
            NodeContainer n(2);
            EthernetHelper eth;
            eth.SetDeviceAttribute("Duplex", StringValue(duplex));
            std::cout << "  EthernetNetDevice " << duplex << std::endl;
            r[i++] = Run(eth.Install(n.Get(0), n.Get(1)), saturated, seconds, "PhyTxEnd");
        }
        std::cout << "  frames per wall second: CSMA " << c << ", Ethernet half " << r[0] << " ("
                  << r[0] / c << " x CSMA), full " << r[1] << " (" << r[1] / c << " x CSMA)"
                  << std::endl;
    }
    return 0;
}
