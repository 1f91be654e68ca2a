/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [TNO03] extension: the TNO Fighter Federate's typical requirements run with an RCI scheduler
 * over a LAN or a degraded emulated link. Two cockpit federates (Fighter 1 on machine A,
 * Fighter 2 on machine B, each on a shielded CPU of an iHawk 700 MHz) and a federate of about
 * 150 computer generated forces (CGF, machine B, its own shielded CPU), RTI-DM.
 *
 * Each cockpit runs the schedule sheet below (frame 100 ms): control input (an Update action:
 * read the remote data and the stick) and dynamics at 100 Hz, its own state to the federation
 * (Output, 512 bytes) at 100 Hz, the visual update at 30 Hz just before a 60 Hz refresh. The CGF
 * sends 150 entity states of 140 bytes at 12.5 Hz, 10 per update (15 updates of 1400 bytes every
 * 80 ms, at offset 9 ms): with the two cockpits about 3 Mbit/s.
 *
 * Measured: deadline misses (an action later than 1 ms), scheduling jitter (max - min of the
 * cockpits' action lateness), the latency between components (from a control input to the
 * refresh that first shows its effect: input -> dynamics -> visual update -> refresh), the
 * latency between federates (from Fighter 1's state output to Fighter 2's application), and the
 * TSO violations of UTC-TM (updates that arrive after their time has been delivered).
 *
 *   ./tno-schedulers --scheduler=utc --network=degraded --clock=ntp --output=r.json
 */

#include "tno-lan.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"
#include "ns3/traffic-control-module.h"

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("TnoSchedulers");

namespace
{

/** The cockpit federate's schedule sheet (doc/tno.rst). */
const char* const FIGHTER_SHEET = R"(# TNO Fighter Federate, one cockpit: frame 100 ms
frame 100ms
# control input, 100 Hz: read the remote data (RCI Update) and the stick and throttle
update input0 0ms
update input1 10ms
update input2 20ms
update input3 30ms
update input4 40ms
update input5 50ms
update input6 60ms
update input7 70ms
update input8 80ms
update input9 90ms
# dynamics, 100 Hz
sync dynamics0 2ms
sync dynamics1 12ms
sync dynamics2 22ms
sync dynamics3 32ms
sync dynamics4 42ms
sync dynamics5 52ms
sync dynamics6 62ms
sync dynamics7 72ms
sync dynamics8 82ms
sync dynamics9 92ms
# own state to the federation, 100 Hz
output state0 4ms
output state1 14ms
output state2 24ms
output state3 34ms
output state4 44ms
output state5 54ms
output state6 64ms
output state7 74ms
output state8 84ms
output state9 94ms
# visual update, 30 Hz, each 1 ms before a refresh
sync visual0 7ms
sync visual1 40333us
sync visual2 73667us
# visual refresh, 60 Hz
sync refresh0 8ms
sync refresh1 24667us
sync refresh2 41333us
sync refresh3 58ms
sync refresh4 74667us
sync refresh5 91333us
)";

/** Component costs in CPU cycles of the cockpit machine (assumptions, doc/tno.rst). */
constexpr double INPUT_CYCLES = 20000;
constexpr double DYNAMICS_CYCLES = 400000;
constexpr double VISUAL_CYCLES = 200000;
constexpr double REFRESH_CYCLES = 50000;

/**
 * The clocks' defaults (assumptions with ranges, doc/tno.rst; program options so that a
 * sensitivity sample can vary them): the NTP clock offset's residual at the start (+- this),
 * each PC crystal's frequency error (A fast, B slow), the clock card's resolution, and the cost
 * of reading the card: two 32-bit PCI reads (33 MHz) at the PCI 2.2 limit of 16 clocks of
 * target initial latency plus 4 of address, data and turnaround: 2 x 20 x 30 ns.
 */
constexpr double NTP_RESIDUAL_US = 500;
constexpr double CRYSTAL_PPM = 20;
constexpr double CARD_RESOLUTION_US = 1;
constexpr double CARD_READ_COST_US = 1.2;

/** Object classes: each federate publishes its own. */
constexpr uint32_t CLASS_F1 = 1;
constexpr uint32_t CLASS_F2 = 2;
constexpr uint32_t CLASS_CGF = 3;

/** One cockpit's component chain. */
struct Cockpit
{
    Ptr<RciFederate> rci;   //!< its RCI
    Time lastInput{-1};     //!< the last control input's time
    Time dynamicsInput{-1}; //!< the input the last dynamics step used
    Time visualInput{-1};   //!< the input the last visual update showed
    Time maxComponent;      //!< largest input -> refresh latency
    double sumComponent{0}; //!< sum of those (s)
    uint64_t nComponent{0}; //!< their number
    Time lastShown{-1};     //!< the input shown at the last refresh
};

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    std::string scheduler = "default";
    std::string network = "lan";
    std::string clockKind = "ntp";
    std::string sheetFile;
    double duration = 5.0;
    Time delay = MilliSeconds(40);
    Time jitter = MilliSeconds(10);
    double loss = 0.01;
    DataRate bandwidth("4Mbps");
    Time lookahead = MilliSeconds(1);
    std::string hostProfile = "ihawk-redhawk-700";
    std::string peerProfile = "ihawk-redhawk-700";
    std::string hostSet;
    std::string profileFile;
    std::string rtiProfile = "tno-rti-dm";
    std::string rtiSet;
    std::string bandName = "central";
    double ntpResidualUs = NTP_RESIDUAL_US;
    double crystalPpm = CRYSTAL_PPM;
    double cardResolutionUs = CARD_RESOLUTION_US;
    double cardReadCostUs = CARD_READ_COST_US;

    ProgramOptions opts("tno-schedulers",
                        "[TNO03] extension: the Fighter Federate's requirements with an RCI "
                        "scheduler over a LAN or a degraded emulated link");
    opts.AddChoice("scheduler", "the RCI scheduler", scheduler, {"default", "utc", "hla"});
    opts.AddChoice("network",
                   "a 100 Mbit/s switched LAN or a degraded emulated link",
                   network,
                   {"lan", "degraded"});
    opts.AddChoice("clock", "the nodes' clock discipline", clockKind, {"ntp", "card"});
    opts.Add("sheet", "the cockpits' schedule sheet (default: the built-in one)", sheetFile);
    opts.Add("duration", "simulated time of the frames", duration, 0.5, 3600.0, "s");
    opts.Add("delay", "degraded link: one-way delay", delay, Seconds(0), Seconds(10));
    opts.Add("jitter", "degraded link: delay jitter", jitter, Seconds(0), Seconds(10));
    opts.Add("loss", "degraded link: loss probability", loss, 0.0, 1.0, "1");
    opts.Add("bandwidth",
             "degraded link: bandwidth, each direction",
             bandwidth,
             DataRate("10kbps"),
             DataRate("1Gbps"));
    // Above 0: with TimeAdvanceRequest a zero lookahead forbids stamping the granted time.
    opts.Add("lookahead",
             "hla: every federate's lookahead",
             lookahead,
             MicroSeconds(1),
             Seconds(1));
    opts.AddHostProfile(hostProfile, "host profile of machine A (Fighter 1)");
    opts.AddProfile("peerProfile",
                    "host",
                    "host profile of machine B (Fighter 2 and the CGF)",
                    peerProfile);
    opts.AddHostSet(hostSet);
    opts.AddProfileFile(profileFile);
    opts.AddRtiProfile(rtiProfile, "the RTI's profile");
    opts.AddRtiSet(rtiSet);
    opts.AddChoice("band",
                   "the iHawk's uncalibrated parameters at their central values or at the fast "
                   "or slow end of their documented ranges (doc/tno.rst)",
                   bandName,
                   {"central", "fast", "slow"});
    opts.Add("ntpResidual",
             "ntp: each clock's offset at the start is drawn uniform within +- this",
             ntpResidualUs,
             0.0,
             1e6,
             "us");
    opts.Add("crystalPpm",
             "ntp: the PC crystals' frequency error (machine A fast, B slow by this)",
             crystalPpm,
             0.0,
             500.0,
             "ppm");
    opts.Add("cardResolution",
             "card: the clock card's resolution",
             cardResolutionUs,
             0.0,
             1e6,
             "us");
    opts.Add("cardReadCost",
             "card: the CPU time of one card reading",
             cardReadCostUs,
             0.0,
             1e6,
             "us");
    // One release: the old spellings (plain numbers in ms and Mbit/s).
    opts.AddDeprecated("delay", "delay", "ms");
    opts.AddDeprecated("jitter", "jitter", "ms");
    opts.AddDeprecated("lookahead", "lookahead", "ms");
    opts.AddDeprecated("rate", "bandwidth", "Mbps");
    ResultRecord& rec = opts.Record();
    rec.Declare("scheduler", ResultRecord::STRING, "--scheduler: the RCI scheduler")
        .Declare("network", ResultRecord::STRING, "--network: lan or degraded")
        .Declare("clock", ResultRecord::STRING, "--clock: the nodes' clock discipline (ntp, card)")
        .Declare("band", ResultRecord::STRING, "--band")
        .Declare("duration_s", ResultRecord::REAL, "simulated time of the frames (s)")
        .Declare("actions", ResultRecord::INT, "schedule actions run by the two cockpits")
        .Declare("deadline_misses",
                 ResultRecord::INT,
                 "cockpit actions started more than 1 ms after their scheduled time, or due "
                 "before the end but never started (actions_not_run)")
        .Declare("actions_not_run",
                 ResultRecord::INT,
                 "cockpit actions due before the end that had not started (held back)")
        .Declare("deadline_misses_by_action",
                 ResultRecord::STRING,
                 "the late starts by kind of action (input, dynamics, state, visual, refresh)")
        .Declare("sched_jitter_us",
                 ResultRecord::REAL,
                 "scheduling jitter: max minus min of the cockpits' action lateness (us)")
        .Declare("max_lateness_us", ResultRecord::REAL, "largest action lateness (us)")
        .Declare("component_latency_mean_ms",
                 ResultRecord::REAL,
                 "mean control input -> first refresh showing it (ms; limit 30 ms)")
        .Declare("component_latency_max_ms",
                 ResultRecord::REAL,
                 "largest control input -> refresh latency (ms; limit 30 ms)")
        .Declare("federate_updates",
                 ResultRecord::INT,
                 "cockpit state updates reflected at the other cockpit")
        .Declare("federate_latency_mean_ms",
                 ResultRecord::REAL,
                 "mean cockpit state output -> the other cockpit's application (ms; limit 100 ms)")
        .Declare("federate_latency_max_ms",
                 ResultRecord::REAL,
                 "largest cockpit -> cockpit latency (ms; limit 100 ms)")
        .Declare("tso_violations",
                 ResultRecord::INT,
                 "updates that arrived after their timestamp had been delivered")
        .Declare("grants",
                 ResultRecord::INT,
                 "hla: time advance grants of the three federates",
                 ResultRecord::SOMETIMES)
        .Declare("cgf_reflected", ResultRecord::INT, "CGF updates reflected at the two cockpits")
        .Declare("cgf_sent", ResultRecord::INT, "CGF updates sent (1400 bytes each)")
        .Declare("clock_offset_a_us",
                 ResultRecord::REAL,
                 "machine A's clock offset at the start (us)")
        .Declare("clock_offset_b_us",
                 ResultRecord::REAL,
                 "machine B's clock offset at the start (us)")
        .Declare("time_messages",
                 ResultRecord::INT,
                 "hla: time-management messages (requests and notes) the Fedex read",
                 ResultRecord::SOMETIMES)
        .Declare("grant_wait_mean_us",
                 ResultRecord::REAL,
                 "hla: mean time from a cockpit's TimeAdvanceRequest to its grant's callback (us)",
                 ResultRecord::SOMETIMES)
        .Declare("ntp_updates",
                 ResultRecord::INT,
                 "ntp: clock-discipline updates (samples used) of the two clients in the run",
                 ResultRecord::SOMETIMES)
        .Declare("ntp_max_correction_ppm",
                 ResultRecord::REAL,
                 "ntp: largest rate correction (slew + frequency) applied to a clock (ppm)",
                 ResultRecord::SOMETIMES)
        .Declare("enabled_s",
                 ResultRecord::REAL,
                 "hla: when the last federate read the RTI's TIME_REGULATION_ENABLED (s)",
                 ResultRecord::SOMETIMES)
        .Declare("start_s",
                 ResultRecord::REAL,
                 "start of the measured frames (s; hla: the first whole frame at least a frame "
                 "after enabled_s)")
        .Declare("events", ResultRecord::INT, "simulator events");
    RciSchedule sheet;
    // The sheet is read and checked inside Parse(), so that --check refuses what the run would.
    opts.AddCheck([&]() {
        std::string text = FIGHTER_SHEET;
        std::string origin = "built-in fighter sheet";
        if (!sheetFile.empty())
        {
            std::error_code ec;
            // Whether it is a file is asked before it is opened: opening a FIFO waits for a
            // writer, reading a device may never end.
            ProgramOptions::Require(std::filesystem::is_regular_file(sheetFile, ec),
                                    "--sheet: cannot read '" + sheetFile + "' (not a file)");
            const auto bytes = std::filesystem::file_size(sheetFile, ec);
            ProgramOptions::Require(!ec && bytes <= RciSchedule::MAX_SHEET_BYTES,
                                    "--sheet: '" + sheetFile + "' is longer than "
                                        + std::to_string(RciSchedule::MAX_SHEET_BYTES)
                                        + " bytes (the longest sheet read)");
            std::ifstream in(sheetFile);
            ProgramOptions::Require(bool(in),
                                    "--sheet: cannot read '" + sheetFile + "' (not readable)");
            std::ostringstream ss;
            ss << in.rdbuf();
            text = ss.str();
            origin = sheetFile;
        }
        std::string error;
        ProgramOptions::Require(RciSchedule::Parse(text, origin, sheet, error), error);
    });
    opts.Parse(argc, argv);

    // Machines: A (Fighter 1), B (Fighter 2 and the CGF), and the LAN's NTP server (a stratum-1
    // reference on the switch's third port: a plain node, its clock the true time).
    NodeContainer machines;
    machines.Create(2);
    Ptr<Node> timeServer = CreateObject<Node>();
    NodeContainer lanNodes(machines);
    lanNodes.Add(timeServer);
    InternetStackHelper internet;
    internet.Install(lanNodes);
    NetDeviceContainer devs;
    std::vector<Ipv4Address> addr = tno::InstallLan(lanNodes, false, 500, &devs);
    // ARP requests go out at once (ProgramOptions::SetSimulatorDefaults), as the era's kernels
    // send them. While a request is unanswered a neighbour queues 3 packets (ns-3's ArpCache
    // PendingQueueSize 3 = Linux's unres_qlen 3) and drops beyond.
    if (network == "degraded")
    {
        // The module's link emulator on each machine's egress: delay, jitter, loss, bandwidth
        // (the NTP server's own egress is not degraded: a poll's two legs are asymmetric).
        LinkEmulatorHelper emu;
        emu.SetAttribute("Delay", TimeValue(delay));
        emu.SetAttribute("Jitter", TimeValue(jitter));
        emu.SetAttribute("LossProbability", DoubleValue(loss));
        emu.SetAttribute("Rate", DataRateValue(bandwidth));
        QueueDiscContainer q;
        q.Add(emu.Install(devs.Get(0), LinkEmulatorHelper::A_TO_B));
        q.Add(emu.Install(devs.Get(1), LinkEmulatorHelper::B_TO_A));
        LinkEmulatorHelper::AssignStreams(q, 700);
    }
    std::vector<Ptr<HostPlatform>> hosts
        = tno::InstallHosts(machines,
                            ProgramOptions::WithHostSet(hostProfile, hostSet),
                            ProgramOptions::WithHostSet(peerProfile, hostSet));
    // The prediction's band: the iHawks' uncalibrated parameters at an end of their ranges.
    const tno::Band band = tno::ParseBand(bandName);
    tno::ApplyBand(hosts[0], hostProfile, band);
    tno::ApplyBand(hosts[1], peerProfile, band);
    // Clocks (doc/tno.rst). NTP: each machine's own clock, a PC crystal's drift (A +20 ppm, B
    // -20 ppm), disciplined by ntpd polling the LAN's server every 64 s; at the start the client
    // is in its steady state (frequency correction = the drift, from its drift file; nothing
    // left to slew) and the clock's offset is drawn within the discipline's residual (+-500 us);
    // the first poll comes at a random phase of the poll interval. Card: one common time base
    // (TNO's RCIM): both machines read the same clock, to 1 us, at a register read's cost.
    std::vector<Ptr<NodeClock>> clocks;
    std::vector<Ptr<NtpClient>> ntpClients;
    Ptr<UniformRandomVariable> offsetRv = CreateObject<UniformRandomVariable>();
    offsetRv->SetStream(800);
    if (clockKind == "ntp")
    {
        Ptr<NtpServer> server = CreateObject<NtpServer>();
        timeServer->AddApplication(server);
        server->SetStartTime(Seconds(0));
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<NodeClock> c = CreateObject<NodeClock>();
            c->SetDiscipline(NodeClock::NTP);
            // Defaults of this set-up: a user's --ns3::NodeClock::Offset= or ::Drift= replaces
            // them (the offset is drawn in any case, so the later streams stay the same).
            const Time offset = Seconds(offsetRv->GetValue(-ntpResidualUs, ntpResidualUs) * 1e-6);
            UserAttributes::SetDefault(c, "Offset", TimeValue(offset));
            UserAttributes::SetDefault(c, "Drift", DoubleValue(i == 0 ? crystalPpm : -crystalPpm));
            DoubleValue drift;
            c->GetAttribute("Drift", drift);
            Ptr<NtpClient> ntp = CreateObject<NtpClient>();
            UserAttributes::SetDefault(ntp, "Frequency", DoubleValue(-drift.Get()));
            UserAttributes::SetDefault(ntp,
                                       "PollPhase",
                                       StringValue("ns3::UniformRandomVariable[Min=0|Max=1]"));
            ntp->SetClock(c);
            ntp->SetServer(addr[2]);
            ntp->AssignStreams(810 + i);
            machines.Get(i)->AddApplication(ntp);
            ntp->SetStartTime(Seconds(0));
            ntpClients.push_back(ntp);
            clocks.push_back(c);
        }
    }
    else
    {
        Ptr<NodeClock> card = CreateObject<NodeClock>();
        card->SetDiscipline(NodeClock::CLOCK_CARD);
        UserAttributes::SetDefault(card,
                                   "Resolution",
                                   TimeValue(NanoSeconds(std::llround(cardResolutionUs * 1e3))));
        UserAttributes::SetDefault(card,
                                   "ReadCost",
                                   TimeValue(NanoSeconds(std::llround(cardReadCostUs * 1e3))));
        clocks = {card, card};
    }

    RtiHelper rtiHelper;
    rtiHelper.SetProfile(rtiProfile);
    const std::string why
        = rtiHelper.TrySetSettings(ProgramOptions::ParseSettings(rtiSet, "rtiSet"));
    ProgramOptions::Require(why.empty(), "--rtiSet: " + why);
    Ptr<RtiSettings> settings = rtiHelper.GetSettings();
    if (scheduler == "hla")
    {
        // The conservative time management counts on every timestamped update arriving: HLA-TM
        // runs RTI-DM's messages over TCP (reliable) instead of UDP (an assumption, doc/tno.rst).
        UserAttributes::SetFixed(settings,
                                 "Transport",
                                 EnumValue(RtiSettings::TCP),
                                 "from its option --scheduler=hla (TCP under HLA-TM)");
    }
    Ptr<RtiExec> exec = CreateObject<RtiExec>();
    exec->Setup(hosts[0], settings);
    Ptr<RtiFedex> fedex = exec->CreateFederation("fighter");
    auto federate = [&](uint32_t m, uint32_t core, const std::string& name) {
        Ptr<HostProcess> proc = hosts[m]->CreateProcess();
        proc->SetCore(core);
        Ptr<RtiLrc> lrc = CreateObject<RtiLrc>();
        lrc->Setup(proc, settings, addr[m]);
        lrc->Join(fedex, name);
        return lrc;
    };
    Ptr<RtiLrc> f1 = federate(0, 1, "Fighter1");
    Ptr<RtiLrc> f2 = federate(1, 1, "Fighter2");
    Ptr<RtiLrc> cgf = federate(1, 2, "CGF");
    f1->Publish(CLASS_F1);
    f2->Publish(CLASS_F2);
    cgf->Publish(CLASS_CGF);
    f1->Subscribe(CLASS_F2);
    f1->Subscribe(CLASS_CGF);
    f2->Subscribe(CLASS_F1);
    f2->Subscribe(CLASS_CGF);

    const std::string schedAttr = scheduler == "utc"   ? "UtcTm"
                                  : scheduler == "hla" ? "HlaTm"
                                                       : "Default";
    auto makeRci = [&](Ptr<RtiLrc> lrc, const RciSchedule& s, Ptr<NodeClock> clock) {
        Ptr<RciFederate> r = CreateObject<RciFederate>();
        tno::SetRciCosts(r);
        UserAttributes::SetFixed(r,
                                 "Scheduler",
                                 StringValue(schedAttr),
                                 "from its option --scheduler");
        UserAttributes::SetFixed(r,
                                 "Lookahead",
                                 TimeValue(lookahead),
                                 "from its option --lookahead");
        r->Setup(lrc, s);
        r->SetClock(clock);
        return r;
    };

    // Send times of every update, per class, by sequence number (for the federate latency).
    std::map<uint32_t, std::vector<Time>> sendTimes;
    Time maxFederate;
    double sumFederate = 0;
    uint64_t nFederate = 0;
    uint64_t cgfReflected = 0;
    // The measured run: Default and UTC-TM start their frames at 1 s; HLA-TM when every
    // federate's time management is enabled (below).
    Time start = Seconds(1.0);
    Time end = start + Seconds(duration);

    std::vector<Cockpit> cockpits(2);
    std::vector<Ptr<RtiLrc>> lrcs{f1, f2};
    std::map<std::string, uint64_t> missesBy;
    for (uint32_t k = 0; k < 2; ++k)
    {
        Cockpit& c = cockpits[k];
        c.rci = makeRci(lrcs[k], sheet, clocks[k]);
        // Misses by kind of action: the name without its trailing number ("dynamics3").
        c.rci->TraceConnectWithoutContext(
            "Action",
            Callback<void, const std::string&, Time, Time>(
                [&missesBy](const std::string& name, Time scheduled, Time started) {
                    if (started - scheduled > MilliSeconds(1))
                    {
                        ++missesBy[name.substr(0, name.find_last_not_of("0123456789") + 1)];
                    }
                }));
        Ptr<HostProcess> proc = lrcs[k]->GetProcess();
        const uint32_t own = k == 0 ? CLASS_F1 : CLASS_F2;
        for (const auto& a : sheet.GetActions())
        {
            const std::string& n = a.name;
            Callback<void> cb;
            if (n.rfind("input", 0) == 0)
            {
                cb = Callback<void>([&c, proc]() {
                    c.lastInput = Simulator::Now();
                    proc->ExecuteCycles(INPUT_CYCLES);
                });
            }
            else if (n.rfind("dynamics", 0) == 0)
            {
                cb = Callback<void>([&c, proc]() {
                    Time in = c.lastInput;
                    proc->ExecuteCycles(DYNAMICS_CYCLES,
                                        Callback<void>([&c, in]() { c.dynamicsInput = in; }));
                });
            }
            else if (n.rfind("state", 0) == 0)
            {
                cb = Callback<void>([&c, own, &sendTimes]() {
                    sendTimes[own].push_back(Simulator::Now());
                    c.rci->Update(own, 512);
                });
            }
            else if (n.rfind("visual", 0) == 0)
            {
                cb = Callback<void>([&c, proc]() {
                    Time in = c.dynamicsInput;
                    proc->ExecuteCycles(VISUAL_CYCLES,
                                        Callback<void>([&c, in]() { c.visualInput = in; }));
                });
            }
            else if (n.rfind("refresh", 0) == 0)
            {
                cb = Callback<void>([&c, proc, &end]() {
                    Time in = c.visualInput;
                    proc->ExecuteCycles(REFRESH_CYCLES, Callback<void>([&c, in, &end]() {
                                            // The first refresh that shows an input's effect.
                                            if (in.IsNegative() || in == c.lastShown
                                                || Simulator::Now() >= end)
                                            {
                                                return;
                                            }
                                            c.lastShown = in;
                                            Time l = Simulator::Now() - in;
                                            c.maxComponent = Max(c.maxComponent, l);
                                            c.sumComponent += l.GetSeconds();
                                            ++c.nComponent;
                                        }));
                });
            }
            c.rci->SetAction(n, cb);
        }
        const uint32_t peer = k == 0 ? CLASS_F2 : CLASS_F1;
        c.rci->SetReflectCallback(RtiLrc::ReflectCallback([&, peer](const RtiLrc::Reflection& r) {
            if (r.objectClass == CLASS_CGF)
            {
                ++cgfReflected;
                return;
            }
            // Latency between federates: Fighter 1's output to Fighter 2's application
            // (and back), in true time.
            const auto& st = sendTimes[peer];
            if (r.objectClass == peer && r.seq < st.size() && st[r.seq] >= start)
            {
                Time l = Simulator::Now() - st[r.seq];
                maxFederate = Max(maxFederate, l);
                sumFederate += l.GetSeconds();
                ++nFederate;
            }
        }));
    }
    // The CGF: 15 updates of 10 entity states (140 bytes each) every 80 ms, at offset 9 ms.
    RciSchedule cgfSheet;
    {
        std::string error;
        bool ok = RciSchedule::Parse("frame 80ms\noutput entities 9ms\n", "cgf", cgfSheet, error);
        NS_ABORT_MSG_IF(!ok, error);
    }
    Ptr<RciFederate> cgfRci = makeRci(cgf, cgfSheet, clocks[1]);
    cgfRci->SetAction("entities", Callback<void>([&]() {
                          for (int i = 0; i < 15; ++i)
                          {
                              sendTimes[CLASS_CGF].push_back(Simulator::Now());
                              cgfRci->Update(CLASS_CGF, 1400);
                          }
                      }));

    // The federation's start. Joined, published and subscribed at 0 (calls: their requests'
    // costs, RtiFedex). HLA-TM: each federate enables its time management at 0, a message on
    // its new TCP connection to the Fedex (its SYN, like the set-up's own connections', waits
    // for the address resolution: a fourth packet to an unresolved neighbour is dropped and
    // the SYN goes again after TCP's initial retransmission timeout, 3 s: RFC 1122 / RFC 2988,
    // Linux 2.4 TCP_TIMEOUT_INIT, ns-3's TcpSocket ConnTimeout). The measured run starts when
    // the last federate has read the RTI's TIME_REGULATION_ENABLED: its frames begin at the
    // first whole frame (100 ms) at least a frame after that. The other schedulers start their
    // frames at 1 s.
    std::vector<Ptr<RciFederate>> rcis{cockpits[0].rci, cockpits[1].rci, cgfRci};
    const Time frame = sheet.GetFrame();
    Time enabledAt(-1);
    auto run = [&]() {
        for (const auto& r : rcis)
        {
            r->Start(start);
        }
        for (const auto& r : rcis)
        {
            Simulator::Schedule(end - Simulator::Now(), &RciFederate::Stop, r);
        }
        Simulator::Stop(end + Seconds(1) - Simulator::Now());
    };
    uint32_t enabled = 0;
    if (scheduler == "hla")
    {
        for (const auto& r : rcis)
        {
            r->EnableTimeManagement(Callback<void>([&]() {
                if (++enabled < rcis.size())
                {
                    return;
                }
                enabledAt = Simulator::Now();
                start = frame * (enabledAt / frame + 2).GetHigh();
                end = start + Seconds(duration);
                run();
            }));
        }
    }
    else
    {
        Simulator::ScheduleNow(run);
    }
    // Bounds the run if the enables never complete (TCP gives up after ConnCount SYNs).
    Time stop = Seconds(120) + Seconds(duration);
    Simulator::Stop(stop);
    opts.StartProgress(stop);
    Simulator::Stop(stop);
    Simulator::Run();

    uint64_t misses = 0;
    uint64_t actions = 0;
    uint64_t notRun = 0;
    uint64_t violations = 0;
    Time minLate = Time::Max();
    Time maxLate;
    Time maxComponent;
    double sumComponent = 0;
    uint64_t nComponent = 0;
    for (const auto& c : cockpits)
    {
        misses += c.rci->GetDeadlineMisses();
        actions += c.rci->GetActions();
        notRun += c.rci->GetActionsNotRun();
        violations += c.rci->GetTsoViolations();
        minLate = Min(minLate, c.rci->GetMinLateness());
        maxLate = Max(maxLate, c.rci->GetMaxLateness());
        maxComponent = Max(maxComponent, c.maxComponent);
        sumComponent += c.sumComponent;
        nComponent += c.nComponent;
    }

    rec.SetString("scheduler", scheduler);
    rec.SetString("network", network);
    rec.SetString("clock", clockKind);
    rec.SetString("band", bandName);
    rec.Set("duration_s", duration);
    rec.SetInt("actions", actions);
    rec.SetInt("deadline_misses", misses + notRun);
    rec.SetInt("actions_not_run", notRun);
    std::string by;
    for (const auto& [kind, n] : missesBy)
    {
        by += (by.empty() ? "" : " ") + kind + ":" + std::to_string(n);
    }
    rec.SetString("deadline_misses_by_action", by);
    rec.Set("sched_jitter_us", (maxLate - minLate).GetSeconds() * 1e6);
    rec.Set("max_lateness_us", maxLate.GetSeconds() * 1e6);
    rec.Set("component_latency_mean_ms", nComponent ? sumComponent / nComponent * 1e3 : 0.0);
    rec.Set("component_latency_max_ms", maxComponent.GetSeconds() * 1e3);
    rec.SetInt("federate_updates", nFederate);
    rec.Set("federate_latency_mean_ms", nFederate ? sumFederate / nFederate * 1e3 : 0.0);
    rec.Set("federate_latency_max_ms", maxFederate.GetSeconds() * 1e3);
    rec.SetInt("tso_violations", violations);
    rec.Set("start_s", start.GetSeconds());
    if (scheduler == "hla")
    {
        ProgramOptions::Require(enabled == rcis.size(),
                                "the federates' time management was never enabled");
        rec.Set("enabled_s", enabledAt.GetSeconds());
        rec.SetInt("grants", fedex->GetGrants());
        rec.SetInt("time_messages", fedex->GetTimeMessages());
        Time wait;
        uint64_t n = 0;
        for (const auto& lrc : lrcs)
        {
            wait += lrc->GetGrantWaitSum();
            n += lrc->GetGrantsRead();
        }
        rec.Set("grant_wait_mean_us", n ? wait.GetSeconds() / n * 1e6 : 0.0);
    }
    if (clockKind == "ntp")
    {
        uint64_t updates = 0;
        for (const auto& ntp : ntpClients)
        {
            updates += ntp->GetUpdates();
        }
        rec.SetInt("ntp_updates", updates);
        rec.Set("ntp_max_correction_ppm",
                std::max(clocks[0]->GetMaxCorrection(), clocks[1]->GetMaxCorrection()));
    }
    rec.SetInt("cgf_reflected", cgfReflected);
    rec.SetInt("cgf_sent", sendTimes[CLASS_CGF].size());
    rec.Set("clock_offset_a_us", (clocks[0]->GetLocalTime(start) - start).GetSeconds() * 1e6);
    rec.Set("clock_offset_b_us", (clocks[1]->GetLocalTime(start) - start).GetSeconds() * 1e6);
    rec.SetInt("events", opts.GetEventCount());
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
