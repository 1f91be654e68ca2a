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
        : TestCase("ResultRecord: undeclared and mistyped fields are refused; DescribeFields")
    {
    }

  private:
    void DoRun() override
    {
        ResultRecord rec;
        rec.Declare("rtt_ms", ResultRecord::REAL, "round-trip time (ms)")
            .Declare("count", ResultRecord::INT, "pings")
            .Declare("rtts", ResultRecord::SERIES, "every \"RTT\"");
        NS_TEST_ASSERT_MSG_EQ(rec.DescribeFields(),
                              "[{\"name\": \"rtt_ms\", \"type\": \"real\", \"help\": "
                              "\"round-trip time (ms)\"}, {\"name\": \"count\", \"type\": "
                              "\"int\", \"help\": \"pings\"}, {\"name\": \"rtts\", \"type\": "
                              "\"series\", \"help\": \"every \\\"RTT\\\"\"}]",
                              "fields in declaration order, JSON-escaped");
        NS_TEST_ASSERT_MSG_EQ(rec.Check(), "", "an empty record is fine");
        rec.Set("rtt_ms", 1.5);
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
