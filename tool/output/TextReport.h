// Prints merged findings the way clang prints diagnostics: location, message,
// check name, the source line with a caret, fix-it hints, then notes. And the
// lines on standard error that tell how the run went.
#ifndef WARPFIX_TOOL_OUTPUT_TEXTREPORT_H
#define WARPFIX_TOOL_OUTPUT_TEXTREPORT_H

#include "tool/output/RunReport.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace warpfix {

void printTextReport(const std::vector<clang::tooling::Diagnostic> &Findings,
                     llvm::raw_ostream &OS, bool Colors);

/// An error for each crash: the stage, and the command that reproduces it.
void printCrashes(llvm::ArrayRef<RunReport::Crash> Crashes,
                  llvm::raw_ostream &OS);

/// An error for each file of Set that did not parse, but for CrashedFiles
/// (printCrashes told of them). Whether there was one.
bool printUnparsedFiles(const FindingSet &Set,
                        const llvm::StringSet<> &CrashedFiles,
                        bool StrictParse, llvm::raw_ostream &OS);

/// The summary: the translation units by what became of them (when any was
/// parsed or failed to), then the findings, the files and the fixable.
void printRunSummary(const FindingSet &Set, const UnitOutcomes &Units,
                     llvm::raw_ostream &OS);

/// What --fix did: the findings fixed, the files written, the findings left.
void printFixSummary(const RunReport &Run, size_t FilesWritten,
                     llvm::raw_ostream &OS);

} // namespace warpfix

#endif
