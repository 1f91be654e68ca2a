/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_SARA_H
#define TESTBED_SARA_H

#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/host-platform.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <memory>
#include <ostream>
#include <vector>

/**
 * @file
 * @ingroup testbed-apps
 * sara (Save And Recording Agent) of [MEGA06]: per-node send and receive interval statistics.
 */

namespace ns3
{

class HostProcess;
class Packet;
class Socket;

/**
 * @ingroup testbed-apps
 * @brief sara's per-virtual-node statistics: mean and standard deviation of the send interval
 * (from the payload timestamps) and of the receive interval, and drops from serial gaps.
 *
 * For each node the first packet only sets the reference. A packet whose serial number is the
 * previous one + 1 adds one send interval (timestamp difference) and one receive interval
 * (capture-time difference). A packet after a gap (serial > previous + 1) counts
 * serial - previous - 1 drops and adds no interval, so that drops do not distort the
 * statistics ([MEGA06]: "an interval that spans a gap is excluded"); it becomes the new
 * reference. A packet with a serial number <= the previous one (duplicate or reordered) is
 * counted and otherwise ignored. Drops are therefore those between a node's first and last
 * received packet.
 *
 * Running mean and variance are Boost.Accumulators' (the iterative mean and variance, Boost
 * 1.66 from the ns-3 wheel, used in the .cc only so that the bindings need not parse Boost):
 * a count and two numbers per statistic instead of the samples. Standard deviations are
 * population deviations (divide by n). A table of 20 000 nodes takes about 2 MB.
 */
class SaraTable
{
  public:
    SaraTable();
    ~SaraTable();
    SaraTable(const SaraTable&) = delete;
    SaraTable& operator=(const SaraTable&) = delete;

    /** Statistics of one node. */
    struct NodeStats
    {
        uint32_t nodeId{0};    //!< virtual-node id
        uint64_t packets{0};   //!< packets received
        uint64_t drops{0};     //!< packets missing between the first and the last received
        uint64_t reordered{0}; //!< duplicates and out-of-order packets (ignored)
        uint64_t intervals{0}; //!< intervals in the statistics
        double sendMean{0};    //!< mean send interval (s)
        double sendStd{0};     //!< send interval standard deviation (s)
        double recvMean{0};    //!< mean receive interval (s)
        double recvStd{0};     //!< receive interval standard deviation (s)
    };

    /**
     * Statistics over all nodes (what sara writes at the end): means over the nodes of the
     * per-node statistics, and the pooled statistics of all intervals of all nodes (computed
     * exactly from the per-node counts, means and variances; with few intervals per node the
     * pooled deviation is the better estimate of a node's deviation).
     */
    struct Summary
    {
        uint32_t nodes{0};              //!< nodes seen
        uint64_t packets{0};            //!< packets
        uint64_t drops{0};              //!< drops (serial gaps)
        uint64_t reordered{0};          //!< duplicates / out of order
        uint64_t intervals{0};          //!< intervals in the statistics
        uint32_t nodesWithIntervals{0}; //!< nodes with at least one interval
        double dropRate{0};             //!< drops / (packets + drops)
        double sendMeanMean{0};         //!< mean over nodes of the mean send interval (s)
        double sendStdMean{0};          //!< mean over nodes of the send-interval deviation (s)
        double sendStdMax{0};           //!< largest per-node send-interval deviation (s)
        double recvMeanMean{0};         //!< mean over nodes of the mean receive interval (s)
        double recvStdMean{0};          //!< mean over nodes of the receive-interval deviation (s)
        double recvStdMax{0};           //!< largest per-node receive-interval deviation (s)
        double pooledSendMean{0};       //!< mean of all send intervals of all nodes (s)
        double pooledSendStd{0};        //!< their standard deviation (s)
        double pooledRecvMean{0};       //!< mean of all receive intervals of all nodes (s)
        double pooledRecvStd{0};        //!< their standard deviation (s)
    };

    /**
     * @brief Keep the nodes of ids [firstId, firstId + count) in a flat array (the ids a
     * receiver expects: [MEGA06]'s sets are contiguous ranges) instead of the hash table of the
     * other ids; a range that touches the reserved one extends it. Statistics and their order are
     * the same either way. Only while the table is empty.
     * @param firstId the first id
     * @param count the number of ids
     */
    void Reserve(uint32_t firstId, uint32_t count);

    /**
     * @brief Account one packet.
     * @param nodeId virtual-node id
     * @param serial its serial number
     * @param sent the payload's send timestamp
     * @param received the capture time
     */
    void Add(uint32_t nodeId, uint32_t serial, Time sent, Time received);

    /**
     * @brief Start loading a node's state into the cache (a hint, no effect on the statistics):
     * for a caller that knows a node's Add ahead (a packet queued for the reader). A receiver's
     * table at 10^6 senders is far larger than a cache and every packet updates a node at random;
     * a prefetch issued when the packet is queued lets other work overlap the memory access. Ids
     * outside the flat range (Reserve) are not prefetched.
     * @param nodeId virtual-node id
     */
    void Prefetch(uint32_t nodeId) const;

    /**
     * @brief Whether a node has been seen.
     * @param nodeId virtual-node id
     * @return true if at least one packet of it was accounted
     */
    bool Has(uint32_t nodeId) const;

    /**
     * @brief Statistics of one node (aborts if the node was never seen).
     * @param nodeId virtual-node id
     * @return its statistics
     */
    NodeStats GetNode(uint32_t nodeId) const;

    /**
     * @brief Number of nodes seen.
     * @return the count
     */
    uint32_t GetNNodes() const;

    /**
     * @brief Statistics over all nodes.
     * @return the summary
     */
    Summary GetSummary() const;

    /**
     * A node's part of the summary, exactly: its statistics and the count, means and variances
     * of its intervals as the pooled statistics use them. Tables of several processes (the
     * parts of a split run, each with its own nodes) give the whole run's summary bit for bit
     * when their moments, in the order of the ids, go through Summarize.
     */
    struct NodeMoments
    {
        NodeStats stats;    //!< the node's statistics (GetNode)
        double count{0};    //!< intervals, as the pooled sums weigh them
        double sendMean{0}; //!< mean send interval (s)
        double recvMean{0}; //!< mean receive interval (s)
        double sendVar{0};  //!< send-interval variance (s^2, population)
        double recvVar{0};  //!< receive-interval variance (s^2, population)
    };

    /**
     * @brief The moments of every seen node.
     * @return them, in the order of the ids
     */
    std::vector<NodeMoments> GetMoments() const;

    /**
     * @brief The summary of nodes given by their moments (GetSummary is
     * Summarize(GetMoments())): the same floating-point operations in the same order.
     * @param nodes the nodes' moments, in the order of their ids
     * @return the summary
     */
    static Summary Summarize(const std::vector<NodeMoments>& nodes);

    /**
     * @brief Write the per-node statistics as CSV (one line per node, sorted by id; intervals
     * in microseconds).
     * @param os the stream
     */
    void WriteNodes(std::ostream& os) const;

    /** Forget everything. */
    void Clear();

    /** The per-node state (an implementation detail, defined in sara.cc with Boost). */
    struct Impl;

  private:
    std::unique_ptr<Impl> m_impl; //!< per-node state (Boost accumulators)
};

/**
 * @ingroup testbed-apps
 * @brief sara: a receiver process that captures send_udp packets and keeps SaraTable
 * statistics.
 *
 * The capture (libpcap in [MEGA06]) is modelled as a socket on the send_udp port: a packet
 * that the host's NIC and stack deliver is stamped with the capture time (the kernel's
 * timestamp) and put into the capture buffer (BufferPackets; full = dropped, the capture
 * library's own drops). The sara process (a HostProcess) is woken when the buffer stops being
 * empty (scheduling latency, run queue) and reads packet after packet, each costing the host's
 * receive path (HostPlatform::GetRecvCost of the frame) plus ProcessCost cycles (parsing and
 * the statistics), until the buffer is empty. With Group set, the capture filter (a BPF filter
 * on the destination, run by the kernel before the buffer) discards packets to other groups at
 * no process cost; they are counted as filtered. Packets that do not carry a send_udp payload
 * are read and counted as foreign.
 *
 * On a PC (a HostPlatform on the node) with ns-3's checksums off, the datagrams come straight
 * from the NIC model's receive processing (HostPlatform::BindUdpMulticast) instead of through
 * ns-3's IPv4 and UDP layers and a socket, which add no simulated time on this path; the capture
 * filter, the buffer and its drops are the same. Without a HostPlatform every packet is
 * accounted at once, at no cost.
 */
class Sara : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    Sara();
    ~Sara() override;

    /**
     * @brief The statistics.
     * @return the table
     */
    const SaraTable& GetTable() const;

    /**
     * @brief The virtual nodes this sara expects (SaraTable::Reserve).
     * @param firstId the first id
     * @param count the number of ids
     */
    void ReserveNodes(uint32_t firstId, uint32_t count);

    /** @return packets captured (put into the buffer) */
    uint64_t GetCaptured() const;
    /** @return packets dropped because the capture buffer was full */
    uint64_t GetBufferDrops() const;
    /** @return packets read that were not send_udp packets */
    uint64_t GetForeign() const;
    /** @return packets to other groups discarded by the capture filter */
    uint64_t GetFiltered() const;

    /**
     * @brief Start the statistics afresh (sara started now): the table and the counters are
     * cleared; packets already in the capture buffer are accounted when read.
     */
    void ResetStatistics();

    /**
     * TracedCallback signature for an accounted packet.
     * @param [in] nodeId the virtual-node id
     * @param [in] serial the serial number
     * @param [in] sent the send timestamp
     * @param [in] received the capture time
     */
    typedef void (*RecordTracedCallback)(uint32_t nodeId,
                                         uint32_t serial,
                                         Time sent,
                                         Time received);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /** A captured packet: what sara reads of it, and when it was captured. */
    struct Captured
    {
        uint32_t payload{0}; //!< UDP payload size (octets)
        bool sendUdp{false}; //!< carries a send_udp header (else foreign)
        uint32_t nodeId{0};  //!< its virtual-node id
        uint32_t serial{0};  //!< its serial number
        int64_t sent{0};     //!< its send timestamp (ns)
        Time time;           //!< capture time
    };

    /**
     * Packets delivered to the capture socket (the path through ns-3's IPv4 and UDP).
     * @param socket the socket
     */
    void Capture(Ptr<Socket> socket);
    /**
     * A datagram straight from the kernel's receive path (HostPlatform::BindUdpMulticast).
     * @param d the datagram
     */
    void CaptureDatagram(const HostPlatform::UdpDatagram& d);
    /**
     * The capture filter, the buffer (or the immediate account without a host) for one packet.
     * @param group its destination group
     * @param c the packet
     */
    void Offer(Ipv4Address group, const Captured& c);
    /** Wake the blocked reader if packets wait. */
    void WakeReader();
    /** Read the next packet from the buffer, if any (process context). */
    void ReadNext();
    /** The packet at the head of the buffer has been read: account it. */
    void Consume();
    /**
     * Parse a UDP payload.
     * @param head its first SendUdpHeader::SIZE octets (null if it is shorter)
     * @param size the payload's size
     * @param now the capture time
     * @return the captured packet
     */
    static Captured Parse(const uint8_t* head, uint32_t size, Time now);
    /**
     * Account a packet.
     * @param c the packet
     */
    void Account(const Captured& c);

    uint16_t m_port;               //!< Port
    Ipv4Address m_group;           //!< Group (0.0.0.0 = any)
    uint32_t m_bufferPackets;      //!< BufferPackets
    double m_processCycles;        //!< ProcessCost
    Ptr<Socket> m_socket;          //!< capture socket (null on the direct path)
    Ptr<HostPlatform> m_host;      //!< the PC whose kernel delivers directly (null: socket)
    Ptr<HostProcess> m_process;    //!< the sara process (null without a host)
    Callback<void> m_readNext;     //!< ReadNext, built once (per wake-up)
    Callback<void> m_consume;      //!< Consume, built once (per packet)
    std::deque<Captured> m_buffer; //!< capture buffer
    bool m_reading;                //!< the process is awake and reading
    bool m_running;                //!< started and not stopped
    uint64_t m_captured;           //!< counter
    uint64_t m_bufferDrops;        //!< counter
    uint64_t m_foreign;            //!< counter
    uint64_t m_filtered;           //!< counter
    SaraTable m_table;             //!< statistics
    TracedCallback<uint32_t, uint32_t, Time, Time> m_recordTrace; //!< accounted packets
};

} // namespace ns3

#endif /* TESTBED_SARA_H */
