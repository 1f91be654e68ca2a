/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IGMP wire format and RFC 2236 / RFC 3376 state transitions, each asserted from the RFC text.
 */

#include "ns3/boolean.h"
#include "ns3/csma-helper.h"
#include "ns3/csma-net-device.h"
#include "ns3/igmp-header.h"
#include "ns3/igmp-l4-protocol.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-router-alert-header.h"
#include "ns3/multicast-helper.h"
#include "ns3/simulator.h"
#include "ns3/snooping-bridge-net-device.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace
{

const Ipv4Address G1("239.1.1.1");
const Ipv4Address G2("239.1.1.2");

/// One IGMP message seen on a node.
struct Seen
{
    Time t;           //!< time
    uint32_t node;    //!< node index in the LAN
    IgmpHeader msg;   //!< message
    Ipv4Address peer; //!< destination (tx) / source (rx)
};

/// A shared Ethernet segment of n nodes with IPv4 10.0.0.(i+1) and IGMP; node 0 may be router.
struct Lan
{
    NodeContainer nodes;
    NetDeviceContainer devs;
    std::vector<Ptr<IgmpL4Protocol>> igmp;
    std::vector<Seen> tx;
    std::vector<Seen> rx;
    std::vector<Ptr<Socket>> sockets;

    Lan(uint32_t n, IgmpHelper helper = IgmpHelper())
    {
        nodes.Create(n);
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", StringValue("100Mbps"));
        devs = csma.Install(nodes);
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
        addr.Assign(devs);
        helper.Install(nodes);
        for (uint32_t i = 0; i < n; ++i)
        {
            igmp.push_back(nodes.Get(i)->GetObject<IgmpL4Protocol>());
            igmp[i]->TraceConnectWithoutContext("Tx", MakeBoundCallback(&Lan::OnTx, this, i));
            igmp[i]->TraceConnectWithoutContext("Rx", MakeBoundCallback(&Lan::OnRx, this, i));
            sockets.push_back(Socket::CreateSocket(nodes.Get(i), UdpSocketFactory::GetTypeId()));
        }
        IgmpHelper::AssignStreams(nodes, 100);
    }

    static void OnTx(Lan* lan, uint32_t i, const IgmpHeader& m, uint32_t ifIndex, Ipv4Address d)
    {
        lan->tx.push_back({Simulator::Now(), i, m, d});
    }

    static void OnRx(Lan* lan, uint32_t i, const IgmpHeader& m, uint32_t ifIndex, Ipv4Address s)
    {
        lan->rx.push_back({Simulator::Now(), i, m, s});
    }

    void Join(Time at, uint32_t i, Ipv4Address g)
    {
        IgmpHelper::ScheduleJoin(at, sockets[i], g);
    }

    void Leave(Time at, uint32_t i, Ipv4Address g)
    {
        IgmpHelper::ScheduleLeave(at, sockets[i], g);
    }

    /// Messages sent by node i (or any node if i < 0) of a type.
    std::vector<Seen> Sent(int i, uint8_t type) const
    {
        std::vector<Seen> r;
        for (const auto& s : tx)
        {
            if ((i < 0 || s.node == static_cast<uint32_t>(i)) && s.msg.GetType() == type)
            {
                r.push_back(s);
            }
        }
        return r;
    }
};

} // namespace

/**
 * @ingroup testbed-tests
 * Wire format: encodings, checksums and malformed messages.
 */
class IgmpWireFormatTestCase : public TestCase
{
  public:
    IgmpWireFormatTestCase()
        : TestCase("IGMP wire format: codes, checksums, Router Alert header, malformed input")
    {
    }

  private:
    void DoRun() override
    {
        // RFC 3376 4.1.1: codes < 128 are literal; 1|exp|mant = (mant|0x10) << (exp+3).
        NS_TEST_ASSERT_MSG_EQ(+IgmpHeader::EncodeCode(100), 100, "literal code");
        NS_TEST_ASSERT_MSG_EQ(IgmpHeader::DecodeCode(0x80), 128u, "0x80 = 16 << 3");
        NS_TEST_ASSERT_MSG_EQ(IgmpHeader::DecodeCode(0xff), 31744u, "largest code");
        NS_TEST_ASSERT_MSG_EQ(IgmpHeader::DecodeCode(IgmpHeader::EncodeCode(1250)),
                              1216u,
                              "1250 rounds down to 19 << 6 = 1216");

        // IGMPv2 query of 8 octets: type, max resp (1/10 s), checksum, group.
        IgmpHeader q = IgmpHeader::MakeV2Query(Ipv4Address::GetAny(), Seconds(10));
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(q);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 8u, "v2 query is 8 octets");
        uint8_t b[64];
        p->CopyData(b, 8);
        NS_TEST_ASSERT_MSG_EQ(+b[0], 0x11, "type 0x11");
        NS_TEST_ASSERT_MSG_EQ(+b[1], 100, "max resp 100 x 0.1 s");
        // Checksum of 11 64 00 00 00 00 00 00: ~(0x1164) = 0xee9b.
        NS_TEST_ASSERT_MSG_EQ((b[2] << 8 | b[3]), 0xee9b, "hand-computed checksum");
        IgmpHeader back;
        NS_TEST_ASSERT_MSG_EQ(+back.Parse(b, 8), +IgmpHeader::PARSE_OK, "parses");
        NS_TEST_ASSERT_MSG_EQ(+back.GetQueryVersion(), 2, "8 octets, code != 0: v2 query");
        b[1] = 0;
        NS_TEST_ASSERT_MSG_EQ(+back.Parse(b, 8), +IgmpHeader::PARSE_BAD_CHECKSUM, "bad checksum");
        b[2] = 0xef; // fix checksum for code 0: ~0x1100 = 0xeeff
        b[2] = 0xee;
        b[3] = 0xff;
        NS_TEST_ASSERT_MSG_EQ(+back.Parse(b, 8), +IgmpHeader::PARSE_OK, "v1 query");
        NS_TEST_ASSERT_MSG_EQ(+back.GetQueryVersion(), 1, "8 octets, code 0: v1 query");
        NS_TEST_ASSERT_MSG_EQ(+back.Parse(b, 7), +IgmpHeader::PARSE_TOO_SHORT, "7 octets");

        // IGMPv3 report round trip.
        IgmpGroupRecord r1{IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE, G1, {}, 0};
        IgmpGroupRecord r2{IgmpGroupRecord::ALLOW_NEW_SOURCES,
                           G2,
                           {Ipv4Address("10.0.0.9"), Ipv4Address("10.0.0.10")},
                           0};
        IgmpHeader rep = IgmpHeader::MakeV3Report({r1, r2});
        Ptr<Packet> pr = Create<Packet>();
        pr->AddHeader(rep);
        NS_TEST_ASSERT_MSG_EQ(pr->GetSize(), 8u + 8u + 16u, "8 + 8 + (8 + 2 x 4) octets");
        IgmpHeader rb;
        pr->RemoveHeader(rb);
        NS_TEST_ASSERT_MSG_EQ(+rb.GetParseResult(), +IgmpHeader::PARSE_OK, "v3 report parses");
        NS_TEST_ASSERT_MSG_EQ(rb.GetRecords().size(), 2u, "two records");
        NS_TEST_ASSERT_MSG_EQ((rb.GetRecords()[1] == r2), true, "record round trip");

        // Truncated v3 report: record count says more than there is.
        uint8_t t[16];
        Ptr<Packet> pt = Create<Packet>();
        pt->AddHeader(rep);
        pt->CopyData(t, 16);
        NS_TEST_ASSERT_MSG_EQ(+rb.Parse(t, 16),
                              +IgmpHeader::PARSE_BAD_CHECKSUM,
                              "truncation breaks the checksum first");

        // v3 query of 9..11 octets is ignored (RFC 3376 7.1).
        uint8_t odd[10] = {0x11, 10, 0, 0, 0, 0, 0, 0, 0, 0};
        uint16_t cs = ~static_cast<uint16_t>(0x110a);
        odd[2] = cs >> 8;
        odd[3] = cs & 0xff;
        NS_TEST_ASSERT_MSG_EQ(+rb.Parse(odd, 10), +IgmpHeader::PARSE_BAD_LENGTH, "10 octets");

        // Router Alert IPv4 header: 24 octets, IHL 6, option 94 04 00 00, valid checksum.
        Ipv4RouterAlertHeader ip;
        ip.source = Ipv4Address("10.0.0.1");
        ip.destination = Ipv4Address("224.0.0.22");
        ip.payloadSize = 16;
        Ptr<Packet> pi = Create<Packet>();
        pi->AddHeader(ip);
        uint8_t h[24];
        pi->CopyData(h, 24);
        NS_TEST_ASSERT_MSG_EQ(+h[0], 0x46, "version 4, IHL 6");
        NS_TEST_ASSERT_MSG_EQ((h[2] << 8 | h[3]), 40, "total length");
        NS_TEST_ASSERT_MSG_EQ(+h[8], 1, "TTL 1");
        NS_TEST_ASSERT_MSG_EQ(+h[9], 2, "protocol 2");
        NS_TEST_ASSERT_MSG_EQ(+h[20], 0x94, "Router Alert type");
        NS_TEST_ASSERT_MSG_EQ(+h[21], 4, "Router Alert length");
        uint32_t sum = 0;
        for (int i = 0; i < 24; i += 2)
        {
            sum += (h[i] << 8) | h[i + 1];
        }
        while (sum >> 16)
        {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        NS_TEST_ASSERT_MSG_EQ(sum, 0xffffu, "IPv4 header checksum verifies");
        // ns-3's own Ipv4Header skips the option when it reads the header.
        Ipv4Header nsip;
        pi->RemoveHeader(nsip);
        NS_TEST_ASSERT_MSG_EQ(nsip.GetSerializedSize(), 24u, "Ipv4Header honours IHL 6");
        NS_TEST_ASSERT_MSG_EQ(nsip.GetDestination(), Ipv4Address("224.0.0.22"), "dst");
    }
};

/**
 * @ingroup testbed-tests
 * RFC 2236: join, robustness repeat, destination; the frame on the wire has TTL 1 and RA.
 */
class IgmpV2JoinTestCase : public TestCase
{
  public:
    IgmpV2JoinTestCase()
        : TestCase("IGMPv2 join: unsolicited report + Robustness-1 repeats within the URI")
    {
    }

  private:
    std::vector<std::vector<uint8_t>> m_frames;

    void Sniff(Ptr<const Packet> p)
    {
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        m_frames.push_back(b);
    }

    void DoRun() override
    {
        IgmpHelper h;
        h.SetAttribute("Version", UintegerValue(2));
        h.SetAttribute("Robustness", UintegerValue(3));
        Lan lan(2, h);
        lan.devs.Get(1)->TraceConnectWithoutContext("MacRx",
                                                    MakeCallback(&IgmpV2JoinTestCase::Sniff, this));
        lan.Join(Seconds(1), 0, G1);
        Simulator::Stop(Seconds(40));
        Simulator::Run();
        auto reps = lan.Sent(0, IgmpHeader::V2_MEMBERSHIP_REPORT);
        // RFC 2236 3: report at once, repeated "once or twice" (Robustness - 1 = 2 times) after
        // random delays of at most the Unsolicited Report Interval (10 s) each.
        NS_TEST_ASSERT_MSG_EQ(reps.size(), 3u, "three reports with Robustness 3");
        NS_TEST_ASSERT_MSG_EQ(reps[0].t, Seconds(1), "first report at the join");
        for (size_t i = 1; i < reps.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(reps[i].t - reps[i - 1].t, Seconds(10), "within URI");
        }
        for (const auto& r : reps)
        {
            NS_TEST_ASSERT_MSG_EQ(r.peer, G1, "v2 reports go to the group address");
            NS_TEST_ASSERT_MSG_EQ(r.msg.GetGroup(), G1, "group field");
        }
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[0]->GetHostState(1, G1),
                              IgmpL4Protocol::IDLE_MEMBER,
                              "Idle Member after the repeats");
        NS_TEST_ASSERT_MSG_EQ(m_frames.size(), 3u, "three frames on the wire");
        const auto& f = m_frames.front();
        NS_TEST_ASSERT_MSG_EQ((f[12] << 8 | f[13]), 0x0800, "EtherType IPv4");
        NS_TEST_ASSERT_MSG_EQ(+f[14], 0x46, "IHL 6 (Router Alert)");
        NS_TEST_ASSERT_MSG_EQ(+f[22], 1, "TTL 1");
        NS_TEST_ASSERT_MSG_EQ(+f[23], 2, "protocol IGMP");
        NS_TEST_ASSERT_MSG_EQ(+f[34], 0x94, "RA option");
        NS_TEST_ASSERT_MSG_EQ(+f[0], 0x01, "multicast MAC 01:00:5e...");
        NS_TEST_ASSERT_MSG_EQ(+f[5], 0x01, "low 23 bits of 239.1.1.1");
        NS_TEST_ASSERT_MSG_EQ(+f[38], 0x16, "IGMPv2 report");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * RFC 2236 6: "query received" in Delaying Member resets the timer only if Max Resp Time is
 * below the time left; in Idle Member it starts the timer.
 */
class IgmpV2QueryTimerTestCase : public TestCase
{
  public:
    IgmpV2QueryTimerTestCase()
        : TestCase("IGMPv2 host: a query shortens a longer pending timer and starts an idle one")
    {
    }

  private:
    static void Query(Ptr<NetDevice> dev, Ipv4Address group, Time maxResp)
    {
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(IgmpHeader::MakeV2Query(group, maxResp));
        Ipv4RouterAlertHeader ip;
        ip.source = Ipv4Address("10.0.0.1");
        ip.destination = group == Ipv4Address::GetAny() ? Ipv4Address("224.0.0.1") : group;
        ip.payloadSize = 8;
        p->AddHeader(ip);
        dev->Send(p, Mac48Address::GetMulticast(ip.destination), 0x0800);
    }

    void DoRun() override
    {
        IgmpHelper h;
        h.SetAttribute("Version", UintegerValue(2));
        h.SetAttribute("UnsolicitedReportIntervalV2", TimeValue(Seconds(1000)));
        Lan lan(2, h);
        lan.Join(Seconds(1), 1, G1); // Delaying, repeat timer somewhere in [1, 1001] s
        // A query with Max Resp 0.1 s at 2 s: the timer is (almost surely) longer: reset.
        Simulator::Schedule(Seconds(2),
                            &IgmpV2QueryTimerTestCase::Query,
                            lan.devs.Get(0),
                            Ipv4Address::GetAny(),
                            MilliSeconds(100));
        // At 50 s the host is Idle; a group-specific query with Max Resp 2 s starts the timer.
        Simulator::Schedule(Seconds(50),
                            &IgmpV2QueryTimerTestCase::Query,
                            lan.devs.Get(0),
                            G1,
                            Seconds(2));
        // A group-specific query for another group does not concern G1.
        Simulator::Schedule(Seconds(60),
                            &IgmpV2QueryTimerTestCase::Query,
                            lan.devs.Get(0),
                            G2,
                            Seconds(2));
        IgmpL4Protocol::HostState at49 = IgmpL4Protocol::NON_MEMBER;
        Simulator::Schedule(Seconds(49), [&]() { at49 = lan.igmp[1]->GetHostState(1, G1); });
        Simulator::Stop(Seconds(70));
        Simulator::Run();
        auto reps = lan.Sent(1, IgmpHeader::V2_MEMBERSHIP_REPORT);
        NS_TEST_ASSERT_MSG_EQ(reps.size(), 3u, "join report, shortened repeat, query answer");
        NS_TEST_ASSERT_MSG_GT(reps[1].t, Seconds(2), "after the query");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(reps[1].t, Seconds(2) + MilliSeconds(101), "within 0.1 s");
        NS_TEST_ASSERT_MSG_EQ(at49, IgmpL4Protocol::IDLE_MEMBER, "Idle after the report");
        NS_TEST_ASSERT_MSG_GT(reps[2].t, Seconds(50), "answer after the group query");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(reps[2].t, Seconds(52) + MilliSeconds(1), "within 2 s");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * RFC 2236 6: a Delaying Member that hears another member's report stops its timer and clears
 * its flag; only the flag holder sends a Leave.
 */
class IgmpV2SuppressionTestCase : public TestCase
{
  public:
    IgmpV2SuppressionTestCase()
        : TestCase("IGMPv2 report suppression and leave by the last reporter only")
    {
    }

  private:
    void DoRun() override
    {
        IgmpHelper h;
        h.SetAttribute("Version", UintegerValue(2));
        h.SetAttribute("Robustness", UintegerValue(1)); // no unsolicited repeats
        Lan lan(3, h);
        // Node 0 is the querier (lowest address 10.0.0.1); nodes 1 and 2 join at 1 s.
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1, Seconds(5));
        lan.Join(Seconds(1), 1, G1);
        lan.Join(Seconds(1), 2, G1);
        Simulator::Stop(Seconds(17));
        Simulator::Run();
        // Query at 5 s (Max Resp 10 s): exactly one of the two answers before 15 s.
        size_t answers = 0;
        for (const auto& s : lan.Sent(-1, IgmpHeader::V2_MEMBERSHIP_REPORT))
        {
            if (s.t > Seconds(5))
            {
                ++answers;
                NS_TEST_ASSERT_MSG_LT_OR_EQ(s.t, Seconds(15), "within Max Resp Time");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(answers, 1u, "the second report is suppressed");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[1]->GetStats().suppressed
                                  + lan.igmp[2]->GetStats().suppressed,
                              1u,
                              "one host suppressed its report");
        // The suppressed host has its flag cleared: its leave sends nothing.
        const uint32_t quiet = lan.igmp[1]->GetStats().suppressed == 1 ? 1 : 2;
        const uint32_t reporter = 3 - quiet;
        const uint64_t before = lan.igmp[quiet]->GetStats().txLeaves;
        IgmpL4Protocol::LeaveGroup(lan.sockets[quiet], G1);
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[quiet]->GetStats().txLeaves, before, "flag clear: no leave");
        IgmpL4Protocol::LeaveGroup(lan.sockets[reporter], G1);
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[reporter]->GetStats().txLeaves, 1u, "flag set: leave");
        NS_TEST_ASSERT_MSG_EQ(lan.Sent(reporter, IgmpHeader::V2_LEAVE_GROUP).back().peer,
                              Ipv4Address("224.0.0.2"),
                              "leave to all-routers");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * RFC 2236 3 / 7: a leave from the last member makes the querier send [LMQC] group-specific
 * queries [LMQI] apart and remove the group after LMQC x LMQI; another member keeps it.
 */
class IgmpV2LeaveTestCase : public TestCase
{
  public:
    IgmpV2LeaveTestCase()
        : TestCase("IGMPv2 leave: group-specific queries, removal after LMQC x LMQI")
    {
    }

  private:
    std::vector<std::pair<Time, bool>> m_changes;

    void Group(uint32_t ifIndex, Ipv4Address g, uint8_t present)
    {
        m_changes.emplace_back(Simulator::Now(), present != 0);
    }

    void DoRun() override
    {
        IgmpHelper h;
        h.SetAttribute("Version", UintegerValue(2));
        h.SetAttribute("LastMemberQueryCount", UintegerValue(3));
        h.SetAttribute("LastMemberQueryInterval", TimeValue(MilliSeconds(700)));
        Lan lan(3, h);
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1);
        lan.igmp[0]->TraceConnectWithoutContext("RouterGroup",
                                                MakeCallback(&IgmpV2LeaveTestCase::Group, this));
        lan.Join(Seconds(1), 1, G1);
        lan.Join(Seconds(1), 2, G2);
        lan.Leave(Seconds(30), 1, G1);
        Simulator::Stop(Seconds(40));
        Simulator::Run();
        // Group-specific queries for G1 at 30, 30.7, 31.4 s, to the group, Max Resp = LMQI.
        std::vector<Time> gsq;
        for (const auto& s : lan.Sent(0, IgmpHeader::MEMBERSHIP_QUERY))
        {
            if (s.msg.GetGroup() == G1)
            {
                gsq.push_back(s.t);
                NS_TEST_ASSERT_MSG_EQ(s.peer, G1, "group-specific query to the group");
                NS_TEST_ASSERT_MSG_EQ(s.msg.GetMaxRespTime(), MilliSeconds(700), "Max Resp");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(gsq.size(), 3u, "LMQC group-specific queries");
        // The first goes out when the leave arrives (30 s + one frame time on the LAN).
        NS_TEST_ASSERT_MSG_EQ_TOL(gsq[0], Seconds(30), MicroSeconds(100), "first at the leave");
        NS_TEST_ASSERT_MSG_EQ(gsq[2] - gsq[0], MilliSeconds(1400), "LMQI apart");
        // G1 appeared at 1 s and was removed at 30 + 3 x 0.7 s; G2 stays.
        NS_TEST_ASSERT_MSG_EQ(m_changes.size(), 3u, "G1 on, G2 on, G1 off");
        NS_TEST_ASSERT_MSG_EQ(m_changes.back().first,
                              gsq[0] + MilliSeconds(2100),
                              "removal after LMQC x LMQI");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[0]->HasListeners(1, G1), false, "G1 gone");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[0]->HasListeners(1, G2), true, "G2 kept");
        Simulator::Destroy();

        // Another member of G1 answers the group-specific query: the group stays.
        m_changes.clear();
        Lan lan2(3, h);
        IgmpHelper::EnableQuerier(lan2.nodes.Get(0), 1);
        lan2.Join(Seconds(1), 1, G1);
        lan2.Join(Seconds(1), 2, G1);
        lan2.Leave(Seconds(30), 1, G1);
        Simulator::Stop(Seconds(40));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(lan2.igmp[0]->HasListeners(1, G1), true, "remaining member keeps G1");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Group membership timeout, startup queries, querier election and Other Querier Present, and
 * the router part's next transmission that follows from them.
 */
class IgmpQuerierTestCase : public TestCase
{
  public:
    IgmpQuerierTestCase()
        : TestCase("Querier: startup queries, election, other-querier-present, GMI timeout")
    {
    }

  private:
    void DoRun() override
    {
        IgmpHelper h;
        h.SetAttribute("Version", UintegerValue(2));
        h.SetAttribute("QueryInterval", TimeValue(Seconds(20)));
        h.SetAttribute("QueryResponseInterval", TimeValue(Seconds(4)));
        Lan lan(3, h);
        IgmpHelper::EnableQuerier(lan.nodes.Get(1), 1, Seconds(0)); // 10.0.0.2
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1, Seconds(2)); // 10.0.0.1 wins
        lan.Join(Seconds(1), 2, G1);
        // The router part's next transmission (GetNextRouterTransmission, a split run's
        // lookahead), probed at 1, 3 and 10 s.
        std::vector<Time> next0;
        std::vector<Time> next1;
        for (double t : {1.0, 3.0, 10.0})
        {
            Simulator::Schedule(Seconds(t), [&]() {
                next0.push_back(lan.igmp[0]->GetNextRouterTransmission(1));
                next1.push_back(lan.igmp[1]->GetNextRouterTransmission(1));
            });
        }
        // The host goes silent at 12 s: its membership must time out GMI after its last report.
        Simulator::Schedule(Seconds(12), &IgmpL4Protocol::SetMuted, lan.igmp[2], true);
        // The winning querier dies at 50 s.
        Simulator::Schedule(Seconds(50), &IgmpL4Protocol::SetMuted, lan.igmp[0], true);
        Simulator::Stop(Seconds(200));
        Simulator::Run();
        auto q0 = lan.Sent(0, IgmpHeader::MEMBERSHIP_QUERY);
        auto q1 = lan.Sent(1, IgmpHeader::MEMBERSHIP_QUERY);
        // Startup: [Startup Query Count] = Robustness = 2 queries QI/4 = 5 s apart, then QI.
        NS_TEST_ASSERT_MSG_EQ(q0[0].t, Seconds(2), "first startup query");
        NS_TEST_ASSERT_MSG_EQ(q0[1].t, Seconds(7), "second after Startup Query Interval");
        NS_TEST_ASSERT_MSG_EQ(q0[2].t, Seconds(27), "then every Query Interval");
        NS_TEST_ASSERT_MSG_EQ(q0[0].peer, Ipv4Address("224.0.0.1"), "general query to 224.0.0.1");
        // The next transmission: node 0's startup queries at 2 and 7 s, then 27 s; node 1's
        // second startup query (0 s + QI / 4), then its Other Querier Present timeout 42 s
        // (2 x 20 + 4 / 2) after each query of node 0 it heard (2 s, 7 s).
        NS_TEST_ASSERT_MSG_EQ(next0.size(), 3u, "three probes");
        NS_TEST_EXPECT_MSG_EQ(next0[0], Seconds(2), "node 0: the first startup query");
        NS_TEST_EXPECT_MSG_EQ(next0[1], Seconds(7), "node 0: the second, QI / 4 later");
        NS_TEST_EXPECT_MSG_EQ(next0[2], Seconds(27), "node 0: then the Query Interval");
        NS_TEST_EXPECT_MSG_EQ(next1[0], Seconds(5), "node 1: its second startup query");
        NS_TEST_EXPECT_MSG_EQ_TOL(next1[1], Seconds(44), MicroSeconds(100), "node 1: 2 s + OQPI");
        NS_TEST_EXPECT_MSG_EQ_TOL(next1[2], Seconds(49), MicroSeconds(100), "node 1: 7 s + OQPI");
        // Node 1 queried at 0 s, heard the lower 10.0.0.1 at 2 s and stopped.
        NS_TEST_ASSERT_MSG_EQ(q1[0].t, Seconds(0), "node 1 starts as querier");
        // Other Querier Present = 2 x 20 + 4 / 2 = 42 s after the last query heard (47 s).
        const Time oqpi = lan.igmp[1]->GetOtherQuerierPresentInterval();
        NS_TEST_ASSERT_MSG_EQ(oqpi, Seconds(42), "RFC formula");
        NS_TEST_ASSERT_MSG_EQ((q1.size() >= 2), true, "node 1 takes over");
        NS_TEST_ASSERT_MSG_EQ_TOL(q1[1].t,
                                  Seconds(47) + oqpi,
                                  MicroSeconds(100),
                                  "takes over OQPI after the last query heard");
        // Group membership interval = 2 x 20 + 4 = 44 s after the host's last report.
        Time lastReport;
        for (const auto& s : lan.Sent(2, IgmpHeader::V2_MEMBERSHIP_REPORT))
        {
            lastReport = s.t;
        }
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[0]->GetGroupMembershipInterval(), Seconds(44), "GMI");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(lastReport, Seconds(12), "silent after 12 s");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[1]->HasListeners(1, G1), false, "timed out on node 1");
        Simulator::Destroy();

        // Exactly at GMI: present just before, gone just after.
        Lan lan2(2, h);
        IgmpHelper::EnableQuerier(lan2.nodes.Get(0), 1, Seconds(100));
        lan2.Join(Seconds(1), 1, G1);
        Simulator::Schedule(Seconds(1) + NanoSeconds(1),
                            &IgmpL4Protocol::SetMuted,
                            lan2.igmp[1],
                            true);
        bool before = false;
        bool after = true;
        Simulator::Schedule(Seconds(45) - NanoSeconds(1),
                            [&]() { before = lan2.igmp[0]->HasListeners(1, G1); });
        // (the report needs a few microseconds on the 100 Mb/s LAN)
        Simulator::Schedule(Seconds(45) + MicroSeconds(100),
                            [&]() { after = lan2.igmp[0]->HasListeners(1, G1); });
        Simulator::Stop(Seconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(before, true, "member until report + GMI");
        NS_TEST_ASSERT_MSG_EQ(after, false, "removed at report + GMI");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * RFC 3376: state-change records, current-state responses without suppression, router
 * filter-mode transitions, and v2 compatibility mode.
 */
class IgmpV3TestCase : public TestCase
{
  public:
    IgmpV3TestCase()
        : TestCase("IGMPv3: state-change records, query responses, router states, v2 compat")
    {
    }

  private:
    void DoRun() override
    {
        IgmpHelper h;
        h.SetAttribute("QueryInterval", TimeValue(Seconds(20)));
        h.SetAttribute("QueryResponseInterval", TimeValue(Seconds(4)));
        Lan lan(3, h);
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1, Seconds(10));
        lan.Join(Seconds(1), 1, G1);
        lan.Join(Seconds(1), 2, G1);
        // Node 2 restricts G1 to one source at 3 s: EXCLUDE -> INCLUDE is a filter-mode change.
        Simulator::Schedule(Seconds(3), [&]() {
            IgmpL4Protocol::SetSourceFilter(lan.sockets[2],
                                            G1,
                                            IgmpL4Protocol::INCLUDE,
                                            {Ipv4Address("10.0.0.50")});
        });
        lan.Leave(Seconds(60), 1, G1);
        Simulator::Stop(Seconds(70));
        Simulator::Run();
        auto reps1 = lan.Sent(1, IgmpHeader::V3_MEMBERSHIP_REPORT);
        // Join: TO_EX({}) at once and Robustness - 1 = 1 retransmission within URI (1 s).
        NS_TEST_ASSERT_MSG_EQ(reps1[0].t, Seconds(1), "state-change report at the join");
        NS_TEST_ASSERT_MSG_EQ(reps1[0].peer, Ipv4Address("224.0.0.22"), "to 224.0.0.22");
        NS_TEST_ASSERT_MSG_EQ(+reps1[0].msg.GetRecords()[0].type,
                              +IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE,
                              "TO_EX");
        NS_TEST_ASSERT_MSG_EQ(+reps1[1].msg.GetRecords()[0].type,
                              +IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE,
                              "retransmitted TO_EX");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(reps1[1].t, Seconds(2), "within URI");
        // The general query at 10 s (Max Resp 4 s) is answered by BOTH hosts (no suppression).
        int answered1 = 0;
        int answered2 = 0;
        for (const auto& s : lan.Sent(-1, IgmpHeader::V3_MEMBERSHIP_REPORT))
        {
            if (s.t > Seconds(10) && s.t <= Seconds(14))
            {
                (s.node == 1 ? answered1 : answered2)++;
                const auto& r = s.msg.GetRecords()[0];
                if (s.node == 1)
                {
                    NS_TEST_ASSERT_MSG_EQ(+r.type, +IgmpGroupRecord::MODE_IS_EXCLUDE, "IS_EX");
                }
                else
                {
                    NS_TEST_ASSERT_MSG_EQ(+r.type, +IgmpGroupRecord::MODE_IS_INCLUDE, "IS_IN");
                    NS_TEST_ASSERT_MSG_EQ(r.sources.size(), 1u, "IS_IN({S})");
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(answered1, 1, "host 1 answers");
        NS_TEST_ASSERT_MSG_EQ(answered2, 1, "host 2 answers too");
        // Node 2's change: TO_IN({S}).
        bool toIn = false;
        for (const auto& s : lan.Sent(2, IgmpHeader::V3_MEMBERSHIP_REPORT))
        {
            toIn = toIn
                   || (s.t == Seconds(3)
                       && s.msg.GetRecords()[0].type == IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE);
        }
        NS_TEST_ASSERT_MSG_EQ(toIn, true, "TO_IN on the filter-mode change");
        // Host filter check (RFC 3376 3.2).
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[2]->IsMember(1, G1, Ipv4Address("10.0.0.50")), true, "S in");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[2]->IsMember(1, G1, Ipv4Address("10.0.0.51")),
                              false,
                              "other sources out");
        // Leave of the EXCLUDE member at 60 s: TO_IN({}) -> router sends Q(G) (group-specific
        // v3 queries) and the group falls back to INCLUDE({S}) kept by host 2.
        auto leave = lan.Sent(1, IgmpHeader::V3_MEMBERSHIP_REPORT);
        bool sawToInEmpty = false;
        for (const auto& s : leave)
        {
            sawToInEmpty
                = sawToInEmpty
                  || (s.t == Seconds(60)
                      && s.msg.GetRecords()[0].type == IgmpGroupRecord::CHANGE_TO_INCLUDE_MODE
                      && s.msg.GetRecords()[0].sources.empty());
        }
        NS_TEST_ASSERT_MSG_EQ(sawToInEmpty, true, "leave = TO_IN({})");
        int gsq = 0;
        for (const auto& s : lan.Sent(0, IgmpHeader::MEMBERSHIP_QUERY))
        {
            gsq += s.t >= Seconds(60) && s.msg.GetGroup() == G1 && s.msg.IsV3Query()
                           && s.msg.GetSources().empty()
                       ? 1
                       : 0;
        }
        // RFC 3376 6.6.3.1: each TO_IN({}) (and its retransmission) sends Q(G) + LMQC-1 repeats.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(gsq, 2, "at least LMQC = 2 group-specific queries");
        NS_TEST_ASSERT_MSG_EQ(+lan.igmp[0]->GetRouterFilterMode(1, G1),
                              +IgmpL4Protocol::INCLUDE,
                              "EXCLUDE -> INCLUDE after the group timer");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[0]->HasListeners(1, G1, Ipv4Address("10.0.0.50")),
                              true,
                              "S still wanted");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[0]->HasListeners(1, G1, Ipv4Address("10.0.0.51")),
                              false,
                              "other sources not forwarded");
        Simulator::Destroy();

        // Host compatibility: a v2 query switches a v3 host to v2 reports for OVQPT.
        IgmpHelper h2;
        h2.SetAttribute("Version", UintegerValue(2));
        Lan lan2(2, h2);
        lan2.igmp[1]->SetAttribute("Version", UintegerValue(3));
        IgmpHelper::EnableQuerier(lan2.nodes.Get(0), 1, Seconds(5));
        lan2.Join(Seconds(1), 1, G1);
        uint8_t modeAt6 = 0;
        uint8_t modeLate = 0;
        Simulator::Schedule(Seconds(6),
                            [&]() { modeAt6 = lan2.igmp[1]->GetHostCompatibilityMode(1); });
        Simulator::Stop(Seconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(+modeAt6, 2, "v2 Querier Present: compatibility mode 2");
        bool v2answer = false;
        for (const auto& s : lan2.Sent(1, IgmpHeader::V2_MEMBERSHIP_REPORT))
        {
            v2answer = v2answer || s.t > Seconds(5);
        }
        NS_TEST_ASSERT_MSG_EQ(v2answer, true, "answers the v2 query with a v2 report");
        lan2.igmp[0]->DisableRouter(1);
        Simulator::Stop(Seconds(300));
        Simulator::Run();
        modeLate = lan2.igmp[1]->GetHostCompatibilityMode(1);
        NS_TEST_ASSERT_MSG_EQ(+modeLate, 3, "back to v3 after Older Version Querier Present");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Malformed IGMP is counted, traced and dropped.
 */
class IgmpMalformedTestCase : public TestCase
{
  public:
    IgmpMalformedTestCase()
        : TestCase("Malformed IGMP: counted, traced, dropped")
    {
    }

  private:
    uint32_t m_traced{0};

    void Malformed(Ptr<const Packet> p, uint32_t ifIndex, uint8_t reason)
    {
        ++m_traced;
    }

    void DoRun() override
    {
        Lan lan(2);
        lan.igmp[1]->TraceConnectWithoutContext(
            "Malformed",
            MakeCallback(&IgmpMalformedTestCase::Malformed, this));
        Ptr<Ipv4L3Protocol> ip0 = lan.nodes.Get(0)->GetObject<Ipv4L3Protocol>();
        auto send = [&](std::vector<uint8_t> bytes) {
            Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
            Ipv4Header hdr;
            hdr.SetSource(Ipv4Address("10.0.0.1"));
            hdr.SetDestination(Ipv4Address("224.0.0.1"));
            hdr.SetProtocol(2);
            hdr.SetTtl(1);
            hdr.SetPayloadSize(p->GetSize());
            p->AddHeader(hdr);
            lan.devs.Get(0)->Send(p, Mac48Address::GetMulticast(Ipv4Address("224.0.0.1")), 0x0800);
        };
        Simulator::Schedule(Seconds(1), [&]() { send({0x11, 100, 0x00, 0x00, 0, 0, 0, 0}); });
        Simulator::Schedule(Seconds(2), [&]() { send({0x11, 100, 0xee}); });
        Simulator::Schedule(Seconds(3), [&]() { send({0x42, 0, 0xbd, 0xff, 0, 0, 0, 0}); });
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[1]->GetStats().rxMalformed, 3u, "three dropped");
        NS_TEST_ASSERT_MSG_EQ(m_traced, 3u, "three traced");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[1]->GetStats().rxQueries, 0u, "none processed");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * IgmpTimers: the derived intervals by the formulas of RFC 3376 section 8 (hand-computed), and
 * scaling for quick runs.
 */
class IgmpTimersTestCase : public TestCase
{
  public:
    IgmpTimersTestCase()
        : TestCase("IgmpTimers: RFC 3376 section 8 defaults, derived intervals, scaling")
    {
    }

  private:
    void DoRun() override
    {
        IgmpTimers d;
        // Defaults: R = 2, QI = 125 s, QRI = 10 s, LMQI = 1 s.
        NS_TEST_EXPECT_MSG_EQ(d.GroupMembershipInterval(), Seconds(260), "GMI = 2*125 + 10");
        NS_TEST_EXPECT_MSG_EQ(d.OtherQuerierPresentInterval(), Seconds(255), "OQPI = 250 + 5");
        NS_TEST_EXPECT_MSG_EQ(d.StartupQueryInterval(), Seconds(31.25), "QI / 4");
        NS_TEST_EXPECT_MSG_EQ(d.StartupQueryCount(), 2u, "= R");
        NS_TEST_EXPECT_MSG_EQ(d.LastMemberQueryCount(), 2u, "= R");
        NS_TEST_EXPECT_MSG_EQ(d.LastMemberQueryTime(), Seconds(2), "LMQC * LMQI");
        NS_TEST_EXPECT_MSG_EQ(d.OlderHostPresentInterval(), Seconds(260), "R * QI + QRI");
        IgmpTimers c;
        c.robustness = 3;
        c.queryInterval = Seconds(60);
        c.queryResponseInterval = Seconds(5);
        c.lastMemberQueryCount = 4;
        NS_TEST_EXPECT_MSG_EQ(c.GroupMembershipInterval(), Seconds(185), "3*60 + 5");
        NS_TEST_EXPECT_MSG_EQ(c.OtherQuerierPresentInterval(), Seconds(182.5), "3*60 + 2.5");
        NS_TEST_EXPECT_MSG_EQ(c.LastMemberQueryTime(), Seconds(4), "4 * 1 s");
        IgmpTimers s = d.Scaled(0.5);
        NS_TEST_EXPECT_MSG_EQ(s.queryInterval, Seconds(62.5), "scaled QI");
        NS_TEST_EXPECT_MSG_EQ(s.GroupMembershipInterval(), Seconds(130), "scaled GMI");
        NS_TEST_EXPECT_MSG_EQ(s.lastMemberQueryInterval, MilliSeconds(500), "scaled LMQI");
        // Max Resp Code is in tenths of a second: LMQI not below 100 ms.
        NS_TEST_EXPECT_MSG_EQ(d.Scaled(0.01).lastMemberQueryInterval,
                              MilliSeconds(100),
                              "LMQI floor");
        // The querier's attributes and the switch take the same value.
        Ptr<IgmpL4Protocol> igmp = CreateObject<IgmpL4Protocol>();
        igmp->SetTimers(c);
        NS_TEST_EXPECT_MSG_EQ(igmp->GetGroupMembershipInterval(), Seconds(185), "via attributes");
        NS_TEST_EXPECT_MSG_EQ(igmp->GetTimers().lastMemberQueryCount, 4u, "round trip");
        Ptr<SnoopingBridgeNetDevice> sw = CreateObject<SnoopingBridgeNetDevice>();
        sw->SetTimers(c);
        TimeValue mi;
        sw->GetAttribute("MembershipInterval", mi);
        NS_TEST_EXPECT_MSG_EQ(mi.Get(), Seconds(185), "switch membership = GMI");
        TimeValue rp;
        sw->GetAttribute("RouterPortTimeout", rp);
        NS_TEST_EXPECT_MSG_EQ(rp.Get(), Seconds(182.5), "router port = OQPI");
    }
};

/**
 * @ingroup testbed-tests
 * Headers from the wire are checked for length before they are read: a Router Alert IPv4
 * header needs 20 octets, version 4 and a header length the bytes hold; an IGMPv3 report that
 * claims more records than its bytes can hold reserves room only for what they can hold.
 */
class IgmpHeaderLengthTestCase : public TestCase
{
  public:
    IgmpHeaderLengthTestCase()
        : TestCase("IGMP and Router Alert headers: length checked before reading")
    {
    }

  private:
    void DoRun() override
    {
        Ipv4RouterAlertHeader ra;
        Ptr<Packet> empty = Create<Packet>();
        NS_TEST_EXPECT_MSG_EQ(empty->RemoveHeader(ra), 0u, "nothing read from 0 octets");
        NS_TEST_EXPECT_MSG_EQ(ra.IsValid(), false, "0 octets are no header");
        uint8_t shortIhl[20] = {0x46, 0, 0, 24}; // IHL 6 (24 octets) in 20 octets
        Ptr<Packet> p = Create<Packet>(shortIhl, sizeof(shortIhl));
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(ra), 0u, "header longer than the bytes");
        NS_TEST_EXPECT_MSG_EQ(ra.IsValid(), false, "refused");
        Ipv4RouterAlertHeader good;
        good.source = Ipv4Address("10.0.0.1");
        good.destination = Ipv4Address("224.0.0.22");
        good.payloadSize = 8;
        Ptr<Packet> q = Create<Packet>(8);
        q->AddHeader(good);
        NS_TEST_EXPECT_MSG_EQ(q->RemoveHeader(ra), 24u, "a well-formed header");
        NS_TEST_EXPECT_MSG_EQ(ra.IsValid(), true, "valid");
        NS_TEST_EXPECT_MSG_EQ(ra.destination, Ipv4Address("224.0.0.22"), "fields read");

        // An 8-octet IGMPv3 report claiming 65535 records (checksum correct: ~(0x2200 + 0xffff)
        // folded = ~0x2200 = 0xddff).
        uint8_t v3[8] = {0x22, 0, 0xdd, 0xff, 0, 0, 0xff, 0xff};
        IgmpHeader h;
        NS_TEST_EXPECT_MSG_EQ(h.Parse(v3, sizeof(v3)), IgmpHeader::PARSE_TOO_SHORT, "truncated");
        NS_TEST_EXPECT_MSG_EQ(h.GetRecords().capacity(), 0u, "no room reserved for 65535");
    }
};

/**
 * @ingroup testbed-tests
 * The transmit hook lets a host-platform model delay or drop IGMP transmissions.
 */
class IgmpTransmitHookTestCase : public TestCase
{
  public:
    IgmpTransmitHookTestCase()
        : TestCase("Transmit hook: a busy querier sends late, an overloaded one not at all")
    {
    }

  private:
    void DoRun() override
    {
        Lan lan(2);
        // Every transmission of the querier runs 50 ms late (CPU busy), from 100 s on never.
        lan.igmp[0]->SetTransmitHook([](std::function<void()> send) {
            if (Simulator::Now() < Seconds(100))
            {
                Simulator::Schedule(MilliSeconds(50), send);
            }
        });
        IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1, Seconds(1));
        Simulator::Stop(Seconds(400));
        Simulator::Run();
        auto q = lan.Sent(0, IgmpHeader::MEMBERSHIP_QUERY);
        NS_TEST_ASSERT_MSG_EQ(q.size(), 2u, "startup queries at 1 s and 32.25 s only");
        NS_TEST_ASSERT_MSG_EQ(q[0].t, Seconds(1) + MilliSeconds(50), "50 ms late");
        NS_TEST_ASSERT_MSG_EQ(q[1].t, Seconds(32.25) + MilliSeconds(50), "QI / 4 later");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[0]->GetStats().txQueries, 2u, "the rest never sent");
        NS_TEST_ASSERT_MSG_EQ(lan.igmp[0]->IsQuerier(1), true, "still believes it is querier");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * RFC 3376 6.4.1 and 6.4.2: every (router state, report record) row, checked by the
 * forwarding decision per source right after the report and after LMQT (when the
 * group(-and-source)-specific queries the row sends have gone unanswered).
 */
class IgmpV3RouterTableTestCase : public TestCase
{
  public:
    IgmpV3RouterTableTestCase()
        : TestCase("IGMPv3 router table: the 12 rows of RFC 3376 6.4.1 and 6.4.2")
    {
    }

  private:
    /// One row: initial records, the record under test, then expectations.
    struct Row
    {
        const char* name;
        std::vector<IgmpGroupRecord> setup;
        IgmpGroupRecord record;
        IgmpL4Protocol::FilterMode modeAfter;
        std::string listenersNow;   //!< sources (of a b c d) forwarded right after
        std::string listenersLater; //!< ... and after LMQT
        IgmpL4Protocol::FilterMode modeLater;
    };

    static void Inject(Ptr<NetDevice> dev, std::vector<IgmpGroupRecord> recs)
    {
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(IgmpHeader::MakeV3Report(recs));
        Ipv4RouterAlertHeader ip;
        ip.source = Ipv4Address("10.0.0.2");
        ip.destination = Ipv4Address("224.0.0.22");
        ip.payloadSize = static_cast<uint16_t>(p->GetSize());
        p->AddHeader(ip);
        dev->Send(p, Mac48Address::GetMulticast(ip.destination), 0x0800);
    }

    void DoRun() override
    {
        const Ipv4Address a("10.9.0.1");
        const Ipv4Address b("10.9.0.2");
        const Ipv4Address c("10.9.0.3");
        const Ipv4Address d("10.9.0.4");
        using R = IgmpGroupRecord;
        auto rec = [](uint8_t t, std::vector<Ipv4Address> s) {
            return R{t, G1, s, 0};
        };
        const auto IN = IgmpL4Protocol::INCLUDE;
        const auto EX = IgmpL4Protocol::EXCLUDE;
        // INCLUDE(A = {a, b}) and EXCLUDE(X = {a}, Y = {b}) as starting states.
        const std::vector<R> incAB{rec(R::ALLOW_NEW_SOURCES, {a, b})};
        const std::vector<R> exXaYb{rec(R::MODE_IS_EXCLUDE, {b}), rec(R::ALLOW_NEW_SOURCES, {a})};
        const std::vector<Row> rows{
            {"INCLUDE(A) IS_IN(B) -> INCLUDE(A+B)",
             incAB,
             rec(R::MODE_IS_INCLUDE, {c}),
             IN,
             "abc",
             "abc",
             IN},
            {"INCLUDE(A) IS_EX(B) -> EXCLUDE(A*B, B-A)",
             incAB,
             rec(R::MODE_IS_EXCLUDE, {b, c}),
             EX,
             "abd",
             "abd",
             EX},
            {"INCLUDE(A) ALLOW(B) -> INCLUDE(A+B)",
             incAB,
             rec(R::ALLOW_NEW_SOURCES, {c}),
             IN,
             "abc",
             "abc",
             IN},
            {"INCLUDE(A) BLOCK(B) -> INCLUDE(A), Q(G,A*B)",
             incAB,
             rec(R::BLOCK_OLD_SOURCES, {a}),
             IN,
             "ab",
             "b",
             IN},
            {"INCLUDE(A) TO_EX(B) -> EXCLUDE(A*B, B-A), Q(G,A*B)",
             incAB,
             rec(R::CHANGE_TO_EXCLUDE_MODE, {b, c}),
             EX,
             "abd",
             "ad",
             EX},
            {"INCLUDE(A) TO_IN(B) -> INCLUDE(A+B), Q(G,A-B)",
             incAB,
             rec(R::CHANGE_TO_INCLUDE_MODE, {c}),
             IN,
             "abc",
             "c",
             IN},
            {"EXCLUDE(X,Y) IS_IN(A) -> EXCLUDE(X+A, Y-A)",
             exXaYb,
             rec(R::MODE_IS_INCLUDE, {b}),
             EX,
             "abcd",
             "abcd",
             EX},
            {"EXCLUDE(X,Y) IS_EX(A) -> EXCLUDE(A-Y, Y*A)",
             exXaYb,
             rec(R::MODE_IS_EXCLUDE, {b, c}),
             EX,
             "acd",
             "acd",
             EX},
            {"EXCLUDE(X,Y) ALLOW(A) -> EXCLUDE(X+A, Y-A)",
             exXaYb,
             rec(R::ALLOW_NEW_SOURCES, {b}),
             EX,
             "abcd",
             "abcd",
             EX},
            {"EXCLUDE(X,Y) BLOCK(A) -> EXCLUDE(X+(A-Y), Y), Q(G,A-Y)",
             exXaYb,
             rec(R::BLOCK_OLD_SOURCES, {a, c}),
             EX,
             "acd",
             "d",
             EX},
            {"EXCLUDE(X,Y) TO_EX(A) -> EXCLUDE(A-Y, Y*A), Q(G,A-Y)",
             exXaYb,
             rec(R::CHANGE_TO_EXCLUDE_MODE, {b, c}),
             EX,
             "acd",
             "ad",
             EX},
            {"EXCLUDE(X,Y) TO_IN(A) -> EXCLUDE(X+A, Y-A), Q(G,X-A), Q(G)",
             exXaYb,
             rec(R::CHANGE_TO_INCLUDE_MODE, {b}),
             EX,
             "abcd",
             "b",
             IN},
        };
        const std::vector<std::pair<char, Ipv4Address>> all{{'a', a}, {'b', b}, {'c', c}, {'d', d}};
        for (const auto& row : rows)
        {
            Lan lan(2);
            Ptr<IgmpL4Protocol> router = lan.igmp[0];
            IgmpHelper::EnableQuerier(lan.nodes.Get(0), 1); // 10.0.0.1: the querier
            Ptr<NetDevice> dev = lan.devs.Get(1);
            Simulator::Schedule(Seconds(1), &IgmpV3RouterTableTestCase::Inject, dev, row.setup);
            Simulator::Schedule(Seconds(2),
                                &IgmpV3RouterTableTestCase::Inject,
                                dev,
                                std::vector<R>{row.record});
            std::string now;
            std::string later;
            IgmpL4Protocol::FilterMode modeNow = IN;
            IgmpL4Protocol::FilterMode modeLater = IN;
            auto snap = [&](std::string* out, IgmpL4Protocol::FilterMode* mode) {
                for (const auto& [ch, src] : all)
                {
                    if (router->HasListeners(1, G1, src))
                    {
                        *out += ch;
                    }
                }
                *mode = router->GetRouterFilterMode(1, G1);
            };
            Simulator::Schedule(Seconds(2.5), [&]() { snap(&now, &modeNow); });
            // LMQT = 2 x 1 s after the queries at 2 s.
            Simulator::Schedule(Seconds(4.5), [&]() { snap(&later, &modeLater); });
            Simulator::Stop(Seconds(5));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(+modeNow, +row.modeAfter, row.name << ": filter mode");
            NS_TEST_ASSERT_MSG_EQ(now, row.listenersNow, row.name << ": forwarded sources");
            NS_TEST_ASSERT_MSG_EQ(later, row.listenersLater, row.name << ": after LMQT");
            NS_TEST_ASSERT_MSG_EQ(+modeLater, +row.modeLater, row.name << ": mode after LMQT");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * The IGMP suite.
 */
class IgmpTestSuite : public TestSuite
{
  public:
    IgmpTestSuite()
        : TestSuite("testbed-igmp", Type::UNIT)
    {
        AddTestCase(new IgmpWireFormatTestCase, Duration::QUICK);
        AddTestCase(new IgmpV2JoinTestCase, Duration::QUICK);
        AddTestCase(new IgmpV2QueryTimerTestCase, Duration::QUICK);
        AddTestCase(new IgmpV2SuppressionTestCase, Duration::QUICK);
        AddTestCase(new IgmpV2LeaveTestCase, Duration::QUICK);
        AddTestCase(new IgmpQuerierTestCase, Duration::QUICK);
        AddTestCase(new IgmpV3TestCase, Duration::QUICK);
        AddTestCase(new IgmpV3RouterTableTestCase, Duration::QUICK);
        AddTestCase(new IgmpMalformedTestCase, Duration::QUICK);
        AddTestCase(new IgmpTransmitHookTestCase, Duration::QUICK);
        AddTestCase(new IgmpTimersTestCase, Duration::QUICK);
        AddTestCase(new IgmpHeaderLengthTestCase, Duration::QUICK);
    }
};

static IgmpTestSuite g_igmpTestSuite; //!< static instance
