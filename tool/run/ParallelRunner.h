// Analyses translation units on a pool of threads. Each worker holds one
// parse at a time and keeps only its plain-value result, so memory is bounded
// by the number of workers; results come back in the order of the files,
// whatever the scheduling.
#ifndef WARPFIX_TOOL_RUN_PARALLELRUNNER_H
#define WARPFIX_TOOL_RUN_PARALLELRUNNER_H

#include "tool/run/ProgressLine.h"
#include "tool/run/UnitResult.h"
#include <functional>

namespace warpfix {

/// Analyses Files[Index].
using AnalyseOne = std::function<TranslationUnitResult(size_t Index)>;

/// Each TU's compiler messages go to Messages in file order, as soon as the
/// TU and all before it are done.
std::vector<TranslationUnitResult> analyseAll(llvm::ArrayRef<std::string> Files,
                                              unsigned Jobs,
                                              const AnalyseOne &Analyse,
                                              ProgressLine &Progress,
                                              llvm::raw_ostream &Messages);

/// Whether every unit of the analyseAll() under way has been started: a
/// worker that asks while it analyses one takes no other after it.
bool allUnitsStarted();

} // namespace warpfix

#endif
