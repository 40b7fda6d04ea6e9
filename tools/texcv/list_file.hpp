// The --list file of texcv batch: one input path a line. Kept apart from the planner
// (batch.cpp) so the parsing can be tested and fuzzed alone (tests/fuzz/fuzz_list.cpp).
#pragma once

#include <istream>
#include <string>

namespace texcv::cli {

// Reads the next entry of a --list file from `in` into `entry`; false at the end. An entry is a
// line (ended by '\n' or the end of the text) without its trailing '\r' and spaces and its
// leading spaces; empty lines and lines that start with '#' (after the leading spaces) are
// skipped. Every other byte is kept as it is (NUL included): what a path may be is the
// planner's business.
bool next_list_entry(std::istream& in, std::string& entry);

}  // namespace texcv::cli
