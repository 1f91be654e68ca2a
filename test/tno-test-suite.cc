/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <cmath>
#include <numeric>

/**
 * @file
 * @ingroup testbed
 * Tests of the [TNO03] pieces: RCI schedule sheets, CPU shielding, the direct path's sizes,
 * node clocks and the UTC-TM scheduler.
 */

using namespace ns3;

namespace
{

/** A good schedule sheet parses; its actions come in offset order. */
class RciScheduleGoodTest : public TestCase
{
  public:
    RciScheduleGoodTest()
        : TestCase("RCI schedule sheet: a good sheet")
    {
    }

  private:
    void DoRun() override
    {
        const std::string sheet = "# fighter\n"
                                  "frame 10ms\n"
                                  "\n"
                                  "output state 6ms   # send\n"
                                  "update inputs 0ms\n"
                                  "SYNC visual 6ms\n";
        RciSchedule s;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(RciSchedule::Parse(sheet, "f.rci", s, error), true, error);
        NS_TEST_ASSERT_MSG_EQ(s.GetFrame(), MilliSeconds(10), "frame");
        const auto& a = s.GetActions();
        NS_TEST_ASSERT_MSG_EQ(a.size(), 3, "three actions");
        NS_TEST_ASSERT_MSG_EQ(a[0].name, "inputs", "offset order");
        NS_TEST_ASSERT_MSG_EQ(a[1].name, "state", "sheet order at equal offsets");
        NS_TEST_ASSERT_MSG_EQ(a[2].kind, RciSchedule::SYNC, "kind is case-insensitive");
        NS_TEST_ASSERT_MSG_EQ(a[1].offset, MilliSeconds(6), "offset");

        // Control: N actions at i x frame / N, updates first.
        RciSchedule c = RciSchedule::Control(MilliSeconds(10), 1, 2, 1);
        NS_TEST_ASSERT_MSG_EQ(c.GetActions().size(), 4, "four actions");
        NS_TEST_ASSERT_MSG_EQ(c.GetActions()[0].kind, RciSchedule::UPDATE, "update first");
        NS_TEST_ASSERT_MSG_EQ(c.GetActions()[2].offset, MilliSeconds(5), "2 x 10 ms / 4");
        NS_TEST_ASSERT_MSG_EQ(c.GetActions()[3].offset, MicroSeconds(7500), "3 x 10 ms / 4");
    }
};

/** Every bad sheet is refused with the file and the line of the fault. */
class RciScheduleBadTest : public TestCase
{
  public:
    RciScheduleBadTest()
        : TestCase("RCI schedule sheet: bad sheets name the file and line")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> cases{
            {"frame 10ms\nwobble x 1ms\n", "s.rci:2: unknown statement"},
            {"update x 1ms\n", "s.rci:1: an action before the 'frame'"},
            {"frame 10ms\nupdate x 10ms\n", "s.rci:2: offset 10ms is not inside"},
            {"frame 10ms\nupdate x 1\n", "s.rci:2: offset '1' is not a time"},
            {"frame 10ms\nupdate x 1ms\noutput x 2ms\n", "s.rci:3: a second action"},
            {"frame 0ms\n", "s.rci:1: frame length"},
            {"frame 10ms\nframe 5ms\n", "s.rci:2: a second 'frame'"},
            {"frame 10ms\n# nothing\n", "s.rci:2: no action"},
            {"# empty\n", "s.rci:1: no 'frame'"},
            {"frame 10ms\nupdate a$b 1ms\n", "s.rci:2: action name"},
            {"frame 10ms\nupdate x 1ms extra\n", "s.rci:2: expected"},
            {"frame 10ms\nupdate x -1ms\n", "s.rci:2: offset '-1ms'"},
            // Frame lengths out of range: beyond int64 ns arithmetic, or 1 ns (a run without end).
            {"frame 9.3e9s\nupdate x 1ms\n", "s.rci:1: frame length"},
            {"frame 9300000000s\nupdate x 1ms\n", "s.rci:1: frame length"},
            {"frame 3601s\nupdate x 1ms\n", "s.rci:1: frame length"},
            {"frame 1ns\nupdate x 0ns\n", "s.rci:1: frame length"},
            {"frame 99us\nupdate x 0ns\n", "s.rci:1: frame length"},
        };
        for (const auto& [text, expected] : cases)
        {
            RciSchedule s;
            std::string error;
            bool ok = RciSchedule::Parse(text, "s.rci", s, error);
            NS_TEST_ASSERT_MSG_EQ(ok, false, "accepted: " << text);
            NS_TEST_ASSERT_MSG_EQ(error.rfind(expected, 0),
                                  0,
                                  "error '" << error << "' should start with '" << expected << "'");
        }
    }
};

/**
 * @ingroup testbed-tests
 * RCI schedule sheets as editors write them and as long as a user may make them: a leading
 * UTF-8 byte order mark is read as nothing, a stray control byte is named in the message, and
 * a sheet has at most RciSchedule::MAX_ACTIONS actions.
 */
class RciScheduleTextTest : public TestCase
{
  public:
    RciScheduleTextTest()
        : TestCase("RCI schedule sheet: byte order mark, unprintable bytes, most actions")
    {
    }

  private:
    void DoRun() override
    {
        RciSchedule s;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(RciSchedule::Parse("\xEF\xBB\xBF"
                                                 "frame 10ms\nupdate x 1ms\n",
                                                 "b.rci",
                                                 s,
                                                 error),
                              true,
                              "a leading byte order mark: " << error);
        NS_TEST_ASSERT_MSG_EQ(s.GetActions().size(), 1u, "its one action");
        NS_TEST_ASSERT_MSG_EQ(
            RciSchedule::Parse("frame 10ms\n\x01update x 1ms\n", "c.rci", s, error),
            false,
            "a control byte before a statement");
        NS_TEST_ASSERT_MSG_NE(error.find("'\\x01update'"), std::string::npos, error);
        // MAX_ACTIONS actions are a sheet; one more is refused at its line.
        auto sheet = [](uint32_t n) {
            std::string text = "frame 100ms\n";
            for (uint32_t i = 0; i < n; ++i)
            {
                text += "sync a" + std::to_string(i) + " " + std::to_string(i) + "us\n";
            }
            return text;
        };
        NS_TEST_ASSERT_MSG_EQ(
            RciSchedule::Parse(sheet(RciSchedule::MAX_ACTIONS), "m.rci", s, error),
            true,
            error);
        NS_TEST_ASSERT_MSG_EQ(s.GetActions().size(), RciSchedule::MAX_ACTIONS, "every action");
        NS_TEST_ASSERT_MSG_EQ(
            RciSchedule::Parse(sheet(RciSchedule::MAX_ACTIONS + 1), "m.rci", s, error),
            false,
            "one action more");
        NS_TEST_ASSERT_MSG_EQ(error.rfind("m.rci:" + std::to_string(RciSchedule::MAX_ACTIONS + 2)
                                              + ": more than 1000 actions",
                                          0),
                              0,
                              error);
    }
};

/**
 * A process bound to a shielded core sees no interrupt and no other process; unbound work
 * never runs on a shielded core.
 */
class ShieldingTest : public TestCase
{
  public:
    ShieldingTest()
        : TestCase("HostCpu: shielded cores and bound owners")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("Cores", UintegerValue(2));
        cpu->SetAttribute("ShieldedCores", StringValue("1"));
        cpu->SetAttribute("InterruptCore", IntegerValue(0));
        cpu->Initialize();
        const uint32_t rt = 7;    // a real-time process, bound to the shielded core
        const uint32_t other = 8; // an ordinary process
        cpu->Bind(rt, 1);
        Time rtDone;
        Time irqDone;
        Time otherDone;
        // t = 0: the bound process starts 100 us of work on core 1.
        cpu->Submit(HostCpu::PROCESS, MicroSeconds(100), rt, Callback<void>([&]() {
                        rtDone = Simulator::Now();
                    }));
        // t = 10 us: an interrupt (30 us) and an ordinary process (50 us) arrive. The interrupt
        // takes core 0; the ordinary process may not use the shielded core, so it waits for
        // core 0 although core 1 would preempt nothing of higher class.
        Simulator::Schedule(MicroSeconds(10), [&]() {
            cpu->Submit(HostCpu::HARDIRQ, MicroSeconds(30), HostCpu::KERNEL, Callback<void>([&]() {
                            irqDone = Simulator::Now();
                        }));
            cpu->Submit(HostCpu::PROCESS, MicroSeconds(50), other, Callback<void>([&]() {
                            otherDone = Simulator::Now();
                        }));
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rtDone, MicroSeconds(100), "the shielded process is not disturbed");
        NS_TEST_ASSERT_MSG_EQ(irqDone, MicroSeconds(40), "the interrupt runs on core 0");
        NS_TEST_ASSERT_MSG_EQ(otherDone, MicroSeconds(90), "unbound work waits for core 0");
        Simulator::Destroy();
    }
};

/** Sporadic interference on a shielded core delays its process by the event's duration. */
class InterferenceTest : public TestCase
{
  public:
    InterferenceTest()
        : TestCase("HostCpu: sporadic interference on a shielded core (a busy-time balance)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("Cores", UintegerValue(2));
        cpu->SetAttribute("ShieldedCores", StringValue("1"));
        cpu->SetAttribute("ShieldedInterferenceRate", DoubleValue(1000.0));
        cpu->SetAttribute("ShieldedInterferenceDuration",
                          StringValue("ns3::ConstantRandomVariable[Constant=20e-6]"));
        cpu->AssignStreams(1);
        cpu->Initialize();
        cpu->Bind(5, 1);
        Time done;
        // One second of work on the shielded core, started at 0: it finishes later by exactly
        // the interference it suffered (every event on core 1 while it runs preempts it).
        cpu->Submit(HostCpu::PROCESS, Seconds(1), 5, Callback<void>([&]() {
                        done = Simulator::Now();
                    }));
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        uint64_t n = cpu->GetInterferenceEvents();
        Time irq = cpu->GetBusyTime(HostCpu::HARDIRQ);
        // Interference events happened on core 1 only (core 0 has rate 0).
        NS_TEST_ASSERT_MSG_EQ(irq, MicroSeconds(20) * int64_t(n), "20 us per event");
        // Events while the job ran: about 1000 (Poisson, 1 s at 1000/s): within 5 sigma.
        Time delay = done - Seconds(1);
        double during = delay.GetSeconds() / 20e-6;
        NS_TEST_ASSERT_MSG_EQ_TOL(during, 1000.0, 5 * std::sqrt(1000.0), "events during the job");
        NS_TEST_ASSERT_MSG_EQ(delay.GetNanoSeconds() % 20000, 0, "a whole number of events");
        Simulator::Destroy();
    }
};

/**
 * The study's sizes on the direct path: 512 bytes of data in a 622-byte IP packet (RTI-DM) and a
 * 586-byte shared-memory message (RTI-SM); a truncated update is refused.
 */
class UpdateSizeTest : public TestCase
{
  public:
    UpdateSizeTest()
        : TestCase("Direct path: 622-byte RTI-DM packets, 586-byte RTI-SM messages")
    {
    }

  private:
    void DoRun() override
    {
        for (const auto& [profile, expected] :
             std::vector<std::pair<std::string, uint32_t>>{{"tno-rti-dm", 622 - 28},
                                                           {"tno-rti-sm", 586}})
        {
            RtiHelper rti;
            rti.SetProfile(profile);
            RtiMessage m = rti.GetSettings()->NewMessage(RtiMessage::UPDATE_ATTRIBUTES);
            m.handle = 1;
            m.values[1].resize(512);
            m.tag.resize(8); // the RCI's time
            NS_TEST_ASSERT_MSG_EQ(m.GetSerializedSize(), expected, profile);
            std::vector<uint8_t> b(m.GetSerializedSize());
            m.SerializeTo(b.data(), b.size());
            RtiMessage r;
            uint32_t read = 0;
            std::string reason;
            NS_TEST_ASSERT_MSG_EQ(r.TryDeserializeFrom(b.data(), b.size(), read, reason),
                                  true,
                                  reason);
            NS_TEST_ASSERT_MSG_EQ(r.values.at(1).size(), 512, "the data");
            NS_TEST_ASSERT_MSG_EQ(r.TryDeserializeFrom(b.data(), 300, read, reason),
                                  false,
                                  "truncated");
        }
    }
};

/** The suite. */
/** A node clock's reading and its inverse, free running and disciplined (hand-computed). */
class NodeClockTest : public TestCase
{
  public:
    NodeClockTest()
        : TestCase("NodeClock: offset, drift, rate corrections (clamped at 500 ppm), inverse, "
                   "a clock card's resolution")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NodeClock> free = CreateObject<NodeClock>();
        free->SetAttribute("Offset", TimeValue(MilliSeconds(1)));
        free->SetAttribute("Drift", DoubleValue(50.0));
        // 10 s + 1 ms + 50 ppm x 10 s.
        NS_TEST_ASSERT_MSG_EQ(free->GetLocalTime(Seconds(10)), NanoSeconds(10001500000), "free");
        NS_TEST_ASSERT_MSG_EQ(free->ToTrueTime(NanoSeconds(10001500000)), Seconds(10), "inverse");

        // 5 ms ahead, 100 ppm fast; at 1 s a correction of -300 ppm, at 3 s one of +800 ppm,
        // clamped to the kernel's +500 ppm.
        Ptr<NodeClock> c = CreateObject<NodeClock>();
        c->SetAttribute("Offset", TimeValue(MilliSeconds(5)));
        c->SetAttribute("Drift", DoubleValue(100.0));
        double applied = 0;
        Simulator::Schedule(Seconds(1), [&]() { c->SetCorrection(-300); });
        Simulator::Schedule(Seconds(3), [&]() { applied = c->SetCorrection(800); });
        Simulator::Stop(Seconds(4));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(applied, 500.0, 1e-12, "clamped to MaxSlew");
        NS_TEST_ASSERT_MSG_EQ_TOL(c->GetMaxCorrection(), 500.0, 1e-12, "largest correction");
        // At 1 s: 1.0051 s. From 1 to 3 s at 1 - 200e-6: 3.0047 s. From 3 s at 1 + 600e-6: at
        // 4 s 4.0053 s (hand sums).
        NS_TEST_ASSERT_MSG_EQ(c->GetLocalTime(Seconds(1)), NanoSeconds(1005100000), "at 1 s");
        NS_TEST_ASSERT_MSG_EQ(c->GetLocalTime(Seconds(3)), NanoSeconds(3004700000), "at 3 s");
        NS_TEST_ASSERT_MSG_EQ(c->GetLocalTime(Seconds(4)), NanoSeconds(4005300000), "at 4 s");
        // The inverse on each piece: 2.0049 s local is 1 s + (0.9998 s / 0.9998) = 2 s true.
        NS_TEST_ASSERT_MSG_EQ(c->ToTrueTime(NanoSeconds(2004900000)), Seconds(2), "inverse");
        NS_TEST_ASSERT_MSG_EQ(c->ToTrueTime(NanoSeconds(4005300000)), Seconds(4), "inverse 2");
        Simulator::Destroy();

        // A clock card: readings truncated to its 1 us; the first true time of a reading is when
        // the clock reaches it.
        Ptr<NodeClock> card = CreateObject<NodeClock>();
        card->SetDiscipline(NodeClock::CLOCK_CARD);
        card->SetAttribute("Resolution", TimeValue(MicroSeconds(1)));
        NS_TEST_ASSERT_MSG_EQ(card->GetLocalTime(NanoSeconds(1234567890)),
                              NanoSeconds(1234567000),
                              "truncated to 1 us");
        NS_TEST_ASSERT_MSG_EQ(card->ToTrueTime(NanoSeconds(1234567500)),
                              NanoSeconds(1234568000),
                              "a reading between ticks comes at the next tick");
        Simulator::Destroy();
    }
};

/**
 * NTP over a 100 Mbit/s link (client on node 0, stratum-1 server on node 1), Poll 4 (16 s), the
 * first poll at 0.5 s. A sample's offset theta_1 is the clock's offset to within half its delay
 * (RFC 5905 section 8: the error is bounded by delta / 2); the first exchange also waits for
 * the address resolution on its outbound leg, so theta_1 is not exactly 10 ms: the expectations
 * below use the sample taken.
 *
 * - Unclamped: a clock 10 ms behind, no drift. ntpd's clock_adjust slews each second by the
 *   register / (16 x 16 s): from 1 s on, the register after k slewed seconds is
 *   theta_1 x (255/256)^k, so at 10 s the clock's offset is -10 ms + theta_1 x (1 - (255/256)^9)
 *   (-9.6538 ms for theta_1 = 10 ms). The phase term alone brings 10 ms under 1 ms in 590 s
 *   (1 + ceil(ln 0.1 / ln(255/256))); the PLL's frequency term, of the same sign, only
 *   brings it earlier (iterating the recurrence by hand from exactly 10 ms: second 511).
 * - Clamped: a crystal -400 ppm slow, compensated by a frequency correction of +400 ppm, the
 *   clock 100 ms behind: the slew wanted is 100 ms / 256 s = 391 ppm, on top of 400: clamped to
 *   500 ppm, so the clock gains exactly 100 us each second: -99 ms at 11 s.
 */
class NtpSlewTest : public TestCase
{
  public:
    NtpSlewTest()
        : TestCase("NtpClient: RFC 5905 slewing over the network, 500 ppm limit, convergence")
    {
    }

  private:
    /**
     * Run a client.
     * @param offset the clock's offset at 0
     * @param drift its crystal (ppm)
     * @param frequency the client's frequency correction at 0 (ppm)
     * @param at true times to read the offset at
     * @param until the end of the run
     * @param[out] offsets local - true at those times (s)
     * @param[out] under1ms the first whole second with |offset| < 1 ms (0: never)
     * @return the largest |correction| applied (ppm)
     */
    double Run(Time offset,
               double drift,
               double frequency,
               const std::vector<Time>& at,
               Time until,
               std::vector<double>& offsets,
               uint64_t& under1ms)
    {
        NodeContainer n;
        n.Create(2);
        InternetStackHelper().Install(n);
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
        NetDeviceContainer d = eth.Install(n.Get(0), n.Get(1));
        Ipv4AddressHelper ip("10.9.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = ip.Assign(d);
        Ptr<NodeClock> clock = CreateObject<NodeClock>();
        clock->SetDiscipline(NodeClock::NTP);
        clock->SetAttribute("Offset", TimeValue(offset));
        clock->SetAttribute("Drift", DoubleValue(drift));
        Ptr<NtpServer> server = CreateObject<NtpServer>();
        n.Get(1)->AddApplication(server);
        Ptr<NtpClient> client = CreateObject<NtpClient>();
        client->SetAttribute("Poll", UintegerValue(4));
        client->SetAttribute("PollPhase",
                             StringValue("ns3::ConstantRandomVariable[Constant=0.03125]"));
        client->SetAttribute("Frequency", DoubleValue(frequency));
        client->SetClock(clock);
        client->SetServer(ifs.GetAddress(1));
        n.Get(0)->AddApplication(client);
        offsets.clear();
        m_samples.clear();
        client->TraceConnectWithoutContext(
            "Sample",
            Callback<void, double, double>(
                [this](double o, double d) { m_samples.emplace_back(o, d); }));
        for (Time t : at)
        {
            Simulator::Schedule(t, [&offsets, clock, t]() {
                offsets.push_back((clock->GetLocalTime(t) - t).GetSeconds());
            });
        }
        under1ms = 0;
        for (int64_t k = 1; k < until.GetSeconds(); ++k)
        {
            Simulator::Schedule(Seconds(k) + MilliSeconds(500), [&under1ms, clock, k]() {
                const Time t = Simulator::Now();
                if (under1ms == 0 && std::abs((clock->GetLocalTime(t) - t).GetSeconds()) < 1e-3)
                {
                    under1ms = k;
                }
            });
        }
        Simulator::Stop(until);
        Simulator::Run();
        const double maxCorrection = clock->GetMaxCorrection();
        NS_TEST_EXPECT_MSG_GT(client->GetUpdates(), 0, "samples used");
        Simulator::Destroy();
        return maxCorrection;
    }

    void DoRun() override
    {
        std::vector<double> offsets;
        uint64_t under = 0;
        double maxc = Run(MilliSeconds(-10), 0, 0, {Seconds(10)}, Seconds(700), offsets, under);
        NS_TEST_ASSERT_MSG_GT(m_samples.size(), 0, "samples");
        const double theta1 = m_samples.front().first;
        NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs(theta1 - 0.010),
                                    m_samples.front().second / 2,
                                    "offset error within half the delay (RFC 5905)");
        NS_TEST_ASSERT_MSG_EQ_TOL(offsets[0],
                                  -0.010 + theta1 * (1 - std::pow(255.0 / 256.0, 9)),
                                  // the first update's frequency term: theta_1 x 0.5 s / 1024^2
                                  // (0.0055 ppm for 11.5 ms) over 9 s = 50 ns
                                  1e-7,
                                  "phase decay, time constant 256 s");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(maxc, 500.0, "never above 500 ppm");
        NS_TEST_ASSERT_MSG_GT(under, 0, "converges under 1 ms");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(under, 590, "by the phase term's 590 s");

        maxc = Run(MilliSeconds(-100), -400, 400, {Seconds(11)}, Seconds(12), offsets, under);
        NS_TEST_ASSERT_MSG_EQ_TOL(maxc, 500.0, 1e-9, "the slew is clamped at 500 ppm");
        // 10 clamped seconds at 500 - 400 ppm (the first update's frequency term adds
        // 0.1 x 0.5 s / 1024^2 = 0.05 ppm: 0.5 us over 10 s).
        NS_TEST_ASSERT_MSG_EQ_TOL(offsets[0], -0.099, 1e-6, "100 us gained per second");
    }

    std::vector<std::pair<double, double>> m_samples; //!< offset, delay of each sample
};

/**
 * The clock card is one time base: two RCI federates on two machines that share it run their
 * frame actions at the same true instants, and each clock read costs the card's ReadCost
 * instead of the host's system call.
 */
class ClockCardTest : public TestCase
{
  public:
    ClockCardTest()
        : TestCase("Clock card: the same reading on every host, its read cost per clock read")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer n;
        n.Create(2);
        InternetStackHelper().Install(n);
        Ptr<NodeClock> card = CreateObject<NodeClock>();
        card->SetDiscipline(NodeClock::CLOCK_CARD);
        card->SetAttribute("Resolution", TimeValue(MicroSeconds(1)));
        card->SetAttribute("ReadCost", TimeValue(NanoSeconds(1200)));
        card->SetAttribute("Drift", DoubleValue(7.0)); // the card's own oscillator: common
        std::vector<Ptr<RciFederate>> rci;
        std::vector<std::vector<Time>> starts(2);
        HostPlatformHelper helper("ihawk-redhawk-700");
        RtiHelper rtiHelper;
        rtiHelper.SetProfile("tno-rti-dm");
        Ptr<RtiSettings> settings = rtiHelper.GetSettings();
        std::vector<Ptr<HostPlatform>> hosts;
        for (uint32_t i = 0; i < 2; ++i)
        {
            hosts.push_back(helper.Install(n.Get(i)));
            hosts[i]->AssignStreams(10 + 20 * i);
        }
        Ptr<RtiExec> exec = CreateObject<RtiExec>();
        exec->Setup(hosts[0], settings);
        Ptr<RtiFedex> fedex = exec->CreateFederation("card");
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<HostProcess> proc = hosts[i]->CreateProcess();
            proc->SetCore(1);
            Ptr<RtiLrc> lrc = CreateObject<RtiLrc>();
            lrc->Setup(proc, settings, Ipv4Address("127.0.0.1"));
            lrc->Join(fedex, i == 0 ? "A" : "B");
            Ptr<RciFederate> f = CreateObject<RciFederate>();
            f->SetAttribute("ClockReads", UintegerValue(2));
            f->Setup(lrc, RciSchedule::Control(MilliSeconds(10), 0, 0, 1));
            f->SetClock(card);
            f->TraceConnectWithoutContext(
                "Action",
                Callback<void, const std::string&, Time, Time>(
                    [&starts, i](const std::string&, Time scheduled, Time) {
                        starts[i].push_back(scheduled);
                    }));
            rci.push_back(f);
        }
        // Equal readings on both hosts at any instant (one object), truncated to 1 us.
        NS_TEST_ASSERT_MSG_EQ(card->GetLocalTime(Seconds(2)),
                              NanoSeconds(2000014000),
                              "2 s + 7 ppm x 2 s");
        for (auto& f : rci)
        {
            f->Start(Seconds(1));
        }
        Simulator::Schedule(Seconds(1.1), &RciFederate::Stop, rci[0]);
        Simulator::Schedule(Seconds(1.1), &RciFederate::Stop, rci[1]);
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        // 10 or 11: the card runs 7 ppm fast, so local 1.1 s comes just before true 1.1 s.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(starts[0].size(), 10, "10 frames");
        NS_TEST_ASSERT_MSG_EQ(starts[0].size(), starts[1].size(), "as many on both hosts");
        for (std::size_t k = 0; k < starts[0].size() && k < starts[1].size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(starts[0][k], starts[1][k], "the same instant on both hosts");
        }
        // Two clock reads per action at the card's 1.2 us each, no system call.
        NS_TEST_ASSERT_MSG_EQ(rci[0]->ActionOverhead(), NanoSeconds(2400), "card reads");
        rci[1]->SetClock(nullptr);
        NS_TEST_ASSERT_MSG_EQ(rci[1]->ActionOverhead(),
                              hosts[1]->GetSyscallCost() * 2,
                              "without the card: two gettimeofday() calls");
        Simulator::Destroy();
    }
};

/**
 * Two RTI-SM federates, S (CPU 1) and R (CPU 2), on one 700 MHz iHawk: the host, the RTIexec
 * and a Fedex, both local components joined; S publishes class 1, R subscribes to it.
 */
struct ShmPair
{
    Ptr<HostPlatform> host;       //!< the machine
    Ptr<RtiSettings> settings;    //!< tno-rti-sm, shared by both local components
    std::vector<Ptr<RtiLrc>> lrc; //!< S, R

    /**
     * Build the pair.
     * @param federation the federation's name
     * @param factor the host's ReferenceCycleFactor instead of the profile's (if > 0)
     */
    explicit ShmPair(const std::string& federation, double factor = 0)
    {
        NodeContainer n;
        n.Create(1);
        InternetStackHelper().Install(n);
        HostPlatformHelper helper("ihawk-redhawk-700");
        if (factor > 0)
        {
            helper.SetAttribute("ReferenceCycleFactor", DoubleValue(factor));
        }
        host = helper.Install(n.Get(0));
        host->AssignStreams(1);
        RtiHelper rtiHelper;
        rtiHelper.SetProfile("tno-rti-sm");
        settings = rtiHelper.GetSettings();
        Ptr<RtiExec> exec = CreateObject<RtiExec>();
        exec->Setup(host, settings);
        Ptr<RtiFedex> fedex = exec->CreateFederation(federation);
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<HostProcess> proc = host->CreateProcess();
            proc->SetCore(1 + i);
            lrc.push_back(CreateObject<RtiLrc>());
            lrc[i]->Setup(proc, settings, Ipv4Address("127.0.0.1"));
            lrc[i]->Join(fedex, i == 0 ? "S" : "R");
        }
        lrc[0]->Publish(1);
        lrc[1]->Subscribe(1);
    }
};

/**
 * UTC-TM: a sender and a receiver on one machine (shared memory), both with an Output/Update
 * every 10 ms at offset 0. A receiver whose clock is 5 ms ahead runs each UPDATE before the
 * update of the same time has arrived: every update is a TSO violation. A receiver 5 ms behind
 * finds each update there: none; the updates are handed over in timestamp order, each at the
 * UPDATE action of its time (5 ms of true time after it was sent, on the receiver's clock).
 */
class UtcTmTest : public TestCase
{
  public:
    UtcTmTest()
        : TestCase("RciFederate UTC-TM: timestamp order, TSO violations with clock error")
    {
    }

  private:
    /**
     * Run 20 frames.
     * @param receiverOffset the receiver clock's offset
     * @param stamps the timestamps handed to the receiver
     * @param delays true time from a stamp to its hand-over
     * @return TSO violations
     */
    uint64_t Run(Time receiverOffset, std::vector<Time>& stamps, std::vector<Time>& delays)
    {
        ShmPair pair("utc");
        std::vector<Ptr<RciFederate>> rci;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RciFederate> f = CreateObject<RciFederate>();
            f->SetAttribute("Scheduler", StringValue("UtcTm"));
            f->Setup(pair.lrc[i],
                     RciSchedule::Control(MilliSeconds(10), i == 0 ? 0 : 1, i == 0 ? 1 : 0, 0));
            Ptr<NodeClock> clock = CreateObject<NodeClock>();
            clock->SetAttribute("Offset", TimeValue(i == 0 ? Seconds(0) : receiverOffset));
            f->SetClock(clock);
            rci.push_back(f);
        }
        rci[0]->SetAction("output1", Callback<void>([&]() { rci[0]->Update(1, 512); }));
        rci[1]->SetReflectCallback(RtiLrc::ReflectCallback([&](const RtiLrc::Reflection& r) {
            stamps.push_back(r.tag);
            delays.push_back(Simulator::Now() - Seconds(1) - r.tag);
        }));
        for (auto& f : rci)
        {
            f->Start(Seconds(1));
        }
        Simulator::Schedule(Seconds(1.2), &RciFederate::Stop, rci[0]);
        Simulator::Schedule(Seconds(1.3), &RciFederate::Stop, rci[1]);
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        uint64_t v = rci[1]->GetTsoViolations();
        Simulator::Destroy();
        return v;
    }

    void DoRun() override
    {
        std::vector<Time> stamps;
        std::vector<Time> delays;
        uint64_t ahead = Run(MilliSeconds(5), stamps, delays);
        NS_TEST_ASSERT_MSG_EQ(ahead, stamps.size(), "every update arrives after its UPDATE");
        NS_TEST_ASSERT_MSG_GT(stamps.size(), 15, "updates handed over");
        stamps.clear();
        delays.clear();
        uint64_t behind = Run(MilliSeconds(-5), stamps, delays);
        NS_TEST_ASSERT_MSG_EQ(behind, 0, "no violation with a clock behind");
        NS_TEST_ASSERT_MSG_EQ(stamps.size(), 20, "the 20 updates sent before the stop");
        for (std::size_t i = 0; i < stamps.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(stamps[i], MilliSeconds(10) * int64_t(i), "timestamp order");
            // Handed over at the receiver's UPDATE of that time: 5 ms later in true time, plus
            // the wake-up of the receiver's process (at most 6 us on this profile).
            NS_TEST_ASSERT_MSG_GT_OR_EQ(delays[i], MilliSeconds(5), "at the UPDATE action");
            NS_TEST_ASSERT_MSG_LT(delays[i], MilliSeconds(5) + MicroSeconds(50), "no later");
        }
    }
};

class HlaTmTest : public TestCase
{
  public:
    HlaTmTest()
        : TestCase("RciFederate HLA-TM: a slow federate holds the others back, timestamp order")
    {
    }

  private:
    /**
     * Run 200 ms of 10 ms frames: S sends at each action (offset 0), R reads at each action.
     * @param slowWork the work of each of R's actions
     * @param nS[out] S's actions
     * @param nR[out] R's actions
     * @param tags[out] the timestamps handed to R
     * @return TSO violations at R
     */
    uint64_t Run(Time slowWork, uint64_t& nS, uint64_t& nR, std::vector<Time>& tags)
    {
        ShmPair pair("hla");
        std::vector<Ptr<RciFederate>> rci;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RciFederate> f = CreateObject<RciFederate>();
            f->SetAttribute("Scheduler", StringValue("HlaTm"));
            f->SetAttribute("Lookahead", TimeValue(MilliSeconds(1)));
            f->Setup(pair.lrc[i],
                     RciSchedule::Control(MilliSeconds(10), i == 0 ? 0 : 1, i == 0 ? 1 : 0, 0));
            rci.push_back(f);
        }
        bool ahead = false;
        rci[0]->SetAction("output1", Callback<void>([&]() {
                              // R's bound is its requested time (at most its time + one frame)
                              // + L: S cannot be granted beyond R's time + 10 ms.
                              ahead = ahead
                                      || rci[0]->GetTime() > rci[1]->GetTime() + MilliSeconds(10);
                              rci[0]->Update(1, 512);
                          }));
        Ptr<HostProcess> rProc = rci[1]->GetLrc()->GetProcess();
        rci[1]->SetAction("update1", Callback<void>([&]() {
                              if (slowWork.IsStrictlyPositive())
                              {
                                  rProc->Execute(slowWork, Callback<void>());
                              }
                          }));
        bool early = false;
        rci[1]->SetReflectCallback(RtiLrc::ReflectCallback([&](const RtiLrc::Reflection& r) {
            early = early || r.tag > rci[1]->GetTime();
            tags.push_back(r.tag);
        }));
        for (auto& f : rci)
        {
            f->Start(Seconds(1));
        }
        Simulator::Schedule(Seconds(1.2) - NanoSeconds(1), &RciFederate::Stop, rci[0]);
        Simulator::Schedule(Seconds(1.2) - NanoSeconds(1), &RciFederate::Stop, rci[1]);
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(ahead, false, "S granted beyond R's time + one frame + L");
        NS_TEST_EXPECT_MSG_EQ(early, false, "a reflection handed over before its time");
        nS = rci[0]->GetActions();
        nR = rci[1]->GetActions();
        uint64_t v = rci[1]->GetTsoViolations();
        Simulator::Destroy();
        return v;
    }

    void DoRun() override
    {
        uint64_t nS = 0;
        uint64_t nR = 0;
        std::vector<Time> tags;
        // Both fast: every action of the 200 ms runs, paced.
        uint64_t v = Run(Seconds(0), nS, nR, tags);
        NS_TEST_ASSERT_MSG_EQ(v, 0, "no TSO violation by construction");
        NS_TEST_ASSERT_MSG_EQ(nS, 20, "S: actions at 0, 10, ..., 190 ms");
        NS_TEST_ASSERT_MSG_EQ(nR, 20, "R: actions at 0, 10, ..., 190 ms");
        // Stamped time + L (1, 11, ... ms), each handed over at R's first grant at or after it.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(tags.size(), 18, "updates handed over");
        for (std::size_t i = 0; i < tags.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(tags[i],
                                  MilliSeconds(10) * int64_t(i) + MilliSeconds(1),
                                  "time + lookahead, in timestamp order");
        }
        tags.clear();
        // R slow: each of its actions keeps its process busy 25 ms, so it starts actions at
        // 0, 25, ..., 175 ms (8 in 200 ms) and requests its next time only when done. S may run
        // at most one frame ahead of R's time: at most 9 actions instead of 20.
        v = Run(MilliSeconds(25), nS, nR, tags);
        NS_TEST_ASSERT_MSG_EQ(v, 0, "no TSO violation by construction");
        NS_TEST_ASSERT_MSG_EQ(nR, 8, "R: one action per 25 ms");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(nS, nR + 1, "the slow federate slows the other");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(nS, nR, "but S keeps up with R");
    }
};

/**
 * One TimeAdvanceRequest/grant round trip on RTI-SM, hand-summed. One time-managed federate
 * (the other is not), so the Fedex grants at once. 700 MHz, per-clock factor 1, no context
 * switch cost, no interference, a wake-up takes 5 us. RTI costs: call 700, encode 1 400,
 * transport 2 100, decode 2 800, callback 3 500 cycles; queue copy 700 + 35 per byte; a
 * semaphore operation (SyscallCost) 350. Both messages (request, grant) are 46 + 8 = 54 bytes.
 * Send side: (700 + 1 400 + 2 100) + (700 + 54 x 35) + 350 = 7 140 cycles = 10.2 us; read side:
 * (2 100 + 2 800 + 3 500) + 350 = 8 750 cycles = 12.5 us. Round trip: request sent (10.2), the
 * Fedex woken (5) and reads it (12.5), sends the grant (10.2), the federate woken (5) and reads
 * it (12.5): 55.4 us.
 */
class TimeMessageRoundTripTest : public TestCase
{
  public:
    TimeMessageRoundTripTest()
        : TestCase("HLA-TM on the direct path: a request-grant round trip is message traffic")
    {
    }

  private:
    void DoRun() override
    {
        ShmPair pair("rtt", 1.0);
        Ptr<HostCpu> cpu = pair.host->GetCpu();
        cpu->SetAttribute("ContextSwitchCost", DoubleValue(0.0));
        cpu->SetAttribute("InterferenceRate", DoubleValue(0.0));
        cpu->SetAttribute("ShieldedInterferenceRate", DoubleValue(0.0));
        pair.host->SetAttribute("SchedulingLatency",
                                StringValue("ns3::ConstantRandomVariable[Constant=5e-6]"));
        pair.host->SetAttribute("SyscallCost", DoubleValue(350.0));
        pair.host->SetAttribute("WaitCost", DoubleValue(0.0));
        Ptr<RtiSettings> st = pair.settings;
        st->SetAttribute("CallCost", DoubleValue(700.0));
        st->SetAttribute("EncodeCost", DoubleValue(1400.0));
        st->SetAttribute("TransportCost", DoubleValue(2100.0));
        st->SetAttribute("DecodeCost", DoubleValue(2800.0));
        st->SetAttribute("CallbackCost", DoubleValue(3500.0));
        st->SetAttribute("ShmEnqueueCost", DoubleValue(700.0));
        st->SetAttribute("ShmCopyCostPerByte", DoubleValue(35.0));
        RtiMessage tar = st->NewMessage(RtiMessage::TIME_ADVANCE_REQUEST);
        NS_TEST_ASSERT_MSG_EQ(tar.GetSerializedSize(), 54, "46-byte header + an 8-byte time");
        Ptr<RtiLrc> s = pair.lrc[0];
        Time granted(-1);
        Time enabled(-1);
        // The enable is a message too (ENABLE_TIME_REGULATION, 46 + 8 bytes; its answer
        // TIME_REGULATION_ENABLED the same): the same steps, 55.4 us to the RTI's callback.
        Simulator::Schedule(Seconds(0.5), [&]() {
            NS_TEST_EXPECT_MSG_EQ(
                st->NewMessage(RtiMessage::ENABLE_TIME_REGULATION).GetSerializedSize(),
                54,
                "46-byte header + the lookahead");
            s->EnableTimeManagement(MilliSeconds(1),
                                    Callback<void>([&enabled]() { enabled = Simulator::Now(); }));
        });
        Simulator::Schedule(Seconds(1), [&]() {
            s->RequestAdvance(MilliSeconds(10),
                              Callback<void>([&granted]() { granted = Simulator::Now(); }));
        });
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(enabled - Seconds(0.5),
                              NanoSeconds(55400),
                              "hand-summed enable round trip");
        NS_TEST_ASSERT_MSG_EQ(s->IsTimeManagementEnabled(), true, "enabled");
        NS_TEST_ASSERT_MSG_EQ(granted - Seconds(1), NanoSeconds(55400), "hand-summed round trip");
        NS_TEST_ASSERT_MSG_EQ(s->GetFedex()->GetTimeMessages(), 2, "the enable and one request");
        NS_TEST_ASSERT_MSG_EQ(s->GetGrantsRead(), 1, "one grant read");
        Simulator::Destroy();
    }
};

/**
 * RTI-SM read cycles (ReadCycleCost), hand-computed: a reader with a per-message cost c = 60 us
 * and a per-cycle cost W = 80 us. At one message every 200 us (> c + W) each cycle reads one
 * message and W is off the latency (equal to the run with W = 0). At one every 100 us (between
 * c and c + W, i.e. above 1 / (c + W) = 7 143 Hz) the reader falls behind once, then reads in
 * cycles of two (W + 2c = 200 us = 2 periods) and keeps up; with W = 0 it reads one at a time.
 */
class ReadCycleTest : public TestCase
{
  public:
    ReadCycleTest()
        : TestCase("RTI-SM read cycles: the cycle's cost once per burst, off the latency")
    {
    }

  private:
    /** What one run gives. */
    struct Outcome
    {
        uint64_t sent{0};             //!< updates sent
        uint64_t read{0};             //!< updates reflected
        std::vector<uint32_t> cycles; //!< messages per read cycle, in order
        std::vector<Time> latency;    //!< reflect time - tag, in order
    };

    /**
     * Send 200 updates at one period to a reader on another shielded CPU of a 700 MHz iHawk.
     * @param period the sender's period
     * @param cycleUs ReadCycleCost in microseconds of the reader's CPU
     * @return the outcome
     */
    Outcome Run(Time period, double cycleUs)
    {
        // A per-clock factor of 1: the hand-computed costs are whole cycles (the test's pairs
        // fill two periods exactly, W + 2c = 200 us).
        ShmPair pair("cycles", 1.0);
        Ptr<RtiSettings> settings = pair.settings;
        std::vector<Ptr<RtiLrc>>& lrc = pair.lrc;
        // Reference cycles per microsecond of the 700 MHz Pentium III Xeon (factor 1 here).
        const double perUs = 700.0 / pair.host->GetReferenceCycleFactor();
        for (const char* a : {"CallCost",
                              "EncodeCost",
                              "TransportCost",
                              "DecodeCost",
                              "ShmEnqueueCost",
                              "ShmCopyCostPerByte",
                              "ReflectTailCost"})
        {
            settings->SetAttribute(a, DoubleValue(0.0));
        }
        settings->SetAttribute("CallbackCost", DoubleValue(60 * perUs));
        // The hand computation counts the RTI's costs only: no operating-system work.
        for (const char* a : {"SyscallCost", "WaitCost"})
        {
            pair.host->SetAttribute(a, DoubleValue(0.0));
        }
        settings->SetAttribute("ReadCycleCost", DoubleValue(cycleUs * perUs));
        Outcome o;
        lrc[1]->TraceConnectWithoutContext("ReadCycle", Callback<void, uint32_t>([&o](uint32_t k) {
                                               o.cycles.push_back(k);
                                           }));
        lrc[1]->SetReflectCallback(RtiLrc::ReflectCallback([&o](const RtiLrc::Reflection& r) {
            ++o.read;
            o.latency.push_back(Simulator::Now() - r.tag);
        }));
        for (uint32_t k = 0; k < 200; ++k)
        {
            Time at = Seconds(1) + period * int64_t(k);
            Simulator::Schedule(at, [&o, &lrc, at]() {
                ++o.sent;
                lrc[0]->Update(1, 512, at);
            });
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        // Slow enough for single reads: W is spent after the message, off its latency.
        Outcome slow0 = Run(MicroSeconds(200), 0);
        Outcome slowW = Run(MicroSeconds(200), 80);
        NS_TEST_ASSERT_MSG_EQ(slowW.read, 200, "every update read");
        NS_TEST_ASSERT_MSG_EQ(slowW.cycles.size(), 200, "one cycle per message");
        for (std::size_t i = 0; i < slowW.latency.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(slowW.latency[i], slow0.latency[i], "W off the latency");
        }
        // One every 100 us: more than 1 / (c + W), yet the reader keeps up by reading in pairs.
        Outcome fastW = Run(MicroSeconds(100), 80);
        NS_TEST_ASSERT_MSG_EQ(fastW.read, fastW.sent, "keeps up: every update read");
        std::size_t pairs = 0;
        for (std::size_t i = 5; i + 1 < fastW.cycles.size(); ++i)
        {
            pairs += fastW.cycles[i] == 2 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(pairs, fastW.cycles.size() - 6, "cycles of two after the start");
        // ~100 cycles of 2 for 200 messages (the first few single, the last possibly single).
        NS_TEST_ASSERT_MSG_LT_OR_EQ(fastW.cycles.size(), 105, "W paid once per pair");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(fastW.cycles.size(), 100, "W paid once per pair");
        Outcome fast0 = Run(MicroSeconds(100), 0);
        NS_TEST_ASSERT_MSG_EQ(fast0.cycles.size(), 200, "W = 0, c < period: one at a time");
        // A message waits for the cycle in progress: the latency grows with W at this rate
        // (at most c + W + c = 200 us after its send once in pairs).
        NS_TEST_ASSERT_MSG_GT(fastW.latency.back(), fast0.latency.back(), "latency rises");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(fastW.latency.back(),
                                    MicroSeconds(200 + 10),
                                    "bounded: the reader keeps up");
    }
};

/**
 * Federates on one 700 MHz iHawk, each on its own shielded CPU, joined to one federation over
 * an RTI profile: S publishes class 1, RS subscribes to it and publishes class 2, R subscribes
 * to class 2 (a pipeline; RS sends each reflection on). Each process's CPU time is summed from
 * the CPU's WorkDone trace.
 */
struct Pipeline
{
    Ptr<HostPlatform> host;        //!< the machine
    Ptr<RtiSettings> settings;     //!< the RTI
    std::vector<Ptr<RtiLrc>> lrc;  //!< S, RS, R
    std::map<uint32_t, Time> busy; //!< pid -> process CPU time
    std::vector<Time> latency;     //!< R: reflect time - tag

    /**
     * Build it.
     * @param rti the RTI profile
     * @param hostChanges HostPlatform attributes set over the iHawk profile's (doubles)
     * @param buffer UdpReceiveBuffer and SocketBufferCharge if not 0
     */
    Pipeline(const std::string& rti,
             const std::map<std::string, double>& hostChanges = {},
             std::pair<uint32_t, uint32_t> buffer = {0, 0})
    {
        NodeContainer n;
        n.Create(1);
        InternetStackHelper().Install(n);
        HostPlatformHelper helper("ihawk-redhawk-700");
        for (const auto& [name, value] : hostChanges)
        {
            helper.SetAttribute(name, DoubleValue(value));
        }
        if (buffer.first > 0)
        {
            helper.SetAttribute("UdpReceiveBuffer", UintegerValue(buffer.first));
            helper.SetAttribute("SocketBufferCharge", UintegerValue(buffer.second));
        }
        host = helper.Install(n.Get(0));
        host->AssignStreams(1);
        RtiHelper rtiHelper;
        rtiHelper.SetProfile(rti);
        settings = rtiHelper.GetSettings();
        Ptr<RtiExec> exec = CreateObject<RtiExec>();
        exec->Setup(host, settings);
        Ptr<RtiFedex> fedex = exec->CreateFederation("pipe");
        for (uint32_t i = 0; i < 3; ++i)
        {
            Ptr<HostProcess> proc = host->CreateProcess();
            proc->SetCore(1 + i);
            lrc.push_back(CreateObject<RtiLrc>());
            lrc[i]->Setup(proc, settings, Ipv4Address("127.0.0.1"));
            lrc[i]->Join(fedex, i == 0 ? "S" : i == 1 ? "RS" : "R");
        }
        lrc[0]->Publish(1);
        lrc[1]->Subscribe(1);
        lrc[1]->Publish(2);
        lrc[2]->Subscribe(2);
        Ptr<RtiLrc> rs = lrc[1];
        rs->SetReflectCallback(RtiLrc::ReflectCallback(
            [rs](const RtiLrc::Reflection& r) { rs->Update(2, r.bytes, r.tag); }));
        lrc[2]->SetReflectCallback(RtiLrc::ReflectCallback(
            [this](const RtiLrc::Reflection& r) { latency.push_back(Simulator::Now() - r.tag); }));
        host->GetCpu()->TraceConnectWithoutContext(
            "WorkDone",
            Callback<void, uint8_t, uint32_t, Time, Time>(
                [this](uint8_t prio, uint32_t owner, Time, Time service) {
                    if (prio == HostCpu::PROCESS && Simulator::Now() >= Seconds(1))
                    {
                        busy[owner] += service;
                    }
                }));
    }

    /**
     * S sends n updates of 512 bytes, one per period, from 1 s on; run to 2 s.
     * @param n updates
     * @param period their spacing
     */
    void Run(uint32_t n, Time period)
    {
        for (uint32_t k = 0; k < n; ++k)
        {
            Time at = Seconds(1) + period * int64_t(k);
            Ptr<RtiLrc> s = lrc[0];
            Simulator::Schedule(at, [s, at]() { s->Update(1, 512, at); });
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();
    }

    /**
     * @param i federate index
     * @return its CPU time
     */
    Time Busy(uint32_t i)
    {
        return busy[lrc[i]->GetProcess()->GetPid()];
    }
};

/**
 * Per-job charging: a reader pays the read side, a sender the send side, the relay both, so on
 * one CPU a one-job federate is never slower than the relay. Hand-computed on the iHawk 700
 * (RTI-SM, ReferenceCycleFactor 1.1, K = 5 100 R10000 cycles per operation): per message the
 * Receiver is woken (WaitCost 960, on the message's path), spends its semaphore operation
 * (430 cycles) and transport + decode + callback (3 x 5 610); the relay spends the same plus the
 * send side (call + encode + transport, 3 x 5 610; the queue bookkeeping and copy,
 * (1 000 + 586) x 1.1;
 * the semaphore post, 430). Messages 1 ms apart: one read cycle per message.
 */
class PerJobChargingTest : public TestCase
{
  public:
    PerJobChargingTest()
        : TestCase("Per-job charging: a one-job federate is never slower than the relay")
    {
    }

  private:
    void DoRun() override
    {
        Pipeline p("tno-rti-sm");
        const uint32_t n = 20;
        p.Run(n, MilliSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(p.latency.size(), n, "every update through");
        const double f = 700e6;
        const double read = 430 + 3 * 5610 + 960;
        const double send = 3 * 5610 + (1000 + 586) * 1.1 + 430;
        // Each work item's time is rounded to the nanosecond: allow 3 ns per item.
        NS_TEST_ASSERT_MSG_EQ_TOL(p.Busy(2).GetSeconds(), n * read / f, n * 3e-9 * 3, "R");
        NS_TEST_ASSERT_MSG_EQ_TOL(p.Busy(1).GetSeconds(),
                                  n * (read + send) / f,
                                  n * 5e-9 * 3,
                                  "RS pays both sides");
        NS_TEST_ASSERT_MSG_EQ_TOL(p.Busy(0).GetSeconds(), n * send / f, n * 3e-9 * 3, "S");
        // The invariant: one job never costs more than two on the same CPU.
        NS_TEST_ASSERT_MSG_LT(p.Busy(2), p.Busy(1), "the Receiver is not slower than the relay");
        NS_TEST_ASSERT_MSG_LT(p.Busy(0), p.Busy(1), "the Sender is not slower than the relay");
        Simulator::Destroy();
    }
};

/**
 * Layered costs: RTI-DM and RTI-SM share their upper layers (one set of values), and the
 * difference between them is the lowest layer: on one host (DM over the loopback), the
 * relay's CPU time per message differs by exactly the host's socket work minus its semaphore
 * operations and RTI-SM's queue bookkeeping; with those zeroed, the two are equal.
 */
class LayeredCostTest : public TestCase
{
  public:
    LayeredCostTest()
        : TestCase("Layered RTI: RTI-DM and RTI-SM share the upper layers; the difference is "
                   "the lowest layer's host work")
    {
    }

  private:
    void DoRun() override
    {
        RtiHelper dm;
        dm.SetProfile("tno-rti-dm");
        RtiHelper sm;
        sm.SetProfile("tno-rti-sm");
        for (const char* a : {"CallCost",
                              "EncodeCost",
                              "EncodeCostPerByte",
                              "DecodeCost",
                              "DecodeCostPerByte",
                              "CallbackCost",
                              "TransportCost",
                              "ReflectTailCost",
                              "ReadCycleCost"})
        {
            DoubleValue x;
            DoubleValue y;
            dm.GetSettings()->GetAttribute(a, x);
            sm.GetSettings()->GetAttribute(a, y);
            NS_TEST_ASSERT_MSG_EQ(x.Get(), y.Get(), std::string("shared upper layer: ") + a);
        }
        const uint32_t n = 20;
        // Host costs of the socket and semaphore paths (iHawk 700, cycles), DM's off path too.
        const std::map<std::string, double> noOs{{"SyscallCost", 0},
                                                 {"SendCost", 0},
                                                 {"RecvCost", 0},
                                                 {"SendOffPathCost", 0},
                                                 {"RecvOffPathCost", 0},
                                                 {"WaitCost", 0},
                                                 {"TxCompletionCost", 0}};
        auto relay = [n](const std::string& rti,
                         const std::map<std::string, double>& changes,
                         bool noQueue) {
            Pipeline p(rti, changes);
            if (noQueue)
            {
                p.settings->SetAttribute("ShmEnqueueCost", DoubleValue(0));
                p.settings->SetAttribute("ShmCopyCostPerByte", DoubleValue(0));
            }
            p.Run(n, MilliSeconds(1));
            Time t = p.Busy(1);
            NS_ASSERT(p.latency.size() == n);
            Simulator::Destroy();
            return t;
        };
        Time dm0 = relay("tno-rti-dm", noOs, false);
        Time sm0 = relay("tno-rti-sm", noOs, true);
        NS_TEST_ASSERT_MSG_EQ(dm0, sm0, "without the lowest layer, RTI-DM and RTI-SM are one RTI");
        Time dmFull = relay("tno-rti-dm", {}, false);
        Time smFull = relay("tno-rti-sm", {}, false);
        // Per message: DM pays recvfrom 760 + sendto 2 020 + its empty read 430, SM two
        // semaphore operations 2 x 430 and the queue (1 000 + 586) x 1.1; both are woken once
        // (WaitCost 960).
        const double dmOs = 760 + 2020 + 430 + 960;
        const double smOs = 2 * 430 + (1000 + 586) * 1.1 + 960;
        NS_TEST_ASSERT_MSG_EQ_TOL((dmFull - smFull).GetSeconds(),
                                  n * (dmOs - smOs) / 700e6,
                                  n * 8e-9,
                                  "the SM/DM difference is the lowest layer's work");
        NS_TEST_ASSERT_MSG_EQ_TOL((dmFull - dm0).GetSeconds(),
                                  n * dmOs / 700e6,
                                  n * 8e-9,
                                  "DM's OS part is the host's");
    }
};

/**
 * Overload that drops: a UDP reader takes a datagram from its socket only when its process
 * reads; a reader kept busy for 10 ms while 10 datagrams arrive keeps what its receive buffer
 * holds (3 x 2 208 bytes: 3 datagrams) and loses the other 7, then reads the 3.
 */
class SocketBufferTest : public TestCase
{
  public:
    SocketBufferTest()
        : TestCase("RTI-DM: datagrams wait in the socket; a full receive buffer drops")
    {
    }

  private:
    void DoRun() override
    {
        Pipeline p("tno-rti-dm", {}, {3 * 2208, 2208});
        Ptr<HostProcess> rs = p.lrc[1]->GetProcess();
        Simulator::Schedule(Seconds(1) - MicroSeconds(1),
                            [rs]() { rs->Execute(MilliSeconds(10)); });
        p.Run(10, MicroSeconds(500));
        NS_TEST_ASSERT_MSG_EQ(p.lrc[1]->GetSocketDrops(), 7, "10 - 3 datagrams dropped");
        NS_TEST_ASSERT_MSG_EQ(p.lrc[1]->GetReflected(), 3, "the 3 the buffer held are read");
        NS_TEST_ASSERT_MSG_EQ(p.latency.size(), 3, "and sent on");
        Simulator::Destroy();
    }
};

/**
 * Receive-path variability (HostNic ColdLines): a frame's delivery takes the interrupt and
 * driver (2 000 cycles at 1 GHz) and the stack (1 000), plus its cold lines at the CPU's memory
 * latency (100 ns each): 10 lines give exactly 4 us; uniform 0-20 lines over 2 000 frames lie
 * in [3, 5] us with a mean of 4 us (the mean of 2 000 draws of a uniform of standard deviation
 * 0.577 us: within 5 sigma = 0.065 us).
 */
class ColdLinesTest : public TestCase
{
  public:
    ColdLinesTest()
        : TestCase("HostNic ColdLines: per-frame receive-path variability, hand-computed")
    {
    }

  private:
    std::vector<Time> Run(const std::string& lines, uint32_t frames)
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("Frequency", DoubleValue(1e9));
        cpu->SetAttribute("MemoryLatency", TimeValue(NanoSeconds(100)));
        Ptr<HostNic> nic = CreateObject<HostNic>();
        nic->SetAttribute("InterruptCost", DoubleValue(1000));
        nic->SetAttribute("DriverCost", DoubleValue(1000));
        nic->SetAttribute("StackCost", DoubleValue(1000));
        nic->SetAttribute("ColdLines", StringValue(lines));
        nic->AssignStreams(7);
        std::vector<Time> latency;
        std::vector<Time> sent;
        nic->Setup(cpu,
                   nullptr,
                   HostNic::DeliverCallback([&](Ptr<NetDevice>,
                                                Ptr<const Packet>,
                                                uint16_t,
                                                const Address&,
                                                const Address&,
                                                NetDevice::PacketType) {
                       latency.push_back(Simulator::Now() - sent[latency.size()]);
                   }));
        for (uint32_t k = 0; k < frames; ++k)
        {
            Time at = MilliSeconds(1) * int64_t(k + 1);
            sent.push_back(at);
            Simulator::Schedule(at, [nic]() {
                nic->Receive(nullptr,
                             Create<Packet>(100),
                             0x0800,
                             Address(),
                             Address(),
                             NetDevice::PACKET_HOST);
            });
        }
        Simulator::Run();
        Simulator::Destroy();
        return latency;
    }

    void DoRun() override
    {
        std::vector<Time> ten = Run("ns3::ConstantRandomVariable[Constant=10]", 3);
        NS_TEST_ASSERT_MSG_EQ(ten.size(), 3, "delivered");
        for (Time t : ten)
        {
            NS_TEST_ASSERT_MSG_EQ(t, MicroSeconds(4), "2 us handler + 1 us stack + 10 x 100 ns");
        }
        std::vector<Time> uni = Run("ns3::UniformRandomVariable[Min=0|Max=20]", 2000);
        double sum = 0;
        for (Time t : uni)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(t, MicroSeconds(3), "no fewer than 0 lines");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(t, MicroSeconds(5), "no more than 20 lines");
            sum += t.GetSeconds();
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(sum / uni.size(), 4e-6, 0.065e-6, "mean: 10 lines");
    }
};

/**
 * @ingroup testbed-tests
 * The switch's free-running arbiter: a sender whose period is a whole number of arbitration
 * cycles in true time (10 ms = 625 cycles of 16 us, the network measurement's period) is not
 * phase-locked to the grants. With a rate offset the waits of one run are uniform over the
 * cycle (Kolmogorov-Smirnov distance to U(0, cycle) below the 5 % critical value
 * 1.36 / sqrt(n)); with the phase drawn per run, one frame's wait over independent runs is
 * U(0, cycle) (1 % critical value 1.63 / sqrt(n)); the mean wait is half the cycle for cycles
 * of 15, 16 and 17 us, so the latency follows the cycle smoothly.
 */
class FreeRunningArbiterTest : public TestCase
{
  public:
    FreeRunningArbiterTest()
        : TestCase("Switch arbiter on its own clock: uniform wait for a period of whole cycles")
    {
    }

  private:
    std::vector<Time> m_served;

    void Served(const SwitchFabric::Frame& f)
    {
        m_served.push_back(Simulator::Now());
    }

    Ptr<SwitchFabric> Make(Time cycle, double offsetPpm, double tolerancePpm)
    {
        Ptr<SwitchFabric> fab = CreateObject<SwitchFabric>();
        fab->SetAttribute("ArbitrationCycle", TimeValue(cycle));
        fab->SetAttribute("ArbitrationSlots", UintegerValue(16));
        fab->SetAttribute("BusRate", DataRateValue(DataRate("1Gbps")));
        fab->SetAttribute("ArbitrationFreeRunning", BooleanValue(true));
        fab->SetAttribute("ArbitrationClockOffset", DoubleValue(offsetPpm));
        fab->SetAttribute("ArbitrationClockTolerance", DoubleValue(tolerancePpm));
        fab->SetForwardCallback(MakeCallback(&FreeRunningArbiterTest::Served, this));
        return fab;
    }

    /**
     * Kolmogorov-Smirnov distance of samples to U(0, 1).
     * @param u the samples, in [0, 1]
     * @return sup |F_n - F|
     */
    static double KsUniform(std::vector<double> u)
    {
        std::sort(u.begin(), u.end());
        const double n = u.size();
        double d = 0;
        for (size_t i = 0; i < u.size(); ++i)
        {
            d = std::max({d, (i + 1) / n - u[i], u[i] - i / n});
        }
        return d;
    }

    /**
     * The waits (in cycles) of frames sent on port 0 every @p period, @p n of them.
     * @param cycle the arbitration cycle
     * @param offsetPpm the arbiter's fixed rate offset
     * @param period the sender's period
     * @param n frames
     * @return each frame's wait for its grant, as a fraction of the cycle
     */
    std::vector<double> Waits(Time cycle, double offsetPpm, Time period, uint32_t n)
    {
        // 100 bytes + Ethernet header and FCS (18) = 118 bytes: 944 ns at 1 Gbit/s.
        const Time bus = NanoSeconds(944);
        SwitchFabric::Frame p0{Create<Packet>(100), 0, 0x0800, Mac48Address(), Mac48Address()};
        m_served.clear();
        Ptr<SwitchFabric> fab = Make(cycle, offsetPpm, 0);
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(period * (i + 1), &SwitchFabric::Ingress, fab, p0);
        }
        Simulator::Run();
        Simulator::Destroy();
        std::vector<double> w;
        for (uint32_t i = 0; i < n; ++i)
        {
            w.push_back((m_served.at(i) - period * (i + 1) - bus).GetSeconds()
                        / cycle.GetSeconds());
        }
        return w;
    }

    void DoRun() override
    {
        const Time period = MilliSeconds(10);
        // One run, a 37 ppm arbiter: the phase moves 0.37 us a frame, 2 000 frames.
        const uint32_t n = 2000;
        std::vector<double> w = Waits(MicroSeconds(16), 37, period, n);
        NS_TEST_ASSERT_MSG_LT(KsUniform(w), 1.36 / std::sqrt(n), "one run's waits U(0, cycle)");
        // Insensitive to +-1 us of cycle: the mean wait is half the cycle (the variance of a
        // mean of n uniform waits is tiny; 3 % covers the sequence's discrepancy).
        for (int c : {15, 16, 17})
        {
            std::vector<double> wc = Waits(MicroSeconds(c), 37, period, n);
            const double mean = std::accumulate(wc.begin(), wc.end(), 0.0) / n;
            NS_TEST_ASSERT_MSG_EQ_TOL(mean, 0.5, 0.015, "mean wait of a " << c << " us cycle");
        }
        // No rate offset: the phase alone, drawn per run; one frame at 10 ms in 400 runs.
        SwitchFabric::Frame p0{Create<Packet>(100), 0, 0x0800, Mac48Address(), Mac48Address()};
        std::vector<double> first;
        for (uint32_t r = 0; r < 400; ++r)
        {
            m_served.clear();
            Ptr<SwitchFabric> fab = Make(MicroSeconds(16), 0, 0);
            Simulator::Schedule(period, &SwitchFabric::Ingress, fab, p0);
            Simulator::Run();
            Simulator::Destroy();
            first.push_back((m_served.at(0) - period - NanoSeconds(944)).GetSeconds() / 16e-6);
        }
        NS_TEST_ASSERT_MSG_LT(KsUniform(first), 1.63 / std::sqrt(400.0), "phase U(0, cycle)");
    }
};

/**
 * The wake-up of a blocked reader is on the message's path, the same way on RTI-DM and
 * RTI-SM: with messages 1 ms apart every reader (the relay and the Receiver) blocks between
 * them, so the mean latency grows by exactly two of the host's WaitCost (960 cycles at 700 MHz
 * each) over the same run with WaitCost 0, on either transport.
 */
class WakeOnPathTest : public TestCase
{
  public:
    WakeOnPathTest()
        : TestCase("RTI-DM and RTI-SM: a blocked reader's wake-up (WaitCost) is on the path")
    {
    }

  private:
    static double MeanLatency(const std::string& rti, double waitCycles)
    {
        Pipeline p(rti, {{"WaitCost", waitCycles}});
        p.Run(20, MilliSeconds(1));
        NS_ASSERT(p.latency.size() == 20);
        Time sum;
        for (Time t : p.latency)
        {
            sum += t;
        }
        Simulator::Destroy();
        return sum.GetSeconds() / 20;
    }

    void DoRun() override
    {
        for (const char* rti : {"tno-rti-dm", "tno-rti-sm"})
        {
            const double with = MeanLatency(rti, 960);
            const double without = MeanLatency(rti, 0);
            NS_TEST_ASSERT_MSG_EQ_TOL(with - without,
                                      2 * 960 / 700e6,
                                      5e-9,
                                      rti << ": two wake-ups on the path");
        }
    }
};

/**
 * lmbench's lat_pipe in the model: a one-way message through a shared-memory queue with no RTI
 * work (every RTI and queue cost 0), from the writer's post to the blocked reader's return from
 * its semaphore operation, is the writer's system call, the reader's wake-up on its own CPU
 * (scheduling latency, set to 0 here: lat_pipe's processes share the machine's CPUs), the
 * blocking call's rest (WaitCost) and the reader's system call: each profile's lmbench pipe
 * one way (IRIX 22 400 cycles, Pentium III 1 820, Pentium 4 5 900; doc/tno.rst).
 */
class PipeOneWayTest : public TestCase
{
  public:
    PipeOneWayTest()
        : TestCase("A one-way pipe in the model is each host profile's lmbench lat_pipe")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::tuple<std::string, double, double>> hosts{
            {"onyx-irix65-250", 22400, 250e6},
            {"ihawk-redhawk-700", 1820, 700e6},
            {"ihawk-redhawk-2400", 5900, 2400e6}};
        for (const auto& [profile, pipeCycles, f] : hosts)
        {
            NodeContainer n;
            n.Create(1);
            InternetStackHelper().Install(n);
            HostPlatformHelper helper(profile);
            helper.SetAttribute("SchedulingLatency",
                                StringValue("ns3::ConstantRandomVariable[Constant=0]"));
            Ptr<HostPlatform> host = helper.Install(n.Get(0));
            host->GetCpu()->SetAttribute("ShieldedInterferenceRate", DoubleValue(0));
            host->GetCpu()->SetAttribute("ContextSwitchCost", DoubleValue(0));
            RtiHelper rtiHelper;
            rtiHelper.SetProfile("tno-rti-sm");
            Ptr<RtiSettings> settings = rtiHelper.GetSettings();
            for (const char* a : {"CallCost",
                                  "EncodeCost",
                                  "EncodeCostPerByte",
                                  "DecodeCost",
                                  "DecodeCostPerByte",
                                  "CallbackCost",
                                  "TransportCost",
                                  "ShmEnqueueCost",
                                  "ShmCopyCostPerByte"})
            {
                settings->SetAttribute(a, DoubleValue(0));
            }
            Ptr<RtiExec> exec = CreateObject<RtiExec>();
            exec->Setup(host, settings);
            Ptr<RtiFedex> fedex = exec->CreateFederation("pipe");
            std::vector<Ptr<RtiLrc>> lrc;
            for (uint32_t i = 0; i < 2; ++i)
            {
                Ptr<HostProcess> proc = host->CreateProcess();
                proc->SetCore(1);
                lrc.push_back(CreateObject<RtiLrc>());
                lrc[i]->Setup(proc, settings, Ipv4Address("127.0.0.1"));
                lrc[i]->Join(fedex, i == 0 ? "W" : "R");
            }
            // Writer and reader on one shielded CPU, as lmbench's processes may share one: the
            // writer has nothing left to do after its post, so the reader gets the CPU.
            lrc[0]->Publish(1);
            lrc[1]->Subscribe(1);
            Time got;
            lrc[1]->SetReflectCallback(RtiLrc::ReflectCallback(
                [&got](const RtiLrc::Reflection& r) { got = Simulator::Now() - r.tag; }));
            Ptr<RtiLrc> w = lrc[0];
            Simulator::Schedule(Seconds(1), [w]() { w->Update(1, 512, Seconds(1)); });
            Simulator::Stop(Seconds(2));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ_TOL(got.GetSeconds(),
                                      pipeCycles / f,
                                      3e-9,
                                      profile << ": lmbench's pipe one way");
            Simulator::Destroy();
        }
    }
};

/**
 * A paced sleep to an absolute time already past costs the call only: a Sender whose action
 * takes 50 us (35 000 cycles at 700 MHz, factor 1) in frames of 10 us runs late from its
 * first frame; each wait is one system call (TimerCalls 1: SyscallCost 430 cycles) that
 * returns at once, so its actions start exactly 50 us + 430 cycles apart, with no timer and
 * no wake-up (the profile's scheduling latency, 2-6 us, would otherwise come on top). A
 * Sender on time pays the call, then sleeps to its time and is woken.
 */
class PastSleepTest : public TestCase
{
  public:
    PastSleepTest()
        : TestCase("RCI: a paced wait for a time already past costs the call only")
    {
    }

  private:
    static std::vector<Time> Starts(Time frame, std::vector<Time>* lateness = nullptr)
    {
        ShmPair pair("past", 1.0);
        // No sporadic events on the shielded CPU (its 100 Hz tick would add 2.5 us to a frame).
        pair.host->GetCpu()->SetAttribute("ShieldedInterferenceRate", DoubleValue(0));
        Ptr<RciFederate> f = CreateObject<RciFederate>();
        f->SetAttribute("ActionCost", DoubleValue(35000));
        f->SetAttribute("ClockReads", UintegerValue(0));
        f->SetAttribute("TimerCalls", UintegerValue(1));
        f->Setup(pair.lrc[0], RciSchedule::Control(frame, 0, 1, 0));
        std::vector<Time> starts;
        f->TraceConnectWithoutContext(
            "Action",
            Callback<void, const std::string&, Time, Time>(
                [&starts, lateness](const std::string&, Time scheduled, Time start) {
                    starts.push_back(start);
                    if (lateness)
                    {
                        lateness->push_back(start - scheduled);
                    }
                }));
        f->Start(Seconds(1));
        Simulator::Schedule(Seconds(1.01), &RciFederate::Stop, f);
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        Simulator::Destroy();
        return starts;
    }

    void DoRun() override
    {
        std::vector<Time> late = Starts(MicroSeconds(10));
        NS_TEST_ASSERT_MSG_GT(late.size(), 100u, "actions run");
        const Time step = MicroSeconds(50) + NanoSeconds(614); // 430 cycles: 614.3 ns
        for (std::size_t i = 2; i < late.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(late[i] - late[i - 1],
                                      step,
                                      NanoSeconds(2),
                                      "back to back: the action and the call only");
        }
        // On time (frames of 1 ms): each action starts after its time by the wake-up alone.
        std::vector<Time> lateness;
        Starts(MilliSeconds(1), &lateness);
        NS_TEST_ASSERT_MSG_GT(lateness.size(), 5u, "actions run");
        for (std::size_t i = 1; i < lateness.size(); ++i)
        {
            const Time late1 = lateness[i];
            NS_TEST_ASSERT_MSG_GT_OR_EQ(late1, MicroSeconds(2), "woken by its timer");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(late1, MicroSeconds(6) + NanoSeconds(2), "2-6 us");
        }
    }
};

class TnoTestSuite : public TestSuite
{
  public:
    TnoTestSuite()
        : TestSuite("testbed-tno", Type::UNIT)
    {
        AddTestCase(new RciScheduleGoodTest, TestCase::Duration::QUICK);
        AddTestCase(new RciScheduleBadTest, TestCase::Duration::QUICK);
        AddTestCase(new RciScheduleTextTest, TestCase::Duration::QUICK);
        AddTestCase(new ShieldingTest, TestCase::Duration::QUICK);
        AddTestCase(new InterferenceTest, TestCase::Duration::QUICK);
        AddTestCase(new UpdateSizeTest, TestCase::Duration::QUICK);
        AddTestCase(new NodeClockTest, TestCase::Duration::QUICK);
        AddTestCase(new NtpSlewTest, TestCase::Duration::QUICK);
        AddTestCase(new ClockCardTest, TestCase::Duration::QUICK);
        AddTestCase(new UtcTmTest, TestCase::Duration::QUICK);
        AddTestCase(new HlaTmTest, TestCase::Duration::QUICK);
        AddTestCase(new TimeMessageRoundTripTest, TestCase::Duration::QUICK);
        AddTestCase(new ReadCycleTest, TestCase::Duration::QUICK);
        AddTestCase(new PerJobChargingTest, TestCase::Duration::QUICK);
        AddTestCase(new LayeredCostTest, TestCase::Duration::QUICK);
        AddTestCase(new SocketBufferTest, TestCase::Duration::QUICK);
        AddTestCase(new ColdLinesTest, TestCase::Duration::QUICK);
        AddTestCase(new FreeRunningArbiterTest, TestCase::Duration::QUICK);
        AddTestCase(new WakeOnPathTest, TestCase::Duration::QUICK);
        AddTestCase(new PipeOneWayTest, TestCase::Duration::QUICK);
        AddTestCase(new PastSleepTest, TestCase::Duration::QUICK);
    }
};

TnoTestSuite g_tnoTestSuite; //!< registers the suite

} // namespace
