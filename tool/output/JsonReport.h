// --format=json: the findings, their notes and fixes, the files that did not
// parse and a summary, in the versioned schema of docs/json-format.md.
#ifndef WARPFIX_TOOL_OUTPUT_JSONREPORT_H
#define WARPFIX_TOOL_OUTPUT_JSONREPORT_H

#include "tool/output/RunReport.h"
#include "tool/output/SourcePositions.h"
#include "llvm/Support/raw_ostream.h"

namespace warpfix {

/// Bumped whenever a field changes meaning or goes away; new fields may be
/// added without a bump.
constexpr int JsonReportVersion = 1;

void writeJsonReport(const RunReport &Run, SourcePositions &Positions,
                     llvm::raw_ostream &OS);

} // namespace warpfix

#endif
