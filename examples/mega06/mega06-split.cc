/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mega06-split.h"

#include "ns3/igmp-l4-protocol.h"
#include "ns3/ipv4-address.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <csignal>
#include <sstream>

namespace ns3
{

Mega06SplitPart::Mega06SplitPart(Mega06Testbed& tb, const Mega06ScaleOptions& o)
    : m_tb(tb)
    , m_o(o)
    , m_stopStep(o.ObsEnd().GetTimeStep())
{
    const Mega06TestbedConfig& c = o.config;
    // The ports of this part: its sets' PCs', and in part 0 the querier's, the rest of the
    // network's, the trunk's and the whole 6009 (part 0 runs every set whose receiver is there).
    m_own.assign(tb.bridge->GetNPorts(), false);
    for (uint32_t i = 0; i < c.senderPcs; ++i)
    {
        m_own[tb.senderPorts[i]] = Mega06Testbed::SetHere(c, i / c.sendersPerGroup);
    }
    const uint32_t on6509 = c.receivers - c.receiversOn6009;
    for (uint32_t j = 0; j < on6509; ++j)
    {
        m_own[tb.receiverPorts[j]] = Mega06Testbed::SetHere(c, j);
    }
    if (tb.bridge6009)
    {
        m_own6009.assign(tb.bridge6009->GetNPorts(), c.partShared);
        for (uint32_t j = on6509; j < c.receivers; ++j)
        {
            NS_ABORT_MSG_IF(Mega06Testbed::SetHere(c, j) != c.partShared,
                            "mega-scale: receiver " << j << " is on the 6009 but its set is not "
                                                    << "in part 0");
        }
    }
    if (c.partShared)
    {
        m_own[tb.restPort] = true;
        if (tb.querier)
        {
            m_own[tb.querierPort] = true;
        }
        if (tb.bridge6009)
        {
            m_own[tb.trunkPort] = true;
        }
    }
    // Drops in the window at this part's ports (as the whole run's snapshots count them).
    for (auto [br, own] : {std::pair{tb.bridge, &m_own}, std::pair{tb.bridge6009, &m_own6009}})
    {
        if (br)
        {
            br->GetFabric()->TraceConnectWithoutContext(
                "Drop",
                Callback<void, Ptr<const Packet>, uint32_t, uint8_t>(
                    [this, own](Ptr<const Packet>, uint32_t port, uint8_t reason) {
                        Dropped(own, port, reason);
                    }));
        }
    }
    m_splitQ = o.querier;
    m_partA = m_splitQ && o.part == 0;
    // Another part's port takes nothing here (the router port of part 1: SetUpB).
    for (uint32_t p = 0; p < m_own.size(); ++p)
    {
        if (!m_own[p] && !(m_splitQ && p == tb.querierPort))
        {
            tb.bridge->SetPortDivert(
                p,
                Callback<void, const SwitchFabric::Frame&>(
                    [this](const SwitchFabric::Frame& f) { ToForeignPort(f); }));
        }
    }
    if (!m_splitQ)
    {
        return;
    }
    int rfd = -1;
    int wfd = -1;
    char comma = 0;
    std::istringstream(o.peer) >> rfd >> comma >> wfd;
    m_ex.Open(rfd, wfd, m_partA ? "part 0 (the querier's)" : "part 1");
    std::signal(SIGPIPE, SIG_IGN); // a closed pipe is a write error, reported
    m_qPort = DynamicCast<FullDuplexEthernetNetDevice>(tb.bridge->GetPort(tb.querierPort));
    for (uint32_t d = 0; d < tb.querier->GetNDevices() && !m_qNic; ++d)
    {
        m_qNic = DynamicCast<FullDuplexEthernetNetDevice>(tb.querier->GetDevice(d));
    }
    NS_ABORT_MSG_IF(!m_qPort || !m_qNic, "mega-scale: the querier's link is not full-duplex");
    // The shortest frame (64 octets and the preamble) on the querier's link: no frame the
    // querier hands to its NIC at t reaches the switch before t + this.
    const uint64_t bits
        = (FullDuplexEthernetNetDevice::PREAMBLE + FullDuplexEthernetNetDevice::MIN_FRAME) * 8;
    m_lookahead = int64_t(bits * 1000000000000ULL / m_qNic->GetDataRate().GetBitRate())
                  / TimeStep(1).GetPicoSeconds();
    NS_ABORT_MSG_IF(m_lookahead < 1, "mega-scale: no lookahead on the querier's link");
    m_lane0 = Mega06Testbed::PortContext(0, 0);
    m_qLane = Mega06Testbed::PortContext(0, tb.querierPort);
    if (m_partA)
    {
        SetUpA();
    }
    else
    {
        SetUpB();
    }
}

void
Mega06SplitPart::Dropped(const std::vector<bool>* own, uint32_t port, uint8_t reason)
{
    const Time now = Simulator::Now();
    if (now < m_o.ObsStart() || now >= m_o.ObsEnd() - TimeStep(1))
    {
        return; // outside the window (as the whole run's snapshots)
    }
    if (port < own->size() && (*own)[port])
    {
        ++m_ownDrops[reason];
    }
    else
    {
        ++m_foreignDrops;
    }
}

void
Mega06SplitPart::ToForeignPort(const SwitchFabric::Frame& f)
{
    // The querier's frames reach every part (part 1's by the exchange); any other frame for
    // another part's port is one that part does not simulate.
    if (!(m_tb.querier && f.inPort == m_tb.querierPort))
    {
        ++m_crossed;
    }
}

// A split with the querier (doc/mega.rst, "An exact split over processes"): part 0 (A) runs the
// querier and its sets, part 1 (B) the other sets. B diverts every frame that its switch would
// queue at the querier's router port to A, with its time and its ingress port's lane; A queues
// it there at that time in that lane. A sends B every frame of the querier's NIC with the time
// its last bit reaches the switch; B delivers it to the switch's querier port then.
// Conservative synchronisation: A runs no further than B's progress; B no further than A's
// promise, the earliest time a frame of the querier not yet sent could reach the switch (the
// querier's next IGMP timer, or now while a message is due and not yet on the wire, plus the
// shortest frame's time on the querier's link).

void
Mega06SplitPart::SetUpA()
{
    // Every frame the querier's NIC sends (IGMP: IPv4 to a group) goes to B with the time its
    // last bit reaches the switch.
    m_qNic->TraceConnectWithoutContext(
        "MacTx",
        Callback<void, Ptr<const Packet>>([this](Ptr<const Packet> p) { QuerierSent(p); }));
    m_promise = m_lookahead - 1; // nothing the querier sends reaches the switch before
    m_ex.Put(MSG_PROMISE);
    m_ex.Put(m_promise);
    m_ex.Flush();
    Simulator::Schedule(TimeStep(0), &Mega06SplitPart::BarrierA, this);
}

void
Mega06SplitPart::QuerierSent(Ptr<const Packet> p)
{
    ++m_qTx;
    const int64_t arrival = m_qNic->GetLastArrival().GetTimeStep();
    if (arrival <= m_promise)
    {
        m_ex.Fail("the querier's NIC sent a frame that reaches the switch at "
                  + std::to_string(arrival) + " but part 1 may already have run to "
                  + std::to_string(m_promise)
                  + ": the split's lookahead does not hold, this run cannot be split exactly");
    }
    const uint32_t n = p->GetSize();
    std::vector<uint8_t> b(n);
    p->CopyData(b.data(), n);
    if (n < 20 || (b[0] >> 4) != 4
        || !Ipv4Address((b[16] << 24) | (b[17] << 16) | (b[18] << 8) | b[19]).IsMulticast())
    {
        m_ex.Fail("the querier sent a frame that is not IPv4 multicast: this run cannot be split "
                  "exactly");
    }
    const Ipv4Address to((uint32_t(b[16]) << 24) | (b[17] << 16) | (b[18] << 8) | b[19]);
    m_ex.Put(MSG_FRAME);
    m_ex.Put(arrival);
    m_ex.Put(uint16_t(0x0800));
    m_ex.PutMac(m_qNic->GetMacAddress());
    m_ex.PutMac(Mac48Address::ConvertFrom(Mac48Address::GetMulticast(to)));
    m_ex.Put(n);
    m_ex.Put(b.data(), n);
}

void
Mega06SplitPart::BarrierA()
{
    ++m_exchangeEvents;
    const int64_t now = Simulator::Now().GetTimeStep();
    // Every event before now has run. The querier's next frame: now if a message is due and
    // not on the wire yet, else at its next IGMP timer at the earliest.
    int64_t next = now;
    if (m_tb.mrouted->GetQueriesDue() <= m_qTx)
    {
        UintegerValue itf;
        m_tb.mrouted->GetAttribute("Interface", itf);
        const Time t
            = m_tb.querier->GetObject<IgmpL4Protocol>()->GetNextRouterTransmission(itf.Get());
        next = t == Time::Max() ? now : std::max(now, t.GetTimeStep());
    }
    const int64_t p = std::min(next + m_lookahead - 1, m_stopStep - 1);
    if (p > m_promise)
    {
        m_promise = p;
        m_ex.Put(MSG_PROMISE);
        m_ex.Put(m_promise);
    }
    m_ex.Flush();
    Ptr<SnoopingBridgeNetDevice> br = m_tb.bridge;
    const uint32_t rp = m_tb.querierPort;
    // B's admissions until its progress reaches now.
    for (;;)
    {
        const uint8_t kind = m_ex.Get<uint8_t>();
        if (kind == MSG_PROGRESS)
        {
            const int64_t done = m_ex.Get<int64_t>();
            if (done >= now)
            {
                if (done + 1 < m_stopStep)
                {
                    Simulator::Schedule(TimeStep(done + 1 - now), &Mega06SplitPart::BarrierA, this);
                }
                return;
            }
            continue;
        }
        if (kind == MSG_TEMPLATE)
        {
            const uint32_t id = m_ex.Get<uint32_t>();
            const uint32_t off = m_ex.Get<uint32_t>();
            const uint16_t proto = m_ex.Get<uint16_t>();
            const uint32_t n = m_ex.Get<uint32_t>();
            std::vector<uint8_t> b(n);
            m_ex.Get(b.data(), n);
            if (id != m_templates.size())
            {
                m_ex.Fail("the exchange is out of order (template)");
            }
            m_templates.push_back(Create<FrameTemplate>(b, off, proto));
            continue;
        }
        if (kind != MSG_DESC && kind != MSG_PACKET)
        {
            m_ex.Fail("the exchange is out of order (unknown message)");
        }
        const int64_t at = m_ex.Get<int64_t>();
        const uint32_t lane = m_ex.Get<uint32_t>();
        SwitchFabric::Frame f;
        f.inPort = lane - m_lane0;
        if (kind == MSG_DESC)
        {
            const uint32_t id = m_ex.Get<uint32_t>();
            if (id >= m_templates.size())
            {
                m_ex.Fail("the exchange is out of order (descriptor)");
            }
            f.desc.tmpl = m_templates[id];
            m_ex.Get(f.desc.var.data(), f.desc.var.size());
            f.protocol = m_templates[id]->GetProtocol();
            f.src = m_ex.GetMac();
            f.dst = m_ex.GetMac();
        }
        else
        {
            f.protocol = m_ex.Get<uint16_t>();
            f.src = m_ex.GetMac();
            f.dst = m_ex.GetMac();
            const uint32_t n = m_ex.Get<uint32_t>();
            std::vector<uint8_t> b(n);
            m_ex.Get(b.data(), n);
            f.packet = Create<Packet>(b.data(), n);
        }
        if (at < now || f.inPort >= m_own.size() || m_own[f.inPort])
        {
            m_ex.Fail("an admission from part 1 is in the past or from a port of this part: the "
                      "exchange is inconsistent");
        }
        // At its time, in its ingress port's lane: the whole run's place in the order.
        Simulator::ScheduleWithContext(lane, TimeStep(at - now), [this, br, rp, f]() {
            ++m_exchangeEvents;
            br->InjectToPort(rp, f);
        });
    }
}

void
Mega06SplitPart::SetUpB()
{
    // What its switch would queue at the router port goes to A.
    m_tb.bridge->SetPortDivert(m_tb.querierPort,
                               Callback<void, const SwitchFabric::Frame&>(
                                   [this](const SwitchFabric::Frame& f) { ToRouterPort(f); }));
    Simulator::Schedule(TimeStep(0), &Mega06SplitPart::BarrierB, this);
}

void
Mega06SplitPart::ToRouterPort(const SwitchFabric::Frame& f)
{
    const int64_t now = Simulator::Now().GetTimeStep();
    const uint32_t lane = Simulator::GetContext();
    if (!f.packet)
    {
        // A switch strips a trunk's tag as the frame comes in: none reaches a port's divert.
        NS_ABORT_MSG_IF(f.desc.tagged, "Mega06SplitPart: a tagged frame at the router port");
        auto it = m_templateIds.find(PeekPointer(f.desc.tmpl));
        if (it == m_templateIds.end())
        {
            const uint32_t id = m_templates.size();
            it = m_templateIds.emplace(PeekPointer(f.desc.tmpl), id).first;
            m_templates.push_back(f.desc.tmpl); // kept: its address stays its own
            m_ex.Put(MSG_TEMPLATE);
            m_ex.Put(id);
            m_ex.Put(f.desc.tmpl->GetVarOffset());
            m_ex.Put(f.desc.tmpl->GetProtocol());
            m_ex.Put(f.desc.tmpl->GetSize());
            m_ex.Put(f.desc.tmpl->GetOctets(), f.desc.tmpl->GetSize());
        }
        m_ex.Put(MSG_DESC);
        m_ex.Put(now);
        m_ex.Put(lane);
        m_ex.Put(it->second);
        m_ex.Put(f.desc.var.data(), f.desc.var.size());
        m_ex.PutMac(f.src);
        m_ex.PutMac(f.dst);
    }
    else
    {
        const uint32_t n = f.packet->GetSize();
        std::vector<uint8_t> b(n);
        f.packet->CopyData(b.data(), n);
        m_ex.Put(MSG_PACKET);
        m_ex.Put(now);
        m_ex.Put(lane);
        m_ex.Put(f.protocol);
        m_ex.PutMac(f.src);
        m_ex.PutMac(f.dst);
        m_ex.Put(n);
        m_ex.Put(b.data(), n);
    }
}

void
Mega06SplitPart::BarrierB()
{
    ++m_exchangeEvents;
    const int64_t chunk = MilliSeconds(1).GetTimeStep();
    const int64_t now = Simulator::Now().GetTimeStep();
    m_ex.Put(MSG_PROGRESS);
    m_ex.Put(now - 1);
    m_ex.Flush();
    Ptr<FullDuplexEthernetNetDevice> dev = m_qPort;
    while (m_promise < now)
    {
        const uint8_t kind = m_ex.Get<uint8_t>();
        if (kind == MSG_PROMISE)
        {
            m_promise = m_ex.Get<int64_t>();
            continue;
        }
        if (kind != MSG_FRAME)
        {
            m_ex.Fail("the exchange is out of order (unknown message)");
        }
        const int64_t at = m_ex.Get<int64_t>();
        const uint16_t proto = m_ex.Get<uint16_t>();
        const Mac48Address src = m_ex.GetMac();
        const Mac48Address dst = m_ex.GetMac();
        const uint32_t n = m_ex.Get<uint32_t>();
        std::vector<uint8_t> b(n);
        m_ex.Get(b.data(), n);
        if (at < now)
        {
            m_ex.Fail("a frame of the querier arrives in this part's past: the exchange is "
                      "inconsistent");
        }
        Ptr<const Packet> pkt = Create<Packet>(b.data(), n);
        // At the switch's querier port, in its lane, when its last bit arrives: the event in
        // which part 0's port receives it (counted there).
        Simulator::ScheduleWithContext(m_qLane,
                                       TimeStep(at - now),
                                       [this, dev, pkt, src, dst, proto]() {
                                           ++m_exchangeEvents;
                                           dev->Deliver(pkt, src, dst, proto);
                                       });
    }
    const int64_t next = std::min(m_promise, now - 1 + chunk);
    if (next + 1 < m_stopStep)
    {
        Simulator::Schedule(TimeStep(next + 1 - now), &Mega06SplitPart::BarrierB, this);
    }
}

bool
Mega06SplitPart::Complete(Mega06ScaleTotals& t, uint64_t events)
{
    if (m_splitQ && !m_partA)
    {
        m_ex.Put(MSG_PROGRESS);
        m_ex.Put(m_stopStep - 1);
        m_ex.Flush();
    }
    t.switchDrops = m_ownDrops;
    t.events = events - m_exchangeEvents;
    // What couples the sets beyond what the split exchanges, counted: any makes it inexact.
    std::vector<std::pair<uint64_t, std::string>> coupled{
        {m_foreignDrops, "frames dropped at other parts' switch ports"},
        {m_crossed,
         "frames for other parts' switch ports, not from the querier (flooding or the trunk "
         "couples the sets)"}};
    if (m_splitQ)
    {
        // A simulated no frame of its own into B's PCs' switch ports (the lanes into which it
        // injects B's admissions); B's querier PC sent and received nothing (A's does).
        uint64_t own = 0;
        std::vector<uint32_t> pcPorts(m_tb.senderPorts);
        const uint32_t on6509 = m_o.config.receivers - m_o.config.receiversOn6009;
        pcPorts.insert(pcPorts.end(),
                       m_tb.receiverPorts.begin(),
                       m_tb.receiverPorts.begin() + on6509);
        for (uint32_t port : pcPorts)
        {
            if (m_partA && !m_own[port])
            {
                own += DynamicCast<FullDuplexEthernetNetDevice>(m_tb.bridge->GetPort(port))
                           ->GetStats()
                           .rxFrames;
            }
        }
        if (!m_partA)
        {
            own = m_qNic->GetStats().txFrames + m_qNic->GetStats().rxFrames;
        }
        coupled.emplace_back(own,
                             m_partA ? "frames of part 1's PCs simulated in part 0"
                                     : "frames on part 1's querier link");
    }
    for (const auto& [n, what] : coupled)
    {
        if (n > 0)
        {
            std::cerr << "mega-scale: part " << m_o.part << ": " << n << " " << what
                      << ": this run cannot be split exactly\n";
            return false;
        }
    }
    return true;
}

uint64_t
Mega06SplitPart::SkeletonEvents(const Mega06ScaleOptions& o, const ProgramOptions& opts)
{
    Mega06ScaleOptions idle = o;
    idle.config.partFirstSet = 0;
    idle.config.partSets = 0;
    idle.config.partShared = false;
    const uint64_t before = opts.GetEventCount();
    {
        Mega06Testbed tb = Mega06Testbed::Build(idle.config);
        Mega06ScaleProbes probes(tb, idle);
        Simulator::Stop(idle.ObsEnd());
        Simulator::Run();
    }
    const uint64_t events = opts.GetEventCount() - before;
    Simulator::Destroy();
    return events;
}

} // namespace ns3
