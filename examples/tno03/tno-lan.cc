/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tno-lan.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ethernet-helper.h"
#include "ns3/host-nic.h"
#include "ns3/host-platform-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/node.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/switch-helper.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"
#include "ns3/user-attributes.h"

namespace ns3
{
namespace tno
{

void
AddSwitchOptions(ProgramOptions& opts, SwitchOptions& sw)
{
    opts.Add("switchCycle",
             "the switch's bus arbitration cycle (a frame waits 0 to one cycle for its port's "
             "grant; doc/tno.rst)",
             sw.cycle,
             Seconds(0),
             MilliSeconds(1));
    opts.AddChoice("onyxSwitchMode",
                   "the forwarding mode of the Onyx machines' 100 Mbit/s switch, which the "
                   "study does not give (doc/tno.rst, 'The switch's forwarding mode'); no "
                   "effect on the iHawk, whose switch the study gives as store-and-forward",
                   sw.onyxMode,
                   {"StoreAndForward", "CutThrough", "FragmentFree"});
}

std::vector<Ipv4Address>
InstallLan(const NodeContainer& machines,
           bool hub,
           int64_t stream,
           NetDeviceContainer* devices,
           Time arbitrationCycle,
           const std::string& forwardingMode)
{
    EthernetHelper eth;
    eth.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
    NetDeviceContainer hostDevs;
    if (hub)
    {
        eth.SetDeviceAttribute("Duplex", StringValue("Auto"));
        hostDevs = eth.InstallHub(machines);
    }
    else
    {
        eth.SetDeviceAttribute("Duplex", StringValue("ForcedFull"));
        Ptr<Node> sw = CreateObject<Node>();
        SwitchHelper swHelper;
        // No fixed per-frame engine time: the forwarding decision of a wire-speed switch is not
        // a bottleneck; the buffering delay is the wait for the bus (doc/tno.rst).
        swHelper.SetFabricAttribute("ArbitrationCycle", TimeValue(arbitrationCycle));
        swHelper.SetFabricAttribute("ArbitrationSlots", UintegerValue(16));
        swHelper.SetFabricAttribute("BusRate", DataRateValue(DataRate("2.56Gbps")));
        // The arbiter runs on the switch's own oscillator: a random phase per run and a rate
        // offset within the 802.3 100BASE-X clock tolerance (+-50 ppm) against the hosts.
        swHelper.SetFabricAttribute("ArbitrationFreeRunning", BooleanValue(true));
        Ptr<SwitchNetDevice> lanSwitch = swHelper.Install(sw);
        if (!forwardingMode.empty())
        {
            UserAttributes::SetFixed(lanSwitch->GetFabric(),
                                     "ForwardingMode",
                                     StringValue(forwardingMode),
                                     "from its option --onyxSwitchMode (the Onyx machines' "
                                     "switch)");
        }
        for (uint32_t i = 0; i < machines.GetN(); ++i)
        {
            NetDeviceContainer link = eth.Install(machines.Get(i), sw);
            hostDevs.Add(link.Get(0));
            lanSwitch->AddSwitchPort(link.Get(1));
        }
    }
    eth.AssignStreams(hostDevs, stream);
    Ipv4AddressHelper ip("10.3.0.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = ip.Assign(hostDevs);
    if (devices)
    {
        *devices = hostDevs;
    }
    std::vector<Ipv4Address> addr;
    for (uint32_t i = 0; i < machines.GetN(); ++i)
    {
        addr.push_back(ifs.GetAddress(i));
    }
    return addr;
}

std::vector<Ptr<HostPlatform>>
InstallHosts(const NodeContainer& machines, const std::string& hostA, const std::string& hostB)
{
    std::vector<Ptr<HostPlatform>> hosts;
    for (uint32_t i = 0; i < machines.GetN(); ++i)
    {
        HostPlatformHelper helper(i == 0 ? hostA : hostB);
        Ptr<HostPlatform> p = helper.Install(machines.Get(i));
        p->AssignStreams(100 + 20 * i);
        hosts.push_back(p);
    }
    return hosts;
}

void
SetRciCosts(Ptr<RciFederate> rci, double actionCycles, double reflectCycles, const std::string& by)
{
    if (by.empty())
    {
        UserAttributes::SetDefault(rci, "ActionCost", DoubleValue(actionCycles));
        UserAttributes::SetDefault(rci, "ReflectCost", DoubleValue(reflectCycles));
    }
    else
    {
        UserAttributes::SetFixed(rci, "ActionCost", DoubleValue(actionCycles), by);
        UserAttributes::SetFixed(rci, "ReflectCost", DoubleValue(reflectCycles), by);
    }
    UserAttributes::SetDefault(rci, "ClockReads", UintegerValue(RCI_CLOCK_READS));
    UserAttributes::SetDefault(rci, "TimerCalls", UintegerValue(RCI_TIMER_CALLS));
}

void
InstallQueueDiscs(const NetDeviceContainer& devices, const std::vector<Ptr<HostPlatform>>& hosts)
{
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<NetDevice> dev = devices.Get(i);
        Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
        if (tc->GetRootQueueDiscOnDevice(dev))
        {
            tc->DeleteRootQueueDiscOnDevice(dev);
        }
        TrafficControlHelper tch;
        tch.SetRootQueueDisc(
            "ns3::PfifoFastQueueDisc",
            "MaxSize",
            QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, hosts[i]->GetTxQueueLength())));
        tch.Install(dev);
    }
}

Band
ParseBand(const std::string& name)
{
    return name == "fast" ? Band::FAST : name == "slow" ? Band::SLOW : Band::CENTRAL;
}

void
ApplyBand(Ptr<HostPlatform> host, const std::string& profile, Band band)
{
    if (band == Band::CENTRAL || profile.rfind("ihawk", 0) != 0)
    {
        return;
    }
    const bool p4 = host->GetCpu()->GetFrequency() > 1.5e9;
    const double factor = band == Band::FAST ? (p4 ? 1.07 : 0.93) : (p4 ? 2.2 : 1.9);
    const std::string by = std::string("from its option --band=")
                           + (band == Band::FAST ? "fast" : "slow")
                           + " (the end of the iHawk's documented range)";
    UserAttributes::SetFixed(host, "ReferenceCycleFactor", DoubleValue(factor), by);
    if (band == Band::SLOW)
    {
        for (const char* a :
             {"SyscallCost", "WaitCost", "SendCost", "RecvCost", "TxCompletionCost"})
        {
            DoubleValue v;
            host->GetAttribute(a, v);
            UserAttributes::SetFixed(host, a, DoubleValue(2 * v.Get()), by);
        }
        DoubleValue cs;
        host->GetCpu()->GetAttribute("ContextSwitchCost", cs);
        UserAttributes::SetFixed(host->GetCpu(),
                                 "ContextSwitchCost",
                                 DoubleValue(2 * cs.Get()),
                                 by);
        Ptr<Node> node = host->GetObject<Node>();
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<HostNic> nic = host->GetNic(node->GetDevice(d));
            if (!nic)
            {
                continue;
            }
            for (const char* a : {"InterruptCost", "DriverCost", "StackCost"})
            {
                DoubleValue v;
                nic->GetAttribute(a, v);
                UserAttributes::SetFixed(nic, a, DoubleValue(2 * v.Get()), by);
            }
        }
    }
    // The NIC's own path at the same end of its ranges (the iHawk profiles' #@range lines).
    const bool fast = band == Band::FAST;
    Ptr<Node> node = host->GetObject<Node>();
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        Ptr<HostNic> nic = host->GetNic(node->GetDevice(d));
        if (!nic)
        {
            continue;
        }
        UserAttributes::SetFixed(nic,
                                 "RxDmaRate",
                                 DataRateValue(DataRate(fast ? "8528Mbps" : "532Mbps")),
                                 by);
        UserAttributes::SetFixed(nic, "InterruptDelay", TimeValue(MicroSeconds(fast ? 1 : 10)), by);
        UserAttributes::SetFixed(nic,
                                 "RegisterReadTime",
                                 TimeValue(NanoSeconds(fast ? 300 : 1000)),
                                 by);
        UserAttributes::SetFixed(nic,
                                 "TxFetchDelay",
                                 TimeValue(NanoSeconds(fast ? 600 : 3000)),
                                 by);
    }
}

} // namespace tno
} // namespace ns3
