/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-channel.h"

#include "ethernet-net-device.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetChannel");

NS_OBJECT_ENSURE_REGISTERED(EthernetChannel);
NS_OBJECT_ENSURE_REGISTERED(EthernetHub);

namespace
{
/** Speed of light in vacuum (m/s). */
constexpr double SPEED_OF_LIGHT = 299792458.0;
} // namespace

TypeId
EthernetChannel::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::EthernetChannel")
              .SetParent<Channel>()
              .SetGroupName("Testbed")
              .AddConstructor<EthernetChannel>()
              .AddAttribute("VelocityFactor",
                            "Nominal velocity of propagation of the cable, as a fraction of c. "
                            "Category 5 UTP: 0.64-0.70 in cable datasheets; IEEE 802.3 clause "
                            "25/40 allows down to 0.585 (5.7 ns/m).",
                            DoubleValue(0.65),
                            MakeDoubleAccessor(&EthernetChannel::m_velocityFactor),
                            MakeDoubleChecker<double>(0.4, 1.0))
              .AddAttribute("RepeaterDelay",
                            "Delay of a hub's repeater between two ports (a point-to-point cable "
                            "has no repeater and ignores it). Default: the budget of a 100BASE-T "
                            "Class II repeater, 92 bit times (IEEE 802.3 29.3.1.3, Table 29-3).",
                            TimeValue(NanoSeconds(920)),
                            MakeTimeAccessor(&EthernetChannel::m_repeaterDelay),
                            MakeTimeChecker(Seconds(0), MicroSeconds(100)))
              .AddAttribute("Rate",
                            "Port rate of a hub (its repeater's), bit/s.",
                            DataRateValue(DataRate("100Mbps")),
                            MakeDataRateAccessor(&EthernetChannel::m_hubRate),
                            MakeDataRateChecker());
    return tid;
}

EthernetChannel::EthernetChannel()
    : m_hub(false)
    , m_velocityFactor(0.65)
    , m_hubRate(DataRate("100Mbps"))
{
    NS_LOG_FUNCTION(this);
}

EthernetChannel::~EthernetChannel()
{
}

void
EthernetChannel::DoDispose()
{
    m_signals.clear();
    m_devices.clear();
    Channel::DoDispose();
}

uint32_t
EthernetChannel::Attach(Ptr<EthernetNetDevice> device, double cableLength)
{
    NS_LOG_FUNCTION(this << device << cableLength);
    NS_ABORT_MSG_IF(!device, "EthernetChannel::Attach: null device");
    NS_ABORT_MSG_IF(!(cableLength >= 0 && cableLength <= 2000),
                    "EthernetChannel::Attach: cable length " << cableLength
                                                             << " m outside [0, 2000] m");
    NS_ABORT_MSG_IF(!m_hub && m_devices.size() >= 2,
                    "EthernetChannel: a point-to-point cable has two ends (use an EthernetHub)");
    const Time delay = Seconds(cableLength / (m_velocityFactor * SPEED_OF_LIGHT));
    m_devices.push_back(device);
    m_cable.push_back(m_hub ? delay : delay / 2);
    uint32_t index = static_cast<uint32_t>(m_devices.size() - 1);
    Negotiate();
    return index;
}

std::size_t
EthernetChannel::GetNDevices() const
{
    return m_devices.size();
}

Ptr<NetDevice>
EthernetChannel::GetDevice(std::size_t i) const
{
    return m_devices.at(i);
}

bool
EthernetChannel::IsHub() const
{
    return m_hub;
}

uint64_t
EthernetChannel::GetHubRate() const
{
    return m_hubRate.GetBitRate();
}

Time
EthernetChannel::GetDelay(uint32_t from, uint32_t to) const
{
    return m_cable[from] + m_cable[to] + (m_hub ? m_repeaterDelay : Time(0));
}

void
EthernetChannel::Negotiate()
{
    NS_LOG_FUNCTION(this);
    using D = EthernetNetDevice;
    Ptr<EthernetChannel> self(this);
    auto check = [](uint64_t rate, bool full) {
        NS_ABORT_MSG_IF(!full && rate > 100000000,
                        "EthernetChannel: half duplex at "
                            << rate
                            << " bit/s is not modelled (1000BASE-T "
                               "half duplex needs carrier extension)");
    };
    if (m_hub)
    {
        // Every repeater port is half duplex at the hub's rate: an AUTO station detects the rate
        // (parallel detection, 28.2.3.1) and runs half duplex; a forced station runs as forced.
        Ptr<D> d = m_devices.back();
        uint32_t i = static_cast<uint32_t>(m_devices.size() - 1);
        const uint64_t hubRate = m_hubRate.GetBitRate();
        uint64_t rate = d->GetDuplexSetting() == D::AUTO ? hubRate : d->GetDataRate().GetBitRate();
        NS_ABORT_MSG_IF(rate != hubRate || d->GetDataRate().GetBitRate() < hubRate,
                        "EthernetChannel: a " << d->GetDataRate().GetBitRate()
                                              << " bit/s NIC cannot link with a " << hubRate
                                              << " bit/s hub port");
        bool full = d->GetDuplexSetting() == D::FORCED_FULL;
        check(rate, full);
        d->SetLink(self, i, DataRate(rate), full);
        return;
    }
    if (m_devices.size() < 2)
    {
        return;
    }
    Ptr<D> a = m_devices[0];
    Ptr<D> b = m_devices[1];
    const uint64_t ra = a->GetDataRate().GetBitRate();
    const uint64_t rb = b->GetDataRate().GetBitRate();
    uint64_t rate = 0;
    bool fullA = false;
    bool fullB = false;
    if (a->GetDuplexSetting() == D::AUTO && b->GetDuplexSetting() == D::AUTO)
    {
        // Clause 28: the highest common ability; every NIC of these rates can do full duplex.
        rate = std::min(ra, rb);
        fullA = fullB = true;
    }
    else if (a->GetDuplexSetting() == D::AUTO || b->GetDuplexSetting() == D::AUTO)
    {
        // Parallel detection (28.2.3.1): the autonegotiating end detects the forced end's rate
        // from its idle signal and can only assume half duplex.
        Ptr<D> autoEnd = a->GetDuplexSetting() == D::AUTO ? a : b;
        Ptr<D> forced = autoEnd == a ? b : a;
        rate = forced->GetDataRate().GetBitRate();
        NS_ABORT_MSG_IF(autoEnd->GetDataRate().GetBitRate() < rate,
                        "EthernetChannel: the autonegotiating NIC cannot run at the forced "
                        "partner's "
                            << rate << " bit/s");
        bool forcedFull = forced->GetDuplexSetting() == D::FORCED_FULL;
        fullA = autoEnd == a ? false : forcedFull;
        fullB = autoEnd == b ? false : forcedFull;
    }
    else
    {
        NS_ABORT_MSG_IF(ra != rb,
                        "EthernetChannel: both ends forced, to " << ra << " and " << rb
                                                                 << " bit/s: no link");
        rate = ra;
        fullA = a->GetDuplexSetting() == D::FORCED_FULL;
        fullB = b->GetDuplexSetting() == D::FORCED_FULL;
    }
    check(rate, fullA);
    check(rate, fullB);
    a->SetLink(self, 0, DataRate(rate), fullA);
    b->SetLink(self, 1, DataRate(rate), fullB);
}

uint64_t
EthernetChannel::TransmitStart(uint32_t from,
                               Ptr<const Packet> frame,
                               Time duration,
                               bool abortable)
{
    const uint64_t id = m_nextId++;
    const uint64_t wireBits
        = static_cast<uint64_t>(EthernetNetDevice::PREAMBLE + frame->GetSize()) * 8;
    Signal* sig = nullptr;
    if (abortable)
    {
        sig = &m_signals[id];
        sig->from = from;
        sig->start = Simulator::Now();
        sig->duration = duration;
        sig->frame = frame;
        sig->whole = true;
        sig->wireBits = wireBits;
        sig->endTimes.assign(m_devices.size(), Time::Max());
    }
    for (uint32_t to = 0; to < m_devices.size(); ++to)
    {
        if (to == from)
        {
            continue;
        }
        Ptr<EthernetNetDevice> dev = m_devices[to];
        const Time d = GetDelay(from, to);
        const uint32_t context = ContextOf(dev);
        if (m_hub || dev->NeedsSignalStarts())
        {
            Simulator::ScheduleWithContext(context, d, [dev, id]() { dev->SignalStart(id); });
        }
        if (sig)
        {
            sig->endTimes[to] = Simulator::Now() + d + duration;
            ++sig->pendingEnds;
            Simulator::ScheduleWithContext(context, d + duration, [this, id, to]() {
                AbortableEnd(id, to);
            });
            continue;
        }
        Ptr<const Packet> copy = frame;
        if (m_devices.size() > 2)
        {
            copy = frame->Copy();
        }
        const bool tracked = m_hub || dev->NeedsSignalStarts();
        Simulator::ScheduleWithContext(context, d + duration, [dev, id, copy, wireBits, tracked]() {
            dev->SignalEnd(id, copy, true, wireBits, tracked);
        });
    }
    if (sig && sig->pendingEnds == 0)
    {
        m_signals.erase(id);
    }
    return id;
}

void
EthernetChannel::TransmitAbort(uint64_t id, Time duration)
{
    auto it = m_signals.find(id);
    NS_ASSERT_MSG(it != m_signals.end(), "EthernetChannel: abort of an unknown signal " << id);
    Signal& s = it->second;
    NS_ASSERT(duration <= s.duration);
    s.duration = duration;
    s.whole = false;
    Ptr<EthernetNetDevice> sender = m_devices[s.from];
    const double bits = duration.GetSeconds() * sender->GetLinkRate().GetBitRate();
    s.wireBits = static_cast<uint64_t>(bits + 0.5);
    for (uint32_t to = 0; to < m_devices.size(); ++to)
    {
        if (to == s.from || s.endTimes[to] == Time::Max())
        {
            continue; // the sender, or an end already delivered
        }
        const Time end = s.start + GetDelay(s.from, to) + duration;
        if (end == s.endTimes[to])
        {
            continue; // the pending event still fits (it reads whole = false)
        }
        // The old event becomes stale (its time no longer matches); a new one at the new end.
        s.endTimes[to] = end;
        Simulator::ScheduleWithContext(ContextOf(m_devices[to]),
                                       end - Simulator::Now(),
                                       [this, id, to]() { AbortableEnd(id, to); });
    }
}

void
EthernetChannel::AbortableEnd(uint64_t id, uint32_t to)
{
    auto it = m_signals.find(id);
    if (it == m_signals.end() || it->second.endTimes[to] != Simulator::Now())
    {
        return; // superseded by an abort
    }
    Signal& s = it->second;
    s.endTimes[to] = Time::Max();
    Ptr<const Packet> frame = s.frame;
    if (m_devices.size() > 2)
    {
        frame = frame->Copy();
    }
    const bool whole = s.whole;
    const uint64_t wireBits = s.wireBits;
    if (--s.pendingEnds == 0)
    {
        m_signals.erase(it);
    }
    Ptr<EthernetNetDevice> dev = m_devices[to];
    dev->SignalEnd(id, frame, whole, wireBits, m_hub || dev->NeedsSignalStarts());
}

uint32_t
EthernetChannel::ContextOf(Ptr<EthernetNetDevice> dev)
{
    Ptr<Node> node = dev->GetNode();
    return node ? node->GetId() : Simulator::NO_CONTEXT;
}

// --------------------------------------------------------------------------------------------

TypeId
EthernetHub::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EthernetHub")
                            .SetParent<EthernetChannel>()
                            .SetGroupName("Testbed")
                            .AddConstructor<EthernetHub>();
    return tid;
}

EthernetHub::EthernetHub()
{
    m_hub = true;
}

} // namespace ns3
