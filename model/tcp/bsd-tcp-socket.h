/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_BSD_TCP_SOCKET_H
#define TESTBED_BSD_TCP_SOCKET_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/tcp-socket-base.h"

/**
 * @file
 * @ingroup testbed-tcp
 * ns-3's TCP with the timers and window rules of 4.4BSD where they differ.
 */

namespace ns3
{

/**
 * @defgroup testbed-tcp 4.4BSD TCP
 * @ingroup testbed
 *
 * The TCP of a mid-1990s 4.4BSD-derived host: ns-3's TcpSocketBase (connection machinery,
 * Reno congestion control, RTT estimation) with 4.4BSD-Lite's retransmission, persist,
 * delayed-ACK, connection-establishment and window-update rules where ns-3's differ (doc/tcp.rst;
 * W. R. Stevens, G. R. Wright, TCP/IP Illustrated, Volume 2: The Implementation, 1995,
 * chapters 25-29).
 */

/**
 * @ingroup testbed-tcp
 * @brief A TcpSocketBase that behaves as 4.4BSD-Lite's TCP where ns-3's differs.
 *
 * Created by BsdTcpSocketFactory (helper: BsdTcpHelper, which also sets the TcpSocket and
 * TcpSocketBase attributes to BSD's values: DataRetries 12 = TCP_MAXRXTSHIFT, MinRto 1 s,
 * DelAckTimeout 200 ms, ...). What this class changes (Stevens vol. 2 sections in brackets):
 *
 * - retransmission timeout backed off to at most MaxRto (TCPTV_REXMTMAX = 64 s; ns-3: 60 s)
 *   [25.11]; all data acknowledged stops the retransmission timer (tcp_input: "ti_ack ==
 *   snd_max"; ns-3 restarts it on every new ACK while unsent data waits) [29.2];
 * - the persist timer whenever data waits and neither the retransmission nor the persist timer
 *   runs (tcp_output's end), i.e. on a window too small to send into as well as on a zero
 *   window; its interval is tcp_setpersist's: (srtt + 2 rttvar) x tcp_backoff[n] within
 *   [PersistMin, PersistMax] = [5 s, 60 s]; on expiry a zero window gets ns-3's one-byte probe
 *   and a small open window a forced segment of what it allows (t_force) [25.6, 26.3];
 *   ns-3 persists on a zero window only, at 6, 12, 24 ... s;
 * - delayed ACKs sent by tcp_fasttimo on the host's 200 ms fast-timeout tick (PR_FASTHZ = 5,
 *   DelAckTimeout is the tick period; the tick's phase is the host's), so 0 to 200 ms after
 *   the segment, not a fixed 200 ms [25.3];
 * - SYN (and SYN|ACK) retransmission as tcp_timers does it without an RTT estimate: first after
 *   t_rxtcur = 2 x DefaultRtt (6 s), then 4 x DefaultRtt x tcp_backoff[n] (24, 48, 64 s), and
 *   the connection dropped when the connection-establishment timer (TCPTV_KEEP_INIT = 75 s)
 *   expires [25.3, 25.11]; ns-3: ConnTimeout doubled ConnCount times;
 * - a window update after the application reads when the window can grow by two segments or by
 *   half the receive buffer (tcp_output after PRU_RCVD) [26.3]; ns-3 sends none.
 *
 * Not changed (documented in doc/tcp.rst): the 500 ms slow-timeout tick on which BSD's
 * retransmission and persist timers run (here they run at their exact values), the sender's
 * "len >= max_sndwnd / 2" rule of tcp_output, the receiver's silly-window avoidance, and the
 * connection machinery otherwise.
 */
class BsdTcpSocket : public TcpSocketBase
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    BsdTcpSocket();
    /**
     * @brief Copy (a listening socket's fork).
     * @param sock the socket copied
     */
    BsdTcpSocket(const BsdTcpSocket& sock);
    ~BsdTcpSocket() override;

    /**
     * @brief Set the phase of the host's fast-timeout tick (tcp_fasttimo runs at phase + k x
     * DelAckTimeout).
     * @param phase the phase, in [0, DelAckTimeout)
     */
    void SetFastTimerPhase(Time phase);

    /**
     * @brief The time of the host's next fast-timeout tick strictly after now.
     * @return the time
     */
    Time NextFastTick() const;

    /**
     * @brief tcp_setpersist()'s interval for a backoff shift.
     * @param shift t_rxtshift (0 .. 12)
     * @return clamp((srtt + 2 rttvar) x tcp_backoff[shift], PersistMin, PersistMax)
     */
    Time PersistInterval(uint32_t shift) const;

    /** @return forced sends into a small window on a persist timeout */
    uint64_t GetForcedSends() const;

    /** @return window updates sent after a read */
    uint64_t GetReadWindowUpdates() const;

    using TcpSocketBase::Recv;
    using TcpSocketBase::Send;
    Ptr<Packet> Recv(uint32_t maxSize, uint32_t flags) override;
    int Send(Ptr<Packet> p, uint32_t flags) override;

    /**
     * tcp_backoff[] of 4.4BSD (tcp_timer.c): 1, 2, 4, ..., 64, 64, ...
     * @param shift t_rxtshift (0 .. 12)
     * @return the multiplier
     */
    static uint32_t Backoff(uint32_t shift);

  protected:
    Ptr<TcpSocketBase> Fork() override;
    void DoForwardUp(Ptr<Packet> packet,
                     const Address& fromAddress,
                     const Address& toAddress) override;
    void ReceivedData(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;
    void ReTxTimeout() override;
    void PersistTimeout() override;
    void SendEmptyPacket(uint8_t flags) override;
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck) override;
    void DoDispose() override;

  private:
    /** Whether data waits and neither the retransmission nor the persist timer runs. */
    bool NeedPersist() const;
    /** Enter the persist state if NeedPersist (tcp_output's end: t_rxtshift = 0). */
    void MaybeSetPersist();
    /** The connection-establishment timer (TCPT_KEEP before ESTABLISHED) expired. */
    void EstablishmentTimeout();
    /** Note the right edge of the window just advertised (rcv_adv). */
    void NoteAdvertised();
    /** After a read: the window update of tcp_output, if due. */
    void WindowUpdateAfterRead();

    Time m_maxRto;              //!< MaxRto (TCPTV_REXMTMAX)
    Time m_persistMin;          //!< PersistMin (TCPTV_PERSMIN)
    Time m_persistMax;          //!< PersistMax (TCPTV_PERSMAX)
    Time m_defaultRtt;          //!< DefaultRtt (tcp_rttdflt)
    Time m_keepInit;            //!< ConnectionTimeout (TCPTV_KEEP_INIT)
    Time m_fastPhase;           //!< the fast-timeout tick's phase
    uint32_t m_persistShift{0}; //!< t_rxtshift of the persist timer
    uint32_t m_synShift{0};     //!< SYN (or SYN|ACK) transmissions so far
    EventId m_keepInitEvent;    //!< connection-establishment timer
    EventId m_persistCheck;     //!< persist check after a write
    SequenceNumber32 m_rcvAdv;  //!< rcv_adv: right edge of the last advertised window
    bool m_rcvAdvSet{false};    //!< m_rcvAdv valid
    uint64_t m_forcedSends{0};  //!< counter
    uint64_t m_readUpdates{0};  //!< counter
};

} // namespace ns3

#endif /* TESTBED_BSD_TCP_SOCKET_H */
