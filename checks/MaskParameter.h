// A device helper that different lanes reach at different call sites (issue
// 15, item 3): its own code cannot tell which lanes are there, but each
// caller can. So the member mask becomes a new last parameter of the helper,
// and every call passes the lanes that reach it: the full mask where all
// lanes call, a ballot of the branch conditions where only some do (Using CUDA
// Warp-Level Primitives, "pass the mask down").
//
// The fix edits every declaration and every call of the helper at once, so it
// is made only where all of them are visible and editable: in the project's
// own files (never a system header), in a unit that is not a header analysed
// alone and is not compiled as relocatable device code, with nothing else
// naming the helper. Where a declaration or a call is in a header, other
// units may include it too: such a plan is marked (SharedParameterPrefix),
// and the merge keeps it only in a run over the whole project, where every
// unit that judges it edits the files they share alike.
#ifndef WARPFIX_CHECKS_MASKPARAMETER_H
#define WARPFIX_CHECKS_MASKPARAMETER_H

#include "checks/FindingSink.h"
#include "checks/MaskFix.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/SkippedCode.h"
#include <string>
#include <vector>

namespace warpfix {

struct MaskParameter {
  enum Outcome {
    /// The lanes are unknown for some other reason than the helper's
    /// callers differing (a call site whose own lanes are unknown, a helper
    /// that adds a lane-dependent branch of its own): nothing changes.
    NotApplicable,
    /// The callers differ and each is known, but the helper cannot be given
    /// a parameter safely: Why says what stands in the way.
    Refused,
    /// Name is the parameter, Edits the whole change outside the call.
    Ready
  };
  Outcome Result = NotApplicable;
  std::string Why;
  clang::SourceLocation WhyLoc;

  const clang::FunctionDecl *Helper = nullptr;
  std::string Name;
  struct Edit {
    clang::CharSourceRange Range;
    std::string Text;
  };
  /// The parameter on every declaration, the ballots before the branches of
  /// the partial callers, and the mask at every call.
  std::vector<Edit> Edits;
  /// Some edit is outside the unit's main file, in a header of the project.
  bool SharedFiles = false;
  /// Refused in a unit that does not call the helper, and abstains, but
  /// vetoes another unit's parameter: it names the helper otherwise. Its
  /// note then starts with ParameterVetoPrefix.
  bool VetoesParameter = false;
  /// Each call, and the lanes that reach it, for the notes.
  std::vector<std::pair<const clang::CallExpr *, Membership>> Sites;
  /// The calls in functions that nothing in the unit calls, whose lanes are
  /// those that the function's own branches let through.
  std::vector<const clang::CallExpr *> CallersUncalled;
  /// The whole-warp assumptions that the lanes inside the helper rely on.
  DefaultAssumptions Assumptions;
};

/// Whether the mask of Use, a warp primitive in a device helper that all the
/// helper's lanes reach, can come in as a parameter; Ready with the edits
/// when it can.
MaskParameter planMaskParameter(const clang::CallExpr &Use,
                                clang::ASTContext &Ctx, Analyses &Shared,
                                const SkippedCode &Skipped,
                                const MaskStyle &Style);

/// Adds Plan's edits (a Ready plan) to Finding, with the notes that say what
/// each call passes and why.
void addMaskParameter(const MaskParameter &Plan, FindingBuilder &Finding);

/// The note for a Refused plan.
std::string refusedMaskParameterNote(const MaskParameter &Plan);

} // namespace warpfix

#endif
