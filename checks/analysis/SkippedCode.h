// Remembers the code that `#if __CUDA_ARCH__ ...` hid from this parse, so that
// a check can say it did not analyse it rather than pass over it in silence.
#ifndef WARPFIX_CHECKS_ANALYSIS_SKIPPEDCODE_H
#define WARPFIX_CHECKS_ANALYSIS_SKIPPEDCODE_H

#include "clang/Lex/Preprocessor.h"
#include <string>
#include <vector>

namespace warpfix {

class SkippedCode {
public:
  struct Region {
    clang::SourceRange Range;
    std::string Condition; ///< the #if's condition, as written
  };

  /// Hooks the preprocessor; must be called before the main file is read.
  void attach(clang::Preprocessor &PP);

  /// Regions of user files skipped because of a condition on __CUDA_ARCH__
  /// (HIP and other platform branches are not this tool's business).
  const std::vector<Region> &architectureRegions() const { return Regions; }

private:
  friend class SkippedCodeRecorder;
  std::vector<Region> Regions;
};

} // namespace warpfix

#endif
