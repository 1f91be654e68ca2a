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
