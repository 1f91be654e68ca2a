/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [MEGA06] multiplexing: how many send_udp processes one Group A PC runs. One sender PC and one
 * receiver PC; the PC's launcher starts --nodes send_udp processes one after another (fork +
 * execve each, on the PC's CPU, each taking the process's memory); the record holds the packets
 * sent per time bin after the launch (Fig. 5), the send-interval statistics in an observation
 * window once every process runs (Fig. 7), how many processes the memory held (Fig. 6), the
 * cache refill per wake-up and the CPU shares.
 *
 *   ./mega-multiplex --nodes=5000 --duration=5 --output=r.json
 */

#include "mega06-testbed.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MegaMultiplex");

namespace
{

Time g_launch;                //!< the launch starts
Time g_bin;                   //!< bin width of the rate series
std::vector<double> g_bins;   //!< packets sent per bin after the launch
Time g_obsStart{Time::Max()}; //!< observation window start (once every process runs)
Time g_obsEnd{Time::Max()};   //!< observation window end

/**
 * send_udp sent a packet: count it in its bin after the launch.
 * @param node virtual-node id
 * @param serial serial number
 * @param ts timestamp
 */
void
Sent(uint32_t /* node */, uint32_t /* serial */, Time ts)
{
    const auto b = static_cast<std::size_t>((ts - g_launch).GetDouble() / g_bin.GetDouble());
    if (b < g_bins.size())
    {
        g_bins[b] += 1;
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    Mega06TestbedConfig config;
    Mega06HostOptions hostOptions;
    uint32_t nodes = 1;
    double duration = 5;
    double settle = 1.1;
    double maxLaunch = 60;
    double bin = 0.25;
    double seriesLength = 20;
    uint32_t memoryMb = 0;
    std::string role;

    ProgramOptions opts("mega-multiplex",
                        "[MEGA06] multiplexing: N send_udp processes launched on one Group A PC; "
                        "rate after launch, send-interval statistics, memory cap");
    // The study ran up to 10 000 processes per PC; 10^5 bounds the per-process state.
    opts.Add("nodes", "send_udp processes to launch on the sender PC", nodes, 1, 100000);
    // Up to an hour of observation (the study observed 180 s).
    opts.Add("duration",
             "observation window once every process runs (s; 0: none)",
             duration,
             0,
             3600,
             "s");
    // At least 0.2 s: the end of the launch is seen by a poll every 0.1 s, up to 0.1 s late,
    // and the window's first snapshot must still be ahead (with 0.01 s the run aborted).
    opts.Add("settle",
             "the window starts this long after the last process started (s; >= one interval "
             "so that every process has slept once)",
             settle,
             0.2,
             60,
             "s");
    // 10^5 launches of 0.5 ms each take under a minute; the bound stops a run that never ends.
    opts.Add("maxLaunch",
             "give up if the launch takes longer than this (s)",
             maxLaunch,
             1,
             3600,
             "s");
    opts.Add("bin", "bin width of the packets-per-second series (s)", bin, 0.01, 10, "s");
    opts.Add("seriesLength",
             "length of the packets-per-second series after the launch (s)",
             seriesLength,
             0.1,
             3600,
             "s");
    // 0 keeps the profile's installed memory (512 MB for the StarBED PC); up to 64 GB.
    opts.Add("memoryMb",
             "installed memory of the sender PC in MB (0: the profile's)",
             memoryMb,
             0,
             65536,
             "MB");
    hostOptions.Add(opts, config);
    opts.Add("role", "a label for the campaign (recorded, no effect)", role);
    ResultRecord& rec = opts.Record();
    rec.Declare("role", ResultRecord::STRING, "--role (a label)")
        .Declare("nodes", ResultRecord::INT, "send_udp processes asked for (--nodes)")
        .Declare("profile", ResultRecord::STRING, "host profile of the PCs")
        .Declare("memory_bytes", ResultRecord::INT, "installed memory of the sender PC (bytes)")
        .Declare("memory_used_bytes",
                 ResultRecord::INT,
                 "memory in use on the sender PC after the launch (bytes)")
        .Declare("process_memory_bytes",
                 ResultRecord::INT,
                 "memory one send_udp process takes (bytes)")
        .Declare("launched", ResultRecord::INT, "send_udp processes the launcher started")
        .Declare("launch_failed",
                 ResultRecord::BOOL,
                 "the launch stopped because fork found no memory")
        .Declare("launch_duration_s",
                 ResultRecord::REAL,
                 "from the launch to the last process started (s)")
        .Declare("bin_s", ResultRecord::REAL, "bin width of sent_pps (s)")
        .Declare("sent_pps",
                 ResultRecord::SERIES,
                 "packets sent per second in each bin after the launch (packets/s)")
        .Declare("duration_s", ResultRecord::REAL, "observation window (s)")
        .Declare("sent", ResultRecord::INT, "packets sent in the window")
        .Declare("send_rate_per_node",
                 ResultRecord::REAL,
                 "send rate per launched process in the window (packets/s)")
        .Declare("send_intervals", ResultRecord::INT, "send intervals measured in the window")
        .Declare("send_interval_mean_us", ResultRecord::REAL, "mean send interval (us)")
        .Declare("send_interval_std_us",
                 ResultRecord::REAL,
                 "standard deviation of the send interval, pooled over processes (us)")
        .Declare("send_interval_node_std_mean_us",
                 ResultRecord::REAL,
                 "mean over processes of each one's send-interval standard deviation (us)")
        .Declare("send_interval_node_std_max_us",
                 ResultRecord::REAL,
                 "largest per-process send-interval standard deviation (us)")
        .Declare("refill_us_per_wakeup",
                 ResultRecord::REAL,
                 "cache refill time per process wake-up in the window (us)")
        .Declare("sender_cpu_hardirq",
                 ResultRecord::REAL,
                 "sender PC CPU share in hard interrupts (0..1)")
        .Declare("sender_cpu_softirq", ResultRecord::REAL, "sender PC CPU share in softirqs (0..1)")
        .Declare("sender_cpu_process",
                 ResultRecord::REAL,
                 "sender PC CPU share in processes (0..1)")
        .Declare("sara_packets", ResultRecord::INT, "packets sara received")
        .Declare("sara_drops", ResultRecord::INT, "packets sara counted as lost")
        .Declare("events", ResultRecord::INT, "simulator events");
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() { hostOptions.Apply(config); });
    // Refused up front beyond --maxEvents/--maxMemory: the run lasts at most the launch
    // (--maxLaunch), --settle and the window, or the series.
    Mega06Work::SetBudgets(opts, [&]() {
        Mega06Work w;
        w.nodes = nodes;
        w.seconds = 0.5 + std::max(maxLaunch + 0.1 + settle + duration, seriesLength);
        w.pcs = 3;
        return w;
    });
    opts.Parse(argc, argv);

    config.senderPcs = 1;
    config.nodesPerPc = nodes;
    config.receivers = 1;
    config.sequentialLaunch = true;
    config.stopAt = Seconds(3600 * 2);
    Mega06Testbed tb = Mega06Testbed::Build(config);
    Ptr<HostPlatform> host = tb.senders.Get(0)->GetObject<HostPlatform>();
    if (memoryMb > 0)
    {
        UserAttributes::SetFixed(host,
                                 "Memory",
                                 UintegerValue(uint64_t(memoryMb) << 20),
                                 "from its option --memoryMb");
    }
    Ptr<SendUdp> app = tb.sendUdp[0];
    g_launch = config.sendAt;
    g_bin = Seconds(bin);
    g_bins.assign(static_cast<std::size_t>(std::ceil(seriesLength / bin)), 0.0);
    Mega06SentWindow sent;
    sent.Watch(app);
    app->TraceConnectWithoutContext("Send", MakeCallback(&Sent));

    // Once every process runs (or the memory ran out), observe; then stop.
    double cpu0[3] = {0, 0, 0};
    double cpu1[3] = {0, 0, 0};
    Time refill0;
    Time refill1;
    uint64_t iter0 = 0;
    uint64_t iter1 = 0;
    Ptr<HostCpu> cpu = host->GetCpu();
    auto snapshot = [&](double* c, Time& refill, uint64_t& iters) {
        c[0] = cpu->GetBusyTime(HostCpu::HARDIRQ).GetSeconds();
        c[1] = cpu->GetBusyTime(HostCpu::SOFTIRQ).GetSeconds();
        c[2] = cpu->GetBusyTime(HostCpu::PROCESS).GetSeconds();
        refill = cpu->GetRefillTotal();
        iters = app->GetSent();
    };
    bool timedOut = false;
    std::function<void()> poll = [&]() {
        if (app->GetLaunchEnd().IsPositive() || app->LaunchFailed())
        {
            g_obsStart = app->GetLaunchEnd() + Seconds(settle);
            g_obsEnd = g_obsStart + Seconds(duration);
            sent.SetWindow(g_obsStart, g_obsEnd);
            const Time seriesEnd = g_launch + Seconds(seriesLength);
            Simulator::Schedule(g_obsStart - Simulator::Now(),
                                [&]() { snapshot(cpu0, refill0, iter0); });
            Simulator::Schedule(g_obsEnd - Simulator::Now() - TimeStep(1),
                                [&]() { snapshot(cpu1, refill1, iter1); });
            Simulator::Stop(std::max(g_obsEnd, seriesEnd) - Simulator::Now());
            return;
        }
        if (Simulator::Now() > g_launch + Seconds(maxLaunch))
        {
            timedOut = true;
            Simulator::Stop();
            return;
        }
        Simulator::Schedule(MilliSeconds(100), poll);
    };
    Simulator::Schedule(g_launch, poll);
    opts.StartProgress(g_launch
                       + Seconds(std::max(seriesLength, nodes * 0.0006 + settle + duration)));
    Simulator::Run();
    ProgramOptions::Require(!timedOut, "--maxLaunch: the launch did not end in time");

    SaraTable::Summary snd = sent.GetSummary();
    SaraTable::Summary rcv = tb.sara[0]->GetTable().GetSummary();
    const double T = duration;
    const uint64_t wakeups = iter1 - iter0;
    std::vector<double> rate(g_bins.size());
    for (std::size_t i = 0; i < g_bins.size(); ++i)
    {
        rate[i] = g_bins[i] / bin;
    }

    rec.SetString("role", role);
    rec.SetInt("nodes", nodes);
    rec.SetString("profile", config.profile);
    UintegerValue mem;
    host->GetAttribute("Memory", mem);
    rec.SetInt("memory_bytes", static_cast<int64_t>(mem.Get()));
    rec.SetInt("memory_used_bytes", static_cast<int64_t>(host->GetMemoryUsed()));
    rec.SetInt("process_memory_bytes", static_cast<int64_t>(host->GetProcessMemory()));
    rec.SetInt("launched", app->GetLaunched());
    rec.SetBool("launch_failed", app->LaunchFailed());
    rec.Set("launch_duration_s", (app->GetLaunchEnd() - g_launch).GetSeconds());
    rec.Set("bin_s", bin);
    rec.SetSeries("sent_pps", rate);
    rec.Set("duration_s", T);
    rec.SetInt("sent", sent.GetCount());
    rec.Set("send_rate_per_node",
            T > 0 && app->GetLaunched() > 0 ? sent.GetCount() / double(app->GetLaunched()) / T
                                            : 0.0);
    rec.SetInt("send_intervals", snd.intervals);
    rec.Set("send_interval_mean_us", snd.pooledSendMean * 1e6);
    rec.Set("send_interval_std_us", snd.pooledSendStd * 1e6);
    rec.Set("send_interval_node_std_mean_us", snd.sendStdMean * 1e6);
    rec.Set("send_interval_node_std_max_us", snd.sendStdMax * 1e6);
    rec.Set("refill_us_per_wakeup",
            wakeups > 0 ? (refill1 - refill0).GetSeconds() * 1e6 / wakeups : 0.0);
    rec.Set("sender_cpu_hardirq", T > 0 ? (cpu1[0] - cpu0[0]) / T : 0.0);
    rec.Set("sender_cpu_softirq", T > 0 ? (cpu1[1] - cpu0[1]) / T : 0.0);
    rec.Set("sender_cpu_process", T > 0 ? (cpu1[2] - cpu0[2]) / T : 0.0);
    rec.SetInt("sara_packets", rcv.packets);
    rec.SetInt("sara_drops", rcv.drops);
    rec.SetInt("events", static_cast<int64_t>(opts.GetEventCount()));
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
