// One file's edits, kept as clang::tooling::Replacements keeps them (sorted,
// non-overlapping, order-independent overlaps merged by Replacements::add),
// but searchable. Replacements offers no lookup and no view of the edits near
// one place, so merging N findings through it (a copy or a scan per finding)
// costs N^2; here each step costs log N plus the edits it touches.
#ifndef WARPFIX_TOOL_MERGE_EDITSET_H
#define WARPFIX_TOOL_MERGE_EDITSET_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"
#include <set>

namespace warpfix {

class EditSet {
public:
  using const_iterator = std::set<clang::tooling::Replacement>::const_iterator;

  /// Whether the set holds exactly R.
  bool contains(const clang::tooling::Replacement &R) const {
    return Edits.count(R) != 0;
  }

  /// The insertion at Offset, if any (there is at most one).
  const clang::tooling::Replacement *insertionAt(unsigned Offset) const;

  /// The edits that overlap or touch one of Rs, as a Replacements of their
  /// own: adding the Rs to it succeeds or fails, and merges, exactly as adding
  /// them to the whole set would, since Replacements::add only looks at the
  /// edits that overlap or touch the one added.
  clang::tooling::Replacements around(const clang::tooling::Replacements &Rs) const;

  /// Whether an edit of the set overlaps or touches R: where none does,
  /// adding R can neither clash nor merge.
  bool touches(const clang::tooling::Replacement &R) const {
    auto [First, Last] = touching(R.getOffset(), R.getOffset() + R.getLength());
    return First != Last;
  }

  /// Replacements::add on the whole set, done on R's neighbourhood.
  llvm::Error add(const clang::tooling::Replacement &R);

  /// Takes out R, which the set holds.
  void erase(const clang::tooling::Replacement &R) { Edits.erase(R); }

  clang::tooling::Replacements toReplacements() const;

  const_iterator begin() const { return Edits.begin(); }
  const_iterator end() const { return Edits.end(); }
  bool empty() const { return Edits.empty(); }

private:
  /// The edits that overlap or touch [Begin, End], in order.
  std::pair<const_iterator, const_iterator> touching(unsigned Begin,
                                                     unsigned End) const;

  /// Replacement's own order: offset, length, text.
  std::set<clang::tooling::Replacement> Edits;
};

} // namespace warpfix

#endif
