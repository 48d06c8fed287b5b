#include "tool/merge/EditSet.h"

using clang::tooling::Replacement;
using clang::tooling::Replacements;

namespace warpfix {

std::pair<EditSet::const_iterator, EditSet::const_iterator>
EditSet::touching(unsigned Begin, unsigned End) const {
  // The first edit that starts after End.
  const_iterator Last = Edits.lower_bound(End + 1);
  // Edits do not overlap, so their ends grow with their offsets: the ones
  // that reach Begin are the last few before Last.
  const_iterator First = Last;
  while (First != Edits.begin()) {
    const_iterator Prev = std::prev(First);
    if (Prev->Offset + Prev->Length < Begin)
      break;
    First = Prev;
  }
  return {First, Last};
}

std::optional<Replacement> EditSet::insertionAt(unsigned Offset) const {
  // The empty insertion is the least edit at Offset.
  auto It = Edits.lower_bound(Offset);
  if (It != Edits.end() && It->Offset == Offset && It->Length == 0)
    return toReplacement(*It);
  return std::nullopt;
}

Replacements EditSet::around(const Replacements &Rs) const {
  // Neighbourhoods of nearby Rs may share edits; a set takes each once, and
  // gives them back in the set's order, in which adding them rebuilds them.
  auto ByKey = [](const Edit *A, const Edit *B) {
    return keyOf(*A) < keyOf(*B);
  };
  std::set<const Edit *, decltype(ByKey)> Near(ByKey);
  for (const Replacement &R : Rs) {
    auto [First, Last] = touching(R.getOffset(), R.getOffset() + R.getLength());
    for (const_iterator It = First; It != Last; ++It)
      Near.insert(&*It);
  }
  Replacements Result;
  for (const Edit *E : Near)
    llvm::cantFail(Result.add(toReplacement(*E)));
  return Result;
}

llvm::Error EditSet::add(const Replacement &R) {
  if (Edits.empty())
    Path = R.getFilePath().str();
  auto [First, Last] = touching(R.getOffset(), R.getOffset() + R.getLength());
  // Alone, R is what Replacements::add would keep: most edits touch none.
  if (First == Last) {
    Edits.insert(Last, Edit{R.getOffset(), R.getLength(),
                            R.getReplacementText().str()});
    return llvm::Error::success();
  }
  Replacements Near;
  // Edits already in the set do not overlap: adding them back in order
  // rebuilds them unchanged.
  for (const_iterator It = First; It != Last; ++It)
    llvm::cantFail(Near.add(toReplacement(*It)));
  if (llvm::Error Err = Near.add(R))
    return Err;
  Edits.erase(First, Last);
  for (const Replacement &Merged : Near)
    Edits.insert(Edit{Merged.getOffset(), Merged.getLength(),
                      Merged.getReplacementText().str()});
  return llvm::Error::success();
}

Replacements EditSet::toReplacements() const {
  Replacements All;
  for (const Edit &E : Edits)
    llvm::cantFail(All.add(toReplacement(E)));
  return All;
}

} // namespace warpfix
