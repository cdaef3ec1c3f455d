// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "help.h"

namespace rxecc
{

namespace
{

constexpr std::string_view kTool =
	"Usage: rxecc [OPTIONS] COMMAND [ARGUMENTS]\n"
	"\n"
	"Show and change the congestion control of SoftRoCE (rxe) devices and QPs\n"
	"through the rxe_cc generic netlink family of the patched rdma_rxe module.\n"
	"\n"
	"Commands:\n"
	"  algo [NAME]                 list the algorithms and their parameters\n"
	"  dev show [DEV] [algo NAME]  device settings and default parameters\n"
	"  dev set DEV [algo NAME] [PARAM VALUE]... [line_rate RATE] [base_rtt TIME]\n"
	"          [ecn on|off] [ack_every N] [cnp_dscp N] [ack_dscp N|own]\n"
	"          [dscp_prio MAP] [sfc on|off] [sfc_max TIME] [sfc_mode replace|max]\n"
	"                              change device settings\n"
	"  qp show [DEV [QPN]]         per-QP algorithm, rate, window, state, bytes\n"
	"                              in flight and SFC pauses\n"
	"  qp set DEV QPN [algo NAME [PARAM VALUE]...] [sfc on|off]\n"
	"                              switch the algorithm or parameters of a QP,\n"
	"                              or whether it takes SFC pauses\n"
	"  stats [DEV] [-w SECONDS [-c COUNT]]\n"
	"                              device counters, or their rates per second\n"
	"  monitor [DEV] [-i MS] [-c COUNT|-t SECONDS] [-o FILE] [-e]\n"
	"                              per-QP rate, window, counters and state time\n"
	"                              series as CSV\n"
	"\n"
	"Options (before or after the command):\n"
	"  -j, --json      JSON output (algo, dev show, qp show, stats)\n"
	"  -p, --pretty    indented JSON (implies -j)\n"
	"  -d, --details   more detail (parameter ranges, QP parameters and counters)\n"
	"  -h, --help      this help; 'rxecc COMMAND --help' for a command\n"
	"  -V, --version   print the version\n"
	"\n"
	"RATE is in bit/s with an optional k, M, G or T prefix: 100M, 1.5G, 25Gbit,\n"
	"10Gbps (bits; bytes are refused); 0 or auto is the netdev's speed. TIME\n"
	"takes ns, us, ms or s: 100us, 1.5ms. Fractions must be exact. The grammar:\n"
	"Documentation/rxe-cc/units.rst.\n"
	"Commands and subcommands may be abbreviated (rxecc d s = rxecc dev show).\n"
	"\n"
	"Writes need CAP_NET_ADMIN. A warning of the kernel about a legal but doubtful\n"
	"setting is printed as 'rxecc: warning: ...' on stderr; the setting stands.\n"
	"Exit status: 0 success; 1 runtime or kernel error (device or QP not found,\n"
	"permission denied, module not loaded); 2 usage error (unknown command,\n"
	"algorithm or parameter, bad value).\n";

constexpr std::string_view kAlgo =
	"Usage: rxecc [-j|-p] [-d] algo [NAME]\n"
	"\n"
	"List the congestion control algorithms of the kernel, or only NAME, with\n"
	"their parameters (name, unit, default, minimum, maximum, description) and\n"
	"the names of the per-QP state values they report.\n"
	"\n"
	"The defaults are those of the reference link (100 Mbit/s, 1 ms base RTT);\n"
	"a device scales some of them to its line rate and base RTT:\n"
	"'rxecc dev show DEV algo NAME' prints the device's values.\n";

constexpr std::string_view kDev =
	"Usage: rxecc [-j|-p] [-d] dev show [DEV] [algo NAME]\n"
	"       rxecc dev set DEV [algo NAME] [PARAM VALUE]... [line_rate RATE]\n"
	"                     [base_rtt TIME] [ecn on|off] [ack_every N]\n"
	"                     [cnp_dscp N] [ack_dscp N|own] [dscp_prio MAP]\n"
	"                     [sfc on|off] [sfc_max TIME] [sfc_mode replace|max]\n"
	"\n"
	"'dev show' prints the congestion control settings of DEV or of every rxe\n"
	"device; 'dev set' changes them. 'rxecc dev show --help' and\n"
	"'rxecc dev set --help' explain each setting.\n";

constexpr std::string_view kDevShow =
	"Usage: rxecc [-j|-p] [-d] dev show [DEV] [algo NAME]\n"
	"\n"
	"Print the congestion control settings of DEV, or of every rxe device:\n"
	"  algo        the default algorithm of new QPs\n"
	"  line_rate   the line rate of the pacer and the algorithms\n"
	"              (auto: the netdev's speed)\n"
	"  base_rtt    the base RTT that scales the default parameters\n"
	"  ecn         whether data packets carry ECT(0)\n"
	"  ack_every   AckReq on every N-th packet (default: rxe's own policy)\n"
	"  cnp_dscp    DSCP of the CNPs the device sends\n"
	"  ack_dscp    DSCP of ACKs (own: the QP's own DSCP)\n"
	"  dscp_prio   the 802.1p priority of each DSCP, for PFC/PAUSE: the DSCPs\n"
	"              not on priority 0, 26:3,48:6 (none: all on 0)\n"
	"  sfc         whether new QPs take SFC back-to-sender pauses (BTS)\n"
	"  sfc_max     the ceiling of one pause and of a run of pauses\n"
	"  sfc_mode    replace: the newest BTS wins; max: a pause may only grow\n"
	"and the device's parameter values of its default algorithm, or of\n"
	"algorithm NAME. A '*' after a value marks a parameter you set: it keeps\n"
	"its value when line_rate or base_rtt change; the others follow the link.\n"
	"-d adds each parameter's range and description.\n"
	"\n"
	"JSON keeps the kernel's values: line_rate_bps (0 = the netdev's speed),\n"
	"base_rtt_ns (0 = unknown), ack_every (0 = rxe's policy), ack_dscp\n"
	"(255 = the QP's own), dscp_prio (an object: DSCP -> priority, the DSCPs\n"
	"not on priority 0), params_algo (whose parameters 'params' holds),\n"
	"params_user (the names of the parameters you set), sfc (true or false),\n"
	"sfc_max_us, sfc_mode (\"replace\" or \"max\"). A setting the kernel does not\n"
	"report (an older module) is left out, in text and JSON.\n";

constexpr std::string_view kDevSet =
	"Usage: rxecc dev set DEV [algo NAME] [PARAM VALUE]... [line_rate RATE]\n"
	"                     [base_rtt TIME] [ecn on|off] [ack_every N]\n"
	"                     [cnp_dscp N] [ack_dscp N|own] [dscp_prio MAP]\n"
	"                     [sfc on|off] [sfc_max TIME] [sfc_mode replace|max]\n"
	"\n"
	"Change the congestion control settings of DEV in one request: all of them\n"
	"are applied or none. They apply to QPs created afterwards; 'rxecc qp set'\n"
	"changes existing QPs.\n"
	"\n"
	"  algo NAME       the default algorithm of new QPs ('rxecc algo' lists them)\n"
	"  PARAM VALUE     a parameter of the algorithm given with 'algo', else of\n"
	"                  the device's current default algorithm, in the unit that\n"
	"                  'rxecc algo NAME' lists; kbit/s parameters also take\n"
	"                  rates (5Mbit), us and ns parameters times (2ms), bytes\n"
	"                  parameters sizes (64KiB), bool parameters on/off;\n"
	"                  a parameter you set keeps its value when line_rate or\n"
	"                  base_rtt change, the others follow the link\n"
	"  line_rate RATE  100M, 1.5G, 25Gbit, 10Gbps, ... from 1Mbit to 800Gbit;\n"
	"                  0 or auto = the netdev's speed\n"
	"  base_rtt TIME   100us, 1ms, ... up to 10s; 0 = unknown\n"
	"  ecn on|off      data packets carry ECT(0)\n"
	"  ack_every N     AckReq on every N-th packet, N up to 1024; 0 or default =\n"
	"                  rxe's policy\n"
	"  cnp_dscp N      DSCP of the CNPs the device sends, 0..63\n"
	"  ack_dscp N|own  DSCP of ACKs, 0..63, or own = the QP's own DSCP\n"
	"  dscp_prio MAP   the 802.1p priority of each DSCP, which decides the\n"
	"                  priority a QP's data is paused on (PFC/PAUSE): DSCP:PRIO\n"
	"                  pairs separated by commas, DSCP 0..63, PRIO 0..7, no\n"
	"                  DSCP twice; the DSCPs not named are on priority 0; ''\n"
	"                  or none = all on 0. The form of the module parameter\n"
	"                  dscp_prio, whose default is 26:3,48:6. It applies at once.\n"
	"  sfc on|off      new RC QPs take SFC back-to-sender pauses (BTS) that\n"
	"                  switches send (default off)\n"
	"  sfc_max TIME    the longest pause a BTS may ask for, and the longest run\n"
	"                  of pauses: a QP held that long in a row takes no BTS for\n"
	"                  as long again; whole microseconds from 1us to 1s: 500us,\n"
	"                  50ms (the default)\n"
	"  sfc_mode replace|max\n"
	"                  how a BTS changes a pause in force: replace (the\n"
	"                  default) = the newest BTS wins, max = a pause may only\n"
	"                  grow\n"
	"\n"
	"Every argument is checked, parameters against the kernel's table, before\n"
	"anything is sent. A kernel warning about a legal but doubtful setting\n"
	"(e.g. a DCQCN period shorter than one frame) is printed on stderr as\n"
	"'rxecc: warning: ...'; the setting stands. Needs CAP_NET_ADMIN.\n"
	"\n"
	"Example: rxecc dev set rxe0 algo dcqcn rp_min_rate_kbps 10Mbit ecn on\n";

constexpr std::string_view kQp =
	"Usage: rxecc [-j|-p] [-d] qp show [DEV [QPN]]\n"
	"       rxecc qp set DEV QPN algo NAME [PARAM VALUE]... [sfc on|off]\n"
	"       rxecc qp set DEV QPN sfc on|off\n"
	"\n"
	"'qp show' prints the congestion control of QPs; 'qp set' switches a QP's\n"
	"algorithm or parameters, or whether it takes SFC pauses. See\n"
	"'rxecc qp show --help' and 'rxecc qp set --help'.\n";

constexpr std::string_view kQpShow =
	"Usage: rxecc [-j|-p] [-d] qp show [DEV [QPN]]\n"
	"\n"
	"Print the congestion control of QP QPN of DEV, of every QP of DEV, or of\n"
	"every QP of every rxe device: the algorithm, the pacing rate (unpaced: no\n"
	"rate limit), the window (none: no limit on bytes in flight), the bytes in\n"
	"flight (inflight), the bytes acknowledged (acked) and the packets\n"
	"retransmitted (retx), whether it takes SFC pauses (sfc on|off), and the\n"
	"algorithm's state values. -d adds the QP's parameters and all its\n"
	"counters. QPN is decimal or hexadecimal (0x11).\n"
	"\n"
	"A QP that takes SFC pauses or took some (any with -d) has a line 'sfc:'\n"
	"with SFC's counters:\n"
	"  bts_rx        back-to-sender pauses (BTS) taken\n"
	"  bts_cache     of those, answered from a switch's cache\n"
	"  bts_clamped   of those, asking for more than sfc_max\n"
	"  bts_capped    BTS not taken: the QP had been held for sfc_max in a row\n"
	"  pause_starts  runs of pauses\n"
	"  pause_last    the pause the last BTS taken asked for (clamped)\n"
	"  pause_left    what is left of the pause in force\n"
	"  paused        the time the QP was paused in all\n"
	"\n"
	"JSON gives rate_bps (0 = unpaced), window_bytes (0 = none),\n"
	"inflight_bytes, acked_bytes, retx_pkts, sfc (true or false), the state\n"
	"values as the kernel reports them (alpha in Q16, rates in kbit/s, ...)\n"
	"and sfc_stats: bts_rx, bts_cache, bts_clamped, bts_capped, pause_starts,\n"
	"pause_last_us, pause_left_us, paused_us. What the kernel does not report\n"
	"is left out.\n";

constexpr std::string_view kQpSet =
	"Usage: rxecc qp set DEV QPN algo NAME [PARAM VALUE]... [sfc on|off]\n"
	"       rxecc qp set DEV QPN sfc on|off\n"
	"\n"
	"Switch QP QPN of DEV to algorithm NAME with the given parameters; the\n"
	"parameters not named take the device's defaults for NAME. A live QP may\n"
	"be switched. VALUE is in the parameter's unit, as for 'rxecc dev set'.\n"
	"Parameters need 'algo NAME', also for the algorithm the QP runs.\n"
	"\n"
	"sfc on|off: whether the QP takes SFC back-to-sender pauses (BTS); RC QPs\n"
	"only. off ends a pause in force. Alone it leaves the algorithm as it is;\n"
	"with algo, both go in one request.\n"
	"\n"
	"Every argument is checked before anything is sent. Needs CAP_NET_ADMIN.\n"
	"\n"
	"Example: rxecc qp set rxe0 17 algo fixed rate_kbps 500Mbit\n"
	"         rxecc qp set rxe0 17 sfc off\n";

constexpr std::string_view kStats =
	"Usage: rxecc [-j|-p] stats [DEV] [-w SECONDS [-c COUNT]]\n"
	"\n"
	"Print the congestion control counters of DEV, or of every rxe device.\n"
	"\n"
	"  -w, --watch SECONDS  every SECONDS, print how much each counter grew per\n"
	"                       second, until interrupted (Ctrl-C); SECONDS may be\n"
	"                       fractional or carry a unit (0.5, 500ms)\n"
	"  -c, --count COUNT    with -w: stop after COUNT reports\n"
	"\n"
	"With -j and -w, each report of each device is one JSON object.\n";

constexpr std::string_view kMonitor =
	"Usage: rxecc monitor [DEV] [-i MS] [-c COUNT|-t SECONDS] [-o FILE] [-e]\n"
	"\n"
	"Write the rate, window, counters and state of every QP of DEV, or of\n"
	"every rxe device, as CSV: one row per QP every MS milliseconds, until\n"
	"interrupted (Ctrl-C).\n"
	"\n"
	"  time_ns,dev,qpn,algo,rate_bps,window_bytes,<counters...>,<state...>\n"
	"\n"
	"time_ns is CLOCK_MONOTONIC. The QP's counters follow, cumulative but for\n"
	"inflight_bytes, and empty if the kernel does not report one:\n"
	"  cnp_rx           CNPs received (at the sender)\n"
	"  cnp_tx           CNPs sent (at the receiver)\n"
	"  ce_rx            CE-marked packets received\n"
	"  pacer_waits      times the pacer held the QP\n"
	"  pacer_unused_us  pacing credit the QP left unused, in us\n"
	"  rate_dec         rate or window decreases\n"
	"  rate_inc         rate or window increases\n"
	"  retx_pkts        packets retransmitted\n"
	"  inflight_bytes   bytes in flight\n"
	"  acked_bytes      bytes acknowledged\n"
	"Then the state columns, ALGO.NAME (dcqcn.alpha): the state values of every\n"
	"algorithm ('rxecc algo'), filled in the rows of the QPs that run ALGO and\n"
	"empty in the others.\n"
	"\n"
	"  -i, --interval MS    polling period in ms, default 100 (or with a unit: 1s)\n"
	"  -c, --count COUNT    stop after COUNT polls\n"
	"  -t, --time SECONDS   stop after SECONDS (or with a unit: 500ms)\n"
	"  -o, --output FILE    write to FILE instead of standard output\n"
	"  -e, --events         also write a row for every rate event the kernel\n"
	"                       multicasts (group \"events\"), with the QP's counters\n"
	"                       and state at the event; an extra last column\n"
	"                       'event' names the events (rate_dec, rate_inc, limit,\n"
	"                       release, halt: a source halt began or grew; joined\n"
	"                       by '|'), empty in poll rows\n";

struct Topic {
	std::string_view name;
	std::string_view text;
};

constexpr Topic kTopics[] = {
	{"", kTool},          {"algo", kAlgo},       {"dev", kDev},        {"dev show", kDevShow},
	{"dev set", kDevSet}, {"qp", kQp},           {"qp show", kQpShow}, {"qp set", kQpSet},
	{"stats", kStats},    {"monitor", kMonitor},
};

} // namespace

std::string_view help_text(std::string_view topic)
{
	for (const Topic &t : kTopics)
		if (t.name == topic)
			return t.text;
	return {};
}

std::vector<std::string_view> help_topics()
{
	std::vector<std::string_view> v;
	for (const Topic &t : kTopics)
		v.push_back(t.name);
	return v;
}

} // namespace rxecc
