/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the send_udp payload header of [MEGA06] (SendUdpHeader), as sara reads it
 * from captured datagrams, and sara's accounting of them (SaraTable). The input is a capture:
 * 3 octets that choose the table's flat range of node ids (Reserve: first id, count), then
 * datagrams of 16 octets each. Properties: nothing crashes or reads out of bounds; a header is
 * read only from 16 octets or more, and what is read encodes back to the same 16 octets; the
 * table's counts are those of a reference that follows the documented rules (per node: a
 * serial above the last one counted is a packet, the serials skipped over are drops, an
 * interval is counted between consecutive serials only; any other serial is reordered), also
 * summed over the nodes.
 */

#include "fuzz-common.h"

#include "ns3/packet.h"
#include "ns3/sara.h"
#include "ns3/send-udp.h"

#include <cstdlib>
#include <cstring>
#include <map>

using namespace ns3;

namespace
{

/** One datagram's header as bytes. */
std::vector<uint8_t>
Datagram(uint32_t node, uint32_t serial, Time t)
{
    SendUdpHeader h;
    h.SetNodeId(node);
    h.SetSerial(serial);
    h.SetTimestamp(t);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/** The reference's state of one node. */
struct Ref
{
    uint32_t last{0};      //!< last serial counted
    uint64_t packets{0};   //!< packets
    uint64_t drops{0};     //!< serials skipped over
    uint64_t reordered{0}; //!< the others
    uint64_t intervals{0}; //!< consecutive pairs
};

} // namespace

extern "C" int
LLVMFuzzerInitialize(int* argc, char*** argv)
{
    std::vector<uint8_t> capture{0, 4, 8}; // ids 4 .. 11 in the flat range
    // Two nodes in order, one gap, a duplicate, one out of order, and a node outside the range.
    const std::vector<std::pair<uint32_t, uint32_t>> sends{{4, 1},
                                                           {5, 1},
                                                           {4, 2},
                                                           {5, 2},
                                                           {4, 4},
                                                           {4, 4},
                                                           {5, 3},
                                                           {4, 3},
                                                           {4711, 42},
                                                           {4711, 43}};
    for (std::size_t i = 0; i < sends.size(); ++i)
    {
        auto d = Datagram(sends[i].first, sends[i].second, MilliSeconds(10 * i));
        capture.insert(capture.end(), d.begin(), d.end());
    }
    SendUdpHeader h;
    h.SetNodeId(4711);
    h.SetSerial(42);
    h.SetTimestamp(Seconds(1.5));
    Ptr<Packet> p = Create<Packet>(84);
    p->AddHeader(h);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    testbed_fuzz::WriteSeeds(*argc,
                             *argv,
                             {b, std::vector<uint8_t>(b.begin(), b.begin() + 16), capture});
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Ptr<Packet> p = Create<Packet>(data, static_cast<uint32_t>(size));
    SendUdpHeader h;
    uint32_t n = p->PeekHeader(h);
    testbed_fuzz::Check((n == SendUdpHeader::SIZE) == (size >= SendUdpHeader::SIZE)
                        && h.IsValid() == (n > 0));
    if (n > 0)
    {
        Ptr<Packet> q = Create<Packet>();
        q->AddHeader(h);
        uint8_t out[SendUdpHeader::SIZE];
        q->CopyData(out, sizeof(out));
        testbed_fuzz::Check(std::memcmp(out, data, sizeof(out)) == 0);
    }

    // The capture: a flat range, then the datagrams in their order of arrival.
    if (size < 3)
    {
        return 0;
    }
    SaraTable table;
    table.Reserve(data[0] * 256u + data[1], data[2]);
    std::map<uint32_t, Ref> ref;
    for (size_t at = 3, i = 0; at + SendUdpHeader::SIZE <= size; at += SendUdpHeader::SIZE, ++i)
    {
        Ptr<Packet> d = Create<Packet>(data + at, SendUdpHeader::SIZE);
        SendUdpHeader dh;
        testbed_fuzz::Check(d->RemoveHeader(dh) == SendUdpHeader::SIZE);
        // Send times as a sender stamps them (from its clock: 0 .. a day); received in order,
        // 1 us apart.
        const int64_t ns = dh.GetTimestamp().GetNanoSeconds() % 86400000000000LL;
        table.Add(dh.GetNodeId(), dh.GetSerial(), NanoSeconds(ns < 0 ? -ns : ns), MicroSeconds(i));
        auto [it, fresh] = ref.try_emplace(dh.GetNodeId());
        Ref& r = it->second;
        const uint32_t serial = dh.GetSerial();
        if (!fresh && serial <= r.last)
        {
            ++r.reordered;
            continue;
        }
        if (!fresh)
        {
            r.drops += serial - r.last - 1;
            r.intervals += serial == r.last + 1 ? 1 : 0;
        }
        ++r.packets;
        r.last = serial;
    }
    uint64_t packets = 0;
    uint64_t drops = 0;
    uint64_t reordered = 0;
    testbed_fuzz::Check(table.GetNNodes() == ref.size());
    for (const auto& [node, r] : ref)
    {
        testbed_fuzz::Check(table.Has(node));
        const SaraTable::NodeStats s = table.GetNode(node);
        testbed_fuzz::Check(s.nodeId == node && s.packets == r.packets && s.drops == r.drops
                            && s.reordered == r.reordered && s.intervals == r.intervals);
        packets += r.packets;
        drops += r.drops;
        reordered += r.reordered;
    }
    const SaraTable::Summary sum = table.GetSummary();
    testbed_fuzz::Check(sum.packets == packets && sum.drops == drops && sum.reordered == reordered);
    return 0;
}
