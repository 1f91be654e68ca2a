/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The switch's forwarding modes (SwitchFabric ForwardingMode) against hand-computed wire times
 * at 100 Mbit/s (an octet is 80 ns; a 1 000-octet payload is a 1 018-octet frame, 1 026 octets
 * with its preamble and SFD, 82.08 us on the wire): a store-and-forward switch starts the output
 * when the frame's last bit is in, a cut-through one when its destination address is in (8 + 6
 * octets after its first bit), a fragment-free one when its first 64 octets are (8 + 64). Both
 * MACs of the module (EthernetNetDevice in full duplex, FullDuplexEthernetNetDevice) as ports.
 */

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-helper.h"
#include "ns3/switch-net-device.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/** Arrival times of the frames a host's device passes up. */
struct Sink
{
    std::vector<int64_t> times; //!< arrival times (ns)

    /**
     * The device's receive callback.
     * @return true
     */
    bool Rx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
    {
        times.push_back(Simulator::Now().GetNanoSeconds());
        return true;
    }
};

/** Hosts on one switch. */
struct Lan
{
    NodeContainer hosts;        //!< the hosts
    NetDeviceContainer devices; //!< their devices
    int64_t propNs{0};          //!< one cable's delay (ns)
};

/**
 * Hosts on one switch.
 * @param general the ports are EthernetNetDevices in full duplex (else the lean MAC)
 * @param mode the fabric's ForwardingMode
 * @param rates each host's link rate
 * @param cycle the fabric's ArbitrationCycle (0: no bus stage)
 * @param capacity the fabric's ForwardingCapacity (frames/s; 0: no engine stage)
 * @return the hosts and their devices
 */
Lan
Build(bool general,
      const std::string& mode,
      const std::vector<std::string>& rates,
      Time cycle,
      double capacity = 0)
{
    Lan lan;
    lan.hosts.Create(rates.size());
    Ptr<Node> swNode = CreateObject<Node>();
    SwitchHelper swHelper;
    swHelper.SetFabricAttribute("ForwardingMode", StringValue(mode));
    swHelper.SetFabricAttribute("ArbitrationCycle", TimeValue(cycle));
    swHelper.SetFabricAttribute("ArbitrationSlots", UintegerValue(16));
    swHelper.SetFabricAttribute("BusRate", DataRateValue(DataRate("1Gbps")));
    swHelper.SetFabricAttribute("ForwardingCapacity", DoubleValue(capacity));
    Ptr<SwitchNetDevice> sw = swHelper.Install(swNode);
    for (uint32_t i = 0; i < rates.size(); ++i)
    {
        NetDeviceContainer link;
        if (general)
        {
            EthernetHelper eth;
            eth.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rates[i])));
            eth.SetDeviceAttribute("Duplex", StringValue("ForcedFull"));
            link = eth.Install(lan.hosts.Get(i), swNode);
            sw->AddSwitchPort(link.Get(1));
            Ptr<EthernetChannel> ch = DynamicCast<EthernetChannel>(link.Get(0)->GetChannel());
            lan.propNs = ch->GetDelay(0, 1).GetNanoSeconds();
        }
        else
        {
            link = swHelper.Connect(sw, lan.hosts.Get(i), DataRate(rates[i]), NanoSeconds(500));
            lan.propNs = 500;
        }
        lan.devices.Add(link.Get(0));
    }
    return lan;
}

/**
 * Send a payload from one host to another at a time.
 * @param lan the hosts
 * @param from the sender
 * @param to the receiver
 * @param at when (ns)
 * @param octets the payload
 */
void
SendAt(const Lan& lan, uint32_t from, uint32_t to, int64_t at, uint32_t octets)
{
    Ptr<NetDevice> src = lan.devices.Get(from);
    const Address dst = lan.devices.Get(to)->GetAddress();
    Simulator::Schedule(NanoSeconds(at),
                        [src, dst, octets]() { src->Send(Create<Packet>(octets), dst, 0x0800); });
}

/**
 * Run frames to host 1 and return their arrival times there.
 * @param lan the hosts (built, not yet run)
 * @param sends each frame: its sender, the time it is sent (ns) and its payload
 * @return the arrival times (ns)
 */
std::vector<int64_t>
Arrivals(const Lan& lan, const std::vector<std::tuple<uint32_t, int64_t, uint32_t>>& sends)
{
    Sink sink;
    lan.devices.Get(1)->SetReceiveCallback(MakeCallback(&Sink::Rx, &sink));
    for (const auto& [from, at, octets] : sends)
    {
        SendAt(lan, from, 1, at, octets);
    }
    Simulator::Run();
    Simulator::Destroy();
    return sink.times;
}

/// Wire times at 100 Mbit/s (ns).
constexpr int64_t kOctet = 80;
/// A 1 000-octet payload: preamble, SFD and a 1 018-octet frame.
constexpr int64_t kWire1000 = 1026 * kOctet;
/// A 28-octet payload: preamble, SFD and a 64-octet frame.
constexpr int64_t kWire28 = 72 * kOctet;

} // namespace

/**
 * @ingroup testbed-tests
 * One frame through an idle switch under each mode, hand-computed (t0 = 1 us, d = one cable's
 * delay): store-and-forward t0 + 2 (wire + d); cut-through t0 + 2 d + 14 octets + wire;
 * fragment-free t0 + 2 d + 72 octets + wire. A minimum frame (72 octets with its preamble) is
 * stored by a fragment-free switch: it is whole when its first 64 octets are in.
 */
class ForwardingModeTimingTestCase : public TestCase
{
  public:
    ForwardingModeTimingTestCase()
        : TestCase("switch forwarding: store-and-forward, cut-through and fragment-free, "
                   "hand-timed, both MACs")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string mode;  //!< ForwardingMode
            uint32_t payload;  //!< octets
            int64_t afterWire; //!< octets in before the output starts, 0 = the whole frame
        };

        const std::vector<Case> cases = {{"StoreAndForward", 1000, 0},
                                         {"CutThrough", 1000, 14},
                                         {"FragmentFree", 1000, 72},
                                         {"StoreAndForward", 28, 0},
                                         {"CutThrough", 28, 14},
                                         {"FragmentFree", 28, 0}};
        for (bool general : {true, false})
        {
            for (const Case& c : cases)
            {
                Lan lan = Build(general, c.mode, {"100Mbps", "100Mbps"}, Seconds(0));
                const std::vector<int64_t> times = Arrivals(lan, {{0, 1000, c.payload}});
                const int64_t wire = c.payload == 1000 ? kWire1000 : kWire28;
                const int64_t in = c.afterWire == 0 ? wire : c.afterWire * kOctet;
                const int64_t expected = 1000 + 2 * lan.propNs + in + wire;
                NS_TEST_ASSERT_MSG_EQ(times.size(), 1u, c.mode << " frames");
                NS_TEST_EXPECT_MSG_EQ(times[0],
                                      expected,
                                      (general ? "EthernetNetDevice " : "lean MAC ")
                                          << c.mode << ", payload " << c.payload);
            }
        }
    }
};

/**
 * @ingroup testbed-tests
 * A cut-through frame whose output is busy waits as a stored one does, hand-computed: A sends
 * 1 000 octets to B at t0, C sends 1 000 octets to B at t0 + 2 us. A's frame starts on B's port
 * 14 octets after its first bit is in and ends at t0 + d + 14 octets + wire; C's destination is
 * in at t0 + 2 us + d + 14 octets, while A's frame is on the port, so C's frame starts one gap
 * (12 octets) after A's end: it arrives at t0 + 2 d + 14 + 12 octets + 2 wires. Store-and-forward:
 * A's at t0 + 2 (wire + d), C's one gap and one wire later.
 */
class ForwardingModeBusyOutputTestCase : public TestCase
{
  public:
    ForwardingModeBusyOutputTestCase()
        : TestCase("switch forwarding: a cut-through frame to a busy output waits behind the "
                   "frame on it, one gap")
    {
    }

  private:
    void DoRun() override
    {
        for (bool general : {true, false})
        {
            for (bool cut : {true, false})
            {
                Lan lan = Build(general,
                                cut ? "CutThrough" : "StoreAndForward",
                                {"100Mbps", "100Mbps", "100Mbps"},
                                Seconds(0));
                const std::vector<int64_t> times
                    = Arrivals(lan, {{0, 1000, 1000}, {2, 3000, 1000}});
                const int64_t d = lan.propNs;
                const int64_t first
                    = cut ? 1000 + 2 * d + 14 * kOctet + kWire1000 : 1000 + 2 * (kWire1000 + d);
                const std::vector<int64_t> expected = {first, first + 12 * kOctet + kWire1000};
                NS_TEST_ASSERT_MSG_EQ(times.size(), 2u, "frames");
                for (std::size_t i = 0; i < 2; ++i)
                {
                    NS_TEST_EXPECT_MSG_EQ(times[i],
                                          expected[i],
                                          (general ? "EthernetNetDevice " : "lean MAC ")
                                              << (cut ? "cut-through" : "store-and-forward")
                                              << " frame " << i);
                }
            }
        }
    }
};

/**
 * @ingroup testbed-tests
 * Cut-through between ports of different rates is store-and-forward (a 100 Mbit/s output would
 * run out of a 10 Mbit/s input's octets), hand-computed: 1 026 octets at 800 ns and at 80 ns,
 * two 500 ns cables. And with the bus stage (a 16 us round-robin cycle from t = 0, port 0's
 * slot first, a 1 Gbit/s bus), hand-computed: the cut-through frame's destination is in at
 * 1 000 + 500 + 1 120 = 2 620 ns, its header crosses at the grant at 16 000 ns (14 octets,
 * 112 ns) and it arrives at 16 112 + 82 080 + 500 ns; the stored frame's last bit is in at
 * 83 580 ns, it is granted at 96 000 ns, crosses in 1 018 x 8 ns and arrives at 104 144 +
 * 82 080 + 500 ns. With a queued engine of 10 us a decision (ForwardingCapacity 10^5), the
 * cut-through frame is served from its decision (2 620 ns) and leaves at 12 620 ns; the stored
 * one from its last bit (83 580 ns).
 */
class ForwardingModeRatesAndBusTestCase : public TestCase
{
  public:
    ForwardingModeRatesAndBusTestCase()
        : TestCase("switch forwarding: different port rates store the frame; the bus grant and "
                   "the engine are waited from the early decision")
    {
    }

  private:
    void DoRun() override
    {
        Lan mixed = Build(false, "CutThrough", {"10Mbps", "100Mbps"}, Seconds(0));
        const std::vector<int64_t> stored = Arrivals(mixed, {{0, 1000, 1000}});
        NS_TEST_ASSERT_MSG_EQ(stored.size(), 1u, "frames");
        NS_TEST_EXPECT_MSG_EQ(stored[0],
                              1000 + 500 + 1026 * 800 + 82080 + 500,
                              "10 -> 100 Mbit/s under CutThrough");
        for (bool cut : {true, false})
        {
            Lan lan = Build(false,
                            cut ? "CutThrough" : "StoreAndForward",
                            {"100Mbps", "100Mbps"},
                            MicroSeconds(16));
            const std::vector<int64_t> times = Arrivals(lan, {{0, 1000, 1000}});
            NS_TEST_ASSERT_MSG_EQ(times.size(), 1u, "frames");
            NS_TEST_EXPECT_MSG_EQ(times[0],
                                  cut ? 16112 + 82080 + 500 : 96000 + 8144 + 82080 + 500,
                                  (cut ? "cut-through" : "store-and-forward") << " with the bus");
        }
        for (bool cut : {true, false})
        {
            Lan lan = Build(false,
                            cut ? "CutThrough" : "StoreAndForward",
                            {"100Mbps", "100Mbps"},
                            Seconds(0),
                            1e5);
            const std::vector<int64_t> times = Arrivals(lan, {{0, 1000, 1000}});
            NS_TEST_ASSERT_MSG_EQ(times.size(), 1u, "frames");
            NS_TEST_EXPECT_MSG_EQ(times[0],
                                  cut ? 1000 + 500 + 1120 + 10000 + 82080 + 500
                                      : 1000 + 500 + 82080 + 10000 + 82080 + 500,
                                  (cut ? "cut-through" : "store-and-forward")
                                      << " with a 10 us engine");
        }
    }
};

/**
 * @ingroup testbed-tests
 * The switch's forwarding modes.
 */
class SwitchForwardingTestSuite : public TestSuite
{
  public:
    SwitchForwardingTestSuite()
        : TestSuite("testbed-switch-forwarding", Type::UNIT)
    {
        AddTestCase(new ForwardingModeTimingTestCase, Duration::QUICK);
        AddTestCase(new ForwardingModeBusyOutputTestCase, Duration::QUICK);
        AddTestCase(new ForwardingModeRatesAndBusTestCase, Duration::QUICK);
    }
};

/// The suite's instance.
static SwitchForwardingTestSuite g_switchForwardingTestSuite;
