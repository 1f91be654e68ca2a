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
 *                   ring); --randomRate > 0 adds exp. 3's random-destination sender on the hub:
 *                   it runs until the router's cache is full (or --fillTimeout), then S opens
 *                   its connection and the stream starts.
 *
 *   ./ntt-stream --setup=router --tcp=1 --loadRate=3000 --cacheFddi=0 --output=r.json
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("NttStream");

namespace
{

/** IP MTU of FDDI (RFC 1390) and of Ethernet. */
constexpr uint32_t FDDI_MTU = 4352;
constexpr uint32_t ETHERNET_MTU = 1500;
/** Bytes of a frame besides the IP datagram: FDDI FC, DA, SA, LLC/SNAP, FCS; Ethernet 14 + 4. */
constexpr uint32_t FDDI_FRAME_OVERHEAD = 1 + 6 + 6 + 8 + 4;
constexpr uint32_t ETHERNET_FRAME_OVERHEAD = 14 + 4;
/** IPv4 + UDP headers. */
constexpr uint32_t UDP_IP_HEADERS = 28;

/**
 * Static routes: a host's default route via its segment's gateway.
 * @param node the host
 * @param gateway the gateway
 * @param interface the interface it is reached by
 */
void
DefaultRoute(Ptr<Node> node, Ipv4Address gateway, uint32_t interface = 1)
{
    Ipv4StaticRoutingHelper helper;
    helper.GetStaticRouting(node->GetObject<Ipv4>())->SetDefaultRoute(gateway, interface);
}

/**
 * A node's address on an interface.
 * @param n the node
 * @param interface the IPv4 interface
 * @return the address
 */
Ipv4Address
AddressOf(Ptr<Node> n, uint32_t interface = 1)
{
    return n->GetObject<Ipv4>()->GetAddress(interface, 0).GetLocal();
}

} // namespace

int
main(int argc, char* argv[])
{
    ExperimentArgs::SetSimulatorDefaults();
    std::string setup = "ring";
    std::string receiverSide = "fddi";
    bool tcp = true;
    bool analyserOnRing = true;
    double loadRate = 0;
    uint32_t loadFrame = 0;
    uint32_t packets = 1000;
    Time interval = MicroSeconds(5550);
    uint32_t packetSize = 4160;
    Time maxTime = Seconds(600);
    bool cacheEthernet = true;
    bool cacheFddi = true;
    std::string cacheSide = "Output";
    std::string cachePolicy = "FlushAll";
    Time flushInterval = Seconds(60);
    uint32_t cacheCapacity = 8548;
    double randomRate = 0;
    uint32_t randomSize = 64;
    Time fillTimeout = Seconds(30);
    Time ttrt = MilliSeconds(8);
    double fastCost = 1800;
    double slowCost = 18000;
    uint32_t inputQueue = 75;
    uint32_t warmup = 20;
    uint32_t sndBuf = 8192;
    uint32_t rcvBuf = 8192;
    bool timestamps = false;
    std::string mclText = "2048";
    std::string hostProfile = "ws1995-bsd44";
    std::string profileFile;

    ProgramOptions opts("ntt-stream",
                        "[NTT96] jitter of the 6 Mbit/s stream over TCP or UDP on an FDDI ring "
                        "or through a route-cache router, under load");
    opts.AddChoice("setup", "ring (exp. 1) or router (exps. 2, 3)", setup, {"ring", "router"});
    opts.AddChoice("receiverSide",
                   "router setup: the receiving computer on the FDDI side (another IP subnet "
                   "of the ring) or on the Ethernet side",
                   receiverSide,
                   {"fddi", "ethernet"});
    opts.Add("tcp", "carry the stream over TCP (else UDP)", tcp);
    opts.Add("analyserOnRing",
             "the analyser's stream port on the (loaded) ring, else on a ring of its own with S",
             analyserOnRing);
    // Up to 1e6 frames/s: ten times what either medium carries of the smallest frames.
    opts.Add("loadRate", "load frames per second (0: none)", loadRate, 0.0, 1e6);
    // 64: Ethernet's smallest frame; 4377: FDDI's largest (MTU 4352 + 25). 0: the largest of
    // the load's medium (checked against the medium below).
    opts.Add("loadFrame",
             "load frame bytes, MAC header and FCS included (0: largest)",
             loadFrame,
             0,
             4377);
    // The study: 1000; at least 10 for a meaningful max - min.
    opts.Add("packets", "stream packets in the jitter window (logged)", packets, 10, 100000);
    opts.Add("warmup", "logged stream packets before the jitter window", warmup, 0, 100000);
    opts.Add("interval", "the stream's interval", interval, MicroSeconds(100), Seconds(1));
    // 12 bytes carry the sequence number; 4324 is the largest unfragmented UDP payload on FDDI.
    opts.Add("packetSize", "stream packet bytes (UDP payload)", packetSize, 12, 4324);
    // At least one second; up to a simulated day.
    opts.Add("maxTime",
             "longest the stream runs before the receiver has logged its window (then the "
             "jitter is a lower bound)",
             maxTime,
             Seconds(1),
             Seconds(86400));
    opts.Add("cacheEthernet",
             "router: fast switching (ip route-cache) on the Ethernet interface",
             cacheEthernet);
    opts.Add("cacheFddi",
             "router: fast switching (ip route-cache) on the FDDI interface",
             cacheFddi);
    opts.AddChoice("cacheSide",
                   "router: whose fast-switching switch governs a packet (output or input "
                   "interface)",
                   cacheSide,
                   {"Output", "Input"});
    opts.AddChoice("cachePolicy", "router: cache replacement", cachePolicy, {"FlushAll", "Lru"});
    opts.Add("flushInterval",
             "router: period of the clear-all flush (0 s: none)",
             flushInterval,
             Seconds(0),
             Seconds(3600));
    // The study's router: 8548 entries in all; up to the /9 block the random destinations
    // come from.
    opts.Add("cacheCapacity", "router: route-cache entries (one table)", cacheCapacity, 1, 8000000);
    opts.Add("randomRate",
             "router: random-destination datagrams per second (0: none; exp. 3)",
             randomRate,
             0.0,
             1e6);
    // 0 up to the largest unfragmented UDP payload on Ethernet.
    opts.Add("randomSize", "router: random-destination UDP payload bytes", randomSize, 0, 1472);
    opts.Add("fillTimeout",
             "router: the stream starts at the latest this long after the random traffic",
             fillTimeout,
             Seconds(0),
             Seconds(3600));
    // ANSI X3.139: T_Max is 165 ms; 4 ms is the lowest bid the era's stations accepted
    // (Cisco IOS, DEC fddi_config). Default: 8 ms (ring), 5 ms (router: Cisco's bid).
    opts.Add("ttrt",
             "FDDI target token rotation time (default: the lowest bid, 8 ms ring / 5 ms router)",
             ttrt,
             MilliSeconds(4),
             MilliSeconds(165));
    opts.Add("fastCost", "router: fast-path cycles per packet", fastCost, 0.0, 1e8);
    opts.Add("slowCost", "router: process-switching cycles per packet", slowCost, 0.0, 1e8);
    opts.Add("inputQueue",
             "router: input hold queue of each interface (packets)",
             inputQueue,
             1,
             100000);
    // 4.4BSD: 8192 each (tcp_sendspace, tcp_recvspace); at most 65535 without window scaling.
    opts.Add("sndBuf", "TCP send buffer of the hosts (bytes)", sndBuf, 1024, 65535);
    opts.Add("rcvBuf", "TCP receive buffer of the hosts (bytes)", rcvBuf, 1024, 65535);
    opts.Add("tcpTimestamps", "RFC 1323 timestamps on the hosts' TCP", timestamps);
    opts.AddChoice("mclBytes",
                   "the hosts' mbuf cluster size (MCLBYTES: 2048 sparc/hp300, 1024 i386/pmax); "
                   "tcp_mss() rounds the MSS down to a multiple of it",
                   mclText,
                   {"2048", "1024"});
    opts.Add("hostProfile", "host profile of the sending and receiving computers", hostProfile);
    opts.AddProfileFile(profileFile);
    ResultRecord& rec = opts.Record();
    rec.Declare("setup", ResultRecord::STRING, "--setup: ring (exp. 1) or router (exps. 2, 3)")
        .Declare("protocol", ResultRecord::STRING, "transport of the forwarded stream: tcp or udp")
        .Declare("receiver_side",
                 ResultRecord::STRING,
                 "side of the router the receiving computer is on: fddi or ethernet")
        .Declare("analyser_on_ring", ResultRecord::BOOL, "the analyser's stream port on the ring")
        .Declare("ttrt_ms", ResultRecord::REAL, "FDDI TTRT (ms)")
        .Declare("mss", ResultRecord::INT, "TCP segment size of the path (bytes)")
        .Declare("tcp_buffer_bytes",
                 ResultRecord::INT,
                 "TCP receive buffer after tcp_mss()'s rounding (bytes)")
        .Declare("load_rate_pps", ResultRecord::REAL, "load frames per second")
        .Declare("load_frame_bytes", ResultRecord::INT, "load frame bytes (MAC header, FCS)")
        .Declare("load_offered_mbps", ResultRecord::REAL, "offered load (frame bits, Mbit/s)")
        .Declare("load_carried_mbps",
                 ResultRecord::REAL,
                 "load received by its sink (frame bits, Mbit/s)")
        .Declare("jitter_s",
                 ResultRecord::REAL,
                 "the study's jitter over the first logged packets (s; a lower bound if cut off)")
        .Declare("jitter_is_lower_bound",
                 ResultRecord::BOOL,
                 "the run was cut off at --maxTime before the window was logged")
        .Declare("jitter_min_dev_s", ResultRecord::REAL, "smallest arrival - standard (s)")
        .Declare("jitter_max_dev_s",
                 ResultRecord::REAL,
                 "largest arrival - standard (s; cut off: with the pending packet's)")
        .Declare("window_packets", ResultRecord::INT, "stream packets in the jitter window")
        .Declare("window_logged", ResultRecord::INT, "window packets logged")
        .Declare("window_s",
                 ResultRecord::REAL,
                 "time from the window's first logged packet to its last (or the cut-off) (s)")
        .Declare("stream_rate_mbps",
                 ResultRecord::REAL,
                 "logged packets' payload bits over window_s (Mbit/s)")
        .Declare("seq_jitter_s",
                 ResultRecord::REAL,
                 "not the study's: the jitter with packet k = sequence number - the first's "
                 "(losses leave gaps), over the window's sequence numbers (s)")
        .Declare("seq_missing", ResultRecord::INT, "sequence numbers of that window never logged")
        .Declare("stream_sent", ResultRecord::INT, "stream packets the analyser sent")
        .Declare("stream_read", ResultRecord::INT, "stream packets read by the forwarding computer")
        .Declare("stream_forwarded",
                 ResultRecord::INT,
                 "stream records sent on by the forwarding computer")
        .Declare("stream_arrived", ResultRecord::INT, "stream records read by the receiver")
        .Declare("tcp_retransmissions", ResultRecord::INT, "TCP: segments retransmitted by S")
        .Declare("tcp_persist_forced",
                 ResultRecord::INT,
                 "TCP: forced sends into a small window on a persist timeout")
        .Declare("cache_side",
                 ResultRecord::STRING,
                 "router: interface whose switch governs a packet (Input/Output)")
        .Declare("cache_policy", ResultRecord::STRING, "router: cache replacement (FlushAll/Lru)")
        .Declare("cache_ethernet",
                 ResultRecord::INT,
                 "router: fast switching on the Ethernet interface (1) or not (0)")
        .Declare("cache_fddi",
                 ResultRecord::INT,
                 "router: fast switching on the FDDI interface (1) or not (0)")
        .Declare("flush_interval_s", ResultRecord::REAL, "router: cache flush interval (s)")
        .Declare("slow_cost_cycles", ResultRecord::REAL, "router: process-switching cycles")
        .Declare("random_rate_pps", ResultRecord::REAL, "random-destination datagrams per second")
        .Declare("random_size_bytes", ResultRecord::INT, "random-destination UDP payload bytes")
        .Declare("router_fast", ResultRecord::INT, "router: packets on the fast path")
        .Declare("router_slow", ResultRecord::INT, "router: packets on the slow path")
        .Declare("router_queue_drops", ResultRecord::INT, "router: input hold queue drops")
        .Declare("router_max_queue",
                 ResultRecord::INT,
                 "router: largest number of packets waiting for process switching")
        .Declare("cache_hits", ResultRecord::INT, "router: route-cache hits")
        .Declare("cache_misses", ResultRecord::INT, "router: route-cache misses")
        .Declare("cache_fills", ResultRecord::INT, "router: route-cache fills")
        .Declare("cache_refused",
                 ResultRecord::INT,
                 "router: fills refused because the cache was full")
        .Declare("cache_flushes", ResultRecord::INT, "router: route-cache flushes");
    for (const char* name : {"fddi", "ethernet"})
    {
        std::string p = std::string("router_") + name;
        std::string what
            = std::string("router: packets that arrived on the ") + name + " interface and ";
        rec.Declare(p + "_fast", ResultRecord::INT, what + "took the fast path")
            .Declare(p + "_slow", ResultRecord::INT, what + "were process-switched")
            .Declare(p + "_drops", ResultRecord::INT, what + "found its hold queue full")
            .Declare(p + "_max_queue",
                     ResultRecord::INT,
                     std::string("router: largest input hold queue of the ") + name + " interface");
    }
    rec.Declare("cache_filled", ResultRecord::INT, "exp. 3: cache full when the stream started")
        .Declare("fill_time_s",
                 ResultRecord::REAL,
                 "exp. 3: time the random traffic took to fill the cache (s)")
        .Declare("random_sent", ResultRecord::INT, "exp. 3: random-destination datagrams sent")
        .Declare("stream_start_s", ResultRecord::REAL, "time the stream started (s)")
        .Declare("end_s", ResultRecord::REAL, "time the run ended (s)")
        .Declare("events", ResultRecord::INT, "simulator events");
    opts.Parse(argc, argv);
    const bool router = setup == "router";
    const uint32_t mclBytes = std::stoul(mclText);
    ProgramOptions::Require(router || randomRate == 0, "--randomRate needs --setup=router");
    ProgramOptions::Require(router || !opts.IsGiven("receiverSide"),
                            "--receiverSide needs --setup=router");
    ProgramOptions::Require(Profile::Exists("host", hostProfile),
                            "--hostProfile: no host profile '" + hostProfile + "'");
    if (!opts.IsGiven("ttrt"))
    {
        // The ring runs at the lowest TTRT bid: the era's workstation adapters bid 8 ms (DEC
        // fddi_config's default T_req), a Cisco router's FDDI interface 5 ms.
        ttrt = router ? MilliSeconds(5) : MilliSeconds(8);
    }
    // The load's medium: the ring (exp. 1) or the Ethernet (exps. 2, 3).
    const uint32_t loadOverhead = router ? ETHERNET_FRAME_OVERHEAD : FDDI_FRAME_OVERHEAD;
    const uint32_t loadMtu = router ? ETHERNET_MTU : FDDI_MTU;
    if (loadFrame == 0)
    {
        loadFrame = loadOverhead + loadMtu;
    }
    // A UdpClient datagram carries at least its 12-byte SeqTsHeader; an Ethernet frame is at
    // least 64 bytes.
    const uint32_t minFrame
        = std::max<uint32_t>(router ? 64 : 0, loadOverhead + UDP_IP_HEADERS + 12);
    ProgramOptions::Require(loadFrame >= minFrame && loadFrame <= loadOverhead + loadMtu,
                            "--loadFrame=" + std::to_string(loadFrame) + ": the "
                                + (router ? "Ethernet" : "FDDI") + " load's frames are "
                                + std::to_string(minFrame) + " to "
                                + std::to_string(loadOverhead + loadMtu) + " bytes");
    const uint32_t loadIp = std::max(loadFrame - loadOverhead, router ? 46u : 0u);
    const uint32_t loadPayload = loadIp - UDP_IP_HEADERS;

    // 4.4BSD's tcp_mss(): each end takes its interface's MTU - 40 (a local net:
    // subnetsarelocal, every subnet of network 10), rounded down to a multiple of MCLBYTES
    // when larger than MCLBYTES; the connection uses the smaller of the two ends' values and
    // rounds both socket buffers up to a multiple of it. The timestamp option takes 12 bytes of
    // each segment (tcp_output).
    const bool receiverOnRing = !router || receiverSide == "fddi";
    auto bsdMss = [mclBytes](uint32_t mtu) {
        uint32_t m = mtu - 40;
        return m > mclBytes ? m / mclBytes * mclBytes : m;
    };
    const uint32_t maxseg
        = std::min(bsdMss(FDDI_MTU), bsdMss(receiverOnRing ? FDDI_MTU : ETHERNET_MTU));
    auto roundUp = [maxseg](uint32_t b) {
        return (b + maxseg - 1) / maxseg * maxseg;
    };
    const uint32_t mss = maxseg - (timestamps ? 12 : 0);
    BsdTcpHelper::ConfigureDefaults(roundUp(sndBuf), roundUp(rcvBuf), timestamps);
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    // BSD's arpresolve() sends its request at once (ns-3 waits up to 10 ms by default).
    Config::SetDefault("ns3::ArpL3Protocol::RequestJitter",
                       StringValue("ns3::ConstantRandomVariable[Constant=0]"));
    // udp_recvspace = 40 x (1024 + sizeof(struct sockaddr_in)) = 41 600 bytes.
    Config::SetDefault("ns3::UdpSocket::RcvBufSize", UintegerValue(41600));

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

    // The ring in ring order; R apart when it is in the ring's other subnet.
    NodeContainer ring;
    NodeContainer hub;
    if (!router)
    {
        if (analyserOnRing)
        {
            ring.Add(analyser);
        }
        ring.Add(sender);
        ring.Add(receiver);
        ring.Add(loadPort);
        ring.Add(sink);
    }
    else
    {
        ring.Add(rtr);
        if (analyserOnRing)
        {
            ring.Add(analyser);
        }
        ring.Add(sender);
        if (receiverOnRing)
        {
            ring.Add(receiver);
        }
        ring.Add(sink);
        hub.Add(rtr);
        if (!receiverOnRing)
        {
            hub.Add(receiver);
        }
        hub.Add(loadPort);
        hub.Add(randomSender);
    }
    FddiHelper fddi;
    fddi.SetChannelAttribute("Ttrt", TimeValue(ttrt));
    NetDeviceContainer ringDevs = fddi.Install(ring);
    Ipv4AddressHelper ip;
    NetDeviceContainer subnetA; // the ring's first subnet: all but R in the router set-up
    Ptr<NetDevice> receiverRingDev;
    for (uint32_t i = 0; i < ring.GetN(); ++i)
    {
        if (router && ring.Get(i) == receiver)
        {
            receiverRingDev = ringDevs.Get(i);
        }
        else
        {
            subnetA.Add(ringDevs.Get(i));
        }
    }
    ip.SetBase("10.1.0.0", "255.255.255.0");
    ip.Assign(subnetA);
    if (receiverRingDev)
    {
        // R in the ring's second IP subnet: the router has an address in both, so the stream
        // (S in 10.1, R in 10.3) enters and leaves by the router's FDDI interface.
        ip.SetBase("10.3.0.0", "255.255.255.0", "0.0.0.2");
        ip.Assign(NetDeviceContainer(receiverRingDev));
        Ptr<Ipv4> rip = rtr->GetObject<Ipv4>();
        rip->AddAddress(rip->GetInterfaceForDevice(ringDevs.Get(0)),
                        Ipv4InterfaceAddress("10.3.0.1", "255.255.255.0"));
    }
    NetDeviceContainer hubDevs;
    if (router)
    {
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
        eth.SetDeviceAttribute("Duplex", StringValue("Auto"));
        hubDevs = eth.InstallHub(hub);
        eth.AssignStreams(hubDevs, 300);
        ip.SetBase("10.2.0.0", "255.255.255.0");
        ip.Assign(hubDevs);
    }
    Ipv4Address analyserTarget;
    if (!analyserOnRing)
    {
        // The analyser's stream port on a ring of its own with S (S's second adapter).
        FddiHelper own;
        own.SetChannelAttribute("Ttrt", TimeValue(ttrt));
        NetDeviceContainer d = own.Install(NodeContainer(analyser, sender));
        ip.SetBase("10.4.0.0", "255.255.255.0");
        analyserTarget = ip.Assign(d).GetAddress(1);
    }
    else
    {
        analyserTarget = AddressOf(sender);
    }
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        if (all.Get(i) != rtr)
        {
            all.Get(i)->GetObject<Ipv4>()->SetAttribute("IpForward", BooleanValue(false));
        }
    }
    Ptr<CacheRouter> cacheRouter;
    uint32_t ifFddi = 0;
    uint32_t ifEthernet = 0;
    if (router)
    {
        // Hosts route through the router; the router's default route points into the ring (the
        // random destinations lie beyond it, sink L stands for the next hop and discards them).
        const Ipv4Address gwRing = AddressOf(rtr, 1);
        for (Ptr<Node> n : {sender, sink})
        {
            DefaultRoute(n, gwRing);
        }
        if (analyserOnRing)
        {
            DefaultRoute(analyser, gwRing);
        }
        DefaultRoute(receiver, receiverOnRing ? Ipv4Address("10.3.0.1") : AddressOf(rtr, 2));
        for (Ptr<Node> n : {loadPort, randomSender})
        {
            DefaultRoute(n, AddressOf(rtr, 2));
        }
        Ptr<Ipv4> rip = rtr->GetObject<Ipv4>();
        ifFddi = rip->GetInterfaceForDevice(ringDevs.Get(0));
        ifEthernet = rip->GetInterfaceForDevice(hubDevs.Get(0));
        Ipv4StaticRoutingHelper srh;
        srh.GetStaticRouting(rip)->SetDefaultRoute(AddressOf(sink), ifFddi);
        HostPlatformHelper rph("router1995-m68040");
        rph.SetInstallNics(false);
        rph.Install(rtr)->AssignStreams(200);
        cacheRouter = CreateObject<CacheRouter>();
        cacheRouter->SetAttribute("FastPathCost", DoubleValue(fastCost));
        cacheRouter->SetAttribute("SlowPathCost", DoubleValue(slowCost));
        cacheRouter->SetAttribute("InputQueueLimit", UintegerValue(inputQueue));
        cacheRouter->SetAttribute("CacheSide", StringValue(cacheSide));
        cacheRouter->SetAttribute("CachePolicy", StringValue(cachePolicy));
        cacheRouter->SetAttribute("FlushInterval", TimeValue(flushInterval));
        cacheRouter->SetAttribute("CacheCapacity", UintegerValue(cacheCapacity));
        cacheRouter->Install(rtr);
        cacheRouter->SetCacheEnabled(ifFddi, cacheFddi);
        cacheRouter->SetCacheEnabled(ifEthernet, cacheEthernet);
    }
    HostPlatformHelper hosts(hostProfile);
    hosts.Install(sender)->AssignStreams(100);
    hosts.Install(receiver)->AssignStreams(110);
    BsdTcpHelper::Install(NodeContainer(sender, receiver));
    BsdTcpHelper::AssignStreams(NodeContainer(sender, receiver), 500);

    // --- applications -------------------------------------------------------------------------
    const uint16_t inPort = 5000;
    const uint16_t outPort = 5001;
    Ptr<NttReceiver> rx = CreateObject<NttReceiver>();
    rx->SetAttribute("Tcp", BooleanValue(tcp));
    rx->SetAttribute("Port", UintegerValue(outPort));
    rx->SetAttribute("RecordSize", UintegerValue(packetSize));
    rx->SetAttribute("TcpFactory", TypeIdValue(BsdTcpSocketFactory::GetTypeId()));
    receiver->AddApplication(rx);
    rx->SetStartTime(Seconds(0.1));
    Ptr<NttForwarder> fwd = CreateObject<NttForwarder>();
    fwd->SetAttribute("Tcp", BooleanValue(tcp));
    fwd->SetAttribute("ListenPort", UintegerValue(inPort));
    fwd->SetAttribute("RecordSize", UintegerValue(packetSize));
    fwd->SetAttribute("TcpFactory", TypeIdValue(BsdTcpSocketFactory::GetTypeId()));
    fwd->SetAttribute("Remote", AddressValue(InetSocketAddress(AddressOf(receiver), outPort)));
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 9));
    Ptr<PacketSink> loadSink = DynamicCast<PacketSink>(sinkHelper.Install(sink).Get(0));

    // Load: the analyser's load port, constant rate.
    const Time loadStart = Seconds(1.0);
    if (loadRate > 0)
    {
        UdpClientHelper lc(AddressOf(sink), 9);
        lc.SetAttribute("MaxPackets", UintegerValue(0));
        lc.SetAttribute("PacketSize", UintegerValue(loadPayload));
        lc.SetAttribute("Interval", TimeValue(Seconds(1.0 / loadRate)));
        lc.Install(loadPort).Start(loadStart);
    }
    // Exp. 3: random destinations until the router's cache is full.
    Ptr<RandomDestinationSource> rnd;
    if (randomRate > 0)
    {
        rnd = CreateObject<RandomDestinationSource>();
        rnd->SetAttribute("Rate", DoubleValue(randomRate));
        rnd->SetAttribute("PacketSize", UintegerValue(randomSize));
        rnd->AssignStreams(400);
        randomSender->AddApplication(rnd);
        rnd->SetStartTime(loadStart);
    }

    // The stream: the analyser sends until the receiver has logged warmup + packets packets
    // (the window: the last `packets` of them), or until maxTime has passed.
    ApplicationContainer analyserApp;
    auto startStream = [&](Time delay) {
        // Through the helper (an ObjectFactory in the wheel's library): UdpClient's size depends
        // on NS3_LOG_ENABLE, which the wheel defines and this module's Release build does not,
        // so the module must not allocate one itself (CreateObject<UdpClient> overran its block).
        UdpClientHelper sc(InetSocketAddress(analyserTarget, inPort));
        sc.SetAttribute("PacketSize", UintegerValue(packetSize));
        sc.SetAttribute("Interval", TimeValue(interval));
        sc.SetAttribute("MaxPackets", UintegerValue(0));
        analyserApp = sc.Install(analyser);
        analyserApp.Start(delay);
        Simulator::Schedule(delay + maxTime, []() { Simulator::Stop(); });
    };
    uint64_t logged = 0;
    rx->TraceConnectWithoutContext("Arrival", Callback<void, uint32_t, Time>([&](uint32_t, Time) {
                                       if (++logged == uint64_t(warmup) + packets)
                                       {
                                           Simulator::Stop();
                                       }
                                   }));
    Time streamStart = loadStart + Seconds(loadRate > 0 ? 0.5 : 0.0);
    bool cacheFull = false;
    Time fillTime = Seconds(-1);
    std::function<void()> poll = [&]() {
        // Exp. 3: poll the cache every 10 ms; the stream starts when it is full, or at the
        // timeout.
        const Time now = Simulator::Now();
        Ptr<RouteCache> cache = cacheRouter->GetCache();
        if (!cache->IsFull() && now < loadStart + fillTimeout)
        {
            Simulator::Schedule(MilliSeconds(10), poll);
            return;
        }
        cacheFull = cache->IsFull();
        fillTime = now - loadStart;
        // The sending computer opens its connection now (its SYN, too, meets the full cache),
        // and the stream follows half a second later.
        fwd->SetStartTime(Seconds(0));
        sender->AddApplication(fwd);
        streamStart = now + Seconds(0.5);
        startStream(Seconds(0.5));
    };
    if (!rnd)
    {
        sender->AddApplication(fwd);
        fwd->SetStartTime(Seconds(0.5));
        startStream(streamStart);
    }
    else
    {
        Simulator::Schedule(loadStart, poll);
    }
    // S's socket exists once the forwarder has started: count its retransmissions.
    uint64_t retransmissions = 0;
    std::function<void()> watchSocket = [&]() {
        if (!fwd->GetNode() || !fwd->GetOutputSocket())
        {
            Simulator::Schedule(MilliSeconds(100), watchSocket);
            return;
        }
        fwd->GetOutputSocket()->TraceConnectWithoutContext(
            "Retransmission",
            Callback<void,
                     Ptr<const Packet>,
                     const TcpHeader&,
                     const Address&,
                     const Address&,
                     Ptr<const TcpSocketBase>>(
                [&retransmissions](Ptr<const Packet>,
                                   const TcpHeader&,
                                   const Address&,
                                   const Address&,
                                   Ptr<const TcpSocketBase>) { ++retransmissions; }));
    };
    if (tcp)
    {
        Simulator::Schedule(Seconds(0.6), watchSocket);
    }
    opts.StartProgress(Seconds(60));
    Simulator::Run();
    const Time end = Simulator::Now();

    // --- results ------------------------------------------------------------------------------
    const auto& arrivals = rx->GetArrivals();
    std::vector<std::pair<uint32_t, Time>> window;
    for (std::size_t i = warmup; i < arrivals.size() && window.size() < packets; ++i)
    {
        window.push_back(arrivals[i]);
    }
    const NttJitter::Result j = NttJitter::Compute(window, interval, packets, end);
    const NttJitter::SeqResult js = NttJitter::ComputeBySequence(window, interval, packets);
    const Time windowStart = window.empty() ? end : window.front().second;
    const Time windowEnd = j.lowerBound ? end : window.back().second;
    const double windowS = (windowEnd - windowStart).GetSeconds();
    rec.SetString("setup", setup);
    rec.SetString("protocol", tcp ? "tcp" : "udp");
    rec.SetString("receiver_side", router ? receiverSide : "fddi");
    rec.SetBool("analyser_on_ring", analyserOnRing);
    rec.Set("ttrt_ms", ttrt.GetSeconds() * 1e3);
    rec.SetInt("mss", mss);
    rec.SetInt("tcp_buffer_bytes", roundUp(rcvBuf));
    rec.Set("load_rate_pps", loadRate);
    rec.SetInt("load_frame_bytes", loadFrame);
    rec.Set("load_offered_mbps", loadRate * loadFrame * 8 / 1e6);
    const double loadFrames = loadPayload > 0 ? double(loadSink->GetTotalRx()) / loadPayload : 0;
    rec.Set("load_carried_mbps",
            loadFrames * loadFrame * 8 / 1e6 / std::max(1e-9, (end - loadStart).GetSeconds()));
    rec.Set("jitter_s", j.jitter);
    rec.SetBool("jitter_is_lower_bound", j.lowerBound);
    rec.Set("jitter_min_dev_s", j.minDev);
    rec.Set("jitter_max_dev_s", j.maxDev);
    rec.SetInt("window_packets", packets);
    rec.SetInt("window_logged", j.logged);
    rec.Set("window_s", windowS);
    rec.Set("stream_rate_mbps", windowS > 0 ? j.logged * packetSize * 8.0 / windowS / 1e6 : 0.0);
    rec.Set("seq_jitter_s", js.jitter);
    rec.SetInt("seq_missing", js.missing);
    rec.SetInt("stream_sent",
               analyserApp.GetN()
                   ? DynamicCast<UdpClient>(analyserApp.Get(0))->GetTotalTx() / packetSize
                   : 0);
    rec.SetInt("stream_read", fwd->GetRead());
    rec.SetInt("stream_forwarded", fwd->GetForwarded());
    rec.SetInt("stream_arrived", arrivals.size());
    if (tcp)
    {
        rec.SetInt("tcp_retransmissions", retransmissions);
        Ptr<BsdTcpSocket> s
            = fwd->GetOutputSocket() ? DynamicCast<BsdTcpSocket>(fwd->GetOutputSocket()) : nullptr;
        rec.SetInt("tcp_persist_forced", s ? s->GetForcedSends() : 0);
    }
    if (router)
    {
        rec.SetString("cache_side", cacheSide);
        rec.SetString("cache_policy", cachePolicy);
        rec.SetInt("cache_ethernet", cacheEthernet);
        rec.SetInt("cache_fddi", cacheFddi);
        rec.Set("flush_interval_s", flushInterval.GetSeconds());
        rec.Set("slow_cost_cycles", slowCost);
        rec.Set("random_rate_pps", randomRate);
        rec.SetInt("random_size_bytes", randomSize);
        rec.SetInt("router_fast", cacheRouter->GetFastPath());
        rec.SetInt("router_slow", cacheRouter->GetSlowPath());
        rec.SetInt("router_queue_drops", cacheRouter->GetQueueDrops());
        rec.SetInt("router_max_queue", cacheRouter->GetMaxQueue());
        Ptr<RouteCache> c = cacheRouter->GetCache();
        rec.SetInt("cache_hits", c->GetHits());
        rec.SetInt("cache_misses", c->GetMisses());
        rec.SetInt("cache_fills", c->GetFills());
        rec.SetInt("cache_refused", c->GetRefusedFills());
        rec.SetInt("cache_flushes", c->GetFlushes());
        for (auto [name, ifx] : {std::pair{"fddi", ifFddi}, std::pair{"ethernet", ifEthernet}})
        {
            std::string p = std::string("router_") + name;
            rec.SetInt(p + "_fast", cacheRouter->GetFastPath(ifx));
            rec.SetInt(p + "_slow", cacheRouter->GetSlowPath(ifx));
            rec.SetInt(p + "_drops", cacheRouter->GetQueueDrops(ifx));
            rec.SetInt(p + "_max_queue", cacheRouter->GetMaxQueue(ifx));
        }
        if (rnd)
        {
            rec.SetInt("cache_filled", cacheFull);
            rec.Set("fill_time_s", fillTime.GetSeconds());
            rec.SetInt("random_sent", rnd->GetSent());
        }
    }
    rec.Set("stream_start_s", streamStart.GetSeconds());
    rec.Set("end_s", end.GetSeconds());
    rec.SetInt("events", Simulator::GetEventCount());
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
