/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [GINE14] timer accuracy: on the GINE PC, a program loop waits for a requested interval on one
 * of the emulator's timers, takes a timestamp when it wakes, does its work and waits again;
 * 1000 firings per request. The mean measured interval is (t_1000 - t_0) / 1000.
 *
 * One run covers every request of the sweep (10..300 us in 10 us steps by default), each on a
 * fresh PC and timer with its own random streams.
 *
 *   ./gine-timer --timer=tctimer --firings=1000 --RngRun=1 --output=r.json
 */

#include "gine-timer-helper.h"

#include "ns3/core-module.h"
#include "ns3/testbed-module.h"

#include <algorithm>
#include <functional>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("GineTimer");

namespace
{

/**
 * The measuring loop: a process on the GINE PC that waits on the timer, timestamps its wake-up,
 * works, and waits again.
 */
class TimerLoop
{
  public:
    /**
     * @param process the process
     * @param timer the timer
     * @param interval the requested interval
     * @param firings firings to time
     * @param work the process's work per firing (timestamp, bookkeeping, the waiting call)
     */
    TimerLoop(Ptr<HostProcess> process,
              Ptr<TimerModel> timer,
              Time interval,
              uint32_t firings,
              Time work)
        : m_process(process)
        , m_timer(timer)
        , m_interval(interval)
        , m_firings(firings)
        , m_work(work)
    {
    }

    /** Start waiting now: the first wait is a plain request of one interval. */
    void Start()
    {
        Time fire = m_timer->GetFireTime(Simulator::Now(), m_interval);
        m_lastFire = fire;
        Wait(fire);
    }

    /** @return the wake-up timestamps */
    const std::vector<Time>& Stamps() const
    {
        return m_stamps;
    }

  private:
    /**
     * Block until @p fire (or continue at once if it has passed).
     * @param fire the firing
     */
    void Wait(Time fire)
    {
        Time now = Simulator::Now();
        if (fire <= now)
        {
            m_process->Execute(Seconds(0), MakeCallback(&TimerLoop::Woken, this));
        }
        else
        {
            Simulator::Schedule(fire - now, &TimerLoop::Fired, this);
        }
    }

    /** The timer fired: the blocked process wakes up. */
    void Fired()
    {
        m_process->Wake(MakeCallback(&TimerLoop::Woken, this));
    }

    /** The process runs: timestamp, then its work. */
    void Woken()
    {
        m_stamps.push_back(Simulator::Now());
        if (m_stamps.size() > m_firings)
        {
            return;
        }
        m_process->Execute(m_work, MakeCallback(&TimerLoop::Rearm, this));
    }

    /** Wait for the next interval. */
    void Rearm()
    {
        Time fire = m_timer->GetPeriodicFireTime(m_lastFire, Simulator::Now(), m_interval);
        m_lastFire = fire;
        Wait(fire);
    }

    Ptr<HostProcess> m_process; //!< the loop's process
    Ptr<TimerModel> m_timer;    //!< the timer
    Time m_interval;            //!< requested interval
    uint32_t m_firings;         //!< firings to time
    Time m_work;                //!< work per firing
    Time m_lastFire;            //!< last firing
    std::vector<Time> m_stamps; //!< wake-up timestamps
};

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    std::string timerName = "rtc";
    uint32_t minUs = 10;
    uint32_t maxUs = 300;
    uint32_t stepUs = 10;
    uint32_t firings = 1000;
    double loopCycles = 2000;
    uint32_t packetSize = 43;
    uint32_t calibrationFirings = 1000;
    std::string hostProfile = "gine-i5-3337u-linux38";
    std::string hostSet;
    std::string profileFile;

    ProgramOptions opts("gine-timer",
                        "[GINE14] timer accuracy: one timer, requested intervals minUs..maxUs, "
                        "the mean measured interval of `firings` firings each");
    opts.AddChoice("timer",
                   "the timer",
                   timerName,
                   {"ideal", "rtc", "nanosleep", "tctimer", "boosted"});
    // Intervals up to 1 s: the study's 10-300 us and far beyond; the sweep's length is bounded
    // below (at most 10 000 requested intervals).
    opts.Add("minUs", "smallest requested interval", minUs, 1, 1000000, "us");
    opts.Add("maxUs", "largest requested interval", maxUs, 1, 1000000, "us");
    opts.Add("stepUs", "step of the requested intervals", stepUs, 1, 1000000, "us");
    // Each firing is a few simulator events; 10^6 per interval keeps a run within minutes.
    opts.Add("firings", "timed firings per request", firings, 1, 1000000);
    opts.Add("loopCycles",
             "CPU cycles of the loop per firing (timestamp, bookkeeping, the waiting call)",
             loopCycles,
             0,
             1e9,
             "cycles");
    opts.Add("packetSize",
             "TCTimer packet length on lo (14 Ethernet + 20 IP + 8 UDP + data)",
             packetSize,
             42,
             65549,
             "bytes");
    opts.Add("calibrationFirings",
             "Boosted TCTimer calibration packets",
             calibrationFirings,
             1,
             1000000);
    opts.AddHostProfile(hostProfile, "host profile of the GINE PC");
    opts.AddHostSet(hostSet);
    opts.AddProfileFile(profileFile);
    opts.AddDeprecated("profile", "hostProfile");
    ResultRecord& rec = opts.Record();
    rec.Declare("timer", ResultRecord::STRING, "--timer")
        .Declare("firings", ResultRecord::INT, "--firings")
        .Declare("packet_size", ResultRecord::INT, "--packetSize (bytes)")
        .Declare("loop_cycles", ResultRecord::REAL, "CPU cycles of the emulator's loop")
        .Declare("requested_us", ResultRecord::SERIES, "requested period of each firing (us)")
        .Declare("measured_us", ResultRecord::SERIES, "measured period of each firing (us)")
        .Declare("shaper_period_us",
                 ResultRecord::SERIES,
                 "tc shaper period of each firing (us; tc timer only)",
                 ResultRecord::SOMETIMES)
        .Declare("calibration_period_us",
                 ResultRecord::SERIES,
                 "measured calibration periods (us; when calibrated)",
                 ResultRecord::SOMETIMES);
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        ProgramOptions::Require(maxUs >= minUs, "--maxUs must be >= --minUs");
        ProgramOptions::Require((maxUs - minUs) / stepUs < 10000,
                                "--minUs, --maxUs, --stepUs: at most 10000 requested intervals");
    });
    opts.Parse(argc, argv);
    const std::string profile = ProgramOptions::WithHostSet(hostProfile, hostSet);

    std::vector<double> requested;
    std::vector<double> measured;
    std::vector<double> shaperPeriod;
    std::vector<double> measuredCalibration;
    for (uint32_t us = minUs; us <= maxUs; us += stepUs)
    {
        const int64_t stream = 1000 + 100 * static_cast<int64_t>(requested.size());
        const Time interval = MicroSeconds(us);
        Ptr<Node> pc = CreateObject<Node>();
        HostPlatformHelper hosts(profile);
        hosts.SetInstallNics(false);
        Ptr<HostPlatform> platform = hosts.Install(pc);
        platform->AssignStreams(stream);

        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(stream + 50);
        Time work = platform->GetCpu()->CyclesToTime(loopCycles);
        Time ready = Seconds(0);
        Ptr<TimerModel> timer = GineTimerHelper::Create(timerName, packetSize, interval, u);
        if (auto tc = DynamicCast<TcTimer>(timer))
        {
            if (timerName == "boosted")
            {
                UserAttributes::SetFixed(tc,
                                         "CalibrationFirings",
                                         UintegerValue(calibrationFirings),
                                         "from its option --calibrationFirings");
            }
            // Reading a packet is a socket read.
            work += platform->GetRecvCost(packetSize > 42 ? packetSize - 42 : 0);
        }
        timer->AssignStreams(stream + 60);
        if (auto tc = DynamicCast<TcTimer>(timer))
        {
            ready = tc->GetStartTime();
            shaperPeriod.push_back(tc->GetShaperPeriod().GetSeconds() * 1e6);
            if (auto boosted = DynamicCast<BoostedTcTimer>(timer))
            {
                measuredCalibration.push_back(boosted->GetMeasuredPeriod().GetSeconds() * 1e6);
            }
        }
        Ptr<HostProcess> process = platform->CreateProcess();
        TimerLoop loop(process, timer, interval, firings, work);
        // Start at an arbitrary moment after the timer is ready.
        Time start = ready + MilliSeconds(1) + Seconds(u->GetValue(0.0, 1e-3));
        Simulator::Schedule(start, &TimerLoop::Start, &loop);
        Simulator::Run();
        const auto& t = loop.Stamps();
        NS_ABORT_MSG_IF(t.size() != firings + 1,
                        "only " << t.size() << " of " << firings + 1 << " firings");
        requested.push_back(us);
        measured.push_back((t.back() - t.front()).GetSeconds() * 1e6 / firings);
        Simulator::Destroy();
    }

    rec.SetString("timer", timerName);
    rec.SetInt("firings", firings);
    rec.SetInt("packet_size", packetSize);
    rec.Set("loop_cycles", loopCycles);
    rec.SetSeries("requested_us", requested);
    rec.SetSeries("measured_us", measured);
    if (!shaperPeriod.empty())
    {
        rec.SetSeries("shaper_period_us", shaperPeriod);
    }
    if (!measuredCalibration.empty())
    {
        rec.SetSeries("calibration_period_us", measuredCalibration);
    }
    rec.Write(opts.GetOutput());
    return 0;
}
