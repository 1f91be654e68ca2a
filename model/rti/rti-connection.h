/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_CONNECTION_H
#define TESTBED_RTI_CONNECTION_H

#include "rti-message.h"

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <memory>
#include <type_traits>
#include <vector>

/**
 * @file
 * @ingroup testbed-rti
 * Message transports between RTI components: TCP, same-host (loopback) and UDP.
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief An allocator that leaves the elements that a resize adds uninitialized (byte buffers
 * that are written at once: no zero fill first).
 */
template<class T>
struct UninitializedAllocator : std::allocator<T>
{
    /** The same allocator for another type. */
    template<class U>
    struct rebind
    {
        typedef UninitializedAllocator<U> other; //!< the allocator
    };

    /**
     * @brief Default-initialize (for bytes: leave as is).
     * @param p where
     */
    template<class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>)
    {
        ::new (static_cast<void*>(p)) U;
    }

    /**
     * @brief Construct from arguments.
     * @param p where
     * @param args the arguments
     */
    template<class U, class... Args>
    void construct(U* p, Args&&... args)
    {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

/** Serialized messages. */
typedef std::vector<uint8_t, UninitializedAllocator<uint8_t>> RtiBytes;

/**
 * @ingroup testbed-rti
 * @brief A message channel between two RTI components.
 *
 * Sending hands one serialized message to the transport (the sending process has already paid
 * its CPU costs). Receiving is in two steps, as for a process reading a socket: the transport
 * signals that data is available (DataCallback, in kernel context), and the owning process,
 * once it runs, calls Receive() to take whatever has arrived: the byte count (for the read's
 * system-call cost) and the complete messages.
 */
class RtiConnection : public Object
{
  public:
    /** What one read returned. */
    struct Chunk
    {
        uint32_t bytes{0};                //!< bytes taken from the transport
        std::vector<RtiMessage> messages; //!< complete messages, in order
    };

    /** Signals that data is available. */
    typedef Callback<void, Ptr<RtiConnection>> DataCallback;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiConnection();
    ~RtiConnection() override;

    /**
     * @brief Set the data-available callback.
     * @param cb the callback
     */
    void SetDataCallback(DataCallback cb);

    /**
     * @brief Send one message.
     * @param msg the message (serialized as it is)
     */
    virtual void Send(const RtiMessage& msg) = 0;

    /**
     * @brief Send messages with one write (a datagram transport sends one each).
     * @param msgs the messages, in order
     */
    virtual void SendBatch(const std::vector<RtiMessage>& msgs);

    /**
     * @brief Take everything that has arrived.
     * @return the bytes and the complete messages
     */
    virtual Chunk Receive() = 0;

    /**
     * @brief Whether anything is waiting to be read.
     * @return true if Receive() would return bytes
     */
    virtual bool HasData() const = 0;

    /**
     * @brief Whether both ends are on the same host.
     * @return true for a same-host connection
     */
    virtual bool IsLocal() const = 0;

    /**
     * @brief Whether every message is a datagram of its own (never written in a batch).
     * @return true for the best-effort (UDP) path
     */
    virtual bool IsDatagram() const;

    /** @return the federate at the other end (0 = the CRC or not yet known) */
    uint32_t GetPeer() const;
    /** @param peer the federate at the other end */
    void SetPeer(uint32_t peer);

    /** @return messages sent */
    uint64_t GetTxMessages() const;
    /** @return bytes of messages sent */
    uint64_t GetTxBytes() const;
    /** @return messages received */
    uint64_t GetRxMessages() const;
    /**
     * @return malformed input dropped: datagrams that were not one well-formed message, and
     * (TCP) the frame that made the connection close
     */
    uint64_t GetNMalformed() const;

    /**
     * @return whether the transport ended the connection with an error (TCP gave up after its
     * retransmission limit, or a reset came); nothing is sent or received after that
     */
    bool IsLost() const;

    /**
     * TracedCallback signature for a message sent or received.
     * @param [in] msg the message
     */
    typedef void (*MessageTracedCallback)(const RtiMessage& msg);

    /**
     * TracedCallback signature for malformed input dropped.
     * @param [in] bytes the size of what was dropped (a datagram, or the rest of a stream)
     * @param [in] reason why (RtiMessage::TryDeserializeFrom's reason)
     */
    typedef void (*MalformedTracedCallback)(uint32_t bytes, const std::string& reason);

    /**
     * TracedCallback signature for a connection the transport ended.
     * @param [in] reason what ended it
     */
    typedef void (*LostTracedCallback)(const std::string& reason);

  protected:
    void DoDispose() override;

    /** Call the data callback. */
    void NotifyData();

    /**
     * Serialize a message into a packet and count it.
     * @param msg the message
     * @return the packet
     */
    Ptr<Packet> Encode(const RtiMessage& msg);

    /**
     * Serialize messages one after the other into one packet and count them.
     * @param msgs the messages (at least one)
     * @return the packet
     */
    Ptr<Packet> Encode(const std::vector<RtiMessage>& msgs);

    /**
     * Serialize a message at the end of a byte array and count it.
     * @param msg the message
     * @param out the bytes
     */
    void Encode(const RtiMessage& msg, RtiBytes& out);

    /**
     * Count and trace a received message.
     * @param msg the message
     */
    void CountRx(const RtiMessage& msg);

    /**
     * Count and trace malformed input that is dropped.
     * @param bytes its size
     * @param reason why
     */
    void CountMalformed(uint32_t bytes, const std::string& reason);

    /**
     * Mark the connection lost (once) and trace it.
     * @param reason what ended it
     */
    void NotifyLost(const std::string& reason);

  private:
    DataCallback m_data;                                           //!< data-available callback
    uint32_t m_peer;                                               //!< peer federate
    uint64_t m_txMessages;                                         //!< counter
    uint64_t m_txBytes;                                            //!< counter
    uint64_t m_rxMessages;                                         //!< counter
    TracedCallback<const RtiMessage&> m_txTrace;                   //!< sent
    TracedCallback<const RtiMessage&> m_rxTrace;                   //!< received
    RtiBytes m_encoded;                                            //!< scratch bytes of Encode
    uint64_t m_malformed;                                          //!< malformed input dropped
    TracedCallback<uint32_t, const std::string&> m_malformedTrace; //!< malformed input
    bool m_lost;                                                   //!< ended by the transport
    TracedCallback<const std::string&> m_lostTrace;                //!< ended by the transport
};

/**
 * @ingroup testbed-rti
 * @brief An RTI connection over an ns-3 TCP socket: messages are framed in the byte stream by
 * their length field.
 */
class RtiTcpConnection : public RtiConnection
{
  public:
    /**
     * Largest frame accepted from the stream (bytes): a length field above it is malformed
     * (16 MiB, far above any message the RTI encodes: 1 MiB updates at most).
     */
    static constexpr uint32_t MAX_FRAME = 16u << 20;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiTcpConnection();
    ~RtiTcpConnection() override;

    /**
     * @brief Use a (connected or connecting) TCP socket.
     * @param socket the socket
     */
    void SetSocket(Ptr<Socket> socket);

    /** @return the socket */
    Ptr<Socket> GetSocket() const;

    /**
     * @brief Mark the connection as one between two components on the same host (TCP over
     * the loopback, RtiSettings LocalPath LoopbackTcp): IsLocal() then answers true.
     * @param local whether it is
     */
    void SetLocal(bool local);

    /**
     * @brief Frame received stream bytes into messages by their length fields.
     * @param data the bytes
     * @param size their number
     * @param [out] messages the whole, well-formed messages found (appended)
     * @param [out] reason why the stream is malformed at the first byte not framed ("" if it
     *        is not: the rest is an incomplete message that waits for more bytes)
     * @return the bytes framed
     */
    static std::size_t Frame(const uint8_t* data,
                             std::size_t size,
                             std::vector<RtiMessage>& messages,
                             std::string& reason);

    void Send(const RtiMessage& msg) override;
    void SendBatch(const std::vector<RtiMessage>& msgs) override;
    Chunk Receive() override;
    bool HasData() const override;
    bool IsLocal() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * Socket receive callback.
     * @param socket the socket
     */
    void HandleRead(Ptr<Socket> socket);
    /**
     * Socket send-space callback.
     * @param socket the socket
     * @param available bytes of free send buffer
     */
    void HandleSend(Ptr<Socket> socket, uint32_t available);

    /**
     * The socket's error-close callback: TCP gave up (its retransmission limit, ns-3's
     * TcpSocket DataRetries) or received a reset. The connection is lost.
     * @param socket the socket
     */
    void HandleErrorClose(Ptr<Socket> socket);

    /**
     * The socket's connection-failed callback: the connection never came up (ns-3's TcpSocket
     * SynRetries SYN retransmissions, or a reset). The connection is lost.
     * @param socket the socket
     */
    void HandleConnectFailed(Ptr<Socket> socket);
    /** Write pending messages while the send buffer has room. */
    void Flush();

    Ptr<Socket> m_socket;              //!< the socket
    RtiBytes m_rxBytes;                //!< received bytes not yet framed
    std::deque<Ptr<Packet>> m_txQueue; //!< messages (or their rest) not yet written
    bool m_notified;                   //!< data callback called since the last Receive()
    bool m_broken;                     //!< closed after a malformed frame
    bool m_local{false};               //!< over the loopback (SetLocal)
};

/**
 * @ingroup testbed-rti
 * @brief A connection between two components on the same host (TCP over the loopback).
 *
 * The kernel's loopback path runs inside the sender's send call (Linux: the receive softirq
 * runs on the sending CPU), so its cost is the host's send cost, which the sending process
 * pays; the message is then at once readable by the receiver. Create pairs with Connect().
 */
class RtiLocalConnection : public RtiConnection
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiLocalConnection();
    ~RtiLocalConnection() override;

    /**
     * @brief Join two endpoints.
     * @param a one end
     * @param b the other end
     */
    static void Connect(Ptr<RtiLocalConnection> a, Ptr<RtiLocalConnection> b);

    void Send(const RtiMessage& msg) override;
    Chunk Receive() override;
    bool HasData() const override;
    bool IsLocal() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * A message arrives from the peer.
     * @param bytes the serialized message
     */
    void Deliver(RtiBytes&& bytes);

    RtiLocalConnection* m_peer;   //!< the other end (not owned)
    std::deque<RtiBytes> m_inbox; //!< serialized messages arrived, not yet read
    bool m_notified;              //!< data callback called since the last Receive()
};

/**
 * @ingroup testbed-rti
 * @brief The best-effort path: one RTI message per UDP datagram.
 *
 * Several connections may share one socket: only one of them (the receiving one, without a
 * peer address) reads it; the others only send to their peer address.
 */
class RtiUdpConnection : public RtiConnection
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiUdpConnection();
    ~RtiUdpConnection() override;

    /**
     * @brief Use a bound UDP socket.
     * @param socket the socket
     * @param peer where Send() sends (an InetSocketAddress); empty for a receive-only endpoint
     * @param receive whether this connection reads the socket
     */
    void SetSocket(Ptr<Socket> socket, const Address& peer, bool receive);

    /** @return the UDP port the socket is bound to */
    uint16_t GetLocalPort() const;

    void Send(const RtiMessage& msg) override;
    Chunk Receive() override;
    bool HasData() const override;
    bool IsLocal() const override;
    bool IsDatagram() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * Socket receive callback.
     * @param socket the socket
     */
    void HandleRead(Ptr<Socket> socket);

    Ptr<Socket> m_socket;  //!< the socket
    Address m_peerAddress; //!< destination of Send()
    bool m_notified;       //!< data callback called since the last Receive()
    RtiBytes m_datagram;   //!< scratch bytes of Receive
};

} // namespace ns3

#endif /* TESTBED_RTI_CONNECTION_H */
