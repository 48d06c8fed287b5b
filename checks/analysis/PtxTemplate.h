// Reads the PTX in the template of a GCC-style inline asm statement, and
// writes the edits that turn a legacy warp instruction (`shfl.up.b32`,
// `vote.ballot.b32`, ... without `.sync`) into its `.sync` form.
//
// Everything here is a pure function of strings: no AST, no source locations.
// Offsets are byte offsets into the template as the compiler evaluated it
// (escapes resolved, adjacent literals joined: StringLiteral::getString()),
// which the caller maps back to source with StringLiteral::getLocationOfByte.
// That keeps the PTX reading testable and fuzzable on its own: parse any
// bytes, rewrite what it finds, parse the result again.
#ifndef WARPFIX_CHECKS_ANALYSIS_PTXTEMPLATE_H
#define WARPFIX_CHECKS_ANALYSIS_PTXTEMPLATE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace warpfix::ptx {

/// Bytes [Begin, End) of the template.
struct Span {
  unsigned Begin = 0;
  unsigned End = 0;
  bool operator==(const Span &O) const {
    return Begin == O.Begin && End == O.End;
  }
};

/// How the template is read. A basic asm (`asm("...")`, no colon) is passed
/// to the assembler as written; an extended one (with operands) gives `%`
/// its GCC meaning: `%%` is a `%`, `%0` or `%[name]` an operand.
enum class Syntax { Basic, Extended };

/// `%1`, `%c1` or `%[name]` in an extended template.
struct OperandRef {
  Span Where;                    ///< from the '%' to the end of the reference
  std::optional<unsigned> Number; ///< `%1`
  std::string Name;              ///< `%[name]`
};

/// One operand of an instruction, between commas.
struct Operand {
  Span Where;
  /// The operand as the assembler sees it: `%%r1` reads `%r1`; operand
  /// references are kept as written (`%1`), comments dropped.
  std::string Text;
  /// When the operand is exactly one operand reference: its index in
  /// Template::References.
  std::optional<size_t> Reference;
};

/// A PTX instruction: `[@{!}p] opcode [operand {, operand}];`.
struct Instruction {
  Span Whole;                 ///< guard (or opcode) to ';' inclusive
  std::optional<Span> Guard;  ///< `@p`, `@!p`
  Span Opcode;                ///< `shfl.up.b32`
  std::string OpcodeText;     ///< as the assembler sees it
  std::vector<Operand> Operands;
  /// The byte of the ';' that ends it; none when the template ends first.
  std::optional<unsigned> Semicolon;
};

struct Template {
  std::vector<Instruction> Instructions;
  /// Every operand reference, in template order (not only those that are
  /// whole operands): what clang's AnalyzeAsmString calls operand pieces.
  std::vector<OperandRef> References;
};

/// Reads Text. Fails only where the GCC template syntax itself is broken (a
/// `%` at the end, `%` followed by something that is no operand or escape),
/// which the compiler rejects too. The PTX is read leniently: directives
/// (`.reg ...;`), labels, `{ }` scopes, `//` and `/* */` comments are passed
/// over, and whatever is not an instruction is not one.
std::optional<Template> parse(llvm::StringRef Text, Syntax S);

/// The warp instructions whose legacy forms ptxas rejects from sm_70 on.
enum class WarpOp { Shuffle, Vote };

/// A legacy shfl or vote, and what it becomes.
struct LegacyForm {
  WarpOp Op;
  std::string Mode;       ///< up, down, bfly, idx; all, any, uni, ballot
  std::string SyncOpcode; ///< `shfl.sync.up.b32`
  /// Why the form cannot be rewritten as it stands (wrong operand count, no
  /// closing ';'); empty when it can.
  std::string Problem;
};

/// Instructions whose opcode is `shfl` or `vote` without `.sync`: what they
/// are and their `.sync` opcode. A `shfl.*`/`vote.*` opcode that is not one
/// of the known legacy forms (`shfl.{up,down,bfly,idx}.b32`,
/// `vote.{all,any,uni}.pred`, `vote.ballot.b32`) is still returned, with
/// Problem set, since ptxas rejects it just the same.
std::optional<LegacyForm> legacyForm(const Instruction &I);

/// A replacement of Length bytes at Offset by Text.
struct Edit {
  unsigned Offset;
  unsigned Length;
  std::string Text;
};

/// The edits that make the legacy instruction I (legacyForm(I) without a
/// Problem) its `.sync` form with Mask as the membermask: `.sync` inserted
/// after the opcode's first word, `, <Mask>` after the last operand, so that
/// the guard, spacing and comments stay as written. Mask is template text:
/// an immediate (`0xffffffff`) or an operand reference (`%4`).
std::vector<Edit> toSync(const Instruction &I, llvm::StringRef Mask);

/// Text with Edits (sorted by offset, not overlapping) applied.
std::string apply(llvm::StringRef Text, llvm::ArrayRef<Edit> Edits);

/// For an instruction that already takes a member mask (shfl.sync,
/// vote.sync, match.sync, redux.sync, bar.warp.sync), the index of that
/// operand.
std::optional<size_t> memberMaskOperand(const Instruction &I);

/// The index of the instruction before Instructions[User] that last writes
/// Register, when that is `activemask.b32 Register`.
std::optional<size_t> activeMaskWriter(const Template &T, size_t User,
                                       llvm::StringRef Register);

} // namespace warpfix::ptx

#endif
