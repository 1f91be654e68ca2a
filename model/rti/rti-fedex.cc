/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-fedex.h"

#include "rti-lrc.h"

#include "ns3/host-platform.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiFedex");

NS_OBJECT_ENSURE_REGISTERED(RtiFedex);
NS_OBJECT_ENSURE_REGISTERED(RtiExec);

TypeId
RtiFedex::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiFedex")
                            .SetParent<Object>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiFedex>();
    return tid;
}

RtiFedex::RtiFedex()
    : m_requests(0)
    , m_grants(0)
{
}

RtiFedex::~RtiFedex()
{
}

void
RtiFedex::DoDispose()
{
    m_process = nullptr;
    m_settings = nullptr;
    m_federates.clear();
    m_pub.clear();
    m_sub.clear();
    m_granted.clear();
    Object::DoDispose();
}

void
RtiFedex::Setup(Ptr<HostProcess> process, Ptr<RtiSettings> settings, const std::string& name)
{
    m_process = process;
    m_settings = settings;
    m_name = name;
}

std::string
RtiFedex::GetName() const
{
    return m_name;
}

Ptr<RtiSettings>
RtiFedex::GetSettings() const
{
    return m_settings;
}

Ptr<HostProcess>
RtiFedex::GetProcess() const
{
    return m_process;
}

uint32_t
RtiFedex::GetNFederates() const
{
    return m_federates.size();
}

uint64_t
RtiFedex::GetRequests() const
{
    return m_requests;
}

void
RtiFedex::Request(std::function<void()> action)
{
    ++m_requests;
    double cycles = m_settings->AdminCycles() * m_process->GetPlatform()->GetReferenceCycleFactor();
    m_process->ExecuteCycles(cycles, Callback<void>(action));
}

void
RtiFedex::Join(Ptr<RtiLrc> lrc, const std::string& name)
{
    NS_ABORT_MSG_IF(!m_names.insert(name).second,
                    "RtiFedex " << m_name << ": a federate named " << name << " has joined");
    m_federates.push_back(lrc);
    lrc->SetHandle(m_federates.size());
    NS_LOG_INFO("federation " << m_name << ": " << name << " joined as " << m_federates.size());
    Request([lrc]() { lrc->ChargeAdmin(Callback<void>()); });
}

void
RtiFedex::Publish(Ptr<RtiLrc> lrc, uint32_t objectClass)
{
    if (!m_isPub.insert({PeekPointer(lrc), objectClass}).second)
    {
        return;
    }
    m_pub[objectClass].push_back(lrc);
    // The routes exist from the call on (a publisher's first update queues behind the request
    // in simulated time anyway); the request's cost is charged to both processes.
    for (const auto& s : m_sub[objectClass])
    {
        if (s != lrc)
        {
            lrc->AddRoute(objectClass, s);
        }
    }
    Request([lrc]() { lrc->ChargeAdmin(Callback<void>()); });
}

void
RtiFedex::Subscribe(Ptr<RtiLrc> lrc, uint32_t objectClass)
{
    for (const auto& s : m_sub[objectClass])
    {
        if (s == lrc)
        {
            return;
        }
    }
    m_sub[objectClass].push_back(lrc);
    for (const auto& p : m_pub[objectClass])
    {
        if (p != lrc)
        {
            p->AddRoute(objectClass, lrc);
            Request([p]() { p->ChargeAdmin(Callback<void>()); });
        }
    }
    Request([lrc]() { lrc->ChargeAdmin(Callback<void>()); });
}

bool
RtiFedex::IsPublisher(Ptr<const RtiLrc> lrc, uint32_t objectClass) const
{
    return m_isPub.count({PeekPointer(lrc), objectClass}) > 0;
}

namespace
{
/**
 * The logical time of a simulation time: nanoseconds, so that a time plus a lookahead is exact
 * (whole numbers below 2^53 in a double).
 * @param t the time
 * @return its logical time
 */
LogicalTime
ToLogical(Time t)
{
    return static_cast<LogicalTime>(t.GetNanoSeconds());
}
} // namespace

void
RtiFedex::EnableTimeManagement(Ptr<RtiLrc> lrc, Time lookahead)
{
    NS_ABORT_MSG_IF(lookahead.IsNegative(), "RtiFedex: negative lookahead");
    RtiTimeManager::State& s = m_tm.Get(lrc->GetHandle());
    s.regulating = true;
    s.constrained = true;
    s.time = 0;
    s.lookahead = ToLogical(lookahead);
}

void
RtiFedex::RequestAdvance(Ptr<RtiLrc> lrc, Time t, Callback<void> granted)
{
    const uint32_t h = lrc->GetHandle();
    NS_ABORT_MSG_IF(!m_tm.Has(h), "RtiFedex: federate " << h << " is not time-managed");
    RtiTimeManager::State& s = m_tm.Get(h);
    NS_ABORT_MSG_IF(s.advancing, "RtiFedex: federate " << h << " is already advancing");
    NS_ABORT_MSG_IF(ToLogical(t) < s.time, "RtiFedex: TAR before the federate's time");
    // TimeAdvanceRequest(t): from the call on, the federate promises no timestamp below t + L.
    s.advancing = true;
    s.kind = AdvanceKind::TAR;
    s.requested = ToLogical(t);
    m_granted[h] = granted;
    Request([this]() { GrantAll(); });
}

void
RtiFedex::NoteSent(Ptr<RtiLrc> lrc, uint32_t objectClass, Time ts)
{
    const uint32_t h = lrc->GetHandle();
    NS_ABORT_MSG_IF(!m_tm.Has(h), "RtiFedex: federate " << h << " is not time-managed");
    const TimeBound bound
        = RtiTimeManager::OutputBound(m_tm.Get(h), RtiTimeManager::Galt(h, m_tm.ComputeBounds()));
    NS_ABORT_MSG_IF(!bound.Allows(ToLogical(ts)),
                    "RtiFedex: federate " << h << " sends timestamp " << ts
                                          << " below its output bound " << bound.t << " ns");
    for (const Ptr<RtiLrc>& r : m_sub[objectClass])
    {
        if (r != lrc && m_tm.Has(r->GetHandle()))
        {
            m_inFlight[r->GetHandle()].insert(ToLogical(ts));
        }
    }
}

void
RtiFedex::NoteRead(Ptr<RtiLrc> lrc, Time ts)
{
    auto it = m_inFlight.find(lrc->GetHandle());
    if (it == m_inFlight.end())
    {
        return;
    }
    auto m = it->second.find(ToLogical(ts));
    if (m != it->second.end())
    {
        it->second.erase(m);
        GrantAll();
    }
}

void
RtiFedex::GrantAll()
{
    const std::map<FederateHandle, TimeBound> bounds = m_tm.ComputeBounds();
    for (const Ptr<RtiLrc>& lrc : m_federates)
    {
        const uint32_t h = lrc->GetHandle();
        if (!m_tm.Has(h) || !m_tm.Get(h).advancing)
        {
            continue;
        }
        RtiTimeManager::State& s = m_tm.Get(h);
        LogicalTime g = 0;
        if (!RtiTimeManager::CanGrant(s, RtiTimeManager::Galt(h, bounds), &g))
        {
            continue;
        }
        // On the direct path updates do not pass through the Fedex: an update stamped <= g that
        // the federate has not read yet is still on its way (or in its queue); wait for it.
        const auto& unread = m_inFlight[h];
        if (!unread.empty() && *unread.begin() <= g)
        {
            continue;
        }
        RtiTimeManager::ApplyGrant(s, g);
        ++m_grants;
        Callback<void> cb = m_granted[h];
        m_granted.erase(h);
        // A grant leaves the federate's bound where its request put it: the others' GALT does
        // not change, one pass suffices.
        lrc->ChargeAdmin(cb);
    }
}

uint64_t
RtiFedex::GetGrants() const
{
    return m_grants;
}

TypeId
RtiExec::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiExec")
                            .SetParent<Object>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiExec>();
    return tid;
}

RtiExec::RtiExec()
{
}

RtiExec::~RtiExec()
{
}

void
RtiExec::DoDispose()
{
    m_platform = nullptr;
    m_process = nullptr;
    m_settings = nullptr;
    m_fedexes.clear();
    Object::DoDispose();
}

void
RtiExec::Setup(Ptr<HostPlatform> platform, Ptr<RtiSettings> settings)
{
    NS_ABORT_MSG_IF(settings->GetDataPath() != RtiSettings::DIRECT,
                    "RtiExec: the RTI's DataPath is not Direct");
    m_platform = platform;
    m_settings = settings;
    m_process = platform->CreateProcess();
}

Ptr<RtiFedex>
RtiExec::CreateFederation(const std::string& name)
{
    NS_ABORT_MSG_IF(!m_platform, "RtiExec::CreateFederation before Setup");
    NS_ABORT_MSG_IF(m_fedexes.count(name), "RtiExec: federation " << name << " exists");
    Ptr<RtiFedex> fedex = CreateObject<RtiFedex>();
    Ptr<HostProcess> process = m_platform->CreateProcess();
    fedex->Setup(process, m_settings, name);
    m_fedexes[name] = fedex;
    // The RTIexec's work of launching the Fedex (fork and exec are the host's).
    m_process->ExecuteCycles(m_settings->AdminCycles() * m_platform->GetReferenceCycleFactor());
    return fedex;
}

} // namespace ns3
