/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_MEGA06_SCALE_H
#define TESTBED_MEGA06_SCALE_H

#include "mega06-testbed.h"

#include "ns3/program-options.h"
#include "ns3/result-record.h"
#include "ns3/sara.h"
#include "ns3/switch-fabric.h"

#include <array>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed
 * mega-scale's options, its record, what a run (or one part of a run split by sets) measured,
 * and the part files that carry it to the merge (doc/mega.rst).
 */

namespace ns3
{

/**
 * @ingroup testbed
 * @brief mega-scale's options: the network (Mega06TestbedConfig), the window, and a split run's
 * part, files and pipes.
 */
struct Mega06ScaleOptions
{
    Mega06TestbedConfig config;    //!< the network
    Mega06HostOptions hostOptions; //!< --hostProfile, --hostSet, --profileFile
    double warmup{2.0};            //!< s before the window
    double duration{3.0};          //!< the window (s)
    bool querier{true};            //!< the IGMP querier PC
    double itr{100};               //!< its NIC's MaxInterruptRate
    double rssEvery{0};            //!< record the RSS every this many simulated s (0: never)
    std::string role;              //!< --role (a label)
    uint32_t parts{1};             //!< --parts: processes of a split run
    uint32_t part{0};              //!< --part: this process's part
    uint32_t part0Sets{0};         //!< --part0Sets: the sets part 0 runs (0: the even rule)
    std::string partOut;           //!< --partOut: the part's file
    std::string merge;             //!< --merge: part files to merge
    std::string peer;              //!< --peer: READ,WRITE descriptors to the other part
    bool digest{false};            //!< --digest: hash the router port's frames

    Mega06ScaleOptions();

    /**
     * @brief Declare the options, their checks and the up-front budgets.
     * @param opts the program's options
     */
    void Add(ProgramOptions& opts);

    /** @brief After Parse(): the network of this run (or of this part). */
    void Apply();

    /** @return the number of sets (groups) */
    uint32_t Sets() const;

    /**
     * @return the options that must be equal in every part of a split run (a part file's
     * signature)
     */
    std::string Signature() const;

    /** @return the observation window's start */
    Time ObsStart() const;

    /** @return its end (and the run's) */
    Time ObsEnd() const;

  private:
    /** Checked inside Parse(), so that --check refuses what the run would refuse. */
    void Check();
};

/**
 * @ingroup testbed
 * @brief What a run measured, from which alone its record is made: the whole run's, or one
 * part's of a run split by sets (doc/mega.rst), written to a part file and merged with the other
 * parts' into the whole run's. Integers add (`events` too: each part counts the events it ran
 * for the whole run, Mega06SplitPart); the senders' pooled statistics are merged from per-node
 * moments in the order of the node ids, the receivers' from their own summaries in the order of
 * the receivers: the same floating-point operations in the same order as in the whole run
 * (SaraTable::Summarize, the record's pooling).
 */
struct Mega06ScaleTotals
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
    uint64_t events{0};       //!< simulator events (of a part: its share of the whole run's)
    uint32_t part{0};         //!< this part (0 for a whole run)
    uint32_t parts{1};        //!< parts of the run
    std::string signature;    //!< the options that must be equal in every part
    std::string digest;       //!< --digest: the router port's frames (hexadecimal; or empty)

    /**
     * @brief Write the part file: text, doubles as hexadecimal floats (exact), then the moments
     * as their bytes (the part and the merge run the same program on the same machine).
     * @param file the file
     */
    void Write(const std::string& file) const;

    /**
     * @brief Read a part file (Write).
     * @param file the file
     * @param receivers the run's receivers
     * @return the part's totals
     */
    static Mega06ScaleTotals Read(const std::string& file, uint32_t receivers);

    /**
     * @brief Merge parts into the whole run's totals.
     * @param parts every part of the run, in any order
     * @param skeletonEvents the events of the network without any application (Mega06Split::
     *        SkeletonEvents), which every part ran and the whole run once
     * @return the totals
     */
    static Mega06ScaleTotals Merge(std::vector<Mega06ScaleTotals> parts, uint64_t skeletonEvents);
};

/**
 * @ingroup testbed
 * @brief mega-scale's record: its fields, and their values from a run's totals.
 */
struct Mega06ScaleRecord
{
    /**
     * @brief Declare the fields.
     * @param rec the record
     */
    static void Declare(ResultRecord& rec);

    /**
     * @brief Set the fields.
     * @param rec the record
     * @param o the run's options
     * @param t what it measured
     */
    static void Fill(ResultRecord& rec, const Mega06ScaleOptions& o, const Mega06ScaleTotals& t);
};

/**
 * @ingroup testbed
 * @brief What a mega-scale run (or part) observes in its window: the senders' sends, the
 * querier's queries, the receivers' sara tables and losses, the switches' drops, the querier's
 * NIC, and with --rssEvery the process's memory. Attach before Simulator::Run(), Collect after.
 */
class Mega06ScaleProbes
{
  public:
    /**
     * @brief Connect the traces and schedule the window's snapshots.
     * @param tb the network
     * @param o the run's options
     */
    Mega06ScaleProbes(Mega06Testbed& tb, const Mega06ScaleOptions& o);

    /**
     * @brief After the run: the totals (the switches' drops as the snapshots saw them, and the
     * simulator's events: a split part replaces both, Mega06SplitPart).
     * @param events the run's events
     * @return the totals
     */
    Mega06ScaleTotals Collect(uint64_t events) const;

    /** @return the resident memory (MB) every --rssEvery simulated s */
    const std::vector<double>& GetRss() const;

  private:
    /**
     * @param j a receiver
     * @return its NIC's ring and backlog drops
     */
    uint64_t NicDrops(uint32_t j) const;

    /**
     * @brief The switches' drops by reason.
     * @param d where to
     */
    void SwitchDrops(std::array<uint64_t, SwitchFabric::N_DROP_REASONS>& d) const;

    /**
     * @brief The querier's NIC's received and dropped frames.
     * @param rx received
     * @param drops dropped
     */
    void QuerierNic(uint64_t& rx, uint64_t& drops) const;

    /** The window's start. */
    void Start();

    /** Its end. */
    void End();

    /** Record the RSS. */
    void SampleRss();

    Mega06Testbed& m_tb;                                        //!< the network
    const Mega06ScaleOptions& m_o;                              //!< the options
    Mega06SentWindow m_sent;                                    //!< the senders' sends
    uint64_t m_queries{0};                                      //!< queries due in the window
    uint64_t m_queriesOnTime{0};                                //!< of them on time
    std::vector<uint64_t> m_bufferDrops0;                       //!< sara's at the start
    std::vector<uint64_t> m_nicDrops0;                          //!< NIC drops at the start
    std::array<uint64_t, SwitchFabric::N_DROP_REASONS> m_sw0{}; //!< at the start
    std::array<uint64_t, SwitchFabric::N_DROP_REASONS> m_sw1{}; //!< at the end
    uint64_t m_qrx0{0};                                         //!< querier NIC at the start
    uint64_t m_qdrop0{0};                                       //!< querier NIC at the start
    uint64_t m_qrx1{0};                                         //!< querier NIC at the end
    uint64_t m_qdrop1{0};                                       //!< querier NIC at the end
    std::vector<double> m_rss;                                  //!< --rssEvery
};

} // namespace ns3

#endif /* TESTBED_MEGA06_SCALE_H */
