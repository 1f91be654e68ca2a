/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_MEGA06_SPLIT_H
#define TESTBED_MEGA06_SPLIT_H

#include "mega06-scale.h"

#include "ns3/frame-descriptor.h"
#include "ns3/full-duplex-ethernet-net-device.h"
#include "ns3/mac48-address.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

/**
 * @file
 * @ingroup testbed
 * One part of a mega-scale run split by sets over processes (doc/mega.rst, "An exact split over
 * processes"): which ports and sets are its own, the exchange with the other part when the
 * querier couples the sets, and what it counts of the whole run.
 */

namespace ns3
{

/**
 * @ingroup testbed
 * @brief The pipe pair between the two parts of a run split with the querier (doc/mega.rst): part B
 * streams its router-port admissions and its progress, part A the frames of the querier's NIC and
 * its promises (conservative synchronisation). Binary messages, one octet of kind then fixed-size
 * fields in this machine's byte order (both parts run here). A peer that closed the pipe (it failed
 * or was killed) ends this part: exit 1.
 */
class Mega06SplitExchange
{
  public:
    /**
     * @param rfd the descriptor to read from
     * @param wfd the descriptor to write to
     * @param who this part, for the messages
     */
    void Open(int rfd, int wfd, const std::string& who)
    {
        m_r = rfd;
        m_w = wfd;
        m_who = who;
    }

    /**
     * Queue octets for the peer.
     * @param p the octets
     * @param n how many
     */
    void Put(const void* p, size_t n)
    {
        const auto* b = static_cast<const uint8_t*>(p);
        m_out.insert(m_out.end(), b, b + n);
        if (m_out.size() > (1U << 20))
        {
            Flush();
        }
    }

    /**
     * Queue a value.
     * @param v the value
     */
    template<class T>
    void Put(const T& v)
    {
        Put(&v, sizeof(T));
    }

    /** Queue a MAC address. @param a the address */
    void PutMac(Mac48Address a)
    {
        uint8_t b[6];
        a.CopyTo(b);
        Put(b, 6);
    }

    /** Write what is queued. */
    void Flush()
    {
        size_t done = 0;
        while (done < m_out.size())
        {
            const ssize_t k = ::write(m_w, m_out.data() + done, m_out.size() - done);
            if (k < 0 && errno == EINTR)
            {
                continue;
            }
            if (k <= 0)
            {
                Fail("cannot write to the other part (it ended?)");
            }
            done += k;
        }
        m_out.clear();
    }

    /**
     * Read octets (blocking).
     * @param p where to
     * @param n how many
     */
    void Get(void* p, size_t n)
    {
        auto* b = static_cast<uint8_t*>(p);
        while (n > 0)
        {
            if (m_pos == m_len)
            {
                const ssize_t k = ::read(m_r, m_in, sizeof(m_in));
                if (k < 0 && errno == EINTR)
                {
                    continue;
                }
                if (k <= 0)
                {
                    Fail("the other part closed the exchange (it failed or ended early)");
                }
                m_pos = 0;
                m_len = k;
            }
            const size_t c = std::min(n, m_len - m_pos);
            std::copy(m_in + m_pos, m_in + m_pos + c, b);
            m_pos += c;
            b += c;
            n -= c;
        }
    }

    /** @return a value read */
    template<class T>
    T Get()
    {
        T v;
        Get(&v, sizeof(T));
        return v;
    }

    /** @return a MAC address read */
    Mac48Address GetMac()
    {
        uint8_t b[6];
        Get(b, 6);
        Mac48Address a;
        a.CopyFrom(b);
        return a;
    }

    /**
     * End this part with an error (exit 1).
     * @param why the reason
     */
    [[noreturn]] void Fail(const std::string& why) const
    {
        std::cerr << "mega-scale: " << m_who << ": " << why << "\n";
        std::cerr.flush();
        std::_Exit(1);
    }

  private:
    int m_r{-1};                //!< read end
    int m_w{-1};                //!< write end
    std::string m_who;          //!< this part
    std::vector<uint8_t> m_out; //!< queued for writing
    uint8_t m_in[1 << 16];      //!< read buffer
    size_t m_pos{0};            //!< next octet in it
    size_t m_len{0};            //!< octets in it
};

/// Kinds of the exchange's messages (Mega06SplitExchange).
enum Mega06SplitMessage : uint8_t
{
    MSG_TEMPLATE
        = 'T',        //!< B -> A: a frame template (id, variable-octets offset, EtherType, octets)
    MSG_DESC = 'D',   //!< B -> A: an admission of a descriptor (time, lane, template, var, MACs)
    MSG_PACKET = 'P', //!< B -> A: an admission of a packet (time, lane, EtherType, MACs, octets)
    MSG_PROGRESS = 'G', //!< B -> A: B has run every event up to this time step
    MSG_FRAME = 'F',    //!< A -> B: a frame of the querier's NIC (arrival, EtherType, MACs, octets)
    MSG_PROMISE = 'R',  //!< A -> B: B may run every event up to this time step
};

/**
 * @ingroup testbed
 * @brief One part of a split mega-scale run: set up after the network and the probes, before
 * Simulator::Run(); Complete() after it.
 *
 * Each part owns its sets' PC ports; part 0 also the querier's, the rest of the network's, the
 * trunk's and every port of the 6009. A frame the switch would send through a port of another
 * part goes nowhere here (SwitchNetDevice::SetPortDivert), unless it came from the querier (the
 * other part gets it too): any other counts as a coupling of the sets and fails the part. With
 * the querier, the router port is part 0's: part 1 hands it every frame its switch would queue
 * there, part 0 hands part 1 the querier's frames (conservative synchronisation). The events of
 * the exchange itself (its barriers, injections and deliveries) are not the whole run's: the part
 * leaves them out of its count.
 */
class Mega06SplitPart
{
  public:
    /**
     * @param tb the network (this part's: Mega06ScaleOptions::Apply)
     * @param o the run's options
     */
    Mega06SplitPart(Mega06Testbed& tb, const Mega06ScaleOptions& o);

    /**
     * @brief After Simulator::Run(): this part's share of the whole run (its own ports' drops,
     * its events without the exchange's), or false after a message if the run could not be
     * split exactly.
     * @param t the probes' totals, completed here
     * @param events the events this process ran (ProgramOptions::GetEventCount)
     * @return whether the part is exact
     */
    bool Complete(Mega06ScaleTotals& t, uint64_t events);

    /**
     * @brief The events of the network of a split run without any application (every PC, port
     * and window snapshot, nothing sent): every part runs them, the whole run once. Runs that
     * network to the end of the window in this process (Simulator::Destroy() after).
     * @param o the run's options (those of its parts)
     * @param opts the program's options (its event count)
     * @return the events
     */
    static uint64_t SkeletonEvents(const Mega06ScaleOptions& o, const ProgramOptions& opts);

  private:
    /** @brief Part 0 with the querier: B's admissions in, the querier's frames out. */
    void SetUpA();

    /** @brief Part 1 with the querier: the router port's frames out, the querier's in. */
    void SetUpB();

    /** @brief Part 0's barrier: promise, then take B's admissions up to its progress. */
    void BarrierA();

    /** @brief Part 1's barrier: report progress, then take the querier's frames up to A's
     * promise. */
    void BarrierB();

    /**
     * @brief Part 0: the querier's NIC sent a frame.
     * @param p the frame
     */
    void QuerierSent(Ptr<const Packet> p);

    /**
     * @brief Part 1: a frame its switch would queue at the router port.
     * @param f the frame
     */
    void ToRouterPort(const SwitchFabric::Frame& f);

    /**
     * @brief A frame the switch would send through another part's port.
     * @param f the frame
     */
    void ToForeignPort(const SwitchFabric::Frame& f);

    /**
     * @brief A switch dropped a frame.
     * @param own the ports of this part, of that switch
     * @param port the port
     * @param reason why
     */
    void Dropped(const std::vector<bool>* own, uint32_t port, uint8_t reason);

    Mega06Testbed& m_tb;           //!< the network
    const Mega06ScaleOptions& m_o; //!< the options
    std::vector<bool> m_own;       //!< the 6509's ports of this part
    std::vector<bool> m_own6009;   //!< the 6009's ports of this part
    std::array<uint64_t, SwitchFabric::N_DROP_REASONS> m_ownDrops{}; //!< at own ports
    uint64_t m_foreignDrops{0};                                      //!< at other parts' ports
    uint64_t m_crossed{0};        //!< frames to other parts' ports not from the querier
    uint64_t m_exchangeEvents{0}; //!< events of the exchange (barriers, injections, deliveries)
    bool m_splitQ{false};         //!< with the querier (two parts exchanging)
    bool m_partA{false};          //!< part 0 with the querier
    int64_t m_stopStep{0};        //!< the run's end (time steps)
    Mega06SplitExchange m_ex;     //!< the pipes
    Ptr<FullDuplexEthernetNetDevice> m_qPort; //!< the switch's port of the querier
    Ptr<FullDuplexEthernetNetDevice> m_qNic;  //!< the querier's NIC
    int64_t m_lookahead{0}; //!< the shortest frame's time on the querier's link (steps)
    uint64_t m_qTx{0};      //!< frames the querier's NIC sent
    int64_t m_promise{-1};  //!< the latest promise (sent in A, received in B)
    std::vector<Ptr<const FrameTemplate>> m_templates;      //!< by exchange id
    std::map<const FrameTemplate*, uint32_t> m_templateIds; //!< B: sent templates
    uint32_t m_lane0{0};                                    //!< the 6509's port 0's lane
    uint32_t m_qLane{0};                                    //!< the querier port's lane
};

} // namespace ns3

#endif /* TESTBED_MEGA06_SPLIT_H */
