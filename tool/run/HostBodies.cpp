#include "tool/run/HostBodies.h"
#include "tool/input/Paths.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/FileManager.h"
#include "llvm/Support/FileSystem.h"

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
  // The driver reaches libstdc++ through paths such as
  // gcc/x86_64-linux-gnu/12/../../../../include, which only the file system
  // resolves; the roots hold both spellings of a linked directory.
  llvm::SmallString<256> Path(Entry->getName()), Real;
  SM.getFileManager().makeAbsolutePath(Path);
  if (llvm::sys::fs::real_path(Path, Real))
    return false;
  It->second = llvm::any_of(ToolchainRoots, [&](const std::string &Root) {
    return isUnder(Real, Root);
  });
  return It->second;
}

} // namespace warpfix
