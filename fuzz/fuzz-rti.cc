/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: RTI messages from the network, both transports. The input is one UDP
 * datagram (RtiMessage::TryDeserializeFrom) and, the same bytes, a TCP byte stream
 * (RtiTcpConnection::Frame). Properties: nothing crashes or reads out of bounds (ASan, UBSan);
 * an accepted datagram is exactly one message, and it encodes again to the same length and
 * decodes again to the same fields; the framing never frames more bytes than it was given and
 * frames only whole messages.
 */

#include "fuzz-common.h"

#include "ns3/rti-connection.h"
#include "ns3/rti-message.h"

#include <cstdlib>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Bytes(const RtiMessage& m)
{
    std::vector<uint8_t> b(m.GetSerializedSize());
    m.SerializeTo(b.data(), b.size());
    return b;
}

} // namespace

extern "C" int
LLVMFuzzerInitialize(int* argc, char*** argv)
{
    std::vector<std::vector<uint8_t>> seeds;
    RtiMessage j(RtiMessage::JOIN);
    j.name = "Federation";
    j.name2 = "Sender";
    j.name3 = "s1";
    seeds.push_back(Bytes(j));
    RtiMessage s(RtiMessage::SUBSCRIBE_OBJECT_CLASS);
    s.handle = 1;
    s.handles = {1, 2, 3};
    seeds.push_back(Bytes(s));
    RtiMessage u(RtiMessage::UPDATE_ATTRIBUTES);
    u.SetHeaderSize(83);
    u.SetFlags(RtiMessage::FLAG_TSO);
    u.time = 12.5;
    u.values[1] = std::vector<uint8_t>(64, 0xab);
    u.tag = {1, 2};
    seeds.push_back(Bytes(u));
    RtiMessage g(RtiMessage::TIME_ADVANCE_GRANT);
    g.time = 3;
    seeds.push_back(Bytes(g));
    RtiMessage sp(RtiMessage::ANNOUNCE_SYNC_POINT);
    sp.name = "ready";
    sp.tag = {9};
    seeds.push_back(Bytes(sp));
    auto two = Bytes(g);
    auto upd = Bytes(u);
    two.insert(two.end(), upd.begin(), upd.end());
    seeds.push_back(two); // a stream of two messages
    testbed_fuzz::WriteSeeds(*argc, *argv, seeds);
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size > (1u << 20))
    {
        return 0;
    }
    RtiMessage m;
    uint32_t read = 0;
    std::string reason;
    if (m.TryDeserializeFrom(data, static_cast<uint32_t>(size), read, reason))
    {
        testbed_fuzz::Check(read == size);
        testbed_fuzz::Check(reason.empty());
        std::vector<uint8_t> again = Bytes(m);
        testbed_fuzz::Check(again.size() == size);
        RtiMessage m2;
        uint32_t read2 = 0;
        testbed_fuzz::Check(m2.TryDeserializeFrom(again.data(), again.size(), read2, reason));
        testbed_fuzz::Check(m2.GetType() == m.GetType() && m2.values == m.values && m2.tag == m.tag
                            && m2.name == m.name && m2.handles == m.handles);
    }
    else
    {
        testbed_fuzz::Check(!reason.empty());
    }
    std::vector<RtiMessage> messages;
    std::string why;
    std::size_t framed = RtiTcpConnection::Frame(data, size, messages, why);
    testbed_fuzz::Check(framed <= size);
    std::size_t total = 0;
    for (const auto& msg : messages)
    {
        total += msg.GetSerializedSize();
    }
    testbed_fuzz::Check(total == framed);
    return 0;
}
