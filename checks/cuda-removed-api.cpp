#include "checks/cuda-removed-api.h"
#include "checks/RuntimeRenames.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/SkippedCode.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SetVector.h"
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
  if (!F)
    return;
  if (F->getIdentifier() && !renamedRuntimeCall(F->getName()).empty())
    SeenNames.insert(
        Sources.getSpellingLoc(Ref.getNameInfo().getLoc()).getRawEncoding());
  // A project's own function of an old call's name (a shim) is its code, and
  // where a shared file calls it, no unit may rename the call.
  if (!declaredAsRemoved(F, Sources) || F->isDefined()) {
    if (F->getIdentifier() && !renamedRuntimeCall(F->getName()).empty()) {
      SourceLocation At = Sources.getExpansionLoc(Ref.getLocation());
      PendingRename &Rename = Renames[At.getRawEncoding()];
      Rename.At = At;
      Rename.CallsOwnFunction = F;
    }
    return;
  }
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
  if (!renamedRuntimeCall(Name).empty()) {
    considerRename(Ref, *F, Ctx);
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

/// Why the name of Ref, a thread-named call, cannot be replaced where it
/// stands, if it cannot: the fix edits the one token of a host call that the
/// file spells, and writes the new name qualified, so that only the global
/// namespace's declarations can answer it and argument-dependent lookup
/// adds none.
static std::optional<std::string>
renameRefusal(const DeclRefExpr &Ref, CharSourceRange &Name,
              std::vector<std::string> &Macros, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  // A call's callee only: an address may be compared with the new call's,
  // which was another function, or kept where a partial rename leaves it.
  DynTypedNodeList Parents = parentsOf(Ctx, Ref);
  while (!Parents.empty() && (Parents[0].get<ImplicitCastExpr>() ||
                              Parents[0].get<ParenExpr>()))
    Parents = parentsOf(Ctx, Parents[0]);
  const auto *Call = Parents.empty() ? nullptr : Parents[0].get<CallExpr>();
  if (!Call || Call->getCallee()->IgnoreParenImpCasts() != &Ref)
    return std::string("it is not called here: its address may be compared "
                       "with the new call's, which was another function");
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
      return (isLambdaCallOperator(Holder) ? std::string("the lambda")
                                           : "'" + Holder->getNameAsString() +
                                                 "'") +
             " is compiled for the device too, where a call of the host's "
             "runtime does not compile";
  }
  if (const NestedNameSpecifier *Qualifier = Ref.getQualifier();
      Qualifier && Qualifier->getKind() != NestedNameSpecifier::Global)
    return std::string("it is named through a qualifier other than '::'");
  SourceLocation NameLoc = Ref.getNameInfo().getLoc();
  if (auto Why = macroArgumentRefusal(NameLoc, SM, LO, Macros))
    return Why;
  Name = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(NameLoc), SM,
                                  LO);
  bool Invalid = false;
  if (Name.isInvalid() ||
      Lexer::getSourceText(Name, SM, LO, &Invalid) !=
          Ref.getDecl()->getName() ||
      Invalid)
    return std::string("the name is not spelled here as one plain token");
  return std::nullopt;
}

/// The finding's message, the same in every unit that reports the call: a
/// unit that vetoes the rename must name the same finding.
static std::string renameMessage(llvm::StringRef OldName) {
  return "'" + OldName.str() + "' is not in CUDA 13's runtime; CUDA 4 "
         "renamed it '" + renamedRuntimeCall(OldName).str() + "'";
}

void CudaRemovedApiCheck::considerRename(const DeclRefExpr &Ref,
                                         const FunctionDecl &Removed,
                                         ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(Ref.getLocation());
  PendingRename &Rename = Renames[At.getRawEncoding()];
  Rename.Removed = &Removed;
  Rename.At = At;
  CharSourceRange Spelled;
  std::optional<std::string> Refusal =
      renameRefusal(Ref, Spelled, Rename.Macros, Ctx);
  if (Refusal && !Rename.Refusal)
    Rename.Refusal = std::move(Refusal);
  else if (!Refusal && Rename.Name.isInvalid()) {
    Rename.Name = Spelled;
    SourceLocation Begin = Spelled.getBegin();
    bool Invalid = false;
    const char *Before = SM.getCharacterData(Begin, &Invalid);
    Rename.Qualified = Ref.getQualifier() != nullptr;
    // `a ? b :::f()`, `7%::f()` (the digraph `%:`) or `x<::f>` in old C++
    // would lex otherwise.
    Rename.SpaceBefore = !Rename.Qualified && !Invalid &&
                         SM.getFileOffset(Begin) > 0 &&
                         llvm::StringRef(":<%").contains(Before[-1]);
  }
}

void CudaRemovedApiCheck::onCall(const CallExpr &Call, ASTContext &Ctx) {
  // A call that only an instantiation resolves: which function it calls
  // depends on the template's arguments (argument-dependent lookup may find
  // a project's own function of the same name).
  const auto *Lookup =
      dyn_cast<UnresolvedLookupExpr>(Call.getCallee()->IgnoreParenImpCasts());
  if (!Lookup || !Lookup->getName().isIdentifier() ||
      renamedRuntimeCall(Lookup->getName().getAsString()).empty())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *StandIn = nullptr;
  for (const NamedDecl *D : Lookup->decls())
    if (const auto *F = dyn_cast<FunctionDecl>(D->getUnderlyingDecl());
        F && declaredAsRemoved(F, SM) && !F->isDefined())
      StandIn = F;
  if (!StandIn)
    return;
  SeenNames.insert(SM.getSpellingLoc(Lookup->getNameLoc()).getRawEncoding());
  SourceLocation At = SM.getExpansionLoc(Lookup->getNameLoc());
  PendingRename &Rename = Renames[At.getRawEncoding()];
  Rename.Removed = StandIn;
  Rename.At = At;
  Rename.Refusal = "which function this name calls depends on the "
                   "template's arguments";
}

void CudaRemovedApiCheck::noteDeclared(const NamedDecl &D) {
  const IdentifierInfo *Name = D.getIdentifier();
  if (!Name || renamedRuntimeCall(Name->getName()).empty())
    return;
  // The stand-in's own declarations are not the project's, even where a
  // using-declaration names them.
  if (const auto *Using = dyn_cast<UsingDecl>(&D)) {
    UsingDecls.push_back(Using);
    return;
  }
  OwnDeclarations.try_emplace(Name->getName(), &D);
  if (const auto *F = dyn_cast<FunctionDecl>(&D);
      F && F->isThisDeclarationADefinition() && F->isExternallyVisible())
    OwnDefinitions.try_emplace(Name->getName(), D.getLocation());
  SeenNames.insert(Context->getSourceManager()
                       .getSpellingLoc(D.getLocation())
                       .getRawEncoding());
}

void CudaRemovedApiCheck::onFunction(const FunctionDecl &F, ASTContext &) {
  noteDeclared(F);
}

void CudaRemovedApiCheck::onOtherDeclaration(const NamedDecl &D,
                                             ASTContext &) {
  noteDeclared(D);
}

std::optional<std::string>
CudaRemovedApiCheck::unitRefusal(llvm::StringRef OldName) {
  auto [It, Inserted] = UnitRefusals.try_emplace(OldName);
  if (!Inserted)
    return It->second;
  ASTContext &Ctx = *Context;
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef NewName = renamedRuntimeCall(OldName);
  std::optional<std::string> &Refusal = It->second;
  if (auto Own = OwnDeclarations.find(OldName); Own != OwnDeclarations.end())
    Refusal = "the project declares '" + OldName.str() + "' itself (" +
              placeOf(Own->second, SM) +
              "), so the name may call its own function";
  if (!Refusal)
    Refusal = oldNameRefusal(Ctx, OldName, [&](const Decl *D) {
      return declaredAsRemoved(D, SM);
    });
  if (!Refusal)
    Refusal = newNameRefusal(Ctx, NewName);
  for (llvm::StringRef Name : {OldName, NewName})
    if (!Refusal && skippedIdentifiers().contains(Name))
      Refusal = "'" + Name.str() +
                "' is named in code this parse skipped (a branch that only "
                "the host takes, or another #if's), which may declare or "
                "define it otherwise";
  return Refusal;
}

void CudaRemovedApiCheck::onEndOfTranslationUnit() {
  // A unit read only lexically (no syntax tree, or its analysis crashed)
  // shows no node: its calls are found by name, as unparsed ones are.
  if (!Context) {
    reportUnparsedCalls(context().Sink.sourceManager());
    return;
  }
  const SourceManager &SM = Context->getSourceManager();
  for (auto &[Key, Rename] : Renames) {
    if (!Rename.Removed) {
      vetoRename(Rename);
      continue;
    }
    llvm::StringRef OldName = Rename.Removed->getName();
    llvm::StringRef NewName = renamedRuntimeCall(OldName);
    FindingBuilder Finding = report(Rename.At, renameMessage(OldName));
    std::optional<std::string> Refusal = std::move(Rename.Refusal);
    if (!Refusal && Rename.CallsOwnFunction)
      Refusal = "in one instantiation this name calls the project's own '" +
                OldName.str() + "'";
    if (!Refusal)
      Refusal = unitRefusal(OldName);
    // The host's side decides what the names mean there (its branches,
    // system headers and macros, other units' symbols), and warpfix parses
    // the device's: a rename is written only where the user asks for it.
    if (!Refusal && !RenameWanted)
      Refusal = "the host's side of the unit, which warpfix does not parse, "
                "decides what the new name calls (set CheckOptions "
                "cuda-removed-api.RenameThreadCalls: true to rename where the "
                "device's side finds no reason against it)";
    for (const std::string &Macro : Rename.Macros)
      if (!Refusal && skippedIdentifiers().contains(Macro))
        Refusal = "macro '" + Macro +
                  "' is named in code this parse skipped too, where it may "
                  "be defined to use its argument otherwise";
    if (Refusal) {
      Finding.withoutFix(Rename.At, "no automatic fix: " + *Refusal +
                                        "; call " + NewName.str() +
                                        " instead");
      continue;
    }
    std::string Text = (Rename.SpaceBefore ? " " : "") +
                       std::string(Rename.Qualified ? "" : "::") +
                       NewName.str();
    Finding.replace(Rename.Name, Text);
  }
  for (const UsingDecl *Using : UsingDecls) {
    SourceLocation At = SM.getExpansionLoc(Using->getLocation());
    report(At, "'" + Using->getNameAsString() +
                   "' is not in CUDA 13's runtime; this using-declaration "
                   "still needs porting")
        .withoutFix(At, "no automatic fix: name '" +
                            renamedRuntimeCall(Using->getName()).str() +
                            "' instead, and mend the calls through it");
  }
  vetoEverywhere(SM);
  reportUnparsedCalls(SM);
  Renames.clear();
  OwnDefinitions.clear();
  SkippedNames.reset();
  UsingDecls.clear();
  SeenNames.clear();
}

void CudaRemovedApiCheck::vetoRename(const PendingRename &Rename) {
  // Not shown: it speaks only where another unit would rename the same call,
  // whose name this unit resolves to the project's own function.
  const SourceManager &SM = Context->getSourceManager();
  const FunctionDecl &Own = *Rename.CallsOwnFunction;
  report(Rename.At, renameMessage(Own.getName()))
      .vetoOnly()
      .withoutFix(Rename.At,
                  (VetoReasonPrefix + "this name calls the project's own '" +
                   Own.getName() + "' (declared " + placeOf(&Own, SM) + ")")
                      .str());
}

const llvm::StringSet<> &CudaRemovedApiCheck::skippedIdentifiers() {
  if (SkippedNames)
    return *SkippedNames;
  SkippedNames.emplace();
  const SourceManager &SM = Context->getSourceManager();
  const SkippedCode &Skipped = context().Skipped;
  // The project's files: the toolkit's and the libraries' headers name the
  // runtime's calls in branches of their own.
  std::vector<SkippedCode::Region> Ranges = Skipped.regions();
  for (SourceRange Range : Skipped.skippedRanges())
    if (!SM.isInSystemHeader(Range.getBegin()))
      Ranges.push_back({Range, ""});
  for (const SkippedCode::Region &Region : Ranges)
    for (const Token &T : SkippedCode::rawTokens(Region, SM))
      if (T.is(tok::raw_identifier))
        SkippedNames->insert(T.needsCleaning()
                                 ? Lexer::getSpelling(T, SM,
                                                      Context->getLangOpts())
                                 : T.getRawIdentifier().str());
  return *SkippedNames;
}

void CudaRemovedApiCheck::vetoEverywhere(const SourceManager &SM) {
  // A definition of an old call's name with external linkage is what the
  // linker gives every unit's calls of that name: no unit of the run may
  // rename them. Each is found in the AST, or by its text where the parse
  // skipped it (`name(...) {` in a host-only branch).
  std::vector<std::pair<std::string, SourceLocation>> Definitions;
  for (const auto &Own : OwnDefinitions)
    Definitions.push_back({Own.getKey().str(), Own.second});
  for (SourceRange Range : context().Skipped.skippedRanges()) {
    if (SM.isInSystemHeader(Range.getBegin()))
      continue;
    std::vector<Token> Tokens = SkippedCode::rawTokens({Range, ""}, SM);
    for (size_t I = 0; I + 1 < Tokens.size(); ++I) {
      if (!Tokens[I].is(tok::raw_identifier) ||
          renamedRuntimeCall(Tokens[I].getRawIdentifier()).empty() ||
          !Tokens[I + 1].is(tok::l_paren))
        continue;
      size_t Close = I + 1;
      for (int Depth = 0; Close < Tokens.size(); ++Close) {
        Depth += Tokens[Close].is(tok::l_paren) - Tokens[Close].is(tok::r_paren);
        if (Depth == 0)
          break;
      }
      if (Close + 1 < Tokens.size() && Tokens[Close + 1].is(tok::l_brace))
        Definitions.push_back({Tokens[I].getRawIdentifier().str(),
                               Tokens[I].getLocation()});
    }
  }
  for (const auto &[Name, At] : Definitions) {
    report(At, renameMessage(Name))
        .vetoOnly()
        .withoutFix(At, (VetoEverywherePrefix + "defines its own '" + Name +
                         "' (" + placeOf(At, SM) +
                         "), which the linker gives every call of that name")
                            .str());
  }
}

void CudaRemovedApiCheck::reportUnparsedCalls(const SourceManager &SM) {
  // Calls of an old name that no AST of this unit holds: in a branch that
  // only the host's compilation takes (#ifndef __CUDA_ARCH__), or in a macro's
  // argument that the device's expansion drops (NV_IF_TARGET(NV_IS_HOST,
  // ...)). Found by name in the text, since nothing else saw them. Code that
  // the preprocessor skipped for another condition (#if 0, another
  // compiler's branch) is left alone: no compilation may take it.
  const SkippedCode &Skipped = context().Skipped;
  // The files this parse read, and the main file, which a unit read only by
  // name has not loaded yet.
  // Taken from the table first: translating a file may load a preamble's
  // entries into that same table, which would move it under the loop. Only
  // files that name an old call are translated: translateFile searches the
  // unit's source locations, and a template-heavy unit has thousands of
  // files and millions of locations.
  std::vector<FileEntryRef> Loaded;
  for (const auto &Entry :
       llvm::make_range(SM.fileinfo_begin(), SM.fileinfo_end()))
    if (std::optional<llvm::MemoryBufferRef> Buffer =
            Entry.second->getBufferIfLoaded())
      if (Buffer->getBuffer().contains("cudaThread"))
        Loaded.push_back(Entry.first);
  llvm::SetVector<FileID> Files;
  if (SM.getMainFileID().isValid())
    Files.insert(SM.getMainFileID());
  for (FileEntryRef Entry : Loaded)
    Files.insert(SM.translateFile(Entry));
  for (FileID File : Files) {
    if (File.isInvalid())
      continue;
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    std::optional<llvm::MemoryBufferRef> Buffer = SM.getBufferOrNone(File);
    if (!Entry || !Buffer || !Buffer->getBuffer().contains("cudaThread") ||
        SM.isInSystemHeader(SM.getLocForStartOfFile(File)) ||
        llvm::sys::path::filename(Entry->getName()) == RemovedApis)
      continue;
    LangOptions Lexical;
    Lexical.CPlusPlus = true;
    Lexer Raw(File, *Buffer, SM, Context ? Context->getLangOpts() : Lexical);
    std::vector<Token> Tokens = lexToEnd(Raw);
    bool InDirective = false;
    for (size_t I = 0; I + 1 < Tokens.size(); ++I) {
      // A macro's body is only code where it expands, which the AST holds.
      if (Tokens[I].isAtStartOfLine())
        InDirective = Tokens[I].is(tok::hash);
      if (InDirective || !Tokens[I].is(tok::raw_identifier) ||
          renamedRuntimeCall(Tokens[I].getRawIdentifier()).empty() ||
          !Tokens[I + 1].is(tok::l_paren) ||
          (I > 0 && Tokens[I - 1].isOneOf(tok::period, tok::arrow)))
        continue;
      SourceLocation At = Tokens[I].getLocation();
      if (SeenNames.contains(At.getRawEncoding()))
        continue;
      std::string Reason =
          "not analysed: no parse of this unit compiled this call: it is in "
          "a macro's argument that the device's expansion drops or turns "
          "into text";
      if (const SkippedCode::Region *Region = Skipped.regionHolding(At, SM))
        Reason = Region->HostOnly
                     ? "not analysed: this branch is compiled only for the "
                       "host, and warpfix parses the device's side"
                     : "not analysed: " + Region->Reason;
      // Skipped for another condition (#if 0, another compiler's branch):
      // no compilation may take it.
      else if (Skipped.skippedByPreprocessor(At, SM))
        continue;
      report(At, renameMessage(Tokens[I].getRawIdentifier()))
          .withoutFix(At, Reason + "; call " +
                              renamedRuntimeCall(
                                  Tokens[I].getRawIdentifier())
                                  .str() +
                              " instead");
    }
  }
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
  Context = &Ctx;
  RenameWanted = option(RenameThreadCallsOption) == "true";
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
