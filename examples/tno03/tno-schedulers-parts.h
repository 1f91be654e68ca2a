/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TNO_SCHEDULERS_PARTS_H
#define TESTBED_TNO_SCHEDULERS_PARTS_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-clock.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/ntp-client.h"
#include "ns3/program-options.h"
#include "ns3/ptr.h"
#include "ns3/rci-federate.h"
#include "ns3/rci-schedule.h"
#include "ns3/result-record.h"
#include "ns3/rti-fedex.h"
#include "ns3/rti-lrc.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

/**
 * @file
 * tno-schedulers' set-up, cockpits and record (examples/tno03/tno-schedulers.cc).
 */

namespace ns3
{
namespace tno
{

/** The cockpit federate's built-in schedule sheet (doc/tno.rst). */
extern const char* const FIGHTER_SHEET;

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

/** tno-schedulers' options, with their defaults. */
struct SchedulersOptions
{
    std::string scheduler = "default";             //!< --scheduler
    std::string network = "lan";                   //!< --network
    std::string clockKind = "ntp";                 //!< --clock
    std::string sheetFile;                         //!< --sheet
    double duration = 5.0;                         //!< --duration (s)
    Time delay = MilliSeconds(40);                 //!< --delay
    Time jitter = MilliSeconds(10);                //!< --jitter
    double loss = 0.01;                            //!< --loss
    DataRate bandwidth{"4Mbps"};                   //!< --bandwidth
    Time lookahead = MilliSeconds(1);              //!< --lookahead
    std::string hostProfile = "ihawk-redhawk-700"; //!< --hostProfile
    std::string peerProfile = "ihawk-redhawk-700"; //!< --peerProfile
    std::string hostSet;                           //!< --hostSet
    std::string profileFile;                       //!< --profileFile
    std::string rtiProfile = "tno-rti-dm";         //!< --rtiProfile
    std::string rtiSet;                            //!< --rtiSet
    std::string bandName = "central";              //!< --band
    double ntpResidualUs = NTP_RESIDUAL_US;        //!< --ntpResidual (us)
    double crystalPpm = CRYSTAL_PPM;               //!< --crystalPpm
    double cardResolutionUs = CARD_RESOLUTION_US;  //!< --cardResolution (us)
    double cardReadCostUs = CARD_READ_COST_US;     //!< --cardReadCost (us)
};

/**
 * Add tno-schedulers' options.
 * @param opts the program's options
 * @param o where their values go
 */
void AddSchedulersOptions(ProgramOptions& opts, SchedulersOptions& o);

/**
 * Declare tno-schedulers' record fields.
 * @param rec the record
 */
void DeclareSchedulersRecord(ResultRecord& rec);

/**
 * Read and check the cockpits' schedule sheet (ProgramOptions::Require on an error).
 * @param sheetFile the file; empty: the built-in sheet
 * @param sheet the sheet read
 */
void ReadFighterSheet(const std::string& sheetFile, RciSchedule& sheet);

/** The machines' clocks. */
struct Clocks
{
    std::vector<Ptr<NodeClock>> clocks;     //!< machine A's and B's (one card: the same)
    std::vector<Ptr<NtpClient>> ntpClients; //!< ntp: the two clients
};

/**
 * Install the clocks (doc/tno.rst). NTP: each machine's own clock, a PC crystal's drift,
 * disciplined by ntpd polling the LAN's server; card: one common time base.
 * @param o the options (--clock, --ntpResidual, --crystalPpm, --cardResolution,
 *        --cardReadCost)
 * @param machines machines A and B
 * @param timeServer the LAN's NTP server node
 * @param serverAddress its address
 * @return the clocks
 */
Clocks InstallClocks(const SchedulersOptions& o,
                     const NodeContainer& machines,
                     Ptr<Node> timeServer,
                     Ipv4Address serverAddress);

/** The federation's tallies across federates. */
struct FederationTally
{
    /// Send times of every update, per class, by sequence number (for the federate latency).
    std::map<uint32_t, std::vector<Time>> sendTimes;
    Time maxFederate;                         //!< largest cockpit -> cockpit latency
    double sumFederate{0};                    //!< their sum (s)
    uint64_t nFederate{0};                    //!< their number
    uint64_t cgfReflected{0};                 //!< CGF updates reflected at the cockpits
    std::map<std::string, uint64_t> missesBy; //!< late starts by kind of action
};

/**
 * Give a cockpit's RCI its actions: control input, dynamics, state output, visual update and
 * refresh, with their components' costs and the input -> refresh latency.
 * @param c the cockpit
 * @param proc its process
 * @param sheet its schedule sheet
 * @param own its object class
 * @param tally the federation's tallies (the state outputs' send times)
 * @param end the end of the measured run (a refresh after it is not counted)
 */
void SetCockpitActions(Cockpit& c,
                       Ptr<HostProcess> proc,
                       const RciSchedule& sheet,
                       uint32_t own,
                       FederationTally& tally,
                       const Time& end);

/** What a finished run hands to its record. */
struct SchedulersOutcome
{
    const std::vector<Cockpit>& cockpits; //!< the two cockpits
    const FederationTally& tally;         //!< the federation's tallies
    const Clocks& clocks;                 //!< the clocks
    Time start;                           //!< start of the measured frames
    Time enabledAt;                       //!< hla: when time management was enabled
    bool allEnabled;                      //!< hla: every federate's was
    Ptr<RtiFedex> fedex;                  //!< the Fedex
    const std::vector<Ptr<RtiLrc>>& lrcs; //!< the cockpits' RTI components
};

/**
 * Fill the record of a finished run (every field but the event count).
 * @param rec the record
 * @param o the options
 * @param run the run
 */
void FillSchedulersRecord(ResultRecord& rec,
                          const SchedulersOptions& o,
                          const SchedulersOutcome& run);

} // namespace tno
} // namespace ns3

#endif /* TESTBED_TNO_SCHEDULERS_PARTS_H */
