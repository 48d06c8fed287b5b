// The errors of a tolerant parse, and the code they make untrustworthy.
//
// warpfix analyses the AST that clang recovers from errors (docs/usage.md,
// "Code that does not compile"). Findings are reported everywhere, but a fix is
// only given where no error can have misled the analysis: not in a function
// that holds an error, an invalid declaration or a RecoveryExpr, nor in a
// function that such a function calls (its call sites decide who reaches the
// code), nor in a device function that calls such a function (the analyses
// follow calls into their callees: a return value, a pointer). An error outside
// every function taints the declaration that holds it (a global, a type, a
// typedef) and the functions that name it; only one that lies outside every
// declaration of a project file (a stray token, a directive) taints the whole
// unit, since a macro or a declaration may then mean something else than
// clang thought.
#ifndef WARPFIX_TOOL_RUN_PARSEERRORS_H
#define WARPFIX_TOOL_RUN_PARSEERRORS_H

#include "tool/run/MacroWorlds.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// Runs its actions as tooling::FrontendActionFactory does, with two changes
/// shared by the analysis and the fix verifier: clang's verbose output ("N
/// errors generated") goes to the stream given, and a fatal error counts as an
/// ordinary one. A missing #include is fatal to clang: everything after it
/// would go unreported, and Sema would stop instantiating templates (nor
/// would the errors that a fix after it adds be seen). As an ordinary error
/// it leaves the rest of the TU to be parsed, as clangd does for the same
/// reason.
class TolerantActionFactory : public clang::tooling::FrontendActionFactory {
public:
  explicit TolerantActionFactory(llvm::raw_ostream &Verbose)
      : Verbose(Verbose) {}

  bool
  runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                clang::FileManager *Files,
                std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
                clang::DiagnosticConsumer *DiagConsumer) override;

protected:
  /// Called with each unit's invocation before it is parsed; may change it.
  virtual void
  prepare(clang::CompilerInvocation &, clang::FileManager &,
          std::shared_ptr<clang::PCHContainerOperations>) {}

private:
  llvm::raw_ostream &Verbose;
};

struct ParseError {
  clang::SourceLocation Loc;
  /// "file:line:col: message", or the message alone.
  std::string Text;
  /// The file it is in, if it has a place.
  std::string File;
  /// A missing #include. It lies outside every function, but what it hides
  /// shows up as errors where its declarations are used, so it taints
  /// nothing by itself.
  bool MissingFile = false;
  /// For a missing #include: the name it gives ("config.h", "af/version.h").
  std::string MissingName;
  /// An error of the preprocessor or the lexer (an #error, a bad directive):
  /// it belongs to no declaration.
  bool Lexical = false;
};

/// Passes every diagnostic on to Next and keeps the errors, with their
/// locations, for as long as the parse's source manager lives.
class ErrorRecorder : public clang::DiagnosticConsumer {
public:
  explicit ErrorRecorder(clang::DiagnosticConsumer &Next) : Next(Next) {}

  void BeginSourceFile(const clang::LangOptions &LangOpts,
                       const clang::Preprocessor *PP) override {
    Next.BeginSourceFile(LangOpts, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  std::vector<ParseError> Errors;

private:
  clang::DiagnosticConsumer &Next;
};

/// The #if, #ifdef and #ifndef blocks of project files that test a macro
/// which is not defined where they test it (include guards aside). Where a
/// header is missing, it may have defined that macro, and then other code
/// would be compiled in and around the block.
class UndefinedMacroTests {
public:
  struct Block {
    clang::SourceLocation If, Endif;
    std::string Macro;
  };
  /// An expansion of a macro defined inside such a block, as in
  /// `#ifndef BLOCK` / `#define BLOCK 256`: a missing header that defines the
  /// tested macro may give it another value. Its block is named by its If.
  struct DefaultUse {
    clang::SourceLocation At, BlockIf;
    std::string Name;
    /// For a macro defined in a block that such a default decides (below):
    /// that block's #if, and the default its condition expands.
    clang::SourceLocation ViaIf;
    std::string ViaName;
  };
  /// A block whose #if or #elif condition expands such a default, as in
  /// `#if USE_ASM == 1`: where the missing header gives it another value,
  /// another branch is compiled. Its code and what it declares are in doubt.
  struct DecidedBlock {
    clang::SourceLocation If, Endif;
    DefaultUse By;
  };
  void attach(clang::Preprocessor &PP);
  /// The #if chains after the missing header, to tell which of the blocks
  /// below compile the same code in every build the project's #error
  /// guards let through.
  MacroWorlds Worlds;
  /// Include guards are not among them, nor the uses of their macros.
  std::vector<Block> Blocks;
  /// Uses in code, not in #if conditions: those decide the blocks below.
  std::vector<DefaultUse> DefaultUses;
  std::vector<DecidedBlock> Decided;
};

/// Where clang's recovery from Errors may have dropped code: for each error
/// in a project file, from the error to the start of the next declaration at
/// namespace scope (or the file's end), with the error.
std::vector<std::pair<clang::SourceRange, std::string>>
rangesRecoveryMayHaveDropped(clang::ASTContext &Ctx,
                             const std::vector<ParseError> &Errors);

/// Which code of a TU with errors may not be fixed, and why.
class ErrorTaint {
public:
  ErrorTaint(clang::ASTContext &Ctx, const std::vector<ParseError> &Errors,
             const UndefinedMacroTests &Tests);

  /// Why a fix at Places (the finding, then its edits) must be withheld, or
  /// nothing when every function around them is untouched by the errors.
  std::optional<std::string>
  reasonFor(llvm::ArrayRef<clang::SourceLocation> Places) const;

  /// "this translation unit has N errors; the first: ...".
  static std::string summary(const std::vector<ParseError> &Errors);

private:
  struct Taint {
    /// The function that holds the error.
    std::string Root;
    std::string Error;
    /// How the tainted function relates to Root: "which decides who
    /// reaches this code", "which this code calls".
    std::string Relation;
    /// Its own analysis cannot be trusted (it holds an error, or calls a
    /// function that does), so its callers' cannot either. False where only
    /// who reaches it is in doubt, which its callers' analysis never asks.
    bool Upward = true;
  };
  struct Function {
    const clang::FunctionDecl *Decl;
    clang::SourceLocation Begin, End;
  };
  void taint(const clang::FunctionDecl *F, Taint Why,
             std::vector<const clang::FunctionDecl *> &Work);
  static std::string count(const std::vector<ParseError> &Errors);
  void indexFunctions();
  /// The functions whose text holds At, in the order of Functions.
  std::vector<const Function *>
  functionsHolding(clang::SourceLocation At) const;

  const clang::SourceManager &SM;
  const std::vector<ParseError> &Errors;
  std::vector<Function> Functions;
  /// Indices into Functions by the file that holds a function's text, and
  /// those whose text spans files or comes from a precompiled preamble.
  llvm::DenseMap<clang::FileID, std::vector<size_t>> FunctionsInFile;
  std::vector<size_t> FunctionsAnywhere;
  /// By canonical declaration.
  llvm::DenseMap<const clang::FunctionDecl *, Taint> Tainted;
  /// Who refers to each function (by canonical declaration), and to whom
  /// each function body refers.
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<const clang::FunctionDecl *>>
      Callers;
  /// Why D, named by some function, is in doubt: it (or the declaration at
  /// namespace scope it belongs to) holds an error, its header has an error
  /// outside every declaration, or its type is such a declaration.
  std::optional<std::string> brokenDeclaration(const clang::Decl *D,
                                               unsigned Depth) const;
  /// Declarations at namespace scope that hold an error outside every
  /// function, or whose text a macro that a missing header may define
  /// decides, by canonical declaration, with what follows "whose
  /// declaration" in a reason: "has an error: ...", "depends on a macro: ...".
  llvm::DenseMap<const clang::Decl *, std::string> Broken;
  /// Toolkit headers with an error outside every declaration (an #error).
  llvm::DenseMap<clang::FileID, std::string> BrokenFiles;
  /// An error in a project file outside every declaration (a stray token, a
  /// preprocessor directive): it may change what any code means, so no fix
  /// anywhere.
  std::optional<std::string> Everywhere;
  /// After a missing header, the ends of the argument lists of the calls
  /// that an overload it declares could take over: a fix that edits there
  /// adds an argument to a call that may not call what clang saw.
  struct ArgumentEnd {
    clang::SourceLocation Open, Close;
    std::string Why;
  };
  std::vector<ArgumentEnd> ArgumentEnds;
};

} // namespace warpfix

#endif
