/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_SETTINGS_H
#define TESTBED_RTI_SETTINGS_H

#include "rti-message.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

/**
 * @file
 * @ingroup testbed-rti
 * Federation-wide parameters of the simulated RTI: encoding, transport, algorithms and costs.
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief The parameters every component of one RTI federation shares.
 *
 * One object per federation (RtiHelper creates it); the CRC and every local RTI component refer
 * to it, so the encoding and the algorithms are consistent across the federation.
 *
 * Processing costs are CPU cycles on the host of the component that does the work (converted
 * with that host's CPU frequency, and queued on its CPU behind other work, see HostProcess).
 * The operating system's own costs of socket calls (HostPlatform SendCost/RecvCost) and of
 * packet reception (HostNic) come on top; they belong to the host model, not to the RTI.
 * doc/rti.rst lists which of these parameters were calibrated on which [JAXA06] number.
 */
class RtiSettings : public Object
{
  public:
    /** How GALT is computed. */
    enum GaltMode
    {
        CENTRAL,      //!< by the CRC from every federate's requests (pRTI style)
        NULL_MESSAGES //!< by each local component from null messages (CERTI, OpenRTI; Portico peer
                      //!< to peer)
    };

    /** When a constrained federate's TSO messages are delivered during a TAR/TARA. */
    enum TsoRelease
    {
        AT_GRANT,       //!< all together, just before the grant (pRTI 1516 as modelled)
        WHEN_GUARANTEED //!< each as soon as GALT has passed its timestamp (may precede the grant)
    };

    /** How callbacks reach the federate. */
    enum CallbackModel
    {
        IMMEDIATE, //!< each at once, on the component's thread (IEEE 1516-2010 HLA_IMMEDIATE)
        EVOKED     //!< queued until the federate calls evokeCallback/evokeMultipleCallbacks
    };

    /** Where update messages travel. */
    enum DataPath
    {
        VIA_CRC, //!< through the central RTI component (RtiAmbassador / RtiCentralComponent)
        DIRECT   //!< local component to local component (RtiLrc), an RtiFedex for administration
    };

    /** The transport of the direct data path. */
    enum Transport
    {
        UDP,          //!< datagrams over IP (TNO RTI-DM)
        TCP,          //!< a TCP connection per pair of local components
        SHARED_MEMORY //!< message queues in shared memory on one machine (TNO RTI-SM)
    };

    /** How a federate on the central component's node reaches it. */
    enum LocalPath
    {
        IN_MEMORY,   //!< the loopback's cost charged as a send; readable at once
        LOOPBACK_TCP //!< a TCP connection to the loopback address (two processes)
    };

    /**
     * The bookkeeping the central component keeps, beyond its own routing, to know that no
     * timestamp-order message is still on its way to a federate it grants (IEEE 1516-2000
     * clause 8 leaves how to the RTI).
     */
    enum TsoBookkeeping
    {
        TSO_NONE,      //!< none: every TSO message passes the CRC, ahead of the grant on its
                       //!< connection
        TSO_COUNTS,    //!< each time advance request carries its federate's sent and received
                       //!< TSO message counts, which the CRC checks against its own
        TSO_READ_NOTES //!< each TSO message read is noted to the CRC (TSO_NOTE_READ), which
                       //!< grants a federate only when it noted every one stamped at or before
                       //!< the grant (the Fedex's rule on the direct path)
    };

    /** The order in which one turn's output is written to its connections. */
    enum WriteOrder
    {
        FIRST_USED,   //!< in the order the connections were first used in the turn
        REMOTE_FIRST, //!< connections to other nodes first, then local ones
        LOCAL_FIRST   //!< local connections first, then those to other nodes
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiSettings();

    /** @return the data path */
    DataPath GetDataPath() const;
    /** @return the transport of the direct data path */
    Transport GetTransport() const;
    /** @return cycles of the lowest layer per message sent or received (direct path) */
    double TransportCycles() const;
    /** @return cycles after each reflect callback, off the message's path (direct path) */
    double ReflectTailCycles() const;
    /** @return cycles once per read cycle, when the reader finds its queue empty (direct path) */
    double ReadCycleCycles() const;
    /**
     * @brief Cycles to copy a message into one shared-memory queue and post its semaphore.
     * @param bytes message size
     * @return cycles
     */
    double ShmEnqueueCycles(uint32_t bytes) const;
    /** @return capacity of a shared-memory queue in messages */
    uint32_t GetShmQueueSize() const;
    /** @return cycles of one federation-management operation in the Fedex (join, publish) */
    double AdminCycles() const;

    /**
     * @brief A new message of a type with this federation's encoding header size.
     * @param type the type
     * @return the message
     */
    RtiMessage NewMessage(RtiMessage::Type type) const;

    /** @return the encoding header size in bytes */
    uint32_t GetHeaderSize() const;
    /** @return the GALT algorithm */
    GaltMode GetGaltMode() const;
    /** @return the TSO release policy */
    TsoRelease GetTsoRelease() const;
    /** @return the callback model */
    CallbackModel GetCallbackModel() const;
    /** @return whether the RTI's TCP sockets disable Nagle (TCP_NODELAY) */
    bool GetTcpNoDelay() const;
    /** @return whether queued output is written in one system call when the process yields */
    bool GetWriteBatching() const;
    /** @return the TCP maximum segment size of the RTI's connections */
    uint32_t GetTcpSegmentSize() const;
    /** @return the CRC's TCP port */
    uint16_t GetPort() const;
    /** @return the UDP port of the best-effort path (CRC and local components) */
    uint16_t GetUdpPort() const;

    /**
     * @brief Cycles to encode a message (build it and write its bytes).
     * @param bytes message size
     * @return cycles
     */
    double EncodeCycles(uint32_t bytes) const;
    /**
     * @brief Cycles to decode a message.
     * @param bytes message size
     * @return cycles
     */
    double DecodeCycles(uint32_t bytes) const;
    /** @return cycles of one RTI ambassador call in the local component (checks, bookkeeping) */
    double CallCycles() const;
    /** @return cycles of one federate ambassador callback (dispatch into the federate) */
    double CallbackCycles() const;
    /** @return cycles of one CRC routing step (look up the receivers of one message) */
    double RouteCycles() const;
    /**
     * @brief Cycles of one time-management evaluation (GALT and grant checks).
     * @param federates number of time-managed federates involved
     * @return cycles
     */
    double TimeManagementCycles(uint32_t federates) const;

    /** @return the coefficient of variation of every operation's cost (0: deterministic) */
    double GetCostVariation() const;
    /** @return the coefficient of variation of a component's cost factor for a whole run */
    double GetInvocationVariation() const;
    /**
     * @brief Bytes a component's heap allocates for one RTI operation.
     * @param bytes size of the message the operation encodes or decodes (0 if none)
     * @return bytes allocated
     */
    double AllocationBytes(uint32_t bytes) const;
    /** @return bytes of a component's eden (0: no garbage collection) */
    double GetEdenSize() const;
    /** @return the shortest minor-collection pause */
    Time GetMinorGcPauseMin() const;
    /** @return the longest minor-collection pause */
    Time GetMinorGcPauseMax() const;
    /** @return cycles of one hand-off between two threads of a component */
    double ThreadHandoffCycles() const;
    /** @return the order of a turn's writes */
    WriteOrder GetWriteOrder() const;
    /** @return how a federate on the central component's node reaches it (LocalPath) */
    LocalPath GetLocalPath() const;
    /** @return the central component's TSO bookkeeping (TsoBookkeeping) */
    TsoBookkeeping GetTsoBookkeeping() const;

  private:
    /**
     * @brief Add the attributes of the Java heap's part of an operation (allocation, the young
     * generation and its collections) to the type.
     * @param tid the type
     * @return the type
     */
    static TypeId AddMemoryAttributes(TypeId tid);
    /**
     * @brief Add the attributes of how the components' work is arranged (thread hand-offs, the
     * order of a turn's writes, the local path, the TSO bookkeeping) to the type.
     * @param tid the type
     * @return the type
     */
    static TypeId AddStructureAttributes(TypeId tid);

    DataPath m_dataPath;             //!< DataPath
    Transport m_transport;           //!< Transport
    double m_transportCycles;        //!< TransportCost
    double m_reflectTailCycles;      //!< ReflectTailCost
    double m_readCycleCycles;        //!< ReadCycleCost
    double m_shmCycles;              //!< ShmEnqueueCost
    double m_shmCyclesPerByte;       //!< ShmCopyCostPerByte
    uint32_t m_shmQueueSize;         //!< ShmQueueSize
    double m_adminCycles;            //!< AdminCost
    uint32_t m_headerSize;           //!< EncodingHeaderSize
    GaltMode m_galtMode;             //!< GaltMode
    TsoRelease m_tsoRelease;         //!< TsoRelease
    CallbackModel m_callbackModel;   //!< CallbackModel
    bool m_tcpNoDelay;               //!< TcpNoDelay
    bool m_writeBatching;            //!< WriteBatching
    uint32_t m_segmentSize;          //!< TcpSegmentSize
    uint16_t m_port;                 //!< Port
    uint16_t m_udpPort;              //!< UdpPort
    double m_callCycles;             //!< CallCost
    double m_callbackCycles;         //!< CallbackCost
    double m_encodeCycles;           //!< EncodeCost
    double m_encodeCyclesPerByte;    //!< EncodeCostPerByte
    double m_decodeCycles;           //!< DecodeCost
    double m_decodeCyclesPerByte;    //!< DecodeCostPerByte
    double m_routeCycles;            //!< RouteCost
    double m_tmCycles;               //!< TimeManagementCost
    double m_tmCyclesPerFederate;    //!< TimeManagementCostPerFederate
    double m_costVariation;          //!< CostVariation
    double m_invocationVariation;    //!< InvocationVariation
    double m_allocPerOperation;      //!< AllocationPerOperation
    double m_allocPerByte;           //!< AllocationPerByte
    double m_edenSize;               //!< EdenSize
    Time m_gcPauseMin;               //!< MinorGcPauseMin
    Time m_gcPauseMax;               //!< MinorGcPauseMax
    double m_handoffCycles;          //!< ThreadHandoffCost
    WriteOrder m_writeOrder;         //!< WriteOrder
    LocalPath m_localPath;           //!< LocalPath
    TsoBookkeeping m_tsoBookkeeping; //!< TsoBookkeeping
};

} // namespace ns3

#endif /* TESTBED_RTI_SETTINGS_H */
