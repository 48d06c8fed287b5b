// The one place where check names are spelled. The command line, --list-checks
// and the docs all read this table.
#ifndef WARPFIX_CHECKS_CHECKREGISTRY_H
#define WARPFIX_CHECKS_CHECKREGISTRY_H

#include "checks/Check.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

struct CheckInfo {
  llvm::StringRef Name;
  llvm::StringRef Summary;
  /// A fresh instance, told its name.
  std::unique_ptr<Check> (*Create)(llvm::StringRef Name, CheckContext &);
  /// The options it reads (Check::options()).
  llvm::ArrayRef<CheckOptionInfo> (*Options)();
  /// Comma-separated tokens without which a file holds nothing this check
  /// reports; the prefilter skips the parse of a TU none of whose user files
  /// contains any of them. "name" is that identifier, "name*" an identifier
  /// starting with it (names pasted together by macros), "*text" the text
  /// anywhere.
  llvm::StringRef TriggerTokens;
};

llvm::ArrayRef<CheckInfo> allChecks();

/// The check named exactly Name; an unknown name is an error that lists the
/// known checks.
llvm::Expected<const CheckInfo *> findCheck(llvm::StringRef Name);

/// Why a CheckOptions entry cannot stand, if it cannot: Key is
/// "<check>.<Option>" or "<Option>", and names an option that check, or some
/// check, declares; Value is one that the option accepts.
std::optional<std::string> checkOptionProblem(llvm::StringRef Key,
                                              llvm::StringRef Value);

/// The checks that run when nothing says otherwise.
inline constexpr llvm::StringLiteral DefaultChecks = "warp-*,cuda-*";

/// The glob list Given, set over Inherited (the default, or a configuration
/// file's): one that begins with a glob that disables
/// ("-warp-missing-syncwarp,...") takes checks away from those in force, as
/// clang-tidy's --checks does; one that begins with a glob that enables, or
/// with "-*", names the checks itself.
std::string layeredChecks(llvm::StringRef Inherited, llvm::StringRef Given);

/// Applies a clang-tidy style glob list ("-*,warp-legacy-*") to the registry,
/// left to right. A positive pattern that names no known check is an error, so
/// that a typo cannot silently disable a check.
llvm::Expected<std::vector<const CheckInfo *>>
selectChecks(llvm::StringRef GlobList);

} // namespace warpfix

#endif
