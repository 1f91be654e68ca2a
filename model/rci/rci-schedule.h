/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RCI_SCHEDULE_H
#define TESTBED_RCI_SCHEDULE_H

#include "ns3/nstime.h"

#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed-rci
 * The frame schedule of an RCI component: schedule sheets and Control.
 */

namespace ns3
{

/**
 * @defgroup testbed-rci RCI: TNO's real-time component layer over the RTI
 * @ingroup testbed
 */

/**
 * @ingroup testbed-rci
 * @brief The frame schedule of an RCI component ([TNO03]): the time axis is cut into equal
 * frames; in each frame Update, Output and Sync actions run at fixed offsets, every frame.
 *
 * A schedule sheet is an ASCII file, one statement per line; '#' starts a comment; blank lines
 * are ignored; times are numbers with an ns-3 unit (10ms, 250us, 0.5s):
 *
 *     frame 10ms                 # the frame length (once, before the actions)
 *     update  inputs   0ms       # read remote data, process callbacks, advance time
 *     output  state    6ms       # send the changed attributes
 *     sync    visual   8ms       # a user callback
 *
 * An action is KIND NAME OFFSET with KIND one of update, output, sync, NAME an identifier
 * (letters, digits, '_', '-') unique in the sheet, and 0 <= OFFSET < frame. At least one action,
 * at most MAX_ACTIONS. A leading UTF-8 byte order mark is ignored.
 * Actions run in offset order (sheet order at equal offsets). A bad sheet gives an error naming
 * the file and the line.
 */
class RciSchedule
{
  public:
    /**
     * Shortest frame a sheet may declare (Parse): 100 us, a thousandth of the fighter sheet's
     * frame (100 ms, tno-schedulers) and of the order of a PC's wake-up latency; a shorter frame
     * is no schedule a PC could keep (a 1 ns frame schedules 10^9 actions per simulated second
     * and the run never ends).
     */
    static constexpr int64_t MIN_FRAME_NS = 100000;
    /** Longest frame: one hour (far beyond any real-time frame; the int64 arithmetic of the
     * action times stays exact). */
    static constexpr int64_t MAX_FRAME_NS = 3600000000000LL;
    /**
     * Most actions a sheet may declare (Parse): 1000, hundreds of times the fighter sheet's
     * (tno-schedulers) and more than a frame's work of any RCI component of [TNO03]; every
     * action is simulator events in every frame of the run.
     */
    static constexpr uint32_t MAX_ACTIONS = 1000;
    /** Longest sheet file a program reads (bytes): 1 MiB, room for MAX_ACTIONS lines with
     * comments. */
    static constexpr uint64_t MAX_SHEET_BYTES = 1 << 20;

    /** The kind of an action. */
    enum Kind
    {
        UPDATE, //!< read remote data, process callbacks, advance time to the scheduled time
        OUTPUT, //!< send changed attributes
        SYNC    //!< a user callback
    };

    /** One action of the frame. */
    struct Action
    {
        Kind kind;        //!< what
        std::string name; //!< its name
        Time offset;      //!< its offset in the frame
    };

    RciSchedule();

    /**
     * @brief Parse a schedule sheet.
     * @param text the sheet's text
     * @param origin the file name, for messages
     * @param out the schedule (set only on success)
     * @param error "origin:line: what is wrong" on failure
     * @return true on success
     */
    static bool Parse(const std::string& text,
                      const std::string& origin,
                      RciSchedule& out,
                      std::string& error);

    /**
     * @brief Read a schedule sheet from a file; aborts with the error (file and line) if the
     * file cannot be read or is bad.
     * @param path the file
     * @return the schedule
     */
    static RciSchedule LoadFile(const std::string& path);

    /**
     * @brief The RCI Control call: n actions of each kind spread evenly over the frame, in the
     * order update, output, sync (action i of N at offset i x frame / N).
     * @param frame the frame length (> 0)
     * @param updates Update actions
     * @param outputs Output actions
     * @param syncs Sync actions
     * @return the schedule
     */
    static RciSchedule Control(Time frame, uint32_t updates, uint32_t outputs, uint32_t syncs);

    /** @return the frame length */
    Time GetFrame() const;
    /** @return the actions in execution order */
    const std::vector<Action>& GetActions() const;
    /**
     * @brief The name of a kind as a sheet writes it.
     * @param kind the kind
     * @return "update", "output" or "sync"
     */
    static std::string KindName(Kind kind);

  private:
    Time m_frame;                  //!< frame length
    std::vector<Action> m_actions; //!< in execution order
};

} // namespace ns3

#endif /* TESTBED_RCI_SCHEDULE_H */
