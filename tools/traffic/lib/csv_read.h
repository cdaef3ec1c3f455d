// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Reading CSV files (through libcsv) with the line number of every row.
#ifndef RXECC_TRAFFIC_CSV_READ_H
#define RXECC_TRAFFIC_CSV_READ_H

#include <string>
#include <string_view>
#include <vector>

namespace rxecc::traffic
{

struct CsvRow {
	int line = 0;
	std::vector<std::string> fields;
};

// Parses `text` (rows end with LF; no field spans lines). Blank lines are
// skipped but counted. The first row is returned like the others. False
// with *err ("SOURCE:LINE: ...") on malformed quoting.
bool read_csv(std::string_view text, const std::string &source, std::vector<CsvRow> &rows,
              std::string *err);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_CSV_READ_H
