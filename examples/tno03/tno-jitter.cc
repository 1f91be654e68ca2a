/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [TNO03] jitter measurements, no load, on the SGI Onyx (IRIX 6.5) or the iHawk (RedHawk):
 *
 *   --measure=sched  local scheduling jitter: a periodic task on a shielded CPU (the 250 MHz
 *                    Onyx, the 700 MHz iHawk) wakes --samples times every --period; its wake-up
 *                    error is the time it runs minus the time it asked for; jitter = max - min.
 *                    On IRIX the task sleeps until its time; on RedHawk it sleeps until
 *                    --busyWait before its time and then busy-waits, reading the clock (each
 *                    read costs --clockReadCycles) until the time has come.
 *   --measure=net    network latency between two processes on two machines (Onyx 250 MHz ->
 *                    Onyx 195 MHz, iHawk 700 MHz -> iHawk 2400 MHz, each process on a shielded
 *                    CPU) that exchange UDP datagrams through the lowest RTI-DM layer: 16 bytes
 *                    of data in a 44-byte IP packet (padded to Ethernet's 64-byte minimum
 *                    frame), one every --period through a 100 Mbit/s switch (or --hub). One-way
 *                    latency from the sender's call to the receiver's return from its read,
 *                    both clocks synchronised (a clock card: the simulation's time).
 *
 * The record holds mean, min, max, jitter (max - min) and a histogram of the samples.
 *
 *   ./tno-jitter --measure=net --platform=irix --RngRun=1 --output=r.json
 */

#include "tno-jitter-parts.h"
#include "tno-lan.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("TnoJitter");

namespace
{

/** The machines of one profile family. */
struct Family
{
    std::string a; //!< the measuring machine (scheduling; network sender)
    std::string b; //!< the network receiver
};

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    std::string measure = "sched";
    std::string family = "irix";
    uint32_t samples = 10000;
    double period = 1e-3;
    double busyWait = -1;
    double clockReadCycles = -1;
    double binUs = -1;
    bool hub = false;
    std::string method = "oneway";
    std::string hostA;
    std::string hostB;
    std::string hostSet;
    std::string rtiProfile = "tno-rti-dm";
    std::string rtiSet;
    std::string profileFile;
    std::string bandName = "central";
    tno::SwitchOptions switchOptions;
    const uint32_t dataBytes = 16; // [TNO03]: 16 bytes of data in a 44-byte packet

    ProgramOptions opts("tno-jitter",
                        "[TNO03] scheduling jitter of a periodic task on a shielded CPU, or the "
                        "one-way network latency through the lowest RTI-DM layer");
    opts.AddChoice("measure", "what to measure", measure, {"sched", "net"});
    opts.AddChoice("platform",
                   "the machines: SGI Onyx (IRIX) or iHawk (RedHawk)",
                   family,
                   {"irix", "ihawk"});
    opts.Add("samples", "activations or datagrams", samples, 2, 10000000);
    opts.Add("period", "the task's period or the datagrams' interval (s)", period, 1e-4, 10.0, "s");
    opts.Add("busyWait",
             "sched: busy-wait this long before each activation (s); -1: the profile's way "
             "(IRIX sleeps only, RedHawk 20 us)",
             busyWait,
             -1.0,
             1.0,
             "s");
    opts.Add("clockReadCycles",
             "sched: CPU cycles of one clock read in the busy-wait loop; -1: the profile's "
             "(gettimeofday, doc/tno.rst)",
             clockReadCycles,
             -1.0,
             1e7,
             "cycles");
    opts.Add("binUs", "histogram bin width; -1: 1 us (sched), 5 us (net)", binUs, -1.0, 1e4, "us");
    opts.Add("hub", "net: a 100 Mbit/s hub instead of the switch", hub);
    opts.AddChoice("method",
                   "net: one-way latency on synchronised clocks (oneway), or half the round "
                   "trip of an echo: the receiver sends each datagram back and the sender, "
                   "which waits for it, takes half its round trip (echo; both directions)",
                   method,
                   {"oneway", "echo"});
    tno::AddSwitchOptions(opts, switchOptions);
    opts.AddChoice("band",
                   "the iHawk's uncalibrated parameters at their central values or at the fast "
                   "or slow end of their documented ranges (doc/tno.rst); no effect on the Onyx",
                   bandName,
                   {"central", "fast", "slow"});
    opts.AddHostProfile(hostA,
                        "host profile of the measuring machine (A; empty: the platform's)",
                        true);
    opts.AddProfile("peerProfile",
                    "host",
                    "net: host profile of the receiving machine (B; empty: the platform's)",
                    hostB,
                    true);
    opts.AddHostSet(hostSet);
    opts.AddRtiProfile(rtiProfile, "net: the RTI whose lowest RTI-DM layer carries the datagrams");
    opts.AddRtiSet(rtiSet);
    opts.AddProfileFile(profileFile);
    opts.AddDeprecated("profile", "platform");
    opts.AddDeprecated("bin", "binUs");
    opts.AddDeprecated("hostA", "hostProfile");
    opts.AddDeprecated("hostB", "peerProfile");
    ResultRecord& rec = opts.Record();
    rec.Declare("measure", ResultRecord::STRING, "--measure: sched or net")
        .Declare("band", ResultRecord::STRING, "--band")
        .Declare("profile", ResultRecord::STRING, "--platform: the machine family (irix, ihawk)")
        .Declare("host_a", ResultRecord::STRING, "host profile of the measuring (sending) machine")
        .Declare("host_b",
                 ResultRecord::STRING,
                 "net: host profile of the receiving machine",
                 ResultRecord::SOMETIMES)
        .Declare("network", ResultRecord::STRING, "net: hub or switch", ResultRecord::SOMETIMES)
        .Declare("method",
                 ResultRecord::STRING,
                 "net: oneway or echo (half the round trip)",
                 ResultRecord::SOMETIMES)
        .Declare("period_s", ResultRecord::REAL, "task period or datagram interval (s)")
        .Declare("busy_wait_us",
                 ResultRecord::REAL,
                 "sched: busy-wait before each activation (us)",
                 ResultRecord::SOMETIMES)
        .Declare("clock_read_us",
                 ResultRecord::REAL,
                 "sched: cost of one clock read (us)",
                 ResultRecord::SOMETIMES)
        .Declare("sent",
                 ResultRecord::INT,
                 "net: datagrams sent, the warm-up included",
                 ResultRecord::SOMETIMES)
        .Declare("malformed",
                 ResultRecord::INT,
                 "net: datagrams of the wrong size, dropped",
                 ResultRecord::SOMETIMES)
        .Declare("received",
                 ResultRecord::INT,
                 "net: datagrams that arrived (= samples)",
                 ResultRecord::SOMETIMES)
        .Declare("lost",
                 ResultRecord::INT,
                 "net: datagrams that never arrived (--samples - received)",
                 ResultRecord::SOMETIMES)
        .Declare("events", ResultRecord::INT, "simulator events");
    tno::Samples::Declare(rec);
    Family machinesOf;
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        ProgramOptions::Require(busyWait < 0 || busyWait < period,
                                "--busyWait must be shorter than --period");
        machinesOf = family == "irix" ? Family{"onyx-irix65-250", "onyx-irix65-195"}
                                      : Family{"ihawk-redhawk-700", "ihawk-redhawk-2400"};
        machinesOf.a = ProgramOptions::WithHostSet(hostA.empty() ? machinesOf.a : hostA, hostSet);
        machinesOf.b = ProgramOptions::WithHostSet(hostB.empty() ? machinesOf.b : hostB, hostSet);
    });
    opts.Parse(argc, argv);
    const bool irix = family == "irix";
    if (busyWait < 0)
    {
        // RedHawk's way (the study): sleep, then a short busy-wait; 20 us is beyond the largest
        // wake-up latency of the profile (6 us), so the busy-wait absorbs it. IRIX: sleep only.
        busyWait = irix ? 0.0 : 20e-6;
    }
    if (clockReadCycles < 0)
    {
        // gettimeofday(): a system call and the TSC interpolation of Linux 2.4 (doc/tno.rst).
        clockReadCycles = 700;
    }
    if (binUs < 0)
    {
        binUs = measure == "sched" ? 1.0 : 5.0;
    }

    const bool net = measure == "net";
    NodeContainer machines;
    machines.Create(net ? 2 : 1);
    InternetStackHelper internet;
    internet.Install(machines);
    std::vector<Ipv4Address> addr(machines.GetN(), Ipv4Address("127.0.0.1"));
    if (net)
    {
        addr = tno::InstallLan(machines,
                               hub,
                               500,
                               nullptr,
                               switchOptions.cycle,
                               family == "irix" ? switchOptions.onyxMode : "");
    }
    std::vector<Ptr<HostPlatform>> hosts = tno::InstallHosts(machines, machinesOf.a, machinesOf.b);
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        tno::ApplyBand(hosts[i], i == 0 ? machinesOf.a : machinesOf.b, tno::ParseBand(bandName));
    }
    const Time start = Seconds(0.1);
    const Time interval = Seconds(period);

    rec.SetString("measure", measure);
    rec.SetString("profile", family);
    rec.SetString("band", bandName);
    rec.SetString("host_a", machinesOf.a);
    rec.Set("period_s", period);

    std::unique_ptr<tno::PeriodicTask> task;
    std::unique_ptr<tno::NetLatency> latency;
    if (!net)
    {
        Ptr<HostProcess> proc = hosts[0]->CreateProcess();
        proc->SetCore(1);
        Time clockRead = hosts[0]->GetCpu()->CyclesToTime(clockReadCycles);
        task = std::make_unique<tno::PeriodicTask>(proc,
                                                   interval,
                                                   Seconds(busyWait),
                                                   clockRead,
                                                   samples);
        task->Start(start);
        rec.Set("busy_wait_us", busyWait * 1e6);
        rec.Set("clock_read_us", clockRead.GetSeconds() * 1e6);
        Simulator::Stop(start + interval * int64_t(samples + 2));
    }
    else
    {
        rec.SetString("host_b", machinesOf.b);
        rec.SetString("network", hub ? "hub" : "switch");
        rec.SetString("method", method);
        // The lowest RTI-DM layer: the RTI's transport cost on top of the host's socket calls.
        RtiHelper rtiHelper;
        rtiHelper.SetProfile(rtiProfile);
        const std::string why
            = rtiHelper.TrySetSettings(ProgramOptions::ParseSettings(rtiSet, "rtiSet"));
        ProgramOptions::Require(why.empty(), "--rtiSet: " + why);
        latency = std::make_unique<tno::NetLatency>(samples, interval, method == "echo", dataBytes);
        latency->Setup(machines, hosts, addr, rtiHelper.GetSettings());
        latency->Start(start);
        Simulator::Stop(start + interval * int64_t(samples + 2) + Seconds(1));
    }
    opts.StartProgress(start + interval * int64_t(samples + 2));
    Simulator::Run();

    const tno::Samples& s = net ? latency->GetSamples() : task->GetErrors();
    // A scheduling measurement always has its activations; the network may lose datagrams (a
    // result: "lost").
    NS_ABORT_MSG_IF(!net && s.v.empty(), "tno-jitter: no activation");
    s.Write(rec, binUs);
    if (net)
    {
        NS_ABORT_MSG_IF(s.v.size() > samples, s.v.size() << " samples of " << samples);
        rec.SetInt("sent", latency->GetSent());
        rec.SetInt("malformed", latency->GetMalformed());
        rec.SetInt("received", s.v.size());
        rec.SetInt("lost", samples - s.v.size());
    }
    rec.SetInt("events", opts.GetEventCount());
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
