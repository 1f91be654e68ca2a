/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The MEGA06 switch path against stock ns-3 on the same senders and receivers: S sender hosts,
 * each with N send_udp virtual senders (one 100-octet datagram per sender per second, random
 * phase, no host CPU model on the senders: both sides get exactly the same packets), R receivers
 * of the group, one switch, 100 Mbit/s links.
 *
 * --side=module: this module's path (SnoopingSwitchHelper: SnoopingBridgeNetDevice with IGMP
 *   snooping, the receivers join with Ami/IgmpL4Protocol; frames go only to member ports), over
 *   MEGA06's full-duplex links (FullDuplexEthernetNetDevice: send_udp datagrams travel as frame
 *   descriptors, doc/mega.rst).
 * --side=stock: stock ns-3 (BridgeHelper: BridgeNetDevice over CsmaHelper links; multicast is
 *   flooded to every port, the senders' stacks drop what they do not want).
 *
 * --rx: how the receivers read the group.
 *   stack: a UDP socket through ns-3's IPv4 and UDP layers (the only way on the stock side).
 *   nic (module side only): MEGA06's receive path (doc/mega.rst): each receiver has a host
 *     platform (the StarBED PCs' profile: CPU, interrupts, NIC model) whose NIC model hands the
 *     group's datagrams straight to the program (HostPlatform::BindUdpMulticast), without ns-3's
 *     IPv4 and UDP; the receivers' CPU and interrupt work is simulated, which the stock side
 *     does not model at all.
 * --core: the simulator core. lean: the module's programs' default (LeanSimulatorImpl,
 *   ProgramOptions::SetSimulatorDefaults); ns3: ns-3's own default (DefaultSimulatorImpl with
 *   MapScheduler), i.e. stock ns-3 as released.
 *
 * Prints one JSON line: simulated seconds, wall seconds, events, link-hops (frames that ended
 * their transmission on some device: CSMA's PhyTxEnd; on full-duplex links the frames received
 * at the far end, FullDuplexEthernetNetDevice::GetStats), datagrams delivered to the receivers'
 * programs (socket reads, or the NIC model's deliveries with --rx=nic).
 * bench/mega-side-by-side.py runs both sides and prints the ratios and memory per sender.
 *
 *   ./build/bench/mega-side-by-side --side=module --rx=nic --senders=2 --nodes=5000 --seconds=20
 */

#include "ns3/bridge-module.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/testbed-module.h"

#include <chrono>
#include <iostream>

using namespace ns3;

namespace
{

uint64_t g_hops = 0;      //!< frames transmitted on a link
uint64_t g_delivered = 0; //!< datagrams read by the receivers

void
Hop(Ptr<const Packet>)
{
    ++g_hops;
}

void
Read(Ptr<Socket> s)
{
    while (s->Recv())
    {
        ++g_delivered;
    }
}

void
Take(const HostPlatform::UdpDatagram&)
{
    ++g_delivered;
}

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    std::string side = "module";
    std::string rxPath = "stack";
    std::string core = "lean";
    uint32_t senders = 2;
    uint32_t nodes = 5000;
    uint32_t receivers = 2;
    double seconds = 20;
    ProgramOptions opts("mega-side-by-side",
                        "MEGA06 switch path against stock ns-3 (BridgeNetDevice over CSMA)");
    opts.AddChoice("side",
                   "module (snooping switch) or stock (BridgeNetDevice)",
                   side,
                   {"module", "stock"});
    opts.AddChoice("rx",
                   "how the receivers read: stack (ns-3's IPv4/UDP and a socket) or nic (the "
                   "module side only: MEGA06's path, the NIC model hands datagrams to the program)",
                   rxPath,
                   {"stack", "nic"});
    opts.AddChoice("core",
                   "simulator core: lean (the module's default) or ns3 (DefaultSimulatorImpl with "
                   "MapScheduler, ns-3's default)",
                   core,
                   {"lean", "ns3"});
    opts.Add("senders", "sender hosts", senders, 1, 64);
    opts.Add("nodes", "virtual senders per sender host", nodes, 1, 1000000);
    opts.Add("receivers", "receiver hosts", receivers, 1, 64);
    opts.Add("seconds", "simulated seconds", seconds, 0.1, 3600);
    opts.Parse(argc, argv);
    opts.Require(
        side == "module" || rxPath == "stack",
        "--rx=nic is the module's receive path; the stock side reads through ns-3's stack");
    if (core == "ns3")
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
        GlobalValue::Bind("SchedulerType", StringValue("ns3::MapScheduler"));
    }

    const Ipv4Address group("239.10.0.1");
    const uint16_t port = 10000;
    NodeContainer tx;
    NodeContainer rx;
    tx.Create(senders);
    rx.Create(receivers);
    Ptr<Node> sw = CreateObject<Node>();
    NodeContainer hosts(tx, rx);
    NetDeviceContainer hostDevs;
    if (side == "module")
    {
        SnoopingSwitchHelper sh;
        Ptr<SnoopingBridgeNetDevice> bridge = sh.Install(sw);
        for (uint32_t i = 0; i < hosts.GetN(); ++i)
        {
            hostDevs.Add(sh.Connect(bridge, hosts.Get(i), DataRate("100Mbps")).Get(0));
        }
    }
    else
    {
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
        csma.SetChannelAttribute("Delay", TimeValue(Seconds(0)));
        NetDeviceContainer swPorts;
        for (uint32_t i = 0; i < hosts.GetN(); ++i)
        {
            NetDeviceContainer d = csma.Install(NodeContainer(hosts.Get(i), sw));
            hostDevs.Add(d.Get(0));
            swPorts.Add(d.Get(1));
        }
        BridgeHelper bridge;
        bridge.Install(sw, swPorts);
    }
    InternetStackHelper stack;
    stack.Install(hosts);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.0.0");
    addr.Assign(hostDevs);
    Ipv4StaticRoutingHelper routing;
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        routing.GetStaticRouting(hosts.Get(i)->GetObject<Ipv4>())
            ->AddNetworkRouteTo(Ipv4Address("224.0.0.0"), Ipv4Mask("240.0.0.0"), 1);
    }
    if (side == "module")
    {
        IgmpHelper igmp;
        igmp.SetAttribute("Version", UintegerValue(2));
        igmp.Install(hosts);
        for (uint32_t i = 0; i < rx.GetN(); ++i)
        {
            Ptr<Ami> ami = CreateObject<Ami>();
            ami->SetAttribute("Group", Ipv4AddressValue(group));
            rx.Get(i)->AddApplication(ami);
            ami->SetStartTime(MilliSeconds(100));
        }
        IgmpHelper::AssignStreams(hosts, 100);
    }
    std::vector<Ptr<Socket>> sinks;
    if (rxPath == "nic")
    {
        HostPlatformHelper platforms("starbed-p3-linux2613");
        platforms.Install(rx);
        HostPlatformHelper::AssignStreams(rx, 1000);
        for (uint32_t i = 0; i < rx.GetN(); ++i)
        {
            rx.Get(i)->GetObject<HostPlatform>()->BindUdpMulticast(port, MakeCallback(&Take));
        }
    }
    else
    {
        for (uint32_t i = 0; i < rx.GetN(); ++i)
        {
            Ptr<Socket> s = Socket::CreateSocket(rx.Get(i), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
            s->SetRecvCallback(MakeCallback(&Read));
            sinks.push_back(s);
        }
    }
    int64_t stream = 1;
    for (uint32_t i = 0; i < tx.GetN(); ++i)
    {
        Ptr<SendUdp> app = CreateObject<SendUdp>();
        app->SetAttribute("Nodes", UintegerValue(nodes));
        app->SetAttribute("FirstNodeId", UintegerValue(i * nodes));
        app->SetAttribute("Group", Ipv4AddressValue(group));
        app->SetAttribute("Port", UintegerValue(port));
        app->SetAttribute("Device", UintegerValue(0));
        stream += app->AssignStreams(stream);
        tx.Get(i)->AddApplication(app);
        app->SetStartTime(MilliSeconds(500));
    }
    for (NodeList::Iterator n = NodeList::Begin(); n != NodeList::End(); ++n)
    {
        for (uint32_t d = 0; d < (*n)->GetNDevices(); ++d)
        {
            (*n)->GetDevice(d)->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&Hop));
        }
    }
    Simulator::Stop(Seconds(seconds));
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (NodeList::Iterator n = NodeList::Begin(); n != NodeList::End(); ++n)
    {
        for (uint32_t d = 0; d < (*n)->GetNDevices(); ++d)
        {
            Ptr<FullDuplexEthernetNetDevice> fd
                = DynamicCast<FullDuplexEthernetNetDevice>((*n)->GetDevice(d));
            if (fd)
            {
                g_hops += fd->GetStats().rxFrames;
            }
        }
    }
    std::cout << "{\"side\": \"" << side << "\", \"senders\": " << senders << ", \"rx\": \""
              << rxPath << "\", \"core\": \"" << core << "\""
              << ", \"nodes\": " << nodes << ", \"receivers\": " << receivers
              << ", \"seconds\": " << seconds << ", \"wall_s\": " << wall
              << ", \"events\": " << Simulator::GetEventCount() << ", \"hops\": " << g_hops
              << ", \"delivered\": " << g_delivered << "}" << std::endl;
    Simulator::Destroy();
    return 0;
}
