/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The simulated RTI end to end: grant rules in hand-worked scenarios (three federates with
 * different lookaheads, TSO messages in flight, zero lookahead with TARA, NER), in both GALT
 * modes; RO vs TSO delivery order; CRC routing counts; the cost model against a hand-summed
 * timeline; the best-effort (UDP) path; the Nagle attribute.
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/host-platform-helper.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/rti-helper.h"
#include "ns3/rti-message.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <cmath>
#include <memory>
#include <sstream>

using namespace ns3;

namespace
{

/** A federate driven by a script: records what the RTI delivers. */
class ScriptFederate : public FederateAmbassador
{
  public:
    /** What it declares once joined. */
    struct Config
    {
        bool regulating{true};        //!< enable regulation
        LogicalTime lookahead{1};     //!< lookahead
        bool constrained{true};       //!< enable constrained
        AttributeHandleSet publish;   //!< attributes of Data published (and an instance)
        AttributeHandleSet subscribe; //!< attributes of Data subscribed
        bool publishPing{false};      //!< publishes interaction Ping
        bool subscribePing{false};    //!< subscribes interaction Ping
    };

    std::string name;                           //!< name
    Config cfg;                                 //!< declarations
    Ptr<RtiAmbassador> amb;                     //!< its RTI ambassador
    ObjectInstanceHandle obj{0};                //!< its instance
    std::vector<std::string> log;               //!< "R<t>" (TSO), "RO", "G<t>", "I"
    std::vector<Time> logTimes;                 //!< simulation time of each log entry
    std::vector<HandleValueMap> values;         //!< values of each reflect
    std::vector<TransportationType> transports; //!< transport of each reflect
    Time constrainedAt{Seconds(-1)};            //!< when timeConstrainedEnabled came
    std::vector<uint32_t> evokes;               //!< callbacks delivered per evoke call
    std::vector<Time> evokeTimes;               //!< when each evoke call returned

    void FederationJoined(FederateHandle h) override
    {
        ObjectClassHandle data = amb->GetObjectClassHandle("Data");
        InteractionClassHandle ping = amb->GetInteractionClassHandle("Ping");
        if (!cfg.publish.empty())
        {
            amb->PublishObjectClassAttributes(data, cfg.publish);
            obj = amb->RegisterObjectInstance(data, name);
        }
        if (!cfg.subscribe.empty())
        {
            amb->SubscribeObjectClassAttributes(data, cfg.subscribe);
        }
        if (cfg.publishPing)
        {
            amb->PublishInteractionClass(ping);
        }
        if (cfg.subscribePing)
        {
            amb->SubscribeInteractionClass(ping);
        }
        if (cfg.regulating)
        {
            amb->EnableTimeRegulation(cfg.lookahead);
        }
        if (cfg.constrained)
        {
            amb->EnableTimeConstrained();
        }
    }

    void ReflectAttributeValues(ObjectInstanceHandle object,
                                const HandleValueMap& v,
                                const UserTag& tag,
                                OrderType sentOrder,
                                TransportationType transport,
                                LogicalTime time,
                                OrderType receivedOrder,
                                FederateHandle producer) override
    {
        std::ostringstream s;
        if (receivedOrder == OrderType::TIMESTAMP)
        {
            s << "R" << time;
        }
        else
        {
            s << "RO";
        }
        Add(s.str());
        values.push_back(v);
        transports.push_back(transport);
    }

    void ReceiveInteraction(InteractionClassHandle cls,
                            const HandleValueMap& p,
                            const UserTag& tag,
                            OrderType sentOrder,
                            TransportationType transport,
                            LogicalTime time,
                            OrderType receivedOrder,
                            FederateHandle producer) override
    {
        Add("I");
    }

    void EvokeReturned(uint32_t delivered) override
    {
        evokes.push_back(delivered);
        evokeTimes.push_back(Simulator::Now());
    }

    void TimeConstrainedEnabled(LogicalTime t) override
    {
        constrainedAt = Simulator::Now();
    }

    void TimeAdvanceGrant(LogicalTime t) override
    {
        std::ostringstream s;
        s << "G" << t;
        Add(s.str());
    }

    /**
     * Record an event.
     * @param e the event
     */
    void Add(const std::string& e)
    {
        log.push_back(e);
        logTimes.push_back(Simulator::Now());
    }

    /** @return the log as one string, entries separated by spaces */
    std::string Log() const
    {
        std::string s;
        for (const auto& e : log)
        {
            s += (s.empty() ? "" : " ") + e;
        }
        return s;
    }

    /**
     * Time of the first log entry equal to e.
     * @param e entry
     * @return its time, or -1 s
     */
    Time When(const std::string& e) const
    {
        for (uint32_t i = 0; i < log.size(); ++i)
        {
            if (log[i] == e)
            {
                return logTimes[i];
            }
        }
        return Seconds(-1);
    }

    /**
     * TSO update of its instance.
     * @param t timestamp
     */
    void UpdateTso(LogicalTime t)
    {
        HandleValueMap v;
        v[*cfg.publish.begin()] = std::vector<uint8_t>(8, 1);
        amb->UpdateAttributeValues(obj, v, UserTag(), t);
    }

    /**
     * RO update of some attributes.
     * @param attrs the attributes
     */
    void UpdateRo(const AttributeHandleSet& attrs)
    {
        HandleValueMap v;
        for (AttributeHandle a : attrs)
        {
            v[a] = std::vector<uint8_t>(4, a);
        }
        amb->UpdateAttributeValues(obj, v, UserTag());
    }
};

/** Two nodes joined by a point-to-point link, with host platforms, and an RTI federation. */
class TestFederation
{
  public:
    /**
     * Build it.
     * @param mode GALT mode
     * @param linkDelay one-way link delay
     * @param noDelay TCP_NODELAY
     */
    TestFederation(RtiSettings::GaltMode mode,
                   Time linkDelay = MilliSeconds(10),
                   bool noDelay = true)
    {
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", TimeValue(linkDelay));
        devices = p2p.Install(nodes);
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper addr("10.9.0.0", "255.255.255.0");
        addr.Assign(devices);
        HostPlatformHelper hosts;
        hosts.SetInstallNics(false);
        hosts.Install(nodes);
        rti.SetSettingsAttribute("GaltMode", EnumValue(mode));
        rti.SetSettingsAttribute("TcpNoDelay", BooleanValue(noDelay));
        rti.GetFom()->AddObjectClass("Data", {"a", "b"});
        rti.GetFom()->AddInteractionClass("Ping", {"x"});
        crc = rti.InstallCrc(nodes.Get(0));
    }

    /**
     * Add a federate; it joins at once.
     * @param name name
     * @param node node index
     * @param cfg declarations
     * @return the federate
     */
    ScriptFederate* Add(const std::string& name, uint32_t node, ScriptFederate::Config cfg)
    {
        feds.push_back(std::make_unique<ScriptFederate>());
        ScriptFederate* f = feds.back().get();
        f->name = name;
        f->cfg = cfg;
        f->amb = rti.InstallFederate(nodes.Get(node), f);
        f->amb->JoinFederationExecution(name, "Test", "TestFederation");
        return f;
    }

    /**
     * Add a federate that is neither regulating nor constrained; it joins at once.
     * @param name name
     * @param node node index
     * @param publish attributes of Data it publishes
     * @param subscribe attributes of Data it subscribes
     * @return the federate
     */
    ScriptFederate* AddUntimed(const std::string& name,
                               uint32_t node,
                               const AttributeHandleSet& publish,
                               const AttributeHandleSet& subscribe = {})
    {
        ScriptFederate::Config c;
        c.regulating = c.constrained = false;
        c.publish = publish;
        c.subscribe = subscribe;
        return Add(name, node, c);
    }

    NodeContainer nodes;                               //!< nodes
    NetDeviceContainer devices;                        //!< devices
    RtiHelper rti;                                     //!< the federation
    Ptr<RtiCentralComponent> crc;                      //!< the CRC
    std::vector<std::unique_ptr<ScriptFederate>> feds; //!< federates
};

/** Start of the scripted part (every join and declaration is done by then). */
const Time T0 = Seconds(1);

/**
 * Time of script step k.
 * @param k step
 * @return T0 + k * 100 ms
 */
Time
Step(int k)
{
    return T0 + MilliSeconds(100 * k);
}

/**
 * Name of a GALT mode.
 * @param mode the mode
 * @return "central" or "null messages"
 */
std::string
ModeName(RtiSettings::GaltMode mode)
{
    return mode == RtiSettings::CENTRAL ? "central" : "null messages";
}

} // namespace

/**
 * @ingroup testbed-tests
 * Three federates with lookaheads 1, 2, 3 on the CRC's node (zero costs: everything happens at
 * the script instants). The expected grants and deliveries are worked out by hand in the
 * comments; both GALT modes must give them.
 */
class RtiThreeFederatesTestCase : public TestCase
{
  public:
    /**
     * @param mode GALT mode
     */
    RtiThreeFederatesTestCase(RtiSettings::GaltMode mode)
        : TestCase("RTI grant rules: three federates, lookaheads 1, 2, 3, TSO order ("
                   + ModeName(mode) + ")")
        , m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(m_mode);
        ScriptFederate::Config c;
        c.publish = {1};
        c.subscribe = {1};
        c.lookahead = 1;
        ScriptFederate* f1 = fed.Add("F1", 0, c);
        c.lookahead = 2;
        ScriptFederate* f2 = fed.Add("F2", 0, c);
        c.lookahead = 3;
        ScriptFederate* f3 = fed.Add("F3", 0, c);

        // s0: F3 (granted 0, bound 0 + 3) sends TSO 3.5 and an RO update. F1 and F2 are
        //     constrained and not advancing: the RO update waits for their next request.
        Simulator::Schedule(Step(0), [=]() {
            f3->UpdateTso(3.5);
            f3->UpdateRo({1});
        });
        // s1: F1 TAR(5) (bound 6), F2 TAR(3) (bound 5). F3 bound 3: GALT_F2 = min(6, 3) = 3, not
        //     > 3: F2 waits (a message at 3 is possible). Both get the held RO update now.
        Simulator::Schedule(Step(1), [=]() {
            f1->amb->TimeAdvanceRequest(5);
            f2->amb->TimeAdvanceRequest(3);
        });
        // s2: F3 TAR(4) (bound 7): GALT_F2 = min(6, 7) = 6 > 3: F2 granted 3 (3.5 stays
        //     queued); GALT_F3 = min(6, 5) = 5 > 4: F3 granted 4; GALT_F1 = min(5, 7) = 5, not
        //     > 5: F1 waits.
        Simulator::Schedule(Step(2), [=]() { f3->amb->TimeAdvanceRequest(4); });
        // s3: F2 TAR(10) (bound 12): GALT_F1 = min(12, 7) = 7 > 5: F1 granted 5 after TSO 3.5.
        //     GALT_F2 = min(6, 7) = 6: F2 waits.
        Simulator::Schedule(Step(3), [=]() { f2->amb->TimeAdvanceRequest(10); });
        // s4: F1 (granted 5, bound 6) sends TSO 8, then TSO 6.
        Simulator::Schedule(Step(4), [=]() {
            f1->UpdateTso(8);
            f1->UpdateTso(6);
        });
        // s5: F1 TAR(20) (bound 21), F3 TAR(20) (bound 23): GALT_F2 = 21 > 10: F2 granted 10
        //     after 3.5, 6, 8 in timestamp order. GALT_F1 = min(12, 23) = 12 and GALT_F3 =
        //     min(21, 12) = 12: both wait.
        Simulator::Schedule(Step(5), [=]() {
            f1->amb->TimeAdvanceRequest(20);
            f3->amb->TimeAdvanceRequest(20);
        });
        // s6: F2 TAR(30) (bound 32): GALT_F1 = min(32, 23) = 23 > 20 and GALT_F3 = min(21, 32)
        //     = 21 > 20: both granted 20; F3 first gets F1's 6 and 8.
        Simulator::Schedule(Step(6), [=]() { f2->amb->TimeAdvanceRequest(30); });
        Simulator::Stop(Step(8));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(f1->Log(), "RO R3.5 G5 G20", "F1 deliveries");
        NS_TEST_EXPECT_MSG_EQ(f2->Log(), "RO G3 R3.5 R6 R8 G10", "F2 deliveries");
        NS_TEST_EXPECT_MSG_EQ(f3->Log(), "G4 R6 R8 G20", "F3 deliveries");
        NS_TEST_EXPECT_MSG_EQ(f1->When("RO"), Step(1), "RO held until F1 advances");
        NS_TEST_EXPECT_MSG_EQ(f2->When("G3"), Step(2), "F2 granted 3 on F3's request");
        NS_TEST_EXPECT_MSG_EQ(f1->When("G5"), Step(3), "F1 granted 5 on F2's request");
        NS_TEST_EXPECT_MSG_EQ(f3->When("G4"), Step(2), "F3 granted 4 on its own request");
        NS_TEST_EXPECT_MSG_EQ(f2->When("G10"), Step(5), "F2 granted 10 at step 5");
        NS_TEST_EXPECT_MSG_EQ(f1->When("G20"), Step(6), "F1 granted 20 at step 6");
        NS_TEST_EXPECT_MSG_EQ(f3->When("G20"), Step(6), "F3 granted 20 at step 6");
        for (const auto& f : fed.feds)
        {
            NS_TEST_EXPECT_MSG_EQ(f->amb->GetNLateTso(), 0u, "no TSO message after its grant");
        }
        Simulator::Destroy();
    }

    RtiSettings::GaltMode m_mode; //!< GALT mode
};

/**
 * @ingroup testbed-tests
 * A TSO message in flight across a 10 ms link is delivered before the grant it precedes, and
 * the grant times show the two GALT algorithms' critical paths: central = the far federate's
 * request to the CRC and the grant back (two crossings); null messages = the two federates'
 * null messages crossing at once (one crossing).
 */
class RtiInFlightTestCase : public TestCase
{
  public:
    /**
     * @param mode GALT mode
     */
    RtiInFlightTestCase(RtiSettings::GaltMode mode)
        : TestCase("RTI: TSO message in flight before the grant, 10 ms link (" + ModeName(mode)
                   + ")")
        , m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(m_mode, MilliSeconds(10));
        ScriptFederate::Config c;
        c.publish = {1};
        ScriptFederate* s = fed.Add("sender", 0, c); // with the CRC
        c.publish.clear();
        c.subscribe = {1};
        ScriptFederate* r = fed.Add("receiver", 1, c); // across the link
        Simulator::Schedule(T0, [=]() {
            s->UpdateTso(1);
            s->amb->TimeAdvanceRequest(1);
            r->amb->TimeAdvanceRequest(1);
        });
        Simulator::Stop(T0 + Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(r->Log(), "R1 G1", "the update precedes the grant");
        NS_TEST_EXPECT_MSG_EQ(r->When("R1"), r->When("G1"), "delivered with the grant");
        // Small segments at 100 Mb/s take microseconds: allow 0.2 ms on top of the delays.
        Time tol = MicroSeconds(200);
        Time sg = s->When("G1") - T0;
        Time rg = r->When("G1") - T0;
        if (m_mode == RtiSettings::CENTRAL)
        {
            // The receiver's TAR reaches the CRC after 10 ms: the sender (local) is granted;
            // the receiver's grant crosses back: 20 ms.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(sg, MilliSeconds(10), "sender grant");
            NS_TEST_EXPECT_MSG_LT(sg, MilliSeconds(10) + tol, "sender grant");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(rg, MilliSeconds(20), "receiver grant");
            NS_TEST_EXPECT_MSG_LT(rg, MilliSeconds(20) + tol, "receiver grant");
        }
        else
        {
            // Both null messages cross the link once, at the same time: both grants at 10 ms.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(sg, MilliSeconds(10), "sender grant");
            NS_TEST_EXPECT_MSG_LT(sg, MilliSeconds(10) + tol, "sender grant");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(rg, MilliSeconds(10), "receiver grant");
            NS_TEST_EXPECT_MSG_LT(rg, MilliSeconds(10) + tol, "receiver grant");
        }
        Simulator::Destroy();
    }

    RtiSettings::GaltMode m_mode; //!< GALT mode
};

/**
 * @ingroup testbed-tests
 * The CRC's TSO bookkeeping (RtiSettings TsoBookkeeping), hand-timed on the in-flight case: a
 * sender on the CRC's node sends one TSO update to a receiver across a 10 ms link; both request
 * the update's time at T0. None: the update reaches the receiver at 10 ms, its request reaches the
 * CRC at 10 ms, so the sender is granted at 10 ms and the receiver's grant, following the update
 * on its connection, at 20 ms. Counts: the same (the request is 8 bytes longer: 0.64 ns at
 * 100 Mb/s); the CRC checks the counts. ReadNotes: the receiver's note of the update leaves at
 * 10 ms and reaches the CRC at 20 ms; its grant waits for it and arrives at 30 ms, one crossing
 * later; the sender's grant does not wait (it reads nothing).
 */
class RtiTsoBookkeepingTestCase : public TestCase
{
  public:
    /**
     * @param bookkeeping the CRC's TSO bookkeeping
     * @param name its name
     */
    RtiTsoBookkeepingTestCase(RtiSettings::TsoBookkeeping bookkeeping, const std::string& name)
        : TestCase("RTI: the CRC's TSO bookkeeping " + name + ", hand-timed")
        , m_bookkeeping(bookkeeping)
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(RtiSettings::CENTRAL, MilliSeconds(10));
        fed.rti.GetSettings()->SetAttribute("TsoBookkeeping", EnumValue(m_bookkeeping));
        ScriptFederate::Config c;
        c.publish = {1};
        ScriptFederate* s = fed.Add("sender", 0, c);
        c.publish.clear();
        c.subscribe = {1};
        ScriptFederate* r = fed.Add("receiver", 1, c);
        uint64_t notes0 = 0;
        Simulator::Schedule(T0, [&]() {
            notes0 = fed.crc->GetNReceived(RtiMessage::TSO_NOTE_READ);
            s->UpdateTso(1);
            s->amb->TimeAdvanceRequest(1);
            r->amb->TimeAdvanceRequest(1);
        });
        Simulator::Stop(T0 + Seconds(1));
        Simulator::Run();
        const bool notes = m_bookkeeping == RtiSettings::TSO_READ_NOTES;
        NS_TEST_EXPECT_MSG_EQ(r->Log(), "R1 G1", "the update precedes the grant");
        NS_TEST_EXPECT_MSG_EQ(fed.crc->GetNReceived(RtiMessage::TSO_NOTE_READ) - notes0,
                              notes ? 1u : 0u,
                              "one note per TSO message read, with ReadNotes only");
        Time tol = MicroSeconds(200);
        Time sg = s->When("G1") - T0;
        Time rg = r->When("G1") - T0;
        Time expected = MilliSeconds(notes ? 30 : 20);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(sg, MilliSeconds(10), "sender grant");
        NS_TEST_EXPECT_MSG_LT(sg, MilliSeconds(10) + tol, "sender grant");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(rg, expected, "receiver grant");
        NS_TEST_EXPECT_MSG_LT(rg, expected + tol, "receiver grant");
        Simulator::Destroy();
    }

    RtiSettings::TsoBookkeeping m_bookkeeping; //!< the CRC's TSO bookkeeping
};

/**
 * @ingroup testbed-tests
 * Zero lookahead: TARA lets two federates advance together and exchange messages at the
 * granted time; TAR with zero lookahead also advances (open bounds).
 */
class RtiZeroLookaheadTestCase : public TestCase
{
  public:
    /**
     * @param mode GALT mode
     */
    RtiZeroLookaheadTestCase(RtiSettings::GaltMode mode)
        : TestCase("RTI: zero lookahead with TARA and TAR (" + ModeName(mode) + ")")
        , m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(m_mode);
        ScriptFederate::Config c;
        c.lookahead = 0;
        c.publish = {1};
        c.subscribe = {1};
        ScriptFederate* f1 = fed.Add("F1", 0, c);
        ScriptFederate* f2 = fed.Add("F2", 0, c);
        // s1: both TARA(1): bounds (1, closed); GALT >= 1: both granted 1.
        Simulator::Schedule(Step(1), [=]() {
            f1->amb->TimeAdvanceRequestAvailable(1);
            f2->amb->TimeAdvanceRequestAvailable(1);
        });
        // s2: after a TARA grant with L = 0, F1 may send at its own time 1.
        Simulator::Schedule(Step(2), [=]() { f1->UpdateTso(1); });
        // s3: F2 TARA(2): F1's bound is 1 (closed): GALT 1 < 2: waits.
        Simulator::Schedule(Step(3), [=]() { f2->amb->TimeAdvanceRequestAvailable(2); });
        // s4: F1 TARA(2): bounds 2: both granted 2, F2 gets the message at 1 first.
        Simulator::Schedule(Step(4), [=]() { f1->amb->TimeAdvanceRequestAvailable(2); });
        // s5: both TAR(3) with L = 0: bounds (3, open): GALT 3+ > 3: granted 3.
        Simulator::Schedule(Step(5), [=]() {
            f1->amb->TimeAdvanceRequest(3);
            f2->amb->TimeAdvanceRequest(3);
        });
        Simulator::Stop(Step(7));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f1->Log(), "G1 G2 G3", "F1");
        NS_TEST_EXPECT_MSG_EQ(f2->Log(), "G1 R1 G2 G3", "F2");
        NS_TEST_EXPECT_MSG_EQ(f1->When("G1"), Step(1), "TARA(1)");
        NS_TEST_EXPECT_MSG_EQ(f2->When("G2"), Step(4), "F2 waits for F1's TARA(2)");
        NS_TEST_EXPECT_MSG_EQ(f2->When("G3"), Step(5), "TAR with zero lookahead");
        NS_TEST_EXPECT_MSG_EQ(f2->amb->GetNLateTso(), 0u, "message at 1 not late after TARA");
        // After a TAR grant at 3 with L = 0 the bound is open: a message at 3 is refused.
        RtiTimeManager::State granted3;
        granted3.regulating = true;
        granted3.constrained = true;
        granted3.time = 3;
        TimeBound b = RtiTimeManager::OutputBound(granted3, TimeBound());
        NS_TEST_EXPECT_MSG_EQ(b.Allows(3), false, "TAR, L = 0: no message at 3");
        Simulator::Destroy();
    }

    RtiSettings::GaltMode m_mode; //!< GALT mode
};

/**
 * @ingroup testbed-tests
 * Next message requests do not deadlock: three federates NER(10) with no messages are all
 * granted 10; with a message at 4 the receiver is granted 4 first; with zero lookahead (central
 * mode) NER(10) is granted 10 too.
 */
class RtiNerTestCase : public TestCase
{
  public:
    /**
     * @param mode GALT mode
     */
    RtiNerTestCase(RtiSettings::GaltMode mode)
        : TestCase("RTI: deadlock-free NER (" + ModeName(mode) + ")")
        , m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        {
            TestFederation fed(m_mode);
            ScriptFederate::Config c;
            c.publish = {1};
            c.subscribe = {1};
            ScriptFederate* f1 = fed.Add("F1", 0, c);
            ScriptFederate* f2 = fed.Add("F2", 0, c);
            c.subscribe.clear();
            ScriptFederate* f3 = fed.Add("F3", 0, c);
            // s0: F2 (bound 1) sends TSO 4 (to F1; F3 does not subscribe).
            Simulator::Schedule(Step(0), [=]() { f2->UpdateTso(4); });
            // s1: F1, F2 NER(10); F3 NER(10). F1 has the message at 4: b1 = 4 + 1 = 5,
            //     b2 = min(10, 5, b3) + 1, b3 = min(10, 5, b2) + 1: b2 = b3 = 6. GALT_F1 = 6 > 4:
            //     F1 granted 4 after the message; GALT_F2 = GALT_F3 = 5: they wait.
            Simulator::Schedule(Step(1), [=]() {
                f1->amb->NextMessageRequest(10);
                f2->amb->NextMessageRequest(10);
                f3->amb->NextMessageRequest(10);
            });
            // s2: F1 NER(10) again: b = 11, 11, 11: everyone granted 10.
            Simulator::Schedule(Step(2), [=]() { f1->amb->NextMessageRequest(10); });
            Simulator::Stop(Step(4));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(f1->Log(), "R4 G4 G10", "F1");
            NS_TEST_EXPECT_MSG_EQ(f2->Log(), "G10", "F2");
            NS_TEST_EXPECT_MSG_EQ(f3->Log(), "G10", "F3");
            NS_TEST_EXPECT_MSG_EQ(f1->When("G4"), Step(1), "granted at the message");
            NS_TEST_EXPECT_MSG_EQ(f2->When("G10"), Step(2), "granted 10");
            if (m_mode == RtiSettings::NULL_MESSAGES)
            {
                // Null messages climb by the lookahead: several per federate.
                NS_TEST_EXPECT_MSG_GT(f2->amb->GetNNullSent(), 5u, "null message rounds");
            }
            Simulator::Destroy();
        }
        if (m_mode == RtiSettings::CENTRAL)
        {
            // Zero lookahead: the CRC's fixed point resolves the cycle.
            TestFederation fed(m_mode);
            ScriptFederate::Config c;
            c.lookahead = 0;
            ScriptFederate* f1 = fed.Add("F1", 0, c);
            ScriptFederate* f2 = fed.Add("F2", 0, c);
            Simulator::Schedule(Step(1), [=]() {
                f1->amb->NextMessageRequest(10);
                f2->amb->NextMessageRequest(10);
            });
            Simulator::Stop(Step(3));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(f1->Log(), "G10", "F1, zero lookahead");
            NS_TEST_EXPECT_MSG_EQ(f2->Log(), "G10", "F2, zero lookahead");
            Simulator::Destroy();
        }
    }

    RtiSettings::GaltMode m_mode; //!< GALT mode
};

/**
 * @ingroup testbed-tests
 * The CRC routes each update to the federates subscribed to at least one of its attributes
 * (values filtered to the subscribed ones), interactions to their subscribers, and nobody else.
 */
class RtiRoutingTestCase : public TestCase
{
  public:
    RtiRoutingTestCase()
        : TestCase("RTI: CRC routing counts and attribute filtering")
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(RtiSettings::CENTRAL);
        ScriptFederate::Config c;
        c.regulating = c.constrained = false;
        c.publish = {1, 2};
        c.publishPing = true;
        ScriptFederate* p = fed.Add("P", 0, c);
        c.publish.clear();
        c.publishPing = false;
        c.subscribe = {1};
        c.subscribePing = true;
        ScriptFederate* s1 = fed.Add("S1", 0, c);
        c.subscribe = {1, 2};
        c.subscribePing = false;
        ScriptFederate* s2 = fed.Add("S2", 1, c);
        c.subscribe = {2};
        ScriptFederate* s3 = fed.Add("S3", 1, c);
        c.subscribe.clear();
        c.subscribePing = true;
        ScriptFederate* n = fed.Add("N", 0, c);
        Simulator::Schedule(T0, [=]() {
            p->UpdateRo({1});    // S1, S2
            p->UpdateRo({2});    // S2, S3
            p->UpdateRo({1, 2}); // S1, S2, S3
            InteractionClassHandle ping = p->amb->GetInteractionClassHandle("Ping");
            HandleValueMap v;
            v[1] = {42};
            p->amb->SendInteraction(ping, v, UserTag()); // S1, N
        });
        Simulator::Stop(T0 + Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(fed.crc->GetNReceived(RtiMessage::UPDATE_ATTRIBUTES), 3u, "updates");
        NS_TEST_EXPECT_MSG_EQ(fed.crc->GetNSent(RtiMessage::REFLECT_ATTRIBUTES), 7u, "reflects");
        NS_TEST_EXPECT_MSG_EQ(fed.crc->GetNSent(RtiMessage::RECEIVE_INTERACTION),
                              2u,
                              "interactions");
        NS_TEST_EXPECT_MSG_EQ(fed.crc->GetNSent(RtiMessage::DISCOVER_OBJECT), 3u, "discovers");
        NS_TEST_EXPECT_MSG_EQ(s1->Log(), "RO RO I", "S1");
        NS_TEST_EXPECT_MSG_EQ(s2->Log(), "RO RO RO", "S2");
        NS_TEST_EXPECT_MSG_EQ(s3->Log(), "RO RO", "S3");
        NS_TEST_EXPECT_MSG_EQ(n->Log(), "I", "N: the interaction only");
        NS_TEST_EXPECT_MSG_EQ(s1->values[1].size(), 1u, "S1 gets attribute a only");
        NS_TEST_EXPECT_MSG_EQ(s1->values[1].count(1), 1u, "attribute a");
        NS_TEST_EXPECT_MSG_EQ(s2->values[2].size(), 2u, "S2 gets a and b");
        NS_TEST_EXPECT_MSG_EQ(p->log.size(), 0u, "nothing back to the sender");
        Simulator::Destroy();
    }
};

/**
 * A publisher P and a subscriber S of object class 1 on the CRC's node, neither time-managed.
 * @param fed the federation
 * @return P and S
 */
static std::pair<ScriptFederate*, ScriptFederate*>
AddPublisherAndSubscriber(TestFederation& fed)
{
    return {fed.AddUntimed("P", 0, {1}), fed.AddUntimed("S", 0, {}, {1})};
}

/**
 * The cost test's set-up: RTI costs of call 500, encode 300, decode 200, route 700 and callback
 * 400 cycles, the CRC's node sending for 2000 and receiving for 1000 cycles, and on that node a
 * publisher and a subscriber (AddPublisherAndSubscriber).
 * @param fed the federation (built by the caller; its other attributes are the caller's)
 * @return P and S
 */
static std::pair<ScriptFederate*, ScriptFederate*>
AddCostedPair(TestFederation& fed)
{
    Ptr<RtiSettings> st = fed.rti.GetSettings();
    st->SetAttribute("CallCost", DoubleValue(500));
    st->SetAttribute("EncodeCost", DoubleValue(300));
    st->SetAttribute("DecodeCost", DoubleValue(200));
    st->SetAttribute("RouteCost", DoubleValue(700));
    st->SetAttribute("CallbackCost", DoubleValue(400));
    Ptr<HostPlatform> host = fed.nodes.Get(0)->GetObject<HostPlatform>();
    host->SetAttribute("SendCost", DoubleValue(2000));
    host->SetAttribute("RecvCost", DoubleValue(1000));
    return AddPublisherAndSubscriber(fed);
}

/**
 * @ingroup testbed-tests
 * Processing costs: one RO update between two federates on the CRC's node (1 GHz, one core,
 * no context-switch or wake-up latency), hand-summed: sender call 500 + encode 300 + send 2000
 * cycles; CRC receive 1000 + decode 200 + route 700 + encode 300 + send 2000; receiver receive
 * 1000 + decode 200 + callback 400: the reflect comes 2800 + 4200 + 1600 = 8600 ns after the
 * call. On two cores the three processes run on whichever core is free: same sum (they are
 * sequential).
 */
class RtiCostTestCase : public TestCase
{
  public:
    RtiCostTestCase()
        : TestCase("RTI: per-operation CPU costs add up on the host")
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(RtiSettings::CENTRAL);
        std::pair<ScriptFederate*, ScriptFederate*> ps = AddCostedPair(fed);
        ScriptFederate* p = ps.first;
        ScriptFederate* s = ps.second;
        double p0 = 0;
        double c0 = 0;
        double s0 = 0;
        Simulator::Schedule(T0, [&]() {
            p0 = p->amb->GetCyclesCharged();
            c0 = fed.crc->GetCyclesCharged();
            s0 = s->amb->GetCyclesCharged();
            p->UpdateRo({1});
        });
        Simulator::Stop(T0 + Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(s->When("RO"), T0 + NanoSeconds(8600), "reflect time");
        NS_TEST_EXPECT_MSG_EQ_TOL(p->amb->GetCyclesCharged() - p0, 2800.0, 1e-6, "sender cycles");
        NS_TEST_EXPECT_MSG_EQ_TOL(fed.crc->GetCyclesCharged() - c0, 4200.0, 1e-6, "CRC cycles");
        NS_TEST_EXPECT_MSG_EQ_TOL(s->amb->GetCyclesCharged() - s0, 1600.0, 1e-6, "receiver cycles");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The cost test's update with every component's VM collecting its young generation: eden 1000
 * bytes and 1000 bytes allocated per operation, so every operation fills eden exactly once
 * whatever its start-up occupancy (drawn in [0, 1000)), and every pause lasts 10 us (10 000
 * cycles at 1 GHz). The sender's call and encode, the CRC's decode, routing and encode and the
 * receiver's decode and callback are 7 operations: 2, 3 and 2 collections, and the reflect comes
 * 8600 ns + 7 x 10 us = 78 600 ns after the call.
 */
class RtiMinorGcTestCase : public TestCase
{
  public:
    RtiMinorGcTestCase()
        : TestCase("RTI: minor collections from allocation per operation, hand-timed")
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(RtiSettings::CENTRAL);
        Ptr<RtiSettings> st = fed.rti.GetSettings();
        st->SetAttribute("AllocationPerOperation", DoubleValue(1000));
        st->SetAttribute("EdenSize", DoubleValue(1000));
        st->SetAttribute("MinorGcPauseMin", TimeValue(MicroSeconds(10)));
        st->SetAttribute("MinorGcPauseMax", TimeValue(MicroSeconds(10)));
        std::pair<ScriptFederate*, ScriptFederate*> ps = AddCostedPair(fed);
        ScriptFederate* p = ps.first;
        ScriptFederate* s = ps.second;
        uint64_t p0 = 0;
        uint64_t c0 = 0;
        uint64_t s0 = 0;
        Simulator::Schedule(T0, [&]() {
            p0 = p->amb->GetMinorGcs();
            c0 = fed.crc->GetMinorGcs();
            s0 = s->amb->GetMinorGcs();
            p->UpdateRo({1});
        });
        Simulator::Stop(T0 + Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(s->When("RO"), T0 + NanoSeconds(78600), "reflect time");
        NS_TEST_EXPECT_MSG_EQ(p->amb->GetMinorGcs() - p0, 2u, "sender's collections");
        NS_TEST_EXPECT_MSG_EQ(fed.crc->GetMinorGcs() - c0, 3u, "CRC's collections");
        NS_TEST_EXPECT_MSG_EQ(s->amb->GetMinorGcs() - s0, 2u, "receiver's collections");
        Simulator::Destroy();
    }
};

/**
 * The CRC's cycles charged before each of n routed updates and after the last, on the cost
 * test's set-up (AddCostedPair): decode 200 + route 700 + encode 300 cycles of varied RTI work
 * per update and the host's receive (1000) and send (2000) cycles, one update a millisecond.
 * Runs the simulator (the caller destroys it).
 * @param fed the federation (its settings' variation attributes set by the caller)
 * @param n updates
 * @return n + 1 samples of the CRC's cycles charged
 */
static std::vector<double>
CrcCyclesPerUpdate(TestFederation& fed, int n)
{
    ScriptFederate* p = AddCostedPair(fed).first;
    std::vector<double> charged;
    for (int i = 0; i <= n; ++i)
    {
        Simulator::Schedule(T0 + MilliSeconds(i), [&fed, &charged, p, i, n]() {
            charged.push_back(fed.crc->GetCyclesCharged());
            if (i < n)
            {
                p->UpdateRo({1});
            }
        });
    }
    Simulator::Stop(T0 + Seconds(1));
    Simulator::Run();
    return charged;
}

/**
 * @ingroup testbed-tests
 * Cost variation 0.5: the CRC's varied work per routed update (decode 200 + route 700 + encode
 * 300 cycles; its receive and send costs are the host's, not varied) keeps its mean of 1200
 * cycles over 400 updates (within 4 standard errors: sd per update 0.5 x sqrt(200^2 + 700^2 +
 * 300^2) = 394 cycles, 80 cycles over 400) and varies from update to update with that sd
 * (within 25 %).
 */
class RtiCostVariationTestCase : public TestCase
{
  public:
    RtiCostVariationTestCase()
        : TestCase("RTI: per-operation cost variation keeps the mean, has the stated spread")
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(RtiSettings::CENTRAL);
        fed.rti.GetSettings()->SetAttribute("CostVariation", DoubleValue(0.5));
        const int n = 400;
        std::vector<double> charged = CrcCyclesPerUpdate(fed, n);
        NS_TEST_ASSERT_MSG_EQ(charged.size(), std::size_t(n + 1), "samples");
        double sum = 0;
        double sum2 = 0;
        for (int i = 0; i < n; ++i)
        {
            double varied = charged[i + 1] - charged[i] - 3000; // receive 1000 and send 2000
            sum += varied;
            sum2 += varied * varied;
        }
        double mean = sum / n;
        double sd = std::sqrt((sum2 - n * mean * mean) / (n - 1));
        NS_TEST_EXPECT_MSG_EQ_TOL(mean, 1200.0, 80.0, "mean varied cycles per update");
        NS_TEST_EXPECT_MSG_EQ_TOL(sd, 393.7, 0.25 * 393.7, "sd of the varied cycles");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Invocation variation 0.2 (a component's factor for its whole run): in each of 100 federations
 * (100 runs: each builds its components afresh) the CRC's varied work (decode 200 + route 700 +
 * encode 300 cycles) is the same for its three updates, 1200 f; f over the runs has mean 1
 * (within 4 standard errors, 4 x 0.2 / sqrt(100) = 0.08) and a coefficient of variation of 0.2
 * (within 30 %, about 4 standard errors of a sd from 100 draws).
 */
class RtiInvocationVariationTestCase : public TestCase
{
  public:
    RtiInvocationVariationTestCase()
        : TestCase("RTI: a run's cost factor holds for every operation, has the stated spread")
    {
    }

  private:
    void DoRun() override
    {
        const int runs = 100;
        double sum = 0;
        double sum2 = 0;
        for (int r = 0; r < runs; ++r)
        {
            TestFederation fed(RtiSettings::CENTRAL);
            fed.rti.GetSettings()->SetAttribute("InvocationVariation", DoubleValue(0.2));
            std::vector<double> charged = CrcCyclesPerUpdate(fed, 3);
            NS_TEST_ASSERT_MSG_EQ(charged.size(), std::size_t(4), "samples");
            double f = (charged[1] - charged[0] - 3000) / 1200; // receive 1000 and send 2000
            for (int i = 1; i < 3; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL((charged[i + 1] - charged[i] - 3000) / 1200,
                                          f,
                                          1e-9,
                                          "the run's factor holds for every update");
            }
            sum += f;
            sum2 += f * f;
            Simulator::Destroy();
        }
        double mean = sum / runs;
        double sd = std::sqrt((sum2 - runs * mean * mean) / (runs - 1));
        NS_TEST_EXPECT_MSG_EQ_TOL(mean, 1.0, 0.08, "mean factor over the runs");
        NS_TEST_EXPECT_MSG_EQ_TOL(sd, 0.2, 0.3 * 0.2, "sd of the factor over the runs");
    }
};

/**
 * @ingroup testbed-tests
 * Thread hand-offs of 100 cycles with write batching (an I/O thread): the cost test's update
 * pays one hand-off at the sender (to its I/O thread), two at the CRC (reader to core, core to
 * I/O thread) and one at the receiver (reader to the federate's thread; it writes nothing):
 * sender 500 + 300 + 100 + 2000, CRC 1000 + 100 + 200 + 700 + 300 + 100 + 2000, receiver 1000 +
 * 100 + 200 + 400 cycles: the reflect 2900 + 4400 + 1700 = 9000 ns after the call.
 */
class RtiThreadHandoffTestCase : public TestCase
{
  public:
    RtiThreadHandoffTestCase()
        : TestCase("RTI: thread hand-offs on the update's path, hand-timed")
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(RtiSettings::CENTRAL);
        Ptr<RtiSettings> st = fed.rti.GetSettings();
        st->SetAttribute("WriteBatching", BooleanValue(true));
        st->SetAttribute("ThreadHandoffCost", DoubleValue(100));
        std::pair<ScriptFederate*, ScriptFederate*> ps = AddCostedPair(fed);
        ScriptFederate* p = ps.first;
        ScriptFederate* s = ps.second;
        uint64_t p0 = 0;
        uint64_t c0 = 0;
        uint64_t s0 = 0;
        Simulator::Schedule(T0, [&]() {
            p0 = p->amb->GetThreadHandoffs();
            c0 = fed.crc->GetThreadHandoffs();
            s0 = s->amb->GetThreadHandoffs();
            p->UpdateRo({1});
        });
        Simulator::Stop(T0 + Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(s->When("RO"), T0 + NanoSeconds(9000), "reflect time");
        NS_TEST_EXPECT_MSG_EQ(p->amb->GetThreadHandoffs() - p0, 1u, "sender's hand-offs");
        NS_TEST_EXPECT_MSG_EQ(fed.crc->GetThreadHandoffs() - c0, 2u, "CRC's hand-offs");
        NS_TEST_EXPECT_MSG_EQ(s->amb->GetThreadHandoffs() - s0, 1u, "receiver's hand-offs");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The CRC's write order when one turn writes to a federate on its own node and to one on the
 * other: an update from a federate on the CRC's node routed to a subscriber there (L) and one on
 * the other node (R), with write batching (one write per connection, 2000 cycles each at 1 GHz).
 * R's segment leaves after one write with RemoteFirst, after two with LocalFirst: its reflect
 * comes 2000 ns earlier with RemoteFirst. L's reader runs on the CRC's CPU, which serves its
 * processes first come, first served (no wake-up preemption): woken by the first write, it
 * still waits for the CRC's second, so L's reflect comes at the same time in both orders.
 */
class RtiWriteOrderTestCase : public TestCase
{
  public:
    RtiWriteOrderTestCase()
        : TestCase("RTI: the CRC's write order, local or remote connection first")
    {
    }

  private:
    /**
     * Reflect times of L and R.
     * @param order the CRC's write order
     * @return (L's, R's) reflect time
     */
    std::pair<Time, Time> Run(RtiSettings::WriteOrder order)
    {
        TestFederation fed(RtiSettings::CENTRAL);
        Ptr<RtiSettings> st = fed.rti.GetSettings();
        st->SetAttribute("WriteBatching", BooleanValue(true));
        st->SetAttribute("WriteOrder", EnumValue(order));
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<HostPlatform> host = fed.nodes.Get(i)->GetObject<HostPlatform>();
            host->SetAttribute("SendCost", DoubleValue(2000));
        }
        ScriptFederate* p = fed.AddUntimed("P", 0, {1});
        ScriptFederate* r = fed.AddUntimed("R", 1, {}, {1});
        ScriptFederate* l = fed.AddUntimed("L", 0, {}, {1});
        Simulator::Schedule(T0, [p]() { p->UpdateRo({1}); });
        Simulator::Stop(T0 + Seconds(1));
        Simulator::Run();
        std::pair<Time, Time> t{l->When("RO"), r->When("RO")};
        Simulator::Destroy();
        return t;
    }

    void DoRun() override
    {
        auto localFirst = Run(RtiSettings::LOCAL_FIRST);
        auto remoteFirst = Run(RtiSettings::REMOTE_FIRST);
        NS_TEST_ASSERT_MSG_GT(localFirst.first, T0, "L got the reflect");
        NS_TEST_ASSERT_MSG_GT(localFirst.second, T0, "R got the reflect");
        NS_TEST_EXPECT_MSG_EQ(remoteFirst.first - localFirst.first,
                              NanoSeconds(0),
                              "L: after the CRC's turn in both orders (no preemption)");
        NS_TEST_EXPECT_MSG_EQ(localFirst.second - remoteFirst.second,
                              NanoSeconds(2000),
                              "R: one write later when the local one goes first");
    }
};

/**
 * @ingroup testbed-tests
 * Best-effort updates go over UDP to the CRC and to remote subscribers (the loopback to local
 * ones) and are reported as best effort.
 */
class RtiBestEffortTestCase : public TestCase
{
  public:
    RtiBestEffortTestCase()
        : TestCase("RTI: best-effort (UDP) path")
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(RtiSettings::CENTRAL);
        ScriptFederate* p = fed.AddUntimed("P", 1, {1});
        ScriptFederate* local = fed.AddUntimed("local", 0, {}, {1});
        ScriptFederate* remote = fed.AddUntimed("remote", 1, {}, {1});
        Simulator::Schedule(T0, [=]() {
            p->amb->ChangeAttributeTransportationType(p->obj, TransportationType::BEST_EFFORT);
            p->UpdateRo({1});
        });
        Simulator::Stop(T0 + Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(local->Log(), "RO", "local subscriber");
        NS_TEST_EXPECT_MSG_EQ(remote->Log(), "RO", "remote subscriber");
        NS_TEST_EXPECT_MSG_EQ((local->transports.at(0) == TransportationType::BEST_EFFORT),
                              true,
                              "reported best effort");
        NS_TEST_EXPECT_MSG_EQ((remote->transports.at(0) == TransportationType::BEST_EFFORT),
                              true,
                              "reported best effort");
        // Over one 10 ms link each way: the remote subscriber gets it 20 ms after the update.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(remote->When("RO"), T0 + MilliSeconds(20), "two crossings");
        NS_TEST_EXPECT_MSG_LT(remote->When("RO"), T0 + MilliSeconds(21), "two crossings");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The Nagle attribute: ten small updates written 1 us apart over a 10 ms link leave as ten
 * segments with TCP_NODELAY, and as two with Nagle (the first alone, the other nine together
 * once the first is acknowledged).
 */
class RtiNagleTestCase : public TestCase
{
  public:
    RtiNagleTestCase()
        : TestCase("RTI: TcpNoDelay attribute (Nagle off and on)")
    {
    }

  private:
    uint32_t m_dataSegments{0}; //!< data-carrying packets sent by the federate's node

    /**
     * Device transmit trace.
     * @param p the packet
     */
    void Tx(Ptr<const Packet> p)
    {
        // PPP 2 + IP 20 + TCP 32 (timestamps) = 54 bytes without payload.
        if (p->GetSize() > 54)
        {
            ++m_dataSegments;
        }
    }

    void DoRun() override
    {
        for (bool noDelay : {true, false})
        {
            m_dataSegments = 0;
            TestFederation fed(RtiSettings::CENTRAL, MilliSeconds(10), noDelay);
            // 1 us per call: the writes are apart in time (ns-3's TCP coalesces writes made in
            // the same instant, whatever TCP_NODELAY says).
            fed.rti.GetSettings()->SetAttribute("CallCost", DoubleValue(1000));
            ScriptFederate* p = fed.AddUntimed("P", 1, {1});
            ScriptFederate* s = fed.AddUntimed("S", 0, {}, {1});
            Simulator::Schedule(T0 - MilliSeconds(1), [&]() {
                fed.devices.Get(1)->TraceConnectWithoutContext(
                    "MacTx",
                    MakeCallback(&RtiNagleTestCase::Tx, this));
            });
            Simulator::Schedule(T0, [=]() {
                for (int i = 0; i < 10; ++i)
                {
                    p->UpdateRo({1});
                }
            });
            Simulator::Stop(T0 + Seconds(1));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(s->log.size(), 10u, "all delivered");
            NS_TEST_EXPECT_MSG_EQ(m_dataSegments, (noDelay ? 10u : 2u), "data segments");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * WriteBatching: ten updates made in one turn of the sender's process (1 us of call cost each)
 * leave in one write: one data segment, and the host's send cost (2000 cycles) is paid once:
 * 10 x 1000 + 2000 = 12000 cycles, against 10 segments and 10 x (1000 + 2000) = 30000 cycles
 * without it.
 */
class RtiWriteBatchingTestCase : public TestCase
{
  public:
    RtiWriteBatchingTestCase()
        : TestCase("RTI: WriteBatching (one write per turn)")
    {
    }

  private:
    uint32_t m_dataSegments{0}; //!< data-carrying packets sent by the federate's node

    /**
     * Device transmit trace.
     * @param p the packet
     */
    void Tx(Ptr<const Packet> p)
    {
        if (p->GetSize() > 54)
        {
            ++m_dataSegments;
        }
    }

    void DoRun() override
    {
        for (bool batching : {false, true})
        {
            m_dataSegments = 0;
            TestFederation fed(RtiSettings::CENTRAL);
            fed.rti.GetSettings()->SetAttribute("CallCost", DoubleValue(1000));
            fed.rti.GetSettings()->SetAttribute("WriteBatching", BooleanValue(batching));
            fed.nodes.Get(1)->GetObject<HostPlatform>()->SetAttribute("SendCost",
                                                                      DoubleValue(2000));
            ScriptFederate* p = fed.AddUntimed("P", 1, {1});
            ScriptFederate* s = fed.AddUntimed("S", 0, {}, {1});
            double p0 = 0;
            Simulator::Schedule(T0 - MilliSeconds(1), [&]() {
                fed.devices.Get(1)->TraceConnectWithoutContext(
                    "MacTx",
                    MakeCallback(&RtiWriteBatchingTestCase::Tx, this));
            });
            Simulator::Schedule(T0, [&, p]() {
                p0 = p->amb->GetCyclesCharged();
                for (int i = 0; i < 10; ++i)
                {
                    p->UpdateRo({1});
                }
            });
            Simulator::Stop(T0 + Seconds(1));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(s->log.size(), 10u, "all delivered");
            NS_TEST_EXPECT_MSG_EQ(m_dataSegments, (batching ? 1u : 10u), "data segments");
            NS_TEST_EXPECT_MSG_EQ_TOL(p->amb->GetCyclesCharged() - p0,
                                      (batching ? 12000.0 : 30000.0),
                                      1e-6,
                                      "sender cycles");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * modifyLookahead: a reduction takes effect only as the federate's time advances (IEEE
 * 1516.1-2000 8.19), so the output bound never falls below one others were granted on. F1 and
 * F2 (lookahead 5) at 0; F2 is granted 4 on F1's bound 0 + 5. F1 reduces its lookahead to 1 and
 * sends TSO 5 (its promise), TAR(2) and is granted 2: its bound stays max(2 + 1, 0 + 5) = 5
 * (not 3), so F2's TAR(4.5) is granted at once. After F1's TAR(8) the reduction has taken
 * effect (bound 8 + 1 = 9 > 5).
 */
class RtiLookaheadReductionTestCase : public TestCase
{
  public:
    /**
     * @param mode GALT mode
     */
    RtiLookaheadReductionTestCase(RtiSettings::GaltMode mode)
        : TestCase("RTI: a lookahead reduction takes effect as time advances (" + ModeName(mode)
                   + ")")
        , m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(m_mode);
        ScriptFederate::Config c;
        c.lookahead = 5;
        c.publish = {1};
        ScriptFederate* f1 = fed.Add("F1", 0, c);
        c.publish.clear();
        c.subscribe = {1};
        ScriptFederate* f2 = fed.Add("F2", 0, c);
        Simulator::Schedule(Step(1), [=]() { f2->amb->TimeAdvanceRequest(4); });
        Simulator::Schedule(Step(2), [=]() {
            f1->amb->ModifyLookahead(1);
            f1->UpdateTso(5); // still allowed: the bound 0 + 5 holds
        });
        Simulator::Schedule(Step(3), [=]() { f1->amb->TimeAdvanceRequest(2); });
        Simulator::Schedule(Step(4), [=]() { f2->amb->TimeAdvanceRequest(4.5); });
        Simulator::Schedule(Step(5), [=]() { f1->amb->TimeAdvanceRequest(8); });
        Simulator::Schedule(Step(6), [=]() { f2->amb->TimeAdvanceRequest(8.5); });
        Simulator::Stop(Step(8));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f1->Log(), "G2 G8", "F1");
        NS_TEST_EXPECT_MSG_EQ(f2->Log(), "G4 G4.5 R5 G8.5", "F2");
        NS_TEST_EXPECT_MSG_EQ(f2->When("G4"), Step(1), "granted on F1's bound 5");
        NS_TEST_EXPECT_MSG_EQ(f1->When("G2"), Step(3), "F1 granted 2");
        NS_TEST_EXPECT_MSG_EQ(f2->When("G4.5"),
                              Step(4),
                              "F1's bound stays 5 after the reduction and its grant at 2");
        NS_TEST_EXPECT_MSG_EQ(f2->When("G8.5"), Step(6), "bound 8 + 1 after F1's TAR(8)");
        NS_TEST_EXPECT_MSG_EQ(f2->amb->GetNLateTso(), 0u, "no late TSO message");
        // The rule itself: reduce 5 -> 1 at 0, advance to 2, then to 8.
        RtiTimeManager::State s;
        s.regulating = true;
        s.lookahead = 5;
        RtiTimeManager::ModifyLookahead(s, 1);
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::OutputBound(s, TimeBound()).t, 5, "at 0");
        RtiTimeManager::ApplyGrant(s, 2);
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::OutputBound(s, TimeBound()).t, 5, "at 2");
        RtiTimeManager::ApplyGrant(s, 4.5);
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::OutputBound(s, TimeBound()).t, 5.5, "at 4.5");
        RtiTimeManager::ModifyLookahead(s, 3);
        NS_TEST_EXPECT_MSG_EQ(RtiTimeManager::OutputBound(s, TimeBound()).t,
                              7.5,
                              "an increase at once");
        Simulator::Destroy();
    }

    RtiSettings::GaltMode m_mode; //!< GALT mode
};

/**
 * @ingroup testbed-tests
 * enableTimeConstrained completes only when no TSO message at or before the federate's time can
 * still come, in both GALT modes, with the same open/closed rule as the late-message check. F1
 * (regulating, lookahead 0) is granted TARA(1): its bound is 1, closed (it may send at 1). F2
 * (neither regulating nor constrained) is at 1 and asks to be constrained: it must wait, F1's
 * message at 1 reaches it unconstrained (receive order, not late), and it becomes constrained
 * when F1's TARA(2) raises the bound to 2.
 */
class RtiEnableConstrainedTestCase : public TestCase
{
  public:
    /**
     * @param mode GALT mode
     */
    RtiEnableConstrainedTestCase(RtiSettings::GaltMode mode)
        : TestCase("RTI: enableTimeConstrained waits for GALT, closed bound at equality ("
                   + ModeName(mode) + ")")
        , m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(m_mode);
        ScriptFederate::Config c;
        c.lookahead = 0;
        c.constrained = false;
        c.publish = {1};
        ScriptFederate* f1 = fed.Add("F1", 0, c);
        c.regulating = false;
        c.publish.clear();
        c.subscribe = {1};
        ScriptFederate* f2 = fed.Add("F2", 0, c);
        Simulator::Schedule(Step(1), [=]() {
            f1->amb->TimeAdvanceRequestAvailable(1);
            f2->amb->TimeAdvanceRequest(1);
        });
        Simulator::Schedule(Step(2), [=]() { f2->amb->EnableTimeConstrained(); });
        Simulator::Schedule(Step(3), [=]() { f1->UpdateTso(1); });
        Simulator::Schedule(Step(4), [=]() { f1->amb->TimeAdvanceRequestAvailable(2); });
        Simulator::Stop(Step(6));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f2->Log(), "G1 RO", "F2 gets the message at 1 unconstrained");
        NS_TEST_EXPECT_MSG_EQ(f2->constrainedAt, Step(4), "constrained once GALT is 2");
        NS_TEST_EXPECT_MSG_EQ(f2->amb->GetNLateTso(), 0u, "no late TSO message");
        NS_TEST_EXPECT_MSG_EQ(f2->amb->IsConstrained(), true, "constrained at the end");
        Simulator::Destroy();
    }

    RtiSettings::GaltMode m_mode; //!< GALT mode
};

/**
 * @ingroup testbed-tests
 * TsoRelease, both policies in both GALT modes. F1 (lookahead 1) sends TSO 2; F2 requests
 * TAR(10); F1's TAR(5) raises its bound to 6: GALT of F2 has passed 2 but not 10. AtGrant: the
 * message waits for F2's grant (F1's TAR(20)); WhenGuaranteed: it is delivered at F1's TAR(5),
 * before the grant.
 */
class RtiTsoReleaseTestCase : public TestCase
{
  public:
    /**
     * @param mode GALT mode
     * @param early WhenGuaranteed (else AtGrant)
     */
    RtiTsoReleaseTestCase(RtiSettings::GaltMode mode, bool early)
        : TestCase("RTI: TSO release " + std::string(early ? "WhenGuaranteed" : "AtGrant") + " ("
                   + ModeName(mode) + ")")
        , m_mode(mode)
        , m_early(early)
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(m_mode);
        fed.rti.SetSettingsAttribute("TsoRelease",
                                     StringValue(m_early ? "WhenGuaranteed" : "AtGrant"));
        ScriptFederate::Config c;
        c.publish = {1};
        ScriptFederate* f1 = fed.Add("F1", 0, c);
        c.publish.clear();
        c.subscribe = {1};
        ScriptFederate* f2 = fed.Add("F2", 0, c);
        Simulator::Schedule(Step(0), [=]() { f1->UpdateTso(2); });
        Simulator::Schedule(Step(1), [=]() { f2->amb->TimeAdvanceRequest(10); });
        Simulator::Schedule(Step(2), [=]() { f1->amb->TimeAdvanceRequest(5); });
        Simulator::Schedule(Step(3), [=]() { f1->amb->TimeAdvanceRequest(20); });
        Simulator::Stop(Step(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f2->Log(), "R2 G10", "F2");
        NS_TEST_EXPECT_MSG_EQ(f2->When("R2"), m_early ? Step(2) : Step(3), "delivery of TSO 2");
        NS_TEST_EXPECT_MSG_EQ(f2->When("G10"), Step(3), "grant 10 on F1's TAR(20)");
        NS_TEST_EXPECT_MSG_EQ(f2->amb->GetNTsoDelivered(), 1u, "delivered in timestamp order");
        Simulator::Destroy();
    }

    RtiSettings::GaltMode m_mode; //!< GALT mode
    bool m_early;                 //!< WhenGuaranteed
};

/**
 * @ingroup testbed-tests
 * Evoked callbacks (IEEE 1516-2000): with CallbackModel Evoked a reflect waits in the local
 * component until the federate evokes; evokeCallback delivers one (at once if queued, else the
 * first to come within its wait, else returns empty when the wait ends); evokeMultipleCallbacks
 * (0, max) delivers every queued one. Costs: the evoke call costs CallCost and each callback
 * CallbackCost when it is dispatched, none when the message is read (only DecodeCost then).
 */
class RtiEvokedCallbacksTestCase : public TestCase
{
  public:
    RtiEvokedCallbacksTestCase()
        : TestCase("RTI: evoked callbacks (evokeCallback, evokeMultipleCallbacks, costs)")
    {
    }

  private:
    void DoRun() override
    {
        TestFederation fed(RtiSettings::CENTRAL);
        Ptr<RtiSettings> st = fed.rti.GetSettings();
        st->SetAttribute("CallbackModel", StringValue("Evoked"));
        st->SetAttribute("CallCost", DoubleValue(500));
        st->SetAttribute("DecodeCost", DoubleValue(200));
        st->SetAttribute("CallbackCost", DoubleValue(400));
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<HostPlatform> host = fed.nodes.Get(i)->GetObject<HostPlatform>();
            host->SetAttribute("SendCost", DoubleValue(0));
            host->SetAttribute("RecvCost", DoubleValue(0));
        }
        std::pair<ScriptFederate*, ScriptFederate*> ps = AddPublisherAndSubscriber(fed);
        ScriptFederate* p = ps.first;
        ScriptFederate* s = ps.second;
        // The join and declaration callbacks: both evoke for half a second at 0.
        Simulator::Schedule(Seconds(0), [=]() {
            p->amb->EvokeMultipleCallbacks(0.5, 0.5);
            s->amb->EvokeMultipleCallbacks(0.5, 0.5);
        });
        // s1: an update; S does not evoke: the reflect waits.
        Simulator::Schedule(Step(1), [=]() { p->UpdateRo({1}); });
        uint32_t queued = 0;
        Simulator::Schedule(Step(2) - MilliSeconds(1),
                            [&]() { queued = s->amb->GetNQueuedCallbacks(); });
        // s2: evokeCallback delivers it at once.
        Simulator::Schedule(Step(2), [=]() { s->amb->EvokeCallback(1.0); });
        // s3: evokeCallback(50 ms) with nothing queued: the update sent 20 ms later comes in it.
        Simulator::Schedule(Step(3), [=]() { s->amb->EvokeCallback(0.05); });
        Simulator::Schedule(Step(3) + MilliSeconds(20), [=]() { p->UpdateRo({1}); });
        // s4: evokeCallback(50 ms), nothing comes: it returns empty after 50 ms.
        Simulator::Schedule(Step(4), [=]() { s->amb->EvokeCallback(0.05); });
        // s5: three updates; s6: evokeMultipleCallbacks(0, 1) delivers the three.
        Simulator::Schedule(Step(5), [=]() {
            p->UpdateRo({1});
            p->UpdateRo({1});
            p->UpdateRo({1});
        });
        double before = 0;
        double atEvoke = 0;
        Simulator::Schedule(Step(5) - MilliSeconds(1),
                            [&]() { before = s->amb->GetCyclesCharged(); });
        Simulator::Schedule(Step(6), [&]() {
            atEvoke = s->amb->GetCyclesCharged();
            s->amb->EvokeMultipleCallbacks(0, 1);
        });
        Simulator::Stop(Step(8));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_NE(p->obj, 0u, "P joined and registered inside its evoke");
        NS_TEST_EXPECT_MSG_EQ(queued, 1u, "the reflect waits for an evoke");
        NS_TEST_EXPECT_MSG_EQ(s->Log(), "RO RO RO RO RO", "five reflects");
        Time tol = MicroSeconds(100);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(s->logTimes[0], Step(2), "delivered in the evoke");
        NS_TEST_EXPECT_MSG_LT(s->logTimes[0], Step(2) + tol, "delivered in the evoke");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(s->logTimes[1], Step(3) + MilliSeconds(20), "came in wait");
        NS_TEST_EXPECT_MSG_LT(s->logTimes[1], Step(3) + MilliSeconds(20) + tol, "came in wait");
        NS_TEST_EXPECT_MSG_EQ(s->evokes.size(), 5u, "five evoke calls returned");
        if (s->evokes.size() == 5)
        {
            NS_TEST_EXPECT_MSG_EQ(s->evokes[1], 1u, "s2: one");
            NS_TEST_EXPECT_MSG_EQ(s->evokes[2], 1u, "s3: one, before the wait ended");
            NS_TEST_EXPECT_MSG_LT(s->evokeTimes[2], Step(3) + MilliSeconds(20) + tol, "s3");
            NS_TEST_EXPECT_MSG_EQ(s->evokes[3], 0u, "s4: none");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(s->evokeTimes[3], Step(4) + MilliSeconds(50), "s4");
            NS_TEST_EXPECT_MSG_LT(s->evokeTimes[3], Step(4) + MilliSeconds(50) + tol, "s4");
            NS_TEST_EXPECT_MSG_EQ(s->evokes[4], 3u, "s6: the three queued");
        }
        // Reading the three updates cost only their decoding; the evoke its call and 3 callbacks.
        NS_TEST_EXPECT_MSG_EQ_TOL(atEvoke - before, 3 * 200.0, 1e-6, "read: decode only");
        NS_TEST_EXPECT_MSG_EQ_TOL(s->amb->GetCyclesCharged() - atEvoke,
                                  500.0 + 3 * 400.0,
                                  1e-6,
                                  "evoke: call + 3 callbacks");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The RTI suite.
 */
class RtiTestSuite : public TestSuite
{
  public:
    RtiTestSuite()
        : TestSuite("testbed-rti", Type::UNIT)
    {
        for (auto mode : {RtiSettings::CENTRAL, RtiSettings::NULL_MESSAGES})
        {
            AddTestCase(new RtiThreeFederatesTestCase(mode), Duration::QUICK);
            AddTestCase(new RtiInFlightTestCase(mode), Duration::QUICK);
            AddTestCase(new RtiZeroLookaheadTestCase(mode), Duration::QUICK);
            AddTestCase(new RtiNerTestCase(mode), Duration::QUICK);
            AddTestCase(new RtiLookaheadReductionTestCase(mode), Duration::QUICK);
            AddTestCase(new RtiEnableConstrainedTestCase(mode), Duration::QUICK);
            AddTestCase(new RtiTsoReleaseTestCase(mode, false), Duration::QUICK);
            AddTestCase(new RtiTsoReleaseTestCase(mode, true), Duration::QUICK);
        }
        AddTestCase(new RtiRoutingTestCase, Duration::QUICK);
        AddTestCase(new RtiCostTestCase, Duration::QUICK);
        AddTestCase(new RtiMinorGcTestCase, Duration::QUICK);
        AddTestCase(new RtiCostVariationTestCase, Duration::QUICK);
        AddTestCase(new RtiInvocationVariationTestCase, Duration::QUICK);
        AddTestCase(new RtiThreadHandoffTestCase, Duration::QUICK);
        AddTestCase(new RtiWriteOrderTestCase, Duration::QUICK);
        AddTestCase(new RtiTsoBookkeepingTestCase(RtiSettings::TSO_NONE, "None"), Duration::QUICK);
        AddTestCase(new RtiTsoBookkeepingTestCase(RtiSettings::TSO_COUNTS, "Counts"),
                    Duration::QUICK);
        AddTestCase(new RtiTsoBookkeepingTestCase(RtiSettings::TSO_READ_NOTES, "ReadNotes"),
                    Duration::QUICK);
        AddTestCase(new RtiBestEffortTestCase, Duration::QUICK);
        AddTestCase(new RtiNagleTestCase, Duration::QUICK);
        AddTestCase(new RtiWriteBatchingTestCase, Duration::QUICK);
        AddTestCase(new RtiEvokedCallbacksTestCase, Duration::QUICK);
    }
};

static RtiTestSuite g_rtiTestSuite; //!< static instance
