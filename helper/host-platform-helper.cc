/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-platform-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/host-cpu.h"
#include "ns3/integer.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/profile.h"
#include "ns3/string.h"
#include "ns3/tcp-bic.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/uinteger.h"
#include "ns3/user-attributes.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostPlatformHelper");

HostPlatformHelper::HostPlatformHelper()
    : m_installNics(true)
{
    m_platform.SetTypeId(HostPlatform::GetTypeId());
    m_nic.SetTypeId(HostNic::GetTypeId());
}

HostPlatformHelper::HostPlatformHelper(const std::string& profile)
    : HostPlatformHelper()
{
    SetProfile(profile);
}

void
HostPlatformHelper::SetProfile(const std::string& profile)
{
    const Profile& p = Profile::Get("host", profile);
    m_platform = ObjectFactory();
    m_platform.SetTypeId(HostPlatform::GetTypeId());
    m_nic = ObjectFactory();
    m_nic.SetTypeId(HostNic::GetTypeId());
    // A profile's values are defaults: a user's --ns3::HostPlatform::<name>= (HostCpu,
    // HostNic) replaces them.
    for (const auto& [name, value] : p.GetSection("HostPlatform"))
    {
        UserAttributes::SetDefault(m_platform, name, StringValue(value));
    }
    m_cpuSettings.clear();
    for (const auto& [name, value] : p.GetSection("HostCpu"))
    {
        m_cpuSettings.emplace_back(name, value);
    }
    for (const auto& [name, value] : p.GetSection("HostNic"))
    {
        UserAttributes::SetDefault(m_nic, name, StringValue(value));
    }
    UserAttributes::SetFixed(m_platform, "Profile", StringValue(profile), "the profile it used");
}

void
HostPlatformHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    UserAttributes::SetFixed(m_platform,
                             name,
                             value,
                             "from its options, through HostPlatformHelper::SetAttribute");
}

void
HostPlatformHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    UserAttributes::SetFixed(m_nic,
                             name,
                             value,
                             "from its options, through HostPlatformHelper::SetNicAttribute");
}

void
HostPlatformHelper::SetInstallNics(bool install)
{
    m_installNics = install;
}

Ptr<HostPlatform>
HostPlatformHelper::Install(Ptr<Node> node) const
{
    NS_ABORT_MSG_IF(node->GetObject<HostPlatform>(),
                    "HostPlatformHelper: node " << node->GetId() << " already has a platform");
    Ptr<HostPlatform> platform = m_platform.Create<HostPlatform>();
    node->AggregateObject(platform);
    for (const auto& [name, value] : m_cpuSettings)
    {
        UserAttributes::SetDefault(platform->GetCpu(), name, StringValue(value));
    }
    // The profile builds the CPU and the timer from texts ("ns3::HostCpu[Frequency=3e9|...]",
    // "ns3::TickTimer[Frequency=250|...]") whose values would replace a user's
    // --ns3::HostCpu::Frequency= or --ns3::TickTimer::Frequency=: put the user's back.
    UserAttributes::Restore(platform->GetCpu());
    if (platform->GetTimer())
    {
        UserAttributes::Restore(platform->GetTimer());
    }
    platform->SetNicFactory(m_nic);
    if (m_installNics)
    {
        Ptr<Ipv4L3Protocol> ipv4 = node->GetObject<Ipv4L3Protocol>();
        Ptr<Ipv6L3Protocol> ipv6 = node->GetObject<Ipv6L3Protocol>();
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<NetDevice> dev = node->GetDevice(i);
            if (DynamicCast<LoopbackNetDevice>(dev))
            {
                continue;
            }
            bool hasL3 = (ipv4 && ipv4->GetInterfaceForDevice(dev) >= 0)
                         || (ipv6 && ipv6->GetInterfaceForDevice(dev) >= 0);
            NS_ABORT_MSG_IF(!hasL3,
                            "HostPlatformHelper: device "
                                << i << " of node " << node->GetId()
                                << " has no IP interface; install the internet stack and "
                                   "assign addresses before the host platforms (or "
                                   "SetInstallNics(false))");
            platform->InstallNic(dev);
        }
    }
    return platform;
}

void
HostPlatformHelper::Install(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

int64_t
HostPlatformHelper::AssignStreams(NodeContainer nodes, int64_t stream)
{
    int64_t used = 0;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<HostPlatform> p = (*it)->GetObject<HostPlatform>();
        NS_ABORT_MSG_IF(!p, "HostPlatformHelper::AssignStreams: node without platform");
        used += p->AssignStreams(stream + used);
    }
    return used;
}

void
HostPlatformHelper::ConfigureLinux26Tcp()
{
    UserAttributes::SetConfigDefault("ns3::TcpL4Protocol::SocketType",
                                     TypeIdValue(TcpBic::GetTypeId()));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(3));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(40)));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::SndBufSize", UintegerValue(131072));
    UserAttributes::SetConfigDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(174760));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    // Linux 2.6's tcp_set_rto: RTO = srtt + rttvar, rttvar = max(mdev_max, TCP_RTO_MIN) (mdev
    // is four mean deviations, tcp_rtt_estimator), i.e. srtt + max(4 mdev, 200 ms). ns-3's
    // RTO is max(srtt + max(ClockGranularity, 4 rttvar), MinRto): the same with a granularity
    // of TCP_RTO_MIN.
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::ClockGranularity",
                                     TimeValue(MilliSeconds(200)));
    // tcp_retries2 = 15: retransmissions of a segment before the connection is given up.
    UserAttributes::SetConfigDefault("ns3::TcpSocket::DataRetries", UintegerValue(15));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    UserAttributes::SetConfigDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
}

std::string
HostPlatformHelper::CpuSetting(const std::string& profile, const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(HostCpu::GetTypeId().LookupAttributeByName(name, &info));
    std::string value = info.initialValue->SerializeToString(info.checker);
    if (UserAttributes::IsGiven(HostCpu::GetTypeId(), name))
    {
        return value; // the user's --ns3::HostCpu::<name> wins over the profiles
    }
    // Install sets the "HostCpu." settings on the CPU after it is created from its object
    // value: they win over a value inside it, whatever their order in the profile.
    std::string whole;
    const std::string key = name + "=";
    for (const auto& [k, v] : Profile::Get("host", profile).GetSettings())
    {
        if (k == "HostCpu." + name)
        {
            whole = v;
        }
        for (auto at = v.find(key); at != std::string::npos; at = v.find(key, at + 1))
        {
            if (at > 0 && (v[at - 1] == '[' || v[at - 1] == '|'))
            {
                const auto begin = at + key.size();
                value = v.substr(begin, v.find_first_of("|]", begin) - begin);
            }
        }
    }
    return whole.empty() ? value : whole;
}

bool
HostPlatformHelper::TryCheckCpu(const std::string& profile, std::string& error)
{
    UintegerValue cores;
    IntegerValue interruptCore;
    const TypeId tid = HostCpu::GetTypeId();
    TypeId::AttributeInformation coresInfo;
    TypeId::AttributeInformation interruptInfo;
    NS_ABORT_UNLESS(tid.LookupAttributeByName("Cores", &coresInfo)
                    && tid.LookupAttributeByName("InterruptCore", &interruptInfo));
    // The values' syntax and ranges were checked with the profile (Profile::TryCheck) and the
    // user's attributes (UserAttributes::Check): a value that does not read is theirs to name.
    if (!cores.DeserializeFromString(CpuSetting(profile, "Cores"), coresInfo.checker)
        || !interruptCore.DeserializeFromString(CpuSetting(profile, "InterruptCore"),
                                                interruptInfo.checker))
    {
        return true;
    }
    std::string why;
    if (!HostCpu::CheckCores(static_cast<uint32_t>(cores.Get()),
                             CpuSetting(profile, "ShieldedCores"),
                             static_cast<int32_t>(interruptCore.Get()),
                             why))
    {
        error = "host profile " + profile + " (with the --ns3::HostCpu:: values given): HostCpu "
                + why;
        return false;
    }
    return true;
}

} // namespace ns3
