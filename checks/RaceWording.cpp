#include "checks/RaceWording.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace warpfix {

/// The element at Offset bytes into Var, spelt as the source would name it:
/// `tile[1][3]`, `slots[2].flag`, `smem.sum[16]`. Of a union's or struct's
/// fields, those the access names are followed.
std::string elementName(const VarDecl &Var, int64_t Offset, const Expr &Access,
                        ASTContext &Ctx) {
  llvm::SmallPtrSet<const FieldDecl *, 4> Named;
  for (const Expr *E = &Access; E;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
        Named.insert(Field);
      E = Member->getBase();
    } else if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      E = Sub->getBase();
    } else {
      E = nullptr;
    }
  }
  std::string Name = Var.getName().str();
  QualType Type = Var.getType();
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    if (const ArrayType *Array = Ctx.getAsArrayType(Type)) {
      QualType Element = Array->getElementType();
      if (Element->isIncompleteType() || Element->isDependentType())
        break;
      int64_t Size = Ctx.getTypeSizeInChars(Element).getQuantity();
      if (Size <= 0)
        break;
      Name += "[" + std::to_string(Offset / Size) + "]";
      Offset %= Size;
      Type = Element;
      continue;
    }
    const RecordDecl *Record = Type->getAsRecordDecl();
    if (!Record || !Record->getDefinition() || Record->isInvalidDecl() ||
        Ctx.hasSameUnqualifiedType(Type, Access.getType()))
      break;
    const FieldDecl *Into = nullptr;
    for (const FieldDecl *Field : Record->fields()) {
      if (!Named.contains(Field) || Field->getType()->isIncompleteType())
        continue;
      int64_t Start =
          Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Field)).getQuantity();
      int64_t Size = Ctx.getTypeSizeInChars(Field->getType()).getQuantity();
      // A bit-field's access stands for its whole struct.
      if (Field->isBitField() || (Offset >= Start && Offset < Start + Size)) {
        Into = Field;
        if (!Field->isBitField())
          Offset -= Start;
        break;
      }
    }
    if (!Into)
      break;
    Name += "." + Into->getNameAsString();
    if (Into->isBitField())
      break;
    Type = Into->getType();
  }
  return Name;
}

/// The block a race between warps was found in, where the kernel may run in
/// blocks of another size too.
std::string blockOfWitness(const Race &R,
                           const WarpAssumptions::Launches &Launches) {
  if (R.FromLaunch && Launches.Sizes.size() == 1 && !Launches.OthersPossible)
    return "";
  const BlockSize &B = R.ModelShape;
  std::string Size =
      B.Y * B.Z > 1
          ? std::to_string(B.X) + "x" + std::to_string(B.Y) +
                (B.Z > 1 ? "x" + std::to_string(B.Z) : "") + " threads"
      : !R.FromLaunch && R.ModelThreads == SharedAccessAnalysis::TwoWarps
          ? "two warps"
          : std::to_string(B.X) + " threads";
  if (R.FromLaunch)
    return ", in its launch with blocks of " + Size;
  return ", in a block of " + Size +
         (Launches.Sizes.empty()
              ? ", as modelled with no launch in sight"
              : ", as modelled for a launch whose size warpfix cannot see");
}

} // namespace warpfix
