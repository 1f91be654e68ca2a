/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test runner for the standalone build (the ns-3 wheel ships no test-runner): the module's
 * TestSuites are linked into this executable and run by ns3::TestRunner, so it takes the usual
 * options (--list, --suite=NAME, --verbose, --fullness=QUICK|EXTENSIVE|TAKES_FOREVER).
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
