/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/bsd-tcp-helper.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/testbed-module.h"

/**
 * @file
 * @ingroup testbed
 * Attribute precedence (UserAttributes): a value given on the command line wins over the
 * defaults a helper gives (one test per helper that gives defaults), and the command-line check
 * refuses what ns-3 would reject with exit status 1 or abort over. The refusals of values a
 * program fixes itself (exit status 2) are tested on the programs
 * (bindings/python/tests/test_precedence.py).
 */

using namespace ns3;

namespace
{

/**
 * A test case that gives attributes as the command line would, and forgets them (and the
 * defaults they changed) afterwards.
 */
class GivenTestCase : public TestCase
{
  public:
    /**
     * @param name the test's name
     */
    explicit GivenTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    void DoTeardown() override
    {
        UserAttributes::Clear();
        Simulator::Destroy();
    }
};

/** What the command-line check accepts and refuses, and why. */
class CheckTest : public TestCase
{
  public:
    CheckTest()
        : TestCase("the command-line check: types, attributes, values")
    {
    }

  private:
    void DoRun() override
    {
        std::string why;
        auto ok = [&why](const std::string& path, const std::string& value) {
            why.clear();
            return UserAttributes::Check(path, value, why);
        };
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::LinkEmulatorQueueDisc::Delay", "20ms"), true, why);
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::LinkEmulatorQueueDisc::Semantics", "Netem"), true, why);
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::DropTailQueue<Packet>::MaxSize", "7p"), true, why);
        NS_TEST_ASSERT_MSG_EQ(
            ok("ns3::ArpL3Protocol::RequestJitter", "ns3::ConstantRandomVariable[Constant=0]"),
            true,
            why);
        // Refused, each with its reason.
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::NoSuchType::Delay", "1"), false, "unknown type");
        NS_TEST_ASSERT_MSG_NE(why.find("no type"), std::string::npos, why);
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::LinkEmulatorQueueDisc::Nope", "1"), false, "unknown");
        NS_TEST_ASSERT_MSG_NE(why.find("has no attribute Nope"), std::string::npos, why);
        // Time(std::string) would end the program (NS_FATAL_ERROR) over this one.
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::LinkEmulatorQueueDisc::Delay", "soon"), false, "time");
        NS_TEST_ASSERT_MSG_NE(why.find("not a time"), std::string::npos, why);
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::LinkEmulatorQueueDisc::Semantics", "Fast"), false, "enum");
        NS_TEST_ASSERT_MSG_NE(why.find("not one of NistNet|Netem"), std::string::npos, why);
        // DoubleValue's and UintegerValue's parsers abort over text left after the number.
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::LinkEmulatorQueueDisc::LossProbability", "0.5x"),
                              false,
                              "not a number");
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::HostPing::Count", "12x"), false, "not an unsigned");
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::LinkEmulatorQueueDisc::LossProbability", "1.5"),
                              false,
                              "the checker's range [0, 1]");
        NS_TEST_ASSERT_MSG_EQ(
            ok("ns3::ArpL3Protocol::RequestJitter", "ns3::NoSuchVariable[Constant=0]"),
            false,
            "an object of an unknown type (ObjectFactory would abort)");
        NS_TEST_ASSERT_MSG_EQ(
            ok("ns3::ArpL3Protocol::RequestJitter", "ns3::ConstantRandomVariable[Nope=0]"),
            false,
            "an unknown attribute inside an object's text (ObjectFactory would abort)");
        // An attribute given under a type that inherits it: ns-3's Config::SetDefault would
        // not find it (exit status 1); the message names the type that declares it.
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::RtcTimer::Frequency", "1024"), true, why);
        NS_TEST_ASSERT_MSG_EQ(ok("ns3::BoostedTcTimer::Rate", "1Mbps"), false, "inherited");
        NS_TEST_ASSERT_MSG_NE(why.find("give --ns3::TcTimer::Rate"), std::string::npos, why);
    }
};

/** LinkEmulatorHelper: a default of the set-up yields to the user's value. */
class LinkEmulatorHelperTest : public GivenTestCase
{
  public:
    LinkEmulatorHelperTest()
        : GivenTestCase("LinkEmulatorHelper: --ns3::LinkEmulatorQueueDisc::Semantics wins over "
                        "SetDefaultAttribute")
    {
    }

  private:
    void DoRun() override
    {
        auto installed = [](bool give) {
            if (give)
            {
                UserAttributes::Give("ns3::LinkEmulatorQueueDisc::Semantics", "Netem");
            }
            NodeContainer n(2);
            InternetStackHelper().Install(n);
            NetDeviceContainer d = PointToPointHelper().Install(n);
            LinkEmulatorHelper h;
            h.SetDefaultAttribute("Semantics", EnumValue(LinkEmulatorQueueDisc::NIST_NET));
            h.SetAttribute("Delay", TimeValue(MilliSeconds(5))); // the program's own
            Ptr<LinkEmulatorQueueDisc> qd = h.Install(d.Get(0), LinkEmulatorHelper::A_TO_B);
            EnumValue<LinkEmulatorQueueDisc::Semantics> sem;
            qd->GetAttribute("Semantics", sem);
            TimeValue delay;
            qd->GetAttribute("Delay", delay);
            UserAttributes::Clear();
            return std::make_pair(sem.Get(), delay.Get());
        };
        NS_TEST_ASSERT_MSG_EQ(installed(false).first,
                              LinkEmulatorQueueDisc::NIST_NET,
                              "without a user value, the set-up's default");
        auto [sem, delay] = installed(true);
        NS_TEST_ASSERT_MSG_EQ(sem, LinkEmulatorQueueDisc::NETEM, "the user's value");
        NS_TEST_ASSERT_MSG_EQ(delay, MilliSeconds(5), "the program's own value is untouched");
    }
};

/** EmulatedTestbedHelper: NIST Net's clock frequency and its phase yield to the user's. */
class EmulatedTestbedHelperTest : public GivenTestCase
{
  public:
    EmulatedTestbedHelperTest()
        : GivenTestCase("EmulatedTestbedHelper: --ns3::TickTimer::Frequency and ::Phase win "
                        "over NIST Net's 8192 Hz and the drawn phase")
    {
    }

  private:
    void DoRun() override
    {
        UserAttributes::Give("ns3::TickTimer::Frequency", "1024");
        UserAttributes::Give("ns3::TickTimer::Phase", "100us");
        UserAttributes::Give("ns3::LinkEmulatorQueueDisc::Semantics", "Netem");
        EmulatedTestbedHelper helper = EmulatedTestbedHelper::Jaxa06();
        EmulatedTestbed tb = helper.Install();
        helper.AssignStreams(tb, 1000);
        PointerValue timer;
        tb.aToB->GetAttribute("Timer", timer);
        Ptr<TickTimer> tick = timer.Get<TickTimer>();
        NS_TEST_ASSERT_MSG_NE(tick, nullptr, "NIST Net's clock");
        DoubleValue f;
        tick->GetAttribute("Frequency", f);
        NS_TEST_ASSERT_MSG_EQ(f.Get(), 1024.0, "the user's frequency, not 8192 Hz");
        TimeValue phase;
        tick->GetAttribute("Phase", phase);
        NS_TEST_ASSERT_MSG_EQ(phase.Get(), MicroSeconds(100), "the user's phase, not a draw");
        EnumValue<LinkEmulatorQueueDisc::Semantics> sem;
        tb.bToA->GetAttribute("Semantics", sem);
        NS_TEST_ASSERT_MSG_EQ(sem.Get(), LinkEmulatorQueueDisc::NETEM, "the user's semantics");
    }
};

/** HostPlatformHelper: a profile's values (also inside the CPU's text) yield to the user's. */
class HostPlatformHelperTest : public GivenTestCase
{
  public:
    HostPlatformHelperTest()
        : GivenTestCase("HostPlatformHelper: --ns3::HostCpu::InterferenceRate, ::Frequency and "
                        "--ns3::TcpSocket::SegmentSize win over the profile and Linux 2.6's TCP")
    {
    }

  private:
    void DoRun() override
    {
        // onyx-irix65-250: HostCpu.InterferenceRate = 100 (a section value) and the CPU built
        // from "ns3::HostCpu[Frequency=250e6|...]" (a value inside the object's text).
        UserAttributes::Give("ns3::HostCpu::InterferenceRate", "0");
        UserAttributes::Give("ns3::HostCpu::Frequency", "5e8");
        UserAttributes::Give("ns3::TcpSocket::SegmentSize", "536");
        HostPlatformHelper helper("onyx-irix65-250");
        helper.SetInstallNics(false);
        Ptr<HostPlatform> p = helper.Install(CreateObject<Node>());
        DoubleValue rate;
        p->GetCpu()->GetAttribute("InterferenceRate", rate);
        NS_TEST_ASSERT_MSG_EQ(rate.Get(), 0.0, "the user's rate, not the profile's 100/s");
        NS_TEST_ASSERT_MSG_EQ_TOL(p->GetCpu()->CyclesToTime(500).GetSeconds(),
                                  1e-6,
                                  1e-12,
                                  "500 cycles at the user's 500 MHz, not 250 MHz");
        HostPlatformHelper::ConfigureLinux26Tcp();
        TypeId::AttributeInformation info;
        TcpSocket::GetTypeId().LookupAttributeByName("SegmentSize", &info);
        NS_TEST_ASSERT_MSG_EQ(info.initialValue->SerializeToString(info.checker),
                              "536",
                              "the user's MSS, not Linux 2.6's 1448");
        // Linux 2.6's RTO, srtt + max(4 mdev, TCP_RTO_MIN): ns-3's rule with a clock granularity
        // of TCP_RTO_MIN = 200 ms
        TcpSocketBase::GetTypeId().LookupAttributeByName("ClockGranularity", &info);
        NS_TEST_ASSERT_MSG_EQ(info.initialValue->SerializeToString(info.checker),
                              TimeValue(MilliSeconds(200)).SerializeToString(info.checker),
                              "Linux 2.6's TCP_RTO_MIN as the granularity");
        TcpSocket::GetTypeId().LookupAttributeByName("DataRetries", &info);
        NS_TEST_ASSERT_MSG_EQ(info.initialValue->SerializeToString(info.checker),
                              "15",
                              "Linux 2.6's tcp_retries2");
    }
};

/** BsdTcpHelper: 4.4BSD's TCP values are defaults the user's values replace. */
class BsdTcpHelperTest : public GivenTestCase
{
  public:
    BsdTcpHelperTest()
        : GivenTestCase("BsdTcpHelper: --ns3::TcpSocket::DataRetries and ::SndBufSize win over "
                        "4.4BSD's TCP_MAXRXTSHIFT and tcp_sendspace")
    {
    }

  private:
    /**
     * @param tid the type
     * @param name the attribute
     * @return the attribute's default as text
     */
    static std::string Default(TypeId tid, const std::string& name)
    {
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName(name, &info);
        return info.initialValue->SerializeToString(info.checker);
    }

    void DoRun() override
    {
        UserAttributes::Give("ns3::TcpSocket::DataRetries", "3");
        UserAttributes::Give("ns3::TcpSocket::SndBufSize", "4096");
        BsdTcpHelper::ConfigureDefaults(16384, 16384, false);
        NS_TEST_ASSERT_MSG_EQ(Default(TcpSocket::GetTypeId(), "DataRetries"),
                              "3",
                              "the user's count, not TCP_MAXRXTSHIFT's 12");
        NS_TEST_ASSERT_MSG_EQ(Default(TcpSocket::GetTypeId(), "SndBufSize"),
                              "4096",
                              "the user's buffer, not the 16384 passed");
        // What the user did not give is 4.4BSD's: the receive buffer passed, and no
        // ACK-every-n-th-segment rule (ns-3: 2).
        NS_TEST_ASSERT_MSG_EQ(Default(TcpSocket::GetTypeId(), "RcvBufSize"),
                              "16384",
                              "the buffer passed");
        NS_TEST_ASSERT_MSG_EQ(Default(TcpSocket::GetTypeId(), "DelAckCount"),
                              "4294967295",
                              "4.4BSD's delayed ACK on the tick only");
    }

    void DoTeardown() override
    {
        GivenTestCase::DoTeardown();
        // ConfigureDefaults changed global defaults: back to ns-3's for the other cases.
        Config::Reset();
    }
};

/** RtiHelper: an RTI profile's values yield to the user's. */
class RtiHelperTest : public GivenTestCase
{
  public:
    RtiHelperTest()
        : GivenTestCase("RtiHelper: --ns3::RtiSettings::EncodingHeaderSize wins over the profile")
    {
    }

  private:
    void DoRun() override
    {
        auto header = [](bool give) {
            if (give)
            {
                UserAttributes::Give("ns3::RtiSettings::EncodingHeaderSize", "100");
            }
            RtiHelper rti;
            rti.SetProfile("prti1516");
            UintegerValue v;
            rti.GetSettings()->GetAttribute("EncodingHeaderSize", v);
            UserAttributes::Clear();
            return v.Get();
        };
        NS_TEST_ASSERT_MSG_EQ(header(false), 83, "the profile's (doc/rti.rst)");
        NS_TEST_ASSERT_MSG_EQ(header(true), 100, "the user's");
    }
};

/** SwitchHelper (and its SnoopingSwitchHelper) and FddiHelper: their queue sizes are defaults. */
class QueueSizeTest : public GivenTestCase
{
  public:
    QueueSizeTest()
        : GivenTestCase("SwitchHelper, SnoopingSwitchHelper, FddiHelper: "
                        "--ns3::FullDuplexEthernetNetDevice::MaxQueueFrames and "
                        "--ns3::DropTailQueue<Packet>::MaxSize win over 100 and 50 packets")
    {
    }

  private:
    void DoRun() override
    {
        UserAttributes::Give("ns3::DropTailQueue<Packet>::MaxSize", "7p");
        UserAttributes::Give("ns3::FullDuplexEthernetNetDevice::MaxQueueFrames", "7");
        auto frames = [](Ptr<NetDevice> d) {
            UintegerValue v;
            d->GetAttribute("MaxQueueFrames", v);
            return v.Get();
        };
        SwitchHelper plain;
        Ptr<SwitchNetDevice> sw = plain.Install(CreateObject<Node>());
        NetDeviceContainer p = plain.Connect(sw, CreateObject<Node>(), DataRate("100Mbps"));
        NS_TEST_ASSERT_MSG_EQ(frames(p.Get(1)),
                              7u,
                              "plain switch port: the user's size, not 100 frames");
        SnoopingSwitchHelper sh;
        Ptr<SnoopingBridgeNetDevice> br = sh.Install(CreateObject<Node>());
        NetDeviceContainer d = sh.Connect(br, CreateObject<Node>(), DataRate("100Mbps"));
        NS_TEST_ASSERT_MSG_EQ(frames(d.Get(0)), 7u, "switch port: the user's size, not 100 frames");
        NodeContainer ring(2);
        NetDeviceContainer f = FddiHelper().Install(ring);
        PointerValue q;
        f.Get(0)->GetAttribute("AsyncQueue", q);
        NS_TEST_ASSERT_MSG_EQ(q.Get<Queue<Packet>>()->GetMaxSize(),
                              QueueSize("7p"),
                              "FDDI: the user's size, not BSD's 50 packets");
    }
};

/**
 * ProgramOptions::SetSimulatorDefaults: the ARP request for an unresolved neighbour goes out at
 * once, as the studied hosts' wired kernels send it (Linux 2.4 arp_solicit, 4.4BSD arprequest),
 * and a user's --ns3::ArpL3Protocol::RequestJitter still wins. Hand-computed: on a link of
 * 1 ms delay and no serialization time, a datagram sent at 1 s to an unresolved neighbour
 * arrives after the request, the reply and itself: at 1.003 s, plus the request's jitter.
 */
class EraArpTest : public GivenTestCase
{
  public:
    EraArpTest()
        : GivenTestCase("SetSimulatorDefaults: ARP requests at once; "
                        "--ns3::ArpL3Protocol::RequestJitter wins")
    {
    }

  private:
    /** @return when the first datagram from node 0 to node 1 arrives (sent at 1 s) */
    static Time FirstArrival()
    {
        NodeContainer nodes(2);
        SimpleNetDeviceHelper wire;
        wire.SetChannelAttribute("Delay", TimeValue(MilliSeconds(1)));
        NetDeviceContainer devs = wire.Install(nodes);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper ip("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = ip.Assign(devs);
        Time arrival = Seconds(-1);
        Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback([&arrival](Ptr<Socket> s) {
            s->Recv();
            arrival = Simulator::Now();
        });
        Ptr<Socket> tx = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        Simulator::Schedule(Seconds(1), [tx, &ifs]() {
            tx->SendTo(Create<Packet>(100), 0, InetSocketAddress(ifs.GetAddress(1), 9));
        });
        Simulator::Run();
        Simulator::Destroy();
        return arrival;
    }

    void DoRun() override
    {
        const std::string path = "ns3::ArpL3Protocol::RequestJitter";
        TypeId::AttributeInformation info;
        NS_ABORT_UNLESS(ArpL3Protocol::GetTypeId().LookupAttributeByName("RequestJitter", &info));
        StringValue scheduler;
        GlobalValue::GetValueByName("SchedulerType", scheduler);
        StringValue impl;
        GlobalValue::GetValueByName("SimulatorImplementationType", impl);
        // ns-3's own default: uniform 0-10 ms before the request (a draw of exactly 0 has
        // probability 0).
        Time ns3Default = FirstArrival();
        NS_TEST_ASSERT_MSG_GT(ns3Default, MilliSeconds(1003), "ns-3 jitters the request");
        NS_TEST_ASSERT_MSG_LT(ns3Default, MilliSeconds(1013), "by at most 10 ms");
        ProgramOptions::SetSimulatorDefaults();
        NS_TEST_ASSERT_MSG_EQ(FirstArrival(), MilliSeconds(1003), "request, reply, datagram");
        Config::SetDefault(path, *info.initialValue);
        UserAttributes::Give(path, "ns3::ConstantRandomVariable[Constant=2]");
        ProgramOptions::SetSimulatorDefaults();
        NS_TEST_ASSERT_MSG_EQ(FirstArrival(),
                              MilliSeconds(1005),
                              "the user's 2 ms (the attribute is in ms)");
        Config::SetDefault(path, *info.initialValue);
        GlobalValue::Bind("SchedulerType", scheduler);
        GlobalValue::Bind("SimulatorImplementationType", impl);
    }
};

/** The suite. */
class UserAttributesTestSuite : public TestSuite
{
  public:
    UserAttributesTestSuite()
        : TestSuite("testbed-user-attributes", Type::UNIT)
    {
        AddTestCase(new CheckTest(), Duration::QUICK);
        AddTestCase(new LinkEmulatorHelperTest(), Duration::QUICK);
        AddTestCase(new EmulatedTestbedHelperTest(), Duration::QUICK);
        AddTestCase(new HostPlatformHelperTest(), Duration::QUICK);
        AddTestCase(new BsdTcpHelperTest(), Duration::QUICK);
        AddTestCase(new RtiHelperTest(), Duration::QUICK);
        AddTestCase(new QueueSizeTest(), Duration::QUICK);
        AddTestCase(new EraArpTest(), Duration::QUICK);
    }
};

/** The suite's instance. */
UserAttributesTestSuite g_userAttributesTestSuite;

} // namespace
