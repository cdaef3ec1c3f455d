// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The event loop of `rxecc-fabric run`: reads frames from the external
// ports into the model, writes the model's transmissions to their ports
// when their last bit arrives, samples telemetry and serves the control
// socket, all from one thread.
//
// Model time is CLOCK_MONOTONIC ns since the start.  The loop sleeps in
// epoll_pwait2() until the earliest of: a descriptor is ready, the model's
// next event, the next pending delivery, the next telemetry sample, the end
// of --duration (or spins with --busy-poll).
#ifndef RXECC_FABRIC_PROC_RUNNER_H
#define RXECC_FABRIC_PROC_RUNNER_H

#include <memory>
#include <string>
#include <vector>

#include "attach.h"
#include "cli.h"
#include "switch_config.h"

namespace rxecc::fabric::proc
{

// Opens everything, prints "rxecc-fabric: ready", runs until a signal,
// "quit" or the duration.  Returns the exit status: 2 if something could not
// be opened (nothing ran), 1 on a runtime failure, else 0.
int run_fabric(const RunOptions &o, const Topology &topo, const std::vector<PortAttachment> &ports);

// attach[sw][port] as telemetry shows it: the spec text of external ports,
// "link:SW:PORT" (the peer) of internal ones.
std::vector<std::vector<std::string>> attach_names(const Topology &topo,
                                                   const std::vector<PortAttachment> &ports);

} // namespace rxecc::fabric::proc

#endif
