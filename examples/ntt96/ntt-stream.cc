/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [NTT96] jitter of the analyser's 6 Mbit/s stream (one 4 160-byte packet every 5.55 ms),
 * carried on by a forwarding computer over TCP or UDP to a receiving computer that logs each
 * packet's application-level arrival. The study's jitter: standard arrival of the k-th LOGGED
 * packet = first logged arrival + k x 5.55 ms; jitter = max - min of (actual - standard) over
 * the first 1000 logged packets, however long they take: the analyser sends until the receiver
 * has logged them, or until --maxTime (then the jitter is a lower bound).
 *
 *   --setup=ring    exp. 1: the sending computer S, the receiving computer R, the analyser's
 *                   load port and the load's sink L on one FDDI ring (the analyser's stream port
 *                   too, --analyserOnRing); load on the ring.
 *   --setup=router  exps. 2 and 3: a route-cache router between the FDDI ring and a 100 Mbit/s
 *                   Ethernet repeater hub. The stream is sent on the FDDI side (analyser and S
 *                   on the ring) through the router's FDDI interface; R on the FDDI side (in
 *                   another IP subnet of the ring: the stream enters and leaves by the FDDI
 *                   interface) or on the Ethernet side (--receiverSide). The load enters through
 *                   the Ethernet interface (analyser's load port on the hub, sink L on the
 *                   ring: --loadDirection=in, the study's words) or leaves by it (load port on
 *                   the ring, L on the hub: --loadDirection=out); --randomRate > 0 (a generator
 *                   at that rate) or --randomSender=host (a host as fast as it can) adds exp. 3's
 * random-destination sender on the hub: it runs until the router's cache is full (or
 * --fillTimeout), then S opens its connection and the stream starts.
 *
 *   ./ntt-stream --setup=router --tcp=1 --loadPps=3000 --cacheFddi=0 --output=r.json
 */

#include "ntt-testbed.h"

#include "ns3/core-module.h"
#include "ns3/testbed-module.h"

using namespace ns3;

namespace
{

/**
 * The router's route-cache options and exp. 3's random-destination traffic.
 * @param opts the program's options
 * @param c the configuration they set
 */
void
AddCacheOptions(ProgramOptions& opts, NttStreamConfig& c)
{
    opts.Add("cacheEthernet",
             "router: fast switching (ip route-cache) on the Ethernet interface",
             c.cacheEthernet);
    opts.Add("cacheFddi",
             "router: fast switching (ip route-cache) on the FDDI interface",
             c.cacheFddi);
    opts.AddChoice("cacheSide",
                   "router: whose fast-switching switch governs a packet (output or input "
                   "interface)",
                   c.cacheSide,
                   {"Output", "Input"});
    opts.AddChoice("cachePolicy", "router: cache replacement", c.cachePolicy, {"FlushAll", "Lru"});
    opts.Add("flushInterval",
             "router: period of the clear-all flush (0 s: none)",
             c.flushInterval,
             Seconds(0),
             Seconds(3600));
    // The ageing timer runs from the router's start, unrelated to when the experiment began:
    // a flush at 0 clears an empty cache, so 0 and 1 are the same phase.
    opts.Add("flushPhase",
             "router: the flush timer's phase, a share of --flushInterval: the first flush that "
             "long after the router starts (0: one interval)",
             c.flushPhase,
             0.0,
             1.0,
             "1");
    // The study's router: 8548 entries in all; up to the /9 block the random destinations
    // come from.
    opts.Add("cacheCapacity",
             "router: route-cache entries (one table)",
             c.cacheCapacity,
             1,
             8000000);
    opts.Add("randomRate",
             "router: random-destination datagrams per second (0: none; exp. 3)",
             c.randomRate,
             0.0,
             1e6,
             "datagrams/s");
    // 0 up to the largest unfragmented UDP payload on Ethernet.
    // "sends packets with random destinations ... until all 8548 route cache entries are filled,
    // then the stream starts": whether it went on sending is not said.
    opts.AddChoice("randomSender",
                   "router: exp. 3's random computer: a generator at --randomRate, or a host "
                   "(the hosts' profile) that sends as fast as its send path and the Ethernet "
                   "allow",
                   c.randomSender,
                   {"generator", "host"});
    opts.AddChoice("ethernetRate",
                   "router: the Ethernet hub's rate",
                   c.ethernetRate,
                   {"100Mbps", "10Mbps"});
    opts.AddChoice("randomAfterFill",
                   "router: exp. 3's random computer once the cache is full: goes on sending, "
                   "or stops",
                   c.randomAfterFill,
                   {"continue", "stop"});
    opts.Add("randomSize",
             "router: random-destination UDP payload bytes",
             c.randomSize,
             0,
             1472,
             "bytes");
    opts.Add("fillTimeout",
             "router: the stream starts at the latest this long after the random traffic",
             c.fillTimeout,
             Seconds(0),
             Seconds(3600));
}

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    NttStreamConfig c;
    std::string mclText = "2048";
    std::string clockText = "1000000";
    std::string rateLayer = "application";
    std::string profileFile;
    ProgramOptions opts("ntt-stream",
                        "[NTT96] jitter of the 6 Mbit/s stream over TCP or UDP on an FDDI ring "
                        "or through a route-cache router, under load");
    opts.AddChoice("setup", "ring (exp. 1) or router (exps. 2, 3)", c.setup, {"ring", "router"});
    opts.AddChoice("receiverSide",
                   "router setup: the receiving computer on the FDDI side (another IP subnet "
                   "of the ring) or on the Ethernet side",
                   c.receiverSide,
                   {"fddi", "ethernet"});
    opts.AddChoice("loadDirection",
                   "router setup: the load enters the router by its Ethernet interface (load "
                   "port on the hub, sink on the ring) or leaves by it (load port on the ring, "
                   "sink on the hub)",
                   c.loadDirection,
                   {"in", "out"});
    opts.Add("tcp", "carry the stream over TCP (else UDP)", c.tcp);
    opts.Add("analyserOnRing",
             "the analyser's stream port on the (loaded) ring, else on a ring of its own with S",
             c.analyserOnRing);
    // Up to 1e6 frames/s: ten times what either medium carries of the smallest frames.
    opts.Add("loadPps", "load frames per second (0: none)", c.loadPps, 0.0, 1e6, "frames/s");
    // 64: Ethernet's smallest frame; 4377: FDDI's largest (MTU 4352 + 25). 0: the largest of
    // the load's medium (NttTestbed::Check() checks it against the medium).
    opts.Add("loadFrame",
             "load frame bytes, MAC header and FCS included (0: largest)",
             c.loadFrame,
             0,
             4377,
             "bytes");
    // The study: 1000; at least 10 for a meaningful max - min.
    opts.Add("packets", "stream packets in the jitter window (logged)", c.packets, 10, 100000);
    opts.Add("warmupPackets",
             "logged stream packets before the jitter window",
             c.warmupPackets,
             0,
             100000);
    opts.Add("interval", "the stream's interval", c.interval, MicroSeconds(100), Seconds(1));
    // 12 bytes carry the sequence number; 4324 is the largest unfragmented UDP payload on FDDI.
    opts.Add("packetSize", "stream packet bytes (UDP payload)", c.packetSize, 12, 4324, "bytes");
    // At least one second; up to a simulated day.
    opts.Add("maxTime",
             "longest the stream runs before the receiver has logged its window (then the "
             "jitter is a lower bound)",
             c.maxTime,
             Seconds(1),
             Seconds(86400));
    AddCacheOptions(opts, c);
    // ANSI X3.139: T_Max is 165 ms; 4 ms is the lowest bid the era's stations accepted
    // (Cisco IOS, DEC fddi_config). Default: 8 ms (ring), 5 ms (router: Cisco's bid).
    opts.Add("ttrt",
             "FDDI target token rotation time (default: the lowest bid, 8 ms ring / 5 ms router)",
             c.ttrt,
             MilliSeconds(4),
             MilliSeconds(165));
    opts.Add("fastCost", "router: fast-path cycles per packet", c.fastCost, 0.0, 1e8, "cycles");
    opts.Add("slowCost",
             "router: process-switching cycles per packet",
             c.slowCost,
             0.0,
             1e8,
             "cycles");
    opts.Add("inputQueue",
             "router: input hold queue of each interface (packets)",
             c.inputQueue,
             1,
             100000);
    opts.Add("rxRing",
             "router: receive ring of each interface (frames; 0: unbounded)",
             c.rxRing,
             0,
             100000);
    opts.Add("bufferPools",
             "router: process-switched packets need a buffer of Cisco IOS's public pools "
             "(default permanent counts; grown by a pool manager process)",
             c.bufferPools);
    opts.AddChoice("inputService",
                   "router: order in which the IP input process serves the interfaces' queued "
                   "packets",
                   c.inputService,
                   {"Fifo", "RoundRobin"});
    // 4.4BSD: 8192 each (tcp_sendspace, tcp_recvspace); at most 65535 without window scaling.
    opts.Add("sndBuf", "TCP send buffer of the hosts", c.sndBuf, 1024, 65535, "bytes");
    opts.Add("rcvBuf", "TCP receive buffer of the hosts", c.rcvBuf, 1024, 65535, "bytes");
    opts.Add("tcpTimestamps", "RFC 1323 timestamps on the hosts' TCP", c.timestamps);
    opts.AddChoice("mclBytes",
                   "the hosts' mbuf cluster size (MCLBYTES: 2048 sparc/hp300, 1024 i386/pmax); "
                   "tcp_mss() rounds the MSS down to a multiple of it",
                   mclText,
                   {"2048", "1024"});
    // The era's clocks: 4.4BSD's microtime() (1 us), Digital UNIX without options MICRO_TIME
    // (1 024 Hz), a clock advanced by the 100 Hz clock interrupt alone (SunOS 5 on workstations
    // whose periodic timer is the sole timing information; IRIX: "never greater than 10 ms").
    opts.AddChoice("timestampHz",
                   "ticks per second of the receiving application's clock (gettimeofday)",
                   clockText,
                   {"1000000", "1024", "100"});
    // 0: the log stays in memory; a text line of about 20 bytes in an 8 KB stdio buffer is a
    // write every 410 packets.
    opts.Add("logWriteEvery",
             "the receiving application writes its log every this many packets (0: never)",
             c.logWriteEvery,
             0,
             100000);
    opts.Add("logWriteCost",
             "CPU time of one write of the log",
             c.logWriteCost,
             Seconds(0),
             MilliSeconds(100));
    opts.Add("syncInterval",
             "the update daemon's sync period on S and R (0 s: none)",
             c.syncInterval,
             Seconds(0),
             Seconds(3600));
    opts.Add("syncDuration",
             "CPU time of one sync in the (non-preemptible) kernel",
             c.syncDuration,
             Seconds(0),
             MilliSeconds(500));
    opts.Add("otherRate",
             "other processes' system calls per second on S and R (Poisson; an X server, "
             "daemons)",
             c.otherRate,
             0.0,
             1e4,
             "1/s");
    opts.Add("otherDuration",
             "CPU time of one such system call",
             c.otherDuration,
             Seconds(0),
             MilliSeconds(500));
    // 6 Mbit/s at one packet every 5.55 ms is 4 162 bytes a packet, counted at the application
    // (a 4 160-byte payload), at IP (a 4 162-byte datagram: 4 134 bytes of payload) or in FDDI
    // frame bits (a 4 162-byte frame: 4 109 bytes of payload).
    opts.AddChoice("rateLayer",
                   "the layer at which the stream's 6 Mbit/s is counted, which sets its UDP "
                   "payload unless --packetSize is given (application 4160, ip 4134, frame 4109)",
                   rateLayer,
                   {"application", "ip", "frame"});
    opts.AddChoice("mssRule",
                   "the hosts' MSS rule: bsd44 (4.4BSD tcp_mss(): MTU - 40 rounded down to a "
                   "multiple of MCLBYTES) or mtu (MTU - 40: SysV/Mentat stacks such as Solaris 2)",
                   c.mssRule,
                   {"bsd44", "mtu"});
    // 9 x 1 024 (SunOS 4 / System V udp_recvspace-like defaults) up to 4.4BSD's 41 600.
    opts.Add("udpRcvBuf",
             "UDP receive buffer of S's stream socket",
             c.udpRcvBuf,
             1024,
             262144,
             "bytes");
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
        ProgramOptions::Require(c.setup == "router" || c.randomSender == "generator",
                                "--randomSender=host needs --setup=router");
        ProgramOptions::Require(c.randomSender == "generator" || !opts.IsGiven("randomRate"),
                                "--randomRate is the generator's: a host (--randomSender=host) "
                                "sends as fast as its send path allows");
        ProgramOptions::Require(c.setup == "router" || !opts.IsGiven("receiverSide"),
                                "--receiverSide needs --setup=router");
        ProgramOptions::Require(c.setup == "router" || !opts.IsGiven("loadDirection"),
                                "--loadDirection needs --setup=router");
    });
    opts.Parse(argc, argv);
    c.ttrtGiven = opts.IsGiven("ttrt");
    c.mclBytes = std::stoul(mclText);
    c.timestampHz = std::stoul(clockText);
    if (!opts.IsGiven("packetSize"))
    {
        c.packetSize = rateLayer == "ip" ? 4134 : rateLayer == "frame" ? 4109 : 4160;
    }

    NttTestbed testbed(c);
    testbed.Check();
    testbed.Build();
    opts.StartProgress(Seconds(60));
    Simulator::Run();
    ResultRecord& rec = opts.Record();
    testbed.Write(rec);
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
