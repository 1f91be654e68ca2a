/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bsd-tcp-socket.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rtt-estimator.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-rx-buffer.h"
#include "ns3/tcp-tx-buffer.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BsdTcpSocket");
NS_OBJECT_ENSURE_REGISTERED(BsdTcpSocket);

namespace
{
/** TCP_MAXRXTSHIFT of 4.4BSD (tcp_timer.h). */
constexpr uint32_t MAX_RXT_SHIFT = 12;
} // namespace

TypeId
BsdTcpSocket::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::BsdTcpSocket")
              .SetParent<TcpSocketBase>()
              .SetGroupName("Testbed")
              .AddConstructor<BsdTcpSocket>()
              .AddAttribute("MaxRto",
                            "Largest retransmission timeout of the backoff (4.4BSD: TCPTV_REXMTMAX "
                            "= 64 s; ns-3's own cap is 60 s)",
                            TimeValue(Seconds(64)),
                            MakeTimeAccessor(&BsdTcpSocket::m_maxRto),
                            MakeTimeChecker(Seconds(1), Seconds(3600)))
              .AddAttribute("PersistMin",
                            "Shortest persist interval (4.4BSD: TCPTV_PERSMIN = 5 s)",
                            TimeValue(Seconds(5)),
                            MakeTimeAccessor(&BsdTcpSocket::m_persistMin),
                            MakeTimeChecker(MilliSeconds(1), Seconds(3600)))
              .AddAttribute("PersistMax",
                            "Longest persist interval (4.4BSD: TCPTV_PERSMAX = 60 s)",
                            TimeValue(Seconds(60)),
                            MakeTimeAccessor(&BsdTcpSocket::m_persistMax),
                            MakeTimeChecker(MilliSeconds(1), Seconds(3600)))
              .AddAttribute("DefaultRtt",
                            "RTT assumed without a measurement (4.4BSD: tcp_rttdflt = 3 s): the "
                            "first SYN timeout is twice it, the later ones 4 x it x tcp_backoff[n]",
                            TimeValue(Seconds(3)),
                            MakeTimeAccessor(&BsdTcpSocket::m_defaultRtt),
                            MakeTimeChecker(MilliSeconds(1), Seconds(600)))
              .AddAttribute("ConnectionTimeout",
                            "Connection-establishment timer: a connection not established this "
                            "long after its first SYN is dropped (4.4BSD: TCPTV_KEEP_INIT = 75 s)",
                            TimeValue(Seconds(75)),
                            MakeTimeAccessor(&BsdTcpSocket::m_keepInit),
                            MakeTimeChecker(Seconds(1), Seconds(36000)));
    return tid;
}

BsdTcpSocket::BsdTcpSocket()
    : m_maxRto(Seconds(64))
    , m_persistMin(Seconds(5))
    , m_persistMax(Seconds(60))
    , m_defaultRtt(Seconds(3))
    , m_keepInit(Seconds(75))
{
    NS_LOG_FUNCTION(this);
}

BsdTcpSocket::BsdTcpSocket(const BsdTcpSocket& sock)
    : TcpSocketBase(sock)
    , m_maxRto(sock.m_maxRto)
    , m_persistMin(sock.m_persistMin)
    , m_persistMax(sock.m_persistMax)
    , m_defaultRtt(sock.m_defaultRtt)
    , m_keepInit(sock.m_keepInit)
    , m_fastPhase(sock.m_fastPhase)
{
    NS_LOG_FUNCTION(this);
}

BsdTcpSocket::~BsdTcpSocket()
{
    NS_LOG_FUNCTION(this);
}

void
BsdTcpSocket::DoDispose()
{
    m_keepInitEvent.Cancel();
    m_persistCheck.Cancel();
    TcpSocketBase::DoDispose();
}

Ptr<TcpSocketBase>
BsdTcpSocket::Fork()
{
    return CopyObject<BsdTcpSocket>(this);
}

void
BsdTcpSocket::SetFastTimerPhase(Time phase)
{
    NS_ABORT_MSG_IF(phase.IsStrictlyNegative(), "BsdTcpSocket: negative fast-timer phase");
    m_fastPhase = phase;
}

Time
BsdTcpSocket::NextFastTick() const
{
    const int64_t period = m_delAckTimeout.GetTimeStep();
    NS_ABORT_MSG_IF(period <= 0, "BsdTcpSocket: DelAckTimeout (the fast tick) must be positive");
    const int64_t phase = m_fastPhase.GetTimeStep() % period;
    const int64_t since = Simulator::Now().GetTimeStep() - phase;
    // The first tick strictly after now: phase + (floor(since / period) + 1) x period.
    const int64_t k = since >= 0 ? since / period + 1 : -((-since) / period);
    return TimeStep(phase + k * period);
}

uint32_t
BsdTcpSocket::Backoff(uint32_t shift)
{
    return 1u << std::min<uint32_t>(shift, 6);
}

Time
BsdTcpSocket::PersistInterval(uint32_t shift) const
{
    // tcp_setpersist: t = ((t_srtt >> 2) + t_rttvar) >> 1 with t_srtt scaled by 8 and t_rttvar
    // by 4, i.e. srtt + 2 rttvar; TCPT_RANGESET(t x tcp_backoff[shift], PERSMIN, PERSMAX).
    const Time t = m_rtt->GetEstimate() + m_rtt->GetVariation() * 2;
    return std::clamp(t * Backoff(shift), m_persistMin, m_persistMax);
}

uint64_t
BsdTcpSocket::GetForcedSends() const
{
    return m_forcedSends;
}

uint64_t
BsdTcpSocket::GetReadWindowUpdates() const
{
    return m_readUpdates;
}

bool
BsdTcpSocket::NeedPersist() const
{
    // tcp_output's end: so_snd.sb_cc && !t_timer[TCPT_REXMT] && !t_timer[TCPT_PERSIST].
    return (m_state == ESTABLISHED || m_state == CLOSE_WAIT) && m_txBuffer->Size() > 0
           && !m_retxEvent.IsPending() && !m_persistEvent.IsPending();
}

void
BsdTcpSocket::MaybeSetPersist()
{
    if (!NeedPersist())
    {
        return;
    }
    m_persistShift = 0;
    const Time interval = PersistInterval(m_persistShift++);
    NS_LOG_LOGIC(this << " persist (window " << m_rWnd << ") in " << interval.As(Time::S));
    m_persistEvent = Simulator::Schedule(interval, &BsdTcpSocket::PersistTimeout, this);
}

void
BsdTcpSocket::DoForwardUp(Ptr<Packet> packet, const Address& fromAddress, const Address& toAddress)
{
    const bool persisting = m_persistEvent.IsPending();
    const Time persistAt
        = persisting ? Simulator::Now() + Simulator::GetDelayLeft(m_persistEvent) : Time();
    if (!persisting)
    {
        // The interval ns-3 uses if this segment closes the window: tcp_setpersist's first.
        m_persistTimeout = PersistInterval(0);
    }
    TcpSocketBase::DoForwardUp(packet, fromAddress, toAddress);
    if (m_state != ESTABLISHED && m_state != CLOSE_WAIT)
    {
        return;
    }
    m_keepInitEvent.Cancel();
    // tcp_input: an ACK of everything sent stops the retransmission timer (ns-3's NewAck
    // restarts it while unsent data waits, so that it would fire with nothing in flight).
    if (UnAckDataCount() == 0 && m_retxEvent.IsPending())
    {
        m_retxEvent.Cancel();
    }
    if (!persisting && m_persistEvent.IsPending())
    {
        m_persistShift = 1; // ns-3 entered the zero-window persist state with interval 0
        return;
    }
    if (persisting && !m_persistEvent.IsPending() && NeedPersist())
    {
        // ns-3 leaves the persist state on any open window; BSD's timer keeps running until
        // data is sent.
        m_persistEvent = Simulator::Schedule(persistAt - Simulator::Now(),
                                             &BsdTcpSocket::PersistTimeout,
                                             this);
        return;
    }
    MaybeSetPersist();
}

int
BsdTcpSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    const int n = TcpSocketBase::Send(p, flags);
    // sosend -> tcp_output: if nothing can be sent, the persist state. ns-3 sends one time step
    // later (m_sendPendingDataEvent); the check follows it.
    if (n > 0 && !m_persistCheck.IsPending())
    {
        m_persistCheck = Simulator::Schedule(TimeStep(1), &BsdTcpSocket::MaybeSetPersist, this);
    }
    return n;
}

void
BsdTcpSocket::PersistTimeout()
{
    // tcp_timers(TCPT_PERSIST): tcp_setpersist() (the next interval, t_rxtshift + 1), then a
    // forced tcp_output().
    const Time next = PersistInterval(m_persistShift);
    m_persistShift = std::min(m_persistShift + 1, MAX_RXT_SHIFT);
    if (m_rWnd.Get() == 0)
    {
        // A zero window: ns-3's one-byte probe, at BSD's interval.
        TcpSocketBase::PersistTimeout();
        m_persistEvent.Cancel();
        m_persistEvent = Simulator::Schedule(next, &BsdTcpSocket::PersistTimeout, this);
        return;
    }
    // An open window too small for the sender's rules: t_force sends what it allows and leaves
    // the persist state (t_timer[TCPT_PERSIST] = 0, t_rxtshift = 0).
    m_persistShift = 0;
    const SequenceNumber32 seq = m_tcb->m_nextTxSequence;
    const uint32_t len
        = std::min({AvailableWindow(), m_tcb->m_segmentSize, m_txBuffer->SizeFromSequence(seq)});
    if (len == 0)
    {
        MaybeSetPersist();
        return;
    }
    ++m_forcedSends;
    NS_LOG_LOGIC(this << " persist: forced " << len << " bytes into a window of " << m_rWnd);
    const uint32_t sent = SendDataPacket(seq, len, m_connected);
    m_tcb->m_nextTxSequence += sent;
}

void
BsdTcpSocket::ReTxTimeout()
{
    if (m_state == SYN_RCVD)
    {
        // BSD retransmits the SYN|ACK on the retransmission timer (ns-3 does not).
        SendEmptyPacket(TcpHeader::SYN | TcpHeader::ACK);
        return;
    }
    const Time before = m_rto.Get();
    const uint32_t retriesBefore = m_dataRetrCount;
    TcpSocketBase::ReTxTimeout();
    const bool timedOut = m_dataRetrCount + 1 == retriesBefore; // (not an early return)
    if (!timedOut || (m_endPoint == nullptr && m_endPoint6 == nullptr)
        || (m_state != ESTABLISHED && m_state != CLOSE_WAIT))
    {
        return;
    }
    // ns-3 doubles the timeout up to 60 s; 4.4BSD's backoff reaches TCPTV_REXMTMAX (64 s).
    m_rto = std::min(before + before, m_maxRto);
    if (m_retxEvent.IsPending())
    {
        m_retxEvent.Cancel();
        m_retxEvent = Simulator::Schedule(m_rto, &BsdTcpSocket::ReTxTimeout, this);
        return;
    }
    // ns-3 sent nothing: its Nagle test holds a segment shorter than the MSS while data is
    // unacknowledged, even a retransmission. tcp_output sends it (snd_nxt < snd_max after
    // snd_nxt = snd_una); into a zero window nothing can go: the persist state.
    if (m_rWnd.Get() == 0)
    {
        MaybeSetPersist();
        return;
    }
    const SequenceNumber32 head = m_txBuffer->HeadSequence();
    const uint32_t len
        = std::min({m_tcb->m_segmentSize, m_txBuffer->SizeFromSequence(head), AvailableWindow()});
    if (len == 0)
    {
        return;
    }
    m_tcb->m_nextTxSequence = head;
    const uint32_t sent = SendDataPacket(head, len, m_connected);
    m_tcb->m_nextTxSequence += sent;
}

void
BsdTcpSocket::SendEmptyPacket(uint8_t flags)
{
    TcpSocketBase::SendEmptyPacket(flags);
    const bool syn = flags & TcpHeader::SYN;
    const bool ack = flags & TcpHeader::ACK;
    const bool open = m_endPoint != nullptr || m_endPoint6 != nullptr; // (ns-3 may give up)
    // (A connect() sends its first SYN while still CLOSED.)
    if (syn && open && (m_state == SYN_SENT || m_state == SYN_RCVD || m_state == CLOSED))
    {
        // tcp_timers without an RTT estimate: the first timeout is t_rxtcur = 2 x DefaultRtt,
        // the n-th later one TCP_REXMTVAL (4 x DefaultRtt) x tcp_backoff[n], at most MaxRto.
        const Time rto = m_synShift == 0
                             ? m_defaultRtt * 2
                             : std::min(m_defaultRtt * 4 * Backoff(m_synShift), m_maxRto);
        if (m_synShift == 0)
        {
            m_keepInitEvent
                = Simulator::Schedule(m_keepInit, &BsdTcpSocket::EstablishmentTimeout, this);
        }
        m_synShift = std::min(m_synShift + 1, MAX_RXT_SHIFT);
        m_rto = rto;
        m_retxEvent.Cancel();
        if (ack)
        {
            m_retxEvent = Simulator::Schedule(rto, &BsdTcpSocket::ReTxTimeout, this);
        }
        else
        {
            m_retxEvent = Simulator::Schedule(rto, &BsdTcpSocket::SendEmptyPacket, this, flags);
        }
    }
    if (ack)
    {
        NoteAdvertised();
    }
}

uint32_t
BsdTcpSocket::SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck)
{
    const uint32_t sent = TcpSocketBase::SendDataPacket(seq, maxSize, withAck);
    if (sent > 0)
    {
        // tcp_output: sending data clears the persist state.
        if (m_persistEvent.IsPending() && m_rWnd.Get() > 0)
        {
            m_persistEvent.Cancel();
            m_persistShift = 0;
        }
        if (withAck)
        {
            NoteAdvertised();
        }
    }
    return sent;
}

void
BsdTcpSocket::EstablishmentTimeout()
{
    if (m_state != SYN_SENT && m_state != SYN_RCVD)
    {
        return;
    }
    NS_LOG_INFO(this << " connection not established in " << m_keepInit.As(Time::S) << ": dropped");
    const bool active = m_state == SYN_SENT;
    CancelAllTimers();
    m_state = CLOSED;
    if (active)
    {
        m_rtt->Reset();
        NotifyConnectionFailed();
    }
    DeallocateEndPoint();
}

void
BsdTcpSocket::ReceivedData(Ptr<Packet> packet, const TcpHeader& tcpHeader)
{
    const bool pending = m_delAckEvent.IsPending();
    TcpSocketBase::ReceivedData(packet, tcpHeader);
    if (!pending && m_delAckEvent.IsPending())
    {
        // TF_DELACK: tcp_fasttimo sends the ACK on the host's next fast-timeout tick.
        m_delAckEvent.Cancel();
        m_delAckEvent = Simulator::Schedule(NextFastTick() - Simulator::Now(),
                                            &BsdTcpSocket::DelAckTimeout,
                                            this);
    }
}

void
BsdTcpSocket::NoteAdvertised()
{
    if (!m_connected)
    {
        return;
    }
    const SequenceNumber32 edge
        = m_tcb->m_rxBuffer->NextRxSequence() + SequenceNumber32(AdvertisedWindowSize(false));
    if (!m_rcvAdvSet || edge > m_rcvAdv)
    {
        m_rcvAdv = edge;
        m_rcvAdvSet = true;
    }
}

Ptr<Packet>
BsdTcpSocket::Recv(uint32_t maxSize, uint32_t flags)
{
    Ptr<Packet> p = TcpSocketBase::Recv(maxSize, flags);
    if (p && p->GetSize() > 0 && m_connected
        && (m_state == ESTABLISHED || m_state == FIN_WAIT_1 || m_state == FIN_WAIT_2))
    {
        WindowUpdateAfterRead();
    }
    return p;
}

void
BsdTcpSocket::WindowUpdateAfterRead()
{
    // tcp_output after PRU_RCVD: adv = min(win, TCP_MAXWIN) - (rcv_adv - rcv_nxt); send if
    // adv >= 2 t_maxseg or 2 adv >= so_rcv.sb_hiwat.
    const SequenceNumber32 rcvNxt = m_tcb->m_rxBuffer->NextRxSequence();
    const int64_t win = std::min<int64_t>(AdvertisedWindowSize(false), 65535);
    const int64_t offered = m_rcvAdvSet && m_rcvAdv > rcvNxt ? m_rcvAdv - rcvNxt : 0;
    const int64_t adv = win - offered;
    if (adv >= 2 * static_cast<int64_t>(m_tcb->m_segmentSize)
        || 2 * adv >= static_cast<int64_t>(m_tcb->m_rxBuffer->MaxBufferSize()))
    {
        ++m_readUpdates;
        SendEmptyPacket(TcpHeader::ACK);
    }
}

} // namespace ns3
