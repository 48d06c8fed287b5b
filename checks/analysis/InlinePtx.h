// The PTX of an inline asm statement as clang parsed it: the template read by
// PtxTemplate, its operand references checked against clang's own reading
// (GCCAsmStmt::AnalyzeAsmString), and template bytes mapped back to the
// source characters that spell them.
#ifndef WARPFIX_CHECKS_ANALYSIS_INLINEPTX_H
#define WARPFIX_CHECKS_ANALYSIS_INLINEPTX_H

#include "checks/analysis/AsmOperands.h"
#include "checks/analysis/PtxTemplate.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <vector>

namespace warpfix {

struct InlinePtx {
  const clang::GCCAsmStmt *Asm = nullptr;
  ptx::Template Template;
  /// The operand each of Template.References names, as clang numbers them
  /// (outputs, then inputs).
  std::vector<unsigned> OperandNumbers;
  /// PtxTemplate and clang read the same operand references, in the same
  /// order. When they do not, nothing in the template is edited.
  bool AgreesWithClang = false;

  /// Where byte Byte of the template is spelled (in a macro body, for a
  /// literal a macro writes).
  clang::SourceLocation locationOf(unsigned Byte,
                                   const clang::ASTContext &Ctx) const;
  /// Where to insert text right after byte Byte - 1, in the literal token
  /// that holds that byte (not at the start of the next literal, which may
  /// be spelled elsewhere); invalid when that byte is written with an escape
  /// sequence, so that no insertion can be placed exactly.
  clang::SourceLocation insertionAfter(unsigned Byte,
                                       const clang::ASTContext &Ctx) const;
  /// The template text of Instructions[I] with Edits applied to it.
  std::string rewritten(const ptx::Instruction &I,
                        llvm::ArrayRef<ptx::Edit> Edits) const;
};

/// Reads the template of Asm; nothing when it is not well-formed GCC template
/// syntax (which clang would have rejected).
std::optional<InlinePtx> readInlinePtx(const clang::GCCAsmStmt &Asm,
                                       const clang::ASTContext &Ctx);

/// Device code: a __device__ or __global__ function (host-device included),
/// where the template is PTX; a host function's asm is for the host CPU.
bool isDeviceFunction(const clang::FunctionDecl &F);

/// The tokens of Asm from `asm` to its closing ')', for
/// asmops::appendInput; nothing when the statement is not written as a
/// whole in one file (a macro writes it) and Why says so.
std::optional<std::vector<asmops::Token>>
asmStatementTokens(const clang::GCCAsmStmt &Asm, const clang::ASTContext &Ctx,
                   std::string &Why);

} // namespace warpfix

#endif
