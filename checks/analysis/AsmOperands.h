// Finds where a new input operand can be appended to a GCC-style asm
// statement, given its tokens: after the last input, so that no existing
// `%n` changes meaning, opening the input section when there is none.
//
// A pure function of a token list (kinds and byte offsets), so that the
// caller lexes with clang's Lexer and the decision can be tested and fuzzed
// without an AST.
#ifndef WARPFIX_CHECKS_ANALYSIS_ASMOPERANDS_H
#define WARPFIX_CHECKS_ANALYSIS_ASMOPERANDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace warpfix::asmops {

struct Token {
  enum Kind {
    LParen,
    RParen,
    LSquare,
    RSquare,
    Colon,
    ColonColon, ///< `::`, which C++ lexes as one token: two section colons
    Comma,
    Other
  };
  Kind K;
  unsigned Offset; ///< of the token's first byte
  unsigned Length;
};

/// Insert Text at Offset.
struct Insertion {
  unsigned Offset;
  std::string Text;
};

/// The insertion that appends Operand (`"r"(mask)`) as the last input of the
/// asm statement whose tokens, from `asm` to its closing ')', are Tokens.
/// Outputs and Inputs are the operand counts the compiler saw; a statement
/// whose tokens show other counts (operands written by a macro, say) is
/// refused. On refusal returns nothing and says why in Why.
std::optional<Insertion> appendInput(llvm::ArrayRef<Token> Tokens,
                                     unsigned Outputs, unsigned Inputs,
                                     llvm::StringRef Operand,
                                     std::string &Why);

} // namespace warpfix::asmops

#endif
