/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [GINE14] burst sending: hostA - GINE switch - hostB, all on the GINE PC. Host A pings host B
 * with preload (ping -l 15: fifteen echo requests back to back); for each request the send time
 * at A (ping's user-space timestamp) and the time it reaches B's IP layer are recorded. GINE's
 * queues on the switch's links handle packets only when its timer fires (TimerGatesAll), also
 * packets without delay, so the timer decides how the requests are spaced at B.
 *
 *   ./gine-burst --timer=rtc --RngRun=1 --output=r.json
 */

#include "gine-timer-helper.h"

#include "ns3/core-module.h"
#include "ns3/icmpv4.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("GineBurst");

namespace
{

std::map<uint16_t, Time> g_sent;     //!< echo request send time at A, by sequence number
std::map<uint16_t, Time> g_received; //!< echo request arrival at B's IP layer, by sequence

/**
 * ping's Tx trace.
 * @param seq sequence number
 * @param t user-space send time
 */
void
Sent(uint16_t seq, Time t)
{
    g_sent.emplace(seq, t);
}

/**
 * Ipv4L3Protocol Rx trace of host B: echo requests reaching its IP layer.
 * @param packet the packet (with its IP header)
 * @param ipv4 the protocol
 * @param interface the interface
 */
void
ReceivedAtB(Ptr<const Packet> packet, Ptr<Ipv4> ipv4, uint32_t interface)
{
    Ptr<Packet> p = packet->Copy();
    Ipv4Header ip;
    p->RemoveHeader(ip);
    if (ip.GetProtocol() != Icmpv4L4Protocol::PROT_NUMBER)
    {
        return;
    }
    Icmpv4Header icmp;
    p->RemoveHeader(icmp);
    if (icmp.GetType() != Icmpv4Header::ICMPV4_ECHO)
    {
        return;
    }
    Icmpv4Echo echo;
    p->RemoveHeader(echo);
    g_received.emplace(echo.GetSequenceNumber(), Simulator::Now());
}

/**
 * Mean of a sample.
 * @param x the sample
 * @return the mean
 */
double
Mean(const std::vector<double>& x)
{
    return std::accumulate(x.begin(), x.end(), 0.0) / x.size();
}

/**
 * Coefficient of variation (population standard deviation / mean).
 * @param x the sample
 * @return the CV
 */
double
Cv(const std::vector<double>& x)
{
    double m = Mean(x);
    double s = 0;
    for (double v : x)
    {
        s += (v - m) * (v - m);
    }
    return std::sqrt(s / x.size()) / m;
}

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    std::string timerName = "rtc";
    uint32_t count = 15;
    uint32_t size = 56;
    Time tcInterval = MicroSeconds(10);
    uint32_t packetSize = 43;
    Time delay = Seconds(0);
    DataRate rate(0);
    DataRate line("100Mbps");
    std::string hostProfile = "gine-i5-3337u-linux38";
    std::string hostSet;
    std::string profileFile;

    ProgramOptions opts("gine-burst",
                        "[GINE14] burst suppression: host A pings host B through GINE with "
                        "preload; send and receive instants of every packet");
    opts.AddChoice("timer",
                   "GINE's timer",
                   timerName,
                   {"rtc", "boosted", "tctimer", "nanosleep", "ideal"});
    opts.Add("count", "echo requests, all preloaded (ping -l COUNT -c COUNT)", count, 2, 1000);
    opts.Add("size", "ICMP data bytes (ping -s; one Ethernet frame)", size, 8, 1472, "bytes");
    opts.Add("tcInterval",
             "period asked of the (Boosted) TCTimer",
             tcInterval,
             NanoSeconds(100),
             Seconds(1));
    opts.Add("packetSize",
             "TCTimer packet length on lo (14 Ethernet + 20 IP + 8 UDP + data)",
             packetSize,
             42,
             65549,
             "bytes");
    opts.Add("delay", "GINE link delay, each direction", delay, Seconds(0), Seconds(10));
    opts.Add("bandwidth",
             "GINE link bandwidth, each direction (0bps: none)",
             rate,
             DataRate(0),
             DataRate("10Gbps"));
    opts.Add("linkRate",
             "line rate of the virtual Ethernet links",
             line,
             DataRate("1Mbps"),
             DataRate("10Gbps"));
    opts.AddHostProfile(hostProfile, "host profile of the GINE PC (the virtual hosts run on it)");
    opts.AddHostSet(hostSet);
    opts.AddProfileFile(profileFile);
    opts.AddDeprecated("profile", "hostProfile");
    ResultRecord& rec = opts.Record();
    rec.Declare("timer", ResultRecord::STRING, "--timer")
        .Declare("count", ResultRecord::INT, "--count")
        .Declare("send_us", ResultRecord::SERIES, "send time of each packet at A (us)")
        .Declare("recv_us",
                 ResultRecord::SERIES,
                 "arrival time of each packet at B's IP layer (us)")
        .Declare("delay_us", ResultRecord::SERIES, "delay of each packet, A to B (us)")
        .Declare("arrival_spacing_cv",
                 ResultRecord::REAL,
                 "coefficient of variation of the arrival spacing",
                 ResultRecord::SOMETIMES)
        .Declare("arrival_spacing_mean_us",
                 ResultRecord::REAL,
                 "mean arrival spacing at B (us)",
                 ResultRecord::SOMETIMES)
        .Declare("send_spacing_mean_us",
                 ResultRecord::REAL,
                 "mean send spacing at A (us)",
                 ResultRecord::SOMETIMES)
        .Declare("mean_delay_us", ResultRecord::REAL, "mean delay (us)", ResultRecord::SOMETIMES)
        .Declare("max_delay_us", ResultRecord::REAL, "largest delay (us)", ResultRecord::SOMETIMES)
        .Declare("timer_firings_a_to_b", ResultRecord::INT, "emulator timer firings, A to B")
        .Declare("tc_shaper_period_us",
                 ResultRecord::REAL,
                 "tc shaper period (us; tc timer only)",
                 ResultRecord::SOMETIMES)
        .Declare("sent", ResultRecord::INT, "echo requests host A sent")
        .Declare("received", ResultRecord::INT, "echo requests that arrived at host B")
        .Declare("lost",
                 ResultRecord::INT,
                 "echo requests that never arrived at B (sent - received)");
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        ProgramOptions::Require(rate.GetBitRate() == 0 || rate.GetBitRate() >= 1000,
                                "--bandwidth must be 0 (none) or at least 1kbps");
    });
    opts.Parse(argc, argv);

    // One GINE process, one timer for every queue.
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(2000);
    Ptr<TimerModel> timer = GineTimerHelper::Create(timerName, packetSize, tcInterval, u);

    // The GINE switch: a node forwarding between the two virtual links, GINE's queues on its
    // egress devices (per direction), handled only on timer events. The virtual hosts run on
    // the GINE PC (its profile, no NIC: virtual interfaces); the switch is GINE's own thread.
    EmulatedTestbedHelper helper;
    helper.SetDataRate(line);
    helper.SetEmulatorAttribute("Semantics", EnumValue(LinkEmulatorQueueDisc::NETEM));
    helper.SetEmulatorAttribute("TimerGatesAll", BooleanValue(true));
    helper.SetEmulatorAttribute("Delay", TimeValue(delay));
    helper.SetEmulatorAttribute("Rate", DataRateValue(rate));
    helper.SetEmulatorTimer(timer);
    helper.SetHostProfile(ProgramOptions::WithHostSet(hostProfile, hostSet));
    helper.SetInstallNics(false);
    EmulatedTestbed tb = helper.Install();
    helper.AssignStreams(tb, 2001);

    Ptr<HostPing> ping = CreateObject<HostPing>();
    UserAttributes::SetFixed(ping, "Remote", Ipv4AddressValue(tb.hostBAddress), "host B");
    UserAttributes::SetFixed(ping, "Count", UintegerValue(count), "from its option --count");
    UserAttributes::SetFixed(ping, "Preload", UintegerValue(count), "from its option --count");
    UserAttributes::SetFixed(ping, "Size", UintegerValue(size), "from its option --size");
    ping->TraceConnectWithoutContext("Tx", MakeCallback(&Sent));
    tb.hostA->AddApplication(ping);
    tb.hostB->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext("Rx",
                                                                      MakeCallback(&ReceivedAtB));
    // Start at an arbitrary moment (after a Boosted TCTimer's calibration).
    Time start = Seconds(1) + Seconds(u->GetValue(0.0, 1e-3));
    ping->SetStartTime(start);
    ping->SetStopTime(start + Seconds(1) + delay * 4);
    Simulator::Stop(start + Seconds(2) + delay * 4);
    Simulator::Run();

    // Requests lost on GINE's link are a result: the series and statistics are over the
    // requests that arrived (in sequence order), "lost" counts the others.
    NS_ABORT_MSG_IF(g_sent.size() > count || g_received.size() > g_sent.size(),
                    "sent " << g_sent.size() << ", received at B " << g_received.size() << " of "
                            << count);
    std::vector<double> sendUs;
    std::vector<double> recvUs;
    std::vector<double> delayUs;
    const Time t0 = g_sent.empty() ? Seconds(0) : g_sent.begin()->second;
    for (const auto& [seq, t] : g_sent)
    {
        auto it = g_received.find(seq);
        if (it == g_received.end())
        {
            continue;
        }
        Time r = it->second;
        sendUs.push_back((t - t0).GetSeconds() * 1e6);
        recvUs.push_back((r - t0).GetSeconds() * 1e6);
        delayUs.push_back((r - t).GetSeconds() * 1e6);
    }
    std::vector<double> arrivals = recvUs;
    std::sort(arrivals.begin(), arrivals.end());
    std::vector<double> gaps;
    for (std::size_t i = 1; i < arrivals.size(); ++i)
    {
        gaps.push_back(arrivals[i] - arrivals[i - 1]);
    }
    std::vector<double> sendGaps;
    for (std::size_t i = 1; i < sendUs.size(); ++i)
    {
        sendGaps.push_back(sendUs[i] - sendUs[i - 1]);
    }

    rec.SetString("timer", timerName);
    rec.SetInt("count", count);
    rec.SetInt("sent", g_sent.size());
    rec.SetInt("received", delayUs.size());
    rec.SetInt("lost", g_sent.size() - delayUs.size());
    rec.SetSeries("send_us", sendUs);
    rec.SetSeries("recv_us", recvUs);
    rec.SetSeries("delay_us", delayUs);
    if (gaps.size() >= 1)
    {
        rec.Set("arrival_spacing_cv", Cv(gaps));
        rec.Set("arrival_spacing_mean_us", Mean(gaps));
        rec.Set("send_spacing_mean_us", Mean(sendGaps));
    }
    if (!delayUs.empty())
    {
        rec.Set("mean_delay_us", Mean(delayUs));
        rec.Set("max_delay_us", *std::max_element(delayUs.begin(), delayUs.end()));
    }
    rec.SetInt("timer_firings_a_to_b", static_cast<int64_t>(tb.aToB->GetNTimerFirings()));
    if (auto tc = DynamicCast<TcTimer>(timer))
    {
        rec.Set("tc_shaper_period_us", tc->GetShaperPeriod().GetSeconds() * 1e6);
    }
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
