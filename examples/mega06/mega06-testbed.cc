/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mega06-testbed.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/host-nic.h"
#include "ns3/host-platform-helper.h"
#include "ns3/host-platform.h"
#include "ns3/igmp-l4-protocol.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/multicast-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/tick-timer.h"
#include "ns3/timer-model.h"
#include "ns3/uinteger.h"
#include "ns3/user-attributes.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Mega06Testbed");

void
Mega06HostOptions::Add(ProgramOptions& opts, Mega06TestbedConfig& config)
{
    opts.AddHostProfile(config.profile, "host profile of the PCs");
    opts.AddHostSet(hostSet);
    opts.AddProfileFile(profileFile);
    opts.AddDeprecated("profile", "hostProfile");
}

void
Mega06HostOptions::Apply(Mega06TestbedConfig& config) const
{
    config.profile = ProgramOptions::WithHostSet(config.profile, hostSet);
}

double
Mega06Work::SendRate()
{
    // The default as --ns3::SendUdp::Interval (Config::SetDefault) left it.
    struct TypeId::AttributeInformation info;
    const bool found = SendUdp::GetTypeId().LookupAttributeByName("Interval", &info);
    NS_ABORT_MSG_IF(!found, "ns3::SendUdp has no Interval");
    const auto interval = DynamicCast<const TimeValue>(info.initialValue);
    NS_ABORT_MSG_IF(!interval, "ns3::SendUdp's Interval is not a time");
    return 1.0 / interval->Get().GetSeconds();
}

double
Mega06Work::Events() const
{
    return EVENTS_PER_PACKET * nodes * SendRate() * seconds
           + EVENTS_PER_FRAME_PORT * loadFrames * loadPorts + EVENTS_PER_PC_SECOND * pcs * seconds;
}

double
Mega06Work::MemoryMib() const
{
    return BASE_MIB + nodes * BYTES_PER_NODE / 1048576.0;
}

void
Mega06Work::SetBudgets(ProgramOptions& opts, std::function<Mega06Work()> work)
{
    opts.SetEventEstimate([work]() { return work().Events(); },
                          "30 per send_udp packet (nodes / SendUdp::Interval x simulated s), 12 "
                          "per load frame and PC reached, 1000 per PC and s");
    opts.SetMemoryEstimate([work]() { return work().MemoryMib(); },
                           "64 MiB and 1 KiB per send_udp node");
}

IgmpTimers
Mega06Testbed::Timers(const Mega06TestbedConfig& config)
{
    NS_ABORT_MSG_IF(!(config.igmpTimeScale > 0), "Mega06Testbed: igmpTimeScale must be > 0");
    // RFC 2236 section 8 (the IGMPv2 of the StarBED PCs and mrouted), every interval scaled.
    return IgmpTimers().Scaled(config.igmpTimeScale);
}

uint32_t
Mega06Testbed::PortContext(uint32_t sw, uint32_t port)
{
    return 0x40000000U + sw * 0x10000U + port;
}

Ipv4Address
Mega06Testbed::GroupOf(const Mega06TestbedConfig& config, uint32_t k)
{
    return Ipv4Address(config.group.Get() + k);
}

bool
Mega06Testbed::SetHere(const Mega06TestbedConfig& config, uint32_t k)
{
    return k >= config.partFirstSet && k - config.partFirstSet < config.partSets;
}

Ptr<HostNic>
Mega06Testbed::GetNic(Ptr<Node> pc)
{
    Ptr<HostPlatform> host = pc->GetObject<HostPlatform>();
    NS_ABORT_MSG_IF(!host, "Mega06Testbed::GetNic: node " << pc->GetId() << " is not a PC");
    return host->GetNic(pc->GetDevice(0));
}

Mega06Testbed
Mega06Testbed::Build(const Mega06TestbedConfig& c)
{
    NS_ABORT_MSG_IF(c.otherLoad < 0, "Mega06Testbed: otherLoad must be >= 0");
    NS_ABORT_MSG_IF(c.receiversOn6009 > c.receivers,
                    "Mega06Testbed: receiversOn6009 " << c.receiversOn6009 << " > receivers "
                                                      << c.receivers);
    const uint32_t nGroups
        = c.sendersPerGroup > 0 ? (c.senderPcs + c.sendersPerGroup - 1) / c.sendersPerGroup : 1;
    if (c.sendersPerGroup > 0)
    {
        NS_ABORT_MSG_IF(c.receivers > nGroups,
                        "Mega06Testbed: " << c.receivers << " receivers but " << nGroups
                                          << " groups (one receiver per set)");
        // One MAC per group: the low 23 bits of every group (and of the other group) differ.
        std::set<uint32_t> macs{c.otherGroup.Get() & 0x7FFFFF};
        for (uint32_t k = 0; k < nGroups; ++k)
        {
            const Ipv4Address g = GroupOf(c, k);
            NS_ABORT_MSG_IF(!g.IsMulticast() || !macs.insert(g.Get() & 0x7FFFFF).second,
                            "Mega06Testbed: group " << g
                                                    << " is not multicast or shares its MAC "
                                                       "address with another group");
        }
    }
    const bool whole = c.partFirstSet == 0 && c.partSets >= nGroups && c.partShared;
    NS_ABORT_MSG_IF(!whole && c.sendersPerGroup == 0,
                    "Mega06Testbed: a part of a split run needs sets (sendersPerGroup > 0)");
    Mega06Testbed tb;
    const IgmpTimers timers = Timers(c);
    // IGMPv2 codes Max Resp Time in tenths of a second: no Query Response Interval below 100 ms.
    NS_ABORT_MSG_IF(timers.queryResponseInterval < MilliSeconds(100),
                    "Mega06Testbed: igmpTimeScale "
                        << c.igmpTimeScale << " makes the Query Response Interval "
                        << timers.queryResponseInterval.As(Time::S) << " < 0.1 s");

    // The switch.
    SnoopingSwitchHelper sh;
    sh.SetDeviceAttribute("Snooping", BooleanValue(c.snooping));
    sh.SetDeviceAttribute("UnregisteredPolicy",
                          EnumValue(c.unregisteredToRouterPorts
                                        ? SnoopingBridgeNetDevice::ROUTER_PORTS
                                        : SnoopingBridgeNetDevice::FLOOD));
    // Every link lean full-duplex Ethernet (the study's 1000BASE-T and 100BASE-TX links).
    tb.switchNode = CreateObject<Node>();
    tb.bridge = sh.Install(tb.switchNode);
    // The switch's snooping timers follow the querier's IGMP timers (RFC 4541 section 2.1.1:
    // the membership interval is the querier's Group Membership Interval), all from
    // --igmpTimeScale: a user value for one of them would be overwritten by SetTimers.
    for (const char* name : {"MembershipInterval",
                             "RouterPortTimeout",
                             "LastMemberQueryInterval",
                             "LastMemberQueryCount"})
    {
        UserAttributes::RequireNotGiven(SnoopingBridgeNetDevice::GetTypeId(),
                                        name,
                                        "from the querier's IGMP timers (--igmpTimeScale)");
    }
    tb.bridge->SetTimers(timers);

    // The PCs and the rest of the network, one port each.
    tb.senders.Create(c.senderPcs);
    tb.receivers.Create(c.receivers);
    tb.rest = CreateObject<Node>();
    NodeContainer pcs;
    NetDeviceContainer devs;
    for (uint32_t i = 0; i < c.senderPcs; ++i)
    {
        devs.Add(sh.Connect(tb.bridge, tb.senders.Get(i), DataRate("1Gbps")).Get(0));
        tb.senderPorts.push_back(tb.bridge->GetNPorts() - 1);
        pcs.Add(tb.senders.Get(i));
    }
    if (c.receiversOn6009 > 0)
    {
        // The Catalyst 6009, joined to the 6509 by one 802.1Q trunk; its trunk port is a
        // configured multicast-router port (reports and unregistered multicast go up the trunk
        // towards the querier side).
        tb.switch6009 = CreateObject<Node>();
        tb.bridge6009 = sh.Install(tb.switch6009);
        tb.bridge6009->SetTimers(timers);
        sh.ConnectTrunk(tb.bridge, tb.bridge6009, c.trunkRate);
        tb.trunkPort = tb.bridge->GetNPorts() - 1;
        tb.trunkPort6009 = tb.bridge6009->GetNPorts() - 1;
        tb.bridge6009->SetStaticRouterPort(tb.trunkPort6009, true);
    }
    for (uint32_t i = 0; i < c.receivers; ++i)
    {
        const bool on6009 = i >= c.receivers - c.receiversOn6009;
        Ptr<SnoopingBridgeNetDevice> br = on6009 ? tb.bridge6009 : tb.bridge;
        devs.Add(sh.Connect(br, tb.receivers.Get(i), DataRate("100Mbps")).Get(0));
        tb.receiverPorts.push_back(br->GetNPorts() - 1);
        pcs.Add(tb.receivers.Get(i));
    }
    if (c.querier)
    {
        tb.querier = CreateObject<Node>();
        devs.Add(sh.Connect(tb.bridge, tb.querier, DataRate("1Gbps")).Get(0));
        tb.querierPort = tb.bridge->GetNPorts() - 1;
        if (c.querierStaticRouterPort)
        {
            tb.bridge->SetStaticRouterPort(tb.querierPort, true);
        }
    }
    // The rest of the network: a 10 Gb/s full-duplex link (it carries up to 10^6 frames/s).
    devs.Add(sh.Connect(tb.bridge, tb.rest, DataRate("10Gbps")).Get(0));
    tb.restPort = tb.bridge->GetNPorts() - 1;

    if (c.portContexts)
    {
        // A lane per switch port (LeanSimulatorImpl's lane order): the switch's per-frame
        // events run in the context of the port the frame came in by.
        for (auto [sw, br] : {std::pair{0U, tb.bridge}, std::pair{1U, tb.bridge6009}})
        {
            for (uint32_t p = 0; br && p < br->GetNPorts(); ++p)
            {
                Ptr<FullDuplexEthernetNetDevice> port
                    = DynamicCast<FullDuplexEthernetNetDevice>(br->GetPort(p));
                if (port)
                {
                    port->SetReceiveContext(PortContext(sw, p));
                    // The switch's node has no protocol handler (the switch takes its frames
                    // by the ports' promiscuous callback): ns-3's Node would only check that
                    // the context is its id, which a port's context is not.
                    port->SetReceiveCallback(NetDevice::ReceiveCallback());
                }
            }
        }
    }

    NodeContainer all;
    NodeContainer hostsAll;
    int64_t stream = c.stream;
    InstallHosts(tb, c, timers, pcs, devs, all, hostsAll, stream);
    InstallApplications(tb, c, stream);
    stream += HostPlatformHelper::AssignStreams(hostsAll, stream);
    IgmpHelper::AssignStreams(all, stream);
    return tb;
}

void
Mega06Testbed::InstallHosts(Mega06Testbed& tb,
                            const Mega06TestbedConfig& c,
                            const IgmpTimers& timers,
                            const NodeContainer& pcs,
                            const NetDeviceContainer& devs,
                            NodeContainer& all,
                            NodeContainer& hostsAll,
                            int64_t& stream)
{
    all.Add(pcs);
    if (tb.querier)
    {
        all.Add(tb.querier);
    }
    all.Add(tb.rest);
    InternetStackHelper stack;
    stack.Install(all);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.0.0");
    addr.Assign(devs);
    // Multicast leaves through the LAN interface (Linux: a 224.0.0.0/4 route to eth0).
    Ipv4StaticRoutingHelper routing;
    for (auto it = all.Begin(); it != all.End(); ++it)
    {
        routing.GetStaticRouting((*it)->GetObject<Ipv4>())
            ->AddNetworkRouteTo(Ipv4Address("224.0.0.0"), Ipv4Mask("240.0.0.0"), 1);
    }

    IgmpHelper igmp;
    igmp.SetAttribute("Version", UintegerValue(2));
    igmp.SetTimers(timers);
    igmp.Install(all);

    hostsAll.Add(pcs);
    if (tb.querier)
    {
        hostsAll.Add(tb.querier);
    }

    // Host platforms (after the addresses).
    HostPlatformHelper hosts(c.profile);
    hosts.Install(pcs);
    if (tb.querier)
    {
        HostPlatformHelper qhost(c.profile);
        qhost.SetNicAttribute("MaxInterruptRate", DoubleValue(c.querierInterruptRate));
        qhost.Install(tb.querier);
    }

    // No program listens on the send_udp port of the sender PCs and the querier: their kernels
    // discard the datagrams that reach them (flooded, or the router port's) after the NIC's
    // processing, without ns-3's IPv4 and UDP layers (HostPlatform::BindUdpMulticast); the
    // receivers' sara binds the port itself.
    for (auto it = hostsAll.Begin(); it != hostsAll.End(); ++it)
    {
        if (std::find(tb.receivers.Begin(), tb.receivers.End(), *it) == tb.receivers.End())
        {
            (*it)->GetObject<HostPlatform>()->BindUdpMulticast(c.port,
                                                               HostPlatform::UdpMulticastSink());
        }
    }

    // Each PC's clock interrupt has its own phase (the PCs booted at different times): without
    // it, the jiffies of all sender PCs would tick together and their packets would reach the
    // receivers in bursts that no real set of PCs produces.
    Ptr<UniformRandomVariable> phase = CreateObject<UniformRandomVariable>();
    phase->SetStream(stream++);
    for (auto it = hostsAll.Begin(); it != hostsAll.End(); ++it)
    {
        Ptr<TickTimer> tick = DynamicCast<TickTimer>((*it)->GetObject<HostPlatform>()->GetTimer());
        if (tick)
        {
            // (drawn in any case: the later streams stay the same)
            const Time drawn = Seconds(phase->GetValue(0, tick->GetPeriod().GetSeconds()));
            UserAttributes::SetDefault(tick, "Phase", TimeValue(drawn));
        }
    }
}

void
Mega06Testbed::InstallApplications(Mega06Testbed& tb, const Mega06TestbedConfig& c, int64_t& stream)
{
    const uint32_t nGroups
        = c.sendersPerGroup > 0 ? (c.senderPcs + c.sendersPerGroup - 1) / c.sendersPerGroup : 1;
    auto senderGroup = [&](uint32_t i) {
        return c.sendersPerGroup > 0 ? GroupOf(c, i / c.sendersPerGroup) : c.group;
    };
    auto receiverGroup = [&](uint32_t j) {
        return c.sendersPerGroup > 0 ? GroupOf(c, j) : c.group;
    };
    const bool whole = c.partFirstSet == 0 && c.partSets >= nGroups && c.partShared;
    auto senderHere = [&](uint32_t i) {
        return whole || SetHere(c, i / c.sendersPerGroup);
    };
    auto receiverHere = [&](uint32_t j) {
        return whole || SetHere(c, j);
    };
    // Applications.
    for (uint32_t i = 0; i < c.senderPcs; ++i)
    {
        Ptr<SendUdp> app = CreateObject<SendUdp>();
        const std::string by = "for each sender PC, from its options";
        UserAttributes::SetFixed(app, "Nodes", UintegerValue(c.nodesPerPc), by);
        UserAttributes::SetFixed(app, "FirstNodeId", UintegerValue(i * c.nodesPerPc), by);
        UserAttributes::SetFixed(app, "Group", Ipv4AddressValue(senderGroup(i)), by);
        UserAttributes::SetFixed(app, "Port", UintegerValue(c.port), by);
        UserAttributes::SetFixed(app, "PacketSize", UintegerValue(c.packetSize), by);
        UserAttributes::SetFixed(app, "Device", UintegerValue(0), by);
        UserAttributes::SetFixed(app, "SequentialLaunch", BooleanValue(c.sequentialLaunch), by);
        // (its stream in any case: the later streams stay those of the whole run)
        stream += app->AssignStreams(stream);
        if (!senderHere(i))
        {
            continue;
        }
        tb.senders.Get(i)->AddApplication(app);
        app->SetStartTime(c.sendAt);
        app->SetStopTime(c.stopAt);
        tb.sendUdp.push_back(app);
    }
    for (uint32_t i = 0; i < c.receivers; ++i)
    {
        if (!receiverHere(i))
        {
            tb.sara.push_back(nullptr);
            continue;
        }
        Ptr<Ami> ami = CreateObject<Ami>();
        UserAttributes::SetFixed(ami, "Group", Ipv4AddressValue(receiverGroup(i)), "per receiver");
        tb.receivers.Get(i)->AddApplication(ami);
        ami->SetStartTime(c.joinAt);
        ami->SetStopTime(c.stopAt);
        Ptr<Sara> sara = CreateObject<Sara>();
        UserAttributes::SetFixed(sara, "Port", UintegerValue(c.port), "per receiver");
        UserAttributes::SetFixed(sara, "Group", Ipv4AddressValue(receiverGroup(i)), "per receiver");
        // The nodes it expects: its set's (sender PCs i * sendersPerGroup onwards), or all.
        if (c.sendersPerGroup > 0)
        {
            const uint32_t firstPc = i * c.sendersPerGroup;
            const uint32_t pcs = std::min(c.sendersPerGroup, c.senderPcs - firstPc);
            sara->ReserveNodes(firstPc * c.nodesPerPc, pcs * c.nodesPerPc);
        }
        else
        {
            sara->ReserveNodes(0, c.senderPcs * c.nodesPerPc);
        }
        tb.receivers.Get(i)->AddApplication(sara);
        sara->SetStartTime(Seconds(0));
        sara->SetStopTime(c.stopAt);
        tb.sara.push_back(sara);
    }
    if (tb.querier && c.partShared)
    {
        tb.mrouted = CreateObject<Mrouted>();
        UserAttributes::SetFixed(tb.mrouted, "Interface", UintegerValue(1), "for its topology");
        tb.querier->AddApplication(tb.mrouted);
        tb.mrouted->SetStartTime(Seconds(0));
        tb.mrouted->SetStopTime(c.stopAt);
    }
    if (c.partShared)
    {
        Ptr<Ami> restAmi = CreateObject<Ami>();
        UserAttributes::SetFixed(restAmi, "Group", Ipv4AddressValue(c.otherGroup), "per receiver");
        tb.rest->AddApplication(restAmi);
        restAmi->SetStartTime(c.joinAt);
        restAmi->SetStopTime(c.stopAt);
    }
    // The other senders' load: a superposition of independent send_udp processes, so Poisson;
    // their datagrams in send_udp's format (a load frame's node id is 0xffffffff), from the
    // rest's one port straight to the group's MAC address.
    tb.load = CreateObject<UdpFrameSource>();
    {
        const std::string by = "for the other senders' load, from its options";
        UserAttributes::SetFixed(tb.load, "Rate", DoubleValue(c.otherLoad), by);
        UserAttributes::SetFixed(tb.load, "Poisson", BooleanValue(true), by);
        UserAttributes::SetFixed(tb.load, "PacketSize", UintegerValue(c.packetSize - 20 - 8), by);
        UserAttributes::SetFixed(tb.load, "SourcePort", UintegerValue(c.port), by);
        UserAttributes::SetFixed(tb.load, "DestinationPort", UintegerValue(c.port), by);
    }
    stream += tb.load->AssignStreams(stream);
    if (c.partShared)
    {
        Ptr<NetDevice> dev = tb.rest->GetDevice(0);
        tb.load->SetTarget(dev,
                           dev->GetMulticast(c.otherGroup),
                           SendUdp::SourceAddress(dev),
                           c.otherGroup);
        SendUdpHeader head;
        head.SetNodeId(0xffffffff);
        Ptr<Packet> payload = Create<Packet>();
        payload->AddHeader(head);
        tb.load->SetPayload(payload);
        tb.rest->AddApplication(tb.load);
        tb.load->SetStartTime(c.loadAt);
        tb.load->SetStopTime(c.stopAt);
    }
}

void
Mega06SentWindow::SetWindow(Time start, Time end)
{
    m_start = start;
    m_end = end;
}

void
Mega06SentWindow::Watch(Ptr<SendUdp> app)
{
    // Its nodes' ids (the PCs' consecutive ranges join into one flat table).
    UintegerValue first;
    UintegerValue nodes;
    app->GetAttribute("FirstNodeId", first);
    app->GetAttribute("Nodes", nodes);
    if (m_table.GetNNodes() == 0)
    {
        m_table.Reserve(first.Get(), nodes.Get());
    }
    app->TraceConnectWithoutContext("Send", MakeCallback(&Mega06SentWindow::Sent, this));
    // The table's line of the node that sends next is loaded ahead of its Sent.
    app->SetNextNodeHint(MakeCallback(&Mega06SentWindow::Prefetch, this));
}

void
Mega06SentWindow::Prefetch(uint32_t node)
{
    m_table.Prefetch(node);
}

void
Mega06SentWindow::Sent(uint32_t node, uint32_t serial, Time ts)
{
    if (ts >= m_start && ts < m_end)
    {
        ++m_count;
        m_table.Add(node, serial, ts, ts);
    }
}

uint64_t
Mega06SentWindow::GetCount() const
{
    return m_count;
}

SaraTable::Summary
Mega06SentWindow::GetSummary() const
{
    return m_table.GetSummary();
}

std::vector<SaraTable::NodeMoments>
Mega06SentWindow::GetMoments() const
{
    return m_table.GetMoments();
}

} // namespace ns3
