// CSV files of a results directory, read with libcsv: the header line, then
// records that remember the line they start on (for messages).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rxecc::report
{

struct CsvRow {
	std::size_t line = 0; // 1-based line of the file
	std::vector<std::string> fields;
};

struct CsvTable {
	std::string path;                // for messages
	std::string header_text;         // the first line as written (no CR/LF)
	std::vector<std::string> header; // its fields
	std::vector<CsvRow> rows;        // the records after it; blank lines skipped

	// Index of a header column, or nullopt.
	std::optional<std::size_t> column(std::string_view name) const;
	// Index of a column that must exist: throws Error naming the file.
	std::size_t need_column(std::string_view name) const;
	// "PATH:LINE"
	std::string where(const CsvRow &row) const;
};

// Parses TEXT (the contents of PATH). Throws Error "PATH: empty ..." for a
// file without a header and "PATH:LINE: ..." for malformed quoting.
CsvTable parse_csv(const std::string &path, std::string_view text);

// parse_csv, and the header line must be exactly WANT ("PATH: header is
// 'X', expected 'WANT'" otherwise).
CsvTable parse_csv_exact(const std::string &path, std::string_view text, std::string_view want);

} // namespace rxecc::report
