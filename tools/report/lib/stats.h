// Order statistics and fairness: the definitions of
// Documentation/rxe-cc/experiments.rst, "Metrics".
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace rxecc::report
{

// Nearest rank: the smallest sample with at least P percent of the samples
// at or below it, SORTED[ceil(P * N / 100) - 1] (at least the first).
// SORTED must be ascending and not empty.
double nearest_rank(const std::vector<double> &sorted, double p);

// Jain's fairness index (sum x)^2 / (n * sum x^2); nullopt for no samples
// or when every sample is 0.
std::optional<double> jain_index(const std::vector<double> &x);

// count, nearest-rank p50/p95/p99, mean and max of a sample.
struct Distribution {
	std::size_t count = 0;
	double p50 = 0, p95 = 0, p99 = 0, mean = 0, max = 0;
};

// nullopt for an empty sample.
std::optional<Distribution> distribution(std::vector<double> v);

// Empirical CDF: for each distinct value x (ascending), the fraction of
// the samples that are <= x.
std::vector<std::pair<double, double>> empirical_cdf(std::vector<double> v);

} // namespace rxecc::report
