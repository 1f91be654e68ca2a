/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "send-udp.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fast-path.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/host-cpu.h"
#include "ns3/host-platform.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/memory-hints.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/timer-model.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SendUdp");

NS_OBJECT_ENSURE_REGISTERED(SendUdpHeader);
NS_OBJECT_ENSURE_REGISTERED(SendUdp);

// --- SendUdpHeader ------------------------------------------------------------------------------

TypeId
SendUdpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SendUdpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Testbed")
                            .AddConstructor<SendUdpHeader>();
    return tid;
}

TypeId
SendUdpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
SendUdpHeader::GetSerializedSize() const
{
    return SIZE;
}

void
SendUdpHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(static_cast<uint64_t>(m_timestamp));
    start.WriteHtonU32(m_nodeId);
    start.WriteHtonU32(m_serial);
}

uint32_t
SendUdpHeader::Deserialize(Buffer::Iterator start)
{
    // The length first: a datagram shorter than the payload header is not one (nothing read).
    if (start.GetRemainingSize() < SIZE)
    {
        m_valid = false;
        return 0;
    }
    m_valid = true;
    m_timestamp = static_cast<int64_t>(start.ReadNtohU64());
    m_nodeId = start.ReadNtohU32();
    m_serial = start.ReadNtohU32();
    return SIZE;
}

bool
SendUdpHeader::IsValid() const
{
    return m_valid;
}

void
SendUdpHeader::Print(std::ostream& os) const
{
    os << "send_udp node=" << m_nodeId << " serial=" << m_serial << " ts=" << m_timestamp << "ns";
}

void
SendUdpHeader::SetTimestamp(Time t)
{
    m_timestamp = t.GetNanoSeconds();
}

Time
SendUdpHeader::GetTimestamp() const
{
    return NanoSeconds(m_timestamp);
}

void
SendUdpHeader::SetNodeId(uint32_t id)
{
    m_nodeId = id;
}

uint32_t
SendUdpHeader::GetNodeId() const
{
    return m_nodeId;
}

void
SendUdpHeader::SetSerial(uint32_t serial)
{
    m_serial = serial;
}

uint32_t
SendUdpHeader::GetSerial() const
{
    return m_serial;
}

// --- SendUdp ------------------------------------------------------------------------------------

TypeId
SendUdp::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SendUdp")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<SendUdp>()
              .AddAttribute("Nodes",
                            "Virtual sensor nodes (send_udp processes) on this PC.",
                            UintegerValue(1),
                            MakeUintegerAccessor(&SendUdp::m_nNodes),
                            MakeUintegerChecker<uint32_t>(1, 1000000))
              .AddAttribute("FirstNodeId",
                            "Virtual-node id of the first node (ids FirstNodeId, +1, ...).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&SendUdp::m_firstNodeId),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Group",
                            "Multicast group the packets go to.",
                            Ipv4AddressValue("239.1.0.1"),
                            MakeIpv4AddressAccessor(&SendUdp::m_group),
                            MakeIpv4AddressChecker())
              .AddAttribute("Port",
                            "UDP destination port.",
                            UintegerValue(10000),
                            MakeUintegerAccessor(&SendUdp::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("Interval",
                            "Sleep between two packets of a node (send_udp: sleep(1)).",
                            TimeValue(Seconds(1)),
                            MakeTimeAccessor(&SendUdp::m_interval),
                            MakeTimeChecker(MicroSeconds(1)))
              .AddAttribute("PacketSize",
                            "IP packet size in octets (IPv4 20 + UDP 8 + payload; the payload "
                            "holds the 16-octet SendUdpHeader and padding).",
                            UintegerValue(100),
                            MakeUintegerAccessor(&SendUdp::m_packetSize),
                            MakeUintegerChecker<uint32_t>(20 + 8 + SendUdpHeader::SIZE, 1500))
              .AddAttribute("StartWindow",
                            "Each node starts at a uniformly random time in [0, StartWindow) "
                            "after the application start (0 = all at once).",
                            TimeValue(Seconds(1)),
                            MakeTimeAccessor(&SendUdp::m_startWindow),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("LoopCost",
                            "CPU cycles of one iteration besides the send path "
                            "(gettimeofday, building the payload, the loop, nanosleep entry).",
                            DoubleValue(2000),
                            MakeDoubleAccessor(&SendUdp::m_loopCycles),
                            MakeDoubleChecker<double>(0, 1e9))
              .AddAttribute("Device",
                            "Index of the node's device the packets leave from (the socket is "
                            "bound to it).",
                            UintegerValue(1),
                            MakeUintegerAccessor(&SendUdp::m_deviceIndex),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("SequentialLaunch",
                            "Launch the nodes one after another through the host's process "
                            "launch cost and memory (a shell loop forking send_udp) instead of "
                            "at random times in StartWindow.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&SendUdp::m_sequential),
                            MakeBooleanChecker())
              .AddTraceSource("Send",
                              "A virtual node handed a packet to the socket.",
                              MakeTraceSourceAccessor(&SendUdp::m_sendTrace),
                              "ns3::SendUdp::SendTracedCallback");
    return tid;
}

SendUdp::SendUdp()
    : m_nNodes(1)
    , m_firstNodeId(0)
    , m_port(10000)
    , m_packetSize(100)
    , m_loopCycles(2000)
    , m_deviceIndex(1)
    , m_firstPid(0)
    , m_sequential(false)
    , m_launcherPid(0)
    , m_launched(0)
    , m_launchFailed(false)
    , m_launchEnd(-1)
    , m_running(false)
    , m_sent(0)
{
    m_rng = CreateObject<UniformRandomVariable>();
}

SendUdp::~SendUdp()
{
}

void
SendUdp::DoDispose()
{
    if (m_cpu)
    {
        m_cpu->RemoveArrivalSource(this);
        m_cpu = nullptr;
    }
    m_device = nullptr;
    m_host = nullptr;
    m_rng = nullptr;
    m_serial.clear();
    m_iterated = Callback<void, uint32_t>();
    m_template = nullptr;
    m_lean = nullptr;
    m_wakeEvent.Cancel();
    m_wakeEventTime = -1;
    m_wakeups.clear();
    m_due.clear();
    m_datagram.clear();
    m_nextNodeHint = memoryhints::NextUse();
    Application::DoDispose();
}

int64_t
SendUdp::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

void
SendUdp::SetNextNodeHint(memoryhints::NextUse hint)
{
    m_nextNodeHint = hint;
}

uint64_t
SendUdp::GetSent() const
{
    return m_sent;
}

uint32_t
SendUdp::GetSent(uint32_t index) const
{
    NS_ABORT_MSG_IF(index >= m_serial.size(),
                    "SendUdp::GetSent: node index " << index << " out of range");
    return m_serial[index];
}

void
SendUdp::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_group.IsMulticast(), "SendUdp: Group " << m_group << " is not multicast");
    Ptr<Node> node = GetNode();
    NS_ABORT_MSG_IF(m_deviceIndex >= node->GetNDevices(),
                    "SendUdp: Device " << m_deviceIndex << " does not exist on node "
                                       << node->GetId());
    Ptr<NetDevice> dev = node->GetDevice(m_deviceIndex);
    NS_ABORT_MSG_IF(DynamicCast<LoopbackNetDevice>(dev),
                    "SendUdp: Device " << m_deviceIndex << " is the loopback");
    m_device = dev;
    m_destination = dev->GetMulticast(m_group);
    m_source = SourceAddress(dev);
    m_host = node->GetObject<HostPlatform>();
    m_serial.assign(m_nNodes, 0);
    m_datagram.clear();
    m_template = nullptr;
    m_lean = nullptr;
    if (!Node::ChecksumEnabled())
    {
        Ptr<Packet> p = BuildPacket(0, Seconds(0));
        m_datagram.resize(p->GetSize());
        p->CopyData(m_datagram.data(), m_datagram.size());
        m_lean = dynamic_cast<FullDuplexEthernetNetDevice*>(PeekPointer(dev));
        if (m_lean)
        {
            // The 16 octets of the SendUdpHeader (after IPv4 and UDP) are a frame's own.
            m_template = Create<FrameTemplate>(m_datagram, 20 + 8, Ipv4L3Protocol::PROT_NUMBER);
            m_srcMac = Mac48Address::ConvertFrom(dev->GetAddress());
            m_dstMac = Mac48Address::ConvertFrom(m_destination);
        }
    }
    if (m_host)
    {
        m_firstPid = m_host->ReservePids(m_nNodes);
    }
    // One completion callback for every node's iterations (the node is the work item's tag):
    // nothing per node but its serial number and its place in the wake-up heap.
    m_iterated = MakeCallback(&SendUdp::Iterated, this);
    if (m_host)
    {
        // The per-iteration costs are constant.
        m_sendCost = m_host->GetSendCost(m_packetSize - 20 - 8);
        m_iterationCost = m_host->GetCpu()->CyclesToTime(m_loopCycles) + m_sendCost;
    }
    m_running = true;
    m_launched = 0;
    m_launchFailed = false;
    m_launchEnd = Time(-1);
    if (m_host && !m_cpu)
    {
        // The CPU takes the wake-ups from the heap (no event per wake-up).
        m_cpu = m_host->GetCpu();
        m_cpu->AddArrivalSource(this);
    }
    if (m_sequential && m_host)
    {
        m_launcherPid = m_host->ReservePids(1);
        Launch(0);
        return;
    }
    m_starting = true;
    const Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_nNodes; ++i)
    {
        Time start = Seconds(m_rng->GetValue(0.0, m_startWindow.GetSeconds()));
        Sleep(i, start, now);
    }
    // In the order of their times, at one instant in the order the nodes were started.
    std::stable_sort(m_wakeups.begin(), m_wakeups.end(), [](const Wakeup& a, const Wakeup& b) {
        return a.time < b.time;
    });
    m_starting = false;
    if (m_cpu)
    {
        m_cpu->ArrivalsChanged();
    }
    m_launched = m_nNodes;
    m_launchEnd = Simulator::Now() + m_startWindow;
}

void
SendUdp::Launch(uint32_t i)
{
    m_host->GetCpu()->Submit(HostCpu::PROCESS,
                             m_host->GetLaunchCost(),
                             m_launcherPid,
                             Callback<void>([this, i]() { Launched(i); }));
}

void
SendUdp::Launched(uint32_t i)
{
    if (!m_running)
    {
        return;
    }
    // fork() needs the new process's memory; without it the launch stops (ENOMEM).
    if (!m_host->AllocateMemory(m_host->GetProcessMemory()))
    {
        NS_LOG_INFO("memory exhausted after " << i << " nodes");
        m_launchFailed = true;
        m_launchEnd = Simulator::Now();
        return;
    }
    ++m_launched;
    Runnable(i); // the new process runs its first iteration
    if (i + 1 < m_nNodes)
    {
        Launch(i + 1);
    }
    else
    {
        m_launchEnd = Simulator::Now();
    }
}

uint32_t
SendUdp::GetLaunched() const
{
    return m_launched;
}

bool
SendUdp::LaunchFailed() const
{
    return m_launchFailed;
}

Time
SendUdp::GetLaunchEnd() const
{
    return m_launchEnd;
}

void
SendUdp::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_cpu)
    {
        // The CPU may have started a wake-up without an event (a planned arrival) or owe the
        // ones due until now (an arrival counts as earlier than anything else at its instant):
        // it takes them first, while they are still this source's, then the source has none.
        m_cpu->ArrivalsChanged();
    }
    m_running = false;
    // The stopped nodes' pending wake-ups go (a restart draws new start times).
    m_wakeups.clear();
    if (m_cpu)
    {
        m_cpu->ArrivalsChanged(); // no more arrivals
    }
}

bool
SendUdp::PeekArrival(HostCpu::ArrivalSource::Arrival& next) const
{
    if (!m_running || m_wakeups.empty())
    {
        return false;
    }
    const Wakeup& w = m_wakeups.front();
    next.time = w.time;
    next.service = m_iterationCost;
    next.owner = m_firstPid + w.node;
    return true;
}

HostCpu::Completion
SendUdp::TakeArrival()
{
    const uint32_t i = m_wakeups.front().node;
    m_wakeups.pop_front();
    if (!m_wakeups.empty())
    {
        // The next node to wake (about one wake-up interval of this PC from now, other PCs'
        // work in between): its state starts loading into the cache, here its serial number
        // (written when it sends) and, through the hint, state kept per node elsewhere.
        const uint32_t next = m_wakeups.front().node;
        memoryhints::PrefetchForWrite(&m_serial[next]);
        m_cpu->PrefetchOwner(m_firstPid + next);
        if (!m_nextNodeHint.IsNull())
        {
            m_nextNodeHint(m_firstNodeId + next);
        }
    }
    HostCpu::Completion done;
    done.keptTagged = &m_iterated; // kept until the application is disposed
    done.tag = i;
    return done;
}

void
SendUdp::Runnable(uint32_t i)
{
    if (!m_running)
    {
        return;
    }
    if (!m_host)
    {
        Iterated(i);
        return;
    }
    m_host->GetCpu()->SubmitKept(HostCpu::PROCESS, m_iterationCost, m_firstPid + i, &m_iterated, i);
}

void
SendUdp::Iterated(uint32_t i)
{
    if (!m_running)
    {
        return;
    }
    // The clock is read once for the event (the send, the timer and the sleep use it).
    const Time now = fastpath::Now();
    if (!m_host)
    {
        SendPacket(i, now);
        Sleep(i, m_interval, now);
        return;
    }
    // The timestamp was taken just before the send path (sendto) began.
    SendPacket(i, now - m_sendCost);
    // sleep(Interval) on the OS timer, then the scheduling latency, then the run queue.
    Sleep(i, m_host->SleepDelay(nullptr, m_interval, now), now);
}

void
SendUdp::Sleep(uint32_t i, Time delay, Time now)
{
    NS_ASSERT(now == Simulator::Now());
    const int64_t at = (now + delay).GetTimeStep();
    bool earliest;
    if (m_starting)
    {
        // StartApplication sorts the start times once they are all queued.
        m_wakeups.push_back(Wakeup{at, i});
        earliest = false;
    }
    else
    {
        // After the last wake-up due at or before it (after those of the same instant too, whose
        // sleeps began earlier). The wake-ups of the nodes that slept in one tick of a jiffy
        // timer differ by their scheduling latencies only, so the place is among the last few:
        // searched from the back (a binary search over the rest if it is not).
        auto pos = m_wakeups.end();
        for (int steps = 0; pos != m_wakeups.begin() && std::prev(pos)->time > at; --pos)
        {
            if (++steps == 32)
            {
                pos = std::upper_bound(m_wakeups.begin(), pos, at, [](int64_t t, const Wakeup& w) {
                    return t < w.time;
                });
                break;
            }
        }
        earliest = pos == m_wakeups.begin();
        m_wakeups.insert(pos, Wakeup{at, i});
    }
    if (m_cpu)
    {
        // The CPU takes it when it falls due; it plans anew if this is now the earliest.
        if (earliest)
        {
            m_cpu->ArrivalsChanged();
        }
        return;
    }
    // One simulator event for the earliest wake-up. An earlier one replaces it, scheduled at
    // this instant as the node's own event would have been.
    if (m_wakeEventTime < 0 || at < m_wakeEventTime)
    {
        m_wakeEvent.Cancel();
        m_wakeEventTime = at;
        m_wakeEvent.Schedule(delay.GetTimeStep(), [this]() { Wake(); });
    }
}

void
SendUdp::Wake()
{
    const int64_t now = fastpath::NowStep();
    m_wakeEvent.Ran();
    m_wakeEventTime = -1;
    m_due.clear();
    while (!m_wakeups.empty() && m_wakeups.front().time <= now)
    {
        m_due.push_back(m_wakeups.front().node);
        m_wakeups.pop_front();
    }
    // The next wake-up is scheduled before the due nodes run, as the events of nodes that went
    // to sleep earlier were scheduled before anything these nodes schedule now.
    if (!m_wakeups.empty() && m_running)
    {
        m_wakeEventTime = m_wakeups.front().time;
        m_wakeEvent.Schedule(m_wakeEventTime - now, [this]() { Wake(); });
    }
    for (uint32_t i : m_due)
    {
        Runnable(i);
    }
}

void
SendUdp::AddIpUdpHeaders(Ptr<Packet> p, Ipv4Address src, Ipv4Address group, uint16_t port)
{
    const uint32_t payload = p->GetSize();
    UdpHeader udp;
    udp.SetSourcePort(port);
    udp.SetDestinationPort(port);
    if (Node::ChecksumEnabled())
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(src, group, UdpL4Protocol::PROT_NUMBER);
    }
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(src);
    ip.SetDestination(group);
    ip.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    ip.SetTtl(1);
    ip.SetPayloadSize(payload + 8);
    if (Node::ChecksumEnabled())
    {
        ip.EnableChecksum();
    }
    p->AddHeader(ip);
}

Ipv4Address
SendUdp::SourceAddress(Ptr<NetDevice> dev)
{
    Ptr<Ipv4> ipv4 = dev->GetNode()->GetObject<Ipv4>();
    if (ipv4)
    {
        int32_t i = ipv4->GetInterfaceForDevice(dev);
        if (i >= 0 && ipv4->GetNAddresses(i) > 0)
        {
            return ipv4->GetAddress(i, 0).GetLocal();
        }
    }
    return Ipv4Address("10.255.255.254");
}

Ptr<Packet>
SendUdp::BuildPacket(uint32_t i, Time timestamp) const
{
    SendUdpHeader h;
    h.SetTimestamp(timestamp);
    h.SetNodeId(m_firstNodeId + i);
    h.SetSerial(m_serial[i]);
    Ptr<Packet> p = Create<Packet>(m_packetSize - 20 - 8 - SendUdpHeader::SIZE);
    p->AddHeader(h);
    AddIpUdpHeaders(p, m_source, m_group, m_port);
    return p;
}

void
SendUdp::SendPacket(uint32_t i, Time timestamp)
{
    // The SendUdpHeader's 16 octets in network byte order (as SendUdpHeader::Serialize).
    auto put = [](uint8_t* b, uint64_t ts, uint32_t node, uint32_t serial) {
        for (int k = 7; k >= 0; --k)
        {
            *b++ = static_cast<uint8_t>(ts >> (8 * k));
        }
        for (int k = 3; k >= 0; --k)
        {
            *b++ = static_cast<uint8_t>(node >> (8 * k));
        }
        for (int k = 3; k >= 0; --k)
        {
            *b++ = static_cast<uint8_t>(serial >> (8 * k));
        }
    };
    const uint64_t ts = static_cast<uint64_t>(timestamp.GetNanoSeconds());
    if (m_lean)
    {
        // The lean path: a frame descriptor, no Packet.
        FrameDescriptor f{m_template, {}};
        put(f.var.data(), ts, m_firstNodeId + i, m_serial[i]);
        m_lean->SendFrame(f, m_srcMac, m_dstMac);
    }
    else
    {
        Ptr<Packet> p;
        if (m_datagram.empty())
        {
            p = BuildPacket(i, timestamp);
        }
        else
        {
            // The same octets as BuildPacket's, without serializing three headers per
            // datagram: the SendUdpHeader follows the IPv4 (20) and UDP (8) headers.
            put(m_datagram.data() + 20 + 8, ts, m_firstNodeId + i, m_serial[i]);
            p = Create<Packet>(m_datagram.data(), m_datagram.size());
        }
        m_device->Send(p, m_destination, Ipv4L3Protocol::PROT_NUMBER);
    }
    m_sendTrace(m_firstNodeId + i, m_serial[i], timestamp);
    ++m_serial[i];
    ++m_sent;
}

} // namespace ns3
