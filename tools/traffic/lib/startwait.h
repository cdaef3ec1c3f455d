// How a host waits for a flow's start (Documentation/rxe-cc/traffic.rst,
// "Start times").
#pragma once

#include <cstdint>

namespace rxecc::traffic
{

// The time until which a host that waits for a start due at DUE sleeps (in
// steps that other work can end early), before it waits by reading the
// clock: MARGIN before DUE (what a sleep has lately been late by, plus
// the sleep), but no earlier than halfway from PREV, the start before
// (a negative PREV: none), to DUE. A process that never sleeps keeps, on
// one CPU and at a real-time priority, every ordinary thread from running,
// rxe's workers among them: with starts closer together than MARGIN (a
// busy machine makes sleeps late, and MARGIN grows) the host would read
// the clock from one start to the next and its flows' completions would
// wait for the last start. All times in ns on one clock.
std::int64_t sleep_until(std::int64_t due, std::int64_t prev, std::int64_t margin);

} // namespace rxecc::traffic
