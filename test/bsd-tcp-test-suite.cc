/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * BsdTcpSocket against 4.4BSD-Lite's rules (W. R. Stevens, G. R. Wright, TCP/IP Illustrated,
 * Volume 2, 1995; 4.4BSD-Lite2 sys/netinet/tcp_timer.[ch], tcp_output.c, tcp_input.c), on two
 * hosts joined by a 1 ms link (so that srtt and rttvar are a few ms and every timer is the BSD
 * constant it is clamped to):
 *
 * - retransmission: 12 retransmissions (TCP_MAXRXTSHIFT), the timeout doubling from the
 *   minimum 1 s (TCPTV_MIN) up to 64 s (TCPTV_REXMTMAX), the connection dropped at the 13th;
 * - persist: a window too small to send into, whose update is lost, is probed after
 *   TCPTV_PERSMIN = 5 s by a forced segment of what the window allows (t_force); a zero window
 *   is probed every 5 s;
 * - delayed ACK: sent on the host's 200 ms fast-timeout tick (tcp_fasttimo), 0 to 200 ms after
 *   the segment, not 200 ms after it; a read that opens the window by two segments sends it at
 *   once;
 * - SYN: retransmitted after 6 s (t_rxtcur = 2 x tcp_rttdflt) and then 24 s (TCP_REXMTVAL =
 *   4 x 3 s, x tcp_backoff[1] = 2), the connection dropped by TCPTV_KEEP_INIT at 75 s;
 * - records one segment and a few bytes long through a send buffer of two segments: Nagle holds
 *   the partial segment, the receiver's reads never open the window by two segments, so the
 *   stream is clocked by the receiver's 200 ms tick, three segments' worth every two ticks,
 *   every byte delivered in order and no tick without data.
 */

#include "ns3/bsd-tcp-helper.h"
#include "ns3/bsd-tcp-socket-factory.h"
#include "ns3/bsd-tcp-socket.h"
#include "ns3/config.h"
#include "ns3/error-model.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simple-net-device-helper.h"
#include "ns3/simple-net-device.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <functional>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Drops every packet while a predicate holds (a blackhole switched on and off in time).
 */
class PredicateErrorModel : public ErrorModel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestbedTcpPredicateErrorModel")
                                .SetParent<ErrorModel>()
                                .SetGroupName("Testbed");
        return tid;
    }

    std::function<bool(Ptr<Packet>)> drop; //!< the predicate

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        return drop && drop(p);
    }

    void DoReset() override
    {
    }
};

/** Client (node 0) and server (node 1) on a 1 ms link, both with 4.4BSD's TCP. */
struct BsdPair
{
    NodeContainer nodes;                              //!< client, server
    Ipv4Address serverAddr;                           //!< server address
    Ptr<PredicateErrorModel> toServer;                //!< drops on the server's receive side
    Ptr<PredicateErrorModel> toClient;                //!< drops on the client's receive side
    Ptr<Socket> client;                               //!< the client's socket
    Ptr<Socket> listener;                             //!< the server's listening socket
    Ptr<Socket> accepted;                             //!< the server's connected socket
    std::vector<std::pair<Time, TcpHeader>> clientTx; //!< the client's transmissions
    std::vector<std::pair<Time, TcpHeader>> serverTx; //!< the server's transmissions
    std::vector<Time> clientErrors; //!< the client's error-close or connect failure

    /**
     * Build it.
     * @param mss segment size (both ends)
     * @param rcvBuf the server's receive buffer
     */
    BsdPair(uint32_t mss, uint32_t rcvBuf)
    {
        BsdTcpHelper::ConfigureDefaults(8192, rcvBuf);
        // No ARP jitter: the handshake's RTT sample is the link's 2 ms.
        Config::SetDefault("ns3::ArpL3Protocol::RequestJitter",
                           StringValue("ns3::ConstantRandomVariable[Constant=0]"));
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
        nodes.Create(2);
        SimpleNetDeviceHelper simple;
        simple.SetChannelAttribute("Delay", TimeValue(Delay()));
        NetDeviceContainer d = simple.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper ip("10.1.0.0", "255.255.255.0");
        serverAddr = ip.Assign(d).GetAddress(1);
        toServer = CreateObject<PredicateErrorModel>();
        toClient = CreateObject<PredicateErrorModel>();
        d.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(toServer));
        d.Get(0)->SetAttribute("ReceiveErrorModel", PointerValue(toClient));
        BsdTcpHelper::Install(nodes);
        BsdTcpHelper::AssignStreams(nodes, 10);
        listener = Socket::CreateSocket(nodes.Get(1), BsdTcpSocketFactory::GetTypeId());
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 7));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&BsdPair::Accept, this));
        client = Socket::CreateSocket(nodes.Get(0), BsdTcpSocketFactory::GetTypeId());
        client->TraceConnectWithoutContext("Tx", MakeCallback(&BsdPair::ClientTx, this));
        client->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                   MakeCallback(&BsdPair::Failed, this));
        client->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                  MakeCallback(&BsdPair::Failed, this));
    }

    ~BsdPair()
    {
        // ConfigureDefaults changed global defaults: back to ns-3's for the other suites.
        Config::Reset();
    }

    /** @return the link's one-way delay (1 ms: ns-3 ignores RTT samples of 0) */
    static Time Delay()
    {
        return MilliSeconds(1);
    }

    /** Connect now. */
    void Connect()
    {
        client->Bind();
        client->Connect(InetSocketAddress(serverAddr, 7));
    }

    /**
     * @param s the new socket
     */
    void Accept(Ptr<Socket> s, const Address&)
    {
        accepted = s;
        s->TraceConnectWithoutContext("Tx", MakeCallback(&BsdPair::ServerTx, this));
    }

    /**
     * @param p the segment's payload
     * @param h its header
     */
    void ClientTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
    {
        clientTx.emplace_back(Simulator::Now(), h);
        sizes.push_back(p->GetSize());
    }

    /**
     * @param h the header
     */
    void ServerTx(Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>)
    {
        serverTx.emplace_back(Simulator::Now(), h);
    }

    /** The connection failed or was dropped. */
    void Failed(Ptr<Socket>)
    {
        clientErrors.push_back(Simulator::Now());
    }

    /**
     * The client's data segments (payload > 0) with their times and sizes.
     * @return (time, payload bytes, sequence number)
     */
    std::vector<std::tuple<Time, uint32_t, uint32_t>> DataSent() const
    {
        std::vector<std::tuple<Time, uint32_t, uint32_t>> out;
        for (std::size_t i = 0; i < clientTx.size(); ++i)
        {
            if (sizes[i] > 0)
            {
                out.emplace_back(clientTx[i].first,
                                 sizes[i],
                                 clientTx[i].second.GetSequenceNumber().GetValue());
            }
        }
        return out;
    }

    /**
     * The time of the server's first ACK of a sequence number.
     * @param ack the acknowledgement number
     * @return its time (or -1 s)
     */
    Time AckTime(uint32_t ack) const
    {
        for (const auto& [at, h] : serverTx)
        {
            if ((h.GetFlags() & TcpHeader::ACK) && h.GetAckNumber().GetValue() == ack)
            {
                return at;
            }
        }
        return Seconds(-1);
    }

    std::vector<uint32_t> sizes; //!< payload sizes of clientTx
};

} // namespace

/**
 * @ingroup testbed-tests
 * 12 retransmissions, the timeout doubling from 1 s to at most 64 s, then the drop.
 */
class BsdTcpRetransmitTestCase : public TestCase
{
  public:
    BsdTcpRetransmitTestCase()
        : TestCase("BSD TCP: 12 retransmissions, RTO 1 s doubling to TCPTV_REXMTMAX = 64 s")
    {
    }

  private:
    void DoRun() override
    {
        BsdPair pair(1000, 8192);
        Simulator::Schedule(Seconds(1), &BsdPair::Connect, &pair);
        // From 2 s on the server hears nothing; one 500-byte write at 2 s.
        pair.toServer->drop = [](Ptr<Packet>) {
            return Simulator::Now() >= Seconds(2);
        };
        Simulator::Schedule(Seconds(2), [&]() { pair.client->Send(Create<Packet>(500)); });
        Simulator::Stop(Seconds(2000));
        Simulator::Run();
        auto data = pair.DataSent();
        // By hand (Stevens vol. 2 sec. 25.11, tcp_timers TCPT_REXMT): RTO = max(srtt + 4 rttvar,
        // t_rttmin = 1 s) = 1 s on the 1 ms link; the n-th timeout backs it off to
        // min(1 s x 2^n, 64 s). Sent at t0, retransmitted at t0 + 1, +2, +4, ..., +64 s (12
        // times), dropped at the 13th timeout, 64 s after the last.
        NS_TEST_ASSERT_MSG_EQ(data.size(), 13u, "the segment and 12 retransmissions");
        if (data.size() != 13)
        {
            return; // (the runner continues after a failed assertion)
        }
        Time expect = std::get<0>(data[0]);
        for (uint32_t n = 1; n <= 12; ++n)
        {
            expect += std::min(Seconds(1 << (n - 1)), Seconds(64));
            NS_TEST_EXPECT_MSG_EQ(std::get<0>(data[n]), expect, "retransmission " << n);
            NS_TEST_EXPECT_MSG_EQ(std::get<2>(data[n]), std::get<2>(data[0]), "same sequence");
        }
        NS_TEST_ASSERT_MSG_EQ(pair.clientErrors.size(), 1u, "the connection is dropped");
        if (!pair.clientErrors.empty())
        {
            NS_TEST_EXPECT_MSG_EQ(pair.clientErrors[0],
                                  expect + Seconds(64),
                                  "at the 13th timeout");
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * A window too small to send into, whose update is lost: the persist timer forces a segment
 * after TCPTV_PERSMIN; a zero window is probed every TCPTV_PERSMIN.
 */
class BsdTcpPersistTestCase : public TestCase
{
  public:
    BsdTcpPersistTestCase()
        : TestCase("BSD TCP: persist timer on a small window (lost update) and a zero window")
    {
    }

  private:
    void DoRun() override
    {
        SmallWindow();
        ZeroWindow();
    }

    /** The small window. */
    void SmallWindow()
    {
        // MSS 1000, the server's buffer 2500; the client writes 5000 bytes at 2 s, the server
        // reads nothing until 3 s. Segments 1 and 2 fill 2000 bytes; their ACK offers 500 <
        // MSS with 3000 bytes waiting: nothing can be sent (tcp_output: len < t_maxseg, not the
        // whole buffer, < max_sndwnd / 2), no timer runs: persist, 5 s (TCPTV_PERSMIN; srtt and
        // rttvar are 0). At 3 s the server reads all; its window update is lost. At the persist
        // timeout the client forces out what the window allows, 500 bytes (t_force); the
        // server's ACK of it then shows the open window and the rest follows.
        BsdPair pair(1000, 2500);
        Simulator::Schedule(Seconds(1), &BsdPair::Connect, &pair);
        Simulator::Schedule(Seconds(2), [&]() { pair.client->Send(Create<Packet>(5000)); });
        // From 3 s on the server reads whatever arrives.
        auto drain = [](Ptr<Socket> sock) {
            while (sock->Recv())
            {
            }
        };
        Simulator::Schedule(Seconds(3), [&]() {
            pair.accepted->SetRecvCallback(Callback<void, Ptr<Socket>>(drain));
            drain(pair.accepted);
        });
        bool dropped = false;
        pair.toClient->drop = [&dropped](Ptr<Packet>) {
            // The server's first segment after 3 s: the window update of the read.
            if (!dropped && Simulator::Now() >= Seconds(3))
            {
                dropped = true;
                return true;
            }
            return false;
        };
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        auto data = pair.DataSent();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(data.size(), 3u, "the connection did not hang");
        if (data.size() < 3)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(dropped, true, "the update was lost");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(data[0]), 1000u, "segment 1");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(data[1]), 1000u, "segment 2");
        // The small window's ACK: the server's delayed ACK of the 2 000 bytes (on its tick);
        // it reaches the client 1 ms later.
        const Time ackAt = pair.AckTime(std::get<2>(data[1]) + 1000) + BsdPair::Delay();
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(data[2]) - ackAt,
                              Seconds(5),
                              "forced 5 s (TCPTV_PERSMIN) after the small window's ACK");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(data[2]), 500u, "what the window allows");
        uint32_t total = 0;
        for (const auto& d : data)
        {
            total += std::get<1>(d);
        }
        NS_TEST_EXPECT_MSG_EQ(total, 5000u, "everything was sent");
        Simulator::Destroy();
    }

    /** The zero window. */
    void ZeroWindow()
    {
        // The server's buffer holds exactly 2 segments and is never read: the ACK of segment 2
        // closes the window; probes every 5 s (TCPT_RANGESET(a few ms x tcp_backoff[n], 5 s,
        // 60 s)).
        BsdPair pair(1000, 2000);
        Simulator::Schedule(Seconds(1), &BsdPair::Connect, &pair);
        Simulator::Schedule(Seconds(2), [&]() { pair.client->Send(Create<Packet>(5000)); });
        Simulator::Stop(Seconds(40));
        Simulator::Run();
        auto data = pair.DataSent();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(data.size(), 6u, "two segments and probes");
        if (data.size() < 6)
        {
            return;
        }
        // The first probe 5 s after the zero window's ACK reaches the client, the others 5 s
        // apart.
        Time prev = pair.AckTime(std::get<2>(data[1]) + 1000) + BsdPair::Delay();
        for (std::size_t i = 2; i < 6; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(std::get<0>(data[i]) - prev,
                                  Seconds(5),
                                  "probe " << i - 1 << " 5 s after the previous");
            prev = std::get<0>(data[i]);
            NS_TEST_EXPECT_MSG_EQ(std::get<1>(data[i]), 1u, "a one-byte probe");
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Delayed ACKs on the host's 200 ms fast-timeout tick; a read that opens the window by two
 * segments ACKs at once.
 */
class BsdTcpDelayedAckTestCase : public TestCase
{
  public:
    BsdTcpDelayedAckTestCase()
        : TestCase("BSD TCP: delayed ACK on the 200 ms tick, window update on a read")
    {
    }

  private:
    void DoRun() override
    {
        BsdPair pair(1000, 8192);
        Simulator::Schedule(Seconds(1), &BsdPair::Connect, &pair);
        // Single 100-byte writes at 2 s + i x 330 ms (Nagle: each is sent at once, the previous
        // one being acknowledged); the server does not read.
        const uint32_t n = 6;
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(Seconds(2) + MilliSeconds(330 * i),
                                [&]() { pair.client->Send(Create<Packet>(100)); });
        }
        // Then two full segments at 5 s, read by the server at 5.5 s: the read opens the window
        // by 2 segments (tcp_output after PRU_RCVD: adv >= 2 t_maxseg), the ACK goes at once.
        Simulator::Schedule(Seconds(5), [&]() { pair.client->Send(Create<Packet>(2000)); });
        Simulator::Schedule(Seconds(5.5), [&]() {
            while (pair.accepted->Recv())
            {
            }
        });
        Simulator::Stop(Seconds(8));
        Simulator::Run();
        const Time phase = pair.nodes.Get(1)->GetObject<BsdTcpSocketFactory>()->GetFastTimerPhase();
        const Time tick = MilliSeconds(200);
        auto data = pair.DataSent();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(data.size(), n, "the writes");
        if (data.size() < n)
        {
            return;
        }
        // By hand: a segment sent at t arrives at t + 1 ms and is acknowledged by tcp_fasttimo
        // at the first tick phase + k x 200 ms after that.
        uint32_t acks = 0;
        std::vector<Time> delays;
        for (uint32_t i = 0; i < n; ++i)
        {
            const Time t = std::get<0>(data[i]) + BsdPair::Delay();
            const uint32_t end = std::get<2>(data[i]) + std::get<1>(data[i]);
            const int64_t k = (t - phase).GetTimeStep() / tick.GetTimeStep() + 1;
            const Time expect = phase + tick * k;
            for (const auto& [at, h] : pair.serverTx)
            {
                if ((h.GetFlags() & TcpHeader::ACK) && h.GetAckNumber().GetValue() == end
                    && at >= t)
                {
                    NS_TEST_EXPECT_MSG_EQ(at, expect, "ACK of write " << i << " on the tick");
                    delays.push_back(at - t);
                    ++acks;
                    break;
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(acks, n, "every write acknowledged");
        bool varied = false;
        for (const auto& d : delays)
        {
            NS_TEST_EXPECT_MSG_GT(d, Seconds(0), "after the segment");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(d, tick, "within one tick");
            varied = varied || d != delays.front();
        }
        NS_TEST_EXPECT_MSG_EQ(varied, true, "0 to 200 ms, not a constant delay");
        // The read at 5.5 s: an ACK of all 2 600 bytes at 5.5 s exactly (the two segments
        // arrived at 5 s and their delayed ACK went on the tick before 5.2 s, offering a window
        // 2 000 smaller; the read opens it by 2 000 = 2 t_maxseg).
        bool atRead = false;
        for (const auto& [at, h] : pair.serverTx)
        {
            atRead = atRead || at == Seconds(5.5);
        }
        NS_TEST_EXPECT_MSG_EQ(atRead, true, "window update at the read");
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * SYN retransmissions without an RTT estimate and the connection-establishment timer.
 */
class BsdTcpSynTestCase : public TestCase
{
  public:
    BsdTcpSynTestCase()
        : TestCase("BSD TCP: SYN at 0, 6, 30 s, connection dropped at 75 s (TCPTV_KEEP_INIT)")
    {
    }

  private:
    void DoRun() override
    {
        BsdPair pair(1000, 8192);
        pair.toServer->drop = [](Ptr<Packet>) {
            return true;
        }; // the server is unreachable
        Simulator::Schedule(Seconds(1), &BsdPair::Connect, &pair);
        Simulator::Stop(Seconds(400));
        Simulator::Run();
        // By hand (tcp_newtcpcb, tcp_timers): t_rxtcur = ((0 >> 2) + (6 << 2)) >> 1 = 12
        // ticks = 6 s for the first SYN; then TCP_REXMTVAL = (0 >> 3) + 24 = 24 ticks = 12 s
        // x tcp_backoff[1] = 2: 24 s; the next, 48 s later at 78 s, comes after TCPTV_KEEP_INIT
        // = 75 s has dropped the connection.
        std::vector<Time> syns;
        for (const auto& [at, h] : pair.clientTx)
        {
            if (h.GetFlags() & TcpHeader::SYN)
            {
                syns.push_back(at);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(syns.size(), 3u, "SYN and two retransmissions");
        if (syns.size() != 3)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(syns[0], Seconds(1), "the first SYN");
        NS_TEST_EXPECT_MSG_EQ(syns[1], Seconds(7), "after 6 s");
        NS_TEST_EXPECT_MSG_EQ(syns[2], Seconds(31), "24 s later");
        NS_TEST_ASSERT_MSG_EQ(pair.clientErrors.size(), 1u, "connect() fails");
        if (!pair.clientErrors.empty())
        {
            NS_TEST_EXPECT_MSG_EQ(pair.clientErrors[0], Seconds(76), "75 s after the first SYN");
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * Records of one segment and 13 bytes written as fast as a two-segment send buffer allows and
 * read at once: the stream goes on, clocked by the receiver's delayed ACK, three segments every
 * two ticks.
 */
class BsdTcpTickClockedStreamTestCase : public TestCase
{
  public:
    BsdTcpTickClockedStreamTestCase()
        : TestCase("BSD TCP: MSS + 13 B records, 2-MSS send buffer: 3 MSS per two 200 ms ticks")
    {
    }

  private:
    static constexpr uint32_t MSS = 4096;        //!< t_maxseg (FDDI, MCLBYTES 2048)
    static constexpr uint32_t RECORD = MSS + 13; //!< a record one segment and 13 bytes long
    static constexpr uint32_t SND_BUF = 2 * MSS; //!< the sender's so_snd.sb_hiwat
    static constexpr uint32_t RCV_BUF = 4 * MSS; //!< the receiver's so_rcv.sb_hiwat
    static constexpr uint32_t PATTERN = 251;     //!< byte o of the stream is o mod 251

    BsdPair* m_pair{nullptr};       //!< the hosts
    uint64_t m_written{0};          //!< bytes accepted by Send
    uint64_t m_read{0};             //!< bytes read by the server's application
    uint64_t m_misordered{0};       //!< bytes read that are not the stream's next byte
    bool m_blocked{false};          //!< the writer waits for room in the send buffer
    Time m_wake{MicroSeconds(100)}; //!< the writer's wake-up and copy time

    /** The writer, woken after the protocol processing that freed space (sowwakeup). */
    void Wake(Ptr<Socket>, uint32_t)
    {
        if (m_blocked)
        {
            m_blocked = false;
            Simulator::Schedule(m_wake, &BsdTcpTickClockedStreamTestCase::Write, this);
        }
    }

    /**
     * One write(2) of the rest of the current record, or of what fits of it, as the stream's
     * forwarding process does; the next record follows m_wake later, a blocked writer m_wake after
     * the socket has room.
     */
    void Write()
    {
        Ptr<Socket> s = m_pair->client;
        const uint32_t n = std::min<uint32_t>(s->GetTxAvailable(), RECORD - m_written % RECORD);
        if (n > 0)
        {
            std::vector<uint8_t> bytes(n);
            for (uint32_t i = 0; i < n; ++i)
            {
                bytes[i] = static_cast<uint8_t>((m_written + i) % PATTERN);
            }
            const int sent = s->Send(Create<Packet>(bytes.data(), n));
            m_written += std::max(sent, 0);
        }
        if (m_written % RECORD == 0 && m_written > 0 && n > 0)
        {
            Simulator::Schedule(m_wake, &BsdTcpTickClockedStreamTestCase::Write, this);
            return;
        }
        m_blocked = true;
    }

    /** The server's application reads whatever arrives. */
    void Read(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            std::vector<uint8_t> bytes(p->GetSize());
            p->CopyData(bytes.data(), bytes.size());
            for (uint8_t b : bytes)
            {
                m_misordered += b != m_read % PATTERN;
                ++m_read;
            }
        }
    }

    void DoRun() override
    {
        BsdPair pair(MSS, RCV_BUF);
        m_pair = &pair;
        Simulator::Schedule(Seconds(1), &BsdPair::Connect, &pair);
        pair.client->SetSendCallback(MakeCallback(&BsdTcpTickClockedStreamTestCase::Wake, this));
        pair.listener->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
            Callback<void, Ptr<Socket>, const Address&>([this](Ptr<Socket> s, const Address& a) {
                m_pair->Accept(s, a);
                s->SetRecvCallback(MakeCallback(&BsdTcpTickClockedStreamTestCase::Read, this));
            }));
        Simulator::Schedule(Seconds(2), &BsdTcpTickClockedStreamTestCase::Write, this);
        const Time end = Seconds(12);
        Simulator::Stop(end);
        Simulator::Run();
        const Time phase = pair.nodes.Get(1)->GetObject<BsdTcpSocketFactory>()->GetFastTimerPhase();
        const Time tick = MilliSeconds(200);

        // Every byte written is read once and in order; what is not read is still in the send
        // buffer (conservation).
        NS_TEST_EXPECT_MSG_EQ(m_misordered, 0u, "the stream's bytes in order");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(m_read, m_written, "nothing read that was not written");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(m_written - m_read,
                                    uint64_t{SND_BUF},
                                    "what was written and not read fits the send buffer");

        // By hand, from 4.4BSD-Lite's rules (Stevens vol. 2 sec. 26.3, 27.x): the receiver
        // delays every ACK to its next fast tick (TCP_REASS: TF_DELACK); its reads send a
        // window update (tcp_output after PRU_RCVD) only when adv = win - (rcv_adv - rcv_nxt)
        // >= 2 t_maxseg or 2 adv >= sb_hiwat, i.e. after 8 192 bytes read since its last ACK:
        // all of the send buffer in two whole segments. The sender (tcp_output) sends a whole
        // segment, or, idle, all it holds; Nagle holds a partial segment otherwise. At a tick
        // the writer is blocked on a full buffer, so the ACK of the F bytes in flight leaves
        // U = 8 192 - F unsent; if 0 < U < 4 096 they go (idle, all there is), the writer
        // refills the buffer record by record, one whole segment goes as soon as 4 096 bytes
        // are unsent, and the remaining 4 096 - U are held: U + 4 096 bytes in flight, not two
        // whole segments, so no window update: the next tick's ACK leaves 4 096 - U unsent.
        // Hence in steady state the ACKs fall on the receiver's ticks only, each acknowledges
        // between 4 096 and 8 192 bytes, and every two ticks acknowledge 3 x 4 096 bytes; no
        // tick goes without data (no stall).
        std::vector<std::pair<Time, uint32_t>> acks;
        for (const auto& [at, h] : pair.serverTx)
        {
            if (at >= Seconds(3) && (h.GetFlags() & TcpHeader::ACK))
            {
                acks.emplace_back(at, h.GetAckNumber().GetValue());
            }
        }
        const uint64_t ticks = (end - Seconds(3)).GetTimeStep() / tick.GetTimeStep();
        NS_TEST_ASSERT_MSG_EQ(acks.size(), ticks, "one ACK on each tick from 3 s to the end");
        for (std::size_t i = 0; i < acks.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((acks[i].first - phase).GetTimeStep() % tick.GetTimeStep(),
                                  0,
                                  "ACK " << i << " on the receiver's fast tick");
            if (i + 1 < acks.size())
            {
                const uint32_t step = acks[i + 1].second - acks[i].second;
                NS_TEST_EXPECT_MSG_GT(step, MSS, "more than one segment at tick " << i + 1);
                NS_TEST_EXPECT_MSG_LT(step, SND_BUF, "less than the buffer at tick " << i + 1);
            }
            if (i + 2 < acks.size())
            {
                NS_TEST_EXPECT_MSG_EQ(acks[i + 2].second - acks[i].second,
                                      3 * MSS,
                                      "three segments' worth in the two ticks after ACK " << i);
            }
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup testbed-tests
 * The 4.4BSD TCP suite.
 */
class BsdTcpTestSuite : public TestSuite
{
  public:
    BsdTcpTestSuite()
        : TestSuite("testbed-tcp", Type::UNIT)
    {
        AddTestCase(new BsdTcpRetransmitTestCase, Duration::QUICK);
        AddTestCase(new BsdTcpPersistTestCase, Duration::QUICK);
        AddTestCase(new BsdTcpDelayedAckTestCase, Duration::QUICK);
        AddTestCase(new BsdTcpSynTestCase, Duration::QUICK);
        AddTestCase(new BsdTcpTickClockedStreamTestCase, Duration::QUICK);
    }
};

static BsdTcpTestSuite g_bsdTcpTestSuite; //!< static instance
