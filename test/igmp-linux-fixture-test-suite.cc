/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Real Linux IGMP packets (test/data/linux-igmp.pcap, made by tools/linux-igmp-fixture.py: a
 * Linux 6.x host and a Linux bridge with mcast_snooping and mcast_querier) parse with the
 * model's IgmpHeader and ns-3's Ipv4Header, and drive the snooping bridge as expected.
 */

#include "ns3/igmp-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/multicast-helper.h"
#include "ns3/node.h"
#include "ns3/pcap-file.h"
#include "ns3/simulator.h"
#include "ns3/system-path.h"
#include "ns3/test.h"

#include <cstdlib>
#include <map>
#include <set>

using namespace ns3;

namespace
{

/// One captured Ethernet frame.
struct Frame
{
    double t;
    std::vector<uint8_t> bytes;
};

std::string
FixturePath()
{
    if (const char* root = std::getenv("TESTBED_ROOT"))
    {
        return std::string(root) + "/test/data/linux-igmp.pcap";
    }
    const std::string self(__FILE__); // absolute: CMake compiles with absolute source paths
    return self.substr(0, self.rfind('/')) + "/data/linux-igmp.pcap";
}

std::vector<Frame>
ReadPcap(const std::string& path)
{
    std::vector<Frame> frames;
    PcapFile f;
    f.Open(path, std::ios::in);
    if (f.Fail())
    {
        return frames;
    }
    NS_ABORT_MSG_IF(f.GetDataLinkType() != 1u, "not an Ethernet capture");
    uint8_t buf[2048];
    double t0 = -1;
    while (true)
    {
        uint32_t sec;
        uint32_t usec;
        uint32_t incl;
        uint32_t orig;
        uint32_t read;
        f.Read(buf, sizeof(buf), sec, usec, incl, orig, read);
        if (f.Eof() || f.Fail())
        {
            break;
        }
        const double t = sec + usec * 1e-6;
        if (t0 < 0)
        {
            t0 = t;
        }
        frames.push_back({t - t0, std::vector<uint8_t>(buf, buf + read)});
    }
    return frames;
}

} // namespace

/**
 * @ingroup testbed-tests
 * Every IGMP message of the Linux capture parses; all kinds the capture holds are recognised.
 */
class LinuxIgmpParseTestCase : public TestCase
{
  public:
    LinuxIgmpParseTestCase()
        : TestCase("Linux-captured IGMPv2 and IGMPv3 queries, reports, leaves parse")
    {
    }

  private:
    void DoRun() override
    {
        auto frames = ReadPcap(FixturePath());
        NS_TEST_ASSERT_MSG_GT(frames.size(), 10u, "fixture " << FixturePath() << " readable");
        std::set<std::string> kinds;
        std::set<int> records;
        for (const auto& fr : frames)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(fr.bytes.size(), 14u + 24u + 8u, "frame size");
            NS_TEST_ASSERT_MSG_EQ((fr.bytes[12] << 8 | fr.bytes[13]), 0x0800, "IPv4");
            Ptr<Packet> p = Create<Packet>(fr.bytes.data() + 14, fr.bytes.size() - 14);
            Ipv4Header ip;
            p->RemoveHeader(ip);
            NS_TEST_ASSERT_MSG_EQ(+ip.GetProtocol(), 2, "IGMP");
            NS_TEST_ASSERT_MSG_EQ(+ip.GetTtl(), 1, "TTL 1");
            NS_TEST_ASSERT_MSG_EQ(ip.GetSerializedSize(), 24u, "Router Alert option (IHL 6)");
            if (p->GetSize() > ip.GetPayloadSize())
            {
                p->RemoveAtEnd(p->GetSize() - ip.GetPayloadSize());
            }
            IgmpHeader h;
            p->RemoveHeader(h);
            NS_TEST_ASSERT_MSG_EQ(
                +h.GetParseResult(),
                +IgmpHeader::PARSE_OK,
                "frame at " << fr.t << " s: " << IgmpHeader::ParseResultName(h.GetParseResult()));
            switch (h.GetType())
            {
                case IgmpHeader::MEMBERSHIP_QUERY:
                    kinds.insert("v" + std::to_string(h.GetQueryVersion())
                                 + (h.GetGroup() == Ipv4Address::GetAny() ? "-general" : "-group"));
                    break;
                case IgmpHeader::V2_MEMBERSHIP_REPORT:
                    kinds.insert("v2-report");
                    NS_TEST_ASSERT_MSG_EQ(ip.GetDestination(), h.GetGroup(), "v2 report to group");
                    break;
                case IgmpHeader::V2_LEAVE_GROUP:
                    kinds.insert("v2-leave");
                    NS_TEST_ASSERT_MSG_EQ(ip.GetDestination(),
                                          Ipv4Address("224.0.0.2"),
                                          "leave dst");
                    break;
                case IgmpHeader::V3_MEMBERSHIP_REPORT:
                    kinds.insert("v3-report");
                    NS_TEST_ASSERT_MSG_EQ(ip.GetDestination(), Ipv4Address("224.0.0.22"), "v3 dst");
                    for (const auto& r : h.GetRecords())
                    {
                        records.insert(r.type);
                    }
                    break;
                default:
                    NS_TEST_ASSERT_MSG_EQ(true, false, "unexpected type " << +h.GetType());
            }
        }
        for (const char* k : {"v3-general",
                              "v3-group",
                              "v2-general",
                              "v2-group",
                              "v2-report",
                              "v2-leave",
                              "v3-report"})
        {
            NS_TEST_ASSERT_MSG_EQ(kinds.count(k), 1u, "Linux capture holds a " << k);
        }
        // Linux sends TO_EX on join, ALLOW for a source join, IS_IN/IS_EX in answers, BLOCK and
        // TO_IN({}) on leave.
        for (int t : {1, 2, 3, 4, 5, 6})
        {
            NS_TEST_ASSERT_MSG_EQ(records.count(t), 1u, "record type " << t);
        }
    }
};

/**
 * @ingroup testbed-tests
 * Replaying the Linux capture into a SnoopingBridgeNetDevice (querier frames on port 0, host
 * frames on port 1) gives the memberships the Linux bridge had.
 */
class LinuxIgmpReplayTestCase : public TestCase
{
  public:
    LinuxIgmpReplayTestCase()
        : TestCase("Linux-captured IGMP replayed into the snooping bridge")
    {
    }

  private:
    void DoRun() override
    {
        auto frames = ReadPcap(FixturePath());
        NS_TEST_ASSERT_MSG_GT(frames.size(), 10u, "fixture readable");
        Ptr<Node> sw = CreateObject<Node>();
        Ptr<Node> q = CreateObject<Node>();
        Ptr<Node> h = CreateObject<Node>();
        SnoopingSwitchHelper sh;
        Ptr<SnoopingBridgeNetDevice> br = sh.Install(sw);
        Ptr<NetDevice> qd = sh.Connect(br, q, DataRate("1Gbps")).Get(0);
        Ptr<NetDevice> hd = sh.Connect(br, h, DataRate("1Gbps")).Get(0);
        for (const auto& fr : frames)
        {
            uint8_t srcIp0 = fr.bytes[14 + 15]; // last octet of the IPv4 source
            Ptr<NetDevice> from = srcIp0 == 254 ? qd : hd;
            Mac48Address dst;
            Mac48Address src;
            dst.CopyFrom(fr.bytes.data());
            src.CopyFrom(fr.bytes.data() + 6);
            Ptr<Packet> p = Create<Packet>(fr.bytes.data() + 14, fr.bytes.size() - 14);
            Simulator::Schedule(Seconds(fr.t),
                                [from, p, src, dst]() { from->SendFrom(p, src, dst, 0x0800); });
        }
        const Ipv4Address g1("239.7.7.1");
        const Ipv4Address g2("239.7.7.2");
        const Ipv4Address g3("239.7.7.3");
        std::map<std::string, std::vector<uint32_t>> at;
        auto snap = [&](std::string k, Ipv4Address g) {
            at[k] = br->GetMemberPorts(g);
        };
        // Times relative to the first captured frame (see the fixture's tshark listing).
        Simulator::Schedule(Seconds(3.5), [&]() {
            snap("g1@3.5", g1);
            snap("g2@3.5", g2);
        });
        Simulator::Schedule(Seconds(12), [&]() { snap("g3@12", g3); });
        Simulator::Schedule(Seconds(16), [&]() {
            snap("g1@16", g1);
            snap("g3@16", g3);
        });
        bool router0 = false;
        Simulator::Schedule(Seconds(12), [&]() { router0 = br->IsRouterPort(0); });
        Simulator::Stop(Seconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(router0, true, "the Linux querier's port is a router port");
        NS_TEST_ASSERT_MSG_EQ(at["g1@3.5"].size(), 1u, "TO_EX joined port 1 to 239.7.7.1");
        NS_TEST_ASSERT_MSG_EQ(at["g2@3.5"].size(), 1u, "ALLOW({S}) joined port 1 to 239.7.7.2");
        NS_TEST_ASSERT_MSG_EQ(at["g3@12"].size(), 1u, "v2 report joined port 1 to 239.7.7.3");
        NS_TEST_ASSERT_MSG_EQ(at["g1@16"].size(), 0u, "TO_IN({}) removed port 1 after LMQC x LMQI");
        NS_TEST_ASSERT_MSG_EQ(at["g3@16"].size(), 0u, "v2 leave removed port 1 after LMQC x LMQI");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The Linux-fixture suite.
 */
class IgmpLinuxFixtureTestSuite : public TestSuite
{
  public:
    IgmpLinuxFixtureTestSuite()
        : TestSuite("testbed-igmp-linux-fixture", Type::UNIT)
    {
        AddTestCase(new LinuxIgmpParseTestCase, Duration::QUICK);
        AddTestCase(new LinuxIgmpReplayTestCase, Duration::QUICK);
    }
};

static IgmpLinuxFixtureTestSuite g_igmpLinuxFixtureTestSuite; //!< static instance
