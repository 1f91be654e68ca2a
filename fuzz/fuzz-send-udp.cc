/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the send_udp payload header of [MEGA06] (SendUdpHeader), as sara reads it
 * from captured datagrams. Properties: nothing crashes or reads out of bounds; a header is read
 * only from 16 octets or more, and what is read encodes back to the same 16 octets.
 */

#include "fuzz-common.h"

#include "ns3/packet.h"
#include "ns3/send-udp.h"

#include <cstdlib>
#include <cstring>

using namespace ns3;

extern "C" int
LLVMFuzzerInitialize(int* argc, char*** argv)
{
    SendUdpHeader h;
    h.SetNodeId(4711);
    h.SetSerial(42);
    h.SetTimestamp(Seconds(1.5));
    Ptr<Packet> p = Create<Packet>(84);
    p->AddHeader(h);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    testbed_fuzz::WriteSeeds(*argc, *argv, {b, std::vector<uint8_t>(b.begin(), b.begin() + 16)});
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
    return 0;
}
