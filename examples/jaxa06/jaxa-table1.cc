/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * [JAXA06] Table 1: ftp transfer rate through the NIST Net PC at one bandwidth setting.
 *
 * An ftp-like bulk TCP transfer of FileBytes from host A to host B through the emulator (delay
 * 0 unless --delay); the rate is what an ftp client reports: the file's bytes over the time
 * from the first to the last data byte at the receiver.
 *
 *   ./jaxa-table1 --bandwidth=1Mbps --fileBytes=2000000 --output=r.json
 */

#include "jaxa-benchmark-driver.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/testbed-module.h"

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("JaxaTable1");

namespace
{

uint64_t g_rxBytes = 0;     //!< bytes received by the sink
Time g_first = Seconds(-1); //!< first data byte at the receiver
Time g_last = Seconds(-1);  //!< last data byte at the receiver
uint32_t g_firstSize = 0;   //!< size of the first received chunk

/**
 * Sink receive trace.
 * @param p the packet
 * @param from the sender
 */
void
SinkRx(Ptr<const Packet> p, const Address& from)
{
    if (g_first.IsStrictlyNegative())
    {
        g_first = Simulator::Now();
        g_firstSize = p->GetSize();
    }
    g_last = Simulator::Now();
    g_rxBytes += p->GetSize();
}

} // namespace

int
main(int argc, char* argv[])
{
    ProgramOptions::SetSimulatorDefaults();
    DataRate setting("1Mbps");
    Time delay = Seconds(0);
    uint64_t fileBytes = 2000000;
    bool halfDuplex = false;
    std::string pcap;
    JaxaBenchmarkConfig hosts; // the testbed's PCs: --hostProfile, --emulatorProfile, --hostSet

    ProgramOptions opts("jaxa-table1",
                        "[JAXA06] Table 1: an ftp transfer from host A to host B through NIST Net; "
                        "the transfer rate");
    // NIST Net settings up to the 100BASE-TX line; from 1 kbit/s (the transfer must end: below).
    opts.Add("bandwidth",
             "NIST Net bandwidth setting (e.g. 128kbps, 100Mbps)",
             setting,
             DataRate("1kbps"),
             DataRate("100Mbps"));
    // Up to 10 s each way: beyond any link the studies emulated (a satellite hop is 0.25 s).
    opts.Add("delay", "NIST Net delay setting, each direction", delay, Seconds(0), Seconds(10));
    // At least 100 kB (the rate is measured after the first segment); at most 1 GB (each
    // segment is simulated: about 700 000 packets and their ACKs).
    opts.Add("fileBytes", "size of the transferred file", fileBytes, 100000, 1000000000, "bytes");
    opts.Add("halfDuplex", "NICs at half duplex", halfDuplex);
    opts.AddOutputPrefix("pcap", "pcap file prefix (empty: none)", pcap);
    JaxaBenchmark::AddHostOptions(opts, hosts);
    JaxaBenchmark::RequireRunEnds(opts, hosts); // no stop time: the run ends by itself
    ResultRecord& rec = opts.Record();
    rec.Declare("bandwidth", ResultRecord::STRING, "--bandwidth as given")
        .Declare("setting_bps", ResultRecord::REAL, "NIST Net bandwidth setting (bit/s)")
        .Declare("delay_s", ResultRecord::REAL, "--delay (s)")
        .Declare("file_bytes", ResultRecord::INT, "size of the transferred file (bytes)")
        .Declare("transfer_s",
                 ResultRecord::REAL,
                 "transfer time of the file (s)",
                 ResultRecord::SOMETIMES)
        .Declare("ftp_rate_bps",
                 ResultRecord::REAL,
                 "ftp's reported rate (bit/s)",
                 ResultRecord::SOMETIMES)
        .Declare("emulator_drops_a_to_b", ResultRecord::INT, "packets the emulator dropped, A to B")
        .Declare("emulator_packets_a_to_b",
                 ResultRecord::INT,
                 "packets the emulator received, A to B")
        .Declare("received", ResultRecord::INT, "file bytes that arrived at host B")
        .Declare("lost", ResultRecord::INT, "file bytes that never arrived (TCP gave up)")
        .Declare("complete", ResultRecord::BOOL, "the whole file arrived");
    // Checked inside Parse(), so that --check refuses what the run would refuse.
    opts.AddCheck([&]() {
        ProgramOptions::Require(fileBytes * 8.0 / setting.GetBitRate() <= 1e5,
                                "--fileBytes/--bandwidth: the transfer would take more than 1e5 s");
    });
    opts.Parse(argc, argv);
    const std::string bandwidth = opts.GetText("bandwidth");

    EmulatedTestbedHelper testbed = EmulatedTestbedHelper::Jaxa06();
    JaxaBenchmark::SetHosts(testbed, hosts);
    testbed.SetEmulatorAttribute("Rate", DataRateValue(setting));
    testbed.SetEmulatorAttribute("Delay", TimeValue(delay));
    if (halfDuplex)
    {
        testbed.SetDuplex(EthernetLinkHelper::HALF_DUPLEX);
    }
    testbed.EnablePcap(pcap);
    EmulatedTestbed tb = testbed.Install();
    JaxaBenchmark::RequireRunEnds(tb);
    testbed.AssignStreams(tb, 1000);

    const uint16_t port = 20; // ftp-data
    // The transfer's end points and size are the program's; the ftp's write size (8192 bytes, a
    // common buffer of ftp clients) a default the command line may replace.
    UserAttributes::RequireNotGiven(PacketSink::GetTypeId(), "Local", "port 20 of host B");
    UserAttributes::RequireNotGiven(BulkSendApplication::GetTypeId(), "Remote", "host B");
    UserAttributes::RequireNotGiven(BulkSendApplication::GetTypeId(),
                                    "MaxBytes",
                                    "from its option --fileBytes");
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sink.Install(tb.hostB);
    sinkApp.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&SinkRx));
    BulkSendHelper ftp("ns3::TcpSocketFactory", InetSocketAddress(tb.hostBAddress, port));
    ftp.SetAttribute("MaxBytes", UintegerValue(fileBytes));
    if (!UserAttributes::IsGiven(BulkSendApplication::GetTypeId(), "SendSize"))
    {
        ftp.SetAttribute("SendSize", UintegerValue(8192));
    }
    ApplicationContainer ftpApp = ftp.Install(tb.hostA);
    ftpApp.Start(Seconds(1));
    sinkApp.Start(Seconds(0));

    Simulator::Run();
    // A transfer that TCP gave up on (heavy loss: too many retransmissions) is a result: the
    // bytes that arrived, and the time and rate over them.
    NS_ABORT_MSG_IF(g_rxBytes > fileBytes,
                    g_rxBytes << " bytes arrived of a file of " << fileBytes);
    rec.SetString("bandwidth", bandwidth);
    rec.Set("setting_bps", setting.GetBitRate());
    rec.Set("delay_s", delay.GetSeconds());
    rec.SetInt("file_bytes", fileBytes);
    rec.SetInt("received", g_rxBytes);
    rec.SetInt("lost", fileBytes - g_rxBytes);
    rec.SetBool("complete", g_rxBytes == fileBytes);
    if (g_rxBytes > g_firstSize && g_last > g_first)
    {
        const double seconds = (g_last - g_first).GetSeconds();
        rec.Set("transfer_s", seconds);
        rec.Set("ftp_rate_bps", (g_rxBytes - g_firstSize) * 8.0 / seconds);
    }
    rec.SetInt("emulator_drops_a_to_b", tb.aToB->GetStats().nTotalDroppedPackets);
    rec.SetInt("emulator_packets_a_to_b", tb.aToB->GetStats().nTotalReceivedPackets);
    rec.Write(opts.GetOutput());
    Simulator::Destroy();
    return 0;
}
