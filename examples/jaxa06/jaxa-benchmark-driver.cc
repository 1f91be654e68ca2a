/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "jaxa-benchmark-driver.h"

#include "jaxa-benchmark-federate.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/emulated-testbed-helper.h"
#include "ns3/enum.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/host-platform-helper.h"
#include "ns3/host-platform.h"
#include "ns3/inet-socket-address.h"
#include "ns3/link-emulator-queue-disc.h"
#include "ns3/log.h"
#include "ns3/neighbour-probe.h"
#include "ns3/object-vector.h"
#include "ns3/profile.h"
#include "ns3/program-options.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/rti-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tick-timer.h"
#include "ns3/udp-frame-source.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/user-attributes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JaxaBenchmark");

namespace
{

/** Which repetition runs, for the wall-clock watch's note (ProgramOptions::SetProgressNote). */
std::string g_repetition;

/** When the master registers the start synchronization point: the RTI has every join by then
 * with link delays up to about 0.33 s (three crossings); with longer ones the master registers
 * it when the last program has joined. */
const Time READY_AT = Seconds(1);

/**
 * Total CPU busy time of a host, all classes.
 * @param node the node
 * @return busy time
 */
Time
Busy(Ptr<Node> node)
{
    Ptr<HostCpu> cpu = node->GetObject<HostPlatform>()->GetCpu();
    return cpu->GetBusyTime(HostCpu::HARDIRQ) + cpu->GetBusyTime(HostCpu::SOFTIRQ)
           + cpu->GetBusyTime(HostCpu::PROCESS);
}

/**
 * Every frame on the two federate links from the start of the loop: when each NIC began one,
 * how long the wire carries it whole, whether its sender saw a collision.
 */
struct FrameLog
{
    std::vector<JaxaFrameSpan> frames;              //!< absolute times (us), in trace order
    std::array<int64_t, 4> current{-1, -1, -1, -1}; //!< frame each lane is sending
    bool recording{false};                          //!< the loop has started
    std::vector<JaxaFrameSpan> taken; //!< before the loop: frames taken that start later

    /** The loop starts: the frames from now on, those taken earlier that start now or later
     * included. */
    void Start()
    {
        recording = true;
        const double now = Simulator::Now().GetSeconds() * 1e6;
        for (const auto& f : taken)
        {
            if (f.startUs >= now)
            {
                frames.push_back(f);
            }
        }
        taken.clear();
    }

    /** The loop has ended: a frame taken that has not started by now is not on the wire. */
    void End()
    {
        const double now = Simulator::Now().GetSeconds() * 1e6;
        frames.erase(std::remove_if(frames.begin(),
                                    frames.end(),
                                    [now](const JaxaFrameSpan& f) { return f.startUs > now; }),
                     frames.end());
    }
};

/**
 * Trace every frame a device begins (lane = its index in EmulatedTestbed::GetDevices(): host A,
 * NIST Net's A side, NIST Net's B side, host B).
 * @param log the log
 * @param device the device
 * @param lane its lane
 */
void
TraceFrames(FrameLog& log, Ptr<NetDevice> device, uint32_t lane)
{
    auto record = [&log, lane](double startUs, double endUs) {
        if (!log.recording)
        {
            return;
        }
        JaxaFrameSpan f;
        f.startUs = startUs;
        f.endUs = endUs;
        f.lane = lane;
        log.current[lane] = static_cast<int64_t>(log.frames.size());
        log.frames.push_back(f);
    };
    if (auto eth = DynamicCast<EthernetNetDevice>(device))
    {
        // PhyTxBegin's packet is the frame, header to FCS; the preamble and SFD precede it.
        const DataRate rate = eth->GetLinkRate();
        eth->TraceConnectWithoutContext(
            "Collision",
            Callback<void, uint32_t, bool>([&log, lane](uint32_t, bool) {
                if (log.recording && log.current[lane] >= 0)
                {
                    log.frames[log.current[lane]].collided = true;
                }
            }));
        eth->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>([record, rate](Ptr<const Packet> p) {
                const double start = Simulator::Now().GetSeconds() * 1e6;
                record(start,
                       start
                           + rate.CalculateBytesTxTime(p->GetSize() + EthernetFraming::PREAMBLE)
                                     .GetSeconds()
                                 * 1e6);
            }));
        return;
    }
    // The lean MAC knows a frame's wire span when it takes the frame, which may be before the
    // loop starts (FrameLog::Start) and the frame itself after the loop ends (FrameLog::End).
    Ptr<FullDuplexEthernetNetDevice> lean = DynamicCast<FullDuplexEthernetNetDevice>(device);
    NS_ABORT_MSG_IF(!lean, "JaxaBenchmark: the federate links are Ethernet (EthernetLinkHelper)");
    lean->TraceConnectWithoutContext(
        "FrameTx",
        Callback<void, Ptr<const Packet>, Time, Time>(
            [record, &log, lane](Ptr<const Packet>, Time s, Time e) {
                const double start = s.GetSeconds() * 1e6;
                const double end = start + (e - s).GetSeconds() * 1e6;
                if (log.recording)
                {
                    record(start, end);
                    return;
                }
                const double now = Simulator::Now().GetSeconds() * 1e6;
                log.taken.erase(
                    std::remove_if(log.taken.begin(),
                                   log.taken.end(),
                                   [now](const JaxaFrameSpan& f) { return f.startUs < now; }),
                    log.taken.end());
                JaxaFrameSpan f;
                f.startUs = start;
                f.endUs = end;
                f.lane = lane;
                log.taken.push_back(f);
            }));
}

/**
 * Frame pairs of opposite directions on one link whose wire spans overlap.
 * @param frames the frames (in start order)
 * @param a one lane of the link
 * @param b the other
 * @param touched set for every frame of an overlapping pair (indexed like frames)
 * @return the number of pairs
 */
uint64_t
CountOverlaps(const std::vector<JaxaFrameSpan>& frames,
              uint32_t a,
              uint32_t b,
              std::vector<bool>& touched)
{
    std::vector<size_t> la;
    std::vector<size_t> lb;
    for (size_t i = 0; i < frames.size(); ++i)
    {
        if (frames[i].lane == a)
        {
            la.push_back(i);
        }
        else if (frames[i].lane == b)
        {
            lb.push_back(i);
        }
    }
    // One NIC sends one frame at a time: each lane's spans are disjoint and sorted, so a merge
    // finds every overlapping pair.
    uint64_t n = 0;
    size_t i = 0;
    size_t j = 0;
    while (i < la.size() && j < lb.size())
    {
        const JaxaFrameSpan& x = frames[la[i]];
        const JaxaFrameSpan& y = frames[lb[j]];
        if (x.startUs < y.endUs && y.startUs < x.endUs)
        {
            ++n;
            touched[la[i]] = true;
            touched[lb[j]] = true;
        }
        if (x.endUs <= y.endUs)
        {
            ++i;
        }
        else
        {
            ++j;
        }
    }
    return n;
}

/** The per-repetition counts a run with --background reports (series, one value per
 * repetition), each with what it counts: collisions, late collisions, FCS errors, TCP
 * retransmissions and timeouts, and the background's own frames. */
const std::array<std::pair<const char*, const char*>, 6> BACKGROUND_RUN_FIELDS{
    {{"eth_collisions_runs", "802.3 collisions"},
     {"eth_late_collisions_runs", "late collisions"},
     {"eth_fcs_errors_runs", "FCS errors"},
     {"tcp_retransmissions_runs", "TCP retransmissions"},
     {"tcp_rtos_runs", "TCP retransmission timeouts"},
     {"background_frames_runs", "background probes and datagrams"}}};

/** The traffic besides the benchmark's of one repetition (--background). */
struct Background
{
    /** A repetition ends, unfinished, when its background has sent this many datagrams: the
     * benchmark is then in repeated TCP timeouts (a duplex mismatch under a load), and each
     * further simulated second would cost the background's events for nothing it measures. */
    static constexpr uint64_t FRAME_LIMIT = 500000;

    std::vector<Ptr<NeighbourProbe>> probes;  //!< arp: the NIST Net PC's probes
    std::vector<Ptr<UdpFrameSource>> sources; //!< udp: both ends of both federate links
    std::vector<Ptr<Socket>> sinks;           //!< udp: the discard service on every PC
    std::shared_ptr<uint64_t> datagrams{std::make_shared<uint64_t>(0)}; //!< udp: sent so far

    /** @return probes and datagrams the adapters accepted */
    uint64_t Sent() const
    {
        uint64_t n = 0;
        for (const auto& p : probes)
        {
            n += p->GetProbes();
        }
        for (const auto& s : sources)
        {
            n += s->GetSent();
        }
        return n;
    }
};

/**
 * Install --background on the testbed's federate links (doc/rti.rst, "Traffic besides the
 * benchmark's").
 * arp: the NIST Net PC forwards the benchmark's packets and gets no confirmation of its
 * neighbours from them, so Linux re-validates its entries of host A and host B with a unicast
 * ARP probe every cycle (NeighbourProbe: Linux 2.4's defaults); the federate PCs' own entries
 * of the NIST Net PC are confirmed by their TCP connections' ACKs and never probed.
 * udp: on each federate link both ends send datagrams to the other's discard port (9) at
 * --backgroundRate each, Poisson, handed to the adapter (no host stack on the sending side);
 * each PC runs a discard socket (no ICMP port-unreachable comes back).
 * @param c the configuration
 * @param tb the testbed
 * @return the sources, to count
 */
Background
InstallBackground(const JaxaBenchmarkConfig& c, const EmulatedTestbed& tb)
{
    Background bg;

    // (device, its address, the neighbour's device, the neighbour's address)
    struct End
    {
        Ptr<NetDevice> dev;
        Ipv4Address addr;
        Ptr<NetDevice> peer;
        Ipv4Address peerAddr;
    };

    const std::array<End, 2> toHosts{
        End{tb.emulatorADevice, tb.emulatorAAddress, tb.hostADevice, tb.hostAAddress},
        End{tb.emulatorBDevice, tb.emulatorBAddress, tb.hostBDevice, tb.hostBAddress}};
    int64_t stream = 5000;
    if (c.background == "arp")
    {
        for (const End& e : toHosts)
        {
            Ptr<NeighbourProbe> probe = CreateObject<NeighbourProbe>();
            probe->SetTarget(e.dev, e.addr, e.peer->GetAddress(), e.peerAddr);
            stream += probe->AssignStreams(stream);
            e.dev->GetNode()->AddApplication(probe);
            bg.probes.push_back(probe);
        }
    }
    else if (c.background == "udp")
    {
        std::vector<End> ends;
        for (const End& e : toHosts)
        {
            ends.push_back(e);
            ends.push_back(End{e.peer, e.peerAddr, e.dev, e.addr});
        }
        for (const End& e : ends)
        {
            Ptr<UdpFrameSource> src = CreateObject<UdpFrameSource>();
            UserAttributes::SetFixed(src,
                                     "Rate",
                                     DoubleValue(c.backgroundRate),
                                     "from its option --backgroundRate");
            UserAttributes::SetFixed(src,
                                     "Poisson",
                                     BooleanValue(true),
                                     "for its background (--background=udp: Poisson)");
            UserAttributes::SetFixed(src,
                                     "PacketSize",
                                     UintegerValue(c.backgroundSize),
                                     "from its option --backgroundSize");
            src->SetTarget(e.dev, e.peer->GetAddress(), e.addr, e.peerAddr);
            stream += src->AssignStreams(stream);
            e.dev->GetNode()->AddApplication(src);
            src->TraceConnectWithoutContext(
                "Tx",
                Callback<void, Ptr<const Packet>>([n = bg.datagrams](Ptr<const Packet>) {
                    if (++*n == Background::FRAME_LIMIT)
                    {
                        Simulator::Stop();
                    }
                }));
            bg.sources.push_back(src);
        }
        for (Ptr<Node> node : {tb.hostA, tb.emulator, tb.hostB})
        {
            Ptr<Socket> sink = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
            sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
            sink->SetRecvCallback(Callback<void, Ptr<Socket>>([](Ptr<Socket> s) {
                while (s->Recv())
                {
                }
            }));
            bg.sinks.push_back(sink);
        }
    }
    return bg;
}

/**
 * The IEEE 802.3 counters of the testbed's half-duplex-capable NICs, summed.
 * @param tb the testbed
 * @return the sums
 */
EthernetNetDevice::Stats
SumEthernet(const EmulatedTestbed& tb)
{
    EthernetNetDevice::Stats sum;
    for (uint32_t i = 0; i < tb.GetDevices().GetN(); ++i)
    {
        if (auto eth = DynamicCast<EthernetNetDevice>(tb.GetDevices().Get(i)))
        {
            const auto& s = eth->GetStats();
            sum.collisions += s.collisions;
            sum.lateCollisions += s.lateCollisions;
            sum.excessiveCollisions += s.excessiveCollisions;
            sum.fcsErrors += s.fcsErrors;
            sum.runts += s.runts;
            sum.deferrals += s.deferrals;
        }
    }
    return sum;
}

/** Book-keeping of one repetition. */
struct RunState
{
    std::vector<Ptr<JaxaBenchmarkFederate>> data; //!< sender/receiver/bidirectional federates
    uint32_t started{0};                          //!< data federates started
    uint32_t done{0};                             //!< data federates done
    Ptr<Node> crcPc;                              //!< the CRC's PC
    Ptr<Node> otherPc;                            //!< the other PC
    Time busyCrc0;                                //!< CRC PC busy at the start
    Time busyOther0;                              //!< other PC busy at the start
    Time busyCrc1;                                //!< CRC PC busy at the end
    Time busyOther1;                              //!< other PC busy at the end
    std::vector<Time> steps;                      //!< when the clock's federate completed each
    FrameLog log;                                 //!< the frames on the federate links
    uint64_t retransmissions{0};                  //!< TCP retransmissions (hosts A and B)
    uint64_t rtos{0};                             //!< TCP entries into CA_LOSS
    uint64_t fastRecoveries{0};                   //!< TCP entries into CA_RECOVERY
    uint32_t lost{0};                             //!< federates whose RTI connection was lost
    std::size_t joined{0};                        //!< federates whose program learnt it joined
    uint32_t masterNode{0};                       //!< the master federate's node
};

/**
 * Count the TCP loss recoveries of every socket of a node (connected when the loop starts,
 * when the RTI's connections exist).
 * @param node the node
 * @param st the counters
 */
void
TraceTcp(Ptr<Node> node, RunState& st)
{
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    ObjectVectorValue sockets;
    tcp->GetAttribute("SocketList", sockets);
    for (auto it = sockets.Begin(); it != sockets.End(); ++it)
    {
        Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(it->second);
        if (!s)
        {
            continue;
        }
        s->TraceConnectWithoutContext(
            "Retransmission",
            Callback<void,
                     Ptr<const Packet>,
                     const TcpHeader&,
                     const Address&,
                     const Address&,
                     Ptr<const TcpSocketBase>>(
                [&st](Ptr<const Packet>,
                      const TcpHeader&,
                      const Address&,
                      const Address&,
                      Ptr<const TcpSocketBase>) { ++st.retransmissions; }));
        s->TraceConnectWithoutContext(
            "CongState",
            Callback<void, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t>(
                [&st](TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
                    if (now == TcpSocketState::CA_LOSS)
                    {
                        ++st.rtos;
                    }
                    else if (now == TcpSocketState::CA_RECOVERY)
                    {
                        ++st.fastRecoveries;
                    }
                }));
    }
}

/**
 * Count the overlaps and cut out the timeline of one step: from the middle of the loop on, the
 * first step (as the clock's federate sees it: from one grant to the next) in which frames of
 * opposite directions overlap on a link, else the middle step.
 * @param st the repetition's book-keeping
 * @param c the configuration
 * @param r the outcome to fill
 */
void
Timeline(const RunState& st, const JaxaBenchmarkConfig& c, JaxaBenchmarkRun& r)
{
    // In start order (the lean MAC reports a frame when it takes it, before it starts).
    std::vector<JaxaFrameSpan> frames = st.log.frames;
    std::stable_sort(frames.begin(), frames.end(), [](const auto& x, const auto& y) {
        return x.startUs < y.startUs;
    });
    std::vector<bool> touched(frames.size(), false);
    r.frames = frames.size();
    r.overlaps = CountOverlaps(frames, 0, 1, touched) + CountOverlaps(frames, 2, 3, touched);
    if (st.steps.size() < 2)
    {
        return;
    }
    const size_t middle = std::min(st.steps.size() - 2, static_cast<size_t>(c.exchanges / 2));
    size_t chosen = middle;
    bool found = false;
    for (size_t k = middle; r.overlaps > 0 && !found && k + 1 < st.steps.size(); ++k)
    {
        const double t0 = st.steps[k].GetSeconds() * 1e6;
        const double t1 = st.steps[k + 1].GetSeconds() * 1e6;
        for (size_t i = 0; i < frames.size() && !found; ++i)
        {
            if (touched[i] && frames[i].startUs >= t0 && frames[i].startUs < t1)
            {
                chosen = k;
                found = true;
            }
        }
    }
    const double t0 = st.steps[chosen].GetSeconds() * 1e6;
    const double t1 = st.steps[chosen + 1].GetSeconds() * 1e6;
    for (const auto& f : frames)
    {
        if (f.startUs >= t0 && f.startUs < t1)
        {
            JaxaFrameSpan g = f;
            g.startUs -= t0;
            g.endUs -= t0;
            r.timeline.push_back(g);
        }
    }
    r.timelineStep = static_cast<uint32_t>(chosen + 2); // steps[k] ends step k + 1
    r.timelineStepUs = t1 - t0;
}

/**
 * How a federate's program waits for its callbacks (JaxaBenchmarkConfig::wait).
 * @param f the federate
 * @param wait evoke, poll1000 or poll250
 */
void
SetWait(Ptr<JaxaBenchmarkFederate> f, const std::string& wait)
{
    if (wait == "evoke")
    {
        return;
    }
    // The kernel's tick: the host profile's timer (jiffies at 1000 Hz, one extra tick after the
    // expiry), or the same at 250 Hz.
    Ptr<TimerModel> tick;
    if (wait == "poll250")
    {
        tick = CreateObjectWithAttributes<TickTimer>("Frequency",
                                                     DoubleValue(250),
                                                     "ExtraTicks",
                                                     UintegerValue(1));
    }
    f->SetPolling(tick, MilliSeconds(1));
}

/**
 * What a clock started before "ready" would add per exchange (JaxaBenchmarkRun).
 * @param clock the federate whose PC's clock the benchmark reads
 * @param start when its loop started
 * @param exchanges the exchanges
 * @param r the run's outcome
 */
void
ReadClockRegions(Ptr<JaxaBenchmarkFederate> clock,
                 Time start,
                 uint32_t exchanges,
                 JaxaBenchmarkRun& r)
{
    auto perExchangeMs = [exchanges, start](Time from) {
        return (start - from).GetSeconds() * 1e3 / exchanges;
    };
    r.fromProgramStartMs = perExchangeMs(clock->GetProgramStartTime());
    r.fromJoinMs = perExchangeMs(clock->GetJoinedTime());
    r.fromDiscoveryMs
        = clock->GetDiscoveredTime().IsZero() ? 0.0 : perExchangeMs(clock->GetDiscoveredTime());
}

} // namespace

void
JaxaBenchmark::ApplyHostSet(EmulatedTestbedHelper& testbed, const std::string& changes)
{
    testbed.SetHostProfile(ProgramOptions::WithHostSet(testbed.GetHostProfile(), changes));
    testbed.SetEmulatorProfile(ProgramOptions::WithHostSet(testbed.GetEmulatorProfile(), changes));
}

void
JaxaBenchmark::AddHostOptions(ProgramOptions& opts, JaxaBenchmarkConfig& c)
{
    // --hostSet applied to the profiles the run will use (also the defaults), inside Parse().
    opts.AddCheck([&c]() {
        EmulatedTestbedHelper dry = EmulatedTestbedHelper::Jaxa06();
        SetHosts(dry, c);
    });
    opts.AddHostProfile(c.hostProfile, "host profile of the federate PCs");
    opts.AddProfile("emulatorProfile",
                    "host",
                    "host profile of the NIST Net PC",
                    c.emulatorProfile);
    opts.AddHostSet(c.hostSet);
    opts.AddProfileFile(c.profileFile);
}

namespace
{

/**
 * Whether a CPU with these settings keeps Simulator::Run() going for ever: its interference
 * stays simulator events while it is idle.
 * @param idle IdleInterferenceEvents
 * @param rate InterferenceRate
 * @param shieldedRate ShieldedInterferenceRate
 * @return whether it never lets the run end
 */
bool
TicksForever(bool idle, double rate, double shieldedRate)
{
    return idle && (rate > 0 || shieldedRate > 0);
}

const char* const RUN_ENDS_RULE
    = ": its CPU's interference stays simulator events while it is idle "
      "(HostCpu IdleInterferenceEvents=true with InterferenceRate or ShieldedInterferenceRate > "
      "0), "
      "and this program's run ends only when no event is left (it has no stop time): set "
      "IdleInterferenceEvents=false (the results are the same, doc/host.rst)";

} // namespace

void
JaxaBenchmark::RequireRunEnds(ProgramOptions& opts, const JaxaBenchmarkConfig& c)
{
    opts.AddCheck([&c]() {
        EmulatedTestbedHelper dry = EmulatedTestbedHelper::Jaxa06();
        SetHosts(dry, c);
        for (const std::string& profile : {dry.GetHostProfile(), dry.GetEmulatorProfile()})
        {
            if (profile.empty())
            {
                continue;
            }
            BooleanValue idle;
            DoubleValue rate;
            DoubleValue shielded;
            const auto boolean = MakeBooleanChecker();
            const auto real = MakeDoubleChecker<double>();
            // TryCheck has checked the values' syntax (Parse checks every named profile).
            idle.DeserializeFromString(
                HostPlatformHelper::CpuSetting(profile, "IdleInterferenceEvents"),
                boolean);
            rate.DeserializeFromString(HostPlatformHelper::CpuSetting(profile, "InterferenceRate"),
                                       real);
            shielded.DeserializeFromString(
                HostPlatformHelper::CpuSetting(profile, "ShieldedInterferenceRate"),
                real);
            ProgramOptions::Require(!TicksForever(idle.Get(), rate.Get(), shielded.Get()),
                                    "host profile " + profile + RUN_ENDS_RULE);
        }
    });
}

void
JaxaBenchmark::RequireRunEnds(const EmulatedTestbed& tb)
{
    for (const Ptr<Node>& node : {tb.hostA, tb.emulator, tb.hostB})
    {
        Ptr<HostPlatform> host = node ? node->GetObject<HostPlatform>() : nullptr;
        if (!host)
        {
            continue;
        }
        BooleanValue idle;
        DoubleValue rate;
        DoubleValue shielded;
        host->GetCpu()->GetAttribute("IdleInterferenceEvents", idle);
        host->GetCpu()->GetAttribute("InterferenceRate", rate);
        host->GetCpu()->GetAttribute("ShieldedInterferenceRate", shielded);
        ProgramOptions::Require(!TicksForever(idle.Get(), rate.Get(), shielded.Get()),
                                "PC node " + std::to_string(node->GetId()) + RUN_ENDS_RULE);
    }
}

void
JaxaBenchmark::SetHosts(EmulatedTestbedHelper& testbed, const JaxaBenchmarkConfig& c)
{
    testbed.SetHostProfile(c.hostProfile);
    testbed.SetEmulatorProfile(c.emulatorProfile);
    ApplyHostSet(testbed, c.hostSet);
}

void
JaxaBenchmark::AddOptions(ProgramOptions& opts, JaxaBenchmarkConfig& c)
{
    opts.AddChoice("mode",
                   "sync (time-stepped), async (receive order) or bidir (both send, sync)",
                   c.mode,
                   {"sync", "async", "bidir"});
    opts.Add("tsoData", "synchronised data in timestamp order (false: receive order)", c.tsoData);
    // Up to 1 MiB per update (larger than any update of the era's HLA benchmarks).
    opts.Add("dataSize", "payload bytes per update", c.dataSize, 1, 1048576, "bytes");
    opts.Add("bandwidth",
             "NIST Net bandwidth, each direction (0bps: none; up to the 100BASE-TX line)",
             c.bandwidth,
             DataRate(0),
             DataRate("100Mbps"));
    // Up to 10 s each way: beyond any link the studies emulated (a satellite hop is 0.25 s).
    opts.Add("delay", "NIST Net delay (e.g. 50ms)", c.delay, Seconds(0), Seconds(10));
    opts.AddChoice("delayDirection",
                   "where the delay applies",
                   c.delayDirection,
                   {"both", "a-to-b", "b-to-a"});
    opts.Add("netem", "netem semantics (rate and delay add) instead of NIST Net", c.netem);
    opts.Add("halfDuplex",
             "the federate PCs' NICs forced to half duplex (IEEE 802.3 CSMA/CD)",
             c.halfDuplex);
    opts.AddChoice("emulatorNic",
                   "with --halfDuplex, the NIST Net PC's NICs: forced half, autonegotiating "
                   "(parallel detection: half), or forced full (a duplex mismatch)",
                   c.emulatorNic,
                   {"half", "auto", "full"});
    // Up to 64 each: every time-only federate adds its grant traffic to every step (the
    // study's figure went to 6 + 6).
    opts.Add("extraCrc", "time-only federates on the CRC's PC", c.extraCrc, 0, 64);
    opts.Add("extraOther", "time-only federates on the other PC", c.extraOther, 0, 64);
    // 10^6 exchanges: about 25 million events for one repetition of the plain benchmark.
    opts.Add("exchanges", "exchanges per repetition", c.exchanges, 1, 1000000);
    opts.AddRepetitions("reps", "repetitions (run numbers RngRun, RngRun+1, ...)", c.reps, 1, 1000);
    opts.AddChoice("crcHost",
                   "PC of the CRC: receiver (host B) or sender (host A)",
                   c.crcHost,
                   {"receiver", "sender"});
    opts.AddRtiProfile(c.rtiProfile, "the RTI's profile");
    opts.AddChoice("galt",
                   "GALT algorithm (empty: the profile's)",
                   c.galt,
                   {"", "central", "null"});
    opts.AddChoice("nagle",
                   "Nagle on the RTI's TCP connections (empty: the profile's)",
                   c.nagle,
                   {"", "on", "off"});
    opts.AddChoice("wait",
                   "how the programs wait for callbacks: evokeCallback(1 s), or sleep-polling "
                   "(evokeCallback(0), then a 1 ms sleep when nothing came) on a 1000 Hz "
                   "(Linux 2.6 before 2.6.13) or 250 Hz (2.6.13's default) tick",
                   c.wait,
                   {"evoke", "poll1000", "poll250"});
    opts.AddChoice("background",
                   "traffic besides the benchmark's on the federate links: none, arp (the "
                   "NIST Net PC's unicast ARP probes of each federate PC, Linux's neighbour "
                   "re-validation) or udp (datagrams at --backgroundRate each way on each "
                   "federate link, Poisson)",
                   c.background,
                   {"none", "arp", "udp"});
    // Up to 10^5 datagrams/s each way: the two ends of a link together then offer more than a
    // 100 Mbit/s link's 148 809 64-octet frames a second.
    opts.Add("backgroundRate",
             "with --background=udp: datagrams a second each way on each federate link",
             c.backgroundRate,
             0.0,
             1e5,
             "1/s");
    opts.Add("backgroundSize",
             "with --background=udp: UDP payload octets of each datagram (18: a 64-octet frame)",
             c.backgroundSize,
             0,
             1472,
             "bytes");
    AddHostOptions(opts, c);
    opts.AddRtiSet(c.rtiSet);
    DeclareFields(opts.Record());
}

void
JaxaBenchmark::Check(const JaxaBenchmarkConfig& c)
{
    ProgramOptions::Require(c.background != "udp" || c.backgroundRate > 0,
                            "--background=udp needs --backgroundRate above 0");
    ProgramOptions::Require(c.background == "udp" || c.backgroundRate == 0,
                            "--backgroundRate is for --background=udp");
    ProgramOptions::Require(c.mode != "async" || (c.extraCrc == 0 && c.extraOther == 0),
                            "--extraCrc/--extraOther need a synchronised mode");
    // A repetition must end well inside the run's guard of 10^6 s of simulated time: every
    // exchange crosses the link at least once each way with at least the data and the RTI's
    // few hundred bytes.
    double perExchange = 2 * c.delay.GetSeconds();
    if (c.bandwidth.GetBitRate() > 0)
    {
        ProgramOptions::Require(c.bandwidth.GetBitRate() >= 1000,
                                "--bandwidth must be 0 (none) or at least 1kbps");
        perExchange += (c.dataSize + 400) * 8.0 / c.bandwidth.GetBitRate();
    }
    ProgramOptions::Require(perExchange * c.exchanges <= 1e5,
                            "--exchanges x (--delay, --dataSize / --bandwidth): a repetition "
                            "would take more than 1e5 s of simulated time");
}

JaxaBenchmarkRun
JaxaBenchmark::RunOnce(const JaxaBenchmarkConfig& c, uint32_t run)
{
    RngSeedManager::SetRun(run);
    EmulatedTestbedHelper testbed = EmulatedTestbedHelper::Jaxa06();
    testbed.SetEmulatorAttribute("Rate", DataRateValue(c.bandwidth));
    if (c.delayDirection == "both")
    {
        testbed.SetEmulatorAttribute("Delay", TimeValue(c.delay));
    }
    else
    {
        testbed.SetEmulatorAttribute(c.delayDirection == "a-to-b" ? LinkEmulatorHelper::A_TO_B
                                                                  : LinkEmulatorHelper::B_TO_A,
                                     "Delay",
                                     TimeValue(c.delay));
    }
    // Always the program's (--netem; the record's "semantics" field says which).
    testbed.SetEmulatorAttribute(
        "Semantics",
        EnumValue(c.netem ? LinkEmulatorQueueDisc::NETEM : LinkEmulatorQueueDisc::NIST_NET));
    if (c.halfDuplex)
    {
        testbed.SetDuplex(EthernetLinkHelper::HALF_DUPLEX);
        testbed.SetNicDuplex(EthernetNetDevice::FORCED_HALF,
                             c.emulatorNic == "auto"   ? EthernetNetDevice::AUTO
                             : c.emulatorNic == "full" ? EthernetNetDevice::FORCED_FULL
                                                       : EthernetNetDevice::FORCED_HALF);
    }
    SetHosts(testbed, c);
    EmulatedTestbed tb = testbed.Install();
    testbed.AssignStreams(tb, 1000);
    const Background background = InstallBackground(c, tb);

    RtiHelper rti;
    rti.SetProfile(c.rtiProfile);
    if (!c.galt.empty())
    {
        rti.SetSettingsAttribute("GaltMode",
                                 StringValue(c.galt == "null" ? "NullMessages" : "Central"));
    }
    if (!c.nagle.empty())
    {
        rti.SetSettingsAttribute("TcpNoDelay", BooleanValue(c.nagle == "off"));
    }
    const std::string why = rti.TrySetSettings(ProgramOptions::ParseSettings(c.rtiSet, "rtiSet"));
    ProgramOptions::Require(why.empty(), "--rtiSet: " + why);
    rti.GetFom()->AddObjectClass("Data", {"payload"});
    RunState st;
    st.crcPc = c.crcHost == "receiver" ? tb.hostB : tb.hostA;
    st.otherPc = c.crcHost == "receiver" ? tb.hostA : tb.hostB;
    Ptr<RtiCentralComponent> crc = rti.InstallCrc(st.crcPc);

    bool sync = c.mode != "async";
    std::vector<Ptr<JaxaBenchmarkFederate>> all;
    std::vector<Ptr<RtiAmbassador>> ambs;
    auto add = [&](Ptr<Node> node, JaxaBenchmarkFederate::Role role, const std::string& name) {
        Ptr<JaxaBenchmarkFederate> f = CreateObject<JaxaBenchmarkFederate>();
        UserAttributes::SetFixed(f, "Role", EnumValue(role), "for each federate it starts");
        UserAttributes::SetFixed(f, "Synchronised", BooleanValue(sync), "from its option --mode");
        UserAttributes::SetFixed(f,
                                 "TsoData",
                                 BooleanValue(c.tsoData),
                                 "from its option --tsoData");
        UserAttributes::SetFixed(f,
                                 "DataSize",
                                 UintegerValue(c.dataSize),
                                 "from its option --dataSize");
        UserAttributes::SetFixed(f,
                                 "Exchanges",
                                 UintegerValue(c.exchanges),
                                 "from its option --exchanges");
        SetWait(f, c.wait);
        Ptr<RtiAmbassador> amb = rti.InstallFederate(node);
        // A federate whose connection to the RTI is lost (TCP gave up on a link that loses
        // too much) ends, and a federation whose member is gone makes no more progress
        // (its grants wait for that member): the run ends there, its exchanges so far a result.
        amb->TraceConnectWithoutContext(
            "ConnectionLost",
            Callback<void, const std::string&>([&st](const std::string&) {
                if (st.lost++ == 0)
                {
                    Simulator::Stop();
                }
            }));
        // The operator starts the benchmark (the master registers "ready") at READY_AT if the
        // RTI has every federate joined by then, else when the last program says it joined.
        f->TraceConnectWithoutContext(
            "Joined",
            Callback<void>([&st, &all]() {
                if (++st.joined == all.size() && all.front()->IsReadyPending())
                {
                    Ptr<JaxaBenchmarkFederate> master = all.front();
                    Simulator::ScheduleWithContext(st.masterNode, Seconds(0), [master]() {
                        master->ReadyGateOpened();
                    });
                }
            }));
        if (all.empty())
        {
            st.masterNode = node->GetId();
            // The RTI's console lists the federates joined: every one of them is in the
            // federation when the CRC has processed its join.
            f->SetReadyGate(
                Callback<bool>([crc, &all]() { return crc->GetNFederates() == all.size(); }));
        }
        f->Start(amb, name, all.empty(), READY_AT);
        all.push_back(f);
        ambs.push_back(amb);
        if (role != JaxaBenchmarkFederate::TIME_ONLY)
        {
            st.data.push_back(f);
        }
    };
    if (c.mode == "bidir")
    {
        add(tb.hostB, JaxaBenchmarkFederate::BIDIRECTIONAL, "peer-b");
        add(tb.hostA, JaxaBenchmarkFederate::BIDIRECTIONAL, "peer-a");
    }
    else
    {
        add(tb.hostB, JaxaBenchmarkFederate::RECEIVER, "receiver");
        add(tb.hostA, JaxaBenchmarkFederate::SENDER, "sender");
    }
    for (uint32_t i = 0; i < c.extraCrc; ++i)
    {
        add(st.crcPc, JaxaBenchmarkFederate::TIME_ONLY, "time-crc-" + std::to_string(i));
    }
    for (uint32_t i = 0; i < c.extraOther; ++i)
    {
        add(st.otherPc, JaxaBenchmarkFederate::TIME_ONLY, "time-other-" + std::to_string(i));
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        TraceFrames(st.log, tb.GetDevices().Get(i), i);
    }
    st.data[0]->TraceConnectWithoutContext(
        "Step",
        Callback<void, uint32_t>([&st, &c](uint32_t step) {
            st.steps.push_back(Simulator::Now());
            if (step % 64 == 0)
            {
                // For the wall-clock watch (a run longer than 30 s says how far it is).
                ProgramOptions::SetProgressNote(
                    g_repetition + ": " + std::to_string(step) + " of "
                    + std::to_string(c.exchanges) + " steps at simulated "
                    + std::to_string(Simulator::Now().GetSeconds()) + " s");
            }
        }));
    for (auto& f : st.data)
    {
        f->TraceConnectWithoutContext("Start", Callback<void, Time>([&st, &tb](Time) {
                                          if (st.started++ == 0)
                                          {
                                              st.busyCrc0 = Busy(st.crcPc);
                                              st.busyOther0 = Busy(st.otherPc);
                                              st.log.Start();
                                              TraceTcp(tb.hostA, st);
                                              TraceTcp(tb.hostB, st);
                                          }
                                      }));
        f->TraceConnectWithoutContext("Done", Callback<void, Time, Time>([&st](Time, Time) {
                                          if (++st.done == st.data.size())
                                          {
                                              st.busyCrc1 = Busy(st.crcPc);
                                              st.busyOther1 = Busy(st.otherPc);
                                              Simulator::Stop();
                                          }
                                      }));
    }
    // A guard against a configuration that never finishes (seconds of simulated time).
    Simulator::Stop(Seconds(1e6));
    Simulator::Run();
    st.log.End();

    JaxaBenchmarkRun r;
    NS_ABORT_MSG_IF(st.done > st.data.size(),
                    "JaxaBenchmark: " << st.done << " of " << st.data.size() << " federates done");
    // A benchmark that does not finish (the RTI's TCP connections gave up on a link that loses
    // too much) is a result: the exchanges every data federate completed, no time.
    r.finished = st.done == st.data.size();
    r.connectionsLost = st.lost;
    r.completed = c.exchanges;
    for (const auto& f : st.data)
    {
        r.completed = std::min(r.completed, f->GetCompleted());
    }
    r.ethernet = SumEthernet(tb);
    r.tcpRetransmissions = st.retransmissions;
    r.tcpRtos = st.rtos;
    r.tcpFastRecoveries = st.fastRecoveries;
    r.backgroundFrames = background.Sent();
    r.backgroundLimit = *background.datagrams >= Background::FRAME_LIMIT;
    Timeline(st, c, r);
    r.crcInByType.assign(RtiMessage::TYPE_COUNT, 0);
    r.crcOutByType.assign(RtiMessage::TYPE_COUNT, 0);
    for (uint8_t t = 1; t < RtiMessage::TYPE_COUNT; ++t)
    {
        r.crcInByType[t] = crc->GetNReceived(static_cast<RtiMessage::Type>(t));
        r.crcOutByType[t] = crc->GetNSent(static_cast<RtiMessage::Type>(t));
        r.crcMessagesIn += r.crcInByType[t];
        r.crcMessagesOut += r.crcOutByType[t];
    }
    for (const auto& a : ambs)
    {
        r.lateTso += a->GetNLateTso();
        r.minorGcs += a->GetMinorGcs();
        r.minorGcMs += a->GetMinorGcTime().GetSeconds() * 1e3;
        r.handoffs += a->GetThreadHandoffs();
    }
    r.minorGcs += crc->GetMinorGcs();
    r.minorGcMs += crc->GetMinorGcTime().GetSeconds() * 1e3;
    r.handoffs += crc->GetThreadHandoffs();
    if (r.finished)
    {
        // The benchmark's clock is one PC's: the receiver's (peer-b's when bidirectional, on
        // host B), from the moment its program learns through the RTI that the federation
        // reached "ready" (the sender starts when it learns the same) to its last reflect
        // (asynchronous) or its last grant (synchronised). See doc/rti.rst for the alternatives.
        Time start = st.data[0]->GetStartTime();
        Time end = st.data[0]->GetEndTime();
        r.totalSeconds = (end - start).GetSeconds();
        ReadClockRegions(st.data[0], start, c.exchanges, r);
        r.perExchangeMs = r.totalSeconds * 1e3 / c.exchanges;
        double span = (end - start).GetSeconds();
        r.cpuBusyCrcPc = (st.busyCrc1 - st.busyCrc0).GetSeconds() / span;
        r.cpuBusyOtherPc = (st.busyOther1 - st.busyOther0).GetSeconds() / span;
    }
    r.events = Simulator::GetEventCount();
    for (auto& f : all)
    {
        f->Dispose();
    }
    for (auto& a : ambs)
    {
        a->Dispose();
    }
    crc->Dispose();
    Simulator::Destroy();
    return r;
}

void
JaxaBenchmark::DeclareFields(ResultRecord& rec)
{
    using R = ResultRecord;
    rec.Declare("mode", R::STRING, "--mode")
        .Declare("tso_data", R::BOOL, "--tsoData")
        .Declare("data_size", R::INT, "--dataSize (bytes)")
        .Declare("bandwidth_bps", R::REAL, "--bandwidth (bit/s; 0: none)")
        .Declare("delay_ms", R::REAL, "--delay (ms)")
        .Declare("delay_direction", R::STRING, "--delayDirection")
        .Declare("semantics", R::STRING, "emulator semantics: netem or nistnet")
        .Declare("half_duplex", R::BOOL, "--halfDuplex")
        .Declare("background", R::STRING, "--background")
        .Declare("background_rate_hz",
                 R::REAL,
                 "--backgroundRate (with --background=udp only)",
                 ResultRecord::SOMETIMES)
        .Declare("background_size",
                 R::INT,
                 "--backgroundSize (with --background=udp only)",
                 ResultRecord::SOMETIMES)
        .Declare("background_frames",
                 R::INT,
                 "background probes and datagrams sent, all repetitions")
        .Declare("background_limit_reps",
                 R::INT,
                 "repetitions ended unfinished when the background had sent 500 000 "
                 "datagrams (with --background=udp only)",
                 ResultRecord::SOMETIMES)
        .Declare("emulator_nic",
                 R::STRING,
                 "--emulatorNic (with --halfDuplex only)",
                 ResultRecord::SOMETIMES)
        .Declare("eth_collisions",
                 R::INT,
                 "802.3 collisions, all repetitions (half duplex)",
                 ResultRecord::SOMETIMES)
        .Declare("eth_late_collisions",
                 R::INT,
                 "802.3 late collisions (half duplex)",
                 ResultRecord::SOMETIMES)
        .Declare("eth_excessive_collisions",
                 R::INT,
                 "frames dropped after 16 attempts",
                 ResultRecord::SOMETIMES)
        .Declare("eth_fcs_errors",
                 R::INT,
                 "frames received with FCS errors (half duplex)",
                 ResultRecord::SOMETIMES)
        .Declare("eth_runts", R::INT, "runt frames received (half duplex)", ResultRecord::SOMETIMES)
        .Declare("eth_deferrals",
                 R::INT,
                 "transmissions deferred (half duplex)",
                 ResultRecord::SOMETIMES)
        .Declare("frames", R::INT, "frames begun on the two federate links in the loops")
        .Declare("frame_overlaps",
                 R::INT,
                 "frame pairs of opposite directions on one federate link that overlap in time")
        .Declare("tcp_retransmissions", R::INT, "TCP segments retransmitted, all repetitions")
        .Declare("tcp_rtos", R::INT, "TCP retransmission timeouts, all repetitions")
        .Declare("tcp_fast_recoveries", R::INT, "TCP fast retransmits, all repetitions")
        .Declare("timeline_step",
                 R::INT,
                 "the step the timeline shows (last repetition)",
                 ResultRecord::SOMETIMES)
        .Declare("timeline_step_us", R::REAL, "its duration (us)", ResultRecord::SOMETIMES)
        .Declare("timeline_start_us",
                 R::SERIES,
                 "its frames: start (us from the step's start)",
                 ResultRecord::SOMETIMES)
        .Declare("timeline_end_us",
                 R::SERIES,
                 "its frames: end of the whole frame (us)",
                 ResultRecord::SOMETIMES)
        .Declare("timeline_lane",
                 R::SERIES,
                 "its frames: 0 A->NIST Net, 1 NIST Net->A, 2 NIST Net->B, 3 B->NIST Net",
                 ResultRecord::SOMETIMES)
        .Declare("timeline_collided",
                 R::SERIES,
                 "its frames: 1 if the sender saw a collision",
                 ResultRecord::SOMETIMES)
        .Declare("extra_crc", R::INT, "--extraCrc")
        .Declare("extra_other", R::INT, "--extraOther")
        .Declare("exchanges", R::INT, "--exchanges")
        .Declare("reps", R::INT, "--reps")
        .Declare("crc_host", R::STRING, "--crcHost")
        .Declare("rti_profile", R::STRING, "--rtiProfile")
        .Declare("rti_set", R::STRING, "--rtiSet")
        .Declare("host_set", R::STRING, "--hostSet")
        .Declare("first_run", R::INT, "run number of the first repetition (RngRun)")
        .Declare("time_per_exchange_ms",
                 R::REAL,
                 "time per exchange, mean of the repetitions (ms)",
                 ResultRecord::SOMETIMES)
        .Declare("time_per_exchange_sd_ms",
                 R::REAL,
                 "its standard deviation across repetitions",
                 ResultRecord::SOMETIMES)
        .Declare("time_per_exchange_ms_runs", R::SERIES, "time per exchange of each repetition")
        .Declare("cpu_busy_crc_pc",
                 R::REAL,
                 "CPU busy share of the CRC's PC (0..1)",
                 ResultRecord::SOMETIMES)
        .Declare("cpu_busy_other_pc",
                 R::REAL,
                 "CPU busy share of the other PC (0..1)",
                 ResultRecord::SOMETIMES)
        .Declare("wait", R::STRING, "--wait: how the programs wait for callbacks")
        .Declare("clock_from_program_start_ms_per_exchange",
                 R::REAL,
                 "what a clock started at the receiving program's start adds per exchange (ms; "
                 "mean over the repetitions that finished)",
                 ResultRecord::SOMETIMES)
        .Declare("clock_from_join_ms_per_exchange",
                 R::REAL,
                 "what a clock started when the receiving program learnt that it joined adds "
                 "per exchange (ms)",
                 ResultRecord::SOMETIMES)
        .Declare("clock_from_discovery_ms_per_exchange",
                 R::REAL,
                 "what a clock started at the receiving program's discovery of the sender's "
                 "instance adds per exchange (ms; 0 if it discovered none)",
                 ResultRecord::SOMETIMES)
        .Declare("crc_messages_in_last_run", R::INT, "messages the CRC received, last repetition")
        .Declare("crc_messages_out_last_run", R::INT, "messages the CRC sent, last repetition")
        .Declare("crc_updates_in_last_run",
                 R::INT,
                 "UPDATE_ATTRIBUTES the CRC received, last repetition")
        .Declare("crc_requests_in_last_run",
                 R::INT,
                 "TIME_ADVANCE_REQUEST the CRC received, last repetition")
        .Declare("crc_reflects_out_last_run",
                 R::INT,
                 "REFLECT_ATTRIBUTES the CRC sent, last repetition")
        .Declare("crc_grants_out_last_run",
                 R::INT,
                 "TIME_ADVANCE_GRANT the CRC sent, last repetition")
        .Declare("crc_tso_notes_in_last_run",
                 R::INT,
                 "TSO_NOTE_READ the CRC received (RtiSettings TsoBookkeeping ReadNotes), last "
                 "repetition")
        .Declare("late_tso_messages", R::INT, "TSO messages delivered late, all repetitions")
        .Declare("events", R::INT, "simulator events, all repetitions")
        .Declare("rti_minor_gcs",
                 R::INT,
                 "minor garbage collections of the RTI's VMs (CRC and every federate, whole "
                 "runs), all repetitions")
        .Declare("rti_minor_gc_ms", R::REAL, "their pauses (ms), all repetitions")
        .Declare("rti_thread_handoffs",
                 R::INT,
                 "RTI thread hand-offs charged (whole runs), all repetitions")
        .Declare("finished_reps", R::INT, "repetitions that completed every exchange")
        .Declare("received", R::INT, "exchanges every data federate completed, all repetitions")
        .Declare("lost",
                 R::INT,
                 "exchanges never completed (the RTI's connections gave up), all repetitions")
        .Declare("rti_connections_lost",
                 R::INT,
                 "federates whose connection to the RTI was lost (TCP gave up; the run ends "
                 "there), all repetitions");
    for (const auto& [field, what] : BACKGROUND_RUN_FIELDS)
    {
        rec.Declare(field,
                    R::SERIES,
                    std::string(what) + " of each repetition (with --background only)",
                    ResultRecord::SOMETIMES);
    }
}

void
JaxaBenchmark::RunAll(const JaxaBenchmarkConfig& c, uint32_t firstRun, ResultRecord& rec)
{
    std::vector<double> perExchange;
    std::vector<double> busyCrc;
    std::vector<double> busyOther;
    std::vector<double> fromProgramStart;
    std::vector<double> fromJoin;
    std::vector<double> fromDiscovery;
    uint64_t late = 0;
    uint64_t events = 0;
    JaxaBenchmarkRun last;
    EthernetNetDevice::Stats eth;
    uint64_t frames = 0;
    uint64_t overlaps = 0;
    uint64_t retx = 0;
    uint64_t rtos = 0;
    uint64_t fast = 0;
    uint64_t backgroundFrames = 0;
    uint64_t backgroundLimits = 0;
    std::array<std::vector<double>, 6> countRuns; // BACKGROUND_RUN_FIELDS, per repetition
    uint64_t received = 0;
    uint64_t connectionsLost = 0;
    uint64_t gcs = 0;
    double gcMs = 0;
    uint64_t handoffs = 0;
    for (uint32_t i = 0; i < c.reps; ++i)
    {
        g_repetition = "repetition " + std::to_string(i + 1) + " of " + std::to_string(c.reps);
        ProgramOptions::SetProgressNote(g_repetition + ": starting");
        last = RunOnce(c, firstRun + i);
        received += last.completed;
        connectionsLost += last.connectionsLost;
        if (last.finished)
        {
            perExchange.push_back(last.perExchangeMs);
            busyCrc.push_back(last.cpuBusyCrcPc);
            busyOther.push_back(last.cpuBusyOtherPc);
            fromProgramStart.push_back(last.fromProgramStartMs);
            fromJoin.push_back(last.fromJoinMs);
            fromDiscovery.push_back(last.fromDiscoveryMs);
        }
        late += last.lateTso;
        events += last.events;
        gcs += last.minorGcs;
        gcMs += last.minorGcMs;
        handoffs += last.handoffs;
        eth.collisions += last.ethernet.collisions;
        eth.lateCollisions += last.ethernet.lateCollisions;
        eth.excessiveCollisions += last.ethernet.excessiveCollisions;
        eth.fcsErrors += last.ethernet.fcsErrors;
        eth.runts += last.ethernet.runts;
        eth.deferrals += last.ethernet.deferrals;
        frames += last.frames;
        overlaps += last.overlaps;
        retx += last.tcpRetransmissions;
        rtos += last.tcpRtos;
        fast += last.tcpFastRecoveries;
        backgroundFrames += last.backgroundFrames;
        backgroundLimits += last.backgroundLimit ? 1 : 0;
        // Per repetition, for a band over the repetitions of what the background causes.
        const std::array<uint64_t, 6> counts{last.ethernet.collisions,
                                             last.ethernet.lateCollisions,
                                             last.ethernet.fcsErrors,
                                             last.tcpRetransmissions,
                                             last.tcpRtos,
                                             last.backgroundFrames};
        for (std::size_t k = 0; k < counts.size(); ++k)
        {
            countRuns[k].push_back(static_cast<double>(counts[k]));
        }
    }
    // The time statistics are over the repetitions that finished.
    const std::size_t n = perExchange.size();
    double mean = n ? std::accumulate(perExchange.begin(), perExchange.end(), 0.0) / n : 0.0;
    double var = 0;
    for (double x : perExchange)
    {
        var += (x - mean) * (x - mean);
    }
    double sd = n > 1 ? std::sqrt(var / (n - 1)) : 0.0;
    rec.SetString("mode", c.mode);
    rec.SetBool("tso_data", c.tsoData);
    rec.SetInt("data_size", c.dataSize);
    rec.Set("bandwidth_bps", c.bandwidth.GetBitRate());
    rec.Set("delay_ms", c.delay.GetSeconds() * 1e3);
    rec.SetString("delay_direction", c.delayDirection);
    rec.SetString("semantics", c.netem ? "netem" : "nistnet");
    rec.SetBool("half_duplex", c.halfDuplex);
    if (c.halfDuplex)
    {
        // IEEE 802.3 counters of the testbed's NICs, all repetitions.
        rec.SetString("emulator_nic", c.emulatorNic);
        rec.SetInt("eth_collisions", eth.collisions);
        rec.SetInt("eth_late_collisions", eth.lateCollisions);
        rec.SetInt("eth_excessive_collisions", eth.excessiveCollisions);
        rec.SetInt("eth_fcs_errors", eth.fcsErrors);
        rec.SetInt("eth_runts", eth.runts);
        rec.SetInt("eth_deferrals", eth.deferrals);
    }
    rec.SetInt("frames", frames);
    rec.SetInt("frame_overlaps", overlaps);
    rec.SetInt("tcp_retransmissions", retx);
    rec.SetInt("tcp_rtos", rtos);
    rec.SetInt("tcp_fast_recoveries", fast);
    rec.SetString("background", c.background);
    if (c.background == "udp")
    {
        rec.Set("background_rate_hz", c.backgroundRate);
        rec.SetInt("background_size", c.backgroundSize);
    }
    rec.SetInt("background_frames", backgroundFrames);
    if (c.background == "udp")
    {
        rec.SetInt("background_limit_reps", backgroundLimits);
    }
    if (c.background != "none")
    {
        for (std::size_t k = 0; k < countRuns.size(); ++k)
        {
            rec.SetSeries(BACKGROUND_RUN_FIELDS[k].first, countRuns[k]);
        }
    }
    if (last.timelineStep > 0)
    {
        std::vector<double> t0;
        std::vector<double> t1;
        std::vector<double> lane;
        std::vector<double> hit;
        for (const auto& f : last.timeline)
        {
            t0.push_back(f.startUs);
            t1.push_back(f.endUs);
            lane.push_back(f.lane);
            hit.push_back(f.collided ? 1 : 0);
        }
        rec.SetInt("timeline_step", last.timelineStep);
        rec.Set("timeline_step_us", last.timelineStepUs);
        rec.SetSeries("timeline_start_us", t0);
        rec.SetSeries("timeline_end_us", t1);
        rec.SetSeries("timeline_lane", lane);
        rec.SetSeries("timeline_collided", hit);
    }
    rec.SetInt("extra_crc", c.extraCrc);
    rec.SetInt("extra_other", c.extraOther);
    rec.SetInt("exchanges", c.exchanges);
    rec.SetInt("reps", c.reps);
    rec.SetString("crc_host", c.crcHost);
    rec.SetString("rti_profile", c.rtiProfile);
    rec.SetString("rti_set", c.rtiSet);
    rec.SetString("host_set", c.hostSet);
    rec.SetInt("first_run", firstRun);
    rec.SetInt("finished_reps", n);
    rec.SetInt("received", received);
    rec.SetInt("lost", uint64_t(c.exchanges) * c.reps - received);
    rec.SetInt("rti_connections_lost", connectionsLost);
    rec.SetSeries("time_per_exchange_ms_runs", perExchange);
    if (n > 0)
    {
        rec.Set("time_per_exchange_ms", mean);
        rec.Set("time_per_exchange_sd_ms", sd);
        rec.Set("cpu_busy_crc_pc", std::accumulate(busyCrc.begin(), busyCrc.end(), 0.0) / n);
        rec.Set("cpu_busy_other_pc", std::accumulate(busyOther.begin(), busyOther.end(), 0.0) / n);
        auto meanOf = [n](const std::vector<double>& v) {
            return std::accumulate(v.begin(), v.end(), 0.0) / n;
        };
        rec.Set("clock_from_program_start_ms_per_exchange", meanOf(fromProgramStart));
        rec.Set("clock_from_join_ms_per_exchange", meanOf(fromJoin));
        rec.Set("clock_from_discovery_ms_per_exchange", meanOf(fromDiscovery));
    }
    rec.SetString("wait", c.wait);
    rec.SetInt("crc_messages_in_last_run", last.crcMessagesIn);
    rec.SetInt("crc_messages_out_last_run", last.crcMessagesOut);
    rec.SetInt("crc_updates_in_last_run", last.crcInByType[RtiMessage::UPDATE_ATTRIBUTES]);
    rec.SetInt("crc_requests_in_last_run", last.crcInByType[RtiMessage::TIME_ADVANCE_REQUEST]);
    rec.SetInt("crc_reflects_out_last_run", last.crcOutByType[RtiMessage::REFLECT_ATTRIBUTES]);
    rec.SetInt("crc_grants_out_last_run", last.crcOutByType[RtiMessage::TIME_ADVANCE_GRANT]);
    rec.SetInt("crc_tso_notes_in_last_run", last.crcInByType[RtiMessage::TSO_NOTE_READ]);
    rec.SetInt("late_tso_messages", late);
    rec.SetInt("events", events);
    rec.SetInt("rti_minor_gcs", gcs);
    rec.Set("rti_minor_gc_ms", gcMs);
    rec.SetInt("rti_thread_handoffs", handoffs);
}

} // namespace ns3
