// What happens to one translation unit: replayed from the cache, skipped by
// the prefilter, or parsed and analysed; results worth keeping are cached.
#ifndef WARPFIX_TOOL_RUN_PIPELINE_H
#define WARPFIX_TOOL_RUN_PIPELINE_H

#include "tool/input/CudaToolkit.h"
#include "tool/run/Analyser.h"
#include "tool/run/Prefilter.h"
#include "tool/run/ResultCache.h"

namespace warpfix {

class TranslationUnitPipeline {
public:
  /// Cache and Filter may be null: that stage is then left out.
  TranslationUnitPipeline(const Analyser &Analysis, ResultCache *Cache,
                          Prefilter *Filter)
      : Analysis(Analysis), Cache(Cache), Filter(Filter) {}

  TranslationUnitResult run(llvm::StringRef File) const;

private:
  const Analyser &Analysis;
  ResultCache *Cache;
  Prefilter *Filter;
};

/// Directories whose headers the prefilter need not read: the toolkit, clang's
/// and warpfix's own headers, and the C and C++ libraries.
std::vector<std::string> systemHeaderRoots(const CudaToolkit &Toolkit);

} // namespace warpfix

#endif
