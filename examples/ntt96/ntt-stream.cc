/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [NTT96] jitter of the analyser's 6 Mbit/s stream (one 4 160-byte packet every 5.55 ms),
 * carried on by a forwarding computer over TCP or UDP to a receiving computer that logs each
 * packet's application-level arrival; jitter = max - min of (actual - standard) over 1000
 * packets, standard = first arrival + k x 5.55 ms.
 *
 *   --setup=ring    exp. 1: analyser, sending computer S, receiving computer R, the analyser's
 *                   load port and the load's sink L on one FDDI ring; load on the ring.
 *   --setup=router  exps. 2 and 3: a route-cache router between the FDDI ring and a 100 Mbit/s
 *                   Ethernet repeater hub. The stream enters the router from the FDDI side
 *                   (--streamFrom=fddi: analyser and S on the ring, R on the hub) or from the
 *                   Ethernet side (--streamFrom=ethernet); the load enters through the
 *                   Ethernet interface (analyser's load port on the hub, sink L on the ring);
 *                   --randomRate > 0 adds exp. 3's random-destination sender on the hub: it
 *                   runs until the cache it fills is full (or --fillTimeout), then the stream
 *                   starts.
 *
 *   ./ntt-stream --setup=router --tcp=1 --load=40Mbps --cacheFddi=0 --output=r.json
 */

#include "ntt-testbed.h"

#include "ns3/core-module.h"
#include "ns3/testbed-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    NttStreamConfig c;
    std::string profileFile;
    ProgramOptions opts("ntt-stream",
                        "[NTT96] jitter of the 6 Mbit/s stream over TCP or UDP on an FDDI ring "
                        "or through a route-cache router, under load");
    opts.AddChoice("setup", "ring (exp. 1) or router (exps. 2, 3)", c.setup, {"ring", "router"});
    opts.AddChoice("streamFrom",
                   "router setup: the side of the router the stream enters from",
                   c.streamFrom,
                   {"fddi", "ethernet"});
    opts.Add("tcp", "carry the stream over TCP (else UDP)", c.tcp);
    // Up to 1 Gbit/s: ten times what either medium can carry.
    opts.Add("load",
             "offered load (UDP payload bit/s)",
             c.load,
             DataRate("0bps"),
             DataRate("1Gbps"));
    // The study: 1000; at least 10 for a meaningful max - min.
    opts.Add("packets", "stream packets in the jitter window", c.packets, 10, 100000);
    opts.Add("warmupPackets",
             "stream packets before the jitter window",
             c.warmupPackets,
             0,
             100000);
    opts.Add("interval", "the stream's interval", c.interval, MicroSeconds(100), Seconds(1));
    // 12 bytes carry the sequence number; 4324 is the largest unfragmented UDP payload on FDDI.
    opts.Add("packetSize", "stream packet bytes (UDP payload)", c.packetSize, 12, 4324, "bytes");
    opts.Add("cacheEthernet", "router: route cache of the Ethernet interface on", c.cacheEthernet);
    opts.Add("cacheFddi", "router: route cache of the FDDI interface on", c.cacheFddi);
    opts.AddChoice("cacheSide",
                   "router: whose cache a packet uses",
                   c.cacheSide,
                   {"Output", "Input"});
    opts.AddChoice("cachePolicy", "router: cache replacement", c.cachePolicy, {"FlushAll", "Lru"});
    opts.Add("flushInterval",
             "router: period of the clear-all flush (0 s: none)",
             c.flushInterval,
             Seconds(0),
             Seconds(3600));
    // The study's router: 8548; up to the /9 block the random destinations come from.
    opts.Add("cacheCapacity", "router: entries per interface cache", c.cacheCapacity, 1, 8000000);
    opts.Add("randomRate",
             "router: random-destination datagrams per second (0: none; exp. 3)",
             c.randomRate,
             0.0,
             1e6,
             "datagrams/s");
    opts.Add("fillTimeout",
             "router: the stream starts at the latest this long after the random traffic",
             c.fillTimeout,
             Seconds(0),
             Seconds(3600));
    // ANSI X3.139: T_Max is 165 ms; below 1 ms the ring latency of long rings no longer fits.
    opts.Add("ttrt", "FDDI target token rotation time", c.ttrt, MilliSeconds(1), MilliSeconds(165));
    opts.Add("fastCost", "router: fast-path cycles per packet", c.fastCost, 0.0, 1e8, "cycles");
    opts.Add("slowCost", "router: slow-path cycles per packet", c.slowCost, 0.0, 1e8, "cycles");
    opts.Add("inputQueue", "router: input queue packets", c.inputQueue, 1, 100000);
    opts.AddHostProfile(c.hostProfile, "host profile of the sending and receiving computers");
    opts.AddProfile("routerProfile",
                    "host",
                    "router: host profile of the route-cache router",
                    c.routerProfile);
    opts.AddHostSet(c.hostSet);
    opts.AddProfileFile(profileFile);
    opts.AddDeprecated("warmup", "warmupPackets");
    NttTestbed::DeclareFields(opts.Record());
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        ProgramOptions::Require(c.setup == "router" || c.randomRate == 0,
                                "--randomRate needs --setup=router");
    });
    opts.Parse(argc, argv);

    NttTestbed testbed(c);
    testbed.Build();
    opts.StartProgress(Seconds(60));
    Simulator::Run();
    ResultRecord& rec = opts.Record();
    testbed.Write(rec);
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
