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
  void Endif(SourceLocation, SourceLocation) override {
    if (!Chains.empty())
      Chains.pop_back();
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    const SourceManager &SM = PP.getSourceManager();
    if (Chains.empty() || SM.isInSystemHeader(Range.getBegin()) ||
        !llvm::StringRef(Chains.back()).contains("__CUDA_ARCH__"))
      return;
    Out.Regions.push_back({Range, Chains.back()});
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
};

void SkippedCode::attach(Preprocessor &PP) {
  PP.addPPCallbacks(std::make_unique<SkippedCodeRecorder>(*this, PP));
}

} // namespace warpfix
