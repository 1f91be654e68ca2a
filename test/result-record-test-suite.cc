/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ResultRecord: declared fields only, of their declared type; the fields' description.
 */

#include "ns3/result-record.h"
#include "ns3/test.h"

using namespace ns3;

/**
 * @ingroup testbed-tests
 * A record holds only declared fields of their declared type, and describes its fields.
 */
class ResultRecordDeclarationTestCase : public TestCase
{
  public:
    ResultRecordDeclarationTestCase()
        : TestCase("ResultRecord: undeclared, mistyped and missing always-set fields are "
                   "refused; DescribeFields")
    {
    }

  private:
    void DoRun() override
    {
        ResultRecord rec;
        rec.Declare("rtt_ms", ResultRecord::REAL, "round-trip time (ms)")
            .Declare("count", ResultRecord::INT, "pings")
            .Declare("rtts", ResultRecord::SERIES, "every \"RTT\"", ResultRecord::SOMETIMES);
        NS_TEST_ASSERT_MSG_EQ(rec.DescribeFields(),
                              "[{\"name\": \"rtt_ms\", \"type\": \"real\", \"help\": "
                              "\"round-trip time (ms)\", \"always\": true}, {\"name\": "
                              "\"count\", \"type\": \"int\", \"help\": \"pings\", \"always\": "
                              "true}, {\"name\": \"rtts\", \"type\": \"series\", \"help\": "
                              "\"every \\\"RTT\\\"\", \"always\": false}]",
                              "fields in declaration order, JSON-escaped");
        // Declared always set: a record without rtt_ms or count is incomplete.
        NS_TEST_ASSERT_MSG_EQ(rec.Check(),
                              "field 'rtt_ms' is declared always set but not written (declare it "
                              "ResultRecord::SOMETIMES if only some runs write it)",
                              "an empty record lacks the always-set fields");
        rec.Set("rtt_ms", 1.5);
        NS_TEST_ASSERT_MSG_EQ(rec.Check().rfind("field 'count' is declared always set", 0),
                              0u,
                              "count is still missing");
        rec.SetInt("count", 3);
        NS_TEST_ASSERT_MSG_EQ(rec.Check(), "", "declared fields of their types (rtts unset)");
        rec.SetString("count", "three");
        NS_TEST_ASSERT_MSG_EQ(rec.Check(),
                              "field 'count' is declared int but written as string",
                              "a field set with another type");
        rec.SetInt("count", 3);
        rec.SetBool("extra", true);
        NS_TEST_ASSERT_MSG_EQ(rec.Check().rfind("field 'extra' is written but not declared", 0),
                              0u,
                              "an undeclared field");
    }
};

/**
 * @ingroup testbed-tests
 * The result-record suite.
 */
class ResultRecordTestSuite : public TestSuite
{
  public:
    ResultRecordTestSuite()
        : TestSuite("testbed-result-record", Type::UNIT)
    {
        AddTestCase(new ResultRecordDeclarationTestCase, Duration::QUICK);
    }
};

static ResultRecordTestSuite g_resultRecordTestSuite; //!< static instance
