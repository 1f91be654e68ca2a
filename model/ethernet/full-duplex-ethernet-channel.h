/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_FULL_DUPLEX_ETHERNET_CHANNEL_H
#define TESTBED_FULL_DUPLEX_ETHERNET_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <array>

/**
 * @file
 * @ingroup testbed-ethernet
 * The cable of a full-duplex Ethernet link: two stations, one pair per direction.
 */

namespace ns3
{

class FullDuplexEthernetNetDevice;

/**
 * @ingroup testbed-ethernet
 * @brief The cable between the two ends of a full-duplex Ethernet link
 * (FullDuplexEthernetNetDevice): a propagation delay, one direction per pair, nothing shared.
 *
 * It only records the two devices and the delay; the devices themselves time their frames (one
 * simulator event per frame and direction, see FullDuplexEthernetNetDevice).
 */
class FullDuplexEthernetChannel : public Channel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    FullDuplexEthernetChannel();
    ~FullDuplexEthernetChannel() override;

    /**
     * @brief Attach a device (at most two; the link comes up with the second).
     * @param device the device
     */
    void Attach(Ptr<FullDuplexEthernetNetDevice> device);

    /**
     * @brief The other end of the link.
     * @param device one end
     * @return the other end (null if not attached yet)
     */
    Ptr<FullDuplexEthernetNetDevice> GetPeer(Ptr<const FullDuplexEthernetNetDevice> device) const;

    /** @return the propagation delay (Attribute Delay) */
    Time GetDelay() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    std::array<Ptr<FullDuplexEthernetNetDevice>, 2> m_devices; //!< the two ends
    std::size_t m_nDevices{0};                                 //!< attached so far
    Time m_delay;                                              //!< propagation delay
};

} // namespace ns3

#endif /* TESTBED_FULL_DUPLEX_ETHERNET_CHANNEL_H */
