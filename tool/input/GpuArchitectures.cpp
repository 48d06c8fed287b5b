#include "tool/input/GpuArchitectures.h"
#include "clang/Basic/Cuda.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

namespace warpfix {

std::optional<std::string> normalizedArchitecture(llvm::StringRef Name) {
  Name = Name.trim();
  for (llvm::StringRef Prefix : {"sm_", "compute_", "lto_"})
    if (Name.consume_front(Prefix))
      break;
  llvm::StringRef Digits = Name.take_while(llvm::isDigit);
  llvm::StringRef Suffix = Name.drop_front(Digits.size());
  if (Digits.size() < 2 || Digits.size() > 3 || Digits.front() == '0' ||
      !(Suffix.empty() || Suffix == "a" || Suffix == "f"))
    return std::nullopt;
  return ("sm_" + Name).str();
}

namespace {

bool knownToClang(llvm::StringRef Arch) {
  return clang::StringToOffloadArch(Arch) != clang::OffloadArch::UNKNOWN;
}

/// What clang parses for in place of an architecture it does not know: the
/// newest one it knows that is not newer. None below those it knows.
std::optional<llvm::StringRef> standIn(llvm::StringRef Arch) {
  static const llvm::StringRef Known[] = {"sm_90", "sm_89", "sm_87",
                                          "sm_86", "sm_80", "sm_75"};
  for (llvm::StringRef Candidate : Known)
    if (cudaArchValue(Candidate) <= cudaArchValue(Arch))
      return Candidate;
  return std::nullopt;
}

/// Whether nvcc 13 compiles for Arch, or for the architecture that it is a
/// specific variant of (sm_100a, sm_100f).
bool isCuda13Architecture(llvm::StringRef Arch) {
  llvm::StringRef Base = Arch.rtrim("af");
  return llvm::is_contained(cuda13Architectures(), Base);
}

} // namespace

unsigned cudaArchValue(llvm::StringRef Arch) {
  unsigned Value = 0;
  Arch.consume_front("sm_");
  Arch.take_while(llvm::isDigit).getAsInteger(10, Value);
  return Value * 10;
}

llvm::Expected<std::vector<std::string>>
parseArchitectureList(llvm::StringRef List) {
  llvm::SmallVector<llvm::StringRef, 4> Entries;
  std::string Separated = List.str();
  std::replace(Separated.begin(), Separated.end(), ';', ',');
  std::replace(Separated.begin(), Separated.end(), ' ', ',');
  llvm::StringRef(Separated).split(Entries, ',');
  std::vector<std::string> Archs;
  for (llvm::StringRef Entry : Entries) {
    if (Entry.trim().empty())
      continue;
    std::optional<std::string> Arch = normalizedArchitecture(Entry);
    if (!Arch)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--cuda-gpu-arch: '" + Entry.trim() +
              "' is not a GPU architecture; write them as 'sm_75,sm_90' or "
              "'75;90'");
    if (!knownToClang(*Arch) && !standIn(*Arch))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--cuda-gpu-arch: clang 19 cannot parse for '" + *Arch + "'");
    // One that neither clang nor nvcc 13 knows is a typo (sm_999), not an
    // architecture to stand sm_90 in for.
    if (!knownToClang(*Arch) && !isCuda13Architecture(*Arch))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--cuda-gpu-arch: '" + *Arch +
              "' is not an architecture that clang 19 or nvcc 13 compiles "
              "for");
    if (!llvm::is_contained(Archs, *Arch))
      Archs.push_back(std::move(*Arch));
  }
  if (Archs.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--cuda-gpu-arch: no architecture given");
  return Archs;
}

std::vector<std::string> clangArchitectureOptions(llvm::StringRef Arch) {
  std::optional<llvm::StringRef> Base;
  if (knownToClang(Arch) || !(Base = standIn(Arch)))
    return {("--cuda-gpu-arch=" + Arch).str()};
  return {("--cuda-gpu-arch=" + *Base).str(), "-U__CUDA_ARCH__",
          "-D__CUDA_ARCH__=" + std::to_string(cudaArchValue(Arch))};
}

llvm::ArrayRef<llvm::StringRef> cuda13Architectures() {
  static const llvm::StringRef Archs[] = {
      "sm_75", "sm_80",  "sm_86",  "sm_87",  "sm_88",  "sm_89",
      "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"};
  return Archs;
}

std::vector<std::string>
withoutRetiredArchitectures(llvm::ArrayRef<std::string> Archs,
                            std::vector<std::string> &Retired) {
  unsigned Oldest = cudaArchValue(cuda13Architectures().front());
  std::vector<std::string> Kept;
  for (const std::string &Arch : Archs) {
    std::string Parsed = Arch;
    if (cudaArchValue(Arch) < Oldest) {
      Retired.push_back(Arch);
      Parsed = cuda13Architectures().front().str();
    }
    if (!llvm::is_contained(Kept, Parsed))
      Kept.push_back(std::move(Parsed));
  }
  return Kept;
}

} // namespace warpfix
