/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-settings.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiSettings");

NS_OBJECT_ENSURE_REGISTERED(RtiSettings);

TypeId
RtiSettings::AddMemoryAttributes(TypeId tid)
{
    // The Java heap's part of an operation: allocation, the young generation, its collections.
    return tid
        .AddAttribute("AllocationPerOperation",
                      "Bytes a component's Java heap allocates per RTI operation (message "
                      "objects, handle-value maps, logical times, callback records). With "
                      "EdenSize, minor garbage collections follow from the allocation.",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&RtiSettings::m_allocPerOperation),
                      MakeDoubleChecker<double>(0.0, 1e7))
        .AddAttribute("AllocationPerByte",
                      "Bytes allocated per byte of a message encoded or decoded (its "
                      "buffer copies).",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&RtiSettings::m_allocPerByte),
                      MakeDoubleChecker<double>(0.0, 100.0))
        .AddAttribute("EdenSize",
                      "Bytes of a component's young-generation allocation space (eden). "
                      "Every component is its own Java VM: when its allocation since the "
                      "last minor collection reaches EdenSize, the VM stops for a minor "
                      "collection (CPU work of the component, MinorGcPauseMin..Max). Its "
                      "occupancy at start is uniform in [0, EdenSize) (what start-up "
                      "allocated is not known). 0: no garbage collection.",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&RtiSettings::m_edenSize),
                      MakeDoubleChecker<double>(0.0, 1e10))
        .AddAttribute("MinorGcPauseMin",
                      "Shortest pause of one minor collection (uniform between Min and Max).",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&RtiSettings::m_gcPauseMin),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("MinorGcPauseMax",
                      "Longest pause of one minor collection.",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&RtiSettings::m_gcPauseMax),
                      MakeTimeChecker(Time(0)));
}

TypeId
RtiSettings::AddStructureAttributes(TypeId tid)
{
    // How the components' work is arranged: threads, the order of writes, the local path, the
    // TSO bookkeeping.
    return tid
        .AddAttribute("ThreadHandoffCost",
                      "CPU cycles of one hand-off between two threads of a component (a "
                      "futex wake and a context switch): from the connection's reader to the "
                      "thread that handles what it read (the CRC's core, the federate's "
                      "thread waiting in evoke), once per read; and from that thread to the "
                      "I/O thread that writes a turn's output, once per turn with output. "
                      "0: one thread does everything (no hand-off cost).",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&RtiSettings::m_handoffCycles),
                      MakeDoubleChecker<double>(0.0, 1e9))
        .AddAttribute("WriteOrder",
                      "The order in which the connections of one turn are written: in "
                      "the order they were first used in the turn (FirstUsed), TCP "
                      "connections to other nodes before local ones (RemoteFirst), or "
                      "local ones first (LocalFirst). Matters where one CRC turn grants a "
                      "federate on its own node and one on another.",
                      EnumValue(FIRST_USED),
                      MakeEnumAccessor<WriteOrder>(&RtiSettings::m_writeOrder),
                      MakeEnumChecker(FIRST_USED,
                                      "FirstUsed",
                                      REMOTE_FIRST,
                                      "RemoteFirst",
                                      LOCAL_FIRST,
                                      "LocalFirst"))
        .AddAttribute("LocalPath",
                      "How a federate on the central component's node reaches it: "
                      "InMemory (the loopback's work charged as the sender's send cost, "
                      "the message readable at once) or LoopbackTcp (a TCP connection to "
                      "127.0.0.1 through the node's loopback, as between two JVMs: "
                      "segments, ACKs, Nagle as TcpNoDelay says, no UDP path).",
                      EnumValue(IN_MEMORY),
                      MakeEnumAccessor<LocalPath>(&RtiSettings::m_localPath),
                      MakeEnumChecker(IN_MEMORY, "InMemory", LOOPBACK_TCP, "LoopbackTcp"))
        .AddAttribute(
            "TsoBookkeeping",
            "What the central component keeps to know that no timestamp-order "
            "message is on its way to a federate it grants (IEEE 1516-2000 "
            "clause 8 leaves it to the RTI): None (its own routing: each TSO "
            "message is ahead of the grant on the federate's connection), Counts "
            "(each time advance request carries its federate's sent and received "
            "TSO counts, 8 bytes more, checked against the CRC's) or ReadNotes "
            "(the federate notes each TSO message it reads to the CRC, which "
            "grants it only when every one stamped at or before the grant is "
            "noted).",
            EnumValue(TSO_NONE),
            MakeEnumAccessor<TsoBookkeeping>(&RtiSettings::m_tsoBookkeeping),
            MakeEnumChecker(TSO_NONE, "None", TSO_COUNTS, "Counts", TSO_READ_NOTES, "ReadNotes"));
}

TypeId
RtiSettings::GetTypeId()
{
    static TypeId tid
        = AddStructureAttributes(
              AddMemoryAttributes(
                  TypeId("ns3::RtiSettings")
                      .SetParent<Object>()
                      .SetGroupName("Testbed")
                      .AddConstructor<RtiSettings>()
                      .AddAttribute(
                          "EncodingHeaderSize",
                          "Bytes of the encoding header of every RTI message (16 bytes of fixed "
                          "fields plus opaque bytes; see RtiMessage). Calibrated, see doc/rti.rst.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RtiSettings::m_headerSize),
                          MakeUintegerChecker<uint32_t>(RtiMessage::CORE_HEADER_SIZE, 255))
                      .AddAttribute(
                          "GaltMode",
                          "GALT computed centrally by the CRC (Central) or by every local RTI "
                          "component from null messages (NullMessages).",
                          EnumValue(CENTRAL),
                          MakeEnumAccessor<GaltMode>(&RtiSettings::m_galtMode),
                          MakeEnumChecker(CENTRAL, "Central", NULL_MESSAGES, "NullMessages"))
                      .AddAttribute(
                          "TsoRelease",
                          "When a constrained federate gets its TSO messages during a TAR/TARA: "
                          "all just before the grant (AtGrant), or each as soon as GALT has "
                          "passed its timestamp (WhenGuaranteed; IEEE 1516 allows both).",
                          EnumValue(AT_GRANT),
                          MakeEnumAccessor<TsoRelease>(&RtiSettings::m_tsoRelease),
                          MakeEnumChecker(AT_GRANT, "AtGrant", WHEN_GUARANTEED, "WhenGuaranteed"))
                      .AddAttribute(
                          "CallbackModel",
                          "Callbacks delivered at once (Immediate) or queued in the local "
                          "component until the federate evokes them (Evoked: IEEE 1516-2000, "
                          "evokeCallback / evokeMultipleCallbacks).",
                          EnumValue(IMMEDIATE),
                          MakeEnumAccessor<CallbackModel>(&RtiSettings::m_callbackModel),
                          MakeEnumChecker(IMMEDIATE, "Immediate", EVOKED, "Evoked"))
                      .AddAttribute(
                          "TcpNoDelay",
                          "Disable the Nagle algorithm on the RTI's TCP connections (TCP_NODELAY, "
                          "as real RTIs do).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RtiSettings::m_tcpNoDelay),
                          MakeBooleanChecker())
                      .AddAttribute(
                          "WriteBatching",
                          "Messages are written by an I/O thread: what the process queued while "
                          "it ran goes out in one system call (per connection) once the process "
                          "has done its queued work (on a uniprocessor the I/O thread runs when "
                          "the RTI's or federate's thread blocks). False: every message is "
                          "written by its own call as soon as it is encoded.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RtiSettings::m_writeBatching),
                          MakeBooleanChecker())
                      .AddAttribute(
                          "TcpSegmentSize",
                          "TCP maximum segment size of the RTI's connections in bytes (Ethernet "
                          "MTU 1500 - 20 IP - 20 TCP - 12 timestamp option = 1448).",
                          UintegerValue(1448),
                          MakeUintegerAccessor(&RtiSettings::m_segmentSize),
                          MakeUintegerChecker<uint32_t>(64, 65495))
                      .AddAttribute("Port",
                                    "TCP port of the CRC.",
                                    UintegerValue(8989),
                                    MakeUintegerAccessor(&RtiSettings::m_port),
                                    MakeUintegerChecker<uint16_t>(1, 65535))
                      .AddAttribute("UdpPort",
                                    "UDP port of the best-effort path (CRC and local components).",
                                    UintegerValue(8990),
                                    MakeUintegerAccessor(&RtiSettings::m_udpPort),
                                    MakeUintegerChecker<uint16_t>(1, 65535))
                      .AddAttribute(
                          "CallCost",
                          "CPU cycles of one RTI ambassador call in the local RTI component "
                          "(argument checks, state, bookkeeping), message encoding excluded.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RtiSettings::m_callCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
                      .AddAttribute(
                          "CallbackCost",
                          "CPU cycles of one federate ambassador callback (dispatch into the "
                          "federate's code).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RtiSettings::m_callbackCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
                      .AddAttribute("EncodeCost",
                                    "CPU cycles to encode one message.",
                                    DoubleValue(0.0),
                                    MakeDoubleAccessor(&RtiSettings::m_encodeCycles),
                                    MakeDoubleChecker<double>(0.0, 1e9))
                      .AddAttribute("EncodeCostPerByte",
                                    "CPU cycles per byte of an encoded message.",
                                    DoubleValue(0.0),
                                    MakeDoubleAccessor(&RtiSettings::m_encodeCyclesPerByte),
                                    MakeDoubleChecker<double>(0.0, 1e6))
                      .AddAttribute("DecodeCost",
                                    "CPU cycles to decode one message.",
                                    DoubleValue(0.0),
                                    MakeDoubleAccessor(&RtiSettings::m_decodeCycles),
                                    MakeDoubleChecker<double>(0.0, 1e9))
                      .AddAttribute("DecodeCostPerByte",
                                    "CPU cycles per byte of a decoded message.",
                                    DoubleValue(0.0),
                                    MakeDoubleAccessor(&RtiSettings::m_decodeCyclesPerByte),
                                    MakeDoubleChecker<double>(0.0, 1e6))
                      .AddAttribute(
                          "RouteCost",
                          "CPU cycles of one CRC routing step: finding the receivers of one "
                          "message (per message, not per receiver).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RtiSettings::m_routeCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
                      .AddAttribute(
                          "TimeManagementCost",
                          "CPU cycles of one time-management evaluation (a GALT computation with "
                          "the grant checks), fixed part.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RtiSettings::m_tmCycles),
                          MakeDoubleChecker<double>(0.0, 1e9))
                      .AddAttribute("TimeManagementCostPerFederate",
                                    "CPU cycles of one time-management evaluation per time-managed "
                                    "federate.",
                                    DoubleValue(0.0),
                                    MakeDoubleAccessor(&RtiSettings::m_tmCyclesPerFederate),
                                    MakeDoubleChecker<double>(0.0, 1e9))
                      .AddAttribute(
                          "CostVariation",
                          "Coefficient of variation of every RTI operation's cost (CallCost, "
                          "CallbackCost, EncodeCost, DecodeCost, RouteCost, TimeManagementCost "
                          "and their per-byte and per-federate terms): each operation takes its "
                          "cost times a gamma-distributed factor of mean 1 (cache and JIT "
                          "state of a Java RTI). 0: every operation costs exactly its cost.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RtiSettings::m_costVariation),
                          MakeDoubleChecker<double>(0.0, 3.0))
                      .AddAttribute(
                          "InvocationVariation",
                          "Coefficient of variation of a component's cost factor for a whole "
                          "run: every RTI operation of the component (the operations that "
                          "CostVariation varies) costs its cost times one gamma-distributed "
                          "factor of mean 1, drawn at its first operation (a Java RTI: one "
                          "VM invocation's compilation plan and code and heap layout). 0: "
                          "every run of the component costs the same on average.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RtiSettings::m_invocationVariation),
                          MakeDoubleChecker<double>(0.0, 1.0))))
              .AddAttribute("DataPath",
                            "Where updates travel: ViaCrc (through the central RTI component, "
                            "RtiAmbassador) or Direct (local component to local component, "
                            "RtiLrc, with an RtiFedex for federation management).",
                            EnumValue(VIA_CRC),
                            MakeEnumAccessor<DataPath>(&RtiSettings::m_dataPath),
                            MakeEnumChecker(VIA_CRC, "ViaCrc", DIRECT, "Direct"))
              .AddAttribute("Transport",
                            "Transport of the direct data path.",
                            EnumValue(UDP),
                            MakeEnumAccessor<Transport>(&RtiSettings::m_transport),
                            MakeEnumChecker(UDP, "Udp", TCP, "Tcp", SHARED_MEMORY, "SharedMemory"))
              .AddAttribute("TransportCost",
                            "Cycles of the RTI's lowest layer per message sent and per message "
                            "received (buffer management, sequencing; direct path).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&RtiSettings::m_transportCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("ReflectTailCost",
                            "Cycles of the RTI's own read-side work after each reflect callback "
                            "returns (off the message's latency, on the reader's throughput; "
                            "direct path). Charged to readers only: the operating system's "
                            "off-path work is the host's (SendOffPathCost, RecvOffPathCost).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&RtiSettings::m_reflectTailCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("ReadCycleCost",
                            "Cycles of the RTI's own tick, once per read cycle however many "
                            "messages the cycle delivered (direct path). The owner's work per "
                            "cycle (an RCI Update action: RciFederate ActionCost) and the "
                            "operating system's (the read that finds the queue empty, the "
                            "blocking wait: HostPlatform SyscallCost, WaitCost) come on top. "
                            "Messages arriving meanwhile are read in the next cycle, without a "
                            "wake-up; a reader that falls behind reads in bursts and pays the "
                            "cycle once per burst.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&RtiSettings::m_readCycleCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("ShmEnqueueCost",
                            "Cycles of the RTI to put one message on one shared-memory queue: "
                            "lock and slot bookkeeping (shared-memory transport; the semaphore "
                            "post is a system call, the host's SyscallCost).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&RtiSettings::m_shmCycles),
                            MakeDoubleChecker<double>(0.0, 1e9))
              .AddAttribute("ShmCopyCostPerByte",
                            "Cycles per byte copied into a shared-memory queue (one copy per "
                            "interested receiver).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&RtiSettings::m_shmCyclesPerByte),
                            MakeDoubleChecker<double>(0.0, 1e6))
              .AddAttribute("ShmQueueSize",
                            "Messages a shared-memory queue holds; a message for a full queue is "
                            "lost (counted).",
                            UintegerValue(256),
                            MakeUintegerAccessor(&RtiSettings::m_shmQueueSize),
                            MakeUintegerChecker<uint32_t>(1, 1u << 20))
              .AddAttribute("AdminCost",
                            "Cycles of one federation-management operation (join, publish, "
                            "subscribe) in the Fedex and in the local component (direct path).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&RtiSettings::m_adminCycles),
                            MakeDoubleChecker<double>(0.0, 1e10));
    return tid;
}

RtiSettings::RtiSettings()
    : m_dataPath(VIA_CRC)
    , m_transport(UDP)
    , m_transportCycles(0)
    , m_reflectTailCycles(0)
    , m_shmCycles(0)
    , m_shmCyclesPerByte(0)
    , m_shmQueueSize(256)
    , m_adminCycles(0)
    , m_headerSize(RtiMessage::CORE_HEADER_SIZE)
    , m_galtMode(CENTRAL)
    , m_tsoRelease(AT_GRANT)
    , m_callbackModel(IMMEDIATE)
    , m_tcpNoDelay(true)
    , m_writeBatching(false)
    , m_segmentSize(1448)
    , m_port(8989)
    , m_udpPort(8990)
    , m_callCycles(0)
    , m_callbackCycles(0)
    , m_encodeCycles(0)
    , m_encodeCyclesPerByte(0)
    , m_decodeCycles(0)
    , m_decodeCyclesPerByte(0)
    , m_routeCycles(0)
    , m_tmCycles(0)
    , m_tmCyclesPerFederate(0)
    , m_costVariation(0)
    , m_invocationVariation(0)
    , m_allocPerOperation(0)
    , m_allocPerByte(0)
    , m_edenSize(0)
    , m_gcPauseMin(Time(0))
    , m_gcPauseMax(Time(0))
    , m_handoffCycles(0)
    , m_writeOrder(FIRST_USED)
    , m_localPath(IN_MEMORY)
    , m_tsoBookkeeping(TSO_NONE)
{
}

RtiSettings::DataPath
RtiSettings::GetDataPath() const
{
    return m_dataPath;
}

RtiSettings::Transport
RtiSettings::GetTransport() const
{
    return m_transport;
}

double
RtiSettings::TransportCycles() const
{
    return m_transportCycles;
}

double
RtiSettings::ReflectTailCycles() const
{
    return m_reflectTailCycles;
}

double
RtiSettings::ReadCycleCycles() const
{
    return m_readCycleCycles;
}

double
RtiSettings::ShmEnqueueCycles(uint32_t bytes) const
{
    return m_shmCycles + m_shmCyclesPerByte * bytes;
}

uint32_t
RtiSettings::GetShmQueueSize() const
{
    return m_shmQueueSize;
}

double
RtiSettings::AdminCycles() const
{
    return m_adminCycles;
}

RtiMessage
RtiSettings::NewMessage(RtiMessage::Type type) const
{
    RtiMessage m(type);
    m.SetHeaderSize(m_headerSize);
    return m;
}

uint32_t
RtiSettings::GetHeaderSize() const
{
    return m_headerSize;
}

RtiSettings::GaltMode
RtiSettings::GetGaltMode() const
{
    return m_galtMode;
}

RtiSettings::TsoRelease
RtiSettings::GetTsoRelease() const
{
    return m_tsoRelease;
}

RtiSettings::CallbackModel
RtiSettings::GetCallbackModel() const
{
    return m_callbackModel;
}

bool
RtiSettings::GetTcpNoDelay() const
{
    return m_tcpNoDelay;
}

bool
RtiSettings::GetWriteBatching() const
{
    return m_writeBatching;
}

uint32_t
RtiSettings::GetTcpSegmentSize() const
{
    return m_segmentSize;
}

uint16_t
RtiSettings::GetPort() const
{
    return m_port;
}

uint16_t
RtiSettings::GetUdpPort() const
{
    return m_udpPort;
}

double
RtiSettings::EncodeCycles(uint32_t bytes) const
{
    return m_encodeCycles + m_encodeCyclesPerByte * bytes;
}

double
RtiSettings::DecodeCycles(uint32_t bytes) const
{
    return m_decodeCycles + m_decodeCyclesPerByte * bytes;
}

double
RtiSettings::CallCycles() const
{
    return m_callCycles;
}

double
RtiSettings::CallbackCycles() const
{
    return m_callbackCycles;
}

double
RtiSettings::RouteCycles() const
{
    return m_routeCycles;
}

double
RtiSettings::TimeManagementCycles(uint32_t federates) const
{
    return m_tmCycles + m_tmCyclesPerFederate * federates;
}

double
RtiSettings::GetCostVariation() const
{
    return m_costVariation;
}

double
RtiSettings::GetInvocationVariation() const
{
    return m_invocationVariation;
}

double
RtiSettings::AllocationBytes(uint32_t bytes) const
{
    return m_allocPerOperation + m_allocPerByte * bytes;
}

double
RtiSettings::GetEdenSize() const
{
    return m_edenSize;
}

Time
RtiSettings::GetMinorGcPauseMin() const
{
    return m_gcPauseMin;
}

Time
RtiSettings::GetMinorGcPauseMax() const
{
    return m_gcPauseMax;
}

double
RtiSettings::ThreadHandoffCycles() const
{
    return m_handoffCycles;
}

RtiSettings::WriteOrder
RtiSettings::GetWriteOrder() const
{
    return m_writeOrder;
}

RtiSettings::TsoBookkeeping
RtiSettings::GetTsoBookkeeping() const
{
    return m_tsoBookkeeping;
}

RtiSettings::LocalPath
RtiSettings::GetLocalPath() const
{
    return m_localPath;
}

} // namespace ns3
