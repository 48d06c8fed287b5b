#include "checks/analysis/SkippedCode.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"

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
    if (SM.isInSystemHeader(Range.getBegin()) ||
        !llvm::StringRef(Chain).contains("__CUDA_ARCH__"))
      return;
    Out.Regions.push_back(
        {Range, "this parse's architecture skips this branch of an #if on "
                "the architecture ('" +
                    Chain +
                    "'); run warpfix again with --cuda-gpu-arch set to an "
                    "architecture that compiles it"});
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

void SkippedCode::attach(Preprocessor &PP) {
  PP.addPPCallbacks(std::make_unique<SkippedCodeRecorder>(*this, PP));
}

} // namespace warpfix
