#include "tool/run/HostBodies.h"
#include "tool/input/Paths.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/FileManager.h"

using namespace clang;

namespace warpfix {

void askWhichBodiesToSkip(CompilerInvocation &Invocation) {
  Invocation.getFrontendOpts().SkipFunctionBodies = true;
}

bool HostBodySkipper::skips(const Decl &D) {
  const FunctionDecl *F = D.getAsFunction();
  // The target attributes are the declaration's, merged from earlier ones
  // and from `#pragma clang force_cuda_host_device`, before its body.
  return F && D.getASTContext().getLangOpts().CUDAIsDevice &&
         !F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAGlobalAttr>() &&
         !D.isTemplated() && SM.isInSystemHeader(D.getLocation()) &&
         inToolchainHeader(D.getLocation());
}

bool HostBodySkipper::inToolchainHeader(SourceLocation Loc) {
  FileID File = SM.getFileID(SM.getExpansionLoc(Loc));
  auto [It, New] = FileIsToolchain.try_emplace(File, false);
  if (!New)
    return It->second;
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry)
    return false;
  llvm::SmallString<256> Path(Entry->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  It->second = resolvesUnderAny(Path, ToolchainRoots);
  return It->second;
}

} // namespace warpfix
