#include "checks/analysis/FullMaskMacros.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace warpfix {

bool isFullMaskSpelling(llvm::StringRef Text) {
  std::string Compact;
  for (char C : Text)
    if (!llvm::isSpace(C) && C != '(' && C != ')')
      Compact += llvm::toLower(C);
  llvm::StringRef S(Compact);
  if (S == "~0" || S == "~0u" || S == "~0x0" || S == "~0x0u")
    return true;
  S = S.rtrim("ul");
  return S == "0xffffffff" || S == "4294967295";
}

/// Whether the hooks record this definition.
static bool recorded(const MacroInfo &Info, const Preprocessor &PP) {
  if (Info.isFunctionLike() || Info.getNumTokens() == 0 ||
      PP.getSourceManager().isInSystemHeader(Info.getDefinitionLoc()))
    return false;
  std::string Body;
  for (const Token &T : Info.tokens())
    Body += PP.getSpelling(T);
  return isFullMaskSpelling(Body);
}

class FullMaskMacroRecorder : public PPCallbacks {
public:
  FullMaskMacroRecorder(FullMaskMacros &Out, Preprocessor &PP)
      : Out(Out), PP(PP) {}

  void MacroDefined(const Token &NameTok,
                    const MacroDirective *Directive) override {
    const MacroInfo *Info = Directive->getMacroInfo();
    if (!recorded(*Info, PP))
      return;
    Out.Definitions.push_back({NameTok.getIdentifierInfo()->getName().str(),
                               Info->getDefinitionLoc(), SourceLocation()});
  }

  void MacroUndefined(const Token &NameTok, const MacroDefinition &,
                      const MacroDirective *) override {
    llvm::StringRef Name = NameTok.getIdentifierInfo()->getName();
    for (auto &Def : Out.Definitions)
      if (Def.Name == Name && Def.UndefinedAt.isInvalid())
        Def.UndefinedAt = NameTok.getLocation();
  }

private:
  FullMaskMacros &Out;
  Preprocessor &PP;
};

void FullMaskMacros::attach(Preprocessor &PP) {
  PP.addPPCallbacks(std::make_unique<FullMaskMacroRecorder>(*this, PP));
}

void FullMaskMacros::addPrecompiled(Preprocessor &PP) {
  if (!PP.getExternalSource())
    return;
  // Each macro with a directive from the preamble is recorded again from its
  // whole history, its own directives included, in the order the hooks
  // would have seen them: an #undef in the main file must close the
  // preamble's definition as it would have.
  llvm::StringSet<> Redone;
  std::vector<Definition> Replayed;
  for (const auto &Entry : PP.macros(/*IncludeExternalMacros=*/true)) {
    const IdentifierInfo *Name = Entry.first;
    std::vector<const MacroDirective *> History;
    bool FromPreamble = false;
    for (const MacroDirective *D = PP.getLocalMacroDirectiveHistory(Name); D;
         D = D->getPrevious()) {
      History.push_back(D);
      FromPreamble |= D->isFromPCH();
    }
    if (!FromPreamble)
      continue;
    Redone.insert(Name->getName());
    for (auto It = History.rbegin(); It != History.rend(); ++It) {
      if (const auto *Def = dyn_cast<DefMacroDirective>(*It)) {
        if (recorded(*Def->getInfo(), PP))
          Replayed.push_back({Name->getName().str(),
                              Def->getInfo()->getDefinitionLoc(),
                              SourceLocation()});
      } else if (isa<UndefMacroDirective>(*It)) {
        for (Definition &D : Replayed)
          if (D.Name == Name->getName() && D.UndefinedAt.isInvalid())
            D.UndefinedAt = (*It)->getLocation();
      }
    }
  }
  if (Redone.empty())
    return;
  llvm::erase_if(Definitions, [&](const Definition &D) {
    return Redone.contains(D.Name);
  });
  llvm::append_range(Definitions, Replayed);
  const SourceManager &SM = PP.getSourceManager();
  llvm::stable_sort(Definitions, [&](const Definition &A, const Definition &B) {
    return SM.isBeforeInTranslationUnit(A.DefinedAt, B.DefinedAt);
  });
}

std::string FullMaskMacros::spellingAt(SourceLocation Loc,
                                       const SourceManager &SM,
                                       llvm::StringRef Fallback) const {
  SourceLocation Use = SM.getSpellingLoc(Loc);
  FileID File = SM.getFileID(Use);
  for (const Definition &Def : Definitions) {
    if (SM.getFileID(Def.DefinedAt) != File ||
        !SM.isBeforeInTranslationUnit(Def.DefinedAt, Use))
      continue;
    if (Def.UndefinedAt.isValid() &&
        SM.isBeforeInTranslationUnit(Def.UndefinedAt, Use))
      continue;
    return Def.Name;
  }
  return Fallback.str();
}

bool FullMaskMacros::namesFullMask(llvm::StringRef Name, SourceLocation Use,
                                   const SourceManager &SM) const {
  Use = SM.getFileLoc(Use);
  for (const Definition &Def : Definitions)
    if (Def.Name == Name && SM.isBeforeInTranslationUnit(Def.DefinedAt, Use) &&
        (Def.UndefinedAt.isInvalid() ||
         SM.isBeforeInTranslationUnit(Use, Def.UndefinedAt)))
      return true;
  return false;
}

} // namespace warpfix
