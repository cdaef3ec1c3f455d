// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The --help texts of rxecc and its commands (kept in step with rxecc.8).
#ifndef RXECC_HELP_H
#define RXECC_HELP_H

#include <string_view>
#include <vector>

namespace rxecc
{

// Help of a topic: "" (the tool), "algo", "dev", "dev show", "dev set",
// "qp", "qp show", "qp set", "stats", "monitor". Empty if unknown.
std::string_view help_text(std::string_view topic);

// Every topic, for the tests.
std::vector<std::string_view> help_topics();

} // namespace rxecc

#endif // RXECC_HELP_H
