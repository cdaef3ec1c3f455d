// The testbed table of scripts/testbed-table (rxecc-report testbed).
#include <gtest/gtest.h>

#include "error.h"
#include "testbed.h"

using namespace rxecc::report;

namespace
{

std::string line_of(const std::string &table, const std::string &label)
{
	auto p = table.find(label);
	if (p == std::string::npos)
		return "<missing>";
	return table.substr(p, table.find('\n', p) - p);
}

} // namespace

TEST(TestbedTable, FiguresSideBySideWithTheSecondRelativeToTheFirst)
{
	std::string t = testbed_table(
		"q.env",
		"testbed=qemu\nboot_us=4200000\nwrite_rx_bytes=70000000\nwrite_us=1600000\n"
		"suite_us=750000000\nsuite_kernels=1\nincast_util_pct=92.5\n",
		"u.env",
		"testbed=um\nboot_us=1400000\nwrite_rx_bytes=70000000\nwrite_us=400000\n"
		"suite_us=450000000\nsuite_kernels=2\nincast_util_pct=96.5\n");
	EXPECT_NE(t.find("qemu"), std::string::npos) << t;
	EXPECT_NE(t.find("um/qemu"), std::string::npos) << t;
	// times in seconds, the ratio second/first
	EXPECT_EQ(line_of(t, "boot and power-off [s]"),
	          "boot and power-off [s]                  4.2          1.4      0.333");
	// 70 MB in 1.6 s and in 0.4 s
	EXPECT_EQ(line_of(t, "ib_write_bw, one QP [Gbit/s]"),
	          "ib_write_bw, one QP [Gbit/s]           0.35          1.4          4");
	EXPECT_EQ(line_of(t, "selftest suite [s]"),
	          "selftest suite [s]                      750          450        0.6");
	EXPECT_EQ(line_of(t, "  test kernels side by side"),
	          "  test kernels side by side               1            2          2");
	EXPECT_EQ(line_of(t, "4:1 incast: utilisation [%]"),
	          "4:1 incast: utilisation [%]            92.5         96.5       1.04");
	// rows neither file has are left out
	EXPECT_EQ(line_of(t, "ib_send_lat"), "<missing>");
}

TEST(TestbedTable, AFigureInOneFileOnlyIsShownWithoutRatioAndNotANumberIsAnError)
{
	std::string t =
		testbed_table("q.env", "boot_us=1\nsend_lat_us=121\n", "u.env", "boot_us=1\n");
	EXPECT_NE(t.find("ib_send_lat, typical [us]"), std::string::npos) << t;
	EXPECT_NE(t.find("121            -          -"), std::string::npos) << t;
	try {
		testbed_table("q.env", "boot_us=1\n", "u.env", "boot_us=fast\n");
		FAIL() << "no error";
	} catch (const Error &e) {
		EXPECT_EQ(std::string(e.what()), "u.env: boot_us=fast: not a number");
	}
	EXPECT_THROW(testbed_table("q.env", "boot_us=-1\n", "u.env", "boot_us=1\n"), Error);
	EXPECT_THROW(testbed_table("q.env", "boot_us=1s\n", "u.env", "boot_us=1\n"), Error);
	// a rate needs its time
	try {
		testbed_table("q.env", "write_rx_bytes=5\nwrite_us=0\n", "u.env",
		              "write_rx_bytes=5\nwrite_us=1\n");
		FAIL() << "no error";
	} catch (const Error &e) {
		EXPECT_EQ(std::string(e.what()), "q.env: write_rx_bytes needs write_us > 0");
	}
}

TEST(TestbedTable, AZeroFirstFigureHasNoRatio)
{
	std::string t = testbed_table("q.env", "suite_failed=0\n", "u.env", "suite_failed=2\n");
	EXPECT_EQ(line_of(t, "selftests failed"),
	          "selftests failed                          0            2          -");
}
