#include "checks/RuntimeRenames.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace warpfix {

llvm::StringRef renamedRuntimeCall(llvm::StringRef OldName) {
  return llvm::StringSwitch<llvm::StringRef>(OldName)
      .Case("cudaThreadExit", "cudaDeviceReset")
      .Case("cudaThreadSynchronize", "cudaDeviceSynchronize")
      .Case("cudaThreadSetLimit", "cudaDeviceSetLimit")
      .Case("cudaThreadGetLimit", "cudaDeviceGetLimit")
      .Case("cudaThreadGetCacheConfig", "cudaDeviceGetCacheConfig")
      .Case("cudaThreadSetCacheConfig", "cudaDeviceSetCacheConfig")
      .Default("");
}

namespace {

/// The logical line (backslash-newlines spliced away) of the #define that
/// holds Offset in Buffer.
std::string definitionLine(llvm::StringRef Buffer, size_t Offset) {
  auto continued = [&](size_t NewLine) {
    size_t Before = NewLine;
    if (Before > 0 && Buffer[Before - 1] == '\r')
      --Before;
    return Before > 0 && Buffer[Before - 1] == '\\';
  };
  size_t Begin = Offset;
  while (Begin > 0) {
    size_t NewLine = Buffer.rfind('\n', Begin - 1);
    if (NewLine == llvm::StringRef::npos) {
      Begin = 0;
      break;
    }
    Begin = NewLine + 1;
    if (NewLine == 0 || !continued(NewLine))
      break;
    Begin = NewLine;
  }
  size_t End = Offset;
  while (true) {
    End = Buffer.find('\n', End);
    if (End == llvm::StringRef::npos || !continued(End))
      break;
    ++End;
  }
  std::string Line;
  llvm::StringRef Text = Buffer.slice(Begin, End);
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\\' && (Text.substr(I + 1).starts_with("\n") ||
                            Text.substr(I + 1).starts_with("\r\n"))) {
      I += Text[I + 1] == '\r' ? 2 : 1;
      continue;
    }
    Line += Text[I];
  }
  return Line;
}

/// Why the parameter spelled at Parameter, in a function-like macro's
/// definition, does not stand for one plain use of its argument.
std::optional<std::string> parameterRefusal(SourceLocation Parameter,
                                            const SourceManager &SM,
                                            const LangOptions &LO) {
  auto [File, Offset] = SM.getDecomposedLoc(Parameter);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  std::string Unread = "warpfix could not read the macro's definition";
  if (Invalid || Offset >= Buffer.size())
    return Unread;
  llvm::StringRef Name =
      Buffer.substr(Offset, Lexer::MeasureTokenLength(Parameter, SM, LO));
  std::string Line = definitionLine(Buffer, Offset);
  Lexer Raw(SourceLocation(), LO, Line.data(), Line.data(),
            Line.data() + Line.size());
  std::vector<Token> Tokens = lexToEnd(Raw);
  // # define NAME ( parameters ) body
  auto isWord = [&](size_t I, llvm::StringRef Word) {
    return I < Tokens.size() && Tokens[I].is(tok::raw_identifier) &&
           Tokens[I].getRawIdentifier() == Word;
  };
  if (Tokens.size() < 4 || !Tokens[0].is(tok::hash) || !isWord(1, "define") ||
      !Tokens[3].is(tok::l_paren))
    return Unread;
  size_t Body = 4;
  while (Body < Tokens.size() && !Tokens[Body].is(tok::r_paren))
    ++Body;
  if (Body == Tokens.size())
    return Unread;
  std::string Macro = Tokens[2].is(tok::raw_identifier)
                          ? Tokens[2].getRawIdentifier().str()
                          : std::string("?");
  size_t Uses = 0;
  for (size_t I = Body + 1; I < Tokens.size(); ++I) {
    if (!isWord(I, Name))
      continue;
    ++Uses;
    bool Stringified = Tokens[I - 1].is(tok::hash);
    bool Pasted = Tokens[I - 1].is(tok::hashhash) ||
                  (I + 1 < Tokens.size() && Tokens[I + 1].is(tok::hashhash));
    if (Stringified || Pasted)
      return "macro '" + Macro + "' " +
             (Stringified ? "turns its argument into a string"
                          : "pastes its argument into another name") +
             ", which the new name would change too";
  }
  if (Uses != 1)
    return "macro '" + Macro +
           "' uses its argument more than once, and warpfix follows one use";
  return std::nullopt;
}

/// Whether D is declared by the runtime's own headers.
bool declaredByRuntime(const Decl *D, const SourceManager &SM) {
  SourceLocation At = SM.getExpansionLoc(D->getLocation());
  if (At.isInvalid() || !SM.isInSystemHeader(At))
    return false;
  llvm::StringRef File = llvm::sys::path::filename(SM.getFilename(At));
  return File == "cuda_runtime_api.h" || File == "cuda_device_runtime_api.h";
}

} // namespace

std::vector<Token> lexToEnd(Lexer &Raw) {
  std::vector<Token> Tokens;
  while (true) {
    Token T;
    bool AtEnd = Raw.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    Tokens.push_back(T);
    if (AtEnd)
      break;
  }
  return Tokens;
}

std::string placeOf(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc At = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (At.isInvalid())
    return "elsewhere";
  return "at " + llvm::sys::path::filename(At.getFilename()).str() + ":" +
         std::to_string(At.getLine());
}

std::string placeOf(const Decl *D, const SourceManager &SM) {
  return placeOf(D->getLocation(), SM);
}

std::optional<std::string>
macroArgumentRefusal(SourceLocation NameLoc, const SourceManager &SM,
                     const LangOptions &LO, std::vector<std::string> &Macros) {
  for (SourceLocation At = NameLoc; At.isMacroID();
       At = SM.getImmediateSpellingLoc(At)) {
    Macros.push_back(Lexer::getImmediateMacroName(At, SM, LO).str());
    const SrcMgr::ExpansionInfo &Expansion =
        SM.getSLocEntry(SM.getFileID(At)).getExpansion();
    if (!Expansion.isMacroArgExpansion())
      return "the name is spelled in the body of macro '" + Macros.back() +
             "', which other code may expand too";
    // Where the macro's body names the parameter that took the argument.
    SourceLocation Parameter =
        SM.getSpellingLoc(Expansion.getExpansionLocStart());
    if (auto Why = parameterRefusal(Parameter, SM, LO))
      return Why;
  }
  return std::nullopt;
}

std::optional<std::string> newNameRefusal(ASTContext &Ctx,
                                          llvm::StringRef Name) {
  const SourceManager &SM = Ctx.getSourceManager();
  IdentifierInfo &Identifier = Ctx.Idents.get(Name);
  if (Identifier.hadMacroDefinition())
    return "'" + Name.str() + "' is a macro in this translation unit";
  auto Found = Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&Identifier));
  if (Found.empty())
    return "the runtime's '" + Name.str() + "' is not declared here";
  for (const NamedDecl *D : Found)
    if (!declaredByRuntime(D, SM))
      return "'::" + Name.str() + "' would also find the declaration " +
             placeOf(D, SM);
  return std::nullopt;
}

std::optional<std::string>
oldNameRefusal(ASTContext &Ctx, llvm::StringRef Name,
               llvm::function_ref<bool(const Decl *)> IsStandIn) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Found = Ctx.getTranslationUnitDecl()->lookup(
      DeclarationName(&Ctx.Idents.get(Name)));
  for (const NamedDecl *D : Found)
    if (!IsStandIn(D))
      return "'" + Name.str() + "' is declared " + placeOf(D, SM) +
             " too, and may be the project's own";
  return std::nullopt;
}

} // namespace warpfix
