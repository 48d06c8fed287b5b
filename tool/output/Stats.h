// --stats and --stats=csv: per check, how many findings, how many this run
// fixed, how many have a fix, and the ones without, grouped by reason; then
// the totals, the files that did not parse and the translation units the
// prefilter skipped.
#ifndef WARPFIX_TOOL_OUTPUT_STATS_H
#define WARPFIX_TOOL_OUTPUT_STATS_H

#include "tool/output/RunReport.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

namespace warpfix {

struct CheckStats {
  std::string Check;
  size_t Findings = 0, Fixed = 0, Fixable = 0, Unfixable = 0;
  /// reasonGroup() of each unfixable finding, and how many share it.
  std::map<std::string, size_t> Reasons;
};

struct RunStats {
  /// One per enabled check, in registry order, then "total".
  std::vector<CheckStats> Checks;
  size_t FailedFiles = 0;
  size_t SkippedTUs = 0;
  RunReport::UnitCounts Units;
};

RunStats computeStats(const RunReport &Run);

/// A table for people.
void printStatsText(const RunStats &Stats, llvm::raw_ostream &OS);

/// One CSV table, a row per counter: check,counter,reason,count.
void printStatsCsv(const RunStats &Stats, llvm::raw_ostream &OS);

} // namespace warpfix

#endif
