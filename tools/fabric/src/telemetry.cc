// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "telemetry.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "buffer.h"

namespace rxecc::fabric::proc
{

namespace
{

using Json = nlohmann::ordered_json;

uint64_t queue_drops(const QueueCounters &c)
{
	uint64_t n = 0;
	for (uint64_t d : c.drops)
		n += d;
	return n;
}

// Nearest rank of pct in a copy of v; 0 for none.
uint64_t percentile(std::vector<uint64_t> v, unsigned pct)
{
	if (v.empty())
		return 0;
	size_t rank = (v.size() * pct + 99) / 100;
	if (rank == 0)
		rank = 1;
	std::nth_element(v.begin(), v.begin() + static_cast<long>(rank - 1), v.end());
	return v[rank - 1];
}

uint64_t ns_to_us_rounded(uint64_t ns)
{
	return (ns + 500) / 1000;
}

void add(std::string &s, uint64_t v)
{
	s += std::to_string(v);
}

struct Field {
	const char *name;
	uint64_t value;
};

std::vector<Field> tcd_fields(const TcdStatus &ts)
{
	const TcdCounters &c = ts.counters;
	auto at = [](const auto &a, TcdState st) { return a[static_cast<size_t>(st)]; };
	return {{"tcd_state", static_cast<uint64_t>(ts.state)},
	        {"tcd_ce", c.ce},
	        {"tcd_ue", c.ue},
	        {"tcd_no", c.no},
	        {"tcd_ce_in", c.ce_in},
	        {"tcd_not_ect", c.not_ect},
	        {"tcd_to_congestion", at(c.entered, TcdState::kCongestion)},
	        {"tcd_to_undetermined", at(c.entered, TcdState::kUndetermined)},
	        {"tcd_to_noncongestion", at(c.entered, TcdState::kNonCongestion)},
	        {"tcd_congestion_us", at(ts.time_ns, TcdState::kCongestion) / 1000},
	        {"tcd_undetermined_us", at(ts.time_ns, TcdState::kUndetermined) / 1000},
	        {"tcd_noncongestion_us", at(ts.time_ns, TcdState::kNonCongestion) / 1000},
	        {"tcd_on_periods", c.on_periods},
	        {"tcd_max_on_us", c.max_on_ns / 1000}};
}

std::vector<Field> npecn_fields(const NpEcnStatus &ns)
{
	const NpEcnCounters &c = ns.counters;
	return {{"npecn_paused", ns.paused ? 1u : 0u},
	        {"npecn_pn", ns.pn},
	        {"npecn_marked", c.marked},
	        {"npecn_paused_exempt", c.paused_exempt},
	        {"npecn_unmarked", c.unmarked},
	        {"npecn_ce_in", c.ce_in},
	        {"npecn_not_ect", c.not_ect},
	        {"npecn_pauses", c.pauses},
	        {"npecn_resumes", c.resumes}};
}

// SFC (sfc.h) of a switch; the totals add them up, except the *_max
// fields, which take the largest.
std::vector<Field> sfc_fields(const SfcStatus &st)
{
	const SfcCounters &c = st.counters;
	return {{"bts_generated", c.bts_generated()},
	        {"bts_generated_queue", c.bts_generated_queue},
	        {"bts_generated_cache", c.bts_generated_cache},
	        {"bts_suppressed", c.bts_suppressed},
	        {"bts_zero", c.bts_zero},
	        {"bts_zero_dropped", c.bts_zero_dropped},
	        {"bts_seen", c.bts_seen},
	        {"bts_invalid", c.bts_invalid},
	        {"cache_updates", c.cache_updates},
	        {"cache_hits", c.cache_hits},
	        {"cache_collisions", c.cache_collisions},
	        {"cache_entries", st.cache_entries},
	        {"cache_entries_max", st.cache_entries_max},
	        {"bloom_bits_max", st.bloom_bits_max},
	        {"sfcp_frames", c.sfcp_frames}};
}

// One ACCurate CP (accurate_cp.h) of a port: the egress CP as acc_*, the
// ingress CP of a host-facing port as acc_in_*.
std::vector<Field> acc_cp_fields(const AccCp &cp, bool ingress)
{
	const AccCpCounters &c = cp.counters();
	const AccLastRrp &l = cp.last_rrp();
	const std::vector<uint64_t> v = {c.frp_normal,
	                                 c.frp_init,
	                                 c.frp_stop,
	                                 c.frp_stale,
	                                 c.frp_bad,
	                                 c.frp_bad_icrc,
	                                 c.rate_updates,
	                                 c.epoch_resyncs,
	                                 c.short_circuits,
	                                 c.negative_fsr,
	                                 c.m_zero,
	                                 c.idle,
	                                 cp.epoch(),
	                                 cp.fsr(),
	                                 l.fsr,
	                                 l.m,
	                                 l.b,
	                                 l.nb,
	                                 l.bmax};
	static const char *const eg[] = {
		"acc_frp_normal",     "acc_frp_init",     "acc_frp_stop",      "acc_frp_stale",
		"acc_frp_bad",        "acc_frp_bad_icrc", "acc_rate_updates",  "acc_epoch_resyncs",
		"acc_short_circuits", "acc_negative_fsr", "acc_m_zero",        "acc_idle",
		"acc_epoch",          "acc_fsr_kbps",     "acc_last_fsr_kbps", "acc_last_m",
		"acc_last_b_kbps",    "acc_last_nb",      "acc_last_bmax_kbps"};
	static const char *const in[] = {
		"acc_in_frp_normal",    "acc_in_frp_init",      "acc_in_frp_stop",
		"acc_in_frp_stale",     "acc_in_frp_bad",       "acc_in_frp_bad_icrc",
		"acc_in_rate_updates",  "acc_in_epoch_resyncs", "acc_in_short_circuits",
		"acc_in_negative_fsr",  "acc_in_m_zero",        "acc_in_idle",
		"acc_in_epoch",         "acc_in_fsr_kbps",      "acc_in_last_fsr_kbps",
		"acc_in_last_m",        "acc_in_last_b_kbps",   "acc_in_last_nb",
		"acc_in_last_bmax_kbps"};
	static_assert(sizeof(eg) == sizeof(in));
	std::vector<Field> f;
	for (size_t i = 0; i < v.size(); i++)
		f.push_back({ingress ? in[i] : eg[i], v[i]});
	return f;
}

bool is_max_field(const std::string &name)
{
	return name.size() > 4 && name.compare(name.size() - 4, 4, "_max") == 0;
}

bool queue_live(const QueueStatus &st)
{
	const QueueCounters &c = st.counters;
	return st.bytes || st.packets || st.paused || st.paused_ns || st.xoff || c.tx_packets ||
	       c.ecn_marks || c.xoff_sent || c.xon_sent || c.pause_rx || c.resume_rx ||
	       queue_drops(c);
}

} // namespace

Telemetry::Telemetry(const Fabric &f, std::vector<std::vector<std::string>> attach)
    : f_(f), attach_(std::move(attach))
{
}

const char *Telemetry::queues_header()
{
	return "time_us,switch,port,name,prio,queue_bytes,queue_pkts,paused,tx_pkts,tx_bytes,"
	       "ecn_marks,xoff_sent,xon_sent,pause_rx,paused_us,drops\n";
}

const char *Telemetry::ports_header()
{
	return "time_us,switch,port,name,rx_frames,rx_bytes,tx_frames,tx_bytes,"
	       "tx_control_frames,mac_control_rx\n";
}

void Telemetry::set_port_io(int sw, int port, const PortIoStats *stats)
{
	io_[{sw, port}] = stats;
}

bool Telemetry::active(const Key &k, const QueueStatus &st) const
{
	return active_.count(k) || queue_live(st);
}

void Telemetry::sample(Time t, std::string *queues_csv, std::string *ports_csv)
{
	samples_++;
	const std::string ts = std::to_string(t / 1000);
	for (int s = 0; s < f_.num_switches(); s++) {
		const Switch &sw = f_.switch_at(s);
		const std::string &swn = sw.config().name;
		for (int p = 0; p < sw.num_ports(); p++) {
			const std::string &pn = sw.config().ports[static_cast<size_t>(p)].name;
			for (int q = 0; q < kNumPriorities; q++) {
				QueueStatus st = sw.queue_status(p, q, t);
				Key k{s, p, q};
				if (!active(k, st))
					continue;
				active_[k].push_back(st.bytes);
				if (!queues_csv)
					continue;
				const QueueCounters &c = st.counters;
				std::string &o = *queues_csv;
				o += ts + "," + swn + "," + std::to_string(p) + "," + pn + "," +
				     std::to_string(q) + ",";
				for (uint64_t v : {st.bytes, static_cast<uint64_t>(st.packets),
				                   static_cast<uint64_t>(st.paused), c.tx_packets,
				                   c.tx_bytes, c.ecn_marks, c.xoff_sent, c.xon_sent,
				                   c.pause_rx, st.paused_ns / 1000}) {
					add(o, v);
					o += ',';
				}
				add(o, queue_drops(c));
				o += '\n';
			}
			if (!ports_csv)
				continue;
			const PortCounters &pc = sw.port_counters(p);
			std::string &o = *ports_csv;
			o += ts + "," + swn + "," + std::to_string(p) + "," + pn;
			for (uint64_t v : {pc.rx_frames, pc.rx_bytes, pc.tx_frames, pc.tx_bytes,
			                   pc.tx_control_frames, pc.mac_control_rx}) {
				o += ',';
				add(o, v);
			}
			o += '\n';
		}
	}
}

// Both summary formats walk the same tree; Emitter abstracts the syntax.
namespace
{

class Emitter
{
public:
	virtual ~Emitter() = default;
	virtual void begin_switch(const std::string &name) = 0;
	virtual void drops(const std::vector<Field> &f) = 0;
	virtual void sfc(const std::vector<Field> &f) = 0;
	virtual void begin_port(const std::string &name, const std::string &attach,
	                        const std::vector<Field> &f) = 0;
	virtual void queue(int prio, const std::vector<Field> &f) = 0;
	virtual void end_port() = 0;
	virtual void end_switch() = 0;
};

// The summary as a JSON tree (keys in the order written).
class JsonEmitter : public Emitter
{
public:
	Json switches = Json::array();

	static void fields(Json &o, const std::vector<Field> &f)
	{
		for (const Field &x : f)
			o[x.name] = x.value;
	}
	void begin_switch(const std::string &name) override { sw_ = Json{{"name", name}}; }
	void drops(const std::vector<Field> &f) override
	{
		Json d = Json::object();
		fields(d, f);
		sw_["drops"] = std::move(d);
		sw_["ports"] = Json::array();
	}
	void sfc(const std::vector<Field> &f) override
	{
		Json d = Json::object();
		fields(d, f);
		sw_["sfc"] = std::move(d);
	}
	void begin_port(const std::string &name, const std::string &attach,
	                const std::vector<Field> &f) override
	{
		port_ = Json{{"index", f[0].value}, {"name", name}, {"attach", attach}};
		fields(port_, std::vector<Field>(f.begin() + 1, f.end()));
		port_["queues"] = Json::array();
	}
	void queue(int prio, const std::vector<Field> &f) override
	{
		Json q = {{"prio", prio}};
		fields(q, f);
		port_["queues"].push_back(std::move(q));
	}
	void end_port() override { sw_["ports"].push_back(std::move(port_)); }
	void end_switch() override { switches.push_back(std::move(sw_)); }

private:
	Json sw_, port_;
};

class FlatEmitter : public Emitter
{
public:
	std::string out;

	void fields(const std::string &prefix, const std::vector<Field> &f)
	{
		for (const auto &x : f)
			out += prefix + x.name + " " + std::to_string(x.value) + "\n";
	}
	void begin_switch(const std::string &name) override { sw_ = name; }
	void drops(const std::vector<Field> &f) override { fields(sw_ + ".drops.", f); }
	void sfc(const std::vector<Field> &f) override { fields(sw_ + ".sfc.", f); }
	void begin_port(const std::string &name, const std::string &attach,
	                const std::vector<Field> &f) override
	{
		port_ = sw_ + "." + name + ".";
		out += port_ + "attach " + (attach.empty() ? "-" : attach) + "\n";
		fields(port_, f);
	}
	void queue(int prio, const std::vector<Field> &f) override
	{
		fields(port_ + "q" + std::to_string(prio) + ".", f);
	}
	void end_port() override {}
	void end_switch() override {}

private:
	std::string sw_, port_;
};

struct Totals {
	uint64_t drops = 0, pfc_sent = 0, pfc_rx = 0;
	std::vector<Field> sfc; // empty: no switch has SFC
};

} // namespace

static Totals walk(const Fabric &f, const std::vector<std::vector<std::string>> &attach,
                   const std::map<std::tuple<int, int, int>, std::vector<uint64_t>> &active,
                   const std::map<std::pair<int, int>, const PortIoStats *> &io, Time now,
                   Emitter &e)
{
	Totals tot;
	for (int s = 0; s < f.num_switches(); s++) {
		const Switch &sw = f.switch_at(s);
		e.begin_switch(sw.config().name);
		std::vector<Field> drops;
		for (int r = 0; r < kNumDropReasons; r++) {
			auto reason = static_cast<DropReason>(r);
			drops.push_back({to_string(reason), sw.drops(reason)});
		}
		tot.drops += sw.total_drops();
		e.drops(drops);
		// Switches with SFC only, so a fabric without it reports what
		// it always did.
		SfcStatus ss = sw.sfc_status(now);
		if (ss.enabled) {
			std::vector<Field> sf = sfc_fields(ss);
			e.sfc(sf);
			if (tot.sfc.empty())
				for (Field x : sf)
					tot.sfc.push_back({x.name, 0});
			for (size_t i = 0; i < sf.size(); i++)
				tot.sfc[i].value = is_max_field(sf[i].name)
				                           ? std::max(tot.sfc[i].value, sf[i].value)
				                           : tot.sfc[i].value + sf[i].value;
		}
		for (int p = 0; p < sw.num_ports(); p++) {
			const PortConfig &pc = sw.config().ports[static_cast<size_t>(p)];
			const PortCounters &c = sw.port_counters(p);
			tot.pfc_rx += c.mac_control_rx;
			const std::string at =
				static_cast<size_t>(s) < attach.size() &&
						static_cast<size_t>(p) <
							attach[static_cast<size_t>(s)].size()
					? attach[static_cast<size_t>(s)][static_cast<size_t>(p)]
					: "";
			auto ioi = io.find({s, p});
			const PortIoStats ios =
				ioi != io.end() && ioi->second ? *ioi->second : PortIoStats{};
			// Frames the port's attachment refused count as drops:
			// the fabric forwarded them, and no host got them; so do
			// frames the kernel dropped before the fabric read them.
			tot.drops += ios.tx_dropped + ios.rx_lost;
			std::vector<Field> pf = {{"index", static_cast<uint64_t>(p)},
			                         {"rate_bps", pc.rate_bps},
			                         {"delay_ns", pc.delay_ns},
			                         {"rx_frames", c.rx_frames},
			                         {"rx_bytes", c.rx_bytes},
			                         {"tx_frames", c.tx_frames},
			                         {"tx_bytes", c.tx_bytes},
			                         {"tx_control_frames", c.tx_control_frames},
			                         {"mac_control_rx", c.mac_control_rx},
			                         {"tx_lost", ios.tx_dropped},
			                         {"tx_unsent", ios.tx_unsent},
			                         {"rx_lost", ios.rx_lost},
			                         {"rx_errors", ios.rx_errors},
			                         {"rx_oversize", ios.rx_oversize},
			                         {"rx_csum_fixed", ios.rx_csum_fixed},
			                         {"rx_csum_unsupported", ios.rx_csum_unsupported}};
			// Ports that stamp INT (int_stamp.h) only, so a fabric
			// without INT reports what it always did.
			if (uint8_t code = sw.int_rate_code(p)) {
				const IntCounters &ic = sw.int_counters(p);
				pf.insert(pf.end(), {{"int_rate_code", code},
				                     {"int_stamped", ic.stamped},
				                     {"int_no_space", ic.no_space},
				                     {"int_too_short", ic.too_short},
				                     {"int_not_data", ic.not_data}});
			}
			// Likewise ACCurate (accurate.h).
			AccStatus as = sw.accurate_status(p);
			if (as.enabled) {
				pf.push_back({"acc_c_kbps", as.egress->c()});
				pf.push_back({"acc_ceff_kbps", as.egress->ceff()});
				pf.push_back({"acc_resp_seen", as.resp_seen});
				std::vector<Field> af = acc_cp_fields(*as.egress, false);
				pf.insert(pf.end(), af.begin(), af.end());
				if (as.ingress) {
					af = acc_cp_fields(*as.ingress, true);
					pf.insert(pf.end(), af.begin(), af.end());
				}
			}
			// Likewise host uplinks (uplink.h).
			if (const Uplink *up = f.uplink(s, p)) {
				const UplinkCounters &uc = up->counters();
				pf.insert(pf.end(),
				          {{"uplink_xoff", up->params().xoff},
				           {"uplink_xon", up->params().xon},
				           {"uplink_rx_frames", uc.rx_frames},
				           {"uplink_rx_bytes", uc.rx_bytes},
				           {"uplink_backlog_bytes", up->backlog_bytes()},
				           {"uplink_max_backlog_bytes", uc.max_backlog_bytes},
				           {"uplink_xoff_sent", uc.xoff_sent},
				           {"uplink_xon_sent", uc.xon_sent},
				           {"uplink_xon_deferred", uc.xon_deferred},
				           {"uplink_pause_rx", uc.pause_rx}});
			}
			e.begin_port(pc.name, at, pf);
			for (int q = 0; q < kNumPriorities; q++) {
				QueueStatus st = sw.queue_status(p, q, now);
				const QueueCounters &qc = st.counters;
				tot.pfc_sent += qc.xoff_sent + qc.xon_sent;
				auto it = active.find({s, p, q});
				if (it == active.end() && !queue_live(st))
					continue;
				std::vector<uint64_t> none;
				const std::vector<uint64_t> &samples =
					it != active.end() ? it->second : none;
				std::vector<Field> qf = {
					{"tx_pkts", qc.tx_packets},
					{"tx_bytes", qc.tx_bytes},
					{"ecn_marks", qc.ecn_marks},
					{"xoff_sent", qc.xoff_sent},
					{"xon_sent", qc.xon_sent},
					{"pause_rx", qc.pause_rx},
					{"resume_rx", qc.resume_rx},
					{"paused_us", st.paused_ns / 1000},
					{"drops", queue_drops(qc)},
					{"max_queue_bytes", qc.max_queue_bytes},
					{"queue_bytes_p50", percentile(samples, 50)},
					{"queue_bytes_p99", percentile(samples, 99)}};
				// Queues with TCD (tcd.h) only, so a fabric without it
				// reports what it always did.
				TcdStatus ts = sw.tcd_status(p, q, now);
				if (ts.enabled) {
					std::vector<Field> tf = tcd_fields(ts);
					qf.insert(qf.end(), tf.begin(), tf.end());
				}
				// Likewise NP-ECN (npecn.h).
				NpEcnStatus ns = sw.npecn_status(p, q);
				if (ns.enabled) {
					std::vector<Field> nf = npecn_fields(ns);
					qf.insert(qf.end(), nf.begin(), nf.end());
				}
				e.queue(q, qf);
			}
			e.end_port();
		}
		e.end_switch();
	}
	return tot;
}

std::string Telemetry::json(Time now, const LatenessHistogram &lat) const
{
	JsonEmitter e;
	Totals t = walk(f_, attach_, active_, io_, now, e);
	Json doc = {
		{"time_us", now / 1000},
		{"switches", std::move(e.switches)},
		{"total_drops", t.drops},
		{"pfc_frames_sent", t.pfc_sent},
		{"pfc_frames_rx", t.pfc_rx},
		{"delivery_lateness_us",
	         {{"p50", ns_to_us_rounded(lat.percentile_ns(50))},
	          {"p99", ns_to_us_rounded(lat.percentile_ns(99))},
	          {"max", ns_to_us_rounded(lat.max_ns())}}},
		{"delivery_lateness_ns",
	         {{"p50", lat.percentile_ns(50)},
	          {"p99", lat.percentile_ns(99)},
	          {"max", lat.max_ns()}}},
		{"deliveries", lat.count()},
	};
	if (!t.sfc.empty()) {
		Json sfc = Json::object();
		JsonEmitter::fields(sfc, t.sfc);
		doc["sfc"] = std::move(sfc);
	}
	// An attachment is a path the user gave: bytes that are not UTF-8
	// become U+FFFD rather than an exception.
	return doc.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string Telemetry::flat(Time now, const LatenessHistogram &lat) const
{
	FlatEmitter e;
	e.out = "time_us " + std::to_string(now / 1000) + "\n";
	Totals t = walk(f_, attach_, active_, io_, now, e);
	std::string &o = e.out;
	o += "total_drops " + std::to_string(t.drops) + "\n";
	o += "pfc_frames_sent " + std::to_string(t.pfc_sent) + "\n";
	o += "pfc_frames_rx " + std::to_string(t.pfc_rx) + "\n";
	o += "delivery_lateness_us.p50 " + std::to_string(ns_to_us_rounded(lat.percentile_ns(50))) +
	     "\n";
	o += "delivery_lateness_us.p99 " + std::to_string(ns_to_us_rounded(lat.percentile_ns(99))) +
	     "\n";
	o += "delivery_lateness_us.max " + std::to_string(ns_to_us_rounded(lat.max_ns())) + "\n";
	o += "delivery_lateness_ns.p50 " + std::to_string(lat.percentile_ns(50)) + "\n";
	o += "delivery_lateness_ns.p99 " + std::to_string(lat.percentile_ns(99)) + "\n";
	o += "delivery_lateness_ns.max " + std::to_string(lat.max_ns()) + "\n";
	o += "deliveries " + std::to_string(lat.count()) + "\n";
	for (const Field &x : t.sfc)
		o += std::string("sfc.") + x.name + " " + std::to_string(x.value) + "\n";
	return o;
}

} // namespace rxecc::fabric::proc
