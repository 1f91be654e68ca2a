/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_TNO_LAN_H
#define TESTBED_TNO_LAN_H

#include "ns3/host-platform.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

/**
 * @file
 * The [TNO03] programs' machines and 100 Mbit/s LAN (tno-pipeline, tno-jitter, tno-schedulers).
 */

namespace ns3
{
namespace tno
{

/**
 * Join machines by a 100 Mbit/s LAN and number them 10.3.0.0/24.
 *
 * A switch: store and forward, full duplex; its switching engine takes 10 us per frame
 * ([TNO03]: "a switch adds about 10 us of buffering latency"). A hub: one collision domain, the
 * NICs half duplex (a hub port does not negotiate; auto-negotiating NICs fall back to half by
 * parallel detection), CSMA/CD.
 *
 * @param machines the machines (with an Internet stack)
 * @param hub a repeater hub instead of a switch
 * @param stream first random stream of the Ethernet devices
 * @param devices if not null, receives the machines' devices (in machine order)
 * @return each machine's address
 */
std::vector<Ipv4Address> InstallLan(const NodeContainer& machines,
                                    bool hub,
                                    int64_t stream,
                                    NetDeviceContainer* devices = nullptr);

/**
 * Install the host platforms: machine 0 gets @p hostA, the others @p hostB; random streams
 * from 100, 20 per machine.
 * @param machines the machines
 * @param hostA host profile of machine 0
 * @param hostB host profile of the other machines
 * @return the platforms, in machine order
 */
std::vector<Ptr<HostPlatform>> InstallHosts(const NodeContainer& machines,
                                            const std::string& hostA,
                                            const std::string& hostB);

} // namespace tno
} // namespace ns3

#endif /* TESTBED_TNO_LAN_H */
