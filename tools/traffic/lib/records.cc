// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "records.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

#include "csv_read.h"
#include "text.h"
#include "units.h"

namespace rxecc::traffic
{

const char kFlowsHeader[] =
	"flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_ns,start_ns,"
	"first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,status,dst_qpns";
const char kRxHeader[] = "flow,first_byte_ns,last_byte_ns,bytes,msgs,status";
const char kBinsHeader[] = "flow,bin_start_ns,bytes";
const char kMessagesHeader[] = "flow,msg,bytes,post_ns,complete_ns,qp";

namespace
{

constexpr std::size_t kFlowsFields = 20;

template <typename T>
std::string opt(const std::optional<T> &v)
{
	return v ? std::to_string(*v) : std::string();
}

std::string qpn_list(const std::vector<std::uint32_t> &q)
{
	std::string s;
	for (size_t i = 0; i < q.size(); i++)
		s += (i ? ";" : "") + std::to_string(q[i]);
	return s;
}

// The schedule's own columns of a flow (flow .. sched_start_ns).
std::string spec_fields(const FlowSpec &f)
{
	return f.name + "," + f.src + "," + f.dst + "," + verb_name(f.opt.verb) + "," +
	       opt(f.size_bytes) + "," + opt(f.duration_ns) + "," +
	       std::to_string(f.opt.msg_bytes) + "," + std::to_string(f.opt.qps) + "," +
	       std::to_string(f.opt.dscp) + "," + std::to_string(f.start_ns);
}

std::string join(const std::vector<std::string> &v, size_t from, size_t to)
{
	std::string s;
	for (size_t i = from; i < to; i++)
		s += (i > from ? "," : "") + v[i];
	return s;
}

bool status_ok(const std::string &s)
{
	if (s.empty())
		return false;
	for (char c : s)
		if (c == ',' || c == '"' || c == '\n' || c == '\r')
			return false;
	return true;
}

bool ensure_dir(const std::string &d, std::string *err)
{
	if (mkdir(d.c_str(), 0755) == 0 || errno == EEXIST)
		return true;
	if (err)
		*err = d + ": " + std::strerror(errno);
	return false;
}

// ---- reading what the hosts wrote --------------------------------------

struct FieldError {
	std::string msg;
};

std::optional<std::int64_t> opt_int(const std::string &s, const char *col)
{
	if (s.empty())
		return std::nullopt;
	auto v = parse_int(s);
	if (!v)
		throw FieldError{std::string(col) + ": '" + s + "' is not a whole number"};
	return v;
}

std::optional<std::uint64_t> opt_uint(const std::string &s, const char *col)
{
	if (s.empty())
		return std::nullopt;
	auto v = parse_uint(s);
	if (!v)
		throw FieldError{std::string(col) + ": '" + s + "' is not a whole number"};
	return v;
}

std::uint64_t req_uint(const std::string &s, const char *col)
{
	auto v = opt_uint(s, col);
	if (!v)
		throw FieldError{std::string(col) + ": empty"};
	return *v;
}

std::vector<std::uint32_t> qpn_field(const std::string &s, const char *col)
{
	std::vector<std::uint32_t> out;
	if (s.empty())
		return out;
	for (auto part : split_on(s, ';')) {
		auto v = parse_uint(part);
		if (!v || *v > 0xffffff)
			throw FieldError{std::string(col) + ": '" + s +
			                 "' is not a list of QP numbers (a;b;...)"};
		out.push_back(static_cast<std::uint32_t>(*v));
	}
	return out;
}

struct HostFiles {
	std::map<std::string, FlowRecord> flows;
	std::map<std::string, RxRecord> rx;
	std::map<std::string, std::string> bins, msgs; // flow -> rows
	nlohmann::json meta;
	bool have_meta = false;
};

bool file_exists(const std::string &p)
{
	struct stat st {
	};
	return stat(p.c_str(), &st) == 0;
}

// Reads DIR/HOST/NAME if it exists: its rows after a header that must be
// `header`. False with *err on a bad file.
bool read_table(const std::string &path, const char *header, bool &present,
                std::vector<CsvRow> &rows, std::string *err)
{
	present = file_exists(path);
	if (!present)
		return true;
	std::string text;
	if (!read_file(path, text, err))
		return false;
	if (!read_csv(text, path, rows, err))
		return false;
	const std::string want(header);
	if (rows.empty() || join(rows[0].fields, 0, rows[0].fields.size()) != want) {
		*err = path + ":1: the header is not " + want;
		return false;
	}
	rows.erase(rows.begin());
	return true;
}

} // namespace

// Rows of a flows.csv: of one host (driver == that host) or merged ("").
bool read_flows_table(const std::string &path, const Schedule &s, const std::string &driver,
                      std::map<std::string, FlowRecord> &out, std::string *err)
{
	std::vector<CsvRow> rows;
	bool present = false;
	int line = 0;
	auto bad = [&](const std::string &msg) {
		*err = path + ":" + std::to_string(line) + ": " + msg;
		return false;
	};
	if (!read_table(path, kFlowsHeader, present, rows, err))
		return false;
	if (!present && driver.empty()) {
		*err = path + ": missing";
		return false;
	}
	try {
		for (const auto &r : rows) {
			line = r.line;
			if (r.fields.size() != kFlowsFields)
				return bad("expected " + std::to_string(kFlowsFields) +
				           " fields, found " + std::to_string(r.fields.size()));
			const FlowSpec *f = s.find(r.fields[0]);
			if (!f)
				return bad("flow '" + r.fields[0] + "' is not in the schedule");
			if (!driver.empty() && f->driver() != driver)
				return bad("flow '" + f->name + "' is not driven by " + driver);
			if (join(r.fields, 0, 10) != spec_fields(*f))
				return bad("flow '" + f->name + "' does not match the schedule (" +
				           join(r.fields, 0, 10) + ")");
			if (out.count(f->name))
				return bad("flow '" + f->name + "' recorded twice");
			FlowRecord rec;
			rec.start_ns = opt_int(r.fields[10], "start_ns");
			rec.first_byte_ns = opt_int(r.fields[11], "first_byte_ns");
			rec.last_byte_ns = opt_int(r.fields[12], "last_byte_ns");
			rec.complete_ns = opt_int(r.fields[13], "complete_ns");
			rec.bytes = opt_uint(r.fields[14], "bytes");
			rec.msgs = opt_uint(r.fields[15], "msgs");
			rec.retx = opt_uint(r.fields[16], "retx");
			rec.qpns = qpn_field(r.fields[17], "qpns");
			rec.status = r.fields[18];
			if (!status_ok(rec.status))
				return bad("status: empty or not a single field");
			rec.dst_qpns = qpn_field(r.fields[19], "dst_qpns");
			out.emplace(f->name, std::move(rec));
		}
	} catch (const FieldError &e) {
		return bad(e.msg);
	}
	return true;
}

namespace
{

bool read_host(const std::string &dir, const std::string &host, const Schedule &s, HostFiles &hf,
               std::string *err)
{
	const std::string base = dir + "/" + host + "/";
	std::vector<CsvRow> rows;
	bool present = false;
	std::string path = base + "flows.csv";
	int line = 0;
	auto bad = [&](const std::string &msg) {
		*err = path + ":" + std::to_string(line) + ": " + msg;
		return false;
	};
	auto flow_of = [&](const std::string &name, bool driven) -> const FlowSpec * {
		const FlowSpec *f = s.find(name);
		if (!f)
			throw FieldError{"flow '" + name + "' is not in the schedule"};
		if (driven && f->driver() != host)
			throw FieldError{"flow '" + name + "' is not driven by " + host};
		if (!driven && (f->passive() != host || f->opt.verb != Verb::kSend))
			throw FieldError{"flow '" + name + "' is not a SEND flow received by " +
			                 host};
		return f;
	};
	if (!read_flows_table(path, s, host, hf.flows, err))
		return false;
	try {
		path = base + "rx.csv";
		rows.clear();
		if (!read_table(path, kRxHeader, present, rows, err))
			return false;
		for (const auto &r : rows) {
			line = r.line;
			if (r.fields.size() != 6)
				return bad("expected 6 fields, found " +
				           std::to_string(r.fields.size()));
			const FlowSpec *f = flow_of(r.fields[0], false);
			if (hf.rx.count(f->name))
				return bad("flow '" + f->name + "' recorded twice");
			RxRecord rx;
			rx.first_byte_ns = opt_int(r.fields[1], "first_byte_ns");
			rx.last_byte_ns = opt_int(r.fields[2], "last_byte_ns");
			rx.bytes = req_uint(r.fields[3], "bytes");
			rx.msgs = req_uint(r.fields[4], "msgs");
			rx.status = r.fields[5];
			if (!status_ok(rx.status))
				return bad("status: empty or not a single field");
			hf.rx.emplace(f->name, std::move(rx));
		}

		path = base + "bins.csv";
		rows.clear();
		if (!read_table(path, kBinsHeader, present, rows, err))
			return false;
		for (const auto &r : rows) {
			line = r.line;
			if (r.fields.size() != 3)
				return bad("expected 3 fields, found " +
				           std::to_string(r.fields.size()));
			const FlowSpec *f = flow_of(r.fields[0], true);
			if (!opt_int(r.fields[1], "bin_start_ns"))
				return bad("bin_start_ns: empty");
			req_uint(r.fields[2], "bytes");
			hf.bins[f->name] += join(r.fields, 0, 3) + "\n";
		}

		path = base + "messages.csv";
		rows.clear();
		if (!read_table(path, kMessagesHeader, present, rows, err))
			return false;
		for (const auto &r : rows) {
			line = r.line;
			if (r.fields.size() != 6)
				return bad("expected 6 fields, found " +
				           std::to_string(r.fields.size()));
			const FlowSpec *f = flow_of(r.fields[0], true);
			req_uint(r.fields[1], "msg");
			req_uint(r.fields[2], "bytes");
			if (!opt_int(r.fields[3], "post_ns"))
				return bad("post_ns: empty");
			opt_int(r.fields[4], "complete_ns");
			req_uint(r.fields[5], "qp");
			hf.msgs[f->name] += join(r.fields, 0, 6) + "\n";
		}
	} catch (const FieldError &e) {
		return bad(e.msg);
	}

	path = base + "host.json";
	line = 1;
	if (file_exists(path)) {
		std::string text;
		if (!read_file(path, text, err))
			return false;
		hf.meta = nlohmann::json::parse(text, nullptr, false);
		if (hf.meta.is_discarded() || !hf.meta.is_object())
			return bad("not a JSON object");
		if (!hf.meta.contains("host") || hf.meta["host"] != host)
			return bad("\"host\" is not \"" + host + "\"");
		hf.have_meta = true;
	}
	return true;
}

} // namespace

std::string flow_row(const FlowSpec &f, const FlowRecord &r)
{
	return spec_fields(f) + "," + opt(r.start_ns) + "," + opt(r.first_byte_ns) + "," +
	       opt(r.last_byte_ns) + "," + opt(r.complete_ns) + "," + opt(r.bytes) + "," +
	       opt(r.msgs) + "," + opt(r.retx) + "," + qpn_list(r.qpns) + "," + r.status + "," +
	       qpn_list(r.dst_qpns);
}

std::string rx_row(const std::string &flow, const RxRecord &r)
{
	return flow + "," + opt(r.first_byte_ns) + "," + opt(r.last_byte_ns) + "," +
	       std::to_string(r.bytes) + "," + std::to_string(r.msgs) + "," + r.status;
}

std::string bins_rows(const std::string &flow, const Bins &b)
{
	std::string out;
	const auto &v = b.bytes();
	for (size_t i = 0; i < v.size(); i++) {
		const std::int64_t start = (b.first_bin() + static_cast<std::int64_t>(i)) *
		                           static_cast<std::int64_t>(b.bin_ns());
		out += flow + "," + std::to_string(start) + "," + std::to_string(v[i]) + "\n";
	}
	return out;
}

std::string messages_rows(const std::string &flow, const std::vector<MessageRecord> &m)
{
	std::string out;
	for (size_t i = 0; i < m.size(); i++)
		out += flow + "," + std::to_string(i) + "," + std::to_string(m[i].bytes) + "," +
		       std::to_string(m[i].post_ns) + "," + opt(m[i].complete_ns) + "," +
		       std::to_string(m[i].qp) + "\n";
	return out;
}

bool write_host_output(const std::string &dir, const HostOutput &out, std::string *err)
{
	const std::string d = dir + "/" + out.host;
	if (!ensure_dir(d, err))
		return false;
	std::string flows = std::string(kFlowsHeader) + "\n";
	std::string bins = std::string(kBinsHeader) + "\n";
	std::string msgs = std::string(kMessagesHeader) + "\n";
	for (const auto &[spec, prog] : out.driven) {
		flows += flow_row(*spec, prog->record()) + "\n";
		bins += bins_rows(spec->name, prog->bins());
		if (prog->logs_messages())
			msgs += messages_rows(spec->name, prog->messages());
	}
	std::string rx = std::string(kRxHeader) + "\n";
	for (const auto &[name, r] : out.received)
		rx += rx_row(name, r) + "\n";
	return write_file(d + "/flows.csv", flows, err) && write_file(d + "/rx.csv", rx, err) &&
	       write_file(d + "/bins.csv", bins, err) &&
	       write_file(d + "/messages.csv", msgs, err) &&
	       write_file(d + "/host.json", out.meta.dump(1) + "\n", err);
}

StartErrors start_errors(const std::vector<std::int64_t> &errors_ns)
{
	StartErrors s;
	if (errors_ns.empty())
		return s;
	std::vector<std::int64_t> v = errors_ns;
	std::sort(v.begin(), v.end());
	s.count = v.size();
	s.p50 = percentile(v, 50);
	s.p99 = percentile(v, 99);
	s.max = v.back();
	return s;
}

bool merge_records(const std::string &dir, const Schedule &s, MergeResult &res, std::string *err)
{
	std::map<std::string, HostFiles> hosts;
	for (const auto &h : s.hosts())
		if (!read_host(dir, h, s, hosts[h], err))
			return false;

	std::string flows = std::string(kFlowsHeader) + "\n";
	std::string bins = std::string(kBinsHeader) + "\n";
	std::string msgs = std::string(kMessagesHeader) + "\n";
	nlohmann::json status = nlohmann::json::object();
	std::vector<std::int64_t> errs;
	res = MergeResult{};
	for (const auto &f : s.flows) {
		HostFiles &d = hosts[f.driver()];
		FlowRecord rec;
		if (auto it = d.flows.find(f.name); it != d.flows.end())
			rec = it->second;
		else
			rec.status = "no_record";
		if (f.opt.verb == Verb::kSend) {
			HostFiles &r = hosts[f.passive()];
			if (auto it = r.rx.find(f.name); it != r.rx.end()) {
				rec.first_byte_ns = it->second.first_byte_ns;
				rec.last_byte_ns = it->second.last_byte_ns;
			}
		}
		flows += flow_row(f, rec) + "\n";
		bins += d.bins[f.name];
		msgs += d.msgs[f.name];
		status[f.name] = rec.status;
		res.flows++;
		if (rec.status == "ok")
			res.ok++;
		else
			res.failed[f.name] = rec.status;
		if (rec.start_ns)
			errs.push_back(*rec.start_ns - static_cast<std::int64_t>(f.start_ns));
	}
	res.start = start_errors(errs);

	nlohmann::json sum;
	nlohmann::json hj = nlohmann::json::object();
	std::set<std::string> t0m, t0r, bin_widths;
	std::string version;
	for (auto &[name, hf] : hosts) {
		if (!hf.have_meta)
			continue;
		hj[name] = hf.meta;
		if (hf.meta.contains("settings") && hf.meta["settings"].is_object() &&
		    hf.meta["settings"].contains("bin_ns"))
			bin_widths.insert(hf.meta["settings"]["bin_ns"].dump());
		if (hf.meta.contains("t0_monotonic_ns"))
			t0m.insert(hf.meta["t0_monotonic_ns"].dump());
		if (hf.meta.contains("t0_realtime_ns"))
			t0r.insert(hf.meta["t0_realtime_ns"].dump());
		if (hf.meta.contains("version") && hf.meta["version"].is_string())
			version = hf.meta["version"];
	}
	char hash[32];
	std::snprintf(hash, sizeof(hash), "%016llx",
	              static_cast<unsigned long long>(schedule_hash(s)));
	sum["version"] = version;
	sum["schedule_hash"] = hash;
	// one T0 for every host (launch), else per host only
	sum["t0_monotonic_ns"] = t0m.size() == 1 ? nlohmann::json::parse(*t0m.begin()) : nullptr;
	sum["t0_realtime_ns"] = t0r.size() == 1 ? nlohmann::json::parse(*t0r.begin()) : nullptr;
	sum["bin_ns"] =
		bin_widths.size() == 1 ? nlohmann::json::parse(*bin_widths.begin()) : nullptr;
	sum["hosts"] = hj;
	sum["flows"] = {{"total", res.flows},
	                {"ok", res.ok},
	                {"failed", res.flows - res.ok},
	                {"status", status}};
	nlohmann::json se;
	se["count"] = res.start.count;
	if (res.start.count) {
		se["p50"] = res.start.p50;
		se["p99"] = res.start.p99;
		se["max"] = res.start.max;
	} else {
		se["p50"] = se["p99"] = se["max"] = nullptr;
	}
	sum["start_error_ns"] = se;

	return write_file(dir + "/flows.csv", flows, err) &&
	       write_file(dir + "/bins.csv", bins, err) &&
	       write_file(dir + "/messages.csv", msgs, err) &&
	       write_file(dir + "/summary.json", sum.dump(1) + "\n", err);
}

std::map<WireKey, WireTotals> wire_counts(const Schedule &s,
                                          const std::map<std::string, FlowRecord> &recs,
                                          std::uint64_t mtu, std::vector<std::string> *skipped)
{
	std::map<WireKey, WireTotals> out;
	for (const auto &f : s.flows) {
		auto it = recs.find(f.name);
		if (it == recs.end() || it->second.status != "ok" || !it->second.msgs) {
			if (skipped)
				skipped->push_back(f.name);
			continue;
		}
		WireTotals &fw = out[WireKey{f.src, f.dst, f.opt.dscp}];
		WireTotals &bw = out[WireKey{f.dst, f.src, f.opt.dscp}];
		const std::uint64_t n = *it->second.msgs;
		const WireCount full = message_frames(f.opt.verb, f.opt.msg_bytes, mtu);
		// a sized flow's last message may be shorter
		const WireCount last =
			f.size_bytes && n ? message_frames(f.opt.verb, f.message_bytes(n - 1), mtu)
					  : full;
		if (n) {
			fw.data.frames += (n - 1) * full.frames + last.frames;
			fw.data.bytes += (n - 1) * full.bytes + last.bytes;
		}
		// per QP: REQ, RTU, DREQ from the driver; REP, DREP to it
		const bool src_drives = f.driver() == f.src;
		WireTotals &from_driver = src_drives ? fw : bw, &to_driver = src_drives ? bw : fw;
		from_driver.cm.frames += 3ULL * f.opt.qps;
		to_driver.cm.frames += 2ULL * f.opt.qps;
		from_driver.cm.bytes += 3ULL * f.opt.qps * kCmFrameBytes;
		to_driver.cm.bytes += 2ULL * f.opt.qps * kCmFrameBytes;
	}
	return out;
}

WireCompare compare_wire(const WireTotals &want, std::uint64_t frames, std::uint64_t bytes)
{
	WireCompare c;
	const std::uint64_t wf = want.data.frames + want.cm.frames;
	const std::uint64_t wb = want.data.bytes + want.cm.bytes;
	const std::string got = std::to_string(frames) + " frames, " + std::to_string(bytes) +
	                        " bytes; the records account for " +
	                        std::to_string(want.data.frames) + " data frames (" +
	                        std::to_string(want.data.bytes) + " bytes) and " +
	                        std::to_string(want.cm.frames) + " connection management frames (" +
	                        std::to_string(want.cm.bytes) + " bytes)";
	if (frames < wf || bytes < wb) {
		c.message = "fewer frames or bytes than the records account for: " + got;
		return c;
	}
	const std::uint64_t xf = frames - wf, xb = bytes - wb;
	if (xb != xf * kCmFrameBytes) {
		c.message = std::to_string(xf) + " extra frames of " + std::to_string(xb) +
		            " bytes are not connection management frames: " + got;
		return c;
	}
	c.match = true;
	c.repeated_cm = xf;
	c.message = "match: " + got +
	            (xf ? ", and " + std::to_string(xf) + " repeated connection management frames"
	                : std::string());
	return c;
}

std::string summary_line(const MergeResult &r)
{
	std::string s = std::to_string(r.ok) + " of " + std::to_string(r.flows) + " flows ok";
	if (r.start.count) {
		char b[160];
		std::snprintf(b, sizeof(b),
		              "; start error p50 %.1f us, p99 %.1f us, max %.1f us (%zu flows)",
		              static_cast<double>(r.start.p50) / 1e3,
		              static_cast<double>(r.start.p99) / 1e3,
		              static_cast<double>(r.start.max) / 1e3, r.start.count);
		s += b;
	}
	return s;
}

} // namespace rxecc::traffic
