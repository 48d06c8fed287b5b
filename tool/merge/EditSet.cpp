#include "tool/merge/EditSet.h"

using clang::tooling::Replacement;
using clang::tooling::Replacements;

namespace warpfix {

std::pair<EditSet::const_iterator, EditSet::const_iterator>
EditSet::touching(unsigned Begin, unsigned End) const {
  // The first edit that starts after End: an empty insertion at End + 1 sorts
  // before every edit there.
  const_iterator Last = Edits.lower_bound(Replacement("", End + 1, 0, ""));
  // Edits do not overlap, so their ends grow with their offsets: the ones
  // that reach Begin are the last few before Last.
  const_iterator First = Last;
  while (First != Edits.begin()) {
    const_iterator Prev = std::prev(First);
    if (Prev->getOffset() + Prev->getLength() < Begin)
      break;
    First = Prev;
  }
  return {First, Last};
}

const Replacement *EditSet::insertionAt(unsigned Offset) const {
  // The empty insertion is the least edit at Offset.
  auto It = Edits.lower_bound(Replacement("", Offset, 0, ""));
  if (It != Edits.end() && It->getOffset() == Offset && It->getLength() == 0)
    return &*It;
  return nullptr;
}

Replacements EditSet::around(const Replacements &Rs) const {
  // Neighbourhoods of nearby Rs may share edits; a set takes each once.
  std::set<Replacement> Near;
  for (const Replacement &R : Rs) {
    auto [First, Last] = touching(R.getOffset(), R.getOffset() + R.getLength());
    Near.insert(First, Last);
  }
  Replacements Result;
  for (const Replacement &R : Near)
    llvm::cantFail(Result.add(R));
  return Result;
}

llvm::Error EditSet::add(const Replacement &R) {
  auto [First, Last] = touching(R.getOffset(), R.getOffset() + R.getLength());
  // Alone, R is what Replacements::add would keep: most edits touch none.
  if (First == Last) {
    Edits.insert(R);
    return llvm::Error::success();
  }
  Replacements Near;
  // Edits already in the set do not overlap: adding them back in order
  // rebuilds them unchanged.
  for (const_iterator It = First; It != Last; ++It)
    llvm::cantFail(Near.add(*It));
  if (llvm::Error Err = Near.add(R))
    return Err;
  Edits.erase(First, Last);
  Edits.insert(Near.begin(), Near.end());
  return llvm::Error::success();
}

Replacements EditSet::toReplacements() const {
  Replacements All;
  for (const Replacement &R : Edits)
    llvm::cantFail(All.add(R));
  return All;
}

} // namespace warpfix
