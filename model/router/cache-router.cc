/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cache-router.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
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
              .AddAttribute("FlushPhase",
                            "Time of the cache's first flush after Install, the ageing timer's "
                            "phase (0 s: one FlushInterval after it; set at Install)",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&CacheRouter::m_flushPhase),
                            MakeTimeChecker(Seconds(0), Seconds(1e6)))
              .AddAttribute("RxRingSize",
                            "Frames each interface's receive ring holds before their "
                            "interrupt-level work is done (0: unbounded); an arrival at a full "
                            "ring is an overrun",
                            UintegerValue(32),
                            MakeUintegerAccessor(&CacheRouter::m_ringSize),
                            MakeUintegerChecker<uint32_t>(0, 1000000))
              .AddAttribute("BufferPools",
                            "A packet handed to the IP input process needs a buffer of Cisco "
                            "IOS's public pools (default sizes and permanent counts), taken at "
                            "interrupt level; the pool manager process grows them",
                            BooleanValue(true),
                            MakeBooleanAccessor(&CacheRouter::m_usePools),
                            MakeBooleanChecker())
              .AddAttribute("BufferCreateCost",
                            "CPU cycles of the pool manager to create one public buffer",
                            DoubleValue(2000),
                            MakeDoubleAccessor(&CacheRouter::m_createCycles),
                            MakeDoubleChecker<double>(0, 1e9))
              .AddAttribute("InputService",
                            "Order in which the IP input process takes the queued packets: Fifo "
                            "(arrival order) or RoundRobin (one per interface in turn)",
                            EnumValue(FIFO),
                            MakeEnumAccessor<Service>(&CacheRouter::m_service),
                            MakeEnumChecker(FIFO, "Fifo", ROUND_ROBIN, "RoundRobin"))
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
                              "ns3::CacheRouter::DropTracedCallback")
              .AddTraceSource("RingDrop",
                              "A frame found its interface's receive ring full",
                              MakeTraceSourceAccessor(&CacheRouter::m_ringDropTrace),
                              "ns3::CacheRouter::DropTracedCallback")
              .AddTraceSource("PoolDrop",
                              "A packet for the IP input process found no public buffer",
                              MakeTraceSourceAccessor(&CacheRouter::m_poolDropTrace),
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
    , m_ringSize(32)
    , m_usePools(true)
    , m_createCycles(2000)
    , m_service(FIFO)
{
    NS_LOG_FUNCTION(this);
    m_fastDoneCb = MakeCallback(&CacheRouter::FastDone, this);
    m_slowDoneCb = MakeCallback(&CacheRouter::SlowDone, this);
    m_poolDoneCb = MakeCallback(&CacheRouter::PoolManagerDone, this);
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
    m_poolDoneCb = Callback<void>();
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
    m_pid = platform->ReservePids(2);
    m_poolPid = m_pid + 1;
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_IF(!tc, "CacheRouter::Install: node has no traffic-control layer");
    m_up = MakeCallback(&TrafficControlLayer::Receive, tc);

    m_cache = CreateObject<RouteCache>();
    m_cache->SetAttribute("Capacity", UintegerValue(m_cacheCapacity));
    m_cache->SetAttribute("Policy", EnumValue(m_policy));
    m_cache->SetAttribute("FlushInterval", TimeValue(m_flushInterval));
    m_cache->SetAttribute("FlushPhase", TimeValue(m_flushPhase));
    m_cache->Initialize();
    m_ifs.assign(m_ipv4->GetNInterfaces(), Interface{});
    for (auto& i : m_ifs)
    {
        i.limit = m_queueLimit;
    }
    if (m_usePools)
    {
        // Cisco IOS's public pools with their default permanent counts and min-free ("show
        // buffers": Small 104 bytes total 50, Middle 600 total 25, Big 1524 total 50, VeryBig
        // 4520 total 10, Large 5024 total 0, Huge 18024 total 0).
        m_pools = {{104, 50, 50, 20},
                   {600, 25, 25, 10},
                   {1524, 50, 50, 5},
                   {4520, 10, 10, 0},
                   {5024, 0, 0, 0},
                   {18024, 0, 0, 0}};
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
    Interface& in = m_ifs[inIf];
    if (m_ringSize > 0 && in.inRing >= m_ringSize)
    {
        // Overrun: no free descriptor in the interface's receive ring.
        ++m_nRingDrops;
        ++in.nRingDrops;
        m_ringDropTrace(packet);
        return;
    }
    ++in.inRing;
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
            false,
            -1};
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
    --in.inRing;
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
    if (m_usePools)
    {
        // A public buffer at interrupt level; IOS creates none here (a "failure").
        const uint32_t mac = f.device->GetMtu() > 1500 ? 21 : 14; // FDDI FC+DA+SA+LLC/SNAP; DIX
        const int32_t p = PoolOf(f.packet->GetSize() + mac);
        if (p < 0 || m_pools[p].free == 0)
        {
            if (p >= 0)
            {
                m_pools[p].failed = true;
            }
            ++m_nPoolDrops;
            ++in.nPoolDrops;
            m_poolDropTrace(f.packet);
            MaybeGrowPools();
            return;
        }
        --m_pools[p].free;
        f.pool = p;
        MaybeGrowPools();
    }
    ++in.queued;
    in.maxQueued = std::max(in.maxQueued, in.queued);
    m_input.push_back(std::move(f));
    m_maxQueue = std::max<uint32_t>(m_maxQueue, m_input.size());
    MaybeStartSlow();
}

int32_t
CacheRouter::PoolOf(uint32_t bytes) const
{
    for (std::size_t i = 0; i < m_pools.size(); ++i)
    {
        if (m_pools[i].size >= bytes)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

void
CacheRouter::MaybeGrowPools()
{
    if (m_poolBusy)
    {
        return;
    }
    for (std::size_t i = 0; i < m_pools.size(); ++i)
    {
        const Pool& p = m_pools[i];
        if (p.free < p.minFree || p.failed)
        {
            m_poolBusy = true;
            m_growing = static_cast<int32_t>(i);
            m_cpu->Submit(HostCpu::PROCESS,
                          m_cpu->CyclesToTime(m_createCycles),
                          m_poolPid,
                          m_poolDoneCb);
            return;
        }
    }
}

void
CacheRouter::PoolManagerDone()
{
    Pool& p = m_pools[m_growing];
    ++p.total;
    ++p.free;
    ++m_nCreated;
    if (p.free >= p.minFree + (p.failed ? 1 : 0))
    {
        p.failed = false;
    }
    m_poolBusy = false;
    MaybeGrowPools();
}

void
CacheRouter::MaybeStartSlow()
{
    if (m_slowBusy || m_input.empty())
    {
        return;
    }
    m_inService = 0;
    if (m_service == ROUND_ROBIN)
    {
        // The first interface from m_nextIf on with a packet queued; its oldest packet.
        const uint32_t n = m_ifs.size();
        bool found = false;
        for (uint32_t k = 0; k < n && !found; ++k)
        {
            const uint32_t i = (m_nextIf + k) % n;
            for (std::size_t j = 0; j < m_input.size(); ++j)
            {
                if (m_input[j].inIf == i)
                {
                    m_inService = j;
                    m_nextIf = (i + 1) % n;
                    found = true;
                    break;
                }
            }
        }
    }
    m_slowBusy = true;
    m_cpu->Submit(HostCpu::PROCESS, m_cpu->CyclesToTime(m_slowCycles), m_pid, m_slowDoneCb);
}

void
CacheRouter::SlowDone()
{
    m_slowBusy = false;
    Frame f = std::move(m_input[m_inService]);
    m_input.erase(m_input.begin() + m_inService);
    Interface& in = m_ifs[f.inIf];
    --in.queued;
    if (f.pool >= 0)
    {
        ++m_pools[f.pool].free;
    }
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
CacheRouter::GetRingDrops() const
{
    return m_nRingDrops;
}

uint64_t
CacheRouter::GetPoolDrops() const
{
    return m_nPoolDrops;
}

uint64_t
CacheRouter::GetBuffersCreated() const
{
    return m_nCreated;
}

uint64_t
CacheRouter::GetRingDrops(uint32_t interface) const
{
    return If(interface, "GetRingDrops").nRingDrops;
}

uint64_t
CacheRouter::GetPoolDrops(uint32_t interface) const
{
    return If(interface, "GetPoolDrops").nPoolDrops;
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
