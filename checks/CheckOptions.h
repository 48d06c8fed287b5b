// The settings of a run that the checks read: the run's own, and the
// CheckOptions of the configuration, each declared by the check that reads it.
#ifndef WARPFIX_CHECKS_CHECKOPTIONS_H
#define WARPFIX_CHECKS_CHECKOPTIONS_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace warpfix {

/// How far a fix may go when the membership of a call is not proven.
enum class MaskFallback { None, ActiveMask };

/// Written after each __activemask() that MaskFallback::ActiveMask puts in:
/// such a fix is a migration aid, not a resolved finding, and
/// warp-activemask-mask reports the mask until a person chooses one.
constexpr llvm::StringLiteral ReviewMaskMarker =
    "/* warpfix: legacy semantics, review this mask */";

/// One option that a check reads from CheckOptions. The check declares it
/// (Check::options()), so that the configuration is checked against what the
/// checks read, and the default is spelled once.
struct CheckOptionInfo {
  llvm::StringLiteral Name;
  llvm::StringLiteral Default;
  /// Why Value cannot be the value of the option named Option (this one);
  /// nullopt when it can.
  std::optional<std::string> (*Problem)(llvm::StringRef Option,
                                        llvm::StringRef Value);
};

/// Settings shared by all checks, fixed for the whole run.
struct CheckOptions {
  MaskFallback Fallback = MaskFallback::None;
  /// Treat blockDim.x as a multiple of 32, so that conditions such as
  /// `threadIdx.x < 32` select whole warps.
  bool AssumeWholeWarps = true;

  /// The CheckOptions of the configuration: "<check>.<Option>" for one
  /// check, "<Option>" for all.
  std::map<std::string, std::string> Values;

  /// A check's value of Option: its own, else the global one, else the
  /// option's default.
  std::string get(llvm::StringRef Check, const CheckOptionInfo &Option) const;

  /// Changes whenever a setting that can change a finding does: part of the
  /// result cache's key.
  std::string fingerprint() const;
};

/// The value of a C integer literal: decimal, octal or hexadecimal, with a
/// u, l, ll, ul or ull suffix in either case; nothing for other text, or for
/// a value beyond 64 bits.
std::optional<uint64_t> integerLiteralValue(llvm::StringRef Text);

/// The kinds of values an option may take, as CheckOptionInfo::Problem.
std::optional<std::string> booleanProblem(llvm::StringRef Option,
                                          llvm::StringRef Value);
std::optional<std::string> identifierPrefixProblem(llvm::StringRef Option,
                                                   llvm::StringRef Value);

} // namespace warpfix

#endif
