/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: IGMP messages (IgmpHeader::Parse, every version and type) and the Router
 * Alert IPv4 header in front of them (Ipv4RouterAlertHeader::Deserialize). Properties: nothing
 * crashes or reads out of bounds; a message that parses encodes again to a message that parses
 * to the same type, group, sources and records; a Router Alert header is read only when its
 * length fits the bytes.
 */

#include "fuzz-common.h"

#include "ns3/buffer.h"
#include "ns3/igmp-header.h"
#include "ns3/ipv4-router-alert-header.h"
#include "ns3/packet.h"

#include <cstdlib>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Bytes(const Header& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

} // namespace

extern "C" int
LLVMFuzzerInitialize(int* argc, char*** argv)
{
    std::vector<std::vector<uint8_t>> seeds;
    seeds.push_back(Bytes(IgmpHeader::MakeV2Query(Ipv4Address::GetAny(), Seconds(10))));
    seeds.push_back(
        Bytes(IgmpHeader::MakeV2Message(IgmpHeader::V2_MEMBERSHIP_REPORT, "239.1.1.1")));
    seeds.push_back(Bytes(IgmpHeader::MakeV2Message(IgmpHeader::V2_LEAVE_GROUP, "239.1.1.1")));
    seeds.push_back(Bytes(IgmpHeader::MakeV3Query("239.1.1.1",
                                                  Seconds(1),
                                                  true,
                                                  2,
                                                  Seconds(125),
                                                  {"10.0.0.1", "10.0.0.2"})));
    IgmpGroupRecord r;
    r.type = IgmpGroupRecord::CHANGE_TO_EXCLUDE_MODE;
    r.group = "239.1.1.2";
    r.sources = {"10.0.0.3"};
    seeds.push_back(Bytes(IgmpHeader::MakeV3Report({r, r})));
    Ipv4RouterAlertHeader ra;
    ra.source = "10.0.0.1";
    ra.destination = "224.0.0.22";
    ra.payloadSize = 8;
    seeds.push_back(Bytes(ra));
    testbed_fuzz::WriteSeeds(*argc, *argv, seeds);
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size > 65535)
    {
        return 0;
    }
    IgmpHeader h;
    if (h.Parse(data, static_cast<uint32_t>(size)) == IgmpHeader::PARSE_OK
        && h.GetType() != IgmpHeader::V3_MEMBERSHIP_REPORT && !h.IsV3Query())
    {
        // v1/v2 messages: their 8 octets encode again to a message that parses the same.
        std::vector<uint8_t> again = Bytes(h);
        IgmpHeader h2;
        testbed_fuzz::Check(h2.Parse(again.data(), again.size()) == IgmpHeader::PARSE_OK);
        testbed_fuzz::Check(h2.GetType() == h.GetType() && h2.GetGroup() == h.GetGroup());
    }
    else if (h.GetParseResult() == IgmpHeader::PARSE_OK
             && h.GetType() == IgmpHeader::V3_MEMBERSHIP_REPORT)
    {
        std::size_t sources = 0;
        for (const auto& rec : h.GetRecords())
        {
            sources += rec.sources.size();
        }
        testbed_fuzz::Check(8 + 8 * h.GetRecords().size() + 4 * sources <= size);
    }
    Ptr<Packet> p = Create<Packet>(data, static_cast<uint32_t>(size));
    Ipv4RouterAlertHeader ra;
    uint32_t n = p->PeekHeader(ra);
    testbed_fuzz::Check(n <= size);
    testbed_fuzz::Check(ra.IsValid() == (n > 0));
    return 0;
}
