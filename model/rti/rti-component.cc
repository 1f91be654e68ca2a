/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-component.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiComponent");

NS_OBJECT_ENSURE_REGISTERED(RtiComponent);

TypeId
RtiComponent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiComponent").SetParent<Object>().SetGroupName("Testbed");
    return tid;
}

RtiComponent::RtiComponent()
    : m_pending(0)
    , m_charged(0)
    , m_readScheduled(false)
{
}

RtiComponent::~RtiComponent()
{
}

void
RtiComponent::DoDispose()
{
    m_ready.clear();
    m_process = nullptr;
    m_platform = nullptr;
    m_node = nullptr;
    m_settings = nullptr;
    Object::DoDispose();
}

void
RtiComponent::Attach(Ptr<Node> node, Ptr<RtiSettings> settings)
{
    m_node = node;
    m_settings = settings;
    m_platform = node->GetObject<HostPlatform>();
    NS_ABORT_MSG_IF(!m_platform,
                    "RTI component on node " << node->GetId()
                                             << " needs a HostPlatform (HostPlatformHelper)");
    m_process = m_platform->CreateProcess();
}

Ptr<HostProcess>
RtiComponent::GetProcess() const
{
    return m_process;
}

Ptr<RtiSettings>
RtiComponent::GetSettings() const
{
    return m_settings;
}

Ptr<Node>
RtiComponent::GetNode() const
{
    return m_node;
}

double
RtiComponent::GetCyclesCharged() const
{
    return m_charged;
}

double
RtiComponent::ToCycles(Time t) const
{
    return t.GetSeconds() * m_platform->GetCpu()->GetFrequency();
}

void
RtiComponent::Charge(double cycles)
{
    m_pending += cycles;
    m_charged += cycles;
}

void
RtiComponent::Do(std::function<void()> action)
{
    Time cost = m_platform->GetCpu()->CyclesToTime(m_pending);
    m_pending = 0;
    m_process->Execute(cost, Callback<void>(action));
}

void
RtiComponent::Flush()
{
    if (m_pending > 0)
    {
        Time cost = m_platform->GetCpu()->CyclesToTime(m_pending);
        m_pending = 0;
        m_process->Execute(cost);
    }
}

void
RtiComponent::Transmit(Ptr<RtiConnection> conn, const RtiMessage& msg)
{
    uint32_t bytes = msg.GetSerializedSize();
    Charge(m_settings->EncodeCycles(bytes) + ToCycles(m_platform->GetSendCost(bytes)));
    Do([conn, msg]() { conn->Send(msg); });
}

void
RtiComponent::Watch(Ptr<RtiConnection> conn)
{
    conn->SetDataCallback(MakeCallback(&RtiComponent::DataAvailable, this));
    if (conn->HasData())
    {
        DataAvailable(conn);
    }
}

void
RtiComponent::DataAvailable(Ptr<RtiConnection> conn)
{
    if (std::find(m_ready.begin(), m_ready.end(), conn) == m_ready.end())
    {
        m_ready.push_back(conn);
    }
    if (!m_readScheduled)
    {
        m_readScheduled = true;
        m_process->Wake(MakeCallback(&RtiComponent::ReadNext, this));
    }
}

void
RtiComponent::ReadNext()
{
    m_readScheduled = false;
    if (m_ready.empty())
    {
        return;
    }
    Ptr<RtiConnection> conn = m_ready.front();
    m_ready.pop_front();
    RtiConnection::Chunk chunk = conn->Receive();
    if (chunk.bytes > 0)
    {
        Charge(ToCycles(m_platform->GetRecvCost(chunk.bytes)));
    }
    for (const auto& msg : chunk.messages)
    {
        Charge(m_settings->DecodeCycles(msg.GetSerializedSize()));
        HandleMessage(conn, msg);
    }
    Flush();
    if (conn->HasData() && std::find(m_ready.begin(), m_ready.end(), conn) == m_ready.end())
    {
        m_ready.push_back(conn);
    }
    if (!m_ready.empty() && !m_readScheduled)
    {
        m_readScheduled = true;
        m_process->Wake(MakeCallback(&RtiComponent::ReadNext, this));
    }
}

} // namespace ns3
