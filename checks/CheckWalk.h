// One walk of a translation unit's user code, for every check, the parent
// index and the call sites at once.
//
// MatchFinder walked the unit a second time, after the parent index's own
// walk, and tested every matcher on every node of its kind: on a file of
// 4,000 small kernels that walk alone cost a fifth as much as the parse. The
// nodes the checks look at are few kinds, and each check's test of them is a
// few lines of C++ (a name first, as the matchers did), so the index's walk
// records them, and the checks are shown them once the index is complete.
#ifndef WARPFIX_CHECKS_CHECKWALK_H
#define WARPFIX_CHECKS_CHECKWALK_H

#include "checks/Check.h"
#include "checks/analysis/Parents.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/PointerUnion.h"
#include <memory>
#include <vector>

namespace warpfix {

class CheckWalk : private ParentIndex::Observer {
public:
  /// Walks Ctx's traversal scope, building Parents and gathering Context's
  /// call sites, then shows each check, in the order given, the nodes of the
  /// kinds it has hooks for, in the order of the walk; then ends the unit for
  /// each.
  static void run(ParentIndex &Parents, CheckContext &Context,
                  llvm::ArrayRef<std::unique_ptr<Check>> Checks);

private:
  explicit CheckWalk(CallSiteGatherer &Sites) : Sites(Sites) {}
  void enter(const clang::Decl &D) override;
  void enter(const clang::Stmt &S) override;

  CallSiteGatherer &Sites;

  /// Calls, asm statements, binary operators, names of declarations, and
  /// named declarations, in the order of the walk.
  std::vector<llvm::PointerUnion<const clang::Stmt *, const clang::Decl *>>
      Nodes;
};

} // namespace warpfix

#endif
