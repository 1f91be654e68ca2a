/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "neighbour-probe.h"

#include "ns3/abort.h"
#include "ns3/arp-header.h"
#include "ns3/arp-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NeighbourProbe");
NS_OBJECT_ENSURE_REGISTERED(NeighbourProbe);

TypeId
NeighbourProbe::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NeighbourProbe")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<NeighbourProbe>()
              .AddAttribute("BaseReachableTime",
                            "base_reachable_time: reachable_time is drawn from [base/2, "
                            "3 base/2). Linux 2.4/2.6 default 30 s (net/ipv4/arp.c arp_tbl).",
                            TimeValue(Seconds(30)),
                            MakeTimeAccessor(&NeighbourProbe::m_base),
                            MakeTimeChecker(MilliSeconds(2), Seconds(86400)))
              .AddAttribute("DelayFirstProbeTime",
                            "delay_first_probe_time: from the first use of a STALE entry to "
                            "the probe. Linux 2.4/2.6 default 5 s (arp_tbl).",
                            TimeValue(Seconds(5)),
                            MakeTimeAccessor(&NeighbourProbe::m_delayFirst),
                            MakeTimeChecker(Seconds(0), Seconds(3600)))
              .AddAttribute("ReachableTimeRedraw",
                            "How often reachable_time is drawn again. Linux 2.6: every 300 s "
                            "(neigh_periodic_work).",
                            TimeValue(Seconds(300)),
                            MakeTimeAccessor(&NeighbourProbe::m_redraw),
                            MakeTimeChecker(MilliSeconds(1), Seconds(86400)))
              .AddAttribute("FirstProbe",
                            "Time of the first probe after the start (negative: uniform over "
                            "the first cycle, the entry's phase at the start not being known)",
                            TimeValue(Seconds(-1)),
                            MakeTimeAccessor(&NeighbourProbe::m_firstProbe),
                            MakeTimeChecker())
              .AddTraceSource("Tx",
                              "A probe the adapter accepted (with its ARP header)",
                              MakeTraceSourceAccessor(&NeighbourProbe::m_txTrace),
                              "ns3::Packet::TracedCallback");
    return tid;
}

NeighbourProbe::NeighbourProbe()
    : m_base(Seconds(30))
    , m_delayFirst(Seconds(5))
    , m_redraw(Seconds(300))
    , m_firstProbe(Seconds(-1))
    , m_uniform(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

NeighbourProbe::~NeighbourProbe()
{
    NS_LOG_FUNCTION(this);
}

void
NeighbourProbe::SetTarget(Ptr<NetDevice> device,
                          Ipv4Address self,
                          const Address& neighbourMac,
                          Ipv4Address neighbour)
{
    NS_LOG_FUNCTION(this << device << self << neighbourMac << neighbour);
    m_device = device;
    m_self = self;
    m_neighbourMac = neighbourMac;
    m_neighbour = neighbour;
}

uint64_t
NeighbourProbe::GetProbes() const
{
    return m_probes;
}

int64_t
NeighbourProbe::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    return 1;
}

void
NeighbourProbe::DoDispose()
{
    m_event.Cancel();
    m_device = nullptr;
    m_uniform = nullptr;
    Application::DoDispose();
}

void
NeighbourProbe::DrawReachableTime()
{
    // neigh_rand_reach_time: (base >> 1) + random % base
    m_reachable = m_base / 2 + m_base * m_uniform->GetValue(0.0, 1.0);
    m_lastDraw = Simulator::Now();
}

Time
NeighbourProbe::Cycle() const
{
    return m_reachable + m_delayFirst;
}

void
NeighbourProbe::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_device, "NeighbourProbe: no neighbour (SetTarget)");
    NS_ABORT_MSG_IF(m_device->GetNode() != GetNode(),
                    "NeighbourProbe: the adapter is not on the application's node");
    DrawReachableTime();
    const Time first
        = m_firstProbe.IsNegative() ? Cycle() * m_uniform->GetValue(0.0, 1.0) : m_firstProbe;
    m_event = Simulator::Schedule(first, &NeighbourProbe::Probe, this);
}

void
NeighbourProbe::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
}

void
NeighbourProbe::Probe()
{
    NS_LOG_FUNCTION(this);
    ArpHeader arp;
    // A unicast probe: to the cached hardware address (arp_solicit with the entry's address)
    arp.SetRequest(m_device->GetAddress(), m_self, m_neighbourMac, m_neighbour);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(arp);
    if (m_device->Send(p, m_neighbourMac, ArpL3Protocol::PROT_NUMBER))
    {
        ++m_probes;
        m_txTrace(p);
    }
    if (Simulator::Now() - m_lastDraw >= m_redraw)
    {
        DrawReachableTime();
    }
    m_event = Simulator::Schedule(Cycle(), &NeighbourProbe::Probe, this);
}

} // namespace ns3
