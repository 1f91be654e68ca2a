/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-nic.h"

#include "host-cpu.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ethernet-port.h"
#include "ns3/fast-path.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostNic");

NS_OBJECT_ENSURE_REGISTERED(HostNic);

TypeId
HostNic::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::HostNic")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<HostNic>()
              .AddAttribute("RxRingSize",
                            "Receive descriptors: frames that find the ring full are dropped by "
                            "the NIC.",
                            UintegerValue(256),
                            MakeUintegerAccessor(&HostNic::m_ringSize),
                            MakeUintegerChecker<uint32_t>(1, 1 << 20))
              .AddAttribute("MaxInterruptRate",
                            "Interrupt moderation: at most this many interrupts per second "
                            "(0 = unmoderated).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostNic::m_maxInterruptRate),
                            MakeDoubleChecker<double>(0.0, 1e8))
              .AddAttribute("InterruptDelay",
                            "Receive interrupt delay: time from a frame's arrival to the "
                            "interrupt it raises (coalescing timer).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&HostNic::m_interruptDelay),
                            MakeTimeChecker(Seconds(0), Seconds(1)))
              .AddAttribute("BundleTimer",
                            "Receive interrupt bundling (the e100's CPUSaver microcode): a "
                            "received frame that does not interrupt at once (BundleMax, "
                            "BundleSmallSize) starts or restarts this dead-man timer, whose "
                            "expiry raises the interrupt. 0: off (InterruptDelay applies).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&HostNic::m_bundleTimer),
                            MakeTimeChecker(Seconds(0), Seconds(1)))
              .AddAttribute("BundleMax",
                            "Receive interrupt bundling: the NIC interrupts at once when this "
                            "many frames wait (the e100 driver's default, 6).",
                            UintegerValue(6),
                            MakeUintegerAccessor(&HostNic::m_bundleMax),
                            MakeUintegerChecker<uint32_t>(1, 65535))
              .AddAttribute("BundleSmallSize",
                            "Receive interrupt bundling: a frame shorter than this (octets, "
                            "its Ethernet header and payload) interrupts at once (the e100 "
                            "driver's default mask, frames under 128 octets). 0: none.",
                            UintegerValue(128),
                            MakeUintegerAccessor(&HostNic::m_bundleSmall),
                            MakeUintegerChecker<uint32_t>(0, 65536))
              .AddAttribute("RxDmaRate",
                            "The NIC writes a received frame into the host's memory after its "
                            "FCS, over the host's I/O bus at this rate, one frame after the "
                            "other; the frame counts for the interrupt (and the poll) from "
                            "then. 0: at once (no bus stage).",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&HostNic::m_rxDmaRate),
                            MakeDataRateChecker())
              .AddAttribute("RegisterReadTime",
                            "Time per interrupt the handler stalls its CPU on uncached reads of "
                            "the NIC's registers (the interrupt status), on top of "
                            "InterruptCost: bus time, not CPU cycles.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&HostNic::m_registerReadTime),
                            MakeTimeChecker(Seconds(0), MilliSeconds(1)))
              .AddAttribute("TxFetchDelay",
                            "The NIC's fetch of a transmit descriptor and of the frame's first "
                            "bytes over the host's I/O bus before its transmission may start "
                            "(the device's EthernetPort TxFetchDelay; another device takes "
                            "only 0).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&HostNic::SetTxFetchDelay),
                            MakeTimeChecker(Seconds(0), MilliSeconds(10)))
              .AddAttribute("InterruptCost",
                            "CPU cycles per interrupt (entry, handler, exit), HARDIRQ class.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostNic::m_interruptCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("DriverCost",
                            "CPU cycles per frame in the driver (descriptor, buffer).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostNic::m_driverCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("StackCost",
                            "CPU cycles per frame in the kernel's protocol stack (softirq): "
                            "link, IP, transport, socket queue or IP forwarding.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostNic::m_stackCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("StackCostPerByte",
                            "CPU cycles per byte of frame in the protocol stack (checksum, copy).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&HostNic::m_stackCyclesPerByte),
                            MakeDoubleChecker<double>(0.0, 1e6))
              .AddAttribute("ColdLines",
                            "Cache lines the receive path of one frame refills from memory "
                            "(the frame's descriptor and buffer, the socket and protocol state "
                            "another CPU or an earlier frame left elsewhere), drawn per frame; "
                            "each costs the CPU's MemoryLatency on top of StackCost. Empty: "
                            "none (the per-frame cost is deterministic).",
                            PointerValue(),
                            MakePointerAccessor(&HostNic::m_coldLines),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("Napi",
                            "true: NAPI polling driver; false: legacy interrupt-driven driver "
                            "with a backlog queue.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&HostNic::m_napi),
                            MakeBooleanChecker())
              .AddAttribute("SoftirqThread",
                            "true: the softirq runs in a kernel thread (bottom halves in a "
                            "kernel daemon, as RedHawk's): woken when frames wait and none is "
                            "in service, it pays the CPU's ContextSwitchCost before its first "
                            "frame, and sleeps again when it finds nothing; false: the "
                            "softirq runs on the interrupt's return, with no switch.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&HostNic::m_softirqThread),
                            MakeBooleanChecker())
              .AddAttribute("MaxPacketsPerInterrupt",
                            "Legacy driver: frames the interrupt handler takes from the ring per "
                            "interrupt (0 = all).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&HostNic::m_maxPerInterrupt),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("BacklogLimit",
                            "Legacy driver: softirq input queue length (netdev_max_backlog).",
                            UintegerValue(300),
                            MakeUintegerAccessor(&HostNic::m_backlogLimit),
                            MakeUintegerChecker<uint32_t>(1, 1 << 20))
              .AddTraceSource("RxRingDrop",
                              "A frame was dropped because the receive ring was full.",
                              MakeTraceSourceAccessor(&HostNic::m_ringDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("BacklogDrop",
                              "A frame was dropped because the backlog queue was full.",
                              MakeTraceSourceAccessor(&HostNic::m_backlogDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("Interrupt",
                              "The NIC interrupted the CPU.",
                              MakeTraceSourceAccessor(&HostNic::m_interruptTrace),
                              "ns3::HostNic::InterruptTracedCallback")
              .AddTraceSource("Deliver",
                              "A frame was passed up the stack after its processing.",
                              MakeTraceSourceAccessor(&HostNic::m_deliverTrace),
                              "ns3::HostNic::DeliverTracedCallback");
    return tid;
}

HostNic::HostNic()
    : m_handlerFrames(0)
    , m_irqPending(false)
    , m_irqMasked(false)
    , m_softirqBusy(false)
    , m_softirqAwake(false)
    , m_softirqWakeUps(0)
    , m_lastInterrupt(Seconds(-1))
    , m_received(0)
    , m_ringDrops(0)
    , m_backlogDrops(0)
    , m_interrupts(0)
    , m_delivered(0)
{
    m_legacyHandlerDoneCb = MakeCallback(&HostNic::LegacyHandlerDone, this);
    m_pollCb = MakeCallback(&HostNic::MaybeSoftirq, this);
    m_softirqDoneCb = MakeCallback(&HostNic::SoftirqDone, this);
}

HostNic::~HostNic()
{
}

void
HostNic::DoDispose()
{
    m_irqEvent.Cancel();
    m_ring.clear();
    m_backlog.clear();
    m_cpu = nullptr;
    m_coldLines = nullptr;
    m_device = nullptr;
    m_deliver = DeliverCallback();
    m_intercept = InterceptCallback();
    m_frameIntercept = FrameInterceptCallback();
    m_legacyHandlerDoneCb = Callback<void>();
    m_pollCb = Callback<void>();
    m_softirqDoneCb = Callback<void>();
    Object::DoDispose();
}

void
HostNic::Setup(Ptr<HostCpu> cpu, Ptr<NetDevice> device, DeliverCallback deliver)
{
    m_cpu = cpu;
    m_device = device;
    m_deliver = deliver;
    ApplyTxFetchDelay();
}

void
HostNic::SetTxFetchDelay(Time delay)
{
    m_txFetchDelay = delay;
    ApplyTxFetchDelay();
}

void
HostNic::ApplyTxFetchDelay()
{
    if (!m_device)
    {
        return;
    }
    if (Ptr<EthernetPort> port = DynamicCast<EthernetPort>(m_device))
    {
        port->SetAttribute("TxFetchDelay", TimeValue(m_txFetchDelay));
        return;
    }
    NS_ABORT_MSG_IF(m_txFetchDelay.IsStrictlyPositive(),
                    "HostNic: TxFetchDelay " << m_txFetchDelay.As(Time::US) << " on a "
                                             << m_device->GetInstanceTypeId().GetName()
                                             << ", which has no transmit fetch stage (only "
                                                "Ethernet devices take one)");
}

Ptr<NetDevice>
HostNic::GetDevice() const
{
    return m_device;
}

void
HostNic::SetIntercept(InterceptCallback intercept)
{
    m_intercept = intercept;
}

void
HostNic::SetFrameIntercept(FrameInterceptCallback intercept)
{
    m_frameIntercept = intercept;
}

Time
HostNic::DmaDone(uint32_t payload, Time now)
{
    if (m_rxDmaRate.GetBitRate() == 0)
    {
        return now;
    }
    // The frame from its header to its last data octet (the FCS stays in the NIC), padded to
    // the minimum frame.
    const uint32_t bytes = std::max<uint32_t>(payload + 14, 60);
    m_rxDmaFree = Max(m_rxDmaFree, now) + m_rxDmaRate.CalculateBytesTxTime(bytes);
    return m_rxDmaFree;
}

Ptr<const Packet>
HostNic::PacketOf(const Frame& frame)
{
    return frame.packet ? frame.packet : Ptr<const Packet>(frame.desc.MakePacket());
}

int64_t
HostNic::AssignStreams(int64_t stream)
{
    if (!m_coldLines)
    {
        return 0;
    }
    m_coldLines->SetStream(stream);
    return 1;
}

bool
HostNic::HasVariability() const
{
    return m_coldLines != nullptr;
}

uint64_t
HostNic::GetRxRingDrops() const
{
    return m_ringDrops;
}

uint64_t
HostNic::GetBacklogDrops() const
{
    return m_backlogDrops;
}

uint64_t
HostNic::GetSoftirqWakeUps() const
{
    return m_softirqWakeUps;
}

uint64_t
HostNic::GetInterrupts() const
{
    return m_interrupts;
}

uint64_t
HostNic::GetDelivered() const
{
    return m_delivered;
}

uint64_t
HostNic::GetReceived() const
{
    return m_received;
}

void
HostNic::Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType packetType)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    NS_ASSERT_MSG(m_cpu, "HostNic used before Setup()");
    ++m_received;
    if (m_ring.size() >= m_ringSize)
    {
        ++m_ringDrops;
        m_ringDropTrace(packet);
        return;
    }
    const Time now = fastpath::Now();
    m_ring.push_back({device,
                      packet,
                      {},
                      protocol,
                      std::make_unique<const std::pair<Address, Address>>(from, to),
                      Mac48Address(),
                      packetType,
                      now,
                      DmaDone(packet->GetSize(), now)});
    MaybeInterrupt(false, now);
}

void
HostNic::ReceiveFrame(Ptr<EthernetPort> device,
                      const FrameDescriptor& frame,
                      Mac48Address source,
                      Mac48Address dest)
{
    NS_ASSERT_MSG(m_cpu, "HostNic used before Setup()");
    // As Node::NonPromiscReceiveFromDevice hands it to the node's handler for the device: the
    // device's own address as destination, a host packet.
    if (!dest.IsGroup() && dest != device->GetMacAddress())
    {
        return; // another host's unicast: the device does not pass it up
    }
    ++m_received;
    if (m_ring.size() >= m_ringSize)
    {
        ++m_ringDrops;
        if (!m_ringDropTrace.IsEmpty())
        {
            m_ringDropTrace(frame.MakePacket());
        }
        return;
    }
    // The ns-3 Addresses (source, the device's own) are made only if the frame goes up the
    // stack (Deliver).
    // Built in place, no move of the Frame (field by field: clang before 16, the Debug build's
    // compiler, has no C++20 aggregate initialization from parentheses).
    Frame& f = m_ring.emplace_back();
    f.device = device;
    f.desc = frame;
    f.protocol = frame.GetProtocol();
    f.fromMac = source;
    f.packetType = NetDevice::PACKET_HOST;
    // The clock is read once for the event (the arrival, the interrupt's timing and start).
    const Time now = fastpath::Now();
    f.arrival = now;
    f.ready = DmaDone(frame.GetSize(), now);
    MaybeInterrupt(true, now);
}

void
HostNic::MaybeInterrupt(bool atOnce)
{
    if (m_irqPending || m_irqMasked || m_ring.size() <= m_handlerFrames)
    {
        return;
    }
    MaybeInterrupt(atOnce, fastpath::Now());
}

void
HostNic::MaybeInterrupt(bool atOnce, Time now)
{
    NS_ASSERT(now == Simulator::Now());
    if (m_irqMasked || m_ring.size() <= m_handlerFrames)
    {
        return;
    }
    const bool bundling = m_bundleTimer.IsStrictlyPositive();
    if (m_irqPending)
    {
        if (!bundling)
        {
            return;
        }
        // A frame arrived while the dead-man timer runs: it restarts it, or ends the bundle.
        m_irqEvent.Cancel();
        m_irqPending = false;
    }
    // The coalescing timer runs from the oldest frame not yet taken by a handler, from when
    // it is in the host's memory; a bundling NIC's from the newest.
    Time at = bundling ? BundleDue() : m_ring[m_handlerFrames].ready + m_interruptDelay;
    if (m_maxInterruptRate > 0 && !m_lastInterrupt.IsStrictlyNegative())
    {
        at = Max(at, m_lastInterrupt + Seconds(1.0 / m_maxInterruptRate));
    }
    at = Max(at, now);
    m_irqPending = true;
    if (atOnce && at == now && !m_cpu->IsCompleting(now))
    {
        // An interrupt scheduled now would run after the events already due at this instant;
        // on this node those can only be a CPU completion (checked: none) or a process becoming
        // runnable, whose work the interrupt preempts either way.
        Interrupt(now);
        return;
    }
    m_irqEvent.Schedule((at - now).GetTimeStep(), [this]() {
        m_irqEvent.Ran();
        Interrupt(fastpath::Now());
    });
}

Time
HostNic::BundleDue() const
{
    const Frame& newest = m_ring.back();
    const uint32_t size
        = (newest.packet ? newest.packet->GetSize() : newest.desc.GetSize()) + ETHERNET_HEADER;
    const bool atOnce = size < m_bundleSmall || m_ring.size() - m_handlerFrames >= m_bundleMax;
    return newest.ready + (atOnce ? Time(0) : m_bundleTimer);
}

void
HostNic::Interrupt(Time now)
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(now == Simulator::Now());
    m_irqPending = false;
    m_irqMasked = true;
    m_lastInterrupt = now;
    ++m_interrupts;
    m_interruptTrace(m_ring.size());
    if (m_napi)
    {
        // The handler masks the NIC's interrupts and schedules the poll.
        m_cpu->SubmitKept(HostCpu::HARDIRQ,
                          m_cpu->CyclesToTime(m_interruptCycles) + m_registerReadTime,
                          HostCpu::KERNEL,
                          &m_pollCb);
        return;
    }
    // The frames in the host's memory (those still in DMA come with a later interrupt).
    uint32_t n = m_ring.size();
    if (m_rxDmaRate.GetBitRate() > 0)
    {
        n = 0;
        while (n < m_ring.size() && m_ring[n].ready <= now)
        {
            ++n;
        }
    }
    if (m_maxPerInterrupt > 0 && n > m_maxPerInterrupt)
    {
        n = m_maxPerInterrupt;
    }
    m_handlerFrames = n;
    m_cpu->SubmitKept(HostCpu::HARDIRQ,
                      m_cpu->CyclesToTime(m_interruptCycles + n * m_driverCycles)
                          + m_registerReadTime,
                      HostCpu::KERNEL,
                      &m_legacyHandlerDoneCb);
}

void
HostNic::LegacyHandlerDone()
{
    NS_LOG_FUNCTION(this << m_handlerFrames);
    for (uint32_t i = 0; i < m_handlerFrames; ++i)
    {
        if (m_backlog.size() >= m_backlogLimit)
        {
            ++m_backlogDrops;
            if (!m_backlogDropTrace.IsEmpty())
            {
                m_backlogDropTrace(PacketOf(m_ring.front()));
            }
        }
        else
        {
            m_backlog.push_back(std::move(m_ring.front()));
        }
        m_ring.pop_front();
    }
    m_handlerFrames = 0;
    m_irqMasked = false;
    MaybeSoftirq();
    MaybeInterrupt();
}

Time
HostNic::StackTime(const Frame& frame) const
{
    const uint32_t size = frame.packet ? frame.packet->GetSize() : frame.desc.GetSize();
    double cycles = m_stackCycles + m_stackCyclesPerByte * size;
    if (m_napi)
    {
        cycles += m_driverCycles;
    }
    Time t = m_cpu->CyclesToTime(cycles);
    if (m_coldLines)
    {
        // Cache and bus state: the lines this frame's processing finds cold.
        const double lines = std::max(0.0, m_coldLines->GetValue());
        t += NanoSeconds(std::llround(lines * m_cpu->GetMemoryLatency().GetNanoSeconds()));
    }
    return t;
}

void
HostNic::MaybeSoftirq()
{
    if (m_softirqBusy)
    {
        return;
    }
    const std::deque<Frame>& input = m_napi ? m_ring : m_backlog;
    // The poll finds a frame still in DMA as not there yet (its interrupt comes when it is).
    if (input.empty() || (m_napi && input.front().ready > fastpath::Now()))
    {
        m_softirqAwake = false; // the daemon sleeps
        if (m_napi)
        {
            // Poll found the ring empty: unmask interrupts.
            m_irqMasked = false;
            MaybeInterrupt();
        }
        return;
    }
    m_softirqBusy = true;
    Time t = StackTime(input.front());
    if (m_softirqThread && !m_softirqAwake)
    {
        // The softirq daemon is woken: a switch into it before its first frame.
        t += m_cpu->CyclesToTime(m_cpu->GetContextSwitchCycles());
        ++m_softirqWakeUps;
    }
    m_softirqAwake = true;
    m_cpu->SubmitKept(HostCpu::SOFTIRQ, t, HostCpu::KERNEL, &m_softirqDoneCb);
}

void
HostNic::SoftirqDone()
{
    std::deque<Frame>& input = m_napi ? m_ring : m_backlog;
    NS_ASSERT(!input.empty());
    // Delivered in place, then removed: no copy or move of the frame. Deliver does not touch
    // the queue (the CPU calls no completion during it, and frames arrive in events of their
    // own), and the softirq counts as busy until the frame is gone.
    const Frame& frame = input.front();
    [[maybe_unused]] const std::size_t queued = input.size();
    Deliver(frame);
    NS_ASSERT_MSG(input.size() == queued && &input.front() == &frame,
                  "HostNic: the softirq's queue changed while a frame was delivered");
    input.pop_front();
    m_softirqBusy = false;
    MaybeSoftirq();
}

void
HostNic::Deliver(const Frame& frame)
{
    ++m_delivered;
    if (!frame.packet && !m_frameIntercept.IsNull() && m_deliverTrace.IsEmpty()
        && m_frameIntercept(frame.desc))
    {
        return;
    }
    Ptr<const Packet> packet = PacketOf(frame);
    m_deliverTrace(packet, fastpath::Now() - frame.arrival);
    if (!m_intercept.IsNull() && m_intercept(packet, frame.protocol))
    {
        return;
    }
    if (!frame.packet)
    {
        m_deliver(frame.device,
                  packet,
                  frame.protocol,
                  frame.fromMac,
                  frame.device->GetAddress(),
                  frame.packetType);
        return;
    }
    m_deliver(frame.device,
              packet,
              frame.protocol,
              frame.addresses->first,
              frame.addresses->second,
              frame.packetType);
}

} // namespace ns3
