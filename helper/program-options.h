/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_PROGRAM_OPTIONS_H
#define TESTBED_PROGRAM_OPTIONS_H

#include "result-record.h"

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/profile.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup testbed
 * The command-line options of the experiment programs: typed, range-checked, self-describing.
 */

namespace ns3
{

/**
 * @ingroup testbed
 * @brief The options of an experiment program, parsed and checked in one place.
 *
 * Each option is declared with its type and its allowed range (or choices); Parse() reads the
 * command line through ns-3's CommandLine (so --help, --PrintGlobals, --RngRun, --RngSeed and
 * attribute defaults work as in every ns-3 program), then checks every given value itself:
 *
 * - an unsigned option refuses a sign ("-1", which CommandLine would wrap to 4294967295);
 * - every number must be whole text in the type's syntax ("12x" and "" are refused), finite,
 *   and inside the declared [min, max]; times and data rates in ns-3's syntax (50ms, 1Mbps);
 * - a choice option must be one of its choices;
 * - an unknown option name, and a malformed --RngRun/--RngSeed, are refused too.
 *
 * A refused value ends the program with exit status 2 and "error: --NAME=VALUE: why (allowed:
 * range)" on stderr, before any model sees it. `--describe` prints the program's options as JSON
 * (name, type, default, range or choices, help) and the fields of its result record (Record(),
 * declared by the code that writes them) and exits 0; `--check` checks the given options and
 * exits 0 without running anything: `./testbed sweep` and `./testbed validate` check a parameter
 * grid with both before running anything.
 *
 * Upper bounds say what the model can represent or what one machine's memory and time can hold;
 * the help text of each option gives the reason where it is not obvious.
 *
 * One spelling per setting: an option name means one setting with one type and unit in every
 * program (a time is a `time`, a bit rate a `rate`, every other number declares its unit, which
 * --describe gives). The settings every program shares are declared here once: --hostProfile
 * (AddHostProfile; PCs in another role: AddProfile), --hostSet (AddHostSet, applied by
 * WithHostSet), --rtiProfile, --rtiSet (AddRtiProfile, AddRtiSet, split by ParseSettings),
 * --profileFile (AddProfileFile); Parse() checks the profiles' names and the Name=Value syntax.
 * A renamed option stays for one release (AddDeprecated): its old spelling is rewritten to the
 * new one with a warning on stderr, and --describe lists it under "deprecated".
 *
 * @code
 * ProgramOptions opts("gine-timer", "GINE14 timer accuracy");
 * uint32_t firings = 1000;
 * opts.Add("firings", "timed firings per request", firings, 1, 1000000);
 * ResultRecord& rec = opts.Record();
 * rec.Declare("error_mean_us", ResultRecord::REAL, "mean firing error (us)");
 * opts.Parse(argc, argv);
 * opts.StartProgress(stopTime); // reports progress with --progress
 * ... rec.Set("error_mean_us", mean); rec.Write(opts.GetOutput());
 * @endcode
 */
class ProgramOptions
{
  public:
    /** Exit status of a program given bad arguments. */
    static constexpr int EXIT_BAD_ARGUMENTS = 2;

    /**
     * @brief Options of a program.
     * @param program the program's name
     * @param description what one run of it does
     */
    ProgramOptions(const std::string& program, const std::string& description);
    ~ProgramOptions();

    /**
     * @brief An unsigned integer option.
     * @param name the option's name (without "--")
     * @param help what it sets, with its unit
     * @param value where the value goes (its initial value is the default)
     * @param min smallest allowed value
     * @param max largest allowed value
     * @param unit the value's unit ("s", "bytes", "frames/s"; "" for a count): --describe
     *        gives it, and one option name has one unit in every program
     * @return this
     */
    ProgramOptions& Add(const std::string& name,
                        const std::string& help,
                        uint32_t& value,
                        uint32_t min,
                        uint32_t max,
                        const std::string& unit = "");
    /**
     * @brief A 64-bit unsigned integer option.
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default)
     * @param min smallest allowed value
     * @param max largest allowed value
     * @param unit the value's unit ("" for a count)
     * @return this
     */
    ProgramOptions& Add(const std::string& name,
                        const std::string& help,
                        uint64_t& value,
                        uint64_t min,
                        uint64_t max,
                        const std::string& unit = "");
    /**
     * @brief A signed integer option.
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default)
     * @param min smallest allowed value
     * @param max largest allowed value
     * @param unit the value's unit ("" for a count)
     * @return this
     */
    ProgramOptions& Add(const std::string& name,
                        const std::string& help,
                        int64_t& value,
                        int64_t min,
                        int64_t max,
                        const std::string& unit = "");
    /**
     * @brief A real-number option.
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default)
     * @param min smallest allowed value
     * @param max largest allowed value
     * @param unit the value's unit ("" for a count)
     * @return this
     */
    ProgramOptions& Add(const std::string& name,
                        const std::string& help,
                        double& value,
                        double min,
                        double max,
                        const std::string& unit = "");
    /**
     * @brief An unsigned option that is a number of repetitions the program runs itself, with
     * run numbers RngRun, RngRun + 1, ... (`--describe` marks it "repetitions": a sweep spaces
     * its own runs' RngRun values by it, so that no two runs share a run number).
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default)
     * @param min smallest allowed value
     * @param max largest allowed value
     * @return this
     */
    ProgramOptions& AddRepetitions(const std::string& name,
                                   const std::string& help,
                                   uint32_t& value,
                                   uint32_t min,
                                   uint32_t max);
    /**
     * @brief A boolean option (true/false/1/0; a bare --name means true).
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default)
     * @return this
     */
    ProgramOptions& Add(const std::string& name, const std::string& help, bool& value);
    /**
     * @brief A time option in ns-3's syntax (50ms, 1.5s, 20us).
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default)
     * @param min smallest allowed value
     * @param max largest allowed value
     * @return this
     */
    ProgramOptions& Add(const std::string& name,
                        const std::string& help,
                        Time& value,
                        Time min,
                        Time max);
    /**
     * @brief A data-rate option in ns-3's syntax (128kbps, 1Mbps, 100Mb/s).
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default)
     * @param min smallest allowed value (bit/s)
     * @param max largest allowed value (bit/s)
     * @return this
     */
    ProgramOptions& Add(const std::string& name,
                        const std::string& help,
                        DataRate& value,
                        DataRate min,
                        DataRate max);
    /**
     * @brief A free-text option (a file name, a list in a program-defined syntax that the
     * program checks itself).
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default)
     * @return this
     */
    ProgramOptions& Add(const std::string& name, const std::string& help, std::string& value);
    /**
     * @brief A free-text option that names output files by a prefix (pcap files: PREFIX-N-D.pcap):
     * Parse() checks that the prefix's folder exists and is writable (exit 2 naming the option;
     * "" = none), and --describe marks it "output_prefix" (a sweep puts a relative prefix inside
     * its --out).
     * @param name the option's name
     * @param help what it writes
     * @param value where the prefix goes (default)
     * @return this
     */
    ProgramOptions& AddOutputPrefix(const std::string& name,
                                    const std::string& help,
                                    std::string& value);
    /**
     * @brief The option --profileFile: a file of extra profiles (any kind, Profile's text
     * format) that Parse() loads once the options are checked; a file that cannot be read or
     * parsed exits 2 naming it (also under --check).
     * @param path where the file's name goes (default: "" = none)
     * @return this
     */
    ProgramOptions& AddProfileFile(std::string& path);
    /**
     * @brief --hostProfile: the host profile (kind "host") of the program's PCs. Parse() checks
     * that the profile exists (after --profileFile is loaded; exit 2 naming the option).
     * @param name where the profile's name goes (default)
     * @param help which PCs it is for
     * @param allowEmpty whether "" is allowed (the program's own choice, e.g. a configuration's)
     * @return this
     */
    ProgramOptions& AddHostProfile(std::string& name,
                                   const std::string& help,
                                   bool allowEmpty = false);
    /**
     * @brief --rtiProfile: the RTI profile (kind "rti"), checked as AddHostProfile() checks.
     * @param name where the profile's name goes (default)
     * @param help what it is for
     * @param allowEmpty whether "" is allowed (the program's own choice)
     * @return this
     */
    ProgramOptions& AddRtiProfile(std::string& name,
                                  const std::string& help,
                                  bool allowEmpty = false);
    /**
     * @brief Another profile option (a PC in another role: --emulatorProfile, --routerProfile,
     * --peerProfile), checked as AddHostProfile() checks.
     * @param option the option's name
     * @param kind the profile kind ("host", "rti", ...)
     * @param help what it is for
     * @param name where the profile's name goes (default)
     * @param allowEmpty whether "" is allowed
     * @return this
     */
    ProgramOptions& AddProfile(const std::string& option,
                               const std::string& kind,
                               const std::string& help,
                               std::string& name,
                               bool allowEmpty = false);
    /**
     * @brief --hostSet: host parameters changed for a sensitivity or calibration study,
     * "Key=Value;..." with Key a host profile key (HostNic.InterruptDelay) or an attribute inside
     * an object value; Parse() checks the syntax, WithHostSet() applies it to a profile.
     * @param changes where the text goes (default "": none)
     * @return this
     */
    ProgramOptions& AddHostSet(std::string& changes);
    /**
     * @brief --rtiSet: RtiSettings attributes set after the RTI profile, "Name=Value;...";
     * Parse() checks the syntax, ParseSettings() splits it.
     * @param changes where the text goes (default "": none)
     * @return this
     */
    ProgramOptions& AddRtiSet(std::string& changes);
    /**
     * @brief A deprecated spelling, accepted for one release: --old=VALUE is read as
     * --name=VALUE (VALUE with @p bareUnit appended if it is a bare number, the old option's
     * unit), with a warning on stderr. @p old may be @p name itself when only the unit of a bare
     * number changed (a real in ms that became a time). --describe lists the aliases.
     * @param old the old name
     * @param name the declared option it stands for
     * @param bareUnit unit appended to a bare number ("" = the value as given)
     * @return this
     */
    ProgramOptions& AddDeprecated(const std::string& old,
                                  const std::string& name,
                                  const std::string& bareUnit = "");

    /**
     * @brief An option whose value is one of a list of words.
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default, one of the choices)
     * @param choices the allowed values
     * @return this
     */
    ProgramOptions& AddChoice(const std::string& name,
                              const std::string& help,
                              std::string& value,
                              const std::vector<std::string>& choices);

    /**
     * @brief The program's result record: declare its fields here before Parse (--describe
     * lists them), set and write it after the run.
     * @return the record
     */
    ResultRecord& Record();

    /**
     * @brief Parse and check the command line (exit 2 on a bad option; --describe prints the
     * options and result fields as JSON and exits 0; --check exits 0 once the options are
     * checked; --help prints them and exits 0). Every program also gets --output (the JSON
     * result file, "-" or "" for standard output).
     * @param argc argument count
     * @param argv arguments
     */
    void Parse(int argc, char* argv[]);

    /**
     * @brief Whether the user gave an option on the command line.
     * @param name the option's name
     * @return true if given
     */
    bool IsGiven(const std::string& name) const;

    /**
     * @brief An option's text: as given on the command line, else its default's text.
     * @param name the option's name
     * @return the text
     */
    std::string GetText(const std::string& name) const;

    /** @return the --output value */
    const std::string& GetOutput() const;

    /**
     * @brief With --progress: report simulated-time progress on standard error while the
     * simulation runs, a line every 10 s of wall-clock time with the share of @p stop done and
     * the speed. Call before Simulator::Run; without --progress it does nothing.
     *
     * Not ns-3's ShowProgress: its events follow the wall clock (its interval adapts to the
     * run's speed), so the event count a program records changed from run to run. This
     * reporter ticks at 1000 fixed simulated times before @p stop (never at or past it, so it
     * never keeps a run alive), looks at the wall clock on each tick, and counts its ticks:
     * GetEventCount() leaves them out, and a run records the same event count with and without
     * --progress.
     * @param stop the simulated time at which the run ends
     */
    void StartProgress(Time stop);

    /**
     * @brief The number of events the simulation executed, without the progress reporter's
     * ticks (see StartProgress): what a program records as its event count.
     * @return Simulator::GetEventCount() minus this reporter's ticks
     */
    uint64_t GetEventCount() const;

    /**
     * @brief What the run has done so far, in words ("repetition 1 of 3, 120 of 1000
     * exchanges"), for the wall-clock watch: a run that lasts longer than WATCH_SECONDS of wall
     * clock says on stderr, every WATCH_SECONDS, that it is still running, with this note (and
     * without a simulator event: the watch is a thread, the record is the same). A program
     * without a stop time (StartProgress) sets it as it goes. Thread-safe.
     * @param note the note
     */
    static void SetProgressNote(const std::string& note);

    /**
     * @brief How Parse() and Require() end the program: std::exit(status) unless a hook is set.
     * A hook that throws lets a caller go on after a refused or checked command line (the
     * libFuzzer target of --check parses one command line per input in one process); one that
     * returns still ends the program.
     * @param exit the hook (empty: std::exit)
     */
    static void SetExit(std::function<void(int)> exit);

    /** Wall-clock seconds after which, and between which, the watch prints a line (the
     * environment variable TESTBED_WATCH_SECONDS shortens it, for tests). */
    static constexpr int WATCH_SECONDS = 30;

    /**
     * @brief A rule that involves several options, or a value that must be built to be checked
     * (a schedule sheet, a profile with --hostSet): run by Parse() once every option is read
     * and checked, before --check exits, so that --check refuses what the run would refuse.
     * The check calls Require() (exit 2 with a message naming the options).
     * @param check the rule
     * @return this
     */
    ProgramOptions& AddCheck(std::function<void()> check);

    /**
     * @brief The run's estimated number of simulator events, from the options (called in
     * Parse() after the checks): a run whose estimate exceeds --maxEvents is refused with exit 2
     * before it starts (--maxEvents raises the budget). For programs whose work grows with
     * legal values without bound (a rate times a duration).
     * @param estimate the estimate
     * @param what how it is computed, for the message ("--frequency x --duration x 60")
     * @return this
     */
    ProgramOptions& SetEventEstimate(std::function<double()> estimate, const std::string& what);

    /**
     * @brief The run's estimated resident memory (MiB), from the options (called in Parse()
     * after the checks, like SetEventEstimate): a run whose estimate exceeds --maxMemory is
     * refused with exit 2 before it starts, where the --maxMemory watch would stop it only once
     * it has grown there. For programs whose state grows with legal values (nodes per PC).
     * @param estimate the estimate (MiB)
     * @param what how it is computed, for the message
     * @return this
     */
    ProgramOptions& SetMemoryEstimate(std::function<double()> estimate, const std::string& what);

    /**
     * @brief A check that involves several options: unless @p ok, exit 2 with "error: message".
     * @param ok the condition
     * @param message what is wrong (name the options and values)
     */
    static void Require(bool ok, const std::string& message);

    /**
     * @brief Simulator settings every experiment program starts with (call first in main):
     * the simulator implementation is ns3::LeanSimulatorImpl (ns-3's DefaultSimulatorImpl with
     * a built-in 4-ary heap and no per-event logging, the same events in the same order), and,
     * for ns-3's implementation when it is chosen, the event queue is
     * ns3::PriorityQueueScheduler, a binary heap on a vector, instead of ns-3's default std::map
     * (no allocation per event). Every implementation and scheduler runs the events in the same
     * (time, uid) order, so results do not depend on them;
     * NS_GLOBAL_VALUE=SimulatorImplementationType=ns3::DefaultSimulatorImpl (or
     * --SimulatorImplementationType=...) and NS_GLOBAL_VALUE=SchedulerType=... (or
     * --SchedulerType=...) still choose ns-3's own. ARP requests go out at once (ns3::
     * ArpL3Protocol::RequestJitter 0, as the studied hosts' wired kernels send them), not after
     * ns-3's random 0-10 ms; --ns3::ArpL3Protocol::RequestJitter still sets another one.
     */
    static void SetSimulatorDefaults();

    /**
     * @brief Split "Name=Value;Name=Value" (--hostSet, --rtiSet) into pairs (exit 2 naming the
     * option if malformed).
     * @param text the text
     * @param option the option's name (for the message)
     * @return the pairs
     */
    static Profile::Settings ParseSettings(const std::string& text, const std::string& option);

    /**
     * @brief A host profile with the --hostSet changes: registered as "<profile>+changed"
     * (Profile::TryWithChanges) and its name returned; @p profile itself when @p changes is
     * empty. A change that does not apply exits 2 naming --hostSet.
     * @param profile a host profile's name
     * @param changes the --hostSet text
     * @return the name of the profile to install
     */
    static std::string WithHostSet(const std::string& profile, const std::string& changes);

    /**
     * @brief The options as JSON (what --describe prints).
     * @return a JSON object {"program", "description", "options": [...], "fields": [...]}
     */
    std::string Describe() const;

    /**
     * Shortest text that reads back as the same double (std::to_chars): an option's value in
     * messages and --describe, and a served point's CPU seconds.
     * @param x the number
     * @return the text
     */
    static std::string RealText(double x);

  private:
    /** One declared option. */
    struct Option
    {
        std::string name;                 //!< name without "--"
        std::string type;                 //!< uint, int, real, bool, time, rate, string, choice
        std::string help;                 //!< help text
        std::string defaultText;          //!< the default as text
        std::string minText;              //!< lower bound as text ("" = none)
        std::string maxText;              //!< upper bound as text ("" = none)
        std::string unit;                 //!< a number's unit ("" = none or a count)
        std::vector<std::string> choices; //!< allowed words (choice)
        std::string raw;                  //!< the text CommandLine stored
        bool given{false};                //!< given on the command line
        bool repetitions{false};          //!< a number of in-process repetitions
        bool outputPrefix{false};         //!< names output files by a prefix
        /** Convert and check raw into the target; returns "" or the reason it is refused. */
        std::function<std::string(const std::string&)> apply;
    };

    /**
     * @brief Declare an option.
     * @param opt the option
     * @return this
     */
    ProgramOptions& Declare(Option opt);

    /**
     * @brief Declare a numeric option: parsed as Parsed (whole text), then range-checked.
     * @param name the option's name
     * @param help what it sets
     * @param value where the value goes (default)
     * @param min smallest allowed value
     * @param max largest allowed value
     * @param type the type's name in --describe
     * @param parse the parser (returns "" or why the text is refused)
     * @param text a value as text
     * @param unit the value's unit
     * @return this
     */
    template<typename T, typename Parsed>
    ProgramOptions& AddNumber(const std::string& name,
                              const std::string& help,
                              T& value,
                              T min,
                              T max,
                              const char* type,
                              std::string (*parse)(const std::string&, Parsed&),
                              std::string (*text)(T),
                              const std::string& unit);

    /**
     * Check a value of ns-3's SimulatorImplementationType or SchedulerType global (CommandLine
     * would print its whole help and exit 1 over an unknown type, and ns-3 would stop the
     * program over an unknown implementation when the simulator starts).
     * @param global "SimulatorImplementationType" or "SchedulerType"
     * @param value the type's name
     * @param [out] why what is wrong when the result is false
     * @return whether a program runs with it
     */
    static bool CheckSimulatorType(const std::string& global,
                                   const std::string& value,
                                   std::string& why);
    /**
     * @brief Check the names and the global values on the raw command line.
     * @param argc argument count
     * @param argv arguments
     */
    void PreCheck(int argc, char* argv[]);

    /**
     * The command line of Parse: every declared option (with its range or choices in its
     * help), then the options every program has (output, describe, check, maxEvents, maxMemory,
     * progress).
     */
    void DeclareCommandLine();
    /**
     * Apply and check every value given (Parse, after the command line): each option's own
     * rule, the profiles and their settings, --hostSet and --rtiSet, the host profiles' cores,
     * the program's checks (AddCheck), the event and memory budgets. Exits with status 2 and one
     * line on the first value refused.
     */
    void CheckValues();
    /**
     * @brief --checkBatch: read sets of options from standard input, one set a line (its
     * arguments separated by tabs), and check each as --check does, in a child process (fork),
     * so that a sweep checks all its values in one call. The parent prints one line per set on
     * standard output, "0" or "<exit status> <the child's last message line>", and exits 0 if
     * every set passed, 2 otherwise; it never returns. A child returns with its own arguments.
     * @param [out] args the child's arguments (the program's name, the set, --check)
     */
    void CheckBatch(std::vector<std::string>& args);
    /**
     * @brief --serve: run the program once per request, each run in a child process (fork) of
     * this one, so that a campaign pays ns-3's start-up (its libraries loaded and relocated,
     * their static TypeIds registered, MRG32k3a's jump-ahead matrices computed) once per worker
     * instead of once per point. A child is the process as it is before Parse(), as a new
     * process would be: the only state the server adds is the RNG's precomputed constants, a
     * pure function of nothing. A request is one line on standard input, tab-separated: the
     * file that gets the run's standard output and error, then the run's arguments. For each
     * request the server prints "<pid>" when the child starts and "<status> <user s> <system s>"
     * when it ends (status: the exit status, or minus the signal that ended it; the child's
     * CPU seconds), each on its own line. It exits 0 at the end of its input; it never returns.
     * A child returns with its own arguments; it dies with the server.
     * @param [out] args the child's arguments (the program's name, then the request's)
     */
    void Serve(std::vector<std::string>& args);

    std::string m_program;                       //!< program name
    std::string m_description;                   //!< what it does
    std::vector<std::unique_ptr<Option>> m_opts; //!< the options (stable addresses)
    std::string m_output;                        //!< --output
    bool m_describe{false};                      //!< --describe
    bool m_check{false};                         //!< --check
    bool m_batchChild{false};                    //!< a child of --checkBatch
    bool m_served{false};                        //!< a child of --serve
    std::string* m_profileFile{nullptr};         //!< --profileFile, if the program has it

    /** A deprecated spelling of an option (AddDeprecated). */
    struct Alias
    {
        std::string old;      //!< the old name
        std::string name;     //!< the option it stands for
        std::string bareUnit; //!< unit appended to a bare number
    };

    std::vector<Alias> m_aliases; //!< deprecated spellings

    /** A profile option checked by Parse: option name, kind, value, "" allowed. */
    struct ProfileCheck
    {
        std::string option;     //!< the option's name
        std::string kind;       //!< the profile kind
        std::string* value;     //!< the chosen name
        bool allowEmpty{false}; //!< "" allowed
    };

    std::vector<ProfileCheck> m_profileChecks;   //!< profile options to check
    std::vector<std::string> m_settingsOptions;  //!< Name=Value;... options to check
    std::vector<std::function<void()>> m_checks; //!< the program's rules (AddCheck)
    std::function<double()> m_eventEstimate;     //!< estimated events (SetEventEstimate)
    std::string m_eventEstimateText;             //!< how they are estimated
    // Hours of run (1-3 us an event): above every paper point's estimate (the largest,
    // mega-scale's 50 sets of 20 000 nodes for 181.6 s, is estimated 5.4e9).
    double m_maxEvents{1e10};                 //!< --maxEvents
    uint64_t m_maxMemoryMb{0};                //!< --maxMemory (MiB)
    std::function<double()> m_memoryEstimate; //!< estimated MiB (SetMemoryEstimate)
    std::string m_memoryEstimateText;         //!< how they are estimated

    /** @return the --maxMemory budget (MiB; default half the machine's memory) */
    uint64_t MemoryBudgetMb() const;

    /** Watch the resident memory from a thread; exit 2 beyond --maxMemory. */
    void StartMemoryWatch() const;
    /** @brief Start the wall-clock watch (SetProgressNote): a detached thread. */
    void StartWallWatch() const;

    /**
     * @brief The command line with the deprecated spellings rewritten (warnings on stderr).
     * @param argc argument count
     * @param argv arguments
     * @return the arguments to parse
     */
    std::vector<std::string> Rewrite(int argc, char* argv[]);
    ResultRecord m_record;              //!< the result record
    bool m_progress{false};             //!< --progress
    std::unique_ptr<CommandLine> m_cmd; //!< ns-3's parser
    /** @brief One tick of the progress reporter (see StartProgress). */
    void ProgressTick();

    /// The progress reporter's state (--progress).
    struct Progress
    {
        Time stop;                                       //!< the run's end
        Time step;                                       //!< simulated time between ticks
        uint64_t ticks{0};                               //!< ticks executed
        std::chrono::steady_clock::time_point wallStart; //!< wall clock at the start
        std::chrono::steady_clock::time_point lastLine;  //!< wall clock at the last line
        Time lastLineSim;                                //!< simulated time at the last line
    };

    Progress m_show; //!< the progress reporter (--progress)
};

} // namespace ns3

#endif /* TESTBED_PROGRAM_OPTIONS_H */
