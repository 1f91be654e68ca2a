/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-emulator-queue-disc.h"

#include "time-ordered-queue.h"

#include "ns3/abort.h"
#include "ns3/arp-queue-disc-item.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkEmulatorQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(LinkEmulatorQueueDisc);

namespace
{

/// netem's distribution tables hold 16-bit values in units of sigma / 8192: |q| < 4.
constexpr double TABLE_LIMIT = 4.0;

/**
 * Clip a standardised jitter value to the range netem's tables can hold.
 * @param x the value
 * @return x clipped to [-4, 4]
 */
double
ClipTable(double x)
{
    return std::clamp(x, -TABLE_LIMIT, TABLE_LIMIT);
}

/**
 * Quantile function of the standard normal distribution (Acklam's rational approximation,
 * refined by one Halley step on erfc: accurate to double precision).
 * @param p probability in [0, 1]
 * @return x with Phi(x) = p (+-infinity at 0 and 1)
 */
double
NormalQuantile(double p)
{
    if (p <= 0.0)
    {
        return -HUGE_VAL;
    }
    if (p >= 1.0)
    {
        return HUGE_VAL;
    }
    static const double a[] = {-3.969683028665376e+01,
                               2.209460984245205e+02,
                               -2.759285104469687e+02,
                               1.383577518672690e+02,
                               -3.066479806614716e+01,
                               2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01,
                               1.615858368580409e+02,
                               -1.556989798598866e+02,
                               6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03,
                               -3.223964580411365e-01,
                               -2.400758277161838e+00,
                               -2.549732539343734e+00,
                               4.374664141464968e+00,
                               2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03,
                               3.224671290700398e-01,
                               2.445134137142996e+00,
                               3.754408661907416e+00};
    const double pLow = 0.02425;
    double x;
    if (p < pLow)
    {
        double q = std::sqrt(-2 * std::log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
            / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    else if (p <= 1 - pLow)
    {
        double q = p - 0.5;
        double r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    else
    {
        double q = std::sqrt(-2 * std::log1p(-p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
            / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    // One Halley step on f(x) = Phi(x) - p.
    double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
    double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

/**
 * Quantile function of netem's "pareto" table: a Pareto distribution with shape 3 and scale 1,
 * shifted by its mean 3/2 and scaled by 4/3.
 * @param u probability in [0, 1)
 * @return 4/3 ((1-u)^(-1/3) - 3/2)
 */
double
ParetoQuantile(double u)
{
    const double shape = 3.0;
    return (4.0 / 3.0) * (std::pow(1.0 - u, -1.0 / shape) - 1.5);
}

} // namespace

TypeId
LinkEmulatorQueueDisc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::LinkEmulatorQueueDisc")
              .SetParent<QueueDisc>()
              .SetGroupName("Testbed")
              .AddConstructor<LinkEmulatorQueueDisc>()
              .AddAttribute("MaxSize",
                            "Limit of the emulator's store (netem's limit; packets or bytes).",
                            QueueSizeValue(QueueSize("1000p")),
                            MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize),
                            MakeQueueSizeChecker())
              .AddAttribute("Delay",
                            "Constant delay added to every packet (>= 0).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&LinkEmulatorQueueDisc::m_delay),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("Jitter",
                            "Spread of the random delay around Delay (>= 0): half-width of the "
                            "Uniform distribution, standard deviation of the Normal one, scale "
                            "of the Pareto and ParetoNormal ones.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&LinkEmulatorQueueDisc::m_jitter),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("DelayCorrelation",
                            "Correlation (0..1) of successive jitter draws (netem style: "
                            "u = (1-c) * fresh + c * last).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_delayCorrelation),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute(
                  "DelayDistribution",
                  "Distribution of the jitter.",
                  EnumValue(LinkEmulatorQueueDisc::UNIFORM),
                  MakeEnumAccessor<DelayDistribution>(&LinkEmulatorQueueDisc::m_distribution),
                  MakeEnumChecker(LinkEmulatorQueueDisc::UNIFORM,
                                  "Uniform",
                                  LinkEmulatorQueueDisc::NORMAL,
                                  "Normal",
                                  LinkEmulatorQueueDisc::PARETO,
                                  "Pareto",
                                  LinkEmulatorQueueDisc::PARETO_NORMAL,
                                  "ParetoNormal"))
              .AddAttribute("Rate",
                            "Bandwidth limit of the emulated link (bit/s; 0 = no limit).",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&LinkEmulatorQueueDisc::m_rate),
                            MakeDataRateChecker())
              .AddAttribute("PacketOverhead",
                            "Bytes added to the IP packet size by the rate stage (may be "
                            "negative, like netem's; the sum is clipped at 0).",
                            IntegerValue(0),
                            MakeIntegerAccessor(&LinkEmulatorQueueDisc::m_overhead),
                            MakeIntegerChecker<int32_t>(-65535, 65535))
              .AddAttribute("Semantics",
                            "How the rate stage and the delay combine: NistNet = max(transmission "
                            "end, arrival + delay), Netem = transmission end + delay.",
                            EnumValue(LinkEmulatorQueueDisc::NETEM),
                            MakeEnumAccessor<Semantics>(&LinkEmulatorQueueDisc::m_semantics),
                            MakeEnumChecker(LinkEmulatorQueueDisc::NIST_NET,
                                            "NistNet",
                                            LinkEmulatorQueueDisc::NETEM,
                                            "Netem"))
              .AddAttribute("LossModel",
                            "Loss process: Random (LossProbability, LossCorrelation) or "
                            "GilbertElliott (GilbertP, GilbertR, GilbertBadLoss, "
                            "GilbertGoodLoss).",
                            EnumValue(LinkEmulatorQueueDisc::RANDOM),
                            MakeEnumAccessor<LossModel>(&LinkEmulatorQueueDisc::m_lossModel),
                            MakeEnumChecker(LinkEmulatorQueueDisc::RANDOM,
                                            "Random",
                                            LinkEmulatorQueueDisc::GILBERT_ELLIOTT,
                                            "GilbertElliott"))
              .AddAttribute("LossProbability",
                            "Random loss: probability (0..1) that a packet is lost.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_lossProbability),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("LossCorrelation",
                            "Random loss: correlation (0..1) of successive loss draws.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_lossCorrelation),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("GilbertP",
                            "Gilbert-Elliott: probability (0..1) of the good -> bad transition "
                            "per packet (netem's p).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_geP),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("GilbertR",
                            "Gilbert-Elliott: probability (0..1) of the bad -> good transition "
                            "per packet (netem's r).",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_geR),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("GilbertBadLoss",
                            "Gilbert-Elliott: loss probability (0..1) in the bad state (netem's "
                            "1-h).",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_geBadLoss),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("GilbertGoodLoss",
                            "Gilbert-Elliott: loss probability (0..1) in the good state (netem's "
                            "1-k).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_geGoodLoss),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("DuplicateProbability",
                            "Probability (0..1) that a packet is duplicated.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_duplicateProbability),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("DuplicateCorrelation",
                            "Correlation (0..1) of successive duplication draws.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_duplicateCorrelation),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("ReorderProbability",
                            "Probability (0..1) that a packet is sent at once, bypassing delay "
                            "and rate stage (netem's reorder; needs Delay or Jitter > 0).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_reorderProbability),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("ReorderCorrelation",
                            "Correlation (0..1) of successive reorder draws.",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LinkEmulatorQueueDisc::m_reorderCorrelation),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("Timer",
                            "The emulator's timer (TimerModel) that releases delayed packets; "
                            "an IdealTimer if not set.",
                            PointerValue(),
                            MakePointerAccessor(&LinkEmulatorQueueDisc::m_timer),
                            MakePointerChecker<TimerModel>())
              .AddAttribute("TimerGatesAll",
                            "If true, packets whose release time has already come (no delay, no "
                            "rate limit, reordered) also wait for the timer's next firing, as in "
                            "GINE, which handles its queues only on timer events; if false they "
                            "are sent at once, as NIST Net does.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&LinkEmulatorQueueDisc::m_timerGatesAll),
                            MakeBooleanChecker())
              .AddAttribute("ReleaseCpu",
                            "The CPU whose timer interrupt runs the release (NIST Net: the RTC "
                            "interrupt handler on the emulator PC): a firing waits for the hard "
                            "interrupt work queued on that CPU before it (a NIC's handler, the "
                            "kernel's tick); null: the release runs at the timer's firing.",
                            PointerValue(),
                            MakePointerAccessor(&LinkEmulatorQueueDisc::m_releaseCpu),
                            MakePointerChecker<HostCpu>())
              .AddAttribute("ReleaseCost",
                            "With ReleaseCpu: the release handler's own CPU time.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&LinkEmulatorQueueDisc::m_releaseCost),
                            MakeTimeChecker(Seconds(0), MilliSeconds(10)))
              .AddTraceSource("PacketScheduled",
                              "A packet was accepted into the store with its release time.",
                              MakeTraceSourceAccessor(&LinkEmulatorQueueDisc::m_scheduledTrace),
                              "ns3::LinkEmulatorQueueDisc::ScheduledTracedCallback")
              .AddTraceSource("Lost",
                              "A packet was lost by the loss model.",
                              MakeTraceSourceAccessor(&LinkEmulatorQueueDisc::m_lostTrace),
                              "ns3::QueueDiscItem::TracedCallback")
              .AddTraceSource("Duplicated",
                              "A duplicate was made (the argument is the copy).",
                              MakeTraceSourceAccessor(&LinkEmulatorQueueDisc::m_duplicatedTrace),
                              "ns3::QueueDiscItem::TracedCallback")
              .AddTraceSource("Reordered",
                              "A packet was reordered (released at once).",
                              MakeTraceSourceAccessor(&LinkEmulatorQueueDisc::m_reorderedTrace),
                              "ns3::QueueDiscItem::TracedCallback")
              .AddTraceSource("TimerFired",
                              "The emulator's timer fired and released a burst of packets.",
                              MakeTraceSourceAccessor(&LinkEmulatorQueueDisc::m_timerFiredTrace),
                              "ns3::LinkEmulatorQueueDisc::TimerFiredTracedCallback");
    return tid;
}

LinkEmulatorQueueDisc::LinkEmulatorQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE)
    , m_timerGatesAll(false)
    , m_geBad(false)
    , m_lastTxEnd(Seconds(0))
    , m_enqueuingDuplicate(false)
    , m_nLost(0)
    , m_nDuplicated(0)
    , m_nReordered(0)
    , m_nFirings(0)
{
    NS_LOG_FUNCTION(this);
    m_lossRng = CreateObject<UniformRandomVariable>();
    m_geRng = CreateObject<UniformRandomVariable>();
    m_duplicateRng = CreateObject<UniformRandomVariable>();
    m_delayRng = CreateObject<UniformRandomVariable>();
    m_reorderRng = CreateObject<UniformRandomVariable>();
}

LinkEmulatorQueueDisc::~LinkEmulatorQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
LinkEmulatorQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_timerEvent.Cancel();
    m_kick.Cancel();
    m_store = nullptr;
    m_timer = nullptr;
    m_releaseCpu = nullptr;
    m_lossRng = nullptr;
    m_geRng = nullptr;
    m_duplicateRng = nullptr;
    m_delayRng = nullptr;
    m_reorderRng = nullptr;
    QueueDisc::DoDispose();
}

int64_t
LinkEmulatorQueueDisc::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_lossRng->SetStream(stream);
    m_geRng->SetStream(stream + 1);
    m_duplicateRng->SetStream(stream + 2);
    m_delayRng->SetStream(stream + 3);
    m_reorderRng->SetStream(stream + 4);
    return 5 + GetTimer()->AssignStreams(stream + 5);
}

Ptr<TimerModel>
LinkEmulatorQueueDisc::GetTimer()
{
    if (!m_timer)
    {
        m_timer = CreateObject<IdealTimer>();
    }
    return m_timer;
}

uint32_t
LinkEmulatorQueueDisc::GetNWaiting() const
{
    return m_store ? m_store->GetNWaiting() : 0;
}

uint64_t
LinkEmulatorQueueDisc::GetNLost() const
{
    return m_nLost;
}

uint64_t
LinkEmulatorQueueDisc::GetNDuplicated() const
{
    return m_nDuplicated;
}

uint64_t
LinkEmulatorQueueDisc::GetNReordered() const
{
    return m_nReordered;
}

uint64_t
LinkEmulatorQueueDisc::GetNTimerFirings() const
{
    return m_nFirings;
}

double
LinkEmulatorQueueDisc::CorrelatedUniform::Next(Ptr<UniformRandomVariable> rng, double rho)
{
    double fresh = rng->GetValue();
    if (rho == 0.0 || !primed)
    {
        primed = true;
        last = fresh;
        return fresh;
    }
    last = (1.0 - rho) * fresh + rho * last;
    return last;
}

bool
LinkEmulatorQueueDisc::IsLost()
{
    if (m_lossModel == RANDOM)
    {
        if (m_lossProbability == 0.0)
        {
            return false;
        }
        return m_lossState.Next(m_lossRng, m_lossCorrelation) < m_lossProbability;
    }
    // Gilbert-Elliott as netem's loss_gilb_ell(): the transition is drawn first, the loss is
    // decided with the loss probability of the state the packet arrived in.
    bool wasBad = m_geBad;
    double transition = m_geRng->GetValue();
    if (wasBad)
    {
        m_geBad = !(transition < m_geR);
    }
    else
    {
        m_geBad = transition < m_geP;
    }
    double loss = wasBad ? m_geBadLoss : m_geGoodLoss;
    return m_geRng->GetValue() < loss;
}

Time
LinkEmulatorQueueDisc::SampleDelay()
{
    if (m_jitter.IsZero())
    {
        return m_delay;
    }
    double u = m_delayState.Next(m_delayRng, m_delayCorrelation);
    double q = 0;
    switch (m_distribution)
    {
        case UNIFORM:
            q = 2.0 * u - 1.0;
            break;
        case NORMAL:
            q = ClipTable(NormalQuantile(u));
            break;
        case PARETO:
            q = ClipTable(ParetoQuantile(u));
            break;
        case PARETO_NORMAL:
            q = ClipTable(0.25 * ClipTable(NormalQuantile(u))
                          + 0.75 * ClipTable(ParetoQuantile(u)));
            break;
    }
    Time d = m_delay + TimeStep(std::llround(static_cast<double>(m_jitter.GetTimeStep()) * q));
    return d.IsStrictlyNegative() ? Seconds(0) : d;
}

Ptr<QueueDiscItem>
LinkEmulatorQueueDisc::CopyItem(Ptr<const QueueDiscItem> item)
{
    Ptr<Packet> p = item->GetPacket()->Copy();
    Ptr<QueueDiscItem> copy;
    if (auto v4 = DynamicCast<const Ipv4QueueDiscItem>(item))
    {
        copy = Create<Ipv4QueueDiscItem>(p, v4->GetAddress(), v4->GetProtocol(), v4->GetHeader());
    }
    else if (auto v6 = DynamicCast<const Ipv6QueueDiscItem>(item))
    {
        copy = Create<Ipv6QueueDiscItem>(p, v6->GetAddress(), v6->GetProtocol(), v6->GetHeader());
    }
    else if (auto arp = DynamicCast<const ArpQueueDiscItem>(item))
    {
        copy = Create<ArpQueueDiscItem>(p, arp->GetAddress(), arp->GetProtocol(), arp->GetHeader());
    }
    else
    {
        return nullptr;
    }
    copy->SetTxQueueIndex(item->GetTxQueueIndex());
    return copy;
}

bool
LinkEmulatorQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    const Time now = Simulator::Now();
    m_runDequeues = 0; // the traffic-control layer runs the queue disc after every enqueue

    // A firing due at this very instant is handled first, so that packets enqueued at the same
    // time as a release queue up behind the released ones whatever the event order.
    if (m_timerEvent.IsPending() && m_armedFire <= now)
    {
        m_timerEvent.Cancel();
        ReleaseDue();
    }

    // 1. Loss.
    if (IsLost())
    {
        NS_LOG_LOGIC("lost " << item);
        ++m_nLost;
        m_lostTrace(item);
        DropBeforeEnqueue(item, LOSS_DROP);
        return false;
    }

    // 2. Duplication (a duplicate is not duplicated again).
    Ptr<QueueDiscItem> duplicate;
    if (!m_enqueuingDuplicate && m_duplicateProbability > 0.0
        && m_duplicateState.Next(m_duplicateRng, m_duplicateCorrelation) < m_duplicateProbability)
    {
        duplicate = CopyItem(item);
        if (!duplicate)
        {
            NS_LOG_WARN("cannot duplicate a queue disc item of unknown type: " << item);
        }
    }

    bool accepted = true;
    // 7. Queue limit, checked before the delay is drawn (as netem does).
    if (GetCurrentSize() + item > GetMaxSize())
    {
        NS_LOG_LOGIC("queue limit exceeded, dropping " << item);
        DropBeforeEnqueue(item, LIMIT_EXCEEDED_DROP);
        accepted = false;
    }
    else
    {
        // 3. Delay sample.
        Time d = SampleDelay();
        Time release;
        // 6. Reorder: released at once, bypassing delay and rate stage.
        if (m_reorderProbability > 0.0
            && m_reorderState.Next(m_reorderRng, m_reorderCorrelation) < m_reorderProbability)
        {
            ++m_nReordered;
            m_reorderedTrace(item);
            release = now;
        }
        else
        {
            // 4. Rate stage.
            Time start = now;
            if (m_rate.GetBitRate() > 0)
            {
                int64_t s = static_cast<int64_t>(item->GetSize()) + m_overhead;
                s = std::max<int64_t>(s, 0);
                m_lastTxEnd = std::max(now, m_lastTxEnd)
                              + m_rate.CalculateBytesTxTime(static_cast<uint32_t>(s));
                start = m_lastTxEnd;
            }
            // 5. Release time.
            release = m_semantics == NETEM ? start + d : std::max(start, now + d);
        }

        // GINE: even a packet due now waits for the next firing of the timer.
        const bool waits = release > now || m_timerGatesAll;
        release = Max(release, now);
        if (waits)
        {
            accepted = m_store->EnqueueAt(item, release);
        }
        else
        {
            accepted = m_store->Enqueue(item);
        }
        NS_ASSERT_MSG(accepted, "the internal queue refused a packet within the limit");
        NS_LOG_LOGIC("scheduled " << item << " for " << release);
        m_scheduledTrace(item, release);
        if (waits)
        {
            Arm();
        }
    }

    if (duplicate)
    {
        ++m_nDuplicated;
        m_duplicatedTrace(duplicate);
        // Through QueueDisc::Enqueue so that the copy is counted as a received packet.
        m_enqueuingDuplicate = true;
        Enqueue(duplicate);
        m_enqueuingDuplicate = false;
    }
    return accepted;
}

Ptr<QueueDiscItem>
LinkEmulatorQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    Ptr<QueueDiscItem> item = m_store->Dequeue();
    if (!item)
    {
        m_runDequeues = 0; // the run ends here
        return nullptr;
    }
    // QueueDisc::Run stops after Quota packets and nothing would run it again while released
    // packets remain: schedule one more run. The count is reset where a run starts that this
    // class sees (enqueue, timer, kick); a run started by the device's wake callback is
    // counted on top of the previous one, which can only bring the kick forward, and a run
    // that starts with a requeued packet (not seen here) is covered by the margin of one.
    if (++m_runDequeues + 1 >= GetQuota() && m_store->GetNReleased() > 0 && !m_kick.IsPending())
    {
        m_kick = Simulator::ScheduleNow([this]() { Kick(); });
    }
    return item;
}

void
LinkEmulatorQueueDisc::Kick()
{
    NS_LOG_FUNCTION(this);
    m_runDequeues = 0;
    Run();
}

void
LinkEmulatorQueueDisc::Arm()
{
    if (m_store->GetNWaiting() == 0)
    {
        return;
    }
    Time r = m_store->GetNextReleaseTime();
    if (m_timerEvent.IsPending() && r >= m_armedRelease)
    {
        return;
    }
    m_timerEvent.Cancel();
    const Time now = Simulator::Now();
    Time fire = GetTimer()->GetFireTime(now, std::max(r - now, Seconds(0)));
    NS_ABORT_MSG_IF(fire < now,
                    "LinkEmulatorQueueDisc: timer model returned a firing in the past ("
                        << fire << " < " << now << ")");
    m_armedRelease = r;
    m_armedFire = fire;
    m_timerEvent = Simulator::Schedule(fire - now, [this]() { TimerExpired(); });
    NS_LOG_LOGIC("timer armed for release " << r << ", fires " << fire);
}

void
LinkEmulatorQueueDisc::ReleaseDue()
{
    // A timer that fires early (a drift-correcting tick) still releases what it was armed for.
    uint32_t n = m_store->ReleaseUpTo(std::max(Simulator::Now(), m_armedRelease));
    ++m_nFirings;
    NS_LOG_LOGIC("timer fired, released " << n);
    m_timerFiredTrace(n);
    Arm();
}

void
LinkEmulatorQueueDisc::TimerExpired()
{
    NS_LOG_FUNCTION(this);
    if (m_releaseCpu)
    {
        // The timer interrupt's handler: queued behind the hard interrupt work before it.
        m_releaseCpu->Submit(HostCpu::HARDIRQ,
                             m_releaseCost,
                             HostCpu::KERNEL,
                             MakeCallback(&LinkEmulatorQueueDisc::ReleaseNow, this));
        return;
    }
    ReleaseNow();
}

void
LinkEmulatorQueueDisc::ReleaseNow()
{
    NS_LOG_FUNCTION(this);
    ReleaseDue();
    m_runDequeues = 0;
    Run();
}

bool
LinkEmulatorQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0,
                    "LinkEmulatorQueueDisc cannot have queue disc classes");
    NS_ABORT_MSG_IF(GetNPacketFilters() > 0, "LinkEmulatorQueueDisc cannot have packet filters");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "LinkEmulatorQueueDisc manages its own internal queue; do not add one");
    NS_ABORT_MSG_IF(m_reorderProbability > 0.0 && m_delay.IsZero() && m_jitter.IsZero(),
                    "LinkEmulatorQueueDisc: ReorderProbability=" << m_reorderProbability
                                                                 << " needs Delay or Jitter > 0 "
                                                                    "(as netem's reorder)");
    NS_ABORT_MSG_IF(m_lossModel == GILBERT_ELLIOTT && m_lossProbability > 0.0,
                    "LinkEmulatorQueueDisc: LossProbability="
                        << m_lossProbability
                        << " is ignored by LossModel=GilbertElliott; set GilbertP/GilbertR/"
                           "GilbertBadLoss/GilbertGoodLoss instead");
    NS_ABORT_MSG_IF(m_lossModel == RANDOM && m_geP > 0.0,
                    "LinkEmulatorQueueDisc: GilbertP=" << m_geP
                                                       << " needs LossModel=GilbertElliott");
    m_store = CreateObject<TimeOrderedQueue>();
    m_store->SetMaxSize(GetMaxSize());
    AddInternalQueue(m_store);
    GetTimer();
    return true;
}

void
LinkEmulatorQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    m_geBad = false;
    m_lastTxEnd = Seconds(0);
    m_lossState = CorrelatedUniform();
    m_duplicateState = CorrelatedUniform();
    m_delayState = CorrelatedUniform();
    m_reorderState = CorrelatedUniform();
}

} // namespace ns3
