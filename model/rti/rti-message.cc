/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rti-message.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <cmath>
#include <cstring>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RtiMessage");

NS_OBJECT_ENSURE_REGISTERED(RtiMessage);

namespace
{

/**
 * Writes the encoding (big-endian) into a flat byte array.
 */
class FlatWriter
{
  public:
    /**
     * @param out where to write (room for the whole message)
     */
    explicit FlatWriter(uint8_t* out)
        : m_p(out)
    {
    }

    /** @param v value */
    void U8(uint8_t v)
    {
        *m_p++ = v;
    }

    /** @param v value */
    void U16(uint16_t v)
    {
        U8(v >> 8);
        U8(v & 0xff);
    }

    /** @param v value */
    void U32(uint32_t v)
    {
        U16(v >> 16);
        U16(v & 0xffff);
    }

    /** @param v value */
    void U64(uint64_t v)
    {
        U32(v >> 32);
        U32(v & 0xffffffff);
    }

    /**
     * @param n number of zero bytes
     */
    void Zeros(uint32_t n)
    {
        std::memset(m_p, 0, n);
        m_p += n;
    }

    /**
     * @param b bytes
     * @param n number of bytes
     */
    void Bytes(const uint8_t* b, uint32_t n)
    {
        if (n > 0)
        {
            std::memcpy(m_p, b, n);
            m_p += n;
        }
    }

    /** @return the position after the last byte written */
    const uint8_t* Position() const
    {
        return m_p;
    }

  private:
    uint8_t* m_p; //!< position
};

/**
 * Reads the encoding from a flat byte array. Reading past its end does not read: the reader
 * remembers the failure (Ok() turns false), later reads return zeros, and the decoder stops; the
 * caller decides whether that is fatal (a message the module encoded itself) or a malformed
 * input to count and drop (a datagram or a stream from the network).
 */
class FlatReader
{
  public:
    /**
     * @param data the bytes
     * @param size their number
     */
    FlatReader(const uint8_t* data, uint32_t size)
        : m_start(data)
        , m_p(data)
        , m_end(data + size)
    {
    }

    /** @return whether every read so far had its bytes */
    bool Ok() const
    {
        return m_ok;
    }

    /** @return value (0 past the end) */
    uint8_t U8()
    {
        if (!Need(1))
        {
            return 0;
        }
        return *m_p++;
    }

    /** @return value (0 past the end) */
    uint16_t U16()
    {
        if (!Need(2))
        {
            return 0;
        }
        uint16_t v = (uint16_t(m_p[0]) << 8) | m_p[1];
        m_p += 2;
        return v;
    }

    /** @return value (0 past the end) */
    uint32_t U32()
    {
        if (!Need(4))
        {
            return 0;
        }
        uint32_t v = (uint32_t(m_p[0]) << 24) | (uint32_t(m_p[1]) << 16) | (uint32_t(m_p[2]) << 8)
                     | m_p[3];
        m_p += 4;
        return v;
    }

    /** @return value */
    uint64_t U64()
    {
        uint64_t hi = U32();
        return (hi << 32) | U32();
    }

    /**
     * @param n bytes to skip
     */
    void Skip(uint32_t n)
    {
        if (Need(n))
        {
            m_p += n;
        }
    }

    /**
     * Read bytes into a container (replacing its contents, without filling it first).
     * @param c a string or byte vector
     * @param n number of bytes
     */
    template<class C>
    void Assign(C& c, uint32_t n)
    {
        if (!Need(n))
        {
            c.clear();
            return;
        }
        auto first = reinterpret_cast<const typename C::value_type*>(m_p);
        c.assign(first, first + n);
        m_p += n;
    }

    /** @return bytes read so far */
    uint32_t Read() const
    {
        return m_p - m_start;
    }

    /**
     * Whether n more bytes are there (checked before allocating room for them); if not, the
     * reader fails.
     * @param n number of bytes about to be read
     * @return whether they are there
     */
    bool Expect(uint64_t n)
    {
        return Need(n);
    }

  private:
    /**
     * Whether n more bytes are there; if not, the reader fails.
     * @param n number of bytes
     * @return whether they are there
     */
    bool Need(uint64_t n)
    {
        if (!m_ok || n > static_cast<uint64_t>(m_end - m_p))
        {
            m_ok = false;
            return false;
        }
        return true;
    }

    const uint8_t* m_start; //!< first byte
    const uint8_t* m_p;     //!< position
    const uint8_t* m_end;   //!< past the last byte
    bool m_ok{true};        //!< no read has failed
};

/**
 * Write a double as its IEEE 754 bit pattern, big-endian.
 * @param w writer
 * @param v value
 */
void
WriteDouble(FlatWriter& w, double v)
{
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    w.U64(bits);
}

/**
 * Read a double written by WriteDouble.
 * @param r reader
 * @return the value
 */
double
ReadDouble(FlatReader& r)
{
    uint64_t bits = r.U64();
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
}

/**
 * Write a string: 2-byte length and the characters.
 * @param w writer
 * @param s string
 */
void
WriteString(FlatWriter& w, const std::string& s)
{
    NS_ABORT_MSG_IF(s.size() > 0xffff, "RtiMessage: string longer than 65535 bytes");
    w.U16(s.size());
    w.Bytes(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

/**
 * Read a string written by WriteString.
 * @param r reader
 * @return the string
 */
std::string
ReadString(FlatReader& r)
{
    uint16_t n = r.U16();
    std::string s;
    r.Assign(s, n);
    return s;
}

/**
 * Write bytes with a 4-byte length.
 * @param w writer
 * @param b bytes
 */
void
WriteBytes(FlatWriter& w, const std::vector<uint8_t>& b)
{
    w.U32(b.size());
    w.Bytes(b.data(), b.size());
}

/**
 * Read bytes written by WriteBytes.
 * @param r reader
 * @param b where to put them
 */
void
ReadBytes(FlatReader& r, std::vector<uint8_t>& b)
{
    uint32_t n = r.U32();
    r.Assign(b, n);
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
                                        "FEDERATION_SYNCHRONIZED",
                                        "TSO_NOTE_SENT",
                                        "TSO_NOTE_READ"};
    static_assert(sizeof(names) / sizeof(names[0]) == TYPE_COUNT, "type names");
    return type < TYPE_COUNT ? names[type] : "UNKNOWN";
}

uint32_t
RtiMessage::PeekLength(const uint8_t* b)
{
    return FlatReader(b, 4).U32();
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
        case TIME_ADVANCE_REQUEST:
            return (m_flags & FLAG_COUNTS) ? 16 : 8;
        case ENABLE_TIME_REGULATION:
        case MODIFY_LOOKAHEAD:
        case TIME_REGULATION_ENABLED:
        case TIME_CONSTRAINED_ENABLED:
        case TIME_ADVANCE_GRANT:
        case NULL_MESSAGE:
            return 8;
        case REGISTER_SYNC_POINT:
        case ANNOUNCE_SYNC_POINT:
            return 2 + name.size() + 4 + tag.size();
        case SYNC_POINT_ACHIEVED:
        case FEDERATION_SYNCHRONIZED:
            return 2 + name.size();
        case TSO_NOTE_SENT:
        case TSO_NOTE_READ:
            return 12;
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
    // One encoder, the flat one, through a scratch array (RtiConnection builds its packets with
    // SerializeTo; this path serves Packet::AddHeader).
    uint32_t size = GetSerializedSize();
    std::vector<uint8_t> bytes(size);
    SerializeTo(bytes.data(), size);
    i.Write(bytes.data(), size);
}

void
RtiMessage::SerializeTo(uint8_t* out, uint32_t size) const
{
    FlatWriter w(out);
    w.U32(size);
    w.U8(VERSION);
    w.U8(m_type);
    w.U8(m_flags);
    w.U8(m_headerSize);
    w.U32(m_source);
    w.U32(m_serial);
    w.Zeros(m_headerSize - CORE_HEADER_SIZE);
    switch (m_type)
    {
        case JOIN:
            w.U32(handle);
            WriteString(w, name);
            WriteString(w, name2);
            WriteString(w, name3);
            break;
        case JOIN_RESPONSE:
            w.U32(handle);
            break;
        case PUBLISH_OBJECT_CLASS:
        case UNPUBLISH_OBJECT_CLASS:
        case SUBSCRIBE_OBJECT_CLASS:
        case UNSUBSCRIBE_OBJECT_CLASS:
            w.U32(handle);
            w.U32(handles.size());
            for (uint32_t h : handles)
            {
                w.U32(h);
            }
            break;
        case PUBLISH_INTERACTION:
        case UNPUBLISH_INTERACTION:
        case SUBSCRIBE_INTERACTION:
        case UNSUBSCRIBE_INTERACTION:
            w.U32(handle);
            break;
        case REGISTER_OBJECT:
        case DISCOVER_OBJECT:
            w.U32(handle);
            w.U32(handle2);
            WriteString(w, name);
            break;
        case UPDATE_ATTRIBUTES:
        case REFLECT_ATTRIBUTES:
        case SEND_INTERACTION:
        case RECEIVE_INTERACTION:
            w.U32(handle);
            if (IsTso())
            {
                WriteDouble(w, time);
            }
            w.U32(values.size());
            for (const auto& [h, v] : values)
            {
                w.U32(h);
                WriteBytes(w, v);
            }
            WriteBytes(w, tag);
            break;
        case TIME_ADVANCE_REQUEST:
            WriteDouble(w, time);
            if (m_flags & FLAG_COUNTS)
            {
                w.U32(handle);
                w.U32(handle2);
            }
            break;
        case ENABLE_TIME_REGULATION:
        case MODIFY_LOOKAHEAD:
        case TIME_REGULATION_ENABLED:
        case TIME_CONSTRAINED_ENABLED:
        case TIME_ADVANCE_GRANT:
        case NULL_MESSAGE:
            WriteDouble(w, time);
            break;
        case REGISTER_SYNC_POINT:
        case ANNOUNCE_SYNC_POINT:
            WriteString(w, name);
            WriteBytes(w, tag);
            break;
        case SYNC_POINT_ACHIEVED:
        case FEDERATION_SYNCHRONIZED:
            WriteString(w, name);
            break;
        case TSO_NOTE_SENT:
        case TSO_NOTE_READ:
            w.U32(handle);
            WriteDouble(w, time);
            break;
        default:
            break;
    }
    NS_ASSERT_MSG(w.Position() == out + size,
                  "RtiMessage: " << TypeName(m_type) << " encoded to " << (w.Position() - out)
                                 << " bytes, not its size " << size);
}

uint32_t
RtiMessage::Deserialize(Buffer::Iterator start)
{
    // The length field first, then the message through the flat decoder (which aborts on a
    // message longer than what the buffer holds).
    NS_ABORT_MSG_IF(start.GetRemainingSize() < 4, "RtiMessage: message truncated (no length)");
    Buffer::Iterator peek = start;
    uint32_t length = std::min(peek.ReadNtohU32(), start.GetRemainingSize());
    std::vector<uint8_t> bytes(length);
    start.Read(bytes.data(), length);
    return DeserializeFrom(bytes.data(), length);
}

uint32_t
RtiMessage::DeserializeFrom(const uint8_t* data, uint32_t size)
{
    std::string reason;
    uint32_t read = 0;
    NS_ABORT_MSG_IF(!TryDeserializeFrom(data, size, read, reason), "RtiMessage: " << reason);
    return read;
}

bool
RtiMessage::TryDeserializeFrom(const uint8_t* data,
                               uint32_t size,
                               uint32_t& read,
                               std::string& reason)
{
    FlatReader r(data, size);
    uint32_t length = r.U32();
    uint8_t version = r.U8();
    uint8_t type = r.U8();
    m_flags = r.U8();
    m_headerSize = r.U8();
    if (!r.Ok())
    {
        reason = "truncated: " + std::to_string(size) + " bytes, no whole core header";
        return false;
    }
    if (length != size)
    {
        reason = "length field " + std::to_string(length) + ", " + std::to_string(size)
                 + " bytes given";
        return false;
    }
    if (version != VERSION)
    {
        reason = "unknown protocol version " + std::to_string(version);
        return false;
    }
    if (type == INVALID || type >= TYPE_COUNT)
    {
        reason = "unknown message type " + std::to_string(type);
        return false;
    }
    m_type = static_cast<Type>(type);
    if (m_headerSize < CORE_HEADER_SIZE)
    {
        reason = "header size " + std::to_string(m_headerSize) + " < 16";
        return false;
    }
    m_source = r.U32();
    m_serial = r.U32();
    r.Skip(m_headerSize - CORE_HEADER_SIZE);
    values.clear();
    handles.clear();
    tag.clear();
    bool timeRead = false;
    switch (m_type)
    {
        case JOIN:
            handle = r.U32();
            name = ReadString(r);
            name2 = ReadString(r);
            name3 = ReadString(r);
            break;
        case JOIN_RESPONSE:
            handle = r.U32();
            break;
        case PUBLISH_OBJECT_CLASS:
        case UNPUBLISH_OBJECT_CLASS:
        case SUBSCRIBE_OBJECT_CLASS:
        case UNSUBSCRIBE_OBJECT_CLASS: {
            handle = r.U32();
            uint32_t n = r.U32();
            if (!r.Expect(uint64_t(n) * 4))
            {
                break;
            }
            handles.resize(n);
            for (uint32_t k = 0; k < n; ++k)
            {
                handles[k] = r.U32();
            }
            break;
        }
        case PUBLISH_INTERACTION:
        case UNPUBLISH_INTERACTION:
        case SUBSCRIBE_INTERACTION:
        case UNSUBSCRIBE_INTERACTION:
            handle = r.U32();
            break;
        case REGISTER_OBJECT:
        case DISCOVER_OBJECT:
            handle = r.U32();
            handle2 = r.U32();
            name = ReadString(r);
            break;
        case UPDATE_ATTRIBUTES:
        case REFLECT_ATTRIBUTES:
        case SEND_INTERACTION:
        case RECEIVE_INTERACTION: {
            handle = r.U32();
            if (IsTso())
            {
                time = ReadDouble(r);
                timeRead = true;
            }
            uint32_t n = r.U32();
            // Each value takes at least its handle and its length (8 bytes).
            if (!r.Expect(uint64_t(n) * 8))
            {
                break;
            }
            for (uint32_t k = 0; k < n && r.Ok(); ++k)
            {
                uint32_t h = r.U32();
                if (values.count(h) > 0)
                {
                    // A handle-value map names each attribute (parameter) once.
                    reason = std::string(TypeName(m_type)) + " names handle " + std::to_string(h)
                             + " twice";
                    return false;
                }
                ReadBytes(r, values[h]);
            }
            ReadBytes(r, tag);
            break;
        }
        case TIME_ADVANCE_REQUEST:
            time = ReadDouble(r);
            timeRead = true;
            if (m_flags & FLAG_COUNTS)
            {
                handle = r.U32();
                handle2 = r.U32();
            }
            break;
        case ENABLE_TIME_REGULATION:
        case MODIFY_LOOKAHEAD:
        case TIME_REGULATION_ENABLED:
        case TIME_CONSTRAINED_ENABLED:
        case TIME_ADVANCE_GRANT:
        case NULL_MESSAGE:
            time = ReadDouble(r);
            timeRead = true;
            break;
        case REGISTER_SYNC_POINT:
        case ANNOUNCE_SYNC_POINT:
            name = ReadString(r);
            ReadBytes(r, tag);
            break;
        case SYNC_POINT_ACHIEVED:
        case FEDERATION_SYNCHRONIZED:
            name = ReadString(r);
            break;
        case TSO_NOTE_SENT:
        case TSO_NOTE_READ:
            handle = r.U32();
            time = ReadDouble(r);
            timeRead = true;
            break;
        default:
            break;
    }
    if (!r.Ok())
    {
        reason = std::string(TypeName(m_type)) + " truncated: its fields need more than its "
                 + std::to_string(length) + " bytes";
        return false;
    }
    if (timeRead && !std::isfinite(time))
    {
        reason = std::string(TypeName(m_type)) + " with a time that is not a finite number";
        return false;
    }
    read = r.Read();
    if (read != length)
    {
        reason = std::string(TypeName(m_type)) + " length field " + std::to_string(length)
                 + " but body decoded to " + std::to_string(read) + " bytes";
        return false;
    }
    return true;
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
        case TSO_NOTE_SENT:
        case TSO_NOTE_READ:
            os << " handle=" << handle << " t=" << time;
            break;
        case TIME_ADVANCE_REQUEST:
            os << " kind=" << +static_cast<uint8_t>(GetAdvanceKind()) << " t=" << time;
            if (m_flags & FLAG_COUNTS)
            {
                os << " tsoSent=" << handle << " tsoReceived=" << handle2;
            }
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
