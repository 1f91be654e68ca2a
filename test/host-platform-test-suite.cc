/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Host platform model: CPU run queue, processes, NIC receive path, against hand-computed
 * timings and exact counts.
 */

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/host-platform-helper.h"
#include "ns3/host-platform.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/profile.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/tick-timer.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Offer a frame to a NIC, as its device's receive callback does.
 * @param nic the NIC
 * @param size the frame's payload octets
 */
void
Offer(Ptr<HostNic> nic, uint32_t size)
{
    nic->Receive(nullptr,
                 Create<Packet>(size),
                 0x0800,
                 Address(),
                 Address(),
                 NetDevice::PACKET_HOST);
}

/**
 * A platform on a fresh node, with a CPU of the given frequency/cores (no profile).
 * @param freq CPU frequency (Hz)
 * @param cores number of cores
 * @param cs context switch cycles
 * @return the platform
 */
Ptr<HostPlatform>
MakePlatform(double freq, uint32_t cores, double cs = 0)
{
    Ptr<Node> node = CreateObject<Node>();
    Ptr<HostPlatform> p = CreateObject<HostPlatform>();
    std::ostringstream cpu;
    cpu << "ns3::HostCpu[Frequency=" << freq << "|Cores=" << cores << "|ContextSwitchCost=" << cs
        << "]";
    p->SetAttribute("Cpu", StringValue(cpu.str()));
    node->AggregateObject(p);
    return p;
}

} // namespace

/**
 * @ingroup testbed-tests
 * A periodic clock interrupt (InterferencePeriodic): handlers exactly 1/rate apart from a phase
 * in [0, 1/rate), each preempting the process by its duration.
 */
class HostClockInterruptTestCase : public TestCase
{
  public:
    HostClockInterruptTestCase()
        : TestCase("HostCpu: a periodic 100 Hz clock interrupt and its handler")
    {
    }

  private:
    void DoRun() override
    {
        // hz = 100, a handler of 20 us; 1 s of process work from t = 0.
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("Frequency", DoubleValue(1e8));
        cpu->SetAttribute("InterferenceRate", DoubleValue(100.0));
        cpu->SetAttribute("InterferencePeriodic", BooleanValue(true));
        cpu->SetAttribute("InterferenceDuration",
                          StringValue("ns3::ConstantRandomVariable[Constant=20e-6]"));
        // Every tick an event, also on the idle CPU after the job: the check reads each
        // handler's WorkDone at its own instant (deferred, an idle CPU's ticks run only when the
        // CPU is next used or asked; the deferral's own cases are further below).
        cpu->SetAttribute("IdleInterferenceEvents", BooleanValue(true));
        cpu->AssignStreams(3);
        cpu->Initialize();
        std::vector<Time> ticks; // handler completions
        cpu->TraceConnectWithoutContext(
            "WorkDone",
            Callback<void, uint8_t, uint32_t, Time, Time>([&](uint8_t c, uint32_t, Time, Time) {
                if (c == HostCpu::HARDIRQ)
                {
                    ticks.push_back(Simulator::Now());
                }
            }));
        Time done;
        cpu->Submit(HostCpu::PROCESS, Seconds(1), 5, Callback<void>([&]() {
                        done = Simulator::Now();
                    }));
        Simulator::Stop(Seconds(2) - NanoSeconds(1));
        Simulator::Run();
        // By hand: ticks at phase + k x 10 ms, phase in [0, 10 ms): 200 in [0, 2 s); a
        // handler ends 20 us after its tick (the process does not delay an interrupt).
        NS_TEST_ASSERT_MSG_EQ(ticks.size(), 200u, "100 Hz for 2 s");
        if (ticks.size() != 200)
        {
            return; // (the runner continues after a failed assertion)
        }
        const Time phase = ticks[0] - MicroSeconds(20);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(phase, Seconds(0), "phase >= 0");
        NS_TEST_EXPECT_MSG_LT(phase, MilliSeconds(10), "phase < 10 ms");
        for (std::size_t k = 1; k < ticks.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(ticks[k] - ticks[k - 1], MilliSeconds(10), "tick " << k);
        }
        // The 1 s job ends at T = 1 s + 20 us x N, N the ticks before T: 100, or 101 if the
        // phase is below 2 ms.
        const int64_t n = phase < MilliSeconds(2) ? 101 : 100;
        NS_TEST_EXPECT_MSG_EQ(done, Seconds(1) + MicroSeconds(20) * n, "the job's delay");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Work items on one and two cores finish at hand-computed times; interrupts preempt.
 */
class HostCpuTestCase : public TestCase
{
  public:
    HostCpuTestCase()
        : TestCase("HostCpu: FIFO, multi-core, preemption, context switches")
    {
    }

  private:
    std::vector<std::pair<std::string, Time>> m_done; //!< (label, completion time)

    /**
     * Record a completion.
     * @param label item label
     */
    void Done(std::string label)
    {
        m_done.emplace_back(label, Simulator::Now());
    }

    /**
     * Completion time of an item.
     * @param label item label
     * @return its completion time, or -1 s
     */
    Time At(const std::string& label) const
    {
        for (const auto& [l, t] : m_done)
        {
            if (l == label)
            {
                return t;
            }
        }
        return Seconds(-1);
    }

    void DoRun() override
    {
        // One core, 1 GHz: A (10 us) then B (5 us), both submitted at 0 -> 10 us and 15 us.
        Ptr<HostCpu> cpu = MakePlatform(1e9, 1)->GetCpu();
        NS_TEST_ASSERT_MSG_EQ(cpu->CyclesToTime(5000), MicroSeconds(5), "5000 cycles at 1 GHz");
        cpu->Submit(HostCpu::PROCESS,
                    MicroSeconds(10),
                    1,
                    MakeCallback(&HostCpuTestCase::Done, this, std::string("A")));
        cpu->Submit(HostCpu::PROCESS,
                    MicroSeconds(5),
                    1,
                    MakeCallback(&HostCpuTestCase::Done, this, std::string("B")));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(At("A"), MicroSeconds(10), "A on one core");
        NS_TEST_ASSERT_MSG_EQ(At("B"), MicroSeconds(15), "B waits for A");
        NS_TEST_ASSERT_MSG_EQ(cpu->GetBusyTime(HostCpu::PROCESS), MicroSeconds(15), "busy time");
        Simulator::Destroy();

        // Two cores: both start at once.
        m_done.clear();
        Ptr<HostCpu> cpu2 = MakePlatform(1e9, 2)->GetCpu();
        cpu2->Submit(HostCpu::PROCESS,
                     MicroSeconds(10),
                     1,
                     MakeCallback(&HostCpuTestCase::Done, this, std::string("A")));
        cpu2->Submit(HostCpu::PROCESS,
                     MicroSeconds(5),
                     2,
                     MakeCallback(&HostCpuTestCase::Done, this, std::string("B")));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(At("A"), MicroSeconds(10), "A on core 0");
        NS_TEST_ASSERT_MSG_EQ(At("B"), MicroSeconds(5), "B on core 1");
        Simulator::Destroy();

        // Preemption: process P (100 us) at 0; a HARDIRQ (10 us) at 20 us; a SOFTIRQ (5 us) at
        // 25 us. IRQ runs 20-30, SOFTIRQ 30-35 (preempts P again), P resumes: 100 + 15 = 115 us.
        m_done.clear();
        Ptr<HostCpu> cpu3 = MakePlatform(1e9, 1)->GetCpu();
        cpu3->Submit(HostCpu::PROCESS,
                     MicroSeconds(100),
                     1,
                     MakeCallback(&HostCpuTestCase::Done, this, std::string("P")));
        Simulator::Schedule(MicroSeconds(20), [&]() {
            cpu3->Submit(HostCpu::HARDIRQ,
                         MicroSeconds(10),
                         HostCpu::KERNEL,
                         MakeCallback(&HostCpuTestCase::Done, this, std::string("I")));
        });
        Simulator::Schedule(MicroSeconds(25), [&]() {
            cpu3->Submit(HostCpu::SOFTIRQ,
                         MicroSeconds(5),
                         HostCpu::KERNEL,
                         MakeCallback(&HostCpuTestCase::Done, this, std::string("S")));
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(At("I"), MicroSeconds(30), "interrupt preempts the process");
        NS_TEST_ASSERT_MSG_EQ(At("S"), MicroSeconds(35), "softirq waits for the interrupt");
        NS_TEST_ASSERT_MSG_EQ(At("P"), MicroSeconds(115), "process resumes with its remainder");
        NS_TEST_ASSERT_MSG_EQ(cpu3->GetBusyTime(HostCpu::PROCESS),
                              MicroSeconds(100),
                              "process service");
        NS_TEST_ASSERT_MSG_EQ(cpu3->GetBusyTime(HostCpu::HARDIRQ), MicroSeconds(10), "irq service");
        Simulator::Destroy();

        // Context switch of 1000 cycles (1 us): owner 1 (10 us), owner 2 (10 us), owner 2 again
        // (10 us): 0-10, switch + 10 -> 21, same owner -> 31.
        m_done.clear();
        Ptr<HostCpu> cpu4 = MakePlatform(1e9, 1, 1000)->GetCpu();
        cpu4->Submit(HostCpu::PROCESS,
                     MicroSeconds(10),
                     1,
                     MakeCallback(&HostCpuTestCase::Done, this, std::string("1")));
        cpu4->Submit(HostCpu::PROCESS,
                     MicroSeconds(10),
                     2,
                     MakeCallback(&HostCpuTestCase::Done, this, std::string("2")));
        cpu4->Submit(HostCpu::PROCESS,
                     MicroSeconds(10),
                     2,
                     MakeCallback(&HostCpuTestCase::Done, this, std::string("2b")));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(At("1"), MicroSeconds(10), "first process, no switch");
        NS_TEST_ASSERT_MSG_EQ(At("2"), MicroSeconds(21), "switch to process 2 costs 1 us");
        NS_TEST_ASSERT_MSG_EQ(At("2b"), MicroSeconds(31), "same process, no switch");
        Simulator::Destroy();
        // Deep idle: entry after 1 ms idle, exit 100 us. Items (10 us) at 5 ms (idle since 0:
        // pays), 5.5 ms (idle 0.39 ms: does not), 10 ms (idle 4.49 ms: pays).
        m_done.clear();
        Ptr<HostCpu> cpu5 = MakePlatform(1e9, 1)->GetCpu();
        cpu5->SetAttribute("IdleEntryTime", TimeValue(MilliSeconds(1)));
        cpu5->SetAttribute("IdleExitLatency", TimeValue(MicroSeconds(100)));
        for (auto [at, label] :
             {std::make_pair(5000, "a"), std::make_pair(5500, "b"), std::make_pair(10000, "c")})
        {
            std::string l = label;
            Simulator::Schedule(MicroSeconds(at), [this, cpu5, l]() {
                cpu5->Submit(HostCpu::PROCESS,
                             MicroSeconds(10),
                             1,
                             MakeCallback(&HostCpuTestCase::Done, this, l));
            });
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(At("a"), MicroSeconds(5110), "wake from deep idle");
        NS_TEST_ASSERT_MSG_EQ(At("b"), MicroSeconds(5510), "short idle: no exit latency");
        NS_TEST_ASSERT_MSG_EQ(At("c"), MicroSeconds(10110), "deep idle again");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-test
 * Completions (HostCpu keeps them in slots while the tasks move as plain values):
 * each is called once, at its task's end, with its tag; work submitted from a completion
 * (a chain, whose slots are taken while the calling slot is still held) and a preempted task
 * complete at the hand-computed times. One core at 1 GHz, no context-switch cost: P (PROCESS,
 * owner 1, 30 us) at 0 and T (PROCESS, owner 1, 10 us, tagged 7) behind it; H (HARDIRQ, 10 us)
 * at 5 us preempts P, its completion submits S1 (SOFTIRQ, 5 us), whose completion submits S2
 * (SOFTIRQ, 5 us): H 5-15, S1 15-20, S2 20-25, P resumes with 25 us left -> 50, T 50-60.
 */
class HostCpuCompletionTestCase : public TestCase
{
  public:
    HostCpuCompletionTestCase()
        : TestCase("HostCpu: each completion once, at its end, chained and preempted")
    {
    }

  private:
    std::vector<std::pair<std::string, Time>> m_done; //!< (label, completion time)
    Ptr<HostCpu> m_cpu;                               //!< the CPU

    /**
     * Record a completion; H and S1 submit the next link of the chain.
     * @param label item label
     */
    void Done(std::string label)
    {
        m_done.emplace_back(label, Simulator::Now());
        if (label == "H" || label == "S1")
        {
            m_cpu->Submit(HostCpu::SOFTIRQ,
                          MicroSeconds(5),
                          HostCpu::KERNEL,
                          MakeCallback(&HostCpuCompletionTestCase::Done,
                                       this,
                                       std::string(label == "H" ? "S1" : "S2")));
        }
    }

    /**
     * Record a tagged completion.
     * @param tag the tag
     */
    void Tagged(uint32_t tag)
    {
        m_done.emplace_back("T" + std::to_string(tag), Simulator::Now());
    }

    void DoRun() override
    {
        m_cpu = MakePlatform(1e9, 1)->GetCpu();
        m_cpu->Submit(HostCpu::PROCESS,
                      MicroSeconds(30),
                      1,
                      MakeCallback(&HostCpuCompletionTestCase::Done, this, std::string("P")));
        m_cpu->Submit(HostCpu::PROCESS,
                      MicroSeconds(10),
                      1,
                      MakeCallback(&HostCpuCompletionTestCase::Tagged, this),
                      7);
        Simulator::Schedule(MicroSeconds(5), [this]() {
            m_cpu->Submit(HostCpu::HARDIRQ,
                          MicroSeconds(10),
                          HostCpu::KERNEL,
                          MakeCallback(&HostCpuCompletionTestCase::Done, this, std::string("H")));
        });
        Simulator::Run();
        const std::vector<std::pair<std::string, Time>> expected{{"H", MicroSeconds(15)},
                                                                 {"S1", MicroSeconds(20)},
                                                                 {"S2", MicroSeconds(25)},
                                                                 {"P", MicroSeconds(50)},
                                                                 {"T7", MicroSeconds(60)}};
        NS_TEST_ASSERT_MSG_EQ(m_done.size(), expected.size(), "each completion once");
        for (size_t i = 0; i < expected.size() && i < m_done.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_done[i].first, expected[i].first, "completion " << i);
            NS_TEST_EXPECT_MSG_EQ(m_done[i].second, expected[i].second, expected[i].first);
        }
        NS_TEST_ASSERT_MSG_EQ(m_cpu->GetBusyTime(HostCpu::SOFTIRQ),
                              MicroSeconds(10),
                              "softirq service");
        m_cpu = nullptr;
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-test
 * The cache refill after a context switch against the Poisson occupancy of the sets, computed
 * by hand: 256 KB, 8 ways, 32-octet lines (1 024 sets), a 4 KB working set (128 lines), 100 ns
 * per line, no context-switch cycles. A process that never ran refills all 128 lines (12.8 us);
 * after one other process (128 lines, lambda = 0.125) nothing; after 64 others (8 192 lines,
 * lambda = 8) the fraction P[Poisson(8) >= 8] = 1 - 0.4530 = 0.5470 (table value), 7.00 us;
 * after 2 000 others (lambda = 250) all of it. Work items run back to back, so the completion
 * times add up these refills and the 1 us items.
 */
class HostCacheRefillTestCase : public TestCase
{
  public:
    HostCacheRefillTestCase()
        : TestCase("HostCpu: cache refill after a context switch (Poisson set occupancy)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("CacheSize", UintegerValue(256 * 1024));
        cpu->SetAttribute("CacheLineSize", UintegerValue(32));
        cpu->SetAttribute("CacheAssociativity", UintegerValue(8));
        cpu->SetAttribute("MemoryLatency", TimeValue(NanoSeconds(100)));
        cpu->SetAttribute("ProcessWorkingSet", UintegerValue(4096));
        // Owner 1 runs first (no switch: the core's last owner is the kernel), then 2 (cold), 1
        // (after one other), then 64 others, then 1 again.
        NS_TEST_EXPECT_MSG_EQ(cpu->GetRefillTime(1), NanoSeconds(12800), "cold process");
        std::vector<Time> done;
        auto item = [&](uint32_t owner) {
            cpu->Submit(HostCpu::PROCESS, MicroSeconds(1), owner, Callback<void>([&]() {
                            done.push_back(Simulator::Now());
                        }));
        };
        Simulator::Schedule(Seconds(0), [&]() {
            item(1);
            item(2);
            item(1);
        });
        Simulator::Run();
        // 1 us, then 1 us + 12.8 us (owner 2 cold), then 1 us + ~0 (one other's 128 lines).
        NS_TEST_ASSERT_MSG_EQ(done.size(), 3, "three items");
        NS_TEST_EXPECT_MSG_EQ(done[0], MicroSeconds(1), "no switch from the kernel");
        NS_TEST_EXPECT_MSG_EQ(done[1], NanoSeconds(1000 + 1000 + 12800), "cold refill");
        NS_TEST_EXPECT_MSG_EQ(done[2], NanoSeconds(2000 + 12800 + 1000), "lambda 0.125: none");
        // 64 other processes since owner 1's last run: lambda = 8.
        for (uint32_t o = 100; o < 164; ++o)
        {
            Simulator::Schedule(Seconds(1), [&, o]() { item(o); });
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(cpu->GetRefillTime(1).GetNanoSeconds(),
                                  int64_t(7002),
                                  int64_t(2),
                                  "lambda 8: 128 x 0.5470 x 100 ns");
        // The same distance after MemoryLatency doubled: computed anew, not the refill remembered
        // for that distance (HostCpu memoizes refills by distance).
        cpu->SetAttribute("MemoryLatency", TimeValue(NanoSeconds(200)));
        NS_TEST_EXPECT_MSG_EQ_TOL(cpu->GetRefillTime(1).GetNanoSeconds(),
                                  int64_t(14004),
                                  int64_t(4),
                                  "lambda 8 at 200 ns a line: 128 x 0.5470 x 200 ns");
        cpu->SetAttribute("MemoryLatency", TimeValue(NanoSeconds(100)));
        // So after each other cache attribute changed (the same 8 192 lines since owner 1's
        // last run; Poisson tables). Each fails if that attribute's setter keeps the memo: the
        // refill at the old parameters is remembered again before each change.
        auto remembered = [&](const std::string& after) {
            NS_TEST_EXPECT_MSG_EQ_TOL(cpu->GetRefillTime(1).GetNanoSeconds(),
                                      int64_t(7002),
                                      int64_t(2),
                                      "lambda 8 again after restoring " << after);
        };
        remembered("MemoryLatency");
        cpu->SetAttribute("CacheSize", UintegerValue(512 * 1024));
        NS_TEST_EXPECT_MSG_EQ_TOL(cpu->GetRefillTime(1).GetNanoSeconds(),
                                  int64_t(655),
                                  int64_t(2),
                                  "2 048 sets, lambda 4: 128 x P[Poisson(4) >= 8] = 0.0511");
        cpu->SetAttribute("CacheSize", UintegerValue(256 * 1024));
        remembered("CacheSize");
        cpu->SetAttribute("CacheAssociativity", UintegerValue(4));
        NS_TEST_EXPECT_MSG_EQ_TOL(cpu->GetRefillTime(1).GetNanoSeconds(),
                                  int64_t(7252),
                                  int64_t(2),
                                  "4 ways, lambda 4: 128 x P[Poisson(4) >= 4] = 0.5665");
        cpu->SetAttribute("CacheAssociativity", UintegerValue(8));
        remembered("CacheAssociativity");
        cpu->SetAttribute("CacheLineSize", UintegerValue(64));
        NS_TEST_EXPECT_MSG_EQ_TOL(cpu->GetRefillTime(1).GetNanoSeconds(),
                                  int64_t(6336),
                                  int64_t(2),
                                  "64-octet lines: 64 x P[Poisson(16) >= 8] = 0.9900");
        cpu->SetAttribute("CacheLineSize", UintegerValue(32));
        remembered("CacheLineSize");
        cpu->SetAttribute("ProcessWorkingSet", UintegerValue(8192));
        NS_TEST_EXPECT_MSG_EQ_TOL(cpu->GetRefillTime(1).GetNanoSeconds(),
                                  int64_t(14004),
                                  int64_t(4),
                                  "8 KB working set: 256 x 0.5470");
        cpu->SetAttribute("ProcessWorkingSet", UintegerValue(4096));
        remembered("ProcessWorkingSet");
        for (uint32_t o = 1000; o < 3000; ++o)
        {
            Simulator::Schedule(Seconds(2), [&, o]() { item(o); });
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(cpu->GetRefillTime(1), NanoSeconds(12800), "lambda 250: all");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Wake-up preemption between processes on one core, hand-timed (1 GHz, a context switch of
 * 1 000 cycles = 1 us, no cache refill): owner 1 submits 100 us at t = 0, owner 2 (nothing of
 * its own running: woken) 10 us at t = 20 us. First come, first served: 1 ends at 100 us, 2
 * starts after a switch and ends at 111 us. With WakeUpPreemption 2 takes the core at 20 us,
 * ends at 20 + 1 + 10 = 31 us, and 1 resumes with its 80 us and the switch back, ending at
 * 112 us. A process that already has work queued waits its turn.
 */
class HostWakeUpPreemptionTestCase : public TestCase
{
  public:
    HostWakeUpPreemptionTestCase()
        : TestCase("HostCpu: a woken process preempts another with WakeUpPreemption, hand-timed")
    {
    }

  private:
    void DoRun() override
    {
        for (bool preempt : {false, true})
        {
            Ptr<HostCpu> cpu = CreateObject<HostCpu>();
            cpu->SetAttribute("Frequency", DoubleValue(1e9));
            cpu->SetAttribute("Cores", UintegerValue(1));
            cpu->SetAttribute("ContextSwitchCost", DoubleValue(1000));
            cpu->SetAttribute("ProcessWorkingSet", UintegerValue(0));
            cpu->SetAttribute("WakeUpPreemption", BooleanValue(preempt));
            std::map<uint32_t, Time> end;
            auto item = [&](uint32_t owner, Time service) {
                cpu->Submit(HostCpu::PROCESS, service, owner, Callback<void>([&, owner]() {
                                end[owner] = Simulator::Now();
                            }));
            };
            Simulator::Schedule(Seconds(0), [&]() { item(1, MicroSeconds(100)); });
            Simulator::Schedule(MicroSeconds(20), [&]() { item(2, MicroSeconds(10)); });
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(end[1], MicroSeconds(preempt ? 112 : 100), "owner 1");
            NS_TEST_EXPECT_MSG_EQ(end[2], MicroSeconds(preempt ? 31 : 111), "owner 2");
            Simulator::Destroy();
        }
        // At t = 0: owner 1 starts, woken owner 2 preempts it, woken owner 3 preempts 2; owner
        // 1, whose preempted item is queued, is not woken: its second item queues at the back.
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("Frequency", DoubleValue(1e9));
        cpu->SetAttribute("Cores", UintegerValue(1));
        cpu->SetAttribute("ProcessWorkingSet", UintegerValue(0));
        cpu->SetAttribute("WakeUpPreemption", BooleanValue(true));
        std::vector<uint32_t> order;
        auto item = [&](uint32_t owner) {
            cpu->Submit(HostCpu::PROCESS, MicroSeconds(10), owner, Callback<void>([&, owner]() {
                            order.push_back(owner);
                        }));
        };
        Simulator::Schedule(Seconds(0), [&]() {
            item(1);
            item(2);
            item(3);
            item(1);
        });
        Simulator::Run();
        const std::vector<uint32_t> expected = {3, 2, 1, 1};
        NS_TEST_EXPECT_MSG_EQ((order == expected), true, "a process with work queued waits");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Processes: steps in order, timer-driven sleeps with scheduling latency, wake-ups.
 */
class HostProcessTestCase : public TestCase
{
  public:
    HostProcessTestCase()
        : TestCase("HostProcess: execute, sleep on a jiffy timer, wake-up latency")
    {
    }

  private:
    std::vector<Time> m_times; //!< times of callbacks

    /** Record now. */
    void Mark()
    {
        m_times.push_back(Simulator::Now());
    }

    void DoRun() override
    {
        // 1 kHz tick timer, constant 50 us scheduling latency, 1 GHz CPU.
        Ptr<HostPlatform> p = MakePlatform(1e9, 1);
        p->SetAttribute("Timer", StringValue("ns3::TickTimer[Frequency=1000]"));
        p->SetAttribute("SchedulingLatency",
                        StringValue("ns3::ConstantRandomVariable[Constant=50e-6]"));
        Ptr<HostProcess> proc = p->CreateProcess();
        NS_TEST_ASSERT_MSG_EQ(proc->GetPid(), 1u, "first pid");
        // At 0: execute 300 us, then sleep 2 ms (armed at 0.3 ms, expiry 2.3 ms -> tick 3 ms,
        // + 50 us latency = 3.05 ms), then execute 20 us -> 3.07 ms.
        proc->Execute(MicroSeconds(300), MakeCallback(&HostProcessTestCase::Mark, this));
        proc->Sleep(MilliSeconds(2), MakeCallback(&HostProcessTestCase::Mark, this));
        proc->ExecuteCycles(20000, MakeCallback(&HostProcessTestCase::Mark, this));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_times.size(), 3u, "three steps");
        NS_TEST_ASSERT_MSG_EQ(m_times[0], MicroSeconds(300), "execute");
        NS_TEST_ASSERT_MSG_EQ(m_times[1], MicroSeconds(3050), "sleep ends on tick + latency");
        NS_TEST_ASSERT_MSG_EQ(m_times[2], MicroSeconds(3070), "execute after the sleep");
        Simulator::Destroy();

        // Wake-up of a blocked process costs the latency; of a busy process nothing extra.
        m_times.clear();
        Ptr<HostPlatform> q = MakePlatform(1e9, 1);
        q->SetAttribute("SchedulingLatency",
                        StringValue("ns3::ConstantRandomVariable[Constant=50e-6]"));
        Ptr<HostProcess> r = q->CreateProcess();
        Simulator::Schedule(MilliSeconds(1), [&]() {
            r->Wake(MakeCallback(&HostProcessTestCase::Mark, this)); // blocked: 1.05 ms
            r->Execute(MicroSeconds(100), MakeCallback(&HostProcessTestCase::Mark, this));
        });
        Simulator::Schedule(MicroSeconds(1100), [&]() {
            r->Wake(MakeCallback(&HostProcessTestCase::Mark, this)); // busy: after the execute
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_times.size(), 3u, "three steps");
        NS_TEST_ASSERT_MSG_EQ(m_times[0], MicroSeconds(1050), "blocked wake-up pays latency");
        NS_TEST_ASSERT_MSG_EQ(m_times[1], MicroSeconds(1150), "then executes");
        NS_TEST_ASSERT_MSG_EQ(m_times[2], MicroSeconds(1150), "busy wake-up is free");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * NIC receive path: ring drops, interrupt moderation, legacy and NAPI processing times,
 * receive livelock and its cure.
 */
class HostNicTestCase : public TestCase
{
  public:
    HostNicTestCase()
        : TestCase("HostNic: ring overflow, moderation, livelock")
    {
    }

  private:
    std::vector<Time> m_delivered; //!< delivery times

    /**
     * Upper layer stub.
     * @param d device
     * @param p packet
     * @param proto protocol
     * @param from source
     * @param to destination
     * @param t packet type
     */
    void Up(Ptr<NetDevice> d,
            Ptr<const Packet> p,
            uint16_t proto,
            const Address& from,
            const Address& to,
            NetDevice::PacketType t)
    {
        m_delivered.push_back(Simulator::Now());
    }

    /**
     * A NIC on a 1 GHz CPU feeding Up().
     * @param p platform
     * @return the NIC
     */
    Ptr<HostNic> MakeNic(Ptr<HostPlatform> p)
    {
        Ptr<HostNic> nic = CreateObject<HostNic>();
        nic->Setup(p->GetCpu(), nullptr, MakeCallback(&HostNicTestCase::Up, this));
        return nic;
    }

    void DoRun() override
    {
        // Burst of 25 frames at t=0 into a 10-descriptor ring: 15 dropped. Legacy driver:
        // InterruptCost 2 us + DriverCost 1 us per frame -> handler 0-12 us; softirq 3 us per
        // frame -> deliveries at 15, 18, ..., 42 us.
        {
            Ptr<HostPlatform> p = MakePlatform(1e9, 1);
            Ptr<HostNic> nic = MakeNic(p);
            nic->SetAttribute("RxRingSize", UintegerValue(10));
            nic->SetAttribute("InterruptCost", DoubleValue(2000));
            nic->SetAttribute("DriverCost", DoubleValue(1000));
            nic->SetAttribute("StackCost", DoubleValue(3000));
            for (int i = 0; i < 25; ++i)
            {
                Offer(nic, 100);
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(nic->GetRxRingDrops(), 15u, "ring drops");
            NS_TEST_ASSERT_MSG_EQ(nic->GetInterrupts(), 1u, "one interrupt");
            NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 10u, "ten delivered");
            for (uint32_t i = 0; i < m_delivered.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(m_delivered[i], MicroSeconds(15 + 3 * i), "delivery time");
            }
            Simulator::Destroy();
        }
        // NAPI, 10 frames at t=0, InterruptDelay 5 us: interrupt at 5 us, handler 2 us, then the
        // poll takes each frame for DriverCost + StackCost = 4 us: deliveries at 11, 15, ... us.
        {
            m_delivered.clear();
            Ptr<HostPlatform> p = MakePlatform(1e9, 1);
            Ptr<HostNic> nic = MakeNic(p);
            nic->SetAttribute("RxRingSize", UintegerValue(10));
            nic->SetAttribute("Napi", BooleanValue(true));
            nic->SetAttribute("InterruptDelay", TimeValue(MicroSeconds(5)));
            nic->SetAttribute("InterruptCost", DoubleValue(2000));
            nic->SetAttribute("DriverCost", DoubleValue(1000));
            nic->SetAttribute("StackCost", DoubleValue(3000));
            for (int i = 0; i < 10; ++i)
            {
                Offer(nic, 100);
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 10u, "all delivered");
            for (uint32_t i = 0; i < m_delivered.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(m_delivered[i], MicroSeconds(11 + 4 * i), "NAPI delivery");
            }
            Simulator::Destroy();
        }
        // Interrupt moderation caps the rate: one frame every 10 us for 10 ms (1000 frames),
        // at most 10 000 interrupts/s -> interrupts at 0, 100, 200, ..., 10 000 us: exactly 101
        // (the first frame interrupts at once; frames of 9.91-9.99 ms wait for the one at
        // 10 ms), and every frame is delivered (cheap processing).
        {
            m_delivered.clear();
            Ptr<HostPlatform> p = MakePlatform(1e9, 1);
            Ptr<HostNic> nic = MakeNic(p);
            nic->SetAttribute("MaxInterruptRate", DoubleValue(10000));
            nic->SetAttribute("InterruptCost", DoubleValue(100));
            for (int i = 0; i < 1000; ++i)
            {
                Simulator::Schedule(MicroSeconds(10 * i), &Offer, nic, 100u);
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(nic->GetInterrupts(), 101u, "moderated interrupt count");
            NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 1000u, "all delivered");
            Simulator::Destroy();
        }
        // Receive livelock: frames every 10 us for 10 ms; each unmoderated interrupt costs
        // 8 + 4 = 12 us > 10 us: the CPU never leaves interrupt context during the flood, so a
        // 100 us process item submitted at 1 ms cannot finish before the flood ends (10 ms).
        // With moderation at 10 000/s each 100 us carries one interrupt for ~10 frames:
        // 8 + 10*4 = 48 us of handler + 10*3 = 30 us of softirq = 78 us, leaving 22 us per 100 us
        // to the process: its 100 us of work needs 5 periods -> done well before 2 ms.
        for (bool moderated : {false, true})
        {
            m_delivered.clear();
            Ptr<HostPlatform> p = MakePlatform(1e9, 1);
            Ptr<HostNic> nic = MakeNic(p);
            nic->SetAttribute("InterruptCost", DoubleValue(8000));
            nic->SetAttribute("DriverCost", DoubleValue(4000));
            nic->SetAttribute("StackCost", DoubleValue(3000));
            nic->SetAttribute("RxRingSize", UintegerValue(64));
            if (moderated)
            {
                nic->SetAttribute("MaxInterruptRate", DoubleValue(10000));
            }
            for (int i = 0; i < 1000; ++i)
            {
                Simulator::Schedule(MicroSeconds(10 * i), &Offer, nic, 100u);
            }
            Time processDone = Seconds(-1);
            Ptr<HostProcess> proc = p->CreateProcess();
            Simulator::Schedule(MilliSeconds(1), [&]() {
                proc->Execute(MicroSeconds(100),
                              Callback<void>([&]() { processDone = Simulator::Now(); }));
            });
            Simulator::Run();
            if (moderated)
            {
                NS_TEST_ASSERT_MSG_LT(processDone,
                                      MilliSeconds(2),
                                      "moderation lets the process run");
                NS_TEST_ASSERT_MSG_EQ(nic->GetRxRingDrops() + nic->GetBacklogDrops(),
                                      0u,
                                      "no loss when moderated");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT(processDone,
                                      MilliSeconds(10),
                                      "livelock starves the process");
                // Conservation: every frame offered is delivered or dropped somewhere.
                NS_TEST_ASSERT_MSG_EQ(nic->GetDelivered() + nic->GetRxRingDrops()
                                          + nic->GetBacklogDrops(),
                                      1000u,
                                      "frames conserved");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup testbed-tests
 * The NIC's own receive path (RxDmaRate, InterruptDelay, RegisterReadTime), hand-timed on a 1 GHz
 * CPU with InterruptCost 1 000, DriverCost 1 000 and StackCost 3 000 cycles: the DMA at 800
 * Mbit/s (10 ns per octet) of the frame from its header (payload + 14 octets, at least 60), the
 * interrupt 2 us after, the handler 1 + 1 us and 0.8 us of register reads, the softirq 3 us.
 * One 486-octet payload at 0: in memory at 5 us, delivered at 12.8 us; a 10-octet payload: 60
 * octets, delivered at 8.4 us. Two 486-octet payloads at 0: the second is in memory at 10 us,
 * after the first's interrupt (7 us) took the first alone; its interrupt at 12 us preempts the
 * first's softirq (9.8 to 12.8 us, 0.8 us left), which resumes after the handler (14.8 us):
 * deliveries at 15.6 and 18.6 us, two interrupts.
 */
class HostNicBusTestCase : public TestCase
{
  public:
    HostNicBusTestCase()
        : TestCase("HostNic: receive DMA, interrupt delivery, register reads and the softirq "
                   "daemon, hand-timed")
    {
    }

  private:
    /// The upper layer: the delivery times.
    struct Upper
    {
        std::vector<Time> times; //!< delivery times

        /**
         * The NIC's delivery callback.
         * @param p the packet
         */
        void Up(Ptr<NetDevice>,
                Ptr<const Packet> p,
                uint16_t,
                const Address&,
                const Address&,
                NetDevice::PacketType)
        {
            times.push_back(Simulator::Now());
        }
    };

    uint64_t m_wakeUps{0};                      //!< the last run's softirq daemon wake-ups
    Upper m_up;                                 //!< the upper layer
    std::vector<Time>& m_delivered{m_up.times}; //!< its delivery times

    /**
     * Offer frames at t = 0 and run.
     * @param payloads the frames' payload octets
     * @return the NIC's interrupts
     */
    uint64_t Run(const std::vector<uint32_t>& payloads, bool softirqThread = false)
    {
        m_delivered.clear();
        Ptr<HostPlatform> p = MakePlatform(1e9, 1, 500);
        Ptr<HostNic> nic = CreateObject<HostNic>();
        nic->SetAttribute("SoftirqThread", BooleanValue(softirqThread));
        nic->SetAttribute("RxDmaRate", DataRateValue(DataRate("800Mbps")));
        nic->SetAttribute("InterruptDelay", TimeValue(MicroSeconds(2)));
        nic->SetAttribute("RegisterReadTime", TimeValue(NanoSeconds(800)));
        nic->SetAttribute("InterruptCost", DoubleValue(1000));
        nic->SetAttribute("DriverCost", DoubleValue(1000));
        nic->SetAttribute("StackCost", DoubleValue(3000));
        nic->Setup(p->GetCpu(), nullptr, MakeCallback(&Upper::Up, &m_up));
        for (uint32_t n : payloads)
        {
            Offer(nic, n);
        }
        Simulator::Run();
        uint64_t interrupts = nic->GetInterrupts();
        m_wakeUps = nic->GetSoftirqWakeUps();
        Simulator::Destroy();
        return interrupts;
    }

    void DoRun() override
    {
        Run({486});
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 1u, "one frame");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], NanoSeconds(12800), "486 octets");
        Run({10});
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 1u, "one frame");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], NanoSeconds(8400), "padded to 60 octets");
        NS_TEST_EXPECT_MSG_EQ(Run({486, 486}), 2u, "the second frame's own interrupt");
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 2u, "two frames");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], NanoSeconds(15600), "first, after the preemption");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[1], NanoSeconds(18600), "second");
        // The softirq in a kernel thread (SoftirqThread): woken once per run of frames, it pays
        // a switch (500 cycles, 0.5 us) before its first frame. One frame: 13.3 us. Two: the
        // daemon starts at 9.8 us (0.5 + 3 us), is preempted at 12 us for 2.8 us, ends the
        // first frame at 16.1 us and the second, awake, at 19.1 us: one wake-up.
        Run({486}, true);
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 1u, "one frame");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], NanoSeconds(13300), "the daemon's switch");
        NS_TEST_EXPECT_MSG_EQ(m_wakeUps, 1u, "one wake-up");
        Run({486, 486}, true);
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 2u, "two frames");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], NanoSeconds(16100), "first");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[1], NanoSeconds(19100), "second, the daemon awake");
        NS_TEST_EXPECT_MSG_EQ(m_wakeUps, 1u, "one wake-up for both");
    }
};

/**
 * @ingroup testbed-tests
 * Receive interrupt bundling (BundleTimer, BundleMax, BundleSmallSize: the e100's CPUSaver),
 * hand-timed on a 1 GHz CPU with InterruptCost 1 000, DriverCost 1 000 and StackCost 3 000
 * cycles, no DMA stage, a 100 us dead-man timer and bundles of 3. A 486-octet payload alone at
 * 0 waits for the timer: interrupt at 100 us, handler 2 us, softirq 3 us, delivered at 105 us.
 * A 100-octet payload (114 octets with its header, under 128) interrupts at once: 5 us. Payloads
 * at 0 and 50 us: the second restarts the timer, one interrupt at 150 us, handler 3 us, deliveries
 * at 156 and 159 us. At 0, 30 and 60 us: the third fills the bundle, one interrupt at 60 us,
 * handler 4 us, deliveries at 67, 70 and 73 us. Without the timer a lone frame is delivered at
 * 5 us.
 */
class HostNicBundleTestCase : public TestCase
{
  public:
    HostNicBundleTestCase()
        : TestCase("HostNic: receive interrupt bundling (CPUSaver), hand-timed")
    {
    }

  private:
    std::vector<Time> m_delivered; //!< delivery times of the last run

    /**
     * The NIC's delivery callback.
     */
    void Up(Ptr<NetDevice>,
            Ptr<const Packet>,
            uint16_t,
            const Address&,
            const Address&,
            NetDevice::PacketType)
    {
        m_delivered.push_back(Simulator::Now());
    }

    /**
     * Offer frames and run.
     * @param frames (arrival in us, payload octets) of each frame
     * @param timer the dead-man timer (0: no bundling)
     * @return the NIC's interrupts
     */
    uint64_t Run(const std::vector<std::pair<int, uint32_t>>& frames, Time timer)
    {
        m_delivered.clear();
        Ptr<HostPlatform> p = MakePlatform(1e9, 1);
        Ptr<HostNic> nic = CreateObject<HostNic>();
        nic->SetAttribute("BundleTimer", TimeValue(timer));
        nic->SetAttribute("BundleMax", UintegerValue(3));
        nic->SetAttribute("InterruptCost", DoubleValue(1000));
        nic->SetAttribute("DriverCost", DoubleValue(1000));
        nic->SetAttribute("StackCost", DoubleValue(3000));
        nic->Setup(p->GetCpu(), nullptr, MakeCallback(&HostNicBundleTestCase::Up, this));
        for (const auto& [at, octets] : frames)
        {
            const uint32_t n = octets;
            Simulator::Schedule(MicroSeconds(at), [nic, n]() { Offer(nic, n); });
        }
        Simulator::Run();
        uint64_t interrupts = nic->GetInterrupts();
        Simulator::Destroy();
        return interrupts;
    }

    void DoRun() override
    {
        const Time timer = MicroSeconds(100);
        Run({{0, 486}}, timer);
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 1u, "one frame");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], MicroSeconds(105), "a lone frame waits");
        Run({{0, 100}}, timer);
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 1u, "one frame");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], MicroSeconds(5), "a short frame does not");
        NS_TEST_EXPECT_MSG_EQ(Run({{0, 486}, {50, 486}}, timer), 1u, "one interrupt");
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 2u, "two frames");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], MicroSeconds(156), "the timer restarted");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[1], MicroSeconds(159), "second");
        NS_TEST_EXPECT_MSG_EQ(Run({{0, 486}, {30, 486}, {60, 486}}, timer), 1u, "one interrupt");
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 3u, "three frames");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], MicroSeconds(67), "the bundle is full");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[2], MicroSeconds(73), "third");
        Run({{0, 486}}, Seconds(0));
        NS_TEST_ASSERT_MSG_EQ(m_delivered.size(), 1u, "one frame");
        NS_TEST_EXPECT_MSG_EQ(m_delivered[0], MicroSeconds(5), "no bundling");
    }
};

/**
 * @ingroup testbed-tests
 * A UDP datagram between two hosts: the receive time at the socket is wire time plus the NIC's
 * interrupt delay and the handler and stack costs, exactly.
 */
class HostReceivePathTestCase : public TestCase
{
  public:
    HostReceivePathTestCase()
        : TestCase("HostPlatform: receive path between the device and the socket")
    {
    }

  private:
    Time m_rx{Seconds(-1)}; //!< socket receive time

    /**
     * Socket receive callback.
     * @param s socket
     */
    void Rx(Ptr<Socket> s)
    {
        while (s->Recv())
        {
            m_rx = Simulator::Now();
        }
    }

    void DoRun() override
    {
        NodeContainer nodes(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", TimeValue(Seconds(0)));
        NetDeviceContainer devs = p2p.Install(nodes);
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);

        HostPlatformHelper hosts;
        hosts.SetAttribute("Cpu", StringValue("ns3::HostCpu[Frequency=1e9]"));
        hosts.SetNicAttribute("InterruptDelay", TimeValue(MicroSeconds(100)));
        hosts.SetNicAttribute("InterruptCost", DoubleValue(1000));
        hosts.SetNicAttribute("DriverCost", DoubleValue(1000));
        hosts.SetNicAttribute("StackCost", DoubleValue(3000));
        hosts.Install(nodes);
        NS_TEST_ASSERT_MSG_NE(nodes.Get(1)->GetObject<HostPlatform>()->GetNic(devs.Get(1)),
                              nullptr,
                              "NIC model installed");

        Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(MakeCallback(&HostReceivePathTestCase::Rx, this));
        Ptr<Socket> tx = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        tx->Connect(InetSocketAddress(ifs.GetAddress(1), 9));
        Simulator::Schedule(Seconds(1), [&]() { tx->Send(Create<Packet>(100)); });
        Simulator::Run();
        // 100 B payload + 8 UDP + 20 IP + 2 PPP = 130 B = 10.4 us at 100 Mb/s; then 100 us
        // interrupt delay, 1 + 1 us handler, 3 us stack.
        NS_TEST_ASSERT_MSG_EQ(m_rx,
                              Seconds(1) + NanoSeconds(10400) + MicroSeconds(105),
                              "socket receive time");
        Ptr<HostNic> nic = nodes.Get(1)->GetObject<HostPlatform>()->GetNic(devs.Get(1));
        NS_TEST_ASSERT_MSG_EQ(nic->GetDelivered(), 1u, "one frame through the NIC model");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * A router with two NICs: a forwarded datagram passes each NIC model exactly once (no copy
 * slips past the model) and its arrival includes the router's receive processing.
 */
class HostRouterPathTestCase : public TestCase
{
  public:
    HostRouterPathTestCase()
        : TestCase("HostPlatform: forwarding node with two NIC models")
    {
    }

  private:
    std::vector<Time> m_rx; //!< socket receive times

    /**
     * Socket receive callback.
     * @param s socket
     */
    void Rx(Ptr<Socket> s)
    {
        while (s->Recv())
        {
            m_rx.push_back(Simulator::Now());
        }
    }

    void DoRun() override
    {
        NodeContainer nodes(3); // A, router, B
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", TimeValue(Seconds(0)));
        NetDeviceContainer ab = p2p.Install(nodes.Get(0), nodes.Get(1));
        NetDeviceContainer rb = p2p.Install(nodes.Get(1), nodes.Get(2));
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper addr("10.0.1.0", "255.255.255.0");
        addr.Assign(ab);
        addr.SetBase("10.0.2.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(rb);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();

        HostPlatformHelper hosts;
        hosts.SetAttribute("Cpu", StringValue("ns3::HostCpu[Frequency=1e9]"));
        hosts.SetNicAttribute("InterruptDelay", TimeValue(MicroSeconds(50)));
        hosts.SetNicAttribute("StackCost", DoubleValue(2000));
        hosts.Install(nodes);

        Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(2), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(MakeCallback(&HostRouterPathTestCase::Rx, this));
        Ptr<Socket> tx = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        tx->Connect(InetSocketAddress(ifs.GetAddress(1), 9));
        Simulator::Schedule(Seconds(1), [&]() { tx->Send(Create<Packet>(100)); });
        Simulator::Schedule(Seconds(2), [&]() { tx->Send(Create<Packet>(100)); });
        // And one the other way, B -> A (enters the router by its second device).
        Ptr<Socket> rxA = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        rxA->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rxA->SetRecvCallback(MakeCallback(&HostRouterPathTestCase::Rx, this));
        Ptr<Socket> txB = Socket::CreateSocket(nodes.Get(2), UdpSocketFactory::GetTypeId());
        txB->Connect(InetSocketAddress(Ipv4Address("10.0.1.1"), 9));
        Simulator::Schedule(Seconds(3), [&]() { txB->Send(Create<Packet>(100)); });
        Simulator::Run();
        // Two hops of 130 B at 100 Mb/s (10.4 us each), two NIC models (50 us + 2 us each).
        NS_TEST_ASSERT_MSG_EQ(m_rx.size(), 3u, "each datagram arrives exactly once");
        NS_TEST_ASSERT_MSG_EQ(m_rx[0],
                              Seconds(1) + NanoSeconds(2 * 10400) + MicroSeconds(2 * 52),
                              "arrival through the router's NIC model");
        Ptr<HostPlatform> router = nodes.Get(1)->GetObject<HostPlatform>();
        NS_TEST_ASSERT_MSG_EQ(router->GetNic(ab.Get(1))->GetDelivered(), 2u, "router NIC in");
        NS_TEST_ASSERT_MSG_EQ(router->GetNic(rb.Get(0))->GetDelivered(), 1u, "router NIC in (B)");
        NS_TEST_ASSERT_MSG_EQ(m_rx[2],
                              Seconds(3) + NanoSeconds(2 * 10400) + MicroSeconds(2 * 52),
                              "arrival B -> A through the router's NIC model");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Profile texts and values that ns-3 would stop the program over, refused with a message
 * instead: a time beyond what a Time holds (ns-3's parser overflows int64x64 and asserts), a
 * section defined twice (the second replaced the first without a word), and a leading byte
 * order mark read as nothing; HostCpu's cores checked before a CPU exists.
 */
class ProfileTextLimitsTestCase : public TestCase
{
  public:
    ProfileTextLimitsTestCase()
        : TestCase("Profile: times beyond Time's range, a section twice, a byte order mark; "
                   "HostCpu::CheckCores")
    {
    }

  private:
    void DoRun() override
    {
        // Time::Max() at ns-3's nanosecond resolution: 2^63 ns, about 9.22e9 s.
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("20ms"), true, "a plain time");
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("9e9s"), true, "9e9 s < 2^63 ns");
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("-9e9s"), true, "and its negative");
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("285y"), true, "285 years < 2^63 ns");
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("1e30s"), false, "1e30 s");
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("9.3e9s"), false, "9.3e9 s > 2^63 ns");
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("293y"), false, "293 years");
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("1e19fs"), false, "1e19 > 2^63");
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("1e400s"), false, "no finite number");
        NS_TEST_ASSERT_MSG_EQ(Profile::IsTimeTextInRange("1x"), false, "not a time");
        // The largest accepted time is one ns-3 holds (this would abort if it did not).
        NS_TEST_ASSERT_MSG_GT(Time("9e9s"), Seconds(8.9e9), "9e9 s parsed");

        std::string error;
        NS_TEST_ASSERT_MSG_EQ(
            Profile::TryCheckAttribute("ns3::HostCpu", "IdleEntryTime", "1e30s", error),
            false,
            "a time beyond Time's range in a setting");
        NS_TEST_ASSERT_MSG_NE(error.find("1e30s"), std::string::npos, error);
        NS_TEST_ASSERT_MSG_EQ(Profile::TryCheckAttribute("ns3::HostPlatform",
                                                         "Cpu",
                                                         "ns3::HostCpu[IdleEntryTime=1e30s]",
                                                         error),
                              false,
                              "and inside an object value");

        uint32_t count = 0;
        NS_TEST_ASSERT_MSG_EQ(Profile::TryLoadText("[host tl-1]\nHostNic.RxRingSize = 16\n"
                                                   "\n[host tl-1]\nHostNic.RxRingSize = 32\n",
                                                   "twice.txt",
                                                   count,
                                                   error),
                              false,
                              "a section twice");
        NS_TEST_ASSERT_MSG_EQ(error,
                              "twice.txt:4: [host tl-1] is defined twice (first at line 1)",
                              "names both lines");
        NS_TEST_ASSERT_MSG_EQ(Profile::Exists("host", "tl-1"), false, "nothing registered");
        NS_TEST_ASSERT_MSG_EQ(
            Profile::TryLoadText("\xEF\xBB\xBF[host tl-2]\nHostNic.RxRingSize = 16\n",
                                 "bom.txt",
                                 count,
                                 error),
            true,
            "a leading byte order mark: " << error);
        NS_TEST_ASSERT_MSG_EQ(Profile::Exists("host", "tl-2"), true, "the profile, by its name");
        NS_TEST_ASSERT_MSG_EQ(Profile::TryLoadText("[host tl-3]\n\xEF\xBB\xBFHostNic.RxRingSize\n",
                                                   "x.txt",
                                                   count,
                                                   error),
                              false,
                              "a stray byte order mark");
        NS_TEST_ASSERT_MSG_NE(error.find("\\xEF\\xBB\\xBF"), std::string::npos, error);

        // HostCpu's cores, as Setup() would stop the program over them.
        NS_TEST_ASSERT_MSG_EQ(HostCpu::CheckCores(2, "1", 0, error), true, error);
        NS_TEST_ASSERT_MSG_EQ(HostCpu::CheckCores(1, "", -1, error), true, error);
        NS_TEST_ASSERT_MSG_EQ(HostCpu::CheckCores(1, "", 99, error), false, "core 99 of 1");
        NS_TEST_ASSERT_MSG_NE(error.find("InterruptCore 99 >= Cores 1"), std::string::npos, error);
        NS_TEST_ASSERT_MSG_EQ(HostCpu::CheckCores(2, "2", -1, error), false, "no core 2");
        NS_TEST_ASSERT_MSG_EQ(HostCpu::CheckCores(2, "0,1", -1, error), false, "all shielded");
        NS_TEST_ASSERT_MSG_EQ(HostCpu::CheckCores(2, "x", -1, error), false, "not a core");
    }
};

/**
 * @ingroup testbed-tests
 * Profiles: built-ins exist, text parsing, a helper applies a profile to attributes.
 */
class HostProfileTestCase : public TestCase
{
  public:
    HostProfileTestCase()
        : TestCase("Profile: built-in host and RTI profiles, the text format, WithChanges")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Profile::Exists("host", "pc2006-linux26"), true, "JAXA PC");
        NS_TEST_ASSERT_MSG_EQ(Profile::Exists("host", "starbed-p3-linux2613"), true, "StarBED");
        NS_TEST_ASSERT_MSG_EQ(Profile::Exists("rti", "prti1516"), true, "pRTI profile");
        NS_TEST_ASSERT_MSG_EQ(Profile::Exists("rti", "pc2006-linux26"), false, "kinds apart");
        uint32_t n = Profile::LoadText("# test\n[profile t-1]\ndescription = x\n"
                                       "HostPlatform.Cpu = ns3::HostCpu[Frequency=2e9]\n"
                                       "HostNic.RxRingSize = 16\n",
                                       "test");
        NS_TEST_ASSERT_MSG_EQ(n, 1u, "one profile read");
        const Profile& p = Profile::Get("host", "t-1");
        NS_TEST_ASSERT_MSG_EQ(p.GetSection("HostPlatform").size(), 1u, "one platform attribute");
        NS_TEST_ASSERT_MSG_EQ(p.GetSection("HostNic").at(0).second, "16", "NIC attribute value");
        NS_TEST_ASSERT_MSG_EQ(p.GetDescription(), "x", "description");

        // WithChanges: a whole value, an attribute inside an object value (qualified and bare).
        Profile q = p.WithChanges({{"HostNic.RxRingSize", "64"},
                                   {"HostPlatform.Cpu.Frequency", "1e9"},
                                   {"HostPlatform.Cpu.Cores", "2"}},
                                  "t-2");
        NS_TEST_ASSERT_MSG_EQ(q.GetName(), "t-2", "new name");
        NS_TEST_ASSERT_MSG_EQ(q.GetSection("HostNic").at(0).second, "64", "whole value");
        NS_TEST_ASSERT_MSG_EQ(q.GetSection("HostPlatform").at(0).second,
                              "ns3::HostCpu[Frequency=1e9|Cores=2]",
                              "inner value replaced, one added");
        Profile r;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(p.TryWithChanges({{"Frequency", "3e9"}}, "t-3", r, error),
                              true,
                              "a unique inner attribute");
        NS_TEST_ASSERT_MSG_EQ(r.GetSection("HostPlatform").at(0).second,
                              "ns3::HostCpu[Frequency=3e9]",
                              "bare inner attribute");
        NS_TEST_ASSERT_MSG_EQ(p.TryWithChanges({{"Cores", "2"}}, "t-3", r, error),
                              false,
                              "a bare key must exist");
        NS_TEST_ASSERT_MSG_EQ(p.TryWithChanges({{"NoSuchThing", "1"}}, "t-3", r, error),
                              false,
                              "unknown key refused");
        NS_TEST_ASSERT_MSG_NE(error.find("NoSuchThing"), std::string::npos, "names the key");
        // Two object values with a Frequency: a bare key is ambiguous.
        const Profile& jaxa = Profile::Get("host", "pc2006-linux26");
        NS_TEST_ASSERT_MSG_EQ(jaxa.TryWithChanges({{"Frequency", "1e9"}}, "t-3", r, error),
                              false,
                              "ambiguous key refused");
        NS_TEST_ASSERT_MSG_NE(error.find("HostPlatform.Timer.Frequency"),
                              std::string::npos,
                              "lists the qualified keys");

        // Malformed text: refused with the line number, nothing registered.
        uint32_t count = 0;
        NS_TEST_ASSERT_MSG_EQ(
            Profile::TryLoadText("[host t-4]\nHostDisk.Frequency = 1\n", "bad.txt", count, error),
            false,
            "unknown section refused");
        NS_TEST_ASSERT_MSG_NE(error.find("bad.txt:2:"), std::string::npos, "file and line");
        NS_TEST_ASSERT_MSG_EQ(Profile::Exists("host", "t-4"), false, "all or nothing");
        NS_TEST_ASSERT_MSG_EQ(Profile::TryLoadText("[nokind t-5]\n", "bad.txt", count, error),
                              false,
                              "unknown kind refused");

        Ptr<Node> node = CreateObject<Node>();
        HostPlatformHelper helper("t-1");
        helper.SetInstallNics(false);
        Ptr<HostPlatform> platform = helper.Install(node);
        NS_TEST_ASSERT_MSG_EQ(platform->GetCpu()->GetFrequency(), 2e9, "profile applied");
        // Two platforms from one helper get distinct CPUs.
        Ptr<Node> node2 = CreateObject<Node>();
        Ptr<HostPlatform> platform2 = helper.Install(node2);
        NS_TEST_ASSERT_MSG_NE(platform->GetCpu(), platform2->GetCpu(), "one CPU per host");
    }
};

/**
 * Every value of a profile is checked against its attribute without creating an
 * object (what would abort when a helper applies it), a --hostSet value cannot carry a second
 * attribute, and a directory is no profile file.
 */
class HostProfileCheckTestCase : public TestCase
{
  public:
    HostProfileCheckTestCase()
        : TestCase("Profile: TryCheck refuses values the attributes refuse; no injected attribute")
    {
    }

  private:
    void DoRun() override
    {
        std::string error;
        for (const auto& name : Profile::List("host"))
        {
            NS_TEST_ASSERT_MSG_EQ(Profile::Get("host", name).TryCheck(error), true, error);
        }
        for (const auto& name : Profile::List("rti"))
        {
            NS_TEST_ASSERT_MSG_EQ(Profile::Get("rti", name).TryCheck(error), true, error);
        }
        const Profile& jaxa = Profile::Get("host", "pc2006-linux26");
        // HostCpu's checkers: Frequency in [1e6, 1e11] Hz, Cores in [1, 1024].
        const std::vector<std::pair<std::string, std::string>> bad{
            {"HostPlatform.Cpu.Frequency", "0"},
            {"HostPlatform.Cpu.Cores", "0"},
            {"HostPlatform.Cpu.Cores", "-1"},
            {"HostPlatform.Cpu.NoSuchAttribute", "1"},
            {"HostPlatform.Cpu", "ns3::NoSuchType"},
            {"HostPlatform.Cpu", "ns3::TickTimer[Frequency=100]"}, // not a HostCpu
            {"HostNic.RxRingSize", "many"},
        };
        for (const auto& change : bad)
        {
            Profile q;
            const bool applied = jaxa.TryWithChanges({change}, "t-check", q, error);
            NS_TEST_ASSERT_MSG_EQ(applied && q.TryCheck(error),
                                  false,
                                  change.first << "=" << change.second << " accepted");
        }
        Profile ok;
        NS_TEST_ASSERT_MSG_EQ(
            jaxa.TryWithChanges({{"HostPlatform.Cpu.Cores", "2"}}, "t-check", ok, error)
                && ok.TryCheck(error),
            true,
            error);
        // "4000|Frequency=1" would set a second attribute inside ns3::HostCpu[...].
        Profile q;
        NS_TEST_ASSERT_MSG_EQ(
            jaxa.TryWithChanges({{"ContextSwitchCost", "4000|Frequency=1"}}, "t-inj", q, error),
            false,
            "a '|' in an inner value refused");
        NS_TEST_ASSERT_MSG_EQ(jaxa.TryWithChanges({{"HostPlatform.Cpu.ContextSwitchCost", "4000]"}},
                                                  "t-inj",
                                                  q,
                                                  error),
                              false,
                              "an unbalanced bracket refused");
        uint32_t count = 0;
        NS_TEST_ASSERT_MSG_EQ(Profile::TryLoadFile("/", count, error),
                              false,
                              "a directory is no profile file");
    }
};

/** A profile derived from another with "base = NAME". */
class HostProfileBaseTestCase : public TestCase
{
  public:
    HostProfileBaseTestCase()
        : TestCase("Profile: base = NAME starts from another profile; changes as WithChanges")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t count = 0;
        std::string error;
        const std::string text = "[host b-1]\n"
                                 "description = one\n"
                                 "HostPlatform.Cpu = ns3::HostCpu[Frequency=3e9|Cores=1]\n"
                                 "HostNic.RxRingSize = 256\n"
                                 "[host b-2]\n"
                                 "base = b-1\n"
                                 "HostPlatform.Cpu.Frequency = 1e9\n"
                                 "HostNic.RxRingSize = 64\n"
                                 "HostNic.Napi = true\n";
        NS_TEST_ASSERT_MSG_EQ(Profile::TryLoadText(text, "b.txt", count, error), true, error);
        const Profile& d = Profile::Get("host", "b-2");
        NS_TEST_ASSERT_MSG_EQ(d.GetDescription(), "one", "description inherited");
        NS_TEST_ASSERT_MSG_EQ(d.GetSection("HostPlatform").at(0).second,
                              "ns3::HostCpu[Frequency=1e9|Cores=1]",
                              "inner attribute changed, the rest kept");
        auto nic = d.GetSection("HostNic");
        NS_TEST_ASSERT_MSG_EQ(nic.size(), 2u, "one replaced in place, one added");
        NS_TEST_ASSERT_MSG_EQ(nic.at(0).second, "64", "replaced in place");
        NS_TEST_ASSERT_MSG_EQ(nic.at(1).first, "Napi", "added");
        NS_TEST_ASSERT_MSG_EQ(Profile::Get("host", "b-1").GetSection("HostNic").size(),
                              1u,
                              "the base is unchanged");
        // A built-in base, from another text.
        NS_TEST_ASSERT_MSG_EQ(
            Profile::TryLoadText("[host b-3]\nbase = pc2006-linux26\n", "c.txt", count, error),
            true,
            error);
        NS_TEST_ASSERT_MSG_EQ(Profile::Get("host", "b-3").GetSection("HostNic").size(),
                              Profile::Get("host", "pc2006-linux26").GetSection("HostNic").size(),
                              "all settings of the built-in base");
        // Errors name the file and line.
        NS_TEST_ASSERT_MSG_EQ(
            Profile::TryLoadText("[host b-4]\nbase = nothing-like-it\n", "e.txt", count, error),
            false,
            "unknown base");
        NS_TEST_ASSERT_MSG_NE(error.find("e.txt:2:"), std::string::npos, "file and line");
        NS_TEST_ASSERT_MSG_EQ(Profile::TryLoadText("[host b-5]\nHostNic.Napi = true\nbase = b-1\n",
                                                   "e.txt",
                                                   count,
                                                   error),
                              false,
                              "base after a setting");
        NS_TEST_ASSERT_MSG_EQ(
            Profile::TryLoadText("[host b-6]\nbase = b-1\nHostPlatform.Cpu.Nope.X = 1\n",
                                 "e.txt",
                                 count,
                                 error),
            false,
            "a change that does not apply");
    }
};

/**
 * @ingroup testbed-tests
 * HostCpu arrivals (ArrivalSource): PROCESS items that fall due at known times are taken by the
 * CPU as if submitted then, hand-computed on one core at 1 GHz with a 1 000-cycle (1 us)
 * context switch. Processes 1 and 2 wake at 10 and 12 us (5 us of work each), process 3 at
 * 40 us (3 us); an interrupt (2 us) comes at 11 us, and a process 4 item (1 us) is submitted
 * directly at 12 us, the instant process 2 falls due. Expected: process 1 starts at 10 (switch
 * 1 us, from process 9 which ran first at 0-1 us), is preempted at 11 (served 1 of 6), resumes
 * at 13 and ends at 18; process 2 (due 12, before process 4's submission at the same instant)
 * then runs 18-24 (switch 1 + 5), process 4 24-26 (switch 1 + 1); process 3 starts on the idle
 * core at 40 and ends at 44 (switch 1 + 3), its completion the only event of its wake-up. The
 * same schedule with one event per wake-up (Submit at 10, 12 and 40 us) gives the same
 * completions with three events more.
 */
class HostArrivalTestCase : public TestCase
{
  public:
    HostArrivalTestCase()
        : TestCase("HostCpu: arrivals taken when they fall due, without events of their own")
    {
    }

  private:
    /// The test's arrival source: (time, owner, service) in order.
    class Source : public HostCpu::ArrivalSource
    {
      public:
        std::vector<std::tuple<int64_t, uint32_t, Time>> items; //!< pending, earliest first
        Callback<void, uint32_t> done;                          //!< completion (owner)

        bool PeekArrival(Arrival& next) const override
        {
            if (items.empty())
            {
                return false;
            }
            next.time = std::get<0>(items.front());
            next.owner = std::get<1>(items.front());
            next.service = std::get<2>(items.front());
            return true;
        }

        HostCpu::Completion TakeArrival() override
        {
            const uint32_t owner = std::get<1>(items.front());
            items.erase(items.begin());
            return HostCpu::Completion{Callback<void>(), done, owner};
        }
    };

    std::vector<std::pair<uint32_t, int64_t>> m_done; //!< (owner, completion in ns)

    void Done(uint32_t owner)
    {
        m_done.emplace_back(owner, Simulator::Now().GetNanoSeconds());
    }

    /**
     * Run the scenario.
     * @param arrivals whether the wake-ups are arrivals (else one Submit event each)
     * @return the events the simulator ran
     */
    uint64_t Run(bool arrivals)
    {
        m_done.clear();
        Ptr<HostPlatform> p = MakePlatform(1e9, 1, 1000);
        Ptr<HostCpu> cpu = p->GetCpu();
        auto done = MakeCallback(&HostArrivalTestCase::Done, this);
        Source source;
        source.done = done;
        const std::vector<std::tuple<int64_t, uint32_t, Time>> wakeups
            = {{10000, 1, MicroSeconds(5)},
               {12000, 2, MicroSeconds(5)},
               {40000, 3, MicroSeconds(3)}};
        // Process 9 runs first (so that process 1 pays a switch).
        cpu->Submit(HostCpu::PROCESS, NanoSeconds(0), 9, Callback<void>([done]() { done(9); }));
        if (arrivals)
        {
            source.items = wakeups;
            cpu->AddArrivalSource(&source);
        }
        else
        {
            for (const auto& [t, ownerRef, serviceRef] : wakeups)
            {
                // Named copies: clang before 16 cannot capture structured bindings (C++20).
                const auto owner = ownerRef;
                const auto service = serviceRef;
                Simulator::Schedule(NanoSeconds(t), [cpu, owner, service, done]() {
                    cpu->Submit(HostCpu::PROCESS, service, owner, Callback<void>([done, owner]() {
                                    done(owner);
                                }));
                });
            }
        }
        Simulator::Schedule(MicroSeconds(11), [cpu]() {
            cpu->Submit(HostCpu::HARDIRQ, MicroSeconds(2), HostCpu::KERNEL, Callback<void>());
        });
        Simulator::Schedule(MicroSeconds(12), [cpu, done]() {
            cpu->Submit(HostCpu::PROCESS, MicroSeconds(1), 4, Callback<void>([done]() {
                            done(4);
                        }));
        });
        Simulator::Run();
        const uint64_t events = Simulator::GetEventCount();
        if (arrivals)
        {
            cpu->RemoveArrivalSource(&source);
        }
        Simulator::Destroy();
        return events;
    }

    void DoRun() override
    {
        const std::vector<std::pair<uint32_t, int64_t>> expected
            = {{9, 0}, {1, 18000}, {2, 24000}, {4, 26000}, {3, 44000}};
        const uint64_t withEvents = Run(false);
        NS_TEST_ASSERT_MSG_EQ(m_done.size(), expected.size(), "one wake-up event each");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_done[i].first, expected[i].first, "order, events");
            NS_TEST_EXPECT_MSG_EQ(m_done[i].second, expected[i].second, "time, events");
        }
        const uint64_t withArrivals = Run(true);
        NS_TEST_ASSERT_MSG_EQ(m_done.size(), expected.size(), "arrivals");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_done[i].first, expected[i].first, "order, arrivals");
            NS_TEST_EXPECT_MSG_EQ(m_done[i].second, expected[i].second, "time, arrivals");
        }
        NS_TEST_EXPECT_MSG_EQ(withEvents, withArrivals + 3, "three wake-up events fewer");
    }
};

/**
 * @ingroup testbed-tests
 * HostCpu::SubmitKept: a completion the caller keeps is called through its pointer, with the
 * item's tag, at the item's end; a kept callback its owner nulled before then is not called.
 * One core at 1 GHz, no context switch: a PROCESS item of 5 us (tag 7) at 0, a HARDIRQ item of
 * 2 us at 1 us (its kept callback nulled at 2 us), a PROCESS item of 1 us (tag 9) at 1 us:
 * the interrupt preempts the first item (1-3 us; 1 us served), which resumes and ends at 7 us,
 * then the second, 7-8 us (no context switch cost).
 */
class HostKeptCompletionTestCase : public TestCase
{
  public:
    HostKeptCompletionTestCase()
        : TestCase("HostCpu: SubmitKept calls the kept callback with its tag, not once nulled")
    {
    }

  private:
    std::vector<std::pair<uint32_t, int64_t>> m_done; //!< (tag, completion in ns)

    void Done(uint32_t tag)
    {
        m_done.emplace_back(tag, Simulator::Now().GetNanoSeconds());
    }

    void DoRun() override
    {
        Ptr<HostCpu> cpu = MakePlatform(1e9, 1)->GetCpu();
        const Callback<void, uint32_t> tagged
            = MakeCallback(&HostKeptCompletionTestCase::Done, this);
        Callback<void> irq = Callback<void>([this]() { Done(1000); });
        cpu->SubmitKept(HostCpu::PROCESS, MicroSeconds(5), 1, &tagged, 7);
        Simulator::Schedule(MicroSeconds(1), [&]() {
            cpu->SubmitKept(HostCpu::HARDIRQ, MicroSeconds(2), HostCpu::KERNEL, &irq);
            cpu->SubmitKept(HostCpu::PROCESS, MicroSeconds(1), 2, &tagged, 9);
        });
        Simulator::Schedule(MicroSeconds(2), [&]() { irq = Callback<void>(); });
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<std::pair<uint32_t, int64_t>> expected = {{7, 7000}, {9, 8000}};
        NS_TEST_ASSERT_MSG_EQ(m_done.size(), expected.size(), "two calls, none for the nulled");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_done[i].first, expected[i].first, "tag");
            NS_TEST_EXPECT_MSG_EQ(m_done[i].second, expected[i].second, "completion time");
        }
    }
};

/**
 * @ingroup testbed-tests
 * A kernel tick (HostCpu InterferencePeriodic): InterferenceRate events per second exactly, one
 * every period from a phase in [0, period): 1000 Hz gives 500 events in [0, 0.5 s) and 1000 in
 * [0, 1 s) whatever the phase (a Poisson stream would give 1000 +- 32), each of its duration.
 */
class HostTickTestCase : public TestCase
{
  public:
    HostTickTestCase()
        : TestCase("HostCpu: a periodic kernel tick (InterferencePeriodic)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("InterferenceRate", DoubleValue(1000.0));
        cpu->SetAttribute("InterferencePeriodic", BooleanValue(true));
        cpu->SetAttribute("InterferenceDuration",
                          StringValue("ns3::ConstantRandomVariable[Constant=2e-6]"));
        cpu->AssignStreams(7);
        cpu->Initialize();
        uint64_t half = 0;
        Simulator::Schedule(Seconds(0.5) - NanoSeconds(1),
                            [&]() { half = cpu->GetInterferenceEvents(); });
        Simulator::Stop(Seconds(1) - NanoSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(half, 500u, "one tick per millisecond in the first half second");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetInterferenceEvents(), 1000u, "1000 ticks in one second");
        // 2 us per tick (the last one may still run when the run stops).
        const int64_t n = cpu->GetInterferenceEvents();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(cpu->GetBusyTime(HostCpu::HARDIRQ),
                                    MicroSeconds(2) * (n - 1),
                                    "2 us per tick");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(cpu->GetBusyTime(HostCpu::HARDIRQ),
                                    MicroSeconds(2) * n,
                                    "2 us per tick");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * A periodic tick on an idle CPU is deferred (HostCpu IdleInterferenceEvents false, the default):
 * no simulator events while every core is idle, so Simulator::Run() ends with the last other
 * event; the ticks are run when the CPU is next used or asked, at their instants. Hand-timed, one
 * core, 1000 Hz from the phase phi = (1 - exp(-x)) ms of the CPU's first gap draw x (stream 7),
 * 2 us per tick, IdleEntryTime 100 us and IdleExitLatency 5 us (a tick on a core idle for 100 us
 * or more takes 7 us); tick k at phi + k ms:
 *  - job 1 (10 ms) comes at phi + 3 ms + 1 us, during tick 3 (phi + 3 ms, 7 us): it waits 6 us,
 *    starts at phi + 3.007 ms, and ticks 4..13 preempt it for 2 us each (the core is busy: no exit
 *    latency): it ends at phi + 13.027 ms;
 *  - job 2 (1 ms) comes at phi + 20 ms + 3 us, during tick 20 (7 us: idle since 13.027): waits
 *    4 us, starts at phi + 20.007 ms, tick 21 preempts it for 2 us: it ends at phi + 21.009 ms;
 *  - at phi + 30 ms + 1 us tick 30 runs (no idle core); at phi + 30 ms + 8 us it is over;
 *  - then, at phi + 30.008 ms: 31 ticks (0..30); HARDIRQ busy = tick 0 (2 us, 7 if phi >= 100 us)
 *    + 3 x 7 (1..3) + 10 x 2 (4..13) + 7 x 7 (14..20) + 2 (21) + 9 x 7 (22..30) = t0 + 155 us;
 *    PROCESS busy 11 ms.
 * The same numbers with the events scheduled all the time (IdleInterferenceEvents true). The run is
 * stopped at 1 s; deferred, no event but that Stop runs after the last query (phi + 30.008 ms):
 * without the Stop the run would end there by itself. With events while idle, ticks 31..999 and
 * their completions run after it (2 x 969 events, less the ends that fall after 1 s).
 */
class HostDeferredTickTestCase : public TestCase
{
  public:
    /**
     * Constructor.
     * @param idleEvents IdleInterferenceEvents
     */
    HostDeferredTickTestCase(bool idleEvents)
        : TestCase(std::string("HostCpu: a periodic tick, ")
                   + (idleEvents ? "events while idle" : "deferred while idle")
                   + ": hand-timed jobs, and the run ends by itself when deferred")
        , m_idleEvents(idleEvents)
    {
    }

  private:
    bool m_idleEvents; //!< IdleInterferenceEvents

    void DoRun() override
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("InterferenceRate", DoubleValue(1000.0));
        cpu->SetAttribute("InterferencePeriodic", BooleanValue(true));
        cpu->SetAttribute("InterferenceDuration",
                          StringValue("ns3::ConstantRandomVariable[Constant=2e-6]"));
        cpu->SetAttribute("IdleEntryTime", TimeValue(MicroSeconds(100)));
        cpu->SetAttribute("IdleExitLatency", TimeValue(MicroSeconds(5)));
        cpu->SetAttribute("IdleInterferenceEvents", BooleanValue(m_idleEvents));
        cpu->AssignStreams(7);
        // The phase, from the stream's first exponential draw (the attribute's documentation).
        Ptr<ExponentialRandomVariable> x = CreateObject<ExponentialRandomVariable>();
        x->SetAttribute("Mean", DoubleValue(1.0));
        x->SetStream(7);
        const Time phi = Seconds((1.0 - std::exp(-x->GetValue())) / 1000.0);
        cpu->Initialize();

        auto ms = [&](double v) {
            return phi + NanoSeconds(std::llround(v * 1e6));
        };
        Time end1(-1);
        Time end2(-1);
        std::vector<Time> waits;
        cpu->TraceConnectWithoutContext("WorkDone",
                                        MakeCallback(+[](std::vector<Time>* w,
                                                         uint8_t p,
                                                         uint32_t owner,
                                                         Time waited,
                                                         Time service) {
                                            if (p == HostCpu::PROCESS)
                                            {
                                                w->push_back(waited);
                                            }
                                        }).Bind(&waits));
        Simulator::Schedule(ms(3.001), [&]() {
            cpu->Submit(HostCpu::PROCESS, MilliSeconds(10), 1, MakeCallback(+[](Time* e) {
                                                                   *e = Simulator::Now();
                                                               }).Bind(&end1));
        });
        Simulator::Schedule(ms(20.003), [&]() {
            cpu->Submit(HostCpu::PROCESS, MilliSeconds(1), 1, MakeCallback(+[](Time* e) {
                                                                  *e = Simulator::Now();
                                                              }).Bind(&end2));
        });
        bool idleDuringTick = true;
        bool idleAfterTick = false;
        Simulator::Schedule(ms(30.001), [&]() { idleDuringTick = cpu->HasIdleCore(); });
        Simulator::Schedule(ms(30.008), [&]() { idleAfterTick = cpu->HasIdleCore(); });
        uint64_t ticks = 0;
        uint64_t eventsAtQuery = 0;
        Time irq;
        Time proc;
        Simulator::Schedule(ms(30.008), [&]() {
            ticks = cpu->GetInterferenceEvents();
            eventsAtQuery = Simulator::GetEventCount();
            irq = cpu->GetBusyTime(HostCpu::HARDIRQ);
            proc = cpu->GetBusyTime(HostCpu::PROCESS);
        });
        Simulator::Stop(Seconds(1)); // a safety end: only the events-while-idle run needs it
        Simulator::Run();
        const uint64_t eventsAfter = Simulator::GetEventCount() - eventsAtQuery;
        Simulator::Destroy();

        NS_TEST_EXPECT_MSG_EQ(end1, ms(13.027), "job 1: 6 us behind tick 3, ticks 4..13 inside");
        NS_TEST_EXPECT_MSG_EQ(end2, ms(21.009), "job 2: 4 us behind tick 20, tick 21 inside");
        NS_TEST_ASSERT_MSG_EQ(waits.size(), 2u, "two jobs");
        NS_TEST_EXPECT_MSG_EQ(waits[0], MicroSeconds(6), "job 1 waited for tick 3");
        NS_TEST_EXPECT_MSG_EQ(waits[1], MicroSeconds(4), "job 2 waited for tick 20");
        NS_TEST_EXPECT_MSG_EQ(idleDuringTick, false, "tick 30 runs at phi + 30.001 ms");
        NS_TEST_EXPECT_MSG_EQ(idleAfterTick, true, "tick 30 is over at phi + 30.008 ms");
        NS_TEST_EXPECT_MSG_EQ(ticks, 31u, "ticks 0..30");
        const Time t0 = MicroSeconds(phi >= MicroSeconds(100) ? 7 : 2);
        NS_TEST_EXPECT_MSG_EQ(irq, t0 + MicroSeconds(155), "the ticks' service");
        NS_TEST_EXPECT_MSG_EQ(proc, MilliSeconds(11), "the jobs' service");
        // GetEventCount() at the query counts the query's own event: after it, the Stop.
        if (m_idleEvents)
        {
            uint64_t expected = 1;
            for (int k = 31; k < 1000; ++k)
            {
                expected += (ms(k) < Seconds(1)) + (ms(k) + MicroSeconds(7) < Seconds(1));
            }
            NS_TEST_EXPECT_MSG_EQ(eventsAfter, expected, "ticks 31..999 and their ends run on");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(eventsAfter, 1u, "nothing after the last query but the Stop");
        }
    }
};

/**
 * @ingroup testbed-tests
 * Deferred interference and arrivals (HostCpu ArrivalSource) together: while an arrival is
 * pending the interference events stay scheduled (an arrival must find, at its instant, the
 * interference that came before it); once no arrival is pending and every core is idle they are
 * deferred again. Same CPU and tick as HostDeferredTickTestCase (one core, 1000 Hz from phi, 2 us,
 * 7 us on a core idle for 100 us or more); the source is added at 2.5 ms (before tick 3) with two
 * arrivals, hand-timed:
 *  - arrival 1 (100 us) at phi + 5.001 ms, during tick 5 (7 us): waits 6 us, ends at
 *    phi + 5.107 ms;
 *  - arrival 2 (1 ms) at phi + 8.003 ms, during tick 8 (7 us): waits 4 us, starts at 8.007, tick 9
 *    preempts it for 2 us: ends at phi + 9.009 ms;
 *  - at phi + 20.008 ms: ticks 0..20 (21); HARDIRQ busy = tick 0 + 8 x 7 (1..8) + 2 (9) + 11 x 7
 *    (10..20) = t0 + 135 us; PROCESS busy 1.1 ms.
 * Events: with the arrivals pending, (phi + 2.6, phi + 4.9] ms holds ticks 3 and 4 and their
 * completions, and the observer's own event: 5 (deferring there would give 1); with nothing
 * pending after 9.009 ms, (phi + 10.5, phi + 19.5] ms holds only the observer's event when
 * deferred (19 with IdleInterferenceEvents true); after the last query only the Stop (deferred).
 */
class HostDeferredTickArrivalTestCase : public TestCase
{
  public:
    /**
     * Constructor.
     * @param idleEvents IdleInterferenceEvents
     */
    HostDeferredTickArrivalTestCase(bool idleEvents)
        : TestCase(std::string("HostCpu: a periodic tick with arrivals, ")
                   + (idleEvents ? "events while idle" : "deferred while idle")
                   + ": the tick stays scheduled while an arrival is pending")
        , m_idleEvents(idleEvents)
    {
    }

  private:
    bool m_idleEvents; //!< IdleInterferenceEvents

    /// The test's arrival source: (time, owner, service) in order.
    class Source : public HostCpu::ArrivalSource
    {
      public:
        std::vector<std::tuple<Time, uint32_t, Time>> items; //!< pending, earliest first
        std::vector<std::pair<uint32_t, Time>> ends;         //!< (owner, completion)

        bool PeekArrival(Arrival& next) const override
        {
            if (items.empty())
            {
                return false;
            }
            next.time = std::get<0>(items.front()).GetTimeStep();
            next.owner = std::get<1>(items.front());
            next.service = std::get<2>(items.front());
            return true;
        }

        HostCpu::Completion TakeArrival() override
        {
            const uint32_t owner = std::get<1>(items.front());
            items.erase(items.begin());
            return HostCpu::Completion{Callback<void>(), MakeCallback(&Source::Done, this), owner};
        }

        /**
         * An arrival's completion.
         * @param owner its owner
         */
        void Done(uint32_t owner)
        {
            ends.emplace_back(owner, Simulator::Now());
        }
    };

    void DoRun() override
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("InterferenceRate", DoubleValue(1000.0));
        cpu->SetAttribute("InterferencePeriodic", BooleanValue(true));
        cpu->SetAttribute("InterferenceDuration",
                          StringValue("ns3::ConstantRandomVariable[Constant=2e-6]"));
        cpu->SetAttribute("IdleEntryTime", TimeValue(MicroSeconds(100)));
        cpu->SetAttribute("IdleExitLatency", TimeValue(MicroSeconds(5)));
        cpu->SetAttribute("IdleInterferenceEvents", BooleanValue(m_idleEvents));
        cpu->AssignStreams(7);
        Ptr<ExponentialRandomVariable> x = CreateObject<ExponentialRandomVariable>();
        x->SetAttribute("Mean", DoubleValue(1.0));
        x->SetStream(7);
        const Time phi = Seconds((1.0 - std::exp(-x->GetValue())) / 1000.0);
        cpu->Initialize();
        auto ms = [&](double v) {
            return phi + NanoSeconds(std::llround(v * 1e6));
        };

        Source source;
        source.items = {{ms(5.001), 1, MicroSeconds(100)}, {ms(8.003), 2, MilliSeconds(1)}};
        Simulator::Schedule(MicroSeconds(2500), [&]() { cpu->AddArrivalSource(&source); });
        std::array<uint64_t, 4> count{};
        Simulator::Schedule(ms(2.6), [&]() { count[0] = Simulator::GetEventCount(); });
        Simulator::Schedule(ms(4.9), [&]() { count[1] = Simulator::GetEventCount(); });
        Simulator::Schedule(ms(10.5), [&]() { count[2] = Simulator::GetEventCount(); });
        Simulator::Schedule(ms(19.5), [&]() { count[3] = Simulator::GetEventCount(); });
        uint64_t ticks = 0;
        uint64_t eventsAtQuery = 0;
        Time irq;
        Time proc;
        Simulator::Schedule(ms(20.008), [&]() {
            ticks = cpu->GetInterferenceEvents();
            eventsAtQuery = Simulator::GetEventCount();
            irq = cpu->GetBusyTime(HostCpu::HARDIRQ);
            proc = cpu->GetBusyTime(HostCpu::PROCESS);
        });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        const uint64_t eventsAfter = Simulator::GetEventCount() - eventsAtQuery;
        cpu->RemoveArrivalSource(&source);
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(source.ends.size(), 2u, "both arrivals served");
        NS_TEST_EXPECT_MSG_EQ(source.ends[0].first, 1u, "arrival 1 first");
        NS_TEST_EXPECT_MSG_EQ(source.ends[0].second, ms(5.107), "arrival 1: 6 us behind tick 5");
        NS_TEST_EXPECT_MSG_EQ(source.ends[1].first, 2u, "arrival 2 next");
        NS_TEST_EXPECT_MSG_EQ(source.ends[1].second,
                              ms(9.009),
                              "arrival 2: 4 us behind tick 8, tick 9 inside");
        NS_TEST_EXPECT_MSG_EQ(ticks, 21u, "ticks 0..20");
        const Time t0 = MicroSeconds(phi >= MicroSeconds(100) ? 7 : 2);
        NS_TEST_EXPECT_MSG_EQ(irq, t0 + MicroSeconds(135), "the ticks' service");
        NS_TEST_EXPECT_MSG_EQ(proc, MicroSeconds(1100), "the arrivals' service");
        NS_TEST_EXPECT_MSG_EQ(count[1] - count[0], 5u, "arrivals pending: ticks 3, 4 are events");
        NS_TEST_EXPECT_MSG_EQ(count[3] - count[2],
                              m_idleEvents ? 19u : 1u,
                              "nothing pending: ticks 11..19 deferred");
        if (!m_idleEvents)
        {
            NS_TEST_EXPECT_MSG_EQ(eventsAfter, 1u, "nothing after the last query but the Stop");
        }
    }
};

/**
 * @ingroup testbed-tests
 * Deferring the interference of an idle CPU changes no result: the same random workload (jobs of
 * three classes and four owners at random instants) on two cores, one shielded, with Poisson
 * interference (InterferenceRate 2000/s, 1-20 us; shielded 500/s, 3 us) and idle states, run with
 * IdleInterferenceEvents true and false, gives the same completion instant of every job, the same
 * WorkDone records (class, owner, wait, service; as sets: the deferred ones are reported when the
 * CPU is next used) and the same busy times and event counts.
 */
class HostDeferredPoissonTestCase : public TestCase
{
  public:
    HostDeferredPoissonTestCase()
        : TestCase("HostCpu: Poisson interference deferred while idle gives the same results")
    {
    }

  private:
    /** What one run gives. */
    struct Outcome
    {
        std::vector<int64_t> ends;                         //!< job completions (ns), in order
        std::vector<std::array<int64_t, 4>> work;          //!< WorkDone records
        std::array<int64_t, HostCpu::N_PRIORITIES> busy{}; //!< busy ns per class
        uint64_t interference{0};                          //!< events
        std::size_t workAtQuery{0}; //!< WorkDone records up to the last query
        uint64_t eventsAfter{0};    //!< events after the last query (the Stop: 1)
    };

    static Outcome RunOnce(bool idleEvents)
    {
        Ptr<HostCpu> cpu = CreateObject<HostCpu>();
        cpu->SetAttribute("Cores", UintegerValue(2));
        cpu->SetAttribute("ShieldedCores", StringValue("1"));
        cpu->SetAttribute("InterferenceRate", DoubleValue(2000.0));
        cpu->SetAttribute("InterferenceDuration",
                          StringValue("ns3::UniformRandomVariable[Min=1e-6|Max=20e-6]"));
        cpu->SetAttribute("ShieldedInterferenceRate", DoubleValue(500.0));
        cpu->SetAttribute("ShieldedInterferenceDuration",
                          StringValue("ns3::ConstantRandomVariable[Constant=3e-6]"));
        cpu->SetAttribute("IdleEntryTime", TimeValue(MicroSeconds(50)));
        cpu->SetAttribute("IdleExitLatency", TimeValue(MicroSeconds(4)));
        cpu->SetAttribute("IdleInterferenceEvents", BooleanValue(idleEvents));
        cpu->AssignStreams(11);
        cpu->Bind(9, 1); // owner 9 runs on the shielded core
        cpu->Initialize();
        Outcome o;
        cpu->TraceConnectWithoutContext(
            "WorkDone",
            MakeCallback(+[](Outcome* out, uint8_t p, uint32_t owner, Time w, Time s) {
                out->work.push_back({p, owner, w.GetNanoSeconds(), s.GetNanoSeconds()});
            }).Bind(&o));
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(99);
        Time at;
        for (int i = 0; i < 300; ++i)
        {
            at += MicroSeconds(std::llround(u->GetValue(0, 2000)));
            const auto prio = static_cast<HostCpu::Priority>(u->GetInteger(0, 2));
            const uint32_t owners[] = {HostCpu::KERNEL, 1, 2, 9};
            const uint32_t owner = prio == HostCpu::PROCESS ? owners[u->GetInteger(1, 3)] : 0;
            const Time service = MicroSeconds(std::llround(u->GetValue(1, 800)));
            Simulator::Schedule(at, [cpu, prio, owner, service, &o]() {
                cpu->Submit(prio, service, owner, MakeCallback(+[](Outcome* out) {
                                                      out->ends.push_back(
                                                          Simulator::Now().GetNanoSeconds());
                                                  }).Bind(&o));
            });
        }
        const Time last = at + MilliSeconds(50);
        Simulator::Schedule(last, [cpu, &o]() {
            for (uint8_t p = 0; p < HostCpu::N_PRIORITIES; ++p)
            {
                o.busy[p] = cpu->GetBusyTime(static_cast<HostCpu::Priority>(p)).GetNanoSeconds();
            }
            o.interference = cpu->GetInterferenceEvents();
            o.eventsAfter = Simulator::GetEventCount();
            o.workAtQuery = o.work.size();
        });
        Simulator::Stop(last + Seconds(10));
        Simulator::Run();
        o.eventsAfter = Simulator::GetEventCount() - o.eventsAfter;
        Simulator::Destroy();
        o.work.resize(o.workAtQuery);
        std::sort(o.work.begin(), o.work.end());
        return o;
    }

    void DoRun() override
    {
        const Outcome a = RunOnce(true);
        const Outcome b = RunOnce(false);
        NS_TEST_ASSERT_MSG_EQ(a.ends.size(), 300u, "every job completes");
        NS_TEST_EXPECT_MSG_EQ((a.ends == b.ends), true, "the same completion instants");
        NS_TEST_EXPECT_MSG_EQ(a.work.size(), b.work.size(), "as many work items");
        NS_TEST_EXPECT_MSG_EQ((a.work == b.work), true, "the same work items");
        NS_TEST_EXPECT_MSG_EQ((a.busy == b.busy), true, "the same busy times");
        NS_TEST_EXPECT_MSG_EQ(a.interference, b.interference, "as many interference events");
        NS_TEST_EXPECT_MSG_GT(a.interference, 500u, "interference hit the workload");
        NS_TEST_EXPECT_MSG_GT(a.eventsAfter, 1000u, "events while idle: the ticks run on");
        NS_TEST_EXPECT_MSG_EQ(b.eventsAfter,
                              1u,
                              "deferred: nothing after the last job but the Stop");
    }
};

/**
 * @ingroup testbed-tests
 * The host platform suite.
 */
class HostPlatformTestSuite : public TestSuite
{
  public:
    HostPlatformTestSuite()
        : TestSuite("testbed-host-platform", Type::UNIT)
    {
        AddTestCase(new HostCpuTestCase, Duration::QUICK);
        AddTestCase(new HostCpuCompletionTestCase, Duration::QUICK);
        AddTestCase(new HostClockInterruptTestCase, Duration::QUICK);
        AddTestCase(new HostCacheRefillTestCase, Duration::QUICK);
        AddTestCase(new HostWakeUpPreemptionTestCase, Duration::QUICK);
        AddTestCase(new HostArrivalTestCase, Duration::QUICK);
        AddTestCase(new HostKeptCompletionTestCase, Duration::QUICK);
        AddTestCase(new HostProcessTestCase, Duration::QUICK);
        AddTestCase(new HostNicTestCase, Duration::QUICK);
        AddTestCase(new HostNicBusTestCase, Duration::QUICK);
        AddTestCase(new HostNicBundleTestCase, Duration::QUICK);
        AddTestCase(new HostReceivePathTestCase, Duration::QUICK);
        AddTestCase(new HostRouterPathTestCase, Duration::QUICK);
        AddTestCase(new HostProfileTestCase, Duration::QUICK);
        AddTestCase(new ProfileTextLimitsTestCase, Duration::QUICK);
        AddTestCase(new HostProfileBaseTestCase, Duration::QUICK);
        AddTestCase(new HostProfileCheckTestCase, Duration::QUICK);
        AddTestCase(new HostTickTestCase, Duration::QUICK);
        AddTestCase(new HostDeferredTickTestCase(false), Duration::QUICK);
        AddTestCase(new HostDeferredTickTestCase(true), Duration::QUICK);
        AddTestCase(new HostDeferredTickArrivalTestCase(false), Duration::QUICK);
        AddTestCase(new HostDeferredTickArrivalTestCase(true), Duration::QUICK);
        AddTestCase(new HostDeferredPoissonTestCase, Duration::QUICK);
    }
};

static HostPlatformTestSuite g_hostPlatformTestSuite; //!< static instance
