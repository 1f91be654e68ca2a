/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * igmp-pcap: makes the IGMP model emit every message it can send and captures them to pcap
 * (one file per IGMP version), for dissection by tshark
 * (bindings/python/tests/test_igmp_tshark.py).
 *
 *   ./build/examples/igmp-pcap --prefix=/tmp/igmp
 *     -> /tmp/igmp-v2-<node>-<dev>.pcap, /tmp/igmp-v3-<node>-<dev>.pcap
 *
 * A passive observer node (node 0) on the shared Ethernet segment captures promiscuously.
 * v2 run: startup/general queries, v2 reports, report after a v1 query (v1 report), leave,
 * group-specific queries. v3 run: v3 general, group-specific and group-and-source-specific
 * queries; TO_EX, TO_IN, ALLOW, BLOCK, IS_IN, IS_EX records.
 */

#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/testbed-module.h"

using namespace ns3;

namespace
{

void
InjectV1Query(Ptr<NetDevice> dev)
{
    // An IGMPv1 query (Max Resp Code 0) from a legacy querier 10.0.0.254: not something the
    // model sends itself, but it makes the hosts fall back to IGMPv1 reports.
    IgmpHeader q = IgmpHeader::MakeV2Query(Ipv4Address::GetAny(), Seconds(1));
    q.SetMaxRespCode(0);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(q);
    Ipv4RouterAlertHeader ip;
    ip.source = Ipv4Address("10.0.0.254");
    ip.destination = Ipv4Address("224.0.0.1");
    ip.payloadSize = 8;
    p->AddHeader(ip);
    dev->Send(p, Mac48Address::GetMulticast(Ipv4Address("224.0.0.1")), 0x0800);
}

void
Run(uint8_t version, const std::string& prefix)
{
    NodeContainer nodes;
    nodes.Create(4); // 0 observer (no IP), 1 querier, 2 and 3 hosts
    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", StringValue("100Mbps"));
    NetDeviceContainer devs = csma.Install(nodes);
    NodeContainer ipNodes(nodes.Get(1), nodes.Get(2), nodes.Get(3));
    InternetStackHelper stack;
    stack.Install(ipNodes);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
    addr.Assign(NetDeviceContainer(NetDeviceContainer(devs.Get(1), devs.Get(2)), devs.Get(3)));
    IgmpHelper igmp;
    igmp.SetAttribute("Version", UintegerValue(version));
    igmp.SetAttribute("QueryInterval", TimeValue(Seconds(10)));
    igmp.SetAttribute("QueryResponseInterval", TimeValue(Seconds(2)));
    igmp.Install(ipNodes);
    IgmpHelper::AssignStreams(ipNodes, 1);
    IgmpHelper::EnableQuerier(nodes.Get(1), 1);

    const Ipv4Address g1("239.1.1.1");
    const Ipv4Address g2("239.1.1.2");
    Ptr<Socket> s2 = Socket::CreateSocket(nodes.Get(2), UdpSocketFactory::GetTypeId());
    Ptr<Socket> s3 = Socket::CreateSocket(nodes.Get(3), UdpSocketFactory::GetTypeId());
    IgmpHelper::ScheduleJoin(Seconds(1), s2, g1);
    IgmpHelper::ScheduleJoin(Seconds(1), s3, g2);
    if (version == 3)
    {
        const Ipv4Address a("10.0.0.50");
        const Ipv4Address b("10.0.0.51");
        Simulator::Schedule(Seconds(4), [=]() {
            IgmpL4Protocol::SetSourceFilter(s3, g2, IgmpL4Protocol::INCLUDE, {a, b}); // TO_IN
        });
        Simulator::Schedule(Seconds(6), [=]() {
            IgmpL4Protocol::SetSourceFilter(s3,
                                            g2,
                                            IgmpL4Protocol::INCLUDE,
                                            {a}); // BLOCK -> Q(G,S)
        });
        Simulator::Schedule(Seconds(8), [=]() {
            IgmpL4Protocol::SetSourceFilter(s3, g2, IgmpL4Protocol::INCLUDE, {a, b}); // ALLOW
        });
        IgmpHelper::ScheduleLeave(Seconds(15), s2, g1); // TO_IN({}) -> Q(G)
    }
    else
    {
        IgmpHelper::ScheduleLeave(Seconds(8), s2, g1);                 // leave -> GSQs
        Simulator::Schedule(Seconds(12), &InjectV1Query, devs.Get(0)); // -> v1 report
    }
    csma.EnablePcap(prefix + "-v" + std::to_string(version), devs.Get(0), true);
    Simulator::Stop(Seconds(24));
    Simulator::Run();
    Simulator::Destroy();
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string prefix = "igmp";
    ProgramOptions opts("igmp-pcap",
                        "IGMPv2 and IGMPv3 hosts and queriers emit every message they can; pcap "
                        "files for the tshark check");
    opts.AddOutputPrefix("prefix", "output file prefix (directory and name start)", prefix);
    opts.Parse(argc, argv);
    Run(2, prefix);
    Run(3, prefix);
    return 0;
}
