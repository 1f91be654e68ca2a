/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FULL_DUPLEX_ETHERNET_NET_DEVICE_H
#define TESTBED_FULL_DUPLEX_ETHERNET_NET_DEVICE_H

#include "ethernet-port.h"
#include "frame-descriptor.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

/**
 * @file
 * @ingroup testbed-ethernet
 * A lean full-duplex Ethernet port: one simulator event per frame and hop.
 */

namespace ns3
{

class FullDuplexEthernetChannel;
class NetDeviceQueueInterface;

/**
 * @ingroup testbed-ethernet
 * @brief One end of a full-duplex Ethernet link (a NIC or a switch port), lean: one simulator
 * event per frame and hop, no serialization, no copy, no ns-3 Queue.
 *
 * A full-duplex IEEE 802.3 MAC never senses carrier and never collides: a frame is sent as soon
 * as the transmitter is free, and the link's two directions are independent (a frame to the
 * switch and one from it cross each other without interaction). The timing is that of the wire
 * (EthernetFraming): a frame of P payload octets is 14 octets of header, the payload padded to
 * 46, and a 4-octet FCS (64 to 1518 octets; an 802.1Q tag travels inside the payload, up to
 * 1522), preceded by 8 octets of preamble and SFD and followed by the 12-octet (96 bit times)
 * interframe gap. Its last bit reaches the peer (8 + frame) x 8 bit times after its first left,
 * plus the cable's delay; the next frame starts no earlier than 96 bit times after that last
 * bit left. A 100-octet IP
 * datagram thus occupies 138 octet times: 1.104 us at 1 Gbit/s, 11.04 us at 100 Mbit/s.
 *
 * Since the transmitter is a FIFO server of known service times, a frame's departure, and hence
 * its arrival at the peer, is known when it is handed to the device: the device schedules the
 * arrival at once (the one event of the hop) and only remembers when its transmitter becomes
 * free. The transmit queue is a drop-tail queue of MaxQueueFrames frames, counted exactly as in
 * the module's 802.3 device (EthernetNetDevice in full duplex over an ns-3 DropTailQueue): a
 * frame leaves the queue when the previous frame's last bit has left (then waits out the gap as
 * the transmitter's current frame), or at once if the transmitter is idle; a frame that finds
 * MaxQueueFrames frames waiting is dropped (MacTxDrop). The device keeps the times at which the
 * last MaxQueueFrames accepted frames leave the queue; nothing else per frame.
 *
 * Packets are neither copied nor serialized: the packet handed to Send reaches the peer's
 * receive callbacks as it is (a Ptr<const Packet>; ns-3's upper layers copy before they change
 * a packet), and SendShared lets one packet go out of several ports (a switch) unchanged. Only a
 * payload shorter than 46 octets is copied, on reception, to reach the upper layers with its
 * padding as from a real NIC. The
 * Ethernet header and trailer are built only for the Sniffer and PromiscSniffer traces (pcap),
 * and only while something is connected to them; the transmit side is written when the frame is
 * queued.
 *
 * Flow control: when a NetDeviceQueueInterface is aggregated to the device (EthernetLinkHelper
 * does, as ns-3's device helpers do), the device stops its transmit queue when a frame fills the
 * MaxQueueFrames places, so that the traffic-control layer keeps the next packets in its queue
 * disc instead of handing them over to be dropped, and wakes it when the oldest waiting frame
 * leaves the queue (one event per stop). Without one (a switch port) nothing is stopped: the
 * switch drops at the port as a switch does.
 *
 * Frames of a family that differ only in a few octets (FrameTemplate: [MEGA06]'s send_udp
 * datagrams) may travel as FrameDescriptor (SendFrame) instead of Packets, with the same timing,
 * queue and counters; a receiver that takes descriptors registers with SetFrameReceiveCallback,
 * everywhere else a descriptor becomes the same octets as a Packet (FrameTemplate::MakePacket).
 */
class FullDuplexEthernetNetDevice : public EthernetPort
{
  public:
    /// Counters (since the start).
    /// (txFrames: frames accepted for transmission; rxFrames: frames received, any destination.)
    struct Stats : public EthernetPort::Counters
    {
        uint64_t txDrops{0}; //!< frames dropped: queue full, too large or link down
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    FullDuplexEthernetNetDevice();
    ~FullDuplexEthernetNetDevice() override;

    /**
     * @brief Attach to a cable (the link comes up when both ends are attached).
     * @param channel the cable
     */
    void Attach(Ptr<FullDuplexEthernetChannel> channel);

    /**
     * @brief The link is up (called by the channel when its second end attaches).
     * @param peer the other end
     */
    void LinkUp(Ptr<FullDuplexEthernetNetDevice> peer);

    /** @return the other end of the link (null before it is up) */
    Ptr<FullDuplexEthernetNetDevice> GetPeer() const;

    /** @return the link rate (Attribute DataRate) */
    DataRate GetDataRate() const;
    /** @return true: this MAC is full duplex */
    bool IsFullDuplex() const override;
    /** @return the link rate (Attribute DataRate) */
    DataRate GetLinkRate() const override;

    /**
     * @brief The context (simulator lane) of the events that deliver frames to this end: its
     * node's id unless set (a switch gives each port its own, so that its per-frame events
     * fall in the ingress port's lane under LeanSimulatorImpl's lane order).
     * @param context the context
     */
    void SetReceiveContext(uint32_t context);

    /**
     * @brief Send a frame without taking the packet over: it is not changed (and may be sent
     * through other ports too).
     * @param packet the payload (after the Ethernet header)
     * @param source the source address
     * @param dest the destination address
     * @param protocol the EtherType
     * @return false if dropped (queue full, too large, link down)
     */
    bool SendShared(Ptr<const Packet> packet,
                    Mac48Address source,
                    Mac48Address dest,
                    uint16_t protocol) override;

    /**
     * @brief Send a frame given by its descriptor (a FrameTemplate and its variable octets):
     * the same timing, queue and counters as a packet of the same size, without an ns-3 Packet.
     * @param frame the frame
     * @param source the source address
     * @param dest the destination address
     * @return false if dropped (queue full, too large, link down)
     */
    bool SendFrame(const FrameDescriptor& frame, Mac48Address source, Mac48Address dest) override;

    /**
     * @brief A frame from a peer simulated in another process (a run split over processes,
     * doc/mega.rst): its last bit reaches this end now, as from the link.
     * @param packet the payload
     * @param source the source address
     * @param dest the destination address
     * @param protocol the EtherType
     */
    void Deliver(Ptr<const Packet> packet,
                 Mac48Address source,
                 Mac48Address dest,
                 uint16_t protocol);

    /**
     * @brief When the last bit of the last frame this end accepted reaches the peer (the time
     * of the event that delivers it).
     * @return the time
     */
    Time GetLastArrival() const;

    /** @return frames waiting in the transmit queue now */
    uint32_t GetQueueLength() const;

    /** @return the counters */
    const Stats& GetStats() const;
    const Counters& GetCounters() const override;

    // --- NetDevice ----------------------------------------------------------------------------
    Ptr<Channel> GetChannel() const override;
    bool IsLinkUp() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;

    /**
     * TracedCallback signature of FrameTx: a frame on the wire.
     * @param packet the payload
     * @param start when its preamble starts
     * @param end when its last bit leaves
     */
    typedef void (*FrameTxCallback)(Ptr<const Packet> packet, Time start, Time end);

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    /**
     * The transmitter takes a frame (or drops it): its timing and the queue.
     * @param payload the payload's octets
     * @param protocol the EtherType
     * @param arrival set to the time step at which its last bit reaches the peer
     * @return false if it is dropped (queue full, too large, link down)
     */
    bool Admit(uint32_t payload, uint16_t protocol, int64_t& arrival);

    /**
     * Flow control after a frame is accepted: stop the transmit queue if the frame filled it
     * (a NetDeviceQueueInterface is aggregated), and wake it when the oldest frame leaves.
     * @param now the time (ps)
     */
    void StopIfFull(int64_t now);

    /** The oldest waiting frame has left the queue: wake the transmit queue (or wait more). */
    void WakeQueue();

    /**
     * A frame given by its descriptor has reached this end.
     * @param frame the frame
     * @param source the source address
     * @param dest the destination address
     */
    void ReceiveFrame(FrameDescriptor frame, Mac48Address source, Mac48Address dest);

    /**
     * A frame's last bit has reached this end.
     * @param packet the payload
     * @param source the source address
     * @param dest the destination address
     * @param protocol the EtherType
     */
    void Receive(Ptr<const Packet> packet,
                 Mac48Address source,
                 Mac48Address dest,
                 uint16_t protocol);

    /**
     * The whole frame for the sniffers (pcap): header, payload padded to 46, FCS (zero).
     * @param packet the payload
     * @param source the source address
     * @param dest the destination address
     * @param protocol the EtherType
     * @return the frame
     */
    static Ptr<Packet> BuildFrame(Ptr<const Packet> packet,
                                  Mac48Address source,
                                  Mac48Address dest,
                                  uint16_t protocol);

    /**
     * Duration of some bits at the link rate.
     * @param bits the bits
     * @return picoseconds (rounded up)
     */
    int64_t BitsToPs(uint64_t bits) const;
    /**
     * Attribute MaxQueueFrames's setter: set before the first frame (after the link is up it
     * empties the queue's record).
     * @param frames the queue's places
     */
    void SetMaxQueueFrames(uint32_t frames);
    /** @return Attribute MaxQueueFrames */
    uint32_t GetMaxQueueFrames() const;
    /**
     * Attribute DataRate's setter.
     * @param rate the link rate
     */
    void SetDataRate(DataRate rate);

    // configuration
    DataRate m_rate;       //!< DataRate
    uint64_t m_bps{0};     //!< its bits per second (read per frame)
    uint32_t m_queueLimit; //!< MaxQueueFrames

    // link
    Ptr<FullDuplexEthernetChannel> m_channel; //!< the cable
    Ptr<FullDuplexEthernetNetDevice> m_peer;  //!< the other end
    uint32_t m_peerContext{0};                //!< the peer's receive context (event context)
    uint32_t m_receiveContext{UINT32_MAX};    //!< SetReceiveContext (UINT32_MAX: the node's id)
    int64_t m_delayPs{0};                     //!< the cable's delay (ps)
    int64_t m_stepPs{1000};                   //!< one time step of the simulator (ps)

    // transmitter (picoseconds: exact at 10 Mbit/s to 100 Gbit/s)
    int64_t m_txStart;            //!< when the last accepted frame's preamble starts
    int64_t m_txFree;             //!< when the transmitter can start the next frame (gap done)
    int64_t m_lastBitEnd;         //!< when the last accepted frame's last bit leaves
    std::vector<int64_t> m_leave; //!< queue departures of the last MaxQueueFrames frames
    uint32_t m_head{0};           //!< the oldest of them

    Ptr<NetDeviceQueueInterface> m_queueInterface; //!< flow control (may be null)
    bool m_wakePending{false};                     //!< a WakeQueue event is scheduled

    TracedCallback<Ptr<const Packet>, Time, Time> m_frameTxTrace; //!< FrameTx

    Stats m_stats; //!< counters
};

} // namespace ns3

#endif /* TESTBED_FULL_DUPLEX_ETHERNET_NET_DEVICE_H */
