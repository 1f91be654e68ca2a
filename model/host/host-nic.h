/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_HOST_NIC_H
#define TESTBED_HOST_NIC_H

#include "ns3/address.h"
#include "ns3/data-rate.h"
#include "ns3/fast-path.h"
#include "ns3/frame-descriptor.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <memory>
#include <utility>

/**
 * @file
 * @ingroup testbed-host
 * The receive side of a network interface card and its driver on a host.
 */

namespace ns3
{

class EthernetPort;
class HostCpu;

/**
 * @ingroup testbed-host
 * @brief Receive path of a NIC: receive ring, interrupts with moderation, driver and kernel
 * packet-processing costs on the host's CPU.
 *
 * Frames that the NetDevice receives do not go straight up the stack. They wait in the NIC's
 * receive ring (RxRingSize descriptors; a frame that finds the ring full is dropped by the
 * hardware, at no CPU cost). The NIC raises an interrupt InterruptDelay after a frame arrives,
 * but never sooner than 1/MaxInterruptRate after the previous interrupt (interrupt moderation,
 * e.g. e1000's InterruptThrottleRate); frames arriving meanwhile share that interrupt.
 *
 * Two driver disciplines (Attribute Napi):
 *
 * - legacy (Napi=false, Linux 2.4/2.6 without NAPI): the interrupt handler (HARDIRQ class,
 *   InterruptCost + DriverCost per frame) takes up to MaxPacketsPerInterrupt frames from the
 *   ring into the backlog queue (BacklogLimit, Linux's netdev_max_backlog; full -> drop), and the
 *   NET_RX softirq (SOFTIRQ class, StackCost + StackCostPerByte per frame) passes them up the
 *   stack. Interrupts preempt the softirq and the softirq preempts processes: under a flood
 *   the CPU ends up in interrupt handlers and processes starve (receive livelock).
 * - NAPI (Napi=true): the interrupt handler (InterruptCost) masks the NIC's interrupts and
 *   schedules a poll; the softirq takes frames from the ring one by one (DriverCost + StackCost
 *   + StackCostPerByte each) and unmasks interrupts when the ring is empty. Under overload the
 *   ring overflows in hardware instead.
 *
 * After its processing a frame is handed to the node's traffic-control layer exactly as the
 * device would have handed it (HostPlatform interposes this model between device and stack).
 * Transmit costs are not modelled here: processes charge their send path themselves
 * (HostPlatform::GetSendCost), and the kernel's own replies (ICMP echo, TCP ACKs) are covered by
 * the receive processing of the packet that causes them.
 */
class HostNic : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    HostNic();
    ~HostNic() override;

    /** Callback that passes a processed frame up the stack (the traffic-control layer). */
    typedef Callback<void,
                     Ptr<NetDevice>,
                     Ptr<const Packet>,
                     uint16_t,
                     const Address&,
                     const Address&,
                     NetDevice::PacketType>
        DeliverCallback;

    /**
     * @brief Attach to the CPU that runs the handlers and to the upper layer.
     * @param cpu the host's CPU
     * @param device the NetDevice this NIC model belongs to
     * @param deliver where processed frames go
     */
    void Setup(Ptr<HostCpu> cpu, Ptr<NetDevice> device, DeliverCallback deliver);

    /**
     * @brief The device.
     * @return the NetDevice
     */
    Ptr<NetDevice> GetDevice() const;

    /**
     * Callback that may take a processed frame before it goes up the stack: it returns true if
     * it consumed the frame (the payload and the EtherType are its arguments).
     */
    typedef Callback<bool, Ptr<const Packet>, uint16_t> InterceptCallback;

    /**
     * @brief Let a callback take processed frames before the stack (HostPlatform installs its
     * UDP multicast bindings here, see HostPlatform::BindUdpMulticast).
     * @param intercept the callback (null: every frame goes up the stack)
     */
    void SetIntercept(InterceptCallback intercept);

    /**
     * @brief Entry point for frames from the device (a Node protocol handler).
     * @param device the receiving device
     * @param packet the frame's payload
     * @param protocol the EtherType
     * @param from source address
     * @param to destination address
     * @param packetType host, broadcast, multicast or other-host
     */
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType packetType);

    /**
     * @brief Entry point for frame descriptors from an Ethernet port (the lean full-duplex MAC
     * delivers them; EthernetPort::SetFrameReceiveCallback, HostPlatform installs it): the same
     * receive path as Receive, without an ns-3 Packet. A frame for another host's unicast
     * address is ignored, as the device would not pass it up.
     * @param device the receiving device
     * @param frame the frame
     * @param source its source address
     * @param dest its destination address
     */
    void ReceiveFrame(Ptr<EthernetPort> device,
                      const FrameDescriptor& frame,
                      Mac48Address source,
                      Mac48Address dest);

    /**
     * Callback that may take a processed frame descriptor before it goes up the stack: it
     * returns true if it consumed the frame.
     */
    typedef Callback<bool, const FrameDescriptor&> FrameInterceptCallback;

    /**
     * @brief Let a callback take processed frame descriptors before the stack (HostPlatform's
     * UDP multicast bindings); a descriptor not taken goes up the stack as a Packet.
     * @param intercept the callback (null: every descriptor goes up the stack)
     */
    void SetFrameIntercept(FrameInterceptCallback intercept);

    /**
     * @brief Assign fixed random variable stream numbers (only where ColdLines is set).
     * @param stream first stream index
     * @return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /** @return whether the receive path has a per-frame random part (ColdLines set) */
    bool HasVariability() const;

    /** @return frames dropped because the receive ring was full */
    uint64_t GetRxRingDrops() const;
    /** @return frames dropped because the backlog was full (legacy driver) */
    uint64_t GetBacklogDrops() const;
    /** @return interrupts raised */
    uint64_t GetInterrupts() const;
    /** @return wake-ups of the softirq daemon (SoftirqThread) */
    uint64_t GetSoftirqWakeUps() const;
    /** @return frames passed up the stack */
    uint64_t GetDelivered() const;
    /** @return frames received from the device (delivered + dropped + in flight) */
    uint64_t GetReceived() const;

    /**
     * TracedCallback signature for an interrupt.
     * @param [in] frames frames waiting in the ring when the handler ran
     */
    typedef void (*InterruptTracedCallback)(uint32_t frames);

    /**
     * TracedCallback signature for a frame passed up the stack.
     * @param [in] packet the frame
     * @param [in] latency time from arrival at the NIC to delivery to the stack
     */
    typedef void (*DeliverTracedCallback)(Ptr<const Packet> packet, Time latency);

  protected:
    void DoDispose() override;

  private:
    /** A received frame with its delivery arguments. */
    struct Frame
    {
        Ptr<NetDevice> device;    //!< device
        Ptr<const Packet> packet; //!< frame (null: desc)
        FrameDescriptor desc;     //!< the frame, when packet is null
        uint16_t protocol;        //!< EtherType
        /// A Packet's source and destination (null for a descriptor: fromMac and the device's
        /// own address). Out of line: two ns3::Address values (22 octets each, copied by an
        /// out-of-line constructor) would be copied with every move of a descriptor's Frame.
        std::unique_ptr<const std::pair<Address, Address>> addresses;
        Mac48Address fromMac;             //!< a descriptor's source
        NetDevice::PacketType packetType; //!< type
        Time arrival;                     //!< arrival at the NIC
        Time ready;                       //!< in the host's memory (RxDmaRate)
    };

    /**
     * Raise an interrupt if frames wait, interrupts are enabled and none is pending.
     * @param atOnce whether an interrupt due now may run at once, in the caller's event, when
     *        no CPU work item completes at this instant (the lean path's frame arrivals)
     */
    void MaybeInterrupt(bool atOnce = false);
    /**
     * MaybeInterrupt for a caller that has read the clock already (one read per event).
     * @param atOnce see MaybeInterrupt
     * @param now the current time (Simulator::Now())
     */
    void MaybeInterrupt(bool atOnce, Time now);
    /**
     * When a bundling NIC (BundleTimer) interrupts for the frames waiting: at once when the
     * newest is short or the bundle is full, else when the timer the newest restarted expires.
     * @return the time (from the newest frame's arrival in the host's memory)
     */
    Time BundleDue() const;
    /**
     * The interrupt fires: run the handler on the CPU.
     * @param now the current time (Simulator::Now())
     */
    void Interrupt(Time now);
    /** Legacy handler done: move its frames to the backlog. */
    void LegacyHandlerDone();
    /** Start the softirq if there is work and it is not running. */
    void MaybeSoftirq();
    /** One frame's softirq processing is done. */
    void SoftirqDone();
    /**
     * Pass a frame up.
     * @param frame the frame
     */
    void Deliver(const Frame& frame);
    /**
     * @param frame a frame
     * @return its payload as a Packet (made from the descriptor if need be)
     */
    static Ptr<const Packet> PacketOf(const Frame& frame);
    /**
     * The receive DMA of a frame that arrived now (RxDmaRate; frames one after the other).
     * @param payload the frame's payload octets (after the Ethernet header)
     * @param now the current time
     * @return when the frame is in the host's memory (now without a DMA stage)
     */
    Time DmaDone(uint32_t payload, Time now);
    /**
     * Time for the stack to process a frame.
     * @param frame the frame
     * @return the service time
     */
    Time StackTime(const Frame& frame) const;

    Ptr<HostCpu> m_cpu;                      //!< CPU running the handlers
    Ptr<NetDevice> m_device;                 //!< our device
    DeliverCallback m_deliver;               //!< upper layer
    InterceptCallback m_intercept;           //!< takes frames before the upper layer (may be null)
    FrameInterceptCallback m_frameIntercept; //!< takes descriptors before the upper layer
    std::deque<Frame> m_ring;                //!< receive ring
    std::deque<Frame> m_backlog;             //!< legacy: softirq input queue
    uint32_t m_handlerFrames;                //!< legacy: frames taken by the running handler
    bool m_irqPending;                       //!< an interrupt is scheduled
    bool m_irqMasked;                        //!< handler running or NAPI polling
    bool m_softirqBusy;                      //!< a softirq item is on the CPU
    bool m_softirqAwake;                     //!< SoftirqThread: the daemon is awake
    uint64_t m_softirqWakeUps;               //!< SoftirqThread: wake-ups of the daemon
    Time m_lastInterrupt;                    //!< time of the last interrupt
    fastpath::Event m_irqEvent;              //!< pending interrupt
    Callback<void> m_legacyHandlerDoneCb;    //!< LegacyHandlerDone, for the CPU
    Callback<void> m_pollCb;                 //!< MaybeSoftirq (NAPI handler done), for the CPU
    Callback<void> m_softirqDoneCb;          //!< SoftirqDone, for the CPU

    /**
     * TxFetchDelay's setter: kept, and applied to the device if it is set up.
     * @param delay the delay
     */
    void SetTxFetchDelay(Time delay);
    /** Apply TxFetchDelay to the device (an EthernetPort; another device only with 0). */
    void ApplyTxFetchDelay();

    DataRate m_rxDmaRate;        //!< RxDmaRate (0: none)
    Time m_rxDmaFree;            //!< when the receive DMA is free
    Time m_registerReadTime;     //!< RegisterReadTime
    Time m_txFetchDelay;         //!< TxFetchDelay
    uint32_t m_ringSize;         //!< RxRingSize
    double m_maxInterruptRate;   //!< MaxInterruptRate (0 = unlimited)
    Time m_interruptDelay;       //!< InterruptDelay
    double m_interruptCycles;    //!< InterruptCost
    double m_driverCycles;       //!< DriverCost
    double m_stackCycles;        //!< StackCost
    double m_stackCyclesPerByte; //!< StackCostPerByte
    bool m_napi;                 //!< Napi
    bool m_softirqThread;        //!< SoftirqThread
    uint32_t m_maxPerInterrupt;  //!< MaxPacketsPerInterrupt (0 = all)
    Time m_bundleTimer;          //!< BundleTimer (0 = no bundling)
    uint32_t m_bundleMax;        //!< BundleMax
    uint32_t m_bundleSmall;      //!< BundleSmallSize (octets)
    /// Octets of an Ethernet II header, counted by BundleSmallSize (the NIC's frame length)
    static constexpr uint32_t ETHERNET_HEADER = 14;
    uint32_t m_backlogLimit;               //!< BacklogLimit
    Ptr<RandomVariableStream> m_coldLines; //!< ColdLines (null: none)

    uint64_t m_received;     //!< counter
    uint64_t m_ringDrops;    //!< counter
    uint64_t m_backlogDrops; //!< counter
    uint64_t m_interrupts;   //!< counter
    uint64_t m_delivered;    //!< counter

    TracedCallback<Ptr<const Packet>> m_ringDropTrace;      //!< ring overflow
    TracedCallback<Ptr<const Packet>> m_backlogDropTrace;   //!< backlog overflow
    TracedCallback<uint32_t> m_interruptTrace;              //!< interrupts
    TracedCallback<Ptr<const Packet>, Time> m_deliverTrace; //!< deliveries
};

} // namespace ns3

#endif /* TESTBED_HOST_NIC_H */
