/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_PING_H
#define TESTBED_HOST_PING_H

#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <map>

/**
 * @file
 * @ingroup testbed-apps
 * ping (iputils) as a process on a host, with preload.
 */

namespace ns3
{

/**
 * @defgroup testbed-apps Instruments of the studies
 * @ingroup testbed
 *
 * The programs the studies measured with (ping, ftp, send_udp, sara, ...), as applications that
 * charge their work to the host platform model.
 */

class HostProcess;
class Socket;
class Packet;

/**
 * @ingroup testbed-apps
 * @brief ping: ICMP echo requests from a process, RTT from send to kernel receive time.
 *
 * Behaves like Linux iputils ping: the process takes the send time in user space
 * (gettimeofday), pays the send path (HostPlatform::GetSendCost) and hands the request to the
 * kernel; the reply's receive time is the kernel's timestamp (SO_TIMESTAMP), i.e. the moment
 * the reply reaches the socket, after the host's NIC and stack processing. With Preload = n
 * (ping -l n) the first n requests go back to back, then one every Interval, sleeping on the
 * host's timer. Without a HostPlatform on the node the process costs are zero.
 */
class HostPing : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    HostPing();
    ~HostPing() override;

    /**
     * @brief Echo replies received so far.
     * @return number of replies
     */
    uint32_t GetReceived() const;

    /**
     * @brief Echo requests sent so far.
     * @return number of requests
     */
    uint32_t GetSent() const;

    /**
     * TracedCallback signature for an RTT sample.
     * @param [in] seq sequence number
     * @param [in] rtt round-trip time
     */
    typedef void (*RttTracedCallback)(uint16_t seq, Time rtt);

    /**
     * TracedCallback signature for a send or receive event.
     * @param [in] seq sequence number
     * @param [in] time the (user-space send / kernel receive) timestamp
     */
    typedef void (*SeqTimeTracedCallback)(uint16_t seq, Time time);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /** Send the next request (process context). */
    void SendOne();
    /** Schedule the next request (sleep or preload). */
    void Next();
    /**
     * A packet on the raw socket.
     * @param socket the socket
     */
    void Receive(Ptr<Socket> socket);

    Ipv4Address m_remote;                //!< destination
    uint32_t m_size;                     //!< ICMP data bytes
    uint32_t m_count;                    //!< requests to send (0 = until stopped)
    Time m_interval;                     //!< interval
    uint32_t m_preload;                  //!< back-to-back requests at start
    uint16_t m_id;                       //!< ICMP identifier
    uint16_t m_seq;                      //!< next sequence number
    uint32_t m_received;                 //!< replies
    bool m_running;                      //!< started and not stopped
    Ptr<Socket> m_socket;                //!< raw ICMP socket
    Ptr<HostProcess> m_process;          //!< the ping process
    std::map<uint16_t, Time> m_sendTime; //!< user-space send time per sequence number

    TracedCallback<uint16_t, Time> m_rttTrace; //!< RTT samples
    TracedCallback<uint16_t, Time> m_txTrace;  //!< send times
    TracedCallback<uint16_t, Time> m_rxTrace;  //!< receive times
};

} // namespace ns3

#endif /* TESTBED_HOST_PING_H */
