/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sara.h"

#include "send-udp.h"

#include "ns3/double.h"
#include "ns3/host-cpu.h"
#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-packet-info-tag.h"
#include "ns3/log.h"
#include "ns3/memory-hints.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>
#include <unordered_map>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Sara");

NS_OBJECT_ENSURE_REGISTERED(Sara);

// --- SaraTable ----------------------------------------------------------------------------------

namespace
{

using memoryhints::HugePageAllocator; //!< the tables' flat arrays in huge pages

} // namespace

/** The per-node state. */
struct SaraTable::Impl
{
    /**
     * State of one node: one cache line (a receiver's table at 10^6 senders is far larger than
     * a cache, and every datagram updates a node at random). The send and receive intervals
     * share their count; their running means and variances are those of Boost.Accumulators'
     * immediate mean and variance (boost/accumulators/statistics/mean.hpp, variance.hpp: the
     * same operations in the same order), which kept a count of their own each. The counters are
     * 32-bit: a node's packets carry distinct 32-bit serials. Duplicates and out-of-order packets
     * (none in a run without reordering) are counted apart, per node id.
     */
    struct alignas(64) Node
    {
        int64_t lastSent{0};    //!< timestamp of the reference packet (time steps)
        int64_t lastRecv{0};    //!< its capture time (time steps)
        double sendMean{0};     //!< mean send interval (s)
        double sendVar{0};      //!< its (population) variance
        double recvMean{0};     //!< mean receive interval (s)
        double recvVar{0};      //!< its (population) variance
        uint32_t lastSerial{0}; //!< serial of the reference packet
        uint32_t packets{0};    //!< packets
        uint32_t drops{0};      //!< drops
        uint32_t intervals{0};  //!< intervals in the statistics

        /**
         * One more interval of each statistic (Boost.Accumulators' immediate mean, then
         * variance, with the new count).
         * @param send the send interval (s)
         * @param recv the receive interval (s)
         */
        void AddIntervals(double send, double recv)
        {
            const std::size_t cnt = ++intervals;
            sendMean = (sendMean * (cnt - 1) + send) / cnt;
            recvMean = (recvMean * (cnt - 1) + recv) / cnt;
            if (cnt > 1)
            {
                const double ds = send - sendMean;
                sendVar = sendVar * (cnt - 1) / cnt + ds * ds / (cnt - 1);
                const double dr = recv - recvMean;
                recvVar = recvVar * (cnt - 1) / cnt + dr * dr / (cnt - 1);
            }
        }
    };

    static_assert(sizeof(Node) == 64, "a node's state is one cache line");

    /// Duplicates and out-of-order packets per node id (rare: kept apart from Node).
    std::unordered_map<uint32_t, uint64_t> reordered;

    /// Nodes of ids [base, base + flat.size()) (Reserve): a flat array, seen once packets > 0.
    uint32_t base{0};
    std::vector<Node, HugePageAllocator<Node>> flat; //!< their state
    uint32_t flatSeen{0};                            //!< of them seen
    std::unordered_map<uint32_t, Node> nodes;        //!< every other node's state

    /**
     * @param id a node id
     * @return its state if seen, else null
     */
    const Node* Find(uint32_t id) const
    {
        if (id - base < flat.size())
        {
            const Node& n = flat[id - base];
            return n.packets > 0 ? &n : nullptr;
        }
        auto it = nodes.find(id);
        return it == nodes.end() ? nullptr : &it->second;
    }

    /**
     * @return every seen node, in the order of the ids
     */
    std::vector<std::pair<uint32_t, const Node*>> Sorted() const
    {
        std::vector<std::pair<uint32_t, const Node*>> v;
        v.reserve(flatSeen + nodes.size());
        for (const auto& [id, n] : nodes)
        {
            v.emplace_back(id, &n);
        }
        std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
            return a.first < b.first;
        });
        // The flat range lies between the map's ids below and above it.
        const auto mid = std::lower_bound(v.begin(), v.end(), base, [](const auto& a, uint32_t b) {
            return a.first < b;
        });
        std::vector<std::pair<uint32_t, const Node*>> flatNodes;
        flatNodes.reserve(flatSeen);
        for (uint32_t k = 0; k < flat.size(); ++k)
        {
            if (flat[k].packets > 0)
            {
                flatNodes.emplace_back(base + k, &flat[k]);
            }
        }
        v.insert(mid, flatNodes.begin(), flatNodes.end());
        return v;
    }
};

namespace
{

/**
 * Statistics of one node.
 * @param id the node id
 * @param n its state
 * @return the statistics
 */
SaraTable::NodeStats
MakeStats(const SaraTable::Impl& impl, uint32_t id, const SaraTable::Impl::Node& n)
{
    SaraTable::NodeStats s;
    s.nodeId = id;
    s.packets = n.packets;
    s.drops = n.drops;
    auto r = impl.reordered.find(id);
    s.reordered = r == impl.reordered.end() ? 0 : r->second;
    s.intervals = n.intervals;
    if (s.intervals > 0)
    {
        s.sendMean = n.sendMean;
        s.sendStd = std::sqrt(std::max(0.0, n.sendVar));
        s.recvMean = n.recvMean;
        s.recvStd = std::sqrt(std::max(0.0, n.recvVar));
    }
    return s;
}

} // namespace

SaraTable::SaraTable()
    : m_impl(std::make_unique<Impl>())
{
}

SaraTable::~SaraTable() = default;

void
SaraTable::Reserve(uint32_t firstId, uint32_t count)
{
    NS_ABORT_MSG_IF(GetNNodes() > 0, "SaraTable::Reserve: the table is not empty");
    NS_ABORT_MSG_IF(firstId + uint64_t(count) > (uint64_t(1) << 32),
                    "SaraTable::Reserve: ids beyond 2^32");
    Impl& m = *m_impl;
    if (m.flat.empty())
    {
        m.base = firstId;
        m.flat.resize(count);
        return;
    }
    // Extend the flat range if the new one touches it (else its ids go to the map).
    const uint64_t lo = std::min<uint64_t>(m.base, firstId);
    const uint64_t hi
        = std::max<uint64_t>(uint64_t(m.base) + m.flat.size(), uint64_t(firstId) + count);
    if (firstId <= uint64_t(m.base) + m.flat.size() && uint64_t(firstId) + count >= m.base)
    {
        if (lo == m.base)
        {
            // Extended at its end (a program's PCs in id order): the vector grows geometrically
            // (reserving one PC's range after another copied the whole table each time).
            m.flat.resize(hi - lo);
            return;
        }
        std::vector<Impl::Node, HugePageAllocator<Impl::Node>> flat(hi - lo);
        std::move(m.flat.begin(), m.flat.end(), flat.begin() + (m.base - lo));
        m.flat = std::move(flat);
        m.base = static_cast<uint32_t>(lo);
    }
}

void
SaraTable::Add(uint32_t nodeId, uint32_t serial, Time sent, Time received)
{
    Impl::Node* node;
    bool fresh;
    if (nodeId - m_impl->base < m_impl->flat.size())
    {
        node = &m_impl->flat[nodeId - m_impl->base];
        fresh = node->packets == 0; // every seen node has a packet (its first)
        m_impl->flatSeen += fresh ? 1 : 0;
    }
    else
    {
        auto [it, created] = m_impl->nodes.try_emplace(nodeId);
        node = &it->second;
        fresh = created;
    }
    Impl::Node& n = *node;
    if (!fresh && serial <= n.lastSerial)
    {
        ++m_impl->reordered[nodeId];
        return;
    }
    ++n.packets;
    if (!fresh)
    {
        if (serial == n.lastSerial + 1)
        {
            n.AddIntervals(TimeStep(sent.GetTimeStep() - n.lastSent).GetSeconds(),
                           TimeStep(received.GetTimeStep() - n.lastRecv).GetSeconds());
        }
        else
        {
            // A gap: count the missing packets; the interval across it is excluded.
            n.drops += serial - n.lastSerial - 1;
        }
    }
    n.lastSerial = serial;
    n.lastSent = sent.GetTimeStep();
    n.lastRecv = received.GetTimeStep();
}

void
SaraTable::Prefetch(uint32_t nodeId) const
{
    if (nodeId - m_impl->base < m_impl->flat.size())
    {
        memoryhints::PrefetchForWrite(&m_impl->flat[nodeId - m_impl->base]); // Add updates it
    }
}

bool
SaraTable::Has(uint32_t nodeId) const
{
    return m_impl->Find(nodeId) != nullptr;
}

SaraTable::NodeStats
SaraTable::GetNode(uint32_t nodeId) const
{
    const Impl::Node* n = m_impl->Find(nodeId);
    NS_ABORT_MSG_IF(!n, "SaraTable::GetNode: node " << nodeId << " unseen");
    return MakeStats(*m_impl, nodeId, *n);
}

uint32_t
SaraTable::GetNNodes() const
{
    return m_impl->flatSeen + m_impl->nodes.size();
}

void
SaraTable::Clear()
{
    m_impl->nodes.clear();
    m_impl->reordered.clear();
    std::fill(m_impl->flat.begin(), m_impl->flat.end(), Impl::Node{});
    m_impl->flatSeen = 0;
}

std::vector<SaraTable::NodeMoments>
SaraTable::GetMoments() const
{
    const std::vector<std::pair<uint32_t, const Impl::Node*>> nodes = m_impl->Sorted();
    std::vector<NodeMoments> v;
    v.reserve(nodes.size());
    for (const auto& [id, n] : nodes)
    {
        NodeMoments m;
        m.stats = MakeStats(*m_impl, id, *n);
        m.count = n->intervals;
        if (m.count > 0)
        {
            m.sendMean = n->sendMean;
            m.recvMean = n->recvMean;
            m.sendVar = n->sendVar;
            m.recvVar = n->recvVar;
        }
        v.push_back(m);
    }
    return v;
}

SaraTable::Summary
SaraTable::GetSummary() const
{
    // Over the nodes in the order of their ids: the floating-point sums do not depend on how
    // the per-node state is stored.
    return Summarize(GetMoments());
}

SaraTable::Summary
SaraTable::Summarize(const std::vector<NodeMoments>& nodes)
{
    Summary s;
    s.nodes = nodes.size();
    for (const NodeMoments& m : nodes)
    {
        const NodeStats& ns = m.stats;
        s.packets += ns.packets;
        s.drops += ns.drops;
        s.reordered += ns.reordered;
        s.intervals += ns.intervals;
        if (ns.intervals == 0)
        {
            continue;
        }
        ++s.nodesWithIntervals;
        s.sendMeanMean += ns.sendMean;
        s.sendStdMean += ns.sendStd;
        s.sendStdMax = std::max(s.sendStdMax, ns.sendStd);
        s.recvMeanMean += ns.recvMean;
        s.recvStdMean += ns.recvStd;
        s.recvStdMax = std::max(s.recvStdMax, ns.recvStd);
    }
    if (s.intervals > 0)
    {
        // Pooled: total mean, and the law of total variance over the nodes.
        double sumSend = 0;
        double sumRecv = 0;
        for (const NodeMoments& m : nodes)
        {
            if (m.count > 0)
            {
                sumSend += m.count * m.sendMean;
                sumRecv += m.count * m.recvMean;
            }
        }
        s.pooledSendMean = sumSend / s.intervals;
        s.pooledRecvMean = sumRecv / s.intervals;
        double varSend = 0;
        double varRecv = 0;
        for (const NodeMoments& m : nodes)
        {
            if (m.count > 0)
            {
                const double ds = m.sendMean - s.pooledSendMean;
                const double dr = m.recvMean - s.pooledRecvMean;
                varSend += m.count * (m.sendVar + ds * ds);
                varRecv += m.count * (m.recvVar + dr * dr);
            }
        }
        s.pooledSendStd = std::sqrt(std::max(0.0, varSend / s.intervals));
        s.pooledRecvStd = std::sqrt(std::max(0.0, varRecv / s.intervals));
    }
    if (s.nodesWithIntervals > 0)
    {
        s.sendMeanMean /= s.nodesWithIntervals;
        s.sendStdMean /= s.nodesWithIntervals;
        s.recvMeanMean /= s.nodesWithIntervals;
        s.recvStdMean /= s.nodesWithIntervals;
    }
    if (s.packets + s.drops > 0)
    {
        s.dropRate = static_cast<double>(s.drops) / (s.packets + s.drops);
    }
    return s;
}

void
SaraTable::WriteNodes(std::ostream& os) const
{
    os << "node,packets,drops,reordered,intervals,send_mean_us,send_std_us,recv_mean_us,"
          "recv_std_us\n";
    for (const auto& [id, n] : m_impl->Sorted())
    {
        NodeStats s = MakeStats(*m_impl, id, *n);
        os << id << "," << s.packets << "," << s.drops << "," << s.reordered << "," << s.intervals
           << "," << s.sendMean * 1e6 << "," << s.sendStd * 1e6 << "," << s.recvMean * 1e6 << ","
           << s.recvStd * 1e6 << "\n";
    }
}

// --- Sara ---------------------------------------------------------------------------------------

TypeId
Sara::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::Sara")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<Sara>()
              .AddAttribute("Port",
                            "UDP port of the send_udp packets.",
                            UintegerValue(10000),
                            MakeUintegerAccessor(&Sara::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("Group",
                            "Capture filter: only packets to this group (0.0.0.0 = any group).",
                            Ipv4AddressValue(Ipv4Address::GetAny()),
                            MakeIpv4AddressAccessor(&Sara::m_group),
                            MakeIpv4AddressChecker())
              .AddAttribute("BufferPackets",
                            "Capture buffer (packets): the capture socket's receive buffer "
                            "in frames. Default: the largest buffer Linux 2.6.13 grants "
                            "(SO_RCVBUF capped at rmem_max 131 071, doubled: 262 142 octets) "
                            "over the about 2 300 octets each received frame occupies (2 KiB "
                            "e1000 receive buffers): 113. The default rmem_default would hold "
                            "48. Calibrated on [MEGA06] (a Group B PC captured 20 000 nodes "
                            "without loss), see doc/mega.rst.",
                            UintegerValue(113),
                            MakeUintegerAccessor(&Sara::m_bufferPackets),
                            MakeUintegerChecker<uint32_t>(1, 1 << 24))
              .AddAttribute("ProcessCost",
                            "CPU cycles per packet besides the read (parsing, the node's table "
                            "entry, the statistics).",
                            DoubleValue(2000),
                            MakeDoubleAccessor(&Sara::m_processCycles),
                            MakeDoubleChecker<double>(0, 1e9))
              .AddTraceSource("Record",
                              "A send_udp packet was accounted.",
                              MakeTraceSourceAccessor(&Sara::m_recordTrace),
                              "ns3::Sara::RecordTracedCallback");
    return tid;
}

Sara::Sara()
    : m_port(10000)
    , m_bufferPackets(113)
    , m_processCycles(2000)
    , m_reading(false)
    , m_running(false)
    , m_captured(0)
    , m_bufferDrops(0)
    , m_foreign(0)
    , m_filtered(0)
{
    m_readNext = MakeCallback(&Sara::ReadNext, this);
    m_consume = MakeCallback(&Sara::Consume, this);
}

Sara::~Sara()
{
}

void
Sara::DoDispose()
{
    m_socket = nullptr;
    m_host = nullptr;
    m_process = nullptr;
    m_buffer.clear();
    Application::DoDispose();
}

const SaraTable&
Sara::GetTable() const
{
    return m_table;
}

void
Sara::ReserveNodes(uint32_t firstId, uint32_t count)
{
    m_table.Reserve(firstId, count);
}

uint64_t
Sara::GetCaptured() const
{
    return m_captured;
}

uint64_t
Sara::GetBufferDrops() const
{
    return m_bufferDrops;
}

uint64_t
Sara::GetForeign() const
{
    return m_foreign;
}

uint64_t
Sara::GetFiltered() const
{
    return m_filtered;
}

void
Sara::ResetStatistics()
{
    m_table.Clear();
    m_captured = 0;
    m_bufferDrops = 0;
    m_foreign = 0;
    m_filtered = 0;
}

void
Sara::StartApplication()
{
    NS_LOG_FUNCTION(this);
    Ptr<HostPlatform> host = GetNode()->GetObject<HostPlatform>();
    if (host && !Node::ChecksumEnabled())
    {
        // The kernel delivers the port's multicast datagrams to the capture directly.
        m_host = host;
        m_host->BindUdpMulticast(m_port, MakeCallback(&Sara::CaptureDatagram, this));
    }
    else
    {
        m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                        "Sara: cannot bind UDP port " << m_port);
        m_socket->SetRecvPktInfo(true);
        m_socket->SetRecvCallback(MakeCallback(&Sara::Capture, this));
    }
    if (host)
    {
        m_process = host->CreateProcess();
    }
    m_running = true;
}

void
Sara::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    if (m_host)
    {
        // Closed: no program listens on the port any more (the kernel discards its datagrams).
        m_host->BindUdpMulticast(m_port, HostPlatform::UdpMulticastSink());
    }
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
    }
}

Sara::Captured
Sara::Parse(const uint8_t* h, uint32_t size, Time now)
{
    Captured c;
    c.payload = size;
    c.time = now;
    if (!h)
    {
        return c; // foreign: shorter than the send_udp header
    }
    // The send_udp header (SendUdpHeader's 16 octets in network byte order).
    uint64_t ts = 0;
    for (int k = 0; k < 8; ++k)
    {
        ts = (ts << 8) | h[k];
    }
    c.sendUdp = true;
    c.sent = static_cast<int64_t>(ts);
    c.nodeId = (uint32_t(h[8]) << 24) | (uint32_t(h[9]) << 16) | (uint32_t(h[10]) << 8) | h[11];
    c.serial = (uint32_t(h[12]) << 24) | (uint32_t(h[13]) << 16) | (uint32_t(h[14]) << 8) | h[15];
    return c;
}

void
Sara::Capture(Ptr<Socket> socket)
{
    Ptr<Packet> p;
    while ((p = socket->Recv()))
    {
        if (!m_running)
        {
            continue;
        }
        Ipv4Address group = Ipv4Address::GetAny();
        Ipv4PacketInfoTag info;
        if (p->PeekPacketTag(info))
        {
            group = info.GetAddress();
        }
        else if (m_group != Ipv4Address::GetAny())
        {
            ++m_filtered; // no destination known: the filter cannot match
            continue;
        }
        uint8_t h[SendUdpHeader::SIZE];
        const bool whole = p->GetSize() >= SendUdpHeader::SIZE;
        if (whole)
        {
            p->CopyData(h, SendUdpHeader::SIZE);
        }
        Offer(group, Parse(whole ? h : nullptr, p->GetSize(), Simulator::Now()));
    }
    WakeReader();
}

void
Sara::CaptureDatagram(const HostPlatform::UdpDatagram& d)
{
    if (!m_running)
    {
        return;
    }
    uint8_t h[SendUdpHeader::SIZE];
    const bool whole = d.size >= SendUdpHeader::SIZE;
    if (whole)
    {
        d.CopyPayload(h, SendUdpHeader::SIZE);
    }
    Offer(d.group, Parse(whole ? h : nullptr, d.size, Simulator::Now()));
    WakeReader();
}

void
Sara::Offer(Ipv4Address group, const Captured& c)
{
    if (m_group != Ipv4Address::GetAny() && group != m_group)
    {
        ++m_filtered;
        return;
    }
    if (!m_process)
    {
        ++m_captured;
        Account(c);
        return;
    }
    if (m_buffer.size() >= m_bufferPackets)
    {
        ++m_bufferDrops;
        return;
    }
    ++m_captured;
    m_buffer.push_back(c);
    if (c.sendUdp)
    {
        // The reader accounts it after the packets ahead of it (at least one work item on the
        // CPU later): the node's line is loaded meanwhile.
        m_table.Prefetch(c.nodeId);
    }
}

void
Sara::WakeReader()
{
    if (m_process && !m_reading && !m_buffer.empty())
    {
        // The blocked reader is woken.
        m_reading = true;
        m_process->Wake(m_readNext);
    }
}

void
Sara::ReadNext()
{
    if (m_buffer.empty() || !m_running)
    {
        m_reading = false; // blocks again
        return;
    }
    Ptr<HostPlatform> host = m_process->GetPlatform();
    // The frame as captured: Ethernet 14 + IP/UDP headers 28 + payload.
    Time cost = host->GetRecvCost(m_buffer.front().payload + 28 + 14)
                + host->GetCpu()->CyclesToTime(m_processCycles);
    m_process->Execute(cost, m_consume);
}

void
Sara::Consume()
{
    NS_ASSERT(!m_buffer.empty());
    Captured c = m_buffer.front();
    m_buffer.pop_front();
    Account(c);
    ReadNext();
}

void
Sara::Account(const Captured& c)
{
    if (!c.sendUdp)
    {
        ++m_foreign;
        return;
    }
    const Time sent = NanoSeconds(c.sent);
    m_table.Add(c.nodeId, c.serial, sent, c.time);
    m_recordTrace(c.nodeId, c.serial, sent, c.time);
}

} // namespace ns3
