// The tokens of a file's text as clang's raw lexer reads them (no
// preprocessing, keywords left as identifiers), with their byte offsets: what
// the same-length rewrites of nvcc's dialect (LaunchChevrons, AsmRegisters)
// look at.
#ifndef WARPFIX_TOOL_INPUT_RAWTOKENS_H
#define WARPFIX_TOOL_INPUT_RAWTOKENS_H

#include "clang/Basic/TokenKinds.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace warpfix {

struct RawToken {
  clang::tok::TokenKind Kind;
  size_t Offset;
  size_t Length;
  llvm::StringRef Spelling;
};

/// Source must end in a NUL, as clang's lexer reads one past its end.
std::vector<RawToken> rawTokens(const std::string &Source);

} // namespace warpfix

#endif
