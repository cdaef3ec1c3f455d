// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A small encoder and decoder of netlink attributes (struct nlattr TLVs), so
// that the command logic builds requests and reads replies without libnl:
// the tests then drive it with messages built by libnl itself.
#ifndef RXECC_NLATTR_H
#define RXECC_NLATTR_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rxecc::nl
{

// Appends attributes to a byte buffer, each aligned to 4 bytes as the
// kernel expects. Nests carry NLA_F_NESTED (required by strict policies).
class AttrWriter
{
public:
	void put_u8(std::uint16_t type, std::uint8_t v);
	void put_u32(std::uint16_t type, std::uint32_t v);
	void put_u64(std::uint16_t type, std::uint64_t v);
	// NUL-terminated, as nla_put_string().
	void put_string(std::uint16_t type, std::string_view s);
	// LEN bytes as they are, as nla_put().
	void put_bytes(std::uint16_t type, const void *data, std::size_t len);
	// Opens a nest; pass the returned token to end_nest().
	std::size_t begin_nest(std::uint16_t type);
	void end_nest(std::size_t token);

	const std::vector<std::uint8_t> &bytes() const { return buf_; }

private:
	void put(std::uint16_t type, const void *data, std::size_t len);
	std::vector<std::uint8_t> buf_;
};

// One attribute inside a buffer that outlives it.
struct Attr {
	std::uint16_t type = 0; // without NLA_F_NESTED / NLA_F_NET_BYTEORDER
	const std::uint8_t *data = nullptr;
	std::size_t len = 0;

	// An unsigned integer of 1, 2, 4 or 8 bytes (host order).
	std::optional<std::uint64_t> as_uint() const;
	// A string, without the terminating NUL if there is one. Embedded NULs
	// end the string.
	std::string as_string() const;
};

// Splits `len` bytes at `data` into attributes. False if an attribute's
// header or length is inconsistent with the buffer.
bool parse_attrs(const std::uint8_t *data, std::size_t len, std::vector<Attr> &out);

// The attributes nested in `nest`; false if they are malformed.
bool parse_nested(const Attr &nest, std::vector<Attr> &out);

} // namespace rxecc::nl

#endif // RXECC_NLATTR_H
