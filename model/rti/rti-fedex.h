/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_FEDEX_H
#define TESTBED_RTI_FEDEX_H

#include "rti-settings.h"
#include "rti-time-manager.h"

#include "ns3/host-process.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <map>
#include <set>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed-rti
 * The federation executive of the direct data path, and the RTI executive that launches it.
 */

namespace ns3
{

class RtiLrc;

/**
 * @ingroup testbed-rti
 * @brief The federation executive (Fedex) of one federation on the direct data path: the
 * federation-wide administration (joined federates, who publishes and who subscribes to which
 * class) in its own process with its own message queue. Every management operation (join,
 * publish, subscribe) is a request on that queue: the Fedex's process spends AdminCost on it,
 * then each local component concerned spends AdminCost to install the routes. Updates do not
 * pass through it.
 *
 * Launched by RtiExec::CreateFederation. Management requests are calls, not network messages:
 * they happen before a measurement and their traffic is not modelled (a documented gap).
 */
class RtiFedex : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiFedex();
    ~RtiFedex() override;

    /**
     * @brief Set up (done by RtiExec).
     * @param process the Fedex's process
     * @param settings the federation's settings
     * @param name the federation's name
     */
    void Setup(Ptr<HostProcess> process, Ptr<RtiSettings> settings, const std::string& name);

    /** @return the federation's name */
    std::string GetName() const;
    /** @return the settings */
    Ptr<RtiSettings> GetSettings() const;
    /** @return the Fedex's process */
    Ptr<HostProcess> GetProcess() const;
    /** @return the number of joined federates */
    uint32_t GetNFederates() const;
    /** @return management requests served */
    uint64_t GetRequests() const;

    /**
     * @brief A federate joins (called by RtiLrc::Join); its handle is 1, 2, ... in join order.
     * @param lrc its local component
     * @param name its name (unique in the federation)
     */
    void Join(Ptr<RtiLrc> lrc, const std::string& name);
    /**
     * @brief A federate publishes a class (called by RtiLrc::Publish).
     * @param lrc its local component
     * @param objectClass the class
     */
    void Publish(Ptr<RtiLrc> lrc, uint32_t objectClass);
    /**
     * @brief A federate subscribes to a class (called by RtiLrc::Subscribe).
     * @param lrc its local component
     * @param objectClass the class
     */
    void Subscribe(Ptr<RtiLrc> lrc, uint32_t objectClass);
    /**
     * @brief Whether a federate publishes a class.
     * @param lrc its local component
     * @param objectClass the class
     * @return true if it does
     */
    bool IsPublisher(Ptr<const RtiLrc> lrc, uint32_t objectClass) const;

    /**
     * @brief Make a federate time-regulating and time-constrained with a lookahead (the RCI's
     * HLA-TM scheduler). The Fedex keeps the federation's time management (RtiTimeManager,
     * central GALT): a federate may send timestamps of at least its output bound, and a
     * TimeAdvanceRequest(t) is granted when every other regulating federate's bound exceeds t
     * and every update stamped <= t sent to the federate has been read by it.
     * @param lrc its local component (joined)
     * @param lookahead its lookahead (>= 0)
     */
    void EnableTimeManagement(Ptr<RtiLrc> lrc, Time lookahead);
    /**
     * @brief TimeAdvanceRequest(t): a request on the Fedex's queue; the grant is a callback in
     * the federate's process (its LRC spends AdminCost on it).
     * @param lrc its local component (time-managed)
     * @param t the requested logical time (not before its current time)
     * @param granted called at the grant
     */
    void RequestAdvance(Ptr<RtiLrc> lrc, Time t, Callback<void> granted);
    /**
     * @brief A time-managed federate sends an update stamped ts: it is in flight to every
     * subscriber of the class until NoteRead (ts must not be below the sender's output bound).
     * @param lrc the sender
     * @param objectClass the class
     * @param ts the timestamp
     */
    void NoteSent(Ptr<RtiLrc> lrc, uint32_t objectClass, Time ts);
    /**
     * @brief A time-managed federate has read an update stamped ts.
     * @param lrc the reader
     * @param ts the timestamp
     */
    void NoteRead(Ptr<RtiLrc> lrc, Time ts);
    /** @return time advance grants given */
    uint64_t GetGrants() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * Queue a request in the Fedex's process, then charge each concerned LRC.
     * @param action what the request changes, run when the Fedex has processed it
     */
    void Request(std::function<void()> action);

    Ptr<HostProcess> m_process;                           //!< the Fedex process
    Ptr<RtiSettings> m_settings;                          //!< settings
    std::string m_name;                                   //!< federation name
    std::vector<Ptr<RtiLrc>> m_federates;                 //!< joined, by handle - 1
    std::set<std::string> m_names;                        //!< federate names
    std::map<uint32_t, std::vector<Ptr<RtiLrc>>> m_pub;   //!< class -> publishers
    std::map<uint32_t, std::vector<Ptr<RtiLrc>>> m_sub;   //!< class -> subscribers
    std::set<std::pair<const RtiLrc*, uint32_t>> m_isPub; //!< (lrc, class) published
    uint64_t m_requests;                                  //!< counter

    /** Grant every advancing federate that can be granted. */
    void GrantAll();

    RtiTimeManager m_tm; //!< time management by handle (logical time in ns)
    std::map<uint32_t, std::multiset<LogicalTime>> m_inFlight; //!< handle -> unread stamps (ns)
    std::map<uint32_t, Callback<void>> m_granted;              //!< handle -> pending grant callback
    uint64_t m_grants;                                         //!< counter
};

/**
 * @ingroup testbed-rti
 * @brief The RTI executive (RTIexec) of the direct data path: a process on one host that
 * launches a Fedex process for each federation created.
 */
class RtiExec : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RtiExec();
    ~RtiExec() override;

    /**
     * @brief Run the RTIexec on a host.
     * @param platform the host
     * @param settings the RTI's settings (DataPath Direct)
     */
    void Setup(Ptr<HostPlatform> platform, Ptr<RtiSettings> settings);

    /**
     * @brief Create a federation: launch its Fedex process on this host.
     * @param name the federation's name (unique)
     * @return the Fedex
     */
    Ptr<RtiFedex> CreateFederation(const std::string& name);

  protected:
    void DoDispose() override;

  private:
    Ptr<HostPlatform> m_platform;                   //!< the host
    Ptr<HostProcess> m_process;                     //!< the RTIexec process
    Ptr<RtiSettings> m_settings;                    //!< settings
    std::map<std::string, Ptr<RtiFedex>> m_fedexes; //!< federations
};

} // namespace ns3

#endif /* TESTBED_RTI_FEDEX_H */
