/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tno-pipeline-record.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/host-cpu.h"
#include "ns3/host-nic.h"
#include "ns3/packet.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace tno
{

PipelineConfig
PipelineConfigOf(const std::string& name)
{
    const std::map<std::string, PipelineConfig> configs{
        {"1a", {"dmso-rti13ng", "onyx-irix65-250", "onyx-irix65-195", false}},
        {"1b", {"tno-rti-dm", "onyx-irix65-250", "onyx-irix65-195", false}},
        {"2", {"tno-rti-sm", "onyx-irix65-250", "", false}},
        {"3a", {"tno-rti-dm", "ihawk-redhawk-700", "ihawk-redhawk-2400", true}},
        {"3b", {"tno-rti-dm", "ihawk-redhawk-700", "ihawk-redhawk-2400", false}},
        {"4", {"tno-rti-sm", "ihawk-redhawk-700", "", false}},
    };
    return configs.at(name);
}

void
DeclarePipelineRecord(ResultRecord& rec)
{
    rec.Declare("config", ResultRecord::STRING, "--config")
        .Declare("rti", ResultRecord::STRING, "RTI profile")
        .Declare("host_a", ResultRecord::STRING, "host profile of PC A")
        .Declare("host_b", ResultRecord::STRING, "host profile of PC B")
        .Declare("network", ResultRecord::STRING, "network: none, hub or switch")
        .Declare("frequency_hz", ResultRecord::REAL, "send frequency (Hz)")
        .Declare("window_s", ResultRecord::REAL, "measurement window (s)")
        .Declare("sent", ResultRecord::INT, "updates sent")
        .Declare("received", ResultRecord::INT, "updates received")
        .Declare("send_rate_hz", ResultRecord::REAL, "achieved send rate (Hz)")
        .Declare("read_rate_hz", ResultRecord::REAL, "achieved read rate (Hz)")
        .Declare("loss", ResultRecord::REAL, "share of updates lost (0..1)")
        .Declare("lost",
                 ResultRecord::INT,
                 "updates of the window that never arrived (sent - received)")
        .Declare("latency_mean_us",
                 ResultRecord::REAL,
                 "mean end-to-end latency (us)",
                 ResultRecord::SOMETIMES)
        .Declare("latency_sd_us",
                 ResultRecord::REAL,
                 "latency standard deviation (us)",
                 ResultRecord::SOMETIMES)
        .Declare("latency_max_us",
                 ResultRecord::REAL,
                 "largest latency (us)",
                 ResultRecord::SOMETIMES)
        .Declare("latency_growth",
                 ResultRecord::REAL,
                 "latency growth over the window",
                 ResultRecord::SOMETIMES)
        .Declare("relay_max_burst",
                 ResultRecord::INT,
                 "largest read cycle (burst) of the ReceiverSender in the window (messages)")
        .Declare("receiver_max_burst",
                 ResultRecord::INT,
                 "largest read cycle (burst) of the Receiver in the window (messages)")
        .Declare("band", ResultRecord::STRING, "--band")
        .Declare("queue_drops", ResultRecord::INT, "updates dropped by full shared-memory queues")
        .Declare("socket_drops",
                 ResultRecord::INT,
                 "datagrams dropped by full socket receive buffers (ReceiverSender, Receiver)")
        .Declare("qdisc_drops", ResultRecord::INT, "packets dropped by full transmit queues")
        .Declare("nic_drops", ResultRecord::INT, "frames dropped by full NIC rings or backlogs")
        .Declare("mac_drops",
                 ResultRecord::INT,
                 "frames the Ethernet MACs gave up (excessive collisions on the hub)")
        .Declare("hub_frames",
                 ResultRecord::INT,
                 "frames the hub's stations sent whole in the window",
                 ResultRecord::SOMETIMES)
        .Declare("hub_utilization",
                 ResultRecord::REAL,
                 "share of the window the hub carried whole frames, preamble and gap included "
                 "(0..1)",
                 ResultRecord::SOMETIMES)
        .Declare("hub_collisions_per_frame",
                 ResultRecord::REAL,
                 "collisions the hub's stations saw per frame sent whole",
                 ResultRecord::SOMETIMES)
        .Declare("hub_backoff_slots_per_frame",
                 ResultRecord::REAL,
                 "backoff slot times (5.12 us at 100 Mbit/s) drawn per frame sent whole",
                 ResultRecord::SOMETIMES)
        .Declare("hub_deferrals_per_frame",
                 ResultRecord::REAL,
                 "frames that found the carrier on and deferred, per frame sent whole",
                 ResultRecord::SOMETIMES)
        .Declare("relay_cpu_share",
                 ResultRecord::REAL,
                 "share of the window the ReceiverSender's CPU was busy (0..1)")
        .Declare("receiver_cpu_share",
                 ResultRecord::REAL,
                 "share of the window the Receiver's CPU was busy (0..1)")
        .Declare("sender_cpu_share",
                 ResultRecord::REAL,
                 "share of the window the Sender's CPU was busy (0..1)")
        .Declare("gaps", ResultRecord::INT, "sequence gaps seen", ResultRecord::SOMETIMES)
        .Declare("sender_deadline_misses",
                 ResultRecord::INT,
                 "sender's RCI deadline misses",
                 ResultRecord::SOMETIMES)
        .Declare("sender_max_lateness_us",
                 ResultRecord::REAL,
                 "sender's largest lateness (us)",
                 ResultRecord::SOMETIMES)
        .Declare("cpu_a_process_s", ResultRecord::REAL, "process CPU time on PC A (s)")
        .Declare("cpu_b_process_s", ResultRecord::REAL, "process CPU time on PC B (s)")
        .Declare("events", ResultRecord::INT, "simulator events");
}

void
MeasurePipeline(PipelineMeasure& m,
                Ptr<RtiLrc> receiver,
                Ptr<RtiLrc> relay,
                const std::vector<Ptr<HostPlatform>>& hosts,
                const NetDeviceContainer& devs)
{
    receiver->SetReflectCallback(
        Callback<void, const RtiLrc::Reflection&>([&m](const RtiLrc::Reflection& r) {
            Time now = Simulator::Now();
            if (now >= m.windowStart && now < m.windowEnd)
            {
                ++m.readsInWindow;
            }
            if (r.tag >= m.windowStart && r.tag < m.windowEnd)
            {
                double l = (now - r.tag).GetSeconds();
                ++m.received;
                m.sum += l;
                m.sumSq += l * l;
                m.max = std::max(m.max, l);
                m.lat.push_back(l);
            }
        }));

    // Bursts: the largest read cycle (messages read in one tick) that ends in the window.
    auto burstIn = [&m](uint32_t* largest) {
        return Callback<void, uint32_t>([&m, largest](uint32_t n) {
            Time now = Simulator::Now();
            if (now >= m.windowStart && now < m.windowEnd)
            {
                *largest = std::max(*largest, n);
            }
        });
    };
    relay->TraceConnectWithoutContext("ReadCycle", burstIn(&m.relayBurst));
    receiver->TraceConnectWithoutContext("ReadCycle", burstIn(&m.receiverBurst));
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        hosts[i]->GetCpu()->TraceConnectWithoutContext(
            "WorkDone",
            Callback<void, uint8_t, uint32_t, Time, Time>(
                [&m, i](uint8_t prio, uint32_t owner, Time, Time service) {
                    Time now = Simulator::Now();
                    if (prio == HostCpu::PROCESS && now >= m.windowStart && now < m.windowEnd)
                    {
                        m.busy[{i, owner}] += service.GetSeconds();
                    }
                }));
    }
    auto inWindow = [&m]() {
        Time now = Simulator::Now();
        return now >= m.windowStart && now < m.windowEnd;
    };
    for (uint32_t i = 0; i < devs.GetN(); ++i)
    {
        devs.Get(i)->TraceConnectWithoutContext(
            "ExcessiveCollisions",
            Callback<void, Ptr<const Packet>>([&m](Ptr<const Packet>) { ++m.macDrops; }));
        Ptr<EthernetNetDevice> eth = DynamicCast<EthernetNetDevice>(devs.Get(i));
        if (!eth)
        {
            continue;
        }
        DataRateValue rate;
        eth->GetAttribute("DataRate", rate);
        m.hubBitRate = rate.Get().GetBitRate();
        // The medium's work per frame: what CSMA/CD spends besides the frames it carries (a
        // full-duplex MAC traces no collision, backoff or deferral; the record reports these
        // on the hub only).
        eth->TraceConnectWithoutContext(
            "PhyTxEnd",
            Callback<void, Ptr<const Packet>>([&m, inWindow](Ptr<const Packet> frame) {
                if (inWindow())
                {
                    ++m.hubFrames;
                    m.hubWireBits += 8ull
                                     * (EthernetNetDevice::PREAMBLE + frame->GetSize()
                                        + EthernetNetDevice::IFG);
                }
            }));
        eth->TraceConnectWithoutContext(
            "Collision",
            Callback<void, uint32_t, bool>([&m, inWindow](uint32_t, bool) {
                if (inWindow())
                {
                    ++m.hubCollisions;
                }
            }));
        eth->TraceConnectWithoutContext(
            "Backoff",
            Callback<void, uint32_t, uint32_t>([&m, inWindow](uint32_t, uint32_t slots) {
                if (inWindow())
                {
                    m.hubBackoffSlots += slots;
                }
            }));
        eth->TraceConnectWithoutContext("Deferral", Callback<void>([&m, inWindow]() {
                                            if (inWindow())
                                            {
                                                ++m.hubDeferrals;
                                            }
                                        }));
    }
}

void
FillPipelineRecord(ResultRecord& rec, const PipelineMeasure& m, const PipelineOutcome& o)
{
    const double window = o.duration;
    const double frequency = o.frequency;
    const PipelineConfig& cfg = o.cfg;
    const std::string& config = o.config;
    const double sendRate = m.sent / window;
    const double readRate = m.readsInWindow / window;
    const double loss = m.sent ? 1.0 - double(m.received) / m.sent : 0.0;
    const double mean = m.received ? m.sum / m.received : 0.0;
    const double sd
        = m.received ? std::sqrt(std::max(0.0, m.sumSq / m.received - mean * mean)) : 0.0;
    // Trend: mean latency of the window's last quarter against its first quarter.
    double first = 0;
    double last = 0;
    std::size_t q = m.lat.size() / 4;
    for (std::size_t i = 0; i < q; ++i)
    {
        first += m.lat[i];
        last += m.lat[m.lat.size() - 1 - i];
    }
    double growth = q ? last / first : 1.0;

    rec.SetString("config", config);
    rec.SetString("rti", cfg.rti);
    rec.SetString("host_a", cfg.hostA);
    rec.SetString("host_b", cfg.hostB.empty() ? cfg.hostA : cfg.hostB);
    rec.SetString("network", cfg.hostB.empty() ? "none" : (cfg.hub ? "hub" : "switch"));
    rec.Set("frequency_hz", frequency);
    rec.Set("window_s", window);
    rec.SetInt("sent", m.sent);
    rec.SetInt("received", m.received);
    rec.Set("send_rate_hz", sendRate);
    rec.Set("read_rate_hz", readRate);
    rec.Set("loss", loss);
    NS_ABORT_MSG_IF(m.received > m.sent, m.received << " messages received of " << m.sent);
    rec.SetInt("lost", m.sent - m.received);
    if (m.received > 0)
    {
        // (without a message there is no latency: the fields stay out of the record)
        rec.Set("latency_mean_us", mean * 1e6);
        rec.Set("latency_sd_us", sd * 1e6);
        rec.Set("latency_max_us", m.max * 1e6);
        rec.Set("latency_growth", growth);
    }
    rec.SetInt("relay_max_burst", m.relayBurst);
    rec.SetInt("receiver_max_burst", m.receiverBurst);
    rec.SetString("band", o.band);
    rec.SetInt("queue_drops", o.relay->GetQueueDrops() + o.receiver->GetQueueDrops());
    rec.SetInt("socket_drops", o.relay->GetSocketDrops() + o.receiver->GetSocketDrops());
    uint64_t qdiscDrops = 0;
    uint64_t nicDrops = 0;
    for (uint32_t i = 0; i < o.devs.GetN(); ++i)
    {
        Ptr<NetDevice> dev = o.devs.Get(i);
        Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
        if (Ptr<QueueDisc> q = tc->GetRootQueueDiscOnDevice(dev))
        {
            qdiscDrops += q->GetStats().nTotalDroppedPackets;
        }
        if (Ptr<HostNic> nic = o.hosts[i]->GetNic(dev))
        {
            nicDrops += nic->GetRxRingDrops() + nic->GetBacklogDrops();
        }
    }
    rec.SetInt("qdisc_drops", qdiscDrops);
    rec.SetInt("nic_drops", nicDrops);
    rec.SetInt("mac_drops", m.macDrops);
    if (cfg.hub)
    {
        const double perFrame = m.hubFrames ? 1.0 / m.hubFrames : 0.0;
        rec.SetInt("hub_frames", m.hubFrames);
        rec.Set("hub_utilization",
                m.hubBitRate > 0 ? m.hubWireBits / (m.hubBitRate * window) : 0.0);
        rec.Set("hub_collisions_per_frame", m.hubCollisions * perFrame);
        rec.Set("hub_backoff_slots_per_frame", m.hubBackoffSlots * perFrame);
        rec.Set("hub_deferrals_per_frame", m.hubDeferrals * perFrame);
    }
    auto share = [&m, window](Ptr<RtiLrc> lrc, uint32_t machine) {
        auto it = m.busy.find({machine, lrc->GetProcess()->GetPid()});
        return it == m.busy.end() ? 0.0 : it->second / window;
    };
    rec.Set("sender_cpu_share", share(o.sender, 0));
    rec.Set("receiver_cpu_share", share(o.receiver, 0));
    rec.Set("relay_cpu_share", share(o.relay, o.shm ? 0 : 1));
    Time busyA = o.hosts.front()->GetCpu()->GetBusyTime(HostCpu::PROCESS);
    Time busyB = o.hosts.back()->GetCpu()->GetBusyTime(HostCpu::PROCESS);
    rec.Set("cpu_a_process_s", busyA.GetSeconds());
    rec.Set("cpu_b_process_s", busyB.GetSeconds());
}

} // namespace tno
} // namespace ns3
