/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TNO_LAN_H
#define TESTBED_TNO_LAN_H

#include "ns3/bridge-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

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
