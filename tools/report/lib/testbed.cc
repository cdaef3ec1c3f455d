#include "testbed.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "error.h"
#include "inputs.h"

namespace rxecc::report
{

namespace
{

struct Row {
	const char *label;
	const char *key;
	double scale; // value = file value * scale
	const char *unit;
	bool lower_is_better;
};

const std::vector<Row> &rows()
{
	static const std::vector<Row> r = {
		{"boot and power-off", "boot_us", 1e-6, "s", true},
		{"ib_write_bw, one QP", "write_bw_gbps", 1, "Gbit/s", false},
		{"ib_send_lat, typical", "send_lat_us", 1, "us", true},
		{"100 us sleep, lateness p50", "sleep_late_us_p50", 1, "us", true},
		{"100 us sleep, lateness p99", "sleep_late_us_p99", 1, "us", true},
		{"selftest suite", "suite_us", 1e-6, "s", true},
		{"selftests failed", "suite_failed", 1, "", true},
		{"4:1 incast, 100 Mbit/s: wall", "incast_us", 1e-6, "s", true},
		{"4:1 incast: utilisation", "incast_util_pct", 1, "%", false},
		{"CPUs", "cpus", 1, "", false},
	};
	return r;
}

std::optional<double> value(const Meta &m, const Row &r)
{
	std::string v = m.get(r.key);
	if (v.empty())
		return std::nullopt;
	char *end = nullptr;
	double d = std::strtod(v.c_str(), &end);
	if (end == v.c_str() || *end != '\0' || !std::isfinite(d) || d < 0)
		throw Error(m.path() + ": " + r.key + "=" + v + ": not a number");
	return d * r.scale;
}

std::string fmt(double v)
{
	char buf[32];
	std::snprintf(buf, sizeof(buf), v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.3g", v);
	return buf;
}

} // namespace

std::string testbed_table(const std::string &a_path, std::string_view a_text,
                          const std::string &b_path, std::string_view b_text)
{
	Meta a = Meta::parse(a_path, a_text), b = Meta::parse(b_path, b_text);
	std::string an = a.has("testbed") ? a.get("testbed") : a_path;
	std::string bn = b.has("testbed") ? b.get("testbed") : b_path;
	std::string out;
	char line[160];
	std::snprintf(line, sizeof(line), "%-30s %12s %12s %10s\n", "", an.c_str(), bn.c_str(),
	              (bn + "/" + an).c_str());
	out += line;
	for (const Row &r : rows()) {
		auto va = value(a, r), vb = value(b, r);
		if (!va && !vb)
			continue;
		if (!va || !vb)
			throw Error(std::string(r.key) + ": in " + (va ? b_path : a_path) +
			            " missing, in " + (va ? a_path : b_path) + " present");
		std::string label =
			std::string(r.label) + (*r.unit ? " [" + std::string(r.unit) + "]" : "");
		std::string ratio = *va > 0 ? fmt(*vb / *va) : "-";
		std::snprintf(line, sizeof(line), "%-30s %12s %12s %10s\n", label.c_str(),
		              fmt(*va).c_str(), fmt(*vb).c_str(), ratio.c_str());
		out += line;
	}
	return out;
}

} // namespace rxecc::report
