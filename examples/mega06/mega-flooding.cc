/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [MEGA06] section 4.4: multicast flooded onto the sender PCs. Without IGMP snooping the switch
 * floods every multicast frame to every port; the senders' receive path (interrupts, softirq)
 * takes the CPU that their send_udp processes need.
 *
 * One configuration: senderPcs Group A PCs with nodesPerPc send_udp virtual nodes each and one
 * Group B receiver (ami + sara) on one group, the other senders' aggregate load (--loadPps
 * frames/s) from the rest of the network to another group, snooping on or off. The record holds,
 * for the observation window [warmup, warmup + duration): the senders' achieved send rate and their
 * send-interval statistics (from send_udp's own timestamps), the frames their NICs received,
 * their CPU shares, and the receiver's sara statistics.
 *
 *   ./mega-flooding --loadPps=30000 --snooping=false --output=r.json
 */

#include "mega06-testbed.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

#include <array>
#include <fstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MegaFlooding");

namespace
{

Time g_obsStart; //!< observation window start
Time g_obsEnd;   //!< observation window end

/** CPU time per class of a set of PCs, at one moment. */
struct CpuSnapshot
{
    double hardirq{0}; //!< seconds
    double softirq{0}; //!< seconds
    double process{0}; //!< seconds
};

/**
 * CPU time of the PCs so far.
 * @param pcs the PCs
 * @return the sums
 */
CpuSnapshot
Cpu(const NodeContainer& pcs)
{
    CpuSnapshot s;
    for (uint32_t i = 0; i < pcs.GetN(); ++i)
    {
        Ptr<HostCpu> cpu = pcs.Get(i)->GetObject<HostPlatform>()->GetCpu();
        s.hardirq += cpu->GetBusyTime(HostCpu::HARDIRQ).GetSeconds();
        s.softirq += cpu->GetBusyTime(HostCpu::SOFTIRQ).GetSeconds();
        s.process += cpu->GetBusyTime(HostCpu::PROCESS).GetSeconds();
    }
    return s;
}

/**
 * NIC counters of a set of PCs.
 * @param pcs the PCs
 * @return {received, ring drops, backlog drops}
 */
std::array<uint64_t, 3>
Nics(const NodeContainer& pcs)
{
    std::array<uint64_t, 3> n{0, 0, 0};
    for (uint32_t i = 0; i < pcs.GetN(); ++i)
    {
        Ptr<HostNic> nic = Mega06Testbed::GetNic(pcs.Get(i));
        n[0] += nic->GetReceived();
        n[1] += nic->GetRxRingDrops();
        n[2] += nic->GetBacklogDrops();
    }
    return n;
}

CpuSnapshot g_cpu0;               //!< senders' CPU at the window start
std::array<uint64_t, 3> g_nic0;   //!< senders' NIC counters at the window start
std::array<uint64_t, 3> g_rxNic0; //!< receiver's NIC counters at the window start

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    Mega06TestbedConfig config;
    Mega06HostOptions hostOptions;
    double load = 0;
    bool snooping = true;
    double warmup = 2.0;
    double duration = 3.0;
    double loadLead = 1.0;
    std::string nodesCsv;
    std::string role;

    ProgramOptions opts("mega-flooding",
                        "[MEGA06] flooding: sender PCs under the other senders' multicast load; "
                        "their send rate and send-interval statistics, the receiver's drops");
    // One simulated Group A PC per sender; 64 is beyond what the experiment needs (the others'
    // traffic is the aggregate load source).
    opts.Add("senderPcs", "Group A sender PCs simulated one by one", config.senderPcs, 1, 64);
    // The study's limit was 5 000 processes per PC; 10^5 bounds the per-process state.
    opts.Add("nodesPerPc", "send_udp virtual nodes per sender PC", config.nodesPerPc, 1, 100000);
    opts.Add("loadPps",
             "the other senders' aggregate multicast load (frames/s)",
             load,
             0,
             1e7,
             "frames/s");
    opts.Add("snooping", "IGMP snooping on the switch", snooping);
    opts.Add("warmup",
             "seconds before the observation window (senders start at 0.5 s; all run by 1.6 s)",
             warmup,
             1.6,
             60,
             "s");
    // Up to an hour of observation (the study observed 180 s).
    opts.Add("duration", "observation window (s)", duration, 1e-3, 3600, "s");
    opts.Add("loadLead",
             "the load starts this many seconds before the window",
             loadLead,
             0,
             60,
             "s");
    hostOptions.Add(opts, config);
    opts.AddDeprecated("load", "loadPps");
    opts.Add("nodesCsv", "write the receiver's per-node sara statistics here", nodesCsv);
    opts.Add("role", "a label for the campaign (recorded, no effect)", role);
    ResultRecord& rec = opts.Record();
    rec.Declare("role", ResultRecord::STRING, "--role")
        .Declare("snooping", ResultRecord::BOOL, "--snooping")
        .Declare("load_pps", ResultRecord::REAL, "offered load (packets/s)")
        .Declare("sender_pcs", ResultRecord::INT, "sender PCs")
        .Declare("nodes_per_pc", ResultRecord::INT, "sender nodes per PC")
        .Declare("duration_s", ResultRecord::REAL, "measurement window (s)")
        .Declare("profile", ResultRecord::STRING, "host profile")
        .Declare("sent", ResultRecord::INT, "packets sent in the window")
        .Declare("send_rate_per_node", ResultRecord::REAL, "send rate per node (packets/s)")
        .Declare("nodes_sending_fraction", ResultRecord::REAL, "share of nodes that sent")
        .Declare("send_intervals", ResultRecord::INT, "send intervals measured")
        .Declare("send_interval_mean_us", ResultRecord::REAL, "mean send interval (us)")
        .Declare("send_interval_std_us",
                 ResultRecord::REAL,
                 "send interval standard deviation, pooled (us)")
        .Declare("send_interval_node_std_mean_us",
                 ResultRecord::REAL,
                 "per-node send interval standard deviation, mean (us)")
        .Declare("send_interval_node_std_max_us",
                 ResultRecord::REAL,
                 "per-node send interval standard deviation, largest (us)")
        .Declare("sender_rx_pps", ResultRecord::REAL, "packets received per sender PC (packets/s)")
        .Declare("sender_ring_drops_pps",
                 ResultRecord::REAL,
                 "NIC ring drops per sender PC (packets/s)")
        .Declare("sender_backlog_drops_pps",
                 ResultRecord::REAL,
                 "backlog drops per sender PC (packets/s)")
        .Declare("sender_cpu_hardirq", ResultRecord::REAL, "sender PC CPU share in hard interrupts")
        .Declare("sender_cpu_softirq", ResultRecord::REAL, "sender PC CPU share in softirqs")
        .Declare("sender_cpu_process", ResultRecord::REAL, "sender PC CPU share in processes")
        .Declare("sara_nodes", ResultRecord::INT, "nodes sara saw")
        .Declare("sara_packets", ResultRecord::INT, "packets sara received")
        .Declare("sara_drops", ResultRecord::INT, "packets sara counted as lost")
        .Declare("sara_drop_rate", ResultRecord::REAL, "sara's loss rate (0..1)")
        .Declare("sara_buffer_drops", ResultRecord::INT, "sara's socket buffer drops")
        .Declare("sara_foreign", ResultRecord::INT, "foreign packets at sara")
        .Declare("sara_filtered", ResultRecord::INT, "packets sara filtered")
        .Declare("sara_send_interval_std_us",
                 ResultRecord::REAL,
                 "send interval standard deviation seen by sara (us)")
        .Declare("sara_recv_interval_mean_us",
                 ResultRecord::REAL,
                 "mean receive interval at sara (us)")
        .Declare("sara_recv_interval_std_us",
                 ResultRecord::REAL,
                 "receive interval standard deviation at sara (us)")
        .Declare("sara_recv_interval_node_std_mean_us",
                 ResultRecord::REAL,
                 "per-node receive interval standard deviation at sara, mean (us)")
        .Declare("receiver_rx_pps",
                 ResultRecord::REAL,
                 "packets received by the receiver PC (packets/s)")
        .Declare("receiver_nic_drops_pps", ResultRecord::REAL, "receiver NIC drops (packets/s)")
        .Declare("load_frames_sent", ResultRecord::INT, "load generator frames sent")
        .Declare("events", ResultRecord::INT, "simulator events");
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        ProgramOptions::Require(loadLead <= warmup, "--loadLead must be <= --warmup");
        hostOptions.Apply(config);
    });
    // Refused up front beyond --maxEvents/--maxMemory. Without snooping the load reaches
    // every PC.
    Mega06Work::SetBudgets(opts, [&]() {
        Mega06Work w;
        w.nodes = double(config.senderPcs) * config.nodesPerPc;
        w.seconds = warmup + duration;
        w.pcs = config.senderPcs + 2;
        w.loadFrames = load * (loadLead + duration);
        w.loadPorts = snooping ? 1 : w.pcs;
        return w;
    });
    opts.Parse(argc, argv);

    config.snooping = snooping;
    config.receivers = 1;
    config.otherLoad = load;
    config.loadAt = Seconds(warmup - loadLead);
    g_obsStart = Seconds(warmup);
    g_obsEnd = Seconds(warmup + duration);
    config.stopAt = g_obsEnd;
    Mega06Testbed tb = Mega06Testbed::Build(config);

    Mega06SentWindow sent;
    sent.SetWindow(g_obsStart, g_obsEnd);
    for (auto& app : tb.sendUdp)
    {
        sent.Watch(app);
    }
    NodeContainer senders = tb.senders;
    NodeContainer receiver(tb.receivers.Get(0));
    Simulator::Schedule(g_obsStart, [&]() {
        tb.sara[0]->ResetStatistics();
        g_cpu0 = Cpu(senders);
        g_nic0 = Nics(senders);
        g_rxNic0 = Nics(receiver);
    });
    CpuSnapshot cpu1;
    std::array<uint64_t, 3> nic1{};
    std::array<uint64_t, 3> rxNic1{};
    Simulator::Schedule(g_obsEnd - TimeStep(1), [&]() {
        cpu1 = Cpu(senders);
        nic1 = Nics(senders);
        rxNic1 = Nics(receiver);
    });
    Simulator::Stop(g_obsEnd);
    opts.StartProgress(g_obsEnd);
    Simulator::Run();

    const double T = duration;
    const double pcs = config.senderPcs;
    const double nodes = pcs * config.nodesPerPc;
    SaraTable::Summary snd = sent.GetSummary();
    SaraTable::Summary rcv = tb.sara[0]->GetTable().GetSummary();

    rec.SetString("role", role);
    rec.SetBool("snooping", snooping);
    rec.Set("load_pps", load);
    rec.SetInt("sender_pcs", config.senderPcs);
    rec.SetInt("nodes_per_pc", config.nodesPerPc);
    rec.Set("duration_s", T);
    rec.SetString("profile", config.profile);
    // Senders.
    rec.SetInt("sent", sent.GetCount());
    rec.Set("send_rate_per_node", sent.GetCount() / nodes / T);
    rec.Set("nodes_sending_fraction", snd.nodes / nodes);
    rec.SetInt("send_intervals", snd.intervals);
    rec.Set("send_interval_mean_us", snd.pooledSendMean * 1e6);
    rec.Set("send_interval_std_us", snd.pooledSendStd * 1e6);
    rec.Set("send_interval_node_std_mean_us", snd.sendStdMean * 1e6);
    rec.Set("send_interval_node_std_max_us", snd.sendStdMax * 1e6);
    rec.Set("sender_rx_pps", (nic1[0] - g_nic0[0]) / pcs / T);
    rec.Set("sender_ring_drops_pps", (nic1[1] - g_nic0[1]) / pcs / T);
    rec.Set("sender_backlog_drops_pps", (nic1[2] - g_nic0[2]) / pcs / T);
    rec.Set("sender_cpu_hardirq", (cpu1.hardirq - g_cpu0.hardirq) / pcs / T);
    rec.Set("sender_cpu_softirq", (cpu1.softirq - g_cpu0.softirq) / pcs / T);
    rec.Set("sender_cpu_process", (cpu1.process - g_cpu0.process) / pcs / T);
    // Receiver (sara's statistics restarted at the window start).
    rec.SetInt("sara_nodes", rcv.nodes);
    rec.SetInt("sara_packets", rcv.packets);
    rec.SetInt("sara_drops", rcv.drops);
    rec.Set("sara_drop_rate", rcv.dropRate);
    rec.SetInt("sara_buffer_drops", tb.sara[0]->GetBufferDrops());
    rec.SetInt("sara_foreign", tb.sara[0]->GetForeign());
    rec.SetInt("sara_filtered", tb.sara[0]->GetFiltered());
    rec.Set("sara_send_interval_std_us", rcv.pooledSendStd * 1e6);
    rec.Set("sara_recv_interval_mean_us", rcv.pooledRecvMean * 1e6);
    rec.Set("sara_recv_interval_std_us", rcv.pooledRecvStd * 1e6);
    rec.Set("sara_recv_interval_node_std_mean_us", rcv.recvStdMean * 1e6);
    rec.Set("receiver_rx_pps", (rxNic1[0] - g_rxNic0[0]) / T);
    rec.Set("receiver_nic_drops_pps", (rxNic1[1] + rxNic1[2] - g_rxNic0[1] - g_rxNic0[2]) / T);
    rec.SetInt("load_frames_sent", tb.load->GetSent());
    rec.SetInt("events", static_cast<int64_t>(opts.GetEventCount()));
    rec.Write(opts.GetOutput());
    if (!nodesCsv.empty())
    {
        std::ofstream os(nodesCsv);
        tb.sara[0]->GetTable().WriteNodes(os);
    }
    Simulator::Destroy();
    return 0;
}
