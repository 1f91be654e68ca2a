/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cache-router.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/host-cpu.h"
#include "ns3/host-platform.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CacheRouter");
NS_OBJECT_ENSURE_REGISTERED(CacheRouter);

TypeId
CacheRouter::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::CacheRouter")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<CacheRouter>()
              .AddAttribute("FastPathCost",
                            "CPU cycles of the interrupt-level path of every forwarded packet "
                            "(receive interrupt, cache probe, rewrite, hand-over on a hit)",
                            DoubleValue(1800),
                            MakeDoubleAccessor(&CacheRouter::m_fastCycles),
                            MakeDoubleChecker<double>(0, 1e9))
              .AddAttribute("SlowPathCost",
                            "CPU cycles of the IP input process per packet (routing-table lookup, "
                            "cache fill, forwarding)",
                            DoubleValue(18000),
                            MakeDoubleAccessor(&CacheRouter::m_slowCycles),
                            MakeDoubleChecker<double>(0, 1e9))
              .AddAttribute("InputQueueLimit",
                            "Input hold queue of each interface (set at Install): packets that "
                            "arrived on it and wait for or are in process switching; Cisco "
                            "IOS's default is 75 (hold-queue 75 in)",
                            UintegerValue(75),
                            MakeUintegerAccessor(&CacheRouter::m_queueLimit),
                            MakeUintegerChecker<uint32_t>(1, 1000000))
              .AddAttribute("CacheSide",
                            "Whose fast-switching switch governs a packet: Output (the "
                            "interface it leaves by) or Input (the interface it arrived on)",
                            EnumValue(OUTPUT),
                            MakeEnumAccessor<Side>(&CacheRouter::m_side),
                            MakeEnumChecker(OUTPUT, "Output", INPUT, "Input"))
              .AddAttribute("CacheCapacity",
                            "Entries of the router's route cache, one table shared by all "
                            "interfaces (set at Install); [NTT96]'s router: 8548",
                            UintegerValue(8548),
                            MakeUintegerAccessor(&CacheRouter::m_cacheCapacity),
                            MakeUintegerChecker<uint32_t>(1, 100000000))
              .AddAttribute(
                  "CachePolicy",
                  "Replacement policy of the cache (set at Install)",
                  EnumValue(RouteCache::FLUSH_ALL),
                  MakeEnumAccessor<RouteCache::Policy>(&CacheRouter::m_policy),
                  MakeEnumChecker(RouteCache::FLUSH_ALL, "FlushAll", RouteCache::LRU, "Lru"))
              .AddAttribute("FlushInterval",
                            "Period of the cache's clear-all flush (0 s: none; set at Install)",
                            TimeValue(Seconds(60)),
                            MakeTimeAccessor(&CacheRouter::m_flushInterval),
                            MakeTimeChecker(Seconds(0), Seconds(1e6)))
              .AddTraceSource("FastPath",
                              "A packet was forwarded by the fast path",
                              MakeTraceSourceAccessor(&CacheRouter::m_fastTrace),
                              "ns3::CacheRouter::ForwardTracedCallback")
              .AddTraceSource("SlowPath",
                              "A packet was forwarded by the slow path",
                              MakeTraceSourceAccessor(&CacheRouter::m_slowTrace),
                              "ns3::CacheRouter::ForwardTracedCallback")
              .AddTraceSource("QueueDrop",
                              "A packet found its interface's input hold queue full",
                              MakeTraceSourceAccessor(&CacheRouter::m_dropTrace),
                              "ns3::CacheRouter::DropTracedCallback");
    return tid;
}

CacheRouter::CacheRouter()
    : m_fastCycles(1800)
    , m_slowCycles(18000)
    , m_queueLimit(75)
    , m_side(OUTPUT)
    , m_cacheCapacity(8548)
    , m_policy(RouteCache::FLUSH_ALL)
    , m_flushInterval(Seconds(60))
{
    NS_LOG_FUNCTION(this);
    m_fastDoneCb = MakeCallback(&CacheRouter::FastDone, this);
    m_slowDoneCb = MakeCallback(&CacheRouter::SlowDone, this);
}

CacheRouter::~CacheRouter()
{
    NS_LOG_FUNCTION(this);
}

void
CacheRouter::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_cache)
    {
        m_cache->Dispose();
        m_cache = nullptr;
    }
    m_ifs.clear();
    m_fast.clear();
    m_input.clear();
    m_up.Nullify();
    m_fastDoneCb = Callback<void>();
    m_slowDoneCb = Callback<void>();
    m_node = nullptr;
    m_ipv4 = nullptr;
    m_cpu = nullptr;
    Object::DoDispose();
}

void
CacheRouter::Install(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    NS_ABORT_MSG_IF(m_node, "CacheRouter::Install: already installed");
    m_node = node;
    m_ipv4 = node->GetObject<Ipv4L3Protocol>();
    NS_ABORT_MSG_IF(!m_ipv4, "CacheRouter::Install: node " << node->GetId() << " has no IPv4");
    Ptr<HostPlatform> platform = node->GetObject<HostPlatform>();
    NS_ABORT_MSG_IF(!platform,
                    "CacheRouter::Install: node " << node->GetId() << " has no HostPlatform");
    m_cpu = platform->GetCpu();
    m_pid = platform->ReservePids(1);
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_IF(!tc, "CacheRouter::Install: node has no traffic-control layer");
    m_up = MakeCallback(&TrafficControlLayer::Receive, tc);

    m_cache = CreateObject<RouteCache>();
    m_cache->SetAttribute("Capacity", UintegerValue(m_cacheCapacity));
    m_cache->SetAttribute("Policy", EnumValue(m_policy));
    m_cache->SetAttribute("FlushInterval", TimeValue(m_flushInterval));
    m_cache->Initialize();
    m_ifs.assign(m_ipv4->GetNInterfaces(), Interface{});
    for (auto& i : m_ifs)
    {
        i.limit = m_queueLimit;
    }

    // The internet stack registered TrafficControlLayer::Receive for IPv4 and ARP on every IP
    // device; IPv4 goes through the router instead (Node cannot replace one registration, so all
    // of them are removed and registered again).
    for (uint32_t k = 0; k < 3 * node->GetNDevices(); ++k)
    {
        node->UnregisterProtocolHandler(m_up);
    }
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> dev = node->GetDevice(i);
        if (DynamicCast<LoopbackNetDevice>(dev) || m_ipv4->GetInterfaceForDevice(dev) < 0)
        {
            continue;
        }
        NS_ABORT_MSG_IF(platform->GetNic(dev),
                        "CacheRouter::Install: device " << i << " has a HostNic model; the "
                                                        << "router charges its receive costs");
        node->RegisterProtocolHandler(MakeCallback(&CacheRouter::Receive, this),
                                      Ipv4L3Protocol::PROT_NUMBER,
                                      dev);
        node->RegisterProtocolHandler(m_up, 0x0806, dev);
    }
}

const CacheRouter::Interface&
CacheRouter::If(uint32_t interface, const char* caller) const
{
    NS_ABORT_MSG_IF(interface >= m_ifs.size(),
                    "CacheRouter::" << caller << ": no interface "
                                    << interface << " (installed: " << m_ifs.size() << ")");
    return m_ifs[interface];
}

void
CacheRouter::SetCacheEnabled(uint32_t interface, bool enabled)
{
    NS_LOG_FUNCTION(this << interface << enabled);
    If(interface, "SetCacheEnabled");
    m_ifs[interface].enabled = enabled;
}

bool
CacheRouter::IsCacheEnabled(uint32_t interface) const
{
    return If(interface, "IsCacheEnabled").enabled;
}

Ptr<RouteCache>
CacheRouter::GetCache() const
{
    NS_ABORT_MSG_IF(!m_cache, "CacheRouter::GetCache: not installed");
    return m_cache;
}

void
CacheRouter::SetInputQueueLimit(uint32_t interface, uint32_t limit)
{
    NS_LOG_FUNCTION(this << interface << limit);
    If(interface, "SetInputQueueLimit");
    NS_ABORT_MSG_IF(limit == 0, "CacheRouter::SetInputQueueLimit: a limit of 0 packets");
    m_ifs[interface].limit = limit;
}

uint32_t
CacheRouter::GetInputQueueLimit(uint32_t interface) const
{
    return If(interface, "GetInputQueueLimit").limit;
}

void
CacheRouter::Receive(Ptr<NetDevice> device,
                     Ptr<const Packet> packet,
                     uint16_t protocol,
                     const Address& from,
                     const Address& to,
                     NetDevice::PacketType packetType)
{
    NS_LOG_FUNCTION(this << device << packet);
    Ipv4Header ip;
    const int32_t inIf = m_ipv4->GetInterfaceForDevice(device);
    bool transit = inIf >= 0 && packet->GetSize() >= 20 && packet->PeekHeader(ip) > 0
                   && !ip.GetDestination().IsBroadcast() && !ip.GetDestination().IsMulticast()
                   && m_ipv4->GetInterfaceForAddress(ip.GetDestination()) < 0;
    for (uint32_t i = 0; transit && i < m_ipv4->GetNInterfaces(); ++i)
    {
        for (uint32_t a = 0; a < m_ipv4->GetNAddresses(i); ++a)
        {
            transit = transit && ip.GetDestination() != m_ipv4->GetAddress(i, a).GetBroadcast();
        }
    }
    Ptr<Ipv4Route> route;
    if (transit)
    {
        Socket::SocketErrno err;
        route = m_ipv4->GetRoutingProtocol()->RouteOutput(nullptr, ip, nullptr, err);
    }
    if (!route)
    {
        // Control plane, malformed or unroutable: the stack handles (or drops) it.
        m_up(device, packet, protocol, from, to, packetType);
        return;
    }
    const uint32_t oif = m_ipv4->GetInterfaceForDevice(route->GetOutputDevice());
    const uint32_t governs = m_side == OUTPUT ? oif : static_cast<uint32_t>(inIf);
    Frame f{device,
            packet,
            protocol,
            from,
            to,
            packetType,
            Simulator::Now(),
            ip.GetDestination(),
            m_ifs[governs].enabled,
            static_cast<uint32_t>(inIf),
            oif,
            false};
    if (f.fill)
    {
        uint32_t cached = 0;
        f.hit = m_cache->Lookup(ip.GetDestination(), cached);
    }
    m_fast.push_back(std::move(f));
    m_cpu->Submit(HostCpu::HARDIRQ,
                  m_cpu->CyclesToTime(m_fastCycles),
                  HostCpu::KERNEL,
                  m_fastDoneCb);
}

void
CacheRouter::FastDone()
{
    Frame f = std::move(m_fast.front());
    m_fast.pop_front();
    Interface& in = m_ifs[f.inIf];
    if (f.hit)
    {
        ++m_nFast;
        ++in.nFast;
        m_fastTrace(f.packet, Simulator::Now() - f.arrival);
        Deliver(f);
        return;
    }
    if (in.queued >= in.limit)
    {
        ++m_nDrops;
        ++in.nDrops;
        m_dropTrace(f.packet);
        return;
    }
    ++in.queued;
    in.maxQueued = std::max(in.maxQueued, in.queued);
    m_input.push_back(std::move(f));
    m_maxQueue = std::max<uint32_t>(m_maxQueue, m_input.size());
    MaybeStartSlow();
}

void
CacheRouter::MaybeStartSlow()
{
    if (m_slowBusy || m_input.empty())
    {
        return;
    }
    m_slowBusy = true;
    m_cpu->Submit(HostCpu::PROCESS, m_cpu->CyclesToTime(m_slowCycles), m_pid, m_slowDoneCb);
}

void
CacheRouter::SlowDone()
{
    m_slowBusy = false;
    Frame f = std::move(m_input.front());
    m_input.pop_front();
    Interface& in = m_ifs[f.inIf];
    --in.queued;
    if (f.fill)
    {
        m_cache->Fill(f.destination, f.oif);
    }
    ++m_nSlow;
    ++in.nSlow;
    m_slowTrace(f.packet, Simulator::Now() - f.arrival);
    Deliver(f);
    MaybeStartSlow();
}

void
CacheRouter::Deliver(const Frame& f)
{
    m_up(f.device, f.packet, f.protocol, f.from, f.to, f.packetType);
}

uint64_t
CacheRouter::GetFastPath() const
{
    return m_nFast;
}

uint64_t
CacheRouter::GetSlowPath() const
{
    return m_nSlow;
}

uint64_t
CacheRouter::GetQueueDrops() const
{
    return m_nDrops;
}

uint32_t
CacheRouter::GetMaxQueue() const
{
    return m_maxQueue;
}

uint64_t
CacheRouter::GetFastPath(uint32_t interface) const
{
    return If(interface, "GetFastPath").nFast;
}

uint64_t
CacheRouter::GetSlowPath(uint32_t interface) const
{
    return If(interface, "GetSlowPath").nSlow;
}

uint64_t
CacheRouter::GetQueueDrops(uint32_t interface) const
{
    return If(interface, "GetQueueDrops").nDrops;
}

uint32_t
CacheRouter::GetMaxQueue(uint32_t interface) const
{
    return If(interface, "GetMaxQueue").maxQueued;
}

} // namespace ns3
