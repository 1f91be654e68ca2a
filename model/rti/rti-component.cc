/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-component.h"

#include "ns3/abort.h"
#include "ns3/double.h"
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
    , m_invocationFactor(-1)
    , m_edenUsed(0)
    , m_edenStarted(false)
    , m_gcs(0)
    , m_gcTime(Time(0))
    , m_handoffs(0)
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
    m_costFactor = nullptr;
    m_uniform = nullptr;
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

uint64_t
RtiComponent::GetMinorGcs() const
{
    return m_gcs;
}

Time
RtiComponent::GetMinorGcTime() const
{
    return m_gcTime;
}

uint64_t
RtiComponent::GetThreadHandoffs() const
{
    return m_handoffs;
}

void
RtiComponent::ChargeOperation(double cycles, uint32_t bytes)
{
    if (m_invocationFactor < 0)
    {
        // This run's factor (a VM invocation's compilation plan and layout): gamma of mean 1
        // and coefficient of variation InvocationVariation, drawn at the first operation.
        m_invocationFactor = 1;
        double iv = m_settings->GetInvocationVariation();
        if (iv > 0)
        {
            auto factor = CreateObject<GammaRandomVariable>();
            factor->SetAttribute("Alpha", DoubleValue(1.0 / (iv * iv)));
            factor->SetAttribute("Beta", DoubleValue(iv * iv));
            m_invocationFactor = factor->GetValue();
        }
    }
    cycles *= m_invocationFactor;
    double cv = m_settings->GetCostVariation();
    if (cv > 0 && cycles > 0)
    {
        if (!m_costFactor)
        {
            // Gamma of shape 1/cv^2 and scale cv^2: mean 1, coefficient of variation cv.
            m_costFactor = CreateObject<GammaRandomVariable>();
            m_costFactor->SetAttribute("Alpha", DoubleValue(1.0 / (cv * cv)));
            m_costFactor->SetAttribute("Beta", DoubleValue(cv * cv));
        }
        cycles *= m_costFactor->GetValue();
    }
    Charge(cycles);
    Allocate(m_settings->AllocationBytes(bytes));
}

void
RtiComponent::Allocate(double bytes)
{
    double eden = m_settings->GetEdenSize();
    if (eden <= 0 || bytes <= 0)
    {
        return;
    }
    if (!m_uniform)
    {
        m_uniform = CreateObject<UniformRandomVariable>();
    }
    if (!m_edenStarted)
    {
        m_edenStarted = true;
        m_edenUsed = m_uniform->GetValue(0.0, eden);
    }
    m_edenUsed += bytes;
    while (m_edenUsed >= eden)
    {
        m_edenUsed -= eden;
        double lo = m_settings->GetMinorGcPauseMin().GetSeconds();
        double hi = std::max(lo, m_settings->GetMinorGcPauseMax().GetSeconds());
        Time pause = Seconds(hi > lo ? m_uniform->GetValue(lo, hi) : lo);
        NS_LOG_INFO("node " << m_node->GetId() << ": minor collection, pause " << pause);
        ++m_gcs;
        m_gcTime += pause;
        Charge(ToCycles(pause));
    }
}

void
RtiComponent::ChargeHandoff()
{
    double cycles = m_settings->ThreadHandoffCycles();
    if (cycles > 0)
    {
        ++m_handoffs;
        Charge(cycles);
    }
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
        ChargeOperation(m_settings->EncodeCycles(bytes), bytes);
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
    ChargeOperation(m_settings->EncodeCycles(bytes), bytes);
    Charge(ToCycles(m_platform->GetSendCost(bytes)));
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
    // The I/O thread: one write per connection, in the order the connections were used (or
    // the remote or the local ones first, WriteOrder).
    std::swap(m_output, m_turnOutput); // (m_turnOutput is empty: its room is reused)
    RtiSettings::WriteOrder order = m_settings->GetWriteOrder();
    if (order != RtiSettings::FIRST_USED && m_turnOutput.size() > 1)
    {
        bool localFirst = order == RtiSettings::LOCAL_FIRST;
        std::stable_partition(
            m_turnOutput.begin(),
            m_turnOutput.end(),
            [localFirst](const Output& o) { return o.conn->IsLocal() == localFirst; });
    }
    if (!m_turnOutput.empty())
    {
        ChargeHandoff(); // to the I/O thread
    }
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
    if (!chunk.messages.empty())
    {
        ChargeHandoff(); // from the connection's reader to the thread that handles it
    }
    for (auto& msg : chunk.messages)
    {
        uint32_t size = msg.GetSerializedSize();
        ChargeOperation(m_settings->DecodeCycles(size), size);
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
