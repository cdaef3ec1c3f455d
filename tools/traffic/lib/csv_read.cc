// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "csv_read.h"

#include <csv.h>

namespace rxecc::traffic
{

namespace
{

struct State {
	std::vector<CsvRow> *rows;
	CsvRow cur;
	bool in_row = false;
	int line = 1;
};

void on_field(void *s, size_t len, void *data)
{
	auto *st = static_cast<State *>(data);
	st->in_row = true;
	st->cur.fields.emplace_back(s ? static_cast<const char *>(s) : "", s ? len : 0);
}

void on_row(int c, void *data)
{
	auto *st = static_cast<State *>(data);
	if (st->in_row) {
		st->cur.line = st->line;
		st->rows->push_back(std::move(st->cur));
		st->cur = CsvRow{};
		st->in_row = false;
	}
	if (c == '\n')
		st->line++;
}

} // namespace

bool read_csv(std::string_view text, const std::string &source, std::vector<CsvRow> &rows,
              std::string *err)
{
	csv_parser p{};
	if (csv_init(&p, CSV_STRICT | CSV_REPALL_NL | CSV_STRICT_FINI) != 0) {
		if (err)
			*err = source + ": cannot start the CSV parser";
		return false;
	}
	State st;
	st.rows = &rows;
	const size_t n = csv_parse(&p, text.data(), text.size(), on_field, on_row, &st);
	bool ok = n == text.size();
	if (ok)
		ok = csv_fini(&p, on_field, on_row, &st) == 0;
	if (!ok && err)
		*err = source + ":" + std::to_string(st.line) + ": " + csv_strerror(csv_error(&p));
	csv_free(&p);
	return ok;
}

} // namespace rxecc::traffic
