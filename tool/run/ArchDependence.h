// Which code of a unit depends on the GPU architecture, as its preprocessor
// sees it: __CUDA_ARCH__, and every macro whose definition does, through the
// toolkit's headers too (cooperative groups' _CG_HAS_INSTR_ELECT, CCCL's
// _CCCL_PTX_ARCH, a project's `#define SM_HOPPER 900`, token pasting). A
// text scan cannot follow those; the preprocessor does.
#ifndef WARPFIX_TOOL_RUN_ARCHDEPENDENCE_H
#define WARPFIX_TOOL_RUN_ARCHDEPENDENCE_H

#include "tool/run/ArchConditions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSet.h"

namespace warpfix {

class ArchDependenceRecorder : public clang::PPCallbacks {
public:
  /// Seed: the macros already known to depend on the architecture (those a
  /// shared preamble defined, whose definitions passed no hook here).
  /// UserCode: whether the recorder judges the user's code (a unit), or only
  /// collects macros (a preamble of system headers).
  ArchDependenceRecorder(clang::Preprocessor &PP,
                         llvm::ArrayRef<std::string> Seed, bool UserCode);

  /// The macros whose value depends on the architecture, by name.
  std::vector<std::string> archMacros() const;
  /// What the user's code says: the numbers that its `#if`s compare
  /// __CUDA_ARCH__ with, or Opaque where it depends on the architecture in
  /// any other way.
  const ArchConditions &userConditions() const { return User; }

  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &,
                    clang::SourceRange Range,
                    const clang::MacroArgs *) override;
  void Defined(const clang::Token &Name, const clang::MacroDefinition &,
               clang::SourceRange) override;
  void MacroDefined(const clang::Token &Name,
                    const clang::MacroDirective *MD) override;
  void MacroUndefined(const clang::Token &Name, const clang::MacroDefinition &,
                      const clang::MacroDirective *) override;
  void If(clang::SourceLocation Loc, clang::SourceRange Condition,
          ConditionValueKind Value) override;
  void Elif(clang::SourceLocation Loc, clang::SourceRange Condition,
            ConditionValueKind Value, clang::SourceLocation) override;
  void Ifdef(clang::SourceLocation Loc, const clang::Token &Name,
             const clang::MacroDefinition &) override;
  void Ifndef(clang::SourceLocation Loc, const clang::Token &Name,
              const clang::MacroDefinition &) override;
  void Elifdef(clang::SourceLocation Loc, const clang::Token &Name,
               const clang::MacroDefinition &) override;
  void Elifndef(clang::SourceLocation Loc, const clang::Token &Name,
                const clang::MacroDefinition &) override;
  void Endif(clang::SourceLocation Loc, clang::SourceLocation) override;
  void SourceRangeSkipped(clang::SourceRange Range,
                          clang::SourceLocation EndLoc) override;

private:
  bool tainted(llvm::StringRef Name) const;
  /// Whether a condition that compares __CUDA_ARCH__ with Numbers may be
  /// answered differently by two of the build's architectures.
  bool splitsCandidates(llvm::ArrayRef<unsigned> Numbers) const;
  void readCandidates(const clang::MacroInfo *List);
  /// The macro Name names, if it is one.
  const clang::MacroInfo *macroNamed(llvm::StringRef Name) const;
  /// The value of a numeric token, by its spelling.
  std::optional<unsigned> numberIn(const clang::Token &T) const;
  /// The value of a name in a condition where every architecture's parse
  /// gives it the same number: undefined (0), or defined as one number.
  std::optional<unsigned> valueOf(llvm::StringRef Name) const;
  void noteNvccOnly(const clang::Token &Name);
  bool inUserFile(clang::SourceLocation Loc) const;
  /// A condition evaluated: whether it depends on the architecture, and
  /// what it tells of the user's code.
  bool finishCondition(clang::SourceLocation Loc, clang::SourceRange Condition);
  void namedTest(clang::SourceLocation Loc, const clang::Token &Name,
                 bool Push);

  clang::Preprocessor &PP;
  bool UserCode;
  llvm::StringSet<> Tainted;
  /// Per open conditional: whether its conditions depend on the architecture.
  std::vector<bool> Open;
  unsigned OpenTainted = 0;
  /// The #endif that closed a tainted conditional last: a skip that runs to
  /// it is reported after it.
  clang::SourceLocation EndedTainted;
  /// A macro that depends on the architecture was expanded or tested in the
  /// condition being evaluated.
  bool ConditionTainted = false;
  ArchConditions User;
  /// The __CUDA_ARCH__ values of the build's architectures.
  std::vector<unsigned> Candidates;
};

} // namespace warpfix

#endif
