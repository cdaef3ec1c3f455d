// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "commands.h"

#include <cstdio>

namespace rxecc::fabric::proc {

int cmd_run(const RunOptions &)
{
	std::fprintf(stderr, "rxecc-fabric: run is not implemented yet\n");
	return 1;
}

int cmd_check(const RunOptions &)
{
	std::fprintf(stderr, "rxecc-fabric: check is not implemented yet\n");
	return 1;
}

int cmd_query(const QueryOptions &)
{
	std::fprintf(stderr, "rxecc-fabric: query is not implemented yet\n");
	return 1;
}

} // namespace rxecc::fabric::proc
