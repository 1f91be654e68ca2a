/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-platform.h"

#include "ns3/double.h"
#include "ns3/ethernet-port.h"
#include "ns3/ideal-timer.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostPlatform");

NS_OBJECT_ENSURE_REGISTERED(HostPlatform);

TypeId
HostPlatform::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::HostPlatform")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<HostPlatform>()
              .AddAttribute("ReferenceCycleFactor",
                            "Cycles this CPU needs for middleware work that a MIPS R10000 does in "
                            "one cycle (per-clock speed of the R10000 over this CPU's, e.g. from "
                            "SPECint results); scales cost profiles written in R10000 cycles "
                            "(RtiLrc). Host costs (SendCost, HostNic) are in this CPU's own "
                            "cycles and are not scaled.",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&HostPlatform::m_referenceCycleFactor),
                            MakeDoubleChecker<double>(0.01, 100.0))
              .AddAttribute("Cpu",
                            "The CPU model, e.g. \"ns3::HostCpu[Frequency=1e9|Cores=1]\".",
                            StringValue("ns3::HostCpu"),
                            MakePointerAccessor(&HostPlatform::m_cpu),
                            MakePointerChecker<HostCpu>())
              .AddAttribute("Timer",
                            "The OS timer processes sleep on (e.g. jiffies of a Linux 2.6 kernel).",
                            StringValue("ns3::IdealTimer"),
                            MakePointerAccessor(&HostPlatform::m_timer),
                            MakePointerChecker<TimerModel>())
              .AddAttribute("SchedulingLatency",
                            "OS latency from a wake-up event (timer expiry, packet for a blocked "
                            "reader) to the process being runnable, in seconds (negative draws "
                            "count as 0). CPU contention comes on top, from the run queue.",
                            StringValue("ns3::ConstantRandomVariable[Constant=0.0]"),
                            MakePointerAccessor(&HostPlatform::m_schedLatency),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("SendCost",
                            "CPU cycles for a process to send one message (system call, "
                            "transport, IP, driver transmit).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_sendCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("SendCostPerByte",
                            "CPU cycles per byte sent (copy and checksum).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_sendCyclesPerByte),
                            MakeDoubleChecker<double>(0.0, 1e6))
              .AddAttribute("RecvCost",
                            "CPU cycles for a process to read one message (system call).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_recvCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("RecvCostPerByte",
                            "CPU cycles per byte read (copy to user space).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_recvCyclesPerByte),
                            MakeDoubleChecker<double>(0.0, 1e6))
              .AddAttribute("Memory",
                            "Installed memory (octets) for process memory accounting "
                            "(AllocateMemory); 0: unlimited.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostPlatform::m_memory),
                            MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 50))
              .AddAttribute("BaseMemory",
                            "Memory (octets) the kernel, its tables and the system's daemons "
                            "occupy before any experiment process starts.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostPlatform::m_baseMemory),
                            MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 50))
              .AddAttribute("ProcessMemory",
                            "Memory (octets) one minimal process occupies (kernel stack, page "
                            "directory and tables, task and file structures, its private user "
                            "pages).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostPlatform::m_processMemory),
                            MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 40))
              .AddAttribute("ProcessLaunchCost",
                            "CPU cycles to start one process (fork + execve of a small "
                            "dynamically linked program, by the launching shell).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_launchCycles),
                            MakeDoubleChecker<double>(0.0, 1e10))
              .AddAttribute("SyscallCost",
                            "CPU cycles of one cheap system call (lmbench null I/O): a clock read "
                            "(gettimeofday), a semaphore operation that does not block, a "
                            "non-blocking read that finds nothing.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_syscallCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("WaitCost",
                            "CPU cycles a process spends on its own CPU for one blocking wait "
                            "ended by another CPU's event: the blocking call beyond its entry, "
                            "the switch away, the wake-up path and the switch back (lmbench pipe "
                            "latency minus two system calls).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_waitCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("SendOffPathCost",
                            "CPU cycles the sending process spends per datagram after the frame "
                            "was handed to the device (the rest of the send call, reclaiming "
                            "transmitted buffers in the caller's context): off the datagram's "
                            "latency, on the sender's throughput.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_sendOffCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("RecvOffPathCost",
                            "CPU cycles the reading process spends per datagram read, after the "
                            "data is in user space (buffer and socket bookkeeping): off the "
                            "datagram's latency, on the reader's throughput.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_recvOffCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("TxCompletionCost",
                            "CPU cycles of the kernel's transmit completion per frame sent (the "
                            "completion interrupt, freeing the buffer), HARDIRQ work on the "
                            "interrupt core (NotifyTransmitted).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostPlatform::m_txCompletionCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("UdpReceiveBuffer",
                            "Default receive buffer of a UDP socket in bytes (SO_RCVBUF; 0 = "
                            "unlimited); a datagram that does not fit is dropped.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostPlatform::m_udpRcvBuf),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("SocketBufferCharge",
                            "Bytes a queued datagram counts against a socket's receive buffer at "
                            "least (the kernel buffer that holds it, e.g. an sk_buff's truesize "
                            "or an mbuf cluster); a larger datagram counts its size.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostPlatform::m_sockCharge),
                            MakeUintegerChecker<uint32_t>(0, 1u << 20))
              .AddAttribute("TxQueueLength",
                            "Packets an interface's transmit queue holds (Linux txqueuelen, BSD "
                            "ifq_maxlen); used by programs that install the host's queueing "
                            "discipline.",
                            UintegerValue(100),
                            MakeUintegerAccessor(&HostPlatform::m_txQueueLength),
                            MakeUintegerChecker<uint32_t>(1, 1u << 20))
              .AddAttribute("Profile",
                            "Name of the profile the platform was configured from (information).",
                            StringValue(""),
                            MakeStringAccessor(&HostPlatform::m_profile),
                            MakeStringChecker());
    return tid;
}

HostPlatform::HostPlatform()
    : m_sendCycles(0)
    , m_sendCyclesPerByte(0)
    , m_recvCycles(0)
    , m_recvCyclesPerByte(0)
    , m_referenceCycleFactor(1.0)
    , m_nextPid(1)
    , m_memory(0)
    , m_baseMemory(0)
    , m_allocated(0)
    , m_processMemory(0)
    , m_launchCycles(0)
    , m_syscallCycles(0)
    , m_waitCycles(0)
    , m_sendOffCycles(0)
    , m_recvOffCycles(0)
    , m_txCompletionCycles(0)
    , m_udpRcvBuf(0)
    , m_sockCharge(0)
    , m_txQueueLength(100)
{
    m_nicFactory.SetTypeId(HostNic::GetTypeId());
}

HostPlatform::~HostPlatform()
{
}

void
HostPlatform::DoDispose()
{
    for (auto& p : m_processes)
    {
        p->Dispose();
    }
    m_processes.clear();
    for (auto& [dev, nic] : m_nics)
    {
        nic->Dispose();
    }
    m_nics.clear();
    m_udpBindings.clear();
    if (m_cpu)
    {
        m_cpu->Dispose();
    }
    m_cpu = nullptr;
    m_timer = nullptr;
    m_schedLatency = nullptr;
    m_node = nullptr;
    Object::DoDispose();
}

void
HostPlatform::DoInitialize()
{
    m_cpu->Initialize();
    Object::DoInitialize();
}

void
HostPlatform::NotifyNewAggregate()
{
    if (!m_node)
    {
        m_node = GetObject<Node>();
    }
    Object::NotifyNewAggregate();
}

Ptr<HostCpu>
HostPlatform::GetCpu() const
{
    return m_cpu;
}

Ptr<TimerModel>
HostPlatform::GetTimer() const
{
    return m_timer;
}

Time
HostPlatform::DrawSchedulingLatency()
{
    return Seconds(std::max(0.0, m_schedLatency->GetValue()));
}

Time
HostPlatform::SleepDelay(Ptr<TimerModel> timer, Time delay)
{
    return SleepDelay(timer, delay, Simulator::Now());
}

Time
HostPlatform::SleepDelay(Ptr<TimerModel> timer, Time delay, Time now)
{
    NS_ASSERT(now == Simulator::Now());
    Time fire = (timer ? timer : m_timer)->GetFireTime(now, delay);
    Time latency = DrawSchedulingLatency(); // drawn after the timer's own draws
    return fire - now + latency;
}

Ptr<HostProcess>
HostPlatform::CreateProcess()
{
    Ptr<HostProcess> p = CreateObject<HostProcess>();
    p->Setup(this, m_nextPid++);
    m_processes.push_back(p);
    return p;
}

uint32_t
HostPlatform::ReservePids(uint32_t n)
{
    NS_LOG_FUNCTION(this << n);
    NS_ABORT_MSG_IF(n == 0, "HostPlatform::ReservePids: n must be >= 1");
    NS_ABORT_MSG_IF(m_nextPid > UINT32_MAX - n,
                    "HostPlatform::ReservePids: " << n << " more process ids do not fit");
    uint32_t first = m_nextPid;
    m_nextPid += n;
    return first;
}

bool
HostPlatform::AllocateMemory(uint64_t bytes)
{
    const uint64_t used = GetMemoryUsed();
    if (m_memory > 0 && (used > m_memory || bytes > m_memory - used))
    {
        return false;
    }
    m_allocated += bytes;
    return true;
}

uint64_t
HostPlatform::GetMemoryUsed() const
{
    return m_baseMemory + m_allocated;
}

uint64_t
HostPlatform::GetProcessMemory() const
{
    return m_processMemory;
}

Time
HostPlatform::GetLaunchCost() const
{
    return m_cpu->CyclesToTime(m_launchCycles);
}

double
HostPlatform::GetReferenceCycleFactor() const
{
    return m_referenceCycleFactor;
}

Time
HostPlatform::GetSendCost(uint32_t bytes) const
{
    return m_cpu->CyclesToTime(m_sendCycles + m_sendCyclesPerByte * bytes);
}

Time
HostPlatform::GetRecvCost(uint32_t bytes) const
{
    return m_cpu->CyclesToTime(m_recvCycles + m_recvCyclesPerByte * bytes);
}

Time
HostPlatform::GetSyscallCost() const
{
    return m_cpu->CyclesToTime(m_syscallCycles);
}

Time
HostPlatform::GetWaitCost() const
{
    return m_cpu->CyclesToTime(m_waitCycles);
}

Time
HostPlatform::GetSendOffPathCost() const
{
    return m_cpu->CyclesToTime(m_sendOffCycles);
}

Time
HostPlatform::GetRecvOffPathCost() const
{
    return m_cpu->CyclesToTime(m_recvOffCycles);
}

void
HostPlatform::NotifyTransmitted()
{
    if (m_txCompletionCycles > 0)
    {
        m_cpu->SubmitKept(HostCpu::HARDIRQ,
                          m_cpu->CyclesToTime(m_txCompletionCycles),
                          HostCpu::KERNEL,
                          static_cast<const Callback<void>*>(nullptr));
    }
}

uint32_t
HostPlatform::GetUdpReceiveBuffer() const
{
    return m_udpRcvBuf;
}

uint32_t
HostPlatform::GetSocketBufferCharge(uint32_t bytes) const
{
    return std::max(bytes, m_sockCharge);
}

uint32_t
HostPlatform::GetTxQueueLength() const
{
    return m_txQueueLength;
}

void
HostPlatform::SetNicFactory(const ObjectFactory& factory)
{
    NS_ABORT_MSG_IF(factory.GetTypeId() != HostNic::GetTypeId(),
                    "HostPlatform::SetNicFactory: factory must create ns3::HostNic");
    m_nicFactory = factory;
}

Ptr<HostNic>
HostPlatform::GetNic(Ptr<NetDevice> device) const
{
    auto it = m_nics.find(device);
    return it == m_nics.end() ? nullptr : it->second;
}

Ptr<HostNic>
HostPlatform::InstallNic(Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!m_node, "HostPlatform::InstallNic: the platform is not aggregated to a Node");
    NS_ABORT_MSG_IF(device->GetNode() != m_node,
                    "HostPlatform::InstallNic: device belongs to another node");
    NS_ABORT_MSG_IF(DynamicCast<LoopbackNetDevice>(device),
                    "HostPlatform::InstallNic: no NIC model on the loopback device");
    Ptr<TrafficControlLayer> tc = m_node->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_IF(!tc,
                    "HostPlatform::InstallNic: node " << m_node->GetId()
                                                      << " has no internet stack; install it "
                                                         "and assign addresses first");
    Ptr<Ipv4L3Protocol> ipv4 = m_node->GetObject<Ipv4L3Protocol>();
    Ptr<Ipv6L3Protocol> ipv6 = m_node->GetObject<Ipv6L3Protocol>();
    bool hasL3 = (ipv4 && ipv4->GetInterfaceForDevice(device) >= 0)
                 || (ipv6 && ipv6->GetInterfaceForDevice(device) >= 0);
    NS_ABORT_MSG_IF(!hasL3,
                    "HostPlatform::InstallNic: device " << device->GetIfIndex() << " of node "
                                                        << m_node->GetId()
                                                        << " has no IP interface; assign "
                                                           "addresses before installing hosts");
    if (m_nics.count(device))
    {
        return m_nics[device];
    }
    Ptr<HostNic> nic = m_nicFactory.Create<HostNic>();
    nic->Setup(m_cpu, device, MakeCallback(&TrafficControlLayer::Receive, tc));
    m_nics[device] = nic;
    if (Ptr<EthernetPort> port = DynamicCast<EthernetPort>(device))
    {
        // Frame descriptors (the lean MAC's path) go to the NIC model as they are: the node's
        // handler for IPv4 on this device is the NIC model (Interpose).
        port->SetFrameReceiveCallback(MakeCallback(&HostNic::ReceiveFrame, nic));
    }
    Interpose();
    UpdateIntercepts();
    return nic;
}

void
HostPlatform::BindUdpMulticast(uint16_t port, UdpMulticastSink sink)
{
    NS_LOG_FUNCTION(this << port);
    for (auto& b : m_udpBindings)
    {
        if (b.port == port)
        {
            b.sink = sink;
            return;
        }
    }
    m_udpBindings.push_back({port, sink});
    UpdateIntercepts();
}

void
HostPlatform::UnbindUdpMulticast(uint16_t port)
{
    NS_LOG_FUNCTION(this << port);
    for (auto it = m_udpBindings.begin(); it != m_udpBindings.end(); ++it)
    {
        if (it->port == port)
        {
            m_udpBindings.erase(it);
            UpdateIntercepts();
            return;
        }
    }
}

void
HostPlatform::UpdateIntercepts()
{
    HostNic::InterceptCallback cb;
    HostNic::FrameInterceptCallback frameCb;
    if (!m_udpBindings.empty())
    {
        cb = MakeCallback(&HostPlatform::DeliverUdpMulticast, this);
        frameCb = MakeCallback(&HostPlatform::DeliverUdpMulticastFrame, this);
    }
    for (auto& [dev, nic] : m_nics)
    {
        nic->SetIntercept(cb);
        nic->SetFrameIntercept(frameCb);
    }
}

bool
HostPlatform::ChecksumsOn()
{
    // Read once, at the first datagram (a GlobalValue look-up costs as much as the rest of the
    // delivery): ChecksumEnabled is a program-wide setting made before the simulation, as
    // SendUdp reads it once at its start.
    if (m_checksums < 0)
    {
        m_checksums = Node::ChecksumEnabled() ? 1 : 0;
    }
    return m_checksums == 1;
}

bool
HostPlatform::DeliverUdpMulticast(Ptr<const Packet> packet, uint16_t protocol)
{
    constexpr uint32_t kIpUdp = 20 + 8;
    if (protocol != Ipv4L3Protocol::PROT_NUMBER || ChecksumsOn())
    {
        return false;
    }
    uint8_t h[kIpUdp];
    if (packet->CopyData(h, kIpUdp) < kIpUdp)
    {
        return false;
    }
    // IPv4 without options, UDP, not a fragment (MF clear, offset 0), to 224.0.0.0/4, whole.
    const uint32_t total = (static_cast<uint32_t>(h[2]) << 8) | h[3];
    if (h[0] != 0x45 || h[9] != 17 || (h[6] & 0x3f) != 0 || h[7] != 0 || (h[16] >> 4) != 0xe
        || total < kIpUdp || total > packet->GetSize())
    {
        return false;
    }
    const uint16_t port = static_cast<uint16_t>((h[22] << 8) | h[23]);
    for (const auto& b : m_udpBindings)
    {
        if (b.port == port)
        {
            if (!b.sink.IsNull())
            {
                UdpDatagram d;
                d.group = Ipv4Address((static_cast<uint32_t>(h[16]) << 24) | (h[17] << 16)
                                      | (h[18] << 8) | h[19]);
                d.offset = kIpUdp;
                d.size = total - kIpUdp;
                d.packet = packet;
                b.sink(d);
            }
            return true;
        }
    }
    return false;
}

bool
HostPlatform::DeliverUdpMulticastFrame(const FrameDescriptor& frame)
{
    const FrameTemplate::Udp& u = frame.tmpl->GetUdp();
    if (!u.valid || frame.tagged || ChecksumsOn())
    {
        return false;
    }
    for (const auto& b : m_udpBindings)
    {
        if (b.port == u.port)
        {
            if (!b.sink.IsNull())
            {
                UdpDatagram d;
                d.group = u.group;
                d.offset = u.offset;
                d.size = u.size;
                d.frame = &frame;
                b.sink(d);
            }
            return true;
        }
    }
    return false;
}

void
HostPlatform::UdpDatagram::CopyPayload(uint8_t* buf, uint32_t n) const
{
    NS_ABORT_MSG_IF(n > size || n > 64, "UdpDatagram::CopyPayload: " << n << " octets");
    if (frame && offset == frame->tmpl->GetVarOffset() && n <= FrameTemplate::VAR)
    {
        std::memcpy(buf, frame->var.data(), n); // the variable octets are the payload's start
        return;
    }
    uint8_t b[64 + 64];
    const uint32_t got = frame ? frame->CopyData(b, offset + n) : packet->CopyData(b, offset + n);
    NS_ABORT_MSG_IF(got < offset + n, "UdpDatagram::CopyPayload: short frame");
    std::memcpy(buf, b + offset, n);
}

void
HostPlatform::Interpose()
{
    // ns-3's internet stack registers TrafficControlLayer::Receive as the node's handler for
    // IPv4 and ARP (and IPv6) on every device with an IP interface. Node offers no way to list
    // or replace a single registration, so all of them are removed and registered again, with
    // the NIC model's handler on devices that have one.
    Ptr<TrafficControlLayer> tc = m_node->GetObject<TrafficControlLayer>();
    Ptr<Ipv4L3Protocol> ipv4 = m_node->GetObject<Ipv4L3Protocol>();
    Ptr<Ipv6L3Protocol> ipv6 = m_node->GetObject<Ipv6L3Protocol>();
    auto tcHandler = MakeCallback(&TrafficControlLayer::Receive, tc);
    // Node::UnregisterProtocolHandler removes only the first matching entry, and each handler is
    // registered once per (device, protocol): at most three protocols per device (IPv4, ARP,
    // IPv6). Removing more often than there are entries is harmless.
    const uint32_t maxEntries = 3 * m_node->GetNDevices();
    for (uint32_t k = 0; k < maxEntries; ++k)
    {
        m_node->UnregisterProtocolHandler(tcHandler);
        for (auto& [dev, nic] : m_nics)
        {
            m_node->UnregisterProtocolHandler(MakeCallback(&HostNic::Receive, nic));
        }
    }
    for (uint32_t i = 0; i < m_node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> dev = m_node->GetDevice(i);
        if (DynamicCast<LoopbackNetDevice>(dev))
        {
            continue; // the loopback's handler is Ipv4L3Protocol::Receive itself
        }
        std::vector<uint16_t> protocols;
        if (ipv4 && ipv4->GetInterfaceForDevice(dev) >= 0)
        {
            protocols.push_back(Ipv4L3Protocol::PROT_NUMBER);
            protocols.push_back(0x0806); // ARP
        }
        if (ipv6 && ipv6->GetInterfaceForDevice(dev) >= 0)
        {
            protocols.push_back(Ipv6L3Protocol::PROT_NUMBER);
        }
        auto it = m_nics.find(dev);
        for (uint16_t proto : protocols)
        {
            if (it != m_nics.end())
            {
                m_node->RegisterProtocolHandler(MakeCallback(&HostNic::Receive, it->second),
                                                proto,
                                                dev);
            }
            else
            {
                m_node->RegisterProtocolHandler(tcHandler, proto, dev);
            }
        }
    }
}

int64_t
HostPlatform::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    m_schedLatency->SetStream(stream + used++);
    used += m_timer->AssignStreams(stream + used);
    // The CPU's own streams only where it has sporadic interference (profiles without it keep
    // the stream numbering they always had).
    if (m_cpu->HasInterference())
    {
        used += m_cpu->AssignStreams(stream + used);
    }
    // NICs with a random per-frame part (profiles without it keep their numbering). NICs
    // installed after this call keep the default streams.
    for (auto& [dev, nic] : m_nics)
    {
        used += nic->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
