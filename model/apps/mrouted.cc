/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrouted.h"

#include "ns3/double.h"
#include "ns3/host-cpu.h"
#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/igmp-header.h"
#include "ns3/igmp-l4-protocol.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Mrouted");

NS_OBJECT_ENSURE_REGISTERED(Mrouted);

TypeId
Mrouted::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::Mrouted")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<Mrouted>()
              .AddAttribute("Interface",
                            "IPv4 interface index the querier runs on.",
                            UintegerValue(1),
                            MakeUintegerAccessor(&Mrouted::m_interface),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("WorkCost",
                            "CPU cycles of mrouted's own work per IGMP message (timer "
                            "handling, building the message), besides the send path.",
                            DoubleValue(5000),
                            MakeDoubleAccessor(&Mrouted::m_workCycles),
                            MakeDoubleChecker<double>(0, 1e9))
              .AddTraceSource("QuerySent",
                              "A general query went out (due time, send time).",
                              MakeTraceSourceAccessor(&Mrouted::m_queryTrace),
                              "ns3::Mrouted::QueryTracedCallback");
    return tid;
}

Mrouted::Mrouted()
    : m_interface(1)
    , m_workCycles(5000)
    , m_due(0)
    , m_queriesSent(0)
    , m_otherSent(0)
{
}

Mrouted::~Mrouted()
{
}

void
Mrouted::DoDispose()
{
    if (m_igmp)
    {
        m_igmp->SetTransmitHook(IgmpL4Protocol::TransmitHook());
    }
    m_igmp = nullptr;
    m_process = nullptr;
    m_pending.clear();
    Application::DoDispose();
}

uint64_t
Mrouted::GetQueriesDue() const
{
    return m_due;
}

uint64_t
Mrouted::GetQueriesSent() const
{
    return m_queriesSent;
}

uint64_t
Mrouted::GetOtherSent() const
{
    return m_otherSent;
}

uint64_t
Mrouted::GetPending() const
{
    return m_pending.size();
}

void
Mrouted::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_igmp = GetNode()->GetObject<IgmpL4Protocol>();
    NS_ABORT_MSG_IF(!m_igmp,
                    "Mrouted: node " << GetNode()->GetId()
                                     << " has no IgmpL4Protocol (IgmpHelper::Install)");
    Ptr<HostPlatform> host = GetNode()->GetObject<HostPlatform>();
    if (host)
    {
        m_process = host->CreateProcess();
        m_igmp->SetTransmitHook([this](std::function<void()> send) { Hook(std::move(send)); });
    }
    m_igmp->TraceConnectWithoutContext("Tx", MakeCallback(&Mrouted::Sent, this));
    m_igmp->EnableRouter(m_interface);
}

void
Mrouted::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_igmp)
    {
        m_igmp->DisableRouter(m_interface);
    }
}

void
Mrouted::Hook(std::function<void()> send)
{
    NS_LOG_FUNCTION(this);
    ++m_due;
    m_pending.push_back({Simulator::Now(), std::move(send)});
    // The timer wakes the process (a no-op if it is busy: it handles the event next), which
    // then does the work of sending.
    Ptr<HostPlatform> host = m_process->GetPlatform();
    const uint32_t bytes = 24 + 8; // IPv4 header with Router Alert + IGMPv2 message
    Time cost = host->GetCpu()->CyclesToTime(m_workCycles) + host->GetSendCost(bytes);
    m_process->Wake(Callback<void>());
    m_process->Execute(cost, MakeCallback(&Mrouted::Transmit, this));
}

void
Mrouted::Transmit()
{
    NS_ASSERT(!m_pending.empty());
    Pending p = std::move(m_pending.front());
    m_pending.pop_front();
    m_currentDue = p.due;
    p.send();
}

void
Mrouted::Sent(const IgmpHeader& msg, uint32_t ifIndex, Ipv4Address dst)
{
    if (msg.GetType() == IgmpHeader::MEMBERSHIP_QUERY && msg.GetGroup() == Ipv4Address::GetAny())
    {
        ++m_queriesSent;
        Time due = m_process ? m_currentDue : Simulator::Now();
        NS_LOG_INFO("general query due " << due.As(Time::S) << " sent "
                                         << Simulator::Now().As(Time::S));
        m_queryTrace(due, Simulator::Now());
    }
    else
    {
        ++m_otherSent;
    }
}

} // namespace ns3
