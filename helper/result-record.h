/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TESTBED_RESULT_RECORD_H
#define TESTBED_RESULT_RECORD_H

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

/**
 * @file
 * @ingroup testbed
 * The JSON result record that an experiment program writes for one run.
 */

namespace ns3
{

/**
 * @ingroup testbed
 * @brief A flat JSON object: the result of one experiment run.
 *
 * Each example program runs one configuration and writes one record: its parameters and the
 * quantities it measured (numbers, strings, booleans, and series of numbers). The Python
 * campaign (bindings/python/testbed/campaign.py) collects the records of a sweep.
 *
 * Every field is declared (name, type, help) by the code that writes it, before the program
 * parses its command line: `--describe` lists the declared fields (ProgramOptions::Record()),
 * and Write() refuses a field that was not declared or was set with another type, so the
 * description and the output cannot drift apart. A field is declared ALWAYS set (the default:
 * Write() refuses a record without it) or SOMETIMES set (a field that only some configurations
 * or outcomes write); `--describe` says which, so a stored record that lacks an always-set field
 * can be told from one that legitimately lacks an optional one.
 *
 * @code
 * ResultRecord& rec = opts.Record();
 * rec.Declare("rtt_mean_ms", ResultRecord::REAL, "mean round-trip time (ms)");
 * opts.Parse(argc, argv);
 * ... rec.Set("rtt_mean_ms", mean); rec.Write(opts.GetOutput());
 * @endcode
 *
 * Written by hand rather than with a JSON library because it is a flat object of scalars and
 * number arrays (about 80 lines), and ns-3 ships no JSON library that an in-tree build could
 * rely on. Numbers are written with 17 significant digits (exact round trip of a double);
 * non-finite numbers are written as null.
 */
class ResultRecord
{
  public:
    /** A value. */
    typedef std::variant<double, int64_t, bool, std::string, std::vector<double>> Value;

    /** The type of a field (the index of its Value alternative). */
    enum Type
    {
        REAL,   //!< a number (Set)
        INT,    //!< an integer (SetInt)
        BOOL,   //!< a boolean (SetBool)
        STRING, //!< a text (SetString)
        SERIES  //!< a series of numbers (SetSeries)
    };

    /** Whether every record of the program holds the field. */
    enum Presence
    {
        ALWAYS,   //!< every record (Write() refuses a record without it)
        SOMETIMES //!< only some configurations or outcomes write it
    };

    ResultRecord() = default;

    /**
     * @brief Declare a field (aborts if it is declared twice).
     * @param key name
     * @param type its type
     * @param help what it holds, with its unit
     * @param presence ALWAYS (every record holds it) or SOMETIMES
     * @return this
     */
    ResultRecord& Declare(const std::string& key,
                          Type type,
                          const std::string& help,
                          Presence presence = ALWAYS);

    /**
     * @brief The declared fields as a JSON array of {"name", "type", "help", "always"} (in
     * declaration order; type one of real, int, bool, string, series; always true when every
     * record holds the field).
     * @return JSON text
     */
    std::string DescribeFields() const;

    /**
     * @brief Set a number.
     * @param key name
     * @param value value
     */
    void Set(const std::string& key, double value);
    /**
     * @brief Set an integer.
     * @param key name
     * @param value value
     */
    void SetInt(const std::string& key, int64_t value);
    /**
     * @brief Set a boolean.
     * @param key name
     * @param value value
     */
    void SetBool(const std::string& key, bool value);
    /**
     * @brief Set a string.
     * @param key name
     * @param value value
     */
    void SetString(const std::string& key, const std::string& value);
    /**
     * @brief Set a series of numbers.
     * @param key name
     * @param values values
     */
    void SetSeries(const std::string& key, const std::vector<double>& values);

    /**
     * @brief Whether every field set was declared, with the type it was set with, and every
     * field declared ALWAYS was set.
     * @return "" or what is wrong (the first such field)
     */
    std::string Check() const;

    /**
     * @brief The record as a JSON object (keys sorted).
     * @return JSON text
     */
    std::string ToJson() const;

    /**
     * @brief Write the record to a file ("" or "-" = standard output); aborts if the file
     * cannot be written, if a field was not declared or was set with another type than
     * declared, or if a field declared ALWAYS was not set.
     * @param path file name
     */
    void Write(const std::string& path) const;

  private:
    /** A declared field. */
    struct Field
    {
        std::string name;  //!< name
        Type type;         //!< type
        std::string help;  //!< what it holds
        Presence presence; //!< whether every record holds it
    };

    std::map<std::string, Value> m_values; //!< the values, sorted by key
    std::vector<Field> m_fields;           //!< the declared fields, in declaration order
};

} // namespace ns3

#endif /* TESTBED_RESULT_RECORD_H */
