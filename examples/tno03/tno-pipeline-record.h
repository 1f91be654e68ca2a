/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TNO_PIPELINE_RECORD_H
#define TESTBED_TNO_PIPELINE_RECORD_H

#include "ns3/host-platform.h"
#include "ns3/net-device-container.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/result-record.h"
#include "ns3/rti-lrc.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * tno-pipeline's configurations, measurement and record (examples/tno03/tno-pipeline.cc).
 */

namespace ns3
{
namespace tno
{

/** One configuration of the study. */
struct PipelineConfig
{
    std::string rti;   //!< RTI profile
    std::string hostA; //!< Sender and Receiver machine
    std::string hostB; //!< ReceiverSender machine ("" = the same machine)
    bool hub;          //!< a repeater hub instead of a switch
};

/**
 * The study's configuration of a name.
 * @param name 1a, 1b, 2, 3a, 3b or 4
 * @return its RTI, machines and network
 */
PipelineConfig PipelineConfigOf(const std::string& name);

/** The receiving side's measurements. */
struct PipelineMeasure
{
    Time windowStart;          //!< first tag counted
    Time windowEnd;            //!< tags before this are counted
    uint64_t sent{0};          //!< Sender's updates with a tag in the window
    uint64_t received{0};      //!< of those, reflected at the Receiver
    uint64_t readsInWindow{0}; //!< Receiver reads during the window (any tag)
    double sum{0};             //!< latency sum (s)
    double sumSq{0};           //!< latency square sum
    double max{0};             //!< largest latency
    std::vector<double> lat;   //!< latencies (s) in tag order of arrival (for the trend)
    uint32_t relayBurst{0};    //!< largest read cycle of the ReceiverSender in the window
    uint32_t receiverBurst{0}; //!< largest read cycle of the Receiver in the window
    /// Busy time of each federate's process in the window: (machine, pid) -> seconds.
    std::map<std::pair<uint32_t, uint32_t>, double> busy;
    uint64_t macDrops{0}; //!< frames the MACs gave up after 16 collisions (hub)
    // The hub's medium in the window (half-duplex MACs only; zero through a switch).
    uint64_t hubFrames{0};       //!< frames sent whole
    uint64_t hubWireBits{0};     //!< their bits with preamble and interframe gap
    uint64_t hubCollisions{0};   //!< collisions seen by the senders
    uint64_t hubBackoffSlots{0}; //!< slot times drawn by the backoffs
    uint64_t hubDeferrals{0};    //!< frames that found the carrier on and deferred
    double hubBitRate{0};        //!< the MACs' bit rate (bit/s)
};

/**
 * Declare tno-pipeline's record fields.
 * @param rec the record
 */
void DeclarePipelineRecord(ResultRecord& rec);

/**
 * Connect the measurement: the Receiver's reflections, both readers' read cycles, the
 * machines' process time and the MACs' excessive collisions, in the window of @p m.
 * @param m the measurement (kept alive by the caller until the run ends)
 * @param receiver the Receiver's RTI component
 * @param relay the ReceiverSender's
 * @param hosts the machines
 * @param devs the machines' network devices
 */
void MeasurePipeline(PipelineMeasure& m,
                     Ptr<RtiLrc> receiver,
                     Ptr<RtiLrc> relay,
                     const std::vector<Ptr<HostPlatform>>& hosts,
                     const NetDeviceContainer& devs);

/** What a finished run hands to its record. */
struct PipelineOutcome
{
    std::string config;                   //!< --config
    PipelineConfig cfg;                   //!< its RTI and machines
    double frequency;                     //!< --frequency (Hz)
    double duration;                      //!< the window (s)
    std::string band;                     //!< --band
    bool shm;                             //!< a shared-memory RTI (one machine)
    Ptr<RtiLrc> sender;                   //!< the Sender's RTI component
    Ptr<RtiLrc> receiver;                 //!< the Receiver's
    Ptr<RtiLrc> relay;                    //!< the ReceiverSender's
    std::vector<Ptr<HostPlatform>> hosts; //!< the machines
    NetDeviceContainer devs;              //!< their network devices
};

/**
 * Fill the record of a finished run (every field but the event count).
 * @param rec the record
 * @param m the measurement
 * @param o the run
 */
void FillPipelineRecord(ResultRecord& rec, const PipelineMeasure& m, const PipelineOutcome& o);

} // namespace tno
} // namespace ns3

#endif /* TESTBED_TNO_PIPELINE_RECORD_H */
