/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NTP_CLIENT_H
#define TESTBED_NTP_CLIENT_H

#include "node-clock.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <deque>

/**
 * @file
 * @ingroup testbed-rci
 * An NTP client that disciplines a NodeClock over the network, and the server it polls.
 */

namespace ns3
{

/**
 * @ingroup testbed-rci
 * @brief An NTP server (stratum 1): answers each 48-byte client request with its receive and
 * transmit timestamps, read on its own clock (the true time when it has no NodeClock: a
 * reference clock such as GPS).
 */
class NtpServer : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NtpServer();
    ~NtpServer() override;

    /** @return requests answered */
    uint64_t GetAnswered() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /**
     * A request came.
     * @param socket the socket
     */
    void HandleRead(Ptr<Socket> socket);

    uint16_t m_port;        //!< Port
    Ptr<Socket> m_socket;   //!< the socket
    uint64_t m_answered{0}; //!< counter
};

/**
 * @ingroup testbed-rci
 * @brief An NTP client (ntpd's on-wire protocol, clock filter and clock discipline, RFC 5905
 * sections 8, 10 and 11 with ntpd 4's constants) that keeps a NodeClock on a server's time.
 *
 * - Every 2^Poll seconds (Poll 6 = 64 s, RFC 1305's minimum poll and ntpd's default) it sends a
 *   request stamped T1 (its clock); the server stamps T2 (receive) and T3 (transmit); the answer
 *   is stamped T4 at arrival. Offset theta = ((T2 - T1) + (T3 - T4)) / 2, delay
 *   delta = (T4 - T1) - (T3 - T2) (RFC 5905 section 8).
 * - Clock filter (RFC 5905 section 10): the last 8 samples; the one of least delay is used, and
 *   only if it is newer than the last one used.
 * - Clock discipline (RFC 5905 section 11.3; ntpd's ntp_loopfilter.c, CLOCK_PLL = 16): at an
 *   update the offset register takes theta and the frequency correction grows by
 *   theta x min(mu, 2^11 s) / (4 x 16 x 2^Poll)^2 (the PLL's frequency term; mu the time since
 *   the last update). Every second (clock_adjust) the clock is slewed by the register /
 *   (16 x 2^Poll) (the phase term: the offset decays with time constant 16 x 2^Poll s), the
 *   register shrinks by what was applied, and the clock's rate correction for the next second
 *   is the frequency correction plus that slew, clamped to the kernel's 500 ppm
 *   (NodeClock::MaxSlew): a clamped second absorbs less of the register.
 *
 * Not modelled: the step of an offset above 128 ms (ntpd's step threshold; the clock is always
 * slewed), the FLL (used by ntpd only at polls of 2^11 s and more), poll-interval adaptation,
 * server selection among several servers.
 */
class NtpClient : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NtpClient();
    ~NtpClient() override;

    /**
     * @brief The clock to discipline.
     * @param clock the node's clock
     */
    void SetClock(Ptr<NodeClock> clock);
    /**
     * @brief The server to poll.
     * @param server its address
     */
    void SetServer(Ipv4Address server);

    /** @return the offset register: what remains to be slewed (s) */
    double GetOffsetRegister() const;
    /** @return the frequency correction (ppm) */
    double GetFrequency() const;
    /** @return updates of the discipline (samples used) */
    uint64_t GetUpdates() const;

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature of a sample.
     * @param [in] offset theta (s)
     * @param [in] delay delta (s)
     */
    typedef void (*SampleTracedCallback)(double offset, double delay);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /** Send a request. */
    void Poll();
    /**
     * An answer came.
     * @param socket the socket
     */
    void HandleRead(Ptr<Socket> socket);
    /** clock_adjust: once a second. */
    void Adjust();

    /** One sample of the filter. */
    struct Sample
    {
        double offset; //!< theta (s)
        double delay;  //!< delta (s)
        double at;     //!< true time it was taken (s), its identity
    };

    Ipv4Address m_server;                         //!< the server
    uint16_t m_port;                              //!< Port
    uint8_t m_poll;                               //!< Poll (log2 s)
    Ptr<RandomVariableStream> m_phase;            //!< PollPhase: the first poll's phase in [0, 1)
    double m_frequencyPpm;                        //!< Frequency: the correction at the start (ppm)
    double m_initialRegister;                     //!< InitialOffsetRegister (s)
    Ptr<NodeClock> m_clock;                       //!< the clock
    Ptr<Socket> m_socket;                         //!< the socket
    EventId m_pollEvent;                          //!< next poll
    EventId m_adjustEvent;                        //!< next clock_adjust
    std::deque<Sample> m_filter;                  //!< the last 8 samples
    double m_register{0};                         //!< offset register (s)
    double m_lastUsed{-1};                        //!< time of the last sample used
    double m_lastUpdate{-1};                      //!< true time of the last update (s)
    uint64_t m_updates{0};                        //!< counter
    TracedCallback<double, double> m_sampleTrace; //!< offset, delay
};

} // namespace ns3

#endif /* TESTBED_NTP_CLIENT_H */
