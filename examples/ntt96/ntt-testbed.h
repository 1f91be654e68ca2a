/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NTT_TESTBED_H
#define TESTBED_NTT_TESTBED_H

#include "ns3/application-container.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/result-record.h"

#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed
 * The [NTT96] set-ups: the analyser's stream forwarded over an FDDI ring, or through a
 * route-cache router, under load (the program ntt-stream runs one configuration).
 */

namespace ns3
{

class UdpFrameSource;
class CacheRouter;
class NttForwarder;
class NttKernelSections;
class NttReceiver;
class PacketSink;
class RandomDestinationSource;

/**
 * @ingroup testbed
 * @brief One configuration of an [NTT96] experiment (the options of ntt-stream; doc/ntt.rst
 * gives each set-up choice's source and range).
 */
struct NttStreamConfig
{
    std::string setup{"ring"};         //!< ring (exp. 1) or router (exps. 2, 3)
    std::string receiverSide{"fddi"};  //!< router: R on the FDDI side (a second subnet) or Ethernet
    std::string loadDirection{"in"};   //!< router: load enters (in) or leaves (out) by Ethernet
    bool tcp{true};                    //!< the stream forwarded over TCP (else UDP)
    bool analyserOnRing{true};         //!< the analyser's stream port on the (loaded) ring
    double loadPps{0};                 //!< load frames per second (0: none)
    uint32_t loadFrame{0};             //!< load frame bytes, MAC header and FCS (0: the largest)
    uint32_t packets{1000};            //!< logged stream packets in the jitter window
    uint32_t warmupPackets{20};        //!< logged stream packets before the jitter window
    Time interval{MicroSeconds(5550)}; //!< the stream's interval
    uint32_t packetSize{4160};         //!< stream packet bytes (UDP payload)
    Time maxTime{Seconds(600)};        //!< longest the stream runs before the window is logged
    bool cacheEthernet{true};          //!< router: fast switching on the Ethernet interface
    bool cacheFddi{true};              //!< router: fast switching on the FDDI interface
    std::string cacheSide{"Output"};   //!< router: whose switch governs a packet (Output, Input)
    std::string cachePolicy{"FlushAll"};     //!< router: cache replacement (FlushAll, Lru)
    Time flushInterval{Seconds(60)};         //!< router: period of the clear-all flush (0: none)
    std::string randomAfterFill{"continue"}; //!< router: exp. 3's random traffic after the fill
    double flushPhase{0};                    //!< router: first flush at this share of flushInterval
    uint32_t cacheCapacity{8548};            //!< router: route-cache entries (one table)
    double randomRate{0}; //!< router: random-destination datagrams per second (exp. 3)
    std::string randomSender{"generator"}; //!< router: exp. 3's random computer (generator, host)
    std::string ethernetRate{"100Mbps"};   //!< router: the hub's rate (100Mbps, 10Mbps)
    uint32_t randomSize{64};               //!< router: random-destination UDP payload bytes
    Time fillTimeout{Seconds(30)};         //!< router: latest stream start after the random traffic
    Time ttrt{MilliSeconds(8)};            //!< FDDI TTRT
    bool ttrtGiven{false};   //!< --ttrt given (else the lowest bid: 8 ms ring, 5 ms router)
    double fastCost{1800};   //!< router: fast-path cycles per packet
    double slowCost{18000};  //!< router: process-switching cycles per packet
    uint32_t inputQueue{75}; //!< router: input hold queue of each interface (packets)
    uint32_t rxRing{32};     //!< router: receive ring of each interface (0: unbounded)
    bool bufferPools{true};  //!< router: IOS public buffer pools for process switching
    std::string inputService{"Fifo"}; //!< router: IP input service order (Fifo, RoundRobin)
    uint32_t sndBuf{8192};            //!< hosts' TCP send buffer (bytes, before tcp_mss())
    uint32_t rcvBuf{8192};            //!< hosts' TCP receive buffer (bytes, before tcp_mss())
    bool timestamps{false};           //!< RFC 1323 timestamps on the hosts' TCP
    uint32_t mclBytes{2048};          //!< the hosts' MCLBYTES (2048 or 1024)
    std::string mssRule{"bsd44"};     //!< MSS rule: bsd44 (rounded to MCLBYTES) or mtu (MTU - 40)
    uint32_t udpRcvBuf{41600};        //!< the hosts' UDP receive buffer (udp_recvspace)
    uint32_t timestampHz{1000000};    //!< R's application clock: ticks per second
    uint32_t logWriteEvery{0};        //!< R writes its log every this many packets (0: never)
    Time logWriteCost{MicroSeconds(300)};    //!< CPU time of one write of the log
    Time syncInterval{Seconds(30)};          //!< S's and R's update daemon: sync period (0: none)
    Time syncDuration{MilliSeconds(1)};      //!< CPU time of one sync in the kernel
    double otherRate{0};                     //!< other processes' system calls per second
    Time otherDuration{MicroSeconds(500)};   //!< CPU time of one of them
    std::string hostProfile{"ws1995-bsd44"}; //!< host profile of S and R
    std::string routerProfile{"router1995-m68040"}; //!< host profile of the router
    std::string hostSet; //!< --hostSet: host parameters changed on S, R and the router
};

/**
 * @ingroup testbed
 * @brief The [NTT96] testbed of one configuration: nodes, FDDI ring, Ethernet hub and
 * route-cache router (one cache, per-interface input hold queues), the hosts' 4.4BSD TCP, the
 * stream (analyser -> sending computer S -> receiving computer R), the load and exp. 3's
 * random-destination sender.
 *
 * The analyser sends until R has logged warmupPackets + packets packets (the run stops then) or
 * until maxTime after the stream's start (the jitter is then a lower bound). Check() refuses a
 * configuration that cannot be built (exit 2), Build() sets everything up (Config defaults
 * included), Simulator::Run() runs it, Write() puts the outcome in the program's record (the
 * fields of DeclareFields()).
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
     * @brief Set up a configuration; the TTRT and the load frame take their defaults here.
     * @param config the configuration
     */
    explicit NttTestbed(const NttStreamConfig& config);
    ~NttTestbed();

    /**
     * @brief Refuse a configuration that cannot be built (ProgramOptions::Require: exit 2).
     */
    void Check() const;

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
     * @brief 4.4BSD's tcp_mss() on the path: the MSS and the socket buffers' rounding, as
     * Config defaults of the hosts' TCP.
     */
    void ConfigureTcp();
    /** The nodes, the FDDI ring, the Ethernet hub, the addresses. */
    void BuildNetwork();
    /** The router's routes, CPU and route-cache forwarding (router set-up). */
    void BuildRouter();
    /** R's receiver, S's forwarder, the load, the random traffic and the stream's start. */
    void BuildApplications();
    /** @return whether the receiving computer is on the ring */
    bool ReceiverOnRing() const;
    /** @return the load's UDP payload bytes */
    uint32_t LoadPayload() const;
    /**
     * @brief The analyser's stream port starts sending (until the window is logged or maxTime).
     * @param delay when
     */
    void StartStream(Time delay);
    /** Exp. 3: poll the cache every 10 ms; the stream starts when it is full or at the timeout. */
    void Poll();
    /** Count S's TCP retransmissions once its socket exists. */
    void WatchSocket();
    /**
     * @brief R logged a packet: stop when the window is complete.
     * @param seq the packet's sequence number
     * @param time its arrival
     */
    void Logged(uint32_t seq, Time time);

    NttStreamConfig m_c;                   //!< the configuration
    bool m_router{false};                  //!< the router set-up
    uint32_t m_mss{0};                     //!< the path's TCP segment size
    uint32_t m_maxseg{0};                  //!< tcp_mss() before the timestamp option
    Ptr<Node> m_analyser;                  //!< the analyser's stream port
    Ptr<Node> m_sender;                    //!< S, the sending (forwarding) computer
    Ptr<Node> m_receiver;                  //!< R, the receiving computer
    Ptr<Node> m_sink;                      //!< L, the load's sink
    Ptr<Node> m_loadPort;                  //!< the analyser's load port
    Ptr<Node> m_rtr;                       //!< the router (router set-up)
    Ptr<Node> m_randomSender;              //!< exp. 3's random-destination computer
    Ptr<NetDevice> m_rtrRingDev;           //!< the router's FDDI device
    Ptr<NetDevice> m_rtrHubDev;            //!< the router's Ethernet device
    Ipv4Address m_analyserTarget;          //!< S's address the analyser sends to
    Ptr<CacheRouter> m_cacheRouter;        //!< the router's forwarding (router set-up)
    uint32_t m_ifFddi{0};                  //!< the router's FDDI interface
    uint32_t m_ifEthernet{0};              //!< the router's Ethernet interface
    Ptr<NttReceiver> m_rx;                 //!< R's logging receiver
    Ptr<NttForwarder> m_fwd;               //!< S's forwarder
    Ptr<NttKernelSections> m_sectionsS;    //!< S's competing kernel sections
    Ptr<NttKernelSections> m_sectionsR;    //!< R's competing kernel sections
    std::vector<Time> m_flushes;           //!< the router's cache flushes
    Ptr<PacketSink> m_loadSink;            //!< L's sink
    Ptr<UdpFrameSource> m_load;            //!< the analyser's load port's generator
    Ptr<RandomDestinationSource> m_random; //!< exp. 3's random-destination sender
    ApplicationContainer m_analyserApp;    //!< the analyser's stream port's sender
    Time m_loadStart{Seconds(1.0)};        //!< when the load (and the random traffic) start
    Time m_streamStart;                    //!< when the stream starts
    uint64_t m_logged{0};                  //!< stream packets R logged
    uint64_t m_retransmissions{0};         //!< S's TCP retransmissions
    bool m_cacheFull{false};               //!< exp. 3: the cache was full at the stream's start
    Time m_fillTime{Seconds(-1)};          //!< exp. 3: time the random traffic took
};

} // namespace ns3

#endif /* TESTBED_NTT_TESTBED_H */
