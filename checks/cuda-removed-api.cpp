#include "checks/cuda-removed-api.h"
#include "clang/AST/DeclTemplate.h"
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

/// What to do instead of a removed runtime call, for the note; empty for
/// the calls of texture and surface references.
static std::string adviceFor(llvm::StringRef Name) {
  llvm::StringRef Replacement =
      llvm::StringSwitch<llvm::StringRef>(Name)
          .Case("cudaThreadExit", "cudaDeviceReset()")
          .Case("cudaThreadSynchronize", "cudaDeviceSynchronize()")
          .Case("cudaThreadSetLimit", "cudaDeviceSetLimit()")
          .Case("cudaThreadGetLimit", "cudaDeviceGetLimit()")
          .Case("cudaThreadGetCacheConfig", "cudaDeviceGetCacheConfig()")
          .Case("cudaThreadSetCacheConfig", "cudaDeviceSetCacheConfig()")
          .Cases("cudaConfigureCall", "cudaSetupArgument", "cudaLaunch",
                 "cudaLaunchKernel()")
          .Default("");
  if (!Replacement.empty())
    return "use " + Replacement.str();
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
