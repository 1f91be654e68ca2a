/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The README's C++ example: ping through the JAXA06 testbed (NIST Net at 1 Mbit/s, 50 ms).
 *
 *   ./testbed-ping-example --delay=50ms --count=5
 */

#include "ns3/core-module.h"
#include "ns3/testbed-module.h"

#include <iostream>

using namespace ns3;

/**
 * Print an RTT sample.
 * @param seq sequence number
 * @param rtt round-trip time
 */
static void
PrintRtt(uint16_t seq, Time rtt)
{
    std::cout << "seq " << seq << " rtt " << rtt.As(Time::MS) << std::endl;
}

int
main(int argc, char* argv[])
{
    Time delay = MilliSeconds(50);
    uint32_t count = 5;
    ProgramOptions opts("testbed-ping-example",
                        "ping through the [JAXA06] testbed (NIST Net at 1 Mbit/s)");
    opts.Add("delay", "NIST Net delay, each direction", delay, Seconds(0), Seconds(10));
    opts.Add("count", "number of pings (one a second)", count, 1, 1000);
    opts.Parse(argc, argv);

    // hostA -- NIST Net PC -- hostB, 100BASE-TX, host platforms installed too
    EmulatedTestbedHelper testbed = EmulatedTestbedHelper::Jaxa06();
    testbed.SetEmulatorAttribute("Rate", DataRateValue(DataRate("1Mbps")));
    testbed.SetEmulatorAttribute("Delay", TimeValue(delay));
    EmulatedTestbed tb = testbed.Install();
    testbed.AssignStreams(tb, 1000);
    Ptr<HostPing> ping = CreateObject<HostPing>();
    ping->SetAttribute("Remote", Ipv4AddressValue(tb.hostBAddress));
    ping->SetAttribute("Count", UintegerValue(count));
    ping->TraceConnectWithoutContext("Rtt", MakeCallback(&PrintRtt));
    tb.hostA->AddApplication(ping);
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
