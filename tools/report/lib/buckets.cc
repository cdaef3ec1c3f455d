// --buckets: sizes in the project's units grammar.
#include "error.h"
#include "traffic.h"
#include "units.h"

namespace rxecc::report
{

std::vector<std::uint64_t> parse_bucket_list(std::string_view text)
{
	std::vector<std::uint64_t> out;
	for (const std::string &w : split(text, ',')) {
		std::string err;
		auto v = rxecc::units::parse_size_bytes(w, &err);
		if (!v)
			throw Error("--buckets: " + err);
		if (*v == 0)
			throw Error("--buckets: a bound of 0 bytes leaves the first bucket empty");
		if (!out.empty() && *v <= out.back())
			throw Error("--buckets: the bounds must grow: '" + w + "' after " +
			            size_label(out.back()));
		out.push_back(*v);
	}
	return out;
}

} // namespace rxecc::report
