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
#include "tno-pipeline-record.h"

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
    tno::SwitchOptions switchOptions;
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
    tno::AddSwitchOptions(opts, switchOptions);
    opts.AddChoice("band",
                   "the iHawk's uncalibrated parameters at their central values or at the fast "
                   "or slow end of their documented ranges (doc/tno.rst); no effect on the Onyx",
                   bandName,
                   {"central", "fast", "slow"});
    opts.AddProfileFile(profileFile);
    opts.AddDeprecated("rti", "rtiProfile");
    ResultRecord& rec = opts.Record();
    tno::DeclarePipelineRecord(rec);
    tno::PipelineConfig cfg;
    RtiHelper rtiHelper;
    Ptr<RtiSettings> settings;
    bool shm = false;
    // Built and checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        cfg = tno::PipelineConfigOf(config);
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
        addr = tno::InstallLan(machines,
                               cfg.hub,
                               500,
                               &devs,
                               switchOptions.cycle,
                               config == "1a" || config == "1b" ? switchOptions.onyxMode : "");
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
    tno::PipelineMeasure m;
    m.windowStart = start + Seconds(warmup);
    m.windowEnd = m.windowStart + Seconds(duration);
    tno::MeasurePipeline(m, receiver, relay, hosts, devs);

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

    tno::FillPipelineRecord(
        rec,
        m,
        {config, cfg, frequency, duration, bandName, shm, sender, receiver, relay, hosts, devs});
    rec.SetInt("events", opts.GetEventCount());
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
