/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RTI messages: byte-exact sizes from the encoding rules (hand-computed), serialization round
 * trips of every type, stream framing, malformed datagrams.
 */

#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/rti-connection.h"
#include "ns3/rti-message.h"
#include "ns3/rti-time-manager.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"

#include <cmath>
#include <limits>

using namespace ns3;

/**
 * @ingroup testbed-tests
 * Every message type survives serialization with its fields, and its size is the one the
 * encoding table gives.
 */
class RtiMessageRoundTripTestCase : public TestCase
{
  public:
    RtiMessageRoundTripTestCase()
        : TestCase("RtiMessage: sizes and round trips of every type")
    {
    }

  private:
    /**
     * Serialize, check the size, deserialize.
     * @param m message
     * @param size expected size
     * @return the decoded message
     */
    RtiMessage RoundTrip(const RtiMessage& m, uint32_t size)
    {
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(m);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), size, "size of " << RtiMessage::TypeName(m.GetType()));
        uint8_t head[4];
        p->CopyData(head, 4);
        NS_TEST_EXPECT_MSG_EQ(RtiMessage::PeekLength(head), size, "length field");
        RtiMessage d;
        p->RemoveHeader(d);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 0u, "whole message consumed");
        NS_TEST_EXPECT_MSG_EQ(d.GetType(), m.GetType(), "type");
        NS_TEST_EXPECT_MSG_EQ(d.GetSource(), m.GetSource(), "source");
        NS_TEST_EXPECT_MSG_EQ(d.GetSerial(), m.GetSerial(), "serial");
        NS_TEST_EXPECT_MSG_EQ(+d.GetFlags(), +m.GetFlags(), "flags");
        NS_TEST_EXPECT_MSG_EQ(+d.GetHeaderSize(), +m.GetHeaderSize(), "header size");
        return d;
    }

    void DoRun() override
    {
        const uint32_t H = 16;
        // JOIN: 3 strings of 4, 6 and 2 characters: 3 * 2 + 12 = 18.
        RtiMessage j(RtiMessage::JOIN);
        j.SetSource(0);
        j.SetSerial(7);
        j.handle = 49152; // UDP port
        j.name = "JAXA";
        j.name2 = "Sender";
        j.name3 = "s1";
        RtiMessage jd = RoundTrip(j, H + 4 + 18);
        NS_TEST_EXPECT_MSG_EQ(jd.name, "JAXA", "federation");
        NS_TEST_EXPECT_MSG_EQ(jd.name2, "Sender", "type");
        NS_TEST_EXPECT_MSG_EQ(jd.name3, "s1", "name");
        NS_TEST_EXPECT_MSG_EQ(jd.handle, 49152u, "udp port");

        RtiMessage jr(RtiMessage::JOIN_RESPONSE);
        jr.handle = 3;
        NS_TEST_EXPECT_MSG_EQ(RoundTrip(jr, H + 4).handle, 3u, "handle");
        RoundTrip(RtiMessage(RtiMessage::RESIGN), H);

        // Publish 3 attributes: class 4 + count 4 + 3 * 4 = 20.
        for (auto t : {RtiMessage::PUBLISH_OBJECT_CLASS,
                       RtiMessage::UNPUBLISH_OBJECT_CLASS,
                       RtiMessage::SUBSCRIBE_OBJECT_CLASS,
                       RtiMessage::UNSUBSCRIBE_OBJECT_CLASS})
        {
            RtiMessage p(t);
            p.handle = 2;
            p.handles = {1, 2, 5};
            RtiMessage pd = RoundTrip(p, H + 20);
            NS_TEST_EXPECT_MSG_EQ(pd.handles.size(), 3u, "attribute count");
            NS_TEST_EXPECT_MSG_EQ(pd.handles[2], 5u, "attribute handle");
        }
        for (auto t : {RtiMessage::PUBLISH_INTERACTION,
                       RtiMessage::UNPUBLISH_INTERACTION,
                       RtiMessage::SUBSCRIBE_INTERACTION,
                       RtiMessage::UNSUBSCRIBE_INTERACTION})
        {
            RtiMessage p(t);
            p.handle = 9;
            NS_TEST_EXPECT_MSG_EQ(RoundTrip(p, H + 4).handle, 9u, "interaction class");
        }
        // Register: class 4 + object 4 + name (2 + 5).
        for (auto t : {RtiMessage::REGISTER_OBJECT, RtiMessage::DISCOVER_OBJECT})
        {
            RtiMessage r(t);
            r.handle = 1;
            r.handle2 = (2 << 20) | 1;
            r.name = "obj-1";
            RtiMessage rd = RoundTrip(r, H + 15);
            NS_TEST_EXPECT_MSG_EQ(rd.handle2, ((2u << 20) | 1), "object");
            NS_TEST_EXPECT_MSG_EQ(rd.name, "obj-1", "name");
        }
        // TSO update, one attribute of 100 bytes, tag of 3 bytes, header 40:
        // object 4 + time 8 + count 4 + (handle 4 + length 4 + 100) + tag (4 + 3) = 131.
        for (auto t : {RtiMessage::UPDATE_ATTRIBUTES,
                       RtiMessage::REFLECT_ATTRIBUTES,
                       RtiMessage::SEND_INTERACTION,
                       RtiMessage::RECEIVE_INTERACTION})
        {
            RtiMessage u(t);
            u.SetHeaderSize(40);
            u.SetFlags(RtiMessage::FLAG_TSO);
            u.SetSource(2);
            u.handle = 77;
            u.time = 12.625;
            std::vector<uint8_t> v(100);
            for (uint32_t i = 0; i < v.size(); ++i)
            {
                v[i] = i * 7;
            }
            u.values[1] = v;
            u.tag = {1, 2, 3};
            RtiMessage ud = RoundTrip(u, 40 + 131);
            NS_TEST_EXPECT_MSG_EQ(ud.time, 12.625, "timestamp");
            NS_TEST_EXPECT_MSG_EQ(ud.IsTso(), true, "TSO flag");
            NS_TEST_EXPECT_MSG_EQ((ud.values[1] == v), true, "value bytes");
            NS_TEST_EXPECT_MSG_EQ(ud.tag.size(), 3u, "tag");
            // The RO form has no timestamp: 8 bytes less.
            u.SetFlags(RtiMessage::FLAG_BEST_EFFORT);
            RtiMessage ro = RoundTrip(u, 40 + 123);
            NS_TEST_EXPECT_MSG_EQ(ro.IsTso(), false, "RO");
        }
        for (auto t : {RtiMessage::ENABLE_TIME_REGULATION,
                       RtiMessage::MODIFY_LOOKAHEAD,
                       RtiMessage::TIME_REGULATION_ENABLED,
                       RtiMessage::TIME_CONSTRAINED_ENABLED,
                       RtiMessage::TIME_ADVANCE_GRANT,
                       RtiMessage::NULL_MESSAGE})
        {
            RtiMessage m(t);
            m.time = -3.5e10;
            NS_TEST_EXPECT_MSG_EQ(RoundTrip(m, H + 8).time, -3.5e10, "time");
        }
        for (auto t : {RtiMessage::DISABLE_TIME_REGULATION,
                       RtiMessage::ENABLE_TIME_CONSTRAINED,
                       RtiMessage::DISABLE_TIME_CONSTRAINED})
        {
            RoundTrip(RtiMessage(t), H);
        }
        for (AdvanceKind k :
             {AdvanceKind::TAR, AdvanceKind::TARA, AdvanceKind::NER, AdvanceKind::NERA})
        {
            RtiMessage m(RtiMessage::TIME_ADVANCE_REQUEST);
            m.SetAdvanceKind(k);
            m.time = 1e-3;
            RtiMessage md = RoundTrip(m, H + 8);
            NS_TEST_EXPECT_MSG_EQ((md.GetAdvanceKind() == k), true, "advance kind");
        }
        // With TSO counts (RtiSettings TsoBookkeeping Counts): time 8 + sent 4 + read 4.
        RtiMessage tc(RtiMessage::TIME_ADVANCE_REQUEST);
        tc.SetAdvanceKind(AdvanceKind::TARA);
        tc.SetFlags(tc.GetFlags() | RtiMessage::FLAG_COUNTS);
        tc.time = 2.5;
        tc.handle = 7;
        tc.handle2 = 5;
        RtiMessage tcd = RoundTrip(tc, H + 16);
        NS_TEST_EXPECT_MSG_EQ((tcd.GetAdvanceKind() == AdvanceKind::TARA), true, "kind kept");
        NS_TEST_EXPECT_MSG_EQ(tcd.handle, 7u, "TSO messages sent");
        NS_TEST_EXPECT_MSG_EQ(tcd.handle2, 5u, "TSO messages read");
        RtiMessage n(RtiMessage::NULL_MESSAGE);
        n.SetFlags(RtiMessage::FLAG_OPEN | RtiMessage::FLAG_REGULATING);
        RoundTrip(n, H + 8);
        // Sync points: label (2 + 5) + tag (4 + 2); achieved/synchronized: label only.
        for (auto t : {RtiMessage::REGISTER_SYNC_POINT, RtiMessage::ANNOUNCE_SYNC_POINT})
        {
            RtiMessage s(t);
            s.name = "ready";
            s.tag = {9, 9};
            RtiMessage sd = RoundTrip(s, H + 13);
            NS_TEST_EXPECT_MSG_EQ(sd.name, "ready", "label");
        }
        for (auto t : {RtiMessage::SYNC_POINT_ACHIEVED, RtiMessage::FEDERATION_SYNCHRONIZED})
        {
            RtiMessage s(t);
            s.name = "ready";
            RoundTrip(s, H + 7);
        }

        // Framing: two messages in one byte stream, split at an arbitrary byte, are recovered by
        // their length fields.
        RtiMessage a(RtiMessage::TIME_ADVANCE_REQUEST);
        a.time = 1;
        RtiMessage b(RtiMessage::UPDATE_ATTRIBUTES);
        b.values[1] = std::vector<uint8_t>(1000, 0xab);
        Ptr<Packet> stream = Create<Packet>();
        Ptr<Packet> pa = Create<Packet>();
        pa->AddHeader(a);
        Ptr<Packet> pb = Create<Packet>();
        pb->AddHeader(b);
        stream->AddAtEnd(pa);
        stream->AddAtEnd(pb);
        NS_TEST_EXPECT_MSG_EQ(stream->GetSize(), (H + 8) + (H + 4 + 4 + 1008 + 4), "stream size");
        Ptr<Packet> first = stream->CreateFragment(0, 10);
        Ptr<Packet> rest = stream->CreateFragment(10, stream->GetSize() - 10);
        first->AddAtEnd(rest);
        uint8_t len[4];
        first->CopyData(len, 4);
        Ptr<Packet> m1 = first->CreateFragment(0, RtiMessage::PeekLength(len));
        first->RemoveAtStart(RtiMessage::PeekLength(len));
        RtiMessage d1;
        m1->RemoveHeader(d1);
        RtiMessage d2;
        first->RemoveHeader(d2);
        NS_TEST_EXPECT_MSG_EQ(d1.GetType(), RtiMessage::TIME_ADVANCE_REQUEST, "first framed");
        NS_TEST_EXPECT_MSG_EQ(d2.values[1].size(), 1000u, "second framed");
    }
};

/**
 * @ingroup testbed-tests
 * The grant rules of RtiTimeManager on hand-worked states (no network).
 */
class RtiTimeManagerTestCase : public TestCase
{
  public:
    RtiTimeManagerTestCase()
        : TestCase("RtiTimeManager: output bounds, GALT fixed point and grant conditions")
    {
    }

  private:
    void DoRun() override
    {
        typedef RtiTimeManager::State State;
        const TimeBound inf;
        // Granted at 4, lookahead 2: may send >= 6.
        State g;
        g.regulating = true;
        g.time = 4;
        g.lookahead = 2;
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::OutputBound(g, inf).t, 6.0, "granted: T + L");
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::OutputBound(g, inf).open, false, "closed");
        // Zero lookahead after a TAR: open; after a TARA: closed.
        g.lookahead = 0;
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::OutputBound(g, inf).open, true, "TAR, L=0: open");
        g.lastGrantAvailable = true;
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::OutputBound(g, inf).open, false, "TARA: closed");

        // TAR(5) with GALT 5 (closed): a message at 5 may still come: no grant; open 5: grant.
        State s;
        s.regulating = s.constrained = true;
        s.advancing = true;
        s.kind = AdvanceKind::TAR;
        s.requested = 5;
        LogicalTime t = -1;
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::CanGrant(s, TimeBound{5, false}, &t),
                              false,
                              "TAR(5), GALT 5");
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::CanGrant(s, TimeBound{5, true}, &t),
                              true,
                              "TAR(5), GALT 5+");
        NS_TEST_EXPECT_MSG_EQ(t, 5.0, "granted 5");
        // TARA(5) with GALT 5 closed: granted.
        s.kind = AdvanceKind::TARA;
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::CanGrant(s, TimeBound{5, false}, &t),
                              true,
                              "TARA(5), GALT 5");
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::CanGrant(s, TimeBound{4.5, false}, &t),
                              false,
                              "TARA(5), GALT 4.5");
        // NER(10) with a pending message at 3: granted 3 once GALT > 3.
        s.kind = AdvanceKind::NER;
        s.requested = 10;
        s.pendingTso = {3, 7};
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::CanGrant(s, TimeBound{3, false}, &t),
                              false,
                              "NER, GALT 3");
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::CanGrant(s, TimeBound{3.5, false}, &t),
                              true,
                              "NER, GALT 3.5");
        NS_TEST_EXPECT_MSG_EQ(t, 3.0, "granted at the message");
        RtiTimeManager::ApplyGrant(s, t);
        NS_TEST_EXPECT_MSG_EQ(s.pendingTso.size(), 1u, "message at 3 delivered, 7 left");
        // Not constrained: granted at once.
        State u;
        u.advancing = true;
        u.requested = 8;
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::CanGrant(u, TimeBound{0, false}, &t),
                              true,
                              "unconstrained");

        // Fixed point: three NER(10) federates with lookaheads 1, 2, 3 and no messages. Bounds
        // b1 = min(10, b2, b3) + 1, b2 = min(10, b1, b3) + 2, b3 = min(10, b1, b2) + 3: the
        // greatest solution is b1 = 11, b2 = 12, b3 = 13, so every GALT exceeds 10.
        RtiTimeManager tm;
        for (uint32_t f = 1; f <= 3; ++f)
        {
            State& st = tm.Get(f);
            st.regulating = st.constrained = st.advancing = true;
            st.kind = AdvanceKind::NER;
            st.requested = 10;
            st.lookahead = f;
        }
        auto bounds = tm.ComputeBounds();
        NS_TEST_EXPECT_MSG_EQ(bounds[1].t, 11.0, "b1");
        NS_TEST_EXPECT_MSG_EQ(bounds[2].t, 12.0, "b2");
        NS_TEST_EXPECT_MSG_EQ(bounds[3].t, 13.0, "b3");
        // With a message at 4 pending for federate 2: b2 = 4 + 2 = 6, b1 = 6 + 1 = 7,
        // b3 = min(10, 7, 6) + 3 = 9; GALT_2 = min(7, 9) = 7 > 4: 2 is granted 4, GALT_1 =
        // min(6, 9) = 6 < 10 and GALT_3 = 6 < 10: they wait.
        tm.Get(2).pendingTso = {4};
        bounds = tm.ComputeBounds();
        NS_TEST_EXPECT_MSG_EQ(bounds[2].t, 6.0, "b2 with message");
        NS_TEST_EXPECT_MSG_EQ(bounds[1].t, 7.0, "b1 with message");
        NS_TEST_EXPECT_MSG_EQ(bounds[3].t, 9.0, "b3 with message");
        auto grants = tm.Grants();
        NS_TEST_EXPECT_MSG_EQ(grants.size(), 1u, "one grant");
        NS_TEST_EXPECT_MSG_EQ(grants[0].first, 2u, "federate 2");
        NS_TEST_EXPECT_MSG_EQ(grants[0].second, 4.0, "at its message");

        // Zero lookahead NER cycle: b1 = min(10, b2), b2 = min(10, b1), both open: (10+, 10+),
        // so both NER(10) are granted 10 (no deadlock).
        RtiTimeManager z;
        for (uint32_t f = 1; f <= 2; ++f)
        {
            State& st = z.Get(f);
            st.regulating = st.constrained = st.advancing = true;
            st.kind = AdvanceKind::NER;
            st.requested = 10;
        }
        grants = z.Grants();
        NS_TEST_EXPECT_MSG_EQ(grants.size(), 2u, "both granted");
        NS_TEST_EXPECT_MSG_EQ(grants[1].second, 10.0, "at 10");

        // A TSO message forwarded and not yet noted as read (TsoBookkeeping ReadNotes) holds a
        // grant at or past its timestamp, not one before it.
        State w;
        w.constrained = w.advancing = true;
        w.requested = 5;
        w.unread = {5};
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::CanGrant(w, TimeBound{9, false}, &t),
                              false,
                              "unread message at the requested time");
        w.unread = {6};
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::CanGrant(w, TimeBound{9, false}, &t),
                              true,
                              "unread message after the requested time");
    }
};

/**
 * @ingroup testbed-tests
 * Bytes from the network are input: every malformed message is refused with a reason by
 * RtiMessage::TryDeserializeFrom (never fatal), and a well-formed one is accepted. The
 * expectations come from the encoding rules: a message is its 16-byte core header (length,
 * version, type, flags, header size >= 16, source, serial) and its body, exactly `length` bytes.
 */
class RtiMalformedTestCase : public TestCase
{
  public:
    RtiMalformedTestCase()
        : TestCase("RtiMessage: malformed bytes are refused with a reason, never fatal")
    {
    }

  private:
    /**
     * @param m a message
     * @return its bytes
     */
    static std::vector<uint8_t> Bytes(const RtiMessage& m)
    {
        std::vector<uint8_t> b(m.GetSerializedSize());
        m.SerializeTo(b.data(), b.size());
        return b;
    }

    /**
     * @param b bytes
     * @param [out] reason why refused
     * @return whether accepted
     */
    static bool Accept(const std::vector<uint8_t>& b, std::string& reason)
    {
        RtiMessage m;
        uint32_t read = 0;
        bool ok = m.TryDeserializeFrom(b.data(), b.size(), read, reason);
        return ok && read == b.size();
    }

    void DoRun() override
    {
        std::vector<RtiMessage> corpus;
        RtiMessage j(RtiMessage::JOIN);
        j.name = "F";
        j.name2 = "T";
        corpus.push_back(j);
        RtiMessage s(RtiMessage::SUBSCRIBE_OBJECT_CLASS);
        s.handles = {1, 2, 3};
        corpus.push_back(s);
        RtiMessage u(RtiMessage::UPDATE_ATTRIBUTES);
        u.SetFlags(RtiMessage::FLAG_TSO);
        u.time = 2.5;
        u.values[1] = std::vector<uint8_t>(20, 7);
        u.tag = {1};
        corpus.push_back(u);
        RtiMessage g(RtiMessage::TIME_ADVANCE_GRANT);
        g.time = 1;
        corpus.push_back(g);
        RtiMessage sp(RtiMessage::REGISTER_SYNC_POINT);
        sp.name = "ready";
        corpus.push_back(sp);

        std::string reason;
        uint32_t refusedMutations = 0;
        for (const RtiMessage& m : corpus)
        {
            std::vector<uint8_t> b = Bytes(m);
            NS_TEST_ASSERT_MSG_EQ(Accept(b, reason), true, "a valid message is accepted");
            // Every truncation is refused (the length field no longer matches, or fields run
            // past the end).
            for (size_t n = 0; n < b.size(); ++n)
            {
                std::vector<uint8_t> c(b.begin(), b.begin() + n);
                NS_TEST_EXPECT_MSG_EQ(Accept(c, reason), false, "truncated to " << n);
                NS_TEST_EXPECT_MSG_NE(reason, "", "a reason");
            }
            // Every single-byte corruption decodes or is refused: never fatal (this loop would
            // abort the test runner otherwise).
            for (size_t i = 0; i < b.size(); ++i)
            {
                for (uint8_t mask : {0x01, 0x80, 0xff})
                {
                    std::vector<uint8_t> c = b;
                    c[i] ^= mask;
                    refusedMutations += Accept(c, reason) ? 0 : 1;
                }
            }
        }
        NS_TEST_EXPECT_MSG_GT(refusedMutations, 0u, "corruptions of the header are refused");

        // Hand-made cases, each with the rule it breaks.
        std::vector<uint8_t> b = Bytes(g);
        std::vector<uint8_t> c = b;
        c[7] = 15; // header size 15 < 16
        NS_TEST_EXPECT_MSG_EQ(Accept(c, reason), false, "header size 15");
        NS_TEST_EXPECT_MSG_NE(reason.find("header size"), std::string::npos, reason);
        c = b;
        c[4] = RtiMessage::VERSION + 1;
        NS_TEST_EXPECT_MSG_EQ(Accept(c, reason), false, "version");
        NS_TEST_EXPECT_MSG_NE(reason.find("version"), std::string::npos, reason);
        c = b;
        c[5] = RtiMessage::TYPE_COUNT;
        NS_TEST_EXPECT_MSG_EQ(Accept(c, reason), false, "type");
        c = b;
        c.push_back(0); // one byte more than the length field says
        NS_TEST_EXPECT_MSG_EQ(Accept(c, reason), false, "length field");
        NS_TEST_EXPECT_MSG_NE(reason.find("length field"), std::string::npos, reason);
        // A grant whose time is not a number.
        RtiMessage nan(RtiMessage::TIME_ADVANCE_GRANT);
        nan.time = std::numeric_limits<double>::quiet_NaN();
        NS_TEST_EXPECT_MSG_EQ(Accept(Bytes(nan), reason), false, "NaN time");
        NS_TEST_EXPECT_MSG_NE(reason.find("finite"), std::string::npos, reason);
        // A body truncated after the header, with a length field that says so: the grant's
        // time is missing.
        c.assign(b.begin(), b.begin() + RtiMessage::CORE_HEADER_SIZE);
        c[0] = c[1] = c[2] = 0;
        c[3] = RtiMessage::CORE_HEADER_SIZE;
        NS_TEST_EXPECT_MSG_EQ(Accept(c, reason), false, "body truncated after the header");
        NS_TEST_EXPECT_MSG_NE(reason.find("truncated"), std::string::npos, reason);
        // An update claiming 2^32 - 1 values in 8 bytes: refused before reserving room.
        RtiMessage ro(RtiMessage::UPDATE_ATTRIBUTES);
        std::vector<uint8_t> r = Bytes(ro); // object 4 + count 4 + tag length 4
        size_t count = RtiMessage::CORE_HEADER_SIZE + 4;
        r[count] = r[count + 1] = r[count + 2] = r[count + 3] = 0xff;
        NS_TEST_EXPECT_MSG_EQ(Accept(r, reason), false, "value count beyond the bytes");
        // An update naming one attribute twice (found by fuzz/fuzz-rti; kept as
        // test/data/fuzz/rti/duplicate-handles): a handle-value map names each attribute once.
        RtiMessage dup(RtiMessage::UPDATE_ATTRIBUTES);
        dup.values[7] = {1, 2};
        std::vector<uint8_t> d = Bytes(dup); // object 4, count 4, handle 4, length 4, 2, tag 4
        size_t at = RtiMessage::CORE_HEADER_SIZE + 4;
        d[at + 3] = 2;                                                        // count 2
        std::vector<uint8_t> second(d.begin() + at + 4, d.begin() + at + 14); // handle 7 again
        d.insert(d.begin() + at + 14, second.begin(), second.end());
        d[3] = static_cast<uint8_t>(d.size()); // length field
        NS_TEST_EXPECT_MSG_EQ(Accept(d, reason), false, "a handle named twice");
        NS_TEST_EXPECT_MSG_NE(reason.find("twice"), std::string::npos, reason);
    }
};

/**
 * @ingroup testbed-tests
 * Two nodes on a point-to-point link with the Internet stack and addresses in a /24: the set-up
 * of the connection tests below.
 */
struct TwoNodes
{
    /**
     * @param network the /24 network's address
     */
    explicit TwoNodes(const char* network)
        : nodes(2)
    {
        PointToPointHelper p2p;
        devs = p2p.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper addr(network, "255.255.255.0");
        ifs = addr.Assign(devs);
    }

    NodeContainer nodes;        //!< the two nodes
    NetDeviceContainer devs;    //!< their devices
    Ipv4InterfaceContainer ifs; //!< their interfaces
};

/**
 * @ingroup testbed-tests
 * An RtiUdpConnection fed malformed datagrams from the network counts each, traces it with its
 * reason, drops it, and still delivers the well-formed datagram that follows (two nodes on a
 * point-to-point link; the datagrams come from a plain UDP socket).
 */
class RtiUdpMalformedTestCase : public TestCase
{
  public:
    RtiUdpMalformedTestCase()
        : TestCase("RtiUdpConnection: malformed datagrams are counted, traced and dropped")
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes link("10.9.0.0");
        NodeContainer& nodes = link.nodes;
        Ipv4InterfaceContainer& ifs = link.ifs;

        Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
        Ptr<RtiUdpConnection> conn = CreateObject<RtiUdpConnection>();
        conn->SetSocket(rx, Address(), true);
        std::vector<std::string> reasons;
        conn->TraceConnectWithoutContext(
            "Malformed",
            Callback<void, uint32_t, const std::string&>(
                [&reasons](uint32_t, const std::string& why) { reasons.push_back(why); }));
        std::vector<RtiMessage::Type> got;
        conn->SetDataCallback(Callback<void, Ptr<RtiConnection>>([&got](Ptr<RtiConnection> c) {
            for (const auto& m : c->Receive().messages)
            {
                got.push_back(m.GetType());
            }
        }));

        Ptr<Socket> tx = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        tx->Bind();
        InetSocketAddress to(ifs.GetAddress(1), 5000);
        RtiMessage g(RtiMessage::TIME_ADVANCE_GRANT);
        g.time = 1;
        std::vector<uint8_t> good(g.GetSerializedSize());
        g.SerializeTo(good.data(), good.size());
        std::vector<std::vector<uint8_t>> bad;
        bad.push_back({});                                 // empty
        bad.emplace_back(good.begin(), good.begin() + 10); // truncated header
        bad.push_back(good);                               //
        bad.back()[7] = 15;                                // header size 15
        bad.emplace_back(good.begin(), good.begin() + 16); // body truncated
        bad.back()[3] = 16;                                //  (length 16)
        std::vector<std::vector<uint8_t>> all = bad;
        all.push_back(good);
        for (size_t i = 0; i < all.size(); ++i)
        {
            Simulator::Schedule(MilliSeconds(1 + i), [tx, to, d = all[i]]() {
                tx->SendTo(Create<Packet>(d.data(), d.size()), 0, to);
            });
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(conn->GetNMalformed(), bad.size(), "every malformed one counted");
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), bad.size(), "and traced");
        NS_TEST_EXPECT_MSG_NE(reasons.at(2).find("header size"), std::string::npos, reasons.at(2));
        NS_TEST_EXPECT_MSG_EQ(got.size(), 1u, "the well-formed one delivered");
        NS_TEST_EXPECT_MSG_EQ(got.at(0), RtiMessage::TIME_ADVANCE_GRANT, "its type");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * An RtiTcpConnection whose stream carries a malformed frame (a length field below the core
 * header) delivers the messages before it, counts and traces the frame, closes the connection
 * and drops what follows; the simulation goes on.
 */
class RtiTcpMalformedTestCase : public TestCase
{
  public:
    RtiTcpMalformedTestCase()
        : TestCase("RtiTcpConnection: a malformed frame closes the connection, not the simulation")
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes link("10.9.1.0");
        NodeContainer& nodes = link.nodes;
        Ipv4InterfaceContainer& ifs = link.ifs;

        Ptr<RtiTcpConnection> conn = CreateObject<RtiTcpConnection>();
        std::vector<RtiMessage::Type> got;
        std::vector<std::string> reasons;
        conn->TraceConnectWithoutContext(
            "Malformed",
            Callback<void, uint32_t, const std::string&>(
                [&reasons](uint32_t, const std::string& why) { reasons.push_back(why); }));
        conn->SetDataCallback(Callback<void, Ptr<RtiConnection>>([&got](Ptr<RtiConnection> c) {
            for (const auto& m : c->Receive().messages)
            {
                got.push_back(m.GetType());
            }
        }));
        Ptr<Socket> listener = Socket::CreateSocket(nodes.Get(1), TcpSocketFactory::GetTypeId());
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 6000));
        listener->Listen();
        listener->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
            Callback<void, Ptr<Socket>, const Address&>(
                [conn](Ptr<Socket> s, const Address&) { conn->SetSocket(s); }));

        RtiMessage g(RtiMessage::TIME_ADVANCE_GRANT);
        g.time = 1;
        std::vector<uint8_t> stream(g.GetSerializedSize());
        g.SerializeTo(stream.data(), stream.size());
        std::vector<uint8_t> bad = {0, 0, 0, 8, 1, 2, 3, 4}; // length 8 < 16
        stream.insert(stream.end(), bad.begin(), bad.end());
        std::vector<uint8_t> again(g.GetSerializedSize());
        g.SerializeTo(again.data(), again.size());
        stream.insert(stream.end(), again.begin(), again.end());

        Ptr<Socket> tx = Socket::CreateSocket(nodes.Get(0), TcpSocketFactory::GetTypeId());
        tx->Bind();
        tx->SetConnectCallback(Callback<void, Ptr<Socket>>([stream](Ptr<Socket> s) {
                                   s->Send(Create<Packet>(stream.data(), stream.size()));
                               }),
                               MakeNullCallback<void, Ptr<Socket>>());
        InetSocketAddress server(ifs.GetAddress(1), 6000);
        Simulator::Schedule(MilliSeconds(1), [tx, server]() { tx->Connect(server); });
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(got.size(), 1u, "the message before the bad frame, not after");
        NS_TEST_EXPECT_MSG_EQ(conn->GetNMalformed(), 1u, "one malformed frame");
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 1u, "traced");
        NS_TEST_EXPECT_MSG_NE(reasons.at(0).find("frame length 8"),
                              std::string::npos,
                              reasons.at(0));
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * An RtiTcpConnection whose peer stops answering is lost when TCP gives up, at the instant
 * RFC 6298's backoff gives with ns-3's TcpSocket defaults (DataRetries 6, MinRto 1 s, the
 * RTO doubled on each expiry and capped at 60 s): the segment sent at t leaves again at
 * t+1, t+3, t+7, t+15, t+31 and t+63 s, and the seventh expiry, at t + 1+2+4+8+16+32+60 =
 * t+123 s, ends the connection. Nothing written after that aborts.
 */
class RtiTcpLostTestCase : public TestCase
{
  public:
    RtiTcpLostTestCase()
        : TestCase("RtiTcpConnection: lost when TCP gives up (RFC 6298 backoff, DataRetries 6)")
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes link("10.9.2.0");
        NodeContainer& nodes = link.nodes;
        NetDeviceContainer& devs = link.devs;
        Ipv4InterfaceContainer& ifs = link.ifs;

        Ptr<Socket> listener = Socket::CreateSocket(nodes.Get(1), TcpSocketFactory::GetTypeId());
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 6001));
        listener->Listen();

        Ptr<Socket> tx = Socket::CreateSocket(nodes.Get(0), TcpSocketFactory::GetTypeId());
        tx->Bind();
        Ptr<RtiTcpConnection> conn = CreateObject<RtiTcpConnection>();
        conn->SetSocket(tx);
        std::vector<Time> lost;
        conn->TraceConnectWithoutContext(
            "Lost",
            Callback<void, const std::string&>(
                [&lost](const std::string&) { lost.push_back(Simulator::Now()); }));
        InetSocketAddress server(ifs.GetAddress(1), 6001);
        Simulator::Schedule(MilliSeconds(1), [tx, server]() { tx->Connect(server); });
        // At 0.5 s (connected long before) the peer's device starts dropping every frame.
        Ptr<RateErrorModel> drop = CreateObject<RateErrorModel>();
        drop->SetAttribute("ErrorRate", DoubleValue(1.0));
        drop->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        Simulator::Schedule(MilliSeconds(500), [devs, drop]() {
            devs.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(drop));
        });
        RtiMessage g(RtiMessage::TIME_ADVANCE_GRANT);
        g.time = 1;
        const Time sentAt = Seconds(1);
        Simulator::Schedule(sentAt, [conn, g]() { conn->Send(g); });
        // After the loss: a write is dropped, not an abort.
        Simulator::Schedule(Seconds(200), [conn, g]() { conn->Send(g); });
        Simulator::Stop(Seconds(300));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(lost.size(), 1u, "lost once");
        NS_TEST_EXPECT_MSG_EQ(conn->IsLost(), true, "IsLost");
        const Time expected = sentAt + Seconds(1 + 2 + 4 + 8 + 16 + 32 + 60);
        NS_TEST_EXPECT_MSG_EQ_TOL(lost[0].GetSeconds(),
                                  expected.GetSeconds(),
                                  0.01,
                                  "TCP gives up at the seventh RTO expiry");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The RTI message suite.
 */
class RtiMessageTestSuite : public TestSuite
{
  public:
    RtiMessageTestSuite()
        : TestSuite("testbed-rti-message", Type::UNIT)
    {
        AddTestCase(new RtiMessageRoundTripTestCase, Duration::QUICK);
        AddTestCase(new RtiTimeManagerTestCase, Duration::QUICK);
        AddTestCase(new RtiMalformedTestCase, Duration::QUICK);
        AddTestCase(new RtiUdpMalformedTestCase, Duration::QUICK);
        AddTestCase(new RtiTcpMalformedTestCase, Duration::QUICK);
        AddTestCase(new RtiTcpLostTestCase, Duration::QUICK);
    }
};

static RtiMessageTestSuite g_rtiMessageTestSuite; //!< static instance
