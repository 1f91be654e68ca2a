/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-component.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iterator>

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
    m_actionDone = MakeCallback(&RtiComponent::RunAction, this);
    m_readNext = MakeCallback(&RtiComponent::ReadNext, this);
}

RtiComponent::~RtiComponent()
{
}

void
RtiComponent::DoDispose()
{
    m_ready.clear();
    m_output.clear();
    m_turnOutput.clear();
    m_actions.clear();
    m_actionDone = Callback<void>();
    m_readNext = Callback<void>();
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
    Enqueue({Action::CALL, nullptr, {}, std::move(action)});
}

void
RtiComponent::DoTurn(std::function<void()> action)
{
    Enqueue({Action::CALL_TURN, nullptr, {}, std::move(action)});
}

void
RtiComponent::Enqueue(Action&& action)
{
    Time cost = m_platform->GetCpu()->CyclesToTime(m_pending);
    m_pending = 0;
    // The process runs its steps in order, so the k-th RunAction runs the k-th queued action.
    m_actions.push_back(std::move(action));
    m_process->Execute(cost, m_actionDone);
}

void
RtiComponent::RunAction()
{
    NS_ASSERT(!m_actions.empty());
    Action a = std::move(m_actions.front());
    m_actions.pop_front();
    switch (a.kind)
    {
        case Action::SEND_BATCH:
            a.conn->SendBatch(a.msgs);
            break;
        case Action::CALL:
            a.call();
            break;
        case Action::CALL_TURN:
            BeginTurn();
            a.call();
            EndTurn();
            break;
    }
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
RtiComponent::Transmit(Ptr<RtiConnection> conn, RtiMessage msg)
{
    uint32_t bytes = msg.GetSerializedSize();
    if (m_settings->GetWriteBatching() && !conn->IsDatagram())
    {
        Charge(m_settings->EncodeCycles(bytes));
        auto it = std::find_if(m_output.begin(), m_output.end(), [&conn](const Output& e) {
            return e.conn == conn;
        });
        if (it == m_output.end())
        {
            m_output.push_back({conn, {}, 0});
            it = std::prev(m_output.end());
        }
        it->msgs.push_back(std::move(msg));
        it->bytes += bytes;
        if (m_turnDepth == 0)
        {
            CallTurn(); // a send outside any turn: written at the end of this event
        }
        return;
    }
    Charge(m_settings->EncodeCycles(bytes) + ToCycles(m_platform->GetSendCost(bytes)));
    Action send{Action::SEND_BATCH, conn, {}, nullptr};
    send.msgs.push_back(std::move(msg));
    Enqueue(std::move(send));
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
    std::swap(m_output, m_turnOutput); // (m_turnOutput is empty: its room is reused)
    for (Output& out : m_turnOutput)
    {
        Charge(ToCycles(m_platform->GetSendCost(out.bytes)));
        Enqueue({Action::SEND_BATCH, out.conn, std::move(out.msgs), nullptr});
    }
    m_turnOutput.clear();
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
        Simulator::ScheduleNow([this]() { EndExternalTurn(); });
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
        m_process->Wake(m_readNext);
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
    for (auto& msg : chunk.messages)
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
        m_process->Wake(m_readNext);
    }
}

} // namespace ns3
