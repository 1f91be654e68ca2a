/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_NODE_CLOCK_H
#define TESTBED_NODE_CLOCK_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <vector>

/**
 * @file
 * @ingroup testbed-rci
 * A node's wallclock: offset, crystal drift, a rate correction (NTP's slewing and frequency
 * discipline), or a clock card's common time base.
 */

namespace ns3
{

/**
 * @ingroup testbed-rci
 * @brief A node's wallclock against true (simulation) time.
 *
 * The clock reads local(t) = l_i + r_i (t - t_i) on its current piece i, a piecewise-linear
 * function of true time that starts at local(0) = Offset with rate 1 + Drift (the crystal's
 * error, ppm). Its owner changes the rate from now on with SetCorrection (the kernel's
 * adjtime()/ntp_adjtime() slew and frequency correction, ppm, limited to +-MaxSlew): the rate
 * becomes 1 + Drift + correction. An NtpClient does that once a second (Discipline Ntp). The
 * clock never steps: it is continuous and, with |correction| <= MaxSlew < 1e6 ppm, increasing,
 * so ToTrueTime inverts it exactly on the past and extrapolates the current rate into the
 * future (a later correction moves the true time at which a future reading comes: a timer armed
 * for it fires by the clock of its arming, as a kernel timer set on an absolute wallclock time
 * does between two adjustments).
 *
 * A clock card (Discipline ClockCard) is a common time base: every host that reads it reads the
 * same object (share one NodeClock between the hosts), so every host reads the same time; its
 * readings are truncated to Resolution and each read costs ReadCost (a register read on the
 * card instead of a system call; RciFederate charges it per clock read).
 */
class NodeClock : public Object
{
  public:
    /** How the clock is kept on time. */
    enum Discipline : uint8_t
    {
        NONE,       //!< free running
        NTP,        //!< corrected by an NTP client (NtpClient) over the network
        CLOCK_CARD, //!< a synchronised clock card: a common time base
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NodeClock();
    ~NodeClock() override;

    /**
     * @brief Choose a discipline (the attribute Discipline).
     * @param d the discipline
     */
    void SetDiscipline(Discipline d);
    /** @return the discipline */
    Discipline GetDiscipline() const;

    /**
     * @brief The local clock's reading at a true time (truncated to Resolution).
     * @param t true (simulation) time (>= 0)
     * @return the local time
     */
    Time GetLocalTime(Time t);

    /** @return the local clock's reading now */
    Time Now();

    /**
     * @brief The first true time at which the local clock reads @p local (on the current piece's
     * rate for a time beyond the last change).
     * @param local a local time
     * @return the true (simulation) time
     */
    Time ToTrueTime(Time local);

    /**
     * @brief Change the rate correction from now on (the kernel's slew plus frequency
     * correction): the clock then runs at 1 + Drift + the correction, clamped to +-MaxSlew.
     * @param ppm the correction (parts per million)
     * @return the correction applied (ppm, after the clamp)
     */
    double SetCorrection(double ppm);

    /** @return the rate correction in force now (ppm) */
    double GetCorrection() const;

    /** @return the largest |correction| applied so far (ppm) */
    double GetMaxCorrection() const;

    /** @return the cost of one reading (0: the host's system call) */
    Time GetReadCost() const;

  protected:
    void DoDispose() override;

  private:
    /** One piece of the clock: from true time t on, local = l + rate (t' - t). */
    struct Piece
    {
        double t;    //!< true time at its start (s)
        double l;    //!< local time at its start (s)
        double rate; //!< d local / d true
    };

    /** Start the pieces from the attributes (first use). */
    void Init();
    /**
     * The local time before truncation.
     * @param t true time (s)
     * @return local time (s)
     */
    double Local(double t);

    Time m_offset;              //!< Offset
    double m_driftPpm;          //!< Drift
    Discipline m_discipline;    //!< Discipline
    double m_maxSlewPpm;        //!< MaxSlew
    Time m_resolution;          //!< Resolution
    Time m_readCost;            //!< ReadCost
    std::vector<Piece> m_piece; //!< the pieces, in time order
    double m_correction{0};     //!< the correction in force (ppm)
    double m_maxCorrection{0};  //!< largest |correction| applied
};

} // namespace ns3

#endif /* TESTBED_NODE_CLOCK_H */
