/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mega06-scale.h"

#include "ns3/host-nic.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{

/** Intervals of several tables pooled exactly from their counts, means and deviations. */
struct Pool
{
    double n{0};    //!< intervals
    double sum{0};  //!< sum of n * mean
    double sum2{0}; //!< sum of n * (std^2 + mean^2)

    /**
     * Add one table's pooled statistics.
     * @param count its intervals
     * @param mean their mean
     * @param std their standard deviation
     */
    void Add(double count, double mean, double std)
    {
        n += count;
        sum += count * mean;
        sum2 += count * (std * std + mean * mean);
    }

    /** @return the mean of all intervals */
    double Mean() const
    {
        return n > 0 ? sum / n : 0.0;
    }

    /** @return their standard deviation */
    double Std() const
    {
        return n > 0 ? std::sqrt(std::max(0.0, sum2 / n - Mean() * Mean())) : 0.0;
    }
};

/** @return the doubles of a summary, in a fixed order */
std::vector<double*>
Reals(SaraTable::Summary& s)
{
    return {&s.dropRate,
            &s.sendMeanMean,
            &s.sendStdMean,
            &s.sendStdMax,
            &s.recvMeanMean,
            &s.recvStdMean,
            &s.recvStdMax,
            &s.pooledSendMean,
            &s.pooledSendStd,
            &s.pooledRecvMean,
            &s.pooledRecvStd};
}

} // namespace

Mega06ScaleOptions::Mega06ScaleOptions()
{
    config.portContexts = true;
    config.senderPcs = 4;
    config.sendersPerGroup = 4;
}

uint32_t
Mega06ScaleOptions::Sets() const
{
    return config.sendersPerGroup > 0
               ? (config.senderPcs + config.sendersPerGroup - 1) / config.sendersPerGroup
               : 1;
}

Time
Mega06ScaleOptions::ObsStart() const
{
    return Seconds(warmup);
}

Time
Mega06ScaleOptions::ObsEnd() const
{
    return Seconds(warmup + duration);
}

void
Mega06ScaleOptions::Add(ProgramOptions& opts)
{
    // 207 Group A PCs took part; 2 048 holds the what-if of ten times the study's senders at
    // its multiplexing (2 000 PCs x 5 000 nodes: mega-scale's "tenfold" scale).
    opts.Add("senderPcs", "Group A sender PCs", config.senderPcs, 1, 2048);
    // 0: all to one group (receiver capacity); [MEGA06] method A: 4.
    opts.Add("sendersPerGroup",
             "sender PCs per set and group (0: one group for all)",
             config.sendersPerGroup,
             0,
             256);
    // The study's limit was 5 000 processes per PC; 10^5 bounds the per-process state.
    opts.Add("nodesPerPc", "send_udp virtual nodes per sender PC", config.nodesPerPc, 1, 100000);
    // 64 Group B PCs took part; 512 holds the tenfold what-if's 500 sets, one receiver each.
    opts.Add("receivers", "Group B receivers (one per set)", config.receivers, 1, 512);
    // The 6009 took at most the 64 Group B PCs.
    opts.Add("receiversOn6009",
             "receivers on the Catalyst 6009 (the last ones)",
             config.receiversOn6009,
             0,
             64);
    opts.Add("trunkRate",
             "the 802.1Q trunk between the 6509 and the 6009",
             config.trunkRate,
             DataRate("10Mbps"),
             DataRate("100Gbps"));
    opts.Add("querier", "the IGMP querier PC (mrouted) on a router port of the 6509", querier);
    // e1000 InterruptThrottleRate: 0 (off) or 100..100 000 interrupts/s.
    opts.Add("querierItr",
             "the querier NIC's MaxInterruptRate (interrupts/s, 0: unmoderated)",
             itr,
             0,
             100000,
             "interrupts/s");
    opts.Add("warmup",
             "seconds before the observation window (senders start at 0.5 s; all run by 1.5 s)",
             warmup,
             1.6,
             60,
             "s");
    // Up to an hour of observation (the study observed 180 s).
    opts.Add("duration", "observation window (s)", duration, 1e-3, 3600, "s");
    // For the paper-scale benchmark: the process's RSS must not grow with simulated time.
    opts.Add("rssEvery",
             "record the resident memory every this many simulated s (0: never)",
             rssEvery,
             0,
             3600,
             "s");
    // Scaled IGMP timers (as mega-querier's), so that a short run has several general queries
    // (RFC 2236's Query Interval is 125 s, the Startup Query Interval 31.25 s); 1 = RFC 2236's.
    opts.Add("igmpTimeScale",
             "IGMP timers (RFC 2236 defaults) times this",
             config.igmpTimeScale,
             0.01,
             1,
             "1");
    hostOptions.Add(opts, config);
    opts.Add("role", "a label for the campaign (recorded, no effect)", role);
    // A run split by sets over processes (doc/mega.rst, "An exact split over processes").
    opts.Add("parts",
             "split the sets over this many processes (1: the whole run; needs "
             "sendersPerGroup > 0, and with the querier at most 2)",
             parts,
             1,
             64);
    opts.Add("part", "the part this process runs (0 .. parts - 1)", part, 0, 63);
    // Part 0 also runs the shared applications (the querier, its router port, the 6009): a
    // driver that knows their cost gives it fewer sets than its even share.
    opts.Add("part0Sets",
             "with --parts > 1: the sets part 0 runs, the last ones, every set whose receiver is "
             "on the 6009 among them (0: its even share, or those sets if more)",
             part0Sets,
             0,
             2048);
    opts.Add("partOut", "with --parts > 1: the part's file, for --merge", partOut);
    // With the querier, the two parts exchange the router port's admissions and the querier's
    // frames through two pipes or one TCP connection that the driver (testbed.mega_split)
    // opens for them.
    opts.Add("digest",
             "record router_port_digest, a hash of every frame the querier's router port took or "
             "dropped, in order, with its time (a check of the order of same-time events)",
             digest);
    opts.Add("peer",
             "with --querier and --parts=2: the file descriptors READ,WRITE of the pipes to the "
             "other part, or of one socket twice (testbed.mega_split opens them)",
             peer);
    opts.Add("merge",
             "comma-separated part files of one split run: write their merged record instead "
             "of simulating (the same options as the parts)",
             merge);
    opts.AddCheck([this]() { Check(); });
    // Refused up front beyond --maxEvents/--maxMemory (at its maximums: 2.0e8 nodes).
    Mega06Work::SetBudgets(opts, [this]() {
        Mega06Work w;
        w.nodes = double(config.senderPcs) * config.nodesPerPc;
        w.seconds = warmup + duration;
        w.pcs = config.senderPcs + config.receivers + (querier ? 1 : 0) + 1;
        return w;
    });
}

void
Mega06ScaleOptions::Check()
{
    hostOptions.Apply(config);
    ProgramOptions::Require(config.receiversOn6009 <= config.receivers,
                            "--receiversOn6009 must be <= --receivers");
    const uint32_t groups
        = config.sendersPerGroup > 0
              ? (config.senderPcs + config.sendersPerGroup - 1) / config.sendersPerGroup
              : 1;
    ProgramOptions::Require(config.receivers <= groups,
                            "--receivers must be <= the number of sets (one receiver per set)");
    if (parts > 1 || !merge.empty())
    {
        // With the querier, two parts exchange its router port's frames and its queries.
        ProgramOptions::Require(!querier || parts <= 2,
                                "--parts: with the querier a run splits into 2 parts only "
                                "(the querier's part and the other)");
        ProgramOptions::Require(config.sendersPerGroup > 0,
                                "--parts/--merge need sets (--sendersPerGroup > 0)");
        ProgramOptions::Require(rssEvery == 0, "--parts/--merge: --rssEvery is per process");
    }
    if (parts > 1)
    {
        ProgramOptions::Require(parts <= groups, "--parts must be <= the number of sets");
        // Part 0 runs the 6009 and its receivers' sets (the trunk is part 0's): every other
        // part needs a set of its own on the 6509.
        ProgramOptions::Require(parts == 1 || config.receiversOn6009 == 0
                                    || config.receivers - config.receiversOn6009 >= parts - 1,
                                "--parts: with --receiversOn6009, every part but part 0 needs a "
                                "set whose receiver is on the 6509 (--parts <= "
                                "receivers - receiversOn6009 + 1)");
        ProgramOptions::Require(part < parts, "--part must be < --parts");
        ProgramOptions::Require(part0Sets + (parts - 1) <= groups,
                                "--part0Sets: every other part needs a set (--part0Sets <= "
                                "sets - parts + 1)");
        ProgramOptions::Require(part0Sets == 0 || config.receiversOn6009 == 0
                                    || groups - part0Sets
                                           <= config.receivers - config.receiversOn6009,
                                "--part0Sets: part 0 runs every set whose receiver is on the "
                                "6009 (--part0Sets >= sets - receivers + receiversOn6009)");
        ProgramOptions::Require(!partOut.empty(), "--parts > 1 needs --partOut");
        ProgramOptions::Require(merge.empty(), "--merge is not run with --parts > 1");
        if (querier)
        {
            int r = -1;
            int w = -1;
            char c = 0;
            std::istringstream ps(peer);
            ProgramOptions::Require(bool(ps >> r >> c >> w) && c == ',' && r >= 0 && w >= 0
                                        && ps.peek() == EOF,
                                    "--parts=2 with the querier needs --peer=READ,WRITE (two "
                                    "file descriptors; testbed.mega_split opens them)");
            ProgramOptions::Require(fcntl(r, F_GETFD) != -1 && fcntl(w, F_GETFD) != -1,
                                    "--peer: " + peer + " are not open file descriptors");
        }
        else
        {
            ProgramOptions::Require(peer.empty(), "--peer is for a split with the querier");
        }
    }
    else
    {
        ProgramOptions::Require(part == 0 && part0Sets == 0 && partOut.empty() && peer.empty(),
                                "--part, --part0Sets, --partOut and --peer need --parts > 1");
    }
}

void
Mega06ScaleOptions::Apply()
{
    // Group addresses of the sets: 239.10.0.1 onwards (consecutive: distinct multicast MACs).
    config.group = Ipv4Address("239.10.0.1");
    config.querier = querier;
    config.querierInterruptRate = itr;
    config.stopAt = ObsEnd();
    if (parts > 1)
    {
        // Contiguous ranges of sets, part 0's the last one: part 0 runs the shared applications,
        // the querier and the 6009, so it takes every set whose receiver is on the 6009 (the last
        // receivers), and --part0Sets sets or else at least its even share; the other parts
        // share the sets before it evenly, part P - 1 the first ones.
        const uint32_t nSets = Sets();
        uint32_t first0 = part0Sets > 0
                              ? nSets - part0Sets
                              : static_cast<uint32_t>(uint64_t(parts - 1) * nSets / parts);
        if (config.receiversOn6009 > 0)
        {
            first0 = std::min(first0, config.receivers - config.receiversOn6009);
        }
        if (part == 0)
        {
            config.partFirstSet = first0;
            config.partSets = nSets - first0;
        }
        else
        {
            const uint32_t q = parts - 1 - part; // 0 for the first sets
            config.partFirstSet = static_cast<uint32_t>(uint64_t(q) * first0 / (parts - 1));
            config.partSets = static_cast<uint32_t>(uint64_t(q + 1) * first0 / (parts - 1))
                              - config.partFirstSet;
        }
        config.partShared = part == 0;
    }
}

std::string
Mega06ScaleOptions::Signature() const
{
    std::ostringstream signature;
    signature << config.senderPcs << " " << config.sendersPerGroup << " " << config.nodesPerPc
              << " " << config.receivers << " " << config.profile << " " << warmup << " "
              << duration << " " << config.igmpTimeScale << " " << querier << " " << itr << " "
              << RngSeedManager::GetSeed() << " " << RngSeedManager::GetRun();
    return signature.str();
}

void
Mega06ScaleTotals::Write(const std::string& file) const
{
    std::ofstream os(file, std::ios::binary);
    ProgramOptions::Require(bool(os), "--partOut: cannot write " + file);
    os << "mega-scale-part 1\n"
       << "signature " << signature << "\n"
       << "part " << part << " " << parts << "\n"
       << "sent " << sent << " " << sentTotal << "\n"
       << "queries " << queries << " " << queriesOnTime << " " << querierRx << " " << querierDrops
       << "\n"
       << "events " << events << "\n"
       << "digest " << (digest.empty() ? "-" : digest) << "\n"
       << "switch";
    for (uint64_t d : switchDrops)
    {
        os << " " << d;
    }
    os << "\n";
    for (uint32_t j = 0; j < rx.size(); ++j)
    {
        if (!rx[j].here)
        {
            continue;
        }
        SaraTable::Summary s = rx[j].s;
        os << "receiver " << j << " " << s.nodes << " " << s.packets << " " << s.drops << " "
           << s.reordered << " " << s.intervals << " " << s.nodesWithIntervals << " "
           << rx[j].bufDrops << " " << rx[j].lost;
        for (double* v : Reals(s))
        {
            char b[64];
            std::snprintf(b, sizeof(b), " %a", *v);
            os << b;
        }
        os << "\n";
    }
    os << "moments " << sentMoments.size() << "\n";
    os.write(reinterpret_cast<const char*>(sentMoments.data()),
             sentMoments.size() * sizeof(SaraTable::NodeMoments));
    ProgramOptions::Require(bool(os), "--partOut: cannot write " + file);
}

Mega06ScaleTotals
Mega06ScaleTotals::Read(const std::string& file, uint32_t receivers)
{
    std::ifstream is(file, std::ios::binary);
    ProgramOptions::Require(bool(is), "--merge: cannot read " + file);
    Mega06ScaleTotals t;
    t.rx.resize(receivers);
    std::string line;
    std::string key;
    bool moments = false;
    auto bad = [&](bool ok) {
        ProgramOptions::Require(ok, "--merge: " + file + " is not a mega-scale part file");
    };
    bad(std::getline(is, line) && line == "mega-scale-part 1");
    while (!moments && std::getline(is, line))
    {
        std::istringstream ls(line);
        ls >> key;
        if (key == "signature")
        {
            t.signature = line.substr(key.size() + 1);
        }
        else if (key == "part")
        {
            ls >> t.part >> t.parts;
        }
        else if (key == "sent")
        {
            ls >> t.sent >> t.sentTotal;
        }
        else if (key == "queries")
        {
            ls >> t.queries >> t.queriesOnTime >> t.querierRx >> t.querierDrops;
        }
        else if (key == "events")
        {
            ls >> t.events;
        }
        else if (key == "digest")
        {
            ls >> t.digest;
            t.digest = t.digest == "-" ? "" : t.digest;
        }
        else if (key == "switch")
        {
            for (uint64_t& d : t.switchDrops)
            {
                ls >> d;
            }
        }
        else if (key == "receiver")
        {
            uint32_t j = UINT32_MAX;
            ls >> j;
            bad(bool(ls) && j < receivers);
            Receiver& r = t.rx[j];
            r.here = true;
            ls >> r.s.nodes >> r.s.packets >> r.s.drops >> r.s.reordered >> r.s.intervals
                >> r.s.nodesWithIntervals >> r.bufDrops >> r.lost;
            for (double* v : Reals(r.s))
            {
                std::string x;
                ls >> x;
                *v = std::strtod(x.c_str(), nullptr);
            }
        }
        else if (key == "moments")
        {
            size_t n = 0;
            ls >> n;
            t.sentMoments.resize(n);
            is.read(reinterpret_cast<char*>(t.sentMoments.data()),
                    n * sizeof(SaraTable::NodeMoments));
            moments = true;
        }
        bad(bool(ls));
    }
    bad(moments && bool(is));
    return t;
}

Mega06ScaleTotals
Mega06ScaleTotals::Merge(std::vector<Mega06ScaleTotals> parts, uint64_t skeletonEvents)
{
    ProgramOptions::Require(!parts.empty(), "--merge: no part file");
    // In the order of the sets and of the node ids: part P - 1 runs the first sets, part 0 the
    // last (Mega06ScaleOptions::Apply).
    std::sort(
        parts.begin(),
        parts.end(),
        [](const Mega06ScaleTotals& a, const Mega06ScaleTotals& b) { return a.part > b.part; });
    Mega06ScaleTotals t;
    t.parts = parts.size();
    t.signature = parts[0].signature;
    t.rx.resize(parts[0].rx.size());
    for (uint32_t k = 0; k < parts.size(); ++k)
    {
        const Mega06ScaleTotals& p = parts[k];
        ProgramOptions::Require(p.part == parts.size() - 1 - k && p.parts == parts.size(),
                                "--merge: the part files are not parts 0.."
                                    + std::to_string(parts.size() - 1) + " of one run");
        ProgramOptions::Require(p.signature == t.signature,
                                "--merge: the parts were run with different options");
        t.sent += p.sent;
        t.sentTotal += p.sentTotal;
        for (const SaraTable::NodeMoments& m : p.sentMoments)
        {
            ProgramOptions::Require(t.sentMoments.empty()
                                        || t.sentMoments.back().stats.nodeId < m.stats.nodeId,
                                    "--merge: the parts' node ids are not in order");
            t.sentMoments.push_back(m);
        }
        for (uint32_t j = 0; j < p.rx.size(); ++j)
        {
            if (p.rx[j].here)
            {
                ProgramOptions::Require(!t.rx[j].here,
                                        "--merge: receiver " + std::to_string(j)
                                            + " is in two parts");
                t.rx[j] = p.rx[j];
            }
        }
        for (uint32_t r = 0; r < SwitchFabric::N_DROP_REASONS; ++r)
        {
            t.switchDrops[r] += p.switchDrops[r];
        }
        t.queries += p.queries;
        t.queriesOnTime += p.queriesOnTime;
        t.querierRx += p.querierRx;
        t.querierDrops += p.querierDrops;
        // Every part ran the idle network's events (the skeleton's): the whole run once.
        t.events += p.events - (k > 0 ? skeletonEvents : 0);
        // The router port is simulated in part 0 only (the querier's part).
        ProgramOptions::Require(p.part == 0 || p.digest.empty(),
                                "--merge: a part other than 0 has a router-port digest");
        t.digest = p.part == 0 ? p.digest : t.digest;
    }
    for (uint32_t j = 0; j < t.rx.size(); ++j)
    {
        ProgramOptions::Require(t.rx[j].here,
                                "--merge: receiver " + std::to_string(j) + " is in no part");
    }
    return t;
}

void
Mega06ScaleRecord::Declare(ResultRecord& rec)
{
    rec.Declare("role", ResultRecord::STRING, "--role (a label)")
        .Declare("sender_pcs", ResultRecord::INT, "Group A sender PCs")
        .Declare("senders_per_group",
                 ResultRecord::INT,
                 "sender PCs per set and group (0: one group for all)")
        .Declare("nodes_per_pc", ResultRecord::INT, "send_udp virtual nodes per sender PC")
        .Declare("nodes", ResultRecord::REAL, "virtual nodes in total")
        .Declare("receivers", ResultRecord::INT, "Group B receivers")
        .Declare("receivers_on_6009", ResultRecord::INT, "receivers on the Catalyst 6009")
        .Declare("querier", ResultRecord::BOOL, "the IGMP querier PC took part")
        .Declare("querier_itr",
                 ResultRecord::REAL,
                 "the querier NIC's MaxInterruptRate (interrupts/s, 0: unmoderated)")
        .Declare("duration_s", ResultRecord::REAL, "observation window (s)")
        .Declare("profile", ResultRecord::STRING, "host profile of the PCs")
        .Declare("sent", ResultRecord::INT, "packets sent in the window")
        .Declare("send_rate_per_node", ResultRecord::REAL, "send rate per node (packets/s)")
        .Declare("send_intervals", ResultRecord::INT, "send intervals measured at the senders")
        .Declare("send_interval_mean_us",
                 ResultRecord::REAL,
                 "mean send interval at the senders (us)")
        .Declare("send_interval_std_us",
                 ResultRecord::REAL,
                 "standard deviation of the send interval at the senders, pooled (us)")
        .Declare("sara_packets", ResultRecord::INT, "packets sara received, all receivers")
        .Declare("sara_drops", ResultRecord::INT, "packets sara counted as lost, all receivers")
        .Declare("sara_drop_rate", ResultRecord::REAL, "sara's loss rate, all receivers (0..1)")
        .Declare("sara_drop_rate_6509",
                 ResultRecord::REAL,
                 "sara's loss rate, receivers on the 6509 (0..1)")
        .Declare("sara_drop_rate_6009",
                 ResultRecord::REAL,
                 "sara's loss rate, receivers on the 6009 (0..1)")
        .Declare("sara_buffer_drops",
                 ResultRecord::INT,
                 "packets dropped at sara's capture buffers in the window")
        .Declare("receiver_lost",
                 ResultRecord::INT,
                 "packets lost on the receiver PCs in the window (buffer, NIC ring, backlog)")
        .Declare("receiver_loss_rate",
                 ResultRecord::REAL,
                 "share lost on the receiver PCs of what reached them, all receivers (0..1)")
        .Declare("receiver_loss_rate_6509",
                 ResultRecord::REAL,
                 "share lost on the receiver PCs, receivers on the 6509 (0..1)")
        .Declare("receiver_loss_rate_6009",
                 ResultRecord::REAL,
                 "share lost on the receiver PCs, receivers on the 6009 (0..1)")
        .Declare("receiver_loss_rates",
                 ResultRecord::SERIES,
                 "share lost on each receiver PC, by receiver (0..1)")
        .Declare("receiver_drop_rate",
                 ResultRecord::SERIES,
                 "sara's loss rate on each receiver, by receiver (0..1)")
        .Declare("sara_intervals",
                 ResultRecord::INT,
                 "receive intervals measured by sara, all receivers")
        .Declare("sara_recv_interval_mean_us",
                 ResultRecord::REAL,
                 "mean receive interval per node at the receivers (us)")
        .Declare("sara_recv_interval_std_us",
                 ResultRecord::REAL,
                 "standard deviation of the receive interval per node, pooled (us)")
        .Declare("sara_send_interval_mean_us",
                 ResultRecord::REAL,
                 "mean send interval per node from the received timestamps (us)")
        .Declare("sara_send_interval_std_us",
                 ResultRecord::REAL,
                 "standard deviation of the send interval from the received timestamps (us)");
    for (uint32_t r = 0; r < SwitchFabric::N_DROP_REASONS; ++r)
    {
        rec.Declare(std::string("switch_drops_")
                        + SwitchFabric::DropReasonName(SwitchFabric::DropReason(r)),
                    ResultRecord::INT,
                    std::string("frames the switches dropped in the window for: ")
                        + SwitchFabric::DropReasonName(SwitchFabric::DropReason(r)));
    }
    rec.Declare("queries_due", ResultRecord::INT, "general queries due in the window (sent or not)")
        .Declare("queries_on_time",
                 ResultRecord::INT,
                 "general queries due in the window that went out within 100 ms of due")
        .Declare("querier_rx_pps",
                 ResultRecord::REAL,
                 "frames the querier's NIC received (packets/s)")
        .Declare("querier_nic_drops_pps",
                 ResultRecord::REAL,
                 "frames the querier's NIC dropped (packets/s)")
        .Declare("sent_total", ResultRecord::INT, "packets sent in the whole run")
        .Declare("router_port_digest",
                 ResultRecord::STRING,
                 "FNV-1a hash of the frames the querier's router port took or dropped, in "
                 "order, with their times (only with --digest)",
                 ResultRecord::SOMETIMES)
        .Declare("igmp_time_scale",
                 ResultRecord::REAL,
                 "IGMP timer scale (only with --igmpTimeScale other than 1)",
                 ResultRecord::SOMETIMES)
        .Declare("rss_mb",
                 ResultRecord::SERIES,
                 "resident memory every --rssEvery simulated s (MB; only with --rssEvery)",
                 ResultRecord::SOMETIMES)
        .Declare("events", ResultRecord::INT, "simulator events");
}

void
Mega06ScaleRecord::Fill(ResultRecord& rec, const Mega06ScaleOptions& o, const Mega06ScaleTotals& t)
{
    const double T = o.duration;
    const double nodes = double(o.config.senderPcs) * o.config.nodesPerPc;
    SaraTable::Summary snd = SaraTable::Summarize(t.sentMoments);
    Pool recvAll;
    Pool sendAll;
    uint64_t packets[2] = {0, 0};
    uint64_t drops[2] = {0, 0};
    uint64_t bufDrops = 0;
    uint64_t lost[2] = {0, 0};
    std::vector<double> rxDropRate;
    std::vector<double> rxLossRate;
    for (uint32_t j = 0; j < o.config.receivers; ++j)
    {
        const SaraTable::Summary& s = t.rx[j].s;
        const int sw = j >= o.config.receivers - o.config.receiversOn6009 ? 1 : 0;
        packets[sw] += s.packets;
        drops[sw] += s.drops;
        const uint64_t l = t.rx[j].lost;
        bufDrops += t.rx[j].bufDrops;
        lost[sw] += l;
        rxDropRate.push_back(s.dropRate);
        rxLossRate.push_back(s.packets + l > 0 ? double(l) / (s.packets + l) : 0.0);
        recvAll.Add(s.intervals, s.pooledRecvMean, s.pooledRecvStd);
        sendAll.Add(s.intervals, s.pooledSendMean, s.pooledSendStd);
    }
    auto rate = [](uint64_t d, uint64_t p) {
        return p + d > 0 ? double(d) / (p + d) : 0.0;
    };

    rec.SetString("role", o.role);
    rec.SetInt("sender_pcs", o.config.senderPcs);
    rec.SetInt("senders_per_group", o.config.sendersPerGroup);
    rec.SetInt("nodes_per_pc", o.config.nodesPerPc);
    rec.Set("nodes", nodes);
    rec.SetInt("receivers", o.config.receivers);
    rec.SetInt("receivers_on_6009", o.config.receiversOn6009);
    rec.SetBool("querier", o.querier);
    rec.Set("querier_itr", o.itr);
    rec.Set("duration_s", T);
    rec.SetString("profile", o.config.profile);
    rec.SetInt("sent", t.sent);
    rec.Set("send_rate_per_node", t.sent / nodes / T);
    rec.SetInt("send_intervals", snd.intervals);
    rec.Set("send_interval_mean_us", snd.pooledSendMean * 1e6);
    rec.Set("send_interval_std_us", snd.pooledSendStd * 1e6);
    rec.SetInt("sara_packets", packets[0] + packets[1]);
    rec.SetInt("sara_drops", drops[0] + drops[1]);
    rec.Set("sara_drop_rate", rate(drops[0] + drops[1], packets[0] + packets[1]));
    rec.Set("sara_drop_rate_6509", rate(drops[0], packets[0]));
    rec.Set("sara_drop_rate_6009", rate(drops[1], packets[1]));
    rec.SetInt("sara_buffer_drops", bufDrops);
    // Losses counted where they happen on the receiver PCs (capture buffer, NIC ring and
    // backlog), over what reached them: needs no second packet per node (short windows).
    rec.SetInt("receiver_lost", lost[0] + lost[1]);
    rec.Set("receiver_loss_rate", rate(lost[0] + lost[1], packets[0] + packets[1]));
    rec.Set("receiver_loss_rate_6509", rate(lost[0], packets[0]));
    rec.Set("receiver_loss_rate_6009", rate(lost[1], packets[1]));
    rec.SetSeries("receiver_loss_rates", rxLossRate);
    rec.SetSeries("receiver_drop_rate", rxDropRate);
    rec.SetInt("sara_intervals", static_cast<int64_t>(recvAll.n));
    rec.Set("sara_recv_interval_mean_us", recvAll.Mean() * 1e6);
    rec.Set("sara_recv_interval_std_us", recvAll.Std() * 1e6);
    rec.Set("sara_send_interval_mean_us", sendAll.Mean() * 1e6);
    rec.Set("sara_send_interval_std_us", sendAll.Std() * 1e6);
    for (uint32_t r = 0; r < SwitchFabric::N_DROP_REASONS; ++r)
    {
        rec.SetInt(std::string("switch_drops_")
                       + SwitchFabric::DropReasonName(SwitchFabric::DropReason(r)),
                   static_cast<int64_t>(t.switchDrops[r]));
    }
    rec.SetInt("queries_due", t.queries);
    rec.SetInt("queries_on_time", t.queriesOnTime);
    rec.Set("querier_rx_pps", t.querierRx / T);
    rec.Set("querier_nic_drops_pps", t.querierDrops / T);
    rec.SetInt("sent_total", static_cast<int64_t>(t.sentTotal));
    if (o.config.igmpTimeScale != 1.0)
    {
        rec.Set("igmp_time_scale", o.config.igmpTimeScale);
    }
    if (!t.digest.empty())
    {
        rec.SetString("router_port_digest", t.digest);
    }
    rec.SetInt("events", static_cast<int64_t>(t.events));
}

Mega06ScaleProbes::Mega06ScaleProbes(Mega06Testbed& tb, const Mega06ScaleOptions& o)
    : m_tb(tb)
    , m_o(o)
    , m_bufferDrops0(o.config.receivers, 0)
    , m_nicDrops0(o.config.receivers, 0)
{
    m_sent.SetWindow(o.ObsStart(), o.ObsEnd());
    for (auto& app : tb.sendUdp)
    {
        m_sent.Watch(app);
    }
    if (tb.mrouted)
    {
        tb.mrouted->TraceConnectWithoutContext(
            "QuerySent",
            Callback<void, Time, Time>([this](Time due, Time at) {
                if (due >= m_o.ObsStart() && due < m_o.ObsEnd())
                {
                    ++m_queries;
                    m_queriesOnTime += (at - due) <= MilliSeconds(100) ? 1 : 0;
                }
            }));
    }
    Simulator::Schedule(o.ObsStart(), &Mega06ScaleProbes::Start, this);
    Simulator::Schedule(o.ObsEnd() - TimeStep(1), &Mega06ScaleProbes::End, this);
    if (o.rssEvery > 0)
    {
        for (double t = o.rssEvery; t <= o.warmup + o.duration; t += o.rssEvery)
        {
            Simulator::Schedule(Seconds(t), &Mega06ScaleProbes::SampleRss, this);
        }
    }
}

uint64_t
Mega06ScaleProbes::NicDrops(uint32_t j) const
{
    Ptr<HostNic> nic = Mega06Testbed::GetNic(m_tb.receivers.Get(j));
    return nic->GetRxRingDrops() + nic->GetBacklogDrops();
}

void
Mega06ScaleProbes::SwitchDrops(std::array<uint64_t, SwitchFabric::N_DROP_REASONS>& d) const
{
    for (uint32_t r = 0; r < SwitchFabric::N_DROP_REASONS; ++r)
    {
        d[r] = m_tb.bridge->GetFabric()->GetDropCount(SwitchFabric::DropReason(r));
        if (m_tb.bridge6009)
        {
            d[r] += m_tb.bridge6009->GetFabric()->GetDropCount(SwitchFabric::DropReason(r));
        }
    }
}

void
Mega06ScaleProbes::QuerierNic(uint64_t& rx, uint64_t& drops) const
{
    if (m_tb.querier)
    {
        Ptr<HostNic> nic = Mega06Testbed::GetNic(m_tb.querier);
        rx = nic->GetReceived();
        drops = nic->GetRxRingDrops() + nic->GetBacklogDrops();
    }
}

void
Mega06ScaleProbes::Start()
{
    for (uint32_t j = 0; j < m_o.config.receivers; ++j)
    {
        if (!m_tb.sara[j])
        {
            continue;
        }
        m_tb.sara[j]->ResetStatistics();
        m_bufferDrops0[j] = m_tb.sara[j]->GetBufferDrops();
        m_nicDrops0[j] = NicDrops(j);
    }
    SwitchDrops(m_sw0);
    QuerierNic(m_qrx0, m_qdrop0);
}

void
Mega06ScaleProbes::End()
{
    SwitchDrops(m_sw1);
    QuerierNic(m_qrx1, m_qdrop1);
}

void
Mega06ScaleProbes::SampleRss()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmRSS:", 0) == 0)
        {
            m_rss.push_back(std::stod(line.substr(6)) / 1024.0);
        }
    }
}

const std::vector<double>&
Mega06ScaleProbes::GetRss() const
{
    return m_rss;
}

Mega06ScaleTotals
Mega06ScaleProbes::Collect(uint64_t events) const
{
    Mega06ScaleTotals t;
    t.part = m_o.part;
    t.parts = m_o.parts;
    t.signature = m_o.Signature();
    t.sent = m_sent.GetCount();
    t.sentMoments = m_sent.GetMoments();
    t.rx.resize(m_o.config.receivers);
    for (uint32_t j = 0; j < m_o.config.receivers; ++j)
    {
        if (!m_tb.sara[j])
        {
            continue;
        }
        Mega06ScaleTotals::Receiver& r = t.rx[j];
        r.here = true;
        r.s = m_tb.sara[j]->GetTable().GetSummary();
        r.bufDrops = m_tb.sara[j]->GetBufferDrops() - m_bufferDrops0[j];
        r.lost = r.bufDrops + NicDrops(j) - m_nicDrops0[j];
    }
    for (uint32_t r = 0; r < SwitchFabric::N_DROP_REASONS; ++r)
    {
        t.switchDrops[r] = m_sw1[r] - m_sw0[r];
    }
    t.queries = m_queries;
    t.queriesOnTime = m_queriesOnTime;
    t.querierRx = m_qrx1 - m_qrx0;
    t.querierDrops = m_qdrop1 - m_qdrop0;
    for (auto& app : m_tb.sendUdp)
    {
        t.sentTotal += app->GetSent();
    }
    t.events = events;
    return t;
}

} // namespace ns3
