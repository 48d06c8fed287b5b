// A value kept in a local variable, or in an element or field of one
// (`m`, `mask[0]`, `s.mask`), followed from where it is stored to where it
// is read. Generated code keeps a mask in a one-element array
// (`mask[0] = __activemask();`) as readily as in a scalar.
#ifndef WARPFIX_CHECKS_ANALYSIS_LOCALSLOTS_H
#define WARPFIX_CHECKS_ANALYSIS_LOCALSLOTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// A local variable (not a parameter), or a part of one named by fields and
/// constant array indices.
struct LocalSlot {
  struct Step {
    const clang::FieldDecl *Field = nullptr; ///< null: an array element
    int64_t Index = 0;
    bool operator==(const Step &O) const {
      return Field == O.Field && (Field || Index == O.Index);
    }
  };
  const clang::VarDecl *Var = nullptr;
  std::vector<Step> Path;
  bool operator==(const LocalSlot &O) const {
    return Var == O.Var && Path == O.Path;
  }
  /// As the code spells it: `mask[0]`, `s.mask`.
  std::string name() const;
};

/// The slot the lvalue E names: a local variable, through `.field` and
/// constant subscripts of arrays (never of pointers). Nothing otherwise.
std::optional<LocalSlot> slotOf(const clang::Expr *E,
                                const clang::ASTContext &Ctx);

/// The slot that Value is stored into, when it is the whole initializer of a
/// local scalar or the right side of a plain `=` to a slot.
std::optional<LocalSlot> slotStoredBy(const clang::Expr *Value,
                                      clang::ASTContext &Ctx);

/// What the function around a slot does with it.
struct SlotAccesses {
  /// The values stored into exactly this slot, in source order; null stands
  /// for a store that cannot be followed (`+=`, `++`, an element chosen by a
  /// non-constant index, part of an initializer list that is not written).
  std::vector<const clang::Expr *> Stored;
  /// The expressions that read exactly this slot's value.
  std::vector<const clang::Expr *> Reads;
  /// The variable is used in a way that may read or write the slot without
  /// naming it: its address escapes, it is copied or bound whole, an element
  /// is read through a non-constant index.
  bool Unmodelled = false;
};
SlotAccesses accessesOf(const LocalSlot &Slot, clang::ASTContext &Ctx);

} // namespace warpfix

#endif
