// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Unit tests of the perftest output parser.  The fixtures in data/ are
// outputs of perftest 4.5 over rxe.
#include <cstdint>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "perfstat.h"

namespace
{

using perfstat::Report;
using perfstat::Result;
using perfstat::Row;

std::string data_path(const std::string &name)
{
	return std::string(PERFSTAT_TEST_DATA) + "/" + name;
}

Report parse_fixture(const std::string &name)
{
	Result<Report> r = perfstat::parse_file(data_path(name));
	if (!r)
		ADD_FAILURE() << "parse of " << name << " failed: " << r.error();
	return r ? *r : Report{};
}

// perftest's MB/sec is 2^20 bytes per second.
constexpr double kMBtoGbps = 1048576.0 * 8.0 / 1e9;

constexpr char kBwHeader[] =
	" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n";

TEST(PerfstatParse, WriteBwInMegabytes)
{
	Report rep = parse_fixture("write_bw_mb.txt");
	ASSERT_EQ(rep.rows.size(), 1u);
	const Row &row = rep.last();
	EXPECT_EQ(row.bytes, 65536u);
	EXPECT_EQ(row.iterations, 5000u);

	ASSERT_EQ(row.fields.size(), 3u);
	EXPECT_EQ(row.fields[0].key, "bw_peak");
	EXPECT_EQ(row.fields[0].label, "BW peak");
	EXPECT_EQ(row.fields[0].unit, "MB/sec");
	EXPECT_DOUBLE_EQ(row.fields[0].value, 28.84);
	EXPECT_EQ(row.fields[1].key, "bw_avg");
	EXPECT_EQ(row.fields[1].unit, "MB/sec");
	EXPECT_DOUBLE_EQ(row.fields[1].value, 28.79);
	EXPECT_EQ(row.fields[2].key, "msg_rate");
	EXPECT_EQ(row.fields[2].unit, "Mpps");

	// 28.79 * 2^20 B/s * 8 bit/B = 0.24150802432 Gbit/s (not 28.79 * 8e6).
	ASSERT_TRUE(row.bw_avg_gbps());
	EXPECT_NEAR(*row.bw_avg_gbps(), 0.24150802432, 1e-12);
	ASSERT_TRUE(row.bw_peak_gbps());
	EXPECT_NEAR(*row.bw_peak_gbps(), 0.24192745472, 1e-12);
	ASSERT_TRUE(row.msg_rate_mpps());
	EXPECT_DOUBLE_EQ(*row.msg_rate_mpps(), 0.000461);

	EXPECT_FALSE(row.lat_avg_usec());
	EXPECT_FALSE(row.lat_typical_usec());
}

TEST(PerfstatParse, SendBwInGigabits)
{
	Report rep = parse_fixture("send_bw_gb.txt");
	ASSERT_EQ(rep.rows.size(), 1u);
	const Row &row = rep.last();
	EXPECT_EQ(row.bytes, 65536u);
	ASSERT_NE(row.find("bw_avg"), nullptr);
	EXPECT_EQ(row.find("bw_avg")->unit, "Gb/sec");
	ASSERT_TRUE(row.bw_avg_gbps());
	EXPECT_DOUBLE_EQ(*row.bw_avg_gbps(), 2.27);
	ASSERT_TRUE(row.bw_peak_gbps());
	EXPECT_DOUBLE_EQ(*row.bw_peak_gbps(), 2.31);
	EXPECT_DOUBLE_EQ(*row.msg_rate_mpps(), 0.004330);
}

TEST(PerfstatParse, ReadBwAllSizes)
{
	Report rep = parse_fixture("read_bw_all.txt");
	ASSERT_EQ(rep.rows.size(), 23u);
	for (std::size_t i = 0; i < rep.rows.size(); ++i) {
		EXPECT_EQ(rep.rows[i].bytes, std::uint64_t{2} << i) << "row " << i;
		EXPECT_EQ(rep.rows[i].iterations, 5000u) << "row " << i;
		EXPECT_EQ(rep.rows[i].fields.size(), 3u) << "row " << i;
	}
	EXPECT_NEAR(*rep.rows.front().bw_avg_gbps(), 0.57 * kMBtoGbps, 1e-12);
	EXPECT_DOUBLE_EQ(*rep.rows.front().msg_rate_mpps(), 0.298844);
	EXPECT_EQ(rep.rows[10].bytes, 2048u);
	EXPECT_NEAR(*rep.rows[10].bw_avg_gbps(), 308.88 * kMBtoGbps, 1e-12);
	EXPECT_EQ(rep.last().bytes, 8388608u);
	EXPECT_NEAR(*rep.last().bw_avg_gbps(), 308.46 * kMBtoGbps, 1e-12);
	EXPECT_NEAR(*rep.last().bw_peak_gbps(), 312.90 * kMBtoGbps, 1e-12);
}

TEST(PerfstatParse, SendLatency)
{
	Report rep = parse_fixture("send_lat.txt");
	ASSERT_EQ(rep.rows.size(), 1u);
	const Row &row = rep.last();
	EXPECT_EQ(row.bytes, 2u);
	EXPECT_EQ(row.iterations, 1000u);

	const char *keys[] = {"t_min",   "t_max", "t_typical", "t_avg",
	                      "t_stdev", "t_p99", "t_p99_9"};
	const double values[] = {21.36, 187.92, 24.05, 26.41, 7.83, 58.29, 187.92};
	ASSERT_EQ(row.fields.size(), std::size(keys));
	for (std::size_t i = 0; i < std::size(keys); ++i) {
		EXPECT_EQ(row.fields[i].key, keys[i]);
		EXPECT_EQ(row.fields[i].unit, "usec") << keys[i];
		EXPECT_DOUBLE_EQ(row.fields[i].value, values[i]) << keys[i];
	}
	EXPECT_EQ(row.find("t_p99_9")->label, "99.9% percentile");

	ASSERT_TRUE(row.lat_avg_usec());
	EXPECT_DOUBLE_EQ(*row.lat_avg_usec(), 26.41);
	ASSERT_TRUE(row.lat_typical_usec());
	EXPECT_DOUBLE_EQ(*row.lat_typical_usec(), 24.05);
	EXPECT_FALSE(row.bw_avg_gbps());
	EXPECT_FALSE(row.msg_rate_mpps());
}

TEST(PerfstatParse, LatencyDurationModeColumnWithoutUnit)
{
	Report rep = parse_fixture("send_lat_duration.txt");
	ASSERT_EQ(rep.rows.size(), 1u);
	const Row &row = rep.last();
	EXPECT_EQ(row.iterations, 406133u);
	ASSERT_EQ(row.fields.size(), 2u);
	EXPECT_DOUBLE_EQ(*row.lat_avg_usec(), 24.62);
	EXPECT_EQ(row.fields[1].key, "tps_avg");
	EXPECT_EQ(row.fields[1].label, "tps average");
	EXPECT_EQ(row.fields[1].unit, "");
	EXPECT_DOUBLE_EQ(row.fields[1].value, 40613.27);
}

TEST(PerfstatParse, TabsTrailingWhitespaceAndCrlf)
{
	const std::string text =
		"\t#bytes\t#iterations\tBW peak[MB/sec]\t\tBW average[MB/sec]\tMsgRate[Mpps]\t \r\n"
		"65536\t5000\t28.84\t28.79\t\t\t0.000461   \t\r\n"
		"   \t \r\n"
		"-----------------------------\r\n";
	Result<Report> r = perfstat::parse(text);
	ASSERT_TRUE(r) << r.error();
	ASSERT_EQ(r->rows.size(), 1u);
	EXPECT_EQ(r->last().bytes, 65536u);
	ASSERT_EQ(r->last().fields.size(), 3u);
	EXPECT_EQ(r->last().fields[0].label, "BW peak");
	EXPECT_NEAR(*r->last().bw_avg_gbps(), 0.24150802432, 1e-12);
	EXPECT_DOUBLE_EQ(*r->last().msg_rate_mpps(), 0.000461);
}

TEST(PerfstatParse, TableAtEndOfInputWithoutNewline)
{
	Result<Report> r = perfstat::parse(std::string(kBwHeader) + " 4096 100 1.5 1.25 0.0003");
	ASSERT_TRUE(r) << r.error();
	EXPECT_EQ(r->last().bytes, 4096u);
	EXPECT_NEAR(*r->last().bw_avg_gbps(), 1.25 * kMBtoGbps, 1e-12);
}

TEST(PerfstatParse, RepeatedTablesAreConcatenated)
{
	const std::string text = std::string(kBwHeader) + " 1024 5000 10.00 9.50 0.009728\n" +
	                         "----------\n" + kBwHeader + " 2048 5000 20.00 19.50 0.009984\n";
	Result<Report> r = perfstat::parse(text);
	ASSERT_TRUE(r) << r.error();
	ASSERT_EQ(r->rows.size(), 2u);
	EXPECT_EQ(r->rows[0].bytes, 1024u);
	EXPECT_EQ(r->rows[1].bytes, 2048u);
}

TEST(PerfstatParseError, TablesWithDifferentColumns)
{
	const std::string gb_header = " #bytes     #iterations    BW peak[Gb/sec]    BW "
				      "average[Gb/sec]   MsgRate[Mpps]\n";
	const std::string text = std::string(kBwHeader) + " 1024 5000 10.00 9.50 0.009728\n" +
	                         gb_header + " 1024 5000 0.08 0.07 0.009728\n";
	Result<Report> r = perfstat::parse(text);
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().find("line 3"), std::string::npos) << r.error();
	EXPECT_NE(r.error().find("other columns"), std::string::npos) << r.error();
}

TEST(PerfstatParseError, NoResultTable)
{
	Result<Report> r = perfstat::parse_file(data_path("no_table.txt"));
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().find("no result table"), std::string::npos) << r.error();
	EXPECT_NE(r.error().find("no_table.txt"), std::string::npos) << r.error();

	EXPECT_FALSE(perfstat::parse(""));
	EXPECT_FALSE(perfstat::parse("\n\n  \t\n"));
	// A row without a header is not a result.
	EXPECT_FALSE(perfstat::parse(" 65536      5000             28.84   28.79   0.000461\n"));
}

TEST(PerfstatParseError, HeaderWithoutRows)
{
	Result<Report> r = perfstat::parse_file(data_path("write_bw_failed.txt"));
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().find("line 22"), std::string::npos) << r.error();
	EXPECT_NE(r.error().find("no rows"), std::string::npos) << r.error();

	EXPECT_FALSE(perfstat::parse(kBwHeader));
}

TEST(PerfstatParseError, EmptyTableBeforeGoodTableIsStillAnError)
{
	const std::string text =
		std::string(kBwHeader) + "----\n" + kBwHeader + " 1024 5000 10.00 9.50 0.009728\n";
	Result<Report> r = perfstat::parse(text);
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().find("line 1:"), std::string::npos) << r.error();
}

TEST(PerfstatParseError, MalformedNumber)
{
	Result<Report> r = perfstat::parse(std::string(kBwHeader) +
	                                   " 65536      5000    28.84    2#.79    0.000461\n");
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().find("line 2"), std::string::npos) << r.error();
	EXPECT_NE(r.error().find("'2#.79'"), std::string::npos) << r.error();
	EXPECT_NE(r.error().find("BW average[MB/sec]"), std::string::npos) << r.error();
}

TEST(PerfstatParseError, RejectedValues)
{
	const char *bad_values[] = {"nan", "inf", "-1.5", "1.5.2", "0x10", "1,5", "+"};
	for (const char *bad : bad_values) {
		Result<Report> r = perfstat::parse(std::string(kBwHeader) + " 65536 5000 28.84 " +
		                                   bad + " 0.000461\n");
		EXPECT_FALSE(r) << "accepted " << bad;
		if (!r) {
			EXPECT_NE(r.error().find(bad), std::string::npos) << r.error();
		}
	}
}

TEST(PerfstatParseError, MalformedBytesAndIterations)
{
	Result<Report> bytes =
		perfstat::parse(std::string(kBwHeader) + " 655.36 5000 28.84 28.79 0.000461\n");
	ASSERT_FALSE(bytes);
	EXPECT_NE(bytes.error().find("#bytes '655.36'"), std::string::npos) << bytes.error();

	Result<Report> iters =
		perfstat::parse(std::string(kBwHeader) + " 65536 5k 28.84 28.79 0.000461\n");
	ASSERT_FALSE(iters);
	EXPECT_NE(iters.error().find("#iterations '5k'"), std::string::npos) << iters.error();
}

TEST(PerfstatParseError, WrongNumberOfColumns)
{
	Result<Report> missing =
		perfstat::parse(std::string(kBwHeader) + " 65536 5000 28.84 28.79\n");
	ASSERT_FALSE(missing);
	EXPECT_NE(missing.error().find("expected 5 values, found 4"), std::string::npos)
		<< missing.error();

	Result<Report> extra =
		perfstat::parse(std::string(kBwHeader) + " 65536 5000 28.84 28.79 0.000461 7\n");
	ASSERT_FALSE(extra);
	EXPECT_NE(extra.error().find("found 6"), std::string::npos) << extra.error();
}

TEST(PerfstatParseError, UnrecognisedHeader)
{
	Result<Report> r = perfstat::parse(" #bytes BW[MB/sec]\n 64 1.0\n");
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().find("header"), std::string::npos) << r.error();
}

TEST(PerfstatParseError, MissingFile)
{
	Result<Report> r = perfstat::parse_file(data_path("does-not-exist.txt"));
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().find("does-not-exist.txt"), std::string::npos) << r.error();
}

TEST(PerfstatResult, ValueOfErrorThrows)
{
	Result<double> r = Result<double>::fail("boom");
	EXPECT_FALSE(r);
	EXPECT_EQ(r.error(), "boom");
	EXPECT_THROW(r.value(), std::logic_error);
	EXPECT_EQ(Result<double>::ok(2.5).value(), 2.5);
}

TEST(PerfstatUnits, ToGbps)
{
	EXPECT_NEAR(*perfstat::to_gbps(1000.0, "MB/sec"), 8.388608, 1e-12);
	EXPECT_DOUBLE_EQ(*perfstat::to_gbps(9.5, "Gb/sec"), 9.5);
	EXPECT_FALSE(perfstat::to_gbps(1.0, "usec"));
	EXPECT_FALSE(perfstat::to_gbps(1.0, ""));
}

TEST(PerfstatRatio, Computation)
{
	Result<double> r = perfstat::bandwidth_ratio(2.0, 1.5);
	ASSERT_TRUE(r) << r.error();
	EXPECT_DOUBLE_EQ(*r, 0.75);

	Result<double> above = perfstat::bandwidth_ratio(0.5, 0.6);
	ASSERT_TRUE(above);
	EXPECT_DOUBLE_EQ(*above, 1.2);

	Result<double> zero_test = perfstat::bandwidth_ratio(3.0, 0.0);
	ASSERT_TRUE(zero_test);
	EXPECT_DOUBLE_EQ(*zero_test, 0.0);
}

TEST(PerfstatRatio, FromParsedReports)
{
	Report base = parse_fixture("send_bw_gb.txt");
	Report test = parse_fixture("write_bw_mb.txt");
	ASSERT_FALSE(base.rows.empty());
	ASSERT_FALSE(test.rows.empty());
	Result<double> r =
		perfstat::bandwidth_ratio(*base.last().bw_avg_gbps(), *test.last().bw_avg_gbps());
	ASSERT_TRUE(r) << r.error();
	EXPECT_NEAR(*r, 0.24150802432 / 2.27, 1e-12);
}

TEST(PerfstatRatio, UndefinedRatioIsAnError)
{
	Result<double> zero = perfstat::bandwidth_ratio(0.0, 1.0);
	ASSERT_FALSE(zero);
	EXPECT_NE(zero.error().find("base bandwidth"), std::string::npos) << zero.error();

	EXPECT_FALSE(perfstat::bandwidth_ratio(-1.0, 1.0));
	EXPECT_FALSE(perfstat::bandwidth_ratio(std::numeric_limits<double>::quiet_NaN(), 1.0));
	EXPECT_FALSE(perfstat::bandwidth_ratio(1.0, std::numeric_limits<double>::infinity()));
}

TEST(PerfstatFormat, KeyValuesOfBandwidthRow)
{
	Report rep = parse_fixture("write_bw_mb.txt");
	ASSERT_FALSE(rep.rows.empty());
	EXPECT_EQ(perfstat::format_key_values(rep.last()),
	          "bytes=65536 iterations=5000 bw_peak_gbps=0.2419 bw_avg_gbps=0.2415 "
	          "msg_rate_mpps=0.000461");
}

TEST(PerfstatFormat, KeyValuesOfLatencyRow)
{
	Report rep = parse_fixture("send_lat.txt");
	ASSERT_FALSE(rep.rows.empty());
	EXPECT_EQ(perfstat::format_key_values(rep.last()),
	          "bytes=2 iterations=1000 t_min_usec=21.36 t_max_usec=187.92 "
	          "t_typical_usec=24.05 t_avg_usec=26.41 t_stdev_usec=7.83 t_p99_usec=58.29 "
	          "t_p99_9_usec=187.92");
}

TEST(PerfstatFormat, Json)
{
	Report rep = parse_fixture("send_bw_gb.txt");
	ASSERT_FALSE(rep.rows.empty());
	// Bandwidths are rounded to four decimals as in the key=value output;
	// nlohmann-json prints the number without trailing zeros (2.31, not
	// 2.3100, the same JSON value).
	EXPECT_EQ(perfstat::format_json(rep),
	          "{\"rows\":[{\"bytes\":65536,\"iterations\":5000,\"bw_peak_gbps\":2.31,"
	          "\"bw_avg_gbps\":2.27,\"msg_rate_mpps\":0.00433}]}");

	Report two = parse_fixture("send_lat_duration.txt");
	ASSERT_FALSE(two.rows.empty());
	EXPECT_EQ(perfstat::format_json(two),
	          "{\"rows\":[{\"bytes\":2,\"iterations\":406133,\"t_avg_usec\":24.62,"
	          "\"tps_avg\":40613.27}]}");
}

// Whole values stay integers and bandwidths stay numbers with a fraction,
// as the text printed them; a bandwidth is rounded to 4 decimals first.
TEST(PerfstatFormat, JsonNumberTypes)
{
	Report rep;
	Row row;
	row.bytes = 1;
	row.iterations = 2;
	row.fields = {{"t_avg", "t_avg", "usec", 26.0},
	              {"t_p99", "t_p99", "usec", 0.125},
	              {"bw_avg", "BW average", "Gb/sec", 1.0},
	              {"bw_peak", "BW peak", "Gb/sec", 2.123456}};
	rep.rows.push_back(row);
	const std::string text = perfstat::format_json(rep);
	EXPECT_EQ(text, "{\"rows\":[{\"bytes\":1,\"iterations\":2,\"t_avg_usec\":26,"
	                "\"t_p99_usec\":0.125,\"bw_avg_gbps\":1.0,\"bw_peak_gbps\":2.1235}]}");
	const auto doc = nlohmann::ordered_json::parse(text);
	const auto &r = doc.at("rows").at(0);
	EXPECT_TRUE(r.at("t_avg_usec").is_number_unsigned());
	EXPECT_TRUE(r.at("bw_avg_gbps").is_number_float());
	EXPECT_EQ(r.at("t_p99_usec").get<double>(), 0.125);
}

} // namespace
