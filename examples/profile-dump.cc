/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Print every registered profile (the built-in ones of each kind, and those of --profileFile,
 * which replace a built-in one of the same name) as JSON, as Profile's parser reads them. The
 * Python campaign layer reads profiles through this program (testbed.ranges.Profiles), so the
 * text format has one parser.
 *
 *   ./profile-dump [--profileFile=FILE]
 *
 * Output: {"profiles": [{"kind", "name", "description", "origin", "base", "settings", "own",
 * "notes"}, ...]}, ordered by kind and name; "settings" are the resolved settings (the base's,
 * with the profile's own changes applied), "own" the settings the profile states itself, both
 * [key, value] pairs in order; "notes" the "#@" comment lines of its section as [origin, text].
 */

#include "ns3/core-module.h"
#include "ns3/testbed-module.h"

#include <cstdio>
#include <iostream>
#include <sstream>

using namespace ns3;

/**
 * A string as a JSON string literal.
 * @param s the string
 * @return the quoted, escaped string
 */
static std::string
Quote(const std::string& s)
{
    std::ostringstream out;
    out << '"';
    for (unsigned char c : s)
    {
        switch (c)
        {
            case '"':
                out << "\\\"";
                break;
            case '\\':
                out << "\\\\";
                break;
            case '\n':
                out << "\\n";
                break;
            case '\t':
                out << "\\t";
                break;
            case '\r':
                out << "\\r";
                break;
            default:
                if (c < 0x20)
                {
                    char buf[8];
                    std::snprintf(buf, sizeof(buf), "\\u%04x", c);
                    out << buf;
                }
                else
                {
                    out << c;
                }
        }
    }
    out << '"';
    return out.str();
}

/**
 * Ordered pairs as a JSON array of two-element arrays.
 * @param pairs the pairs
 * @return the JSON text
 */
static std::string
Pairs(const Profile::Settings& pairs)
{
    std::string out = "[";
    for (size_t i = 0; i < pairs.size(); ++i)
    {
        out += (i ? ", [" : "[") + Quote(pairs[i].first) + ", " + Quote(pairs[i].second) + "]";
    }
    return out + "]";
}

int
main(int argc, char* argv[])
{
    std::string profileFile;
    ProgramOptions opts("profile-dump",
                        "print every profile (built-in, and --profileFile's) as JSON, as the "
                        "profile parser reads it");
    opts.AddProfileFile(profileFile);
    opts.Parse(argc, argv);

    std::cout << "{\"profiles\": [";
    bool first = true;
    for (const auto& kind : Profile::ListKinds())
    {
        for (const auto& name : Profile::List(kind))
        {
            const Profile& p = Profile::Get(kind, name);
            std::cout << (first ? "\n" : ",\n") << "  {\"kind\": " << Quote(kind)
                      << ", \"name\": " << Quote(name)
                      << ", \"description\": " << Quote(p.GetDescription())
                      << ", \"origin\": " << Quote(p.GetOrigin())
                      << ", \"base\": " << Quote(p.GetBase())
                      << ", \"settings\": " << Pairs(p.GetSettings())
                      << ", \"own\": " << Pairs(p.GetOwnSettings())
                      << ", \"notes\": " << Pairs(p.GetNotes()) << "}";
            first = false;
        }
    }
    std::cout << "\n]}" << std::endl;
    return 0;
}
