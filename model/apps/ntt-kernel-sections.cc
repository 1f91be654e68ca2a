/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ntt-kernel-sections.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NttKernelSections");
NS_OBJECT_ENSURE_REGISTERED(NttKernelSections);

TypeId
NttKernelSections::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NttKernelSections")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<NttKernelSections>()
              .AddAttribute("SyncInterval",
                            "Period of the update daemon's sync (0 s: none)",
                            TimeValue(Seconds(30)),
                            MakeTimeAccessor(&NttKernelSections::m_syncInterval),
                            MakeTimeChecker(Seconds(0), Seconds(3600)))
              .AddAttribute("SyncDuration",
                            "CPU time of one sync in the kernel",
                            TimeValue(MilliSeconds(1)),
                            MakeTimeAccessor(&NttKernelSections::m_syncDuration),
                            MakeTimeChecker(Seconds(0), Seconds(1)))
              .AddAttribute("OtherRate",
                            "System calls of other processes per second (Poisson; 0: none)",
                            DoubleValue(0),
                            MakeDoubleAccessor(&NttKernelSections::m_otherRate),
                            MakeDoubleChecker<double>(0, 1e5))
              .AddAttribute("OtherDuration",
                            "CPU time of one such system call",
                            TimeValue(MicroSeconds(500)),
                            MakeTimeAccessor(&NttKernelSections::m_otherDuration),
                            MakeTimeChecker(Seconds(0), Seconds(1)));
    return tid;
}

NttKernelSections::NttKernelSections()
    : m_syncInterval(Seconds(30))
    , m_syncDuration(MilliSeconds(1))
    , m_otherRate(0)
    , m_otherDuration(MicroSeconds(500))
    , m_phase(CreateObject<UniformRandomVariable>())
    , m_gap(CreateObject<ExponentialRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

NttKernelSections::~NttKernelSections()
{
    NS_LOG_FUNCTION(this);
}

int64_t
NttKernelSections::AssignStreams(int64_t stream)
{
    m_phase->SetStream(stream);
    m_gap->SetStream(stream + 1);
    return 2;
}

const std::vector<Time>&
NttKernelSections::GetSections() const
{
    return m_sections;
}

void
NttKernelSections::DoDispose()
{
    m_update = nullptr;
    m_other = nullptr;
    Application::DoDispose();
}

void
NttKernelSections::StartApplication()
{
    NS_LOG_FUNCTION(this);
    Ptr<HostPlatform> host = GetNode()->GetObject<HostPlatform>();
    NS_ABORT_MSG_IF(!host,
                    "NttKernelSections: node " << GetNode()->GetId() << " has no HostPlatform");
    if (m_syncInterval.IsStrictlyPositive())
    {
        m_update = host->CreateProcess();
        const Time first = Seconds(m_phase->GetValue(0, m_syncInterval.GetSeconds()));
        m_syncEvent = Simulator::Schedule(first, &NttKernelSections::Sync, this);
    }
    if (m_otherRate > 0)
    {
        m_other = host->CreateProcess();
        m_otherEvent = Simulator::Schedule(Seconds(m_gap->GetValue(1.0 / m_otherRate, 0)),
                                           &NttKernelSections::Other,
                                           this);
    }
}

void
NttKernelSections::StopApplication()
{
    m_syncEvent.Cancel();
    m_otherEvent.Cancel();
}

void
NttKernelSections::Sync()
{
    m_sections.push_back(Simulator::Now());
    m_update->Execute(m_syncDuration);
    m_syncEvent = Simulator::Schedule(m_syncInterval, &NttKernelSections::Sync, this);
}

void
NttKernelSections::Other()
{
    m_sections.push_back(Simulator::Now());
    m_other->Execute(m_otherDuration);
    m_otherEvent = Simulator::Schedule(Seconds(m_gap->GetValue(1.0 / m_otherRate, 0)),
                                       &NttKernelSections::Other,
                                       this);
}

} // namespace ns3
