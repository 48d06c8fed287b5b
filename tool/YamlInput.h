// Reading YAML with LLVM's YAML I/O while keeping the parser's first complaint
// (position and message) instead of letting it print to stderr; shared by the
// configuration file and the result cache.
#ifndef WARPFIX_TOOL_YAMLINPUT_H
#define WARPFIX_TOOL_YAMLINPUT_H

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include <optional>
#include <string>

namespace warpfix {

struct YamlProblem {
  /// 1-based; 0 when the problem has no position.
  unsigned Line = 0, Column = 0;
  std::string Message;
};

/// Reads Buffer into Value; the first problem met, if any.
template <typename T>
std::optional<YamlProblem> readYaml(llvm::MemoryBufferRef Buffer, T &Value) {
  std::optional<YamlProblem> First;
  llvm::yaml::Input In(
      Buffer, nullptr,
      [](const llvm::SMDiagnostic &D, void *Context) {
        auto &Out = *static_cast<std::optional<YamlProblem> *>(Context);
        if (!Out)
          Out = YamlProblem{unsigned(D.getLineNo()),
                            unsigned(D.getColumnNo() + 1),
                            D.getMessage().str()};
      },
      &First);
  In >> Value;
  if (In.error() && !First)
    First = YamlProblem{0, 0, In.error().message()};
  return In.error() ? First : std::nullopt;
}

} // namespace warpfix

#endif
