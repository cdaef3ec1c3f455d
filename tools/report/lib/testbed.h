// The testbed table of scripts/testbed-table: two testbeds' measurements
// (key=value files) side by side, with the second's figure relative to the
// first's.
#ifndef RXECC_REPORT_TESTBED_H
#define RXECC_REPORT_TESTBED_H

#include <string>
#include <string_view>

namespace rxecc::report
{

// The table of two testbeds' files (names for messages, texts). Throws
// Error naming the file and key when a value is not a number; a figure
// missing in one file is shown as "-" without a ratio, a row missing in
// both is left out.
std::string testbed_table(const std::string &a_path, std::string_view a_text,
                          const std::string &b_path, std::string_view b_text);

} // namespace rxecc::report

#endif
