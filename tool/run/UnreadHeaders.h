// The headers under the folders given that no unit of the run read: no
// `.cu` file includes them, or only through a header that is missing, or in
// a branch that the parse skips (`#ifdef __NVCC__`). Nothing analysed them,
// so, like code that the
// architecture's `#if` hid, they are read for the legacy names and PTX that
// CUDA 13 rejects, and each is reported without a fix, rather than passed
// over in silence.
#ifndef WARPFIX_TOOL_RUN_UNREADHEADERS_H
#define WARPFIX_TOOL_RUN_UNREADHEADERS_H

#include "tool/input/Config.h"
#include "tool/run/UnitResult.h"

namespace warpfix {

struct UnreadHeaders {
  /// How many of the headers no unit read.
  size_t Count = 0;
  /// One result for each of them that has a finding, marked UnreadHeader.
  std::vector<TranslationUnitResult> Scans;
};

/// Which of Headers no unit of Units read, and what a lexical reading of
/// each finds, with the checks and options of the configuration in force in
/// its folder. A configuration that cannot be read is an error.
llvm::Expected<UnreadHeaders>
scanUnreadHeaders(llvm::ArrayRef<std::string> Headers,
                  llvm::ArrayRef<TranslationUnitResult> Units,
                  ConfigFinder &Configs,
                  const CommandLineSettings &CommandLine);

} // namespace warpfix

#endif
