#include "checks/CheckRegistry.h"
#include "checks/NoLintDirectives.h"
#include "checks/block-divergent-syncthreads.h"
#include "checks/block-missing-syncthreads.h"
#include "checks/cuda-removed-api.h"
#include "checks/warp-activemask-mask.h"
#include "checks/warp-full-mask-divergent.h"
#include "checks/warp-legacy-intrinsic.h"
#include "checks/warp-legacy-ptx.h"
#include "checks/warp-missing-syncwarp.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"

namespace warpfix {

template <typename T>
static std::unique_ptr<Check> create(llvm::StringRef Name,
                                     CheckContext &Context) {
  return std::make_unique<T>(Name, Context);
}

static const CheckInfo Registry[] = {
    {"block-divergent-syncthreads",
     "a barrier of the whole block (__syncthreads(), a thread block's "
     "sync(), bar.sync) that not every thread of the block reaches; "
     "fixed by moving an early return past the barriers after it, or the "
     "barriers that end both arms of an if/else after it, where every "
     "thread provably reaches them",
     create<BlockDivergentSyncthreadsCheck>,
     BlockDivergentSyncthreadsCheck::options,
     // The barriers' names, a group's sync(), and the PTX opcodes as they
     // stand in an asm template.
     "__syncthreads*,__barrier_sync,sync,bar,barrier"},
    {"block-missing-syncthreads",
     "shared memory written by a thread of one warp and read or written by "
     "a thread of another warp of the block, with no __syncthreads() between "
     "them; reported, with the two threads and the element",
     create<BlockMissingSyncthreadsCheck>,
     BlockMissingSyncthreadsCheck::options, "__shared__"},
    {"cuda-removed-api",
     "texture and surface references, the runtime calls and the headers "
     "that CUDA 12 and 13 removed; reported, since each still needs porting "
     "by hand",
     create<CudaRemovedApiCheck>, CudaRemovedApiCheck::options,
     // The references' types and fetches, the removed calls, and the names
     // of the removed headers as they stand in an #include.
     "texture,surface,tex1D*,tex2D*,tex3D*,texCubemap*,cudaThread*,"
     "cudaBind*,cudaUnbind*,cudaGetTexture*,cudaGetSurfaceReference,"
     "cudaSetDoubleFor*,cudaConfigureCall,cudaSetupArgument,cudaLaunch,"
     "*_functions_decls,*sm_11_atomic,*sm_12_atomic,*sm_13_double,"
     "*math_functions_dbl_ptx3,*cuda_surface_types,*cuda_texture_types,"
     "*surface_functions.h,*texture_fetch_functions"},
    {"warp-activemask-mask",
     "__activemask() used as the member mask of a *_sync primitive, or "
     "compared with the full mask; rewritten to the mask of the lanes that "
     "should take part",
     // "activemask" is the PTX instruction, activemask.b32.
     create<WarpActivemaskMaskCheck>, WarpActivemaskMaskCheck::options,
     "__activemask,activemask"},
    {"warp-full-mask-divergent",
     "a full member mask on a *_sync primitive that only some lanes reach; "
     "rewritten to a ballot of the branch condition",
     // Every primitive with a member mask, __syncwarp included.
     create<WarpFullMaskDivergentCheck>, WarpFullMaskDivergentCheck::options,
     "*_sync"},
    {"warp-legacy-intrinsic",
     "legacy warp intrinsics (__shfl*, __ballot, __any, __all) that CUDA 13 "
     "no longer compiles; rewritten to the *_sync forms with a proven mask",
     create<WarpLegacyIntrinsicCheck>, WarpLegacyIntrinsicCheck::options,
     "__shfl*,__ballot*,__any,__all"},
    {"warp-legacy-ptx",
     "shfl and vote without .sync in inline PTX, which ptxas rejects for "
     "sm_70 and later; rewritten to the .sync forms with a proven mask",
     // The instructions' first words, as they stand in an asm template.
     create<WarpLegacyPtxCheck>, WarpLegacyPtxCheck::options, "shfl,vote"},
    {"warp-missing-syncwarp",
     "shared-memory accesses by two lanes of one warp to one location with "
     "no __syncwarp() between them; split with __syncwarp() (listing 8)",
     create<WarpMissingSyncwarpCheck>, WarpMissingSyncwarpCheck::options,
     "__shared__"},
};

llvm::ArrayRef<CheckInfo> allChecks() { return Registry; }

static std::string knownCheckList() {
  std::string List;
  for (const CheckInfo &Info : allChecks())
    List += "\n  " + Info.Name.str();
  return List;
}

llvm::Expected<const CheckInfo *> findCheck(llvm::StringRef Name) {
  for (const CheckInfo &Info : allChecks())
    if (Info.Name == Name)
      return &Info;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown check '" + Name +
                                     "'; the known checks are:" +
                                     knownCheckList());
}

/// The names of Options, comma-separated, each once, sorted.
static std::string optionNames(llvm::ArrayRef<CheckOptionInfo> Options) {
  std::vector<std::string> Names;
  for (const CheckOptionInfo &Option : Options)
    Names.push_back(Option.Name.str());
  llvm::sort(Names);
  Names.erase(std::unique(Names.begin(), Names.end()), Names.end());
  return llvm::join(Names, ", ");
}

std::optional<std::string> checkOptionProblem(llvm::StringRef Key,
                                              llvm::StringRef Value) {
  std::vector<CheckOptionInfo> Declared;
  llvm::StringRef Option = Key;
  if (auto Dot = Key.rfind('.'); Dot != llvm::StringRef::npos) {
    llvm::StringRef Name = Key.take_front(Dot);
    Option = Key.drop_front(Dot + 1);
    llvm::Expected<const CheckInfo *> Info = findCheck(Name);
    if (!Info) {
      llvm::consumeError(Info.takeError());
      return ("unknown check '" + Name + "' in CheckOptions key '" + Key + "'")
          .str();
    }
    llvm::append_range(Declared, (*Info)->Options());
    // An option that this check does not read would be ignored in silence.
    if (llvm::none_of(Declared, [&](const CheckOptionInfo &Known) {
          return Known.Name == Option;
        }))
      return ("check '" + Name + "' has no option '" + Option +
              "' in CheckOptions key '" + Key + "' (" +
              (Declared.empty() ? "it has none"
                                : "its options: " + optionNames(Declared)) +
              ")")
          .str();
  } else {
    for (const CheckInfo &Info : allChecks())
      llvm::append_range(Declared, Info.Options());
  }
  for (const CheckOptionInfo &Known : Declared)
    if (Known.Name == Option)
      return Known.Problem(Known.Name, Value);
  return ("unknown option '" + Option + "' in CheckOptions key '" + Key +
          "' (known: " + optionNames(Declared) + ")")
      .str();
}

std::string layeredChecks(llvm::StringRef Inherited, llvm::StringRef Given) {
  llvm::StringRef First = Given.ltrim(" ,").split(',').first.trim();
  // "-*" first disables whatever was in force: the list stands alone.
  if (First.starts_with("-") && First != "-*")
    return (Inherited + "," + Given).str();
  return Given.str();
}

llvm::Expected<std::vector<const CheckInfo *>>
selectChecks(llvm::StringRef GlobList) {
  std::vector<bool> Enabled(allChecks().size(), false);
  llvm::SmallVector<llvm::StringRef, 8> Items;
  GlobList.split(Items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    if (Item.empty())
      continue;
    bool Positive = !Item.consume_front("-");
    llvm::Expected<llvm::GlobPattern> Pattern =
        llvm::GlobPattern::create(Item);
    if (!Pattern)
      return Pattern.takeError();
    // The pseudo-check for unmatched NOLINTBEGIN/END is always on; naming it
    // is not a typo, and disabling it has no effect.
    bool Matched = Pattern->match(NoLintCheckName);
    for (size_t I = 0; I < allChecks().size(); ++I) {
      if (Pattern->match(allChecks()[I].Name)) {
        Enabled[I] = Positive;
        Matched = true;
      }
    }
    if (Positive && !Matched)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "unknown check '" + Item + "'; the known checks are:" +
              knownCheckList());
  }
  std::vector<const CheckInfo *> Selected;
  for (size_t I = 0; I < allChecks().size(); ++I)
    if (Enabled[I])
      Selected.push_back(&allChecks()[I]);
  if (Selected.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no check is enabled by '" + GlobList +
                                       "'; the known checks are:" +
                                       knownCheckList());
  return Selected;
}

} // namespace warpfix
