/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: frames from the FDDI ring as FddiNetDevice::Receive takes them (the FDDI MAC
 * header of [NTT96]'s ring, FddiHeader, then LLC/SNAP). Properties: nothing crashes or reads out
 * of bounds; a frame shorter than the two headers is counted as malformed and goes no further;
 * every other frame goes up with its 21 header octets removed.
 */

#include "fuzz-common.h"

#include "ns3/fddi-header.h"
#include "ns3/fddi-net-device.h"
#include "ns3/llc-snap-header.h"
#include "ns3/packet.h"

using namespace ns3;

extern "C" int
LLVMFuzzerInitialize(int* argc, char*** argv)
{
    FddiHeader h;
    h.SetFrameControl(FddiHeader::LLC_ASYNC);
    h.SetDestination(Mac48Address("00:00:00:00:00:02"));
    h.SetSource(Mac48Address("00:00:00:00:00:01"));
    LlcSnapHeader llc;
    llc.SetType(0x0800);
    Ptr<Packet> p = Create<Packet>(64);
    p->AddHeader(llc);
    p->AddHeader(h);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    testbed_fuzz::WriteSeeds(*argc,
                             *argv,
                             {b, std::vector<uint8_t>(b.begin(), b.begin() + FddiHeader::SIZE)});
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static Ptr<FddiNetDevice> dev = CreateObject<FddiNetDevice>();
    static uint32_t upSize;
    static bool up;
    static bool once = [] {
        dev->SetPromiscReceiveCallback(MakeCallback(+[](Ptr<NetDevice>,
                                                        Ptr<const Packet> p,
                                                        uint16_t,
                                                        const Address&,
                                                        const Address&,
                                                        NetDevice::PacketType) {
            up = true;
            upSize = p->GetSize();
            return true;
        }));
        dev->SetReceiveCallback(MakeCallback(
            +[](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) { return true; }));
        return true;
    }();
    (void) once;
    const uint64_t malformed = dev->GetMalformed();
    up = false;
    dev->Receive(Create<Packet>(data, static_cast<uint32_t>(size)));
    const bool shortFrame = size < FddiHeader::SIZE + FddiNetDevice::LLC_SNAP;
    testbed_fuzz::Check((dev->GetMalformed() == malformed + 1) == shortFrame);
    testbed_fuzz::Check(up == !shortFrame);
    testbed_fuzz::Check(!up || upSize == size - FddiHeader::SIZE - FddiNetDevice::LLC_SNAP);
    return 0;
}
