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
#include "tno-schedulers-parts.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"
#include "ns3/traffic-control-module.h"

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("TnoSchedulers");

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    tno::SchedulersOptions o;
    ProgramOptions opts("tno-schedulers",
                        "[TNO03] extension: the Fighter Federate's requirements with an RCI "
                        "scheduler over a LAN or a degraded emulated link");
    tno::AddSchedulersOptions(opts, o);
    ResultRecord& rec = opts.Record();
    tno::DeclareSchedulersRecord(rec);
    RciSchedule sheet;
    // The sheet is read and checked inside Parse(), so that --check refuses what the run would.
    opts.AddCheck([&]() { tno::ReadFighterSheet(o.sheetFile, sheet); });
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
    if (o.network == "degraded")
    {
        // The module's link emulator on each machine's egress: delay, jitter, loss, bandwidth
        // (the NTP server's own egress is not degraded: a poll's two legs are asymmetric).
        LinkEmulatorHelper emu;
        emu.SetAttribute("Delay", TimeValue(o.delay));
        emu.SetAttribute("Jitter", TimeValue(o.jitter));
        emu.SetAttribute("LossProbability", DoubleValue(o.loss));
        emu.SetAttribute("Rate", DataRateValue(o.bandwidth));
        QueueDiscContainer q;
        q.Add(emu.Install(devs.Get(0), LinkEmulatorHelper::A_TO_B));
        q.Add(emu.Install(devs.Get(1), LinkEmulatorHelper::B_TO_A));
        LinkEmulatorHelper::AssignStreams(q, 700);
    }
    std::vector<Ptr<HostPlatform>> hosts
        = tno::InstallHosts(machines,
                            ProgramOptions::WithHostSet(o.hostProfile, o.hostSet),
                            ProgramOptions::WithHostSet(o.peerProfile, o.hostSet));
    // The prediction's band: the iHawks' uncalibrated parameters at an end of their ranges.
    const tno::Band band = tno::ParseBand(o.bandName);
    tno::ApplyBand(hosts[0], o.hostProfile, band);
    tno::ApplyBand(hosts[1], o.peerProfile, band);
    // Clocks (doc/tno.rst). NTP: each machine's own clock, a PC crystal's drift (A +20 ppm, B
    // -20 ppm), disciplined by ntpd polling the LAN's server every 64 s; at the start the client
    // is in its steady state (frequency correction = the drift, from its drift file; nothing
    // left to slew) and the clock's offset is drawn within the discipline's residual (+-500 us);
    // the first poll comes at a random phase of the poll interval. Card: one common time base
    // (TNO's RCIM): both machines read the same clock, to 1 us, at a register read's cost.
    const tno::Clocks clk = tno::InstallClocks(o, machines, timeServer, addr[2]);
    const std::vector<Ptr<NodeClock>>& clocks = clk.clocks;

    RtiHelper rtiHelper;
    rtiHelper.SetProfile(o.rtiProfile);
    const std::string why
        = rtiHelper.TrySetSettings(ProgramOptions::ParseSettings(o.rtiSet, "rtiSet"));
    ProgramOptions::Require(why.empty(), "--rtiSet: " + why);
    Ptr<RtiSettings> settings = rtiHelper.GetSettings();
    if (o.scheduler == "hla")
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
    f1->Publish(tno::CLASS_F1);
    f2->Publish(tno::CLASS_F2);
    cgf->Publish(tno::CLASS_CGF);
    f1->Subscribe(tno::CLASS_F2);
    f1->Subscribe(tno::CLASS_CGF);
    f2->Subscribe(tno::CLASS_F1);
    f2->Subscribe(tno::CLASS_CGF);

    const std::string schedAttr = o.scheduler == "utc"   ? "UtcTm"
                                  : o.scheduler == "hla" ? "HlaTm"
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
                                 TimeValue(o.lookahead),
                                 "from its option --lookahead");
        r->Setup(lrc, s);
        r->SetClock(clock);
        return r;
    };

    tno::FederationTally tally;
    // The measured run: Default and UTC-TM start their frames at 1 s; HLA-TM when every
    // federate's time management is enabled (below).
    Time start = Seconds(1.0);
    Time end = start + Seconds(o.duration);

    std::vector<tno::Cockpit> cockpits(2);
    std::vector<Ptr<RtiLrc>> lrcs{f1, f2};
    for (uint32_t k = 0; k < 2; ++k)
    {
        tno::Cockpit& c = cockpits[k];
        c.rci = makeRci(lrcs[k], sheet, clocks[k]);
        // Misses by kind of action: the name without its trailing number ("dynamics3").
        c.rci->TraceConnectWithoutContext(
            "Action",
            Callback<void, const std::string&, Time, Time>(
                [&tally](const std::string& name, Time scheduled, Time started) {
                    if (started - scheduled > MilliSeconds(1))
                    {
                        ++tally.missesBy[name.substr(0, name.find_last_not_of("0123456789") + 1)];
                    }
                }));
        tno::SetCockpitActions(c,
                               lrcs[k]->GetProcess(),
                               sheet,
                               k == 0 ? tno::CLASS_F1 : tno::CLASS_F2,
                               tally,
                               end);
        const uint32_t peer = k == 0 ? tno::CLASS_F2 : tno::CLASS_F1;
        c.rci->SetReflectCallback(RtiLrc::ReflectCallback([&, peer](const RtiLrc::Reflection& r) {
            if (r.objectClass == tno::CLASS_CGF)
            {
                ++tally.cgfReflected;
                return;
            }
            // Latency between federates: Fighter 1's output to Fighter 2's application
            // (and back), in true time.
            const auto& st = tally.sendTimes[peer];
            if (r.objectClass == peer && r.seq < st.size() && st[r.seq] >= start)
            {
                Time l = Simulator::Now() - st[r.seq];
                tally.maxFederate = Max(tally.maxFederate, l);
                tally.sumFederate += l.GetSeconds();
                ++tally.nFederate;
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
                              tally.sendTimes[tno::CLASS_CGF].push_back(Simulator::Now());
                              cgfRci->Update(tno::CLASS_CGF, 1400);
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
    if (o.scheduler == "hla")
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
                end = start + Seconds(o.duration);
                run();
            }));
        }
    }
    else
    {
        Simulator::ScheduleNow(run);
    }
    // Bounds the run if the enables never complete (TCP gives up after ConnCount SYNs).
    Time stop = Seconds(120) + Seconds(o.duration);
    Simulator::Stop(stop);
    opts.StartProgress(stop);
    Simulator::Stop(stop);
    Simulator::Run();

    tno::FillSchedulersRecord(
        rec,
        o,
        {cockpits, tally, clk, start, enabledAt, enabled == rcis.size(), fedex, lrcs});
    rec.SetInt("events", opts.GetEventCount());
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
