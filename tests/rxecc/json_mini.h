// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A strict JSON parser (RFC 8259) for the tests: it rejects anything that
// is not valid JSON, so that rxecc's -j output is checked for validity and
// then for content.
#ifndef RXECC_TEST_JSON_MINI_H
#define RXECC_TEST_JSON_MINI_H

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rxecc::test {

struct Json {
	enum Type { kNull, kBool, kNumber, kString, kArray, kObject } type = kNull;
	bool b = false;
	std::string text; // number as written, or decoded string
	std::vector<Json> items;
	std::vector<std::pair<std::string, Json>> members;

	const Json &operator[](std::size_t i) const { return items.at(i); }
	const Json &operator[](const std::string &k) const
	{
		for (const auto &m : members)
			if (m.first == k)
				return m.second;
		throw std::out_of_range("no member " + k);
	}
	bool has(const std::string &k) const
	{
		for (const auto &m : members)
			if (m.first == k)
				return true;
		return false;
	}
	std::uint64_t u64() const
	{
		if (type != kNumber)
			throw std::runtime_error("not a number");
		return std::stoull(text);
	}
	const std::string &str() const
	{
		if (type != kString)
			throw std::runtime_error("not a string");
		return text;
	}
	std::size_t size() const { return type == kArray ? items.size() : members.size(); }
};

class JsonParser {
public:
	// Parses one document; throws std::runtime_error if `s` is not JSON.
	static Json parse(std::string_view s)
	{
		JsonParser p(s);
		p.ws();
		Json v = p.value();
		p.ws();
		if (p.i_ != s.size())
			p.fail("trailing characters");
		return v;
	}

private:
	explicit JsonParser(std::string_view s) : s_(s) {}

	[[noreturn]] void fail(const std::string &why)
	{
		throw std::runtime_error("invalid JSON at " + std::to_string(i_) + ": " + why);
	}
	char peek() { return i_ < s_.size() ? s_[i_] : '\0'; }
	void ws()
	{
		while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
			++i_;
	}
	void expect(char c)
	{
		if (peek() != c)
			fail(std::string("expected ") + c);
		++i_;
	}
	void literal(std::string_view w)
	{
		if (s_.substr(i_, w.size()) != w)
			fail("bad literal");
		i_ += w.size();
	}

	Json value()
	{
		Json v;
		char c = peek();
		if (c == '{') {
			v.type = Json::kObject;
			++i_;
			ws();
			if (peek() == '}') {
				++i_;
				return v;
			}
			for (;;) {
				ws();
				std::string k = string();
				ws();
				expect(':');
				ws();
				v.members.emplace_back(k, value());
				ws();
				if (peek() == ',') {
					++i_;
					continue;
				}
				expect('}');
				return v;
			}
		}
		if (c == '[') {
			v.type = Json::kArray;
			++i_;
			ws();
			if (peek() == ']') {
				++i_;
				return v;
			}
			for (;;) {
				ws();
				v.items.push_back(value());
				ws();
				if (peek() == ',') {
					++i_;
					continue;
				}
				expect(']');
				return v;
			}
		}
		if (c == '"') {
			v.type = Json::kString;
			v.text = string();
			return v;
		}
		if (c == 't' || c == 'f') {
			v.type = Json::kBool;
			v.b = c == 't';
			literal(v.b ? "true" : "false");
			return v;
		}
		if (c == 'n') {
			literal("null");
			return v;
		}
		v.type = Json::kNumber;
		std::size_t start = i_;
		if (peek() == '-')
			++i_;
		if (peek() == '0') {
			++i_;
		} else if (peek() >= '1' && peek() <= '9') {
			while (peek() >= '0' && peek() <= '9')
				++i_;
		} else {
			fail("unexpected character");
		}
		if (peek() == '.') {
			++i_;
			if (!(peek() >= '0' && peek() <= '9'))
				fail("digit expected");
			while (peek() >= '0' && peek() <= '9')
				++i_;
		}
		if (peek() == 'e' || peek() == 'E') {
			++i_;
			if (peek() == '+' || peek() == '-')
				++i_;
			if (!(peek() >= '0' && peek() <= '9'))
				fail("digit expected");
			while (peek() >= '0' && peek() <= '9')
				++i_;
		}
		v.text = std::string(s_.substr(start, i_ - start));
		return v;
	}

	unsigned hex4()
	{
		unsigned v = 0;
		for (int k = 0; k < 4; ++k) {
			char c = peek();
			++i_;
			v <<= 4;
			if (c >= '0' && c <= '9')
				v |= static_cast<unsigned>(c - '0');
			else if (c >= 'a' && c <= 'f')
				v |= static_cast<unsigned>(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				v |= static_cast<unsigned>(c - 'A' + 10);
			else
				fail("bad \\u escape");
		}
		return v;
	}

	static void utf8(std::string &out, unsigned cp)
	{
		if (cp < 0x80) {
			out += static_cast<char>(cp);
		} else if (cp < 0x800) {
			out += static_cast<char>(0xc0 | (cp >> 6));
			out += static_cast<char>(0x80 | (cp & 0x3f));
		} else if (cp < 0x10000) {
			out += static_cast<char>(0xe0 | (cp >> 12));
			out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
			out += static_cast<char>(0x80 | (cp & 0x3f));
		} else {
			out += static_cast<char>(0xf0 | (cp >> 18));
			out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
			out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
			out += static_cast<char>(0x80 | (cp & 0x3f));
		}
	}

	std::string string()
	{
		expect('"');
		std::string out;
		for (;;) {
			if (i_ >= s_.size())
				fail("unterminated string");
			auto c = static_cast<unsigned char>(s_[i_++]);
			if (c == '"')
				return out;
			if (c < 0x20)
				fail("raw control character in string");
			if (c != '\\') {
				out += static_cast<char>(c);
				continue;
			}
			char e = peek();
			++i_;
			switch (e) {
			case '"': out += '"'; break;
			case '\\': out += '\\'; break;
			case '/': out += '/'; break;
			case 'b': out += '\b'; break;
			case 'f': out += '\f'; break;
			case 'n': out += '\n'; break;
			case 'r': out += '\r'; break;
			case 't': out += '\t'; break;
			case 'u': {
				unsigned cp = hex4();
				if (cp >= 0xd800 && cp < 0xdc00) {
					expect('\\');
					expect('u');
					unsigned lo = hex4();
					if (lo < 0xdc00 || lo > 0xdfff)
						fail("bad surrogate pair");
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				}
				utf8(out, cp);
				break;
			}
			default:
				fail("bad escape");
			}
		}
	}

	std::string_view s_;
	std::size_t i_ = 0;
};

} // namespace rxecc::test

#endif // RXECC_TEST_JSON_MINI_H
