// Writes a member mask into a fix: the full mask, spelled as
// the file spells it, or a chain of `__ballot_sync` of the branch conditions,
// each inserted right before its divergent statement (Using CUDA Warp-Level Primitives, listing 3).
#ifndef WARPFIX_CHECKS_MASKFIX_H
#define WARPFIX_CHECKS_MASKFIX_H

#include "checks/CheckOptions.h"
#include "checks/FindingSink.h"
#include "checks/analysis/FullMaskMacros.h"
#include "checks/analysis/Membership.h"
#include <optional>

namespace warpfix {

/// How a check writes masks, from its options: the file's own full-mask
/// macro where it has one, else FullMask; ballots named NamePrefix<line>.
struct MaskStyle {
  const FullMaskMacros &FullMasks;
  std::string FullMask;
  std::string NamePrefix;
};

/// Why Value cannot be a FullMaskSpelling, if it cannot: it must be the name
/// of a macro (checked where each fix writes it, tool/run/FullMaskSpelling.h)
/// or an integer literal whose value is 0xffffffff.
std::optional<std::string> fullMaskSpellingProblem(llvm::StringRef Option,
                                                   llvm::StringRef Value);

/// The options of MaskStyle, which every check that writes masks declares.
inline constexpr CheckOptionInfo FullMaskSpellingOption{
    "FullMaskSpelling", "0xffffffff", fullMaskSpellingProblem};
inline constexpr CheckOptionInfo MaskNamePrefixOption{
    "MaskNamePrefix", "warpfix_mask_", identifierPrefixProblem};
inline constexpr CheckOptionInfo MaskStyleOptions[] = {FullMaskSpellingOption,
                                                       MaskNamePrefixOption};

/// A statement of a mask's computation, and where it goes; or, where Replaces
/// is valid, the text that takes the place of that range (a branch condition
/// computed once before the ballot, and then tested by its name).
struct MaskInsertion {
  clang::SourceLocation At;
  std::string Text;
  clang::CharSourceRange Replaces = {};
};

/// The mask of M, AllLanes or Conditional, as text to be used at Use, with
/// the ballots that compute it (in order); nothing for an Unknown M. When a
/// ballot cannot be written (its branch comes from a macro, or its condition
/// might not give the ballot's answer again), UnwritableAt is that branch,
/// UnwritableWhy the note that says so, and the rest is empty.
struct PlannedMask {
  std::string Expression;
  std::vector<MaskInsertion> Statements;
  clang::SourceLocation UnwritableAt;
  std::string UnwritableWhy;
};
std::optional<PlannedMask> planMask(const Membership &M,
                                    clang::SourceLocation Use,
                                    const MaskStyle &Style,
                                    clang::ASTContext &Ctx);

/// Why a fix is dropped when a ballot cannot be written.
inline constexpr llvm::StringLiteral UnwritableBallotNote =
    "no automatic fix: the branch that decides which lanes take part is "
    "written by a macro, so no mask can be inserted before it";

/// Why a fix is dropped when a loop that would keep its lanes together
/// cannot be rewritten as text.
inline constexpr llvm::StringLiteral UnwritableLoopNote =
    "no automatic fix: the loop that decides which lanes take part, whose "
    "condition is lane-dependent, is written in part by a macro or in "
    "another file, so it cannot be rewritten to keep its lanes together";

/// Why a fix is dropped when a ballot's condition reads memory that other
/// lanes may write, and it cannot be computed once into a variable.
inline constexpr llvm::StringLiteral ConditionReadsMemoryNote =
    "no automatic fix: the branch condition reads memory that another lane "
    "may write between a ballot taken before the branch and the branch's "
    "own test of it, so a lane could take an arm whose mask does not name "
    "it, and it is not a lone if's condition on a line of its own, which "
    "warpfix would compute once into a variable; compute the condition once "
    "into a local variable and branch on that";

/// Adds to Finding the statements that compute the mask of M (AllLanes or
/// Conditional) and returns the expression naming it, to be used at Use. On
/// failure, returns nothing and says why through Finding.
std::optional<std::string> emitMask(const Membership &M,
                                    clang::SourceLocation Use,
                                    FindingBuilder &Finding,
                                    const MaskStyle &Style,
                                    clang::ASTContext &Ctx);

/// Name, made clear of any name the translation unit already uses: a new
/// local cannot shadow or be shadowed by one of the code's own.
std::string unusedName(std::string Name, clang::ASTContext &Ctx);

/// Inserts Statement right before Anchor: on a line of its own, indented like
/// Anchor and ended like the file's lines, or inline when Anchor shares its
/// line. False when Anchor is written by a macro.
bool insertStatementBefore(const clang::Stmt *Anchor,
                           const std::string &Statement,
                           FindingBuilder &Finding, clang::ASTContext &Ctx);

/// The indentation of the line S starts on and the file's line ending, or
/// nothing when S does not start its line (then statements go on one line).
struct LineLayout {
  std::string Indent;
  std::string LineEnd;
};
std::optional<LineLayout> lineLayoutOf(const clang::Stmt *S,
                                       clang::ASTContext &Ctx);

/// The notes that name what a fix holds on only by default: whole-warp blocks,
/// and launches in other units shaped like this unit's.
void noteAssumptions(FindingBuilder &Finding, const DefaultAssumptions &A,
                     clang::SourceLocation At);

/// The notes that say why the mask of a fix is right: every lane, or a ballot
/// of the branch conditions, and the whole-warp assumption when it was used.
/// What: what the lanes reach at At ("this call", "this statement").
void explainMask(FindingBuilder &Finding, const Membership &M,
                 clang::SourceLocation At,
                 llvm::StringRef What = "this call");

/// Records on Finding that M, an Unknown membership, leaves it without a fix:
/// an abstention when no caller was seen, else a refusal that says why.
FindingBuilder &withoutFixFor(FindingBuilder &Finding, const Membership &M);

/// The notes of a fix that --mask-fallback=activemask wrote where the lanes
/// that reach At are unknown: why they are, and that __activemask() is what
/// the legacy Form ("intrinsic", "instruction") did. What names what the
/// lanes reach, as for explainMask.
void noteActiveMaskFallback(FindingBuilder &Finding, const Membership &M,
                            clang::SourceLocation At, llvm::StringRef What,
                            llvm::StringRef Form);

/// The mask of M as text, for a note when no fix is made ("<mask>" if it
/// cannot be written).
std::string describeMask(const Membership &M, clang::SourceLocation Use,
                         const MaskStyle &Style, clang::ASTContext &Ctx);

} // namespace warpfix

#endif
