// Reading YAML with LLVM's YAML I/O while keeping the parser's first complaint
// (position and message) instead of letting it print to stderr; shared by the
// configuration file and the result cache. Input that YAML I/O mishandles is
// turned away first: bytes YAML does not allow, and documents that fail
// before their mapping is read (see inputHasFailed).
#ifndef WARPFIX_TOOL_INPUT_YAMLINPUT_H
#define WARPFIX_TOOL_INPUT_YAMLINPUT_H

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

/// The first byte that is not YAML text: a NUL or other control character
/// (tab, line feed and carriage return excepted), a sequence that is not
/// UTF-8, or a UTF-16 or UTF-32 byte-order mark. The parser reads such bytes
/// as nothing or as garbage, where the user needs to hear what is wrong.
std::optional<YamlProblem> findNonYamlText(llvm::StringRef Text);

/// Collections nested deeper than any real configuration, database or cache
/// entry: LLVM's YAML and JSON parsers descend one call per level, and tens
/// of thousands of levels (`[[[[...`) overflow the stack. Counted high: every
/// '[' and '{' not yet closed, quoted or not, plus each line's indentation
/// and its leading "- " indicators.
std::optional<YamlProblem> findDeepNesting(llvm::StringRef Text);

/// For a mapping's validate(): whether Io is an input that has already failed.
/// YAML I/O calls validate() even when the document did not parse, and an
/// error reported then makes LLVM 19's Input::setError dereference the null
/// node it failed on; validate() must then report nothing.
inline bool inputHasFailed(llvm::yaml::IO &Io) {
  // Every IO that reads is an Input.
  return !Io.outputting() && static_cast<llvm::yaml::Input &>(Io).error();
}

/// LLVM's YAML I/O messages for a value of the wrong kind, reworded for a
/// person ("unexpected scalar" means that a scalar was expected).
std::string clearYamlMessage(llvm::StringRef Message);

/// Reads Buffer into Value; the first problem met, if any.
template <typename T>
std::optional<YamlProblem> readYaml(llvm::MemoryBufferRef Buffer, T &Value) {
  if (std::optional<YamlProblem> Problem = findNonYamlText(Buffer.getBuffer()))
    return Problem;
  if (std::optional<YamlProblem> Problem = findDeepNesting(Buffer.getBuffer()))
    return Problem;
  std::optional<YamlProblem> First;
  llvm::yaml::Input In(
      Buffer, nullptr,
      [](const llvm::SMDiagnostic &D, void *Context) {
        auto &Out = *static_cast<std::optional<YamlProblem> *>(Context);
        if (!Out)
          Out = YamlProblem{unsigned(D.getLineNo()),
                            unsigned(D.getColumnNo() + 1),
                            clearYamlMessage(D.getMessage())};
      },
      &First);
  In >> Value;
  if (In.error() && !First)
    First = YamlProblem{0, 0, In.error().message()};
  return In.error() ? First : std::nullopt;
}

} // namespace warpfix

#endif
