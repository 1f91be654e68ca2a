/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RANDOM_DESTINATION_SOURCE_H
#define TESTBED_RANDOM_DESTINATION_SOURCE_H

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/random-variable-stream.h"

/**
 * @file
 * @ingroup testbed-apps
 * [NTT96]'s random-destination sender.
 */

namespace ns3
{

class Socket;

/**
 * @ingroup testbed-apps
 * @brief Sends UDP datagrams at a constant rate, each to a destination drawn uniformly from an
 * address block ([NTT96] exp. 3: it fills a router's route cache).
 *
 * A measuring instrument, not a host under test: it charges no CPU (its rate is an input; the
 * study could not control it).
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

    /** @return datagrams sent */
    uint64_t GetSent() const;

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

    double m_rate;                     //!< Rate (datagrams/s)
    uint32_t m_size;                   //!< PacketSize
    Ipv4Address m_prefix;              //!< Prefix
    uint32_t m_prefixLength;           //!< PrefixLength
    uint16_t m_port;                   //!< Port
    Ptr<UniformRandomVariable> m_host; //!< host part
    Ptr<Socket> m_socket;              //!< UDP
    EventId m_event;                   //!< next send
    uint64_t m_sent{0};                //!< counter
};

} // namespace ns3

#endif /* TESTBED_RANDOM_DESTINATION_SOURCE_H */
