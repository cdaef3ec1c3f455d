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
	double scale; // value = file value * scale (/ the per key's value)
	const char *unit;
	const char *per; // nullptr, or a key whose value divides the row's
};

const std::vector<Row> &rows()
{
	static const std::vector<Row> r = {
		{"boot and power-off", "boot_us", 1e-6, "s", nullptr},
		// bytes the receiver's veth took in over the transfer's time
		{"ib_write_bw, one QP", "write_rx_bytes", 8e-3, "Gbit/s", "write_us"},
		{"ib_send_lat, typical", "send_lat_us", 1, "us", nullptr},
		{"100 us sleep, lateness p50", "sleep_late_us_p50", 1, "us", nullptr},
		{"100 us sleep, lateness p99", "sleep_late_us_p99", 1, "us", nullptr},
		{"selftest suite", "suite_us", 1e-6, "s", nullptr},
		// test kernels that ran parts of the suite side by side
		{"  test kernels side by side", "suite_kernels", 1, "", nullptr},
		{"selftests failed", "suite_failed", 1, "", nullptr},
		{"4:1 incast, 100 Mbit/s: wall", "incast_us", 1e-6, "s", nullptr},
		{"4:1 incast: utilisation", "incast_util_pct", 1, "%", nullptr},
		{"CPUs", "cpus", 1, "", nullptr},
	};
	return r;
}

std::optional<double> number(const Meta &m, const std::string &key)
{
	std::string v = m.get(key);
	if (v.empty())
		return std::nullopt;
	char *end = nullptr;
	double d = std::strtod(v.c_str(), &end);
	if (end == v.c_str() || *end != '\0' || !std::isfinite(d) || d < 0)
		throw Error(m.path() + ": " + key + "=" + v + ": not a number");
	return d;
}

std::optional<double> value(const Meta &m, const Row &r)
{
	auto v = number(m, r.key);
	if (!v || !r.per)
		return v ? std::optional<double>(*v * r.scale) : std::nullopt;
	auto per = number(m, r.per);
	if (!per || *per <= 0)
		throw Error(m.path() + ": " + r.key + " needs " + r.per + " > 0");
	return *v * r.scale / *per;
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
		// a figure one testbed could not measure (perftest's clock
		// calibration fails at times): "-", and no ratio
		std::string label =
			std::string(r.label) + (*r.unit ? " [" + std::string(r.unit) + "]" : "");
		std::string ratio = va && vb && *va > 0 ? fmt(*vb / *va) : "-";
		std::snprintf(line, sizeof(line), "%-30s %12s %12s %10s\n", label.c_str(),
		              va ? fmt(*va).c_str() : "-", vb ? fmt(*vb).c_str() : "-",
		              ratio.c_str());
		out += line;
	}
	return out;
}

} // namespace rxecc::report
