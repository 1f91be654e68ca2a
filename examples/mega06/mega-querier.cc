/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [MEGA06] section 4.4: the IGMP querier PC (mrouted) on the multicast-router port receives
 * every multicast frame; under the interrupt load its OS fails to send IGMP queries in time,
 * the snooping switch's port memberships time out and the receivers stop getting data.
 * Limiting the NIC's interrupt rate (e1000 InterruptThrottleRate) gives the CPU back.
 *
 * One configuration: the querier PC (mrouted, static router port, NIC MaxInterruptRate
 * --querierItr), one sender PC (nodesPerPc send_udp nodes) and receivers (ami + sara) on one group,
 * and the other senders' load (--loadPps frames/s, from the rest of the network to another group
 * joined there), IGMP timers scaled by --igmpTimeScale. The load starts at Query Interval / 2,
 * after the startup queries have been answered. The record holds the general queries (due, sent,
 * delays, on time), the memberships that timed out at the switch, the data the receivers got over
 * time, and the querier's CPU shares and NIC counters under load.
 *
 *   ./mega-querier --loadPps=100000 --querierItr=0 --igmpTimeScale=0.04 --output=r.json
 */

#include "mega06-testbed.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <cmath>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MegaQuerier");

namespace
{

std::vector<double> g_queryDue;           //!< due times of the general queries sent (s)
std::vector<double> g_queryDelay;         //!< their delays (s)
std::vector<double> g_timeoutAt;          //!< times of membership timeouts (s)
std::vector<double> g_timeoutGroupIsData; //!< 1 if the timed-out membership was the data group
std::vector<double> g_rxBins;             //!< packets accounted by all receivers, per bin
std::vector<double> g_txBins;             //!< packets sent by the observed senders, per bin
Time g_bin;                               //!< bin width
Ipv4Address g_group;                      //!< the data group

/**
 * A general query went out.
 * @param due when it fell due
 * @param sent when it went out
 */
void
QuerySent(Time due, Time sent)
{
    g_queryDue.push_back(due.GetSeconds());
    g_queryDelay.push_back((sent - due).GetSeconds());
}

/**
 * The switch changed a port membership.
 * @param group the group
 * @param port the port
 * @param member joined (true) or left / timed out (false)
 */
void
Membership(Ipv4Address group, uint32_t port, bool member)
{
    if (!member)
    {
        g_timeoutAt.push_back(Simulator::Now().GetSeconds());
        g_timeoutGroupIsData.push_back(group == g_group ? 1.0 : 0.0);
    }
}

/**
 * Count an event into a time bin.
 * @param bins the bins
 * @param t the time
 */
void
Bin(std::vector<double>& bins, Time t)
{
    auto i = static_cast<size_t>(t.GetTimeStep() / g_bin.GetTimeStep());
    if (i < bins.size())
    {
        bins[i] += 1;
    }
}

/**
 * A receiver accounted a packet.
 * @param node virtual node
 * @param serial serial number
 * @param sent timestamp
 * @param received capture time
 */
void
Received(uint32_t node, uint32_t serial, Time sent, Time received)
{
    Bin(g_rxBins, received);
}

/**
 * A sender sent a packet.
 * @param node virtual node
 * @param serial serial number
 * @param ts timestamp
 */
void
Sent(uint32_t node, uint32_t serial, Time ts)
{
    Bin(g_txBins, ts);
}

/**
 * Declare the options.
 * @param opts the program's options
 * @param config the network
 * @param hostOptions the PCs' options
 * @param load the other senders' load (frames/s)
 * @param itr the querier NIC's MaxInterruptRate
 * @param onTime a query is on time within this (s)
 * @param durationGmi the load's duration (GMIs)
 */
void
AddOptions(ProgramOptions& opts,
           Mega06TestbedConfig& config,
           Mega06HostOptions& hostOptions,
           double& load,
           double& itr,
           double& onTime,
           double& durationGmi)
{
    opts.Add("loadPps",
             "the other senders' aggregate multicast load (frames/s)",
             load,
             0,
             1e7,
             "frames/s");
    opts.Add("querierItr",
             "the querier NIC's MaxInterruptRate (interrupts/s, 0 = unmoderated)",
             itr,
             0,
             1e6,
             "interrupts/s");
    // Scaled IGMP timers for quick runs; 1 = RFC 2236's (125 s queries).
    opts.Add("igmpTimeScale",
             "IGMP timers (RFC 2236 defaults) times this",
             config.igmpTimeScale,
             0.01,
             1,
             "1");
    opts.Add("nodesPerPc", "send_udp virtual nodes on the sender PC", config.nodesPerPc, 1, 100000);
    opts.Add("receivers", "receiver PCs", config.receivers, 1, 64);
    opts.Add("staticRouterPort",
             "the querier's port is a configured router port",
             config.querierStaticRouterPort);
    opts.Add("unregisteredToRouterPorts",
             "the switch sends unregistered multicast to router ports only (else floods)",
             config.unregisteredToRouterPorts);
    opts.Add("onTime",
             "a query is on time if sent within this many seconds of its due time",
             onTime,
             1e-6,
             1000,
             "s");
    // At least 1.2 GMIs (a membership must have the chance to expire); at most 20.
    opts.Add("durationGmi",
             "load duration in Group Membership Intervals",
             durationGmi,
             1.2,
             20,
             "GMI");
    hostOptions.Add(opts, config);
    opts.AddDeprecated("load", "loadPps");
    opts.AddDeprecated("itr", "querierItr");
    opts.AddDeprecated("duration", "durationGmi");
}

/**
 * Declare the record's fields.
 * @param rec the record
 */
void
DeclareRecord(ResultRecord& rec)
{
    rec.Declare("load_pps", ResultRecord::REAL, "offered load (packets/s)")
        .Declare("itr", ResultRecord::REAL, "interrupt throttle rate (interrupts/s)")
        .Declare("igmp_time_scale", ResultRecord::REAL, "IGMP timer scale")
        .Declare("query_interval_s", ResultRecord::REAL, "query interval (s)")
        .Declare("gmi_s", ResultRecord::REAL, "group membership interval (s)")
        .Declare("load_start_s", ResultRecord::REAL, "load start (s)")
        .Declare("stop_s", ResultRecord::REAL, "end of the run (s)")
        .Declare("on_time_threshold_s",
                 ResultRecord::REAL,
                 "a query is on time within this delay (s)")
        .Declare("receivers", ResultRecord::INT, "receivers")
        .Declare("queries_due_total", ResultRecord::INT, "queries due")
        .Declare("queries_sent_total", ResultRecord::INT, "queries sent")
        .Declare("igmp_other_sent", ResultRecord::INT, "other IGMP messages sent by mrouted")
        .Declare("queries_due_under_load", ResultRecord::INT, "queries due under load")
        .Declare("queries_sent_under_load", ResultRecord::INT, "queries sent under load")
        .Declare("queries_on_time_under_load", ResultRecord::INT, "queries sent on time under load")
        .Declare("queries_on_time_fraction",
                 ResultRecord::REAL,
                 "share of queries on time under load")
        .Declare("query_delay_max_s", ResultRecord::REAL, "largest query delay (s)")
        .Declare("query_due_s", ResultRecord::SERIES, "due time of each query (s)")
        .Declare("query_delay_s", ResultRecord::SERIES, "delay of each query (s)")
        .Declare("memberships_timed_out", ResultRecord::INT, "memberships that timed out")
        .Declare("data_memberships_timed_out",
                 ResultRecord::INT,
                 "data-group memberships that timed out")
        .Declare("first_data_timeout_s",
                 ResultRecord::REAL,
                 "first data-group timeout (s; -1: none)")
        .Declare("timeout_s", ResultRecord::SERIES, "time of each membership timeout (s)")
        .Declare("data_member_ports_at_end",
                 ResultRecord::INT,
                 "switch ports in the data group at the end")
        .Declare("data_delivered_fraction_tail",
                 ResultRecord::REAL,
                 "share of data delivered in the tail")
        .Declare("tail_start_s", ResultRecord::REAL, "start of the tail (s)")
        .Declare("bin_s", ResultRecord::REAL, "bin width of the rate series (s)")
        .Declare("receiver_pps",
                 ResultRecord::SERIES,
                 "receive rate per receiver, per bin (packets/s)")
        .Declare("sender_pps", ResultRecord::SERIES, "send rate per bin (packets/s)")
        .Declare("querier_cpu_hardirq", ResultRecord::REAL, "querier CPU share in hard interrupts")
        .Declare("querier_cpu_softirq", ResultRecord::REAL, "querier CPU share in softirqs")
        .Declare("querier_cpu_process", ResultRecord::REAL, "querier CPU share in processes")
        .Declare("querier_rx_pps", ResultRecord::REAL, "packets the querier received (packets/s)")
        .Declare("querier_ring_drops_pps", ResultRecord::REAL, "querier NIC ring drops (packets/s)")
        .Declare("querier_backlog_drops_pps",
                 ResultRecord::REAL,
                 "querier backlog drops (packets/s)")
        .Declare("querier_interrupts_per_s", ResultRecord::REAL, "querier interrupts (1/s)")
        .Declare("load_frames_sent", ResultRecord::INT, "load generator frames sent")
        .Declare("events", ResultRecord::INT, "simulator events");
}

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    Mega06TestbedConfig config;
    Mega06HostOptions hostOptions;
    config.querier = true;
    config.senderPcs = 1;
    config.nodesPerPc = 1000;
    config.receivers = 2;
    config.unregisteredToRouterPorts = true;
    double load = 100000;
    double itr = 0;
    double onTime = 0.1;
    double durationGmi = 2.0;

    ProgramOptions opts("mega-querier",
                        "[MEGA06] querier overload: the IGMP querier's router port under the "
                        "multicast load, with and without NIC interrupt moderation");
    AddOptions(opts, config, hostOptions, load, itr, onTime, durationGmi);
    ResultRecord& rec = opts.Record();
    DeclareRecord(rec);
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        hostOptions.Apply(config);
        // The judged window ends --onTime before the end of the load: it must not end before
        // the load starts (a query due then could not be judged; the snapshot would be in the
        // past).
        const Time load = Mega06Testbed::Timers(config).GroupMembershipInterval() * durationGmi;
        ProgramOptions::Require(Seconds(onTime) < load,
                                "--onTime=" + opts.GetText("onTime")
                                    + " must be shorter than the load (--durationGmi x GMI = "
                                    + std::to_string(load.GetSeconds()) + " s)");
    });
    // Refused up front beyond --maxEvents/--maxMemory: the run lasts Query Interval / 2 plus
    // the load; unregistered frames reach the querier only, or every PC.
    Mega06Work::SetBudgets(opts, [&]() {
        const IgmpTimers t = Mega06Testbed::Timers(config);
        const double load_s = t.GroupMembershipInterval().GetSeconds() * durationGmi;
        Mega06Work w;
        w.nodes = config.nodesPerPc;
        w.seconds = t.queryInterval.GetSeconds() / 2 + load_s;
        w.pcs = config.receivers + 3;
        w.loadFrames = load * load_s;
        w.loadPorts = config.unregisteredToRouterPorts ? 1 : w.pcs;
        return w;
    });
    opts.Parse(argc, argv);

    const IgmpTimers timers = Mega06Testbed::Timers(config);
    const Time qi = timers.queryInterval;
    const Time gmi = timers.GroupMembershipInterval();
    config.otherLoad = load;
    config.querierInterruptRate = itr;
    config.joinAt = MilliSeconds(200);
    config.sendAt = MilliSeconds(500);
    config.loadAt = qi / 2;
    config.stopAt = config.loadAt + gmi * durationGmi;
    g_group = config.group;
    Mega06Testbed tb = Mega06Testbed::Build(config);

    g_bin = qi / 10;
    const size_t nBins = config.stopAt.GetTimeStep() / g_bin.GetTimeStep() + 1;
    g_rxBins.assign(nBins, 0);
    g_txBins.assign(nBins, 0);
    tb.mrouted->TraceConnectWithoutContext("QuerySent", MakeCallback(&QuerySent));
    tb.bridge->TraceConnectWithoutContext("Membership", MakeCallback(&Membership));
    for (auto& s : tb.sara)
    {
        s->TraceConnectWithoutContext("Record", MakeCallback(&Received));
    }
    tb.sendUdp[0]->TraceConnectWithoutContext("Send", MakeCallback(&Sent));

    // Counters at the start of the load and at the end of the judged window.
    const Time judgeEnd = config.stopAt - Seconds(onTime);
    Ptr<HostCpu> cpu = tb.querier->GetObject<HostPlatform>()->GetCpu();
    Ptr<HostNic> nic = Mega06Testbed::GetNic(tb.querier);
    uint64_t due0 = 0;
    uint64_t due1 = 0;
    std::array<double, 3> cpu0{};
    std::array<double, 3> cpu1{};
    std::array<uint64_t, 4> nic0{};
    std::array<uint64_t, 4> nic1{};
    auto cpuNow = [cpu]() {
        return std::array<double, 3>{cpu->GetBusyTime(HostCpu::HARDIRQ).GetSeconds(),
                                     cpu->GetBusyTime(HostCpu::SOFTIRQ).GetSeconds(),
                                     cpu->GetBusyTime(HostCpu::PROCESS).GetSeconds()};
    };
    auto nicNow = [nic]() {
        return std::array<uint64_t, 4>{nic->GetReceived(),
                                       nic->GetRxRingDrops(),
                                       nic->GetBacklogDrops(),
                                       nic->GetInterrupts()};
    };
    Simulator::Schedule(config.loadAt, [&]() {
        due0 = tb.mrouted->GetQueriesDue();
        cpu0 = cpuNow();
        nic0 = nicNow();
    });
    Simulator::Schedule(judgeEnd, [&]() { due1 = tb.mrouted->GetQueriesDue(); });
    Simulator::Schedule(config.stopAt - TimeStep(1), [&]() {
        cpu1 = cpuNow();
        nic1 = nicNow();
    });
    std::vector<uint32_t> membersAtEnd;
    Simulator::Schedule(config.stopAt - TimeStep(1), [&]() {
        membersAtEnd.push_back(tb.bridge->GetMemberPorts(config.group).size());
    });
    Simulator::Stop(config.stopAt);
    opts.StartProgress(config.stopAt);
    Simulator::Run();

    // Queries that fell due under load (before the judged window's end), and those of them that
    // went out on time.
    uint64_t onTimeCount = 0;
    double maxDelay = 0;
    uint64_t sentUnderLoad = 0;
    for (size_t i = 0; i < g_queryDue.size(); ++i)
    {
        if (g_queryDue[i] >= config.loadAt.GetSeconds() && g_queryDue[i] < judgeEnd.GetSeconds())
        {
            ++sentUnderLoad;
            maxDelay = std::max(maxDelay, g_queryDelay[i]);
            if (g_queryDelay[i] <= onTime)
            {
                ++onTimeCount;
            }
        }
    }
    const uint64_t dueUnderLoad = due1 - due0;
    // Data the receivers got after every membership not refreshed by a query must have expired:
    // from loadAt + GMI + QRI on.
    const Time tailStart = config.loadAt + gmi + timers.queryResponseInterval;
    double rxTail = 0;
    double txTail = 0;
    for (size_t i = 0; i < nBins; ++i)
    {
        if (g_bin * static_cast<int64_t>(i) >= tailStart
            && g_bin * static_cast<int64_t>(i + 1) <= config.stopAt)
        {
            rxTail += g_rxBins[i];
            txTail += g_txBins[i];
        }
    }
    const double loadT = (config.stopAt - config.loadAt).GetSeconds();
    uint32_t dataTimeouts = 0;
    double firstDataTimeout = -1;
    for (size_t i = 0; i < g_timeoutAt.size(); ++i)
    {
        if (g_timeoutGroupIsData[i] > 0)
        {
            ++dataTimeouts;
            if (firstDataTimeout < 0)
            {
                firstDataTimeout = g_timeoutAt[i];
            }
        }
    }

    rec.Set("load_pps", load);
    rec.Set("itr", itr);
    rec.Set("igmp_time_scale", config.igmpTimeScale);
    rec.Set("query_interval_s", qi.GetSeconds());
    rec.Set("gmi_s", gmi.GetSeconds());
    rec.Set("load_start_s", config.loadAt.GetSeconds());
    rec.Set("stop_s", config.stopAt.GetSeconds());
    rec.Set("on_time_threshold_s", onTime);
    rec.SetInt("receivers", config.receivers);
    rec.SetInt("queries_due_total", tb.mrouted->GetQueriesDue());
    rec.SetInt("queries_sent_total", tb.mrouted->GetQueriesSent());
    rec.SetInt("igmp_other_sent", tb.mrouted->GetOtherSent());
    rec.SetInt("queries_due_under_load", dueUnderLoad);
    rec.SetInt("queries_sent_under_load", sentUnderLoad);
    rec.SetInt("queries_on_time_under_load", onTimeCount);
    rec.Set("queries_on_time_fraction",
            dueUnderLoad > 0 ? static_cast<double>(onTimeCount) / dueUnderLoad : 1.0);
    rec.Set("query_delay_max_s", maxDelay);
    rec.SetSeries("query_due_s", g_queryDue);
    rec.SetSeries("query_delay_s", g_queryDelay);
    rec.SetInt("memberships_timed_out", g_timeoutAt.size());
    rec.SetInt("data_memberships_timed_out", dataTimeouts);
    rec.Set("first_data_timeout_s", firstDataTimeout);
    rec.SetSeries("timeout_s", g_timeoutAt);
    rec.SetInt("data_member_ports_at_end", membersAtEnd.empty() ? 0 : membersAtEnd[0]);
    rec.Set("data_delivered_fraction_tail",
            txTail > 0 ? rxTail / (txTail * config.receivers) : 0.0);
    rec.Set("tail_start_s", tailStart.GetSeconds());
    rec.Set("bin_s", g_bin.GetSeconds());
    std::vector<double> rxPps;
    std::vector<double> txPps;
    for (size_t i = 0; i < nBins; ++i)
    {
        rxPps.push_back(g_rxBins[i] / config.receivers / g_bin.GetSeconds());
        txPps.push_back(g_txBins[i] / g_bin.GetSeconds());
    }
    rec.SetSeries("receiver_pps", rxPps);
    rec.SetSeries("sender_pps", txPps);
    rec.Set("querier_cpu_hardirq", (cpu1[0] - cpu0[0]) / loadT);
    rec.Set("querier_cpu_softirq", (cpu1[1] - cpu0[1]) / loadT);
    rec.Set("querier_cpu_process", (cpu1[2] - cpu0[2]) / loadT);
    rec.Set("querier_rx_pps", (nic1[0] - nic0[0]) / loadT);
    rec.Set("querier_ring_drops_pps", (nic1[1] - nic0[1]) / loadT);
    rec.Set("querier_backlog_drops_pps", (nic1[2] - nic0[2]) / loadT);
    rec.Set("querier_interrupts_per_s", (nic1[3] - nic0[3]) / loadT);
    rec.SetInt("load_frames_sent", tb.load->GetSent());
    rec.SetInt("events", static_cast<int64_t>(opts.GetEventCount()));
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
