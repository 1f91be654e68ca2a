/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TNO_JITTER_PARTS_H
#define TESTBED_TNO_JITTER_PARTS_H

#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/result-record.h"
#include "ns3/rti-settings.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

/**
 * @file
 * tno-jitter's instruments (examples/tno03/tno-jitter.cc): the samples and their histogram,
 * the periodic task of the scheduling measurement, the two ends of the network measurement.
 */

namespace ns3
{
namespace tno
{

/** Samples (s) and their histogram. */
struct Samples
{
    std::vector<double> v; //!< the samples (s)

    /**
     * Declare the fields that Write() fills.
     * @param rec the record
     */
    static void Declare(ResultRecord& rec)
    {
        rec.Declare("samples", ResultRecord::INT, "samples: activations or datagrams received")
            .Declare("mean_us",
                     ResultRecord::REAL,
                     "mean wake-up error (sched) or one-way latency (net) (us)",
                     ResultRecord::SOMETIMES)
            .Declare("min_us", ResultRecord::REAL, "smallest sample (us)", ResultRecord::SOMETIMES)
            .Declare("max_us", ResultRecord::REAL, "largest sample (us)", ResultRecord::SOMETIMES)
            .Declare("jitter_us",
                     ResultRecord::REAL,
                     "jitter: max minus min of the samples (us)",
                     ResultRecord::SOMETIMES)
            .Declare("hist_start_us",
                     ResultRecord::REAL,
                     "lower edge of the first histogram bin (us)",
                     ResultRecord::SOMETIMES)
            .Declare("hist_bin_us",
                     ResultRecord::REAL,
                     "histogram bin width (us)",
                     ResultRecord::SOMETIMES)
            .Declare("hist_counts",
                     ResultRecord::SERIES,
                     "samples per histogram bin, from the minimum's bin to the maximum's",
                     ResultRecord::SOMETIMES);
    }

    /**
     * Write the statistics and the histogram (us) into a record.
     * @param rec the record
     * @param binUs the histogram's bin width (us)
     */
    void Write(ResultRecord& rec, double binUs) const
    {
        rec.SetInt("samples", v.size());
        if (v.empty())
        {
            return; // (the network lost every datagram: no statistics)
        }
        double sum = 0;
        for (double x : v)
        {
            sum += x;
        }
        auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        rec.Set("mean_us", sum / v.size() * 1e6);
        rec.Set("min_us", *lo * 1e6);
        rec.Set("max_us", *hi * 1e6);
        rec.Set("jitter_us", (*hi - *lo) * 1e6);
        // Histogram from the bin holding the minimum to the bin holding the maximum.
        const double first = std::floor(*lo * 1e6 / binUs);
        const auto nBins = static_cast<std::size_t>(std::floor(*hi * 1e6 / binUs) - first) + 1;
        std::vector<double> counts(nBins, 0.0);
        for (double x : v)
        {
            auto k = static_cast<std::size_t>(std::floor(x * 1e6 / binUs) - first);
            counts[std::min(k, nBins - 1)] += 1;
        }
        rec.Set("hist_start_us", first * binUs);
        rec.Set("hist_bin_us", binUs);
        rec.SetSeries("hist_counts", counts);
    }
};

/** The periodic task of the scheduling measurement. */
class PeriodicTask
{
  public:
    /**
     * @param proc the task's process (bound to its core)
     * @param period the period
     * @param busyWait sleep until this long before the time, then busy-wait (0: sleep only)
     * @param clockRead the cost of one clock read of the busy-wait loop
     * @param n activations
     */
    PeriodicTask(Ptr<HostProcess> proc, Time period, Time busyWait, Time clockRead, uint32_t n)
        : m_proc(proc)
        , m_period(period)
        , m_busyWait(busyWait)
        , m_clockRead(clockRead)
        , m_n(n)
    {
    }

    /**
     * Start: the first activation is one period after @p start.
     * @param start a time (now or later)
     */
    void Start(Time start)
    {
        m_next = start + m_period;
        Arm();
    }

    /** @return the wake-up errors */
    const Samples& GetErrors() const
    {
        return m_errors;
    }

  private:
    /** Sleep towards the next activation. */
    void Arm()
    {
        if (m_busyWait.IsStrictlyPositive())
        {
            m_proc->SleepUntil(m_next - m_busyWait, Callback<void>([this]() { Poll(); }));
        }
        else
        {
            m_proc->SleepUntil(m_next, Callback<void>([this]() { Activate(); }));
        }
    }

    /** One iteration of the busy-wait loop: read the clock; go on while the time has not come.
     * The clock value is the time at the end of the read (the loop compares it, then reads on). */
    void Poll()
    {
        if (Simulator::Now() >= m_next)
        {
            Activate();
            return;
        }
        m_proc->Execute(m_clockRead, Callback<void>([this]() { Poll(); }));
    }

    /** The task runs: record its wake-up error and sleep again. */
    void Activate()
    {
        m_errors.v.push_back((Simulator::Now() - m_next).GetSeconds());
        if (m_errors.v.size() < m_n)
        {
            m_next += m_period;
            Arm();
        }
    }

    Ptr<HostProcess> m_proc; //!< the task
    Time m_period;           //!< period
    Time m_busyWait;         //!< busy-wait before the time
    Time m_clockRead;        //!< one clock read
    uint32_t m_n;            //!< activations
    Time m_next;             //!< the next activation's time
    Samples m_errors;        //!< wake-up errors (s)
};

/**
 * The network measurement: two processes, one per machine, exchanging UDP datagrams through
 * the lowest RTI-DM layer (the RTI's transport cost on top of the host's socket calls, no RTI
 * encoding). The sender wakes every interval, takes the time and sends; the receiver, blocked
 * in its read, is woken by the datagram and takes the time (one way, on synchronised clocks)
 * or sends it back (echo: the sender, blocked in its read after each send, takes half the
 * round trip, then sleeps until its next send). Datagram 0 is the warm-up (its sender
 * resolves the other's address by ARP first), not a sample.
 */
class NetLatency
{
  public:
    /**
     * @param samples datagrams measured (after the warm-up)
     * @param interval the datagrams' interval
     * @param echo half the echo's round trip instead of the one-way latency
     * @param dataBytes the datagram's data
     */
    NetLatency(uint32_t samples, Time interval, bool echo, uint32_t dataBytes);

    /**
     * Make the two ends: a process on CPU 1 of each machine with a UDP socket on port 7000.
     * @param machines the two machines (sender, receiver)
     * @param hosts their platforms
     * @param addr their addresses
     * @param rti the RTI whose lowest layer carries the datagrams
     */
    void Setup(const NodeContainer& machines,
               const std::vector<Ptr<HostPlatform>>& hosts,
               const std::vector<Ipv4Address>& addr,
               Ptr<RtiSettings> rti);

    /**
     * Send the warm-up datagram at @p start, the others every interval (or after each reply).
     * @param start the time
     */
    void Start(Time start);

    /** @return the latencies (s) */
    const Samples& GetSamples() const;
    /** @return datagrams sent, the warm-up included */
    uint32_t GetSent() const;
    /** @return datagrams of the wrong size read */
    uint64_t GetMalformed() const;

  private:
    /** One end: a process and its UDP socket. */
    struct Endpoint
    {
        Ptr<HostProcess> proc; //!< the process
        Ptr<Socket> socket;    //!< its UDP socket
    };

    /**
     * A datagram read by one end: its stamp, and whether it is the warm-up.
     * @param p the datagram
     * @param stamp its send time
     * @param warmup whether it is datagram 0
     * @return false if malformed
     */
    bool Parse(Ptr<Packet> p, Time& stamp, bool& warmup);
    /**
     * The cost of one read on an end's host.
     * @param e the end
     * @return the time
     */
    Time ReadCost(const Endpoint& e) const;
    /**
     * The cost of one send on an end's host.
     * @param e the end
     * @return the time
     */
    Time SendCost(const Endpoint& e) const;
    /**
     * The sender's sleep to @p at, then its send.
     * @param at the time
     */
    void Send(Time at);
    /**
     * The receiver's socket has data.
     * @param sock the socket
     */
    void ReceiverRead(Ptr<Socket> sock);
    /**
     * The sender's socket has data (echo: a reply).
     * @param sock the socket
     */
    void SenderRead(Ptr<Socket> sock);

    uint32_t m_samples;       //!< datagrams measured
    Time m_interval;          //!< interval
    bool m_echo;              //!< echo method
    uint32_t m_dataBytes;     //!< data per datagram
    Endpoint m_tx;            //!< the sender
    Endpoint m_rx;            //!< the receiver
    Ptr<RtiSettings> m_rti;   //!< the RTI
    InetSocketAddress m_to;   //!< the receiver's address
    InetSocketAddress m_back; //!< the sender's address
    uint32_t m_sent{0};       //!< datagrams sent
    uint64_t m_malformed{0};  //!< malformed datagrams read
    Time m_nextSend;          //!< echo: the next send's time, once the reply is in
    Samples m_result;         //!< latencies (s)
};

} // namespace tno
} // namespace ns3

#endif /* TESTBED_TNO_JITTER_PARTS_H */
