/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_BOOSTED_TC_TIMER_H
#define TESTBED_BOOSTED_TC_TIMER_H

#include "tc-timer.h"

/**
 * @file
 * @ingroup testbed-timer
 * [GINE14]'s Boosted TCTimer: a TCTimer that corrects its own rate.
 */

namespace ns3
{

/**
 * @ingroup testbed-timer
 * @brief [GINE14]'s Boosted TCTimer: a TcTimer that measures its own period just before the
 * emulation starts and corrects the tc rate to compensate.
 *
 * On first use it runs the stream at Rate from Phase for CalibrationFirings packets and times
 * them as the emulator would: the reading thread takes a timestamp (gettimeofday, resolution
 * TimestampResolution) when it wakes for the first and for the last packet (MeasurementLatency
 * after the arrival). The measured period P = (t_N - t_0) / N against the requested
 * P0 = 8 PacketSize / Rate gives the corrected rate b' = b P / P0 (whole bit/s, then tc's whole
 * bytes/s); the stream restarts at b' (a fresh bucket) when the calibration ends. The remaining
 * error is what one multiplicative correction leaves: the rate table's tick truncation at b',
 * the lateness lost per packet (which does not scale with the rate) and the measurement's own
 * error.
 */
class BoostedTcTimer : public TcTimer
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    BoostedTcTimer();
    ~BoostedTcTimer() override;

    int64_t AssignStreams(int64_t stream) override;

    /**
     * @brief The period measured by the calibration (runs it if not done yet).
     * @return the measured period
     */
    Time GetMeasuredPeriod();

    /**
     * @brief The corrected rate in bit/s (runs the calibration if not done yet).
     * @return the corrected rate
     */
    DataRate GetCorrectedRate();

  protected:
    void DoDispose() override;
    void Prepare() override;

  private:
    uint32_t m_calibrationFirings;                  //!< N
    Ptr<RandomVariableStream> m_measurementLatency; //!< reader wake-up at a timestamp (s)
    Time m_timestampResolution;                     //!< resolution of the timestamps
    Time m_measuredPeriod;                          //!< P
    DataRate m_correctedRate;                       //!< b'
};

} // namespace ns3

#endif /* TESTBED_BOOSTED_TC_TIMER_H */
