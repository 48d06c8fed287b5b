#include "checks/BarrierPlacement.h"
#include "checks/MaskFix.h"
#include "checks/StatementText.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/Loops.h"
#include "checks/analysis/Parents.h"

using namespace clang;

namespace warpfix {

std::optional<std::vector<BarrierPlace>>
barrierPlaces(const std::vector<const Race *> &Races,
              const BarrierWording &Wording, FindingBuilder &Finding,
              ASTContext &Ctx) {
  auto Ancestors = [&](const Stmt *S) {
    std::vector<const Stmt *> Chain;
    for (; S; S = parentStmt(Ctx, S))
      Chain.push_back(S);
    return Chain;
  };
  std::vector<BarrierPlace> Places;
  struct Gap {
    const CompoundStmt *Block;
    size_t Earlier, Later;
  };
  std::vector<Gap> Between;
  std::string Parties = (Wording.Party + "s").str();
  for (const Race *R : Races) {
    const SharedAccess *Earlier = R->Write, *Later = R->Other;
    if (Earlier->Sequence > Later->Sequence)
      std::swap(Earlier, Later);
    // An access in a function the kernel calls is made during the kernel's
    // statement that calls it. Two accesses of one call are ordered in the
    // function (a helper's own reduction); any others between the kernel's
    // statements that make them, never in a function that other calls
    // share.
    bool OneCall = Earlier->KernelStatement == Later->KernelStatement &&
                   enclosingFunction(Ctx, Earlier->Statement) ==
                       enclosingFunction(Ctx, Later->Statement);
    bool ThroughCall =
        !OneCall && (Earlier->KernelStatement != Earlier->Statement ||
                     Later->KernelStatement != Later->Statement);
    if (ThroughCall && Earlier->KernelStatement == Later->KernelStatement) {
      Finding.withoutFix(
          R->Write->Access->getBeginLoc(),
          ("no automatic fix: the racing accesses are made within one "
           "statement of the kernel, through a function it calls; a " +
           Wording.Barrier +
           " between them would have to go into that function")
              .str());
      return std::nullopt;
    }
    if (!ThroughCall && Earlier->Statement == Later->Statement &&
        Earlier->Sequence + 8 > Later->Sequence) {
      std::string Split = "no automatic fix: the racing read and write are "
                          "in one statement; read into a register, " +
                          Wording.Barrier.str() + ", then write";
      if (!Wording.SplitListing.empty())
        Split += " (" + Wording.SplitListing.str() + ")";
      Finding.withoutFix(
          R->Write->Access->getBeginLoc(),
          R->Other->IsWrite
              ? "no automatic fix: " + Parties +
                    " write the element in one statement, so which " +
                    Wording.Party.str() +
                    "'s value it keeps is undefined, with or without a " +
                    Wording.Barrier.str()
              : Split);
      return std::nullopt;
    }
    std::vector<const Stmt *> A =
        Ancestors(ThroughCall ? Earlier->KernelStatement : Earlier->Statement);
    std::vector<const Stmt *> B =
        Ancestors(ThroughCall ? Later->KernelStatement : Later->Statement);
    const CompoundStmt *Common = nullptr;
    const Stmt *ChildA = nullptr, *ChildB = nullptr;
    for (size_t I = 1; I < A.size() && !Common; ++I)
      if (const auto *Block = dyn_cast<CompoundStmt>(A[I]))
        for (size_t J = 1; J < B.size(); ++J)
          if (B[J] == Block) {
            Common = Block;
            ChildA = A[I - 1];
            ChildB = B[J - 1];
            break;
          }
    if (!Common) {
      Finding.withoutFix(R->Write->Access->getBeginLoc(),
                         "no automatic fix: the racing accesses are in "
                         "different functions");
      return std::nullopt;
    }
    auto Index = [&](const Stmt *S) -> size_t {
      return std::find(Common->body_begin(), Common->body_end(), S) -
             Common->body_begin();
    };
    if (ChildA != ChildB && Index(ChildA) < Index(ChildB)) {
      Between.push_back({Common, Index(ChildA), Index(ChildB)});
      continue;
    }
    // The later access comes first in the text: it belongs to the next
    // iteration, and the barrier goes at the end of the loop body. Both in
    // one statement, in the order of the text (a condition's read and a
    // store in its branch), nothing can stand between them.
    bool InOrder =
        ChildA == ChildB &&
        (ThroughCall ||
         Ctx.getSourceManager().isBeforeInTranslationUnit(
             Earlier->Access->getBeginLoc(), Later->Access->getBeginLoc()));
    const Stmt *Loop = parentStmt(Ctx, Common);
    if (InOrder || !Loop || !isLoop(Loop) || Common->body_empty()) {
      Finding.withoutFix(R->Write->Access->getBeginLoc(),
                         "no automatic fix: no single place separates the "
                         "racing accesses");
      return std::nullopt;
    }
    // A continue starts the next iteration without passing the end of the
    // body: the barrier there would not order the accesses on that path.
    std::vector<const Stmt *> Exits = exitsOf(Ctx, Common);
    if (auto Skip = llvm::find_if(
            Exits, [](const Stmt *Exit) { return isa<ContinueStmt>(Exit); });
        Skip != Exits.end()) {
      Finding.withoutFix((*Skip)->getBeginLoc(),
                         "no automatic fix: the barrier that orders one "
                         "iteration's accesses before the next one's would "
                         "stand at the end of the loop body, which this "
                         "continue skips");
      return std::nullopt;
    }
    Places.push_back({Common->body_back(), true});
  }
  // One barrier before the first later statement of a block orders every
  // earlier access of that block before all of them: a barrier before each
  // reader would only repeat it.
  for (const Gap &G : Between) {
    size_t First = G.Later;
    bool Covers = true;
    for (const Gap &Other : Between)
      if (Other.Block == G.Block)
        First = std::min(First, Other.Later);
    for (const Gap &Other : Between)
      if (Other.Block == G.Block)
        Covers &= Other.Earlier < First;
    BarrierPlace Place{G.Block->body_begin()[Covers ? First : G.Later], false};
    if (llvm::find(Places, Place) == Places.end())
      Places.push_back(Place);
  }
  return Places;
}

/// Whether the lines from Begin to End hold a line of conditional
/// compilation: a barrier written there would be in one of its arms, or
/// outside the arm the accesses are in.
static bool conditionalDirectiveBetween(SourceLocation Begin,
                                        SourceLocation End,
                                        const SourceManager &SM) {
  // Text that is not one stretch of a file (a macro's) is refused as such
  // by the insertion.
  if (Begin.isMacroID() || End.isMacroID() ||
      SM.getFileID(Begin) != SM.getFileID(End) ||
      SM.getFileOffset(End) < SM.getFileOffset(Begin))
    return false;
  FileText Text(SM, SM.getFileID(Begin));
  return directiveBetween(Text, Text.offsetOf(Begin), Text.offsetOf(End),
                          Directives::Conditional);
}

/// Where the text before S starts: the end of the statement before it in
/// its block, or the block's opening brace.
static SourceLocation textBefore(const Stmt *S, ASTContext &Ctx) {
  const auto *Block = dyn_cast_or_null<CompoundStmt>(parentStmt(Ctx, S));
  if (!Block)
    return SourceLocation();
  SourceLocation After = Block->getLBracLoc();
  for (const Stmt *Child : Block->body()) {
    if (Child == S)
      break;
    After = Child->getEndLoc();
  }
  return Ctx.getSourceManager().getExpansionLoc(After);
}

bool insertBarrier(const BarrierPlace &Place, const std::string &Barrier,
                   FindingBuilder &Finding, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // A jump to a label (a switch's case among them) would pass a barrier
  // written before it by; and nvcc rejects a statement between
  // [[fallthrough]] and a case.
  if (!Place.AtEnd && isa<SwitchCase, LabelStmt>(Place.At)) {
    Finding.withoutFix(Place.At->getBeginLoc(),
                       "no automatic fix: the place between the accesses "
                       "is a label, which a jump to it would pass the "
                       "barrier by");
    return false;
  }
  SourceLocation From = Place.AtEnd ? SM.getExpansionLoc(Place.At->getEndLoc())
                                    : textBefore(Place.At, Ctx);
  SourceLocation To = SM.getExpansionLoc(
      Place.AtEnd ? cast<CompoundStmt>(parentStmt(Ctx, Place.At))->getRBracLoc()
                  : Place.At->getBeginLoc());
  if (From.isValid() && conditionalDirectiveBetween(From, To, SM)) {
    Finding.withoutFix(Place.At->getBeginLoc(),
                       "no automatic fix: conditional compilation (#if, "
                       "#else) stands where the barrier would go, so it "
                       "would order the accesses in one configuration only");
    return false;
  }
  if (!Place.AtEnd) {
    if (insertStatementBefore(Place.At, Barrier, Finding, Ctx))
      return true;
    Finding.withoutFix(Place.At->getBeginLoc(),
                       "no automatic fix: the statement is written by a "
                       "macro");
    return false;
  }
  const auto *Block = cast<CompoundStmt>(parentStmt(Ctx, Place.At));
  SourceLocation Close = Block->getRBracLoc();
  std::optional<LineLayout> Layout = lineLayoutOf(Place.At, Ctx);
  // Before the closing brace's line, indented like the body: only where the
  // brace starts its line, since another statement's brace before it
  // (`} }`) would take the barrier into that statement.
  bool BraceStartsLine = false;
  SourceLocation LineStart;
  if (!Close.isMacroID()) {
    FileText Text(SM, SM.getFileID(Close));
    unsigned Brace = Text.offsetOf(Close);
    LineStart = Text.at(Text.lineStart(Brace));
    BraceStartsLine = Text.startsLine(Brace);
  }
  if (!BraceStartsLine || !Layout) {
    Finding.withoutFix(Place.At->getBeginLoc(),
                       "no automatic fix: the loop body is written on one "
                       "line or by a macro, or its closing brace shares its "
                       "line with other code");
    return false;
  }
  Finding.insertBefore(LineStart, Layout->Indent + Barrier + Layout->LineEnd);
  return true;
}

} // namespace warpfix
