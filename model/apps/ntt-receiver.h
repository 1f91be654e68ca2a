/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NTT_RECEIVER_H
#define TESTBED_NTT_RECEIVER_H

#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup testbed-apps
 * [NTT96]'s receiving computer.
 */

namespace ns3
{

class HostProcess;
class Socket;

/**
 * @ingroup testbed-apps
 * @brief [NTT96]'s receiving computer: logs the application-level arrival time of every stream
 * packet (the input of NttJitter).
 *
 * One single-threaded process on the node's HostPlatform reads the stream; each read costs
 * HostPlatform::GetRecvCost of the bytes read, and a packet's arrival time is the time its read
 * completes.
 *
 * - UDP: one read per datagram; the datagram's SeqTsHeader gives the packet's number.
 * - TCP (sockets from the TcpFactory attribute: BsdTcpSocketFactory for a 4.4BSD host, whose
 *   socket also sends the window update a read calls for): TCP keeps no packet boundaries. The
 * stream is a sequence of RecordSize-byte records, each starting with its SeqTsHeader; the process
 * reads at most the rest of the current record per read (read(fd, buf, remaining), as an
 * application that reassembles records does), and "packet k arrives" when the read that completes
 * the k-th record completes.
 *
 * The logged time is what the application's clock read (gettimeofday) shows at the read's
 * completion: the simulated time rounded down to a tick of TimestampHz (1 000 000: a microsecond
 * clock interpolated from a hardware counter, 4.4BSD's microtime(); 1 024: Digital UNIX's tick
 * without options MICRO_TIME; 100: a clock advanced only by the 100 Hz clock interrupt, SunOS 5 on
 * workstations whose periodic timer is the sole timing information, IRIX). Every LogWriteEvery
 * logged packets the process writes its log to a file (a write(2) of LogWriteCost CPU time,
 * before its next read).
 */
class NttReceiver : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NttReceiver();
    ~NttReceiver() override;

    /** @return (sequence number, arrival time) of every packet, in arrival order */
    const std::vector<std::pair<uint32_t, Time>>& GetArrivals() const;
    /** @return read calls */
    uint64_t GetReads() const;

    /**
     * @brief What the application's clock shows at a time: the time rounded down to a tick of
     * TimestampHz (ticks counted from time 0).
     * @param t the simulated time
     * @return the clock reading
     */
    Time ReadClock(Time t) const;

    /**
     * @brief Feed bytes of a TCP stream as one completed read (the record reassembly; public
     * for tests).
     * @param chunk the bytes read
     * @param now the read's completion time
     */
    void ConsumeStream(Ptr<const Packet> chunk, Time now);

    /**
     * TracedCallback signature for a packet's arrival.
     * @param [in] seq its number
     * @param [in] time its arrival time
     */
    typedef void (*ArrivalTracedCallback)(uint32_t seq, Time time);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /**
     * Data or a connection arrived.
     * @param socket the socket
     */
    void OnData(Ptr<Socket> socket);
    /**
     * A TCP connection was accepted.
     * @param socket the new socket
     * @param from the peer
     */
    void OnAccept(Ptr<Socket> socket, const Address& from);
    /** Read the next chunk, or block. */
    void Next();
    /** The read is done. */
    void Done();
    /**
     * Log an arrival.
     * @param seq the packet's number
     * @param now its time
     */
    void Log(uint32_t seq, Time now);

    uint16_t m_port;                  //!< Port
    bool m_tcp;                       //!< Tcp
    uint32_t m_recordSize;            //!< RecordSize
    uint32_t m_clockHz;               //!< TimestampHz
    uint32_t m_logWriteEvery;         //!< LogWriteEvery
    Time m_logWriteCost;              //!< LogWriteCost
    Ptr<HostProcess> m_process;       //!< the process
    Ptr<Socket> m_listen;             //!< UDP socket, or TCP listener
    Ptr<Socket> m_data;               //!< the socket read from
    bool m_busy{false};               //!< the process is not blocked in read
    Ptr<Packet> m_chunk;              //!< being read
    uint32_t m_inRecord{0};           //!< bytes of the current record read so far
    std::array<uint8_t, 12> m_head{}; //!< the current record's first bytes (its header)
    uint64_t m_reads{0};              //!< counter
    std::size_t m_logWritten{0};      //!< log entries when the log was last written
    TypeId m_tcpFactory;              //!< TcpFactory
    Callback<void> m_nextCb;          //!< Next
    Callback<void> m_doneCb;          //!< Done
    std::vector<std::pair<uint32_t, Time>> m_arrivals; //!< the log
    TracedCallback<uint32_t, Time> m_arrivalTrace;     //!< arrivals
};

} // namespace ns3

#endif /* TESTBED_NTT_RECEIVER_H */
