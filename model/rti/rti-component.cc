/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-component.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

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
    , m_turnDepth(0)
    , m_externalTurn(false)
{
}

RtiComponent::~RtiComponent()
{
}

void
RtiComponent::DoDispose()
{
    m_ready.clear();
    m_output.clear();
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
    if (m_settings->GetWriteBatching() && !DynamicCast<RtiUdpConnection>(conn))
    {
        Charge(m_settings->EncodeCycles(bytes));
        auto it = std::find_if(m_output.begin(), m_output.end(), [&conn](const auto& e) {
            return e.first == conn;
        });
        if (it == m_output.end())
        {
            m_output.emplace_back(conn, std::vector<RtiMessage>{msg});
        }
        else
        {
            it->second.push_back(msg);
        }
        if (m_turnDepth == 0)
        {
            CallTurn(); // a send outside any turn: written at the end of this event
        }
        return;
    }
    Charge(m_settings->EncodeCycles(bytes) + ToCycles(m_platform->GetSendCost(bytes)));
    Do([conn, msg]() { conn->Send(msg); });
}

void
RtiComponent::BeginTurn()
{
    ++m_turnDepth;
}

void
RtiComponent::EndTurn()
{
    NS_ASSERT(m_turnDepth > 0);
    if (--m_turnDepth > 0)
    {
        return;
    }
    // The I/O thread: one write per connection, in the order the connections were used.
    auto output = std::move(m_output);
    m_output.clear();
    for (auto& [conn, msgs] : output)
    {
        uint32_t bytes = 0;
        for (const auto& m : msgs)
        {
            bytes += m.GetSerializedSize();
        }
        Charge(ToCycles(m_platform->GetSendCost(bytes)));
        Ptr<RtiConnection> c = conn;
        std::vector<RtiMessage> batch = std::move(msgs);
        Do([c, batch]() { c->SendBatch(batch); });
    }
    Flush();
}

void
RtiComponent::CallTurn()
{
    if (m_turnDepth > 0 && !m_externalTurn)
    {
        return; // inside a read or a callback: part of that turn
    }
    if (!m_externalTurn)
    {
        m_externalTurn = true;
        BeginTurn();
        Simulator::ScheduleNow(&RtiComponent::EndExternalTurn, this);
    }
}

void
RtiComponent::EndExternalTurn()
{
    m_externalTurn = false;
    EndTurn();
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
    BeginTurn();
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
    EndTurn();
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
