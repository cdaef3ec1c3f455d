#include "stats.h"

#include <algorithm>
#include <cmath>

namespace rxecc::report
{

double nearest_rank(const std::vector<double> &sorted, double p)
{
	double n = static_cast<double>(sorted.size());
	// rank = ceil(p * n / 100) computed as the awk original: the integer
	// part, plus one if the product is not a whole multiple of 100
	double prod = p * n;
	auto r = static_cast<std::size_t>(prod / 100);
	if (static_cast<double>(r) * 100 < prod)
		++r;
	if (r < 1)
		r = 1;
	if (r > sorted.size())
		r = sorted.size();
	return sorted[r - 1];
}

std::optional<double> jain_index(const std::vector<double> &x)
{
	double s = 0, q = 0;
	for (double v : x) {
		s += v;
		q += v * v;
	}
	if (x.empty() || !(q > 0))
		return std::nullopt;
	return s * s / (static_cast<double>(x.size()) * q);
}

std::optional<Distribution> distribution(std::vector<double> v)
{
	if (v.empty())
		return std::nullopt;
	std::sort(v.begin(), v.end());
	Distribution d;
	d.count = v.size();
	d.p50 = nearest_rank(v, 50);
	d.p95 = nearest_rank(v, 95);
	d.p99 = nearest_rank(v, 99);
	double sum = 0;
	for (double x : v)
		sum += x;
	d.mean = sum / static_cast<double>(v.size());
	d.max = v.back();
	return d;
}

std::vector<std::pair<double, double>> empirical_cdf(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	std::vector<std::pair<double, double>> out;
	double n = static_cast<double>(v.size());
	for (std::size_t i = 0; i < v.size(); ++i)
		if (i + 1 == v.size() || v[i + 1] != v[i])
			out.emplace_back(v[i], static_cast<double>(i + 1) / n);
	return out;
}

} // namespace rxecc::report
