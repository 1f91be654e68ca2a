/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mcast-bridge-diff: the simulated half of the Linux-bridge differential check
 * (tools/linux-bridge-diff.py runs the same scenario in network namespaces on a real bridge).
 *
 * One snooping switch; port 0: the IGMPv2 querier; ports 1..N: hosts h0..h(N-1); last port:
 * a sender that sends one UDP datagram to every group each --period seconds from --sendStart.
 * Host actions (--actions, ';'-separated "T:ACTION:HOST:GROUP"): join, leave (socket-level
 * IP_ADD/DROP_MEMBERSHIP), silent (one report, then the host's IGMP is muted: it never answers
 * a query, as a host that sent one report through a raw socket). Output (--out): CSV lines
 * "time,host,group" for every data frame reaching a host's interface.
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/testbed-module.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ns3;

namespace
{

std::ofstream g_out;

/// A host port's MacRx: the frame's payload, an IPv4 datagram (UDP: protocol octet 9; the
/// destination address at octets 16-19).
void
OnRx(uint32_t host, Ptr<const Packet> p)
{
    uint8_t b[20];
    if (p->CopyData(b, sizeof(b)) < sizeof(b) || (b[0] >> 4) != 4 || b[9] != 17)
    {
        return;
    }
    const uint8_t* d = b + 16;
    if (d[0] < 224 || d[0] > 239)
    {
        return;
    }
    g_out << Simulator::Now().GetSeconds() << "," << host << "," << +d[0] << "." << +d[1] << "."
          << +d[2] << "." << +d[3] << "\n";
}

void
SendAll(Ptr<Socket> s, std::vector<Ipv4Address> groups)
{
    for (const auto& g : groups)
    {
        s->SendTo(Create<Packet>(64), 0, InetSocketAddress(g, 9999));
    }
}

std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> r;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep))
    {
        if (!item.empty())
        {
            r.push_back(item);
        }
    }
    return r;
}

/**
 * Parse a dotted-quad IPv4 address strictly.
 * @param s the text
 * @param [out] a the address
 * @return whether @p s is four numbers 0-255 separated by dots
 */
bool
ParseAddress(const std::string& s, Ipv4Address& a)
{
    unsigned b[4];
    char tail = 0;
    if (std::sscanf(s.c_str(), "%u.%u.%u.%u%c", &b[0], &b[1], &b[2], &b[3], &tail) != 4)
    {
        return false;
    }
    for (unsigned x : b)
    {
        if (x > 255)
        {
            return false;
        }
    }
    a = Ipv4Address((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]);
    return true;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t nHosts = 4;
    std::string groupsArg = "239.1.1.1,239.1.1.2,239.1.1.3";
    std::string actions;
    std::string out = "mcast-bridge-diff.csv";
    double period = 0.1;
    double sendStart = 1.0;
    double stop = 16.0;
    double qi = 3;
    double qri = 1;
    double lmqi = 1;
    uint32_t lmqc = 2;
    uint32_t startupCount = 2;
    double startupInterval = 0.75;
    double membership = 8;
    double routerTimeout = 7;
    bool fastLeave = false;
    std::string unregistered = "RouterPorts";
    ProgramOptions opts("mcast-bridge-diff",
                        "a snooping switch, an IGMP querier, hosts and a multicast sender; the "
                        "forwarding set per (host, group) over time, for the Linux-bridge check");
    opts.Add("hosts", "number of hosts", nHosts, 1, 64);
    opts.Add("groups", "comma-separated groups the sender sends to", groupsArg);
    opts.Add("actions", "';'-separated T:ACTION:HOST:GROUP (join, leave, silent)", actions);
    opts.Add("out", "CSV output file", out);
    // Seconds; a run of at most an hour of simulated time, sends at least 1 ms apart.
    opts.Add("period", "send period (s)", period, 1e-3, 3600, "s");
    opts.Add("sendStart", "first send (s)", sendStart, 0, 3600, "s");
    opts.Add("stop", "end of the run (s)", stop, 0, 3600, "s");
    // The IGMP timers within RFC 3376's encodable ranges (Max Resp Code, QQIC).
    opts.Add("queryInterval", "Query Interval (s)", qi, 0.1, 31744, "s");
    opts.Add("queryResponseInterval", "Query Response Interval (s)", qri, 0.1, 3174.4, "s");
    opts.Add("lmqi", "Last Member Query Interval (s)", lmqi, 0.1, 25.5, "s");
    opts.Add("lmqc", "Last Member Query Count", lmqc, 1, 100);
    opts.Add("startupCount", "Startup Query Count", startupCount, 1, 100);
    opts.Add("startupInterval", "Startup Query Interval (s)", startupInterval, 0.001, 31744, "s");
    opts.Add("membershipInterval",
             "switch port membership timeout (s)",
             membership,
             0.001,
             1e5,
             "s");
    opts.Add("routerPortTimeout", "switch router-port timeout (s)", routerTimeout, 0.001, 1e5, "s");
    opts.Add("fastLeave", "switch fast leave", fastLeave);
    opts.AddChoice("unregistered",
                   "switch UnregisteredPolicy",
                   unregistered,
                   {"Flood", "RouterPorts"});

    /** One host action of --actions. */
    struct Action
    {
        Time at;            //!< when
        std::string what;   //!< join, leave or silent
        unsigned long host; //!< which host
        Ipv4Address group;  //!< which group
    };

    std::vector<Ipv4Address> groups;
    std::vector<Action> plan;
    // Every argument is checked inside Parse() (and so by --check), before --out is opened:
    // a bad --groups or --actions must not truncate the previous output.
    opts.AddCheck([&]() {
        ProgramOptions::Require(qri < qi, "--queryResponseInterval must be below --queryInterval");
        ProgramOptions::Require(sendStart < stop, "--sendStart must be before --stop");
        for (const auto& g : Split(groupsArg, ','))
        {
            Ipv4Address a;
            ProgramOptions::Require(ParseAddress(g, a) && a.IsMulticast(),
                                    "--groups: '" + g + "' is not a multicast IPv4 address");
            groups.push_back(a);
        }
        ProgramOptions::Require(!groups.empty(), "--groups: at least one multicast group");
        for (const auto& a : Split(actions, ';'))
        {
            auto f = Split(a, ':');
            ProgramOptions::Require(f.size() == 4,
                                    "--actions: '" + a + "' is not T:ACTION:HOST:GROUP");
            char* end = nullptr;
            const double at = std::strtod(f[0].c_str(), &end);
            ProgramOptions::Require(end != f[0].c_str() && *end == 0 && at >= 0 && at <= stop,
                                    "--actions: '" + a + "': time " + f[0] + " not in [0, stop]");
            const unsigned long h = std::strtoul(f[2].c_str(), &end, 10);
            ProgramOptions::Require(!f[2].empty() && f[2][0] != '-' && *end == 0 && h < nHosts,
                                    "--actions: '" + a + "': no host " + f[2]);
            Ipv4Address g;
            ProgramOptions::Require(ParseAddress(f[3], g) && g.IsMulticast(),
                                    "--actions: '" + a + "': " + f[3]
                                        + " is not a multicast group");
            ProgramOptions::Require(f[1] == "join" || f[1] == "leave" || f[1] == "silent",
                                    "--actions: '" + a + "': unknown action " + f[1]);
            plan.push_back(Action{Seconds(at), f[1], h, g});
        }
        std::error_code ec;
        ProgramOptions::Require(!std::filesystem::is_directory(out, ec),
                                "--out: '" + out + "' is a directory");
    });
    opts.Parse(argc, argv);

    g_out.open(out);
    ProgramOptions::Require(static_cast<bool>(g_out), "--out: cannot write '" + out + "'");

    Ptr<Node> sw = CreateObject<Node>();
    SnoopingSwitchHelper sh;
    sh.SetDeviceAttribute("MembershipInterval", TimeValue(Seconds(membership)));
    sh.SetDeviceAttribute("RouterPortTimeout", TimeValue(Seconds(routerTimeout)));
    sh.SetDeviceAttribute("LastMemberQueryInterval", TimeValue(Seconds(lmqi)));
    sh.SetDeviceAttribute("LastMemberQueryCount", UintegerValue(lmqc));
    sh.SetDeviceAttribute("FastLeave", BooleanValue(fastLeave));
    sh.SetDeviceAttribute("UnregisteredPolicy", StringValue(unregistered));
    Ptr<SnoopingBridgeNetDevice> br = sh.Install(sw);
    NodeContainer querier(1);
    NodeContainer hosts(nHosts);
    NodeContainer sender(1);
    NodeContainer all(querier, hosts, sender);
    NetDeviceContainer devs;
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        devs.Add(sh.Connect(br, all.Get(i), DataRate("1Gbps")).Get(0));
    }
    InternetStackHelper stack;
    stack.Install(all);
    Ipv4AddressHelper addr("10.77.0.0", "255.255.255.0");
    addr.Assign(devs);
    IgmpHelper igmp;
    igmp.SetAttribute("Version", UintegerValue(2));
    igmp.SetAttribute("QueryInterval", TimeValue(Seconds(qi)));
    igmp.SetAttribute("QueryResponseInterval", TimeValue(Seconds(qri)));
    igmp.SetAttribute("LastMemberQueryInterval", TimeValue(Seconds(lmqi)));
    igmp.SetAttribute("LastMemberQueryCount", UintegerValue(lmqc));
    igmp.SetAttribute("StartupQueryCount", UintegerValue(startupCount));
    igmp.SetAttribute("StartupQueryInterval", TimeValue(Seconds(startupInterval)));
    igmp.Install(all);
    NodeContainer withSwitch(all, NodeContainer(sw));
    IgmpHelper::AssignStreams(withSwitch, 1);
    IgmpHelper::EnableQuerier(querier.Get(0), 1);

    std::vector<Ptr<Socket>> sockets;
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        sockets.push_back(Socket::CreateSocket(hosts.Get(i), UdpSocketFactory::GetTypeId()));
        devs.Get(1 + i)->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&OnRx, i));
    }
    for (const Action& a : plan)
    {
        if (a.what == "join")
        {
            IgmpHelper::ScheduleJoin(a.at, sockets[a.host], a.group);
        }
        else if (a.what == "leave")
        {
            IgmpHelper::ScheduleLeave(a.at, sockets[a.host], a.group);
        }
        else if (a.what == "silent")
        {
            IgmpHelper::ScheduleJoin(a.at, sockets[a.host], a.group);
            Simulator::Schedule(a.at + MicroSeconds(1),
                                &IgmpL4Protocol::SetMuted,
                                hosts.Get(a.host)->GetObject<IgmpL4Protocol>(),
                                true);
        }
    }
    // The sender: a UDP socket with a route for 224.0.0.0/4 on its interface.
    Ipv4StaticRoutingHelper routing;
    routing.GetStaticRouting(sender.Get(0)->GetObject<Ipv4>())
        ->AddNetworkRouteTo(Ipv4Address("224.0.0.0"), Ipv4Mask("240.0.0.0"), 1);
    Ptr<Socket> tx = Socket::CreateSocket(sender.Get(0), UdpSocketFactory::GetTypeId());
    tx->SetIpTtl(1);
    for (double t = sendStart; t < stop; t += period)
    {
        Simulator::Schedule(Seconds(t), &SendAll, tx, groups);
    }
    Simulator::Stop(Seconds(stop));
    Simulator::Run();
    Simulator::Destroy();
    g_out.close();
    return 0;
}
