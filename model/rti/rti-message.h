/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_MESSAGE_H
#define TESTBED_RTI_MESSAGE_H

#include "rti-types.h"

#include "ns3/header.h"

#include <string>

/**
 * @file
 * @ingroup testbed-rti
 * The RTI's wire messages.
 */

namespace ns3
{

/**
 * @ingroup testbed-rti
 * @brief One RTI protocol message, serialized byte for byte (an ns-3 Header).
 *
 * Every message starts with the encoding header (big-endian):
 *
 *     offset size field
 *          0    4 length       total message size in bytes (header included): stream framing
 *          4    1 version      protocol version (1)
 *          5    1 type         RtiMessage::Type
 *          6    1 flags        FLAG_* bits
 *          7    1 headerSize   size of this header in bytes (>= 16)
 *          8    4 source       federate the message is from/about (0 = the CRC)
 *         12    4 serial       sequence number on its connection
 *         16    n reserved     headerSize - 16 opaque bytes (zeros)
 *
 * The reserved bytes stand for what a real RTI's encoding carries beyond these fields (pRTI's
 * object-stream descriptors, federation id, routing space, message class names): their number
 * is the encoding header size, a parameter of the encoding (RtiSettings::EncodingHeaderSize).
 *
 * The body depends on the type. Integers are 4 bytes, logical times IEEE 754 doubles (8 bytes,
 * HLAfloat64Time), strings a 2-byte length and the characters, value maps a 4-byte count and
 * per entry a 4-byte handle, a 4-byte length and the bytes, tags a 4-byte length and the bytes:
 *
 * | type | body |
 * |---|---|
 * | JOIN | UDP port of the best-effort path (0: none), federation, federate type, federate name |
 * | JOIN_RESPONSE | federate handle |
 * | RESIGN | - |
 * | (UN)PUBLISH/(UN)SUBSCRIBE_OBJECT_CLASS | class, attribute count, attributes |
 * | (UN)PUBLISH/(UN)SUBSCRIBE_INTERACTION | class |
 * | REGISTER_OBJECT, DISCOVER_OBJECT | class, object, name |
 * | UPDATE_ATTRIBUTES, REFLECT_ATTRIBUTES | object, [time if TSO], values, tag |
 * | SEND_INTERACTION, RECEIVE_INTERACTION | class, [time if TSO], values, tag |
 * | ENABLE_TIME_REGULATION, MODIFY_LOOKAHEAD | lookahead (time) |
 * | TIME_REGULATION_ENABLED, TIME_CONSTRAINED_ENABLED | time |
 * | ENABLE/DISABLE_TIME_CONSTRAINED, DISABLE_TIME_REGULATION | - |
 * | TIME_ADVANCE_REQUEST (kind in flags) | time, [TSO messages sent, received if FLAG_COUNTS] |
 * | TIME_ADVANCE_GRANT | time |
 * | NULL_MESSAGE | bound (time; FLAG_OPEN, FLAG_REGULATING) |
 * | REGISTER/ANNOUNCE_SYNC_POINT | label (string), tag |
 * | SYNC_POINT_ACHIEVED, FEDERATION_SYNCHRONIZED | label (string) |
 * | TSO_NOTE_SENT, TSO_NOTE_READ | class (direct path; the sender via the CRC), time |
 */
class RtiMessage : public Header
{
  public:
    /** Message types. */
    enum Type : uint8_t
    {
        INVALID = 0,
        JOIN = 1,
        JOIN_RESPONSE,
        RESIGN,
        PUBLISH_OBJECT_CLASS,
        UNPUBLISH_OBJECT_CLASS,
        SUBSCRIBE_OBJECT_CLASS,
        UNSUBSCRIBE_OBJECT_CLASS,
        PUBLISH_INTERACTION,
        UNPUBLISH_INTERACTION,
        SUBSCRIBE_INTERACTION,
        UNSUBSCRIBE_INTERACTION,
        REGISTER_OBJECT,
        DISCOVER_OBJECT,
        UPDATE_ATTRIBUTES,
        REFLECT_ATTRIBUTES,
        SEND_INTERACTION,
        RECEIVE_INTERACTION,
        ENABLE_TIME_REGULATION,
        TIME_REGULATION_ENABLED,
        DISABLE_TIME_REGULATION,
        ENABLE_TIME_CONSTRAINED,
        TIME_CONSTRAINED_ENABLED,
        DISABLE_TIME_CONSTRAINED,
        MODIFY_LOOKAHEAD,
        TIME_ADVANCE_REQUEST,
        TIME_ADVANCE_GRANT,
        NULL_MESSAGE,
        REGISTER_SYNC_POINT,
        ANNOUNCE_SYNC_POINT,
        SYNC_POINT_ACHIEVED,
        FEDERATION_SYNCHRONIZED,
        TSO_NOTE_SENT, //!< direct path: an update stamped time of a class was sent (to the Fedex)
        TSO_NOTE_READ, //!< direct path: an update stamped time was read (to the Fedex)
        TYPE_COUNT     //!< number of types (not a type)
    };

    /** Flag bits. */
    enum Flags : uint8_t
    {
        FLAG_TSO = 0x01,         //!< timestamp order: the body carries a time
        FLAG_BEST_EFFORT = 0x02, //!< sent best effort (UDP)
        FLAG_OPEN = 0x04,        //!< NULL_MESSAGE: the bound is open (t excluded)
        FLAG_REGULATING = 0x08,  //!< NULL_MESSAGE: the federate is regulating (else withdrawn)
        FLAG_COUNTS = 0x40,      //!< TIME_ADVANCE_REQUEST: carries TSO counts (handle, handle2)
        KIND_SHIFT = 4,          //!< TIME_ADVANCE_REQUEST: AdvanceKind in bits 4-5
        KIND_MASK = 0x30,        //!< mask of the kind bits
    };

    /** Size of the fixed part of the encoding header. */
    static constexpr uint32_t CORE_HEADER_SIZE = 16;
    /** Protocol version. */
    static constexpr uint8_t VERSION = 1;

    RtiMessage();

    /**
     * @brief A message of a type.
     * @param type the type
     */
    explicit RtiMessage(Type type);

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * @brief Serialize into a flat byte array (the same bytes as Serialize).
     * @param out room for size bytes
     * @param size GetSerializedSize(), which the caller has computed already
     */
    void SerializeTo(uint8_t* out, uint32_t size) const;

    /**
     * @brief Deserialize from a flat byte array (as Deserialize does from a buffer); a message
     * that runs past the end of the array is a fatal error.
     * @param data the bytes, starting with the message
     * @param size bytes available
     * @return bytes read (the message's length)
     */
    uint32_t DeserializeFrom(const uint8_t* data, uint32_t size);

    /**
     * @brief Decode one message from bytes that came from the network, without aborting: a
     * malformed message (truncated, a wrong length field, an unknown version or type, a header
     * size below 16, fields past the end, a time that is not a finite number) is refused with
     * the reason. The message's fields are unspecified after a refusal.
     * @param data the bytes
     * @param size their number
     * @param [out] read the bytes decoded (== size when accepted)
     * @param [out] reason why the bytes were refused
     * @return whether the bytes were one well-formed message
     */
    bool TryDeserializeFrom(const uint8_t* data,
                            uint32_t size,
                            uint32_t& read,
                            std::string& reason);

    /**
     * @brief The name of a type.
     * @param type the type
     * @return e.g. "TIME_ADVANCE_GRANT"
     */
    static const char* TypeName(Type type);

    /**
     * @brief Read the total length of a message from the first 4 bytes of its encoding.
     * @param bytes at least 4 bytes
     * @return the length field
     */
    static uint32_t PeekLength(const uint8_t* bytes);

    /** @return the message type */
    Type GetType() const;
    /** @param type the message type */
    void SetType(Type type);
    /** @return the header size in bytes (>= 16) */
    uint8_t GetHeaderSize() const;
    /** @param size the encoding header size in bytes (16..255) */
    void SetHeaderSize(uint32_t size);
    /** @return the source federate (0 = CRC) */
    FederateHandle GetSource() const;
    /** @param source the source federate */
    void SetSource(FederateHandle source);
    /** @return the connection sequence number */
    uint32_t GetSerial() const;
    /** @param serial the connection sequence number */
    void SetSerial(uint32_t serial);
    /** @return the flag bits */
    uint8_t GetFlags() const;
    /** @param flags the flag bits */
    void SetFlags(uint8_t flags);

    /** @return whether FLAG_TSO is set */
    bool IsTso() const;
    /** @return the advance kind of a TIME_ADVANCE_REQUEST */
    AdvanceKind GetAdvanceKind() const;
    /** @param kind the advance kind of a TIME_ADVANCE_REQUEST */
    void SetAdvanceKind(AdvanceKind kind);

    uint32_t handle{0};            //!< class, object or federate handle (see the type table)
    uint32_t handle2{0};           //!< second handle (object instance of REGISTER/DISCOVER_OBJECT)
    LogicalTime time{0};           //!< timestamp, requested/granted time, lookahead or bound
    std::string name;              //!< first string (federation name, label, object name)
    std::string name2;             //!< second string (federate type)
    std::string name3;             //!< third string (federate name)
    HandleValueMap values;         //!< attribute or parameter values
    std::vector<uint32_t> handles; //!< attribute handle list
    UserTag tag;                   //!< user-supplied tag

  private:
    /** @return the size of the body for the current type and fields */
    uint32_t BodySize() const;

    Type m_type;             //!< type
    uint8_t m_flags;         //!< flags
    uint8_t m_headerSize;    //!< encoding header size
    FederateHandle m_source; //!< source
    uint32_t m_serial;       //!< serial
};

} // namespace ns3

#endif /* TESTBED_RTI_MESSAGE_H */
