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

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("NttStream");

namespace
{

/** The era's TCP (4.4BSD-Lite defaults; doc/ntt.rst says what comes from where). */
void
ConfigureBsdTcp(uint32_t mss)
{
    UserAttributes::SetConfigDefault("ns3::TcpL4Protocol::SocketType",
                                     StringValue("ns3::TcpLinuxReno"));
    UserAttributes::SetConfigDefault("ns3::TcpL4Protocol::RecoveryType",
                                     StringValue("ns3::TcpClassicRecovery"));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::SndBufSize",
                                     UintegerValue(8192)); // tcp_sendspace
    UserAttributes::SetConfigDefault("ns3::TcpSocket::RcvBufSize",
                                     UintegerValue(8192)); // tcp_recvspace
    UserAttributes::SetConfigDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(1));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(200)));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::TcpNoDelay", BooleanValue(false)); // Nagle on
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(false));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::ClockGranularity",
                                     TimeValue(MilliSeconds(500)));
    // BSD's arpresolve() sends its request at once (ns-3 waits up to 10 ms by default).
    UserAttributes::SetConfigDefault("ns3::ArpL3Protocol::RequestJitter",
                                     StringValue("ns3::ConstantRandomVariable[Constant=0]"));
    // udp_recvspace = 40 x (1024 + sizeof(struct sockaddr_in)) = 41 600 bytes.
    UserAttributes::SetConfigDefault("ns3::UdpSocket::RcvBufSize", UintegerValue(41600));
}

/**
 * Static routes: every host's default route via its segment's gateway.
 * @param node the host
 * @param gateway the gateway
 */
void
DefaultRoute(Ptr<Node> node, Ipv4Address gateway)
{
    Ipv4StaticRoutingHelper helper;
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    helper.GetStaticRouting(ipv4)->SetDefaultRoute(gateway, 1);
}

} // namespace

int
main(int argc, char* argv[])
{
    ExperimentArgs::SetSimulatorDefaults();
    std::string setup = "ring";
    std::string streamFrom = "fddi";
    bool tcp = true;
    DataRate load("0bps");
    uint32_t packets = 1000;
    Time interval = MicroSeconds(5550);
    uint32_t packetSize = 4160;
    bool cacheEthernet = true;
    bool cacheFddi = true;
    std::string cacheSide = "Output";
    std::string cachePolicy = "FlushAll";
    Time flushInterval = Seconds(60);
    uint32_t cacheCapacity = 8548;
    double randomRate = 0;
    Time fillTimeout = Seconds(30);
    Time ttrt = MilliSeconds(8);
    double fastCost = 1800;
    double slowCost = 18000;
    uint32_t inputQueue = 75;
    uint32_t warmup = 20;

    ProgramOptions opts("ntt-stream",
                        "[NTT96] jitter of the 6 Mbit/s stream over TCP or UDP on an FDDI ring "
                        "or through a route-cache router, under load");
    opts.AddChoice("setup", "ring (exp. 1) or router (exps. 2, 3)", setup, {"ring", "router"});
    opts.AddChoice("streamFrom",
                   "router setup: the side of the router the stream enters from",
                   streamFrom,
                   {"fddi", "ethernet"});
    opts.Add("tcp", "carry the stream over TCP (else UDP)", tcp);
    // Up to 1 Gbit/s: ten times what either medium can carry.
    opts.Add("load", "offered load (UDP payload bit/s)", load, DataRate("0bps"), DataRate("1Gbps"));
    // The study: 1000; at least 10 for a meaningful max - min.
    opts.Add("packets", "stream packets in the jitter window", packets, 10, 100000);
    opts.Add("warmup", "stream packets before the jitter window", warmup, 0, 100000);
    opts.Add("interval", "the stream's interval", interval, MicroSeconds(100), Seconds(1));
    // 12 bytes carry the sequence number; 4324 is the largest unfragmented UDP payload on FDDI.
    opts.Add("packetSize", "stream packet bytes (UDP payload)", packetSize, 12, 4324);
    opts.Add("cacheEthernet", "router: route cache of the Ethernet interface on", cacheEthernet);
    opts.Add("cacheFddi", "router: route cache of the FDDI interface on", cacheFddi);
    opts.AddChoice("cacheSide",
                   "router: whose cache a packet uses",
                   cacheSide,
                   {"Output", "Input"});
    opts.AddChoice("cachePolicy", "router: cache replacement", cachePolicy, {"FlushAll", "Lru"});
    opts.Add("flushInterval",
             "router: period of the clear-all flush (0 s: none)",
             flushInterval,
             Seconds(0),
             Seconds(3600));
    // The study's router: 8548; up to the /9 block the random destinations come from.
    opts.Add("cacheCapacity", "router: entries per interface cache", cacheCapacity, 1, 8000000);
    opts.Add("randomRate",
             "router: random-destination datagrams per second (0: none; exp. 3)",
             randomRate,
             0.0,
             1e6);
    opts.Add("fillTimeout",
             "router: the stream starts at the latest this long after the random traffic",
             fillTimeout,
             Seconds(0),
             Seconds(3600));
    // ANSI X3.139: T_Max is 165 ms; below 1 ms the ring latency of long rings no longer fits.
    opts.Add("ttrt", "FDDI target token rotation time", ttrt, MilliSeconds(1), MilliSeconds(165));
    opts.Add("fastCost", "router: fast-path cycles per packet", fastCost, 0.0, 1e8);
    opts.Add("slowCost", "router: slow-path cycles per packet", slowCost, 0.0, 1e8);
    opts.Add("inputQueue", "router: input queue packets", inputQueue, 1, 100000);
    ResultRecord& rec = opts.Record();
    rec.Declare("setup", ResultRecord::STRING, "--setup: ring (exp. 1) or router (exps. 2, 3)")
        .Declare("protocol", ResultRecord::STRING, "transport of the forwarded stream: tcp or udp")
        .Declare("stream_from",
                 ResultRecord::STRING,
                 "side the stream enters from: fddi or ethernet")
        .Declare("load_offered_mbps", ResultRecord::REAL, "offered load (UDP payload, Mbit/s)")
        .Declare("load_carried_mbps", ResultRecord::REAL, "load received by its sink (Mbit/s)")
        .Declare("jitter_s",
                 ResultRecord::REAL,
                 "the study's jitter: max - min of arrival - standard (s)")
        .Declare("jitter_min_dev_s", ResultRecord::REAL, "smallest arrival - standard (s)")
        .Declare("jitter_max_dev_s", ResultRecord::REAL, "largest arrival - standard (s)")
        .Declare("window_packets", ResultRecord::INT, "stream packets in the jitter window")
        .Declare("window_arrived", ResultRecord::INT, "window packets that arrived")
        .Declare("window_missing", ResultRecord::INT, "window packets that never arrived")
        .Declare("window_s", ResultRecord::REAL, "length of the jitter window (s)")
        .Declare("stream_read", ResultRecord::INT, "stream packets read by the forwarding computer")
        .Declare("stream_forwarded",
                 ResultRecord::INT,
                 "stream records sent on by the forwarding computer")
        .Declare("stream_arrived", ResultRecord::INT, "stream records read by the receiver")
        .Declare("cache_side",
                 ResultRecord::STRING,
                 "router: interface whose cache is used (Input/Output)")
        .Declare("cache_policy", ResultRecord::STRING, "router: cache replacement (FlushAll/Lru)")
        .Declare("cache_ethernet",
                 ResultRecord::INT,
                 "router: Ethernet interface cache on (1) or off (0)")
        .Declare("cache_fddi", ResultRecord::INT, "router: FDDI interface cache on (1) or off (0)")
        .Declare("flush_interval_s", ResultRecord::REAL, "router: cache flush interval (s)")
        .Declare("random_rate_pps", ResultRecord::REAL, "random-destination datagrams per second")
        .Declare("router_fast", ResultRecord::INT, "router: packets on the fast path")
        .Declare("router_slow", ResultRecord::INT, "router: packets on the slow path")
        .Declare("router_queue_drops", ResultRecord::INT, "router: slow-path input queue drops")
        .Declare("router_max_queue",
                 ResultRecord::INT,
                 "router: largest slow-path queue (packets)");
    for (const char* name : {"fddi", "ethernet"})
    {
        std::string p = std::string("cache_") + name;
        std::string what = std::string("router: ") + name + " interface cache ";
        rec.Declare(p + "_hits", ResultRecord::INT, what + "hits")
            .Declare(p + "_misses", ResultRecord::INT, what + "misses")
            .Declare(p + "_fills", ResultRecord::INT, what + "fills")
            .Declare(p + "_flushes", ResultRecord::INT, what + "flushes");
    }
    rec.Declare("cache_filled", ResultRecord::INT, "exp. 3: cache entries when the stream started")
        .Declare("fill_time_s",
                 ResultRecord::REAL,
                 "exp. 3: time the random traffic took to fill the cache (s)")
        .Declare("random_sent", ResultRecord::INT, "exp. 3: random-destination datagrams sent")
        .Declare("stream_start_s", ResultRecord::REAL, "time the stream started (s)")
        .Declare("events", ResultRecord::INT, "simulator events");
    opts.Parse(argc, argv);
    const bool router = setup == "router";
    ProgramOptions::Require(router || randomRate == 0, "--randomRate needs --setup=router");

    // BSD's tcp_mss(): the interface MTU - 40 on a local net (subnetsarelocal: both segments
    // of network 10 are local), and the smaller of the two ends' values.
    const bool ethernetPath = router;
    ConfigureBsdTcp(ethernetPath ? 1460 : 4352 - 40);

    // --- nodes --------------------------------------------------------------------------------
    Ptr<Node> analyser = CreateObject<Node>(); // the analyser's stream port
    Ptr<Node> sender = CreateObject<Node>();   // S
    Ptr<Node> receiver = CreateObject<Node>(); // R
    Ptr<Node> loadPort = CreateObject<Node>(); // the analyser's load port
    Ptr<Node> sink = CreateObject<Node>();     // L
    Ptr<Node> rtr = router ? CreateObject<Node>() : nullptr;
    Ptr<Node> randomSender = router ? CreateObject<Node>() : nullptr;
    NodeContainer all(analyser, sender, receiver, loadPort, sink);
    if (router)
    {
        all.Add(rtr);
        all.Add(randomSender);
    }
    InternetStackHelper internet;
    internet.Install(all);

    NodeContainer ring;
    NodeContainer hub;
    const bool streamOnRing = !router || streamFrom == "fddi";
    if (!router)
    {
        ring = NodeContainer(analyser, sender, receiver, loadPort, sink);
    }
    else
    {
        ring.Add(rtr);
        hub.Add(rtr);
        if (streamOnRing)
        {
            ring.Add(analyser);
            ring.Add(sender);
            hub.Add(receiver);
        }
        else
        {
            hub.Add(analyser);
            hub.Add(sender);
            ring.Add(receiver);
        }
        ring.Add(sink);
        hub.Add(loadPort);
        hub.Add(randomSender);
    }
    FddiHelper fddi;
    fddi.SetChannelAttribute("Ttrt", TimeValue(ttrt));
    NetDeviceContainer ringDevs = fddi.Install(ring);
    Ipv4AddressHelper ip("10.1.0.0", "255.255.255.0");
    Ipv4InterfaceContainer ringIfs = ip.Assign(ringDevs);
    NetDeviceContainer hubDevs;
    Ipv4InterfaceContainer hubIfs;
    if (router)
    {
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
        eth.SetDeviceAttribute("Duplex", StringValue("Auto"));
        hubDevs = eth.InstallHub(hub);
        eth.AssignStreams(hubDevs, 300);
        ip.SetBase("10.2.0.0", "255.255.255.0");
        hubIfs = ip.Assign(hubDevs);
    }
    auto addressOf = [&](Ptr<Node> n) {
        return n->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    };
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        Ptr<Node> n = all.Get(i);
        if (n != rtr)
        {
            UserAttributes::SetFixed(n->GetObject<Ipv4>(),
                                     "IpForward",
                                     BooleanValue(false),
                                     "off on every host but the router");
        }
    }
    Ptr<CacheRouter> cacheRouter;
    uint32_t ifFddi = 0;
    uint32_t ifEthernet = 0;
    if (router)
    {
        // Hosts route through the router; the router's default route points into the ring (the
        // random destinations lie beyond it, sink L stands for the next hop and discards them).
        for (uint32_t i = 1; i < ring.GetN(); ++i)
        {
            DefaultRoute(ring.Get(i), ringIfs.GetAddress(0));
        }
        for (uint32_t i = 1; i < hub.GetN(); ++i)
        {
            DefaultRoute(hub.Get(i), hubIfs.GetAddress(0));
        }
        Ptr<Ipv4> rip = rtr->GetObject<Ipv4>();
        ifFddi = rip->GetInterfaceForDevice(ringDevs.Get(0));
        ifEthernet = rip->GetInterfaceForDevice(hubDevs.Get(0));
        Ipv4StaticRoutingHelper srh;
        srh.GetStaticRouting(rip)->SetDefaultRoute(addressOf(sink), ifFddi);
        HostPlatformHelper rph("router1995-m68040");
        rph.SetInstallNics(false);
        rph.Install(rtr)->AssignStreams(200);
        cacheRouter = CreateObject<CacheRouter>();
        const std::string by = "from its router options";
        UserAttributes::SetFixed(cacheRouter, "FastPathCost", DoubleValue(fastCost), by);
        UserAttributes::SetFixed(cacheRouter, "SlowPathCost", DoubleValue(slowCost), by);
        UserAttributes::SetFixed(cacheRouter, "InputQueueLimit", UintegerValue(inputQueue), by);
        UserAttributes::SetFixed(cacheRouter, "CacheSide", StringValue(cacheSide), by);
        UserAttributes::SetFixed(cacheRouter, "CachePolicy", StringValue(cachePolicy), by);
        UserAttributes::SetFixed(cacheRouter, "FlushInterval", TimeValue(flushInterval), by);
        UserAttributes::SetFixed(cacheRouter, "CacheCapacity", UintegerValue(cacheCapacity), by);
        cacheRouter->Install(rtr);
        cacheRouter->SetCacheEnabled(ifFddi, cacheFddi);
        cacheRouter->SetCacheEnabled(ifEthernet, cacheEthernet);
    }
    HostPlatformHelper hosts("ws1995-bsd44");
    hosts.Install(sender)->AssignStreams(100);
    hosts.Install(receiver)->AssignStreams(110);

    // --- applications -------------------------------------------------------------------------
    const uint16_t inPort = 5000;
    const uint16_t outPort = 5001;
    Ptr<NttReceiver> rx = CreateObject<NttReceiver>();
    const std::string by = "from its options (--tcp, --packetSize)";
    UserAttributes::SetFixed(rx, "Tcp", BooleanValue(tcp), by);
    UserAttributes::SetFixed(rx, "Port", UintegerValue(outPort), by);
    UserAttributes::SetFixed(rx, "RecordSize", UintegerValue(packetSize), by);
    receiver->AddApplication(rx);
    rx->SetStartTime(Seconds(0.1));
    Ptr<NttForwarder> fwd = CreateObject<NttForwarder>();
    UserAttributes::SetFixed(fwd, "Tcp", BooleanValue(tcp), by);
    UserAttributes::SetFixed(fwd, "ListenPort", UintegerValue(inPort), by);
    UserAttributes::SetFixed(fwd, "RecordSize", UintegerValue(packetSize), by);
    UserAttributes::SetFixed(fwd,
                             "Remote",
                             AddressValue(InetSocketAddress(addressOf(receiver), outPort)),
                             by);
    // The load's and the stream's UDP clients (UdpClientHelper below) are the program's too.
    for (const char* name : {"MaxPackets", "PacketSize", "Interval", "RemoteAddress", "RemotePort"})
    {
        UserAttributes::RequireNotGiven(UdpClient::GetTypeId(),
                                        name,
                                        "for the analyser's stream and load ports");
    }
    UserAttributes::RequireNotGiven(PacketSink::GetTypeId(), "Local", "for the load's sink");
    if (randomRate == 0)
    {
        sender->AddApplication(fwd);
        fwd->SetStartTime(Seconds(0.5));
    }
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 9));
    Ptr<PacketSink> loadSink = DynamicCast<PacketSink>(sinkHelper.Install(sink).Get(0));

    // Load: the analyser's load port, constant bit rate, the largest datagram of its medium.
    const uint32_t loadPayload = router ? 1500 - 28 : 4352 - 28;
    const Time loadStart = Seconds(1.0);
    if (load.GetBitRate() > 0)
    {
        UdpClientHelper lc(addressOf(sink), 9);
        lc.SetAttribute("MaxPackets", UintegerValue(0));
        lc.SetAttribute("PacketSize", UintegerValue(loadPayload));
        lc.SetAttribute("Interval", TimeValue(Seconds(loadPayload * 8.0 / load.GetBitRate())));
        ApplicationContainer a = lc.Install(loadPort);
        a.Start(loadStart);
    }
    // Exp. 3: random destinations until the cache they fill is full.
    Ptr<RandomDestinationSource> rnd;
    Ptr<RouteCache> filled;
    if (randomRate > 0)
    {
        rnd = CreateObject<RandomDestinationSource>();
        UserAttributes::SetFixed(rnd,
                                 "Rate",
                                 DoubleValue(randomRate),
                                 "from its option --randomRate");
        rnd->AssignStreams(400);
        randomSender->AddApplication(rnd);
        rnd->SetStartTime(loadStart);
        filled = cacheRouter->GetCache(cacheSide == "Output" ? ifFddi : ifEthernet);
    }

    // The stream: the analyser's port sends packets + a margin (the window is the first
    // `packets` packets that arrive).
    const uint32_t margin = warmup + packets / 20 + 20;
    auto startStream = [&](Time delay) {
        // Through the helper (an ObjectFactory in the wheel's library): UdpClient's size depends
        // on NS3_LOG_ENABLE, which the wheel defines and this module's Release build does not,
        // so the module must not allocate one itself (CreateObject<UdpClient> overran its block).
        UdpClientHelper sc(InetSocketAddress(addressOf(sender), inPort));
        sc.SetAttribute("PacketSize", UintegerValue(packetSize));
        sc.SetAttribute("Interval", TimeValue(interval));
        sc.SetAttribute("MaxPackets", UintegerValue(packets + margin));
        sc.Install(analyser).Start(delay);
    };
    Time streamStart = loadStart + Seconds(load.GetBitRate() > 0 ? 0.5 : 0.0);
    bool cacheFull = false;
    Time fillTime = Seconds(-1);
    const Time streamDuration = interval * (packets + margin) + Seconds(2);
    std::function<void()> poll = [&]() {
        // Exp. 3: poll the cache every 10 ms; the stream starts when it is full, or at the
        // timeout.
        Time now = Simulator::Now();
        if (!filled->IsFull() && now < loadStart + fillTimeout)
        {
            Simulator::Schedule(MilliSeconds(10), poll);
            return;
        }
        cacheFull = filled->IsFull();
        fillTime = now - loadStart;
        // The sending computer opens its connection now (its SYN, too, meets the full cache),
        // and the stream follows half a second later.
        fwd->SetStartTime(Seconds(0));
        sender->AddApplication(fwd);
        streamStart = now + Seconds(0.5);
        startStream(Seconds(0.5));
        Simulator::Stop(streamDuration + Seconds(0.5));
    };
    if (!filled)
    {
        startStream(streamStart);
        Simulator::Stop(streamStart + streamDuration);
    }
    else
    {
        Simulator::Schedule(loadStart, poll);
    }
    opts.StartProgress(Seconds(60));
    Simulator::Run();

    // --- results ------------------------------------------------------------------------------
    const auto& arrivals = rx->GetArrivals();
    // The window: the `packets` packets after the warm-up (the analyser ran before the
    // receiving computer began to log; the first packets meet cold ARP caches).
    std::vector<std::pair<uint32_t, Time>> inWindow;
    for (const auto& a : arrivals)
    {
        if (a.first >= warmup)
        {
            inWindow.push_back(a);
        }
    }
    NttJitter::Result j = NttJitter::Compute(inWindow, interval, packets);
    rec.SetString("setup", setup);
    rec.SetString("protocol", tcp ? "tcp" : "udp");
    rec.SetString("stream_from", router ? streamFrom : "fddi");
    rec.Set("load_offered_mbps", load.GetBitRate() / 1e6);
    const double window = (interval * packets).GetSeconds();
    rec.Set("load_carried_mbps",
            loadSink->GetTotalRx() * 8.0 / 1e6
                / std::max(1e-9, (Simulator::Now() - loadStart).GetSeconds()));
    if (j.used >= 2) // (no jitter without two arrivals: the keys are left out)
    {
        rec.Set("jitter_s", j.jitter);
        rec.Set("jitter_min_dev_s", j.minDev);
        rec.Set("jitter_max_dev_s", j.maxDev);
    }
    rec.SetInt("window_packets", packets);
    rec.SetInt("window_arrived", j.used);
    rec.SetInt("window_missing", j.missing);
    rec.Set("window_s", window);
    rec.SetInt("stream_read", fwd->GetRead());
    rec.SetInt("stream_forwarded", fwd->GetForwarded());
    rec.SetInt("stream_arrived", arrivals.size());
    if (router)
    {
        rec.SetString("cache_side", cacheSide);
        rec.SetString("cache_policy", cachePolicy);
        rec.SetInt("cache_ethernet", cacheEthernet);
        rec.SetInt("cache_fddi", cacheFddi);
        rec.Set("flush_interval_s", flushInterval.GetSeconds());
        rec.Set("random_rate_pps", randomRate);
        rec.SetInt("router_fast", cacheRouter->GetFastPath());
        rec.SetInt("router_slow", cacheRouter->GetSlowPath());
        rec.SetInt("router_queue_drops", cacheRouter->GetQueueDrops());
        rec.SetInt("router_max_queue", cacheRouter->GetMaxQueue());
        for (auto [name, ifx] : {std::pair{"fddi", ifFddi}, std::pair{"ethernet", ifEthernet}})
        {
            Ptr<RouteCache> c = cacheRouter->GetCache(ifx);
            std::string p = std::string("cache_") + name;
            rec.SetInt(p + "_hits", c->GetHits());
            rec.SetInt(p + "_misses", c->GetMisses());
            rec.SetInt(p + "_fills", c->GetFills());
            rec.SetInt(p + "_flushes", c->GetFlushes());
        }
        if (filled)
        {
            rec.SetInt("cache_filled", cacheFull);
            rec.Set("fill_time_s", fillTime.GetSeconds());
            rec.SetInt("random_sent", rnd->GetSent());
        }
    }
    rec.Set("stream_start_s", streamStart.GetSeconds());
    rec.SetInt("events", Simulator::GetEventCount());
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
