/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ntt-testbed.h"

#include "ntt-forwarder.h"
#include "random-destination-source.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NttTestbed");

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

/** S listens for the analyser's stream here. */
const uint16_t IN_PORT = 5000;
/** R listens for the forwarded stream here. */
const uint16_t OUT_PORT = 5001;

/**
 * A node's address (its first interface's).
 * @param n the node
 * @return the address
 */
Ipv4Address
AddressOf(Ptr<Node> n)
{
    return n->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
}

} // namespace

void
NttTestbed::DeclareFields(ResultRecord& record)
{
    record.Declare("setup", ResultRecord::STRING, "--setup: ring (exp. 1) or router (exps. 2, 3)")
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
        record.Declare(p + "_hits", ResultRecord::INT, what + "hits")
            .Declare(p + "_misses", ResultRecord::INT, what + "misses")
            .Declare(p + "_fills", ResultRecord::INT, what + "fills")
            .Declare(p + "_flushes", ResultRecord::INT, what + "flushes");
    }
    record
        .Declare("cache_filled", ResultRecord::INT, "exp. 3: cache entries when the stream started")
        .Declare("fill_time_s",
                 ResultRecord::REAL,
                 "exp. 3: time the random traffic took to fill the cache (s)")
        .Declare("random_sent", ResultRecord::INT, "exp. 3: random-destination datagrams sent")
        .Declare("stream_start_s", ResultRecord::REAL, "time the stream started (s)")
        .Declare("events", ResultRecord::INT, "simulator events");
}

NttTestbed::NttTestbed(const NttStreamConfig& config)
    : m_c(config)
{
}

NttTestbed::~NttTestbed() = default;

void
NttTestbed::Build()
{
    // BSD's tcp_mss(): the interface MTU - 40 on a local net (subnetsarelocal: both segments
    // of network 10 are local), and the smaller of the two ends' values.
    m_router = m_c.setup == "router";
    const bool ethernetPath = m_router;
    ConfigureBsdTcp(ethernetPath ? 1460 : 4352 - 40);

    // --- nodes --------------------------------------------------------------------------------
    m_analyser = CreateObject<Node>();
    m_sender = CreateObject<Node>();
    m_receiver = CreateObject<Node>();
    Ptr<Node> loadPort = CreateObject<Node>(); // the analyser's load port
    m_sink = CreateObject<Node>();
    Ptr<Node> rtr = m_router ? CreateObject<Node>() : nullptr;
    Ptr<Node> randomSender = m_router ? CreateObject<Node>() : nullptr;
    NodeContainer all(m_analyser, m_sender, m_receiver, loadPort, m_sink);
    if (m_router)
    {
        all.Add(rtr);
        all.Add(randomSender);
    }
    InternetStackHelper internet;
    internet.Install(all);

    NodeContainer ring;
    NodeContainer hub;
    const bool streamOnRing = !m_router || m_c.streamFrom == "fddi";
    if (!m_router)
    {
        ring = NodeContainer(m_analyser, m_sender, m_receiver, loadPort, m_sink);
    }
    else
    {
        ring.Add(rtr);
        hub.Add(rtr);
        if (streamOnRing)
        {
            ring.Add(m_analyser);
            ring.Add(m_sender);
            hub.Add(m_receiver);
        }
        else
        {
            hub.Add(m_analyser);
            hub.Add(m_sender);
            ring.Add(m_receiver);
        }
        ring.Add(m_sink);
        hub.Add(loadPort);
        hub.Add(randomSender);
    }
    FddiHelper fddi;
    fddi.SetChannelAttribute("Ttrt", TimeValue(m_c.ttrt));
    NetDeviceContainer ringDevs = fddi.Install(ring);
    Ipv4AddressHelper ip("10.1.0.0", "255.255.255.0");
    Ipv4InterfaceContainer ringIfs = ip.Assign(ringDevs);
    NetDeviceContainer hubDevs;
    Ipv4InterfaceContainer hubIfs;
    if (m_router)
    {
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
        eth.SetDeviceAttribute("Duplex", StringValue("Auto"));
        hubDevs = eth.InstallHub(hub);
        eth.AssignStreams(hubDevs, 300);
        ip.SetBase("10.2.0.0", "255.255.255.0");
        hubIfs = ip.Assign(hubDevs);
    }
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
    if (m_router)
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
        m_ifFddi = rip->GetInterfaceForDevice(ringDevs.Get(0));
        m_ifEthernet = rip->GetInterfaceForDevice(hubDevs.Get(0));
        Ipv4StaticRoutingHelper srh;
        srh.GetStaticRouting(rip)->SetDefaultRoute(AddressOf(m_sink), m_ifFddi);
        HostPlatformHelper rph(ProgramOptions::WithHostSet(m_c.routerProfile, m_c.hostSet));
        rph.SetInstallNics(false);
        rph.Install(rtr)->AssignStreams(200);
        m_cacheRouter = CreateObject<CacheRouter>();
        const std::string by = "from its router options";
        UserAttributes::SetFixed(m_cacheRouter, "FastPathCost", DoubleValue(m_c.fastCost), by);
        UserAttributes::SetFixed(m_cacheRouter, "SlowPathCost", DoubleValue(m_c.slowCost), by);
        UserAttributes::SetFixed(m_cacheRouter,
                                 "InputQueueLimit",
                                 UintegerValue(m_c.inputQueue),
                                 by);
        UserAttributes::SetFixed(m_cacheRouter, "CacheSide", StringValue(m_c.cacheSide), by);
        UserAttributes::SetFixed(m_cacheRouter, "CachePolicy", StringValue(m_c.cachePolicy), by);
        UserAttributes::SetFixed(m_cacheRouter, "FlushInterval", TimeValue(m_c.flushInterval), by);
        UserAttributes::SetFixed(m_cacheRouter,
                                 "CacheCapacity",
                                 UintegerValue(m_c.cacheCapacity),
                                 by);
        m_cacheRouter->Install(rtr);
        m_cacheRouter->SetCacheEnabled(m_ifFddi, m_c.cacheFddi);
        m_cacheRouter->SetCacheEnabled(m_ifEthernet, m_c.cacheEthernet);
    }
    HostPlatformHelper hosts(ProgramOptions::WithHostSet(m_c.hostProfile, m_c.hostSet));
    hosts.Install(m_sender)->AssignStreams(100);
    hosts.Install(m_receiver)->AssignStreams(110);

    // --- applications -------------------------------------------------------------------------
    m_rx = CreateObject<NttReceiver>();
    const std::string by = "from its options (--tcp, --packetSize)";
    UserAttributes::SetFixed(m_rx, "Tcp", BooleanValue(m_c.tcp), by);
    UserAttributes::SetFixed(m_rx, "Port", UintegerValue(OUT_PORT), by);
    UserAttributes::SetFixed(m_rx, "RecordSize", UintegerValue(m_c.packetSize), by);
    m_receiver->AddApplication(m_rx);
    m_rx->SetStartTime(Seconds(0.1));
    m_fwd = CreateObject<NttForwarder>();
    UserAttributes::SetFixed(m_fwd, "Tcp", BooleanValue(m_c.tcp), by);
    UserAttributes::SetFixed(m_fwd, "ListenPort", UintegerValue(IN_PORT), by);
    UserAttributes::SetFixed(m_fwd, "RecordSize", UintegerValue(m_c.packetSize), by);
    UserAttributes::SetFixed(m_fwd,
                             "Remote",
                             AddressValue(InetSocketAddress(AddressOf(m_receiver), OUT_PORT)),
                             by);
    // The load's and the stream's UDP clients (UdpClientHelper below) are the program's too.
    for (const char* name : {"MaxPackets", "PacketSize", "Interval", "RemoteAddress", "RemotePort"})
    {
        UserAttributes::RequireNotGiven(UdpClient::GetTypeId(),
                                        name,
                                        "for the analyser's stream and load ports");
    }
    UserAttributes::RequireNotGiven(PacketSink::GetTypeId(), "Local", "for the load's sink");
    if (m_c.randomRate == 0)
    {
        m_sender->AddApplication(m_fwd);
        m_fwd->SetStartTime(Seconds(0.5));
    }
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 9));
    m_loadSink = DynamicCast<PacketSink>(sinkHelper.Install(m_sink).Get(0));

    // Load: the analyser's load port, constant bit rate, the largest datagram of its medium.
    const uint32_t loadPayload = m_router ? 1500 - 28 : 4352 - 28;
    if (m_c.load.GetBitRate() > 0)
    {
        UdpClientHelper lc(AddressOf(m_sink), 9);
        lc.SetAttribute("MaxPackets", UintegerValue(0));
        lc.SetAttribute("PacketSize", UintegerValue(loadPayload));
        lc.SetAttribute("Interval", TimeValue(Seconds(loadPayload * 8.0 / m_c.load.GetBitRate())));
        ApplicationContainer a = lc.Install(loadPort);
        a.Start(m_loadStart);
    }
    // Exp. 3: random destinations until the cache they fill is full.
    if (m_c.randomRate > 0)
    {
        m_random = CreateObject<RandomDestinationSource>();
        UserAttributes::SetFixed(m_random,
                                 "Rate",
                                 DoubleValue(m_c.randomRate),
                                 "from its option --randomRate");
        m_random->AssignStreams(400);
        randomSender->AddApplication(m_random);
        m_random->SetStartTime(m_loadStart);
        m_filled = m_cacheRouter->GetCache(m_c.cacheSide == "Output" ? m_ifFddi : m_ifEthernet);
    }

    // The stream: the analyser's port sends packets + a margin (the window is the first
    // `packets` packets that arrive).
    m_margin = m_c.warmupPackets + m_c.packets / 20 + 20;
    m_streamStart = m_loadStart + Seconds(m_c.load.GetBitRate() > 0 ? 0.5 : 0.0);
    m_streamDuration = m_c.interval * (m_c.packets + m_margin) + Seconds(2);
    if (!m_filled)
    {
        StartStream(m_streamStart);
        Simulator::Stop(m_streamStart + m_streamDuration);
    }
    else
    {
        Simulator::Schedule(m_loadStart, &NttTestbed::Poll, this);
    }
}

void
NttTestbed::StartStream(Time delay)
{
    // Through the helper (an ObjectFactory in the wheel's library): UdpClient's size depends on
    // NS3_LOG_ENABLE, which the wheel defines and this module's Release build does not, so the
    // module must not allocate one itself (CreateObject<UdpClient> overran its block).
    UdpClientHelper sc(InetSocketAddress(AddressOf(m_sender), IN_PORT));
    sc.SetAttribute("PacketSize", UintegerValue(m_c.packetSize));
    sc.SetAttribute("Interval", TimeValue(m_c.interval));
    sc.SetAttribute("MaxPackets", UintegerValue(m_c.packets + m_margin));
    sc.Install(m_analyser).Start(delay);
}

void
NttTestbed::Poll()
{
    // Exp. 3: poll the cache every 10 ms; the stream starts when it is full, or at the
    // timeout.
    Time now = Simulator::Now();
    if (!m_filled->IsFull() && now < m_loadStart + m_c.fillTimeout)
    {
        Simulator::Schedule(MilliSeconds(10), &NttTestbed::Poll, this);
        return;
    }
    m_cacheFull = m_filled->IsFull();
    m_fillTime = now - m_loadStart;
    // The sending computer opens its connection now (its SYN, too, meets the full cache),
    // and the stream follows half a second later.
    m_fwd->SetStartTime(Seconds(0));
    m_sender->AddApplication(m_fwd);
    m_streamStart = now + Seconds(0.5);
    StartStream(Seconds(0.5));
    Simulator::Stop(m_streamDuration + Seconds(0.5));
}

void
NttTestbed::Write(ResultRecord& record) const
{
    const auto& arrivals = m_rx->GetArrivals();
    // The window: the `packets` packets after the warm-up (the analyser ran before the
    // receiving computer began to log; the first packets meet cold ARP caches).
    std::vector<std::pair<uint32_t, Time>> inWindow;
    for (const auto& a : arrivals)
    {
        if (a.first >= m_c.warmupPackets)
        {
            inWindow.push_back(a);
        }
    }
    NttJitter::Result j = NttJitter::Compute(inWindow, m_c.interval, m_c.packets);
    record.SetString("setup", m_c.setup);
    record.SetString("protocol", m_c.tcp ? "tcp" : "udp");
    record.SetString("stream_from", m_router ? m_c.streamFrom : "fddi");
    record.Set("load_offered_mbps", m_c.load.GetBitRate() / 1e6);
    const double window = (m_c.interval * m_c.packets).GetSeconds();
    record.Set("load_carried_mbps",
               m_loadSink->GetTotalRx() * 8.0 / 1e6
                   / std::max(1e-9, (Simulator::Now() - m_loadStart).GetSeconds()));
    if (j.used >= 2) // (no jitter without two arrivals: the keys are left out)
    {
        record.Set("jitter_s", j.jitter);
        record.Set("jitter_min_dev_s", j.minDev);
        record.Set("jitter_max_dev_s", j.maxDev);
    }
    record.SetInt("window_packets", m_c.packets);
    record.SetInt("window_arrived", j.used);
    record.SetInt("window_missing", j.missing);
    record.Set("window_s", window);
    record.SetInt("stream_read", m_fwd->GetRead());
    record.SetInt("stream_forwarded", m_fwd->GetForwarded());
    record.SetInt("stream_arrived", arrivals.size());
    if (m_router)
    {
        record.SetString("cache_side", m_c.cacheSide);
        record.SetString("cache_policy", m_c.cachePolicy);
        record.SetInt("cache_ethernet", m_c.cacheEthernet);
        record.SetInt("cache_fddi", m_c.cacheFddi);
        record.Set("flush_interval_s", m_c.flushInterval.GetSeconds());
        record.Set("random_rate_pps", m_c.randomRate);
        record.SetInt("router_fast", m_cacheRouter->GetFastPath());
        record.SetInt("router_slow", m_cacheRouter->GetSlowPath());
        record.SetInt("router_queue_drops", m_cacheRouter->GetQueueDrops());
        record.SetInt("router_max_queue", m_cacheRouter->GetMaxQueue());
        for (auto [name, ifx] : {std::pair{"fddi", m_ifFddi}, std::pair{"ethernet", m_ifEthernet}})
        {
            Ptr<RouteCache> c = m_cacheRouter->GetCache(ifx);
            std::string p = std::string("cache_") + name;
            record.SetInt(p + "_hits", c->GetHits());
            record.SetInt(p + "_misses", c->GetMisses());
            record.SetInt(p + "_fills", c->GetFills());
            record.SetInt(p + "_flushes", c->GetFlushes());
        }
        if (m_filled)
        {
            record.SetInt("cache_filled", m_cacheFull);
            record.Set("fill_time_s", m_fillTime.GetSeconds());
            record.SetInt("random_sent", m_random->GetSent());
        }
    }
    record.Set("stream_start_s", m_streamStart.GetSeconds());
    record.SetInt("events", Simulator::GetEventCount());
}

} // namespace ns3
