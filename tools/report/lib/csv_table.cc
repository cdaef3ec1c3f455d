#include "csv_table.h"

#include <csv.h>

#include "error.h"

namespace rxecc::report
{

namespace
{

struct Collector {
	std::vector<CsvRow> records;
	CsvRow cur;
	bool in_record = false;
	std::size_t line = 0;
};

void on_field(void *s, std::size_t len, void *data)
{
	auto *c = static_cast<Collector *>(data);
	if (!c->in_record) {
		c->in_record = true;
		c->cur.line = c->line;
	}
	c->cur.fields.emplace_back(static_cast<const char *>(s), len);
}

void on_record(int, void *data)
{
	auto *c = static_cast<Collector *>(data);
	if (!c->in_record) {
		c->cur.line = c->line;
	}
	c->records.push_back(std::move(c->cur));
	c->cur = CsvRow{};
	c->in_record = false;
}

std::string first_line(std::string_view text)
{
	auto nl = text.find('\n');
	std::string_view l = text.substr(0, nl);
	if (!l.empty() && l.back() == '\r')
		l.remove_suffix(1);
	return std::string(l);
}

} // namespace

std::optional<std::size_t> CsvTable::column(std::string_view name) const
{
	for (std::size_t i = 0; i < header.size(); ++i)
		if (header[i] == name)
			return i;
	return std::nullopt;
}

std::size_t CsvTable::need_column(std::string_view name) const
{
	auto c = column(name);
	if (!c)
		throw Error(path + ": no column '" + std::string(name) + "' in the header '" +
		            header_text + "'");
	return *c;
}

std::string CsvTable::where(const CsvRow &row) const
{
	return path + ":" + std::to_string(row.line);
}

CsvTable parse_csv(const std::string &path, std::string_view text)
{
	CsvTable t;
	t.path = path;
	csv_parser p;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0)
		throw Error(path + ": cannot set up the CSV parser");
	Collector c;
	std::size_t pos = 0;
	while (pos < text.size()) {
		auto nl = text.find('\n', pos);
		std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
		++c.line;
		if (csv_parse(&p, text.data() + pos, end - pos, on_field, on_record, &c) !=
		    end - pos) {
			std::string msg = strf("%s:%zu: malformed CSV (%s)", path.c_str(), c.line,
			                       csv_strerror(csv_error(&p)));
			csv_free(&p);
			throw Error(msg);
		}
		pos = end;
	}
	if (csv_fini(&p, on_field, on_record, &c) != 0) {
		std::string msg = strf("%s:%zu: malformed CSV (%s)", path.c_str(), c.line,
		                       csv_strerror(csv_error(&p)));
		csv_free(&p);
		throw Error(msg);
	}
	csv_free(&p);
	if (c.records.empty())
		throw Error(path + ": empty (no header line)");
	t.header_text = first_line(text);
	t.header = std::move(c.records.front().fields);
	for (std::size_t i = 1; i < c.records.size(); ++i)
		t.rows.push_back(std::move(c.records[i]));
	return t;
}

CsvTable parse_csv_exact(const std::string &path, std::string_view text, std::string_view want)
{
	if (text.empty() || first_line(text).empty())
		throw Error(path + ": empty (expected header '" + std::string(want) + "')");
	std::string got = first_line(text);
	if (got != want)
		throw Error(path + ": header is '" + got + "', expected '" + std::string(want) +
		            "'");
	return parse_csv(path, text);
}

} // namespace rxecc::report
