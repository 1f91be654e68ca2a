/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ntt-testbed.h"

#include "ntt-forwarder.h"
#include "random-destination-source.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ntt-kernel-sections.h"
#include "ns3/testbed-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NttTestbed");

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
/** S listens for the analyser's stream here. */
const uint16_t IN_PORT = 5000;
/** R listens for the forwarded stream here. */
const uint16_t OUT_PORT = 5001;

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

void
NttTestbed::DeclareFields(ResultRecord& rec)
{
    rec.Declare("setup", ResultRecord::STRING, "--setup: ring (exp. 1) or router (exps. 2, 3)")
        .Declare("protocol", ResultRecord::STRING, "transport of the forwarded stream: tcp or udp")
        .Declare("receiver_side",
                 ResultRecord::STRING,
                 "side of the router the receiving computer is on: fddi or ethernet")
        .Declare("load_direction",
                 ResultRecord::STRING,
                 "router: the load enters (in) or leaves (out) by the router's Ethernet "
                 "interface; ring: in",
                 ResultRecord::SOMETIMES)
        .Declare("analyser_on_ring", ResultRecord::BOOL, "the analyser's stream port on the ring")
        .Declare("ttrt_ms", ResultRecord::REAL, "FDDI TTRT (ms)")
        .Declare("mss", ResultRecord::INT, "TCP segment size of the path (bytes)")
        .Declare("mss_rule",
                 ResultRecord::STRING,
                 "the hosts' MSS rule: bsd44 (rounded down to MCLBYTES) or mtu (MTU - 40)")
        .Declare("nagle_regime",
                 ResultRecord::STRING,
                 "TCP: whole segments (the record is a whole number of MSS) or partial segment "
                 "held (its last segment is short and Nagle holds it for an ACK)")
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
        .Declare("stream_offered_mbps",
                 ResultRecord::REAL,
                 "the analyser's sending rate: payload bits per interval (Mbit/s)")
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
        .Declare("tcp_retransmissions",
                 ResultRecord::INT,
                 "segments retransmitted by S's TCP (0 over UDP)")
        .Declare("udp_buffer_drops",
                 ResultRecord::INT,
                 "stream packets lost in S's UDP receive buffer (udp_recvspace full)")
        .Declare("timestamp_hz", ResultRecord::INT, "ticks per second of R's application clock")
        .Declare("kernel_sections_in_window",
                 ResultRecord::INT,
                 "competing non-preemptible kernel sections (sync, other system calls) that "
                 "started on S or R inside the jitter window")
        .Declare("tcp_persist_forced",
                 ResultRecord::INT,
                 "TCP: forced sends into a small window on a persist timeout",
                 ResultRecord::SOMETIMES)
        .Declare("cache_side",
                 ResultRecord::STRING,
                 "router: interface whose switch governs a packet (Input/Output)",
                 ResultRecord::SOMETIMES)
        .Declare("cache_policy",
                 ResultRecord::STRING,
                 "router: cache replacement (FlushAll/Lru)",
                 ResultRecord::SOMETIMES)
        .Declare("cache_ethernet",
                 ResultRecord::INT,
                 "router: fast switching on the Ethernet interface (1) or not (0)",
                 ResultRecord::SOMETIMES)
        .Declare("cache_fddi",
                 ResultRecord::INT,
                 "router: fast switching on the FDDI interface (1) or not (0)",
                 ResultRecord::SOMETIMES)
        .Declare("flush_interval_s",
                 ResultRecord::REAL,
                 "router: cache flush interval (s)",
                 ResultRecord::SOMETIMES)
        .Declare("flush_phase",
                 ResultRecord::REAL,
                 "router: the first flush's time as a share of the flush interval (0: one "
                 "interval)",
                 ResultRecord::SOMETIMES)
        .Declare("random_after_fill",
                 ResultRecord::STRING,
                 "router: exp. 3's random computer once the cache was full: continue or stop",
                 ResultRecord::SOMETIMES)
        .Declare("slow_cost_cycles",
                 ResultRecord::REAL,
                 "router: process-switching cycles",
                 ResultRecord::SOMETIMES)
        .Declare("random_rate_pps",
                 ResultRecord::REAL,
                 "random-destination datagrams per second handed to the socket, first to last "
                 "(a generator: its --randomRate; a host: what its send path allowed)",
                 ResultRecord::SOMETIMES)
        .Declare("random_sender",
                 ResultRecord::STRING,
                 "router: exp. 3's random computer: generator or host",
                 ResultRecord::SOMETIMES)
        .Declare("ethernet_mbps",
                 ResultRecord::REAL,
                 "router: the Ethernet hub's rate (Mbit/s)",
                 ResultRecord::SOMETIMES)
        .Declare("random_size_bytes",
                 ResultRecord::INT,
                 "random-destination UDP payload bytes",
                 ResultRecord::SOMETIMES)
        .Declare("router_fast",
                 ResultRecord::INT,
                 "router: packets on the fast path",
                 ResultRecord::SOMETIMES)
        .Declare("router_slow",
                 ResultRecord::INT,
                 "router: packets on the slow path",
                 ResultRecord::SOMETIMES)
        .Declare("router_queue_drops",
                 ResultRecord::INT,
                 "router: input hold queue drops",
                 ResultRecord::SOMETIMES)
        .Declare("router_ring_drops",
                 ResultRecord::INT,
                 "router: receive ring overruns",
                 ResultRecord::SOMETIMES)
        .Declare("router_pool_drops",
                 ResultRecord::INT,
                 "router: packets for process switching that found no public buffer",
                 ResultRecord::SOMETIMES)
        .Declare("router_buffers_created",
                 ResultRecord::INT,
                 "router: public buffers the pool manager created",
                 ResultRecord::SOMETIMES)
        .Declare("router_max_queue",
                 ResultRecord::INT,
                 "router: largest number of packets waiting for process switching",
                 ResultRecord::SOMETIMES)
        .Declare("cache_hits",
                 ResultRecord::INT,
                 "router: route-cache hits",
                 ResultRecord::SOMETIMES)
        .Declare("cache_misses",
                 ResultRecord::INT,
                 "router: route-cache misses",
                 ResultRecord::SOMETIMES)
        .Declare("cache_fills",
                 ResultRecord::INT,
                 "router: route-cache fills",
                 ResultRecord::SOMETIMES)
        .Declare("cache_refused",
                 ResultRecord::INT,
                 "router: fills refused because the cache was full",
                 ResultRecord::SOMETIMES)
        .Declare("cache_flushes",
                 ResultRecord::INT,
                 "router: route-cache flushes",
                 ResultRecord::SOMETIMES)
        .Declare("flushes_in_window",
                 ResultRecord::INT,
                 "router: route-cache flushes inside the jitter window (0 without the router)");
    for (const char* name : {"fddi", "ethernet"})
    {
        std::string p = std::string("router_") + name;
        std::string what
            = std::string("router: packets that arrived on the ") + name + " interface and ";
        rec.Declare(p + "_fast",
                    ResultRecord::INT,
                    what + "took the fast path",
                    ResultRecord::SOMETIMES)
            .Declare(p + "_slow",
                     ResultRecord::INT,
                     what + "were process-switched",
                     ResultRecord::SOMETIMES)
            .Declare(p + "_drops",
                     ResultRecord::INT,
                     what + "found its hold queue full",
                     ResultRecord::SOMETIMES)
            .Declare(p + "_ring_drops",
                     ResultRecord::INT,
                     what + "found its receive ring full",
                     ResultRecord::SOMETIMES)
            .Declare(p + "_pool_drops",
                     ResultRecord::INT,
                     what + "found no public buffer",
                     ResultRecord::SOMETIMES)
            .Declare(p + "_max_queue",
                     ResultRecord::INT,
                     std::string("router: largest input hold queue of the ") + name + " interface",
                     ResultRecord::SOMETIMES);
    }
    rec.Declare("cache_filled",
                ResultRecord::INT,
                "exp. 3: cache full when the stream started",
                ResultRecord::SOMETIMES)
        .Declare("fill_time_s",
                 ResultRecord::REAL,
                 "exp. 3: time the random traffic took to fill the cache (s)",
                 ResultRecord::SOMETIMES)
        .Declare("random_sent",
                 ResultRecord::INT,
                 "exp. 3: random-destination datagrams sent",
                 ResultRecord::SOMETIMES)
        .Declare("stream_start_s", ResultRecord::REAL, "time the stream started (s)")
        .Declare("end_s", ResultRecord::REAL, "time the run ended (s)")
        .Declare("events", ResultRecord::INT, "simulator events");
}

NttTestbed::NttTestbed(const NttStreamConfig& config)
    : m_c(config)
    , m_router(config.setup == "router")
{
    if (!m_c.ttrtGiven)
    {
        // The ring runs at the lowest TTRT bid: the era's workstation adapters bid 8 ms (DEC
        // fddi_config's default T_req), a Cisco router's FDDI interface 5 ms.
        m_c.ttrt = m_router ? MilliSeconds(5) : MilliSeconds(8);
    }
    if (m_c.loadFrame == 0)
    {
        // The load's medium: the ring (exp. 1) or the Ethernet (exps. 2, 3); its largest frame.
        m_c.loadFrame
            = m_router ? ETHERNET_FRAME_OVERHEAD + ETHERNET_MTU : FDDI_FRAME_OVERHEAD + FDDI_MTU;
    }
}

NttTestbed::~NttTestbed() = default;

bool
NttTestbed::ReceiverOnRing() const
{
    return !m_router || m_c.receiverSide == "fddi";
}

uint32_t
NttTestbed::LoadPayload() const
{
    const uint32_t overhead = m_router ? ETHERNET_FRAME_OVERHEAD : FDDI_FRAME_OVERHEAD;
    const uint32_t loadIp = std::max(m_c.loadFrame - overhead, m_router ? 46u : 0u);
    return loadIp - UDP_IP_HEADERS;
}

void
NttTestbed::Check() const
{
    ProgramOptions::Require(m_router || m_c.randomRate == 0, "--randomRate needs --setup=router");
    const uint32_t overhead = m_router ? ETHERNET_FRAME_OVERHEAD : FDDI_FRAME_OVERHEAD;
    const uint32_t mtu = m_router ? ETHERNET_MTU : FDDI_MTU;
    // A UdpClient datagram carries at least its 12-byte SeqTsHeader; an Ethernet frame is at
    // least 64 bytes.
    const uint32_t minFrame = std::max<uint32_t>(m_router ? 64 : 0, overhead + UDP_IP_HEADERS + 12);
    ProgramOptions::Require(m_c.loadFrame >= minFrame && m_c.loadFrame <= overhead + mtu,
                            "--loadFrame=" + std::to_string(m_c.loadFrame) + ": the "
                                + (m_router ? "Ethernet" : "FDDI") + " load's frames are "
                                + std::to_string(minFrame) + " to " + std::to_string(overhead + mtu)
                                + " bytes");
}

void
NttTestbed::Build()
{
    ConfigureTcp();
    BuildNetwork();
    if (m_router)
    {
        BuildRouter();
    }
    HostPlatformHelper hosts(ProgramOptions::WithHostSet(m_c.hostProfile, m_c.hostSet));
    hosts.Install(m_sender)->AssignStreams(100);
    hosts.Install(m_receiver)->AssignStreams(110);
    BsdTcpHelper::Install(NodeContainer(m_sender, m_receiver));
    BsdTcpHelper::AssignStreams(NodeContainer(m_sender, m_receiver), 500);
    BuildApplications();
}

void
NttTestbed::ConfigureTcp()
{
    // 4.4BSD's tcp_mss(): each end takes its interface's MTU - 40 (a local net:
    // subnetsarelocal, every subnet of network 10), rounded down to a multiple of MCLBYTES
    // when larger than MCLBYTES; the connection uses the smaller of the two ends' values and
    // rounds both socket buffers up to a multiple of it. The timestamp option takes 12 bytes of
    // each segment (tcp_output).
    const bool receiverOnRing = ReceiverOnRing();
    const uint32_t mclBytes = m_c.mclBytes;
    // A SysV/Mentat stack (Solaris 2) takes MTU - 40 without the rounding (mssRule "mtu").
    const bool round = m_c.mssRule == "bsd44";
    auto bsdMss = [mclBytes, round](uint32_t mtu) {
        uint32_t m = mtu - 40;
        return round && m > mclBytes ? m / mclBytes * mclBytes : m;
    };
    m_maxseg = std::min(bsdMss(FDDI_MTU), bsdMss(receiverOnRing ? FDDI_MTU : ETHERNET_MTU));
    const uint32_t maxseg = m_maxseg;
    auto roundUp = [maxseg](uint32_t b) {
        return (b + maxseg - 1) / maxseg * maxseg;
    };
    m_mss = maxseg - (m_c.timestamps ? 12 : 0);
    // The buffers, the timestamps and the MSS come from this program's options and the path
    // (the record reports them as mss and tcp_buffer_bytes): a user's --ns3:: value for them
    // would contradict the record, so it is refused. BsdTcpHelper's other 4.4BSD values are
    // defaults the user's --ns3:: values replace.
    const std::string byBuf = "from its options --sndBuf/--rcvBuf (rounded up to a multiple of "
                              "the MSS, through BsdTcpHelper::ConfigureDefaults)";
    UserAttributes::RequireNotGiven(TcpSocket::GetTypeId(), "SndBufSize", byBuf);
    UserAttributes::RequireNotGiven(TcpSocket::GetTypeId(), "RcvBufSize", byBuf);
    UserAttributes::RequireNotGiven(TcpSocketBase::GetTypeId(),
                                    "Timestamp",
                                    "from its option --tcpTimestamps");
    UserAttributes::RequireNotGiven(TcpSocket::GetTypeId(),
                                    "SegmentSize",
                                    "from the path's MTU, --mclBytes and --tcpTimestamps "
                                    "(4.4BSD's tcp_mss())");
    BsdTcpHelper::ConfigureDefaults(roundUp(m_c.sndBuf), roundUp(m_c.rcvBuf), m_c.timestamps);
    UserAttributes::SetConfigDefault("ns3::TcpSocket::SegmentSize", UintegerValue(m_mss));
    // BSD's arpresolve() sends its request at once: ProgramOptions::SetSimulatorDefaults.
    // udp_recvspace = 40 x (1024 + sizeof(struct sockaddr_in)) = 41 600 bytes.
    UserAttributes::SetConfigDefault("ns3::UdpSocket::RcvBufSize", UintegerValue(m_c.udpRcvBuf));
}

void
NttTestbed::BuildNetwork()
{
    const bool receiverOnRing = ReceiverOnRing();
    // --- nodes --------------------------------------------------------------------------------
    m_analyser = CreateObject<Node>();         // the analyser's stream port
    m_sender = CreateObject<Node>();           // S
    m_receiver = CreateObject<Node>();         // R
    Ptr<Node> loadPort = CreateObject<Node>(); // the analyser's load port
    m_sink = CreateObject<Node>();             // L
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

    // The ring in ring order; R apart when it is in the ring's other subnet.
    NodeContainer ring;
    NodeContainer hub;
    if (!m_router)
    {
        if (m_c.analyserOnRing)
        {
            ring.Add(m_analyser);
        }
        ring.Add(m_sender);
        ring.Add(m_receiver);
        ring.Add(loadPort);
        ring.Add(m_sink);
    }
    else
    {
        ring.Add(rtr);
        if (m_c.analyserOnRing)
        {
            ring.Add(m_analyser);
        }
        ring.Add(m_sender);
        if (receiverOnRing)
        {
            ring.Add(m_receiver);
        }
        // The load's ends: port on the hub and sink on the ring (it enters the router by
        // Ethernet), or the other way round (it leaves by Ethernet).
        const bool loadIn = m_c.loadDirection == "in";
        ring.Add(loadIn ? m_sink : loadPort);
        hub.Add(rtr);
        if (!receiverOnRing)
        {
            hub.Add(m_receiver);
        }
        hub.Add(loadIn ? loadPort : m_sink);
        hub.Add(randomSender);
    }
    FddiHelper fddi;
    fddi.SetChannelAttribute("Ttrt", TimeValue(m_c.ttrt));
    NetDeviceContainer ringDevs = fddi.Install(ring);
    Ipv4AddressHelper ip;
    NetDeviceContainer subnetA; // the ring's first subnet: all but R in the router set-up
    Ptr<NetDevice> receiverRingDev;
    for (uint32_t i = 0; i < ring.GetN(); ++i)
    {
        if (m_router && ring.Get(i) == m_receiver)
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
    if (m_router)
    {
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
        // A 10 Mbit/s repeater: the 100 Mbit/s adapters (AUTO) detect its rate.
        eth.SetChannelAttribute("Rate", DataRateValue(DataRate(m_c.ethernetRate)));
        eth.SetDeviceAttribute("Duplex", StringValue("Auto"));
        hubDevs = eth.InstallHub(hub);
        eth.AssignStreams(hubDevs, 300);
        ip.SetBase("10.2.0.0", "255.255.255.0");
        ip.Assign(hubDevs);
    }
    if (!m_c.analyserOnRing)
    {
        // The analyser's stream port on a ring of its own with S (S's second adapter).
        FddiHelper own;
        own.SetChannelAttribute("Ttrt", TimeValue(m_c.ttrt));
        NetDeviceContainer d = own.Install(NodeContainer(m_analyser, m_sender));
        ip.SetBase("10.4.0.0", "255.255.255.0");
        m_analyserTarget = ip.Assign(d).GetAddress(1);
    }
    else
    {
        m_analyserTarget = AddressOf(m_sender);
    }
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        if (all.Get(i) != rtr)
        {
            UserAttributes::SetFixed(all.Get(i)->GetObject<Ipv4>(),
                                     "IpForward",
                                     BooleanValue(false),
                                     "off on every host but the router");
        }
    }
    m_loadPort = loadPort;
    m_rtr = rtr;
    m_randomSender = randomSender;
    m_rtrRingDev = m_router ? ringDevs.Get(0) : nullptr;
    m_rtrHubDev = m_router ? hubDevs.Get(0) : nullptr;
}

void
NttTestbed::BuildRouter()
{
    const bool receiverOnRing = ReceiverOnRing();
    Ptr<Node> rtr = m_rtr;
    Ptr<Node> loadPort = m_loadPort;
    Ptr<Node> randomSender = m_randomSender;
    // Hosts route through the router; the router's default route points into the ring (the
    // random destinations lie beyond it, sink L stands for the next hop and discards them).
    const Ipv4Address gwRing = AddressOf(rtr, 1);
    for (Ptr<Node> n : {m_sender, m_sink})
    {
        DefaultRoute(n, gwRing);
    }
    if (m_c.analyserOnRing)
    {
        DefaultRoute(m_analyser, gwRing);
    }
    DefaultRoute(m_receiver, receiverOnRing ? Ipv4Address("10.3.0.1") : AddressOf(rtr, 2));
    for (Ptr<Node> n : {loadPort, randomSender})
    {
        DefaultRoute(n, AddressOf(rtr, 2));
    }
    Ptr<Ipv4> rip = rtr->GetObject<Ipv4>();
    m_ifFddi = rip->GetInterfaceForDevice(m_rtrRingDev);
    m_ifEthernet = rip->GetInterfaceForDevice(m_rtrHubDev);
    Ipv4StaticRoutingHelper srh;
    srh.GetStaticRouting(rip)->SetDefaultRoute(AddressOf(m_sink), m_ifFddi);
    HostPlatformHelper rph(ProgramOptions::WithHostSet(m_c.routerProfile, m_c.hostSet));
    rph.SetInstallNics(false);
    rph.Install(rtr)->AssignStreams(200);
    m_cacheRouter = CreateObject<CacheRouter>();
    const std::string by = "from its router options";
    UserAttributes::SetFixed(m_cacheRouter, "FastPathCost", DoubleValue(m_c.fastCost), by);
    UserAttributes::SetFixed(m_cacheRouter, "SlowPathCost", DoubleValue(m_c.slowCost), by);
    UserAttributes::SetFixed(m_cacheRouter, "InputQueueLimit", UintegerValue(m_c.inputQueue), by);
    UserAttributes::SetFixed(m_cacheRouter, "CacheSide", StringValue(m_c.cacheSide), by);
    UserAttributes::SetFixed(m_cacheRouter, "CachePolicy", StringValue(m_c.cachePolicy), by);
    UserAttributes::SetFixed(m_cacheRouter, "FlushInterval", TimeValue(m_c.flushInterval), by);
    UserAttributes::SetFixed(m_cacheRouter,
                             "FlushPhase",
                             TimeValue(m_c.flushInterval * m_c.flushPhase),
                             by);
    UserAttributes::SetFixed(m_cacheRouter, "CacheCapacity", UintegerValue(m_c.cacheCapacity), by);
    UserAttributes::SetFixed(m_cacheRouter, "RxRingSize", UintegerValue(m_c.rxRing), by);
    UserAttributes::SetFixed(m_cacheRouter, "BufferPools", BooleanValue(m_c.bufferPools), by);
    UserAttributes::SetFixed(m_cacheRouter, "InputService", StringValue(m_c.inputService), by);
    m_cacheRouter->Install(rtr);
    m_cacheRouter->GetCache()->TraceConnectWithoutContext(
        "Flush",
        Callback<void, uint32_t>([this](uint32_t) { m_flushes.push_back(Simulator::Now()); }));
    m_cacheRouter->SetCacheEnabled(m_ifFddi, m_c.cacheFddi);
    m_cacheRouter->SetCacheEnabled(m_ifEthernet, m_c.cacheEthernet);
}

void
NttTestbed::BuildApplications()
{
    Ptr<Node> loadPort = m_loadPort;
    Ptr<Node> randomSender = m_randomSender;
    // --- applications -------------------------------------------------------------------------
    m_rx = CreateObject<NttReceiver>();
    const std::string by = "from its options (--tcp, --packetSize)";
    const std::string byTcp = "for the hosts' 4.4BSD TCP (BsdTcpHelper)";
    UserAttributes::SetFixed(m_rx, "Tcp", BooleanValue(m_c.tcp), by);
    UserAttributes::SetFixed(m_rx, "Port", UintegerValue(OUT_PORT), by);
    UserAttributes::SetFixed(m_rx, "RecordSize", UintegerValue(m_c.packetSize), by);
    UserAttributes::SetFixed(m_rx,
                             "TcpFactory",
                             TypeIdValue(BsdTcpSocketFactory::GetTypeId()),
                             byTcp);
    UserAttributes::SetFixed(m_rx,
                             "TimestampHz",
                             UintegerValue(m_c.timestampHz),
                             "from its option --timestampHz");
    UserAttributes::SetFixed(m_rx,
                             "LogWriteEvery",
                             UintegerValue(m_c.logWriteEvery),
                             "from its option --logWriteEvery");
    UserAttributes::SetFixed(m_rx,
                             "LogWriteCost",
                             TimeValue(m_c.logWriteCost),
                             "from its option --logWriteCost");
    m_receiver->AddApplication(m_rx);
    m_rx->SetStartTime(Seconds(0.1));
    // The competing processes' kernel sections on S and on R.
    for (auto [node, sections, stream] :
         {std::tuple{m_sender, &m_sectionsS, 600}, std::tuple{m_receiver, &m_sectionsR, 610}})
    {
        *sections = CreateObject<NttKernelSections>();
        const std::string byK = "from its options --syncInterval, --syncDuration, --otherRate, "
                                "--otherDuration";
        UserAttributes::SetFixed(*sections, "SyncInterval", TimeValue(m_c.syncInterval), byK);
        UserAttributes::SetFixed(*sections, "SyncDuration", TimeValue(m_c.syncDuration), byK);
        UserAttributes::SetFixed(*sections, "OtherRate", DoubleValue(m_c.otherRate), byK);
        UserAttributes::SetFixed(*sections, "OtherDuration", TimeValue(m_c.otherDuration), byK);
        (*sections)->AssignStreams(stream);
        node->AddApplication(*sections);
        (*sections)->SetStartTime(Seconds(0));
    }
    m_fwd = CreateObject<NttForwarder>();
    UserAttributes::SetFixed(m_fwd, "Tcp", BooleanValue(m_c.tcp), by);
    UserAttributes::SetFixed(m_fwd, "ListenPort", UintegerValue(IN_PORT), by);
    UserAttributes::SetFixed(m_fwd, "RecordSize", UintegerValue(m_c.packetSize), by);
    UserAttributes::SetFixed(m_fwd,
                             "TcpFactory",
                             TypeIdValue(BsdTcpSocketFactory::GetTypeId()),
                             byTcp);
    UserAttributes::SetFixed(m_fwd,
                             "Remote",
                             AddressValue(InetSocketAddress(AddressOf(m_receiver), OUT_PORT)),
                             by);
    // The stream's UDP client (StartStream) and the load's sink are the program's too.
    for (const char* name :
         {"MaxPackets", "PacketSize", "Interval", "Remote", "RemoteAddress", "RemotePort"})
    {
        UserAttributes::RequireNotGiven(UdpClient::GetTypeId(),
                                        name,
                                        "for the analyser's stream port (from its options "
                                        "--packetSize, --interval)");
    }
    for (const char* name : {"Local", "Protocol"})
    {
        UserAttributes::RequireNotGiven(PacketSink::GetTypeId(), name, "for the load's sink");
    }
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 9));
    m_loadSink = DynamicCast<PacketSink>(sinkHelper.Install(m_sink).Get(0));

    // Load: the analyser's load port, constant rate, its frames addressed at set-up to L on the
    // ring (exp. 1) or to the router's interface on the load port's side (exps. 2, 3).
    if (m_c.loadPps > 0)
    {
        m_load = CreateObject<UdpFrameSource>();
        const std::string byLoad = "from its options --loadPps, --loadFrame";
        UserAttributes::SetFixed(m_load, "Rate", DoubleValue(m_c.loadPps), byLoad);
        UserAttributes::SetFixed(m_load, "PacketSize", UintegerValue(LoadPayload()), byLoad);
        Ptr<NetDevice> next = !m_router                   ? m_sink->GetDevice(1)
                              : m_c.loadDirection == "in" ? m_rtrHubDev
                                                          : m_rtrRingDev;
        m_load->SetTarget(loadPort->GetDevice(1),
                          next->GetAddress(),
                          AddressOf(loadPort),
                          AddressOf(m_sink));
        loadPort->AddApplication(m_load);
        m_load->SetStartTime(m_loadStart);
    }
    // Exp. 3: random destinations until the router's cache is full.
    if (m_c.randomRate > 0 || m_c.randomSender == "host")
    {
        m_random = CreateObject<RandomDestinationSource>();
        if (m_c.randomSender == "host")
        {
            // A computer of the hosts' kind, one process sending as fast as it can.
            HostPlatformHelper h(ProgramOptions::WithHostSet(m_c.hostProfile, m_c.hostSet));
            Ptr<HostPlatform> host = h.Install(randomSender);
            host->AssignStreams(120);
            m_random->SetProcess(host->CreateProcess());
        }
        else
        {
            UserAttributes::SetFixed(m_random,
                                     "Rate",
                                     DoubleValue(m_c.randomRate),
                                     "from its option --randomRate");
        }
        UserAttributes::SetFixed(m_random,
                                 "PacketSize",
                                 UintegerValue(m_c.randomSize),
                                 "from its option --randomSize");
        m_random->AssignStreams(400);
        randomSender->AddApplication(m_random);
        m_random->SetStartTime(m_loadStart);
    }

    // The stream: the analyser sends until the receiver has logged warmupPackets + packets
    // packets (the window: the last `packets` of them), or until maxTime has passed.
    m_rx->TraceConnectWithoutContext("Arrival", MakeCallback(&NttTestbed::Logged, this));
    m_streamStart = m_loadStart + Seconds(m_c.loadPps > 0 ? 0.5 : 0.0);
    if (!m_random)
    {
        m_sender->AddApplication(m_fwd);
        m_fwd->SetStartTime(Seconds(0.5));
        StartStream(m_streamStart);
    }
    else
    {
        Simulator::Schedule(m_loadStart, &NttTestbed::Poll, this);
    }
    // S's socket exists once the forwarder has started: count its retransmissions.
    if (m_c.tcp)
    {
        Simulator::Schedule(Seconds(0.6), &NttTestbed::WatchSocket, this);
    }
}

void
NttTestbed::Logged(uint32_t, Time)
{
    if (++m_logged == uint64_t(m_c.warmupPackets) + m_c.packets)
    {
        Simulator::Stop();
    }
}

void
NttTestbed::StartStream(Time delay)
{
    // Through the helper (an ObjectFactory in the wheel's library): UdpClient's size depends on
    // NS3_LOG_ENABLE, which the wheel defines and this module's Release build does not, so the
    // module must not allocate one itself (CreateObject<UdpClient> overran its block).
    UdpClientHelper sc(InetSocketAddress(m_analyserTarget, IN_PORT));
    sc.SetAttribute("PacketSize", UintegerValue(m_c.packetSize));
    sc.SetAttribute("Interval", TimeValue(m_c.interval));
    sc.SetAttribute("MaxPackets", UintegerValue(0));
    m_analyserApp = sc.Install(m_analyser);
    m_analyserApp.Start(delay);
    Simulator::Schedule(delay + m_c.maxTime, []() { Simulator::Stop(); });
}

void
NttTestbed::Poll()
{
    // Exp. 3: poll the cache every 10 ms; the stream starts when it is full, or at the
    // timeout.
    const Time now = Simulator::Now();
    Ptr<RouteCache> cache = m_cacheRouter->GetCache();
    if (!cache->IsFull() && now < m_loadStart + m_c.fillTimeout)
    {
        Simulator::Schedule(MilliSeconds(10), &NttTestbed::Poll, this);
        return;
    }
    m_cacheFull = cache->IsFull();
    m_fillTime = now - m_loadStart;
    if (m_random && m_c.randomAfterFill == "stop")
    {
        m_random->Halt();
    }
    // The sending computer opens its connection now (its SYN, too, meets the full cache),
    // and the stream follows half a second later.
    m_fwd->SetStartTime(Seconds(0));
    m_sender->AddApplication(m_fwd);
    m_streamStart = now + Seconds(0.5);
    StartStream(Seconds(0.5));
}

void
NttTestbed::WatchSocket()
{
    if (!m_fwd->GetNode() || !m_fwd->GetOutputSocket())
    {
        Simulator::Schedule(MilliSeconds(100), &NttTestbed::WatchSocket, this);
        return;
    }
    m_fwd->GetOutputSocket()->TraceConnectWithoutContext(
        "Retransmission",
        Callback<void,
                 Ptr<const Packet>,
                 const TcpHeader&,
                 const Address&,
                 const Address&,
                 Ptr<const TcpSocketBase>>(
            [this](Ptr<const Packet>,
                   const TcpHeader&,
                   const Address&,
                   const Address&,
                   Ptr<const TcpSocketBase>) { ++m_retransmissions; }));
}

void
NttTestbed::Write(ResultRecord& rec) const
{
    const Time end = Simulator::Now();
    const auto& arrivals = m_rx->GetArrivals();
    std::vector<std::pair<uint32_t, Time>> window;
    for (std::size_t i = m_c.warmupPackets; i < arrivals.size() && window.size() < m_c.packets; ++i)
    {
        window.push_back(arrivals[i]);
    }
    const NttJitter::Result j = NttJitter::Compute(window, m_c.interval, m_c.packets, end);
    const NttJitter::SeqResult js = NttJitter::ComputeBySequence(window, m_c.interval, m_c.packets);
    const Time windowStart = window.empty() ? end : window.front().second;
    const Time windowEnd = j.lowerBound ? end : window.back().second;
    const double windowS = (windowEnd - windowStart).GetSeconds();
    const uint32_t maxseg = m_maxseg;
    rec.SetString("setup", m_c.setup);
    rec.SetString("protocol", m_c.tcp ? "tcp" : "udp");
    rec.SetString("receiver_side", m_router ? m_c.receiverSide : "fddi");
    rec.SetBool("analyser_on_ring", m_c.analyserOnRing);
    rec.Set("ttrt_ms", m_c.ttrt.GetSeconds() * 1e3);
    rec.SetInt("mss", m_mss);
    rec.SetString("mss_rule", m_c.mssRule);
    rec.SetString("nagle_regime",
                  m_c.packetSize % m_mss == 0 ? "whole segments" : "partial segment held");
    rec.SetInt("tcp_buffer_bytes", (m_c.rcvBuf + maxseg - 1) / maxseg * maxseg);
    rec.Set("load_rate_pps", m_c.loadPps);
    rec.SetInt("load_frame_bytes", m_c.loadFrame);
    rec.Set("load_offered_mbps", m_c.loadPps * m_c.loadFrame * 8 / 1e6);
    const uint32_t loadPayload = LoadPayload();
    const double loadFrames = loadPayload > 0 ? double(m_loadSink->GetTotalRx()) / loadPayload : 0;
    rec.Set("load_carried_mbps",
            loadFrames * m_c.loadFrame * 8 / 1e6
                / std::max(1e-9, (end - m_loadStart).GetSeconds()));
    rec.Set("jitter_s", j.jitter);
    rec.SetBool("jitter_is_lower_bound", j.lowerBound);
    rec.Set("jitter_min_dev_s", j.minDev);
    rec.Set("jitter_max_dev_s", j.maxDev);
    rec.SetInt("window_packets", m_c.packets);
    rec.SetInt("window_logged", j.logged);
    rec.Set("window_s", windowS);
    rec.Set("stream_rate_mbps",
            windowS > 0 ? j.logged * m_c.packetSize * 8.0 / windowS / 1e6 : 0.0);
    rec.Set("stream_offered_mbps", m_c.packetSize * 8.0 / m_c.interval.GetSeconds() / 1e6);
    rec.Set("seq_jitter_s", js.jitter);
    rec.SetInt("seq_missing", js.missing);
    rec.SetInt("stream_sent",
               m_analyserApp.GetN()
                   ? DynamicCast<UdpClient>(m_analyserApp.Get(0))->GetTotalTx() / m_c.packetSize
                   : 0);
    rec.SetInt("stream_read", m_fwd->GetRead());
    rec.SetInt("stream_forwarded", m_fwd->GetForwarded());
    rec.SetInt("stream_arrived", arrivals.size());
    rec.SetInt("tcp_retransmissions", m_retransmissions);
    rec.SetInt("udp_buffer_drops", m_fwd->GetBufferDrops());
    rec.SetInt("timestamp_hz", m_c.timestampHz);
    auto inWindow = [&](const std::vector<Time>& times) {
        return std::count_if(times.begin(), times.end(), [&](Time t) {
            return !window.empty() && t >= windowStart && t <= windowEnd;
        });
    };
    rec.SetInt("kernel_sections_in_window",
               inWindow(m_sectionsS->GetSections()) + inWindow(m_sectionsR->GetSections()));
    rec.SetInt("flushes_in_window", inWindow(m_flushes));
    if (m_c.tcp)
    {
        Ptr<BsdTcpSocket> s = m_fwd->GetOutputSocket()
                                  ? DynamicCast<BsdTcpSocket>(m_fwd->GetOutputSocket())
                                  : nullptr;
        rec.SetInt("tcp_persist_forced", s ? s->GetForcedSends() : 0);
    }
    if (m_router)
    {
        rec.SetString("load_direction", m_c.loadDirection);
        rec.SetString("cache_side", m_c.cacheSide);
        rec.SetString("cache_policy", m_c.cachePolicy);
        rec.SetInt("cache_ethernet", m_c.cacheEthernet);
        rec.SetInt("cache_fddi", m_c.cacheFddi);
        rec.Set("flush_interval_s", m_c.flushInterval.GetSeconds());
        rec.Set("flush_phase", m_c.flushPhase);
        rec.SetString("random_after_fill", m_c.randomAfterFill);
        rec.Set("slow_cost_cycles", m_c.slowCost);
        rec.Set("random_rate_pps",
                m_c.randomSender == "host" ? m_random->GetSendRate() : m_c.randomRate);
        rec.SetString("random_sender", m_c.randomSender);
        rec.Set("ethernet_mbps", DataRate(m_c.ethernetRate).GetBitRate() / 1e6);
        rec.SetInt("random_size_bytes", m_c.randomSize);
        rec.SetInt("router_fast", m_cacheRouter->GetFastPath());
        rec.SetInt("router_slow", m_cacheRouter->GetSlowPath());
        rec.SetInt("router_queue_drops", m_cacheRouter->GetQueueDrops());
        rec.SetInt("router_ring_drops", m_cacheRouter->GetRingDrops());
        rec.SetInt("router_pool_drops", m_cacheRouter->GetPoolDrops());
        rec.SetInt("router_buffers_created", m_cacheRouter->GetBuffersCreated());
        rec.SetInt("router_max_queue", m_cacheRouter->GetMaxQueue());
        Ptr<RouteCache> c = m_cacheRouter->GetCache();
        rec.SetInt("cache_hits", c->GetHits());
        rec.SetInt("cache_misses", c->GetMisses());
        rec.SetInt("cache_fills", c->GetFills());
        rec.SetInt("cache_refused", c->GetRefusedFills());
        rec.SetInt("cache_flushes", c->GetFlushes());
        for (auto [name, ifx] : {std::pair{"fddi", m_ifFddi}, std::pair{"ethernet", m_ifEthernet}})
        {
            std::string p = std::string("router_") + name;
            rec.SetInt(p + "_fast", m_cacheRouter->GetFastPath(ifx));
            rec.SetInt(p + "_slow", m_cacheRouter->GetSlowPath(ifx));
            rec.SetInt(p + "_drops", m_cacheRouter->GetQueueDrops(ifx));
            rec.SetInt(p + "_ring_drops", m_cacheRouter->GetRingDrops(ifx));
            rec.SetInt(p + "_pool_drops", m_cacheRouter->GetPoolDrops(ifx));
            rec.SetInt(p + "_max_queue", m_cacheRouter->GetMaxQueue(ifx));
        }
        if (m_random)
        {
            rec.SetInt("cache_filled", m_cacheFull);
            rec.Set("fill_time_s", m_fillTime.GetSeconds());
            rec.SetInt("random_sent", m_random->GetSent());
        }
    }
    rec.Set("stream_start_s", m_streamStart.GetSeconds());
    rec.Set("end_s", end.GetSeconds());
    rec.SetInt("events", Simulator::GetEventCount());
}

} // namespace ns3
