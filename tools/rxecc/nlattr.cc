// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "nlattr.h"

#include <cstring>
#include <linux/netlink.h>

namespace rxecc::nl
{

namespace
{

constexpr std::size_t kHdrLen = (sizeof(struct nlattr) + 3) & ~std::size_t{3};

constexpr std::size_t align4(std::size_t n)
{
	return (n + NLA_ALIGNTO - 1) & ~static_cast<std::size_t>(NLA_ALIGNTO - 1);
}

void write_header(std::uint8_t *at, std::size_t len, std::uint16_t type)
{
	struct nlattr hdr;
	hdr.nla_len = static_cast<std::uint16_t>(len);
	hdr.nla_type = type;
	std::memcpy(at, &hdr, sizeof(hdr));
}

} // namespace

void AttrWriter::put(std::uint16_t type, const void *data, std::size_t len)
{
	std::size_t at = buf_.size();
	buf_.resize(at + align4(kHdrLen + len), 0);
	write_header(buf_.data() + at, kHdrLen + len, type);
	if (len)
		std::memcpy(buf_.data() + at + kHdrLen, data, len);
}

void AttrWriter::put_u8(std::uint16_t type, std::uint8_t v)
{
	put(type, &v, sizeof(v));
}

void AttrWriter::put_u32(std::uint16_t type, std::uint32_t v)
{
	put(type, &v, sizeof(v));
}

void AttrWriter::put_u64(std::uint16_t type, std::uint64_t v)
{
	put(type, &v, sizeof(v));
}

void AttrWriter::put_string(std::uint16_t type, std::string_view s)
{
	std::string z(s);
	put(type, z.c_str(), z.size() + 1);
}

void AttrWriter::put_bytes(std::uint16_t type, const void *data, std::size_t len)
{
	put(type, data, len);
}

std::size_t AttrWriter::begin_nest(std::uint16_t type)
{
	std::size_t at = buf_.size();
	buf_.resize(at + kHdrLen, 0);
	write_header(buf_.data() + at, kHdrLen, static_cast<std::uint16_t>(type | NLA_F_NESTED));
	return at;
}

void AttrWriter::end_nest(std::size_t token)
{
	struct nlattr hdr;
	std::memcpy(&hdr, buf_.data() + token, sizeof(hdr));
	write_header(buf_.data() + token, buf_.size() - token, hdr.nla_type);
}

std::optional<std::uint64_t> Attr::as_uint() const
{
	switch (len) {
	case 1: return data[0];
	case 2: {
		std::uint16_t v;
		std::memcpy(&v, data, sizeof(v));
		return v;
	}
	case 4: {
		std::uint32_t v;
		std::memcpy(&v, data, sizeof(v));
		return v;
	}
	case 8: {
		std::uint64_t v;
		std::memcpy(&v, data, sizeof(v));
		return v;
	}
	default: return std::nullopt;
	}
}

std::string Attr::as_string() const
{
	const char *p = reinterpret_cast<const char *>(data);
	std::size_t n = 0;
	while (n < len && p[n] != '\0')
		++n;
	return std::string(p, n);
}

bool parse_attrs(const std::uint8_t *data, std::size_t len, std::vector<Attr> &out)
{
	out.clear();
	std::size_t at = 0;
	while (at < len) {
		if (len - at < kHdrLen)
			return false;
		struct nlattr hdr;
		std::memcpy(&hdr, data + at, sizeof(hdr));
		if (hdr.nla_len < kHdrLen || hdr.nla_len > len - at)
			return false;
		Attr a;
		a.type = static_cast<std::uint16_t>(hdr.nla_type & NLA_TYPE_MASK);
		a.data = data + at + kHdrLen;
		a.len = hdr.nla_len - kHdrLen;
		out.push_back(a);
		at += align4(hdr.nla_len);
	}
	return true;
}

bool parse_nested(const Attr &nest, std::vector<Attr> &out)
{
	return parse_attrs(nest.data, nest.len, out);
}

} // namespace rxecc::nl
