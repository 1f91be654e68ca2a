/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [MEGA06] receiver capacity, scaling method A and the Catalyst 6009: Group A sender PCs with
 * send_udp virtual nodes and Group B receivers (ami + sara), every frame through the snooping
 * Catalyst 6509 (and, for receivers placed there, the 6009 behind an 802.1Q trunk), optionally
 * the IGMP querier PC on its router port. One configuration per run:
 *
 * - receiver capacity: --senderPcs=k --sendersPerGroup=0 --receivers=1 (k x 5 000 nodes, one
 *   group, one receiver);
 * - method A: --senderPcs=4s --sendersPerGroup=4 --receivers=s (s sets of 4 sender PCs and one
 *   receiver, one group per set);
 * - Fig. 11: method A with --receiversOn6009=r.
 *
 * The record holds, for the observation window [warmup, warmup + duration): the receivers' sara
 * statistics (drops from serial gaps, receive- and send-interval statistics, pooled over all
 * nodes of all receivers, and split by switch), the senders' own send-interval statistics, the
 * switches' drops by reason, the querier's queries and NIC drops.
 *
 *   ./mega-scale --senderPcs=8 --sendersPerGroup=4 --receivers=2 --output=r.json
 */

#include "mega06-split.h"

#include "ns3/core-module.h"
#include "ns3/testbed-module.h"

#include <cinttypes>
#include <cstdio>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MegaScale");

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    // Same-time events by lane (LeanSimulatorImpl's lane order; a lane per node and per switch
    // port), not by global insertion order: the order a run split by sets can reproduce in each
    // part (doc/mega.rst). --ns3::LeanSimulatorImpl::SameTimeOrder=Uid gives ns-3's order.
    UserAttributes::SetConfigDefault("ns3::LeanSimulatorImpl::SameTimeOrder", StringValue("Lane"));
    Mega06ScaleOptions o;
    ProgramOptions opts("mega-scale",
                        "[MEGA06] receiver capacity, scaling method A and the Catalyst 6009: "
                        "sender PCs, receivers, the querier; drops and interval statistics");
    o.Add(opts);
    ResultRecord& rec = opts.Record();
    Mega06ScaleRecord::Declare(rec);
    opts.Parse(argc, argv);
    o.Apply();

    if (!o.merge.empty())
    {
        // A split run's record: its parts' files, less the idle network's events that every
        // part but one ran.
        std::vector<Mega06ScaleTotals> read;
        std::istringstream files(o.merge);
        std::string file;
        while (std::getline(files, file, ','))
        {
            read.push_back(Mega06ScaleTotals::Read(file, o.config.receivers));
        }
        const uint64_t skeleton = Mega06SplitPart::SkeletonEvents(o, opts);
        Mega06ScaleTotals t = Mega06ScaleTotals::Merge(read, skeleton);
        ProgramOptions::Require(t.signature == o.Signature(),
                                "--merge: the parts were run with other options than these");
        Mega06ScaleRecord::Fill(rec, o, t);
        rec.Write(opts.GetOutput());
        return 0;
    }

    Mega06Testbed tb = Mega06Testbed::Build(o.config);
    Mega06ScaleProbes probes(tb, o);
    std::unique_ptr<Mega06SplitPart> split;
    if (o.parts > 1)
    {
        split = std::make_unique<Mega06SplitPart>(tb, o);
    }
    // --digest: every frame the router port takes (or drops), with its time, in order.
    uint64_t portDigest = 14695981039346656037ULL; // FNV-1a 64
    auto mix = [&portDigest](const uint8_t* b, size_t n) {
        for (size_t i = 0; i < n; ++i)
        {
            portDigest = (portDigest ^ b[i]) * 1099511628211ULL;
        }
    };
    const bool digestHere = o.digest && tb.querier && o.config.partShared;
    if (digestHere)
    {
        for (const char* trace : {"MacTx", "MacTxDrop"})
        {
            const uint8_t tag = trace[5] == 0 ? 1 : 2;
            tb.bridge->GetPort(tb.querierPort)
                ->TraceConnectWithoutContext(
                    trace,
                    Callback<void, Ptr<const Packet>>([&mix, tag](Ptr<const Packet> p) {
                        const int64_t now = Simulator::Now().GetTimeStep();
                        std::vector<uint8_t> b(p->GetSize());
                        p->CopyData(b.data(), b.size());
                        // Every octet, the pad of a short frame included (zeros: the
                        // Ethernet devices pad with zeros, test testbed-full-duplex-ethernet).
                        mix(&tag, 1);
                        mix(reinterpret_cast<const uint8_t*>(&now), sizeof(now));
                        mix(b.data(), b.size());
                    }));
        }
    }

    Simulator::Stop(o.ObsEnd());
    opts.StartProgress(o.ObsEnd());
    Simulator::Run();

    Mega06ScaleTotals t = probes.Collect(opts.GetEventCount());
    if (digestHere)
    {
        char hex[17];
        std::snprintf(hex, sizeof(hex), "%016" PRIx64, portDigest);
        t.digest = hex;
    }
    if (split)
    {
        const bool exact = split->Complete(t, t.events);
        if (exact)
        {
            t.Write(o.partOut);
        }
        Simulator::Destroy();
        return exact ? 0 : 1;
    }
    Mega06ScaleRecord::Fill(rec, o, t);
    if (o.rssEvery > 0)
    {
        rec.SetSeries("rss_mb", probes.GetRss());
    }
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
