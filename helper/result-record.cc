/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "result-record.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * Append a JSON string literal.
 * @param os stream
 * @param s string
 */
void
WriteString(std::ostream& os, const std::string& s)
{
    os << '"';
    for (unsigned char c : s)
    {
        switch (c)
        {
            case '"':
                os << "\\\"";
                break;
            case '\\':
                os << "\\\\";
                break;
            case '\n':
                os << "\\n";
                break;
            case '\t':
                os << "\\t";
                break;
            case '\r':
                os << "\\r";
                break;
            default:
                if (c < 0x20)
                {
                    char buf[8];
                    std::snprintf(buf, sizeof(buf), "\\u%04x", c);
                    os << buf;
                }
                else
                {
                    os << c;
                }
        }
    }
    os << '"';
}

/**
 * Append a JSON number (null if not finite).
 * @param os stream
 * @param v number
 */
void
WriteNumber(std::ostream& os, double v)
{
    if (!std::isfinite(v))
    {
        os << "null";
        return;
    }
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.17g", v);
    os << buf;
}

/** Names of the field types (ResultRecord::Type order). */
const char* const g_typeNames[] = {"real", "int", "bool", "string", "series"};

} // namespace

ResultRecord&
ResultRecord::Declare(const std::string& key, Type type, const std::string& help, Presence presence)
{
    for (const auto& f : m_fields)
    {
        NS_ABORT_MSG_IF(f.name == key, "ResultRecord: field '" << key << "' declared twice");
    }
    NS_ABORT_MSG_IF(key.empty(), "ResultRecord: a field without a name");
    m_fields.push_back({key, type, help, presence});
    return *this;
}

std::string
ResultRecord::DescribeFields() const
{
    std::ostringstream os;
    os << "[";
    for (size_t i = 0; i < m_fields.size(); ++i)
    {
        os << (i ? ", " : "") << "{\"name\": ";
        WriteString(os, m_fields[i].name);
        os << ", \"type\": \"" << g_typeNames[m_fields[i].type] << "\", \"help\": ";
        WriteString(os, m_fields[i].help);
        os << ", \"always\": " << (m_fields[i].presence == ALWAYS ? "true" : "false") << "}";
    }
    os << "]";
    return os.str();
}

void
ResultRecord::Set(const std::string& key, double value)
{
    m_values[key] = value;
}

void
ResultRecord::SetInt(const std::string& key, int64_t value)
{
    m_values[key] = value;
}

void
ResultRecord::SetBool(const std::string& key, bool value)
{
    m_values[key] = value;
}

void
ResultRecord::SetString(const std::string& key, const std::string& value)
{
    m_values[key] = value;
}

void
ResultRecord::SetSeries(const std::string& key, const std::vector<double>& values)
{
    m_values[key] = values;
}

std::string
ResultRecord::ToJson() const
{
    std::ostringstream os;
    os << "{";
    bool first = true;
    for (const auto& [key, value] : m_values)
    {
        os << (first ? "\n  " : ",\n  ");
        first = false;
        WriteString(os, key);
        os << ": ";
        if (auto d = std::get_if<double>(&value))
        {
            WriteNumber(os, *d);
        }
        else if (auto i = std::get_if<int64_t>(&value))
        {
            os << *i;
        }
        else if (auto b = std::get_if<bool>(&value))
        {
            os << (*b ? "true" : "false");
        }
        else if (auto s = std::get_if<std::string>(&value))
        {
            WriteString(os, *s);
        }
        else if (auto v = std::get_if<std::vector<double>>(&value))
        {
            os << "[";
            for (size_t k = 0; k < v->size(); ++k)
            {
                if (k)
                {
                    os << ", ";
                }
                WriteNumber(os, (*v)[k]);
            }
            os << "]";
        }
    }
    os << "\n}\n";
    return os.str();
}

std::string
ResultRecord::Check() const
{
    for (const auto& [key, value] : m_values)
    {
        auto f = std::find_if(m_fields.begin(), m_fields.end(), [&key = key](const Field& d) {
            return d.name == key;
        });
        if (f == m_fields.end())
        {
            return "field '" + key
                   + "' is written but not declared (declare it with ResultRecord::Declare "
                     "before ProgramOptions::Parse)";
        }
        if (static_cast<size_t>(f->type) != value.index())
        {
            return "field '" + key + "' is declared " + g_typeNames[f->type] + " but written as "
                   + g_typeNames[value.index()];
        }
    }
    for (const auto& f : m_fields)
    {
        if (f.presence == ALWAYS && m_values.count(f.name) == 0)
        {
            return "field '" + f.name
                   + "' is declared always set but not written (declare it "
                     "ResultRecord::SOMETIMES if only some runs write it)";
        }
    }
    return "";
}

void
ResultRecord::Write(const std::string& path) const
{
    // Only declared fields, of their declared type: --describe lists exactly what is written.
    std::string why = Check();
    NS_ABORT_MSG_IF(!why.empty(), "ResultRecord: " << why);
    std::string json = ToJson();
    if (path.empty() || path == "-")
    {
        std::cout << json << std::flush;
        return;
    }
    std::ofstream out(path);
    NS_ABORT_MSG_IF(!out, "ResultRecord: cannot write '" << path << "'");
    out << json;
    out.close();
    NS_ABORT_MSG_IF(!out, "ResultRecord: error writing '" << path << "'");
}

} // namespace ns3
