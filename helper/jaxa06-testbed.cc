/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "jaxa06-testbed.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/host-platform-helper.h"
#include "ns3/link-emulator-queue-disc.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"
#include "ns3/tcp-bic.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Jaxa06Testbed");

Ptr<TimerModel>
Jaxa06Testbed::CreateNistNetTimer()
{
    Ptr<TickTimer> rtc = CreateObject<TickTimer>();
    rtc->SetAttribute("Frequency", DoubleValue(NISTNET_RTC_HZ));
    return rtc;
}

void
Jaxa06Testbed::ConfigureLinuxTcp()
{
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpBic::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(3));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(40)));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(131072));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(174760));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
}

EmulatedTestbed
Jaxa06Testbed::Build(const Jaxa06TestbedConfig& config)
{
    ConfigureLinuxTcp();
    EmulatedTestbedHelper helper;
    helper.SetDuplex(config.halfDuplex ? EthernetLinkHelper::HALF_DUPLEX
                                       : EthernetLinkHelper::FULL_DUPLEX);
    helper.SetDataRate(DataRate("100Mbps"));
    helper.SetEmulatorAttribute(
        "Semantics",
        EnumValue(config.netem ? LinkEmulatorQueueDisc::NETEM : LinkEmulatorQueueDisc::NIST_NET));
    helper.SetEmulatorAttribute("Rate", DataRateValue(config.bandwidth));
    helper.SetEmulatorAttribute("Delay", TimeValue(config.delay));
    if (!config.pcapPrefix.empty())
    {
        helper.EnablePcap(config.pcapPrefix);
    }
    EmulatedTestbed tb = helper.Install();
    // One real-time clock on the NIST Net PC drives the release in both directions. Its tick
    // phase relative to the experiment is arbitrary: drawn per run.
    Ptr<TimerModel> rtc = CreateNistNetTimer();
    Ptr<UniformRandomVariable> phase = CreateObject<UniformRandomVariable>();
    phase->SetStream(config.stream);
    rtc->SetAttribute("Phase", TimeValue(Seconds(phase->GetValue(0.0, 1.0 / NISTNET_RTC_HZ))));
    tb.aToB->SetAttribute("Timer", PointerValue(rtc));
    tb.bToA->SetAttribute("Timer", PointerValue(rtc));

    HostPlatformHelper hosts(config.hostProfile);
    hosts.Install(tb.hostA);
    hosts.Install(tb.hostB);
    HostPlatformHelper emulator(config.emulatorProfile);
    emulator.Install(tb.emulator);
    int64_t stream = config.stream + 1;
    stream += HostPlatformHelper::AssignStreams(tb.GetNodes(), stream);
    helper.AssignStreams(tb, stream);
    return tb;
}

} // namespace ns3
