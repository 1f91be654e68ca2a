/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_MULTICAST_LOAD_SOURCE_H
#define TESTBED_MULTICAST_LOAD_SOURCE_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

/**
 * @file
 * @ingroup testbed-apps
 * The aggregate multicast load of many senders, as one frame source.
 */

namespace ns3
{

class NetDevice;
class Packet;

/**
 * @ingroup testbed-apps
 * @brief The aggregate multicast traffic of the senders that an experiment does not simulate
 * one by one: UDP/IPv4 multicast frames at Rate frames/s from one device.
 *
 * [MEGA06] ran up to 10^6 send_udp processes on 207 PCs, one packet a second each. An
 * experiment that looks at a few PCs needs the others only as the load they put on the
 * network. Their packets are independent (each process has its own phase and jitter), so
 * their superposition is a Poisson stream (Poisson=true, exponential gaps of mean 1/Rate;
 * false: exactly periodic). Each frame is a copy of one prebuilt PacketSize-octet IPv4/UDP
 * datagram to Group:Port (the send_udp format, node id NodeId), sent on the node's Device
 * straight to the group's multicast MAC address, without the node's IP stack: the source has no
 * cost model, it stands for a whole population of senders.
 */
class MulticastLoadSource : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    MulticastLoadSource();
    ~MulticastLoadSource() override;

    /**
     * @brief Frames sent.
     * @return the count
     */
    uint64_t GetSent() const;

    /**
     * @brief Assign fixed random variable stream numbers.
     * @param stream first stream index
     * @return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /** Send one frame and schedule the next. */
    void SendOne();
    /** Schedule the next frame. */
    void ScheduleNext();

    double m_rate;                        //!< Rate (frames/s)
    bool m_poisson;                       //!< Poisson
    Ipv4Address m_group;                  //!< Group
    uint16_t m_port;                      //!< Port
    uint32_t m_packetSize;                //!< PacketSize
    uint32_t m_deviceIndex;               //!< Device
    uint32_t m_nodeId;                    //!< NodeId in the payload
    Ptr<ExponentialRandomVariable> m_gap; //!< gaps (s)
    Ptr<NetDevice> m_device;              //!< the device
    Ptr<Packet> m_template;               //!< the datagram
    Address m_destination;                //!< the group's MAC address on the device
    EventId m_next;                       //!< next frame
    uint64_t m_sent;                      //!< counter
};

} // namespace ns3

#endif /* TESTBED_MULTICAST_LOAD_SOURCE_H */
