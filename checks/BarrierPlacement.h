// Where one barrier statement orders the accesses of a shared-memory race:
// the place is the same whether the barrier is a warp's or the block's; who
// must reach it is each check's to prove.
#ifndef WARPFIX_CHECKS_BARRIERPLACEMENT_H
#define WARPFIX_CHECKS_BARRIERPLACEMENT_H

#include "checks/FindingSink.h"
#include "checks/analysis/SharedAccesses.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <vector>

namespace warpfix {

/// Before At, or, where AtEnd, after it at the end of its block: the body
/// of a loop whose next iteration races with this one.
struct BarrierPlace {
  const clang::Stmt *At;
  bool AtEnd;
  bool operator==(const BarrierPlace &Other) const {
    return At == Other.At && AtEnd == Other.AtEnd;
  }
};

/// How a refusal names the barrier ("__syncwarp()") and those it orders
/// ("lane").
struct BarrierWording {
  llvm::StringRef Barrier;
  llvm::StringRef Party;
  /// The article's listing that shows a read and write of one statement
  /// split around the barrier, if it applies to this barrier.
  llvm::StringRef SplitListing;
};

/// The fewest places where one barrier each orders every race of Races,
/// all of one writing statement; nothing, with the refusal recorded on
/// Finding, where no statement of a block separates some pair.
std::optional<std::vector<BarrierPlace>>
barrierPlaces(const std::vector<const Race *> &Races,
              const BarrierWording &Wording, FindingBuilder &Finding,
              clang::ASTContext &Ctx);

/// Writes Barrier, a statement, at Place; false, with the refusal recorded
/// on Finding, where the text there is a macro's or the body is one line.
bool insertBarrier(const BarrierPlace &Place, const std::string &Barrier,
                   FindingBuilder &Finding, clang::ASTContext &Ctx);

} // namespace warpfix

#endif
