/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_LRC_H
#define TESTBED_RTI_LRC_H

#include "rti-connection.h"
#include "rti-message.h"
#include "rti-settings.h"

#include "ns3/callback.h"
#include "ns3/host-platform.h"
#include "ns3/host-process.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed-rti
 * The local RTI component of the direct data path.
 */

namespace ns3
{

class RtiFedex;

/**
 * @ingroup testbed-rti
 * @brief The local RTI component (LRC) of one federate on the direct data path (RtiSettings
 * DataPath=Direct): TNO's RTI-DM (UDP) and RTI-SM (shared memory), and a DMSO RTI 1.3NG-like
 * RTI (TCP).
 *
 * It lives in the federate's process (HostProcess) and charges its work there, in cycles of the
 * RTI profile scaled by the host's HostPlatform::ReferenceCycleFactor (the profiles give MIPS
 * R10000 cycles). Federation management goes through the federation's RtiFedex; updates go
 * straight to every subscribed LRC:
 *
 * The RTI's upper layers (CallCost, EncodeCost, DecodeCost, CallbackCost) are the same code
 * whatever the transport; the lowest layer is the RTI's TransportCost and queue copies
 * (ShmEnqueueCost, ShmCopyCostPerByte) plus the operating system's work, which is the host's
 * (HostPlatform): costs are charged per job, a sender paying the send side, a reader the read
 * side, a federate that does both paying both:
 *
 * - send: CallCost + EncodeCost(bytes) + TransportCost, then per receiver the host's socket send
 *   (SendCost; UDP, TCP) or a copy into its shared-memory queue (ShmEnqueueCost +
 *   ShmCopyCostPerByte x message size) and the semaphore post (the host's SyscallCost); the
 *   messages leave; then, off their path, the host's SendOffPathCost per datagram, and the
 *   kernel's transmit completion on the interrupt core (TxCompletionCost);
 * - receive: a blocked process is woken (scheduling latency, then on the message's path the
 *   host's WaitCost: the rest of the blocking call and the switches), then per message the host's
 *   socket read (RecvCost) or semaphore operation (SyscallCost), TransportCost,
 *   DecodeCost(bytes), CallbackCost, the reflect callback, then off the path ReflectTailCost
 *   (the RTI's own read-side work), the owner's per-reflection work (SetReflectWork) and the
 *   host's RecvOffPathCost. Reading goes in read cycles
 *   (the RTI's tick inside its owner's Update action): a cycle delivers the messages queued
 *   when it starts, then spends ReadCycleCost, the owner's per-cycle work (SetCycleWork) and on
 *   a socket the read that finds it empty, once; messages that arrived meanwhile start the
 *   next cycle without a wake-up, else the process blocks until the next message. A process that
 *   falls behind therefore reads in bursts and pays the cycle's cost once per burst.
 *
 * Messages are the RTI's own (RtiMessage UPDATE_ATTRIBUTES: the class as handle, one attribute
 * value of the update's bytes, the RCI's tag as an 8-byte user tag, the sender's sequence number
 * as serial) on the RTI's own connections: RtiUdpConnection, RtiTcpConnection (framing, queued
 * writes when the send buffer is full, malformed input closing the connection) and
 * RtiLocalConnection for the shared-memory queues.
 *
 * Loss: a full socket receive buffer (UDP: datagrams wait in the socket until the process reads
 * them; HostPlatform UdpReceiveBuffer, SocketBufferCharge), a full shared-memory queue; seen by
 * the receiver as gaps in a sender's sequence numbers.
 */
class RtiLrc : public Object
{
  public:
    /** One reflected update. */
    struct Reflection
    {
        uint32_t objectClass; //!< object class handle
        uint32_t sender;      //!< sending federate handle
        uint32_t seq;         //!< sender's sequence number
        Time tag;             //!< sender's tag
        uint32_t bytes;       //!< attribute bytes
    };

    /** Reflect callback: called in the federate process when an update has been read. */
    typedef Callback<void, const Reflection&> ReflectCallback;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiLrc();
    ~RtiLrc() override;

    /**
     * @brief Attach to a federate process.
     * @param process the federate's process
     * @param settings the federation's settings (DataPath must be Direct)
     * @param address the node's address other LRCs reach it at (network transports)
     */
    void Setup(Ptr<HostProcess> process, Ptr<RtiSettings> settings, Ipv4Address address);

    /**
     * @brief Join a federation (through its Fedex); publish and subscribe after this.
     * @param fedex the federation executive
     * @param name the federate's name
     */
    void Join(Ptr<RtiFedex> fedex, const std::string& name);

    /**
     * @brief Declare that this federate publishes an object class.
     * @param objectClass the class handle
     */
    void Publish(uint32_t objectClass);

    /**
     * @brief Declare that this federate subscribes to an object class.
     * @param objectClass the class handle
     */
    void Subscribe(uint32_t objectClass);

    /**
     * @brief updateAttributeValues: send bytes of attribute data of a class to its subscribers.
     * Queued as work of the federate process (after what it is doing now).
     * @param objectClass the class handle (published)
     * @param bytes attribute bytes
     * @param tag the RCI's tag (a time)
     */
    void Update(uint32_t objectClass, uint32_t bytes, Time tag);

    /**
     * @brief Set the reflect callback.
     * @param cb the callback
     */
    void SetReflectCallback(ReflectCallback cb);

    /** @return the federate handle (0 before Join) */
    uint32_t GetHandle() const;
    /** @return the process */
    Ptr<HostProcess> GetProcess() const;
    /** @return the federation's Fedex (null before Join) */
    Ptr<RtiFedex> GetFedex() const;
    /** @return updates sent (one per Update, whatever the number of receivers) */
    uint64_t GetSent() const;
    /** @return updates reflected */
    uint64_t GetReflected() const;
    /** @return updates missing in the senders' sequences seen so far */
    uint64_t GetGaps() const;
    /** @return messages lost at a full shared-memory queue of this LRC */
    uint64_t GetQueueDrops() const;
    /** @return malformed input dropped by this LRC's receiving connections */
    uint64_t GetMalformed() const;
    /** @return datagrams dropped because this LRC's socket receive buffer was full (UDP) */
    uint64_t GetSocketDrops() const;
    /** @return the largest number of messages read in one wake-up */
    uint32_t GetMaxBurst() const;

    /**
     * @brief The serialized size of an update of a given size (RTI header and body).
     * @param bytes attribute bytes
     * @return message bytes (the IP packet is this plus 28 on UDP)
     */
    uint32_t GetUpdateSize(uint32_t bytes) const;

    /**
     * @brief Called by the Fedex: deliver this LRC's updates of a class to a receiver.
     * @param objectClass the class
     * @param receiver the subscribing LRC
     */
    void AddRoute(uint32_t objectClass, Ptr<RtiLrc> receiver);

    /**
     * @brief Called by the Fedex at Join.
     * @param handle the federate handle
     */
    void SetHandle(uint32_t handle);

    /**
     * @brief Work the process does once per read cycle besides the RTI's own (ReadCycleCost):
     * the read cycle is its owner's Update action (RciFederate::ReadInUpdateActions).
     * @param referenceCycles middleware cycles (MIPS R10000 cycles, scaled by the host's
     *        ReferenceCycleFactor)
     * @param syscalls cheap system calls of the host per cycle (clock reads)
     */
    void SetCycleWork(double referenceCycles, uint32_t syscalls);

    /**
     * @brief Work the process does per reflection after the reflect callback, besides the
     * RTI's own (ReflectTailCost): its owner's handling of the delivered update (the RCI's).
     * @param referenceCycles middleware cycles (MIPS R10000 cycles, scaled by the host's
     *        ReferenceCycleFactor)
     */
    void SetReflectWork(double referenceCycles);

    /**
     * @brief HLA-TM: enable time management (enableTimeRegulation and enableTimeConstrained
     * with a lookahead) as the RTI does it: open this federate's time-management connection to
     * the Fedex (RtiFedex::OpenTimeManagement) and send ENABLE_TIME_REGULATION (the lookahead)
     * on it (the send side in this process); the Fedex answers TIME_REGULATION_ENABLED, which
     * this process reads (the read side), then @p enabled runs in it (the RTI's callback).
     * Requests and notes may follow at once: they travel behind the enable on the same
     * connection.
     * @param lookahead the lookahead (>= 0)
     * @param enabled called when the answer has been read (may be null)
     */
    void EnableTimeManagement(Time lookahead, Callback<void> enabled);
    /** @return whether this federate has read its TIME_REGULATION_ENABLED */
    bool IsTimeManagementEnabled() const;

    /**
     * @brief HLA-TM (after EnableTimeManagement): TimeAdvanceRequest(t), a
     * TIME_ADVANCE_REQUEST message to the Fedex (the send side in this process); the grant is a
     * TIME_ADVANCE_GRANT message this process reads (woken if blocked, the read side), then
     * @p granted runs in it.
     * @param t the requested logical time
     * @param granted called at the grant
     */
    void RequestAdvance(Time t, Callback<void> granted);
    /**
     * @brief HLA-TM: tell the Fedex that an update of a class stamped ts is sent (a TSO_NOTE_SENT
     * message, before the update's next request on the same connection).
     * @param objectClass the class
     * @param ts the timestamp
     */
    void NoteSent(uint32_t objectClass, Time ts);
    /**
     * @brief HLA-TM: tell the Fedex that an update stamped ts has been read (TSO_NOTE_READ).
     * @param ts the timestamp
     */
    void NoteRead(Time ts);
    /**
     * @brief Called by the Fedex: connect this federate's time-management connection (TCP).
     * @param fedex the Fedex's address and port
     */
    void ConnectFedex(const Address& fedex);
    /**
     * @brief Called by the Fedex: this federate's time-management connection (shared memory).
     * @param conn this side of it
     */
    void SetFedexConnection(Ptr<RtiConnection> conn);
    /** @return time advance grants this federate has read */
    uint64_t GetGrantsRead() const;
    /** @return the sum over its grants of the time from the request to the grant's callback */
    Time GetGrantWaitSum() const;

    /**
     * @brief The send side of one RTI message in its sender's process (the RTI's CallCost,
     * EncodeCost and TransportCost, then per receiver the host's socket send, or on shared
     * memory the queue copy and the semaphore post).
     * @param platform the sender's host
     * @param settings the RTI's settings
     * @param size the message's serialized size
     * @param receivers the copies sent
     * @return the service time
     */
    static Time SendSideCost(Ptr<HostPlatform> platform,
                             Ptr<RtiSettings> settings,
                             uint32_t size,
                             std::size_t receivers);
    /**
     * @brief The read side of one RTI message on its reader's path: the host's socket read (or
     * the semaphore operation on shared memory) and the RTI's TransportCost, DecodeCost and
     * CallbackCost.
     * @param platform the reader's host
     * @param settings the RTI's settings
     * @param size the message's serialized size
     * @return the service time
     */
    static Time ReadSideCost(Ptr<HostPlatform> platform, Ptr<RtiSettings> settings, uint32_t size);
    /**
     * @brief Send one RTI message on one connection from a process: the send side in one step
     * of the process (SendSideCost for one receiver), the message leaving when the step is done
     * (with the kernel's transmit completion on network transports), then off the message's
     * path the rest of the send call (the host's SendOffPathCost, network transports only).
     * Used for the time-management messages of the LRCs and the Fedex.
     * @param process the sending process
     * @param settings the RTI's settings
     * @param conn the connection
     * @param msg the message
     */
    static void SendOne(Ptr<HostProcess> process,
                        Ptr<RtiSettings> settings,
                        Ptr<RtiConnection> conn,
                        const RtiMessage& msg);

    /**
     * @brief Charge federation-management work to this process (called by the Fedex).
     * @param done called when done
     */
    void ChargeAdmin(Callback<void> done);

    /**
     * @brief The port this LRC listens on (network transports).
     * @return the port
     */
    uint16_t GetPort() const;

    /** @return the node's address */
    Ipv4Address GetAddress() const;

    /**
     * TracedCallback signature for a lost message.
     * @param [in] bytes its size
     * @param [in] reason why
     */
    typedef void (*DropTracedCallback)(uint32_t bytes, const std::string& reason);

    /**
     * TracedCallback signature for a reflection.
     * @param [in] sender the sending federate
     * @param [in] seq its sequence number
     * @param [in] tag its tag
     */
    typedef void (*ReflectTracedCallback)(uint32_t sender, uint32_t seq, Time tag);
    /**
     * TracedCallback signature of ReadCycle.
     * @param messages the messages the read cycle delivered
     */
    typedef void (*ReadCycleTracedCallback)(uint32_t messages);

  protected:
    void DoDispose() override;

  private:
    /** A message waiting to be read. */
    struct Inbound
    {
        RtiMessage msg;  //!< the message
        uint32_t size;   //!< its serialized size
        uint32_t charge; //!< bytes it counts against the socket receive buffer (UDP)
    };

    /** A receiver of one class. */
    struct Route
    {
        Ptr<RtiLrc> lrc;         //!< the receiver
        Ptr<RtiConnection> conn; //!< the connection to it
    };

    void OpenTransport();
    void HandleAccept(Ptr<Socket> socket, const Address& from);
    void Watch(Ptr<RtiConnection> conn);
    void DataAvailable(Ptr<RtiConnection> conn);
    void ReadNext();
    void ReadDone();
    /** Start a read cycle: it delivers the messages queued now. */
    void StartReadCycle();
    /** The read cycle's own work is done: read what came meanwhile, or block. */
    void EndReadCycle();
    /** A blocked reader was woken: the wake-up's kernel work (WaitCost), then a read cycle. */
    void WokenUp();
    void SendNow(uint32_t objectClass, const RtiMessage& msg);
    /**
     * Send a time-management message to the Fedex: the send side in this process.
     * @param msg the message
     */
    void SendToFedex(const RtiMessage& msg);
    /**
     * The time-management connection has data (grants).
     * @param conn the connection
     */
    void FedexData(Ptr<RtiConnection> conn);
    /** Read the next grant (the read side), then run its callback. */
    void ReadGrant();
    double Cycles(double referenceCycles) const;

    Ptr<HostProcess> m_process;                      //!< the federate process
    Ptr<RtiSettings> m_settings;                     //!< settings
    Ptr<RtiFedex> m_fedex;                           //!< the federation
    Ipv4Address m_address;                           //!< node address
    uint32_t m_handle;                               //!< federate handle
    double m_factor;                                 //!< host's ReferenceCycleFactor
    Ptr<Socket> m_udp;                               //!< UDP socket (send and receive)
    Ptr<Socket> m_listen;                            //!< TCP listening socket
    std::vector<Ptr<RtiConnection>> m_receiving;     //!< connections this LRC reads
    std::map<uint32_t, std::vector<Route>> m_routes; //!< class -> receivers
    std::map<uint32_t, uint32_t> m_nextSeq;          //!< class -> next sequence number
    std::map<uint32_t, uint32_t> m_expected;         //!< sender -> next expected seq
    std::deque<Inbound> m_inbox;                     //!< messages waiting to be read
    bool m_reading;                                  //!< the read loop is active
    uint32_t m_burst;                                //!< messages read in this read cycle
    std::size_t m_cycleLeft;                         //!< messages of this read cycle still to read
    ReflectCallback m_reflect;                       //!< the federate's callback
    uint64_t m_sent;                                 //!< counter
    uint64_t m_reflected;                            //!< counter
    uint64_t m_gaps;                                 //!< counter
    uint64_t m_queueDrops;                           //!< counter
    uint64_t m_socketDrops;                          //!< counter
    uint64_t m_inboxCharge{0};                       //!< receive-buffer bytes of the inbox (UDP)
    double m_cycleReferenceCycles{0};                //!< SetCycleWork
    uint32_t m_cycleSyscalls{0};                     //!< SetCycleWork
    double m_reflectReferenceCycles{0};              //!< SetReflectWork
    uint32_t m_maxBurst;                             //!< largest burst
    Ptr<RtiConnection> m_fedexConn;                  //!< time-management connection
    std::deque<RtiMessage> m_grants;                 //!< grants (and the enable) to be read
    Callback<void> m_enabled;                        //!< EnableTimeManagement's callback
    bool m_tmEnabled{false};                         //!< TIME_REGULATION_ENABLED was read
    bool m_readingGrants{false};                     //!< a grant is being read
    Callback<void> m_granted;                        //!< the pending request's callback
    uint64_t m_grantsRead{0};                        //!< counter
    Time m_requestedAt;                              //!< time of the pending request
    Time m_grantWait;                                //!< sum of request -> grant callback
    TracedCallback<uint32_t, const std::string&> m_dropTrace; //!< lost
    TracedCallback<uint32_t, uint32_t, Time> m_reflectTrace;  //!< sender, seq, tag
    TracedCallback<uint32_t> m_readCycleTrace;                //!< messages of a read cycle
};

} // namespace ns3

#endif /* TESTBED_RTI_LRC_H */
