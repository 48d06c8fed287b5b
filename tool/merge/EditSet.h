// One file's edits, kept as clang::tooling::Replacements keeps them (sorted,
// non-overlapping, order-independent overlaps merged by Replacements::add),
// but searchable. Replacements offers no lookup and no view of the edits near
// one place, so merging N findings through it (a copy or a scan per finding)
// costs N^2; here each step costs log N plus the edits it touches.
//
// The file's path is kept once, not in every edit as a Replacement keeps it:
// copying and comparing Replacements was most of the merge's time on a file of
// 12,000 findings.
#ifndef WARPFIX_TOOL_MERGE_EDITSET_H
#define WARPFIX_TOOL_MERGE_EDITSET_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <set>
#include <string>

namespace warpfix {

class EditSet {
public:
  /// Whether the set holds exactly R.
  bool contains(const clang::tooling::Replacement &R) const {
    return Edits.count(keyOf(R)) != 0;
  }

  /// The insertion at Offset, if any (there is at most one).
  std::optional<clang::tooling::Replacement> insertionAt(unsigned Offset) const;

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

  /// Replacements::add on the whole set, done on R's neighbourhood. Every
  /// edit of one set is of one file.
  llvm::Error add(const clang::tooling::Replacement &R);

  /// Takes out R, if the set holds it.
  void erase(const clang::tooling::Replacement &R) {
    if (auto It = Edits.find(keyOf(R)); It != Edits.end())
      Edits.erase(It);
  }

  clang::tooling::Replacements toReplacements() const;

  bool empty() const { return Edits.empty(); }

private:
  struct Edit {
    unsigned Offset, Length;
    std::string Text;
  };
  /// What orders edits: Replacement's own order (offset, length, text).
  struct Key {
    unsigned Offset, Length;
    llvm::StringRef Text;
    bool operator<(const Key &Other) const {
      if (Offset != Other.Offset)
        return Offset < Other.Offset;
      if (Length != Other.Length)
        return Length < Other.Length;
      return Text < Other.Text;
    }
  };
  static Key keyOf(const Edit &E) { return {E.Offset, E.Length, E.Text}; }
  static Key keyOf(const clang::tooling::Replacement &R) {
    return {R.getOffset(), R.getLength(), R.getReplacementText()};
  }
  /// Compares edits, keys, and bare offsets (the place before every edit
  /// at that offset), so that lookups build no edit.
  struct Order {
    using is_transparent = void;
    static Key key(const Edit &E) { return keyOf(E); }
    static Key key(const Key &K) { return K; }
    static Key key(unsigned Offset) { return {Offset, 0, llvm::StringRef()}; }
    template <typename A, typename B> bool operator()(const A &X, const B &Y) const {
      return key(X) < key(Y);
    }
  };
  using const_iterator = std::set<Edit, Order>::const_iterator;

  clang::tooling::Replacement toReplacement(const Edit &E) const {
    return clang::tooling::Replacement(Path, E.Offset, E.Length, E.Text);
  }

  /// The edits that overlap or touch [Begin, End], in order.
  std::pair<const_iterator, const_iterator> touching(unsigned Begin,
                                                     unsigned End) const;

  std::string Path;
  std::set<Edit, Order> Edits;
};

} // namespace warpfix

#endif
