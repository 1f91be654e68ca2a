/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "emulated-testbed-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/host-platform-helper.h"
#include "ns3/host-platform.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/neighbor-cache-helper.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/tick-timer.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/user-attributes.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EmulatedTestbedHelper");

namespace
{

/**
 * Give a device an IPv4 address (what Ipv4AddressHelper does, without its global generator and
 * its default queue disc).
 * @param device the device
 * @param address the address
 * @param mask the network mask
 * @return the interface index
 */
uint32_t
AssignAddress(Ptr<NetDevice> device, Ipv4Address address, Ipv4Mask mask)
{
    Ptr<Ipv4> ipv4 = device->GetNode()->GetObject<Ipv4>();
    int32_t interface = ipv4->GetInterfaceForDevice(device);
    if (interface == -1)
    {
        interface = static_cast<int32_t>(ipv4->AddInterface(device));
    }
    ipv4->AddAddress(interface, Ipv4InterfaceAddress(address, mask));
    ipv4->SetMetric(interface, 1);
    ipv4->SetUp(interface);
    return static_cast<uint32_t>(interface);
}

/**
 * Install pfifo_fast (Linux's default queue disc) on a host device.
 * @param device the device
 */
void
InstallHostQueueDisc(Ptr<NetDevice> device)
{
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    if (tc->GetRootQueueDiscOnDevice(device))
    {
        tc->DeleteRootQueueDiscOnDevice(device);
    }
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc");
    tch.Install(device);
}

/**
 * Address number @p host of @p network.
 * @param network the network address
 * @param mask the mask
 * @param host the host number
 * @return the address
 */
Ipv4Address
HostAddress(Ipv4Address network, Ipv4Mask mask, uint32_t host)
{
    NS_ABORT_MSG_IF((host & mask.Get()) != 0,
                    "EmulatedTestbedHelper: mask " << mask << " leaves no room for host " << host);
    return Ipv4Address(network.CombineMask(mask).Get() | host);
}

} // namespace

NodeContainer
EmulatedTestbed::GetNodes() const
{
    NodeContainer c;
    c.Add(hostA);
    c.Add(emulator);
    c.Add(hostB);
    return c;
}

NetDeviceContainer
EmulatedTestbed::GetDevices() const
{
    NetDeviceContainer c;
    c.Add(hostADevice);
    c.Add(emulatorADevice);
    c.Add(emulatorBDevice);
    c.Add(hostBDevice);
    return c;
}

EmulatedTestbedHelper::EmulatedTestbedHelper()
    : m_networkA("10.1.1.0")
    , m_networkB("10.1.2.0")
    , m_mask("255.255.255.0")
    , m_populateArp(true)
    , m_installNics(true)
    , m_randomPhase(false)
    , m_linuxTcp(false)
    , m_releaseOnCpu(false)
    , m_nicHost(EthernetNetDevice::FORCED_HALF)
    , m_nicEmulator(EthernetNetDevice::FORCED_HALF)
{
    // The testbed's default (a user's --ns3::LinkEmulatorQueueDisc::Semantics replaces it).
    m_emulator.SetDefaultAttribute("Semantics", EnumValue(LinkEmulatorQueueDisc::NIST_NET));
}

EmulatedTestbedHelper
EmulatedTestbedHelper::Jaxa06()
{
    EmulatedTestbedHelper helper;
    helper.SetDataRate(DataRate("100Mbps"));
    helper.SetHostProfile("pc2006-linux26");
    helper.SetEmulatorProfile("nistnet-linux24");
    // One real-time clock on the NIST Net PC drives the release in both directions. Its tick
    // phase relative to the experiment is arbitrary: drawn per run (AssignStreams).
    helper.SetEmulatorTimer(CreateNistNetTimer());
    helper.SetRandomTimerPhase(true);
    helper.SetLinuxTcp(true);
    // NIST Net releases in its RTC interrupt handler, on the PC's one CPU, after the hard
    // interrupt work queued before it (the NICs' handlers, the kernel's tick).
    helper.SetReleaseOnEmulatorCpu(true);
    return helper;
}

Ptr<TimerModel>
EmulatedTestbedHelper::CreateNistNetTimer()
{
    Ptr<TickTimer> rtc = CreateObject<TickTimer>();
    UserAttributes::SetDefault(rtc, "Frequency", DoubleValue(NISTNET_RTC_HZ));
    return rtc;
}

void
EmulatedTestbedHelper::SetHostProfile(const std::string& profile)
{
    m_hostProfile = profile;
}

void
EmulatedTestbedHelper::SetEmulatorProfile(const std::string& profile)
{
    m_emulatorProfile = profile;
}

std::string
EmulatedTestbedHelper::GetHostProfile() const
{
    return m_hostProfile;
}

std::string
EmulatedTestbedHelper::GetEmulatorProfile() const
{
    return m_emulatorProfile;
}

void
EmulatedTestbedHelper::SetInstallNics(bool install)
{
    m_installNics = install;
}

void
EmulatedTestbedHelper::SetEmulatorTimer(Ptr<TimerModel> timer)
{
    m_timer = timer;
}

void
EmulatedTestbedHelper::SetRandomTimerPhase(bool random)
{
    m_randomPhase = random;
}

void
EmulatedTestbedHelper::SetLinuxTcp(bool enable)
{
    m_linuxTcp = enable;
}

void
EmulatedTestbedHelper::SetReleaseOnEmulatorCpu(bool onCpu)
{
    m_releaseOnCpu = onCpu;
}

void
EmulatedTestbedHelper::SetDuplex(EthernetLinkHelper::Duplex duplex)
{
    m_ethernet.SetDuplex(duplex);
}

void
EmulatedTestbedHelper::SetNicDuplex(EthernetNetDevice::Duplex host,
                                    EthernetNetDevice::Duplex emulator)
{
    m_nicHost = host;
    m_nicEmulator = emulator;
}

void
EmulatedTestbedHelper::SetDataRate(DataRate rate)
{
    m_ethernet.SetDataRate(rate);
}

void
EmulatedTestbedHelper::SetCableDelay(Time delay)
{
    m_ethernet.SetCableDelay(delay);
}

void
EmulatedTestbedHelper::SetNetworks(Ipv4Address networkA, Ipv4Address networkB, Ipv4Mask mask)
{
    NS_ABORT_MSG_IF(networkA.CombineMask(mask) == networkB.CombineMask(mask),
                    "EmulatedTestbedHelper: networks " << networkA << " and " << networkB
                                                       << " overlap under mask " << mask);
    m_networkA = networkA;
    m_networkB = networkB;
    m_mask = mask;
}

void
EmulatedTestbedHelper::SetEmulatorAttribute(const std::string& name, const AttributeValue& value)
{
    m_emulator.SetAttribute(name, value);
}

void
EmulatedTestbedHelper::SetEmulatorAttribute(LinkEmulatorHelper::Direction direction,
                                            const std::string& name,
                                            const AttributeValue& value)
{
    m_emulator.SetAttribute(direction, name, value);
}

void
EmulatedTestbedHelper::SetPopulateArpCaches(bool enable)
{
    m_populateArp = enable;
}

void
EmulatedTestbedHelper::EnablePcap(const std::string& prefix)
{
    m_pcapPrefix = prefix;
}

EmulatedTestbed
EmulatedTestbedHelper::Install() const
{
    // One after the other: node ids in the order host A, emulator, host B.
    Ptr<Node> hostA = CreateObject<Node>();
    Ptr<Node> emulator = CreateObject<Node>();
    Ptr<Node> hostB = CreateObject<Node>();
    return Install(hostA, emulator, hostB);
}

EmulatedTestbed
EmulatedTestbedHelper::Install(Ptr<Node> hostA, Ptr<Node> emulator, Ptr<Node> hostB) const
{
    NS_LOG_FUNCTION(this << hostA << emulator << hostB);
    NS_ABORT_MSG_IF(!hostA || !emulator || !hostB, "EmulatedTestbedHelper::Install: null node");
    NS_ABORT_MSG_IF(m_randomPhase && !DynamicCast<TickTimer>(m_timer),
                    "EmulatedTestbedHelper: a random timer phase needs a TickTimer as the "
                    "emulator timer");
    if (m_linuxTcp)
    {
        HostPlatformHelper::ConfigureLinux26Tcp();
    }
    EmulatedTestbed t;
    t.hostA = hostA;
    t.emulator = emulator;
    t.hostB = hostB;

    EthernetLinkHelper ethernet = m_ethernet;
    ethernet.SetNicDuplex(m_nicHost, m_nicEmulator);
    NetDeviceContainer linkA = ethernet.Install(hostA, emulator);
    ethernet.SetNicDuplex(m_nicEmulator, m_nicHost);
    NetDeviceContainer linkB = ethernet.Install(emulator, hostB);
    t.hostADevice = linkA.Get(0);
    t.emulatorADevice = linkA.Get(1);
    t.emulatorBDevice = linkB.Get(0);
    t.hostBDevice = linkB.Get(1);

    InternetStackHelper internet;
    for (Ptr<Node> n : {hostA, emulator, hostB})
    {
        if (!n->GetObject<Ipv4>())
        {
            internet.Install(n);
        }
    }

    t.hostAAddress = HostAddress(m_networkA, m_mask, 1);
    t.emulatorAAddress = HostAddress(m_networkA, m_mask, 2);
    t.emulatorBAddress = HostAddress(m_networkB, m_mask, 2);
    t.hostBAddress = HostAddress(m_networkB, m_mask, 1);
    uint32_t ifA = AssignAddress(t.hostADevice, t.hostAAddress, m_mask);
    AssignAddress(t.emulatorADevice, t.emulatorAAddress, m_mask);
    AssignAddress(t.emulatorBDevice, t.emulatorBAddress, m_mask);
    uint32_t ifB = AssignAddress(t.hostBDevice, t.hostBAddress, m_mask);

    Ipv4StaticRoutingHelper staticRouting;
    staticRouting.GetStaticRouting(hostA->GetObject<Ipv4>())
        ->SetDefaultRoute(t.emulatorAAddress, ifA);
    staticRouting.GetStaticRouting(hostB->GetObject<Ipv4>())
        ->SetDefaultRoute(t.emulatorBAddress, ifB);

    InstallHostQueueDisc(t.hostADevice);
    InstallHostQueueDisc(t.hostBDevice);
    t.aToB = m_emulator.Install(t.emulatorBDevice, LinkEmulatorHelper::A_TO_B);
    t.bToA = m_emulator.Install(t.emulatorADevice, LinkEmulatorHelper::B_TO_A);

    if (m_populateArp)
    {
        NeighborCacheHelper neighbors;
        neighbors.PopulateNeighborCache(t.hostADevice->GetChannel());
        neighbors.PopulateNeighborCache(t.hostBDevice->GetChannel());
    }
    if (!m_pcapPrefix.empty())
    {
        m_ethernet.EnablePcap(m_pcapPrefix, t.GetDevices());
    }

    if (m_timer)
    {
        t.aToB->SetAttribute("Timer", PointerValue(m_timer));
        t.bToA->SetAttribute("Timer", PointerValue(m_timer));
    }
    if (!m_hostProfile.empty())
    {
        HostPlatformHelper hosts(m_hostProfile);
        hosts.SetInstallNics(m_installNics);
        hosts.Install(hostA);
        hosts.Install(hostB);
    }
    if (!m_emulatorProfile.empty())
    {
        HostPlatformHelper router(m_emulatorProfile);
        router.SetInstallNics(m_installNics);
        router.Install(emulator);
    }
    if (m_releaseOnCpu)
    {
        Ptr<HostPlatform> pc = emulator->GetObject<HostPlatform>();
        NS_ABORT_MSG_IF(!pc,
                        "EmulatedTestbedHelper: releasing on the emulator's CPU needs an emulator "
                        "profile");
        // The emulator PC's own CPU (the topology): not the user's to change.
        for (const auto& q : {t.aToB, t.bToA})
        {
            UserAttributes::SetFixed(q,
                                     "ReleaseCpu",
                                     PointerValue(pc->GetCpu()),
                                     "the emulator PC's CPU, through "
                                     "EmulatedTestbedHelper::SetReleaseOnEmulatorCpu");
        }
    }
    return t;
}

int64_t
EmulatedTestbedHelper::AssignStreams(const EmulatedTestbed& testbed, int64_t stream) const
{
    int64_t current = stream;
    if (m_randomPhase)
    {
        Ptr<TickTimer> tick = DynamicCast<TickTimer>(m_timer);
        NS_ABORT_MSG_IF(!tick, "EmulatedTestbedHelper: a random timer phase needs a TickTimer");
        DoubleValue frequency;
        tick->GetAttribute("Frequency", frequency);
        Ptr<UniformRandomVariable> phase = CreateObject<UniformRandomVariable>();
        phase->SetStream(current++);
        // Drawn in any case, so that the later streams stay the same.
        const Time drawn = Seconds(phase->GetValue(0.0, 1.0 / frequency.Get()));
        UserAttributes::SetDefault(tick, "Phase", TimeValue(drawn));
    }
    for (Ptr<Node> n : {testbed.hostA, testbed.emulator, testbed.hostB})
    {
        if (Ptr<HostPlatform> p = n->GetObject<HostPlatform>())
        {
            current += p->AssignStreams(current);
        }
    }
    current += testbed.aToB->AssignStreams(current);
    current += testbed.bToA->AssignStreams(current);
    current += m_ethernet.AssignStreams(testbed.GetDevices(), current);
    if (m_timer)
    {
        current += m_timer->AssignStreams(current);
    }
    return current - stream;
}

} // namespace ns3
