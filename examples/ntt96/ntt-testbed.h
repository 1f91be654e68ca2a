/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NTT_TESTBED_H
#define TESTBED_NTT_TESTBED_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/result-record.h"

#include <string>

/**
 * @file
 * @ingroup testbed
 * The [NTT96] set-ups: the analyser's stream forwarded over an FDDI ring, or through a
 * route-cache router, under load (the program ntt-stream runs one configuration).
 */

namespace ns3
{

class CacheRouter;
class NttForwarder;
class NttReceiver;
class PacketSink;
class RandomDestinationSource;
class RouteCache;

/**
 * @ingroup testbed
 * @brief One configuration of an [NTT96] experiment (the options of ntt-stream).
 */
struct NttStreamConfig
{
    std::string setup{"ring"};         //!< ring (exp. 1) or router (exps. 2, 3)
    std::string streamFrom{"fddi"};    //!< router: the side the stream enters from (fddi, ethernet)
    bool tcp{true};                    //!< the stream forwarded over TCP (else UDP)
    DataRate load{"0bps"};             //!< offered load (UDP payload bit/s)
    uint32_t packets{1000};            //!< stream packets in the jitter window
    uint32_t warmupPackets{20};        //!< stream packets before the jitter window
    Time interval{MicroSeconds(5550)}; //!< the stream's interval
    uint32_t packetSize{4160};         //!< stream packet bytes (UDP payload)
    bool cacheEthernet{true};          //!< router: Ethernet interface's route cache on
    bool cacheFddi{true};              //!< router: FDDI interface's route cache on
    std::string cacheSide{"Output"};   //!< router: whose cache a packet uses (Output, Input)
    std::string cachePolicy{"FlushAll"}; //!< router: cache replacement (FlushAll, Lru)
    Time flushInterval{Seconds(60)};     //!< router: period of the clear-all flush (0: none)
    uint32_t cacheCapacity{8548};        //!< router: entries per interface cache
    double randomRate{0};          //!< router: random-destination datagrams per second (exp. 3)
    Time fillTimeout{Seconds(30)}; //!< router: latest stream start after the random traffic
    Time ttrt{MilliSeconds(8)};    //!< FDDI target token rotation time
    double fastCost{1800};         //!< router: fast-path cycles per packet
    double slowCost{18000};        //!< router: slow-path cycles per packet
    uint32_t inputQueue{75};       //!< router: input queue packets
    std::string hostProfile{"ws1995-bsd44"};        //!< host profile of S and R
    std::string routerProfile{"router1995-m68040"}; //!< host profile of the router
    std::string hostSet; //!< --hostSet: host parameters changed on S, R and the router
};

/**
 * @ingroup testbed
 * @brief The [NTT96] testbed of one configuration: nodes, FDDI ring, Ethernet hub and
 * route-cache router, the era's TCP, the stream (analyser -> sending computer S -> receiving
 * computer R), the load and exp. 3's random-destination sender; the stream's start scheduled.
 *
 * Build() sets everything up (Config defaults included), Simulator::Run() runs it, Write() puts
 * the outcome in the program's record (the fields of DeclareFields()).
 */
class NttTestbed
{
  public:
    /**
     * @brief Declare the fields that Write() sets.
     * @param record the record
     */
    static void DeclareFields(ResultRecord& record);

    /**
     * @brief Set up a configuration.
     * @param config the configuration
     */
    explicit NttTestbed(const NttStreamConfig& config);
    ~NttTestbed();

    /**
     * @brief Build the network and the applications and schedule the stream (call once, before
     * Simulator::Run()).
     */
    void Build();

    /**
     * @brief Put the outcome in the record (after Simulator::Run(), before Simulator::Destroy()).
     * @param record the record (its fields declared by DeclareFields())
     */
    void Write(ResultRecord& record) const;

  private:
    /**
     * @brief The analyser's stream port starts sending.
     * @param delay when
     */
    void StartStream(Time delay);
    /** Exp. 3: poll the cache every 10 ms; the stream starts when it is full or at the timeout. */
    void Poll();

    NttStreamConfig m_c;                   //!< the configuration
    bool m_router{false};                  //!< the router set-up
    Ptr<Node> m_analyser;                  //!< the analyser's stream port
    Ptr<Node> m_sender;                    //!< S, the sending (forwarding) computer
    Ptr<Node> m_receiver;                  //!< R, the receiving computer
    Ptr<Node> m_sink;                      //!< L, the load's sink
    Ptr<CacheRouter> m_cacheRouter;        //!< the router's forwarding (router set-up)
    uint32_t m_ifFddi{0};                  //!< the router's FDDI interface
    uint32_t m_ifEthernet{0};              //!< the router's Ethernet interface
    Ptr<NttReceiver> m_rx;                 //!< R's logging receiver
    Ptr<NttForwarder> m_fwd;               //!< S's forwarder
    Ptr<PacketSink> m_loadSink;            //!< L's sink
    Ptr<RandomDestinationSource> m_random; //!< exp. 3's random-destination sender
    Ptr<RouteCache> m_filled;              //!< exp. 3: the cache the random traffic fills
    Time m_loadStart{Seconds(1.0)};        //!< when the load (and the random traffic) start
    Time m_streamStart;                    //!< when the stream starts
    Time m_streamDuration;                 //!< how long the stream runs
    uint32_t m_margin{0};                  //!< stream packets sent beyond the window
    bool m_cacheFull{false};               //!< exp. 3: the cache was full at the stream's start
    Time m_fillTime{Seconds(-1)};          //!< exp. 3: time the random traffic took
};

} // namespace ns3

#endif /* TESTBED_NTT_TESTBED_H */
