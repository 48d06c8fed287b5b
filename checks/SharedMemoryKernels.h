// The kernels that the shared-memory race checks analyse at the end of a
// unit.
#ifndef WARPFIX_CHECKS_SHAREDMEMORYKERNELS_H
#define WARPFIX_CHECKS_SHAREDMEMORYKERNELS_H

#include "checks/analysis/SharedAccesses.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstddef>
#include <vector>

namespace clang {
class ASTContext;
class DeclRefExpr;
class FunctionDecl;
} // namespace clang

namespace warpfix {

/// The work the models of 1024-thread blocks may take for one kernel with
/// no launch in sight, in evaluations of an expression for a thread: about
/// three seconds. A miner's scrypt kernel takes 11 million, 16 times its
/// two-warp model; without the model its races get no fix. Both race checks
/// use it, so that they see the same races.
inline constexpr size_t LargestBlockEvaluations = 12'000'000;

/// The kernels of the unit, analysed at its end, and only if some code of
/// it names a __shared__ variable: every access the analysis finds goes
/// through such a name, and the walk through every kernel, unrolling its
/// loops and entering its calls, is a tenth of the checks' work on a unit
/// of many kernels with no shared memory.
class SharedMemoryKernels {
public:
  /// Keeps Function if it is a kernel's definition in the user's code.
  void onFunction(const clang::FunctionDecl &Function, clang::ASTContext &Ctx);
  /// Notes a name of a __shared__ variable, wherever it is written: a
  /// kernel's walk follows calls and pointers.
  void onDeclRef(const clang::DeclRefExpr &Ref);
  /// Analyse on each kernel kept, if the unit names shared memory; then
  /// forgets them.
  void analyse(
      llvm::function_ref<void(const clang::FunctionDecl &, clang::ASTContext &)>
          Analyse);

private:
  std::vector<const clang::FunctionDecl *> Kernels;
  clang::ASTContext *Context = nullptr;
  bool NamesSharedMemory = false;
};

/// The races that Keep keeps, by writing statement, in the order of each
/// statement's first race: a check reports one finding for each statement.
std::vector<std::vector<const Race *>>
racesByWritingStatement(const std::vector<Race> &Races,
                        llvm::function_ref<bool(const Race &)> Keep);

} // namespace warpfix

#endif
