/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [MEGA06] receiver capacity, scaling method A and the Catalyst 6009: Group A sender PCs with
 * send_udp virtual nodes and Group B receivers (ami + sara), every frame through the snooping
 * Catalyst 6509 (and, for receivers placed there, the 6009 behind an 802.1Q trunk), optionally
 * the IGMP querier PC on its router port. One configuration per run:
 *
 * - receiver capacity: --senderPcs=k --sendersPerGroup=0 --receivers=1 (k x 5 000 nodes, one
 *   group, one receiver);
 * - method A: --senderPcs=4s --sendersPerGroup=4 --receivers=s (s sets of 4 sender PCs and one
 *   receiver, one group per set);
 * - Fig. 11: method A with --receiversOn6009=r.
 *
 * The record holds, for the observation window [warmup, warmup + duration): the receivers' sara
 * statistics (drops from serial gaps, receive- and send-interval statistics, pooled over all
 * nodes of all receivers, and split by switch), the senders' own send-interval statistics, the
 * switches' drops by reason, the querier's queries and NIC drops.
 *
 *   ./mega-scale --senderPcs=8 --sendersPerGroup=4 --receivers=2 --output=r.json
 */

#include "mega06-testbed.h"

#include "ns3/core-module.h"
#include "ns3/frame-descriptor.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/igmp-l4-protocol.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MegaScale");

namespace
{

Time g_obsStart; //!< observation window start
Time g_obsEnd;   //!< observation window end

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

/**
 * What a run measured, from which alone its record is made: the whole run's, or one part's of a
 * run split by sets (doc/mega.rst), written to a part file and merged with the other parts'
 * into the whole run's record (every field but `events`). Integers add; the senders' pooled
 * statistics are merged from per-node moments in the order of the node ids, the receivers'
 * from their own summaries in the order of the receivers: the same floating-point operations
 * in the same order as in the whole run (SaraTable::Summarize, Pool).
 */
struct Totals
{
    /// One receiver's figures (a receiver is in one part only).
    struct Receiver
    {
        bool here{false};     //!< measured in this part
        SaraTable::Summary s; //!< sara's summary
        uint64_t bufDrops{0}; //!< capture-buffer drops in the window
        uint64_t lost{0};     //!< buffer, NIC ring and backlog drops in the window
    };

    uint64_t sent{0};                                //!< packets sent in the window
    uint64_t sentTotal{0};                           //!< packets sent in the whole run
    std::vector<SaraTable::NodeMoments> sentMoments; //!< senders' per-node moments, id order
    std::vector<Receiver> rx;                        //!< per receiver
    std::array<uint64_t, SwitchFabric::N_DROP_REASONS> switchDrops{}; //!< in the window
    uint64_t queries{0};                                              //!< queries due in the window
    uint64_t queriesOnTime{0};                                        //!< of them on time
    uint64_t querierRx{0};    //!< frames the querier's NIC received in the window
    uint64_t querierDrops{0}; //!< frames it dropped
    uint64_t events{0};       //!< simulator events
    uint32_t part{0};         //!< this part (0 for a whole run)
    uint32_t parts{1};        //!< parts of the run
    std::string signature;    //!< the options that must be equal in every part
    std::string digest;       //!< --digest: the router port's frames (hexadecimal; or empty)

    /** @return the doubles of a summary, in a fixed order */
    static std::vector<double*> Reals(SaraTable::Summary& s)
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

    /**
     * Write the part file: text, doubles as hexadecimal floats (exact), then the moments as
     * their bytes (the part and the merge run the same program on the same machine).
     * @param file the file
     */
    void Write(const std::string& file) const
    {
        std::ofstream os(file, std::ios::binary);
        ProgramOptions::Require(bool(os), "--partOut: cannot write " + file);
        os << "mega-scale-part 1\n"
           << "signature " << signature << "\n"
           << "part " << part << " " << parts << "\n"
           << "sent " << sent << " " << sentTotal << "\n"
           << "queries " << queries << " " << queriesOnTime << " " << querierRx << " "
           << querierDrops << "\n"
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

    /**
     * Read a part file (Write).
     * @param file the file
     * @param receivers the run's receivers
     * @return the part's totals
     */
    static Totals Read(const std::string& file, uint32_t receivers)
    {
        std::ifstream is(file, std::ios::binary);
        ProgramOptions::Require(bool(is), "--merge: cannot read " + file);
        Totals t;
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

    /**
     * Merge parts into the whole run's totals.
     * @param parts every part of the run, in any order
     * @return the totals
     */
    static Totals Merge(std::vector<Totals> parts)
    {
        ProgramOptions::Require(!parts.empty(), "--merge: no part file");
        // In the order of the parts, i.e. of the sets and of the node ids.
        std::sort(parts.begin(), parts.end(), [](const Totals& a, const Totals& b) {
            return a.part < b.part;
        });
        Totals t;
        t.parts = parts.size();
        t.signature = parts[0].signature;
        t.rx.resize(parts[0].rx.size());
        for (uint32_t k = 0; k < parts.size(); ++k)
        {
            const Totals& p = parts[k];
            ProgramOptions::Require(p.part == k && p.parts == parts.size(),
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
            t.events += p.events;
            // The router port is simulated in part 0 only (the querier's part).
            ProgramOptions::Require(k == 0 || p.digest.empty(),
                                    "--merge: a part other than 0 has a router-port digest");
            t.digest = k == 0 ? p.digest : t.digest;
        }
        for (uint32_t j = 0; j < t.rx.size(); ++j)
        {
            ProgramOptions::Require(t.rx[j].here,
                                    "--merge: receiver " + std::to_string(j) + " is in no part");
        }
        return t;
    }
};

/**
 * The pipe pair between the two parts of a run split with the querier (doc/mega.rst): part B
 * streams its router-port admissions and its progress, part A the frames of the querier's NIC and
 * its promises (conservative synchronisation). Binary messages, one octet of kind then fixed-size
 * fields in this machine's byte order (both parts run here). A peer that closed the pipe (it failed
 * or was killed) ends this part: exit 1.
 */
class Exchange
{
  public:
    /**
     * @param rfd the descriptor to read from
     * @param wfd the descriptor to write to
     * @param who this part, for the messages
     */
    void Open(int rfd, int wfd, const std::string& who)
    {
        m_r = rfd;
        m_w = wfd;
        m_who = who;
    }

    /**
     * Queue octets for the peer.
     * @param p the octets
     * @param n how many
     */
    void Put(const void* p, size_t n)
    {
        const auto* b = static_cast<const uint8_t*>(p);
        m_out.insert(m_out.end(), b, b + n);
        if (m_out.size() > (1U << 20))
        {
            Flush();
        }
    }

    /**
     * Queue a value.
     * @param v the value
     */
    template<class T>
    void Put(const T& v)
    {
        Put(&v, sizeof(T));
    }

    /** Queue a MAC address. @param a the address */
    void PutMac(Mac48Address a)
    {
        uint8_t b[6];
        a.CopyTo(b);
        Put(b, 6);
    }

    /** Write what is queued. */
    void Flush()
    {
        size_t done = 0;
        while (done < m_out.size())
        {
            const ssize_t k = ::write(m_w, m_out.data() + done, m_out.size() - done);
            if (k < 0 && errno == EINTR)
            {
                continue;
            }
            if (k <= 0)
            {
                Fail("cannot write to the other part (it ended?)");
            }
            done += k;
        }
        m_out.clear();
    }

    /**
     * Read octets (blocking).
     * @param p where to
     * @param n how many
     */
    void Get(void* p, size_t n)
    {
        auto* b = static_cast<uint8_t*>(p);
        while (n > 0)
        {
            if (m_pos == m_len)
            {
                const ssize_t k = ::read(m_r, m_in, sizeof(m_in));
                if (k < 0 && errno == EINTR)
                {
                    continue;
                }
                if (k <= 0)
                {
                    Fail("the other part closed the exchange (it failed or ended early)");
                }
                m_pos = 0;
                m_len = k;
            }
            const size_t c = std::min(n, m_len - m_pos);
            std::copy(m_in + m_pos, m_in + m_pos + c, b);
            m_pos += c;
            b += c;
            n -= c;
        }
    }

    /** @return a value read */
    template<class T>
    T Get()
    {
        T v;
        Get(&v, sizeof(T));
        return v;
    }

    /** @return a MAC address read */
    Mac48Address GetMac()
    {
        uint8_t b[6];
        Get(b, 6);
        Mac48Address a;
        a.CopyFrom(b);
        return a;
    }

    /**
     * End this part with an error (exit 1).
     * @param why the reason
     */
    [[noreturn]] void Fail(const std::string& why) const
    {
        std::cerr << "mega-scale: " << m_who << ": " << why << "\n";
        std::cerr.flush();
        std::_Exit(1);
    }

  private:
    int m_r{-1};                //!< read end
    int m_w{-1};                //!< write end
    std::string m_who;          //!< this part
    std::vector<uint8_t> m_out; //!< queued for writing
    uint8_t m_in[1 << 16];      //!< read buffer
    size_t m_pos{0};            //!< next octet in it
    size_t m_len{0};            //!< octets in it
};

/// Kinds of the exchange's messages.
enum : uint8_t
{
    MSG_TEMPLATE
        = 'T',        //!< B -> A: a frame template (id, variable-octets offset, EtherType, octets)
    MSG_DESC = 'D',   //!< B -> A: an admission of a descriptor (time, lane, template, var, MACs)
    MSG_PACKET = 'P', //!< B -> A: an admission of a packet (time, lane, EtherType, MACs, octets)
    MSG_PROGRESS = 'G', //!< B -> A: B has run every event up to this time step
    MSG_FRAME = 'F',    //!< A -> B: a frame of the querier's NIC (arrival, EtherType, MACs, octets)
    MSG_PROMISE = 'R',  //!< A -> B: B may run every event up to this time step
};

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    // Same-time events by lane (LeanSimulatorImpl's lane order; a lane per node and per switch
    // port), not by global insertion order: the order a run split by sets can reproduce in each
    // part (doc/mega.rst). --ns3::LeanSimulatorImpl::SameTimeOrder=Uid gives
    // ns-3's order.
    UserAttributes::SetConfigDefault("ns3::LeanSimulatorImpl::SameTimeOrder", StringValue("Lane"));
    Mega06TestbedConfig config;
    Mega06HostOptions hostOptions;
    config.portContexts = true;
    config.senderPcs = 4;
    config.sendersPerGroup = 4;
    double warmup = 2.0;
    double duration = 3.0;
    bool querier = true;
    double itr = 100;
    double rssEvery = 0;
    std::string role;

    ProgramOptions opts("mega-scale",
                        "[MEGA06] receiver capacity, scaling method A and the Catalyst 6009: "
                        "sender PCs, receivers, the querier; drops and interval statistics");
    // 207 Group A PCs took part; 256 leaves room for method B's configurations.
    opts.Add("senderPcs", "Group A sender PCs", config.senderPcs, 1, 256);
    // 0: all to one group (receiver capacity); [MEGA06] method A: 4.
    opts.Add("sendersPerGroup",
             "sender PCs per set and group (0: one group for all)",
             config.sendersPerGroup,
             0,
             256);
    // The study's limit was 5 000 processes per PC; 10^5 bounds the per-process state.
    opts.Add("nodesPerPc", "send_udp virtual nodes per sender PC", config.nodesPerPc, 1, 100000);
    // 64 Group B PCs took part.
    opts.Add("receivers", "Group B receivers (one per set)", config.receivers, 1, 64);
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
    std::string links = "full-duplex";
    opts.AddChoice("links",
                   "the links: the lean full-duplex Ethernet links, or ns-3's half-duplex CSMA "
                   "(no preamble or interframe gap)",
                   links,
                   {"full-duplex", "csma"});
    hostOptions.Add(opts, config);
    opts.Add("role", "a label for the campaign (recorded, no effect)", role);
    // A run split by sets over processes (doc/mega.rst). Without the querier
    // the sets share nothing, so each part runs on its own and the merge is exact.
    uint32_t parts = 1;
    uint32_t part = 0;
    std::string partOut;
    std::string merge;
    opts.Add("parts",
             "split the sets over this many processes (1: the whole run; only without the "
             "querier, the 6009 and with sendersPerGroup > 0)",
             parts,
             1,
             64);
    opts.Add("part", "the part this process runs (0 .. parts - 1)", part, 0, 63);
    opts.Add("partOut", "with --parts > 1: the part's file, for --merge", partOut);
    // With the querier, the two parts exchange the router port's admissions and the querier's
    // frames through two pipes that the driver (testbed.mega_split) opens for them.
    std::string peer;
    bool digest = false;
    opts.Add("digest",
             "record router_port_digest, a hash of every frame the querier's router port took or "
             "dropped, in order, with its time (a check of the order of same-time events)",
             digest);
    opts.Add("peer",
             "with --querier and --parts=2: the file descriptors READ,WRITE of the pipes to the "
             "other part (testbed.mega_split opens them)",
             peer);
    opts.Add("merge",
             "comma-separated part files of one split run: write their merged record instead "
             "of simulating (the same options as the parts)",
             merge);
    ResultRecord& rec = opts.Record();
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
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
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
            ProgramOptions::Require(!querier || links == "full-duplex",
                                    "--parts/--merge with the querier need --links=full-duplex");
            ProgramOptions::Require(config.sendersPerGroup > 0,
                                    "--parts/--merge need sets (--sendersPerGroup > 0)");
            ProgramOptions::Require(config.receiversOn6009 == 0,
                                    "--parts/--merge: the 6009's trunk couples the sets; needs "
                                    "--receiversOn6009=0");
            ProgramOptions::Require(rssEvery == 0, "--parts/--merge: --rssEvery is per process");
        }
        if (parts > 1)
        {
            ProgramOptions::Require(parts <= groups, "--parts must be <= the number of sets");
            ProgramOptions::Require(part < parts, "--part must be < --parts");
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
            ProgramOptions::Require(part == 0 && partOut.empty() && peer.empty(),
                                    "--part, --partOut and --peer need --parts > 1");
        }
    });
    // Refused up front beyond --maxEvents/--maxMemory (at its maximums: 2.6e7 nodes).
    Mega06Work::SetBudgets(opts, [&]() {
        Mega06Work w;
        w.nodes = double(config.senderPcs) * config.nodesPerPc;
        w.seconds = warmup + duration;
        w.pcs = config.senderPcs + config.receivers + (querier ? 1 : 0) + 1;
        return w;
    });
    opts.Parse(argc, argv);

    // Group addresses of the sets: 239.10.0.1 onwards (consecutive: distinct multicast MACs).
    config.group = Ipv4Address("239.10.0.1");
    config.querier = querier;
    config.links = links == "csma" ? SwitchHelper::CSMA : SwitchHelper::FULL_DUPLEX;
    config.querierInterruptRate = itr;
    g_obsStart = Seconds(warmup);
    g_obsEnd = Seconds(warmup + duration);
    config.stopAt = g_obsEnd;
    const uint32_t nSets = (config.senderPcs + config.sendersPerGroup - 1)
                           / std::max<uint32_t>(config.sendersPerGroup, 1);
    if (parts > 1)
    {
        // Part k: sets [k S / P, (k + 1) S / P); the shared applications in part 0.
        config.partFirstSet = static_cast<uint32_t>(uint64_t(part) * nSets / parts);
        config.partSets
            = static_cast<uint32_t>(uint64_t(part + 1) * nSets / parts) - config.partFirstSet;
        config.partShared = part == 0;
    }
    std::ostringstream signature;
    signature << config.senderPcs << " " << config.sendersPerGroup << " " << config.nodesPerPc
              << " " << config.receivers << " " << config.profile << " " << links << " " << warmup
              << " " << duration << " " << config.igmpTimeScale << " " << querier << " " << itr
              << " " << RngSeedManager::GetSeed() << " " << RngSeedManager::GetRun();

    auto writeRecord = [&](const Totals& t) {
        const double T = duration;
        const double nodes = double(config.senderPcs) * config.nodesPerPc;
        SaraTable::Summary snd = SaraTable::Summarize(t.sentMoments);
        Pool recvAll;
        Pool sendAll;
        uint64_t packets[2] = {0, 0};
        uint64_t drops[2] = {0, 0};
        uint64_t bufDrops = 0;
        uint64_t lost[2] = {0, 0};
        std::vector<double> rxDropRate;
        std::vector<double> rxLossRate;
        for (uint32_t j = 0; j < config.receivers; ++j)
        {
            const SaraTable::Summary& s = t.rx[j].s;
            const int sw = j >= config.receivers - config.receiversOn6009 ? 1 : 0;
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

        rec.SetString("role", role);
        rec.SetInt("sender_pcs", config.senderPcs);
        rec.SetInt("senders_per_group", config.sendersPerGroup);
        rec.SetInt("nodes_per_pc", config.nodesPerPc);
        rec.Set("nodes", nodes);
        rec.SetInt("receivers", config.receivers);
        rec.SetInt("receivers_on_6009", config.receiversOn6009);
        rec.SetBool("querier", querier);
        rec.Set("querier_itr", itr);
        rec.Set("duration_s", T);
        rec.SetString("profile", config.profile);
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
        if (config.igmpTimeScale != 1.0)
        {
            rec.Set("igmp_time_scale", config.igmpTimeScale);
        }
        if (!t.digest.empty())
        {
            rec.SetString("router_port_digest", t.digest);
        }
        rec.SetInt("events", static_cast<int64_t>(t.events));
    };

    if (!merge.empty())
    {
        std::vector<Totals> read;
        std::istringstream files(merge);
        std::string file;
        while (std::getline(files, file, ','))
        {
            read.push_back(Totals::Read(file, config.receivers));
        }
        Totals t = Totals::Merge(read);
        ProgramOptions::Require(t.signature == signature.str(),
                                "--merge: the parts were run with other options than these");
        writeRecord(t);
        rec.Write(opts.GetOutput());
        return 0;
    }

    Mega06Testbed tb = Mega06Testbed::Build(config);

    Mega06SentWindow sent;
    sent.SetWindow(g_obsStart, g_obsEnd);
    for (auto& app : tb.sendUdp)
    {
        sent.Watch(app);
    }
    uint32_t queries = 0;
    uint32_t queriesOnTime = 0;
    if (tb.mrouted)
    {
        tb.mrouted->TraceConnectWithoutContext(
            "QuerySent",
            Callback<void, Time, Time>([&](Time due, Time at) {
                if (due >= g_obsStart && due < g_obsEnd)
                {
                    ++queries;
                    queriesOnTime += (at - due) <= MilliSeconds(100) ? 1 : 0;
                }
            }));
    }
    std::vector<uint64_t> bufferDrops0(config.receivers, 0);
    std::vector<uint64_t> nicDrops0(config.receivers, 0);
    auto nicDrops = [&](uint32_t j) {
        Ptr<HostNic> nic = Mega06Testbed::GetNic(tb.receivers.Get(j));
        return nic->GetRxRingDrops() + nic->GetBacklogDrops();
    };
    std::array<uint64_t, SwitchFabric::N_DROP_REASONS> sw0{};
    std::array<uint64_t, SwitchFabric::N_DROP_REASONS> sw1{};
    auto switchDrops = [&](std::array<uint64_t, SwitchFabric::N_DROP_REASONS>& d) {
        for (uint32_t r = 0; r < SwitchFabric::N_DROP_REASONS; ++r)
        {
            d[r] = tb.bridge->GetFabric()->GetDropCount(SwitchFabric::DropReason(r));
            if (tb.bridge6009)
            {
                d[r] += tb.bridge6009->GetFabric()->GetDropCount(SwitchFabric::DropReason(r));
            }
        }
    };
    uint64_t qrx0 = 0;
    uint64_t qdrop0 = 0;
    uint64_t qrx1 = 0;
    uint64_t qdrop1 = 0;
    auto querierNic = [&](uint64_t& rx, uint64_t& drops) {
        if (tb.querier)
        {
            Ptr<HostNic> nic = Mega06Testbed::GetNic(tb.querier);
            rx = nic->GetReceived();
            drops = nic->GetRxRingDrops() + nic->GetBacklogDrops();
        }
    };
    Simulator::Schedule(g_obsStart, [&]() {
        for (uint32_t j = 0; j < config.receivers; ++j)
        {
            if (!tb.sara[j])
            {
                continue;
            }
            tb.sara[j]->ResetStatistics();
            bufferDrops0[j] = tb.sara[j]->GetBufferDrops();
            nicDrops0[j] = nicDrops(j);
        }
        switchDrops(sw0);
        querierNic(qrx0, qdrop0);
    });
    Simulator::Schedule(g_obsEnd - TimeStep(1), [&]() {
        switchDrops(sw1);
        querierNic(qrx1, qdrop1);
    });
    std::vector<double> rss;
    if (rssEvery > 0)
    {
        for (double t = rssEvery; t <= warmup + duration; t += rssEvery)
        {
            Simulator::Schedule(Seconds(t), [&rss]() {
                std::ifstream status("/proc/self/status");
                std::string line;
                while (std::getline(status, line))
                {
                    if (line.rfind("VmRSS:", 0) == 0)
                    {
                        rss.push_back(std::stod(line.substr(6)) / 1024.0);
                    }
                }
            });
        }
    }
    // Parts of a split run count the switches' drops at their own ports only: their sets'
    // PCs', and in part 0 the querier's and the rest of the network's. A drop at another
    // part's port means that the sets are coupled there: the part fails.
    std::vector<bool> ownPort(tb.bridge->GetNPorts(), false);
    std::array<uint64_t, SwitchFabric::N_DROP_REASONS> ownDrops{};
    uint64_t foreignDrops = 0;
    if (parts > 1)
    {
        for (uint32_t i = 0; i < config.senderPcs; ++i)
        {
            ownPort[tb.senderPorts[i]] = Mega06Testbed::SetHere(config, i / config.sendersPerGroup);
        }
        for (uint32_t j = 0; j < config.receivers; ++j)
        {
            ownPort[tb.receiverPorts[j]] = Mega06Testbed::SetHere(config, j);
        }
        if (config.partShared)
        {
            ownPort[tb.restPort] = true;
            if (tb.querier)
            {
                ownPort[tb.querierPort] = true;
            }
        }
        tb.bridge->GetFabric()->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, uint32_t, uint8_t>(
                [&](Ptr<const Packet>, uint32_t port, uint8_t reason) {
                    const Time now = Simulator::Now();
                    if (now < g_obsStart || now >= g_obsEnd - TimeStep(1))
                    {
                        return; // outside the window (as the whole run's snapshots)
                    }
                    if (port < ownPort.size() && ownPort[port])
                    {
                        ++ownDrops[reason];
                    }
                    else
                    {
                        ++foreignDrops;
                    }
                }));
    }

    // A split with the querier (doc/mega.rst, "An exact split over two processes"): part 0 (A) runs
    // the querier and its sets, part 1 (B) the other sets. B diverts every frame that its switch
    // would queue at the querier's router port to A, with its time and its ingress port's lane;
    // A queues it there at that time in that lane. A sends B every frame of the querier's NIC
    // with the time its last bit reaches the switch; B delivers it to the switch's querier port
    // then. Conservative synchronisation: A runs no further than B's progress; B no further
    // than A's promise, the earliest time a frame of the querier not yet sent could reach the
    // switch (the querier's next IGMP timer, or now while a message is due and not yet on the
    // wire, plus the shortest frame's time on the querier's link).
    const bool splitQ = parts > 1 && querier;
    // With the querier every PC receives its queries: a part counts only the other frames that
    // reach sender PCs and other parts' receivers (data flooded across the sets).
    uint64_t dataCrossed = 0;
    if (splitQ)
    {
        auto watch = [&](Ptr<Node> pc) {
            for (uint32_t d = 0; d < pc->GetNDevices(); ++d)
            {
                if (DynamicCast<FullDuplexEthernetNetDevice>(pc->GetDevice(d)))
                {
                    for (const char* trace : {"MacRx", "MacPromiscRx"})
                    {
                        pc->GetDevice(d)->TraceConnectWithoutContext(
                            trace,
                            Callback<void, Ptr<const Packet>>([&](Ptr<const Packet> p) {
                                uint8_t ip[10] = {};
                                p->CopyData(ip, sizeof(ip));
                                dataCrossed += ip[9] == 2 ? 0 : 1; // not IGMP
                            }));
                    }
                }
            }
        };
        for (uint32_t i = 0; i < config.senderPcs; ++i)
        {
            watch(tb.senders.Get(i));
        }
        for (uint32_t j = 0; j < config.receivers; ++j)
        {
            if (!tb.sara[j])
            {
                watch(tb.receivers.Get(j));
            }
        }
    }
    const bool partA = splitQ && part == 0;
    const int64_t stopStep = g_obsEnd.GetTimeStep();
    Exchange ex;
    Ptr<FullDuplexEthernetNetDevice> qPort;
    Ptr<FullDuplexEthernetNetDevice> qNic;
    int64_t lookahead = 0;
    uint64_t qTx = 0;
    int64_t promise = -1;
    std::vector<Ptr<const FrameTemplate>> templates;
    std::map<const FrameTemplate*, uint32_t> templateIds;
    std::function<void()> barrierA;
    std::function<void()> barrierB;
    const int64_t chunk = MilliSeconds(1).GetTimeStep();
    if (splitQ)
    {
        int rfd = -1;
        int wfd = -1;
        char comma = 0;
        std::istringstream(peer) >> rfd >> comma >> wfd;
        ex.Open(rfd, wfd, partA ? "part 0 (the querier's)" : "part 1");
        std::signal(SIGPIPE, SIG_IGN); // a closed pipe is a write error, reported
        qPort = DynamicCast<FullDuplexEthernetNetDevice>(tb.bridge->GetPort(tb.querierPort));
        for (uint32_t d = 0; d < tb.querier->GetNDevices() && !qNic; ++d)
        {
            qNic = DynamicCast<FullDuplexEthernetNetDevice>(tb.querier->GetDevice(d));
        }
        NS_ABORT_MSG_IF(!qPort || !qNic, "mega-scale: the querier's link is not full-duplex");
        // The shortest frame (64 octets and the preamble) on the querier's link: no frame the
        // querier hands to its NIC at t reaches the switch before t + this.
        const uint64_t bits
            = (FullDuplexEthernetNetDevice::PREAMBLE + FullDuplexEthernetNetDevice::MIN_FRAME) * 8;
        lookahead = int64_t(bits * 1000000000000ULL / qNic->GetDataRate().GetBitRate())
                    / TimeStep(1).GetPicoSeconds();
        NS_ABORT_MSG_IF(lookahead < 1, "mega-scale: no lookahead on the querier's link");
    }
    const uint32_t lane0 = Mega06Testbed::PortContext(0, 0);
    if (splitQ && partA)
    {
        Ptr<IgmpL4Protocol> igmp = tb.querier->GetObject<IgmpL4Protocol>();
        UintegerValue itf;
        tb.mrouted->GetAttribute("Interface", itf);
        const Mac48Address qMac = qNic->GetMacAddress();
        // Every frame the querier's NIC sends (IGMP: IPv4 to a group) goes to B with the time
        // its last bit reaches the switch.
        qNic->TraceConnectWithoutContext(
            "MacTx",
            Callback<void, Ptr<const Packet>>([&, qMac](Ptr<const Packet> p) {
                ++qTx;
                const int64_t arrival = qNic->GetLastArrival().GetTimeStep();
                if (arrival <= promise)
                {
                    ex.Fail("the querier's NIC sent a frame that reaches the switch at "
                            + std::to_string(arrival) + " but part 1 may already have run to "
                            + std::to_string(promise)
                            + ": the split's lookahead does not hold, this run cannot be split "
                              "exactly");
                }
                const uint32_t n = p->GetSize();
                std::vector<uint8_t> b(n);
                p->CopyData(b.data(), n);
                if (n < 20 || (b[0] >> 4) != 4
                    || !Ipv4Address((b[16] << 24) | (b[17] << 16) | (b[18] << 8) | b[19])
                            .IsMulticast())
                {
                    ex.Fail("the querier sent a frame that is not IPv4 multicast: this run "
                            "cannot be split exactly");
                }
                const Ipv4Address to((uint32_t(b[16]) << 24) | (b[17] << 16) | (b[18] << 8)
                                     | b[19]);
                ex.Put(MSG_FRAME);
                ex.Put(arrival);
                ex.Put(uint16_t(0x0800));
                ex.PutMac(qMac);
                ex.PutMac(Mac48Address::ConvertFrom(Mac48Address::GetMulticast(to)));
                ex.Put(n);
                ex.Put(b.data(), n);
            }));
        Ptr<SnoopingBridgeNetDevice> br = tb.bridge;
        const uint32_t rp = tb.querierPort;
        barrierA = [&, igmp, itf, br, rp]() {
            const int64_t now = Simulator::Now().GetTimeStep();
            // Every event before now has run. The querier's next frame: now if a message is
            // due and not on the wire yet, else at its next IGMP timer at the earliest.
            int64_t next = now;
            if (tb.mrouted->GetQueriesDue() <= qTx)
            {
                const Time t = igmp->GetNextRouterTransmission(itf.Get());
                next = t == Time::Max() ? now : std::max(now, t.GetTimeStep());
            }
            const int64_t p = std::min(next + lookahead - 1, stopStep - 1);
            if (p > promise)
            {
                promise = p;
                ex.Put(MSG_PROMISE);
                ex.Put(promise);
            }
            ex.Flush();
            // B's admissions until its progress reaches now.
            for (;;)
            {
                const uint8_t kind = ex.Get<uint8_t>();
                if (kind == MSG_PROGRESS)
                {
                    const int64_t done = ex.Get<int64_t>();
                    if (done >= now)
                    {
                        if (done + 1 < stopStep)
                        {
                            Simulator::Schedule(TimeStep(done + 1 - now), barrierA);
                        }
                        return;
                    }
                    continue;
                }
                if (kind == MSG_TEMPLATE)
                {
                    const uint32_t id = ex.Get<uint32_t>();
                    const uint32_t off = ex.Get<uint32_t>();
                    const uint16_t proto = ex.Get<uint16_t>();
                    const uint32_t n = ex.Get<uint32_t>();
                    std::vector<uint8_t> b(n);
                    ex.Get(b.data(), n);
                    if (id != templates.size())
                    {
                        ex.Fail("the exchange is out of order (template)");
                    }
                    templates.push_back(Create<FrameTemplate>(b, off, proto));
                    continue;
                }
                if (kind != MSG_DESC && kind != MSG_PACKET)
                {
                    ex.Fail("the exchange is out of order (unknown message)");
                }
                const int64_t at = ex.Get<int64_t>();
                const uint32_t lane = ex.Get<uint32_t>();
                SwitchFabric::Frame f;
                f.inPort = lane - lane0;
                if (kind == MSG_DESC)
                {
                    const uint32_t id = ex.Get<uint32_t>();
                    if (id >= templates.size())
                    {
                        ex.Fail("the exchange is out of order (descriptor)");
                    }
                    f.desc.tmpl = templates[id];
                    ex.Get(f.desc.var.data(), f.desc.var.size());
                    f.protocol = templates[id]->GetProtocol();
                    f.src = ex.GetMac();
                    f.dst = ex.GetMac();
                }
                else
                {
                    f.protocol = ex.Get<uint16_t>();
                    f.src = ex.GetMac();
                    f.dst = ex.GetMac();
                    const uint32_t n = ex.Get<uint32_t>();
                    std::vector<uint8_t> b(n);
                    ex.Get(b.data(), n);
                    f.packet = Create<Packet>(b.data(), n);
                }
                if (at < now || f.inPort >= ownPort.size() || ownPort[f.inPort])
                {
                    ex.Fail("an admission from part 1 is in the past or from a port of this "
                            "part: the exchange is inconsistent");
                }
                // At its time, in its ingress port's lane: the whole run's place in the order.
                Simulator::ScheduleWithContext(lane, TimeStep(at - now), [br, rp, f]() {
                    br->InjectToPort(rp, f);
                });
            }
        };
        promise = lookahead - 1; // nothing the querier sends reaches the switch before
        ex.Put(MSG_PROMISE);
        ex.Put(promise);
        ex.Flush();
        Simulator::Schedule(TimeStep(0), barrierA);
    }
    else if (splitQ)
    {
        // B: what its switch would queue at the router port goes to A.
        tb.bridge->SetPortDivert(
            tb.querierPort,
            Callback<void, const SwitchFabric::Frame&>([&](const SwitchFabric::Frame& f) {
                const int64_t now = Simulator::Now().GetTimeStep();
                const uint32_t lane = Simulator::GetContext();
                if (!f.packet)
                {
                    auto it = templateIds.find(PeekPointer(f.desc.tmpl));
                    if (it == templateIds.end())
                    {
                        const uint32_t id = templates.size();
                        it = templateIds.emplace(PeekPointer(f.desc.tmpl), id).first;
                        templates.push_back(f.desc.tmpl); // kept: its address stays its own
                        ex.Put(MSG_TEMPLATE);
                        ex.Put(id);
                        ex.Put(f.desc.tmpl->GetVarOffset());
                        ex.Put(f.desc.tmpl->GetProtocol());
                        ex.Put(f.desc.tmpl->GetSize());
                        ex.Put(f.desc.tmpl->GetOctets(), f.desc.tmpl->GetSize());
                    }
                    ex.Put(MSG_DESC);
                    ex.Put(now);
                    ex.Put(lane);
                    ex.Put(it->second);
                    ex.Put(f.desc.var.data(), f.desc.var.size());
                    ex.PutMac(f.src);
                    ex.PutMac(f.dst);
                }
                else
                {
                    const uint32_t n = f.packet->GetSize();
                    std::vector<uint8_t> b(n);
                    f.packet->CopyData(b.data(), n);
                    ex.Put(MSG_PACKET);
                    ex.Put(now);
                    ex.Put(lane);
                    ex.Put(f.protocol);
                    ex.PutMac(f.src);
                    ex.PutMac(f.dst);
                    ex.Put(n);
                    ex.Put(b.data(), n);
                }
            }));
        const uint32_t qLane = Mega06Testbed::PortContext(0, tb.querierPort);
        Ptr<FullDuplexEthernetNetDevice> dev = qPort;
        barrierB = [&, qLane, dev]() {
            const int64_t now = Simulator::Now().GetTimeStep();
            ex.Put(MSG_PROGRESS);
            ex.Put(now - 1);
            ex.Flush();
            while (promise < now)
            {
                const uint8_t kind = ex.Get<uint8_t>();
                if (kind == MSG_PROMISE)
                {
                    promise = ex.Get<int64_t>();
                    continue;
                }
                if (kind != MSG_FRAME)
                {
                    ex.Fail("the exchange is out of order (unknown message)");
                }
                const int64_t at = ex.Get<int64_t>();
                const uint16_t proto = ex.Get<uint16_t>();
                const Mac48Address src = ex.GetMac();
                const Mac48Address dst = ex.GetMac();
                const uint32_t n = ex.Get<uint32_t>();
                std::vector<uint8_t> b(n);
                ex.Get(b.data(), n);
                if (at < now)
                {
                    ex.Fail("a frame of the querier arrives in this part's past: the "
                            "exchange is inconsistent");
                }
                Ptr<const Packet> pkt = Create<Packet>(b.data(), n);
                // At the switch's querier port, in its lane, when its last bit arrives.
                Simulator::ScheduleWithContext(
                    qLane,
                    TimeStep(at - now),
                    [dev, pkt, src, dst, proto]() { dev->Deliver(pkt, src, dst, proto); });
            }
            const int64_t next = std::min(promise, now - 1 + chunk);
            if (next + 1 < stopStep)
            {
                Simulator::Schedule(TimeStep(next + 1 - now), barrierB);
            }
        };
        Simulator::Schedule(TimeStep(0), barrierB);
    }

    // --digest: every frame the router port takes (or drops), with its time, in order.
    uint64_t portDigest = 14695981039346656037ULL; // FNV-1a 64
    auto mix = [&portDigest](const uint8_t* b, size_t n) {
        for (size_t i = 0; i < n; ++i)
        {
            portDigest = (portDigest ^ b[i]) * 1099511628211ULL;
        }
    };
    const bool digestHere = digest && tb.querier && config.partShared;
    if (digestHere)
    {
        for (const char* trace : {"MacTx", "MacTxDrop"})
        {
            const uint8_t tag = trace[5] == 0 ? 1 : 2;
            tb.bridge->GetPort(tb.querierPort)
                ->TraceConnectWithoutContext(
                    trace,
                    Callback<void, Ptr<const Packet>>([&mix, tag](Ptr<const Packet> p) {
                        const int64_t now = Simulator::Now().GetTimeStep();
                        std::vector<uint8_t> b(p->GetSize());
                        p->CopyData(b.data(), b.size());
                        // Every octet, the pad of a short frame included (zeros: the
                        // Ethernet devices pad with zeros, test testbed-full-duplex-ethernet).
                        mix(&tag, 1);
                        mix(reinterpret_cast<const uint8_t*>(&now), sizeof(now));
                        mix(b.data(), b.size());
                    }));
        }
    }

    Simulator::Stop(g_obsEnd);
    opts.StartProgress(g_obsEnd);
    Simulator::Run();
    if (splitQ && !partA)
    {
        ex.Put(MSG_PROGRESS);
        ex.Put(stopStep - 1);
        ex.Flush();
    }

    Totals t;
    t.part = part;
    t.parts = parts;
    t.signature = signature.str();
    t.sent = sent.GetCount();
    t.sentMoments = sent.GetMoments();
    t.rx.resize(config.receivers);
    for (uint32_t j = 0; j < config.receivers; ++j)
    {
        if (!tb.sara[j])
        {
            continue;
        }
        Totals::Receiver& r = t.rx[j];
        r.here = true;
        r.s = tb.sara[j]->GetTable().GetSummary();
        r.bufDrops = tb.sara[j]->GetBufferDrops() - bufferDrops0[j];
        r.lost = r.bufDrops + nicDrops(j) - nicDrops0[j];
    }
    for (uint32_t r = 0; r < SwitchFabric::N_DROP_REASONS; ++r)
    {
        t.switchDrops[r] = parts > 1 ? ownDrops[r] : sw1[r] - sw0[r];
    }
    t.queries = queries;
    t.queriesOnTime = queriesOnTime;
    t.querierRx = qrx1 - qrx0;
    t.querierDrops = qdrop1 - qdrop0;
    for (auto& app : tb.sendUdp)
    {
        t.sentTotal += app->GetSent();
    }
    t.events = opts.GetEventCount();
    if (digestHere)
    {
        char hex[17];
        std::snprintf(hex, sizeof(hex), "%016" PRIx64, portDigest);
        t.digest = hex;
    }
    if (parts > 1)
    {
        // The split is exact only while no frame crosses from one set to another: no sender
        // PC receives anything without a querier, nor does a receiver whose set runs in
        // another part (a flooded frame reaches both).
        uint64_t crossed = dataCrossed;
        for (uint32_t i = 0; !querier && i < config.senderPcs; ++i)
        {
            crossed += Mega06Testbed::GetNic(tb.senders.Get(i))->GetReceived();
        }
        for (uint32_t j = 0; !querier && j < config.receivers; ++j)
        {
            crossed += tb.sara[j] ? 0 : Mega06Testbed::GetNic(tb.receivers.Get(j))->GetReceived();
        }
        // What couples the sets beyond what the split exchanges, counted: any makes it inexact.
        std::vector<std::pair<uint64_t, std::string>> coupled{
            {foreignDrops, "frames dropped at other parts' switch ports"}};
        if (splitQ)
        {
            // A simulated no frame of its own into B's PCs' switch ports (the lanes into which
            // it injects B's admissions); B's querier PC sent and received nothing (A's does).
            uint64_t own = 0;
            std::vector<uint32_t> pcPorts(tb.senderPorts);
            pcPorts.insert(pcPorts.end(), tb.receiverPorts.begin(), tb.receiverPorts.end());
            for (uint32_t port : pcPorts)
            {
                if (partA && !ownPort[port])
                {
                    own += DynamicCast<FullDuplexEthernetNetDevice>(tb.bridge->GetPort(port))
                               ->GetStats()
                               .rxFrames;
                }
            }
            if (!partA)
            {
                own = qNic->GetStats().txFrames + qNic->GetStats().rxFrames;
            }
            coupled.emplace_back(own,
                                 partA ? "frames of part 1's PCs simulated in part 0"
                                       : "frames on part 1's querier link");
        }
        coupled.emplace_back(crossed,
                             "frames reached sender PCs or other parts' receivers (flooding "
                             "couples the sets)");
        for (const auto& [n, what] : coupled)
        {
            if (n > 0)
            {
                std::cerr << "mega-scale: part " << part << ": " << n << " " << what
                          << ": this run cannot be split exactly\n";
                Simulator::Destroy();
                return 1;
            }
        }
        t.Write(partOut);
        Simulator::Destroy();
        return 0;
    }
    writeRecord(t);
    if (rssEvery > 0)
    {
        rec.SetSeries("rss_mb", rss);
    }
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
