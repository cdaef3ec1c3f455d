// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The commands of rxecc-fabric; each returns the process exit status.
#ifndef RXECC_FABRIC_PROC_COMMANDS_H
#define RXECC_FABRIC_PROC_COMMANDS_H

#include "cli.h"

namespace rxecc::fabric::proc
{

int cmd_run(const RunOptions &o);
int cmd_check(const RunOptions &o);
int cmd_query(const QueryOptions &o);

} // namespace rxecc::fabric::proc

#endif
