#include "checks/analysis/FullMaskMacros.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/StringExtras.h"

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

class FullMaskMacroRecorder : public PPCallbacks {
public:
  FullMaskMacroRecorder(FullMaskMacros &Out, Preprocessor &PP)
      : Out(Out), PP(PP) {}

  void MacroDefined(const Token &NameTok,
                    const MacroDirective *Directive) override {
    const MacroInfo *Info = Directive->getMacroInfo();
    if (Info->isFunctionLike() || Info->getNumTokens() == 0 ||
        PP.getSourceManager().isInSystemHeader(Info->getDefinitionLoc()))
      return;
    std::string Body;
    for (const Token &T : Info->tokens())
      Body += PP.getSpelling(T);
    if (!isFullMaskSpelling(Body))
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
