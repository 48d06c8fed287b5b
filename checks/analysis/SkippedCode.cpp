#include "checks/analysis/SkippedCode.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace warpfix {

class SkippedCodeRecorder : public PPCallbacks {
public:
  SkippedCodeRecorder(SkippedCode &Out, Preprocessor &PP) : Out(Out), PP(PP) {}

  void If(SourceLocation, SourceRange Condition,
          ConditionValueKind) override {
    Chains.push_back(conditionText(Condition));
  }
  void Ifdef(SourceLocation, const Token &Name, const MacroDefinition &) override {
    Chains.push_back(PP.getSpelling(Name));
  }
  void Ifndef(SourceLocation, const Token &Name,
              const MacroDefinition &) override {
    Chains.push_back(PP.getSpelling(Name));
  }
  void Elif(SourceLocation, SourceRange Condition, ConditionValueKind,
            SourceLocation) override {
    // An #elif chain is about the architecture if any of its conditions is.
    if (!Chains.empty())
      Chains.back() += " / " + conditionText(Condition);
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    if (Chains.empty())
      return;
    // A skip that runs to this #endif is reported after it: keep its chain.
    Ended = {Loc, Chains.back()};
    Chains.pop_back();
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation EndLoc) override {
    const SourceManager &SM = PP.getSourceManager();
    std::string Chain = EndLoc == Ended.first
                            ? Ended.second
                            : (Chains.empty() ? "" : Chains.back());
    Out.SkippedRanges.push_back(Range);
    if (SM.isInSystemHeader(Range.getBegin()) ||
        !llvm::StringRef(Chain).contains("__CUDA_ARCH__"))
      return;
    Out.Regions.push_back(
        {Range,
         ArchitectureSkipsReason.str() + " of an #if on the architecture ('" +
             Chain +
             "'); run warpfix again with --cuda-gpu-arch set to an "
             "architecture that compiles it",
         // Only whether __CUDA_ARCH__ is defined: the host's branch, which
         // no device parse takes.
         llvm::is_contained({"__CUDA_ARCH__", "defined(__CUDA_ARCH__)",
                             "!defined(__CUDA_ARCH__)",
                             "defined __CUDA_ARCH__",
                             "!defined __CUDA_ARCH__"},
                            llvm::StringRef(Chain).trim())});
  }

private:
  std::string conditionText(SourceRange Condition) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(Condition),
                                PP.getSourceManager(), PP.getLangOpts())
        .trim()
        .str();
  }

  SkippedCode &Out;
  Preprocessor &PP;
  std::vector<std::string> Chains;
  std::pair<SourceLocation, std::string> Ended;
};

/// Whether Loc lies within Range, both ends included.
static bool within(SourceLocation Loc, SourceRange Range,
                   const SourceManager &SM) {
  return !SM.isBeforeInTranslationUnit(Loc, Range.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Range.getEnd(), Loc);
}

bool SkippedCode::skippedByPreprocessor(SourceLocation Loc,
                                        const SourceManager &SM) const {
  return llvm::any_of(SkippedRanges,
                      [&](SourceRange R) { return within(Loc, R, SM); });
}

const SkippedCode::Region *
SkippedCode::regionHolding(SourceLocation Loc, const SourceManager &SM) const {
  auto It = llvm::find_if(
      Regions, [&](const Region &R) { return within(Loc, R.Range, SM); });
  return It == Regions.end() ? nullptr : &*It;
}

bool SkippedCode::hides(SourceLocation Loc, const SourceManager &SM) const {
  return regionHolding(Loc, SM) != nullptr;
}

std::vector<Token> SkippedCode::rawTokens(const Region &R,
                                          const SourceManager &SM) {
  std::vector<Token> Tokens;
  auto [File, Begin] = SM.getDecomposedLoc(R.Range.getBegin());
  unsigned End = SM.getFileOffset(R.Range.getEnd());
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || End <= Begin)
    return Tokens;
  LangOptions LangOpts;
  LangOpts.CPlusPlus = true;
  Lexer Raw(SM.getLocForStartOfFile(File), LangOpts, Buffer.begin(),
            Buffer.begin() + Begin, Buffer.end());
  Token Tok;
  while (!Raw.LexFromRawLexer(Tok) &&
         SM.getFileOffset(Tok.getLocation()) < End)
    Tokens.push_back(Tok);
  return Tokens;
}

namespace {

struct IncludeDirective {
  SourceLocation Name;
  std::string File;
  bool Angled;
};

/// The `#include` and `#import` directives among a region's raw tokens, with
/// the file name as written. `#include_next`, whose search starts after the
/// directory of the including file, and a name that a macro supplies, are
/// not resolved.
std::vector<IncludeDirective> includesIn(const SkippedCode::Region &R,
                                         const SourceManager &SM) {
  std::vector<IncludeDirective> Found;
  std::vector<Token> Tokens = SkippedCode::rawTokens(R, SM);
  for (size_t I = 0; I + 2 < Tokens.size(); ++I) {
    if (!Tokens[I].is(tok::hash) || !Tokens[I].isAtStartOfLine() ||
        !Tokens[I + 1].is(tok::raw_identifier))
      continue;
    llvm::StringRef Directive = Tokens[I + 1].getRawIdentifier();
    if (Directive != "include" && Directive != "import")
      continue;
    // The raw lexer splits <dir/name.h> into tokens; the text is read instead.
    auto [File, Offset] = SM.getDecomposedLoc(Tokens[I + 2].getLocation());
    llvm::StringRef Rest = SM.getBufferData(File).substr(Offset);
    if (Rest.empty() || (Rest.front() != '"' && Rest.front() != '<'))
      continue;
    char Close = Rest.front() == '"' ? '"' : '>';
    size_t End = Rest.find_first_of(Close == '"' ? "\"\n\r" : ">\n\r", 1);
    if (End == llvm::StringRef::npos || Rest[End] != Close || End == 1)
      continue;
    Found.push_back({Tokens[I + 2].getLocation(), Rest.slice(1, End).str(),
                     Close == '>'});
  }
  return Found;
}

} // namespace

void SkippedCode::addHeadersOnlySkippedCodeIncludes(Preprocessor &PP) {
  SourceManager &SM = PP.getSourceManager();
  HeaderSearch &Headers = PP.getHeaderSearchInfo();
  // Each region's first cause: the branch of an #if that hid its include.
  std::vector<std::string> Causes;
  llvm::DenseSet<const FileEntry *> Added;
  for (const Region &R : Regions)
    Causes.push_back(R.Reason);
  // Regions grow while they are scanned: a header that nothing read may
  // include others that nothing read either.
  for (size_t I = 0; I < Regions.size(); ++I) {
    for (const IncludeDirective &D : includesIn(Regions[I], SM)) {
      OptionalFileEntryRef Includer =
          SM.getFileEntryRefForID(SM.getFileID(D.Name));
      if (!Includer)
        continue;
      std::pair<OptionalFileEntryRef, DirectoryEntryRef> From = {
          *Includer, Includer->getDir()};
      ConstSearchDirIterator Dir = nullptr;
      OptionalFileEntryRef Header = Headers.LookupFile(
          D.File, D.Name, D.Angled, /*FromDir=*/nullptr, &Dir, From,
          /*SearchPath=*/nullptr, /*RelativePath=*/nullptr,
          /*RequestingModule=*/nullptr, /*SuggestedModule=*/nullptr,
          /*IsMapped=*/nullptr, /*IsFrameworkFound=*/nullptr);
      // A header that this parse read is analysed where it was read; one in
      // a system directory is not the user's to fix.
      if (!Header || PP.alreadyIncluded(*Header) ||
          SM.getFileEntryRefForID(SM.getMainFileID()) == *Header ||
          !Added.insert(&Header->getFileEntry()).second ||
          (Dir && Dir->getDirCharacteristic() != SrcMgr::C_User))
        continue;
      FileID Read = SM.createFileID(*Header, D.Name, SrcMgr::C_User);
      PresumedLoc At = SM.getPresumedLoc(D.Name);
      Regions.push_back(
          {SourceRange(SM.getLocForStartOfFile(Read),
                       SM.getLocForEndOfFile(Read)),
           "this header is included only at " +
               std::string(At.isValid() ? At.getFilename() : "?") + ":" +
               std::to_string(At.isValid() ? At.getLine() : 0) +
               ", which this parse did not read: " + Causes[I]});
      Causes.push_back(Causes[I]);
    }
  }
}

bool directiveLineBetween(SourceLocation Begin, SourceLocation End,
                      const SourceManager &SM, bool DefinitionsOnly) {
  auto [File, From] = SM.getDecomposedLoc(Begin);
  auto [EndFile, To] = SM.getDecomposedLoc(End);
  if (File != EndFile || To < From)
    return true;
  llvm::StringRef Text = SM.getBufferData(File).slice(From, To);
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    // The first piece starts mid-line, after the loop's own first tokens.
    llvm::StringRef Line = Lines[I].ltrim(" \t");
    if (I == 0 || !Line.consume_front("#"))
      continue;
    Line = Line.ltrim(" \t");
    if (!DefinitionsOnly || Line.starts_with("define") ||
        Line.starts_with("undef"))
      return true;
  }
  return false;
}

void SkippedCode::attach(Preprocessor &PP) {
  PP.addPPCallbacks(std::make_unique<SkippedCodeRecorder>(*this, PP));
}

} // namespace warpfix
