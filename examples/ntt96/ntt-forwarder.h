/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NTT_FORWARDER_H
#define TESTBED_NTT_FORWARDER_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/packet.h"

/**
 * @file
 * @ingroup testbed-apps
 * [NTT96]'s forwarding computer.
 */

namespace ns3
{

class HostProcess;
class Socket;

/**
 * @ingroup testbed-apps
 * @brief [NTT96]'s sending computer: reads the analyser's UDP stream and carries each packet on
 * to the receiving computer as one stream record, over TCP or UDP.
 *
 * One single-threaded process on the node's HostPlatform: it blocks in recvfrom() on the
 * stream's UDP port, reads a packet (HostPlatform::GetRecvCost), writes a record of RecordSize
 * bytes that starts with the packet's sequence number (a SeqTsHeader, as the analyser's
 * packets) to the outgoing socket (HostPlatform::GetSendCost) and reads the next packet. Over
 * TCP (sockets from the TcpFactory attribute) the write blocks while the socket's send buffer is
 * full (the rest of the record is written as space frees, as BSD's sosend() does); meanwhile the
 * stream's packets wait in the UDP socket's receive buffer, and are dropped there when it is full.
 */
class NttForwarder : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NttForwarder();
    ~NttForwarder() override;

    /** @return stream packets read */
    uint64_t GetRead() const;
    /** @return records written completely */
    uint64_t GetForwarded() const;
    /** @return packets too short to carry a sequence number */
    uint64_t GetMalformed() const;
    /** @return stream packets dropped because the UDP socket's receive buffer was full */
    uint64_t GetBufferDrops() const;
    /** @return the socket to the receiver (null before the start) */
    Ptr<Socket> GetOutputSocket() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /**
     * A stream packet arrived on the input socket.
     * @param socket the socket
     */
    void OnInput(Ptr<Socket> socket);
    /**
     * Send-buffer space on the output socket.
     * @param socket the socket
     * @param available bytes available
     */
    void OnSpace(Ptr<Socket> socket, uint32_t available);
    /** Read the next packet, or block. */
    void Next();
    /** The read is done: write the record. */
    void Forward();
    /** Write (the rest of) the record. */
    void Write();

    uint16_t m_port;            //!< ListenPort
    Address m_remote;           //!< Remote
    bool m_tcp;                 //!< Protocol == Tcp
    uint32_t m_recordSize;      //!< RecordSize
    TypeId m_tcpFactory;        //!< TcpFactory
    Ptr<HostProcess> m_process; //!< the process
    Ptr<Socket> m_in;           //!< stream input (UDP)
    Ptr<Socket> m_out;          //!< to the receiver
    bool m_busy{false};         //!< the process is not blocked in recvfrom
    bool m_blocked{false};      //!< blocked in a write
    Ptr<Packet> m_packet;       //!< packet being handled
    Ptr<Packet> m_record;       //!< record being written
    uint32_t m_written{0};      //!< bytes of m_record written
    Callback<void> m_nextCb;    //!< Next
    Callback<void> m_forwardCb; //!< Forward
    Callback<void> m_writeCb;   //!< Write
    uint64_t m_read{0};         //!< counter
    uint64_t m_forwarded{0};    //!< counter
    uint64_t m_malformed{0};    //!< counter
    uint64_t m_bufferDrops{0};  //!< counter
};

} // namespace ns3

#endif /* TESTBED_NTT_FORWARDER_H */
