/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RTI messages: byte-exact sizes from the encoding rules (hand-computed), serialization round
 * trips of every type, stream framing, malformed datagrams.
 */

#include "ns3/packet.h"
#include "ns3/rti-message.h"
#include "ns3/rti-time-manager.h"
#include "ns3/test.h"

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
    }
};

static RtiMessageTestSuite g_rtiMessageTestSuite; //!< static instance
