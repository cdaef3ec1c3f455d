// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCurate's congestion point; see accurate_cp.h.
#include "accurate_cp.h"

#include <algorithm>

namespace rxecc::fabric
{

AccEth AccEth::parse(const uint8_t *b)
{
	AccEth a;
	a.type = static_cast<uint8_t>(b[0] >> 4);
	a.flags = static_cast<uint8_t>(b[0] & 0xf);
	a.sc_hop = b[1];
	a.epoch = static_cast<uint16_t>(b[2] << 8 | b[3]);
	a.cr_kbps = static_cast<uint32_t>(b[4]) << 24 | static_cast<uint32_t>(b[5]) << 16 |
	            static_cast<uint32_t>(b[6]) << 8 | b[7];
	a.dr_kbps = static_cast<uint32_t>(b[8]) << 24 | static_cast<uint32_t>(b[9]) << 16 |
	            static_cast<uint32_t>(b[10]) << 8 | b[11];
	a.version = b[12];
	a.src_qpn = static_cast<uint32_t>(b[13]) << 16 | static_cast<uint32_t>(b[14]) << 8 | b[15];
	return a;
}

void AccEth::put(uint8_t *b) const
{
	b[0] = static_cast<uint8_t>(type << 4 | (flags & 0xf));
	b[1] = sc_hop;
	b[2] = static_cast<uint8_t>(epoch >> 8);
	b[3] = static_cast<uint8_t>(epoch);
	for (int i = 0; i < 4; i++) {
		b[4 + i] = static_cast<uint8_t>(cr_kbps >> (24 - 8 * i));
		b[8 + i] = static_cast<uint8_t>(dr_kbps >> (24 - 8 * i));
	}
	b[12] = version;
	b[13] = static_cast<uint8_t>(src_qpn >> 16);
	b[14] = static_cast<uint8_t>(src_qpn >> 8);
	b[15] = static_cast<uint8_t>(src_qpn);
}

AccCp::AccCp(const AccCpParams &p)
    : p_(p), ceff_(static_cast<uint32_t>(p.c_kbps -
                                         static_cast<uint64_t>(p.c_kbps) * p.alpha_ppm / 1000000))
{
	cur_.fsr = ceff_;
	old_.fsr = ceff_;
	last_.fsr = ceff_;
}

uint32_t AccCp::compute_fsr(uint32_t m, uint64_t b, uint32_t nb, uint32_t bmax)
{
	return std::max<uint32_t>(1, eq1(m, b, nb, bmax));
}

uint32_t AccCp::eq1(uint32_t m, uint64_t b, uint32_t nb, uint32_t bmax)
{
	if (m == 0) {
		if (b == 0 || nb == 0) {
			c_.idle++;
			return ceff_;
		}
		c_.m_zero++;
		m = 1;
		b -= std::min<uint64_t>(b, bmax);
		nb--;
	}
	if (b >= ceff_) {
		c_.negative_fsr++;
		uint64_t cap = p_.neg_ceff ? ceff_ : p_.c_kbps;
		return static_cast<uint32_t>(cap / (static_cast<uint64_t>(m) + nb));
	}
	return static_cast<uint32_t>((ceff_ - b) / m);
}

void AccCp::rrp_end()
{
	old_ = cur_;
	last_ = cur_;
	AccRegs next;
	next.fsr = compute_fsr(cur_.m, cur_.b, cur_.nb, cur_.bmax);
	last_.fsr = next.fsr;
	cur_ = next;
	c_.rate_updates++;
}

AccEpoch AccCp::on_epoch(uint16_t e)
{
	if (!has_epoch_) {
		has_epoch_ = true;
		epoch_ = e;
		return AccEpoch::kCurrent;
	}
	auto ahead = static_cast<uint16_t>(e - epoch_);
	if (ahead == 0)
		return AccEpoch::kCurrent;
	if (ahead >= 0x8000) {
		auto behind = static_cast<uint16_t>(epoch_ - e);
		if (behind <= kAccStaleWindow) {
			c_.frp_stale++;
			return AccEpoch::kStale;
		}
		c_.epoch_resyncs++;
		ahead = kAccMaxRolls;
	}
	for (uint16_t i = 0; i < std::min(ahead, kAccMaxRolls); i++)
		rrp_end();
	epoch_ = e;
	return AccEpoch::kCurrent;
}

uint32_t AccCp::threshold() const
{
	return p_.hysteresis ? std::min(cur_.fsr, old_.fsr) : cur_.fsr;
}

bool AccCp::on_forward(AccEth &p)
{
	if (p.type == kAccTypeStop) {
		c_.frp_stop++;
		if (p.flags & kAccFlagCounted) {
			if (threshold() <= p.cr_kbps) {
				cur_.m -= std::min<uint32_t>(cur_.m, 1);
			} else {
				cur_.b -= std::min<uint64_t>(cur_.b, p.cr_kbps);
				cur_.nb -= std::min<uint32_t>(cur_.nb, 1);
			}
		}
		p.cr_kbps = std::min(p.cr_kbps, cur_.fsr);
		return false;
	}
	uint32_t cr_in = p.cr_kbps;
	if (p.type == kAccTypeInit) {
		c_.frp_init++;
		if (old_.fsr <= p.cr_kbps) {
			old_.m++;
		} else {
			old_.b += p.cr_kbps;
			old_.nb++;
			old_.bmax = std::max(old_.bmax, p.cr_kbps);
		}
		cur_.fsr = compute_fsr(old_.m, old_.b, old_.nb, old_.bmax);
	} else {
		c_.frp_normal++;
	}
	if (threshold() <= p.cr_kbps) {
		cur_.m++;
		p.cr_kbps = std::min(p.cr_kbps, cur_.fsr);
	} else {
		cur_.b += p.cr_kbps;
		cur_.nb++;
		cur_.bmax = std::max(cur_.bmax, p.cr_kbps);
	}
	p.dr_kbps = std::min(p.dr_kbps, cur_.fsr);
	bool sc = p_.k_sc_milli > 0 && static_cast<uint64_t>(cr_in) * 1000 >
	                                       static_cast<uint64_t>(p_.k_sc_milli) * cur_.fsr;
	if (sc)
		c_.short_circuits++;
	return sc;
}

} // namespace rxecc::fabric
