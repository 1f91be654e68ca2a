"""The testbed-tcp scenarios (test/bsd-tcp-test-suite.cc) with ns-3's TcpSocketBase (TcpSocketFactory) and
with BsdTcpSocket, both after BsdTcpHelper::ConfigureDefaults (the attributes ns-3 offers set to
BSD's values): what the subclass changes. Prints the times of the client's SYNs, data segments and
failure. Run: ./testbed python tools/bsd-tcp-vs-ns3.py"""
import testbed
import cppyy
cppyy.cppdef(r'''
#include "ns3/bsd-tcp-helper.h"
#include "ns3/bsd-tcp-socket-factory.h"
#include "ns3/bsd-tcp-socket.h"
using namespace ns3;
namespace chk {
struct Run {
  std::vector<std::string> out;
  Ptr<Socket> client, listener, accepted;
  void Tx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>) {
    std::ostringstream o; o << Simulator::Now().GetSeconds() << "s " << (h.GetFlags() & TcpHeader::SYN ? "SYN" : "data") << " " << p->GetSize();
    if (p->GetSize() > 0 || (h.GetFlags() & TcpHeader::SYN)) out.push_back(o.str()); }
  void Fail(Ptr<Socket>) { std::ostringstream o; o << Simulator::Now().GetSeconds() << "s FAILED"; out.push_back(o.str()); }
  void Acc(Ptr<Socket> s, const Address&) { accepted = s; }
  // scenario: 0 = silent peer after 2 s (retransmissions), 1 = small window + lost update, 2 = unreachable (SYN)
  void Go(bool bsd, int scenario) {
    BsdTcpHelper::ConfigureDefaults(8192, scenario == 1 ? 2500 : 8192);
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1000));
    Config::SetDefault("ns3::ArpL3Protocol::RequestJitter", StringValue("ns3::ConstantRandomVariable[Constant=0]"));
    NodeContainer nodes; nodes.Create(2);
    SimpleNetDeviceHelper simple; simple.SetChannelAttribute("Delay", TimeValue(MilliSeconds(1)));
    NetDeviceContainer d = simple.Install(nodes);
    InternetStackHelper internet; internet.Install(nodes);
    Ipv4AddressHelper ip("10.1.0.0", "255.255.255.0");
    Ipv4Address server = ip.Assign(d).GetAddress(1);
    BsdTcpHelper::Install(nodes);
    TypeId f = bsd ? BsdTcpSocketFactory::GetTypeId() : TcpSocketFactory::GetTypeId();
    Ptr<RateErrorModel> toServer = CreateObject<RateErrorModel>();
    toServer->SetAttribute("ErrorRate", DoubleValue(1.0)); toServer->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    toServer->Disable(); d.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(toServer));
    Ptr<RateErrorModel> toClient = CreateObject<RateErrorModel>();
    toClient->SetAttribute("ErrorRate", DoubleValue(1.0)); toClient->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    toClient->Disable(); d.Get(0)->SetAttribute("ReceiveErrorModel", PointerValue(toClient));
    listener = Socket::CreateSocket(nodes.Get(1), f);
    listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 7)); listener->Listen();
    listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(), MakeCallback(&Run::Acc, this));
    client = Socket::CreateSocket(nodes.Get(0), f);
    client->TraceConnectWithoutContext("Tx", MakeCallback(&Run::Tx, this));
    client->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(), MakeCallback(&Run::Fail, this));
    client->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(), MakeCallback(&Run::Fail, this));
    if (scenario == 2) toServer->Enable();
    Simulator::Schedule(Seconds(1), [this, server]() { client->Bind(); client->Connect(InetSocketAddress(server, 7)); });
    if (scenario == 0) {
      Simulator::Schedule(Seconds(2), [toServer]() { toServer->Enable(); });
      Simulator::Schedule(Seconds(2), [this]() { client->Send(Create<Packet>(500)); });
    }
    if (scenario == 1) {
      Simulator::Schedule(Seconds(2), [this]() { client->Send(Create<Packet>(5000)); });
      Simulator::Schedule(Seconds(3) - MicroSeconds(1), [toClient]() { toClient->Enable(); });
      Simulator::Schedule(Seconds(3), [this]() { while (accepted->Recv()) {} accepted->SetRecvCallback(MakeCallback(&Run::Drain, this)); });
      Simulator::Schedule(Seconds(3) + MilliSeconds(2), [toClient]() { toClient->Disable(); });
    }
    Simulator::Stop(Seconds(scenario == 1 ? 60 : 600)); Simulator::Run(); Simulator::Destroy(); Config::Reset();
  }
  void Drain(Ptr<Socket> s) { while (s->Recv()) {} }
};
}
''')
names = ["silent peer from 2 s (one 500-byte write)", "small window, lost update (rcvbuf 2500, MSS 1000, 5000 bytes)",
         "unreachable server (connect at 1 s)"]
for scenario in range(3):
    for bsd in (False, True):
        r = cppyy.gbl.chk.Run()
        r.Go(bsd, scenario)
        print(f"{names[scenario]} | {'BsdTcpSocket' if bsd else 'ns-3 TcpSocketBase'}: " + ", ".join(str(x) for x in r.out))
