/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_IGMP_HEADER_H
#define TESTBED_IGMP_HEADER_H

#include "ns3/header.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

/**
 * @file
 * @ingroup testbed-multicast
 * IGMP messages (RFC 1112, RFC 2236, RFC 3376) and the IPv4 header with the Router Alert option
 * (RFC 2113) that carries them.
 */

namespace ns3
{

/**
 * @defgroup testbed-multicast Multicast on one layer-2 network
 * @ingroup testbed
 *
 * IGMPv2/v3 hosts and queriers in the ns-3 IPv4 stack, an RFC 4541 IGMP-snooping switch and a
 * switch-fabric model (MAC table, forwarding engine, per-port queues, random drops, 802.1Q
 * trunks).
 */

/**
 * @ingroup testbed-multicast
 * @brief One IGMPv3 group record (RFC 3376 section 4.2.4).
 */
struct IgmpGroupRecord
{
    /// Record types (RFC 3376 section 4.2.12).
    enum Type : uint8_t
    {
        MODE_IS_INCLUDE = 1,        //!< current state: INCLUDE (IS_IN)
        MODE_IS_EXCLUDE = 2,        //!< current state: EXCLUDE (IS_EX)
        CHANGE_TO_INCLUDE_MODE = 3, //!< filter-mode change to INCLUDE (TO_IN)
        CHANGE_TO_EXCLUDE_MODE = 4, //!< filter-mode change to EXCLUDE (TO_EX)
        ALLOW_NEW_SOURCES = 5,      //!< source-list change: ALLOW
        BLOCK_OLD_SOURCES = 6,      //!< source-list change: BLOCK
    };

    uint8_t type{MODE_IS_INCLUDE};    //!< record type (1..6)
    Ipv4Address group;                //!< multicast address
    std::vector<Ipv4Address> sources; //!< source addresses
    uint8_t auxDataLen{0};            //!< auxiliary data length in 32-bit words (skipped)
    bool operator==(const IgmpGroupRecord& o) const = default; //!< equality
};

/**
 * @ingroup testbed-multicast
 * @brief An IGMP message of any version: v1/v2/v3 Membership Query, v1/v2 Membership Report,
 * v2 Leave Group, v3 Membership Report.
 *
 * The message length decides the query version (RFC 3376 section 7.1): 8 octets with Max Resp
 * Code 0 is an IGMPv1 query, 8 octets with a non-zero code an IGMPv2 query, 12 octets or more an
 * IGMPv3 query. The checksum is always computed on Serialize (IGMP has no "checksum off" mode)
 * and verified by Parse().
 */
class IgmpHeader : public Header
{
  public:
    /// IGMP message types.
    enum Type : uint8_t
    {
        MEMBERSHIP_QUERY = 0x11,     //!< query (v1, v2, v3 by length)
        V1_MEMBERSHIP_REPORT = 0x12, //!< IGMPv1 report
        V2_MEMBERSHIP_REPORT = 0x16, //!< IGMPv2 report
        V2_LEAVE_GROUP = 0x17,       //!< IGMPv2 leave
        V3_MEMBERSHIP_REPORT = 0x22, //!< IGMPv3 report
    };

    /// Result of Parse(): OK or why a message is malformed.
    enum ParseResult : uint8_t
    {
        PARSE_OK = 0,       //!< well formed
        PARSE_TOO_SHORT,    //!< shorter than 8 octets or than its counts imply
        PARSE_BAD_CHECKSUM, //!< Internet checksum does not verify
        PARSE_BAD_LENGTH,   //!< a query of 9..11 octets (RFC 3376 7.1: ignore)
        PARSE_UNKNOWN_TYPE, //!< not one of the types above (ignored by RFC)
    };

    IgmpHeader();

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * @brief Deserialize the message from the rest of the buffer (its length is the remaining
     * size). A malformed message leaves GetParseResult() != PARSE_OK.
     * @param start iterator at the first IGMP octet
     * @return the number of octets read
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * @brief Parse an IGMP message from raw octets (the IPv4 payload, padding already removed).
     * @param buf the octets
     * @param len their number
     * @return PARSE_OK, or the reason the message is malformed (the header is then unspecified)
     */
    ParseResult Parse(const uint8_t* buf, uint32_t len);

    /**
     * @brief The result of the last Deserialize().
     * @return PARSE_OK or the malformation
     */
    ParseResult GetParseResult() const;

    /**
     * @brief Name of a parse result, for logs and traces.
     * @param r the result
     * @return a static string
     */
    static const char* ParseResultName(ParseResult r);

    // --- factories ---------------------------------------------------------------------------
    /**
     * @brief An IGMPv2 (8-octet) query.
     * @param group 0.0.0.0 for a general query, else the group of a group-specific query
     * @param maxResp Max Response Time (rounded to 1/10 s, at most 25.5 s)
     * @return the message
     */
    static IgmpHeader MakeV2Query(Ipv4Address group, Time maxResp);
    /**
     * @brief An IGMPv3 query.
     * @param group 0.0.0.0 for a general query
     * @param maxResp Max Response Time (encoded per RFC 3376 4.1.1)
     * @param sFlag Suppress Router-Side Processing
     * @param qrv Querier's Robustness Variable (0 if above 7)
     * @param qqi Querier's Query Interval (encoded per RFC 3376 4.1.7)
     * @param sources sources of a group-and-source-specific query
     * @return the message
     */
    static IgmpHeader MakeV3Query(Ipv4Address group,
                                  Time maxResp,
                                  bool sFlag,
                                  uint8_t qrv,
                                  Time qqi,
                                  const std::vector<Ipv4Address>& sources = {});
    /**
     * @brief A v1/v2 report or a v2 leave.
     * @param type V1_MEMBERSHIP_REPORT, V2_MEMBERSHIP_REPORT or V2_LEAVE_GROUP
     * @param group the group
     * @return the message
     */
    static IgmpHeader MakeV2Message(Type type, Ipv4Address group);
    /**
     * @brief An IGMPv3 report.
     * @param records the group records
     * @return the message
     */
    static IgmpHeader MakeV3Report(const std::vector<IgmpGroupRecord>& records);

    // --- codecs ------------------------------------------------------------------------------
    /**
     * @brief Encode a time as an IGMPv3 Max Resp Code / QQIC (RFC 3376 4.1.1, 4.1.7).
     * @param units the value in the field's unit (1/10 s for Max Resp, 1 s for QQI)
     * @return the 8-bit code (values >= 31744 saturate)
     */
    static uint8_t EncodeCode(uint32_t units);
    /**
     * @brief Decode an IGMPv3 Max Resp Code / QQIC.
     * @param code the 8-bit code
     * @return the value in the field's unit
     */
    static uint32_t DecodeCode(uint8_t code);

    // --- accessors ---------------------------------------------------------------------------
    /** @return the message type */
    uint8_t GetType() const;
    /**
     * @brief Set the message type.
     * @param t the type
     */
    void SetType(uint8_t t);
    /** @return the Max Resp Code field (v2: 1/10 s; v3: encoded) */
    uint8_t GetMaxRespCode() const;
    /**
     * @brief Set the Max Resp Code field.
     * @param c the code
     */
    void SetMaxRespCode(uint8_t c);
    /** @return the Group Address field */
    Ipv4Address GetGroup() const;
    /**
     * @brief Set the Group Address field.
     * @param g the group
     */
    void SetGroup(Ipv4Address g);
    /** @return the checksum read by Deserialize/Parse (0 before) */
    uint16_t GetChecksum() const;
    /** @return true for a query of 12 octets or more */
    bool IsV3Query() const;
    /**
     * @brief Mark a query as IGMPv3 (12+ octets) or v1/v2 (8 octets).
     * @param v3 true for IGMPv3
     */
    void SetV3Query(bool v3);
    /** @return the query version by RFC 3376 7.1: 1, 2 or 3 (0 if not a query) */
    uint8_t GetQueryVersion() const;
    /** @return the Max Response Time of a query (v1 queries: 10 s) */
    Time GetMaxRespTime() const;
    /** @return the S flag of a v3 query */
    bool GetSFlag() const;
    /** @return the QRV of a v3 query */
    uint8_t GetQrv() const;
    /** @return the QQIC of a v3 query */
    uint8_t GetQqic() const;
    /** @return the sources of a v3 query */
    const std::vector<Ipv4Address>& GetSources() const;
    /** @return the group records of a v3 report */
    const std::vector<IgmpGroupRecord>& GetRecords() const;

  private:
    uint8_t m_type{MEMBERSHIP_QUERY};           //!< type
    uint8_t m_maxRespCode{0};                   //!< Max Resp Code
    uint16_t m_checksum{0};                     //!< checksum as read
    Ipv4Address m_group{Ipv4Address::GetAny()}; //!< group address
    bool m_v3Query{false};                      //!< 12+ octet query
    bool m_sFlag{false};                        //!< S flag
    uint8_t m_qrv{0};                           //!< QRV
    uint8_t m_qqic{0};                          //!< QQIC
    std::vector<Ipv4Address> m_sources;         //!< query sources
    std::vector<IgmpGroupRecord> m_records;     //!< report records
    ParseResult m_parse{PARSE_OK};              //!< result of the last Deserialize
};

} // namespace ns3

#endif /* TESTBED_IGMP_HEADER_H */
