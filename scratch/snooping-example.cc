/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * scratch/snooping-example.cc: a program of your own, built like ns-3's scratch/ programs.
 *
 * Every scratch/<name>.cc (or folder scratch/<name>/) is built by `./testbed build` into
 * build/scratch/<name>, linked with the testbed module and ns-3; run it with
 *
 *   ./testbed run-program snooping-example [--snooping=false] [--count=20]
 *
 * Two hosts and an IGMP querier (a multicast router, which is also the stream's source) on one
 * IGMP-snooping Ethernet switch (RFC 4541). Host A joins group 239.1.1.1, host B does not. The
 * router sends `count` UDP datagrams to the group, one every 10 ms, from t = 2 s. The snooping
 * switch learned A's membership from its report, so A receives every datagram and B none of them;
 * with --snooping=false the switch floods the group to every port and B's NIC sees them all.
 *
 *   router (10.0.0.1, querier) --+
 *   host A (10.0.0.2, member)  --+-- snooping switch (100 Mbit/s ports)
 *   host B (10.0.0.3)          --+
 *
 * Copy it to scratch/my-study.cc and change it: that is all it takes to get build/scratch/my-study.
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("SnoopingExample");

namespace
{

uint32_t g_received = 0; //!< datagrams delivered to host A's socket
uint32_t g_seenAtB = 0;  //!< group frames host B's NIC received

/// Host A's socket: count the datagrams delivered.
void
Receive(Ptr<Socket> socket)
{
    while (socket->Recv())
    {
        ++g_received;
    }
}

/// Host B's NIC: count the group's datagrams it receives (MacRx passes the frame's payload up:
/// an IPv4 datagram, its destination address at octets 16-19).
void
SeenAtB(Ipv4Address group, Ptr<const Packet> payload)
{
    uint8_t ip[20];
    if (payload->CopyData(ip, sizeof(ip)) == sizeof(ip) && (ip[0] >> 4) == 4
        && Ipv4Address::Deserialize(ip + 16) == group)
    {
        ++g_seenAtB;
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    bool snooping = true;
    uint32_t count = 20;
    CommandLine cmd(__FILE__);
    cmd.AddValue("snooping", "the switch snoops IGMP (false: it floods multicast)", snooping);
    cmd.AddValue("count", "datagrams the router sends to the group", count);
    cmd.Parse(argc, argv);

    const Ipv4Address group("239.1.1.1");
    const uint16_t port = 5000;

    NodeContainer hosts; // 0 router (querier and source), 1 host A, 2 host B
    hosts.Create(3);
    Ptr<Node> switchNode = CreateObject<Node>();
    SnoopingSwitchHelper switches;
    switches.SetDeviceAttribute("Snooping", BooleanValue(snooping));
    Ptr<SnoopingBridgeNetDevice> sw = switches.Install(switchNode);
    NetDeviceContainer hostDevices;
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        hostDevices.Add(switches.Connect(sw, hosts.Get(i), DataRate("100Mbps")).Get(0));
    }

    InternetStackHelper stack;
    stack.Install(hosts);
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
    addresses.Assign(hostDevices);
    IgmpHelper igmp; // IGMPv2 with RFC 2236's timers
    igmp.Install(hosts);
    IgmpHelper::AssignStreams(hosts, 1);
    IgmpHelper::EnableQuerier(hosts.Get(0), 1); // interface 1: the router's Ethernet

    // Host A joins the group at 1 s (its report reaches the switch, which adds A's port).
    Ptr<Socket> rx = Socket::CreateSocket(hosts.Get(1), UdpSocketFactory::GetTypeId());
    rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    rx->SetRecvCallback(MakeCallback(&Receive));
    IgmpHelper::ScheduleJoin(Seconds(1), rx, group);
    hostDevices.Get(2)->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&SeenAtB, group));

    // The router's stream: `count` datagrams of 200 octets, every 10 ms from 2 s, out of its
    // Ethernet interface (the default multicast route).
    Ipv4StaticRoutingHelper routing;
    routing.SetDefaultMulticastRoute(hosts.Get(0), hostDevices.Get(0));
    Ptr<Socket> tx = Socket::CreateSocket(hosts.Get(0), UdpSocketFactory::GetTypeId());
    tx->Connect(InetSocketAddress(group, port));
    for (uint32_t i = 0; i < count; ++i)
    {
        Simulator::Schedule(Seconds(2) + MilliSeconds(10 * i),
                            [tx]() { tx->Send(Create<Packet>(200)); });
    }
    NS_LOG_INFO("snooping " << snooping << ", " << count << " datagrams to " << group);

    Simulator::Stop(Seconds(3) + MilliSeconds(10 * count));
    Simulator::Run();
    std::cout << "snooping=" << (snooping ? "true" : "false") << " sent=" << count
              << " hostA_received=" << g_received << " hostB_group_frames=" << g_seenAtB
              << std::endl;
    Simulator::Destroy();
    return 0;
}
