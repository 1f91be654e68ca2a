/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TC_TIMER_H
#define TESTBED_TC_TIMER_H

#include "timer-model.h"

#include "ns3/data-rate.h"

#include <cstdint>
#include <deque>

/**
 * @file
 * @ingroup testbed-timer
 * [GINE14]'s TCTimer and Boosted TCTimer: a packet stream through a Linux tc token bucket on the
 * loopback interface, read by the emulator as its clock.
 */

namespace ns3
{

/**
 * @ingroup testbed-timer
 * @brief [GINE14]'s TCTimer: a sender thread floods the loopback interface with UDP packets of
 * PacketSize octets, a tc token bucket filter (tbf) on lo lets them through at Rate, and every
 * read() of the receiving socket returns once per packet: nominally every 8 l / b seconds.
 *
 * The firings are the arrivals of the packets at the reading socket. They come out of a model
 * of Linux 3.8's tbf qdisc (net/sched/sch_tbf.c before the 3.9 change to nanosecond rates)
 * configured by tc (iproute2 tc_core.c):
 *
 * - Rate: tc keeps it in whole bytes per second (floor(b / 8)).
 * - Rate table: tc computes the transmission time of (i + 1) << CellLog bytes for i = 0..255 in
 *   psched ticks (PschedTick, 64 ns: PSCHED_SHIFT 6), truncated to whole ticks; the kernel
 *   charges a packet of l bytes the entry ((l - 1) >> CellLog), i.e. l rounded up to a whole
 *   cell (CellLog 3: 8-byte cells, tc's choice for its default MTU of 2047). A packet that is not
 *   a multiple of 8 bytes long is charged as the next multiple.
 * - Bucket: Burst bytes, converted to ticks like the rate table (buffer). The kernel refuses to
 *   send packets longer than the largest size the buffer covers, so Burst must exceed
 *   PacketSize; 0 selects the smallest burst that lets PacketSize through (at most one packet's
 *   worth of tokens: the shaper never sends two packets back to back).
 * - Dequeue (tbf_dequeue): at a dequeue attempt at time t (ticks, truncated), tokens =
 *   min(min(t - t_c, buffer) + tokens, buffer) - L2T; the packet leaves if tokens >= 0 (then
 *   t_c = t), otherwise a watchdog hrtimer is armed for the tick at which it will (eligible
 *   time). Dequeue attempts come from the watchdog (its expiry + WatchdogLatency: hrtimer
 *   interrupt, NET_TX softirq) and from every send attempt of the sender thread (each sendto()
 *   runs the qdisc), about every SenderPeriod (0: the sender never polls); the sender's loop
 *   jitters, so its first attempt after the eligible tick comes U(0, SenderPeriod) later.
 *   Lateness beyond the bucket's spare tokens is lost, so it lengthens the period.
 * - Delivery: loopback transmit, NET_RX softirq and UDP receive take DeliveryLatency; packets
 *   reach the socket in order.
 *
 * The first packet leaves at Phase with a full bucket. Use:
 *
 * - GetFireTime(now, delay): the first arrival at or after now + delay (the emulator reads every
 *   packet and handles its queues at each one, so a packet due at r leaves at the first firing
 *   at or after r).
 * - GetPeriodicFireTime(lastFire, now, interval): a program loop that reads
 *   n = max(1, round(interval / nominal period)) packets per interval, counting from the packet
 *   that woke it (packets that arrived meanwhile are already queued on the socket: the read
 *   returns at once). One TcTimer serves one such reading loop.
 *
 * Queries must not go back in time (arrivals before the latest query are discarded).
 */
class TcTimer : public TimerModel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    TcTimer();
    ~TcTimer() override;

    Time GetFireTime(Time now, Time delay) override;

    /**
     * @brief Periodic use: read round(interval / nominal period) packets (at least one) after
     * the packet that woke the program.
     * @param lastFire the arrival that woke the program last
     * @param now the time the program reads again (>= lastFire)
     * @param interval the requested interval
     * @return the arrival of the last of those packets, or now if it has already arrived
     */
    Time GetPeriodicFireTime(Time lastFire, Time now, Time interval) override;

    int64_t AssignStreams(int64_t stream) override;

    /**
     * @brief The period asked of the timer: 8 PacketSize / Rate.
     * @return the nominal period
     */
    Time GetNominalPeriod() const;

    /**
     * @brief The tc rate in use, in bytes per second (a BoostedTcTimer's corrected rate).
     * @return the rate
     */
    uint64_t GetRateBytesPerSecond();

    /**
     * @brief The shaper's charge per packet at the rate in use (the rate-table entry of
     * PacketSize, in ticks, times PschedTick): the period of a shaper whose dequeues are never
     * late.
     * @return the charge per packet
     */
    Time GetShaperPeriod();

    /**
     * @brief The time the stream of firings starts (Phase; the end of the calibration for a
     * BoostedTcTimer).
     * @return the start time
     */
    Time GetStartTime();

    /**
     * @brief The arrival of packet number @p k (from 0) of the stream at the reading socket.
     * @param k the packet number (not before the discarded ones)
     * @return its arrival time
     */
    Time GetArrival(uint64_t k);

    /**
     * @brief The transmission time tc computes for @p size bytes at @p rateBytes bytes/s, in
     * whole psched ticks (tc_calc_xmittime: truncated).
     * @param rateBytes the rate (bytes/s, > 0)
     * @param size the size (bytes)
     * @return ticks
     */
    uint32_t XmitTicks(uint64_t rateBytes, uint32_t size) const;

    /**
     * @brief The ticks the kernel charges a packet of @p len bytes (qdisc_l2t on tc's rate
     * table: len rounded up to a whole cell).
     * @param rateBytes the rate (bytes/s, > 0)
     * @param len the packet length (bytes)
     * @return ticks
     */
    uint32_t PacketTicks(uint64_t rateBytes, uint32_t len) const;

    /**
     * @brief The burst in use: Burst, or the smallest that passes PacketSize if Burst is 0.
     * @return bytes
     */
    uint32_t GetBurstBytes() const;

  protected:
    /**
     * @brief A latency draw in seconds as a Time, negative draws counted as 0.
     * @param rv the random variable
     * @return the latency
     */
    static Time DrawLatency(Ptr<RandomVariableStream> rv);

    void DoDispose() override;

    /**
     * @brief Set up the stream on first use (a BoostedTcTimer calibrates here first).
     */
    virtual void Prepare();

    /**
     * @brief Start a new stream: a backlogged tbf with a full bucket, first packet at @p start.
     * @param rateBytes the tc rate (bytes/s)
     * @param start the first departure
     */
    void StartStream(uint64_t rateBytes, Time start);

    /**
     * @brief The tc rate in bytes/s that a bit rate gives (floor(b / 8)); aborts if 0.
     * @param rate the bit rate
     * @return bytes/s
     */
    static uint64_t ToBytesPerSecond(DataRate rate);

    DataRate m_rate;       //!< tc rate b
    uint32_t m_packetSize; //!< l: octets the shaper accounts per packet
    Time m_phase;          //!< first departure
    bool m_prepared;       //!< Prepare() done

  private:
    /// Compute the next arrival of the current stream and append it.
    void GenerateNext();
    /**
     * Make sure the arrivals up to number @p k exist.
     * @param k the packet number
     */
    void GenerateUpTo(uint64_t k);
    /**
     * Discard arrivals before @p now that no reader needs; refuse queries back in time.
     * @param now the query time
     */
    void Trim(Time now);

    // Attributes
    uint32_t m_burst;                            //!< bucket size (bytes; 0 = smallest possible)
    Time m_tick;                                 //!< psched tick
    uint32_t m_cellLog;                          //!< rate-table cell log
    Time m_senderPeriod;                         //!< interval of the sender's send attempts
    Ptr<RandomVariableStream> m_watchdogLatency; //!< watchdog expiry to dequeue (s)
    Ptr<RandomVariableStream> m_deliveryLatency; //!< dequeue to socket (s)
    Ptr<UniformRandomVariable> m_senderRng;      //!< phase of the sender's attempts

    // Stream state
    uint64_t m_rateBytes;        //!< rate in use (bytes/s)
    int64_t m_l2t;               //!< ticks charged per packet
    int64_t m_buffer;            //!< bucket (ticks)
    int64_t m_tc;                //!< t_c: tick of the last departure
    int64_t m_tokens;            //!< tokens after the last departure (ticks)
    Time m_lastDeparture;        //!< last departure
    Time m_lastArrival;          //!< last arrival at the socket
    Time m_start;                //!< first departure of the stream
    std::deque<Time> m_arrivals; //!< arrivals not yet discarded
    uint64_t m_base;             //!< number of the first element of m_arrivals
    bool m_reading;              //!< a periodic reader has started
    uint64_t m_readIndex;        //!< last packet the periodic reader consumed
    Time m_lastQuery;            //!< latest query time
};

} // namespace ns3

#endif /* TESTBED_TC_TIMER_H */
