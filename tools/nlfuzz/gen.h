// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The request generator of rxecc-nlfuzz: from a seed and what the kernel
// reported (devices, algorithms and their parameters, QP numbers), the
// same sequence of rxe_cc generic netlink requests, each with what the
// kernel must do with it. No I/O: the unit tests drive it directly.
#ifndef RXECC_NLFUZZ_GEN_H
#define RXECC_NLFUZZ_GEN_H

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace rxecc::nlfuzz
{

// One parameter of an algorithm, as ALGO_GET describes it.
struct ParamDesc {
	std::string name;
	std::uint32_t min = 0;
	std::uint32_t max = 0;
};

struct AlgoDesc {
	std::string name;
	std::vector<ParamDesc> params;
};

// What the generator may aim at.
struct Target {
	std::vector<std::string> devs;   // devices this process owns (may change)
	std::vector<AlgoDesc> algos;     // registered algorithms, "none" included
	std::vector<std::uint32_t> qpns; // QPs seen on the owned devices
};

enum class Expect {
	kReject, // invalid: must be refused with an error and an extack
	kCore,   // refused by the generic netlink core (unknown command, no
		 // handler for a do or dump): an errno, no extack
	kEither, // valid in form; the kernel may still refuse (a QP that went
		 // away, a combination an algorithm refuses), with an extack
};

struct Request {
	std::uint8_t cmd = 0;
	bool dump = false;
	std::vector<std::uint8_t> attrs; // the attribute bytes, as sent
	Expect expect = Expect::kEither;
	bool may_change = false; // accepted, it may change the state
	std::string what;        // a description for the report
};

class Generator
{
public:
	explicit Generator(std::uint64_t seed) : rng_(seed) {}
	// The next request for `t`.
	Request next(const Target &t);

private:
	std::uint32_t u32() { return static_cast<std::uint32_t>(rng_()); }
	std::uint64_t u64() { return rng_(); }
	std::size_t pick(std::size_t n) { return n ? rng_() % n : 0; }
	bool coin(unsigned percent) { return rng_() % 100 < percent; }
	std::string dev(const Target &t);
	std::string bad_dev();
	const AlgoDesc *algo(const Target &t);
	std::uint32_t qpn(const Target &t);
	std::uint32_t bad_qpn(const Target &t);

	Request dev_set(const Target &t);
	Request qp_set(const Target &t);
	Request get(const Target &t);
	Request malformed(const Target &t);
	Request core(const Target &t);

	std::mt19937_64 rng_;
};

// The attribute bytes of a parameter nest, for the tests and the driver.
std::vector<std::uint8_t> params_nest(const std::vector<std::pair<std::string, std::uint32_t>> &p);

const char *expect_name(Expect e);

} // namespace rxecc::nlfuzz

#endif // RXECC_NLFUZZ_GEN_H
