/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [TNO03] pipeline benchmark: Sender -> ReceiverSender -> Receiver at one frequency, in one of
 * the study's configurations:
 *
 *   1a  DMSO RTI 1.3NG-like (TCP), Sender+Receiver on an Onyx (250 MHz, shielded CPUs),
 *       ReceiverSender on another (195 MHz), 100 Mbit/s switch        (calibration)
 *   1b  TNO RTI-DM (UDP), same systems                                  (calibration)
 *   2   TNO RTI-SM (shared memory), one Onyx, each federate on a shielded 250 MHz CPU
 *   3a  RTI-DM on iHawk PCs (700 MHz; ReceiverSender 2400 MHz), 100 Mbit/s HUB (prediction)
 *   3b  as 3a through a 100 Mbit/s switch                               (prediction)
 *   4   RTI-SM on one iHawk, each federate on a shielded 700 MHz CPU    (prediction)
 *
 * The Sender's RCI sends 512 bytes every 1/frequency (a Control schedule: one Output action per
 * frame) with its local time in the tag; the ReceiverSender sends each message on at once; the
 * Receiver (same machine and clock as the Sender) computes the latency. Messages sent in the
 * measurement window [warmup, warmup + duration) are counted; the run then drains.
 *
 *   ./tno-pipeline --config=1b --frequency=500 --duration=2 --RngRun=1 --output=r.json
 */

#include "tno-lan.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"
#include "ns3/traffic-control-module.h"

#include <cmath>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("TnoPipeline");

namespace
{

/** What sets the RCI's costs (a user's --ns3::RciFederate::ActionCost= is refused). */
const std::string RCI_BY = "from its options --rciActionCost and --rciReflectCost";

/** One configuration of the study. */
struct PipelineConfig
{
    std::string rti;   //!< RTI profile
    std::string hostA; //!< Sender and Receiver machine
    std::string hostB; //!< ReceiverSender machine ("" = the same machine)
    bool hub;          //!< a repeater hub instead of a switch
};

/** The receiving side's measurements. */
struct Measure
{
    Time windowStart;          //!< first tag counted
    Time windowEnd;            //!< tags before this are counted
    uint64_t sent{0};          //!< Sender's updates with a tag in the window
    uint64_t received{0};      //!< of those, reflected at the Receiver
    uint64_t readsInWindow{0}; //!< Receiver reads during the window (any tag)
    double sum{0};             //!< latency sum (s)
    double sumSq{0};           //!< latency square sum
    double max{0};             //!< largest latency
    std::vector<double> lat;   //!< latencies (s) in tag order of arrival (for the trend)
    uint32_t relayBurst{0};    //!< largest read cycle of the ReceiverSender in the window
    uint32_t receiverBurst{0}; //!< largest read cycle of the Receiver in the window
};

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    std::string config = "1b";
    double frequency = 100;
    double duration = 2.0;
    double warmup = 0.3;
    uint32_t dataSize = 512;
    std::string rtiProfile;
    std::string rtiSet;
    std::string hostProfile;
    std::string peerProfile;
    std::string hostSet;
    std::string profileFile;
    std::string bandName = "central";
    Time switchCycle = tno::SWITCH_ARBITRATION_CYCLE;
    double rciActionCycles = tno::RCI_ACTION_CYCLES;
    double rciReflectCycles = tno::RCI_REFLECT_CYCLES;

    ProgramOptions opts("tno-pipeline",
                        "[TNO03] Sender -> ReceiverSender -> Receiver at one frequency: latency "
                        "mean and max, loss, read frequency");
    opts.AddChoice("config",
                   "the study's configuration",
                   config,
                   {"1a", "1b", "2", "3a", "3b", "4"});
    opts.Add("frequency", "the Sender's update frequency (Hz)", frequency, 0.1, 100000.0, "Hz");
    opts.Add("duration", "measurement window (s of simulated time)", duration, 0.01, 3600.0, "s");
    opts.Add("warmup", "time from the Sender's start to the window (s)", warmup, 0.0, 60.0, "s");
    opts.Add("dataSize", "attribute bytes per update", dataSize, 1, 60000, "bytes");
    opts.AddRtiProfile(rtiProfile, "RTI profile (empty: the configuration's)", true);
    opts.AddRtiSet(rtiSet);
    opts.AddHostProfile(hostProfile,
                        "host profile of PC A: Sender and Receiver (empty: the configuration's)",
                        true);
    opts.AddProfile("peerProfile",
                    "host",
                    "host profile of PC B: ReceiverSender (empty: the configuration's)",
                    peerProfile,
                    true);
    opts.AddHostSet(hostSet);
    opts.Add("rciActionCost",
             "the RCI's own cycles per action (MIPS R10000 cycles; default: the calibrated "
             "value, doc/tno.rst)",
             rciActionCycles,
             0.0,
             1e9,
             "cycles");
    opts.Add("rciReflectCost",
             "the RCI's own cycles per reflection (MIPS R10000 cycles; default: the calibrated "
             "value, doc/tno.rst)",
             rciReflectCycles,
             0.0,
             1e9,
             "cycles");
    opts.Add("switchCycle",
             "the switch's bus arbitration cycle (a frame waits 0 to one cycle for its port's "
             "grant; doc/tno.rst)",
             switchCycle,
             Seconds(0),
             MilliSeconds(1));
    opts.AddChoice("band",
                   "the iHawk's uncalibrated parameters at their central values or at the fast "
                   "or slow end of their documented ranges (doc/tno.rst); no effect on the Onyx",
                   bandName,
                   {"central", "fast", "slow"});
    opts.AddProfileFile(profileFile);
    opts.AddDeprecated("rti", "rtiProfile");
    ResultRecord& rec = opts.Record();
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
    PipelineConfig cfg;
    RtiHelper rtiHelper;
    Ptr<RtiSettings> settings;
    bool shm = false;
    // Built and checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        const std::map<std::string, PipelineConfig> configs{
            {"1a", {"dmso-rti13ng", "onyx-irix65-250", "onyx-irix65-195", false}},
            {"1b", {"tno-rti-dm", "onyx-irix65-250", "onyx-irix65-195", false}},
            {"2", {"tno-rti-sm", "onyx-irix65-250", "", false}},
            {"3a", {"tno-rti-dm", "ihawk-redhawk-700", "ihawk-redhawk-2400", true}},
            {"3b", {"tno-rti-dm", "ihawk-redhawk-700", "ihawk-redhawk-2400", false}},
            {"4", {"tno-rti-sm", "ihawk-redhawk-700", "", false}},
        };
        cfg = configs.at(config);
        if (!rtiProfile.empty())
        {
            cfg.rti = rtiProfile;
        }
        if (!hostProfile.empty())
        {
            cfg.hostA = hostProfile;
        }
        if (!peerProfile.empty())
        {
            ProgramOptions::Require(!cfg.hostB.empty(),
                                    "--peerProfile: configuration " + config + " has one machine");
            cfg.hostB = peerProfile;
        }
        cfg.hostA = ProgramOptions::WithHostSet(cfg.hostA, hostSet);
        if (!cfg.hostB.empty())
        {
            cfg.hostB = ProgramOptions::WithHostSet(cfg.hostB, hostSet);
        }
        rtiHelper.SetProfile(cfg.rti);
        const std::string why
            = rtiHelper.TrySetSettings(ProgramOptions::ParseSettings(rtiSet, "rtiSet"));
        ProgramOptions::Require(why.empty(), "--rtiSet: " + why);
        settings = rtiHelper.GetSettings();
        shm = settings->GetTransport() == RtiSettings::SHARED_MEMORY;
        ProgramOptions::Require(!shm || cfg.hostB.empty(),
                                "--rtiProfile: a shared-memory RTI cannot join two machines");
        // CPU 0 runs RTIexec and the Fedex; each federate gets a CPU of its own (the relay too
        // with shared memory). Read from the profile (after --hostSet, or --ns3::HostCpu::Cores)
        // without creating the host, as InstallHosts will build it.
        UintegerValue cores;
        const bool read
            = cores.DeserializeFromString(HostPlatformHelper::CpuSetting(cfg.hostA, "Cores"),
                                          MakeUintegerChecker<uint32_t>());
        ProgramOptions::Require(read && cores.Get() >= 1 + (shm ? 3u : 2u),
                                "host profile " + cfg.hostA
                                    + ": too few CPUs to shield each federate of this "
                                      "configuration ("
                                    + opts.GetText("config") + " needs " + (shm ? "4" : "3")
                                    + ", Cores=" + std::to_string(cores.Get()) + ")");
    });
    // About 100 simulator events per update sent (measured: 82 in configuration 1a, 20-40 in
    // the others, at 1000 Hz): --frequency 100000 --duration 3600 would be 3.6e10 events and grow
    // by ~80 MB/s.
    opts.SetEventEstimate([&]() { return 100.0 * frequency * (warmup + duration); },
                          "about 100 per update: 100 x --frequency x (--warmup + --duration)");
    opts.Parse(argc, argv);

    // Machines and network.
    NodeContainer machines;
    machines.Create(cfg.hostB.empty() ? 1 : 2);
    InternetStackHelper internet;
    internet.Install(machines);
    std::vector<Ipv4Address> addr(machines.GetN(), Ipv4Address("127.0.0.1"));
    NetDeviceContainer devs;
    if (machines.GetN() == 2)
    {
        addr = tno::InstallLan(machines, cfg.hub, 500, &devs, switchCycle);
    }
    std::vector<Ptr<HostPlatform>> hosts = tno::InstallHosts(machines, cfg.hostA, cfg.hostB);
    const tno::Band band = tno::ParseBand(bandName);
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        tno::ApplyBand(hosts[i], i == 0 ? cfg.hostA : cfg.hostB, band);
    }
    if (devs.GetN() > 0)
    {
        tno::InstallQueueDiscs(devs, hosts);
    }
    Ptr<HostPlatform> a = hosts[0];
    Ptr<HostPlatform> b = hosts.back();
    // Checked inside Parse from the profile; the installed CPU must agree.
    NS_ABORT_MSG_UNLESS(a->GetCpu()->GetNCores() >= 1 + (shm ? 3u : 2u),
                        "tno-pipeline: the CPUs installed differ from the profile's Cores");

    // The RTI: RTIexec and the federation's Fedex on machine A (CPU 0), three federates.
    Ptr<RtiExec> exec = CreateObject<RtiExec>();
    exec->Setup(a, settings);
    Ptr<RtiFedex> fedex = exec->CreateFederation("pipeline");
    auto federate = [&](Ptr<HostPlatform> host, Ipv4Address at, uint32_t core, std::string name) {
        Ptr<HostProcess> proc = host->CreateProcess();
        proc->SetCore(core);
        Ptr<RtiLrc> lrc = CreateObject<RtiLrc>();
        lrc->Setup(proc, settings, at);
        lrc->Join(fedex, name);
        return lrc;
    };
    Ptr<RtiLrc> sender = federate(a, addr[0], 1, "Sender");
    Ptr<RtiLrc> receiver = federate(a, addr[0], 2, "Receiver");
    Ptr<RtiLrc> relay = shm ? federate(a, addr[0], 3, "ReceiverSender")
                            : federate(b, addr.back(), 1, "ReceiverSender");
    const uint32_t classA = 1;
    const uint32_t classB = 2;
    sender->Publish(classA);
    relay->Subscribe(classA);
    relay->Publish(classB);
    receiver->Subscribe(classB);

    relay->SetReflectCallback(Callback<void, const RtiLrc::Reflection&>(
        [relay, classB](const RtiLrc::Reflection& r) { relay->Update(classB, r.bytes, r.tag); }));
    // The ReceiverSender and the Receiver are RCI federates whose unpaced frames are one Update
    // action each: a read cycle of their RTI component, with the RCI's own cost.
    auto reader = [rciActionCycles, rciReflectCycles](Ptr<RtiLrc> lrc) {
        Ptr<RciFederate> r = CreateObject<RciFederate>();
        tno::SetRciCosts(r, rciActionCycles, rciReflectCycles, RCI_BY);
        r->Setup(lrc, RciSchedule::Control(Seconds(1), 1, 0, 0));
        r->ReadInUpdateActions();
        return r;
    };
    Ptr<RciFederate> relayRci = reader(relay);
    Ptr<RciFederate> receiverRci = reader(receiver);

    const Time start = Seconds(1.0); // after the joins and the TCP handshakes
    Measure m;
    m.windowStart = start + Seconds(warmup);
    m.windowEnd = m.windowStart + Seconds(duration);
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
    // Busy time of each federate's process in the window: (machine, pid) -> seconds.
    std::map<std::pair<uint32_t, uint32_t>, double> busy;
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        hosts[i]->GetCpu()->TraceConnectWithoutContext(
            "WorkDone",
            Callback<void, uint8_t, uint32_t, Time, Time>(
                [&m, &busy, i](uint8_t prio, uint32_t owner, Time, Time service) {
                    Time now = Simulator::Now();
                    if (prio == HostCpu::PROCESS && now >= m.windowStart && now < m.windowEnd)
                    {
                        busy[{i, owner}] += service.GetSeconds();
                    }
                }));
    }
    // Frames the MACs gave up after 16 collisions (hub).
    uint64_t macDrops = 0;
    for (uint32_t i = 0; i < devs.GetN(); ++i)
    {
        devs.Get(i)->TraceConnectWithoutContext(
            "ExcessiveCollisions",
            Callback<void, Ptr<const Packet>>([&macDrops](Ptr<const Packet>) { ++macDrops; }));
    }

    // The Sender's RCI: one Output action per frame of 1/frequency.
    Ptr<RciFederate> rci = CreateObject<RciFederate>();
    tno::SetRciCosts(rci, rciActionCycles, rciReflectCycles, RCI_BY);
    rci->Setup(sender, RciSchedule::Control(Seconds(1.0 / frequency), 0, 1, 0));
    uint64_t sentTotal = 0;
    rci->SetAction("output1", Callback<void>([&]() {
                       Time now = Simulator::Now();
                       if (now >= m.windowStart && now < m.windowEnd)
                       {
                           ++m.sent;
                       }
                       ++sentTotal;
                       sender->Update(classA, dataSize, now);
                   }));
    rci->Start(start);
    Simulator::Schedule(m.windowEnd, &RciFederate::Stop, rci);
    // Drain: what is in flight at the window's end arrives (or is lost) within this.
    Time stop = m.windowEnd + Seconds(1.0);
    opts.StartProgress(stop);
    Simulator::Stop(stop);
    Simulator::Run();

    const double window = duration;
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
    rec.SetString("band", bandName);
    rec.SetInt("queue_drops", relay->GetQueueDrops() + receiver->GetQueueDrops());
    rec.SetInt("socket_drops", relay->GetSocketDrops() + receiver->GetSocketDrops());
    uint64_t qdiscDrops = 0;
    uint64_t nicDrops = 0;
    for (uint32_t i = 0; i < devs.GetN(); ++i)
    {
        Ptr<NetDevice> dev = devs.Get(i);
        Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
        if (Ptr<QueueDisc> q = tc->GetRootQueueDiscOnDevice(dev))
        {
            qdiscDrops += q->GetStats().nTotalDroppedPackets;
        }
        if (Ptr<HostNic> nic = hosts[i]->GetNic(dev))
        {
            nicDrops += nic->GetRxRingDrops() + nic->GetBacklogDrops();
        }
    }
    rec.SetInt("qdisc_drops", qdiscDrops);
    rec.SetInt("nic_drops", nicDrops);
    rec.SetInt("mac_drops", macDrops);
    auto share = [&busy, window](Ptr<RtiLrc> lrc, uint32_t machine) {
        auto it = busy.find({machine, lrc->GetProcess()->GetPid()});
        return it == busy.end() ? 0.0 : it->second / window;
    };
    rec.Set("sender_cpu_share", share(sender, 0));
    rec.Set("receiver_cpu_share", share(receiver, 0));
    rec.Set("relay_cpu_share", share(relay, shm ? 0 : 1));
    Time busyA = a->GetCpu()->GetBusyTime(HostCpu::PROCESS);
    Time busyB = b->GetCpu()->GetBusyTime(HostCpu::PROCESS);
    rec.Set("cpu_a_process_s", busyA.GetSeconds());
    rec.Set("cpu_b_process_s", busyB.GetSeconds());
    rec.SetInt("events", opts.GetEventCount());
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
