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

    ResultRecord() = default;

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
     * @brief The record as a JSON object (keys sorted).
     * @return JSON text
     */
    std::string ToJson() const;

    /**
     * @brief Write the record to a file ("" or "-" = standard output); aborts if the file
     * cannot be written.
     * @param path file name
     */
    void Write(const std::string& path) const;

  private:
    std::map<std::string, Value> m_values; //!< the values, sorted by key
};

} // namespace ns3

#endif /* TESTBED_RESULT_RECORD_H */
