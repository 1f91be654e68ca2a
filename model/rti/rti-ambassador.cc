/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-ambassador.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiAmbassador");

NS_OBJECT_ENSURE_REGISTERED(RtiAmbassador);

// ---------------------------------------------------------------------------------------------
// FederateAmbassador: every callback does nothing unless overridden.

FederateAmbassador::~FederateAmbassador()
{
}

void
FederateAmbassador::FederationJoined(FederateHandle)
{
}

void
FederateAmbassador::AnnounceSynchronizationPoint(const std::string& label, const UserTag& tag)
{
    AnnounceSynchronizationPointPy(label, &tag);
}

void
FederateAmbassador::AnnounceSynchronizationPointPy(const std::string&, const UserTag*)
{
}

void
FederateAmbassador::FederationSynchronized(const std::string&)
{
}

void
FederateAmbassador::DiscoverObjectInstance(ObjectInstanceHandle,
                                           ObjectClassHandle,
                                           const std::string&)
{
}

void
FederateAmbassador::ReflectAttributeValues(ObjectInstanceHandle object,
                                           const HandleValueMap& values,
                                           const UserTag& tag,
                                           OrderType sentOrder,
                                           TransportationType transport,
                                           LogicalTime time,
                                           OrderType receivedOrder,
                                           FederateHandle producer)
{
    ReflectAttributeValuesPy(object,
                             &values,
                             &tag,
                             sentOrder,
                             transport,
                             time,
                             receivedOrder,
                             producer);
}

void
FederateAmbassador::ReflectAttributeValuesPy(ObjectInstanceHandle,
                                             const HandleValueMap*,
                                             const UserTag*,
                                             OrderType,
                                             TransportationType,
                                             LogicalTime,
                                             OrderType,
                                             FederateHandle)
{
}

void
FederateAmbassador::ReceiveInteraction(InteractionClassHandle cls,
                                       const HandleValueMap& parameters,
                                       const UserTag& tag,
                                       OrderType sentOrder,
                                       TransportationType transport,
                                       LogicalTime time,
                                       OrderType receivedOrder,
                                       FederateHandle producer)
{
    ReceiveInteractionPy(cls,
                         &parameters,
                         &tag,
                         sentOrder,
                         transport,
                         time,
                         receivedOrder,
                         producer);
}

void
FederateAmbassador::ReceiveInteractionPy(InteractionClassHandle,
                                         const HandleValueMap*,
                                         const UserTag*,
                                         OrderType,
                                         TransportationType,
                                         LogicalTime,
                                         OrderType,
                                         FederateHandle)
{
}

void
FederateAmbassador::TimeRegulationEnabled(LogicalTime)
{
}

void
FederateAmbassador::TimeConstrainedEnabled(LogicalTime)
{
}

void
FederateAmbassador::TimeAdvanceGrant(LogicalTime)
{
}

void
FederateAmbassador::EvokeReturned(uint32_t)
{
}

void
FederateAmbassador::ConnectionLost(const std::string&)
{
}

// ---------------------------------------------------------------------------------------------
// RtiAmbassador

TypeId
RtiAmbassador::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RtiAmbassador")
              .SetParent<RtiComponent>()
              .SetGroupName("Testbed")
              .AddConstructor<RtiAmbassador>()
              .AddTraceSource("Deliver",
                              "A reflect or interaction was delivered to the federate.",
                              MakeTraceSourceAccessor(&RtiAmbassador::m_deliverTrace),
                              "ns3::RtiAmbassador::DeliverTracedCallback")
              .AddTraceSource("Grant",
                              "A time advance grant was delivered to the federate.",
                              MakeTraceSourceAccessor(&RtiAmbassador::m_grantTrace),
                              "ns3::RtiAmbassador::GrantTracedCallback")
              .AddTraceSource("ConnectionLost",
                              "The federate's connection to the RTI was lost (TCP gave up).",
                              MakeTraceSourceAccessor(&RtiAmbassador::m_lostTrace),
                              "ns3::RtiAmbassador::ConnectionLostTracedCallback");
    return tid;
}

RtiAmbassador::RtiAmbassador()
    : m_fa(nullptr)
    , m_handle(0)
    , m_joinSent(false)
    , m_serial(0)
    , m_tsoSent(0)
    , m_tsoRead(0)
    , m_nextObject(0)
    , m_asyncDelivery(false)
    , m_constrainedRequested(false)
    , m_constrainedAcked(false)
    , m_boundSent(false)
    , m_nTso(0)
    , m_nRo(0)
    , m_nGrants(0)
    , m_nNull(0)
    , m_nLate(0)
    , m_nCallbacks(0)
    , m_evoking(false)
    , m_evokeMultiple(false)
    , m_evokeDelivered(0)
{
}

RtiAmbassador::~RtiAmbassador()
{
}

void
RtiAmbassador::DoDispose()
{
    if (m_conn)
    {
        m_conn->Dispose();
    }
    if (m_udp)
    {
        m_udp->Dispose();
    }
    m_conn = nullptr;
    m_udp = nullptr;
    m_fom = nullptr;
    m_fa = nullptr;
    m_tsoQueue.clear();
    m_heldRo.clear();
    m_callbacks.clear();
    m_evokeTimer.Cancel();
    RtiComponent::DoDispose();
}

void
RtiAmbassador::Install(Ptr<Node> node, Ptr<RtiCentralComponent> crc)
{
    NS_LOG_FUNCTION(this << node);
    NS_ABORT_MSG_IF(m_conn, "RtiAmbassador::Install called twice");
    Attach(node, crc->GetSettings());
    m_fom = crc->GetFom();
    const bool sameNode = crc->GetNode() == node;
    if (sameNode && m_settings->GetLocalPath() == RtiSettings::IN_MEMORY)
    {
        m_conn = crc->ConnectLocal();
    }
    else
    {
        Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        s->SetAttribute("TcpNoDelay", BooleanValue(m_settings->GetTcpNoDelay()));
        s->SetAttribute("SegmentSize", UintegerValue(m_settings->GetTcpSegmentSize()));
        s->Bind();
        // Connect once the simulation runs (the node's stack is initialized at time 0); on the
        // central component's own node, to the loopback address (LocalPath LoopbackTcp).
        InetSocketAddress to(sameNode ? Ipv4Address::GetLoopback() : crc->GetAddress(),
                             m_settings->GetPort());
        Simulator::ScheduleWithContext(node->GetId(), Seconds(0), [s, to]() { s->Connect(to); });
        Ptr<RtiTcpConnection> tcp = CreateObject<RtiTcpConnection>();
        tcp->SetSocket(s);
        tcp->SetLocal(sameNode);
        tcp->TraceConnectWithoutContext("Lost",
                                        MakeCallback(&RtiAmbassador::HandleConnectionLost, this));
        m_conn = tcp;
    }
    if (!sameNode)
    {
        Ptr<Socket> u = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        u->Bind();
        Ptr<RtiUdpConnection> udp = CreateObject<RtiUdpConnection>();
        udp->SetSocket(u, InetSocketAddress(crc->GetAddress(), m_settings->GetUdpPort()), true);
        m_udp = udp;
        Watch(m_udp);
    }
    Watch(m_conn);
}

void
RtiAmbassador::HandleConnectionLost(const std::string& reason)
{
    NS_LOG_FUNCTION(this << reason);
    m_lostTrace(reason);
    if (m_fa)
    {
        m_fa->ConnectionLost(reason);
    }
}

void
RtiAmbassador::SetFederateAmbassador(FederateAmbassador* fa)
{
    m_fa = fa;
}

RtiMessage
RtiAmbassador::Make(RtiMessage::Type type) const
{
    RtiMessage m = m_settings->NewMessage(type);
    m.SetSource(m_handle);
    return m;
}

void
RtiAmbassador::Call(RtiMessage msg, bool bestEffort)
{
    NS_ABORT_MSG_IF(!m_conn, "RtiAmbassador: not installed on a node");
    ChargeOperation(m_settings->CallCycles());
    if (msg.IsTso())
    {
        ++m_tsoSent;
    }
    msg.SetSerial(++m_serial);
    Transmit((bestEffort && m_udp) ? m_udp : m_conn, std::move(msg));
}

void
RtiAmbassador::CheckJoined(const char* what) const
{
    NS_ABORT_MSG_IF(m_handle == 0,
                    "RtiAmbassador::" << what << ": the federate has not joined yet (wait for "
                                      << "FederationJoined)");
}

// --- Federation management ---------------------------------------------------------------------

void
RtiAmbassador::JoinFederationExecution(const std::string& federateName,
                                       const std::string& federateType,
                                       const std::string& federationName)
{
    NS_LOG_FUNCTION(this << federateName << federateType << federationName);
    NS_ABORT_MSG_IF(m_joinSent, "RtiAmbassador: already joined");
    m_joinSent = true;
    RtiMessage m = Make(RtiMessage::JOIN);
    m.name = federationName;
    m.name2 = federateType;
    m.name3 = federateName;
    // The local UDP port tells the CRC where best-effort messages go (0: none, loopback).
    m.handle = m_udp ? DynamicCast<RtiUdpConnection>(m_udp)->GetLocalPort() : 0;
    Call(std::move(m));
}

void
RtiAmbassador::ResignFederationExecution()
{
    NS_LOG_FUNCTION(this);
    CheckJoined("ResignFederationExecution");
    Call(Make(RtiMessage::RESIGN));
}

void
RtiAmbassador::RegisterFederationSynchronizationPoint(const std::string& label, const UserTag& tag)
{
    NS_LOG_FUNCTION(this << label);
    RtiMessage m = Make(RtiMessage::REGISTER_SYNC_POINT);
    m.name = label;
    m.tag = tag;
    Call(std::move(m));
}

void
RtiAmbassador::SynchronizationPointAchieved(const std::string& label)
{
    NS_LOG_FUNCTION(this << label);
    RtiMessage m = Make(RtiMessage::SYNC_POINT_ACHIEVED);
    m.name = label;
    Call(std::move(m));
}

// --- Declaration management --------------------------------------------------------------------

void
RtiAmbassador::PublishObjectClassAttributes(ObjectClassHandle cls,
                                            const AttributeHandleSet& attributes)
{
    NS_ABORT_MSG_IF(!m_fom->IsObjectClass(cls), "RtiAmbassador: unknown object class " << cls);
    RtiMessage m = Make(RtiMessage::PUBLISH_OBJECT_CLASS);
    m.handle = cls;
    m.handles.assign(attributes.begin(), attributes.end());
    Call(std::move(m));
}

void
RtiAmbassador::UnpublishObjectClass(ObjectClassHandle cls)
{
    RtiMessage m = Make(RtiMessage::UNPUBLISH_OBJECT_CLASS);
    m.handle = cls;
    Call(std::move(m));
}

void
RtiAmbassador::SubscribeObjectClassAttributes(ObjectClassHandle cls,
                                              const AttributeHandleSet& attributes)
{
    NS_ABORT_MSG_IF(!m_fom->IsObjectClass(cls), "RtiAmbassador: unknown object class " << cls);
    RtiMessage m = Make(RtiMessage::SUBSCRIBE_OBJECT_CLASS);
    m.handle = cls;
    m.handles.assign(attributes.begin(), attributes.end());
    Call(std::move(m));
}

void
RtiAmbassador::UnsubscribeObjectClass(ObjectClassHandle cls)
{
    RtiMessage m = Make(RtiMessage::UNSUBSCRIBE_OBJECT_CLASS);
    m.handle = cls;
    Call(std::move(m));
}

void
RtiAmbassador::PublishInteractionClass(InteractionClassHandle cls)
{
    NS_ABORT_MSG_IF(!m_fom->IsInteractionClass(cls),
                    "RtiAmbassador: unknown interaction class " << cls);
    RtiMessage m = Make(RtiMessage::PUBLISH_INTERACTION);
    m.handle = cls;
    Call(std::move(m));
}

void
RtiAmbassador::UnpublishInteractionClass(InteractionClassHandle cls)
{
    RtiMessage m = Make(RtiMessage::UNPUBLISH_INTERACTION);
    m.handle = cls;
    Call(std::move(m));
}

void
RtiAmbassador::SubscribeInteractionClass(InteractionClassHandle cls)
{
    NS_ABORT_MSG_IF(!m_fom->IsInteractionClass(cls),
                    "RtiAmbassador: unknown interaction class " << cls);
    RtiMessage m = Make(RtiMessage::SUBSCRIBE_INTERACTION);
    m.handle = cls;
    Call(std::move(m));
}

void
RtiAmbassador::UnsubscribeInteractionClass(InteractionClassHandle cls)
{
    RtiMessage m = Make(RtiMessage::UNSUBSCRIBE_INTERACTION);
    m.handle = cls;
    Call(std::move(m));
}

// --- Object management -------------------------------------------------------------------------

ObjectInstanceHandle
RtiAmbassador::RegisterObjectInstance(ObjectClassHandle cls, const std::string& name)
{
    CheckJoined("RegisterObjectInstance");
    NS_ABORT_MSG_IF(!m_fom->IsObjectClass(cls), "RtiAmbassador: unknown object class " << cls);
    ObjectInstanceHandle obj = (m_handle << 20) | ++m_nextObject;
    m_objects[obj] = {OrderType::TIMESTAMP, TransportationType::RELIABLE};
    RtiMessage m = Make(RtiMessage::REGISTER_OBJECT);
    m.handle = cls;
    m.handle2 = obj;
    m.name = name.empty() ? "HLAobject_" + std::to_string(obj) : name;
    Call(std::move(m));
    return obj;
}

void
RtiAmbassador::UpdateAttributeValues(ObjectInstanceHandle object,
                                     const HandleValueMap& values,
                                     const UserTag& tag)
{
    CheckJoined("UpdateAttributeValues");
    auto it = m_objects.find(object);
    NS_ABORT_MSG_IF(it == m_objects.end(),
                    "RtiAmbassador::UpdateAttributeValues: instance " << object << " not owned");
    RtiMessage m = Make(RtiMessage::UPDATE_ATTRIBUTES);
    m.handle = object;
    m.values = values;
    m.tag = tag;
    bool bestEffort = it->second.second == TransportationType::BEST_EFFORT;
    if (bestEffort)
    {
        m.SetFlags(m.GetFlags() | RtiMessage::FLAG_BEST_EFFORT);
    }
    Call(std::move(m), bestEffort);
}

void
RtiAmbassador::UpdateAttributeValues(ObjectInstanceHandle object,
                                     const HandleValueMap& values,
                                     const UserTag& tag,
                                     LogicalTime time)
{
    CheckJoined("UpdateAttributeValues");
    auto it = m_objects.find(object);
    NS_ABORT_MSG_IF(it == m_objects.end(),
                    "RtiAmbassador::UpdateAttributeValues: instance " << object << " not owned");
    if (!m_state.regulating || it->second.first == OrderType::RECEIVE)
    {
        UpdateAttributeValues(object, values, tag);
        return;
    }
    TimeBound bound = RtiTimeManager::OutputBound(m_state, LocalGalt());
    NS_ABORT_MSG_IF(!bound.Allows(time),
                    "RtiAmbassador::UpdateAttributeValues: timestamp "
                        << time << " below the federate's bound " << bound
                        << " (logical time + lookahead)");
    RtiMessage m = Make(RtiMessage::UPDATE_ATTRIBUTES);
    m.SetFlags(RtiMessage::FLAG_TSO);
    m.handle = object;
    m.time = time;
    m.values = values;
    m.tag = tag;
    Call(std::move(m));
}

void
RtiAmbassador::SendInteraction(InteractionClassHandle cls,
                               const HandleValueMap& parameters,
                               const UserTag& tag)
{
    CheckJoined("SendInteraction");
    RtiMessage m = Make(RtiMessage::SEND_INTERACTION);
    m.handle = cls;
    m.values = parameters;
    m.tag = tag;
    Call(std::move(m));
}

void
RtiAmbassador::SendInteraction(InteractionClassHandle cls,
                               const HandleValueMap& parameters,
                               const UserTag& tag,
                               LogicalTime time)
{
    CheckJoined("SendInteraction");
    if (!m_state.regulating)
    {
        SendInteraction(cls, parameters, tag);
        return;
    }
    TimeBound bound = RtiTimeManager::OutputBound(m_state, LocalGalt());
    NS_ABORT_MSG_IF(!bound.Allows(time),
                    "RtiAmbassador::SendInteraction: timestamp " << time << " below the bound "
                                                                 << bound);
    RtiMessage m = Make(RtiMessage::SEND_INTERACTION);
    m.SetFlags(RtiMessage::FLAG_TSO);
    m.handle = cls;
    m.time = time;
    m.values = parameters;
    m.tag = tag;
    Call(std::move(m));
}

void
RtiAmbassador::ChangeAttributeOrderType(ObjectInstanceHandle object, OrderType order)
{
    auto it = m_objects.find(object);
    NS_ABORT_MSG_IF(it == m_objects.end(),
                    "RtiAmbassador::ChangeAttributeOrderType: instance " << object << " not owned");
    it->second.first = order;
    ChargeOperation(m_settings->CallCycles());
    Flush();
}

void
RtiAmbassador::ChangeAttributeTransportationType(ObjectInstanceHandle object,
                                                 TransportationType transport)
{
    auto it = m_objects.find(object);
    NS_ABORT_MSG_IF(it == m_objects.end(),
                    "RtiAmbassador::ChangeAttributeTransportationType: instance " << object
                                                                                  << " not owned");
    it->second.second = transport;
    ChargeOperation(m_settings->CallCycles());
    Flush();
}

// --- Time management ---------------------------------------------------------------------------

void
RtiAmbassador::EnableTimeRegulation(LogicalTime lookahead)
{
    NS_LOG_FUNCTION(this << lookahead);
    NS_ABORT_MSG_IF(lookahead < 0, "RtiAmbassador: negative lookahead " << lookahead);
    NS_ABORT_MSG_IF(m_state.regulating, "RtiAmbassador: already regulating");
    m_state.lookahead = lookahead;
    RtiMessage m = Make(RtiMessage::ENABLE_TIME_REGULATION);
    m.time = lookahead;
    Call(std::move(m));
}

void
RtiAmbassador::DisableTimeRegulation()
{
    NS_LOG_FUNCTION(this);
    m_state.regulating = false;
    if (m_settings->GetGaltMode() == RtiSettings::NULL_MESSAGES)
    {
        SendNull(TimeBound(), false);
    }
    Call(Make(RtiMessage::DISABLE_TIME_REGULATION));
}

void
RtiAmbassador::EnableTimeConstrained()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_state.constrained || m_constrainedRequested,
                    "RtiAmbassador: already constrained");
    m_constrainedRequested = true;
    Call(Make(RtiMessage::ENABLE_TIME_CONSTRAINED));
}

void
RtiAmbassador::DisableTimeConstrained()
{
    NS_LOG_FUNCTION(this);
    m_state.constrained = false;
    // Queued TSO messages are now delivered in receive order.
    for (auto& [t, msg] : m_tsoQueue)
    {
        Deliver(std::move(msg), OrderType::RECEIVE);
    }
    m_tsoQueue.clear();
    m_state.pendingTso.clear();
    Call(Make(RtiMessage::DISABLE_TIME_CONSTRAINED));
}

void
RtiAmbassador::EnableAsynchronousDelivery()
{
    m_asyncDelivery = true;
    ChargeOperation(m_settings->CallCycles());
    ReleaseHeldRo();
    Flush();
}

void
RtiAmbassador::DisableAsynchronousDelivery()
{
    m_asyncDelivery = false;
    ChargeOperation(m_settings->CallCycles());
    Flush();
}

void
RtiAmbassador::TimeAdvanceRequest(LogicalTime time)
{
    Advance(AdvanceKind::TAR, time);
}

void
RtiAmbassador::TimeAdvanceRequestAvailable(LogicalTime time)
{
    Advance(AdvanceKind::TARA, time);
}

void
RtiAmbassador::NextMessageRequest(LogicalTime time)
{
    Advance(AdvanceKind::NER, time);
}

void
RtiAmbassador::NextMessageRequestAvailable(LogicalTime time)
{
    Advance(AdvanceKind::NERA, time);
}

void
RtiAmbassador::Advance(AdvanceKind kind, LogicalTime time)
{
    NS_LOG_FUNCTION(this << static_cast<int>(kind) << time);
    CheckJoined("time advance");
    NS_ABORT_MSG_IF(m_state.advancing, "RtiAmbassador: a time advance is already pending");
    NS_ABORT_MSG_IF(time < m_state.time,
                    "RtiAmbassador: requested time " << time << " < logical time " << m_state.time);
    m_state.advancing = true;
    m_state.kind = kind;
    m_state.requested = time;
    ReleaseHeldRo();
    if (m_settings->GetGaltMode() == RtiSettings::CENTRAL)
    {
        RtiMessage m = Make(RtiMessage::TIME_ADVANCE_REQUEST);
        m.SetAdvanceKind(kind);
        m.time = time;
        if (m_settings->GetTsoBookkeeping() == RtiSettings::TSO_COUNTS)
        {
            m.SetFlags(m.GetFlags() | RtiMessage::FLAG_COUNTS);
            m.handle = m_tsoSent;
            m.handle2 = m_tsoRead;
        }
        Call(std::move(m));
    }
    else
    {
        ChargeOperation(m_settings->CallCycles());
        EvaluateLocal();
        Flush();
    }
}

void
RtiAmbassador::ModifyLookahead(LogicalTime lookahead)
{
    NS_ABORT_MSG_IF(lookahead < 0, "RtiAmbassador: negative lookahead " << lookahead);
    NS_ABORT_MSG_IF(m_state.advancing,
                    "RtiAmbassador::ModifyLookahead: a time advance is pending "
                    "(IEEE 1516 InTimeAdvancingState)");
    // A reduction takes effect only as the federate's time advances (RtiTimeManager).
    RtiTimeManager::ModifyLookahead(m_state, lookahead);
    if (m_settings->GetGaltMode() == RtiSettings::CENTRAL)
    {
        RtiMessage m = Make(RtiMessage::MODIFY_LOOKAHEAD);
        m.time = lookahead;
        Call(std::move(m));
    }
    else
    {
        ChargeOperation(m_settings->CallCycles());
        EvaluateLocal();
        Flush();
    }
}

LogicalTime
RtiAmbassador::QueryLogicalTime() const
{
    return m_state.time;
}

LogicalTime
RtiAmbassador::QueryLookahead() const
{
    return m_state.lookahead;
}

TimeBound
RtiAmbassador::QueryGalt() const
{
    return LocalGalt();
}

bool
RtiAmbassador::IsAdvancing() const
{
    return m_state.advancing;
}

bool
RtiAmbassador::IsRegulating() const
{
    return m_state.regulating;
}

bool
RtiAmbassador::IsConstrained() const
{
    return m_state.constrained;
}

TimeBound
RtiAmbassador::LocalGalt() const
{
    TimeBound g;
    for (const auto& [f, b] : m_others)
    {
        if (b < g)
        {
            g = b;
        }
    }
    return g;
}

void
RtiAmbassador::SendNull(const TimeBound& bound, bool regulating)
{
    RtiMessage m = Make(RtiMessage::NULL_MESSAGE);
    uint8_t flags = regulating ? RtiMessage::FLAG_REGULATING : 0;
    if (bound.open)
    {
        flags |= RtiMessage::FLAG_OPEN;
    }
    m.SetFlags(flags);
    m.time = bound.IsInfinite() ? 0 : bound.t;
    m_lastBound = bound;
    m_boundSent = regulating;
    ++m_nNull;
    Call(std::move(m));
}

void
RtiAmbassador::EvaluateLocal()
{
    ChargeOperation(m_settings->TimeManagementCycles(m_others.size() + 1));
    TimeBound galt = LocalGalt();
    // enableTimeConstrained completes when no message at or before the federate's time can
    // still come (the rule of a TAR grant, under which a message at that time is late).
    if (m_constrainedAcked && !galt.Allows(m_state.time))
    {
        m_constrainedAcked = false;
        CompleteConstrained();
    }
    LogicalTime t;
    if (m_state.advancing && RtiTimeManager::CanGrant(m_state, galt, &t))
    {
        Grant(t);
    }
    else if (m_settings->GetTsoRelease() == RtiSettings::WHEN_GUARANTEED)
    {
        ReleaseGuaranteed(galt);
    }
    if (m_state.regulating)
    {
        TimeBound b = RtiTimeManager::OutputBound(m_state, galt);
        if (!m_boundSent || !(b == m_lastBound))
        {
            SendNull(b, true);
        }
    }
}

void
RtiAmbassador::ReleaseGuaranteed(const TimeBound& galt)
{
    if (!m_state.advancing || IsNextMessage(m_state.kind) || !m_state.constrained)
    {
        return; // a NER's messages are delivered with its grant (it is granted at the first)
    }
    while (!m_tsoQueue.empty())
    {
        LogicalTime ts = m_tsoQueue.begin()->first;
        if (ts > m_state.requested || galt.Allows(ts))
        {
            break;
        }
        RtiMessage m = std::move(m_tsoQueue.begin()->second);
        m_tsoQueue.erase(m_tsoQueue.begin());
        m_state.pendingTso.erase(m_state.pendingTso.find(ts));
        Deliver(std::move(m), OrderType::TIMESTAMP);
    }
}

void
RtiAmbassador::CompleteConstrained()
{
    m_state.constrained = true;
    m_constrainedRequested = false;
    ChargeCallback();
    LogicalTime t = m_state.time;
    FederateAmbassador* fa = m_fa;
    if (fa)
    {
        Callback([fa, t]() { fa->TimeConstrainedEnabled(t); });
    }
    if (m_settings->GetGaltMode() == RtiSettings::NULL_MESSAGES)
    {
        EvaluateLocal();
    }
}

// --- Receiving ---------------------------------------------------------------------------------

void
RtiAmbassador::ChargeCallback()
{
    if (m_settings->GetCallbackModel() == RtiSettings::IMMEDIATE)
    {
        ChargeOperation(m_settings->CallbackCycles());
    }
}

void
RtiAmbassador::Callback(std::function<void()> invoke)
{
    if (m_settings->GetCallbackModel() == RtiSettings::IMMEDIATE)
    {
        // The callback is a turn of the federate's thread: what it sends is written at its end.
        ++m_nCallbacks;
        DoTurn(std::move(invoke));
        return;
    }
    if (!m_evoking)
    {
        m_callbacks.push_back(std::move(invoke)); // until the federate evokes
        return;
    }
    // The federate's thread waits inside evoke: the callback runs now.
    Dispatch(std::move(invoke));
    if (!m_evokeMultiple)
    {
        m_evokeTimer.Cancel();
        EvokeReturn();
    }
}

void
RtiAmbassador::Dispatch(std::function<void()> invoke)
{
    ChargeOperation(m_settings->CallbackCycles());
    ++m_nCallbacks;
    ++m_evokeDelivered;
    DoTurn(std::move(invoke));
}

void
RtiAmbassador::EvokeReturn()
{
    m_evoking = false; // callbacks that come from now on wait for the next evoke
    uint32_t n = m_evokeDelivered;
    FederateAmbassador* fa = m_fa;
    DoTurn([fa, n]() {
        if (fa)
        {
            fa->EvokeReturned(n);
        }
    });
}

void
RtiAmbassador::EvokeCallback(double wait)
{
    NS_ABORT_MSG_IF(m_settings->GetCallbackModel() != RtiSettings::EVOKED,
                    "RtiAmbassador::EvokeCallback: the federation's CallbackModel is Immediate");
    NS_ABORT_MSG_IF(m_evoking, "RtiAmbassador::EvokeCallback: called inside an evoke");
    NS_ABORT_MSG_IF(!(wait >= 0), "RtiAmbassador::EvokeCallback: wait " << wait << " s < 0");
    CallTurn(); // a call from outside a turn ends with the event (its cost is flushed)
    ChargeOperation(m_settings->CallCycles());
    m_evoking = true;
    m_evokeMultiple = false;
    m_evokeDelivered = 0;
    if (!m_callbacks.empty())
    {
        std::function<void()> invoke = std::move(m_callbacks.front());
        m_callbacks.pop_front();
        Dispatch(std::move(invoke));
        EvokeReturn();
        return;
    }
    m_evokeTimer = Simulator::Schedule(Seconds(wait), [this]() { EvokeReturn(); });
}

void
RtiAmbassador::EvokeMultipleCallbacks(double min, double max)
{
    NS_ABORT_MSG_IF(m_settings->GetCallbackModel() != RtiSettings::EVOKED,
                    "RtiAmbassador::EvokeMultipleCallbacks: the federation's CallbackModel is "
                    "Immediate");
    NS_ABORT_MSG_IF(m_evoking, "RtiAmbassador::EvokeMultipleCallbacks: called inside an evoke");
    NS_ABORT_MSG_IF(!(min >= 0) || !(max >= min),
                    "RtiAmbassador::EvokeMultipleCallbacks: need 0 <= min <= max, got min "
                        << min << " s, max " << max << " s");
    CallTurn();
    ChargeOperation(m_settings->CallCycles());
    m_evoking = true;
    m_evokeMultiple = true;
    m_evokeDelivered = 0;
    while (!m_callbacks.empty())
    {
        std::function<void()> invoke = std::move(m_callbacks.front());
        m_callbacks.pop_front();
        Dispatch(std::move(invoke));
    }
    if (min == 0)
    {
        EvokeReturn();
        return;
    }
    m_evokeTimer = Simulator::Schedule(Seconds(min), [this]() { EvokeReturn(); });
}

uint32_t
RtiAmbassador::GetNQueuedCallbacks() const
{
    return m_callbacks.size();
}

uint64_t
RtiAmbassador::GetNCallbacks() const
{
    return m_nCallbacks;
}

void
RtiAmbassador::Deliver(RtiMessage msg, OrderType receivedOrder)
{
    ChargeCallback();
    if (receivedOrder == OrderType::TIMESTAMP)
    {
        ++m_nTso;
    }
    else
    {
        ++m_nRo;
    }
    m_deliverTrace(msg.IsTso() ? msg.time : 0.0, static_cast<uint8_t>(receivedOrder));
    FederateAmbassador* fa = m_fa;
    if (!fa)
    {
        return;
    }
    Callback([fa, msg = std::move(msg), receivedOrder]() {
        OrderType sent = msg.IsTso() ? OrderType::TIMESTAMP : OrderType::RECEIVE;
        TransportationType tr = (msg.GetFlags() & RtiMessage::FLAG_BEST_EFFORT)
                                    ? TransportationType::BEST_EFFORT
                                    : TransportationType::RELIABLE;
        LogicalTime t = msg.IsTso() ? msg.time : 0.0;
        if (msg.GetType() == RtiMessage::REFLECT_ATTRIBUTES)
        {
            fa->ReflectAttributeValues(msg.handle,
                                       msg.values,
                                       msg.tag,
                                       sent,
                                       tr,
                                       t,
                                       receivedOrder,
                                       msg.GetSource());
        }
        else
        {
            fa->ReceiveInteraction(msg.handle,
                                   msg.values,
                                   msg.tag,
                                   sent,
                                   tr,
                                   t,
                                   receivedOrder,
                                   msg.GetSource());
        }
    });
}

void
RtiAmbassador::ReleaseHeldRo()
{
    while (!m_heldRo.empty())
    {
        RtiMessage m = std::move(m_heldRo.front());
        m_heldRo.pop_front();
        Deliver(std::move(m), OrderType::RECEIVE);
    }
}

void
RtiAmbassador::Grant(LogicalTime t)
{
    NS_LOG_LOGIC("federate " << m_handle << " granted " << t << " at "
                             << Simulator::Now().As(Time::US));
    RtiTimeManager::ApplyGrant(m_state, t);
    while (!m_tsoQueue.empty() && m_tsoQueue.begin()->first <= t)
    {
        RtiMessage m = std::move(m_tsoQueue.begin()->second);
        m_tsoQueue.erase(m_tsoQueue.begin());
        Deliver(std::move(m), OrderType::TIMESTAMP);
    }
    ++m_nGrants;
    m_grantTrace(t);
    ChargeCallback();
    FederateAmbassador* fa = m_fa;
    if (fa)
    {
        Callback([fa, t]() { fa->TimeAdvanceGrant(t); });
    }
}

void
RtiAmbassador::NoteRead(const RtiMessage& msg)
{
    ++m_tsoRead;
    if (m_settings->GetTsoBookkeeping() != RtiSettings::TSO_READ_NOTES || !m_state.constrained
        || m_settings->GetGaltMode() != RtiSettings::CENTRAL)
    {
        return;
    }
    // The CRC holds this federate's grants at or past the timestamp until the note is in.
    RtiMessage note = Make(RtiMessage::TSO_NOTE_READ);
    note.handle = msg.GetSource();
    note.time = msg.time;
    note.SetSerial(++m_serial);
    Transmit(m_conn, std::move(note));
}

void
RtiAmbassador::HandleMessage(Ptr<RtiConnection> conn, RtiMessage& msg)
{
    FederateAmbassador* fa = m_fa;
    switch (msg.GetType())
    {
        case RtiMessage::JOIN_RESPONSE: {
            m_handle = msg.handle;
            ChargeCallback();
            FederateHandle h = m_handle;
            if (fa)
            {
                Callback([fa, h]() { fa->FederationJoined(h); });
            }
            break;
        }
        case RtiMessage::ANNOUNCE_SYNC_POINT:
            ChargeCallback();
            if (fa)
            {
                Callback([fa, msg]() { fa->AnnounceSynchronizationPoint(msg.name, msg.tag); });
            }
            break;
        case RtiMessage::FEDERATION_SYNCHRONIZED:
            ChargeCallback();
            if (fa)
            {
                Callback([fa, msg]() { fa->FederationSynchronized(msg.name); });
            }
            break;
        case RtiMessage::DISCOVER_OBJECT:
            ChargeCallback();
            if (fa)
            {
                Callback(
                    [fa, msg]() { fa->DiscoverObjectInstance(msg.handle2, msg.handle, msg.name); });
            }
            break;
        case RtiMessage::REFLECT_ATTRIBUTES:
        case RtiMessage::RECEIVE_INTERACTION:
            if (msg.IsTso())
            {
                NoteRead(msg);
            }
            if (msg.IsTso() && m_state.constrained)
            {
                bool late = msg.time < m_state.time
                            || (msg.time == m_state.time && !m_state.lastGrantAvailable);
                if (late)
                {
                    ++m_nLate;
                    NS_LOG_WARN("federate " << m_handle << ": TSO message at " << msg.time
                                            << " after a grant to " << m_state.time);
                    Deliver(std::move(msg), OrderType::RECEIVE);
                    break;
                }
                LogicalTime ts = msg.time;
                m_tsoQueue.emplace(ts, std::move(msg));
                m_state.pendingTso.insert(ts);
                if (m_settings->GetGaltMode() == RtiSettings::NULL_MESSAGES)
                {
                    EvaluateLocal();
                }
            }
            else if (!m_state.constrained || m_asyncDelivery || m_state.advancing)
            {
                Deliver(std::move(msg), OrderType::RECEIVE);
            }
            else
            {
                m_heldRo.push_back(std::move(msg));
            }
            break;
        case RtiMessage::TIME_REGULATION_ENABLED: {
            m_state.regulating = true;
            m_state.time = msg.time;
            ChargeCallback();
            LogicalTime t = msg.time;
            if (fa)
            {
                Callback([fa, t]() { fa->TimeRegulationEnabled(t); });
            }
            if (m_settings->GetGaltMode() == RtiSettings::NULL_MESSAGES)
            {
                EvaluateLocal();
            }
            break;
        }
        case RtiMessage::TIME_CONSTRAINED_ENABLED:
            if (m_settings->GetGaltMode() == RtiSettings::NULL_MESSAGES)
            {
                // The CRC only acknowledges: this component checks GALT itself.
                m_constrainedAcked = true;
                EvaluateLocal();
            }
            else
            {
                CompleteConstrained();
            }
            break;
        case RtiMessage::TIME_ADVANCE_GRANT:
            NS_ABORT_MSG_IF(!m_state.advancing,
                            "RtiAmbassador: grant to " << msg.time << " without a request");
            Grant(msg.time);
            break;
        case RtiMessage::NULL_MESSAGE:
            if (m_settings->GetGaltMode() == RtiSettings::CENTRAL)
            {
                // The CRC's notice of this federate's GALT (TsoRelease WhenGuaranteed).
                ReleaseGuaranteed(
                    TimeBound{msg.time, (msg.GetFlags() & RtiMessage::FLAG_OPEN) != 0});
                break;
            }
            if (msg.GetSource() == m_handle)
            {
                break;
            }
            if (msg.GetFlags() & RtiMessage::FLAG_REGULATING)
            {
                m_others[msg.GetSource()]
                    = TimeBound{msg.time, (msg.GetFlags() & RtiMessage::FLAG_OPEN) != 0};
            }
            else
            {
                m_others.erase(msg.GetSource());
            }
            EvaluateLocal();
            break;
        default:
            NS_LOG_WARN("RtiAmbassador: unexpected " << msg);
            break;
    }
}

// --- Support -----------------------------------------------------------------------------------

ObjectClassHandle
RtiAmbassador::GetObjectClassHandle(const std::string& name) const
{
    return m_fom->GetObjectClassHandle(name);
}

AttributeHandle
RtiAmbassador::GetAttributeHandle(ObjectClassHandle cls, const std::string& name) const
{
    return m_fom->GetAttributeHandle(cls, name);
}

InteractionClassHandle
RtiAmbassador::GetInteractionClassHandle(const std::string& name) const
{
    return m_fom->GetInteractionClassHandle(name);
}

ParameterHandle
RtiAmbassador::GetParameterHandle(InteractionClassHandle cls, const std::string& name) const
{
    return m_fom->GetParameterHandle(cls, name);
}

FederateHandle
RtiAmbassador::GetFederateHandle() const
{
    return m_handle;
}

bool
RtiAmbassador::IsLocal() const
{
    return m_conn && m_conn->IsLocal();
}

uint64_t
RtiAmbassador::GetNTsoDelivered() const
{
    return m_nTso;
}

uint64_t
RtiAmbassador::GetNRoDelivered() const
{
    return m_nRo;
}

uint64_t
RtiAmbassador::GetNGrants() const
{
    return m_nGrants;
}

uint64_t
RtiAmbassador::GetNNullSent() const
{
    return m_nNull;
}

uint64_t
RtiAmbassador::GetNLateTso() const
{
    return m_nLate;
}

} // namespace ns3
