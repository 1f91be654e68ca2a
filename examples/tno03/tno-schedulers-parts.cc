/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tno-schedulers-parts.h"

#include "ns3/double.h"
#include "ns3/host-process.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/user-attributes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ns3
{
namespace tno
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

void
AddSchedulersOptions(ProgramOptions& opts, SchedulersOptions& o)
{
    opts.AddChoice("scheduler", "the RCI scheduler", o.scheduler, {"default", "utc", "hla"});
    opts.AddChoice("network",
                   "a 100 Mbit/s switched LAN or a degraded emulated link",
                   o.network,
                   {"lan", "degraded"});
    opts.AddChoice("clock", "the nodes' clock discipline", o.clockKind, {"ntp", "card"});
    opts.Add("sheet", "the cockpits' schedule sheet (default: the built-in one)", o.sheetFile);
    opts.Add("duration", "simulated time of the frames", o.duration, 0.5, 3600.0, "s");
    opts.Add("delay", "degraded link: one-way delay", o.delay, Seconds(0), Seconds(10));
    opts.Add("jitter", "degraded link: delay jitter", o.jitter, Seconds(0), Seconds(10));
    opts.Add("loss", "degraded link: loss probability", o.loss, 0.0, 1.0, "1");
    opts.Add("bandwidth",
             "degraded link: bandwidth, each direction",
             o.bandwidth,
             DataRate("10kbps"),
             DataRate("1Gbps"));
    // Above 0: with TimeAdvanceRequest a zero lookahead forbids stamping the granted time.
    opts.Add("lookahead",
             "hla: every federate's lookahead",
             o.lookahead,
             MicroSeconds(1),
             Seconds(1));
    opts.AddHostProfile(o.hostProfile, "host profile of machine A (Fighter 1)");
    opts.AddProfile("peerProfile",
                    "host",
                    "host profile of machine B (Fighter 2 and the CGF)",
                    o.peerProfile);
    opts.AddHostSet(o.hostSet);
    opts.AddProfileFile(o.profileFile);
    opts.AddRtiProfile(o.rtiProfile, "the RTI's profile");
    opts.AddRtiSet(o.rtiSet);
    opts.AddChoice("band",
                   "the iHawk's uncalibrated parameters at their central values or at the fast "
                   "or slow end of their documented ranges (doc/tno.rst)",
                   o.bandName,
                   {"central", "fast", "slow"});
    opts.Add("ntpResidual",
             "ntp: each clock's offset at the start is drawn uniform within +- this",
             o.ntpResidualUs,
             0.0,
             1e6,
             "us");
    opts.Add("crystalPpm",
             "ntp: the PC crystals' frequency error (machine A fast, B slow by this)",
             o.crystalPpm,
             0.0,
             500.0,
             "ppm");
    opts.Add("cardResolution",
             "card: the clock card's resolution",
             o.cardResolutionUs,
             0.0,
             1e6,
             "us");
    opts.Add("cardReadCost",
             "card: the CPU time of one card reading",
             o.cardReadCostUs,
             0.0,
             1e6,
             "us");
    // One release: the old spellings (plain numbers in ms and Mbit/s).
    opts.AddDeprecated("delay", "delay", "ms");
    opts.AddDeprecated("jitter", "jitter", "ms");
    opts.AddDeprecated("lookahead", "lookahead", "ms");
    opts.AddDeprecated("rate", "bandwidth", "Mbps");
}

void
DeclareSchedulersRecord(ResultRecord& rec)
{
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
}

void
ReadFighterSheet(const std::string& sheetFile, RciSchedule& sheet)
{
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
}

Clocks
InstallClocks(const SchedulersOptions& o,
              const NodeContainer& machines,
              Ptr<Node> timeServer,
              Ipv4Address serverAddress)
{
    Clocks out;
    std::vector<Ptr<NodeClock>>& clocks = out.clocks;
    std::vector<Ptr<NtpClient>>& ntpClients = out.ntpClients;
    Ptr<UniformRandomVariable> offsetRv = CreateObject<UniformRandomVariable>();
    offsetRv->SetStream(800);
    if (o.clockKind == "ntp")
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
            const Time offset
                = Seconds(offsetRv->GetValue(-o.ntpResidualUs, o.ntpResidualUs) * 1e-6);
            UserAttributes::SetDefault(c, "Offset", TimeValue(offset));
            UserAttributes::SetDefault(c,
                                       "Drift",
                                       DoubleValue(i == 0 ? o.crystalPpm : -o.crystalPpm));
            DoubleValue drift;
            c->GetAttribute("Drift", drift);
            Ptr<NtpClient> ntp = CreateObject<NtpClient>();
            UserAttributes::SetDefault(ntp, "Frequency", DoubleValue(-drift.Get()));
            UserAttributes::SetDefault(ntp,
                                       "PollPhase",
                                       StringValue("ns3::UniformRandomVariable[Min=0|Max=1]"));
            ntp->SetClock(c);
            ntp->SetServer(serverAddress);
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
                                   TimeValue(NanoSeconds(std::llround(o.cardResolutionUs * 1e3))));
        UserAttributes::SetDefault(card,
                                   "ReadCost",
                                   TimeValue(NanoSeconds(std::llround(o.cardReadCostUs * 1e3))));
        clocks = {card, card};
    }

    return out;
}

void
SetCockpitActions(Cockpit& c,
                  Ptr<HostProcess> proc,
                  const RciSchedule& sheet,
                  uint32_t own,
                  FederationTally& tally,
                  const Time& end)
{
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
            cb = Callback<void>([&c, own, &tally]() {
                tally.sendTimes[own].push_back(Simulator::Now());
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
}

void
FillSchedulersRecord(ResultRecord& rec, const SchedulersOptions& o, const SchedulersOutcome& run)
{
    const std::vector<Cockpit>& cockpits = run.cockpits;
    const std::vector<Ptr<NodeClock>>& clocks = run.clocks.clocks;
    const Time start = run.start;
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

    rec.SetString("scheduler", o.scheduler);
    rec.SetString("network", o.network);
    rec.SetString("clock", o.clockKind);
    rec.SetString("band", o.bandName);
    rec.Set("duration_s", o.duration);
    rec.SetInt("actions", actions);
    rec.SetInt("deadline_misses", misses + notRun);
    rec.SetInt("actions_not_run", notRun);
    std::string by;
    for (const auto& [kind, n] : run.tally.missesBy)
    {
        by += (by.empty() ? "" : " ") + kind + ":" + std::to_string(n);
    }
    rec.SetString("deadline_misses_by_action", by);
    rec.Set("sched_jitter_us", (maxLate - minLate).GetSeconds() * 1e6);
    rec.Set("max_lateness_us", maxLate.GetSeconds() * 1e6);
    rec.Set("component_latency_mean_ms", nComponent ? sumComponent / nComponent * 1e3 : 0.0);
    rec.Set("component_latency_max_ms", maxComponent.GetSeconds() * 1e3);
    rec.SetInt("federate_updates", run.tally.nFederate);
    rec.Set("federate_latency_mean_ms",
            run.tally.nFederate ? run.tally.sumFederate / run.tally.nFederate * 1e3 : 0.0);
    rec.Set("federate_latency_max_ms", run.tally.maxFederate.GetSeconds() * 1e3);
    rec.SetInt("tso_violations", violations);
    rec.Set("start_s", start.GetSeconds());
    if (o.scheduler == "hla")
    {
        ProgramOptions::Require(run.allEnabled, "the federates' time management was never enabled");
        rec.Set("enabled_s", run.enabledAt.GetSeconds());
        rec.SetInt("grants", run.fedex->GetGrants());
        rec.SetInt("time_messages", run.fedex->GetTimeMessages());
        Time wait;
        uint64_t n = 0;
        for (const auto& lrc : run.lrcs)
        {
            wait += lrc->GetGrantWaitSum();
            n += lrc->GetGrantsRead();
        }
        rec.Set("grant_wait_mean_us", n ? wait.GetSeconds() / n * 1e6 : 0.0);
    }
    if (o.clockKind == "ntp")
    {
        uint64_t updates = 0;
        for (const auto& ntp : run.clocks.ntpClients)
        {
            updates += ntp->GetUpdates();
        }
        rec.SetInt("ntp_updates", updates);
        rec.Set("ntp_max_correction_ppm",
                std::max(clocks[0]->GetMaxCorrection(), clocks[1]->GetMaxCorrection()));
    }
    rec.SetInt("cgf_reflected", run.tally.cgfReflected);
    const auto cgf = run.tally.sendTimes.find(CLASS_CGF);
    rec.SetInt("cgf_sent", cgf == run.tally.sendTimes.end() ? 0 : cgf->second.size());
    rec.Set("clock_offset_a_us", (clocks[0]->GetLocalTime(start) - start).GetSeconds() * 1e6);
    rec.Set("clock_offset_b_us", (clocks[1]->GetLocalTime(start) - start).GetSeconds() * 1e6);
}

} // namespace tno
} // namespace ns3
