/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_TYPES_H
#define TESTBED_RTI_TYPES_H

#include <cstdint>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <vector>

/**
 * @file
 * @ingroup testbed-rti
 * Handles, value maps, order types and logical-time bounds of the simulated IEEE 1516 RTI.
 */

namespace ns3
{

/**
 * @defgroup testbed-rti RTI
 * @ingroup testbed
 * A simulated IEEE 1516 HLA RTI: a central RTI component (pRTI's CRC, CERTI's RTIG) and a local
 * RTI component in every federate, exchanging byte-accurate messages over simulated TCP (and UDP
 * for best-effort updates), with time management, and charging its processing to the host
 * model of each node.
 */

/** Federate handle (1, 2, ... in join order; 0 = none). */
typedef uint32_t FederateHandle;
/** Object class handle (index in the FOM, from 1). */
typedef uint32_t ObjectClassHandle;
/** Attribute handle (index within its class, from 1). */
typedef uint32_t AttributeHandle;
/** Interaction class handle (index in the FOM, from 1). */
typedef uint32_t InteractionClassHandle;
/** Parameter handle (index within its interaction class, from 1). */
typedef uint32_t ParameterHandle;
/** Object instance handle (federation-wide unique). */
typedef uint32_t ObjectInstanceHandle;
/** Logical time (HLAfloat64Time). */
typedef double LogicalTime;

/** Attribute or parameter values: handle -> bytes (HLA's AttributeHandleValueMap). */
typedef std::map<uint32_t, std::vector<uint8_t>> HandleValueMap;
/** A set of attribute handles. */
typedef std::set<AttributeHandle> AttributeHandleSet;
/** User-supplied tag (bytes). */
typedef std::vector<uint8_t> UserTag;

/** Message order type (IEEE 1516 OrderType). */
enum class OrderType : uint8_t
{
    RECEIVE = 0,  //!< receive order (RO)
    TIMESTAMP = 1 //!< timestamp order (TSO)
};

/** Transportation type (IEEE 1516 TransportationType). */
enum class TransportationType : uint8_t
{
    RELIABLE = 0,   //!< HLAreliable: TCP
    BEST_EFFORT = 1 //!< HLAbestEffort: UDP
};

/** Kind of time advance service. */
enum class AdvanceKind : uint8_t
{
    TAR = 0,  //!< timeAdvanceRequest
    TARA = 1, //!< timeAdvanceRequestAvailable
    NER = 2,  //!< nextMessageRequest
    NERA = 3  //!< nextMessageRequestAvailable
};

/**
 * @brief Whether a time advance service is an "available" variant (TARA, NERA).
 * @param k the kind
 * @return true for TARA and NERA
 */
inline bool
IsAvailable(AdvanceKind k)
{
    return k == AdvanceKind::TARA || k == AdvanceKind::NERA;
}

/**
 * @brief Whether a time advance service is a next-message variant (NER, NERA).
 * @param k the kind
 * @return true for NER and NERA
 */
inline bool
IsNextMessage(AdvanceKind k)
{
    return k == AdvanceKind::NER || k == AdvanceKind::NERA;
}

/**
 * @ingroup testbed-rti
 * @brief A lower bound on the timestamps of the TSO messages a federate may still send.
 *
 * (t, open = false): messages with timestamp >= t are possible; (t, open = true): only
 * timestamps > t are. The latter arises with zero lookahead after a TAR/NER (a federate granted
 * t by TAR with lookahead 0 may not send at t; granted by TARA/NERA it may). Bounds are ordered
 * by t, and (t, closed) < (t, open). "No bound" is +infinity.
 */
struct TimeBound
{
    LogicalTime t{std::numeric_limits<double>::infinity()}; //!< the bound
    bool open{false};                                       //!< true: the bound itself is excluded

    /**
     * @brief Whether a message with this timestamp is still possible.
     * @param ts the timestamp
     * @return true if ts >= t (closed) or ts > t (open)
     */
    bool Allows(LogicalTime ts) const
    {
        return open ? ts > t : ts >= t;
    }

    /**
     * @brief Order of bounds.
     * @param o other bound
     * @return true if this bound is lower (less permissive for the receivers' grants)
     */
    bool operator<(const TimeBound& o) const
    {
        return t < o.t || (t == o.t && !open && o.open);
    }

    /**
     * @brief Equality.
     * @param o other bound
     * @return true if equal
     */
    bool operator==(const TimeBound& o) const
    {
        return t == o.t && open == o.open;
    }

    /**
     * @brief Whether the bound is infinite (no regulating federate).
     * @return true if t is +infinity
     */
    bool IsInfinite() const
    {
        return t == std::numeric_limits<double>::infinity();
    }
};

/**
 * @brief Print a bound as "t" or "t+".
 * @param os stream
 * @param b bound
 * @return the stream
 */
inline std::ostream&
operator<<(std::ostream& os, const TimeBound& b)
{
    return os << b.t << (b.open ? "+" : "");
}

} // namespace ns3

#endif /* TESTBED_RTI_TYPES_H */
