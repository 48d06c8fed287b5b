// What makes renaming a thread-named runtime call (cudaThreadSynchronize ->
// cudaDeviceSynchronize) the same program: the new name, written `::name`,
// must find the runtime's function and nothing else, in every parse that
// reads the token, and the edit must reach no other token than the call's.
// The rules that cuda-removed-api applies, each answering with the reason
// for refusing, or nothing.
#ifndef WARPFIX_CHECKS_RUNTIMERENAMES_H
#define WARPFIX_CHECKS_RUNTIMERENAMES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// The name that CUDA 4 gave a thread-named runtime call, or empty. The
/// runtime's reference says of each old call that its functionality is
/// identical to the new one, which takes the same parameters.
llvm::StringRef renamedRuntimeCall(llvm::StringRef OldName);

/// Every token that a raw lexer reads, to the end of its buffer (the last
/// one included).
std::vector<clang::Token> lexToEnd(clang::Lexer &Raw);

/// "at file:line" of Loc, or of D, for a note.
std::string placeOf(clang::SourceLocation Loc, const clang::SourceManager &SM);
std::string placeOf(const clang::Decl *D, const clang::SourceManager &SM);

/// Why the token at NameLoc cannot be edited for the call alone: it comes
/// from a macro's body, or through a macro parameter that its macro pastes,
/// stringifies or uses more than once (an edit of the argument changes each
/// of those).
/// Macros gets the name of each macro the token passes through.
std::optional<std::string>
macroArgumentRefusal(clang::SourceLocation NameLoc,
                     const clang::SourceManager &SM,
                     const clang::LangOptions &LO,
                     std::vector<std::string> &Macros);

/// Why `::Name` may find something other than the runtime's declarations
/// (those of cuda_runtime_api.h and cuda_device_runtime_api.h): another
/// declaration of that name in the global namespace (or an inline namespace
/// in it), the name being a macro, or no declaration at all.
std::optional<std::string> newNameRefusal(clang::ASTContext &Ctx,
                                          llvm::StringRef Name);

/// Why an old name may mean something other than warpfix's stand-in for the
/// removed call: a declaration of it in the global namespace that
/// IsStandIn does not accept.
std::optional<std::string>
oldNameRefusal(clang::ASTContext &Ctx, llvm::StringRef Name,
               llvm::function_ref<bool(const clang::Decl *)> IsStandIn);

} // namespace warpfix

#endif
