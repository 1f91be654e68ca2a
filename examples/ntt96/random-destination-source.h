/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RANDOM_DESTINATION_SOURCE_H
#define TESTBED_RANDOM_DESTINATION_SOURCE_H

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

/**
 * @file
 * @ingroup testbed-apps
 * [NTT96]'s random-destination sender.
 */

namespace ns3
{

class HostProcess;
class Socket;

/**
 * @ingroup testbed-apps
 * @brief Sends UDP datagrams at a constant rate, each to a destination drawn uniformly from an
 * address block ([NTT96] exp. 3: it fills a router's route cache).
 *
 * Two kinds of sender ([NTT96]: "a computer sends packets with random destinations"; "because
 * control was difficult, the throughput was not varied"):
 * - a generator (the default): it charges no CPU and sends at Rate;
 * - a host (SetProcess): one process that sends in a loop as fast as its send path allows, each
 *   datagram the host's send cost (HostPlatform::GetSendCost of its payload) and then a sendto;
 *   Rate is not used. What its adapter cannot take is lost at the interface queue, as 4.4BSD's
 *   sendto returns ENOBUFS and the loop goes on.
 */
class RandomDestinationSource : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RandomDestinationSource();
    ~RandomDestinationSource() override;

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream index
     * @return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * @brief Make the sender a host's process (see the class): it sends as fast as the process's
     * send path allows. Call before the application starts.
     * @param process the process on the sender's host
     */
    void SetProcess(Ptr<HostProcess> process);

    /** @return datagrams sent */
    uint64_t GetSent() const;

    /** @return datagrams per second from the first datagram to the last (0 before two) */
    double GetSendRate() const;

    /** Stop sending now (the reading of [NTT96] exp. 3 in which the random computer stops once
     * the router's cache is full). */
    void Halt();

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /** Send one datagram and schedule the next. */
    void Send();
    /** Host mode: the process's send cost for the next datagram, then SendOne. */
    void Loop();
    /** Host mode: the sendto after the send cost; then the next datagram. */
    void SendOne();
    /** Hand one datagram to a random destination to the socket. */
    void Emit();

    double m_rate;                     //!< Rate (datagrams/s)
    uint32_t m_size;                   //!< PacketSize
    Ipv4Address m_prefix;              //!< Prefix
    uint32_t m_prefixLength;           //!< PrefixLength
    uint16_t m_port;                   //!< Port
    Ptr<UniformRandomVariable> m_host; //!< host part
    Ptr<Socket> m_socket;              //!< UDP
    EventId m_event;                   //!< next send
    uint64_t m_sent{0};                //!< counter
    Ptr<HostProcess> m_process;        //!< host mode's process (null: a generator)
    bool m_running{false};             //!< host mode: the loop goes on
    Time m_first;                      //!< first datagram's time
    Time m_last;                       //!< last datagram's time
};

} // namespace ns3

#endif /* TESTBED_RANDOM_DESTINATION_SOURCE_H */
