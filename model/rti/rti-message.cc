/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-message.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiMessage");

NS_OBJECT_ENSURE_REGISTERED(RtiMessage);

namespace
{

/**
 * Write a double as its IEEE 754 bit pattern, big-endian.
 * @param i iterator
 * @param v value
 */
void
WriteDouble(Buffer::Iterator& i, double v)
{
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    i.WriteHtonU64(bits);
}

/**
 * Read a double written by WriteDouble.
 * @param i iterator
 * @return the value
 */
double
ReadDouble(Buffer::Iterator& i)
{
    uint64_t bits = i.ReadNtohU64();
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
}

/**
 * Write a string: 2-byte length and the characters.
 * @param i iterator
 * @param s string
 */
void
WriteString(Buffer::Iterator& i, const std::string& s)
{
    NS_ABORT_MSG_IF(s.size() > 0xffff, "RtiMessage: string longer than 65535 bytes");
    i.WriteHtonU16(s.size());
    i.Write(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

/**
 * Read a string written by WriteString.
 * @param i iterator
 * @return the string
 */
std::string
ReadString(Buffer::Iterator& i)
{
    uint16_t n = i.ReadNtohU16();
    std::string s(n, '\0');
    i.Read(reinterpret_cast<uint8_t*>(s.data()), n);
    return s;
}

/**
 * Write bytes with a 4-byte length.
 * @param i iterator
 * @param b bytes
 */
void
WriteBytes(Buffer::Iterator& i, const std::vector<uint8_t>& b)
{
    i.WriteHtonU32(b.size());
    if (!b.empty())
    {
        i.Write(b.data(), b.size());
    }
}

/**
 * Read bytes written by WriteBytes.
 * @param i iterator
 * @return the bytes
 */
std::vector<uint8_t>
ReadBytes(Buffer::Iterator& i)
{
    uint32_t n = i.ReadNtohU32();
    std::vector<uint8_t> b(n);
    if (n > 0)
    {
        i.Read(b.data(), n);
    }
    return b;
}

/**
 * Size of a value map.
 * @param m map
 * @return bytes
 */
uint32_t
MapSize(const HandleValueMap& m)
{
    uint32_t s = 4;
    for (const auto& [h, v] : m)
    {
        s += 8 + v.size();
    }
    return s;
}

} // namespace

RtiMessage::RtiMessage()
    : RtiMessage(INVALID)
{
}

RtiMessage::RtiMessage(Type type)
    : m_type(type)
    , m_flags(0)
    , m_headerSize(CORE_HEADER_SIZE)
    , m_source(0)
    , m_serial(0)
{
}

TypeId
RtiMessage::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RtiMessage")
                            .SetParent<Header>()
                            .SetGroupName("Testbed")
                            .AddConstructor<RtiMessage>();
    return tid;
}

TypeId
RtiMessage::GetInstanceTypeId() const
{
    return GetTypeId();
}

const char*
RtiMessage::TypeName(Type type)
{
    static const char* const names[] = {"INVALID",
                                        "JOIN",
                                        "JOIN_RESPONSE",
                                        "RESIGN",
                                        "PUBLISH_OBJECT_CLASS",
                                        "UNPUBLISH_OBJECT_CLASS",
                                        "SUBSCRIBE_OBJECT_CLASS",
                                        "UNSUBSCRIBE_OBJECT_CLASS",
                                        "PUBLISH_INTERACTION",
                                        "UNPUBLISH_INTERACTION",
                                        "SUBSCRIBE_INTERACTION",
                                        "UNSUBSCRIBE_INTERACTION",
                                        "REGISTER_OBJECT",
                                        "DISCOVER_OBJECT",
                                        "UPDATE_ATTRIBUTES",
                                        "REFLECT_ATTRIBUTES",
                                        "SEND_INTERACTION",
                                        "RECEIVE_INTERACTION",
                                        "ENABLE_TIME_REGULATION",
                                        "TIME_REGULATION_ENABLED",
                                        "DISABLE_TIME_REGULATION",
                                        "ENABLE_TIME_CONSTRAINED",
                                        "TIME_CONSTRAINED_ENABLED",
                                        "DISABLE_TIME_CONSTRAINED",
                                        "MODIFY_LOOKAHEAD",
                                        "TIME_ADVANCE_REQUEST",
                                        "TIME_ADVANCE_GRANT",
                                        "NULL_MESSAGE",
                                        "REGISTER_SYNC_POINT",
                                        "ANNOUNCE_SYNC_POINT",
                                        "SYNC_POINT_ACHIEVED",
                                        "FEDERATION_SYNCHRONIZED"};
    static_assert(sizeof(names) / sizeof(names[0]) == TYPE_COUNT, "type names");
    return type < TYPE_COUNT ? names[type] : "UNKNOWN";
}

uint32_t
RtiMessage::PeekLength(const uint8_t* b)
{
    return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
}

RtiMessage::Type
RtiMessage::GetType() const
{
    return m_type;
}

void
RtiMessage::SetType(Type type)
{
    m_type = type;
}

uint8_t
RtiMessage::GetHeaderSize() const
{
    return m_headerSize;
}

void
RtiMessage::SetHeaderSize(uint32_t size)
{
    NS_ABORT_MSG_IF(size < CORE_HEADER_SIZE || size > 255,
                    "RtiMessage: header size " << size << " outside 16..255 bytes");
    m_headerSize = size;
}

FederateHandle
RtiMessage::GetSource() const
{
    return m_source;
}

void
RtiMessage::SetSource(FederateHandle source)
{
    m_source = source;
}

uint32_t
RtiMessage::GetSerial() const
{
    return m_serial;
}

void
RtiMessage::SetSerial(uint32_t serial)
{
    m_serial = serial;
}

uint8_t
RtiMessage::GetFlags() const
{
    return m_flags;
}

void
RtiMessage::SetFlags(uint8_t flags)
{
    m_flags = flags;
}

bool
RtiMessage::IsTso() const
{
    return m_flags & FLAG_TSO;
}

AdvanceKind
RtiMessage::GetAdvanceKind() const
{
    return static_cast<AdvanceKind>((m_flags & KIND_MASK) >> KIND_SHIFT);
}

void
RtiMessage::SetAdvanceKind(AdvanceKind kind)
{
    m_flags = (m_flags & ~KIND_MASK) | ((static_cast<uint8_t>(kind) << KIND_SHIFT) & KIND_MASK);
}

uint32_t
RtiMessage::BodySize() const
{
    switch (m_type)
    {
        case JOIN:
            return 4 + 6 + name.size() + name2.size() + name3.size();
        case JOIN_RESPONSE:
            return 4;
        case RESIGN:
        case DISABLE_TIME_REGULATION:
        case ENABLE_TIME_CONSTRAINED:
        case DISABLE_TIME_CONSTRAINED:
            return 0;
        case PUBLISH_OBJECT_CLASS:
        case UNPUBLISH_OBJECT_CLASS:
        case SUBSCRIBE_OBJECT_CLASS:
        case UNSUBSCRIBE_OBJECT_CLASS:
            return 8 + 4 * handles.size();
        case PUBLISH_INTERACTION:
        case UNPUBLISH_INTERACTION:
        case SUBSCRIBE_INTERACTION:
        case UNSUBSCRIBE_INTERACTION:
            return 4;
        case REGISTER_OBJECT:
        case DISCOVER_OBJECT:
            return 10 + name.size();
        case UPDATE_ATTRIBUTES:
        case REFLECT_ATTRIBUTES:
        case SEND_INTERACTION:
        case RECEIVE_INTERACTION:
            return 4 + (IsTso() ? 8 : 0) + MapSize(values) + 4 + tag.size();
        case ENABLE_TIME_REGULATION:
        case MODIFY_LOOKAHEAD:
        case TIME_REGULATION_ENABLED:
        case TIME_CONSTRAINED_ENABLED:
        case TIME_ADVANCE_REQUEST:
        case TIME_ADVANCE_GRANT:
        case NULL_MESSAGE:
            return 8;
        case REGISTER_SYNC_POINT:
        case ANNOUNCE_SYNC_POINT:
            return 2 + name.size() + 4 + tag.size();
        case SYNC_POINT_ACHIEVED:
        case FEDERATION_SYNCHRONIZED:
            return 2 + name.size();
        default:
            NS_FATAL_ERROR("RtiMessage: cannot size a message of type " << +m_type);
    }
    return 0;
}

uint32_t
RtiMessage::GetSerializedSize() const
{
    return m_headerSize + BodySize();
}

void
RtiMessage::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU32(GetSerializedSize());
    i.WriteU8(VERSION);
    i.WriteU8(m_type);
    i.WriteU8(m_flags);
    i.WriteU8(m_headerSize);
    i.WriteHtonU32(m_source);
    i.WriteHtonU32(m_serial);
    i.WriteU8(0, m_headerSize - CORE_HEADER_SIZE);
    switch (m_type)
    {
        case JOIN:
            i.WriteHtonU32(handle);
            WriteString(i, name);
            WriteString(i, name2);
            WriteString(i, name3);
            break;
        case JOIN_RESPONSE:
            i.WriteHtonU32(handle);
            break;
        case PUBLISH_OBJECT_CLASS:
        case UNPUBLISH_OBJECT_CLASS:
        case SUBSCRIBE_OBJECT_CLASS:
        case UNSUBSCRIBE_OBJECT_CLASS:
            i.WriteHtonU32(handle);
            i.WriteHtonU32(handles.size());
            for (uint32_t h : handles)
            {
                i.WriteHtonU32(h);
            }
            break;
        case PUBLISH_INTERACTION:
        case UNPUBLISH_INTERACTION:
        case SUBSCRIBE_INTERACTION:
        case UNSUBSCRIBE_INTERACTION:
            i.WriteHtonU32(handle);
            break;
        case REGISTER_OBJECT:
        case DISCOVER_OBJECT:
            i.WriteHtonU32(handle);
            i.WriteHtonU32(handle2);
            WriteString(i, name);
            break;
        case UPDATE_ATTRIBUTES:
        case REFLECT_ATTRIBUTES:
        case SEND_INTERACTION:
        case RECEIVE_INTERACTION:
            i.WriteHtonU32(handle);
            if (IsTso())
            {
                WriteDouble(i, time);
            }
            i.WriteHtonU32(values.size());
            for (const auto& [h, v] : values)
            {
                i.WriteHtonU32(h);
                WriteBytes(i, v);
            }
            WriteBytes(i, tag);
            break;
        case ENABLE_TIME_REGULATION:
        case MODIFY_LOOKAHEAD:
        case TIME_REGULATION_ENABLED:
        case TIME_CONSTRAINED_ENABLED:
        case TIME_ADVANCE_REQUEST:
        case TIME_ADVANCE_GRANT:
        case NULL_MESSAGE:
            WriteDouble(i, time);
            break;
        case REGISTER_SYNC_POINT:
        case ANNOUNCE_SYNC_POINT:
            WriteString(i, name);
            WriteBytes(i, tag);
            break;
        case SYNC_POINT_ACHIEVED:
        case FEDERATION_SYNCHRONIZED:
            WriteString(i, name);
            break;
        default:
            break;
    }
}

uint32_t
RtiMessage::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    uint32_t length = i.ReadNtohU32();
    uint8_t version = i.ReadU8();
    NS_ABORT_MSG_IF(version != VERSION, "RtiMessage: unknown protocol version " << +version);
    m_type = static_cast<Type>(i.ReadU8());
    NS_ABORT_MSG_IF(m_type == INVALID || m_type >= TYPE_COUNT,
                    "RtiMessage: unknown message type " << +m_type);
    m_flags = i.ReadU8();
    m_headerSize = i.ReadU8();
    NS_ABORT_MSG_IF(m_headerSize < CORE_HEADER_SIZE,
                    "RtiMessage: header size " << +m_headerSize << " < 16");
    m_source = i.ReadNtohU32();
    m_serial = i.ReadNtohU32();
    i.Next(m_headerSize - CORE_HEADER_SIZE);
    values.clear();
    handles.clear();
    tag.clear();
    switch (m_type)
    {
        case JOIN:
            handle = i.ReadNtohU32();
            name = ReadString(i);
            name2 = ReadString(i);
            name3 = ReadString(i);
            break;
        case JOIN_RESPONSE:
            handle = i.ReadNtohU32();
            break;
        case PUBLISH_OBJECT_CLASS:
        case UNPUBLISH_OBJECT_CLASS:
        case SUBSCRIBE_OBJECT_CLASS:
        case UNSUBSCRIBE_OBJECT_CLASS: {
            handle = i.ReadNtohU32();
            uint32_t n = i.ReadNtohU32();
            handles.resize(n);
            for (uint32_t k = 0; k < n; ++k)
            {
                handles[k] = i.ReadNtohU32();
            }
            break;
        }
        case PUBLISH_INTERACTION:
        case UNPUBLISH_INTERACTION:
        case SUBSCRIBE_INTERACTION:
        case UNSUBSCRIBE_INTERACTION:
            handle = i.ReadNtohU32();
            break;
        case REGISTER_OBJECT:
        case DISCOVER_OBJECT:
            handle = i.ReadNtohU32();
            handle2 = i.ReadNtohU32();
            name = ReadString(i);
            break;
        case UPDATE_ATTRIBUTES:
        case REFLECT_ATTRIBUTES:
        case SEND_INTERACTION:
        case RECEIVE_INTERACTION: {
            handle = i.ReadNtohU32();
            if (IsTso())
            {
                time = ReadDouble(i);
            }
            uint32_t n = i.ReadNtohU32();
            for (uint32_t k = 0; k < n; ++k)
            {
                uint32_t h = i.ReadNtohU32();
                values[h] = ReadBytes(i);
            }
            tag = ReadBytes(i);
            break;
        }
        case ENABLE_TIME_REGULATION:
        case MODIFY_LOOKAHEAD:
        case TIME_REGULATION_ENABLED:
        case TIME_CONSTRAINED_ENABLED:
        case TIME_ADVANCE_REQUEST:
        case TIME_ADVANCE_GRANT:
        case NULL_MESSAGE:
            time = ReadDouble(i);
            break;
        case REGISTER_SYNC_POINT:
        case ANNOUNCE_SYNC_POINT:
            name = ReadString(i);
            tag = ReadBytes(i);
            break;
        case SYNC_POINT_ACHIEVED:
        case FEDERATION_SYNCHRONIZED:
            name = ReadString(i);
            break;
        default:
            break;
    }
    uint32_t read = i.GetDistanceFrom(start);
    NS_ABORT_MSG_IF(read != length,
                    "RtiMessage: " << TypeName(m_type) << " length field " << length
                                   << " but body decoded to " << read << " bytes");
    return read;
}

void
RtiMessage::Print(std::ostream& os) const
{
    os << TypeName(m_type) << " src=" << m_source << " serial=" << m_serial
       << " size=" << GetSerializedSize();
    switch (m_type)
    {
        case UPDATE_ATTRIBUTES:
        case REFLECT_ATTRIBUTES:
        case SEND_INTERACTION:
        case RECEIVE_INTERACTION:
            os << " handle=" << handle << (IsTso() ? " TSO t=" : " RO") << (IsTso() ? time : 0.0)
               << " values=" << values.size();
            break;
        case TIME_ADVANCE_REQUEST:
            os << " kind=" << +static_cast<uint8_t>(GetAdvanceKind()) << " t=" << time;
            break;
        case TIME_ADVANCE_GRANT:
        case ENABLE_TIME_REGULATION:
        case MODIFY_LOOKAHEAD:
        case TIME_REGULATION_ENABLED:
        case TIME_CONSTRAINED_ENABLED:
            os << " t=" << time;
            break;
        case NULL_MESSAGE:
            os << " bound=" << time << ((m_flags & FLAG_OPEN) ? "+" : "")
               << ((m_flags & FLAG_REGULATING) ? "" : " (withdrawn)");
            break;
        default:
            if (!name.empty())
            {
                os << " name=" << name;
            }
            break;
    }
}

} // namespace ns3
