/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "jaxa-benchmark-federate.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/host-process.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JaxaBenchmarkFederate");

NS_OBJECT_ENSURE_REGISTERED(JaxaBenchmarkFederate);

namespace
{
const char* const READY = "ready"; //!< the start synchronization point
} // namespace

TypeId
JaxaBenchmarkFederate::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::JaxaBenchmarkFederate")
              .SetParent<Object>()
              .SetGroupName("Testbed")
              .AddConstructor<JaxaBenchmarkFederate>()
              .AddAttribute("Role",
                            "Sender, Receiver, Bidirectional (sends and receives) or TimeOnly.",
                            EnumValue(SENDER),
                            MakeEnumAccessor<Role>(&JaxaBenchmarkFederate::m_role),
                            MakeEnumChecker(SENDER,
                                            "Sender",
                                            RECEIVER,
                                            "Receiver",
                                            BIDIRECTIONAL,
                                            "Bidirectional",
                                            TIME_ONLY,
                                            "TimeOnly"))
              .AddAttribute("Synchronised",
                            "Time-stepped (regulating, constrained, TAR per step) or asynchronous "
                            "(receive order, no time management).",
                            BooleanValue(true),
                            MakeBooleanAccessor(&JaxaBenchmarkFederate::m_sync),
                            MakeBooleanChecker())
              .AddAttribute("TsoData",
                            "Synchronised mode: send the data in timestamp order (else receive "
                            "order).",
                            BooleanValue(true),
                            MakeBooleanAccessor(&JaxaBenchmarkFederate::m_tsoData),
                            MakeBooleanChecker())
              .AddAttribute("DataSize",
                            "Bytes of the payload attribute per update.",
                            UintegerValue(64),
                            MakeUintegerAccessor(&JaxaBenchmarkFederate::m_dataSize),
                            MakeUintegerChecker<uint32_t>(1, 1 << 24))
              .AddAttribute("Exchanges",
                            "Number of exchanges (steps or updates).",
                            UintegerValue(1000),
                            MakeUintegerAccessor(&JaxaBenchmarkFederate::m_exchanges),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("Lookahead",
                            "Lookahead in logical time (one step is 1).",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&JaxaBenchmarkFederate::m_lookahead),
                            MakeDoubleChecker<double>(0.0))
              .AddAttribute("EvokeWait",
                            "With evoked callbacks (RtiSettings CallbackModel Evoked) the program "
                            "waits for its callbacks in evokeCallback(EvokeWait) (s).",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&JaxaBenchmarkFederate::m_evokeWait),
                            // up to an hour: beyond any step of the benchmark
                            MakeDoubleChecker<double>(0.0, 3600.0))
              .AddTraceSource("Done",
                              "The loop is over.",
                              MakeTraceSourceAccessor(&JaxaBenchmarkFederate::m_doneTrace),
                              "ns3::JaxaBenchmarkFederate::DoneTracedCallback")
              .AddTraceSource("Start",
                              "The loop starts.",
                              MakeTraceSourceAccessor(&JaxaBenchmarkFederate::m_startTrace),
                              "ns3::JaxaBenchmarkFederate::StartTracedCallback")
              .AddTraceSource("Step",
                              "A synchronised step completed: its grant reached the program.",
                              MakeTraceSourceAccessor(&JaxaBenchmarkFederate::m_stepTrace),
                              "ns3::JaxaBenchmarkFederate::StepTracedCallback")
              .AddTraceSource("Joined",
                              "The program learnt that it joined the federation.",
                              MakeTraceSourceAccessor(&JaxaBenchmarkFederate::m_joinedTrace),
                              "ns3::JaxaBenchmarkFederate::JoinedTracedCallback");
    return tid;
}

JaxaBenchmarkFederate::JaxaBenchmarkFederate()
    : m_role(SENDER)
    , m_sync(true)
    , m_tsoData(true)
    , m_dataSize(64)
    , m_exchanges(1000)
    , m_lookahead(1.0)
    , m_master(false)
    , m_evokeWait(1.0)
    , m_evoked(false)
    , m_joined(false)
    , m_declared(false)
    , m_synchronized(false)
    , m_granted(false)
    , m_class(0)
    , m_payload(0)
    , m_obj(0)
    , m_regulating(false)
    , m_constrained(false)
    , m_announced(false)
    , m_achieved(false)
    , m_running(false)
    , m_done(false)
    , m_lost(false)
    , m_completed(0)
    , m_reflects(0)
{
}

JaxaBenchmarkFederate::~JaxaBenchmarkFederate()
{
}

void
JaxaBenchmarkFederate::DoDispose()
{
    if (m_amb)
    {
        m_amb->SetFederateAmbassador(nullptr);
    }
    m_amb = nullptr;
    m_pollTimer = nullptr;
    m_readyGate = MakeNullCallback<bool>();
    Object::DoDispose();
}

void
JaxaBenchmarkFederate::Start(Ptr<RtiAmbassador> amb,
                             const std::string& name,
                             bool master,
                             Time readyAt)
{
    NS_LOG_FUNCTION(this << name << master);
    NS_ABORT_MSG_IF(m_role == TIME_ONLY && !m_sync,
                    "JaxaBenchmarkFederate: a time-only federate needs Synchronised=true");
    m_amb = amb;
    m_master = master;
    m_programStart = Simulator::Now();
    m_amb->SetFederateAmbassador(this);
    m_evoked = amb->GetSettings()->GetCallbackModel() == RtiSettings::EVOKED;
    NS_ABORT_MSG_IF(m_poll && !m_evoked,
                    "JaxaBenchmarkFederate: sleep-polling needs evoked callbacks");
    if (m_poll && m_pollTimer)
    {
        m_amb->GetProcess()->SetTimer(m_pollTimer);
    }
    m_amb->JoinFederationExecution(name, "JaxaBenchmark", "JAXA06");
    if (m_evoked)
    {
        Evoke(); // every callback, from federationJoined on, comes inside an evoke
    }
    if (master)
    {
        Simulator::Schedule(readyAt, [this]() {
            m_readyDue = true;
            ReadyGateOpened();
        });
    }
}

void
JaxaBenchmarkFederate::SetReadyGate(Callback<bool> allJoined)
{
    m_readyGate = allJoined;
}

bool
JaxaBenchmarkFederate::IsReadyPending() const
{
    return m_readyDue && !m_readyRegistered;
}

void
JaxaBenchmarkFederate::ReadyGateOpened()
{
    if (!IsReadyPending() || m_lost || (!m_readyGate.IsNull() && !m_readyGate()))
    {
        return;
    }
    NS_LOG_LOGIC("master registers the synchronization point at " << Simulator::Now().As(Time::S));
    m_readyRegistered = true;
    m_amb->RegisterFederationSynchronizationPoint(READY);
}

void
JaxaBenchmarkFederate::SetPolling(Ptr<TimerModel> timer, Time sleep)
{
    m_poll = true;
    m_pollTimer = timer;
    m_pollSleep = sleep;
}

void
JaxaBenchmarkFederate::Evoke()
{
    m_amb->EvokeCallback(m_poll ? 0.0 : m_evokeWait);
}

void
JaxaBenchmarkFederate::EvokeReturned(uint32_t delivered)
{
    if (m_lost)
    {
        return; // the RTI call threw: the program ended
    }
    Continue();
    // The program's loop: its calls (Continue), then wait for the next callback, until its
    // own part is over (the sender stops after its last grant or its last update). A polling
    // program that found nothing sleeps before it polls again.
    if (m_done)
    {
        return;
    }
    if (m_poll && delivered == 0)
    {
        m_amb->GetProcess()->Sleep(m_pollSleep, MakeCallback(&JaxaBenchmarkFederate::Evoke, this));
        return;
    }
    Evoke();
}

void
JaxaBenchmarkFederate::Continue()
{
    if (m_joined && !m_declared)
    {
        m_declared = true;
        Declare();
    }
    MaybeReady();
    if (m_synchronized && !m_running)
    {
        StartLoop();
    }
    if (m_running && m_sync && !m_done && m_granted)
    {
        m_granted = false;
        ++m_completed;
        m_stepTrace(m_completed);
        if (m_completed == m_exchanges)
        {
            Finish();
            return;
        }
        Step();
    }
}

void
JaxaBenchmarkFederate::DiscoverObjectInstance(ObjectInstanceHandle object,
                                              ObjectClassHandle cls,
                                              const std::string& name)
{
    if (m_discoveredAt.IsZero())
    {
        m_discoveredAt = Simulator::Now();
    }
}

void
JaxaBenchmarkFederate::FederationJoined(FederateHandle federate)
{
    m_joined = true;
    m_joinedAt = Simulator::Now();
    m_joinedTrace();
    if (!m_evoked)
    {
        Continue();
    }
}

void
JaxaBenchmarkFederate::Declare()
{
    m_class = m_amb->GetObjectClassHandle("Data");
    m_payload = m_amb->GetAttributeHandle(m_class, "payload");
    if (m_role == SENDER || m_role == BIDIRECTIONAL)
    {
        m_amb->PublishObjectClassAttributes(m_class, {m_payload});
        m_obj = m_amb->RegisterObjectInstance(m_class);
        if (m_sync && !m_tsoData)
        {
            m_amb->ChangeAttributeOrderType(m_obj, OrderType::RECEIVE);
        }
        m_values[m_payload] = std::vector<uint8_t>(m_dataSize, 0x5a);
    }
    if (m_role == RECEIVER || m_role == BIDIRECTIONAL)
    {
        m_amb->SubscribeObjectClassAttributes(m_class, {m_payload});
    }
    if (m_sync)
    {
        m_amb->EnableTimeRegulation(m_lookahead);
        m_amb->EnableTimeConstrained();
    }
}

void
JaxaBenchmarkFederate::TimeRegulationEnabled(LogicalTime time)
{
    m_regulating = true;
    if (!m_evoked)
    {
        Continue();
    }
}

void
JaxaBenchmarkFederate::TimeConstrainedEnabled(LogicalTime time)
{
    m_constrained = true;
    if (!m_evoked)
    {
        Continue();
    }
}

void
JaxaBenchmarkFederate::AnnounceSynchronizationPoint(const std::string& label, const UserTag& tag)
{
    if (label == READY)
    {
        m_announced = true;
        if (!m_evoked)
        {
            Continue();
        }
    }
}

void
JaxaBenchmarkFederate::MaybeReady()
{
    bool setUp = m_class != 0 && (!m_sync || (m_regulating && m_constrained));
    if (setUp && m_announced && !m_achieved)
    {
        m_achieved = true;
        m_amb->SynchronizationPointAchieved(READY);
    }
}

void
JaxaBenchmarkFederate::FederationSynchronized(const std::string& label)
{
    if (label != READY)
    {
        return;
    }
    m_synchronized = true;
    if (!m_evoked)
    {
        Continue();
    }
}

void
JaxaBenchmarkFederate::StartLoop()
{
    m_running = true;
    m_start = Simulator::Now(); // this PC's clock, read when the program learns of the start
    m_startTrace(m_start);
    NS_LOG_LOGIC("federate " << m_amb->GetFederateHandle() << " starts at "
                             << m_start.As(Time::MS));
    if (m_sync)
    {
        Step();
    }
    else if (m_role == SENDER || m_role == BIDIRECTIONAL)
    {
        for (uint32_t i = 0; i < m_exchanges; ++i)
        {
            Send();
        }
        if (m_role == SENDER)
        {
            m_completed = m_exchanges; // the calls are queued in the process; "done" = issued
            Finish();
        }
    }
}

void
JaxaBenchmarkFederate::Send()
{
    if (m_sync && m_tsoData)
    {
        m_amb->UpdateAttributeValues(m_obj,
                                     m_values,
                                     UserTag(),
                                     m_amb->QueryLogicalTime() + m_lookahead);
    }
    else
    {
        m_amb->UpdateAttributeValues(m_obj, m_values, UserTag());
    }
}

void
JaxaBenchmarkFederate::Step()
{
    if (m_role == SENDER || m_role == BIDIRECTIONAL)
    {
        Send();
    }
    m_amb->TimeAdvanceRequest(m_amb->QueryLogicalTime() + 1.0);
}

void
JaxaBenchmarkFederate::ReflectAttributeValues(ObjectInstanceHandle object,
                                              const HandleValueMap& values,
                                              const UserTag& tag,
                                              OrderType sentOrder,
                                              TransportationType transport,
                                              LogicalTime time,
                                              OrderType receivedOrder,
                                              FederateHandle producer)
{
    ++m_reflects;
    if (!m_sync && m_running && !m_done && (m_role == RECEIVER || m_role == BIDIRECTIONAL))
    {
        ++m_completed;
        if (m_completed == m_exchanges)
        {
            Finish();
        }
    }
}

void
JaxaBenchmarkFederate::TimeAdvanceGrant(LogicalTime time)
{
    if (!m_running || m_done)
    {
        return;
    }
    m_granted = true;
    if (!m_evoked)
    {
        Continue();
    }
}

void
JaxaBenchmarkFederate::Finish()
{
    m_done = true;
    m_end = Simulator::Now();
    m_doneTrace(m_start, m_end);
}

void
JaxaBenchmarkFederate::ConnectionLost(const std::string& reason)
{
    NS_LOG_FUNCTION(this << reason);
    m_lost = true;
}

bool
JaxaBenchmarkFederate::IsLost() const
{
    return m_lost;
}

bool
JaxaBenchmarkFederate::IsDone() const
{
    return m_done;
}

Time
JaxaBenchmarkFederate::GetProgramStartTime() const
{
    return m_programStart;
}

Time
JaxaBenchmarkFederate::GetJoinedTime() const
{
    return m_joinedAt;
}

Time
JaxaBenchmarkFederate::GetDiscoveredTime() const
{
    return m_discoveredAt;
}

Time
JaxaBenchmarkFederate::GetStartTime() const
{
    return m_start;
}

Time
JaxaBenchmarkFederate::GetEndTime() const
{
    return m_end;
}

uint32_t
JaxaBenchmarkFederate::GetCompleted() const
{
    return m_completed;
}

uint32_t
JaxaBenchmarkFederate::GetReflects() const
{
    return m_reflects;
}

JaxaBenchmarkFederate::Role
JaxaBenchmarkFederate::GetRole() const
{
    return m_role;
}

} // namespace ns3
