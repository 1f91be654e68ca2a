/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tno-jitter-parts.h"

#include "ns3/abort.h"
#include "ns3/host-cpu.h"
#include "ns3/udp-socket-factory.h"

namespace ns3
{
namespace tno
{

namespace
{
/// The measurement's UDP port on both machines.
const uint16_t PORT = 7000;
} // namespace

NetLatency::NetLatency(uint32_t samples, Time interval, bool echo, uint32_t dataBytes)
    : m_samples(samples)
    , m_interval(interval)
    , m_echo(echo)
    , m_dataBytes(dataBytes)
    , m_to(Ipv4Address::GetAny(), PORT)
    , m_back(Ipv4Address::GetAny(), PORT)
{
}

void
NetLatency::Setup(const NodeContainer& machines,
                  const std::vector<Ptr<HostPlatform>>& hosts,
                  const std::vector<Ipv4Address>& addr,
                  Ptr<RtiSettings> rti)
{
    m_rti = rti;
    m_to = InetSocketAddress(addr.back(), PORT);
    m_back = InetSocketAddress(addr[0], PORT);
    for (uint32_t i = 0; i < 2; ++i)
    {
        Endpoint& e = i == 0 ? m_tx : m_rx;
        e.proc = hosts[i]->CreateProcess();
        e.proc->SetCore(1);
        e.socket = Socket::CreateSocket(machines.Get(i), UdpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(e.socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), PORT)) != 0,
                        "tno-jitter: cannot bind the UDP socket");
    }
    m_rx.socket->SetRecvCallback(MakeCallback(&NetLatency::ReceiverRead, this));
    m_tx.socket->SetRecvCallback(MakeCallback(&NetLatency::SenderRead, this));
}

void
NetLatency::Start(Time start)
{
    Send(start); // datagram 0: the warm-up
}

const Samples&
NetLatency::GetSamples() const
{
    return m_result;
}

uint32_t
NetLatency::GetSent() const
{
    return m_sent;
}

uint64_t
NetLatency::GetMalformed() const
{
    return m_malformed;
}

bool
NetLatency::Parse(Ptr<Packet> p, Time& stamp, bool& warmup)
{
    if (p->GetSize() != m_dataBytes)
    {
        ++m_malformed;
        return false;
    }
    std::vector<uint8_t> buf(m_dataBytes);
    p->CopyData(buf.data(), m_dataBytes);
    uint64_t ns = 0;
    for (int k = 0; k < 8; ++k)
    {
        ns = (ns << 8) | buf[k];
    }
    stamp = NanoSeconds(static_cast<int64_t>(ns));
    warmup = buf[8] == 0 && buf[9] == 0 && buf[10] == 0 && buf[11] == 0;
    return true;
}

Time
NetLatency::ReadCost(const Endpoint& e) const
{
    // A read ends a blocking wait (each datagram finds its reader blocked): the wake-up's kernel
    // work on the reader's CPU (the host's WaitCost) is on the datagram's path, as in RtiLrc.
    Ptr<HostPlatform> host = e.proc->GetPlatform();
    return host->GetWaitCost()
           + host->GetCpu()->CyclesToTime(m_rti->TransportCycles()
                                          * host->GetReferenceCycleFactor())
           + host->GetRecvCost(m_dataBytes);
}

Time
NetLatency::SendCost(const Endpoint& e) const
{
    Ptr<HostPlatform> host = e.proc->GetPlatform();
    return host->GetCpu()->CyclesToTime(m_rti->TransportCycles() * host->GetReferenceCycleFactor())
           + host->GetSendCost(m_dataBytes);
}

void
NetLatency::ReceiverRead(Ptr<Socket> sock)
{
    // Blocked in its read; the datagram wakes it; it reads and takes the time (one way) or
    // sends the datagram back (echo).
    while (Ptr<Packet> p = sock->Recv())
    {
        Time stamp;
        bool warmup = false;
        if (!Parse(p, stamp, warmup))
        {
            continue;
        }
        Time cost = ReadCost(m_rx);
        m_rx.proc->Wake(Callback<void>([this, cost, stamp, warmup, p]() {
            m_rx.proc->Execute(cost, Callback<void>([this, stamp, warmup, p]() {
                                   if (m_echo)
                                   {
                                       m_rx.proc->Execute(SendCost(m_rx),
                                                          Callback<void>([this, p]() {
                                                              m_rx.socket->SendTo(p, 0, m_back);
                                                          }));
                                       return;
                                   }
                                   if (!warmup)
                                   {
                                       m_result.v.push_back(
                                           (Simulator::Now() - stamp).GetSeconds());
                                   }
                               }));
        }));
    }
}

void
NetLatency::SenderRead(Ptr<Socket> sock)
{
    // Echo: blocked in its read after each send, it reads the reply, takes half the round trip,
    // then sleeps until its next send.
    while (Ptr<Packet> p = sock->Recv())
    {
        Time stamp;
        bool warmup = false;
        if (!m_echo || !Parse(p, stamp, warmup))
        {
            continue;
        }
        Time cost = ReadCost(m_tx);
        m_tx.proc->Wake(Callback<void>([this, cost, stamp, warmup]() {
            m_tx.proc->Execute(cost, Callback<void>([this, stamp, warmup]() {
                                   if (!warmup)
                                   {
                                       m_result.v.push_back((Simulator::Now() - stamp).GetSeconds()
                                                            / 2);
                                   }
                                   if (m_sent <= m_samples)
                                   {
                                       Send(m_nextSend);
                                   }
                               }));
        }));
    }
}

void
NetLatency::Send(Time at)
{
    // Wakes at its time, takes the time, sends through the lowest layer.
    m_tx.proc->SleepUntil(at, Callback<void>([this, at]() {
                              uint64_t ns = Simulator::Now().GetNanoSeconds();
                              std::vector<uint8_t> buf(m_dataBytes, 0);
                              for (int k = 0; k < 8; ++k)
                              {
                                  buf[k] = static_cast<uint8_t>(ns >> (56 - 8 * k));
                              }
                              for (int k = 0; k < 4; ++k)
                              {
                                  buf[8 + k] = static_cast<uint8_t>(m_sent >> (24 - 8 * k));
                              }
                              Ptr<Packet> p = Create<Packet>(buf.data(), m_dataBytes);
                              m_tx.proc->Execute(SendCost(m_tx), Callback<void>([this, p]() {
                                                     m_tx.socket->SendTo(p, 0, m_to);
                                                 }));
                              m_nextSend = at + m_interval;
                              if (++m_sent <= m_samples && !m_echo)
                              {
                                  Send(m_nextSend);
                              }
                          }));
}

} // namespace tno
} // namespace ns3
