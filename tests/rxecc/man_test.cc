// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc.8 and --help describe the same tool: every command, keyword and
// option that a help text names is documented in the man page.
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <set>
#include <sstream>

#include "help.h"

namespace rxecc
{
namespace
{

// The man page without troff escapes: \fB, \fI, \fP, \& removed, \- as -.
std::string man_text()
{
	std::ifstream f(RXECC_MAN_PAGE);
	EXPECT_TRUE(f.is_open()) << RXECC_MAN_PAGE;
	std::stringstream ss;
	ss << f.rdbuf();
	std::string s = ss.str();
	s = std::regex_replace(s, std::regex(R"(\\f[BIRP])"), "");
	s = std::regex_replace(s, std::regex(R"(\\&)"), "");
	s = std::regex_replace(s, std::regex(R"(\\-)"), "-");
	return s;
}

std::set<std::string> options_in(std::string_view text)
{
	std::set<std::string> out;
	std::string t(text);
	std::regex re(R"((^|[\s\[|(])(--?[a-zA-Z][a-zA-Z-]*))");
	for (auto it = std::sregex_iterator(t.begin(), t.end(), re); it != std::sregex_iterator();
	     ++it)
		out.insert((*it)[2].str());
	return out;
}

TEST(ManPage, DocumentsEveryOptionOfTheHelp)
{
	const std::string man = man_text();
	std::set<std::string> all;
	for (std::string_view topic : help_topics())
		for (const std::string &o : options_in(help_text(topic)))
			all.insert(o);
	// The help names these; the set is not empty by accident.
	for (const char *o :
	     {"-j", "--json",    "-p", "--pretty", "-d", "--details", "-h", "--help",
	      "-V", "--version", "-w", "--watch",  "-c", "--count",   "-i", "--interval",
	      "-t", "--time",    "-o", "--output", "-e", "--events"})
		EXPECT_TRUE(all.count(o)) << o << " is not in any help text";
	for (const std::string &o : all) {
		std::regex word("(^|[^a-zA-Z-])" + o + "([^a-zA-Z-]|$)");
		EXPECT_TRUE(std::regex_search(man, word))
			<< o << " is in --help but not in rxecc.8";
	}
}

TEST(ManPage, HasASectionForEveryCommand)
{
	const std::string man = man_text();
	for (const char *cmd :
	     {"algo", "dev show", "dev set", "qp show", "qp set", "stats", "monitor"})
		EXPECT_NE(man.find(std::string(".SS rxecc ") + cmd), std::string::npos) << cmd;
	for (const char *section :
	     {".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH EXIT STATUS", ".SH EXAMPLES"})
		EXPECT_NE(man.find(section), std::string::npos) << section;
}

TEST(ManPage, KeywordsUnitsAndFormatsAgreeWithTheHelp)
{
	const std::string man = man_text();
	const std::string dev_set(help_text("dev set"));
	for (const char *kw : {"line_rate", "base_rtt", "ecn", "ack_every", "cnp_dscp", "ack_dscp",
	                       "dscp_prio", "own", "auto", "default", "none", "26:3,48:6"}) {
		EXPECT_NE(dev_set.find(kw), std::string::npos) << kw;
		EXPECT_NE(man.find(kw), std::string::npos) << kw;
	}
	for (const char *example : {"100M", "1.5G", "25Gbit", "100us", "1ms", "5Mbit", "2ms"}) {
		EXPECT_TRUE(std::string(help_text("")).find(example) != std::string::npos ||
		            dev_set.find(example) != std::string::npos)
			<< example;
		EXPECT_NE(man.find(example), std::string::npos) << example;
	}
	const std::string csv = "time_ns,dev,qpn,algo,rate_bps,window_bytes";
	EXPECT_NE(std::string(help_text("monitor")).find(csv), std::string::npos);
	EXPECT_NE(man.find(csv), std::string::npos);
	// every counter column of 'monitor' (tests/rxecc/cli_test.cc checks
	// the header) is explained in both
	for (const char *c :
	     {"cnp_rx", "cnp_tx", "ce_rx", "pacer_waits", "pacer_unused_us", "rate_dec", "rate_inc",
	      "retx_pkts", "inflight_bytes", "acked_bytes"}) {
		std::regex col("\n  " + std::string(c) + " +[A-Za-z]");
		EXPECT_TRUE(std::regex_search(std::string(help_text("monitor")), col)) << c;
		EXPECT_NE(man.find(".B " + std::string(c) + "\n"), std::string::npos) << c;
	}
	// SFC: the keywords of 'dev set' and 'qp set', the counters of 'qp show'
	// and the JSON keys
	for (const char *kw : {"sfc on|off", "sfc_max TIME", "sfc_mode replace|max"}) {
		EXPECT_NE(dev_set.find(kw), std::string::npos) << kw;
		EXPECT_NE(std::string(help_text("")).find(kw), std::string::npos) << kw;
	}
	for (const char *topic : {"qp", "qp set"})
		EXPECT_NE(std::string(help_text(topic)).find("rxecc qp set DEV QPN sfc on|off"),
		          std::string::npos)
			<< topic;
	EXPECT_NE(man.find("rxecc qp set\n.I DEV QPN\n.B sfc\n.BR on | off"), std::string::npos);
	for (const char *kw : {".B sfc\n", ".B sfc_max\n", ".B sfc_mode\n", ".BR sfc \" on|off\"",
	                       ".BI sfc_max \" TIME\"", ".BR sfc_mode \" replace|max\""})
		EXPECT_NE(man.find(kw), std::string::npos) << kw;
	const std::string qp_show(help_text("qp show"));
	for (const char *c : {"bts_rx", "bts_cache", "bts_clamped", "bts_capped", "pause_starts",
	                      "pause_last", "pause_left", "paused"}) {
		std::regex row("\n  " + std::string(c) + " +[A-Za-z]");
		EXPECT_TRUE(std::regex_search(qp_show, row)) << c;
		EXPECT_NE(man.find(".B " + std::string(c) + "\n"), std::string::npos) << c;
	}
	for (const char *key : {"sfc_max_us", "sfc_stats", "pause_last_us", "paused_us"}) {
		EXPECT_TRUE(std::string(help_text("dev show")).find(key) != std::string::npos ||
		            qp_show.find(key) != std::string::npos)
			<< key;
		EXPECT_NE(man.find(key), std::string::npos) << key;
	}
	// what a '*' in 'dev show' means, and where warnings go
	EXPECT_NE(std::string(help_text("dev show"))
	                  .find("A '*' after a value marks a parameter you set"),
	          std::string::npos);
	EXPECT_NE(man.find("after a value marks a parameter you set"), std::string::npos);
	EXPECT_NE(std::string(help_text("")).find("rxecc: warning: ..."), std::string::npos);
	EXPECT_NE(man.find("rxecc: warning:"), std::string::npos);
	EXPECT_NE(man.find("CAP_NET_ADMIN"), std::string::npos);
	EXPECT_NE(man.find("0.1.0"), std::string::npos) << "the version of rxecc --version";
}

} // namespace
} // namespace rxecc
