/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_JAXA_BENCHMARK_DRIVER_H
#define TESTBED_JAXA_BENCHMARK_DRIVER_H

#include "ns3/data-rate.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/nstime.h"
#include "ns3/result-record.h"

#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed-rti
 * The [JAXA06] RTI benchmark on the [JAXA06] testbed: one configuration, several repetitions.
 */

namespace ns3
{

class ProgramOptions;
class EmulatedTestbedHelper;
struct EmulatedTestbed;

/**
 * @ingroup testbed-rti
 * @brief One configuration of the [JAXA06] RTI benchmark.
 */
struct JaxaBenchmarkConfig
{
    std::string mode{"sync"};           //!< sync | async | bidir (synchronised, both send)
    bool tsoData{true};                 //!< synchronised data in timestamp order (else RO)
    uint32_t dataSize{64};              //!< payload bytes per update
    DataRate bandwidth{0};              //!< NIST Net bandwidth, each direction (0 = none)
    Time delay{0};                      //!< NIST Net delay
    std::string delayDirection{"both"}; //!< both | a-to-b | b-to-a: where the delay applies
    bool netem{false};                  //!< netem semantics (rate and delay add up)
    bool halfDuplex{false};             //!< NICs at half duplex (IEEE 802.3 CSMA/CD)
    /** With halfDuplex: the NIST Net PC's NICs: half (forced), auto or full (forced). */
    std::string emulatorNic{"half"};
    uint32_t extraCrc{0};               //!< time-only federates on the CRC's PC
    uint32_t extraOther{0};             //!< time-only federates on the other PC
    uint32_t exchanges{1000};           //!< exchanges per repetition
    uint32_t reps{10};                  //!< repetitions (run numbers RngRun, RngRun + 1, ...)
    std::string crcHost{"receiver"};    //!< receiver | sender: the PC that runs the CRC
    std::string rtiProfile{"prti1516"}; //!< profile of kind "rti"
    std::string galt;                   //!< "" (profile's) | central | null
    std::string nagle;                  //!< "" (profile's) | on | off
    /** How the programs wait for callbacks: evoke (evokeCallback(1 s)), poll1000 or poll250
     * (evokeCallback(0), then a 1 ms sleep on a 1000 or 250 Hz tick when nothing came). */
    std::string wait{"evoke"};
    /** Traffic besides the benchmark's on the federate links: none; arp (the NIST Net PC's
     * unicast ARP probes of each federate PC, NeighbourProbe); udp (datagrams at
     * backgroundRate each way on each federate link, Poisson, UdpFrameSource). */
    std::string background{"none"};
    double backgroundRate{0};    //!< with background udp: datagrams/s each way on each link
    uint32_t backgroundSize{18}; //!< with background udp: UDP payload octets (18: 64-octet frames)
    std::string hostProfile{"pc2006-linux26"};      //!< HostProfile of the federate PCs
    std::string emulatorProfile{"nistnet-linux24"}; //!< HostProfile of the NIST Net PC
    std::string profileFile; //!< extra HostProfile definitions to load ("" = none)
    /** RtiSettings attributes set after the profile: "Name=Value;Name=Value" ("" = none). */
    std::string rtiSet;
    /**
     * Host parameters changed for a sensitivity or calibration study: "Key=Value;..." where Key
     * is a profile key (HostPlatform.SendCost) or an attribute inside an object value
     * (ContextSwitchCost); applied to the federate PCs' and the emulator's profiles ("" = none).
     */
    std::string hostSet;
};

/**
 * @ingroup testbed-rti
 * @brief One frame on a federate PC's link, as the wire carries it (for the timeline).
 */
struct JaxaFrameSpan
{
    double startUs{0};    //!< first bit of the preamble, us from the start of the step shown
    double endUs{0};      //!< last bit if the frame is sent whole, us
    uint32_t lane{0};     //!< 0 host A -> NIST Net, 1 NIST Net -> host A, 2 NIST Net -> host B,
                          //!< 3 host B -> NIST Net
    bool collided{false}; //!< the sender saw a collision during it (half duplex)
};

/**
 * @ingroup testbed-rti
 * @brief The outcome of one repetition.
 */
struct JaxaBenchmarkRun
{
    double totalSeconds{0}; //!< start of the first federate to the end of the last
    /** The clock's start moved earlier, per exchange (ms): from the receiver's program start,
     * its join (federationJoined) and its discovery of the sender's instance. */
    double fromProgramStartMs{0};
    double fromJoinMs{0};               //!< see fromProgramStartMs
    double fromDiscoveryMs{0};          //!< see fromProgramStartMs
    double perExchangeMs{0};            //!< total / exchanges, in ms
    uint64_t crcMessagesIn{0};          //!< messages the CRC received
    uint64_t crcMessagesOut{0};         //!< messages the CRC sent
    std::vector<uint64_t> crcInByType;  //!< messages the CRC received, per RtiMessage::Type
    std::vector<uint64_t> crcOutByType; //!< messages the CRC sent, per RtiMessage::Type
    uint64_t lateTso{0};                //!< TSO messages after their grant (must be 0)
    uint64_t minorGcs{0};               //!< minor collections of the RTI's VMs (whole run)
    double minorGcMs{0};                //!< their pauses (ms)
    uint64_t handoffs{0};               //!< RTI thread hand-offs charged (whole run)
    double cpuBusyCrcPc{0};             //!< CPU busy fraction of the CRC's PC during the loop
    double cpuBusyOtherPc{0};           //!< CPU busy fraction of the other PC during the loop
    uint64_t events{0};                 //!< simulator events executed (the whole run)
    EthernetNetDevice::Stats ethernet;  //!< IEEE 802.3 counters summed over the testbed's NICs
    uint64_t frames{0};                 //!< frames begun on the two links during the loop
    /** Frame pairs of opposite directions on one link that overlap in time, during the loop. */
    uint64_t overlaps{0};
    uint64_t tcpRetransmissions{0};      //!< TCP segments retransmitted (hosts A and B)
    uint64_t tcpRtos{0};                 //!< retransmission timeouts (TCP CA_LOSS entries)
    uint64_t tcpFastRecoveries{0};       //!< fast retransmits (TCP CA_RECOVERY entries)
    uint64_t backgroundFrames{0};        //!< background probes and datagrams sent (whole run)
    bool backgroundLimit{false};         //!< ended by the background's frame limit
    std::vector<JaxaFrameSpan> timeline; //!< the frames of one step (see RunOnce)
    uint32_t timelineStep{0};            //!< the step the timeline shows (0: none)
    double timelineStepUs{0};            //!< its duration (us)
    bool finished{false};                //!< every data federate completed its exchanges
    uint32_t completed{0};               //!< exchanges every data federate completed
    uint32_t connectionsLost{0};         //!< federates whose RTI connection was lost
};

/**
 * @ingroup testbed-rti
 * @brief Runs the [JAXA06] benchmark: the testbed (EmulatedTestbedHelper::Jaxa06()), an RTI
 * federation with its CRC on one of the two federate PCs, the sender on host A and the receiver on
 * host B (or two bidirectional federates), plus time-only federates on either PC.
 */
class JaxaBenchmark
{
  public:
    /**
     * @brief Run one repetition (a fresh simulation).
     * @param config the configuration
     * @param run the run number (RngRun)
     * @return the outcome
     */
    static JaxaBenchmarkRun RunOnce(const JaxaBenchmarkConfig& config, uint32_t run);

    /**
     * @brief Declare the configuration's options (types, ranges, choices).
     * @param opts the program's options
     * @param config the configuration (defaults, filled by Parse)
     */
    static void AddOptions(ProgramOptions& opts, JaxaBenchmarkConfig& config);

    /**
     * @brief Declare the testbed's PC options, shared by the JAXA06 programs: --hostProfile
     * (federate PCs), --emulatorProfile (NIST Net PC), --hostSet, --profileFile.
     * @param opts the program's options
     * @param config where they go (its hostProfile, emulatorProfile, hostSet, profileFile)
     */
    static void AddHostOptions(ProgramOptions& opts, JaxaBenchmarkConfig& config);

    /**
     * @brief Give the testbed the chosen PCs: the profiles, then --hostSet on them.
     * @param testbed the testbed
     * @param config the configuration (its hostProfile, emulatorProfile, hostSet)
     */
    static void SetHosts(EmulatedTestbedHelper& testbed, const JaxaBenchmarkConfig& config);

    /**
     * @brief Declare the fields that RunAll writes (AddOptions declares them in the options'
     * record).
     * @param record the record
     */
    static void DeclareFields(ResultRecord& record);

    /**
     * @brief Check what the options' ranges cannot (exit status 2 with a message if bad): the
     * combinations (ProgramOptions::Parse checks the profiles' names).
     * @param config the configuration
     */
    static void Check(const JaxaBenchmarkConfig& config);

    /**
     * @brief Run all repetitions and put the parameters and outcomes in a record.
     * @param config the configuration
     * @param firstRun the first run number
     * @param record the record to fill
     */
    static void RunAll(const JaxaBenchmarkConfig& config, uint32_t firstRun, ResultRecord& record);

    /**
     * @brief The programs' --hostSet: the testbed's host profiles (federate PCs and NIST Net
     * PC) replaced by copies with some parameters changed (ProgramOptions::WithHostSet), registered
     * under new names (exit status 2 naming --hostSet if a change does not parse or apply).
     * @param testbed the testbed, its profiles set
     * @param changes "Key=Value;..." ("" = none: the profiles stay)
     */
    static void ApplyHostSet(EmulatedTestbedHelper& testbed, const std::string& changes);

    /**
     * @brief For a program whose run ends when its last packet is done (no stop time:
     * jaxa-table1, jaxa-table2): refuse PCs whose kernel ticks stay simulator events while the
     * CPU is idle (HostCpu IdleInterferenceEvents=true with an InterferenceRate or
     * ShieldedInterferenceRate above 0), which would keep Simulator::Run() going for ever.
     * Adds a check to Parse() that reads the chosen profiles after --hostSet (and the
     * attributes' defaults, e.g. --ns3::HostCpu::IdleInterferenceEvents), so that --check
     * refuses them too (exit status 2 with a message).
     * @param opts the program's options (after AddHostOptions)
     * @param config the configuration AddHostOptions fills
     */
    static void RequireRunEnds(ProgramOptions& opts, const JaxaBenchmarkConfig& config);

    /**
     * @brief The same rule on the installed testbed's CPUs (exit status 2 with a message): a
     * guard for settings that reach the CPUs by another way than the profiles.
     * @param testbed the installed testbed
     */
    static void RequireRunEnds(const EmulatedTestbed& testbed);
};

} // namespace ns3

#endif /* TESTBED_JAXA_BENCHMARK_DRIVER_H */
