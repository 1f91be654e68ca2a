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

/** Samples (s) and their histogram. */
struct Samples
{
    std::vector<double> v; //!< the samples (s)

    /**
     * Declare the fields that Write() fills.
     * @param rec the record
     */
    static void Declare(ResultRecord& rec)
    {
        rec.Declare("samples", ResultRecord::INT, "samples: activations or datagrams received")
            .Declare("mean_us",
                     ResultRecord::REAL,
                     "mean wake-up error (sched) or one-way latency (net) (us)",
                     ResultRecord::SOMETIMES)
            .Declare("min_us", ResultRecord::REAL, "smallest sample (us)", ResultRecord::SOMETIMES)
            .Declare("max_us", ResultRecord::REAL, "largest sample (us)", ResultRecord::SOMETIMES)
            .Declare("jitter_us",
                     ResultRecord::REAL,
                     "jitter: max minus min of the samples (us)",
                     ResultRecord::SOMETIMES)
            .Declare("hist_start_us",
                     ResultRecord::REAL,
                     "lower edge of the first histogram bin (us)",
                     ResultRecord::SOMETIMES)
            .Declare("hist_bin_us",
                     ResultRecord::REAL,
                     "histogram bin width (us)",
                     ResultRecord::SOMETIMES)
            .Declare("hist_counts",
                     ResultRecord::SERIES,
                     "samples per histogram bin, from the minimum's bin to the maximum's",
                     ResultRecord::SOMETIMES);
    }

    /**
     * Write the statistics and the histogram (us) into a record.
     * @param rec the record
     * @param binUs the histogram's bin width (us)
     */
    void Write(ResultRecord& rec, double binUs) const
    {
        rec.SetInt("samples", v.size());
        if (v.empty())
        {
            return; // (the network lost every datagram: no statistics)
        }
        double sum = 0;
        for (double x : v)
        {
            sum += x;
        }
        auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        rec.Set("mean_us", sum / v.size() * 1e6);
        rec.Set("min_us", *lo * 1e6);
        rec.Set("max_us", *hi * 1e6);
        rec.Set("jitter_us", (*hi - *lo) * 1e6);
        // Histogram from the bin holding the minimum to the bin holding the maximum.
        const double first = std::floor(*lo * 1e6 / binUs);
        const auto nBins = static_cast<std::size_t>(std::floor(*hi * 1e6 / binUs) - first) + 1;
        std::vector<double> counts(nBins, 0.0);
        for (double x : v)
        {
            auto k = static_cast<std::size_t>(std::floor(x * 1e6 / binUs) - first);
            counts[std::min(k, nBins - 1)] += 1;
        }
        rec.Set("hist_start_us", first * binUs);
        rec.Set("hist_bin_us", binUs);
        rec.SetSeries("hist_counts", counts);
    }
};

/** The periodic task of the scheduling measurement. */
class PeriodicTask
{
  public:
    /**
     * @param proc the task's process (bound to its core)
     * @param period the period
     * @param busyWait sleep until this long before the time, then busy-wait (0: sleep only)
     * @param clockRead the cost of one clock read of the busy-wait loop
     * @param n activations
     */
    PeriodicTask(Ptr<HostProcess> proc, Time period, Time busyWait, Time clockRead, uint32_t n)
        : m_proc(proc)
        , m_period(period)
        , m_busyWait(busyWait)
        , m_clockRead(clockRead)
        , m_n(n)
    {
    }

    /**
     * Start: the first activation is one period after @p start.
     * @param start a time (now or later)
     */
    void Start(Time start)
    {
        m_next = start + m_period;
        Arm();
    }

    /** @return the wake-up errors */
    const Samples& GetErrors() const
    {
        return m_errors;
    }

  private:
    /** Sleep towards the next activation. */
    void Arm()
    {
        if (m_busyWait.IsStrictlyPositive())
        {
            m_proc->SleepUntil(m_next - m_busyWait, Callback<void>([this]() { Poll(); }));
        }
        else
        {
            m_proc->SleepUntil(m_next, Callback<void>([this]() { Activate(); }));
        }
    }

    /** One iteration of the busy-wait loop: read the clock; go on while the time has not come.
     * The clock value is the time at the end of the read (the loop compares it, then reads on). */
    void Poll()
    {
        if (Simulator::Now() >= m_next)
        {
            Activate();
            return;
        }
        m_proc->Execute(m_clockRead, Callback<void>([this]() { Poll(); }));
    }

    /** The task runs: record its wake-up error and sleep again. */
    void Activate()
    {
        m_errors.v.push_back((Simulator::Now() - m_next).GetSeconds());
        if (m_errors.v.size() < m_n)
        {
            m_next += m_period;
            Arm();
        }
    }

    Ptr<HostProcess> m_proc; //!< the task
    Time m_period;           //!< period
    Time m_busyWait;         //!< busy-wait before the time
    Time m_clockRead;        //!< one clock read
    uint32_t m_n;            //!< activations
    Time m_next;             //!< the next activation's time
    Samples m_errors;        //!< wake-up errors (s)
};

/** One end of the network measurement: a process with a UDP socket on the lowest RTI-DM
 * layer (the RTI's transport cost and the host's socket costs, no RTI encoding). */
struct Endpoint
{
    Ptr<HostProcess> proc; //!< the process
    Ptr<Socket> socket;    //!< its UDP socket
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
    Time switchCycle = tno::SWITCH_ARBITRATION_CYCLE;
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
    Samples::Declare(rec);
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
        addr = tno::InstallLan(machines, hub, 500, nullptr, switchCycle);
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

    Samples result;
    std::unique_ptr<PeriodicTask> task;
    // The network measurement's state.
    Endpoint tx;
    Endpoint rx;
    Ptr<RtiSettings> rti;
    uint32_t sent = 0;
    uint64_t malformed = 0;
    const uint16_t port = 7000;
    const InetSocketAddress to(addr.back(), port);
    std::function<void(Time)> send;
    Time nextSend; // echo: the next send's time, once the reply is in
    const bool echo = method == "echo";
    // A datagram read by one end: its stamp, and whether it is the warm-up (datagram 0: its
    // sender resolves the other's address by ARP first; not a sample).
    auto parse = [&](Ptr<Packet> p, Time& stamp, bool& warmup) {
        if (p->GetSize() != dataBytes)
        {
            ++malformed;
            return false;
        }
        uint8_t buf[dataBytes];
        p->CopyData(buf, dataBytes);
        uint64_t ns = 0;
        for (int k = 0; k < 8; ++k)
        {
            ns = (ns << 8) | buf[k];
        }
        stamp = NanoSeconds(static_cast<int64_t>(ns));
        warmup = buf[8] == 0 && buf[9] == 0 && buf[10] == 0 && buf[11] == 0;
        return true;
    };
    // The lowest RTI-DM layer's cost of one read or one send on an end's host. A read ends a
    // blocking wait (each datagram finds its reader blocked): the wake-up's kernel work on the
    // reader's CPU (the host's WaitCost) is on the datagram's path, as in RtiLrc.
    auto readCost = [&](Endpoint& e) {
        Ptr<HostPlatform> host = e.proc->GetPlatform();
        return host->GetWaitCost()
               + host->GetCpu()->CyclesToTime(rti->TransportCycles()
                                              * host->GetReferenceCycleFactor())
               + host->GetRecvCost(dataBytes);
    };
    auto sendCost = [&](Endpoint& e) {
        Ptr<HostPlatform> host = e.proc->GetPlatform();
        return host->GetCpu()->CyclesToTime(rti->TransportCycles()
                                            * host->GetReferenceCycleFactor())
               + host->GetSendCost(dataBytes);
    };
    const InetSocketAddress back(addr[0], port);
    if (!net)
    {
        Ptr<HostProcess> proc = hosts[0]->CreateProcess();
        proc->SetCore(1);
        Time clockRead = hosts[0]->GetCpu()->CyclesToTime(clockReadCycles);
        task
            = std::make_unique<PeriodicTask>(proc, interval, Seconds(busyWait), clockRead, samples);
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
        rti = rtiHelper.GetSettings();
        for (uint32_t i = 0; i < 2; ++i)
        {
            Endpoint& e = i == 0 ? tx : rx;
            e.proc = hosts[i]->CreateProcess();
            e.proc->SetCore(1);
            e.socket = Socket::CreateSocket(machines.Get(i), UdpSocketFactory::GetTypeId());
            NS_ABORT_MSG_IF(e.socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) != 0,
                            "tno-jitter: cannot bind the UDP socket");
        }
        // Receiver: blocked in its read; the datagram wakes it; it reads and takes the time
        // (oneway) or sends the datagram back (echo).
        rx.socket->SetRecvCallback(Callback<void, Ptr<Socket>>([&](Ptr<Socket> sock) {
            while (Ptr<Packet> p = sock->Recv())
            {
                Time stamp;
                bool warmup = false;
                if (!parse(p, stamp, warmup))
                {
                    continue;
                }
                Time cost = readCost(rx);
                rx.proc->Wake(Callback<void>([&, cost, stamp, warmup, p]() {
                    rx.proc->Execute(cost, Callback<void>([&, stamp, warmup, p]() {
                                         if (echo)
                                         {
                                             rx.proc->Execute(sendCost(rx),
                                                              Callback<void>([&, p]() {
                                                                  rx.socket->SendTo(p, 0, back);
                                                              }));
                                             return;
                                         }
                                         if (!warmup)
                                         {
                                             result.v.push_back(
                                                 (Simulator::Now() - stamp).GetSeconds());
                                         }
                                     }));
                }));
            }
        }));
        // Echo: the sender, blocked in its read after each send, reads the reply, takes half
        // the round trip, then sleeps until its next send.
        tx.socket->SetRecvCallback(Callback<void, Ptr<Socket>>([&](Ptr<Socket> sock) {
            while (Ptr<Packet> p = sock->Recv())
            {
                Time stamp;
                bool warmup = false;
                if (!echo || !parse(p, stamp, warmup))
                {
                    continue;
                }
                Time cost = readCost(tx);
                tx.proc->Wake(Callback<void>([&, cost, stamp, warmup]() {
                    tx.proc->Execute(cost, Callback<void>([&, stamp, warmup]() {
                                         if (!warmup)
                                         {
                                             result.v.push_back(
                                                 (Simulator::Now() - stamp).GetSeconds() / 2);
                                         }
                                         if (sent <= samples)
                                         {
                                             send(nextSend);
                                         }
                                     }));
                }));
            }
        }));
        // Sender: wakes every interval, takes the time, sends through the lowest layer.
        send = [&](Time at) {
            tx.proc->SleepUntil(at, Callback<void>([&, at]() {
                                    uint64_t ns = Simulator::Now().GetNanoSeconds();
                                    uint8_t buf[dataBytes] = {};
                                    for (int k = 0; k < 8; ++k)
                                    {
                                        buf[k] = static_cast<uint8_t>(ns >> (56 - 8 * k));
                                    }
                                    for (int k = 0; k < 4; ++k)
                                    {
                                        buf[8 + k] = static_cast<uint8_t>(sent >> (24 - 8 * k));
                                    }
                                    Ptr<Packet> p = Create<Packet>(buf, dataBytes);
                                    tx.proc->Execute(sendCost(tx), Callback<void>([&, p]() {
                                                         tx.socket->SendTo(p, 0, to);
                                                     }));
                                    nextSend = at + interval;
                                    if (++sent <= samples && !echo)
                                    {
                                        send(nextSend);
                                    }
                                }));
        };
        send(start); // datagram 0: the warm-up
        Simulator::Stop(start + interval * int64_t(samples + 2) + Seconds(1));
    }
    opts.StartProgress(start + interval * int64_t(samples + 2));
    Simulator::Run();

    const Samples& s = net ? result : task->GetErrors();
    // A scheduling measurement always has its activations; the network may lose datagrams (a
    // result: "lost").
    NS_ABORT_MSG_IF(!net && s.v.empty(), "tno-jitter: no activation");
    s.Write(rec, binUs);
    if (net)
    {
        NS_ABORT_MSG_IF(s.v.size() > samples, s.v.size() << " samples of " << samples);
        rec.SetInt("sent", sent);
        rec.SetInt("malformed", malformed);
        rec.SetInt("received", s.v.size());
        rec.SetInt("lost", samples - s.v.size());
    }
    rec.SetInt("events", opts.GetEventCount());
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
