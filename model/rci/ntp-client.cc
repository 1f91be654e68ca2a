/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ntp-client.h"

#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NtpClient");
NS_OBJECT_ENSURE_REGISTERED(NtpServer);
NS_OBJECT_ENSURE_REGISTERED(NtpClient);

namespace
{
/** An NTP packet: 48 bytes (RFC 5905 figure 8, no extension fields, no MAC). */
constexpr uint32_t NTP_PACKET = 48;
/** Offsets of the origin, receive and transmit timestamps in it. */
constexpr uint32_t ORIGIN = 24;
constexpr uint32_t RECEIVE = 32;  //!< receive timestamp
constexpr uint32_t TRANSMIT = 40; //!< transmit timestamp
/** ntpd's PLL loop gain (ntp_loopfilter.c CLOCK_PLL). */
constexpr double CLOCK_PLL = 16;
/** ntpd's Allan intercept (2^11 s, ntp_loopfilter.c CLOCK_ALLAN). */
constexpr double CLOCK_ALLAN = 2048;
/** The clock filter's stages (RFC 5905 NSTAGE). */
constexpr std::size_t NSTAGE = 8;

/**
 * Write a timestamp (nanoseconds of a clock, big-endian; the model's stand-in for NTP's 64-bit
 * fixed-point format, same place and size).
 * @param b the packet's bytes
 * @param at the offset
 * @param t the time
 */
void
Put(uint8_t* b, uint32_t at, Time t)
{
    const uint64_t v = static_cast<uint64_t>(t.GetNanoSeconds());
    for (int k = 0; k < 8; ++k)
    {
        b[at + k] = static_cast<uint8_t>(v >> (56 - 8 * k));
    }
}

/**
 * Read a timestamp.
 * @param b the packet's bytes
 * @param at the offset
 * @return the time
 */
Time
Get(const uint8_t* b, uint32_t at)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k)
    {
        v = (v << 8) | b[at + k];
    }
    return NanoSeconds(static_cast<int64_t>(v));
}
} // namespace

TypeId
NtpServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NtpServer")
                            .SetParent<Application>()
                            .SetGroupName("Testbed")
                            .AddConstructor<NtpServer>()
                            .AddAttribute("Port",
                                          "UDP port (123, RFC 5905).",
                                          UintegerValue(123),
                                          MakeUintegerAccessor(&NtpServer::m_port),
                                          MakeUintegerChecker<uint16_t>(1));
    return tid;
}

NtpServer::NtpServer()
    : m_port(123)
{
}

NtpServer::~NtpServer()
{
}

void
NtpServer::DoDispose()
{
    m_socket = nullptr;
    Application::DoDispose();
}

uint64_t
NtpServer::GetAnswered() const
{
    return m_answered;
}

void
NtpServer::StartApplication()
{
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "NtpServer: cannot bind port " << m_port);
    m_socket->SetRecvCallback(MakeCallback(&NtpServer::HandleRead, this));
}

void
NtpServer::StopApplication()
{
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
    }
}

void
NtpServer::HandleRead(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> p = socket->RecvFrom(from))
    {
        if (p->GetSize() != NTP_PACKET)
        {
            continue;
        }
        uint8_t b[NTP_PACKET];
        p->CopyData(b, NTP_PACKET);
        // The reference clock's time at arrival and at the answer (no server processing: T3 -
        // T2 cancels out of the client's offset and delay in any case).
        const Time now = Simulator::Now();
        uint8_t a[NTP_PACKET] = {};
        a[0] = 0x24; // LI 0, version 4, mode 4 (server)
        a[1] = 1;    // stratum 1
        std::copy(b + TRANSMIT, b + TRANSMIT + 8, a + ORIGIN);
        Put(a, RECEIVE, now);
        Put(a, TRANSMIT, now);
        socket->SendTo(Create<Packet>(a, NTP_PACKET), 0, from);
        ++m_answered;
    }
}

TypeId
NtpClient::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NtpClient")
              .SetParent<Application>()
              .SetGroupName("Testbed")
              .AddConstructor<NtpClient>()
              .AddAttribute("Port",
                            "The server's UDP port (123, RFC 5905).",
                            UintegerValue(123),
                            MakeUintegerAccessor(&NtpClient::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("Poll",
                            "Poll interval, log2 seconds (6 = 64 s: RFC 1305's minimum and "
                            "ntpd's default minpoll).",
                            UintegerValue(6),
                            MakeUintegerAccessor(&NtpClient::m_poll),
                            MakeUintegerChecker<uint8_t>(4, 17))
              .AddAttribute("PollPhase",
                            "The first poll's time after the start, as a fraction of the poll "
                            "interval (values in [0, 1)).",
                            StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                            MakePointerAccessor(&NtpClient::m_phase),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("Frequency",
                            "The frequency correction at the start (ppm; ntpd reads it from its "
                            "drift file).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&NtpClient::m_frequencyPpm),
                            MakeDoubleChecker<double>(-500.0, 500.0))
              .AddAttribute("OffsetRegister",
                            "The offset still to be slewed at the start (s).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&NtpClient::m_initialRegister),
                            MakeDoubleChecker<double>(-1.0, 1.0))
              .AddTraceSource("Sample",
                              "A sample: offset and delay (s).",
                              MakeTraceSourceAccessor(&NtpClient::m_sampleTrace),
                              "ns3::NtpClient::SampleTracedCallback");
    return tid;
}

NtpClient::NtpClient()
    : m_port(123)
    , m_poll(6)
    , m_frequencyPpm(0)
    , m_initialRegister(0)
{
}

NtpClient::~NtpClient()
{
}

void
NtpClient::DoDispose()
{
    m_clock = nullptr;
    m_socket = nullptr;
    m_phase = nullptr;
    Application::DoDispose();
}

void
NtpClient::SetClock(Ptr<NodeClock> clock)
{
    m_clock = clock;
}

void
NtpClient::SetServer(Ipv4Address server)
{
    m_server = server;
}

double
NtpClient::GetOffsetRegister() const
{
    return m_register;
}

double
NtpClient::GetFrequency() const
{
    return m_frequencyPpm;
}

uint64_t
NtpClient::GetUpdates() const
{
    return m_updates;
}

int64_t
NtpClient::AssignStreams(int64_t stream)
{
    m_phase->SetStream(stream);
    return 1;
}

void
NtpClient::StartApplication()
{
    NS_ABORT_MSG_IF(!m_clock, "NtpClient: no clock");
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->Bind();
    m_socket->SetRecvCallback(MakeCallback(&NtpClient::HandleRead, this));
    m_register = m_initialRegister;
    m_lastUpdate = Simulator::Now().GetSeconds();
    const double phase = m_phase->GetValue();
    NS_ABORT_MSG_IF(phase < 0 || phase >= 1, "NtpClient: PollPhase outside [0, 1)");
    m_pollEvent
        = Simulator::Schedule(Seconds(phase * std::ldexp(1.0, m_poll)), &NtpClient::Poll, this);
    Adjust();
}

void
NtpClient::StopApplication()
{
    m_pollEvent.Cancel();
    m_adjustEvent.Cancel();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
    }
}

void
NtpClient::Poll()
{
    uint8_t b[NTP_PACKET] = {};
    b[0] = 0x23; // LI 0, version 4, mode 3 (client)
    Put(b, TRANSMIT, m_clock->Now());
    m_socket->SendTo(Create<Packet>(b, NTP_PACKET), 0, InetSocketAddress(m_server, m_port));
    m_pollEvent = Simulator::Schedule(Seconds(std::ldexp(1.0, m_poll)), &NtpClient::Poll, this);
}

void
NtpClient::HandleRead(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> p = socket->RecvFrom(from))
    {
        if (p->GetSize() != NTP_PACKET)
        {
            continue;
        }
        const Time t4 = m_clock->Now();
        uint8_t b[NTP_PACKET];
        p->CopyData(b, NTP_PACKET);
        const double t1 = Get(b, ORIGIN).GetSeconds();
        const double t2 = Get(b, RECEIVE).GetSeconds();
        const double t3 = Get(b, TRANSMIT).GetSeconds();
        // RFC 5905 section 8.
        const double offset = ((t2 - t1) + (t3 - t4.GetSeconds())) / 2;
        const double delay = (t4.GetSeconds() - t1) - (t3 - t2);
        m_sampleTrace(offset, delay);
        const double now = Simulator::Now().GetSeconds();
        m_filter.push_back(Sample{offset, delay, now});
        if (m_filter.size() > NSTAGE)
        {
            m_filter.pop_front();
        }
        // Clock filter (RFC 5905 section 10): the sample of least delay, once.
        const Sample best
            = *std::min_element(m_filter.begin(),
                                m_filter.end(),
                                [](const Sample& a, const Sample& c) { return a.delay < c.delay; });
        if (best.at <= m_lastUsed)
        {
            continue;
        }
        m_lastUsed = best.at;
        // Clock discipline (RFC 5905 section 11.3, ntpd's PLL): the offset register takes the
        // offset; the frequency grows by offset x min(mu, Allan) / (4 PLL 2^poll)^2.
        const double mu = now - m_lastUpdate;
        m_lastUpdate = now;
        const double d = 4 * CLOCK_PLL * std::ldexp(1.0, m_poll);
        m_frequencyPpm += best.offset * std::min(mu, CLOCK_ALLAN) / (d * d) * 1e6;
        m_frequencyPpm = std::clamp(m_frequencyPpm, -500.0, 500.0);
        m_register = best.offset;
        ++m_updates;
        NS_LOG_INFO("ntp " << this << " at " << now << " s: offset " << best.offset << " s, delay "
                           << best.delay << " s, frequency " << m_frequencyPpm << " ppm");
    }
}

void
NtpClient::Adjust()
{
    // clock_adjust (RFC 5905 appendix A.5.5.6; ntpd): this second's slew is the register over
    // the PLL time constant, on top of the frequency correction; the kernel clamps the rate.
    const double slew = m_register / (CLOCK_PLL * std::ldexp(1.0, m_poll));
    const double applied = m_clock->SetCorrection(m_frequencyPpm + slew * 1e6);
    m_register -= (applied - m_frequencyPpm) * 1e-6;
    m_adjustEvent = Simulator::Schedule(Seconds(1), &NtpClient::Adjust, this);
}

} // namespace ns3
