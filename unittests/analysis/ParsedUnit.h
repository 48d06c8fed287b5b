// A CUDA source parsed in memory the way a warpfix run parses a unit (the
// device side, the toolkit's headers, warpfix's compat headers, the
// preprocessor's hooks), with the shared analyses built over it. The lookups
// by name let a test state one fact about one node without walking the tree
// itself.
#ifndef WARPFIX_UNITTESTS_ANALYSIS_PARSEDUNIT_H
#define WARPFIX_UNITTESTS_ANALYSIS_PARSEDUNIT_H

#include "checks/analysis/Analyses.h"
#include "checks/analysis/FullMaskMacros.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/SkippedCode.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace warpfix::test {

class ParsedUnit {
public:
  /// Parses Code as the main file `unit.cu`. A test must check parsed()
  /// first: the facts of a tree that clang recovered from errors are other
  /// facts.
  explicit ParsedUnit(llvm::StringRef Code, bool AssumeWholeWarps = true);
  ~ParsedUnit();
  ParsedUnit(const ParsedUnit &) = delete;
  ParsedUnit &operator=(const ParsedUnit &) = delete;

  /// True when clang parsed the code without an error.
  bool parsed() const { return AST && Errors.empty(); }
  /// clang's errors, one a line, for the failure message of parsed().
  const std::string &errors() const { return Errors; }

  clang::ASTContext &context();
  const clang::SourceManager &sources() { return context().getSourceManager(); }
  Analyses &analyses();
  /// What the preprocessor's hooks of a run recorded: the full-mask macros,
  /// and the code that the parse skipped.
  const FullMaskMacros &fullMasks() const { return FullMasks; }
  const SkippedCode &skipped() const { return Skipped; }

  /// The definition of the function of that name in the main file (the
  /// first one, for an overload set); fails the test where there is none.
  const clang::FunctionDecl &function(llvm::StringRef Name);
  /// The Nth call, in the main file's order, of a function of that name
  /// (instantiations of templates included, after their pattern).
  const clang::CallExpr &call(llvm::StringRef Callee, unsigned Nth = 0);
  /// The number of such calls.
  size_t callsOf(llvm::StringRef Callee);
  /// The local or global variable of that name declared in the main file.
  const clang::VarDecl &variable(llvm::StringRef Name);
  /// The initializer of that variable, without implicit casts.
  const clang::Expr &initializer(llvm::StringRef Variable);
  /// The Nth statement of a kind in the main file, in source order.
  template <typename StmtKind> const StmtKind &nth(unsigned Nth = 0) {
    std::vector<const clang::Stmt *> All = statementsOfKind(
        [](const clang::Stmt &S) { return llvm::isa<StmtKind>(S); });
    return *llvm::cast<StmtKind>(atIndex(All, Nth, "statement of that kind"));
  }

private:
  std::vector<const clang::CallExpr *> calls(llvm::StringRef Callee);
  std::vector<const clang::Stmt *>
  statementsOfKind(llvm::function_ref<bool(const clang::Stmt &)> Wanted);
  const clang::Stmt *atIndex(const std::vector<const clang::Stmt *> &All,
                             unsigned Nth, llvm::StringRef What);

  // Declared before the tree, so that they outlive its preprocessor, whose
  // hooks write into them.
  FullMaskMacros FullMasks;
  SkippedCode Skipped;
  std::unique_ptr<clang::ASTUnit> AST;
  std::string Errors;
  bool AssumeWholeWarps;
  std::unique_ptr<ParentIndex> Parents;
  std::unique_ptr<ParentIndex::Use> InUse;
  std::unique_ptr<Analyses> Shared;
};

/// The first CUDA toolkit found as warpfix finds one: $CUDA_PATH,
/// $CUDA_HOME, /usr/local/cuda, the nvcc on PATH. Empty where none is.
std::string cudaToolkitRoot();

} // namespace warpfix::test

#endif
