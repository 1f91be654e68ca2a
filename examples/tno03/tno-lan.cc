/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tno-lan.h"

#include "ns3/double.h"
#include "ns3/ethernet-helper.h"
#include "ns3/host-platform-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/string.h"
#include "ns3/switch-helper.h"

namespace ns3
{
namespace tno
{

std::vector<Ipv4Address>
InstallLan(const NodeContainer& machines, bool hub, int64_t stream, NetDeviceContainer* devices)
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
        swHelper.SetFabricAttribute("ForwardingCapacity", DoubleValue(1e5));
        Ptr<SwitchNetDevice> lanSwitch = swHelper.Install(sw);
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

} // namespace tno
} // namespace ns3
