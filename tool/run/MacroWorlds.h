// The builds that a header which clang could not find may stand for. Such a
// header may define any macro that is not defined where it is included, and
// an `#if` after it that tests one may then compile another branch. A
// project's own `#error` guards rule some of those builds out, as in
//
//   #define use_SPFP
//   #if !(defined(use_DPFP) && ...) && !(defined(use_SPFP) &&
//   !defined(use_DPFP) ...) #error "You must define one and only one precision
//   mode" #endif #if defined(use_DPFP) typedef double NNFloat; #elif
//   defined(use_SPFP) typedef float NNFloat;
//   ...
//
// where a header that defined use_DPFP would stop the build at the #error:
// in every build that compiles, the #if takes the branch this parse took.
//
// The model is the one of the rest of the error taint: the missing header
// may define macros; it does not #undef or redefine what the project
// defined before including it, nor define an include guard, and the
// toolkit's own configuration tests are the toolkit's. Anything the
// recorder cannot follow (a value that a header may give, an unsigned
// literal, __has_include, a macro that expands to more than an integer, an
// #include or #define in a branch that another build may compile, another
// header not found between a guard and the block, an #undef of a name that
// decides, a project file that names pop_macro) answers "may differ". A
// `__has_include` that answered no counts as a header not found. Two red
// teams of this rule found each of those;
// test/tool/tolerant-error-guard-traps.test keeps them.
#ifndef WARPFIX_TOOL_RUN_MACROWORLDS_H
#define WARPFIX_TOOL_RUN_MACROWORLDS_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

class MacroWorlds {
public:
  /// What a name read by a condition was where the condition was read.
  struct NameState {
    bool Defined = false;
    /// Its value, where it is one integer.
    std::optional<long long> Value;
    /// Defined or undefined in code that another build may not compile (or
    /// may compile where this one did not): what it is there is unknown.
    bool Doubtful = false;
    /// Undefined, and not a name the compiler reserves: the missing header
    /// may define it.
    bool Free() const { return !Defined && !Doubtful && !Reserved; }
    /// A name the compiler or the platform defines (`__CUDA_ARCH__`,
    /// `_WIN32`), which no project header does.
    bool Reserved = false;
  };
  struct Condition {
    /// The condition's text, line splices removed; `defined X` for #ifdef.
    std::string Text;
    bool Negated = false; // #ifndef, #elifndef
    llvm::StringMap<NameState> Names;
    /// Reads what no evaluation here follows: `__has_include`, a
    /// function-like macro, the value of a macro that is not one integer
    /// (`#define STRICT !defined(NO_STRICT)`), whose expansion may read
    /// names the header defines.
    bool Opaque = false;
  };
  /// An #if ... #endif after the missing header, in a project file.
  struct Chain {
    clang::SourceLocation If, Endif;
    std::vector<Condition> Branches;
    bool HasElse = false;
    /// The branch this parse compiled: an index into Branches, Branches'
    /// size for the #else, or -1 for none.
    int Taken = -1;
    /// Inside a branch of a chain that another build may not compile.
    bool InUnsettled = false;
    /// One branch, not taken, that holds nothing but #error lines.
    bool Guard = false;
    /// What the branches this parse skipped hold: an #include, and the names
    /// they #define or #undef.
    bool SkippedInclude = false;
    llvm::StringSet<> SkippedNames;
  };

  void attach(clang::Preprocessor &PP);

  /// Whether the chain whose #if is at If compiles the branch this parse
  /// compiled in every build that gets past the project's #error guards,
  /// whatever macros the missing header defines. False where it may not, or
  /// where the recorder cannot tell.
  bool sameBranchInEveryBuild(clang::SourceLocation If) const;

  /// The first #include that was not found, or `__has_include` that
  /// answered no in a project file, where recording began.
  clang::SourceLocation MissingAt;
  /// Every #include not found from there on: each may define names that
  /// the directives before it did not see.
  std::vector<clang::SourceLocation> Missing;
  /// Something the recorder does not model happened after MissingAt (an
  /// `#ifndef` taken for an include guard that was not one): no chain is
  /// answered for.
  bool Unmodelled = false;
  /// A project file of the unit may `#pragma pop_macro`, which no hook
  /// reports: no chain is answered for either.
  bool PopsMacros = false;
  std::vector<Chain> Chains;
  /// Names #undef'd after the missing header.
  llvm::StringSet<> Undefined;
  /// The first chain that another build may compile otherwise and whose
  /// skipped branches #include a file: past it, anything may be defined.
  clang::SourceLocation UnsettledIncludeAt;

  /// Whether Chain may compile another branch in another build: one of the
  /// conditions up to the one taken reads a name that is free or doubtful,
  /// or is opaque.
  static bool unsettled(const Chain &C);

private:
  /// The branch Chain compiles in the build where the missing header defines
  /// the names in World: as Chain::Taken, or none where it cannot tell.
  static std::optional<int> branchIn(const Chain &C,
                                     const llvm::StringSet<> &World);
  const clang::SourceManager *SM = nullptr;
  friend class MacroWorldsRecorder;
};

/// Names of the compiler and the platform (`__CUDA_ARCH__`, `_WIN32`,
/// `_MSC_VER`), which a project's header does not define. Other names that
/// begin with `_` (`_DEBUG`, `_USE_DOUBLE`) a header may define.
bool isCompilerName(llvm::StringRef Name);

/// The value of an #if condition, where the names in World are defined too:
/// none where it reads something more than integers, `defined`, names of
/// known integer value, !, unary -, comparisons, && and || (arithmetic, a
/// function-like macro, __has_include, a free name's value).
std::optional<long long> evaluateCondition(const MacroWorlds::Condition &C,
                                           const llvm::StringSet<> &World);

} // namespace warpfix

#endif
