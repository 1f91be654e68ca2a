/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TNO_LAN_H
#define TESTBED_TNO_LAN_H

#include "ns3/bridge-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"
#include "ns3/traffic-control-module.h"

#include <string>
#include <vector>

/**
 * @file
 * The [TNO03] programs' machines and 100 Mbit/s LAN (tno-pipeline, tno-jitter, tno-schedulers).
 */

namespace ns3
{
namespace tno
{

/**
 * Join machines by a 100 Mbit/s LAN and number them 10.3.0.0/24.
 *
 * A switch: store and forward, full duplex; its switching engine takes 10 us per frame
 * ([TNO03]: "a switch adds about 10 us of buffering latency"). A hub: one collision domain, the
 * NICs half duplex (a hub port does not negotiate; auto-negotiating NICs fall back to half by
 * parallel detection), CSMA/CD.
 *
 * @param machines the machines (with an Internet stack)
 * @param hub a repeater hub instead of a switch
 * @param stream first random stream of the Ethernet devices
 * @param devices if not null, receives the machines' devices (in machine order)
 * @return each machine's address
 */
inline std::vector<Ipv4Address>
InstallLan(const NodeContainer& machines,
           bool hub,
           int64_t stream,
           NetDeviceContainer* devices = nullptr)
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
        SnoopingSwitchHelper swHelper;
        swHelper.SetFabricAttribute("ForwardingCapacity", DoubleValue(1e5));
        Ptr<SnoopingBridgeNetDevice> bridge = swHelper.Install(sw);
        for (uint32_t i = 0; i < machines.GetN(); ++i)
        {
            NetDeviceContainer link = eth.Install(machines.Get(i), sw);
            hostDevs.Add(link.Get(0));
            bridge->AddSwitchPort(link.Get(1));
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

/**
 * The RCI's own work per action (frame scheduling, the action's bookkeeping, tag formatting),
 * in MIPS R10000 cycles scaled by the host's ReferenceCycleFactor: calibrated on the knee of
 * configuration 2 (2 500 Hz; doc/tno.rst). The same middleware over every RTI.
 */
constexpr double RCI_ACTION_CYCLES = 19600;

/**
 * The RCI's own work per reflection it receives (parsing the tag, keeping and handing over the
 * values), MIPS R10000 cycles: calibrated on the highest frequency of configuration 2 (3 900 Hz;
 * doc/tno.rst). The read side of every reader, over every RTI.
 */
constexpr double RCI_REFLECT_CYCLES = 8000;

/** Clock reads per RCI action (a gettimeofday(): the host's SyscallCost each). */
constexpr uint32_t RCI_CLOCK_READS = 1;

/**
 * Set the RCI's costs (RCI_ACTION_CYCLES, RCI_CLOCK_READS) on an RCI federate.
 * @param rci the federate
 * @param actionCycles the RCI's cycles per action (default RCI_ACTION_CYCLES)
 * @param reflectCycles the RCI's cycles per reflection (default RCI_REFLECT_CYCLES)
 */
inline void
SetRciCosts(Ptr<RciFederate> rci,
            double actionCycles = RCI_ACTION_CYCLES,
            double reflectCycles = RCI_REFLECT_CYCLES)
{
    rci->SetAttribute("ActionCost", DoubleValue(actionCycles));
    rci->SetAttribute("ReflectCost", DoubleValue(reflectCycles));
    rci->SetAttribute("ClockReads", UintegerValue(RCI_CLOCK_READS));
}

/**
 * Give every machine's network device the host's queueing discipline instead of ns-3's
 * default (FqCoDel): a priority FIFO (Linux 2.4 pfifo_fast; BSD's single ifqueue behaves as
 * its one band for this traffic) of the host's TxQueueLength packets.
 * @param devices the machines' devices
 * @param hosts the platforms, in the same order
 */
inline void
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

/** The uncertainty band of the iHawk's parameters that are not calibrated (doc/tno.rst). */
enum class Band
{
    CENTRAL, //!< the central values of the profiles
    FAST,    //!< the fast end: the smallest per-clock factor, the lmbench OS costs
    SLOW,    //!< the slow end: the largest per-clock factor, twice the lmbench OS costs
};

/**
 * Parse a band name.
 * @param name central, fast or slow
 * @return the band
 */
inline Band
ParseBand(const std::string& name)
{
    return name == "fast" ? Band::FAST : name == "slow" ? Band::SLOW : Band::CENTRAL;
}

/**
 * Move an iHawk host to one end of its documented ranges (other hosts are left alone): the
 * middleware's per-clock factor (0.93-1.9 for the Pentium III Xeon, 1.07-2.2 for the
 * Pentium 4 Xeon: the study's "three times faster" to SPEC CINT2000 per MHz) and the kernel's
 * costs (lmbench's loopback figures to twice them: a real NIC's descriptor work and the fully
 * pre-emptible kernel's locking are not in lmbench's loopback path).
 * @param host the platform
 * @param profile its profile's name
 * @param band the band
 */
inline void
ApplyBand(Ptr<HostPlatform> host, const std::string& profile, Band band)
{
    if (band == Band::CENTRAL || profile.rfind("ihawk", 0) != 0)
    {
        return;
    }
    const bool p4 = host->GetCpu()->GetFrequency() > 1.5e9;
    const double factor = band == Band::FAST ? (p4 ? 1.07 : 0.93) : (p4 ? 2.2 : 1.9);
    host->SetAttribute("ReferenceCycleFactor", DoubleValue(factor));
    if (band == Band::SLOW)
    {
        for (const char* a :
             {"SyscallCost", "WaitCost", "SendCost", "RecvCost", "TxCompletionCost"})
        {
            DoubleValue v;
            host->GetAttribute(a, v);
            host->SetAttribute(a, DoubleValue(2 * v.Get()));
        }
        DoubleValue cs;
        host->GetCpu()->GetAttribute("ContextSwitchCost", cs);
        host->GetCpu()->SetAttribute("ContextSwitchCost", DoubleValue(2 * cs.Get()));
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
                nic->SetAttribute(a, DoubleValue(2 * v.Get()));
            }
        }
    }
}

/**
 * Install the host platforms: machine 0 gets @p hostA, the others @p hostB; random streams
 * from 100, 20 per machine.
 * @param machines the machines
 * @param hostA host profile of machine 0
 * @param hostB host profile of the other machines
 * @return the platforms, in machine order
 */
inline std::vector<Ptr<HostPlatform>>
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

} // namespace tno
} // namespace ns3

#endif /* TESTBED_TNO_LAN_H */
