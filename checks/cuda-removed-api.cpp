#include "checks/cuda-removed-api.h"
#include "checks/analysis/Parents.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"
#include <tuple>

using namespace clang;

namespace warpfix {

/// The compat header that declares what the toolkit removed.
static constexpr llvm::StringLiteral RemovedApis = "warpfix_removed_apis.h";

/// Whether D is declared by warpfix's stand-in for the removed API.
static bool declaredAsRemoved(const Decl *D, const SourceManager &SM) {
  SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
  return Loc.isValid() &&
         llvm::sys::path::filename(SM.getFilename(Loc)) == RemovedApis;
}

/// The name that CUDA 4 gave each thread-named runtime call. The runtime's
/// reference says of each that its functionality is identical to the call
/// of the new name, which takes the same parameters.
static llvm::StringRef renamedTo(llvm::StringRef Name) {
  return llvm::StringSwitch<llvm::StringRef>(Name)
      .Case("cudaThreadExit", "cudaDeviceReset")
      .Case("cudaThreadSynchronize", "cudaDeviceSynchronize")
      .Case("cudaThreadSetLimit", "cudaDeviceSetLimit")
      .Case("cudaThreadGetLimit", "cudaDeviceGetLimit")
      .Case("cudaThreadGetCacheConfig", "cudaDeviceGetCacheConfig")
      .Case("cudaThreadSetCacheConfig", "cudaDeviceSetCacheConfig")
      .Default("");
}

/// What to do instead of a removed runtime call that has no new name, for
/// the note; empty for the calls of texture and surface references.
static std::string adviceFor(llvm::StringRef Name) {
  if (Name == "cudaConfigureCall" || Name == "cudaSetupArgument" ||
      Name == "cudaLaunch")
    return "use cudaLaunchKernel()";
  if (Name.starts_with("cudaSetDoubleFor"))
    return "remove the call; doubles need no conversion on devices since "
           "sm_13";
  return "";
}

/// Whether a type is a texture or surface reference of the stand-in.
static std::optional<llvm::StringRef> referenceKind(QualType T,
                                                    const SourceManager &SM) {
  const TemplateDecl *Template = nullptr;
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl()))
    Template = Spec->getSpecializedTemplate();
  // In a template, texture<T, 1> is not yet a class.
  else if (const auto *Written = T->getAs<TemplateSpecializationType>())
    Template = Written->getTemplateName().getAsTemplateDecl();
  if (!Template || !declaredAsRemoved(Template, SM))
    return std::nullopt;
  return Template->getName() == "texture" ? llvm::StringRef("texture")
                                          : llvm::StringRef("surface");
}

void CudaRemovedApiCheck::onVariable(const VarDecl &Var, ASTContext &Ctx) {
  noteDeclared(Var);
  const SourceManager &Sources = Ctx.getSourceManager();
  std::optional<llvm::StringRef> Kind =
      referenceKind(Var.getType().getNonReferenceType(), Sources);
  if (!Kind)
    return;
  report(Sources.getExpansionLoc(Var.getLocation()),
         "'" + Var.getNameAsString() + "' is a " + Kind->str() +
             " reference, which CUDA 12 removed; this still needs porting")
      .withoutFix(Sources.getExpansionLoc(Var.getLocation()),
                  "no automatic fix: make it a cudaTextureObject_t"
                  "/cudaSurfaceObject_t, created on the host "
                  "(cudaCreateTextureObject) and passed to the kernels that "
                  "read it");
}

void CudaRemovedApiCheck::onDeclRef(const DeclRefExpr &Ref, ASTContext &Ctx) {
  const auto *F = dyn_cast<FunctionDecl>(Ref.getDecl());
  const SourceManager &Sources = Ctx.getSourceManager();
  // A project's own definition (a shim for the removed call) is its code.
  if (!F || !declaredAsRemoved(F, Sources) || F->isDefined())
    return;
  std::string Name = F->getNameAsString();
  SourceLocation At = Sources.getExpansionLoc(Ref.getLocation());
  // Fetches, and surface reads and writes, of a reference.
  for (auto [Prefix, Kind, Object, Call] :
       {std::tuple("tex", "texture", "cudaTextureObject_t", "<T>(object, ...)"),
        std::tuple("surf", "surface", "cudaSurfaceObject_t",
                   "(..., object, ...)")})
    if (llvm::StringRef(Name).starts_with(Prefix)) {
      report(At, "'" + Name + "' of a " + Kind +
                     " reference was removed in CUDA 12; this still needs "
                     "porting")
          .withoutFix(At, "no automatic fix: go through a " +
                              std::string(Object) + " (" + Name + Call + ")");
      return;
    }
  if (llvm::StringRef NewName = renamedTo(Name); !NewName.empty()) {
    reportRenamed(Ref, *F, NewName, Ctx);
    return;
  }
  std::string Advice = adviceFor(Name);
  bool Texture = Advice.empty();
  report(At, "'" + Name + "' is not in CUDA 13's runtime" +
                 (Texture ? std::string(" (CUDA 12 removed texture and "
                                        "surface references)")
                          : std::string()) +
                 "; this still needs porting")
      .withoutFix(At, "no automatic fix: " +
                          (Texture ? std::string("bind nothing; create a "
                                                 "texture or surface object "
                                                 "instead")
                                   : Advice));
}

/// Why the name of Ref, a thread-named call, cannot simply be replaced
/// where it stands, if it cannot: the fix edits one token of host code that
/// the file spells as written.
static std::optional<std::string>
renameRefusal(const DeclRefExpr &Ref, const FunctionDecl &Removed,
              CharSourceRange &Name, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionDecl *Declaration : Removed.redecls())
    if (!declaredAsRemoved(Declaration, SM))
      return "the project declares '" + Removed.getNameAsString() +
             "' itself, and may define it elsewhere";
  const FunctionDecl *Caller = enclosingFunction(Ctx, &Ref);
  if (!Caller)
    return std::string("it is not in a function, and warpfix renames only "
                       "in host functions");
  // Clang makes lambdas and constexpr functions __host__ __device__
  // implicitly, where nvcc compiles them for the host; a lambda is device
  // code where the function that holds it is.
  for (const FunctionDecl *Holder = Caller; Holder;
       Holder = isLambdaCallOperator(Holder)
                    ? dyn_cast<FunctionDecl>(
                          cast<CXXMethodDecl>(Holder)->getParent()->getDeclContext())
                    : nullptr) {
    const auto *OnDevice = Holder->getAttr<CUDADeviceAttr>();
    if ((OnDevice && !OnDevice->isImplicit()) ||
        Holder->hasAttr<CUDAGlobalAttr>())
      return "'" + Holder->getNameAsString() +
             "' is compiled for the device too, where a call of the host's "
             "runtime does not compile";
  }
  Name = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Ref.getNameInfo().getLoc()), SM,
      Ctx.getLangOpts());
  bool Invalid = false;
  if (Name.isInvalid() ||
      Lexer::getSourceText(Name, SM, Ctx.getLangOpts(), &Invalid) !=
          Removed.getName() ||
      Invalid)
    return std::string("the name is spelled in a macro's body, which other "
                       "code may expand too");
  return std::nullopt;
}

void CudaRemovedApiCheck::reportRenamed(const DeclRefExpr &Ref,
                                        const FunctionDecl &Removed,
                                        llvm::StringRef NewName,
                                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(Ref.getLocation());
  std::string Name = Removed.getNameAsString();
  FindingBuilder Finding =
      report(At, "'" + Name + "' is not in CUDA 13's runtime; CUDA 4 renamed "
                 "it '" + NewName.str() + "'");
  CharSourceRange Spelled;
  std::optional<std::string> Refusal =
      renameRefusal(Ref, Removed, Spelled, Ctx);
  Renames.push_back({Finding, At, Spelled, NewName, std::move(Refusal)});
}

void CudaRemovedApiCheck::noteDeclared(const NamedDecl &D) {
  if (const IdentifierInfo *Name = D.getIdentifier();
      Name && Name->getName().starts_with("cudaDevice"))
    DeclaredNames.try_emplace(Name->getName(), D.getLocation());
}

void CudaRemovedApiCheck::onFunction(const FunctionDecl &F, ASTContext &) {
  noteDeclared(F);
}

void CudaRemovedApiCheck::onOtherDeclaration(const NamedDecl &D,
                                             ASTContext &) {
  noteDeclared(D);
}

void CudaRemovedApiCheck::onEndOfTranslationUnit() {
  for (PendingRename &Rename : Renames) {
    std::optional<std::string> Refusal = std::move(Rename.Refusal);
    if (!Refusal && Idents->get(Rename.NewName).hadMacroDefinition())
      Refusal = "'" + Rename.NewName.str() +
                "' is a macro in this translation unit";
    if (!Refusal && DeclaredNames.count(Rename.NewName))
      Refusal = "the project declares a '" + Rename.NewName.str() +
                "' of its own, which the new name could find instead of the "
                "runtime's";
    if (Refusal)
      Rename.Finding.withoutFix(Rename.At, "no automatic fix: " + *Refusal +
                                               "; use " +
                                               Rename.NewName.str() + "()");
    else
      Rename.Finding.replace(Rename.Name, Rename.NewName);
  }
  Renames.clear();
}

/// Headers that old code includes and the toolkit no longer has. The compat
/// folder holds an empty stand-in for each: what they declared comes with
/// cuda_runtime.h, or from warpfix_removed_apis.h.
static constexpr llvm::StringLiteral RemovedHeaders[] = {
    "cuda_surface_types.h",       "cuda_texture_types.h",
    "device_functions_decls.h",   "math_functions_dbl_ptx3.h",
    "sm_11_atomic_functions.h",   "sm_12_atomic_functions.h",
    "sm_13_double_functions.h",   "surface_functions.h",
    "texture_fetch_functions.h"};

void CudaRemovedApiCheck::onTranslationUnit(ASTContext &Ctx) {
  Idents = &Ctx.Idents;
  const SourceManager &Sources = Ctx.getSourceManager();
  std::optional<llvm::StringRef> CompatFolder;
  for (const auto &[File, Content] :
       llvm::make_range(Sources.fileinfo_begin(), Sources.fileinfo_end()))
    if (llvm::sys::path::filename(File.getName()) == RemovedApis)
      CompatFolder = llvm::sys::path::parent_path(File.getName());
  if (!CompatFolder)
    return;
  FileManager &Files = Sources.getFileManager();
  for (llvm::StringRef Header : RemovedHeaders) {
    llvm::SmallString<256> Path(*CompatFolder);
    llvm::sys::path::append(Path, Header);
    llvm::Expected<FileEntryRef> Entry = Files.getFileRef(Path);
    if (!Entry) {
      llvm::consumeError(Entry.takeError());
      continue;
    }
    FileID Included = Sources.translateFile(*Entry);
    if (Included.isInvalid())
      continue;
    SourceLocation At = Sources.getIncludeLoc(Included);
    // Clang's own CUDA wrapper includes texture_fetch_functions.h.
    if (At.isInvalid() || Sources.isInSystemHeader(At))
      continue;
    At = Sources.getExpansionLoc(At);
    report(At, "'" + Header.str() +
                   "' is not in CUDA 13's toolkit; this #include still needs "
                   "porting")
        .withoutFix(At, "no automatic fix: remove it; what it declared "
                        "comes with cuda_runtime.h, and texture and surface "
                        "references are gone (warpfix parsed it as empty)");
  }
}

} // namespace warpfix
