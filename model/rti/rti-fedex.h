/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RTI_FEDEX_H
#define TESTBED_RTI_FEDEX_H

#include "rti-connection.h"
#include "rti-settings.h"
#include "rti-time-manager.h"

#include "ns3/host-process.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/socket.h"

#include <deque>
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
 * Launched by RtiExec::CreateFederation. Management requests (join, publish, subscribe) are
 * calls, not network messages: they happen before a measurement and their traffic is not
 * modelled. Time management (RtiLrc::EnableTimeManagement) is message traffic: the enable,
 * requests, notes and grants travel on each federate's connection to the Fedex and are read by its
 * process.
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
     * @brief Open a federate's time-management connection (called by
     * RtiLrc::EnableTimeManagement, which then sends ENABLE_TIME_REGULATION on it): TCP to the
     * Fedex's port (RtiSettings Port) over the network transports (loopback from its own host),
     * a shared-memory queue pair on RTI-SM. The Fedex keeps the federation's time management
     * (RtiTimeManager, central GALT). When it reads the federate's ENABLE_TIME_REGULATION
     * (lookahead) it makes the federate time-regulating and time-constrained at logical time 0
     * and answers TIME_REGULATION_ENABLED on the connection (the RTI's callback: the federate's
     * time management is enabled when it has read that answer). From then on the federate's
     * TimeAdvanceRequests and notes (TSO_NOTE_SENT, TSO_NOTE_READ) reach the Fedex as RTI
     * messages on that connection and the grants come back on it (RtiLrc::RequestAdvance,
     * NoteSent, NoteRead): each message costs its sender the send side and its reader the read
     * side of the RTI's layers and the host's socket (or semaphore) work
     * (RtiLrc::SendSideCost, ReadSideCost), the Fedex's process included.
     *
     * The grant rule: a TimeAdvanceRequest(t) is granted when every other regulating
     * federate's bound exceeds t and every update stamped <= t sent to the federate has been
     * read by it (as the Fedex knows from the notes it has read). A federate whose enable the
     * Fedex has not read yet is not regulating (IEEE 1516): it does not hold the others back.
     * @param lrc its local component (joined)
     */
    void OpenTimeManagement(Ptr<RtiLrc> lrc);
    /** @return time advance grants given */
    uint64_t GetGrants() const;
    /** @return time-management messages (requests and notes) the Fedex has read */
    uint64_t GetTimeMessages() const;

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

    /** Grant every advancing federate that can be granted: each grant is a message sent. */
    void GrantAll();
    /**
     * A federate's time-management connection has data.
     * @param conn the connection
     */
    void DataAvailable(Ptr<RtiConnection> conn);
    /**
     * A federate's time-management connection was accepted (TCP).
     * @param socket the socket
     * @param from its peer
     */
    void HandleAccept(Ptr<Socket> socket, const Address& from);
    /**
     * Send a message to a time-managed federate on its connection: the send side in the Fedex's
     * process, then the rest of the send off its path.
     * @param h the federate's handle
     * @param msg the message
     */
    void SendTo(uint32_t h, const RtiMessage& msg);
    /** Read the next time-management message (or block). */
    void ReadNext();
    /** The read side of the front message is paid: act on it. */
    void Handle();

    /** A time-management message waiting to be read. */
    struct Inbound
    {
        RtiMessage msg;          //!< the message
        Ptr<RtiConnection> conn; //!< the connection it came on
    };

    Ptr<Socket> m_listen;                                       //!< TCP listening socket (network)
    std::vector<Ptr<RtiConnection>> m_tmConns;                  //!< connections the Fedex reads
    std::map<uint32_t, Ptr<RtiConnection>> m_replyConn;         //!< handle -> its connection
    std::deque<Inbound> m_tmInbox;                              //!< messages waiting to be read
    bool m_tmReading{false};                                    //!< the read loop is active
    uint64_t m_tmMessages{0};                                   //!< counter
    std::map<uint32_t, std::multiset<LogicalTime>> m_readEarly; //!< read before the note came

    RtiTimeManager m_tm; //!< time management by handle (logical time in ns)
    uint64_t m_grants;   //!< counter
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
