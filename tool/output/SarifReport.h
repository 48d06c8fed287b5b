// --format=sarif: SARIF 2.1.0 for code scanning (GitHub's upload-sarif and
// the like): one run, a rule per enabled check, a result per finding with its
// notes as related locations and its fix as artifact changes.
#ifndef WARPFIX_TOOL_OUTPUT_SARIFREPORT_H
#define WARPFIX_TOOL_OUTPUT_SARIFREPORT_H

#include "tool/output/RunReport.h"
#include "tool/output/SourcePositions.h"
#include "llvm/Support/raw_ostream.h"

namespace warpfix {

/// file:// URI of an absolute path, every byte but unreserved characters and
/// '/' percent-encoded (RFC 3986).
std::string fileUri(llvm::StringRef AbsolutePath);

void writeSarifReport(const RunReport &Run, SourcePositions &Positions,
                      llvm::raw_ostream &OS);

} // namespace warpfix

#endif
